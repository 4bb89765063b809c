"""One budget of time for the slices every panel runs in a turn of the event loop.

The panels draw a large design a slice of a few milliseconds at a time, each slice restarting
its own timer for the next. Qt fires every timer that is due in one pass of the event loop, so
the slices of the canvas, the racks, the outline and of the models and scenes being emptied
(8 + 6 + 4 + 6 ms) ran back to back in one turn: a scenario of the 16x site shown blocked the
editor 25-35 ms. Now every slice says when it starts and ends (:func:`until`, :func:`ended`);
slices that follow one another with no pause between (:data:`GAP_S`) are one turn, which has
:data:`BUDGET_S` for them all. A panel's slice that finds the budget spent by the slices before
it waits for the next turn (its timer started again); the canvas's slices (what the user looks
at) always run, their own length less what the slices before them in the turn took
(:data:`FIRST_LEAST_S` at least), and are counted, so the panels' slices come after them.

Which slices are of one turn: those with no pass of the event loop between them, once
:func:`watch` follows the loop (the editor's window does), else those with no pause of
:data:`GAP_S` between them. A pause is not enough: Qt's own work (a scene's queued update, a
repaint) or a handler of the editor's between two slices of one pass kept the loop as busy as
a slice, and the next slice took a whole budget of its own (a scenario of the 16x site shown:
the canvas's slice, then 2.6 ms of a timer, then the outline's groups opened, 8 + 2.6 + 11 ms
in one pass).
"""

from __future__ import annotations

import functools
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from widgets import giveway

#: the time the panels' slices of one turn of the event loop may take together. A turn is
#: longer: a canvas's slice after them (FIRST_LEAST_S at least), the last slice's overshoot, and
#: Qt's own work in the pass (the views and panels repainting what the slices changed: 2-5 ms
#: on the 16x site). 8 ms made a scenario of the 16x site shown, in a window whose outline,
#: racks and canvas filled at once, turns of 12.9-13.4 ms (the outline's group 3.3, the racks
#: 4.7, the canvas 2.0, Qt 2.6), which a 2 ms heartbeat saw as 16-17; 6.5: 11.8 ms (14-15)
#: in the same run of bench_gui.py's site16, the time to the canvas painted the same
BUDGET_S = 0.0065
#: slices further apart than this are of different turns (the loop went round between them)
GAP_S = 0.0005
#: a panel's slice that would have less than this left of the budget waits for the next turn
LEAST_S = 0.001
#: the least a canvas's slice takes after the slices before it in its turn (it always runs)
FIRST_LEAST_S = 0.002
#: while the user zooms or pans (:func:`widgets.giveway.moving`), the slices that give way (the
#: canvas's detail and wake slices, the summary layer's warming and regathering: work a paint
#: does not wait for) take this at most in a turn:
#: the bench's zoom row held the loop for the turn before a wheel step (a detail slice of 4-5 ms),
#: the step's zoom and its first paint, one after the other (16-19 ms on the 16x site)
GESTURE_S = 0.002
#: watching the loop, a turn in which no slice has ended for this long is over all the same
#: (the loop went round unseen: a dispatcher not followed, a nested loop of another thread's)
STALE_S = 0.05

_start = 0.0  # when the current turn began (watching: its pass of the event loop; else its first slice)
_end = -1.0  # when the last slice ended
_granted = False  # until() let a slice run that has not ended yet
_ran = False  # a slice has ended in the current turn (a ``whole`` one is then not its first)
_passes = 0  # passes of the event loop seen (see watch)
_turn_pass = -1  # the pass of the current turn
_pass_at = 0.0  # when the event loop last went round (see watch)
_watching = False  # turns told apart by the passes of the event loop (else by a pause)
_idle_frame: Any = None  # (watching) the frame the event loop was last about to block under ...
_loop_thread = 0  # ... in this thread
_blocked = True  # (watching) the event loop was about to block and has not woken since
_dispatcher: Any = None  # the event dispatcher followed (see watch)


def watch() -> None:
    """Tell the turns apart by the passes of the event loop of this thread (its dispatcher's
    ``aboutToBlock`` and ``awake``, emitted between two passes) rather than by a pause between
    slices (see the module docstring). Once is enough; nothing without an event dispatcher."""
    global _watching, _dispatcher
    from PySide6.QtCore import QAbstractEventDispatcher

    dispatcher = QAbstractEventDispatcher.instance()
    if dispatcher is None:
        return
    if dispatcher is not _dispatcher:  # (another application's, or the first)
        dispatcher.aboutToBlock.connect(_about_to_block)
        dispatcher.awake.connect(_awake)
        _dispatcher = dispatcher
    _watching = True


def _went_round() -> None:
    global _passes, _pass_at
    _passes += 1
    _pass_at = time.perf_counter()


def _about_to_block() -> None:
    global _idle_frame, _loop_thread, _blocked
    _went_round()
    _idle_frame, _loop_thread = sys._getframe(1), threading.get_ident()  # (the frame the loop runs under)
    _blocked = True


def _awake() -> None:
    global _blocked
    _went_round()
    _blocked = False


def loop_waiting() -> bool:
    """Whether the watched event loop's thread is idle: about to block (not awake since) and
    running no Python code (its innermost frame the one its loop was entered from: with glib a
    timer's slot runs before ``awake`` is emitted). True when the loop is not watched (nothing
    known). Read by a lane's optional work, which waits while the GUI thread works: each call
    from Qt into Python (a paint, a slot) waits for the interpreter while a lane runs Python."""
    if not _watching or _idle_frame is None:
        return True
    return _blocked and sys._current_frames().get(_loop_thread) is _idle_frame


def _now_in_turn() -> float:
    """Now, the turn under way noted: watching the loop, a turn begins with its pass, so the
    work the pass did before its first slice counts (the 16x site's Select All: 7.7 ms of the
    outline's selection, then a panel's slice given 5 ms more); a turn found stale, or told
    apart by a pause, begins with the slice asking."""
    global _start, _turn_pass, _ran
    now = time.perf_counter()
    if _watching and _passes != _turn_pass:
        _start, _turn_pass, _ran = min(_pass_at, now), _passes, False
    elif (now - max(_end, _start) > STALE_S) if _watching else (now - _end > GAP_S):
        # (stale: no slice ended since the turn began, that long ago; a slice that ended long
        # before the turn began made it stale at once, and the slice after one put off in the
        # turn took a whole budget: the canvas zoomed in from the overview on the 16x site, its
        # paint 7.4 ms, then a detail slice of 4)
        _start, _turn_pass, _ran = now, _passes, False
    return now


def until(own_s: float, first: bool = False, whole: bool = False, gives_way: bool = False) -> float | None:
    """When a slice starting now, of ``own_s`` at most, is to stop; None when the turn's
    budget is spent (the slice waits for the next turn: start its timer again). ``first``:
    the canvas's slices, which always run: ``own_s`` less what the slices before them in the
    turn took, :data:`FIRST_LEAST_S` at least; ``whole``: work that cannot
    stop midway and takes about ``own_s``, which runs only when that much is left or as the
    turn's first slice; ``gives_way``: while a gesture is under way the turn's slices before it
    and itself take :data:`GESTURE_S` at most (the next wheel step or move of a pan and its
    paint come sooner; after the first such slice of a turn the others wait for the next).
    Call :func:`ended` after a slice that ran."""
    global _granted
    now = _now_in_turn()
    if gives_way and giveway.moving():
        left = _start + GESTURE_S - now
        if _ran and left < LEAST_S:
            return None
        _granted = True
        return now + max(min(own_s, left), LEAST_S)
    if first:  # (what the turn's slices before it took is taken off, down to FIRST_LEAST_S)
        _granted = True
        return now + max(own_s - (now - _start), min(own_s, FIRST_LEAST_S))
    left = _start + BUDGET_S - now
    if left < (own_s if whole and _ran else LEAST_S):  # (a whole one: room for it, or the turn's first)
        return None
    _granted = True
    return now + min(own_s, left)


def ended() -> None:
    """A slice has ended: counted when :func:`until` let it run (a slice put off ends nothing:
    the turn ends with the loop's pass, or once no slice has run for :data:`GAP_S` when the
    loop is not watched, so one put off should start its timer with an interval of 1 ms at
    least, letting the event loop go round)."""
    global _end, _granted, _ran
    if _granted:
        _granted, _ran = False, True
        _end = time.perf_counter()


def reset() -> None:
    """Forget the turn under way (tests)."""
    global _start, _end, _granted, _turn_pass, _ran
    _start, _end, _granted, _turn_pass, _ran = 0.0, -1.0, False, -1, False


def counted(slice_method: Callable[..., Any]) -> Callable[..., Any]:
    """Decorate a slice that always runs (the canvas's: it asks :func:`until` with ``first``)
    so that its end is counted (:func:`ended`) however it returns."""

    @functools.wraps(slice_method)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return slice_method(*args, **kwargs)
        finally:
            ended()

    return run
