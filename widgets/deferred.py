"""Panels that follow ``Document.analysisReady`` but cost time to fill (the paths table, the
charts): :class:`WhenShown` fills them only while they are on screen, and once per analysis.

A panel hidden behind another tab of its dock (or a closed dock) keeps the newest analysis and
fills itself when it is shown; a panel in no shown window (a test's bare widget) fills at once.
The document sends every analysis twice (first without, then with the rules' findings); the
second, with the same result, costs nothing here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget
from shiboken6 import isValid

from widgets import slice_budget


def on_screen(panel: QWidget) -> bool:
    """Whether ``panel`` can be seen: shown and not covered. A dock behind another tab of its
    dock area stays "visible" to Qt (``isVisible()`` is True) but has an empty visible region."""
    return panel.isVisible() and not panel.visibleRegion().isEmpty()


def covered(panel: QWidget) -> bool:
    """Whether ``panel`` sits in a shown window but cannot be seen (a hidden tab, a closed dock);
    a panel in no shown window (a test's bare widget) is not covered."""
    return panel.window().isVisible() and not on_screen(panel)


def unseen(panel: QWidget) -> bool:
    """Whether ``panel`` cannot be seen now and will paint when it can: covered, or in a window
    not shown yet (a file opened at start-up). A bare widget (a test's) is never unseen."""
    top = panel.window()
    return covered(panel) or (top is not panel and not top.isVisible())


class WhenShown(QObject):
    """``WhenShown(panel, fill, doc)``: connect its :meth:`take` to ``doc.analysisReady`` instead
    of ``fill`` (a method of this QObject: the connection goes with the panel when it is deleted
    before the document)."""

    def __init__(self, panel: QWidget, fill: Callable[[Any], None], doc: Any) -> None:
        super().__init__(panel)
        self.panel, self.fill, self.doc = panel, fill, doc
        self.pending: Any = None
        self.shown_result: Any = None  # the Analysis the panel shows
        panel.installEventFilter(self)

    def take(self, bundle: Any) -> None:
        if covered(self.panel):
            self.pending = bundle
            return
        self.pending = None
        if bundle.result is self.shown_result:
            return
        self.shown_result = bundle.result
        self.fill(bundle)

    def forget(self) -> None:
        """The panel was cleared (a design replaced): the next analysis fills it again."""
        self.pending, self.shown_result = None, None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        shown = event.type() in (QEvent.Type.Show, QEvent.Type.Paint)  # a tab raised paints, not shows
        if watched is self.panel and shown and self.pending is not None:
            QTimer.singleShot(0, self._fill_pending)  # not inside the paint event
        return False

    def _fill_pending(self) -> None:
        if self.pending is None or covered(self.panel):
            return
        bundle, self.pending = self.pending, None
        if self.doc.is_current(bundle):
            self.take(bundle)


#: a selection of more components than this reaches the side panels on a later turn of the
#: event loop, after the canvas has shown it, one panel a turn (see :func:`turns`): any
#: selection but none. Select All on the 16x site (1,152 boxes) took the canvas 8-9 ms, the
#: inspector 3 ms and the model tree 5 ms, then their repaint, 18-37 ms in one turn; one HBA or
#: cable selected after the other (the inspector's form changing, the outline opening its
#: branch, the zone partners lit) blocked 15-27 ms shown at once, 8-13 a panel a turn (forty-
#: first session, ``kindsprobe``: 12 selections each, alternately)
SELECTION_LATER_FROM = 0
#: about how long one piece of work put off takes (a selection shown by a panel: 3-9 ms on the
#: 16x site): it runs in a turn with that much of the slices' budget left (widgets.slice_budget)
PIECE_S = 0.005


class _Turns(QObject):
    """Work put off to later turns of the event loop, one piece a turn, oldest first, one piece
    per owner (a newer one replaces it). Zero-interval timers started in the same turn all run
    in Qt's next pass over its timers, back to back: after Select All on the 16x site the
    canvas's 8 ms, the inspector's, the model tree's and the racks' came to one block of 25 ms.
    One piece a turn lets the events waiting (and the canvas's slices) in between."""

    def __init__(self) -> None:
        super().__init__()
        self._todo: dict[QObject, Callable[[], None]] = {}
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._next)

    def put(self, owner: QObject, work: Callable[[], None]) -> None:
        self._todo.pop(owner, None)
        self._todo[owner] = work
        if not self._timer.isActive():
            self._timer.start(0)

    def drop(self, owner: QObject) -> None:
        self._todo.pop(owner, None)

    def _next(self) -> None:
        if self._todo and slice_budget.until(PIECE_S, whole=True) is None:  # (the turn's slices took its time)
            self._timer.start(1)
            return
        try:
            while self._todo:
                owner = next(iter(self._todo))
                work = self._todo.pop(owner)
                if isValid(owner):  # (a panel closed meanwhile: nothing to do)
                    work()
                    break
        finally:  # (the others keep their turns whatever this piece did)
            slice_budget.ended()
            if self._todo:
                self._timer.start(0)


_TURNS: _Turns | None = None


def turns() -> _Turns:
    """The application's queue of work put off a turn, one piece a turn (see :class:`_Turns`)."""
    global _TURNS
    if _TURNS is None or not isValid(_TURNS):
        _TURNS = _Turns()
    return _TURNS


def shown_later(doc: Any, count: int) -> bool:
    """Whether a side panel shows a selection that may change ``count`` of its rows, units or
    fields on a later turn (see :data:`SELECTION_LATER_FROM`): not when the document works
    synchronously (``doc.synchronous``: analysed in the GUI thread, every panel following at
    once, for tests and scripts that read a panel right after selecting)."""
    return count > SELECTION_LATER_FROM and not getattr(doc, "synchronous", False)


class SelectionFollower(QObject):
    """``SelectionFollower(panel, doc, show)``: calls ``show(ids)`` as the document's selection
    changes: on a later turn of the event loop for more than :data:`SELECTION_LATER_FROM`
    components (the newest selection then, once; one panel a turn, see :func:`turns`), else at
    once; at once too for a document working synchronously (see :func:`shown_later`). A child
    of ``panel``: the connection goes with it."""

    def __init__(self, panel: QWidget, doc: Any, show: Callable[[list[str]], None]) -> None:
        super().__init__(panel)
        self._doc, self._show = doc, show
        doc.selectionChanged.connect(self.take)

    def take(self, ids: list[str]) -> None:
        if shown_later(self._doc, len(ids)):
            turns().put(self, self._shown_later)
            return
        turns().drop(self)  # (a large one pending is replaced by this one)
        self._show(ids)

    def _shown_later(self) -> None:
        self._show(list(self._doc.selection))


#: a covered panel holds at most this many model events (a server of the 16x site deleted:
#: 940); past that it is built afresh when seen, which costs less than going through them
HELD_AT_MOST = 20_000


class HeldEvents(QObject):
    """``HeldEvents(panel, apply, rebuild, seen)``: the document's model events for a panel
    that follows them one batch at a time (``apply(events)``) but sits behind another tab:
    :meth:`take` holds them while the panel is covered and applies them, in order, when it is
    seen or :meth:`catch_up` is called (the panel's readers call it first), then calls
    ``seen()``; past :data:`HELD_AT_MOST` events, ``rebuild()`` instead. The model tree covered
    took 2-4 ms of every server deleted or undone on the 16x site, in the edit's own turn."""

    def __init__(
        self, panel: QWidget, apply: Callable[[list], None], rebuild: Callable[[], None], seen: Callable[[], None]
    ) -> None:
        super().__init__(panel)
        self.panel, self._apply, self._rebuild, self._seen = panel, apply, rebuild, seen
        self.batches: list[list] = []
        self.count = 0
        self.overflow = False  # more than HELD_AT_MOST came: rebuilt when seen
        self.replaying = False  # applying what was held (the panel sends nothing to the document then)
        panel.installEventFilter(self)

    @property
    def pending(self) -> bool:
        return bool(self.batches) or self.overflow

    def take(self, events: list) -> None:
        if covered(self.panel):
            if not self.overflow:
                self.batches.append(events)
                self.count += len(events)
                if self.count > HELD_AT_MOST:
                    self.drop()
                    self.overflow = True
            return
        self.catch_up()
        self._apply(events)

    def drop(self) -> None:
        """Forget what is held (the panel was built afresh)."""
        self.batches, self.count, self.overflow = [], 0, False

    def catch_up(self) -> bool:
        """Apply what is held now; whether anything was."""
        if not self.pending:
            return False
        batches, overflow = self.batches, self.overflow
        self.drop()
        self.replaying = True
        try:
            if overflow:
                self._rebuild()
            else:
                for events in batches:
                    self._apply(events)
        finally:
            self.replaying = False
        self._seen()
        return True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        shown = event.type() in (QEvent.Type.Show, QEvent.Type.Paint)  # a tab raised paints, not shows
        if watched is self.panel and shown and self.pending:
            QTimer.singleShot(0, self, self._when_seen)  # not inside the paint event
        return False

    def _when_seen(self) -> None:
        if self.pending and not covered(self.panel):
            self.catch_up()
