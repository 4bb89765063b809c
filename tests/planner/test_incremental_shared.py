"""Incremental analysis inside one large connected part: hosts that share their fabrics and
subsystems (planner.examples.build_datacenter), where an edit keeps the paths of the ports it
cannot change (planner.path_reuse) and searches the others again."""

from __future__ import annotations

import sys
from pathlib import Path

from planner import edit
from planner.analysis import analyze
from planner.examples import build_datacenter, build_example
from planner.incremental import IncrementalAnalysis, Replica

sys.path.insert(0, str(Path(__file__).parent))
from test_incremental import applied, replayed, run_edits, same_analysis, same_parts  # noqa: E402


def test_incremental_shared_fabrics(parts):
    """Twelve hosts sharing two core-edge fabrics and two subsystems: one connected part, in
    which an edit keeps the paths of the ports it cannot reach (planner.path_reuse) and searches
    the others again; links between switches laid and removed re-route every path."""
    run_edits(build_datacenter(parts, 12), parts, 6, 10)


def test_an_edit_in_a_shared_part_keeps_the_paths_it_cannot_change(parts):
    """In one part of twelve hosts, an HBA added to one host searches its own port only: the
    other ports keep their very paths; an inter-switch link removed searches every port again.
    Either way the result is a full analysis's."""
    topo = build_datacenter(parts, 12)
    replica = Replica(topo)
    inc = IncrementalAnalysis(replica.topo, "planning", "read")
    (part,) = [p for p in inc.parts.values() if p.paths]
    before = {hp: list(v) for hp, v in part.paths_of.items()}
    slot = next(
        s for s in topo.of_kind("slot") if topo.ancestor(s.id, "server").id == "h001" and not topo.children(s.id, "hba")
    )
    result = replayed(topo, replica, inc, lambda: edit.add_hba(topo, slot.id, parts["FC6239"]))
    same_analysis(result, analyze(topo, "planning", "read"))
    (after,) = [p for p in inc.parts.values() if p.paths]
    new_port = topo.children(topo.children(slot.id, "hba")[0].id, "hba_port")[0].id
    assert set(after.paths_of) == set(before) | {new_port}
    assert all(after.paths_of[hp][i] is q for hp, v in before.items() for i, q in enumerate(v))
    isl = next(c for c in topo.of_kind("cable") if c["label"].startswith("ISL-"))
    kept = {hp: list(v) for hp, v in after.paths_of.items()}
    result = replayed(topo, replica, inc, lambda: edit.delete(topo, [isl.id]))
    same_analysis(result, analyze(topo, "planning", "read"))
    (last,) = [p for p in inc.parts.values() if p.paths]
    assert not any(q is k for hp, v in kept.items() for q, k in zip(last.paths_of.get(hp, ()), v))
    same_parts(inc.partition)


def test_a_wwpn_or_a_name_keeps_the_parts_allocation(parts):
    """An edit that changes only what no figure reads (a WWPN, a host's name) in the one part
    keeps its allocation, Loads and all, for every direction sharing the partition; a segment
    size changed allocates the part again. Each result is a full analysis's."""
    topo = build_datacenter(parts, 12)
    replica = Replica(topo)
    read = IncrementalAnalysis(replica.topo, "planning", "read")
    write = IncrementalAnalysis(replica.topo, "planning", "write", partition=read.partition)
    port = topo.ids_of_kind("hba_port")[5]

    def step(change):
        delta = applied(topo, replica, change)
        before = read.analysis
        got = read.update(delta, token=delta.revision), write.update(delta, token=delta.revision)
        same_analysis(got[0], analyze(topo, "planning", "read"))
        same_analysis(got[1], analyze(topo, "planning", "write"))
        return before, got[0]

    for change in (
        lambda: edit.set_attr(topo, port, "wwpn", "10:00:00:00:c9:aa:bb:cc"),
        lambda: edit.set_attr(topo, "h003", "name", "db-host-3"),
    ):
        before, after = step(change)
        assert read.last_parts == 0 and write.last_parts == 0
        assert all(after.components[c] is ld for c, ld in before.components.items())
    # a segment size: read by the figures, but the data centre's FAStT900 gives none by layout,
    # so no load moves (see the next test) and the allocation is kept
    before, after = step(lambda: edit.set_attr(topo, "ds1.arr1", "segment_kb", 64))
    assert read.last_parts == 0 and write.last_parts == 0
    assert all(after.components[c] is ld for c, ld in before.components.items())
    same_parts(read.partition)


def test_a_figure_attribute_changed_keeps_the_allocation_only_when_no_load_moves(parts):
    """A segment size changed on the paper's benchmark (one part of 112 paths). The first
    change makes the FAStT's figure the mean of its array layouts: its Load's source changes,
    though no capacity does, so the part is allocated again. The next, to another size of the
    same mean, moves nothing: the read, write and mixed analyses keep their allocations, Loads
    and all. A workload's read share changed moves a mixed run's loads only; a run under a
    workload's demand allocates again. Each result is a full analysis's."""
    topo = build_example("p690-benchmark", parts)
    replica = Replica(topo)
    read = IncrementalAnalysis(replica.topo, "planning", "read")
    write = IncrementalAnalysis(replica.topo, "planning", "write", partition=read.partition)
    mixed = IncrementalAnalysis(replica.topo, "planning", "mixed", partition=read.partition)
    incs = {"read": read, "write": write, "mixed": mixed}

    def step(change):
        delta = applied(topo, replica, change)
        before = {d: inc.analysis for d, inc in incs.items()}
        got = {d: inc.update(delta, token=delta.revision) for d, inc in incs.items()}
        for d, result in got.items():
            same_analysis(result, analyze(topo, "planning", d))
        return before, got, {d: inc.last_parts for d, inc in incs.items()}

    before, got, counts = step(lambda: edit.set_attr(topo, "fastt1.arr1", "segment_kb", 64))
    assert counts == {"read": 1, "write": 1, "mixed": 1}
    was, now = before["read"].components["fastt1"], got["read"].components["fastt1"]
    assert was.capacity == now.capacity and was.source != now.source
    before, got, counts = step(lambda: edit.set_attr(topo, "fastt1.arr1", "segment_kb", 256))
    assert counts == {"read": 0, "write": 0, "mixed": 0}
    for d in ("read", "write", "mixed"):
        assert all(got[d].components[c] is ld for c, ld in before[d].components.items())
    wl = topo.ids_of_kind("workload")[0]
    _, _, counts = step(lambda: edit.set_attr(topo, wl, "read_pct", 30.0))
    assert counts == {"read": 0, "write": 0, "mixed": 1}  # (no target: only the read shares)
    step(lambda: edit.set_attr(topo, wl, "target_mbps", 50.0))
    _, _, counts = step(lambda: edit.set_attr(topo, "fastt1.arr1", "segment_kb", 64))
    assert counts == {"read": 1, "write": 1, "mixed": 1}  # under a demand: allocated again
    same_parts(read.partition)


def test_the_ports_an_edit_may_change_are_worked_out_only_for_parts_that_had_ports(parts, monkeypatch):
    """Which ports' paths an edit may have changed is worked out only when a part being made
    has a port the parts before it had: a server deleted and restored makes parts whose parts
    before had none (the 16x site's undo walked its 884 ids three times for them); an HBA added
    to a host of a shared part asks, and the other ports keep their very paths. Every result is
    a full analysis's."""
    from planner import incremental
    from planner.commands import UndoStack
    from planner.examples import build_site

    asked = []
    real = incremental.affected_ports
    monkeypatch.setattr(incremental, "affected_ports", lambda *a: asked.append(1) or real(*a))
    site = build_site(parts, 2)
    replica = Replica(site)
    inc = IncrementalAnalysis(replica.topo, "planning", "read")
    stack = UndoStack(site)
    server = site.ids_of_kind("server")[1]
    same_analysis(
        replayed(site, replica, inc, lambda: stack.push(edit.delete(site, [server]), applied=True)), analyze(site)
    )
    same_analysis(replayed(site, replica, inc, stack.undo), analyze(site))
    assert asked == [] and inc.last_parts >= 1
    same_parts(inc.partition)
    topo = build_datacenter(parts, 6)
    replica = Replica(topo)
    inc = IncrementalAnalysis(replica.topo, "planning", "read")
    (part,) = [p for p in inc.parts.values() if p.paths]
    before = {hp: list(v) for hp, v in part.paths_of.items()}
    slot = next(s for s in topo.of_kind("slot") if not topo.children(s.id, "hba"))
    same_analysis(replayed(topo, replica, inc, lambda: edit.add_hba(topo, slot.id, parts["FC6239"])), analyze(topo))
    (after,) = [p for p in inc.parts.values() if p.paths]
    assert asked and all(after.paths_of[hp][i] is q for hp, v in before.items() for i, q in enumerate(v))
