"""What the canvas drops all at once, freed a little at a time (:class:`Grave`).

Folding everything on the 16x site expanded dropped 44,864 boxes, 10,864 links and the
overview's batches of them at once: Qt deleting the items took 300 ms, Python freeing the lists
and dictionaries that held them 40-200 ms each, all in one turn of the event loop. A grave takes
them as they are dropped and frees them in the next slices of work instead.
"""

from __future__ import annotations

import time
from typing import Any

import shiboken6

#: how many entries (or items) are freed between two looks at the clock
_EVERY = 64
#: ... and how many Qt items (deleting a box with its texts took 0.4-1.2 ms on the 16x site
#: collapsed from expanded: eight at a time overran a slice by up to 10 ms)
_ITEMS_EVERY = 2


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
