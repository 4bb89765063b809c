"""What the view draws under the items (:class:`SummaryLayer`): the links at every zoom, and
zoomed out (between the overview's ``FAR_SCALE`` and the view's ``LOW_DETAIL_SCALE``) every box.

Links never draw themselves (``ItemHasNoContents``): the layer strokes the links in view in one
loop, their own curves in their own pens, into the view's cached background (``CacheBackground``),
so a pan strokes only the strips it uncovers and a restyle only its tiles; a zoom draws it anew.
Zoomed out a site shows thousands of boxes at once, and a Python ``paint`` per box costs far
more than a frame; the boxes then draw nothing either (they still take clicks, hover, selection
and moves) and the layer draws a summary of each box (its outline and fill, its load bar, its
empty bays, a "+" on a collapsed group: :func:`widgets.canvas.items.summary_batch`) and each link
as short straight lines. The scene is cut into square tiles; a tile gathers its batches the first
time it is drawn zoomed out and keeps them until one of its boxes or links is restyled (colour,
selection, highlight, a moved end), so a frame costs a few dozen batched C++ calls per tile.
"""

from __future__ import annotations

import time
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np
from pyqtgraph.functions import create_qpolygonf, ndarray_from_qpolygonf
from PySide6.QtCore import QRectF, Qt, QTimer
from PySide6.QtGui import QPainter, QPen, QPolygonF, QTransform
from PySide6.QtWidgets import QGraphicsScene
from shiboken6 import isValid

from widgets import giveway, slice_budget
from widgets.canvas.curves import basis_array, clip_line, cubic, pieces
from widgets.canvas.flat import draw_flat, flat_shapes
from widgets.canvas.items import BoxItem, LinkItem, summary_batch

#: the side of a tile in scene units
TILE = 1200.0
#: the margin of a tile for the pens that stroke its outermost lines
MARGIN = 8.0
#: at a working zoom a link is drawn as a polyline of pieces about this long (scene units; at
#: the view's 8x zoom limit a piece of the gentlest bend strays well under a pixel from the curve)
FINE_PIECE = 12.0
#: how many items or links the layer's preparations handle between two looks at the clock
_PAUSE_EVERY = 16
#: ... and how many top boxes a tile's summaries are gathered between pauses (a subsystem
#: expanded holds 50 boxes)
_TOPS_EVERY = 4
#: how many links a layer following a morph moves between two pauses
_FOLLOW_EVERY = 64
#: after the tiles are cut, their links are gathered between events in slices this long
WARM_SLICE_S = 0.004
#: ... and wait this long (ms) while the scene changes its items in slices
WARM_WAIT_MS = 20
#: ... or, for this long at most (s), while the analysis of an edit is still to be painted
WARM_DEFER_S = 1.0


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
        self.bounds = self.cell.adjusted(-MARGIN, -MARGIN, MARGIN, MARGIN)  # grows with its boxes
        self.boxes: list[tuple] | None = None  # (pen, brush, rectangles or lines) in painting order
        self.lines: list[tuple] | None = None  # (pen, lines)
        self._links: list[tuple] | None = None  # see link_bounds
        self.dirty = True  # changed since it was drawn last (a repaint of it is due)
        #: the batches last gathered (boxes, lines), drawn while those of a change are not
        #: gathered yet (see SummaryLayer.paint); None once they are
        self.former: tuple[list[tuple], list[tuple]] | None = None
        self.epoch = 0  # counts its invalidations (see gathering_links)
        self.box_epoch = 0  # ... and those of its boxes alone (see gathering)

    def _keep_former(self) -> None:
        if self.boxes is not None and self.lines is not None:
            self.former = (self.boxes, self.lines)

    def invalidate(self) -> None:
        """Gather the batches again at the next paint, and have the views draw the tile again."""
        self._keep_former()
        self.boxes = self.lines = self._links = None
        self.epoch += 1
        self.layer.version += 1
        if not self.dirty:
            self.dirty = True
            self.layer.scene.invalidate(self.bounds, QGraphicsScene.SceneLayer.BackgroundLayer)

    def invalidate_boxes(self) -> None:
        """A box of the tile is drawn differently: its summaries are gathered again, the links
        kept (a box's colour changes none of them: an analysis that recoloured the boxes in
        view had every link over them gathered again in the next paint, 60-80 ms on the 16x
        site); the views draw the tile again where the layer draws the boxes (zoomed out)."""
        self._keep_former()
        self.boxes = None
        self.box_epoch += 1
        if self.layer.scene.low_detail[0] and not self.dirty:
            self.dirty = True
            self.layer.scene.invalidate(self.bounds, QGraphicsScene.SceneLayer.BackgroundLayer)

    def link_bounds(self) -> list[tuple]:
        """(link, pen, thin, path (a dotted one's), left, top, right, bottom, solid, whole) of the links through
        the tile: ``thin``, the pen while the user zooms (see ``_paint_links``); the rectangle of what the link draws over the tile (its curve's points there; the
        whole link's for a dotted one) and ``whole``, the link's own (left, top, right, bottom).
        A cable's rectangle is a diagonal across many tiles; its curve crosses few of them."""
        if self._links is None:
            for _ in self.gathering_links():
                pass
        assert self._links is not None
        return self._links

    def gathering_links(self) -> Iterator[None]:
        """Gather :meth:`link_bounds`, pausing (yielding) every few links; what is gathered is
        dropped if the tile is invalidated meanwhile."""
        if self._links is not None:
            return
        epoch, out, cell = self.epoch, [], self.cell
        for n, li in enumerate(list(self.links)):
            whole = li.extent()  # (left, top, right, bottom): the link's item sits at the scene's origin
            pen, solid = li.pen(), li.solid  # (kept by the link: asking the pen cost 5 us a link)
            near = _near(li, self.key, cell) if solid else whole
            if near is not None:
                thin = li.thin
                if thin is None:
                    thin = li.thin = pen if pen.isCosmetic() else _hairline(pen)
                out.append((li, pen, thin, None if solid else li.path(), *near, solid, whole))
            if n % _PAUSE_EVERY == _PAUSE_EVERY - 1:
                yield
        if epoch == self.epoch:
            self._links = out

    def gather(self) -> None:
        """Gather the batches (zoomed out: the boxes' summaries, the links as lines) at once."""
        for _ in self.gathering():
            pass

    def gathering(self) -> Iterator[None]:
        """Gather the batches, pausing (yielding) every few boxes and links; what is gathered is
        dropped if the tile or its boxes are invalidated meanwhile. The views' preparation runs
        it in its slices (one tile of the benchmark zoomed out, gathered in one go when a drawer
        was folded, held the event loop 19-23 ms)."""
        epoch, box_epoch, bounds = self.epoch, self.box_epoch, self.bounds
        ops: dict[tuple, tuple[Any, Any, list]] = {}
        for n, top in enumerate(list(self.tops)):
            summary_batch(top, ops)
            bounds = bounds.united(top.sceneBoundingRect().adjusted(-2, -2, 2, 2))
            if n % _TOPS_EVERY == _TOPS_EVERY - 1:
                yield
        pens: dict[tuple, tuple[Any, list[tuple[float, float, float, float]]]] = {}
        for n, li in enumerate(sorted(self.links, key=_order)):  # (the pens in the order of the scene's links)
            pen = li.pen()
            key = (pen.color().rgba(), pen.widthF(), pen.isCosmetic(), int(pen.style().value))
            mine = segments(li).get(self.key)
            if mine:
                pens.setdefault(key, (pen, []))[1].extend(mine)
            if n % _PAUSE_EVERY == _PAUSE_EVERY - 1:
                yield
        if (epoch, box_epoch) == (self.epoch, self.box_epoch):
            self.bounds = self.bounds.united(bounds)  # (a box placed meanwhile grew it too)
            # (as C arrays of doubles: no Qt object a shape, see summary_batch)
            self.boxes = [(pen, brush, flat_shapes(shapes)) for pen, brush, shapes in (ops[k] for k in sorted(ops))]
            self.lines = [(pen, flat_shapes(segs)) for pen, segs in pens.values()]
            if self.former is not None:  # (drawn from them meanwhile: drawn again)
                self.former = None
                self.layer.scene.invalidate(self.bounds, QGraphicsScene.SceneLayer.BackgroundLayer)


def _order(li: LinkItem) -> int:
    return li.order


def _tile_key(tile: Tile) -> tuple[int, int]:
    return tile.key


def polyline(li: LinkItem) -> tuple | None:
    """The link's curve as a fine polyline (kept until the link moves): its points (numpy;
    building QPointF one by one cost 0.75 ms a link, most of a first pan over a site), their x (None unless they run left to right) and its y made ascending (with the sign
    that does it), so the pieces over a strip are found by bisection; the longest piece's
    length; and whether that y does rise throughout (then :func:`_curve_near` bisects too)."""
    if li.polyline is None:  # (27 us a link with three numpy diffs; the pieces are taken once)
        controls = li.controls()
        cx, cy = [p[0] for p in controls], [p[1] for p in controls]
        span = (max(cx) - min(cx)) + (max(cy) - min(cy))
        n = max(8, min(400, int(span / FINE_PIECE) // 8 * 8))  # few distinct n
        pts = basis_array(n) @ np.array(controls)
        step = pts[1:] - pts[:-1]
        dx, dy = step[:, 0], step[:, 1]
        sign = 1.0 if pts[-1, 1] >= pts[0, 1] else -1.0
        ascending = bool((dx >= 0).all())
        # (a cubic between two levels rises throughout; checked, as rounding might not)
        rising = bool((dy >= 0).all() if sign > 0 else (dy <= 0).all())
        reach = float(np.hypot(dx, dy).max())  # the longest piece
        ys = sign * pts[:, 1]
        li.polyline = (pts, pts[:, 0].tolist() if ascending else None, ys.tolist(), sign, reach, rising)
    return li.polyline or None


NO_POLYGON = QPolygonF()  # nothing of the link over the part
_HAIRLINES: dict[tuple[int, int], QPen] = {}  # (colour, style) -> a cosmetic pen one pixel wide


def _hairline(pen: QPen) -> QPen:
    """A one-pixel cosmetic pen of ``pen``'s colour and style (see ``_paint_links``)."""
    key = (pen.color().rgba(), int(pen.style().value))
    thin = _HAIRLINES.get(key)
    if thin is None:
        thin = _HAIRLINES[key] = QPen(pen)
        thin.setWidthF(0)
        thin.setCosmetic(True)
    return thin


def _near(li: LinkItem, key: tuple[int, int], cell: QRectF) -> tuple | None:
    """The rectangle of the link's curve over ``cell``, the square of tile ``key`` (left, top,
    right, bottom), widened by its pen; None: the curve does not pass over it. Kept with the
    link until it moves (a recoloured link's tiles gather again)."""
    cache = li.near
    if cache is None:
        cache = li.near = {}
    if key not in cache:
        cache[key] = _curve_near(li, cell)
    return cache[key]


def _curve_near(li: LinkItem, cell: QRectF) -> tuple | None:
    """See :func:`_near`. Every piece that crosses the cell has both ends within one piece's
    length of it, so the points that near hold all it draws there."""
    line = polyline(li)
    if line is None:
        return li.extent()
    pts, xs, ys, sign, reach, rising = line
    reach += MARGIN
    left, top, right, bottom = cell.left() - reach, cell.top() - reach, cell.right() + reach, cell.bottom() + reach
    if xs is not None and rising:  # the points near run from lo to hi (both found by bisection)
        y0, y1 = (top, bottom) if sign > 0 else (-bottom, -top)
        lo, hi = max(bisect_left(xs, left), bisect_left(ys, y0)), min(bisect_right(xs, right), bisect_right(ys, y1))
        if hi <= lo:
            return None
        ya, yb = sign * ys[lo], sign * ys[hi - 1]
        return xs[lo] - MARGIN, min(ya, yb) - MARGIN, xs[hi - 1] + MARGIN, max(ya, yb) + MARGIN
    x, y = pts[:, 0], pts[:, 1]  # (20-30 us a link and tile: a first pan over a site met 76,000)
    near = (x >= left) & (x <= right)
    near &= (y >= top) & (y <= bottom)
    if not near.any():
        return None
    sel = pts[near]
    (x0, y0), (x1, y1) = sel.min(axis=0), sel.max(axis=0)
    return float(x0) - MARGIN, float(y0) - MARGIN, float(x1) + MARGIN, float(y1) + MARGIN


def _visible_pieces(li: LinkItem, left: float, top: float, right: float, bottom: float) -> Any:
    """The link's polyline from two points before to two past the rectangle (the pen's cap and
    join at a cut end stay outside it; None: draw its path whole)."""
    line = polyline(li)
    if line is None:
        return None
    pts, xs, ys, sign = line[:4]
    lo, hi = 0, len(pts) - 1
    if xs is not None:
        lo, hi = max(lo, bisect_left(xs, left) - 2), min(hi, bisect_right(xs, right) + 1)
    y0, y1 = (top, bottom) if sign > 0 else (-bottom, -top)
    lo, hi = max(lo, bisect_left(ys, y0) - 2), min(hi, bisect_right(ys, y1) + 1)
    return _polygon(pts[lo : hi + 1]) if hi > lo else NO_POLYGON


def _polygon(pts: np.ndarray) -> Any:
    """A QPolygonF of the points (filled through numpy, not point by point)."""
    poly = create_qpolygonf(len(pts))
    ndarray_from_qpolygonf(poly)[:] = pts
    return poly


def segments(li: LinkItem) -> dict[tuple[int, int], list[tuple[float, float, float, float]]]:
    """The link's path (one cubic curve) as straight lines (:func:`pieces`), even steps of the
    curve's parameter (short in its bends, long where it runs straight), each cut at the tiles'
    edges into the part over each tile (kept until the link moves). Each pixel of a line is then
    drawn by one tile: a piece drawn whole by every tile it crossed was drawn twice where two of
    them were drawn (a translucent pen darker there) and once where a restyle exposed one."""
    if li.segments is None:
        out: dict[tuple[int, int], list[tuple[float, float, float, float]]] = {}
        controls = li.controls()
        pts = cubic(controls, pieces(controls))  # (its QPainterPath is made for a dotted pen only)
        for (ax, ay), (bx, by) in zip(pts, pts[1:]):
            (kx0, ky0), (kx1, ky1) = _key(min(ax, bx), min(ay, by)), _key(max(ax, bx), max(ay, by))
            if (kx0, ky0) == (kx1, ky1):
                out.setdefault((kx0, ky0), []).append((ax, ay, bx, by))
                continue
            for kx in range(kx0, kx1 + 1):
                for ky in range(ky0, ky1 + 1):
                    part = clip_line(ax, ay, bx, by, kx * TILE, ky * TILE, (kx + 1) * TILE, (ky + 1) * TILE)
                    if part is not None:
                        out.setdefault((kx, ky), []).append(part)
        li.segments = out
    return li.segments


def clip_parts(painter: QPainter) -> list[QRectF]:
    """The rectangles, in device pixels, of the painter's clip when it is a region of several
    (what a view draws again: the strips a pan uncovers, the tiles restyled); none for a clip
    of one rectangle or none. Qt's raster engine draws a translucent line or fill through such
    a region a shade off what it draws through a rectangle (1,179 of 10,000 pixels in a probe),
    so a part drawn again would not match what was drawn around it; and a pan's strips are
    far cheaper to stroke through one at a time."""
    if not painter.hasClipping():
        return []
    world = painter.worldTransform()
    painter.setWorldTransform(QTransform())  # (the region in device pixels, exactly)
    region = painter.clipRegion()
    painter.setWorldTransform(world)
    if region.rectCount() < 2:
        return []
    return [QRectF(r) for r in region]


def clip_to(painter: QPainter, device: QRectF) -> QRectF:
    """Make ``device`` (exactly, in device pixels: an antialiased line drawn a pixel beyond the
    part to draw would darken what the view keeps) the painter's plain clip; returns it in
    scene coordinates."""
    world = painter.worldTransform()
    painter.setWorldTransform(QTransform())
    painter.setClipRect(device, Qt.ClipOperation.ReplaceClip)
    painter.setWorldTransform(world)
    return world.inverted()[0].mapRect(device)


class SummaryLayer:
    """The tiles of one scene; the view paints them (:meth:`paint`) under the items while zoomed
    out. It follows the scene's items: a rebuilt scene (new items) is cut into tiles again."""

    def __init__(self, scene: Any) -> None:
        self.scene = scene
        self.tiles: dict[tuple[int, int], Tile] = {}
        self._tops_at: dict[str, Tile] = {}  # a top-level box's id -> its tile
        self._generation = -1  # the scene's items cut into tiles (see DiagramScene.generation)
        self.rough = False  # links without antialiasing (the view sets it while the user zooms)
        self.version = 0  # counts the changes to what the links look like (see Backdrop)
        #: the preparation while the view shows the overview: [(scene generation, the tiles' dict), its steps]
        self._far: list | None = None
        self._near: list | None = None  # see near_ready
        self._regathering: Iterator[None] | None = None  # see _gather_for_paint

    def current(self) -> bool:
        """Whether the tiles hold the scene's items (none made, moved or removed since they were cut)."""
        return self._generation == self.scene.generation

    def _tile(self, key: tuple[int, int]) -> Tile:
        tile = self.tiles.get(key)
        if tile is None:
            tile = self.tiles[key] = Tile(self, key)
        return tile

    def build(self) -> None:
        """Cut the scene into tiles: each top-level box goes to the tile of its top-left corner,
        each link to every tile its bounding rectangle touches."""
        for _ in self._cutting():
            pass
        self._warm(self._generation, list(self.tiles.values()))

    def _cutting(self) -> Iterator[None]:
        """:meth:`build`, pausing (yielding) every few items; the layer is current once done,
        unless another cut began meanwhile (a paint's, or another preparation's: the layer is
        cut by several, in slices): this one then stops where it paused, as the new one cuts
        every item (resumed, it put the items it had left into the new tiles a second time)."""
        for tile in self.tiles.values():
            for top in tile.tops:
                top.tile = None
        self._bury(self.tiles.values())
        tiles = self.tiles = {}
        self._tops_at = {}
        self.version += 1
        self._generation = -1  # (a paint meanwhile cuts the tiles itself)
        generation, scene = self.scene.generation, self.scene
        for n, item in enumerate(list(scene.items_by_id.values())):
            if item.parentItem() is None:
                tile = self._tile(_key(item.x(), item.y()))
                self._place(item, tile)
            if n % _PAUSE_EVERY == _PAUSE_EVERY - 1:
                yield
                if self.tiles is not tiles:
                    return
        for i, li in enumerate(scene.links):
            li.layer, li.order = self, i
            self._register(li)
            if i % _PAUSE_EVERY == _PAUSE_EVERY - 1:
                yield
                if self.tiles is not tiles:
                    return
        self._generation = generation

    def _bury(self, tiles: Iterable[Tile]) -> None:
        """Have the scene free ``tiles`` a little at a time (widgets.canvas.grave): the links
        they hold, each with its pieces over the tiles, and their batches. The 16x site's
        tiles, every one gathered, took 210-260 ms to free at once when a scenario was shown."""
        grave = getattr(self.scene, "_grave", None)
        if grave is None:
            return
        for tile in tiles:
            grave.bury(tile._links, tile.boxes, tile.lines, *(tile.former or ()))
            grave.bury(*([li] for li in tile.links))  # (one by one: 64 links freed took 30-40 ms)
            tile.links, tile._links, tile.boxes, tile.lines, tile.former = set(), None, None, None, None

    def far_ready(self, until: float) -> bool:
        """While the view shows the overview (the scene's items change unseen by the layer):
        cut the tiles and gather every tile's batches, until ``until``; True once all is ready.
        Zoomed in again, the view's first paint then draws (the 16x site expanded: cutting and
        gathering the tiles in view in that paint took 180-190 ms). Begun again when the scene's
        items changed meanwhile, or the tiles were cut by another."""
        key = (self.scene.generation, id(self.tiles))  # (a tile restyled meanwhile: gathered again by its step)
        if self._far is None or self._far[0] != key:
            self._far = [key, self._preparing_far()]
        steps = self._far[1]
        for _ in steps:
            if time.perf_counter() >= until:
                self._far[0] = (self.scene.generation, id(self.tiles))
                return False
        self._far = None
        return True

    def near_ready(self, exposed: QRectF, until: float) -> bool:
        """Zoomed out (the layer draws summary boxes and links as lines): the links of the tiles
        over ``exposed`` gathered as the curves a working zoom draws (:meth:`link_bounds`), until
        ``until``; True once ready. A zoom in across the view's threshold then only draws (its
        first paint gathered them: on the 16x site 460 links, 18 ms). Carried on where it
        stopped: one tile's links can take longer than a slice."""
        key = (self.scene.generation, id(self.tiles), exposed.getRect())
        if self._near is None or self._near[0] != key:
            self._near = [key, self.preparing(exposed)]
        for _ in self._near[1]:
            if time.perf_counter() >= until:
                self._near[0] = (self.scene.generation, id(self.tiles), exposed.getRect())
                return False
        self._near = None
        return True

    def _preparing_far(self) -> Iterator[None]:
        if not self.current():
            yield from self._cutting()
            if not self.current():
                return  # (another cut took over: the next preparation begins again)
        for tile in list(self.tiles.values()):
            if tile.boxes is None or tile.lines is None:
                yield from tile.gathering()

    def preparing(self, exposed: QRectF, low: bool = False) -> Iterator[None]:
        """Make what a paint of ``exposed`` (scene coordinates) needs, pausing (yielding) every
        few items: the tiles cut again if the scene's items changed, the links of the tiles in
        ``exposed`` gathered (zoomed out, ``low``: their batches of summaries and lines). The
        scene runs it in slices after an edit moved its items or restyled links, the views held
        still, so their first paint only draws (on the 16x site, cutting the tiles and
        gathering the links in view after the storage column moved took 100-200 ms in that
        paint; a drawer opened under the view, 60-80 ms)."""
        if not self.current():
            yield from self._cutting()
            if not self.current():
                return  # (another cut took over, and prepares after it)
            self._warm(self._generation, list(self.tiles.values()))
        for tile in list(self.tiles.values()):
            if tile.bounds.intersects(exposed):
                if low and (tile.boxes is None or tile.lines is None):
                    yield from tile.gathering()  # (zoomed out: the boxes' summaries and the links as lines)
                    yield
                else:
                    yield from tile.gathering_links()

    def _warm(self, generation: int, tiles: list[Tile]) -> None:
        """Gather the links of ``tiles`` (their polylines and the rectangles over each tile: on
        the 16x site expanded, 11,000 links, 0.4 s), a slice of WARM_SLICE_S at a time between
        events, until the scene is cut into tiles again: the first pans then find them
        gathered. A tile's links are gathered a few at a time (one tile of the 16x site after
        its storage column moved took 20-40 ms)."""
        steps = (step for tile in tiles for step in tile.gathering_links())
        self._warm_slice(generation, steps, time.perf_counter() + WARM_DEFER_S)

    def _warm_slice(self, generation: int, steps: Iterator[None], defer: float) -> None:
        """A slice of :meth:`_warm`; it waits while the scene changes its items in slices, and
        until ``defer`` while the analysis of the design shown is still to be painted (its
        slices and the analysis lane went slower by half with it: on the 16x site a subsystem
        deleted at a working zoom gathered 150-200 ms of links meanwhile)."""
        if generation != self._generation or not isValid(self.scene) or not self.current():
            return
        scene = self.scene
        if scene.changing() or (time.perf_counter() < defer and scene.analysis_to_paint()):
            QTimer.singleShot(WARM_WAIT_MS, lambda: self._warm_slice(generation, steps, defer))
            return
        until = slice_budget.until(WARM_SLICE_S, gives_way=True)  # (None: this turn's other slices took its time)
        try:
            if until is not None and all(time.perf_counter() < until for _ in steps):
                return  # (all of it warm)
        finally:
            slice_budget.ended()
        QTimer.singleShot(1, lambda: self._warm_slice(generation, steps, defer))

    def _place(self, item: BoxItem, tile: Tile) -> None:
        tile.tops.append(item)
        tile.bounds = tile.bounds.united(item.sceneBoundingRect().adjusted(-2, -2, 2, 2))
        item.tile = tile
        self._tops_at[item.cid] = tile

    @staticmethod
    def _keys(li: LinkItem) -> list[tuple[int, int]]:
        """The keys of the tiles the rectangle of ``li``'s curve meets."""
        left, top, right, bottom = li.extent()
        (x0, y0), (x1, y1) = _key(left, top), _key(right, bottom)
        return [(kx, ky) for kx in range(x0, x1 + 1) for ky in range(y0, y1 + 1)]

    def _register(self, li: LinkItem) -> list[Tile]:
        li.keys = self._keys(li)
        tiles = [self._tile(key) for key in li.keys]
        for tile in tiles:
            tile.links.add(li)
        return tiles

    def _unregister(self, li: LinkItem) -> list[Tile]:
        tiles = [tile for key in li.keys if (tile := self.tiles.get(key)) is not None]
        for tile in tiles:
            tile.links.discard(li)
        return tiles

    def relink(self, li: LinkItem) -> None:
        """A link's path changed (an end moved): it goes to the tiles its new path touches."""
        for tile in self._unregister(li):
            tile.invalidate()
        self._register(li)
        self.restyled(li)

    def following(self, done: Any, generation: int) -> Iterator[None]:
        """Follow a morph of the scene's items (``done``, a :class:`widgets.canvas.morph.Morph`
        whose items are all placed; the scene's ``generation`` now), pausing (yielding) every
        few links: the boxes made, moved or removed and the links made, redrawn or gone change
        tiles, and only the tiles they touch are gathered again (the storage column of the 16x
        site moved: 15-30 ms in all). A layer that was not current before the morph, or was cut
        again meanwhile, is cut anew when it is next drawn."""
        if self._generation != done.before:
            return
        boxes: set[Tile] = set()  # tiles whose boxes changed
        links: set[Tile] = set()  # ... whose links changed
        self._follow_boxes(done, boxes)
        work = [(self._unregister, li) for li in done.gone]  # (the old links not kept)
        work += [(self._moved, li) for li in done.redrawn]
        work += [(self._register, li) for li in done.made_links]
        yield
        for n, (act, li) in enumerate(work):
            if n % _FOLLOW_EVERY == _FOLLOW_EVERY - 1:
                yield
                if self._generation != done.before:
                    return  # (cut again meanwhile)
            links.update(act(li))
        new = self.scene.links
        for first in range(0, len(new), 16 * _FOLLOW_EVERY):
            for i in range(first, min(first + 16 * _FOLLOW_EVERY, len(new))):
                new[i].layer, new[i].order = self, i
            yield
        if self._generation != done.before:
            return
        for n, tile in enumerate(links):
            tile.invalidate()
            if n % _FOLLOW_EVERY == _FOLLOW_EVERY - 1:
                yield
        for tile in boxes - links:
            tile.invalidate_boxes()
        self._generation = generation
        self._warm(generation, list(links))

    def _moved(self, li: LinkItem) -> list[Tile]:
        """The tiles a moved link leaves and enters, and those it stays in (its curve changed
        there too); one in the same tiles as before changes no tile's list of links."""
        if self._keys(li) == li.keys:
            return [tile for key in li.keys if (tile := self.tiles.get(key)) is not None]
        return self._unregister(li) + self._register(li)

    def _follow_boxes(self, done: Any, touched: set[Tile]) -> None:
        items, tops_at = self.scene.items_by_id, self._tops_at
        for cid in done.removed:
            tile = tops_at.pop(cid, None)
            if tile is not None:
                tile.tops = [top for top in tile.tops if top.cid != cid]
                touched.add(tile)
        for cid in (*done.made, *done.moved, *done.changed):
            item = items.get(cid)
            if item is None:
                continue
            top = item.topLevelItem()
            if top is not item:  # (an inner box: its top's tile draws it zoomed out)
                if isinstance(top, BoxItem) and top.tile is not None:
                    touched.add(top.tile)
                continue
            tile, key = tops_at.get(cid), _key(item.x(), item.y())
            if tile is None or tile.key != key:
                if tile is not None:
                    tile.tops = [t for t in tile.tops if t is not item]
                    touched.add(tile)
                tile = self._tile(key)
                self._place(item, tile)
            else:
                tile.bounds = tile.bounds.united(item.sceneBoundingRect().adjusted(-2, -2, 2, 2))
            touched.add(tile)

    def restyled(self, li: LinkItem) -> None:
        """A link's colour or width changed: the tiles it passes through gather again."""
        for key in li.keys:
            tile = self.tiles.get(key)
            if tile is not None:
                tile.invalidate()

    def paint(self, painter: QPainter, exposed: QRectF, low: bool) -> int:
        """Draw the tiles that meet ``exposed`` (scene coordinates): every link first, then, zoomed
        out (``low``), every box. Returns how many tiles were drawn."""
        as_before = not self.current() and self._before_morph()
        if not self.current() and not as_before:
            self.build()
        shown = [t for t in self.tiles.values() if t.bounds.intersects(exposed)]
        shown.sort(key=_tile_key)  # (tiles overlap: in one order however they were made)
        if low and not as_before:
            self._gather_for_paint(shown)
            shown = [t for t in shown if t.bounds.intersects(exposed)]
        painter.save()
        if low:
            self._paint_summary(painter, shown)
        else:
            self._paint_links(painter, shown, exposed, smooth=not self.rough)
        painter.restore()
        for t in shown:  # (zoomed out, one drawn from its former batches is drawn again)
            t.dirty = low and (t.boxes is None or t.lines is None)
        return len(shown)

    def _before_morph(self) -> bool:
        """Whether the tiles hold the items as they were before the scene's morph under way,
        whose links are not yet the new ones: a view held through the morph still paints what
        was marked for repainting before it was held (Qt's rule), and that paint draws these
        tiles as they are, gathering nothing; the layer then follows the morph (:meth:`following`).
        Cut again in that paint, the 16x site expanded blocked 80-88 ms in about one round in
        thirty of the bench's zoom row (the paint came in the turn after the row's undo began
        its morph), and the layer, no longer the one the morph began from, was cut a third time."""
        done = getattr(self.scene, "_morphing", None)
        return done is not None and not done.swapped and self._generation == done.before >= 0

    def _gather_for_paint(self, shown: list[Tile]) -> None:
        """Gather the batches ``shown`` lacks: a tile whose former batches are kept is drawn
        from them meanwhile, and gathered in slices soon after (an edit at 1:1 on the 16x
        site, then zoomed out at once, before the scene's idle preparation: the tiles in view
        its links pass through gathered in one paint, 3-5 ms a tile, 8-11 ms in all). A tile
        never gathered is gathered now; all of them in tests."""
        whole = getattr(self.scene.doc, "synchronous", True)
        later = False
        for t in shown:
            if t.boxes is None or t.lines is None:
                if t.former is None or whole:
                    t.gather()
                else:
                    later = True
        if later and self._regathering is None:
            self._regathering = self._gathering_former()
            QTimer.singleShot(1, self._regather_slice)

    def _gathering_former(self) -> Iterator[None]:
        for t in [t for t in self.tiles.values() if t.former is not None]:
            if t.boxes is None or t.lines is None:
                yield from t.gathering()
                yield

    def _regather_slice(self) -> None:
        """A slice of the gathering of the tiles drawn from their former batches. While the user
        zooms, it waits for the detail pass to bring the items in and around the view (the
        give-way slices share :data:`widgets.slice_budget.GESTURE_S` a turn, and these came
        first: zoomed out from 1:1 after an edit there on the 16x site expanded, the pass got
        no slice in four wheel steps, and each step brought the 300-900 items it showed in its
        own turn, 4-9 ms); the tiles are drawn from their former batches meanwhile."""
        if self._regathering is None or not isValid(self.scene):
            return
        if giveway.moving() and self.scene.detail_near_pending():
            QTimer.singleShot(1, self._regather_slice)  # (the detail pass first: see the docstring)
            return
        until = slice_budget.until(WARM_SLICE_S, gives_way=True)
        try:
            if until is not None and all(time.perf_counter() < until for _ in self._regathering):
                self._regathering = None
                return
        finally:
            slice_budget.ended()
        QTimer.singleShot(1, self._regather_slice)

    def dirty_over(self, rect: QRectF) -> list[QRectF]:
        """The bounds of the tiles over ``rect`` changed since they were drawn (the views draw
        them again at their next paint)."""
        return [t.bounds for t in self.tiles.values() if t.dirty and t.bounds.intersects(rect)]

    def drawn(self, exposed: QRectF) -> None:
        """The tiles over ``exposed`` were drawn (from a :class:`widgets.canvas.backdrop.Backdrop`)."""
        for t in self.tiles.values():
            if t.dirty and t.bounds.intersects(exposed):
                t.dirty = False

    def stroking(self, painter: QPainter, exposed: QRectF, smooth: bool) -> Iterator[None]:
        """What :meth:`paint` draws of the links over ``exposed``, pausing (yielding) every few
        links (a :class:`widgets.canvas.backdrop.Backdrop` made in slices). The layer must be
        current and the links of the tiles over ``exposed`` gathered."""
        shown = [t for t in self.tiles.values() if t.bounds.intersects(exposed)]
        picked = self._picked(shown, exposed, smooth)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, smooth)
        for i in range(0, len(picked), _PAUSE_EVERY):
            self._stroke(painter, picked[i : i + _PAUSE_EVERY], exposed)
            yield

    @staticmethod
    def _picked(shown: list[Tile], exposed: QRectF, smooth: bool) -> list[tuple]:
        """The links through ``shown`` whose curve meets ``exposed`` over one of them, in the
        scene's order, with the pen to draw them in (see :meth:`_paint_links`)."""
        seen: set[LinkItem] = set()
        picked = []
        left, top, right, bottom = exposed.left(), exposed.top(), exposed.right(), exposed.bottom()
        for t in shown:
            for li, pen, thin, path, x0, y0, x1, y1, solid, whole in t.link_bounds():
                if x1 >= left and x0 <= right and y1 >= top and y0 <= bottom and li not in seen:
                    seen.add(li)  # over this tile the curve meets what is exposed: drawn
                    picked.append((li, pen if smooth else thin, path, *whole, solid))
        picked.sort(key=lambda e: e[0].order)  # in the scene's order, as Qt drew them as items
        return picked

    @staticmethod
    def _stroke(painter: QPainter, picked: list[tuple], part: QRectF) -> None:
        """Stroke the ``picked`` links over ``part`` (scene coordinates)."""
        left, top, right, bottom = part.left(), part.top(), part.right(), part.bottom()
        for li, pen, path, x0, y0, x1, y1, solid in picked:
            if x1 >= left and x0 <= right and y1 >= top and y0 <= bottom:
                # only the pieces over the part (the whole curve stroked, clipped, cost 60 us
                # a link: a pan of the 16x site crossed 600); a dotted pen whole, its dots
                # then fall where they always do
                pieces = _visible_pieces(li, left, top, right, bottom) if solid else None
                if pieces is None:
                    painter.setPen(pen)
                    painter.drawPath(path if path is not None else li.path())
                elif pieces.size() > 1:
                    painter.setPen(pen)
                    painter.drawPolyline(pieces)

    @classmethod
    def _paint_links(cls, painter: QPainter, shown: list[Tile], exposed: QRectF, smooth: bool = True) -> None:
        """The links through ``shown`` that meet ``exposed``, as the curves they are, in their own
        pens (the view draws each strip a pan uncovers on its own: see :func:`clip_parts`). Not ``smooth``
        (while the user zooms): no antialiasing, and the cables one pixel wide in their colour
        (a 1.4-unit pen is stroked as a filled outline, 3x the cost of a hairline: 400 links
        of the 16x site 14.7 ms against 4.5 ms)."""
        picked = cls._picked(shown, exposed, smooth)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, smooth)  # the view's cache painter has none
        cls._stroke(painter, picked, exposed)

    @staticmethod
    def _paint_summary(painter: QPainter, shown: list[Tile]) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        batches = [
            t.former if t.former is not None and (t.boxes is None or t.lines is None) else (t.boxes, t.lines)
            for t in shown
        ]
        for _, lines in batches:
            for pen, segs in lines or ():
                painter.setPen(pen)
                draw_flat(painter, True, segs)
        for boxes, _ in batches:
            for pen, brush, shapes in boxes or ():
                painter.setPen(pen)
                if brush is None:  # (lines: a "+")
                    draw_flat(painter, True, shapes)
                else:
                    painter.setBrush(brush)
                    draw_flat(painter, False, shapes)
