"""One budget of time for the slices every panel runs in a turn of the event loop
(``widgets.slice_budget``)."""

import time

import pytest

from widgets import slice_budget


@pytest.fixture(autouse=True)
def fresh_turn(monkeypatch):
    """A turn of its own, told apart by a pause (a window made by another test may have had the
    budget watch the event loop: see the tests of watch() below)."""
    monkeypatch.setattr(slice_budget, "_watching", False)
    slice_budget.reset()
    yield
    slice_budget.reset()


def _busy(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def test_a_slice_after_another_in_the_same_turn_gets_what_is_left():
    first = slice_budget.until(0.006)
    assert first is not None and first - time.perf_counter() <= 0.006
    _busy(0.005)
    slice_budget.ended()
    second = slice_budget.until(0.006)  # (no pause between: the same turn)
    assert second is not None
    assert second - time.perf_counter() < slice_budget.BUDGET_S - 0.005 + 0.0005  # 5 ms of the budget spent
    _busy(second - time.perf_counter())
    slice_budget.ended()
    assert slice_budget.until(0.006) is None  # spent: it waits for the next turn


def test_a_pause_between_slices_starts_a_new_turn():
    slice_budget.until(0.006)
    _busy(0.009)
    slice_budget.ended()
    assert slice_budget.until(0.004) is None
    time.sleep(slice_budget.GAP_S * 4)  # (the event loop went round)
    again = slice_budget.until(0.004)
    assert again is not None and again - time.perf_counter() > 0.003


def test_the_canvas_slices_run_whatever_is_left_and_count():
    @slice_budget.counted
    def canvas_slice() -> float | None:
        until = slice_budget.until(0.008, first=True)
        _busy(0.008)
        return until

    assert canvas_slice() is not None
    assert slice_budget.until(0.004) is None  # the panels' slices come after it, next turn
    assert canvas_slice() is not None  # the canvas's own runs anyway


def test_work_that_cannot_stop_midway_waits_for_room_or_a_turn_of_its_own():
    slice_budget.until(0.002)
    _busy(0.003)
    slice_budget.ended()
    left = slice_budget.BUDGET_S - 0.003  # (3.5 ms of 6.5)
    assert slice_budget.until(left + 0.0015, whole=True) is None  # not enough
    assert slice_budget.until(left - 0.0015, whole=True) is not None
    slice_budget.reset()
    assert slice_budget.until(0.012, whole=True) is not None  # first of its turn: runs, even if long


def test_a_panels_slice_waits_when_the_turns_budget_is_spent(qtbot):
    """The models of outlines gone are emptied in the turn's time left (widgets.retired): none
    left, nothing is deleted and the slice comes again on the next turn."""
    from PySide6.QtGui import QStandardItem, QStandardItemModel
    from PySide6.QtWidgets import QWidget

    from widgets.retired import Retired

    owner = QWidget()
    qtbot.addWidget(owner)
    retired = Retired(owner, 0.004)
    model = QStandardItemModel()
    for i in range(50):
        model.appendRow(QStandardItem(f"row {i}"))
    retired.add_model(model)
    retired.timer.stop()
    slice_budget.until(0.008, first=True)
    _busy(0.008)
    slice_budget.ended()
    retired.empty_slice()  # in the same turn: its budget is spent
    assert model.rowCount() == 50 and retired.timer.isActive()
    retired.timer.stop()
    time.sleep(slice_budget.GAP_S * 4)
    retired.empty_slice()  # a turn of its own
    assert not retired.pending


def test_a_slice_put_off_does_not_carry_the_turn_on():
    """A slice put off that says it ended (a generator's finally) ends nothing: the turn still
    ends once no slice has run for GAP_S. Counted, the paths' labels put off on a 0 ms timer
    kept one turn going for ever (22,834 put off in one scenario switch, the loop busy)."""
    slice_budget.until(0.008, first=True)
    _busy(0.008)
    slice_budget.ended()
    assert slice_budget.until(0.004) is None  # put off: the turn's budget is spent
    slice_budget.ended()
    granted = []
    for _ in range(6):  # put off again and again, each less than GAP_S after the last, each "ending"
        _busy(slice_budget.GAP_S * 0.6)
        granted.append(slice_budget.until(0.004) is not None)
        if not granted[-1]:
            slice_budget.ended()
    assert granted[0] is False and any(granted)  # a new turn came, GAP_S after the last slice that ran


def _in_one_pass(qtbot, *steps):
    """Run ``steps`` from 0 ms timers started together: Qt fires them in one pass of its loop."""
    from PySide6.QtCore import QTimer

    done = []
    for step in steps:
        QTimer.singleShot(0, step)
    QTimer.singleShot(0, lambda: done.append(True))
    qtbot.waitUntil(lambda: bool(done), timeout=2000)


def test_watching_the_loop_a_pass_is_one_turn_whatever_runs_between_its_slices(qtbot):
    """Followed by the passes of the event loop, a slice after other work of the same pass (Qt's
    own, or a handler's) gets what is left of the budget, though a pause of more than GAP_S lay
    between; told apart by the pause, it took a whole budget (the outline's groups opened after
    the canvas's slice and a timer: 8 + 2.6 + 11 ms in one pass)."""
    got = {}
    third = slice_budget.BUDGET_S / 3

    def canvas():
        slice_budget.until(third, first=True)
        _busy(third)
        slice_budget.ended()

    def other():
        _busy(third)  # not a slice: a pause for the budget

    def panel():
        until = slice_budget.until(0.006)
        got["left"] = None if until is None else until - time.perf_counter()
        if until is not None:
            slice_budget.ended()

    _in_one_pass(qtbot, canvas, other, panel)  # told apart by the pause: a turn of its own
    assert got["left"] is not None and got["left"] > 0.005
    slice_budget.watch()
    assert slice_budget._watching
    _in_one_pass(qtbot, canvas, other, panel)
    assert got["left"] is not None and got["left"] < third + 0.0005  # the budget less the two before it in the pass
    _in_one_pass(qtbot, canvas, other, other, panel)
    assert got["left"] is None  # spent: put off to a later pass
    _in_one_pass(qtbot, panel)  # the next pass: a budget of its own
    assert got["left"] is not None and got["left"] > 0.005
    _in_one_pass(qtbot, other, panel)  # the pass's work before its first slice counts too
    assert got["left"] is not None and got["left"] < slice_budget.BUDGET_S - third + 0.0005

    def whole():  # work that cannot stop midway, longer than the budget: a pass's first slice
        until = slice_budget.until(2 * slice_budget.BUDGET_S, whole=True)
        got["whole"] = until is not None
        if until is not None:
            slice_budget.ended()

    _in_one_pass(qtbot, whole)
    assert got["whole"]  # (though the pass did Qt's own work before it)
    _in_one_pass(qtbot, panel, whole)
    assert not got["whole"]  # after another slice of its pass: the next pass


def test_the_canvas_slice_after_others_in_its_turn_takes_what_is_left_but_always_runs():
    slice_budget.until(0.004)
    _busy(0.006)
    slice_budget.ended()
    until = slice_budget.until(0.008, first=True)  # its own 8 ms less the 6 taken: about 2
    assert until is not None and until - time.perf_counter() < 0.0025
    slice_budget.ended()
    _busy(0.004)
    slice_budget.reset()
    slice_budget.until(0.008)
    _busy(0.010)
    slice_budget.ended()
    until = slice_budget.until(0.008, first=True)  # the turn spent: FIRST_LEAST_S still
    left = until - time.perf_counter()
    assert 0.0015 < left <= slice_budget.FIRST_LEAST_S


def test_watching_the_loop_a_turn_no_slice_ended_in_for_long_is_over(monkeypatch):
    """Should the passes go unseen (a dispatcher not followed), the panels are not put off for
    ever: a turn in which no slice has ended for STALE_S is over."""
    monkeypatch.setattr(slice_budget, "_watching", True)
    slice_budget.until(0.008, first=True)
    _busy(0.008)
    slice_budget.ended()
    time.sleep(slice_budget.GAP_S * 4)  # (a pause, but no pass of the loop seen)
    assert slice_budget.until(0.004) is None
    time.sleep(slice_budget.STALE_S * 1.2)
    again = slice_budget.until(0.004)
    assert again is not None and again - time.perf_counter() > 0.003


def test_watching_the_loop_a_pass_after_a_long_quiet_is_one_turn(monkeypatch):
    """After a long while with no slice (the editor idle), the first pass's own work and its
    slices are one turn: a slice after one put off is put off too (it took a whole budget: a
    zoom in from the overview painted 7.4 ms, then the canvas's detail slice ran 4 more)."""
    monkeypatch.setattr(slice_budget, "_watching", True)
    time.sleep(slice_budget.STALE_S * 1.2)  # (no slice ended for long)
    slice_budget._went_round()  # a pass of the loop begins ...
    _busy(slice_budget.BUDGET_S + 0.001)  # ... and paints longer than the budget
    assert slice_budget.until(0.003) is None
    assert slice_budget.until(0.004) is None


def test_while_the_user_zooms_the_slices_that_give_way_take_a_short_turn(monkeypatch):
    """During a gesture a slice that gives way (the canvas's detail and wake slices) takes
    GESTURE_S at most, and the next one of the same turn waits for the next turn; without a
    gesture, or for a slice that does not give way, the budget is the usual one."""
    from widgets import giveway

    monkeypatch.setattr(giveway, "_until", 0.0)
    quiet = slice_budget.until(0.004, gives_way=True)
    assert quiet is not None and quiet - time.perf_counter() > slice_budget.GESTURE_S + 0.0005
    slice_budget.ended()
    time.sleep(slice_budget.GAP_S * 4)  # (a turn of its own)
    giveway.gesture()
    short = slice_budget.until(0.004, gives_way=True)
    assert short is not None and short - time.perf_counter() <= slice_budget.GESTURE_S
    _busy(short - time.perf_counter())
    slice_budget.ended()
    assert slice_budget.until(0.004, gives_way=True) is None  # (the turn's share spent)
    other = slice_budget.until(0.004)  # a panel's slice: the turn's usual budget
    assert other is not None and other - time.perf_counter() > 0.001
    giveway.reset()


def test_the_loop_is_seen_waiting_only_while_its_thread_is_idle(qtbot, monkeypatch):
    """``loop_waiting`` (read by a lane's optional work from its own thread): False while a
    timer's slot works (with glib it runs before the loop's ``awake``) and while the loop has
    woken for events, True once the loop blocks again; True when the loop is not watched."""
    import threading

    from PySide6.QtCore import QTimer

    assert slice_budget.loop_waiting()  # (not watched: nothing known)
    slice_budget.watch()
    samples, spans = [], []

    def work():
        t0 = time.perf_counter()
        _busy(0.04)
        spans.append((t0, time.perf_counter()))

    def sample():
        end = time.perf_counter() + 0.35
        while time.perf_counter() < end:
            samples.append((time.perf_counter(), slice_budget.loop_waiting()))
            time.sleep(0.001)

    sampler = threading.Thread(target=sample)
    sampler.start()
    QTimer.singleShot(100, work)
    QTimer.singleShot(220, work)
    qtbot.waitUntil(lambda: not sampler.is_alive(), timeout=5000)
    busy = [w for t, w in samples if any(a <= t <= b for a, b in spans)]
    idle = [w for t, w in samples if all(t < a - 0.01 or t > b + 0.01 for a, b in spans)]
    assert len(spans) == 2 and busy and not any(busy)
    assert len(idle) > 50 and sum(idle) > 0.9 * len(idle)
