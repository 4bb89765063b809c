"""The items' level of detail brought to the zoom: those in view at once, the rest in slices (a
mixin of :class:`widgets.canvas.scene.DiagramScene`).

Between the overview (far out) and a working zoom the items show summary boxes (inner texts
hidden, each group's name large and sized for the zoom: :meth:`BoxItem.set_low_detail`). A zoom
across a threshold used to bring every item to it in one go: on the 16x site expanded (44,864
boxes) 134-210 ms each time, four times on the way in from the whole design to 1:1 and twice on
the way out. Only the items the views show need it before the next paint; the others are
brought in slices of :data:`DETAIL_SLICE_S`, and any a view scrolls to before its slice, when
the view shows it (:meth:`Detailing.detail_in`). A pass calls an item only when it is not at
the zoom's detail already (:func:`behind`): most are, a zoom that changes the scale alone below
the threshold resizes the group names and nothing else, and the drive bays in view (half the
items) have nothing to show either way. Zoomed out, once the items are brought, the pass gathers
the links of the tiles in view as curves, for a zoom back in to a working zoom (the first paint
there gathered them: 460 links of the 16x site, 18 ms).
"""

from __future__ import annotations

import time
from typing import Any

from PySide6.QtCore import QRectF, Qt, QTimer

from widgets import slice_budget
from widgets.canvas.items import BoxItem

#: the items out of view are brought to the zoom's detail in slices of about this long
DETAIL_SLICE_S = 0.004
#: ... first those in a rectangle this many times the view's (its width and height) around it:
#: a zoom out two steps further shows them (bringing them then held that zoom's turn 9 ms)
NEAR_FIRST = 2.0
#: how many areas brought to a detail a scene remembers (see Detailing._unbrought)
BROUGHT_KEPT = 16
#: back from far out, the boxes given a figure meanwhile are looked through one by one up to
#: this many (else every item in view is: Qt's query at 0.26 on the 16x site expanded took
#: 5-6 ms of the zoom step's turn, 7.5-12.6 in all with the items looked at)
DUE_LOOKED_AT = 2000
_EVERYWHERE = QRectF(-1e9, -1e9, 2e9, 2e9)
_BY_RECT = Qt.ItemSelectionMode.IntersectsItemBoundingRect
_UNSORTED = Qt.SortOrder(-1)  # (Qt's own value for items in no particular order)


def behind(item: BoxItem, low: bool, scale: float) -> bool:
    """Whether ``item`` is not at the detail ``(low, scale)`` yet: its summary mode, asleep or a
    text still to place, or (a top-level box zoomed out) its name sized for another scale."""
    return item.low != low or item.asleep or item.due or (low and not item.depth and item.summary_scale != scale)


def _around(area: QRectF) -> list[QRectF]:
    """The rectangle ``NEAR_FIRST`` times ``area`` around it, less ``area``, cut into cells a
    quarter of it (Qt's query of them all at once, 9,000 items at 0.26, took 8 ms), the nearest
    last (popped first)."""
    w, h = area.width() / 2, area.height() / 2
    half = round((NEAR_FIRST - 1) / 2 * 2)  # cells out from the view on each side
    cells = []
    for i in range(-half, 2 + half):
        for j in range(-half, 2 + half):
            if not (0 <= i < 2 and 0 <= j < 2):  # (the view's own: brought already)
                d = max(abs(i - 0.5), abs(j - 0.5))
                cells.append((d, QRectF(area.left() + i * w, area.top() + j * h, w, h)))
    cells.sort(key=lambda c: -c[0])
    return [cell for _, cell in cells]


def _minus(pieces: list[QRectF], cut: QRectF) -> list[QRectF]:
    """``pieces`` less ``cut``: each piece it meets split into the bands around it."""
    out = []
    for r in pieces:
        if not r.intersects(cut):
            out.append(r)
            continue
        i = r.intersected(cut)
        if r.top() < i.top():
            out.append(QRectF(r.left(), r.top(), r.width(), i.top() - r.top()))
        if i.bottom() < r.bottom():
            out.append(QRectF(r.left(), i.bottom(), r.width(), r.bottom() - i.bottom()))
        if r.left() < i.left():
            out.append(QRectF(r.left(), i.top(), i.left() - r.left(), i.height()))
        if i.right() < r.right():
            out.append(QRectF(i.right(), i.top(), r.right() - i.right(), i.height()))
    return out


def _tops_in(area: QRectF, layer: Any) -> list[BoxItem] | None:
    """The top-level boxes over ``area``, from the tiles of a view's summary layer; None when
    it holds none or not the scene's items as they are. Each box by its place in the diagram
    (a top-level item stands there; asking each item for its bounds, 5,000 calls into Qt, took
    1.5-2 ms of the first step in from the overview on the 16x site)."""
    if layer is None or not layer.current() or not layer.tiles:
        return None
    left, top_, right, bottom = area.left(), area.top(), area.right(), area.bottom()
    return [
        top
        for tile in layer.tiles.values()
        if tile.bounds.intersects(area)
        for top in tile.tops
        if (b := top.box).x < right and b.x + b.w > left and b.y < bottom and b.y + b.h > top_
    ]


class Detailing:
    """The level-of-detail part of the diagram scene (see the module docstring)."""

    #: items still to bring to ``low_detail`` (in slices), and how far the pass got
    _detail_todo: list[BoxItem] | None = None
    _detail_next = 0
    _detail_listed = True  # the pass's items listed in _detail_todo (see _bring_detail)
    _detail_links = False
    _detail_first: list[BoxItem] = []  # (a pass's own list: see _bring_detail)
    _detail_back: list[BoxItem] = []  # the boxes given a figure while far out (see _due_since)
    _detail_near: list[Any] | None = None  # the views' areas around them, then their items
    _detail_around: list[QRectF] = []  # the views' areas and those around them (see _near_brought)
    _detail_timer: QTimer | None = None
    #: what the passes brought: (the items' summary mode, the scene's generation, areas whose
    #: every item is at that mode, awake, its figure placed); see _unbrought
    _brought: tuple[bool, int, list[QRectF]] | None = None
    _detail_generation = -1  # the scene's generation when the pass began

    def _unbrought(self: Any, area: QRectF, low: bool) -> list[QRectF]:
        """The parts of ``area`` whose items no pass of summary mode ``low`` brought since the
        scene's items last changed (a zoom between two scales of one mode changes no item but
        the groups' names: each step queried the 1,000-3,500 items in view on the 16x site,
        1-7 ms); ``area`` is counted as brought from now on."""
        b = self._brought
        if b is None or b[0] != low or b[1] != self.generation:
            self._brought = b = (low, self.generation, [])
        parts = [area]
        for done in b[2]:
            parts = _minus(parts, done)
            if not parts or len(parts) > 12:
                break
        if parts:  # (else covered already: the areas kept, one of them everything once a pass ended)
            b[2].append(QRectF(area))
            del b[2][:-BROUGHT_KEPT]
        return [area] if len(parts) > 12 else parts

    def _bring_detail(self: Any, views: list[Any], fresh: bool = False, back: bool = False) -> None:
        """Bring the items to ``low_detail``: those ``views`` show now at once, the others in
        slices (all at once when the document works synchronously, as in tests); ``fresh``:
        whatever passes brought before is not taken as brought; ``back`` (from far out): it is,
        if the items are as they were and few boxes were given a figure meanwhile (see
        :meth:`_due_since`; those are brought by :meth:`_bring_back` and the slices)."""
        low, scale = self.low_detail
        due = self._due_since(low) if back else None
        if fresh and due is None:
            self._brought = None
        self._detail_generation = self.generation
        if self.doc.synchronous:
            for item in self.items_by_id.values():
                item.set_low_detail(low, scale)
            self._detail_todo = None
            return
        # (listed when the pass comes to them, in a slice: every item of the 16x site expanded
        # took 0.5-1 ms of the zoom's turn)
        self._detail_todo, self._detail_next, self._detail_listed = [], 0, False
        self._detail_first, self._detail_near, self._detail_around = [], [], []
        self._detail_links = low  # (zoomed out: the links in view gathered first, see _links_near)
        if due:
            self._detail_back = due  # (those in view brought by detail_in, the others first in the slices)
        for view in views:
            area = view.mapToScene(view.viewport().rect()).boundingRect()
            self.detail_in(area, getattr(view, "summary", None))
            cells = _around(area)
            self._detail_near.extend(cells)
            for cell in cells:
                area = area.united(cell)
            self._detail_around.append(area)
        if self._detail_timer is None:
            self._detail_timer = QTimer(self)
            self._detail_timer.setSingleShot(True)
            self._detail_timer.timeout.connect(self._detail_slice)
        self._detail_timer.start(0)

    def _due_since(self: Any, low: bool) -> list[BoxItem] | None:
        """Back from far out: the boxes listed for the idle wake (given a figure while far out,
        see BoxItem.set_figure) that it has not woken yet, if the areas the passes brought
        before still hold (the items have not changed since and are of summary mode ``low``)
        and the boxes are few enough to look through (:data:`DUE_LOOKED_AT`); else None (every
        item in view looked through)."""
        b = self._brought
        if b is None or b[0] != low or b[1] != self.generation or len(self._asleep) > DUE_LOOKED_AT:
            return None
        return list(self._asleep)

    def detail_pending(self: Any) -> bool:
        """Whether some items are still to be brought to the zoom's detail."""
        return self._detail_todo is not None

    def detail_near_pending(self: Any) -> bool:
        """Whether the pass under way has still to bring the items in or around the views (its
        first work, what the next zoom step or scroll shows)."""
        return self._detail_todo is not None and bool(
            self._detail_back or self._detail_first or self._detail_near or self._detail_links
        )

    def detail_in(self: Any, area: QRectF, layer: Any = None) -> None:
        """Bring the items in ``area`` (scene coordinates) to the zoom's detail now, if a pass
        is under way (a view shows them: see DiagramView.scrollContentsBy). A group's name
        sized for another scale is only resized in the pass's first slice: until then it shows
        a little larger or smaller, in its box all the same (sizing the 260 names in view at
        0.26 on the 16x site took 4 ms of a zoom's turn). Only the parts of ``area`` no pass
        brought are looked through; the groups' names over the others are found through
        ``layer``, a view's summary layer (without it, all of ``area`` is looked through)."""
        if self._detail_todo is None or self.far:
            return
        low, scale = self.low_detail
        first = self._detail_first
        parts = self._unbrought(area, low)
        if low and parts != [area]:
            tops = _tops_in(area, layer)
            if tops is None:
                parts = [area]
            else:
                first.extend(top for top in tops if top.summary_scale != scale)
        # (by bounding rectangle and in no order: Qt's default, by shape and sorted, cost 3-13 ms
        # for the 16x site's 1,000-4,500 items in view between the overview and 1:1; a margin
        # of 200 around the view doubled them, and a scroll brings what it uncovers)
        if self._detail_back:
            self._bring_back(area)
        for part in parts:
            for item in self.items(part, _BY_RECT, _UNSORTED):
                if isinstance(item, BoxItem):
                    if item.low != low or item.asleep or item.due:
                        item.set_low_detail(low, scale)
                    elif low and not item.depth and item.summary_scale != scale:
                        first.append(item)

    def _near_brought(self: Any, low: bool) -> None:
        """The areas around the views brought by the pass: counted as brought (see _unbrought;
        the next zoom step out or a scroll there looked through their 1,000-3,000 items on the
        16x site again, 3-7 ms of its turn), if the items have not changed since it began."""
        if self.generation == self._detail_generation:
            for area in self._detail_around:
                self._unbrought(area, low)
        self._detail_around = []

    def _bring_back(self: Any, area: QRectF) -> None:
        """The boxes given a figure while far out that are in ``area`` brought now."""
        low, scale = self.low_detail
        items, rest = self.items_by_id, []
        for item in self._detail_back:
            if items.get(item.cid) is not item:
                continue  # (gone since: an edit's morph deleted it)
            if not item.sceneBoundingRect().intersects(area):
                rest.append(item)
            elif behind(item, low, scale):
                item.set_low_detail(low, scale)
        self._detail_back = rest

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

    def _links_near(self: Any, until: float) -> bool:
        """Zoomed out: the links of the tiles the views show gathered as curves (see
        SummaryLayer.near_ready), until ``until``; True once done."""
        ready = True
        for view in self.views():
            layer = getattr(view, "summary", None)
            if layer is not None and view.scene() is self:
                area = view.mapToScene(view.viewport().rect()).boundingRect()
                ready = layer.near_ready(area, until) and ready
        return ready

    def _stop_detail(self: Any) -> None:
        """Drop the pass under way (zoomed far out: the items are brought on the way back; the
        areas brought are kept for it, see :meth:`_due_since`)."""
        self._detail_todo = None
        if self._detail_timer is not None:
            self._detail_timer.stop()

    def _detail_slice(self: Any) -> None:
        todo = self._detail_todo
        if todo is None:
            return
        until = slice_budget.until(DETAIL_SLICE_S, gives_way=True)
        if until is None:  # (the turn's other slices took its time)
            self._detail_timer.start(1)
            return
        try:
            low, scale = self.low_detail
            items, i, n = self.items_by_id, self._detail_next, len(todo)
            back = self._detail_back  # the boxes given a figure while far out first, then ...
            while back and time.perf_counter() < until:
                item = back.pop()
                if items.get(item.cid) is item and behind(item, low, scale):
                    item.set_low_detail(low, scale)
            first = self._detail_first  # ... the names in view
            while first and time.perf_counter() < until:
                item = first.pop()
                if behind(item, low, scale) and items.get(item.cid) is item:
                    item.set_low_detail(low, scale)
            # then the links in view, for a zoom in (a scroll meanwhile brings the items it uncovers)
            self._detail_links = self._detail_links and (bool(first) or not self._links_near(until))
            near = self._detail_near if not (self._detail_links or first) else None
            while near and time.perf_counter() < until:  # (the areas around the views next)
                item = near.pop()
                if isinstance(item, QRectF):
                    near.extend(self.items(item, _BY_RECT, _UNSORTED))
                elif isinstance(item, BoxItem) and behind(item, low, scale) and items.get(item.cid) is item:
                    item.set_low_detail(low, scale)
            if near is not None and not near and self._detail_around:
                self._near_brought(low)
            if not self._detail_listed and not self._detail_links and not first and not near:
                todo[:], self._detail_listed, n = items.values(), True, len(items)
            while i < n and not self._detail_links and not first and not near:
                item = todo[i]
                i += 1
                if behind(item, low, scale) and items.get(item.cid) is item:  # (not gone since)
                    item.set_low_detail(low, scale)
                if i % 64 == 0 and time.perf_counter() >= until:
                    break
            self._detail_next = i
            done = self._detail_listed and i >= n and not first and not near and not back
        finally:
            slice_budget.ended()
        if not done:
            self._detail_timer.start(0)
            return
        self._detail_todo = None
        self._asleep.clear()  # (every item woken by the pass; the idle work goes on: _wake_slice)
        b = self._brought
        if b is not None and b[0] == low and b[1] == self.generation == self._detail_generation:
            b[2][:] = [_EVERYWHERE]  # (every item brought: a step of this mode looks through none)
