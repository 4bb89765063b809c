"""Worker threads never run the cyclic garbage collector: Qt objects caught in reference cycles
must be destroyed on the GUI thread (a collection in the analysis lane aborted CI)."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from app import gui_gc
from planner.gcpause import hold_gc, release_gc


class _Cycle:
    """A reference cycle that writes down the thread that frees it."""

    freed_in: list[str] = []

    def __init__(self) -> None:
        self.me = self

    def __del__(self) -> None:
        _Cycle.freed_in.append(threading.current_thread().name)


def test_worker_garbage_is_collected_on_the_gui_thread(qtbot):
    gc.collect()
    _Cycle.freed_in = []
    made = threading.Event()

    def work() -> None:
        for _ in range(20_000):  # far past every generation's threshold
            _Cycle()
            [[] for _ in range(3)]
        made.set()

    thread = gui_gc.start_thread(work, "worker-under-test")
    qtbot.waitUntil(made.is_set, timeout=10_000)
    thread.join(10)
    assert not thread.is_alive()
    # the worker's garbage is collected by the GUI thread's timer, not left to pile up
    qtbot.waitUntil(lambda: len(_Cycle.freed_in) > 0, timeout=5_000)
    gc.collect()
    assert len(_Cycle.freed_in) == 20_000
    assert "worker-under-test" not in set(_Cycle.freed_in)


def test_an_analysis_lane_at_work_never_collects(qtbot):
    """The CI abort: the analysis lane "Garbage-collecting" while it copied the design."""
    from app.background import _Lane

    gc.collect()
    _Cycle.freed_in = []
    done = threading.Event()

    def work(items) -> None:
        for _ in range(20_000):
            _Cycle()
        done.set()

    lane = _Lane("lane-under-test", work)
    try:
        lane.post(1)
        qtbot.waitUntil(done.is_set, timeout=10_000)
        qtbot.waitUntil(lambda: not lane.pending(), timeout=10_000)
        qtbot.waitUntil(lambda: len(_Cycle.freed_in) > 0, timeout=5_000)
        gc.collect()
        assert len(_Cycle.freed_in) == 20_000
        assert "lane-under-test" not in set(_Cycle.freed_in)
    finally:
        lane.stop()


# The checks of when the collector is on or off run in a fresh interpreter: in this one, the
# lanes of earlier tests' windows may still hold it off.
_CLEAN = r"""
import gc, sys, threading
from PySide6.QtCore import QCoreApplication, QTimer
from planner.gcpause import gc_paused, hold_gc, release_gc
from app import gui_gc

assert gc.isenabled()
hold_gc()  # a long-lived holder (a running lane)
with gc_paused():  # a worker's pause, nested
    assert not gc.isenabled()
assert not gc.isenabled(), "a nested pause switched the collector back on"
release_gc()
assert gc.isenabled()

done, started = threading.Event(), threading.Event()
def paused():
    with gc_paused():
        started.set()
        done.wait(5)
t = threading.Thread(target=paused)
t.start(); started.wait(5)
hold_gc()  # the editor's lane comes while the worker is paused
done.set(); t.join(5)
assert not gc.isenabled(), "a pause that began first switched it on under the holder"
release_gc()
assert gc.isenabled()

app = QCoreApplication([])
thread = gui_gc.start_thread(lambda: None, "w")
thread.join(5)
assert not gc.isenabled(), "the ending worker switched the collector on in its own thread"
QTimer.singleShot(3 * gui_gc.INTERVAL_MS, app.quit)
app.exec()
assert gc.isenabled(), "the GUI thread did not switch the collector back on"
print("clean-ok")
"""


def test_holds_are_counted_and_only_the_gui_thread_switches_the_collector_back_on():
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(root))
    run = subprocess.run([sys.executable, "-c", _CLEAN], capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "clean-ok"


def test_while_a_worker_holds_the_collector_the_young_generation_is_collected_in_small_steps(qtbot):
    """The GUI thread looks at the counts every HELD_INTERVAL_MS while a worker holds the
    automatic collector off, so a young collection walks what a few milliseconds made (every
    100 ms a gen-0 collection on the 16x site took 12-19 ms); the idle pace comes back after."""
    release = threading.Event()
    thread = gui_gc.start_thread(lambda: release.wait(10), "holder")
    collector = gui_gc._collector
    sizes: list[int] = []

    def seen(phase: str, info: dict) -> None:
        if phase == "start" and info["generation"] == 0 and threading.current_thread() is threading.main_thread():
            sizes.append(gc.get_count()[0])

    kept: list = []
    gc.callbacks.append(seen)
    try:
        deadline = time.perf_counter() + 0.4
        while time.perf_counter() < deadline:  # the GUI thread allocating: 400 containers a ms or so
            kept.append([[] for _ in range(400)])
            qtbot.wait(1)
        assert collector.timer.interval() == gui_gc.HELD_INTERVAL_MS
    finally:
        gc.callbacks.remove(seen)
        release.set()
        thread.join(5)
    assert sizes, "no young collection while the worker held the collector"
    assert max(sizes) < 15_000, sizes  # (looking every 100 ms: 40,000 and more)
    qtbot.waitUntil(lambda: gc.isenabled() and collector.timer.interval() == gui_gc.INTERVAL_MS, timeout=2000)


def test_while_the_canvas_works_in_slices_no_full_collection_runs(qtbot, monkeypatch):
    """The canvas making its items in slices (everything expanded on the 16x site) holds the
    automatic collector off; the GUI thread's timer collects no generation (each would walk the
    items made since the last freeze and free nothing: 35-90 ms a full one, 10-15 ms a middle
    one, 34 ms a young one walking the places of the boxes a morph moved) and freezes the young
    one instead; once no slice has come for SLICES_QUIET_MS, the heap is frozen and collection
    is CPython's own again."""
    from PySide6.QtCore import QObject, Signal

    class Canvas(QObject):
        sliced = Signal()
        rebuilt = Signal()

    monkeypatch.setattr(gui_gc, "SLICES_QUIET_MS", 80)
    monkeypatch.setattr(gui_gc, "SLICE_FREEZE_S", 1e12)  # (only the collector freezes)
    monkeypatch.setattr(gui_gc, "_slice_hold", None)
    canvas = Canvas()
    gui_gc.follow_canvas(canvas)
    assert gc.isenabled() and not gui_gc.slicing()
    canvas.sliced.emit()
    assert gui_gc.slicing() and not gc.isenabled()
    collector = gui_gc._collector
    full: list[int] = []

    def seen(phase: str, info: dict) -> None:
        if phase == "stop":
            full.append(info["generation"])

    thresholds = gc.get_threshold()
    gc.set_threshold(100, 2, 2)  # (the older generations' turns come within a few collections)
    gc.callbacks.append(seen)
    try:
        collector.long_lived, collector.pending = 0, 1_000  # a full collection due, by the rule
        made = []
        for _ in range(150):  # young objects past every threshold, the slices going on
            made.append([[] for _ in range(1000)])
            canvas.sliced.emit()
            before = gc.get_freeze_count()
            collector.collect()
            assert gc.get_count()[0] < 100 and gc.get_freeze_count() >= before + 1000  # frozen
        assert not full, full
        gc.unfreeze()
    finally:
        gc.callbacks.remove(seen)
        gc.set_threshold(*thresholds)
        if sys.exc_info()[0] is not None:  # (the hold let go: the next tests need the collector)
            gui_gc._slice_hold.release()
    qtbot.waitUntil(lambda: not gui_gc.slicing(), timeout=2000)
    qtbot.waitUntil(gc.isenabled, timeout=2000)
    assert gc.get_freeze_count() > 0 and all(o is not made for o in gc.get_objects())
    gc.unfreeze()


def test_full_collections_wait_for_the_old_generation_to_grow_by_a_quarter(qtbot, monkeypatch):
    """As CPython's own rule: on a large steady heap (a site open in the editor, where a full
    collection takes about 140 ms) the churn of edits does not bring a full collection every
    tenth middle one; a heap grown by more than a quarter does."""
    monkeypatch.setattr(gui_gc, "slicing", lambda: False)  # (no canvas of an earlier test slicing)
    thread = gui_gc.start_thread(lambda: None, "w")  # makes the collector
    thread.join(5)
    collector = gui_gc._collector
    full: list[int] = []

    def seen(phase: str, info: dict) -> None:
        if phase == "stop" and info["generation"] == 2:
            full.append(1)

    keep = [[i] for i in range(300_000)]  # a large heap of long-lived objects
    hold_gc()
    gc.collect()
    gc.callbacks.append(seen)
    try:
        collector.long_lived = len(gc.get_objects())
        collector.pending = collector.middle = 0

        def churn(n: int) -> None:
            for _ in range(n):
                _Cycle()

        for _ in range(400):  # 400 ticks of an edit's garbage: 40 middle collections
            churn(800)
            collector.collect()
        assert full == [], "full collections on a steady heap"
        # the heap grows by half (of what the collector counts: the test process's own heap, which
        # a whole run's collected test modules make larger than ``keep``, counted too)
        grown = [[i] for i in range(collector.long_lived // 2)]
        for _ in range(400):
            churn(800)
            collector.collect()
        assert len(full) == 1
        del grown
    finally:
        gc.callbacks.remove(seen)
        release_gc()
    del keep


def test_the_heap_is_frozen_once_the_canvas_is_rebuilt_and_thawed_when_a_design_opens(window, qtbot, monkeypatch):
    """What a rebuilt canvas made stays as long as the design is open: once the editor is
    quiet it goes to the permanent generation (no full collection walks it again); opening a
    design hands everything back to the collector."""
    monkeypatch.setattr(gui_gc, "FREEZE_AFTER_MS", 30)
    if gui_gc._freezer is not None:
        gui_gc._freezer.timer.setInterval(30)
    gc.unfreeze()
    window.scene.set_all_collapsed(False)  # a rebuild: many new items
    assert gui_gc._freezer is not None
    gui_gc._freezer.timer.setInterval(30)
    before = gui_gc._freezer.frozen
    qtbot.waitUntil(lambda: gui_gc._freezer.frozen > before, timeout=5000)
    assert gc.get_freeze_count() > 1000  # the window, the design and its items
    thawed = []
    window.doc.projectReplaced.connect(lambda: thawed.append(gc.get_freeze_count()))
    gui_gc.install()
    gui_gc.thaw()  # they join the oldest generation, not counted (a walk of them all)
    assert gc.get_freeze_count() == 0 and gui_gc._collector.long_lived == gui_gc.UNCOUNTED
    assert gui_gc._collector.collect() >= 0 and gui_gc._collector.long_lived == gui_gc.UNCOUNTED  # no full one
    gc.freeze()
    window.open_example("p690-benchmark")
    assert thawed and thawed[0] == 0  # the old design's cyclic garbage is the collector's again
    qtbot.waitUntil(lambda: gc.get_freeze_count() > 0, timeout=5000)  # the new canvas, frozen in turn
    qtbot.waitUntil(lambda: gui_gc._collector.long_lived < gui_gc.UNCOUNTED, timeout=5000)  # counted anew
    gc.unfreeze()
    gui_gc._freezer.timer.setInterval(gui_gc.FREEZE_AFTER_MS)


def test_the_heap_is_frozen_while_the_canvas_makes_its_items_in_slices(window, qtbot, monkeypatch):
    """A build of the canvas in slices (everything expanded) grows the heap by tens of
    thousands of long-lived objects: each full collection meanwhile walked them all again (four
    of 74-140 ms on the 16x site). What is made is frozen as the slices go, not only once the
    editor is quiet."""
    import widgets.canvas.scene as scene_module

    window.open_example("p690-benchmark")
    window.doc.synchronous = False
    monkeypatch.setattr(scene_module, "BUILD_SLICE_S", 0.0)  # a few dozen boxes a slice
    monkeypatch.setattr("widgets.canvas.building.BOXES_EVERY", 32)
    monkeypatch.setattr(gui_gc, "SLICE_FREEZE_S", 0.0)
    if gui_gc._freezer is not None:
        gui_gc._freezer.timer.stop()
    gc.unfreeze()
    frozen = []  # the frozen count at the first and the sixth slice (None between: each count
    # walks the whole permanent generation, which after the planner's tests in one process made
    # the slices so slow that the build outlasted the wait on a loaded machine)
    window.scene.sliced.connect(lambda: frozen.append(gc.get_freeze_count() if len(frozen) in (0, 5) else None))
    window.scene.set_all_collapsed(False)
    qtbot.waitUntil(lambda: window.scene._build is None and len(frozen) > 5, timeout=20000)
    assert frozen[5] > frozen[0] > 0  # frozen at each slice, what the slices made among it
    gc.unfreeze()


def test_expanding_or_folding_everything_holds_the_collector_from_the_start(window, qtbot):
    """Everything expanded or folded: the collector's full collections wait from the request on,
    not from the first slice of the build (one of 41 ms fell while the lane laid out a fold of
    the 16x site, after panning had made objects since the last freeze)."""
    window.open_example("p690-benchmark")
    window.doc.synchronous = False
    qtbot.waitUntil(lambda: not gui_gc.slicing(), timeout=5000)
    window.scene.set_all_collapsed(False)
    assert gui_gc.slicing() and not gc.isenabled()  # before any layout came or slice ran
    qtbot.waitUntil(lambda: window.scene._build is None and window.scene._layout_asked is None, timeout=20000)
    qtbot.waitUntil(lambda: not gui_gc.slicing(), timeout=5000)


def test_a_large_analysis_is_frozen_as_it_arrives(window, qtbot, monkeypatch):
    """The tens of thousands of objects of a site's analysis live until the next one replaces
    them: they go to the permanent generation as the analysis arrives (a middle collection
    walked them all, freeing nothing, 10-15 ms after each edit on the 16x site). A small
    analysis is left to the collector."""
    from planner import edit

    window.open_example("p690-benchmark")
    doc = window.doc
    doc.wait_for_analysis(20000)
    if gui_gc._freezer is not None:
        gui_gc._freezer.timer.stop()  # (the canvas's own freeze, once quiet)
    paths = len(doc.analysis.result.paths)
    gc.unfreeze()
    arrays = doc.topology.of_kind("array")
    monkeypatch.setattr(gui_gc, "ADOPT_PATHS", paths + 1)
    doc.run(edit.set_attr, arrays[0].id, "segment_kb", 32)
    doc.wait_for_analysis(20000)
    assert gc.get_freeze_count() == 0  # fewer paths than ADOPT_PATHS: not frozen
    monkeypatch.setattr(gui_gc, "ADOPT_PATHS", paths)
    arrived = []
    doc.analysisReady.connect(lambda bundle: arrived.append(bundle))
    doc.run(edit.set_attr, arrays[0].id, "segment_kb", 64)
    qtbot.waitUntil(lambda: bool(arrived), timeout=20000)
    paths_list = arrived[0].result.paths
    assert gc.get_freeze_count() > 0 and gc.is_tracked(paths_list)
    assert all(o is not paths_list for o in gc.get_objects())  # not in any generation: frozen
    gc.unfreeze()


def test_a_lane_making_a_large_layout_or_analysis_is_not_walked_and_is_frozen_once_made(qtbot):
    """A site's layout (some 500,000 objects, no reference cycles) lives until the next one: the
    GUI thread's collector leaves the young generations alone while a lane makes it (it walked
    them as they came, again as they were promoted: 10-27 ms blocks after a server deleted on
    the 16x site expanded), and the lane freezes the heap once it is made. A small design's
    is left to the collector."""
    gui_gc.install()
    collector = gui_gc._collector
    made: list = []
    started, release = threading.Event(), threading.Event()

    def lane() -> None:
        hold_gc()
        try:
            with gui_gc.lane_making(gui_gc.MAKING_COMPONENTS):
                made.append([[i] for i in range(5000)])  # young, alive
                started.set()
                release.wait(5)
        finally:
            release_gc(leave_off=True)

    gc.unfreeze()
    worker = threading.Thread(target=lane)
    worker.start()
    try:
        assert started.wait(5)
        young = gc.get_count()[0]
        assert young > gc.get_threshold()[0]  # past the threshold: the collector would collect
        assert collector.collect() == 0 and gc.get_count()[0] >= young  # left alone
    finally:
        release.set()
        worker.join(5)
    try:
        assert gc.get_freeze_count() > 0 and all(o is not made[0] for o in gc.get_objects())
        gc.unfreeze()
        with gui_gc.lane_making(gui_gc.MAKING_COMPONENTS - 1):
            small = [[i] for i in range(100)]
        assert gc.get_freeze_count() == 0 and any(o is small for o in gc.get_objects())
    finally:
        gc.unfreeze()
        collector.collect()  # (the collector switched back on: no worker holds it)


def test_the_analysis_lane_makes_its_layouts_and_analyses_under_lane_making(
    qtbot, parts, benchmark_design, monkeypatch
):
    """The lane's layouts and analyses go through :func:`gui_gc.lane_making` with the design's
    size (what decides whether they are frozen)."""
    from contextlib import nullcontext

    from planner import edit
    from tests.widgets.test_canvas_incremental import background_canvas, free_slot, hba_part, settle

    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    before = len(doc.topology)
    calls: list[tuple[str, int]] = []
    monkeypatch.setattr(
        gui_gc, "lane_making", lambda n: calls.append((threading.current_thread().name, n)) or nullcontext()
    )
    doc.run(edit.add_hba, free_slot(doc.topology, "d2"), hba_part(parts))  # laid out and analysed in the lane
    settle(qtbot, doc, scene)
    assert all(name != "MainThread" and n in (before, len(doc.topology)) for name, n in calls)
    assert sum(n == len(doc.topology) for _, n in calls) >= 2 > before - len(doc.topology)  # laid out, analysed


def test_a_window_closed_leaves_nothing_frozen_behind(qtbot, home):
    """A window's objects hold one another in cycles; frozen with the rest of the heap they
    were never freed once it closed. Closing hands them back to the collector, which frees
    them on the next turn of the event loop."""
    import weakref

    from PySide6.QtCore import QCoreApplication, QEvent

    from app.mainwindow import MainWindow
    from catalogs.catalog import Catalog

    w = MainWindow(Catalog(":memory:"))
    w.doc.synchronous = True
    w.open_example("p690-one-drawer")
    w.show()
    qtbot.waitExposed(w)
    qtbot.wait(200)  # (what the window put off to the next turns done)
    gone = [weakref.ref(w.doc), weakref.ref(w.scene), weakref.ref(w.doc.topology)]
    gc.freeze()  # as the editor does once quiet
    w.doc.undo_stack.setClean()
    assert w.close()
    w.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    del w
    qtbot.waitUntil(lambda: all(ref() is None for ref in gone), timeout=5000)
    assert gc.get_freeze_count() == 0


def test_a_window_closed_while_its_canvas_slices_lets_the_collector_go(qtbot, home):
    """The canvas's slices hold the automatic collector off until they have been quiet a
    moment; a window closed meanwhile lets go of that hold at once: left on, the garbage of the
    next window's workers was frozen instead of collected (found as a test that failed only
    after the cross-check's tests)."""
    from app.mainwindow import MainWindow
    from catalogs.catalog import Catalog

    w = MainWindow(Catalog(":memory:"))
    w.doc.synchronous = True
    w.show()
    qtbot.waitExposed(w)
    gui_gc._freeze_sliced()  # as a slice of the canvas does
    assert gui_gc.slicing() and not gc.isenabled()
    w.doc.undo_stack.setClean()
    assert w.close()
    assert not gui_gc.slicing() and gc.isenabled()
    w.deleteLater()


def test_the_first_window_grows_the_table_of_wrapped_objects_once(qtbot, home, monkeypatch):
    """PySide's table of wrapped Qt objects is grown before the first window's canvas wraps
    anything (see gui_gc.reserve_wrappers): once a process, by a window made."""
    from app.mainwindow import MainWindow
    from catalogs.catalog import Catalog

    monkeypatch.setattr(gui_gc, "_reserved", False)
    monkeypatch.setattr(gui_gc, "RESERVED_WRAPPERS", 2000)
    grown = []
    real = gui_gc.reserve_wrappers
    monkeypatch.setattr(gui_gc, "reserve_wrappers", lambda count=None: grown.append(real(count)) or grown[-1])
    for _ in range(2):
        w = MainWindow(Catalog(":memory:"))
        qtbot.addWidget(w)
    assert grown == [True, False]  # the first window grew it, the second found it grown


def test_what_a_pan_or_zoom_made_is_frozen_once_the_view_is_still(window, qtbot):
    """Panning and zooming make long-lived objects (the view's tiles and pictures); once the
    view has been still a moment they are frozen like a rebuilt canvas (else a full collection
    walked them in the next edit)."""
    gui_gc.freeze_when_idle()  # (the freezer made)
    freezer = gui_gc._freezer
    qtbot.waitUntil(lambda: not freezer.timer.isActive(), timeout=5000)
    freezer.timer.setInterval(30)
    try:
        bar = window.view.horizontalScrollBar()
        for move in (lambda: window.view.zoom(3.0), lambda: bar.setValue(bar.maximum() // 2)):  # (in: room to pan)
            before = freezer.frozen
            move()
            assert freezer.timer.isActive()
            qtbot.waitUntil(lambda before=before: freezer.frozen > before, timeout=5000)
    finally:
        freezer.timer.setInterval(gui_gc.FREEZE_AFTER_MS)
        gc.unfreeze()


def test_a_freeze_asked_for_after_its_timer_was_deleted_is_dropped_and_made_again(qtbot, monkeypatch):
    """A view still scrolling while the application is torn down (a script that quits without
    closing its window) asked the freezer, whose timer Qt had deleted: a traceback at exit. The
    freezer is dropped then, and made again at the next call."""
    import shiboken6

    monkeypatch.setattr(gui_gc, "_freezer", None)
    gui_gc.freeze_when_idle()
    first = gui_gc._freezer
    assert first is not None and first.timer.isActive()
    shiboken6.delete(first.timer)
    gui_gc.freeze_when_idle()  # (raised RuntimeError)
    assert gui_gc._freezer is None
    gui_gc.freeze_when_idle()
    assert gui_gc._freezer is not None and gui_gc._freezer is not first and gui_gc._freezer.timer.isActive()
    gui_gc._freezer.timer.stop()
