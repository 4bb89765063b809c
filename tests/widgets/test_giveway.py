"""The lanes give way to the user's gestures on the canvas (``widgets.giveway``)."""

from __future__ import annotations

import sys
import threading
import time

import pytest

from widgets import giveway


@pytest.fixture(autouse=True)
def no_gesture():
    giveway.reset()
    yield
    giveway.reset()


def _in_a_thread(fn):
    out = []
    t = threading.Thread(target=lambda: out.append(fn()))
    t.start()
    t.join(5)
    return out[0]


def test_a_lane_waits_at_its_pause_point_while_a_gesture_is_under_way(monkeypatch):
    monkeypatch.setattr(giveway, "AFTER_S", 0.05)
    assert _in_a_thread(giveway.pause) == 0.0  # no gesture: on at once
    giveway.gesture()
    waited = _in_a_thread(giveway.pause)
    assert 0.03 < waited < 0.5
    assert _in_a_thread(giveway.pause) == 0.0  # (the gesture is over)


def test_the_gui_thread_never_waits():
    giveway.gesture()
    start = time.monotonic()
    assert giveway.pause() == 0.0 and time.monotonic() - start < 0.01


def test_a_long_gesture_delays_a_lane_but_never_starves_it(monkeypatch):
    """A lane waits MAX_PAUSE_S at most at one point, then works MIN_RUN_S before it waits
    again, however long the user goes on."""
    monkeypatch.setattr(giveway, "AFTER_S", 10.0)
    monkeypatch.setattr(giveway, "MAX_PAUSE_S", 0.05)
    monkeypatch.setattr(giveway, "MIN_RUN_S", 0.2)
    giveway.gesture()

    def lane():
        return [giveway.pause() for _ in range(3)]

    first, second, third = _in_a_thread(lane)
    assert 0.04 < first < 0.5 and second == 0.0 and third == 0.0  # (then works MIN_RUN_S)


def test_zooming_and_scrolling_the_canvas_are_gestures(qtbot, parts, benchmark_design):
    from tests.widgets.test_canvas import make_canvas

    doc, scene, view = make_canvas(qtbot, parts, benchmark_design, width=500, height=400)
    giveway.reset()
    view.zoom(1.25)
    assert giveway._until > time.monotonic()
    giveway.reset()
    view.horizontalScrollBar().setValue(view.horizontalScrollBar().value() + 40)
    assert giveway._until > time.monotonic()


def test_the_editors_check_gives_way_before_each_rule(qtbot, parts, benchmark_design, monkeypatch):
    """The check lane asks its stop before each rule; that waits while the user zooms or pans."""
    from tests.widgets.test_canvas import make_canvas

    doc, scene, view = make_canvas(qtbot, parts, benchmark_design, width=500, height=400)
    doc.synchronous = False
    paused = []
    real = giveway.pause
    monkeypatch.setattr(giveway, "pause", lambda: paused.append(threading.current_thread().name) or real())
    doc.run(
        __import__("planner.edit", fromlist=["set_attr"]).set_attr,
        doc.topology.ids_of_kind("array")[0],
        "segment_kb",
        256,
    )
    qtbot.waitUntil(
        lambda: doc.analysis is not None and doc.analysis.checked and doc.is_current(doc.analysis),
        timeout=20000,
    )
    assert paused and all(name != "MainThread" for name in paused)


def test_the_other_directions_analysis_gives_way_after_an_edit(qtbot, parts, benchmark_design, monkeypatch):
    """After an edit the analysis lane brings the other direction up to date (its totals are
    shown too): it waits there while the user zooms or pans (10-15 ms of the 16x site's lane,
    during which the GUI thread ran at half speed)."""
    import sys

    from planner import edit
    from tests.widgets.test_canvas import make_canvas

    doc, scene, view = make_canvas(qtbot, parts, benchmark_design, width=500, height=400)
    doc.synchronous = False
    callers = []
    real = giveway.pause
    monkeypatch.setattr(giveway, "pause", lambda: callers.append(sys._getframe(1).f_code.co_name) or real())
    doc.run(edit.set_attr, doc.topology.ids_of_kind("array")[0], "segment_kb", 256)
    qtbot.waitUntil(
        lambda: doc.analysis is not None and doc.analysis.checked and doc.is_current(doc.analysis),
        timeout=20000,
    )
    assert "_other_directions" in callers


def _spans(n: int = 5, span: float = 0.005) -> list[bool]:
    """A lane's work in ``n`` spans of Python, whether it had company in each."""
    share = giveway.Share()
    out = []
    for _ in range(n):
        end = time.perf_counter() + span
        while time.perf_counter() < end:
            pass
        out.append(share.contended())
    return out


def _beside(work) -> list[bool]:
    """:func:`_spans` in a lane while the main (GUI) thread does ``work()`` until it ends, the
    interpreter's switch interval the editor's (``app.gui_gc``)."""
    from app.gui_gc import GIL_SWITCH_S

    out: list[bool] = []
    going = threading.Event()
    lane = threading.Thread(target=lambda: (going.wait(5), out.extend(_spans(10))))
    was = sys.getswitchinterval()
    sys.setswitchinterval(GIL_SWITCH_S)
    try:
        lane.start()
        while lane.is_alive():
            going.set()  # (once the main thread works)
            work()
        lane.join()
    finally:
        sys.setswitchinterval(was)
    return out


def test_a_lane_alone_has_no_company_and_looks_again_only_after_a_span():
    assert not all(_in_a_thread(_spans))  # (the main thread waits: a span preempted may say so)
    share = giveway.Share()
    assert not share.contended() and not share.contended()  # too soon to tell, twice ...
    time.sleep(giveway.SHARE_SPAN_S * 5)
    assert share.contended()  # ... then the time since the first look counts: asleep, not on the CPU


def test_a_lane_has_company_while_the_gui_thread_runs_python():
    """Each call from Qt into Python waits for the interpreter while a lane runs Python."""

    def python() -> None:
        end = time.perf_counter() + 0.002
        while time.perf_counter() < end:
            pass

    assert sum(_beside(python)) >= 8  # (of 10: a span may find the threads' turns aligned)


def test_a_lane_has_company_while_the_gui_thread_works_in_native_code():
    """The GUI thread on the CPU without the interpreter (here hashing, which lets it go; in the
    editor Qt laying out and painting, then calling into Python for each cell): its CPU-time
    clock says so, where the platform has one (Linux does)."""
    import hashlib

    if sys.platform.startswith("linux"):
        assert giveway._gui_clock() is not None
    if giveway._gui_clock() is None:
        pytest.skip("this platform has no per-thread CPU clock: only the lane's own share tells")
    data = bytes(4 << 20)
    assert sum(_beside(lambda: hashlib.sha256(data).digest())) >= 8  # (of 10)


def test_work_that_yields_sleeps_when_it_has_company_unless_in_a_hurry(monkeypatch):
    company = [True]
    monkeypatch.setattr(giveway.Share, "contended", lambda self: company[0])
    point = giveway.yielding()

    def timed() -> float:
        start = time.perf_counter()
        point()
        return time.perf_counter() - start

    assert _in_a_thread(timed) >= giveway.YIELD_S * 0.9
    company[0] = False
    assert _in_a_thread(timed) < giveway.YIELD_S
    # an edit waits for the lane: no sleep, company or not
    company[0] = True
    point = giveway.yielding(hurry=lambda: True)
    assert _in_a_thread(timed) < giveway.YIELD_S


def test_work_no_one_waits_for_gives_up_when_told():
    point = giveway.yielding(give_up=lambda: True)
    with pytest.raises(giveway.GaveUp):
        point()


def test_a_panels_computation_gives_way_at_each_progress_report(qtbot, parts, benchmark_design, monkeypatch):
    """A panel's computation in the check lane (Document.compute_later, the scaling curve)
    sleeps at its progress reports while the lane has company, and its result still comes."""
    from tests.widgets.test_canvas import make_canvas

    doc, scene, view = make_canvas(qtbot, parts, benchmark_design, width=500, height=400)
    doc.synchronous = False
    qtbot.waitUntil(lambda: doc.analysis is not None and doc.analysis.checked, timeout=20000)
    monkeypatch.setattr(giveway.Share, "contended", lambda self: True)
    gaps: list[float] = []

    def work(topo, progress):
        for i in range(4):
            t = time.perf_counter()
            progress(i / 4)
            gaps.append(time.perf_counter() - t)
        return len(topo)

    got = []
    doc.computed.connect(lambda c: got.append(c))
    doc.compute_later("probe", work)
    qtbot.waitUntil(lambda: any(c.key == "probe" for c in got), timeout=20000)
    assert [c.result for c in got if c.key == "probe"] == [len(doc.topology)]
    assert len(gaps) == 4 and min(gaps) >= giveway.YIELD_S * 0.9
