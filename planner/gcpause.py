"""Pausing CPython's cyclic garbage collector, counted across threads.

The analysis and the rules make many small objects and no reference cycles; on a site's large
heap the collector's passes would cost as much as the work itself, so they run under
:func:`gc_paused`. The editor's worker threads hold it off for their whole life (see
``app.gui_gc``), and the holds are counted so that no short pause switches it back on under
them.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_gc_lock = threading.Lock()
_gc_holds = 0  # how many holders keep the automatic collector off
_gc_restore = False  # whether it was on when the first holder came
_gc_left_off = False  # the last holder left it off for another thread to switch on (settle_gc)


def hold_gc() -> None:
    """Turn the automatic cyclic garbage collector off until the matching :func:`release_gc`.
    Holds are counted across threads: the collector comes back on only when the last holder
    lets go, and only if it was on before the first (so a worker's short pause cannot turn it
    back on under a long-lived holder, such as a running editor lane)."""
    global _gc_holds, _gc_restore, _gc_left_off
    with _gc_lock:
        if _gc_holds == 0:
            _gc_restore = gc.isenabled() or _gc_left_off
            _gc_left_off = False
            gc.disable()
        _gc_holds += 1


def release_gc(leave_off: bool = False) -> None:
    """Let go of one :func:`hold_gc`. ``leave_off``: if this is the last holder, leave the
    collector off for :func:`settle_gc` to switch on from another thread (a worker thread
    ending must not switch it on: its own last allocations would then collect in it)."""
    global _gc_holds, _gc_left_off
    with _gc_lock:
        if _gc_holds <= 0:
            raise RuntimeError("release_gc() without hold_gc()")
        _gc_holds -= 1
        if _gc_holds == 0 and _gc_restore:
            if leave_off:
                _gc_left_off = True
            else:
                gc.enable()


def settle_gc() -> bool:
    """Switch the collector back on if the last holder left it off (see :func:`release_gc`);
    return whether it did."""
    global _gc_left_off
    with _gc_lock:
        if _gc_holds == 0 and _gc_left_off:
            _gc_left_off = False
            gc.enable()
            return True
        return False


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector: the analysis and the rules make many small objects
    and no reference cycles, and on a site's large heap the collector's passes would cost as
    much as the work itself. Safe to nest and to use from several threads (see :func:`hold_gc`)."""
    hold_gc()
    try:
        yield
    finally:
        release_gc()
