"""The items' level of detail brought to the zoom: those in view at once, the rest in slices (a
mixin of :class:`widgets.canvas.scene.DiagramScene`).

Between the overview (far out) and a working zoom the items show summary boxes (inner texts
hidden, each group's name large and sized for the zoom: :meth:`BoxItem.set_low_detail`). A zoom
across a threshold used to bring every item to it in one go: on the 16x site expanded (44,864
boxes) 134-210 ms each time, four times on the way in from the whole design to 1:1 and twice on
the way out. Only the items the views show need it before the next paint; the others are
brought in slices of :data:`DETAIL_SLICE_S`, and any a view scrolls to before its slice, when
the view shows it (:meth:`Detailing.detail_in`).
"""

from __future__ import annotations

import time
from typing import Any

from PySide6.QtCore import QRectF, Qt, QTimer

from widgets import slice_budget
from widgets.canvas.items import BoxItem

#: the items out of view are brought to the zoom's detail in slices of about this long
DETAIL_SLICE_S = 0.004
_BY_RECT = Qt.ItemSelectionMode.IntersectsItemBoundingRect
_UNSORTED = Qt.SortOrder(-1)  # (Qt's own value for items in no particular order)


class Detailing:
    """The level-of-detail part of the diagram scene (see the module docstring)."""

    #: items still to bring to ``low_detail`` (in slices), and how far the pass got
    _detail_todo: list[BoxItem] | None = None
    _detail_next = 0
    _detail_mark: object = None
    _detail_timer: QTimer | None = None

    def _bring_detail(self: Any, views: list[Any]) -> None:
        """Bring the items to ``low_detail``: those ``views`` show now at once, the others in
        slices (all at once when the document works synchronously, as in tests)."""
        low, scale = self.low_detail
        if self.doc.synchronous:
            for item in self.items_by_id.values():
                item.set_low_detail(low, scale)
            self._detail_todo = None
            return
        self._detail_todo, self._detail_next = list(self.items_by_id.values()), 0
        self._detail_mark = object()  # (each item brought by this pass carries it)
        for view in views:
            self.detail_in(view.mapToScene(view.viewport().rect()).boundingRect())
        if self._detail_timer is None:
            self._detail_timer = QTimer(self)
            self._detail_timer.setSingleShot(True)
            self._detail_timer.timeout.connect(self._detail_slice)
        self._detail_timer.start(0)

    def detail_pending(self: Any) -> bool:
        """Whether some items are still to be brought to the zoom's detail."""
        return self._detail_todo is not None

    def detail_in(self: Any, area: QRectF) -> None:
        """Bring the items in ``area`` (scene coordinates) to the zoom's detail now, if a pass
        is under way (a view shows them: see DiagramView.scrollContentsBy)."""
        if self._detail_todo is None or self.far:
            return
        (low, scale), mark = self.low_detail, self._detail_mark
        # (by bounding rectangle and in no order: Qt's default, by shape and sorted, cost 3-13 ms
        # for the 16x site's 1,000-4,500 items in view between the overview and 1:1)
        for item in self.items(area.adjusted(-200, -200, 200, 200), _BY_RECT, _UNSORTED):
            if isinstance(item, BoxItem) and item.detail_mark is not mark:
                item.detail_mark = mark
                item.set_low_detail(low, scale)

    def _far_prepared(self: Any, until: float) -> bool:
        """Idle work for the other side of ``FAR_SCALE`` (see Morphing._wake_slice); True when
        it is done. Zoomed far out: the summary layers of the views showing the overview made
        ready for a zoom back in (see SummaryLayer.far_ready). Zoomed in: the overview gathers
        what the scene told it changed, and draws its picture again at the zoom step it was
        shown at (after a subsystem deleted and undone on the 16x site expanded, the first paint
        zoomed out gathered and drew them: 40 ms); the views' layers gather their tiles' batches
        of summary boxes."""
        overview = self.overview
        if overview is not None and overview._grave and not overview._grave.dig(until):
            return False
        if not self.far:
            if overview is not None:
                step = overview._cached[1] if overview._cached is not None else None
                for _ in overview.preparing(() if step is None else (step * 0.99,)):  # (at that step)
                    if time.perf_counter() >= until:
                        return False
            # the views' layers too, for a zoom out to summary boxes (the benchmark expanded,
            # a subsystem deleted at 1:1, then zoomed out: the boxes of the tiles in view
            # gathered in the first paint, 25-30 ms)
            return self._layers_ready(self.views(), until)
        if self.overview_scene is None or time.perf_counter() >= until:
            return False
        return self._layers_ready(self.overview_scene.views(), until)

    @staticmethod
    def _layers_ready(views: list[Any], until: float) -> bool:
        ready = True
        for view in views:
            layer = getattr(view, "summary", None)
            if layer is not None and not layer.far_ready(until):
                ready = False
        return ready

    def _stop_detail(self: Any) -> None:
        """Drop the pass under way (zoomed far out: the items are brought on the way back)."""
        self._detail_todo = None
        if self._detail_timer is not None:
            self._detail_timer.stop()

    def _detail_slice(self: Any) -> None:
        todo = self._detail_todo
        if todo is None:
            return
        until = slice_budget.until(DETAIL_SLICE_S)
        if until is None:  # (the turn's other slices took its time)
            self._detail_timer.start(1)
            return
        try:
            (low, scale), mark = self.low_detail, self._detail_mark
            items, i, n = self.items_by_id, self._detail_next, len(todo)
            while i < n:
                item = todo[i]
                i += 1
                if item.detail_mark is not mark and items.get(item.cid) is item:  # (not gone since)
                    item.detail_mark = mark
                    item.set_low_detail(low, scale)
                if i % 64 == 0 and time.perf_counter() >= until:
                    break
            self._detail_next = i
        finally:
            slice_budget.ended()
        if i < n:
            self._detail_timer.start(0)
            return
        self._detail_todo = None
        self._asleep.clear()  # (every item woken by the pass; the idle work goes on: _wake_slice)
