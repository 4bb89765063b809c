"""The background analysis starts from one exact copy of the design (``Topology.snapshot``),
taken over by the analysis lane, which copies it again for the check lane: both give what a full
analysis and check of the live design give, before and after edits, and keep its order exactly."""

from __future__ import annotations

from app.document import Document, compute_bundle
from planner import edit
from planner.examples import build_example
from planner.io import Project


def _same_tables(a, b) -> None:
    a._fix_order(), b._fix_order()  # each table is put in design order when read
    assert list(a._components) == list(b._components)
    assert {k: list(v) for k, v in a._by_kind.items()} == {k: list(v) for k, v in b._by_kind.items()}
    assert {k: v for k, v in a._children.items() if v} == {k: v for k, v in b._children.items() if v}
    assert a._seq == b._seq and a._refs_to == b._refs_to and a._by_kind == b._by_kind
    assert all(a._components[c] == b._components[c] and a._components[c] is not b._components[c] for c in a._seq)


def _assert_like_a_full_run(doc: Document) -> None:
    bundle = doc.wait_for_analysis(20000)
    topo = doc.topology
    full = compute_bundle(topo, topo.revision, doc.figures, doc.direction)
    assert bundle is not None and bundle.origin is topo
    assert bundle.result.aggregate == full.result.aggregate
    assert bundle.result.paths == full.result.paths
    assert (bundle.read_mbps, bundle.write_mbps) == (full.read_mbps, full.write_mbps)
    assert bundle.findings == full.findings


def test_snapshot_is_an_exact_private_copy(parts):
    topo = build_example("p690-one-drawer", parts)
    free = next(s for s in topo.of_kind("slot") if not topo.children(s.id))
    edit.move_hba(topo, "hba.d1s1", free.id)  # its slot's children no longer in creation order
    edit.delete(topo, ["fastt8"]).undo(topo)  # fastt8 and its parts back in their places
    copy = topo.snapshot()
    _same_tables(copy, topo)
    copy._components["fastt1"].attrs["name_probe"] = 1
    assert "name_probe" not in topo["fastt1"].attrs


def test_the_lanes_start_from_the_opened_design_and_follow_edits(qtbot, parts):
    doc = Document(parts)
    doc.synchronous = True
    doc.replace_project(Project(build_example("p690-one-drawer", parts)), None)
    free = next(s for s in doc.topology.of_kind("slot") if not doc.topology.children(s.id))
    doc.run(edit.move_hba, "hba.d1s1", free.id)
    doc.run(edit.delete, ["fastt8"])
    doc.undo_stack.undo()  # fastt8 back at its place in the design order
    doc.synchronous = False
    doc.set_direction("write")  # the background resets from the design as edited
    _assert_like_a_full_run(doc)
    bg = doc._background
    _same_tables(bg._replica.topo, doc.topology)
    _same_tables(bg._check_replica.topo, doc.topology)
    assert bg._replica.topo is not bg._check_replica.topo
    array = doc.topology.of_kind("array")[0].id
    doc.run(edit.set_attr, array, "segment_kb", 64)
    doc.run(edit.delete, ["fastt2"])
    _assert_like_a_full_run(doc)
    _same_tables(bg._check_replica.topo, doc.topology)
    doc._background.shutdown()


def test_the_chosen_direction_is_sent_first_and_the_totals_follow(qtbot, parts):
    """The canvas is recoloured from the chosen direction before the other is analysed: the
    first bundle of an edit lacks the other total (the headline shows '...'), ``totalled``
    completes it in the bundle shown, and the rules get both."""
    from widgets.headline import HeadlineBar

    doc = Document(parts)
    bar = HeadlineBar(doc)
    qtbot.addWidget(bar)
    doc.replace_project(Project(build_example("p690-one-drawer", parts)), None)
    doc.wait_for_analysis(20000)
    first, totals = [], []
    seen_write = []
    doc.analysisReady.connect(lambda b: first.append((b.checked, b.read_mbps, b.write_mbps)) if not b.checked else None)
    doc.analysisReady.connect(lambda b: seen_write.append(bar.write_value.text()) if not b.checked else None)
    doc.totalsReady.connect(lambda b: totals.append((b.read_mbps, b.write_mbps)))
    array = doc.topology.of_kind("array")[0].id
    doc.run(edit.set_attr, array, "segment_kb", 64)
    _assert_like_a_full_run(doc)  # the checked bundle has both totals of a full run
    full = compute_bundle(doc.topology, doc.topology.revision, doc.figures, doc.direction)
    assert first and first[-1] == (False, full.read_mbps, None)
    assert seen_write[-1] == "\u2026"
    assert totals and totals[-1] == (full.read_mbps, full.write_mbps)
    assert bar.write_value.text() == f"{full.write_mbps:,.0f} MB/s"
    doc._background.shutdown()


def test_the_lane_works_out_which_kinds_bind_for_the_headline(qtbot, parts, monkeypatch):
    """Which kinds of hop bind the paths (the headline's "bound by") comes with the analysis
    from the lane, as a full count on the GUI thread would make it (6-8 ms of the turn an
    analysis arrives in, on the 16x site); the headline does not count them again."""
    import widgets.headline as headline
    from planner.analysis import binding_kinds

    doc = Document(parts)
    bar = headline.HeadlineBar(doc)
    qtbot.addWidget(bar)
    doc.replace_project(Project(build_example("p690-one-drawer", parts)), None)
    doc.wait_for_analysis(20000)
    counted: list[int] = []
    monkeypatch.setattr(
        headline, "binding_kinds", lambda topo, result: counted.append(1) or binding_kinds(topo, result)
    )
    doc.run(edit.delete, [doc.topology.of_kind("hba")[0].id])
    _assert_like_a_full_run(doc)
    bundle = doc.analysis
    assert bundle.binding == binding_kinds(doc.topology, bundle.result) and bundle.binding
    assert counted == [] and bar.bound_value.text() == headline.binding_text(bundle.binding)
    doc._background.shutdown()


def test_an_edit_stops_the_check_of_the_revision_before(qtbot, parts, monkeypatch):
    """The rules of a stale revision stop at the next rule once an edit is being analysed (they
    would only compete with it for the interpreter); the new revision is checked in full."""
    import threading

    import app.background as background

    real = background.check
    in_check, stopped = threading.Event(), []

    def slow_check(topo, *args, stop=None, **kw):
        in_check.set()
        for _ in range(400):  # a long rule: until the edit arrives (2 s at most)
            if stop is not None and stop():
                stopped.append(topo.revision)
                break
            threading.Event().wait(0.005)
        return real(topo, *args, stop=stop, **kw)

    monkeypatch.setattr(background, "check", slow_check)
    doc = Document(parts)
    doc.replace_project(Project(build_example("p690-one-drawer", parts)), None)
    qtbot.waitUntil(in_check.is_set, timeout=20000)
    array = doc.topology.of_kind("array")[0].id
    doc.run(edit.set_attr, array, "segment_kb", 64)  # while the first revision's rules run
    monkeypatch.setattr(background, "check", real)
    _assert_like_a_full_run(doc)
    assert stopped  # the first revision's check was stopped
    doc._background.shutdown()


def test_an_edit_arriving_while_one_is_shown_skips_the_other_direction_until_it_is_analysed(qtbot, parts, monkeypatch):
    """The analysis lane brings the other direction (and the check lane) up to date only when no
    edit waits: an edit made as soon as the canvas shows the one before is analysed next, and
    the other direction, the totals and the rules catch up with both at once."""
    import app.background as background

    calls = []
    real = background.BackgroundAnalysis._other_directions
    monkeypatch.setattr(
        background.BackgroundAnalysis, "_other_directions", lambda self, *a: calls.append(1) or real(self, *a)
    )
    doc = Document(parts)
    doc.replace_project(Project(build_example("p690-one-drawer", parts)), None)
    doc.wait_for_analysis(20000)
    calls.clear()
    arrays = [a.id for a in doc.topology.of_kind("array")]
    shown = []

    def next_edit(bundle):
        if not bundle.checked and len(shown) < 3:  # an edit right away, before the lane goes on
            shown.append(bundle.revision)
            doc.run(edit.set_attr, arrays[len(shown) % len(arrays)], "segment_kb", 32 * 2 ** len(shown))

    doc.analysisReady.connect(next_edit)
    doc.run(edit.delete, [doc.topology.of_kind("cable")[0].id])  # a structural edit first
    _assert_like_a_full_run(doc)
    assert len(shown) == 3 and len(calls) < len(shown) + 1  # some revisions only in the chosen direction
    _same_tables(doc._background._check_replica.topo, doc.topology)  # every delta reached the rules
    doc._background.shutdown()


def test_deleting_the_owner_waits_for_an_emission_under_way_and_stops_the_next(qtbot):
    """Qt forbids deleting a QObject while another thread emits its signals (a probe emitting in
    a loop while the owner was deleted crashed the process in 2 runs of 6): deleting the owner
    waits until the lane's emission ends, and the lane emits nothing after."""
    import threading
    import time

    import shiboken6
    from PySide6.QtCore import QObject, Qt

    from app.background import BackgroundAnalysis

    owner = QObject()
    bg = BackgroundAnalysis(lambda *a, **k: None, owner)
    inside, seen = threading.Event(), []

    def slow_receiver(value):  # runs in the lane (a direct connection): the emission lasts 0.3 s
        inside.set()
        time.sleep(0.3)
        seen.append((value, time.monotonic()))

    bg.laidOut.connect(slow_receiver, Qt.ConnectionType.DirectConnection)
    deleted, done = threading.Event(), threading.Event()

    def work(_items):
        bg._send("laidOut", "first")
        deleted.wait(5)
        bg._send("laidOut", "second")  # the owner is gone by now: not emitted
        done.set()

    bg._lane._counts = None
    bg._lane._work = work
    bg._lane.post("go")
    assert inside.wait(5)
    shiboken6.delete(owner)
    deleted_at = time.monotonic()
    deleted.set()
    assert done.wait(5)
    assert [v for v, _t in seen] == ["first"]
    assert seen[0][1] <= deleted_at  # the deletion waited for the emission under way


def test_a_command_is_announced_once_and_analysed_whole(qtbot, parts):
    """``changed`` comes once per command, not once per event (a server of the 16x site deleted
    sent 940), the command's events come as one batch once it is applied (or undone), and the
    analysis that follows is of the whole command."""
    from PySide6.QtCore import QCoreApplication

    doc = Document(parts)
    doc.replace_project(Project(build_example("p690-one-drawer", parts)), None)
    doc.wait_for_analysis(20000)
    changed, batches = [], []
    doc.changed.connect(lambda: changed.append(doc.topology.revision))
    doc.modelEvents.connect(lambda events: batches.append((events, doc.topology.revision)))
    before = doc.topology.revision
    doc.run(edit.delete, ["fastt8"])
    assert len(changed) == 1 and len(batches) == 1
    events, seen_at = batches[0]
    assert len(events) > 10 and seen_at == doc.topology.revision > before  # sent whole, once applied
    assert "fastt8" in {e.id for e in events if e.type == "removed"}
    QCoreApplication.processEvents()
    doc.undo_stack.undo()
    assert len(changed) == 2 and len(batches) == 2
    assert {e.id for e in batches[1][0] if e.type == "added"} == {e.id for e in events if e.type == "removed"}
    _assert_like_a_full_run(doc)
    doc.set_direction("write")  # an analysis asked for, then an edit in the same turn: announced
    doc.run(edit.delete, ["fastt7"])
    assert len(changed) == 3
    _assert_like_a_full_run(doc)
    doc._background.shutdown()


def test_after_repaints_runs_once_the_windows_have_repainted(qtbot):
    """Qt posts a window's repaint at low priority; ``after_repaints`` comes after it (a
    zero-timer alone comes before)."""
    from PySide6.QtCore import QObject, QTimer
    from PySide6.QtWidgets import QWidget

    from app.document import after_repaints

    order = []

    class Painted(QWidget):
        def paintEvent(self, event):
            order.append("paint")

    w = Painted()
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    qtbot.wait(50)
    order.clear()
    holder = QObject()

    def edit_turn():
        w.update()
        after_repaints(holder, lambda: order.append("after"))
        QTimer.singleShot(0, lambda: order.append("timer"))

    QTimer.singleShot(0, edit_turn)
    qtbot.waitUntil(lambda: "after" in order, timeout=2000)
    assert order.index("paint") < order.index("after")
    assert order.count("after") == 1


def _starts(monkeypatch) -> list[float]:
    """When the analysis lane begins each batch of jobs (``_start_again``), as it happens."""
    import time

    import app.background as background

    started: list[float] = []
    real = background.BackgroundAnalysis._start_again
    monkeypatch.setattr(
        background.BackgroundAnalysis,
        "_start_again",
        lambda self, jobs: started.append(time.monotonic()) or real(self, jobs),
    )
    return started


def test_the_lane_analyses_an_edit_after_the_gui_thread_has_repainted_it(qtbot, parts, monkeypatch):
    """An edit's analysis waits for the GUI thread's turn (``edit_turn``: its panels repainted,
    at most ``EDIT_FIRST_S``): the two taking turns at the interpreter made the panels' repaint
    of a server deleted on the 16x site take 7-12 ms instead of 3 in one turn."""
    import time

    import app.background as background

    started = _starts(monkeypatch)
    monkeypatch.setattr(background, "EDIT_FIRST_S", 5.0)
    monkeypatch.setattr("app.document.after_repaints", lambda parent, then: None)  # the turn never comes by itself
    doc = Document(parts)
    doc.replace_project(Project(build_example("p690-one-drawer", parts)), None)
    bg_turn_at = []

    def give_turn():
        bg_turn_at.append(time.monotonic())
        doc._background.edit_turn.set()

    qtbot.waitUntil(lambda: doc._background is not None, timeout=5000)
    qtbot.wait(100)
    assert not started  # the opened design waits for the turn
    give_turn()
    assert doc.wait_for_analysis(20000) is not None
    started.clear()
    array = doc.topology.of_kind("array")[0].id
    doc.run(edit.set_attr, array, "segment_kb", 64)
    qtbot.wait(150)  # the document's timer starts the analysis; the lane waits
    assert not started and not doc._background.edit_turn.is_set()
    give_turn()
    _assert_like_a_full_run(doc)
    assert started and started[0] >= bg_turn_at[-1]
    doc._background.shutdown()


def test_a_design_shown_afresh_is_analysed_once_the_canvas_has_made_it(qtbot, parts, monkeypatch):
    """A design opened or a scenario switched to is analysed once the canvas has made its items
    (``shown_turn``, set by ``Document.design_shown``; at most ``SHOWN_FIRST_S``): the lanes
    analysing it meanwhile took the interpreter from the canvas and the panels filling (a
    scenario of the 16x site switched with the Racks panel showing: turns of 41-70 ms, now 24-31,
    and the analysis painted after 0.98-1.31 s, now 0.63-0.71; probe)."""
    import time

    import app.background as background

    started = _starts(monkeypatch)
    monkeypatch.setattr(background, "SHOWN_FIRST_S", 5.0)
    doc = Document(parts)
    doc.shows_designs = True  # (as a canvas declares)
    doc.replace_project(Project(build_example("p690-one-drawer", parts)), None)
    qtbot.wait(200)
    assert not started  # the window's first design waits too (its background made after it)
    doc.design_shown()
    assert doc.wait_for_analysis(20000) is not None
    started.clear()
    doc.replace_project(Project(build_example("p690-worst-cabling", parts)), None)
    qtbot.wait(200)
    assert not started and not doc._background.shown_turn.is_set()  # waiting for the canvas
    shown_at = time.monotonic()
    doc.design_shown()
    _assert_like_a_full_run(doc)
    assert started and started[0] >= shown_at
    doc._background.shutdown()


def test_the_canvas_says_when_it_has_made_a_design_shown_afresh(window, qtbot, monkeypatch):
    """The window's canvas calls ``design_shown`` once its build of a design opened has made
    every item (the analysis lane waits for it: see the test above)."""
    calls = []
    real = window.doc.design_shown
    monkeypatch.setattr(window.doc, "design_shown", lambda: calls.append(window.scene._build is None) or real())
    assert window.doc.shows_designs
    window.doc.synchronous = False
    window.open_example("p690-benchmark")
    qtbot.waitUntil(lambda: bool(calls), timeout=10000)
    assert calls == [True] and window.scene.items_by_id


def test_a_design_shown_afresh_waits_for_the_panels_showing_it_in_slices(qtbot, parts, monkeypatch):
    """The analysis of a design shown afresh waits, after the canvas, for the panels that still
    show it in slices (``Document.showing_check``: the racks drawn, the outline filled): beside a
    lane their slices ran 5-6 times slower (a scenario of the 16x site shown: 30-39 ms turns)."""
    import time

    import app.background as background

    started = _starts(monkeypatch)
    monkeypatch.setattr(background, "SHOWN_FIRST_S", 5.0)
    doc = Document(parts)
    doc.shows_designs = True
    busy = [False]
    doc.showing_check(lambda: busy[0])
    doc.replace_project(Project(build_example("p690-one-drawer", parts)), None)
    doc.design_shown()
    assert doc.wait_for_analysis(20000) is not None
    busy[0] = True
    started.clear()
    doc.replace_project(Project(build_example("p690-worst-cabling", parts)), None)
    doc.design_shown()  # the canvas is done, the panel is not
    qtbot.wait(200)
    assert not started and not doc._background.shown_turn.is_set()
    done_at = time.monotonic()
    busy[0] = False
    _assert_like_a_full_run(doc)
    assert started and started[0] >= done_at
    doc._background.shutdown()


def test_a_panel_that_never_finishes_holds_the_analysis_at_most_a_while(qtbot, parts, monkeypatch):
    """A panel's check that stays busy does not hold the analysis for ever (SHOWN_WAIT_S)."""
    import app.document as document

    monkeypatch.setattr(document, "SHOWN_WAIT_S", 0.3)
    doc = Document(parts)
    doc.shows_designs = True
    doc.showing_check(lambda: True)
    doc.replace_project(Project(build_example("p690-one-drawer", parts)), None)
    doc.design_shown()
    assert doc.wait_for_analysis(20000) is not None
    doc.replace_project(Project(build_example("p690-worst-cabling", parts)), None)
    doc.design_shown()
    assert not doc._background.shown_turn.is_set()
    qtbot.waitUntil(doc._background.shown_turn.is_set, timeout=3000)
    _assert_like_a_full_run(doc)
    doc._background.shutdown()


def test_the_racks_and_the_outline_say_while_they_show_a_design_in_slices(window, qtbot):
    """The Racks panel drawing its racks in slices and the outline filling a group are busy for
    ``Document.showing_check``; idle once done."""
    checks = window.doc._showing_checks
    assert len(checks) >= 2
    racks = window.racks
    window.doc.synchronous = False
    window.open_example("p690-benchmark")
    qtbot.waitUntil(lambda: not any(c() for c in checks), timeout=10000)
    racks._drawing = (window.doc.topology, [])  # (a drawing under way)
    assert any(c() for c in checks)
    racks._drawing = None
    window.model_tree._filling["cable"] = []
    assert any(c() for c in checks)
    window.model_tree._filling.clear()
    assert not any(c() for c in checks)


def test_a_part_new_or_changed_re_analyses_only_the_parts_using_it(qtbot, parts, monkeypatch):
    """An adapter of a model new to the design, placed on a three-server site: the lane
    analyses its server's part again, not the design (no rebuild); the same for a part's
    figures changed while the edit before is still being shown (the other direction skipped,
    then brought up to date). Each time what a full analysis and check give."""
    import copy

    from planner.commands import PutPart
    from planner.examples import build_site
    from planner.incremental import IncrementalAnalysis

    rebuilds = []
    real = IncrementalAnalysis.rebuild
    monkeypatch.setattr(IncrementalAnalysis, "rebuild", lambda self, *a, **k: rebuilds.append(1) or real(self, *a, **k))
    doc = Document(parts)
    doc.replace_project(Project(build_site(parts, 3)), None)
    doc.wait_for_analysis(20000)
    bg, topo = doc._background, doc.topology
    rebuilds.clear()
    model = copy.deepcopy(parts["FC6239"])
    model["id"], model["figures"]["hba"]["planning"] = "FC6239-B", {"value": 90.0, "source": "test"}
    slot = next(s for s in topo.of_kind("slot") if s.id.startswith("s2.") and not topo.children(s.id, "hba"))
    doc.run(edit.add_hba, slot.id, model)
    _assert_like_a_full_run(doc)
    assert bg._incs[doc.direction].last_parts == 1 and not rebuilds
    assert doc.wait_for_analysis(20000).result.components[topo.children(slot.id, "hba")[0].id].capacity == 90.0

    def put(t, part):
        cmd = PutPart(part)
        cmd.do(t)
        return cmd

    drawer_part = copy.deepcopy(topo.parts[topo.of_kind("drawer")[0].part])
    drawer_part["figures"]["phb"]["planning"] = {"value": 150.0, "source": "test"}
    shown = []

    def next_edit(bundle):
        if not bundle.checked and not shown:  # right away, before the lane goes on
            shown.append(bundle.revision)
            doc.run(put, drawer_part)

    doc.analysisReady.connect(next_edit)
    doc.run(edit.set_attr, topo.of_kind("array")[0].id, "segment_kb", 64)
    _assert_like_a_full_run(doc)
    assert shown and not rebuilds
    assert doc.wait_for_analysis(20000).result.components[topo.ids_of_kind("phb")[0]].capacity == 150.0
    doc.analysisReady.disconnect(next_edit)
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    _assert_like_a_full_run(doc)
    assert not rebuilds
    doc._background.shutdown()


def test_a_figure_set_switched_keeps_the_parts_and_the_set_shown_before(qtbot, parts):
    """Another figure set is analysed from the parts the lane keeps (they do not depend on the
    figures: the design is not split again), and switching back takes up the analyses of the
    set shown before, brought up to date with the edits made since; a third set is analysed
    afresh. An edit made in the same turn as the switch is split in. Each time what a full
    analysis and check give."""
    from planner.examples import build_site

    doc = Document(parts)
    doc.replace_project(Project(build_site(parts, 2)), None)
    doc.wait_for_analysis(20000)
    bg, topo = doc._background, doc.topology
    partition, planning = bg._partition, bg._incs[doc.direction]
    assert doc.figures == "planning"
    doc.set_figures("measured")
    _assert_like_a_full_run(doc)
    measured = bg._incs[doc.direction]
    assert bg._partition is partition and measured is not planning
    cables = [c.id for c in topo.of_kind("cable")]
    doc.run(edit.delete, [cables[0]])  # an edit with measured figures shown
    _assert_like_a_full_run(doc)
    doc.set_figures("planning")  # back: the planning analyses taken up again
    _assert_like_a_full_run(doc)
    assert bg._incs[doc.direction] is planning and bg._partition is partition
    doc.run(edit.delete, [cables[-1]])
    doc.set_figures("measured")  # in the same turn as the edit
    _assert_like_a_full_run(doc)
    assert bg._incs[doc.direction] is measured and bg._partition is partition
    doc.set_figures("rated")  # a third set (filled while idle, or afresh); all kept
    _assert_like_a_full_run(doc)
    doc.set_figures("planning")
    _assert_like_a_full_run(doc)
    assert bg._incs[doc.direction] is planning and bg._partition is partition  # (every set kept)
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    doc.set_figures("rated")
    _assert_like_a_full_run(doc)
    doc._background.shutdown()


def test_the_mixed_analysis_left_is_kept_and_brought_up_to_date_when_shown_again(qtbot, parts):
    """Leaving the mixed direction keeps its analysis (not kept in step with the edits): shown
    again after edits, it is updated from the parts re-made since, not made afresh."""
    from planner.examples import build_site

    doc = Document(parts)
    doc.replace_project(Project(build_site(parts, 2)), None)
    doc.wait_for_analysis(20000)
    bg, topo = doc._background, doc.topology
    doc.set_direction("mixed")
    _assert_like_a_full_run(doc)
    mixed = bg._incs["mixed"]
    doc.set_direction("read")
    _assert_like_a_full_run(doc)
    left = mixed.analysis
    doc.run(edit.delete, [topo.of_kind("cable")[0].id])
    doc.run(edit.set_attr, topo.of_kind("workload")[0].id, "read_pct", 30.0)
    _assert_like_a_full_run(doc)
    assert bg._incs["mixed"] is mixed and mixed.analysis is left  # (not kept in step)
    doc.set_direction("mixed")
    _assert_like_a_full_run(doc)
    assert bg._incs["mixed"] is mixed and mixed.analysis is not left
    doc._background.shutdown()


def test_the_figure_sets_not_shown_are_filled_while_idle_and_a_switch_only_assembles(qtbot, parts, monkeypatch):
    """Once the editor has been quiet (IDLE_S), the analysis lane fills the read and write
    analyses of the figure sets not shown, a part at a time; an edit arriving meanwhile stops it
    in or after the part under way and is analysed next (the rest is filled when quiet again). A
    switch to a filled set then allocates no part, only assembles: what a full analysis and
    check give. (The 16x site's first switch: 141 ms, 75 of them this allocation.)"""
    import threading

    from app import background
    from planner.examples import build_site
    from planner.incremental import IncrementalAnalysis

    monkeypatch.setattr(background, "IDLE_S", 0.05)
    log, held, go, filling = [], threading.Event(), threading.Event(), set()
    allocate, update, prefill = IncrementalAnalysis._allocate, IncrementalAnalysis.update, IncrementalAnalysis.prefill

    def prefilling(inc, stop):
        filling.add(id(inc))
        try:
            return prefill(inc, stop)
        finally:
            filling.discard(id(inc))

    def allocating(inc, key, got, pause=None):
        if id(inc) in filling:
            log.append(("fill", inc.options[0]))
            if not held.is_set():  # the first: held until an edit is queued
                held.set()
                go.wait(10)
        return allocate(inc, key, got, pause)

    def updating(inc, *args, **kwargs):
        log.append(("update", inc.options[0]))
        return update(inc, *args, **kwargs)

    monkeypatch.setattr(IncrementalAnalysis, "_allocate", allocating)
    monkeypatch.setattr(IncrementalAnalysis, "update", updating)
    monkeypatch.setattr(IncrementalAnalysis, "prefill", prefilling)
    doc = Document(parts)
    doc.replace_project(Project(build_site(parts, 3)), None)
    doc.wait_for_analysis(20000)
    bg, topo = doc._background, doc.topology
    qtbot.waitUntil(held.is_set, timeout=10000)
    doc.run(edit.set_attr, "s2.fastt9.arr1", "segment_kb", 64)  # queued while a part is filled
    go.set()
    _assert_like_a_full_run(doc)
    first = log.index(("update", "planning"))
    assert log[:first] == [("fill", "rated")]  # stopped in the part under way (the first set filled)
    qtbot.waitUntil(lambda: bg.filled("measured") and bg.filled("rated"), timeout=10000)
    doc.set_figures("measured")
    _assert_like_a_full_run(doc)
    assert bg._incs[doc.direction].last_parts == 0  # filled: only assembled
    doc.run(edit.delete, [topo.of_kind("cable")[0].id])
    doc.set_figures("rated")  # in the same turn: the parts the edit re-made allocated then
    _assert_like_a_full_run(doc)
    assert 0 < bg._incs[doc.direction].last_parts < len([p for p in bg._partition.parts.values() if p.paths])
    doc.undo_stack.undo()
    doc.set_figures("planning")
    _assert_like_a_full_run(doc)
    doc._background.shutdown()


def test_the_mixed_analysis_of_the_set_shown_is_filled_while_idle(qtbot, parts, monkeypatch):
    """The lane fills the mixed analysis of the figure set shown too (made afresh, the 16x
    site's first switch to mixed took 282 ms): the switch to it then allocates no part."""
    from app import background
    from planner.examples import build_site

    monkeypatch.setattr(background, "IDLE_S", 0.05)
    doc = Document(parts)
    doc.replace_project(Project(build_site(parts, 2)), None)
    doc.wait_for_analysis(20000)
    bg = doc._background

    qtbot.waitUntil(lambda: bg.filled(doc.figures, ("mixed",)), timeout=10000)
    assert bg._incs["mixed"].analysis is None  # (filled, not assembled: nothing shown asked for it)
    doc.set_direction("mixed")
    _assert_like_a_full_run(doc)
    assert bg._incs["mixed"].last_parts == 0
    doc.run(edit.delete, [doc.topology.of_kind("cable")[0].id])
    _assert_like_a_full_run(doc)
    doc.set_direction("read")
    _assert_like_a_full_run(doc)
    doc._background.shutdown()


def test_a_fill_that_fails_is_logged_once_and_the_sets_are_analysed_when_shown(qtbot, parts, monkeypatch, caplog):
    """Filling the other sets never costs the editor anything: when it raises (a bug), it is
    logged once and not tried again for the design; a switch then analyses the set afresh."""
    import logging

    from app import background
    from planner.examples import build_site
    from planner.incremental import IncrementalAnalysis

    monkeypatch.setattr(background, "IDLE_S", 0.05)
    tried = []

    def broken(inc, stop):
        tried.append(inc.options)
        raise RuntimeError("a bug in the fill")

    monkeypatch.setattr(IncrementalAnalysis, "prefill", broken)
    doc = Document(parts)
    with caplog.at_level(logging.ERROR, logger="app.background"):
        doc.replace_project(Project(build_site(parts, 2)), None)
        doc.wait_for_analysis(20000)
        qtbot.waitUntil(lambda: bool(tried), timeout=10000)
        doc.run(edit.delete, [doc.topology.of_kind("cable")[0].id])
        _assert_like_a_full_run(doc)
        qtbot.wait(300)  # (idle again: not tried again)
    assert len(tried) == 1
    assert [r.message for r in caplog.records].count("filling the analyses of the other figure sets failed") == 1
    doc.set_figures("measured")
    _assert_like_a_full_run(doc)
    doc.set_direction("mixed")
    _assert_like_a_full_run(doc)
    doc._background.shutdown()


def test_the_fill_waits_while_the_gui_thread_works(qtbot, parts, monkeypatch):
    """The fill is work no one waits for: it allocates nothing while the GUI thread's loop is
    seen working, and goes on once the loop has waited for events a while (FILL_QUIET_S)."""
    from app import background
    from planner.examples import build_site
    from widgets import slice_budget

    monkeypatch.setattr(background, "IDLE_S", 0.05)
    gui_working = [True]
    monkeypatch.setattr(slice_budget, "loop_waiting", lambda: not gui_working[0])
    doc = Document(parts)
    doc.replace_project(Project(build_site(parts, 2)), None)
    doc.wait_for_analysis(20000)
    bg = doc._background
    qtbot.wait(400)  # (idle long enough to fill, were the GUI thread idle)
    assert not any(inc.alloc for incs in bg._shelf.values() for inc in incs.values())
    gui_working[0] = False
    qtbot.waitUntil(lambda: bg.filled("measured") and bg.filled("rated"), timeout=10000)
    doc._background.shutdown()


def _same_figures(a, b) -> bool:
    return (sorted(a.changed), a.group_load, a.binds) == (sorted(b.changed), b.group_load, b.binds)


def _switching_site(parts, monkeypatch) -> tuple[Document, list, object]:
    """A two-server site analysed by a document whose lane goes idle after 0.05 s; the results
    the lane makes canvas figures of, as it makes them; the first analysis sent."""
    from app import background
    from planner.examples import build_site

    monkeypatch.setattr(background, "IDLE_S", 0.05)
    made, real = [], background.canvas_figures
    monkeypatch.setattr(background, "canvas_figures", lambda r, before=None: made.append(r) or real(r, before))
    doc = Document(parts)
    doc.replace_project(Project(build_site(parts, 2)), None)
    return doc, made, doc.wait_for_analysis(20000)


def _not_sent_after_an_edit(qtbot, doc: Document, key: tuple[str, str], switch) -> None:
    """Once idle, the figures for a switch to ``key`` are made; after an edit, ``switch()``
    sends others, made against the analysis of the edit, as a comparison made then says."""
    from widgets.canvas.figures import canvas_figures

    bg = doc._background
    qtbot.waitUntil(lambda: key in bg._switches, timeout=10000)
    stale = bg._switches[key]
    doc.run(edit.delete, [doc.topology.of_kind("cable")[0].id])
    after = doc.wait_for_analysis(20000)
    switch()
    _assert_like_a_full_run(doc)
    got = doc.analysis
    assert got.canvas is not stale and got.result is not stale.result and got.canvas.since is after.result
    assert _same_figures(got.canvas, canvas_figures(got.result, after.canvas))
    doc._background.shutdown()


def test_a_direction_switched_sends_the_canvas_figures_made_while_idle(qtbot, parts, monkeypatch):
    """Once idle, the lane makes the canvas figures of the other direction it keeps in step,
    against those it sent last; a switch to that direction sends them as they are (no
    comparison made then: the 16x site's switch waited 22-37 ms for it), and they say what a
    comparison made then says. Made before an edit, they are not sent after it."""
    from widgets.canvas.figures import canvas_figures

    doc, made, shown = _switching_site(parts, monkeypatch)
    bg = doc._background
    qtbot.waitUntil(lambda: ("planning", "write") in bg._switches, timeout=10000)
    ready = bg._switches["planning", "write"]
    assert ready.since is shown.result and ready.changed and ready.of is bg._laid
    made.clear()
    doc.set_direction("write")
    _assert_like_a_full_run(doc)
    switched = doc.analysis
    assert switched.canvas is ready and ready.result is switched.result
    assert all(r is not switched.result for r in made)  # (made since: those for the next switches, at most)
    assert _same_figures(ready, canvas_figures(switched.result, shown.canvas))
    _not_sent_after_an_edit(qtbot, doc, ("planning", "read"), lambda: doc.set_direction("read"))


def test_a_figure_set_switched_sends_its_analysis_and_canvas_figures_made_while_idle(qtbot, parts, monkeypatch):
    """Once idle and the sets filled, the lane assembles each figure set not shown for the
    direction shown and makes its canvas figures against those it sent last; a switch to that
    set sends that very analysis and those figures (no assembly, no comparison then: the 16x
    site's switch waited 25-45 ms for them), and they are what a full analysis and check and a
    comparison made then give. Made before an edit, they are not sent after it."""
    from planner.incremental import IncrementalAnalysis
    from widgets.canvas.figures import canvas_figures

    updated, update = [], IncrementalAnalysis.update
    monkeypatch.setattr(
        IncrementalAnalysis, "update", lambda inc, *a, **k: updated.append(inc.options[:2]) or update(inc, *a, **k)
    )
    doc, made, shown = _switching_site(parts, monkeypatch)
    bg = doc._background
    qtbot.waitUntil(lambda: {("measured", "read"), ("rated", "read")} <= bg._switches.keys(), timeout=10000)
    ready = bg._switches["measured", "read"]
    inc = bg._shelf["measured"]["read"]
    assert ready.since is shown.result and ready.changed and ready.of is bg._laid
    assert inc.current() and ready.result is inc.analysis
    made.clear()
    updated.clear()
    doc.set_figures("measured")
    _assert_like_a_full_run(doc)
    switched = doc.analysis
    assert switched.canvas is ready and switched.result is ready.result
    assert ("measured", "read") not in updated  # (kept as assembled while idle)
    assert all((r.figures, r.direction) != ("measured", "read") for r in made)
    assert _same_figures(ready, canvas_figures(switched.result, shown.canvas))
    qtbot.waitUntil(lambda: ("rated", "read") in bg._switches, timeout=10000)  # (against measured now)
    assert bg._switches["rated", "read"].since is switched.result
    _not_sent_after_an_edit(qtbot, doc, ("rated", "read"), lambda: doc.set_figures("rated"))
