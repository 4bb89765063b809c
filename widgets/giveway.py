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
:func:`gesture`.
"""

from __future__ import annotations

import threading
import time

#: how long after a gesture the lanes wait at their pause points (the next wheel step or move
#: of a pan comes sooner)
AFTER_S = 0.15
#: the longest a lane waits at one pause point ...
MAX_PAUSE_S = 0.5
#: ... and how long it then works before it waits again
MIN_RUN_S = 0.05

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
