"""Incremental analysis (planner.incremental): after random edit sequences the incremental result
equals a full analysis, field for field and in order, and the replica kept in step by deltas
equals the design it mirrors; the layout made with a memo (planner.layout.LayoutMemo, as the
editor's analysis lane keeps it with its replica) equals a layout from nothing."""

from __future__ import annotations

import copy
import dataclasses
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from planner import edit, incremental
from planner import replica as replica_module
from planner.analysis import analyze
from planner.commands import PutPart, UndoStack
from planner.diagram_order import kept_and_changed, shared_bands
from planner.examples import build_example, build_site
from planner.incremental import Delta, IncrementalAnalysis, Partition, Replica
from planner.layout import COLLAPSIBLE, Diagram, LayoutMemo, alias_changes, layout
from planner.layout_bands import EndPairs, site_bands
from planner.layout_orders import host_ranks, peer_ranks, storage_order
from planner.model import ModelError
from planner.resilience import all_paths

sys.path.insert(0, str(Path(__file__).parent))
from test_analysis_reference import digest  # noqa: E402

PICK = st.integers(0, 10**6)


def state(topo):
    """Everything of a design the analysis and the editor read, order included."""
    return (
        [(c.id, c.kind, c.name, c.parent, c.part, c.attrs) for c in topo.components()],
        {k: list(v) for k, v in topo._children.items() if v},
        {k: sorted(v) for k, v in topo._refs_to.items() if v},
        {k: topo.ids_of_kind(k) for k in topo._by_kind},  # each in design order once read
        topo.parts,
        topo.meta,
    )


def same_analysis(a, b) -> None:
    assert digest(a) == digest(b)
    assert list(a.components) == list(b.components)
    assert a == b


def applied(topo, replica, change):
    """Run ``change`` on ``topo`` and bring ``replica`` up to date: the delta applied."""
    events = []
    topo.subscribe(events.append)
    change()
    topo.unsubscribe(events.append)
    delta = Delta.from_events(topo, events)
    replica.apply(delta)
    return delta


def replayed(topo, replica, inc, change):
    """Run ``change`` on ``topo``, bring ``replica`` up to date by its delta and return the
    analysis ``inc`` (of the replica) makes of it."""
    return inc.update(applied(topo, replica, change))


def same_parts(partition):
    """A partition kept edit by edit equals one split afresh: the same parts (members, their
    components in design order and the current objects, ports, paths), each id's part."""
    topo = partition.topo
    fresh = Partition(topo)
    fresh.split_all()

    def parts_of(pt):
        return sorted(
            (
                sorted(p.members),
                [c.id for c in p.comps],
                p.ports,
                [(q.id, q.hops) for q in p.paths],
                sorted(p.unreachable),
                {k: [(q.id, q.hops) for q in v] for k, v in p.standby_of.items()},
            )
            for p in pt.parts.values()
        )

    assert parts_of(partition) == parts_of(fresh)
    assert all(c is topo._components[c.id] for p in partition.parts.values() for c in p.comps)
    assert set(partition.part_of) == set(fresh.part_of)
    assert all(partition.part_of[cid] == key for key, p in partition.parts.items() for cid in p.members)


class Edits(RuleBasedStateMachine):
    """Random edits on a design; each step compares incremental and full analyses."""

    base = None  # set by the subclass: a built design
    parts: dict = {}
    shared_total = 0  # bands kept whole from one layout to the next, over the runs

    def __init__(self) -> None:
        super().__init__()
        self.topo = self.base.clone()
        self.stack = UndoStack(self.topo)
        self.events = []
        self.topo.subscribe(self.events.append)
        self.replica = Replica(self.topo)
        self.inc_replica = IncrementalAnalysis(self.replica.topo, "planning", "read")
        # the editor's way: one partition of the replica for several options, split once a change
        self.inc_shared = IncrementalAnalysis(
            self.replica.topo, "planning", "write", partition=self.inc_replica.partition
        )
        part = self.inc_replica.partition  # (and mixed: an edit that moves no load keeps its allocation)
        self.inc_mixed = IncrementalAnalysis(self.replica.topo, "planning", "mixed", partition=part)
        self.inc_live = IncrementalAnalysis(self.topo, "measured", "mixed")
        # the editor's shelf: an analysis of the shared partition made deferred, filled part by
        # part (interrupted) while idle and brought up to date only when shown, edits later
        self.inc_shelf = IncrementalAnalysis(
            self.replica.topo, "planning", "read", partition=self.inc_replica.partition, deferred=True
        )
        self.shelf_shown = False
        # every other group collapsed: members folded from the memo and drawn ones side by side
        groups = [c.id for kind in COLLAPSIBLE for c in self.topo.of_kind(kind)]
        self.collapsed = set(groups[::2])
        self.memo = LayoutMemo()
        self.laid = layout(self.replica.topo, self.collapsed, editor=True, memo=self.memo)
        self.shared = 0  # bands a layout shared with the one before (planner.layout_keep)

    def _pick(self, kind, n, where=lambda c: True):
        comps = [c for c in self.topo.of_kind(kind) if where(c)]
        return comps[n % len(comps)] if comps else None

    def _push(self, make):
        try:
            self.stack.push(make(), applied=True)
        except ModelError:
            pass  # a refused edit leaves the design as it was

    @rule(n=PICK)
    def add_hba(self, n):
        slot = self._pick("slot", n, lambda s: not self.topo.children(s.id, "hba"))
        lpar = self._pick("lpar", n)
        if slot is not None:
            self._push(lambda: edit.add_hba(self.topo, slot.id, self.parts["FC6239"], lpar=lpar.id if lpar else ""))

    @rule(n=PICK, kind=st.sampled_from(["hba", "cable", "zone", "subsystem", "host_mapping", "logical_drive"]))
    def delete(self, n, kind):
        comp = self._pick(kind, n)
        if comp is not None:
            self._push(lambda: edit.delete(self.topo, [comp.id]))

    @rule(n=PICK, m=PICK, storage=st.booleans())
    def add_cable(self, n, m, storage):
        free = lambda c: self.topo.cable_at(c.id) is None  # noqa: E731
        port = self._pick("host_port" if storage else "hba_port", n, free)
        sp = self._pick("switch_port", m, free)
        if port is not None and sp is not None and edit.cable_problem(self.topo, port.id, sp.id) is None:
            self._push(lambda: edit.add_cable(self.topo, port.id, sp.id))

    @rule(n=PICK, m=PICK)
    def link_switches(self, n, m):
        """An inter-switch link laid (or refused: switches of two fabrics), which re-routes
        paths between the switches of its fabric."""
        free = lambda c: self.topo.cable_at(c.id) is None  # noqa: E731
        a, b = self._pick("switch_port", n, free), self._pick("switch_port", m, free)
        if a is not None and b is not None and a.parent != b.parent:
            if edit.cable_problem(self.topo, a.id, b.id) is None:
                self._push(lambda: edit.add_cable(self.topo, a.id, b.id))

    @rule(n=PICK, m=PICK)
    def add_zone(self, n, m):
        fabric, hp, target = self._pick("fabric", n), self._pick("hba_port", n), self._pick("host_port", m)
        if fabric is not None and hp is not None and target is not None:
            self._push(lambda: edit.add_zone(self.topo, fabric.id, f"z{n}_{m}", [hp.id, target.id]))

    @rule(n=PICK, m=PICK)
    def rezone(self, n, m):
        """A zone's members changed: a reference that may join or split parts (the live design
        changes the zone in place, the replica gets a new object)."""
        zone, hp, target = self._pick("zone", n), self._pick("hba_port", m), self._pick("host_port", n + m)
        if zone is not None and hp is not None and target is not None:
            self._push(lambda: edit.set_attr(self.topo, zone.id, "members", [hp.id, target.id]))

    @rule(n=PICK, seg=st.sampled_from([32, 64, 128, 256]))
    def set_segment(self, n, seg):
        arr = self._pick("array", n)
        if arr is not None:
            self._push(lambda: edit.set_attr(self.topo, arr.id, "segment_kb", seg))

    @rule(n=PICK)
    def swap_owner(self, n):
        ld = self._pick("logical_drive", n)
        ctls = self.topo.children(self.topo.ancestor(ld.id, "subsystem").id, "controller") if ld else []
        if len(ctls) > 1:
            other = next(c.id for c in ctls if c.id != ld["owner"])
            self._push(lambda: edit.set_attr(self.topo, ld.id, "owner", other))

    @rule(n=PICK, mbps=st.sampled_from([0.0, 50.0, 400.0, 5000.0]))
    def set_target(self, n, mbps):
        wl = self._pick("workload", n)
        if wl is not None:
            self._push(lambda: edit.set_attr(self.topo, wl.id, "target_mbps", mbps))

    @rule(value=st.sampled_from([120.0, 150.0, 195.0]))
    def change_part_figures(self, value):
        part = copy.deepcopy(self.topo.parts["FC6239"])
        part["figures"]["hba"]["planning"] = {"value": value, "source": "test"}
        cmd = PutPart(part)
        cmd.do(self.topo)
        self.stack.push(cmd, applied=True)

    @rule(n=PICK, gb=st.sampled_from([10.0, 50.0]))
    def add_logical_drive(self, n, gb):
        """A new component inside a subsystem (its id read by no layout before)."""
        arr = self._pick("array", n)
        ctls = self.topo.children(arr.parent, "controller") if arr is not None else []
        if ctls:
            self._push(lambda: edit.add_logical_drive(self.topo, arr.id, ctls[n % len(ctls)].id, gb))

    @rule(n=PICK, bays=st.sampled_from([14, 16, 28]))
    def change_drive_bays(self, n, bays):
        """A subsystem part's drive bays changed (the enclosures' cells are laid out from it:
        no component's id in the edit)."""
        sub = self._pick("subsystem", n)
        if sub is not None and sub.part in self.topo.parts:
            part = copy.deepcopy(self.topo.parts[sub.part])
            part["drive_bays"] = bays
            cmd = PutPart(part)
            cmd.do(self.topo)
            self.stack.push(cmd, applied=True)

    @rule(
        n=PICK,
        kind=st.sampled_from(
            ["subsystem", "controller", "host_port", "enclosure", "drive", "logical_drive", "hba", "server", "lpar"]
        ),
    )
    def rename(self, n, kind):
        """A name another box shows changes too: an HBA's or a server's in the label of the
        switch port it is cabled to, a partition's in its volume groups' labels."""
        comp = self._pick(kind, n)
        if comp is not None:
            self._push(lambda: edit.set_attr(self.topo, comp.id, "name", f"{kind} {n}"))

    @rule(n=PICK, m=PICK)
    def move_hba(self, n, m):
        hba = self._pick("hba", n)
        slot = self._pick("slot", m, lambda s: not self.topo.children(s.id, "hba"))
        if hba is not None and slot is not None:
            self._push(lambda: edit.move_hba(self.topo, hba.id, slot.id))

    @rule(n=PICK)
    def fold_or_unfold(self, n):
        groups = [c.id for kind in COLLAPSIBLE for c in self.topo.of_kind(kind)]
        if groups:
            self.collapsed ^= {groups[n % len(groups)]}

    @rule(n=PICK, kind=st.sampled_from(["hba", "logical_drive", "host_mapping"]))
    def fold_or_unfold_around(self, n, kind):
        """The group holding a component the other rules edit (its drawer or subsystem)."""
        comp = self._pick(kind, n)
        group = comp and (self.topo.ancestor(comp.id, "drawer") or self.topo.ancestor(comp.id, "subsystem"))
        if group is not None:
            self.collapsed ^= {group.id}

    @rule(n=PICK, x=st.sampled_from([None, 5.0, 900.0]))
    def place_box(self, n, x):
        """A top-level box the user moved (or put back: None): no component changes."""
        kinds = ("server", "switch", "subsystem", "drawer")
        tops = [c.id for kind in kinds for c in self.topo.of_kind(kind)]
        if tops:
            where = dict(getattr(self.topo, "positions", None) or {})
            if x is None:
                where.pop(tops[n % len(tops)], None)
            else:
                where[tops[n % len(tops)]] = (x, 40.0 + n % 700)
            self.topo.positions = self.replica.topo.positions = where

    @rule(k=st.integers(0, 3))
    def prefill_shelved(self, k):
        """The idle lane fills the shelved analysis, stopped after ``k`` parts (3: to the end)."""
        asked = []

        def stop():
            asked.append(1)
            return k < 3 and len(asked) > k

        done = self.inc_shelf.prefill(stop)
        allocs = self.inc_shelf.alloc
        left = [key for key in self.inc_shelf.parts if key not in allocs or not allocs[key].done]
        assert done == (not left)

    @rule()
    def show_shelved(self):
        self.shelf_shown = True

    @rule()
    def undo(self):
        self.stack.undo()

    @rule()
    def redo(self):
        self.stack.redo()

    def teardown(self):
        type(self).shared_total += self.shared

    @invariant()
    def incremental_equals_full(self):
        delta = Delta.from_events(self.topo, self.events)
        self.events.clear()
        self.replica.apply(delta)
        full = analyze(self.topo, "planning", "read")
        splits = self.inc_replica.partition.updates
        prev = self.inc_replica.analysis
        inc = self.inc_replica.update(delta, token=delta.revision)
        same_analysis(inc, full)
        if inc.touched is not None:  # what the canvas compares: every load not shared is named
            assert inc.touched[0]() is prev
            comps, before = inc.components, prev.components
            assert {c for c in comps.keys() | before.keys() if comps.get(c) is not before.get(c)} <= set(inc.touched[1])
        same_analysis(self.inc_shared.update(delta, token=delta.revision), analyze(self.topo, "planning", "write"))
        same_analysis(self.inc_mixed.update(delta, token=delta.revision), analyze(self.topo, "planning", "mixed"))
        if self.shelf_shown:  # shown again after any edits: only what it lacks is allocated
            self.shelf_shown = False
            same_analysis(self.inc_shelf.update(delta, token=delta.revision), full)
        assert self.inc_replica.partition.updates <= splits + 1  # split once for both
        # the standby paths the SINGLE_POINT_OF_FAILURE rule reads: the same, and with the
        # analysis's paths exactly resilience's all_paths
        assert [(p.id, p.hops) for p in inc.standby] == [(p.id, p.hops) for p in full.standby]
        every = sorted((p.id, p.hops) for p in all_paths(self.topo))
        assert sorted((p.id, p.hops) for p in full.paths + full.standby) == every
        same_analysis(self.inc_live.update(delta.ids), analyze(self.topo, "measured", "mixed"))
        same_parts(self.inc_replica.partition)  # kept by walks and by growing parts alike
        same_parts(self.inc_live.partition)
        assert state(self.replica.topo) == state(self.topo)
        clone = self.topo.clone()
        assert state(self.replica.topo)[0] == state(clone)[0]
        self._layout_follows(delta)

    def _layout_follows(self, delta):
        """The memo'd layout of the replica equals a layout of the design from nothing, and the
        components moved to another box are those a full comparison finds."""
        self.memo.forget(self.replica.topo, delta.ids, self.laid)
        collapsed = {c for c in self.collapsed if c in self.topo}
        got = layout(self.replica.topo, collapsed, editor=True, memo=self.memo)
        fresh = layout(self.topo, collapsed, editor=True)
        assert got == fresh  # boxes, links, size and aliases
        assert list(got.boxes) == list(fresh.boxes)  # (in the order the canvas makes their items)
        # the orders the memo kept are those worked out afresh (a stale one need not move a box)
        ranks = host_ranks(self.topo)
        assert self.memo.ranks == ranks
        assert self.memo.peers == peer_ranks(self.topo, ranks, None)
        assert self.memo.storage == storage_order(self.topo, ranks)
        fresh_pairs = EndPairs()  # the ends of every cable and disk, as looked at from nothing
        site_bands(self.topo, None, None, fresh_pairs)
        kept_pairs = self.memo.pairs
        assert (kept_pairs.of, kept_pairs.count, kept_pairs.first) == (
            fresh_pairs.of,
            fresh_pairs.count,
            fresh_pairs.first,
        )

        def plain(d):  # the same diagram without what the memo shares
            return Diagram(d.boxes, d.links, d.width, d.height, d.alias)

        moved = alias_changes(self.laid, got)
        assert len(moved) == len(set(moved))
        assert set(moved) == set(alias_changes(plain(self.laid), plain(got)))
        # the bands kept whole (the same boxes) leave what a canvas keeps and changes as it was
        kept, changed = kept_and_changed(self.laid, got)
        assert (kept, sorted(changed)) == (lambda k, c: (k, sorted(c)))(*kept_and_changed(plain(self.laid), plain(got)))
        at = {cid: i for i, cid in enumerate(changed)}
        assert all(at.get(got.boxes[cid].container, -1) < i for cid, i in at.items())  # containers first
        self.shared += len(shared_bands(self.laid, got))
        self.laid = got


def run_edits(base, parts, examples: int, steps: int) -> type:
    """Run the :class:`Edits` state machine on ``base`` (a built design); returns its class
    (what its runs counted)."""

    class Run(Edits):
        pass

    Run.base, Run.parts = base, parts
    Run.TestCase.settings = settings(
        max_examples=examples, stateful_step_count=steps, deadline=None, suppress_health_check=list(HealthCheck)
    )
    Run.TestCase().runTest()
    return Run


@pytest.fixture(scope="module")
def small(parts):
    return build_example("p690-one-drawer", parts)


def test_incremental_small_design(parts, small):
    run_edits(small, parts, 25, 12)


def test_incremental_benchmark(parts, _benchmark):
    run_edits(_benchmark, parts, 4, 8)


def test_incremental_site(parts):
    """Two servers in one site: two connected parts, which edits join (a zone naming ports of
    both) and split again."""
    site = run_edits(build_site(parts, 2), parts, 4, 8)
    assert site.shared_total > 0  # (the other band, kept whole while an edit touched one)


def test_an_edit_re_analyses_only_its_part(parts):
    """Three servers whose racks stand in one site: racks and sites join no part (no path
    crosses them), so each server with its fabrics and subsystems is a part of its own."""
    site = build_site(parts, 3)
    assert len(site.of_kind("site")) == 1 and all(r.parent == "s1.site-1" for r in site.of_kind("rack"))
    inc = IncrementalAnalysis(site)
    before = inc.analysis
    with_paths = [p for p in inc.parts.values() if p.paths]
    assert len(with_paths) == 3 and all(p.comps[0].kind == "server" for p in with_paths)
    assert {len(p.members) for p in inc.parts.values() if not p.paths} == {1}  # the site and each rack
    events = []
    site.subscribe(events.append)
    edit.set_attr(site, "s2.fastt9.arr1", "segment_kb", 64)
    got = inc.update(Delta.from_events(site, events))
    assert inc.last_parts == 1
    same_analysis(got, analyze(site))
    # the untouched sites keep their very path objects
    assert got.paths[0] is inc.alloc[inc.part_of["s1.p690"]].paths[0]
    assert got.paths[0] is before.paths[0]


def test_a_deferred_analysis_filled_while_idle_allocates_only_what_it_lacks(parts, monkeypatch):
    """The editor's shelf for another figure set: made deferred on the shared partition, filled
    part by part and stopped (an edit came) between parts and inside one, edits made meanwhile;
    shown, its update allocates only the parts it lacks (those not filled, the one stopped in
    and those the edits re-made) and equals a full analysis."""
    monkeypatch.setattr(incremental, "PAUSE_S", 0.0)  # stop asked at every pause point
    site = build_site(parts, 3)
    replica = Replica(site)
    shown = IncrementalAnalysis(replica.topo, "planning", "read")
    with pytest.raises(ValueError, match="partition"):
        IncrementalAnalysis(Replica(site).topo, "measured", "read", deferred=True)
    shelf = IncrementalAnalysis(replica.topo, "measured", "read", partition=shown.partition, deferred=True)
    assert shelf.analysis is None and not shelf.alloc
    with_paths = [k for k, p in shelf.parts.items() if p.paths]
    assert len(with_paths) == 3
    done_at: list[int] = []  # at each call of stop: how many parts are allocated

    def stop_once(done: int, calls: int = 1) -> Callable[[], bool]:
        """Stop at the ``calls``-th call that finds ``done`` parts allocated."""
        return lambda: bool(done_at.append(sum(a.done for a in shelf.alloc.values()))) or done_at.count(done) >= calls

    assert not shelf.prefill(stop_once(1))  # stopped after one part
    assert [k for k, a in shelf.alloc.items() if a.done] == [next(iter(shelf.parts))]
    assert shelf.parts[next(iter(shelf.parts))].paths and done_at.count(0) > 3  # asked inside it
    done_at.clear()
    second = list(shelf.parts).index(with_paths[1])  # the second part with paths
    assert not shelf.prefill(stop_once(second, 3))  # stopped inside it
    assert done_at[-3:] == [second] * 3 and [k for k, a in shelf.alloc.items() if a.done] == list(shelf.parts)[:second]
    assert shelf.prefill(lambda: False) and all(a.done for a in shelf.alloc.values())
    same_analysis(shelf.update([], token=replica.topo.revision), analyze(site, "measured", "read"))
    assert shelf.prefill(lambda: True)  # nothing left: done without asking
    # an edit in the second server while the shelf is not kept in step
    stack = UndoStack(site)
    got = replayed(
        site, replica, shown, lambda: stack.push(edit.set_attr(site, "s2.fastt9.arr1", "segment_kb", 64), applied=True)
    )
    same_analysis(got, analyze(site))
    # filled again while idle: only the part the edit re-made, stopped once its paths were copied
    calls: list[int] = []
    assert not shelf.prefill(lambda: calls.append(1) or len(calls) > 1)
    assert [k for k, a in shelf.alloc.items() if not a.done] == [shown.part_of["s2.p690"]]
    result = shelf.update([], token=replica.topo.revision)  # shown: the same token, no split
    assert shelf.last_parts == 1 and result.touched is None
    same_analysis(result, analyze(site, "measured", "read"))


def test_a_part_figures_change_re_analyses_only_the_parts_using_it(parts):
    """An adapter of a model new to the design (its part put into the design with it) is
    analysed with its server's part alone; a part's figures changed re-analyse the parts whose
    components use it (their owners' components with them: a drawer's part gives its PHBs'
    figures); a part nobody uses changes nothing. Each time equal to a full analysis, and
    undone likewise. (Before, any part change re-analysed the whole design: 220 ms of an edit
    on the 16x site.)"""
    site = build_site(parts, 3)
    replica = Replica(site)
    inc = IncrementalAnalysis(replica.topo)
    stack = UndoStack(site)
    slot = next(s for s in site.of_kind("slot") if s.id.startswith("s2.") and not site.children(s.id, "hba"))
    model = copy.deepcopy(parts["FC6239"])
    model["id"], model["name"] = "FC6239-TEST", "FC6239 with other figures"
    model["figures"]["hba"]["planning"] = {"value": 90.0, "source": "test"}
    with_paths = len([p for p in inc.parts.values() if p.paths])

    def step(change):
        got = replayed(site, replica, inc, lambda: stack.push(change(), applied=True))
        same_analysis(got, analyze(site))
        return got

    def put(part):
        cmd = PutPart(part)
        cmd.do(site)
        return cmd

    got = step(lambda: edit.add_hba(site, slot.id, model))
    assert "FC6239-TEST" in replica.topo.parts and inc.last_parts == 1
    hba = site.children(slot.id, "hba")[0]
    assert inc.part_of[hba.id] == inc.part_of["s2.p690"] and got.components[hba.id].capacity == 90.0
    # the drawers' part: every server uses it, each server's part is analysed again
    drawer_part = site[site.ids_of_kind("drawer")[0]].part
    slower = copy.deepcopy(site.parts[drawer_part])
    slower["figures"]["phb"]["planning"] = {"value": 150.0, "source": "test"}
    got = step(lambda: put(slower))
    assert inc.last_parts == with_paths
    phb = site.ids_of_kind("phb")[0]
    assert got.components[phb].capacity == 150.0
    # a part no component uses: no part analysed again
    unused = copy.deepcopy(parts["FC6239"])
    unused["id"] = "FC6239-SPARE"
    step(lambda: put(unused))
    assert inc.last_parts == 0
    for _ in range(3):  # each undone: the figures as they were
        got = replayed(site, replica, inc, stack.undo)
        same_analysis(got, analyze(site))
    assert "FC6239-TEST" not in replica.topo.parts and got.components[phb].capacity != 150.0


def test_result_gathered_part_by_part_and_port_by_port(parts):
    """The whole result takes a part's paths, standby paths and unreachable ports whole when
    its ports come one after the other in the design, and port by port where parts interleave
    (an adapter added to the first server comes after the second server's ports): the same
    result as a full analysis either way, whichever way each part was taken."""
    site = build_site(parts, 2)
    replica = Replica(site)
    inc = IncrementalAnalysis(replica.topo)
    same_analysis(inc.analysis, analyze(site))
    slot = next(s for s in site.of_kind("slot") if s.id.startswith("s1.") and not site.children(s.id, "hba"))
    got = replayed(site, replica, inc, lambda: edit.add_hba(site, slot.id, parts["FC6239"]))
    same_analysis(got, analyze(site))
    ports = replica.topo.ids_of_kind("hba_port")
    first = inc.parts[inc.part_of[ports[0]]]
    assert first.by_port and ports[: len(first.ports)] != first.ports  # (interleaved: port by port)
    new_port = site.children(site.children(slot.id, "hba")[0].id, "hba_port")[0].id
    assert new_port in first.ports and new_port in got.unreachable  # (not cabled)
    assert got.unreachable == [p for p in ports if p in set(got.unreachable)]  # in design order
    second = inc.parts[inc.part_of[ports[-2]]]
    assert second is not first and ports[ports.index(second.ports[0]) :][: len(second.ports)] == second.ports
    got = replayed(site, replica, inc, lambda: edit.delete(site, [site.children(slot.id, "hba")[0].id]))
    same_analysis(got, analyze(site))  # (whole again)


def test_a_removal_splits_parts_without_walking_them(parts):
    """Three servers joined through the first one's switch (a new adapter in each of the
    others, cabled to it), then parted again: by the cables removed (one command), and by the
    adapters removed (one command). On a replica the parts are found by searches from what
    the change touched and its old neighbours (Partition._resplit), not by walking every
    member again; the partition equals one made afresh and the analysis a full one."""
    site = build_site(parts, 3)
    replica = Replica(site)
    inc = IncrementalAnalysis(replica.topo)
    ends = {c[end]: c.id for c in site.of_kind("cable") for end in ("a", "b")}
    free = [p.id for p in site.of_kind("switch_port") if p.id.startswith("s1.sw1.")][-2:]  # (all cabled)
    walked, walks = [], []
    walk = Partition._walk

    def counting(self, seeds, stop=None):
        groups, seen, joins = walk(self, seeds, stop)
        walked.append(len(seen))
        return groups, seen, joins

    def step(change):
        walked.clear()
        got = replayed(site, replica, inc, change)
        walks.append(max(walked, default=0))  # (before a partition afresh is made to compare)
        same_analysis(got, analyze(site))
        same_parts(inc.partition)
        return len([p for p in inc.parts.values() if p.paths])

    step(lambda: edit.delete(site, [ends[p] for p in free]))
    hbas = []
    for server in ("s2", "s3"):
        slot = next(s for s in site.of_kind("slot") if s.id.startswith(server + ".") and not site.children(s.id, "hba"))
        step(lambda: edit.add_hba(site, slot.id, parts["FC6239"]))  # noqa: B023 (given to no LPAR)
        hbas.append(site.children(slot.id, "hba")[0].id)

    def join():
        for n, hba in enumerate(hbas):
            step(lambda: edit.add_cable(site, site.children(hba, "hba_port")[0].id, free[n]))  # noqa: B023
        return [site.cable_at(site.children(hba, "hba_port")[0].id).id for hba in hbas]

    cables = join()
    assert step(lambda: None) == 1  # one part: the three servers joined
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Partition, "_walk", counting)
        assert step(lambda: edit.delete(site, cables)) == 3  # the cables' ends are the seeds
        assert walks[-1] == 0  # no part walked again
    join()
    assert step(lambda: None) == 1
    assert step(lambda: edit.delete(site, hbas)) == 3  # the adapters' old slots are the seeds


def test_references_gained_join_parts_without_walking_them(parts, monkeypatch):
    """A server deleted and undone: the undo gives its zones and host mappings back their HBA
    ports (references gained, none lost), so the parts it touches are joined from a walk of the
    components brought back alone, with no search of the rest (Partition._resplit). A zone
    naming a port of another server joins the two servers' parts the same way; one naming a
    missing id anew is searched (the id's part is the zone's). After each the partition equals
    one made afresh and the analysis a full one."""
    from planner.fixtures import set_raw

    site = build_site(parts, 3)
    replica = Replica(site)
    inc = IncrementalAnalysis(replica.topo)
    walked, searched = [], []
    walk, resplit = Partition._walk, Partition._resplit

    def counting_walk(self, seeds, stop=None):
        groups, seen, joins = walk(self, seeds, stop)
        walked.append(len(seen))
        return groups, seen, joins

    def counting_resplit(self, ids):
        searched.append(len(ids))
        return resplit(self, ids)

    monkeypatch.setattr(Partition, "_walk", counting_walk)
    monkeypatch.setattr(Partition, "_resplit", counting_resplit)

    def step(change):
        walked.clear(), searched.clear()
        got = replayed(site, replica, inc, change)
        seen = (list(walked), list(searched))
        same_analysis(got, analyze(site))
        same_parts(inc.partition)
        return seen, len([p for p in inc.parts.values() if p.paths])

    server = site.ids_of_kind("server")[1]
    undo = []
    (_, searched_delete), _ = step(lambda: undo.append(edit.delete(site, [server])))
    assert searched_delete  # (a removal is searched)
    (walks, searches), with_paths = step(lambda: undo[0].undo(site))
    assert with_paths == 3 and searches == []  # no search: joined from the walk of what came back
    back = [c for c in site.components() if c.id.startswith("s2.")]
    assert walks and max(walks) <= len(back) < len(site) // 2
    # a zone of the first server given a port of the third: the two parts join, no search
    zone = site.of_kind("zone")[0]
    other = next(p.id for p in site.of_kind("hba_port") if p.id.startswith("s3."))
    (walks, searches), with_paths = step(lambda: edit.set_attr(site, zone.id, "members", (*zone["members"], other)))
    assert with_paths == 2 and searches == [] and walks == [0]
    # ... one naming a missing id anew: searched (the id joins the zone's part)
    (_, searches), with_paths = step(lambda: set_raw(site, zone.id, "members", (*zone["members"], "s9.gone")))
    assert searches and with_paths == 2
    assert inc.partition.part_of["s9.gone"] == inc.partition.part_of[zone.id]


def test_moving_units_between_racks_keeps_the_analysis_exact(parts):
    """A unit taken out of its rack and put into another server's rack, then a rack deleted:
    the analysis of the replica follows edit by edit, equal to a full one, and the servers stay
    apart (a shared rack joins no parts)."""
    from planner import edit_place

    site = build_site(parts, 2)
    replica = Replica(site)
    inc = IncrementalAnalysis(replica.topo)
    from planner.placement import rack_contents

    rack = next(r.id for r in site.of_kind("rack") if r.name == "s1_R1")
    used = {u for _, pos in rack_contents(site, rack) for u in range(pos.u, pos.top + 1)}
    free = min(u for u in range(1, 43) if u not in used)
    for step in (
        lambda: edit_place.unplace(site, "s2.sw1"),
        lambda: edit_place.place(site, "s2.sw1", rack, free),
        lambda: edit.set_attr(site, "s2.fastt9.arr1", "segment_kb", 64),
        lambda: edit_place.delete_place(site, rack),
    ):
        got = replayed(site, replica, inc, step)
        assert inc.last_parts <= 2  # the touched server's part (and a rack's or site's own)
        same_analysis(got, analyze(site))
    assert len([p for p in inc.parts.values() if p.paths]) == 2


def test_delta_is_a_copy_and_the_replica_follows(parts, small):
    topo = small.clone()
    replica = Replica(topo)
    events = []
    topo.subscribe(events.append)
    b = edit.delete(topo, ["fastt1"])
    delta = Delta.from_events(topo, events)
    assert "fastt1" in delta.removed and all(c is not topo.get(i) for i, (c, _, _) in delta.components.items())
    replica.apply(delta)
    assert state(replica.topo) == state(topo)
    events.clear()
    b.undo(topo)  # the subsystem comes back at its old place in the design order
    replica.apply(Delta.from_events(topo, events))
    assert state(replica.topo) == state(topo) == state(small)
    assert dataclasses.asdict(analyze(replica.topo)) == dataclasses.asdict(analyze(small))


def test_many_components_come_back_among_the_top_level_at_their_places(parts, monkeypatch):
    """A server deleted and undone on a site takes its cables out of the other top-level
    components and brings them back (in one pass over them, not searched one by one): the
    replica has every list of children in the original's order, also done one by one."""

    site = build_site(parts, 2)
    server = site.ids_of_kind("server")[0]
    for places_from in (replica_module._PLACES_FROM, 10**9):
        monkeypatch.setattr(replica_module, "_PLACES_FROM", places_from)
        topo = site.clone()
        replica = Replica(topo)
        events = []
        topo.subscribe(events.append)
        back = edit.delete(topo, [server])
        replica.apply(Delta.from_events(topo, events))  # (its cables taken out in one pass, or one by one)
        assert state(replica.topo) == state(topo)
        events.clear()
        back.undo(topo)
        delta = Delta.from_events(topo, events)
        cables = [cid for cid, (c, _, _) in delta.components.items() if c.kind == "cable"]
        assert len(cables) > replica_module._PLACES_FROM or places_from > 10**8
        assert all(delta.components[c][2] == topo._children[None].index(c) for c in cables)
        replica.apply(delta)
        assert state(replica.topo) == state(topo) == state(site)


def test_a_zones_part_of_the_storage_order_outlives_the_ranks_but_not_its_members(parts, small):
    """The memo keeps each zone's part of the storage order (its subsystems and HBA ports)
    when the ranks are worked out again, and drops it when one of its members comes or goes,
    even with the zone itself untouched (a port removed leaving the zone naming it, then made
    again): the order kept is the one worked out afresh each time."""
    from planner.fixtures import add_raw, remove_raw

    topo = small.clone()
    zone = next(
        z for z in topo.of_kind("zone") if any(topo.get(m) and topo[m].kind == "hba_port" for m in z["members"])
    )
    port = topo[next(m for m in zone["members"] if topo.get(m) and topo[m].kind == "hba_port")]
    memo = LayoutMemo()
    laid = layout(topo, set(), editor=True, memo=memo)
    parts_before = dict(memo.zone_parts)
    remove_raw(topo, port.id)  # the zone still names it
    memo.forget(topo, {port.id}, laid)
    laid = layout(topo, set(), editor=True, memo=memo)
    assert memo.storage == storage_order(topo, host_ranks(topo))
    assert zone.id not in parts_before or memo.zone_parts[zone.id] != parts_before[zone.id]
    add_raw(topo, port.kind, port.id, port.parent, port.name, port.part, **port.attrs)
    memo.forget(topo, {port.id}, laid)
    layout(topo, set(), editor=True, memo=memo)
    assert memo.storage == storage_order(topo, host_ranks(topo))
    assert memo.zone_parts[zone.id] == parts_before[zone.id]
    kept = [z for z in parts_before if z != zone.id and memo.zone_parts.get(z) is parts_before[z]]
    assert kept or len(parts_before) == 1  # the other zones' parts outlived the ranks


def test_a_cables_part_of_the_switch_order_follows_its_ends_and_its_switch(parts, _benchmark):
    """The memo keeps each cable's part of the switches' order (the switch and the HBA port it
    joins) whatever the ranks, and drops it when an end comes or goes with the cable untouched
    (a switch port removed, the cable naming it still, then made again) or when the port's
    switch changes above it (its ASIC moved to another switch): the order kept is the one
    worked out afresh each time, and the other cables' parts are kept."""
    from planner.fixtures import add_raw, remove_raw

    topo = _benchmark.clone()
    memo = LayoutMemo()
    laid = layout(topo, set(), editor=True, memo=memo)

    def again(cid):
        nonlocal laid
        memo.forget(topo, {cid}, laid)
        laid = layout(topo, set(), editor=True, memo=memo)
        assert memo.peers == peer_ranks(topo, host_ranks(topo), None)

    kinds = {"hba_port", "switch_port"}
    cable = next(c for c in topo.of_kind("cable") if {topo[c["a"]].kind, topo[c["b"]].kind} == kinds)
    sp = cable["a"] if topo[cable["a"]].kind == "switch_port" else cable["b"]
    kept = {c: p for c, p in memo.cable_peers.items() if p is not None}
    port = topo[sp]
    remove_raw(topo, sp)  # the cable still names it
    again(sp)
    add_raw(topo, port.kind, port.id, port.parent, port.name, port.part, **port.attrs)
    again(sp)
    asic = port.parent
    before = memo.peers
    topo._reparent(asic, next(s.id for s in topo.of_kind("switch") if s.id != topo[asic].parent))
    again(asic)  # (the port and the cable untouched)
    assert memo.peers != before
    assert sum(memo.cable_peers.get(c) is p for c, p in kept.items()) > len(kept) // 2  # the others kept
