"""What the canvas drops all at once, freed a little at a time (:class:`Grave`).

Folding everything on the 16x site expanded dropped 44,864 boxes, 10,864 links and the
overview's batches of them at once: Qt deleting the items took 300 ms, Python freeing the lists
and dictionaries that held them 40-200 ms each, all in one turn of the event loop. A grave takes
them as they are dropped and frees them in the next slices of work instead.
"""

from __future__ import annotations

import ctypes
import os
import time
from collections.abc import Callable
from typing import Any

import shiboken6

#: how many entries (or items) are freed between two looks at the clock
_EVERY = 64
#: ... and how many Qt items (deleting a box with its texts took 0.4-1.2 ms on the 16x site
#: collapsed from expanded: eight at a time overran a slice by up to 10 ms)
_ITEMS_EVERY = 2
#: Qt items deleted between two nudges of the C library's allocator (see :func:`_allocator_nudge`)
_NUDGE_EVERY = 16
#: a request the GNU C library serves from its large bins (above its small-bin sizes, 1008
#: bytes, and its per-thread cache's, 1032), so that it first gathers the small blocks freed
_NUDGE_BYTES = 4096


def _allocator_nudge() -> Callable[[], None] | None:
    """A call that has the GNU C library gather the small blocks freed since the last one, or
    None on another C library. Deleting Qt items frees many small blocks, which glibc keeps
    in its fast bins until a large request makes it merge them all at once
    (``malloc_consolidate``): folding the 32x site expanded, that came in one step of a slice,
    inside ``QGraphicsScene::removeItem``, and blocked the editor 18-34 ms. A large request and
    its release every few items deleted merges them a few at a time (a probe of eight folds
    each way: the longest block 12-20 ms, median 14, against 14-34, median 20)."""
    try:
        if not os.confstr("CS_GNU_LIBC_VERSION"):
            return None
        libc = ctypes.CDLL(None)  # the process's own C library
        malloc, free = libc.malloc, libc.free
    except (ValueError, OSError, AttributeError):  # not glibc, or no such symbols
        return None
    malloc.restype, malloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t]
    free.restype, free.argtypes = None, [ctypes.c_void_p]

    def nudge() -> None:
        free(malloc(_NUDGE_BYTES))

    return nudge


_NUDGE = _allocator_nudge()


def drop_item(item: Any) -> None:
    """Delete graphics item ``item`` (with the items inside it), out of its scene first.

    Deleted in its scene, an item leaves a stale entry in the scene's index (Qt's BSP tree),
    which Qt purges at the next look at the index by walking all of it: on the 16x site
    expanded (84,736 items) each purge took 25-35 ms, after every slice that deleted items.
    Taken out of the scene first, it is taken out of the tree where it lies."""
    scene = item.scene()
    if scene is not None:
        scene.removeItem(item)
    shiboken6.delete(item)


class Grave:
    """Dropped lists, dictionaries and Qt items (a list of items to delete: ``bury_items``),
    freed by :meth:`dig`."""

    def __init__(self) -> None:
        self._heap: list[Any] = []
        self._items: list[Any] = []  # Qt items to delete (each with the items inside it)
        self._deleted = 0  # Qt items deleted (the allocator nudged every _NUDGE_EVERY)

    def __bool__(self) -> bool:
        return bool(self._heap or self._items)

    def bury(self, *things: Any) -> None:
        """Lists and dictionaries no longer used (whatever else references their entries)."""
        self._heap.extend(t for t in things if t)

    def bury_items(self, items: list[Any]) -> None:
        """Graphics items to delete (out of their scene, with the items inside them), from the
        end of ``items`` (put the inner ones last: each then goes on its own)."""
        self._items.extend(items)

    def dig(self, until: float | None) -> bool:
        """Free what is buried until the clock passes ``until`` (None: all of it); True once
        nothing is left."""
        while self._items or self._heap:
            if self._items:  # one by one: a drawer with its thousands of boxes took 100 ms
                for item in self._items[-_ITEMS_EVERY:]:
                    if shiboken6.isValid(item):
                        drop_item(item)
                        self._deleted += 1
                        if _NUDGE is not None and self._deleted % _NUDGE_EVERY == 0:
                            _NUDGE()
                del self._items[-_ITEMS_EVERY:]
            else:
                top = self._heap[-1]
                n = min(_EVERY, len(top))
                if isinstance(top, dict):
                    for _ in range(n):
                        top.popitem()
                else:
                    del top[-n:]
                if not top:
                    self._heap.pop()
            if until is not None and time.perf_counter() >= until:
                return not self
        return True
