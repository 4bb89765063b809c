"""The max-flow cross-check of the analysis: the maximum flow over the union of the paths
(node capacities by node splitting) and the min-cut hops. Max flow is an upper bound of the
max-min fair aggregate and equals it when no path could gain without another losing.

Off the hot path (``analyze(..., cross_check=True)``, ``sanplan analyze --cross-check``, the
build sheet, the tests). The formulation, per independent bundle of paths (a site of many
servers is many small problems): hops crossed by exactly the same paths are merged into one
(series hops: the smallest capacity binds); then the fair allocation's own rates are tried as
the maximum flow. They are a feasible flow; when no augmenting path is left in its residual
graph the flow is maximum (the certificate), its value is the bundle's aggregate, and the min
cut is read off the same residual graph in O(paths x hops). Only a bundle that fails the
certificate (paths held below their bottleneck by a workload target, a chain crossing a hop
twice) goes to networkx's preflow-push. Both give the same cut: the one nearest the sink (the
set of nodes that can still reach the sink is the same for every maximum flow)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from planner.fairshare import PAUSE_EVERY

if TYPE_CHECKING:
    from planner.analysis import Load, Path


def _no_pause() -> None:
    pass


def max_flow(
    paths: list[Path], loads: dict[str, Load], pause: Callable[[], None] | None = None
) -> tuple[float, list[str]]:
    """Max flow over the union of the paths (capacities on split nodes) and the min-cut hops.

    Hops crossed by exactly the same paths are in series; they are merged into one node with
    the smallest capacity first. Paths that share no capacitated hop are independent, so the
    flow is computed per connected group of paths and summed (a site of many servers).
    ``pause`` (optional): called every few paths and before each group, a background caller's
    point to give way (it may wait, or raise to abandon the computation; the 16x site's
    cross-check takes 50-80 ms, two thirds of it in the passes over every path).
    """
    pause = pause or _no_pause
    group_of, groups, best = _series_groups(paths, loads, pause)
    total, cut = 0.0, []
    for bundle in _independent_chains(paths, group_of, groups, pause).values():
        pause()
        seqs = [seq for seq, _ in bundle]
        if any(not s for s in seqs):
            return math.inf, []
        got = _certified_cut(bundle, best)
        value, hops = got if got is not None else _min_cut(seqs, best)
        total += value
        cut += hops
    return float(total), sorted(cut)


def _series_groups(
    paths: list[Path], loads: dict[str, Load], pause: Callable[[], None] = _no_pause
) -> tuple[dict[str, int], dict[tuple[int, ...], int], list[tuple[float, str]]]:
    """Merge hops crossed by the same set of paths: (hop -> group, path set -> group, per group
    its smallest capacity and the hop that has it)."""
    members: dict[str, list[int]] = {}
    for i, p in enumerate(paths):
        if i % PAUSE_EVERY == 0:
            pause()
        for hid in p.hops:
            if loads[hid].capacity:
                members.setdefault(hid, []).append(i)
    group_of: dict[str, int] = {}
    groups: dict[tuple[int, ...], int] = {}
    best: list[tuple[float, str]] = []
    for hid, idx in members.items():
        key = tuple(idx)
        gid = groups.get(key)
        cap = loads[hid].capacity or 0.0
        if gid is None:
            gid = groups[key] = len(best)
            best.append((cap, hid))
        elif cap < best[gid][0]:
            best[gid] = (cap, hid)
        group_of[hid] = gid
    return group_of, groups, best


def _independent_chains(
    paths: list[Path],
    group_of: dict[str, int],
    groups: dict[tuple[int, ...], int],
    pause: Callable[[], None] = _no_pause,
) -> dict[int, list[tuple[list[int], float | None]]]:
    """Paths as (chain of series groups, rate), bundled by connected component (union-find)."""
    parent = list(range(len(paths)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for idx in groups:
        r = find(idx[0])
        for i in idx[1:]:
            ri = find(i)
            if ri != r:
                parent[ri] = r
    chains: dict[int, list[tuple[list[int], float | None]]] = {}
    for i, p in enumerate(paths):
        if i % PAUSE_EVERY == 0:
            pause()
        seq: list[int] = []
        for hid in p.hops:
            gid = group_of.get(hid, -1)
            if gid >= 0 and (not seq or seq[-1] != gid):
                seq.append(gid)
        chains.setdefault(find(i), []).append((seq, p.mbps))
    return chains


#: relative slack within which a hop's summed rates count as its capacity (float sums of rates)
_TIGHT = 1e-9


def _loop_erased(seq: list[int]) -> list[int]:
    """The chain as a simple path of the graph: a chain that comes back to a group (a path's
    own hops, merged, around the shared ASIC or subsystem) goes on from that group's first
    visit, over the edge the chain itself takes from it next."""
    out: list[int] = []
    at: dict[int, int] = {}
    for g in seq:
        i = at.get(g)
        if i is None:
            at[g] = len(out)
            out.append(g)
            continue
        for dropped in out[i + 1 :]:
            del at[dropped]
        del out[i + 1 :]
    return out


def _certified_cut(
    bundle: list[tuple[list[int], float | None]], best: list[tuple[float, str]]
) -> tuple[float, list[str]] | None:
    """The max flow and min-cut hops of one bundle from its paths' allocated rates, or None
    when they are not a maximum flow (then networkx decides).

    The graph is the one :func:`_min_cut` builds (SOURCE -> in g -> out g -> ... -> SINK per
    chain, the capacity on in g -> out g). The rates, each along its chain made a simple path
    (:func:`_loop_erased`), give each edge its flow; a node is on the
    sink side when it reaches SINK over edges with residual capacity (forward: not saturated,
    backward: carrying flow). SOURCE on the sink side = an augmenting path = not maximum.
    Cost O(total chain length)."""
    flow: dict[tuple[Any, Any], float] = {}
    total = 0.0
    for seq, rate in bundle:
        if rate is None or rate < 0:
            return None
        total += rate
        prev: Any = "SOURCE"
        for gid in _loop_erased(seq):
            for edge in ((prev, ("in", gid)), (("in", gid), ("out", gid))):
                flow[edge] = flow.get(edge, 0.0) + rate
            prev = ("out", gid)
        flow[(prev, "SINK")] = flow.get((prev, "SINK"), 0.0) + rate
    back: dict[Any, list[Any]] = {}  # node -> the nodes with a residual edge into it
    for (u, v), f in flow.items():
        cap = best[u[1]][0] if u[0] == "in" else math.inf
        if f > cap * (1 + _TIGHT):
            return None  # not a feasible flow
        if f < cap * (1 - _TIGHT):
            back.setdefault(v, []).append(u)  # residual u -> v
        if f > 0:
            back.setdefault(u, []).append(v)  # residual v -> u (the flow can be undone)
    sink_side = {"SINK"}
    stack = ["SINK"]
    while stack:
        for u in back.get(stack.pop(), ()):
            if u not in sink_side:
                sink_side.add(u)
                stack.append(u)
    if "SOURCE" in sink_side:
        return None  # an augmenting path: the rates are not a maximum flow
    groups = {g for seq, _ in bundle for g in seq}
    return total, [best[g][1] for g in groups if ("in", g) not in sink_side and ("out", g) in sink_side]


def _min_cut(seqs: list[list[int]], best: list[tuple[float, str]]) -> tuple[float, list[str]]:
    """Max flow and min-cut hops of one independent bundle of chains (networkx preflow-push:
    O(V^2 sqrt(E)), and faster than augmenting paths on these wide, shallow graphs; the cut is
    the sink-side residual one, the same for every maximum flow)."""
    import networkx as nx
    from networkx.algorithms.flow import preflow_push

    edges: dict[tuple[Any, Any], dict[str, float]] = {}
    for seq in seqs:
        prev: Any = "SOURCE"
        # the chain as a simple path, as the certificate takes it: a merged group met again
        # later in a chain would otherwise add an edge that skips the hops between (a flow
        # from a shared link straight to a subsystem, past the adapter that limits the path)
        for gid in _loop_erased(seq):
            edges[(prev, ("in", gid))] = {}
            edges[(("in", gid), ("out", gid))] = {"capacity": best[gid][0]}
            prev = ("out", gid)
        edges[(prev, "SINK")] = {}
    g = nx.DiGraph()
    g.add_edges_from((u, v, d) for (u, v), d in edges.items())
    value, (reach, _) = nx.minimum_cut(g, "SOURCE", "SINK", flow_func=preflow_push)
    cut = [best[n[1]][1] for n in reach if isinstance(n, tuple) and n[0] == "in" and ("out", n[1]) not in reach]
    return value, cut
