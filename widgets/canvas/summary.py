"""The canvas zoomed out (between the overview's ``FAR_SCALE`` and the view's
``LOW_DETAIL_SCALE``): every box and link drawn by the view in batches (:class:`SummaryLayer`).

In that band a site shows thousands of boxes at once, and a Python ``paint`` per box (or Qt's
stroke of every curved link) costs far more than a frame. The items then draw nothing
(``ItemHasNoContents``; they still take clicks, hover, selection and moves) and the view draws,
under them, a summary of each box (its outline and fill, its load bar, its empty bays, a "+" on a
collapsed group: :func:`widgets.canvas.items.summary_batch`) and each link as short straight
lines in its own pen. The scene is cut into square tiles; a tile gathers its batches the first
time it is drawn and keeps them until one of its boxes or links is restyled (colour, selection,
highlight, a moved end), so a frame costs a few dozen batched C++ calls per tile in view.
"""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QLineF, QRectF
from PySide6.QtGui import QPainter

from widgets.canvas.items import BoxItem, LinkItem, summary_batch

#: the side of a tile in scene units
TILE = 1200.0
#: links are cut into straight lines at most this long (each drawn by the tile its middle lies in)
SEGMENT = 150.0


def _key(x: float, y: float) -> tuple[int, int]:
    return int(x // TILE), int(y // TILE)


class Tile:
    """The top-level boxes and the links that pass through one square of the scene."""

    def __init__(self, layer: SummaryLayer, key: tuple[int, int]) -> None:
        self.layer, self.key = layer, key
        self.tops: list[BoxItem] = []
        self.links: set[LinkItem] = set()
        x, y = key[0] * TILE, key[1] * TILE
        self.cell = QRectF(x, y, TILE, TILE)
        self.bounds = self.cell.adjusted(-SEGMENT, -SEGMENT, SEGMENT, SEGMENT)  # grows with its boxes
        self.boxes: list[tuple] | None = None  # (pen, brush, rectangles or lines) in painting order
        self.lines: list[tuple] | None = None  # (pen, lines)

    def invalidate(self) -> None:
        """Gather the batches again at the next paint (and repaint the tile)."""
        if self.boxes is not None or self.lines is not None:
            self.boxes = self.lines = None
            scene = self.layer.scene
            if scene is not None:
                scene.update(self.bounds)

    def gather(self) -> None:
        ops: dict[tuple, tuple[Any, Any, list]] = {}
        for top in self.tops:
            summary_batch(top, ops)
            self.bounds = self.bounds.united(top.sceneBoundingRect().adjusted(-2, -2, 2, 2))
        self.boxes = [ops[k] for k in sorted(ops)]
        pens: dict[tuple, tuple[Any, list[QLineF]]] = {}
        for li in self.links:
            pen = li.pen()
            key = (pen.color().rgba(), pen.widthF(), pen.isCosmetic(), int(pen.style().value))
            mine = segments(li).get(self.key)
            if mine:
                pens.setdefault(key, (pen, []))[1].extend(mine)
        self.lines = list(pens.values())


def segments(li: LinkItem) -> dict[tuple[int, int], list[QLineF]]:
    """The link's path (one cubic curve) as straight lines no longer than :data:`SEGMENT`, at
    least eight, by the tile their middle lies in (kept until the link moves)."""
    if li.segments is None:
        out: dict[tuple[int, int], list[QLineF]] = {}
        path = li.path()
        if path.elementCount() == 4:
            (x0, y0), (x1, y1), (x2, y2), (x3, y3) = ((e.x, e.y) for e in map(path.elementAt, range(4)))
            n = max(8, math.ceil(math.hypot(x3 - x0, y3 - y0) / SEGMENT))
            pts = []
            for i in range(n + 1):
                t = i / n
                u = 1 - t
                a, b, c, d = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
                pts.append((a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3))
            for (ax, ay), (bx, by) in zip(pts, pts[1:]):
                out.setdefault(_key((ax + bx) / 2, (ay + by) / 2), []).append(QLineF(ax, ay, bx, by))
        li.segments = out
    return li.segments


class SummaryLayer:
    """The tiles of one scene; the view paints them (:meth:`paint`) under the items while zoomed
    out. It follows the scene's items: a rebuilt scene (new items) is cut into tiles again."""

    def __init__(self, scene: Any) -> None:
        self.scene = scene
        self.tiles: dict[tuple[int, int], Tile] = {}
        self._sample: BoxItem | None = None  # one item of the scene cut into tiles
        self._count = -1

    def _current(self) -> bool:
        items = self.scene.items_by_id
        s = self._sample
        return len(items) == self._count and (s is None or items.get(s.cid) is s)

    def _tile(self, key: tuple[int, int]) -> Tile:
        tile = self.tiles.get(key)
        if tile is None:
            tile = self.tiles[key] = Tile(self, key)
        return tile

    def build(self) -> None:
        """Cut the scene into tiles: each top-level box goes to the tile of its top-left corner,
        each link to every tile its bounding rectangle touches."""
        for tile in self.tiles.values():
            for top in tile.tops:
                top.tile = None
        self.tiles = {}
        items = self.scene.items_by_id
        self._count, self._sample = len(items), next(iter(items.values()), None)
        for item in items.values():
            if item.parentItem() is None:
                tile = self._tile(_key(item.x(), item.y()))
                tile.tops.append(item)
                tile.bounds = tile.bounds.united(item.sceneBoundingRect().adjusted(-2, -2, 2, 2))
                item.tile = tile
        for li in self.scene.links:
            li.layer = self
            self._register(li)

    def _register(self, li: LinkItem) -> None:
        r = li.sceneBoundingRect()
        (x0, y0), (x1, y1) = _key(r.left(), r.top()), _key(r.right(), r.bottom())
        for kx in range(x0, x1 + 1):
            for ky in range(y0, y1 + 1):
                self._tile((kx, ky)).links.add(li)

    def relink(self, li: LinkItem) -> None:
        """A link's path changed (an end moved): it goes to the tiles its new path touches."""
        for tile in self.tiles.values():
            if li in tile.links:
                tile.links.discard(li)
                tile.invalidate()
        self._register(li)
        self.restyled(li)

    def restyled(self, li: LinkItem) -> None:
        """A link's colour or width changed: the tiles it passes through gather again."""
        r = li.sceneBoundingRect()
        (x0, y0), (x1, y1) = _key(r.left(), r.top()), _key(r.right(), r.bottom())
        for kx in range(x0, x1 + 1):
            for ky in range(y0, y1 + 1):
                tile = self.tiles.get((kx, ky))
                if tile is not None:
                    tile.invalidate()

    def paint(self, painter: QPainter, exposed: QRectF) -> int:
        """Draw the tiles that meet ``exposed`` (scene coordinates): every link first, then every
        box. Returns how many tiles were drawn."""
        if not self._current():
            self.build()
        shown = [t for t in self.tiles.values() if t.bounds.intersects(exposed)]
        for t in shown:
            if t.boxes is None or t.lines is None:
                t.gather()
        shown = [t for t in shown if t.bounds.intersects(exposed)]
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        for t in shown:
            for pen, lines in t.lines or ():
                painter.setPen(pen)
                painter.drawLines(lines)
        for t in shown:
            for pen, brush, shapes in t.boxes or ():
                painter.setPen(pen)
                painter.setBrush(brush)
                if isinstance(shapes[0], QLineF):
                    painter.drawLines(shapes)
                else:
                    painter.drawRects(shapes)
        painter.restore()
        return len(shown)
