"""The model tree's search (:class:`OutlineSearch`, a part of
:class:`widgets.model_tree.ModelTreePanel`): the components whose name, id, kind or details hold
every word typed, their rows built wherever they are, the rest hidden by the panel's proxy.

On a site it is the slow part of the outline: the 16x site's first search made every
component's search text (115 ms) and built 6,000 rows (150-185 ms), and Qt's proxy, changed in
place, told the view of every run of rows it hid or showed (0.14-1.0 s), at each keystroke.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRegularExpression, QTimer
from PySide6.QtWidgets import QLineEdit

from widgets import slice_budget

#: on a design of more components than this the search waits for a pause in the typing
#: (SEARCH_PAUSE_MS, or Enter) before it filters: on the 16x site each filtering took 0.2-0.45 s
#: (the matches' rows built, Qt's proxy filtering every row built), so each keystroke of a word
#: froze the panel that long; the p690 benchmark's (3,463 components) at once blocked it 21-22 ms,
#: in slices 6-7
SEARCH_AT_ONCE = 2000
SEARCH_PAUSE_MS = 250
#: ... and then finds its matches and builds their rows this long a turn of the event loop (a
#: site's first search: every component's search text made, 115 ms, and 6,000 rows built,
#: 150-185 ms), the filter applied to the view once they are all found
SEARCH_SLICE_S = 0.004
#: Qt's filtering of the outline once the matches are found (the proxy attached again, one
#: call: 6-8 ms on the 16x site) runs as the first slice of a turn, given this long
#: (slice_budget's ``whole``): begun after a slice of finding matches in the same turn (3-4 ms
#: into it), it made turns of 10-11.5 ms of the searches of bench_gui.py, 7.5-8 when it began one
FILTER_S = 0.010
#: what :meth:`OutlineSearch._filtering` yields before that call
_WHOLE = object()
#: how many components a search looks at between two looks at the clock
_SEARCH_EVERY = 64
#: ... and opens this many branches of what it found a step (see OutlineSearch._expanding: each
#: branch opened looks for its row among those the view shows, Qt's ``viewIndex``, which grows
#: with them; 32 a step made steps of 5-10 ms on the 16x site's outline)
_EXPAND_EVERY = 4


def search_pattern(words: list[str]) -> QRegularExpression:
    """What the proxy keeps: the rows whose search text holds every word, in any order (one
    lookahead per word), tried from the text's start only: unanchored, the expression was tried
    again from each character on, each try scanning the rest of the text (the 16x site's
    outline, 12,123 rows built, filtered in 84 ms; anchored, 12 ms). Each lookahead is lazy
    (``.*?``: tried forward from the start, not from the text's end backwards) and one word is
    looked for as it is: 12,000 rows filtered in 5 and 4-5 ms instead of 8-10 and 7-10."""
    if len(words) == 1:
        return QRegularExpression(QRegularExpression.escape(words[0]))
    lookaheads = "".join(f"(?=.*?{QRegularExpression.escape(w)})" for w in words)
    return QRegularExpression(
        f"\\A{lookaheads}" if words else "", QRegularExpression.PatternOption.DotMatchesEverythingOption
    )


class OutlineSearch:
    """The search box and the filtering of :class:`widgets.model_tree.ModelTreePanel` (a
    mixin: it reads the panel's topology, rows, proxy, view and document)."""

    def _init_search(self: Any) -> None:
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search names, kinds, WWPNs...")
        self.search.setClearButtonEnabled(True)
        self.search.setToolTip("Show the components whose name, kind or details hold every word typed")
        self.search.textChanged.connect(self._typed)
        self.search.returnPressed.connect(self._search_now)
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_PAUSE_MS)
        self._search_timer.timeout.connect(self._search_now)
        self._searching: Iterator[object] | None = None  # a search under way, in slices
        self._filter_due = False  # its next step is Qt's filtering (see FILTER_S)
        self._search_slicer = QTimer(self)
        self._search_slicer.setSingleShot(True)
        self._search_slicer.timeout.connect(self._search_slice)

    def _typed(self: Any, text: str) -> None:
        """The search box changed: filter now, or on a large design once the typing pauses."""
        if len(self.topology) > SEARCH_AT_ONCE:
            self._search_timer.start()  # (restarted by each keystroke)
        else:
            self._search_now()

    def _search_now(self: Any) -> None:
        """Filter by the search box's words: at once on a small design, else in slices."""
        self._search_timer.stop()
        text = self.search.text()
        if text.lower().split() == self._words:
            return
        if len(self.topology) > SEARCH_AT_ONCE:
            self._searching, self._filter_due = self._filtering(text), False
            self._search_slice()
        else:
            self.set_filter(text)

    def _search_slice(self: Any) -> None:
        """The next slice of the search under way (SEARCH_SLICE_S; Qt's filtering as the first
        slice of a turn: FILTER_S)."""
        steps, whole = self._searching, self._filter_due
        until = slice_budget.until(
            FILTER_S if whole else SEARCH_SLICE_S, whole=whole
        )  # (the turn's other slices first)
        try:
            for step in steps if until is not None and steps is not None else ():
                if self._searching is not steps:
                    return  # (another search began meanwhile)
                self._filter_due = step is _WHOLE
                if whole or self._filter_due or time.perf_counter() >= until:  # (the filtering: a slice alone)
                    self._search_slicer.start(1)
                    return
        finally:
            slice_budget.ended()
        if until is None and steps is not None:
            self._search_slicer.start(1)
        elif self._searching is steps:
            self._searching = None

    def set_filter(self: Any, text: str) -> None:
        """Show only the components whose name, id, kind or details hold every word of ``text``."""
        self._searching = None  # (a search under way in slices is dropped)
        for _ in self._filtering(text):
            pass

    def _filtering(self: Any, text: str) -> Iterator[object]:
        """:meth:`set_filter`, pausing (yielding) every few components looked at; it yields
        ``_WHOLE`` before Qt's filtering, which a slice then begins a turn with."""
        self.caught_up()  # (the model events held while covered first)
        words = text.lower().split()
        self._words = words
        if words:  # build the rows of every match, wherever it is, so the filter can show them
            ids = [c.id for c in self.topology.components()]
            for i in range(0, len(ids), _SEARCH_EVERY):
                yield from self._revealing(ids[i : i + _SEARCH_EVERY])  # (read afresh: edits may come between)
                yield
        if words:
            yield _WHOLE
        pattern = search_pattern(words)
        # the proxy is detached while its filter changes, and then tells the view to start
        # afresh: changed in place, it told the view of every row it hid or showed again, one
        # run at a time (the 16x site's outline, 6,177 rows built: 0.14-1.0 s; now 2-90 ms)
        self.view.setUpdatesEnabled(False)  # (not shown between the filter and the opening)
        widths = [self.view.columnWidth(c) for c in (0, 1)]  # (the view's reset forgets them)
        try:
            self.proxy.setSourceModel(None)
            self.proxy.setFilterRegularExpression(pattern)
            self.proxy.setSourceModel(self.model)
            for column, width in enumerate(widths):
                self.view.setColumnWidth(column, width)
            if words:
                yield  # (Qt's filtering, then the view's opening of every branch, in steps)
                yield from self._expanding()
                yield  # (the names of the rows found deep in it shown whole: a turn more)
                self.view.setColumnWidth(0, max(widths[0], self.view.sizeHintForColumn(0)))
        finally:
            self.view.setUpdatesEnabled(True)
        self.show_selection(self.doc.selection)

    def _expanding(self: Any) -> Iterator[None]:
        """The view's ``expandAll``, :data:`_EXPAND_EVERY` branches a step, parents first (at once,
        the 16x site's outline searched for "fcs1" took 12-15 ms of one turn). The branches are
        held as persistent indexes: an edit may come between two steps."""
        proxy, view, opened = self.proxy, self.view, 0
        todo: list[QPersistentModelIndex | None] = [None]  # (None: the top)
        while todo:
            held, row = todo.pop(), 0
            while True:
                parent = QModelIndex() if held is None else QModelIndex(held)
                if (held is not None and not parent.isValid()) or row >= proxy.rowCount(parent):
                    break  # (done, or its row gone meanwhile)
                index = proxy.index(row, 0, parent)
                row += 1
                if proxy.hasChildren(index):
                    view.expand(index)
                    todo.append(QPersistentModelIndex(index))
                    opened += 1
                    if opened % _EXPAND_EVERY == 0:
                        yield

    def _revealing(self: Any, ids: list[str]) -> Iterator[None]:
        """:meth:`_reveal`, pausing (yielding) while a group of many is built for a match."""
        topo, words = self.topology, self._words
        for cid in ids:
            comp = topo.get(cid)
            if comp is None or cid in self.rows or not all(w in self._search_text(comp) for w in words):
                continue
            top = comp
            while top is not None and top.parent is not None:
                top = topo.get(top.parent)
            if top is not None:
                yield from self._group_built(top.kind)
            if topo.get(cid) is comp:  # (edits may come between)
                yield from self._rows_built(cid)
            if topo.get(cid) is comp:
                self._ensure(cid)
                yield  # (a match's rows, and those of the groups above it: 1-2 ms each, new)

    def _reveal(self: Any, ids) -> None:
        """Build the rows of the components among ``ids`` that the search words match."""
        topo, words = self.topology, self._words
        for cid in ids:
            comp = topo.get(cid)
            if comp is not None and cid not in self.rows and all(w in self._search_text(comp) for w in words):
                self._ensure(cid)
