"""What a worker lane drops, freed a piece at a time (:class:`Pile`).

A lane that starts again on another design (a file opened, a scenario duplicated or switched)
dropped the last one's replica, layout memo and analyses at once: freeing the 16x site's replica
took 10.7 ms and its layout memo 14.7 ms, each in one stretch of C code that holds the
interpreter, while the GUI thread showing the new design waited for it (a scenario shown: its
longest turn 17-23 ms, most of it the GUI thread waiting; seen with ``perf``). A pile keeps
what the lane drops and empties its large tables a few hundred entries at a time, between which
the interpreter can switch threads, once the lane has nothing else to do.

Only what the dropped objects alone hold is emptied: a table another object refers to too (a
diagram the canvas shows, an analysis the panels show) is only let go.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

#: entries freed between two looks at whether the lane has work again
PIECE = 256
#: how deep a pile looks for large tables below what it is given (a replica > its design > its
#: tables > the tables in them)
DEPTH = 4


class Pile:
    """Objects a lane dropped (:meth:`add`), their large tables emptied by :meth:`free`."""

    def __init__(self) -> None:
        self._kept: list[Any] = []  # what was added, kept alive until its tables are emptied
        self._found = 0  # how many of those were looked through for their tables
        self._tables: list[Any] = []  # dicts, lists and sets to empty

    def __bool__(self) -> bool:
        return bool(self._kept)

    def add(self, *dropped: Any) -> None:
        """Keep ``dropped`` (objects the caller lets go of and no one else holds) until
        :meth:`free` has emptied their tables."""
        self._kept += [obj for obj in dropped if obj is not None]

    def _find(self, obj: Any, depth: int) -> None:
        """Note the large tables below ``obj`` that only it holds: ``sys.getrefcount`` of each
        is 4 (its holder, the list of values, the loop's name and the call's argument). The
        values of a large table are looked at when its first few are tables (a table of
        components or of strings is freed entry by entry)."""
        if depth > DEPTH:
            return
        if isinstance(obj, dict):
            values = list(obj.values()) if len(obj) <= PIECE or _holds_tables(obj.values()) else []
        elif isinstance(obj, (list, set, tuple)):
            values = list(obj) if len(obj) <= PIECE or _holds_tables(obj) else []
        else:
            values = list(getattr(obj, "__dict__", {}).values())
        for value in values:
            if not isinstance(value, (dict, list, set, tuple)) and not hasattr(value, "__dict__"):
                continue
            if sys.getrefcount(value) != 4:  # held elsewhere too (or twice here): only let go
                continue
            self._find(value, depth + 1)
            if isinstance(value, (dict, list, set)) and len(value) > PIECE:
                self._tables.append(value)

    def free(self, busy: Callable[[], bool] = lambda: False) -> bool:
        """Look through what was added for its large tables, then empty them a piece at a time,
        until done or ``busy()`` (the lane has work again); True once nothing is left."""
        while self._found < len(self._kept):
            kept = self._kept[self._found]
            self._find(kept, 0)
            if isinstance(kept, (dict, list, set)) and len(kept) > PIECE:
                self._tables.append(kept)
            self._found += 1
            if busy():
                return False
        tables = self._tables
        while tables:
            table = tables[-1]
            pop = table.popitem if isinstance(table, dict) else table.pop
            for _ in range(min(PIECE, len(table))):
                pop()
            if not table:
                tables.pop()
            if busy():
                return False
        self._kept.clear()
        self._found = 0
        return True


def _holds_tables(values: Any) -> bool:
    """Whether the first few of ``values`` include a table (a dict, list or set)."""
    for n, value in enumerate(values):
        if isinstance(value, (dict, list, set)):
            return True
        if n >= 8:
            return False
    return False
