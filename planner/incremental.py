"""Incremental analysis: after an edit, re-analyse only the parts of the design it can affect,
and do it off the GUI thread on a replica kept in step by small deltas. No Qt.

Why it is exact. A path never leaves the connected part of the design it starts in (the
component graph of parent links and references: a server's I/O hierarchy, its cables, the
switches and zones of its fabrics, the subsystems and mappings it reaches, the LPAR, hdisks,
volume groups and workloads on them). Paths of different parts share no hop, so the max-min
fair allocation decomposes over the parts (:mod:`planner.fairshare`), and so do the hops'
loads, the workload demands and the per-LPAR and per-switch sums. An edit changes the parts
that hold the changed components (before and after the edit); every other part keeps its paths
and rates bit for bit. :class:`IncrementalAnalysis` keeps one result per part, re-analyses the
touched parts and assembles an :class:`~planner.analysis.Analysis` equal, field for field and in
the same order, to ``analyze(topo, figures, direction, source, read_pct=..., cross_check=False)``.
A change of part figures (a ``parts`` event) re-analyses the parts holding the components of
those parts (:func:`part_users`): a component's figures come from its own part or from its
owner's (a PHB's from its drawer's part), and an owner is in the part of what it owns.

The API (stable; the editor's background analysis uses it)::

    # GUI thread, once per open design (or scenario switch): one full copy
    replica = Replica(document_topology)
    # worker, once per (figures, direction): a full analysis of the replica
    inc = IncrementalAnalysis(replica.topo, "planning", "read")
    # GUI thread, per edit: copy only what changed (events from Topology.subscribe)
    delta = Delta.from_events(document_topology, events)
    # worker, per edit
    replica.apply(delta)
    analysis = inc.update(delta)      # == analyze(replica.topo, ...), cross_check=False

``Delta`` is a plain, picklable record: it holds copies of the changed components (never
references into the live design), so it can cross to a worker thread or process. ``update``
also takes an iterable of changed component ids (when the analysed topology is the live one,
as in the tests and the CLI). Results share the Path and Load objects of the parts that did not
change with the previous result: treat them as read-only. Cost of an update: O(size of the
touched parts + paths + hops of the whole design) (the assembly keeps the whole design's order),
against O(whole design) of path search and allocation for a full analysis.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from planner.analysis import (
    Analysis,
    Load,
    Path,
    _check_options,
    allocate,
    path_indexes,
    path_sums,
    path_totals,
    paths_from,
)
from planner.demand import demand_model, workload_results
from planner.gcpause import gc_paused
from planner.model import Component, Topology
from planner.part_search import PLACING as _PLACING
from planner.part_search import PLACING_REFS as _PLACING_REFS
from planner.part_search import REFS as _REFS
from planner.part_search import lockstep
from planner.part_search import near_ids as _near
from planner.path_reuse import affected_ports, figure_changes, same_loads, same_shape
from planner.replica import _REPLICAS, Delta, Replica

__all__ = ["Delta", "IncrementalAnalysis", "Partition", "Replica", "part_users"]


@dataclass
class _Part:
    """One connected part of the design and its share of the analysis."""

    members: list[str]  # component ids (and ids named by a reference but missing)
    comps: list[Component]  # the components, in design order
    ports: list[str]  # its HBA port ids, in design order
    paths: list[Path]  # in design order of their HBA ports
    paths_of: dict[str, list[Path]]
    unreachable: set[str]
    standby_of: dict[str, list[Path]]  # RDAC's standby paths by HBA port
    #: what the whole design's result takes from the part when its ports come one after the
    #: other in the design (see IncrementalAnalysis._gather): whether ``paths`` are those of
    #: each port in turn, the standby paths so, and the unreachable ports in design order
    by_port: bool = False
    standby: list[Path] = field(default_factory=list)
    unreachable_ports: list[str] = field(default_factory=list)


@dataclass
class _Alloc:
    """One part's share of the analysis for one set of options: its own copies of the part's
    paths (the allocation writes each path's rate and bottleneck on it), by HBA port too."""

    paths: list[Path]
    paths_of: dict[str, list[Path]]
    members: list[str] = field(default_factory=list)  # the part's (whose figures these are)
    first: dict[str, Load] = field(default_factory=dict)  # hops in first-crossing order

    loads: dict[str, Load] = field(default_factory=dict)  # hops its paths cross
    idle: dict[str, Load] = field(default_factory=dict)
    rates: list[float] = field(default_factory=list)
    host: dict[str, float] = field(default_factory=dict)  # LPAR -> MB/s (as analysis._groups sums)
    switch: dict[str, float] = field(default_factory=dict)  # switch -> MB/s
    demanded: bool = False  # allocated under workloads' demands
    done: bool = False  # allocated (False: only its paths copied, by an interrupted prefill)


@dataclass
class _Gathered:
    """Every part's paths in the design's order (IncrementalAnalysis._gather), their demand."""

    paths: list[Path]
    standby: list[Path]
    unreachable: list[str]
    runs: list[int] = field(default_factory=list)
    demand: Any = None
    caps: list | None = None
    index: dict[int, int] = field(default_factory=dict)  # id(path) -> its place in ``paths``


class _Stopped(Exception):
    """A prefill's ``stop`` said stop inside a part's allocation (see :func:`_pause_point`)."""


#: the least time between two calls of a prefill's ``stop`` inside a part's allocation (a part
#: of the 16x site takes 6 ms: the GUI thread, once busy, waits no longer for the interpreter)
PAUSE_S = 0.0003


def _pause_point(stop: Callable[[], bool]) -> Callable[[], None]:
    """The pause point given to a part's allocation by :meth:`IncrementalAnalysis.prefill`:
    asks ``stop`` (which may wait while the editor works) every :data:`PAUSE_S` at most, and
    raises :class:`_Stopped` when it says stop."""
    last = [time.perf_counter()]

    def pause() -> None:
        now = time.perf_counter()
        if now - last[0] >= PAUSE_S:
            if stop():
                raise _Stopped
            last[0] = time.perf_counter()

    return pause


def _gained(old: Any, new: Any, many: bool) -> list[str] | None:
    """The ids a reference names now and did not (``many``: a list of ids); None when it no
    longer names one it did (a connection lost: the part may split)."""
    if old == new:
        return []
    if not many:
        return None if old else [new] if new else []
    before = {x for x in old or () if x}
    now = [x for x in new or () if x]
    return [x for x in now if x not in before] if before.issubset(now) else None


def _with_loads(alloc: _Alloc) -> list[str]:
    """The components a part's allocation gives a load (the hops its paths cross and its idle
    ones); all its members when it was not allocated. What a result's figures of the part are:
    a data centre's one part has 28,789 members, 12,000 of them with a load, and the canvas
    compared the figures of each member of the part before and after an edit (24 ms)."""
    return [*alloc.loads, *alloc.idle] if alloc.done else alloc.members


class _Kept:
    """The parts an edit re-makes, before it, and the HBA ports whose paths it may have changed
    (:func:`planner.path_reuse.affected_ports`; None: all of them), worked out only once a part
    being made has a port those parts had: a server restored makes parts of its switches and
    subsystems, none of which had a port, and the walk of its 884 ids took 1-2 ms a part."""

    def __init__(self, old_parts: list[_Part], topo: Topology, ids: Iterable[str]) -> None:
        self.old_parts = old_parts
        self._topo, self._ids = topo, ids
        self._affected: set[str] | None = None
        self._known = False
        self._by_port: dict[str, _Part] | None = None

    @classmethod
    def of(cls, topo: Topology, ids: Iterable[str], old_parts: list[_Part]) -> _Kept:
        return cls(old_parts, topo, ids)

    @property
    def affected(self) -> set[str] | None:
        if not self._known:
            olds = {c.id: c for part in self.old_parts for c in part.comps}
            old_paths = [p for part in self.old_parts for paths in (part.paths, part.standby) for p in paths]
            self._affected, self._known = affected_ports(self._topo, self._ids, olds, old_paths), True
        return self._affected

    def parts_of(self, ports: list[Component]) -> dict[str, _Part]:
        """Port id -> the part before the edit whose paths it keeps, for the ``ports`` of a part
        being made that the edit cannot have changed."""
        by_port = self._by_port
        if by_port is None:
            by_port = self._by_port = {hp: part for part in self.old_parts for hp in part.ports}
        if not by_port or not any(c.id in by_port for c in ports):
            return {}  # (no port of these had paths before: nothing to keep)
        affected, out = self.affected, {}
        if affected is None:
            return {}
        for c in ports:
            old = by_port.get(c.id)
            if old is not None and c.id not in affected:
                out[c.id] = old
        return out


class Partition:
    """The connected parts of one design and their paths: what does not depend on the options,
    so the analyses of one design for several options (the editor keeps read and write) split
    it once per edit. Give the same object to each :class:`IncrementalAnalysis` of the design,
    and update them all after each edit; the first to see a revision splits, the others take
    its fresh parts."""

    def __init__(self, topo: Topology) -> None:
        self.topo = topo
        self.parts: dict[int, _Part] = {}
        self.part_of: dict[str, int] = {}
        self._next = 0
        self._seen: tuple[int, int] | None = None  # (topology revision, updates) split last
        self._fresh: list[int] = []  # the keys of the parts that split made
        self.updates = 0  # how many times the whole design or a change was split
        #: the parts the last split re-made whose allocation is the one before's (new key ->
        #: the old key): the edit changed in them only what no figure reads (see
        #: planner.path_reuse.figure_changes, same_shape); their analyses keep their allocations
        self.same: dict[int, int] = {}
        #: the parts the last split re-made with the members and paths they had but a figure
        #: attribute changed (a segment size, a port's speed): new key -> (the old key, the
        #: components changed); an analysis whose loads those leave as they were keeps its
        #: allocation (see planner.path_reuse.same_loads)
        self.alike: dict[int, tuple[int, list[str]]] = {}

    def split_all(self) -> list[int]:
        self.parts, self.part_of = {}, {}
        return self._split(c.id for c in self.topo.components())

    def split_change(self, ids: set[str], token: Any) -> list[int]:
        """The keys of the parts re-made for a change of ``ids``; once per ``token`` (the same
        token again gives the same keys without splitting)."""
        if token is not None and token == self._seen:
            return self._fresh
        self.same, self.alike = {}, {}
        fresh = self._grow(ids)
        if fresh is None and self.topo in _REPLICAS:
            fresh = self._resplit(ids)
        if fresh is None:  # the parts it reaches walked again
            dirty = {self.part_of[i] for i in ids if i in self.part_of}
            seeds = [i for i in ids if i in self.topo]
            for key in dirty:
                seeds += self.parts[key].members
            fresh = self._split(seeds, dirty)
        self._seen, self._fresh = token, fresh
        return fresh

    def _grow(self, ids: set[str]) -> list[int] | None:
        """The parts re-made, without walking them again, for a change that only adds
        components or changes attributes that connect nothing (a segment size, a speed, a
        target): the parts it reaches keep their members, and the components added join the
        parts they connect to (merging them) or make parts of their own, found by a walk of the
        added components alone. Walking a reached part again took 8-15 ms on the 16x site
        (3,451 components a part). A reference that names more than it did (a zone or a host
        mapping given back its HBA ports by an undo) joins parts too: the 16x site's server
        restored searched its fabric's part again, 11-14 ms. None when the parts must be
        walked: a component removed or moved, a reference that no longer names what it did or
        names a missing id anew (known only on a replica, whose changed components are new
        objects), or a referenced id now a component."""
        comps, part_of = self.topo._components, self.part_of
        added: list[str] = []
        changed: dict[int, list[str]] = {}
        for cid in ids:
            if cid not in comps:
                return None
            key = part_of.get(cid)
            if key is None:
                added.append(cid)
            else:
                changed.setdefault(key, []).append(cid)
        groups: list[list[str]] = []
        joins: list[set[int]] = []  # (with the keys joined by references gained)
        before: dict[int, dict[str, Component]] = {}  # each part's changed components as they were
        for key, cids in changed.items():
            olds = {c.id: c for c in self.parts[key].comps}
            for cid in cids:
                old, comp = olds.get(cid), comps[cid]
                before.setdefault(key, {})[cid] = old  # type: ignore[assignment]
                if old is None or old is comp or old.kind != comp.kind or old.parent != comp.parent:
                    return None
                for name, many in _REFS[comp.kind]:
                    gained = _gained(old.attrs.get(name), comp.attrs.get(name), many)
                    if gained is None:
                        return None
                    for n in gained:  # (an added component: the walk below meets this one)
                        other = part_of.get(n)
                        if other is None and n not in comps:
                            return None  # a missing id named anew: its part is walked
                        if other is not None and other != key:
                            groups.append([])
                            joins.append({key, other})
        walked, _, met = self._walk(added, stop=part_of)
        groups, joins = walked + groups, met + joins
        merged: list[tuple[list[str], set[int]]] = []  # each part to make: ids added, old parts
        for group, keys in zip(groups, joins):
            for other, other_keys in [m for m in merged if m[1] & keys]:
                group, keys = other + group, keys | other_keys
            merged = [m for m in merged if not m[1] & keys] + [(group, keys)]
        taken = {k for _, keys in merged for k in keys}
        merged += [([], {key}) for key in changed if key not in taken]
        return self._remake(merged, ids, before)

    def _remake(
        self, merged: list[tuple[list[str], set[int]]], ids: set[str], before: dict[int, dict[str, Component]]
    ) -> list[int]:
        """The parts :meth:`_grow` makes: each of the ids added (``merged``: with the keys of the
        old parts it joins), the changed components of each old part as they were (``before``);
        their keys. A part re-made whose figures are as they were is noted in :attr:`same`."""
        fresh = []
        for group, keys in merged:
            old_parts = [self.parts.pop(k) for k in sorted(keys)]
            order = [c.id for part in old_parts for c in part.comps] + group  # (nearly in design order)
            members = [cid for part in old_parts for cid in part.members] + group
            fresh.append(self._make_part(members, order, _Kept.of(self.topo, ids, old_parts)))
            was = min(keys)
            if not group and len(keys) == 1:
                changes = figure_changes(before.get(was, {}), self.topo._components)
                if changes is not None and same_shape(old_parts[0], self.parts[fresh[-1]]):
                    if changes:
                        self.alike[fresh[-1]] = (was, changes)
                    else:
                        self.same[fresh[-1]] = was
        self.updates += 1
        return fresh

    def _resplit(self, ids: set[str]) -> list[int] | None:
        """The parts re-made for a change that removes, moves or re-connects components, on a
        replica (whose old components are kept as they were): searches from the components
        the change touched and their old neighbours, in lockstep, stop once at most one of
        them is still going; that one's part is what the touched parts held, less what the
        finished searches found (walking a server's part again took 7-10 ms on the 16x site).
        Why it is whole: a part the change split has lost a connection, and one end of it is
        a changed component or an old neighbour of one, so every new part holds a seed. None
        when the parts must be walked (a changed component is the old object)."""
        part_of = self.part_of
        dirty = {part_of[i] for i in ids if i in part_of}
        seeds = self._seeds(ids, dirty)
        if seeds is None:
            return None
        groups, rest, met = self._lockstep(seeds, dirty)
        taken = {cid for group, _ in groups for cid in group}
        valid = self._valid
        comps = self.topo._components
        kept = [
            cid
            for key in sorted(dirty)
            for cid in self.parts[key].members
            if cid not in taken and (cid in comps or valid(cid))
        ]
        if rest is not None:
            groups.append((list(dict.fromkeys(kept + rest)), met))
        elif kept:  # (cannot be: every part the change made holds a seed) walked, to be sure
            return None
        drop = set(dirty).union(*(keys for _, keys in groups))
        olds = {key: self.parts.pop(key) for key in sorted(drop)}
        for key, part in olds.items():
            for cid in part.members:
                if part_of.get(cid) == key:
                    del part_of[cid]
        fresh = []
        kept = _Kept.of(self.topo, ids, list(olds.values()))
        for group, keys in groups:
            members = [cid for key in sorted(keys) for cid in olds[key].members] + group
            fresh.append(self._make_part(members, members, kept))
        self.updates += 1
        return fresh

    def _valid(self, cid: str) -> bool:
        """Whether ``cid`` belongs to a part: a component, or an id a reference names."""
        return cid in self.topo._components or any(a not in _PLACING_REFS for _, a in self.topo._refs_to.get(cid, ()))

    def _seeds(self, ids: set[str], dirty: set[int]) -> list[str] | None:
        """The ids a search of :meth:`_resplit` starts from: the changed ids still in a part,
        and the old neighbours of the changed components (their parents and the ids they named).
        A removed component has no children (the model removes those first: they are changed
        too). None when a changed component is the old object (a live design)."""
        comps, valid = self.topo._components, self._valid
        olds = {c.id: c for key in dirty for c in self.parts[key].comps}
        seeds: list[str] = []
        for cid in ids:
            old = olds.get(cid)
            if old is not None and old is comps.get(cid):
                return None
            seeds.append(cid)
            if old is not None and old.kind not in _PLACING:
                if old.parent is not None:
                    seeds.append(old.parent)
                for name, many in _REFS[old.kind]:
                    v = old.attrs.get(name)
                    seeds += [x for x in v or () if x] if many else [v] if v else []
        part_of = self.part_of
        return [c for c in dict.fromkeys(seeds) if valid(c) and (c not in part_of or part_of[c] in dirty)]

    def _lockstep(
        self, seeds: list[str], dirty: set[int]
    ) -> tuple[list[tuple[list[str], set[int]]], list[str] | None, set[int]]:
        """:func:`planner.part_search.lockstep` over this partition's parts."""
        return lockstep(self.topo, self.part_of, seeds, dirty)

    def _walk(
        self, seeds: Iterable[str], stop: dict[str, int] | None = None
    ) -> tuple[list[list[str]], set[str], list[set[int]]]:
        """The connected groups of ids reached from ``seeds`` (a group per seed not reached
        before), every id reached, and for each group the values in ``stop`` of the ids in
        ``stop`` it meets (which it does not enter). Ids named by a reference but missing belong
        to the group of what names them. Racks and sites stand alone (only racks sit in a site)."""
        t = self.topo
        comps, refs_to, children = t._components, t._refs_to, t._children
        stop = stop or {}
        seen: set[str] = set()
        groups: list[list[str]] = []
        joins: list[set[int]] = []
        for s in seeds:
            if s in seen or not (s in comps or refs_to.get(s)):
                continue
            seen.add(s)
            group, stack, met = [s], [s], set()
            while stack:
                for n in _near(stack.pop(), comps, refs_to, children):
                    if n in stop:
                        met.add(stop[n])
                    elif n not in seen and (n in comps or refs_to.get(n)):
                        seen.add(n)
                        group.append(n)
                        stack.append(n)
            groups.append(group)
            joins.append(met)
        return groups, seen, joins

    def _split(self, seeds: Iterable[str], dirty: set[int] = frozenset()) -> list[int]:  # type: ignore[assignment]
        """The connected parts holding ``seeds`` (their keys); the old parts they cover are
        dropped."""
        drop = set(dirty)
        groups, seen, _ = self._walk(seeds)
        for cid in seen:
            key = self.part_of.get(cid)
            if key is not None:
                drop.add(key)
        for key in drop:
            for cid in self.parts.pop(key).members:
                if self.part_of.get(cid) == key:
                    del self.part_of[cid]
        fresh = [self._make_part(group, group) for group in groups]
        self.updates += 1
        return fresh

    def _make_part(self, members: list[str], order: Iterable[str], kept: _Kept | None = None) -> int:
        """A part of ``members`` (its key), its components in design order (``order``: the
        members present, in any order; sorted here) and its paths; ``kept``: the paths of the
        ports an edit cannot have changed, taken over from the parts before it (see
        :mod:`planner.path_reuse`), the others searched."""
        t = self.topo
        present, seq = t._components, t._seq
        comps = [present[c] for c in sorted((c for c in order if c in present), key=seq.__getitem__)]
        ports = [c for c in comps if c.kind == "hba_port"]
        old_of = kept.parts_of(ports) if kept is not None else {}
        search = [c for c in ports if c.id not in old_of] if old_of else ports
        standby: list[Path] = []
        found, lost = paths_from(t, search, path_indexes(t, comps), standby=standby) if search else ([], [])
        paths_of: dict[str, list[Path]] = {c.id: [] for c in search}
        for p in found:
            paths_of[p.hba_port].append(p)
        standby_of: dict[str, list[Path]] = {}
        for p in standby:
            standby_of.setdefault(p.hba_port, []).append(p)
        unreachable = set(lost)
        for hp, old in old_of.items():
            paths_of[hp] = old.paths_of[hp]
            if hp in old.standby_of:
                standby_of[hp] = old.standby_of[hp]
            if hp in old.unreachable:
                unreachable.add(hp)
        ids = [c.id for c in ports]
        paths = [p for hp in ids for p in paths_of[hp]] if old_of else found
        by_port = [p for hp in ids for p in paths_of[hp]]
        part = _Part(members, comps, ids, paths, paths_of, unreachable, standby_of)
        part.by_port = len(by_port) == len(paths) and all(a is b for a, b in zip(by_port, paths))
        part.standby = [p for hp in ids for p in standby_of.get(hp, ())]
        part.unreachable_ports = [hp for hp in ids if hp in part.unreachable]
        key, self._next = self._next, self._next + 1
        self.parts[key] = part
        for cid in members:
            self.part_of[cid] = key
        return key


def part_users(topo: Topology, part_ids: Iterable[str]) -> set[str]:
    """The ids of the components of ``topo`` whose part is one of ``part_ids``: an edit that
    changed those parts' figures (a part put into the design, changed or taken out) changes
    theirs, and those of the components whose figures they own. Cost O(n), n the design's
    components (2 ms on the 16x site), none when ``part_ids`` is empty."""
    wanted = set(part_ids)
    if not wanted:
        return set()
    return {c.id for c in topo._components.values() if c.part in wanted}


class IncrementalAnalysis:
    """The analysis of one design for one set of options, kept current edit by edit.

    Parameters: ``topo`` (the design analysed: the live one or a :class:`Replica`'s), and the
    options of :func:`planner.analysis.analyze` (``only`` and the cross-check are not offered:
    the result equals ``analyze(..., cross_check=False)``). Raises AnalysisError for an unknown
    option. ``partition``: a :class:`Partition` of ``topo`` shared with the analyses of the
    same design for other options (each then passes the same ``token`` for one change to
    :meth:`update`, so the design is split once). ``analysis`` is the current result;
    ``last_parts`` how many connected parts the last update re-analysed, of ``len(parts)``.
    """

    def __init__(
        self,
        topo: Topology,
        figures: str = "planning",
        direction: str = "read",
        source: str = "disk",
        read_pct: float | None = None,
        partition: Partition | None = None,
        deferred: bool = False,
        pause: Callable[[], None] | None = None,
    ) -> None:
        _check_options(figures, direction, source, read_pct)
        if partition is not None and partition.topo is not topo:
            raise ValueError("the partition is of another design")
        self.topo = topo
        self.options = (figures, direction, source, read_pct)
        self.partition = partition if partition is not None else Partition(topo)
        self.alloc: dict[int, _Alloc] = {}
        self.last_parts = 0
        self._touched: list[str] = []  # the components of the parts the last refresh re-analysed
        self.analysis: Analysis | None = None
        self._stamp: tuple[int, int] | None = None  # (revision, partition.updates) ``analysis`` is of
        if deferred:  # nothing analysed yet: see prefill
            if not self.partition.parts and len(topo):
                raise ValueError("a deferred analysis needs a partition split already")
        elif self.partition.parts or not len(topo):  # split already (for other options)
            with gc_paused():
                self.analysis = self._refresh([], pause)
                self._stamp = self._now()
        else:
            self.analysis = self.rebuild()

    def _now(self) -> tuple[int, int]:
        return (self.topo.revision, self.partition.updates)

    def current(self) -> bool:
        """Whether :attr:`analysis` is of the design as it is and split: assembled since the
        last edit and the partition's last split (by any analysis sharing it), none undone by a
        prefill since. Such an analysis is what :meth:`update` with nothing changed would
        assemble again (the editor assembles a figure set not shown while idle and keeps it)."""
        return self.analysis is not None and self._stamp == self._now()

    @property
    def parts(self) -> dict[int, _Part]:
        return self.partition.parts

    @property
    def part_of(self) -> dict[str, int]:
        return self.partition.part_of

    def rebuild(self, token: Any = None) -> Analysis:
        """Re-analyse the whole design, split again (a fresh start: a change of part figures
        needs only :meth:`update`); ``token``: as for :meth:`update` (the design is split again
        once per token)."""
        with gc_paused():
            self.alloc = {}
            if token is None or token != self.partition._seen:
                self.partition.split_all()
                self.partition._seen, self.partition._fresh = token, list(self.partition.parts)
            self.analysis = self._refresh([])
            self._stamp = self._now()
            return self.analysis

    def update(
        self, changed: Delta | Iterable[str], token: Any = None, pause: Callable[[], None] | None = None
    ) -> Analysis:
        """The analysis after an edit that changed ``changed`` (a :class:`Delta`, already
        applied to the analysed design, or component ids, removed ones included, and those of
        :func:`part_users` when part figures changed: a Delta adds those itself). ``token``
        names the change for a shared partition (the analyses for other options pass the same
        token and reuse the split); None: split now. ``pause``: called every few paths of the
        parts allocated (see :func:`~planner.analysis.allocate`; a caller's point to give way:
        it may wait, not raise)."""
        if isinstance(changed, Delta):
            changed = changed.ids | part_users(self.topo, changed.parts)
        changed = set(changed)
        with gc_paused():  # (nothing changed: nothing to split; the parts re-made since are allocated)
            fresh = self.partition.split_change(changed, token) if changed else []
            before = self.analysis
            self.analysis = self._refresh(fresh, pause)
            self._stamp = self._now()
            self.analysis.touched = (weakref.ref(before), self._touched) if before is not None else None
        return self.analysis

    def prefill(self, stop: Callable[[], bool] = lambda: False) -> bool:
        """Allocate, a part at a time until ``stop()``, the parts of the partition (split for
        the design as it is) not allocated yet: all of a ``deferred`` analysis, those re-made
        since for one not kept in step; whether none is left. ``stop`` is asked every
        :data:`PAUSE_S` at most, inside a part's allocation too (a part stopped in is
        allocated afresh next time; ``stop`` may wait while the editor works). The next :meth:`update` assembles
        the result and allocates only what is left (the editor fills the figure sets not shown
        while idle: 75 ms of the 16x site's first switch, 141, was this allocation)."""
        parts, allocs = self.parts, self.alloc
        gone = [k for k in allocs if k not in parts]  # (re-made since: a shelf never grows)
        for k in gone:
            del allocs[k]
        todo = [k for k in parts if k not in allocs or not allocs[k].done]
        if gone or todo:  # its result no longer says what the next one changed (``touched``)
            self.analysis = None
        if not todo:
            return True
        if stop():
            return False
        with gc_paused():
            got = self._copies(todo)
            pause = _pause_point(stop)
            try:
                for key in todo:
                    self._allocate(key, got, pause)
            except _Stopped:  # (the part stays as copied: allocated afresh next time)
                return False
        return True

    def _copies(self, todo: list[int]) -> _Gathered:
        """Fresh copies of the paths of the parts ``todo`` (the allocation writes each path's
        rate and bottleneck on it), laid out by port, then every part's paths gathered in the
        design's order and the demand caps of each (None when no workload has a target)."""
        parts, allocs = self.parts, self.alloc
        for key in todo:
            own = [Path(p.id, p.hba_port, p.host_port, p.logical_drive, p.hops) for p in parts[key].paths]
            paths_of: dict[str, list[Path]] = {}
            for p in own:
                paths_of.setdefault(p.hba_port, []).append(p)
            allocs[key] = _Alloc(own, paths_of, parts[key].members)
        got = _Gathered([], [], [])
        got.runs = self._gather(got.paths, got.standby, got.unreachable)
        got.demand = demand_model(self.topo, got.paths, self.options[1])
        if got.demand is not None:
            got.caps = got.demand.caps()
            got.index = {id(p): i for i, p in enumerate(got.paths)}
        return got

    def _allocate(self, key: int, got: _Gathered, pause: Callable[[], None] | None = None) -> None:
        """Share out part ``key``'s paths (copied by :meth:`_copies`) under the options;
        ``pause``: as for :func:`~planner.analysis.allocate` (the part is left not done when it
        raises)."""
        part, mine_alloc = self.parts[key], self.alloc[key]
        own = mine_alloc.paths
        caps, index = got.caps, got.index
        mine = [caps[index[id(p)]] for p in own] if caps is not None else None
        if pause is not None:
            pause()
        alloc = allocate(self.topo, own, self.options, mine, pause=pause)
        mine_alloc.host, mine_alloc.switch = path_sums(self.topo, own, alloc.path_loads)
        mine_alloc.loads, mine_alloc.idle, mine_alloc.rates = alloc.loads, alloc.idle(part.comps), alloc.rates
        first: dict[str, Load] = {}
        for p in own:
            for h in p.hops:
                if h not in first:
                    first[h] = alloc.loads[h]
        mine_alloc.first = first
        mine_alloc.demanded = mine is not None
        mine_alloc.done = True

    # -- the result ---------------------------------------------------------------------------
    def _refresh(self, fresh: list[int], pause: Callable[[], None] | None = None) -> Analysis:
        """Allocate the fresh parts (and any this analysis has not allocated yet) and assemble
        the whole analysis in the design's order."""
        t = self.topo
        figures, direction, source, read_pct = self.options
        parts, allocs = self.parts, self.alloc
        for key, was in self.partition.same.items():  # re-made, its figures as they were
            if key in parts and key not in allocs and getattr(allocs.get(was), "done", False):
                allocs[key] = allocs.pop(was)
        for key, (was, changes) in self.partition.alike.items():  # ... or its loads as they were
            old = allocs.get(was)
            if key in parts and key not in allocs and getattr(old, "done", False) and not old.demanded:  # type: ignore[union-attr]
                if same_loads(t, self.options, old.loads, old.idle, changes):  # type: ignore[union-attr]
                    allocs[key] = allocs.pop(was)
        # (a part re-made has a key of its own: one allocated already, filled, is not again)
        todo = [k for k in dict.fromkeys([*fresh, *parts]) if k in parts and not getattr(allocs.get(k), "done", 0)]
        self.last_parts = len(todo)
        gone = [k for k in allocs if k not in parts]  # parts split again since (by any options)
        touched = [cid for k in gone for cid in _with_loads(allocs.pop(k))]
        got = self._copies(todo)
        for key in todo:
            self._allocate(key, got, pause)
        touched += [cid for k in todo for cid in _with_loads(allocs[k])]
        self._touched = touched  # whose figures may differ from the analysis before
        paths, standby, unreachable, runs, demand = got.paths, got.standby, got.unreachable, got.runs, got.demand
        loads = self._loads(paths, runs)
        idle = [(t._seq[cid], cid, ld) for key in parts for cid, ld in allocs[key].idle.items()]
        for _, cid, ld in sorted(idle, key=lambda x: x[0]):
            loads[cid] = ld
        result = Analysis(figures, direction, source, paths, loads, 0.0, unreachable=unreachable, read_pct=read_pct)
        result.standby = standby
        path_totals(result)
        result.by_group = self._groups(paths, loads)
        if demand is not None:
            result.workloads = workload_results(demand, paths, self._rates(paths), loads)
        return result

    def _gather(self, paths: list[Path], standby: list[Path], unreachable: list[str]) -> list[int]:
        """Fill ``paths``, ``standby`` and ``unreachable`` port by port in the design's order of
        HBA ports; returns the parts in the order of their ports' paths, a run per stretch. A
        part whose ports come one after the other there is taken whole (its lists made with
        it): port by port, the 16x site's 1,792 ports took 1.1-1.4 ms of each edit."""
        parts, part_of, allocs = self.parts, self.part_of, self.alloc
        ids = list(self.topo._kind_table("hba_port"))
        runs: list[int] = []
        i, n = 0, len(ids)
        while i < n:
            hp = ids[i]
            key = part_of[hp]
            part, alloc = parts[key], allocs[key]
            m = len(part.ports)
            if part.by_port and part.ports[0] == hp and ids[i : i + m] == part.ports:
                got, i = alloc.paths, i + m
                standby += part.standby
                unreachable += part.unreachable_ports
            else:
                got, i = alloc.paths_of.get(hp), i + 1
                standby += part.standby_of.get(hp, ())
                if hp in part.unreachable:
                    unreachable.append(hp)
            if got:
                paths += got
                if not runs or runs[-1] != key:
                    runs.append(key)
        return runs

    def _loads(self, paths: list[Path], runs: list[int]) -> dict[str, Load]:
        """The loads of the hops the paths cross, in the order of first crossing."""
        allocs, part_of = self.alloc, self.part_of
        loads: dict[str, Load] = {}
        if len(runs) == len(set(runs)):  # each part's paths in one stretch: its hops in one piece
            for key in runs:
                loads.update(allocs[key].first)
        else:  # parts interleave in the design's order of ports: hop by hop
            for p in paths:
                own = allocs[part_of[p.hba_port]].loads
                for h in p.hops:
                    if h not in loads:
                        loads[h] = own[h]
        return loads

    def _rates(self, paths: list[Path]) -> list[float]:
        """The allocated rate of each path (math.inf: unknown), in the order of ``paths``."""
        allocs = self.alloc
        by_path = {id(q): r for key in self.parts for q, r in zip(allocs[key].paths, allocs[key].rates)}
        return [by_path[id(p)] for p in paths]

    def _groups(self, paths: list[Path], loads: dict[str, Load]) -> dict[str, dict[str, float]]:
        """``Analysis.by_group`` as :func:`planner.analysis._groups` makes it."""
        t, parts, part_of, allocs = self.topo, self.parts, self.part_of, self.alloc
        host = {lpar.id: 0.0 for lpar in t.of_kind("lpar")}
        for lpar in host:
            host[lpar] = allocs[part_of[lpar]].host.get(lpar, 0.0)
        extra = {lpar: v for key in parts for lpar, v in allocs[key].host.items() if lpar not in host}
        if extra:  # LPARs an adapter names but the design lacks: in the order of their first path
            for p in paths:
                hba = t.get(t[p.hba_port].parent)
                lpar = hba["lpar"] if hba else ""
                if lpar in extra and lpar not in host:
                    host[lpar] = extra[lpar]
        groups: dict[str, dict[str, float]] = {"host": host, "drawer": {}, "switch": {}, "subsystem": {}}
        for kind in ("drawer", "subsystem"):
            for comp in t.of_kind(kind):
                ld = loads.get(comp.id)
                groups[kind][comp.id] = ld.load if ld else 0.0
        for sw in t.of_kind("switch"):
            groups["switch"][sw.id] = allocs[part_of[sw.id]].switch.get(sw.id, 0.0)
        return groups
