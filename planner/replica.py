"""The replica of a design that the editor's analysis lane keeps in step, and the deltas that
keep it so (an edit's changed components, copied on the GUI thread). No Qt. See
:mod:`planner.incremental` for the analysis kept in step with it (its API is imported from
there too)."""

from __future__ import annotations

import copy
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from planner.model import Component, Event, Topology

#: the designs kept in step by :meth:`Replica.apply`: a changed component there is a new object
#: and the old one is never changed, so a part's old components say what they were connected to
_REPLICAS: weakref.WeakSet[Topology] = weakref.WeakSet()


@dataclass
class Delta:
    """What an edit changed, with copies of the changed components (safe to hand to a worker).

    ``components``: id -> (copy, creation order, index among its siblings or -1 when it stayed
    where it was); ``removed``: ids no longer in the design; ``parts``: part id -> a copy of its
    figures (None: removed); ``meta``: a copy of the metadata when it changed; ``revision``:
    the design's revision after the edit.
    """

    revision: int = 0
    components: dict[str, tuple[Component, int, int]] = field(default_factory=dict)
    removed: tuple[str, ...] = ()
    parts: dict[str, dict[str, Any] | None] = field(default_factory=dict)
    meta: dict[str, Any] | None = None

    @classmethod
    def from_events(cls, topo: Topology, events: Iterable[Event]) -> Delta:
        """The delta of ``events`` (as :meth:`Topology.subscribe` delivered them) against
        ``topo`` as it is now. Cost O(changed components + their siblings)."""
        ids: dict[str, None] = {}
        moved: set[str] = set()
        part_ids: dict[str, None] = {}
        meta = False
        for ev in events:
            if ev.type in ("added", "removed", "changed"):
                ids[ev.id] = None
                if ev.type == "added" or ev.key == "parent":
                    moved.add(ev.id)
            elif ev.type == "parts":
                part_ids[ev.id] = None
            elif ev.type == "meta":
                meta = True
        comps: dict[str, tuple[Component, int, int]] = {}
        removed = []
        places = _places(topo, moved)
        for cid in ids:
            c = topo.get(cid)
            if c is None:
                removed.append(cid)
                continue
            if cid not in moved:
                index = -1
            elif c.parent in places:
                index = places[c.parent][cid]
            else:
                index = topo._children[c.parent].index(cid)
            comps[cid] = (c.copy(), topo.seq_of(cid), index)
        parts = {pid: copy.deepcopy(topo.parts.get(pid)) for pid in part_ids}
        return cls(topo.revision, comps, tuple(removed), parts, copy.deepcopy(topo.meta) if meta else None)

    @property
    def ids(self) -> set[str]:
        """Every component id the edit touched (changed, added or removed)."""
        return set(self.components) | set(self.removed)


#: more components added or moved under one parent than this: their places among its
#: children are read from one pass over them (a server undone on the 16x site adds 224 cables
#: among 5,000 top-level components: 224 searches of that list, 1.2 ms of the edit's turn)
_PLACES_FROM = 4


def _places(topo: Topology, moved: set[str]) -> dict[str | None, dict[str, int]]:
    """Child id -> its place among its parent's children, for the parents of more than
    :data:`_PLACES_FROM` of ``moved``."""
    under: dict[str | None, int] = {}
    for cid in moved:
        c = topo.get(cid)
        if c is not None:
            under[c.parent] = under.get(c.parent, 0) + 1
    return {
        parent: {x: i for i, x in enumerate(topo._children[parent])} for parent, n in under.items() if n > _PLACES_FROM
    }


class Replica:
    """A copy of a design kept in step by :class:`Delta` s (for a worker thread).

    ``Replica(topo)`` copies ``topo`` once (:meth:`Topology.clone`); :meth:`apply` then brings
    it up to date with each edit's delta, keeping the design order, the order of children and
    the reference index exactly as in the original. Observers of the replica get no events.
    """

    def __init__(self, topo: Topology) -> None:
        self.topo = topo.clone()
        for cid, kids in topo._children.items():  # the original's order of children, not creation order
            self.topo._children[cid] = list(kids)

    def apply(self, delta: Delta) -> None:
        """Apply one edit's delta. Cost O(changed components + their siblings)."""
        t = self.topo
        _REPLICAS.add(t)
        gone = [cid for cid in delta.removed if cid in t]
        self._detach_all([t._components[cid] for cid in gone])
        for cid in gone:
            comp = t._components.pop(cid)
            t._index_refs(comp, add=False)
            del t._by_kind[comp.kind][cid]
            del t._seq[cid]
            t.positions.pop(cid, None)
            if not t._children.get(cid):
                t._children.pop(cid, None)
        inserts = []
        for cid, (comp, seq, index) in delta.components.items():
            old = t._components.get(cid)
            comp = comp.copy()
            if old is not None and (index >= 0 or old.parent != comp.parent):
                self._detach(old)
            if old is None or index >= 0 or old.parent != comp.parent:
                inserts.append((index, seq, comp))
            self._put(old, comp, seq)
        for index, _, comp in sorted(inserts, key=lambda x: (x[0] < 0, x[0], x[1])):
            siblings = t._children.setdefault(comp.parent, [])
            siblings.insert(len(siblings) if index < 0 else index, comp.id)
        for pid, part in delta.parts.items():
            if part is None:
                t.parts.pop(pid, None)
            else:
                t.parts[pid] = copy.deepcopy(part)
        if delta.meta is not None:
            t.meta = copy.deepcopy(delta.meta)
        t.revision = delta.revision

    def _detach(self, comp: Component) -> None:
        siblings = self.topo._children.get(comp.parent)
        if siblings is not None and comp.id in siblings:
            siblings.remove(comp.id)

    def _detach_all(self, comps: list[Component]) -> None:
        """Take ``comps`` out of their parents' children: in one pass over a parent's list for
        more than :data:`_PLACES_FROM` of them (a server deleted on the 16x site: its 224 cables
        searched for and removed one by one among 5,000 top-level components, 5-6 ms)."""
        under: dict[str | None, list[Component]] = {}
        for comp in comps:
            under.setdefault(comp.parent, []).append(comp)
        for parent, taken in under.items():
            siblings = self.topo._children.get(parent)
            if siblings is not None and len(taken) > _PLACES_FROM:
                ids = {c.id for c in taken}
                siblings[:] = [cid for cid in siblings if cid not in ids]
            else:
                for comp in taken:
                    self._detach(comp)

    def _put(self, old: Component | None, comp: Component, seq: int) -> None:
        t = self.topo
        if old is not None:
            t._index_refs(old, add=False)
            if old.kind != comp.kind:
                del t._by_kind[old.kind][old.id]
                t._by_kind[comp.kind][comp.id] = None
                t._disordered()
        else:
            t._by_kind[comp.kind][comp.id] = None
        if old is None or t._seq[comp.id] != seq:
            if old is not None and t._seq[comp.id] != seq:
                t._disordered()
            elif seq < t._next_seq:
                t._appended_late(comp.kind)  # a new component: appended below
            t._seq[comp.id] = seq
            t._next_seq = max(t._next_seq, seq + 1)
        t._components[comp.id] = comp
        t._index_refs(comp, add=True)


# -- the incremental analysis --------------------------------------------------------------------
