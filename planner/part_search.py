"""The searches that find a design's connected parts (no Qt): what is next to a component,
and the searches in lockstep that find the parts a change made (see
:meth:`planner.incremental.Partition._resplit`)."""

from __future__ import annotations

from collections.abc import Callable

from planner.model import Topology
from planner.schema import KINDS

#: the kinds that only say where units stand (sites, racks): no path crosses them and the
#: analysis reads nothing of them, so they join no part. Followed, one site's racks made one part
#: of every server, switch and subsystem in them, and every edit re-analysed the whole site.
PLACING = frozenset({"site", "rack"})
#: the reference attributes to or from a placing kind (a unit's ``rack``, a rack's ``frame_of``)
PLACING_REFS = frozenset(
    n for k, spec in KINDS.items() for n, a in spec.attrs.items() if a.ref and (k in PLACING or set(a.ref) <= PLACING)
)
#: kind -> its reference attributes as (name, many), the placing ones left out
REFS: dict[str, tuple[tuple[str, bool], ...]] = {
    k: tuple((n, a.many) for n, a in spec.attrs.items() if a.ref and n not in PLACING_REFS) for k, spec in KINDS.items()
}


def near_ids(cid: str, comps: dict, refs_to: dict, children: dict) -> list[str]:
    """The ids next to ``cid`` in the component graph: what names it, its parent, its children
    and what it names (racks and sites: only what names them, not by a placing reference)."""
    near = [r for r, a in refs_to.get(cid, ()) if a not in PLACING_REFS]
    comp = comps.get(cid)
    if comp is not None and comp.kind not in PLACING:
        if comp.parent is not None:
            near.append(comp.parent)
        near += children.get(cid, ())
        attrs = comp.attrs
        for name, many in REFS[comp.kind]:
            v = attrs.get(name)
            if many:
                near += [x for x in v or () if x]
            elif v:
                near.append(v)
    return near


def lockstep(
    topo: Topology, part_of: dict[str, int], seeds: list[str], dirty: set[int]
) -> tuple[list[tuple[list[str], set[int]]], list[str] | None, set[int]]:
    """Breadth-first searches of ``topo`` from ``seeds``, a few steps each in turn; two that
    meet (or meet one untouched part) go on as one. A search with nothing left to visit found a
    whole part; the searching stops when at most one is still going. ``part_of``: each id's
    part (the parts before the change), ``dirty``: the parts the change touched. Returns the
    finished ones (the ids found, the keys of the untouched parts met: a search does not enter
    a part outside ``dirty``, it merges whole), the ids the one left found (None: none was
    left) and the parts it met."""
    comps, refs_to, children = topo._components, topo._refs_to, topo._children
    owner: dict[str, int] = {}
    queues: list[list[str]] = []
    for s in seeds:
        if s not in owner:
            owner[s] = len(queues)
            queues.append([s])
    heads = [0] * len(queues)
    root = list(range(len(queues)))
    met_by: dict[int, int] = {}  # an untouched part's key -> a search that met it

    def find(i: int) -> int:
        while root[i] != i:
            root[i] = i = root[root[i]]
        return i

    going = {find(i) for i in range(len(queues))}
    active = list(range(len(queues)))  # the searches with ids left to visit (only its own
    while len(going) > 1:  # visits add to a search's queue: one finished stays finished)
        for i in active:
            queue = queues[i]
            head, stop = heads[i], heads[i] + 32
            mine = find(i)  # (stays a root while this search goes: only it joins others to it)
            while head < stop and head < len(queue):
                for n in near_ids(queue[head], comps, refs_to, children):
                    other = owner.get(n)  # (an id searched is in a part changed, or in none)
                    if other is None:
                        key = part_of.get(n)
                        if key is not None and key not in dirty:
                            other = met_by.setdefault(key, i)
                        elif n in comps or refs_to.get(n):
                            owner[n] = i
                            queue.append(n)
                            continue
                        else:
                            continue
                    if other != i:  # (most ids met are this search's own: its parent, ...)
                        b = find(other)
                        if b != mine:
                            root[b] = mine
                head += 1
            heads[i] = head
        active = [i for i in active if heads[i] < len(queues[i])]
        going = {find(i) for i in active}
    return _found(owner, met_by, going, find)


def _found(
    owner: dict[str, int], met_by: dict[int, int], going: set[int], find: Callable[[int], int]
) -> tuple[list[tuple[list[str], set[int]]], list[str] | None, set[int]]:
    """What :func:`lockstep` returns, from each id's search, each untouched part's search that
    met it, the searches still going and the union-find's ``find``."""
    found: dict[int, list[str]] = {}
    for cid, i in owner.items():
        found.setdefault(find(i), []).append(cid)
    met: dict[int, set[int]] = {}
    for key, i in met_by.items():
        met.setdefault(find(i), set()).add(key)
    left = next(iter(going), None)
    groups = [(group, met.get(r, set())) for r, group in found.items() if r != left]
    if left is None:
        return groups, None, set()
    return groups, found.get(left, []), met.get(left, set())
