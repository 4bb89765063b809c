"""The max-flow cross-check of the analysis: networkx maximum flow over the union of the paths
(node capacities by node splitting) and the min-cut hops. Max flow is an upper bound of the
max-min fair aggregate and equals it when no path could gain without another losing."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from planner.analysis import Load, Path


def max_flow(paths: list[Path], loads: dict[str, Load]) -> tuple[float, list[str]]:
    """Max flow over the union of the paths (capacities on split nodes) and the min-cut hops.

    Hops crossed by exactly the same paths are in series; they are merged into one node with
    the smallest capacity first. Paths that share no capacitated hop are independent, so the
    flow is computed per connected group of paths and summed (a site of many servers).
    """
    group_of, groups, best = _series_groups(paths, loads)
    total, cut = 0.0, []
    for seqs in _independent_chains(paths, group_of, groups).values():
        if any(not s for s in seqs):
            return math.inf, []
        value, hops = _min_cut(seqs, best)
        total += value
        cut += hops
    return float(total), sorted(cut)


def _series_groups(
    paths: list[Path], loads: dict[str, Load]
) -> tuple[dict[str, int], dict[tuple[int, ...], int], list[tuple[float, str]]]:
    """Merge hops crossed by the same set of paths: (hop -> group, path set -> group, per group
    its smallest capacity and the hop that has it)."""
    members: dict[str, list[int]] = {}
    for i, p in enumerate(paths):
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
    paths: list[Path], group_of: dict[str, int], groups: dict[tuple[int, ...], int]
) -> dict[int, list[list[int]]]:
    """Paths as chains of series groups, bundled by connected component (union-find)."""
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
    chains: dict[int, list[list[int]]] = {}
    for i, p in enumerate(paths):
        seq: list[int] = []
        for hid in p.hops:
            gid = group_of.get(hid, -1)
            if gid >= 0 and (not seq or seq[-1] != gid):
                seq.append(gid)
        chains.setdefault(find(i), []).append(seq)
    return chains


def _min_cut(seqs: list[list[int]], best: list[tuple[float, str]]) -> tuple[float, list[str]]:
    """Max flow and min-cut hops of one independent bundle of chains (networkx preflow-push:
    O(V^2 sqrt(E)), and faster than augmenting paths on these wide, shallow graphs; the cut is
    the sink-side residual one, the same for every maximum flow)."""
    import networkx as nx
    from networkx.algorithms.flow import preflow_push

    edges: dict[tuple[Any, Any], dict[str, float]] = {}
    for seq in seqs:
        prev: Any = "SOURCE"
        for gid in seq:
            edges[(prev, ("in", gid))] = {}
            edges[(("in", gid), ("out", gid))] = {"capacity": best[gid][0]}
            prev = ("out", gid)
        edges[(prev, "SINK")] = {}
    g = nx.DiGraph()
    g.add_edges_from((u, v, d) for (u, v), d in edges.items())
    value, (reach, _) = nx.minimum_cut(g, "SOURCE", "SINK", flow_func=preflow_push)
    cut = [best[n[1]][1] for n in reach if isinstance(n, tuple) and n[0] == "in" and ("out", n[1]) not in reach]
    return value, cut
