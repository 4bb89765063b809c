"""The canvas zoomed far out: the whole diagram as one item (:class:`OverviewItem`).

Below :data:`FAR_SCALE` a row of text is a pixel high and no box can be read or hit, yet a site
has tens of thousands of boxes whose Python ``paint`` would run on every frame of a zoom. The
scene then hides its boxes and links and shows this one item instead: every box a filled
rectangle (in its utilization band's colour where it carries load, else its kind's fill), every
link a straight line in its colour, the top-level groups' names where they are large enough to
read. It is drawn in a few dozen batched C++ calls (one ``drawRects`` per depth and colour, one
``drawLines`` per colour), so a frame costs the same few Python calls however large the design.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Iterable, Iterator
from typing import Any

from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene, QStyleOptionGraphicsItem

from widgets.canvas.items import font, metrics, util_color

#: below this zoom the scene shows the overview instead of its items
FAR_SCALE = 0.12
#: the largest pixmap (in pixels) the overview's batches are drawn into once (see OverviewItem._picture)
PICTURE_PIXELS = 8_000_000
_EDGE = QColor(110, 120, 140, 110)
#: how many boxes or links a gathering handles between two looks at the clock
_PAUSE_EVERY = 64


class OverviewItem(QGraphicsItem):
    """Summary boxes of a whole scene (see the module docstring). The scene calls
    :meth:`invalidate` when its items' colours, highlight or geometry change; the batches are
    gathered again at the next paint."""

    def __init__(self, scene: Any) -> None:
        super().__init__()
        self._scene = weakref.ref(scene)  # the diagram scene (which holds this item's scene)
        self.setZValue(-2)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._bounds = QRectF(scene.sceneRect())
        self._fills: list[tuple[QColor, list[QRectF]]] | None = None
        self._lines: list[tuple[QPen, list[QLineF]]] = []
        self._names: list[tuple[QRectF, str]] = []
        # what _gather keeps between gatherings: each box's and link's batch, so an invalidation
        # of a few boxes regathers only them
        self._all = True  # everything is gathered again at the next paint
        self._stale_boxes: set[str] = set()
        self._stale_links: set[int] = set()
        self._rects: dict[str, tuple[int, int]] = {}  # box id -> its batch key (depth, colour)
        self._fill_batches: dict[tuple[int, int], dict[str, QRectF]] = {}
        self._colours: dict[tuple[int, int], QColor] = {}
        self._box_names: dict[str, tuple[QRectF, str]] = {}
        self._segments: dict[int, tuple[int, int]] = {}  # link index -> its batch key (colour, width)
        self._line_batches: dict[tuple[int, int], dict[int, QLineF]] = {}
        self._pens: dict[tuple[int, int], QPen] = {}

    def boundingRect(self) -> QRectF:
        return self._bounds

    def set_bounds(self, rect: QRectF, boxes: Iterable[str] | None = None, links: Iterable[int] | None = None) -> None:
        """The scene's new bounds; gather again what :meth:`invalidate` is given."""
        if rect != self._bounds:
            self.prepareGeometryChange()
            self._bounds = QRectF(rect)
        self.invalidate(boxes, links)

    def invalidate(self, boxes: Iterable[str] | None = None, links: Iterable[int] | None = None) -> None:
        """Gather again at the next paint: the rectangles of ``boxes`` (ids) and the lines of
        ``links`` (indices in the scene's links) that changed, or everything (both None). An edit repaints a few
        boxes, so the overview of a site is not walked again for them."""
        if boxes is None and links is None:
            self._all = True
        else:
            self._stale_boxes.update(boxes or ())
            self._stale_links.update(links or ())
            if not self._stale_boxes and not self._stale_links and self._fills is not None:
                return
        self._fills = None
        self.update()

    def preparing(self, scales: Iterable[float] = ()) -> Iterator[None]:
        """Make what the next paint would, pausing (yielding) every few boxes and links: the
        batches gathered (the 16x site's storage column moved took 10-40 ms in one paint), the
        picture drawn for each of ``scales`` (the views' zooms). The scene runs it while the
        views are held."""
        if self._fills is None:
            yield from self._gathering()
        for scale in scales:
            yield
            if self._fills is not None:
                self._picture(scale)

    def _gather(self) -> None:
        for _ in self._gathering():
            pass

    def _gathering(self) -> Iterator[None]:
        """The rectangles per (depth, colour), the lines per colour, the groups' names: each box
        and link is kept in its batch, and only those invalidated are looked at again (taken
        one by one from what is stale, so a paint meanwhile gathers the rest)."""
        scene = self._scene()
        if scene is None:
            return
        if self._all:
            self._all = False
            self._rects, self._fill_batches, self._box_names = {}, {}, {}
            self._segments, self._line_batches = {}, {}
            self._stale_boxes, self._stale_links = set(scene.items_by_id), set(range(len(scene.links)))
        boxes, links = self._stale_boxes, self._stale_links
        n = 0
        while boxes or links:
            if boxes:
                self._gather_box(scene, boxes.pop())
            else:
                self._gather_link(scene, links.pop())
            n += 1
            if n % _PAUSE_EVERY == 0:
                yield
        if self._all or boxes or links:
            return  # invalidated meanwhile: gathered at the next paint
        self._fills = [(self._colours[k], list(self._fill_batches[k].values())) for k in sorted(self._fill_batches)]
        self._lines = [(self._pens[k], list(batch.values())) for k, batch in self._line_batches.items()]
        self._names = list(self._box_names.values())

    def _gather_box(self, scene: Any, cid: str) -> None:
        _drop(self._fill_batches, self._rects.pop(cid, None), cid)
        item = scene.items_by_id.get(cid)
        if item is None:
            self._box_names.pop(cid, None)
            return
        box = item.box
        rect = QRectF(box.x, box.y, box.w, box.h)
        depth = item.depth
        colour = util_color(item.util) if item.util is not None else item._fill
        if item.isSelected() or item.highlighted:
            colour = QColor(255, 140, 0)
        key = (depth, colour.rgba())
        if key not in self._colours:
            self._colours[key] = QColor(colour)  # a copy: the overview keeps nothing of an item
        self._fill_batches.setdefault(key, {})[cid] = rect
        self._rects[cid] = key
        if depth == 0 and item.collapsible:
            self._box_names[cid] = (rect, box.label.split("\n")[0])
        else:
            self._box_names.pop(cid, None)

    def _gather_link(self, scene: Any, i: int) -> None:
        """The line of the scene's link ``i`` (kept by index: the overview holds no items, which
        die with their scene), from the ends of its curve and its colour, which the link keeps
        (no Qt call for a link whose batch exists: 1,800 links moved by an edit on the 16x site
        took 25 ms with a pen made and a path read for each)."""
        _drop(self._line_batches, self._segments.pop(i, None), i)
        if i >= len(scene.links):
            return
        li = scene.links[i]
        key = (li.rgba, 2 if li.highlighted else 1)
        if key not in self._pens:
            pen = QPen(QColor.fromRgba(li.rgba), key[1])
            pen.setCosmetic(True)
            self._pens[key] = pen
        batch = self._line_batches.get(key)
        if batch is None:
            batch = self._line_batches[key] = {}
        batch[i] = QLineF(*li.ends)
        self._segments[i] = key

    #: the batches drawn once into a pixmap: (fills drawn, bounds, scale, pixmap); see _picture
    _cached: tuple | None = None

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: Any = None) -> None:
        if self._fills is None:
            self._gather()
        if self._fills is None:
            return
        scale = option.levelOfDetailFromTransform(painter.worldTransform())
        picture = self._picture(scale)
        if picture is not None:  # a zoom or pan step redraws one pixmap, not every box
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
            painter.drawPixmap(self._bounds, picture, QRectF(picture.rect()))
        else:
            self._paint_batches(painter, scale)
        self._paint_names(painter, scale)

    def _picture(self, scale: float) -> QPixmap | None:
        """The batches drawn at the zoom step just above ``scale`` (steps of a fifth of an octave,
        so a zoom redraws them every few steps), kept until they are gathered again; None when
        the pixmap would be too large (then they are drawn directly)."""
        step = 2 ** (math.ceil(math.log2(max(scale, 1e-4)) * 5) / 5)
        w, h = math.ceil(self._bounds.width() * step), math.ceil(self._bounds.height() * step)
        if w * h > PICTURE_PIXELS or w < 1 or h < 1:
            return None
        cached = self._cached
        if cached is not None and cached[0] is self._fills and cached[1] == self._bounds and cached[2] == step:
            return cached[3]
        picture = QPixmap(w, h)
        picture.fill(Qt.GlobalColor.transparent)
        p = QPainter(picture)
        p.scale(step, step)
        p.translate(-self._bounds.x(), -self._bounds.y())
        self._paint_batches(p, step)
        p.end()
        self._cached = (self._fills, QRectF(self._bounds), step, picture)
        return picture

    def _paint_batches(self, painter: QPainter, scale: float) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        for pen, lines in self._lines:
            painter.setPen(pen)
            painter.drawLines(lines)
        painter.setPen(QPen(_EDGE, 0) if scale >= 0.03 else Qt.PenStyle.NoPen)  # edges once they are apart
        for colour, rects in self._fills or ():
            painter.setBrush(colour)
            painter.drawRects(rects)

    def _paint_names(self, painter: QPainter, scale: float) -> None:
        """The groups' names, about 9 pixels high, where the box is wide enough on screen."""
        size = 9.0 / max(scale, 1e-4)
        f = font(round(size, 1), True)
        fm = metrics(f)
        painter.setFont(f)
        painter.setPen(QColor(30, 30, 30))
        exposed = painter.clipBoundingRect() if painter.hasClipping() else self._bounds
        for rect, name in self._names:
            if rect.width() * scale < 40 or not rect.intersects(exposed):
                continue
            text = fm.elidedText(name, Qt.TextElideMode.ElideRight, rect.width() - 4 / scale)
            if len(text) >= 4:
                painter.drawText(rect.adjusted(2 / scale, 1 / scale, 0, 0), Qt.AlignmentFlag.AlignLeft, text)


def _drop(batches: dict, key: Any, member: Any) -> None:
    """Take ``member`` out of the batch ``key`` (None: it is in none); an empty batch goes."""
    if key is None:
        return
    batch = batches[key]
    del batch[member]
    if not batch:
        del batches[key]


def overview_scene(scene: Any) -> QGraphicsScene:
    """The scene the view shows while zoomed far out: the overview of ``scene`` alone, so a frame
    never looks through the tens of thousands of items indexed in ``scene`` itself."""
    if scene.overview is None:
        scene.overview = OverviewItem(scene)
        scene.overview_scene = QGraphicsScene()  # no Qt parent: it lives and dies with ``scene``
        scene.overview_scene.setBackgroundBrush(scene.backgroundBrush())
        scene.overview_scene.addItem(scene.overview)
    scene.overview_scene.setSceneRect(scene.sceneRect())
    scene.overview.set_bounds(scene.sceneRect())
    return scene.overview_scene
