"""The editor's background work gives way to the user's gestures on the canvas.

The lanes (:mod:`app.background`) are Python threads: they share the GIL with the GUI thread,
which then runs at about half speed. Right after an edit on the 16x site the check lane runs
its rules for 250-300 ms; a zoom out meanwhile, wheel step by wheel step, held the event loop
20-27 ms at steps that take 9-15 ms once the lanes are idle. A gesture (a wheel step, a
scroll) marks the next :data:`AFTER_S` as the user's; a lane at one of its pause points (before
each rule of a check, at each progress report of a panel's computation) waits until then, for
:data:`MAX_PAUSE_S` at most, and then works :data:`MIN_RUN_S` at least before it waits again,
so a long gesture delays the findings but never starves them. The GUI thread never waits here.
Plain Python (no Qt), like :mod:`widgets.slice_budget`: a lane calls :func:`pause`, the canvas
:func:`gesture`. :class:`Share` tells a lane's optional work that another thread wants the
interpreter.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

#: how long after a gesture the lanes wait at their pause points (the next wheel step or move
#: of a pan comes sooner)
AFTER_S = 0.15
#: the longest a lane waits at one pause point ...
MAX_PAUSE_S = 0.5
#: ... and how long it then works before it waits again
MIN_RUN_S = 0.05

#: a lane that had less than this share of its time on the CPU since it last looked (over
#: :data:`SHARE_SPAN_S` at least) shared the interpreter with another thread (see :class:`Share`)
LOW_SHARE, SHARE_SPAN_S = 0.7, 0.0002
#: ... or the GUI thread was on the CPU for more than this share of it (an idle event loop
#: with a few timers: 1-3 %)
GUI_BUSY = 0.15
#: how long a lane's work that gives way sleeps when it found itself sharing (see :func:`yielding`)
YIELD_S = 0.004

_until = 0.0  # (time.monotonic) the user's until then
_free_until = 0.0  # the lanes work on until then whatever the gestures


def gesture() -> None:
    """The user moves the canvas: the lanes wait at their pause points for a while."""
    global _until
    _until = time.monotonic() + AFTER_S


def moving() -> bool:
    """Whether a gesture is under way (within :data:`AFTER_S` of the last one)."""
    return time.monotonic() < _until


def pause() -> float:
    """A lane's pause point: wait while a gesture is under way (see the module docstring);
    return how long it waited (s). Returns at once on the GUI thread."""
    global _free_until
    start = time.monotonic()
    if start >= _until or start < _free_until or threading.current_thread() is threading.main_thread():
        return 0.0
    end = start + MAX_PAUSE_S
    while (now := time.monotonic()) < min(_until, end):  # (a gesture meanwhile moves _until on)
        time.sleep(min(_until, end) - now)
    _free_until = time.monotonic() + MIN_RUN_S
    return time.monotonic() - start


def reset() -> None:
    """Forget the gestures (tests)."""
    global _until, _free_until
    _until = _free_until = 0.0


def _gui_clock() -> int | None:
    """The CPU-time clock of the main (GUI) thread, where the platform has one."""
    try:
        return time.pthread_getcpuclockid(threading.main_thread().ident)  # type: ignore[arg-type]
    except (AttributeError, OSError):  # (not on Windows or macOS)
        return None


class Share:
    """Whether a lane has company since it last looked: the GUI thread on the CPU for more than
    :data:`GUI_BUSY` of the time gone (its CPU-time clock, where the platform has one), or the
    lane itself on it for less than :data:`LOW_SHARE` (another thread had the interpreter).
    Every call from Qt into Python on the GUI thread (a paint, a slot) waits for the interpreter
    while a lane runs Python, and the event loop's own signs (``slice_budget.loop_waiting``)
    cannot tell the GUI thread waiting for events from one waiting for the interpreter (the
    16x site's paths panel shown while the other figure sets were filled: blocks of 31-46 ms
    that were 7 with no fill). The lane's own share alone misses most of it: the GUI thread
    waits a switch interval for each call and runs briefly, the lane kept 85-90 % meanwhile."""

    def __init__(self) -> None:
        self.clock = _gui_clock()
        self.restart()

    def restart(self) -> None:
        """Look from now on."""
        self.wall, self.cpu = time.perf_counter(), time.thread_time()
        self.gui = time.clock_gettime(self.clock) if self.clock is not None else 0.0

    def contended(self) -> bool:
        """Whether the lane had company since it last looked, then looks again from now;
        False, and goes on looking, when that was less than :data:`SHARE_SPAN_S` ago (too soon
        to tell)."""
        wall = time.perf_counter() - self.wall
        if wall < SHARE_SPAN_S:
            return False
        cpu, gui = time.thread_time() - self.cpu, -self.gui
        self.restart()
        return cpu < LOW_SHARE * wall or self.gui + gui > GUI_BUSY * wall


class GaveUp(Exception):
    """Raised at a :func:`yielding` point when its ``give_up()`` says so."""


def yielding(
    hurry: Callable[[], bool] = lambda: False, give_up: Callable[[], bool] = lambda: False
) -> Callable[[], None]:
    """A pause point for a lane's work that the editor waits for, but not at once (the other
    direction's analysis, whose total the headline shows): at each call, a gesture under way
    waits (:func:`pause`), and a lane found sharing the interpreter (:class:`Share`) sleeps
    :data:`YIELD_S`, leaving it to the GUI thread, unless ``hurry()`` (an edit waits for the
    lane: the 16x site's server deleted, then undone as soon as painted, waited for the other
    direction's analysis slowed so, 20 % longer). (The 16x site's scenario shown again: the
    other direction's analysis, 100 ms of the lane, held the paths panel's first paint to
    50-60 ms blocks.) Work no one waits for (the idle cross-check) gives up, raising
    :class:`GaveUp`, once ``give_up()`` (an edit came: its result would be dropped)."""
    share = Share()

    def point() -> None:
        if give_up():
            raise GaveUp
        pause()
        if share.contended() and not hurry():
            time.sleep(YIELD_S)
            share.restart()

    return point
