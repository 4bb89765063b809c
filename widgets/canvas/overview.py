"""The canvas zoomed far out: the whole diagram as one item (:class:`OverviewItem`).

Below :data:`FAR_SCALE` a row of text is a pixel high and no box can be read or hit, yet a site
has tens of thousands of boxes whose Python ``paint`` would run on every frame of a zoom. The
scene then hides its boxes and links and shows this one item instead: every box a filled
rectangle (in its utilization band's colour where it carries load, else its kind's fill), every
link a straight line in its colour, the top-level groups' names where they are large enough to
read. It is drawn in a few dozen batched C++ calls (one ``drawRects`` per depth and colour, one
``drawLines`` per colour), so a frame costs the same few Python calls however large the design.

The batches are kept per stripe of the scene, a square of a grid (:data:`STRIPE` on a side),
and drawn once into a picture at the zoom step shown (a pixmap a stripe, its tile): a change (an
edit recoloured a few boxes, a box selected) gathers only what changed and draws again only the
stripes it touches (squares since a site's bands stood in columns: a server of the 16x site
expanded deleted drew again 3-4 stripes the whole site wide, 25-31 ms). On the
16x site expanded (44,864 boxes, 10,864 links) the whole picture took 90-140 ms to draw and the
whole gathering 300 ms, each time anything changed.
"""

from __future__ import annotations

import math
import time
import weakref
from array import array
from collections.abc import Iterable, Iterator
from typing import Any

import shiboken6
from PySide6.QtCore import QLineF, QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene, QStyleOptionGraphicsItem

from widgets.canvas.flat import draw_flat, flat_shapes
from widgets.canvas.grave import Grave
from widgets.canvas.items import util_color
from widgets.canvas.names import NameLaying

#: below this zoom the scene shows the overview instead of its items. A row of text is 4.5
#: pixels high there, its letters two or three: nothing can be read. 0.12 until a site's
#: servers stood in bands (planner.layout_bands): the 16x site then fitted a window at 0.22,
#: and each box drawn by the view's layers over the whole site made its open, Collapse all,
#: Select All and a scenario shown block the event loop 28-127 ms (bench_gui.py)
FAR_SCALE = 0.25
#: a picture drawn at a zoom step is kept while the view zooms out up to this factor below it
#: (two steps): zooming back and forth across a step's edge drew the whole picture again in every
#: frame, 21 ms each on the 32x site expanded (47 frames/s), 2 ms kept
KEEP_STEPS_ABOVE = 2 ** (2 / 5) * (1 + 1e-9)
#: the largest pixmap (in pixels) the overview's batches are drawn into once (see OverviewItem._picture)
PICTURE_PIXELS = 8_000_000
#: how many zoom steps below the view's a picture larger than PICTURE_PIXELS is drawn at most
#: (five: up to twice larger on screen, smoothed). Three were enough for the 16x site; the 32x
#: site expanded (14,300 x 30,510) then had no picture between 0.19 and FAR_SCALE and drew its
#: stripes directly in every paint: its zoom row blocked 42-46 ms in the first wheel steps
STEPS_BELOW = 5
_EDGE = QColor(110, 120, 140, 110)
#: how many boxes or links a gathering handles between two looks at the clock
_PAUSE_EVERY = 64
#: the side of a stripe, a square (scene units): the batches of each are kept and drawn apart
STRIPE = 2048.0
#: how long the picture is drawn, stripe after stripe, before a pause (see OverviewItem._drawing);
#: short, as the caller's slice may be nearly spent when it begins one (4 ms made Select All's
#: turn on the 16x site 9-10 ms, over its 6 ms slice; 2 ms made a paint's PAINT_DRAW_S 4 ms)
DRAW_SLICE_S = 0.001
#: a paint draws the picture of a new zoom step for about this long, the rest at the next paints
#: (a paint far out also draws the picture's tiles, the names and the legend: 2-6 ms more; 4 ms made
#: the 16x site's first paint at a new step 9-10 ms, its others 6 ms; 2.5 ms drew 3.2-3.3, its
#: last chunk of DRAW_SLICE_S whole, before the paint's time cut the chunk short: see _draw_by)
PAINT_DRAW_S = 0.002
#: ... a few hundred lines or rectangles at a time
_OPS_EVERY = 256
#: while the view zooms (:attr:`OverviewItem.gesture`) the picture drawn is shown scaled as long
#: as the zoom step wanted is at most this factor above its step, or four times this below it
GESTURE_RANGE = 2.0
_NEAR = 64.0  # scene units: 16 pixels at the overview's largest zoom (FAR_SCALE)
_SELECTED = QColor(255, 140, 0)


class _Stripe:
    """The batches of one stripe: each box's rectangle by (depth, colour), each link's line by
    (colour, width), as plain tuples; and the arrays of doubles a paint draws (:func:`flat_shapes`),
    each made when it is first drawn and kept until its batch changes (an edit recolours a few
    batches of a stripe: the others are drawn again from the arrays they had). Tuples, not Qt objects: PySide registers every Qt object it wraps
    in one table, which grows by doubling, all of it copied each time (with the 16x site
    expanded, 108,000 rectangles and lines kept here made it cross 350,000 entries while the
    items were made: 20-40 ms in one step)."""

    __slots__ = ("fills", "lines", "flat_fills", "flat_lines")

    def __init__(self) -> None:
        self.fills: dict[tuple[int, int], dict[str, tuple]] = {}  # (x, y, w, h)
        self.lines: dict[tuple[int, int], dict[Any, tuple]] = {}  # link -> (x1, y1, x2, y2)
        self.flat_fills: dict[tuple[int, int], array] = {}  # batch key -> its array (see flat_shapes)
        self.flat_lines: dict[tuple[int, int], array] = {}

    def flat(self, key: tuple[int, int], lines: bool) -> array:
        """Batch ``key``'s shapes as :func:`flat_shapes` makes them (kept until the batch changes)."""
        kept = self.flat_lines if lines else self.flat_fills
        got = kept.get(key)
        if got is None:
            got = kept[key] = flat_shapes((self.lines if lines else self.fills)[key].values())
        return got

    def batches(self) -> tuple[list, list]:
        """([(colour key, rects)], [(pen key, lines)]) as arrays (see flat_shapes)."""
        fills = [(k, self.flat(k, False)) for k in sorted(self.fills)]
        lines = [(k, self.flat(k, True)) for k in sorted(self.lines)]  # (see OverviewItem._ops)
        return fills, lines


def _rows_of(top: float, bottom: float) -> range:
    """The rows of stripes a box or line from ``top`` to ``bottom`` is drawn in: those it
    meets, and one it comes within a few pixels of (its pen, a pixel rounded at an edge)."""
    return range(int((top - _NEAR) // STRIPE), int((bottom + _NEAR) // STRIPE) + 1)


def _stripes_of(left: float, top: float, right: float, bottom: float) -> tuple[tuple[int, int], ...]:
    """The stripes ((row, column) of the grid) a box or a line's piece within ``left`` ..
    ``right`` and ``top`` .. ``bottom`` is drawn in (see :func:`_rows_of`)."""
    cols = range(int((left - _NEAR) // STRIPE), int((right + _NEAR) // STRIPE) + 1)
    return tuple((r, c) for r in _rows_of(top, bottom) for c in cols)


def _pieces(x1: float, y1: float, x2: float, y2: float, which: range) -> list[tuple[float, float, float, float]]:
    """The piece of the line from (x1, y1) to (x2, y2) within each row of stripes ``which``
    and a little around (:data:`_NEAR`), worked out in one loop (a server of the 16x site expanded
    deleted moves 5,432 links, cut into 33,700 pieces: a call, a sort and two tuples a piece
    took about 25 ms of the gathering, 2.6 times this loop)."""
    dx, dy = x2 - x1, y2 - y1
    lo, hi = (y1, y2) if y1 <= y2 else (y2, y1)
    out = []
    for stripe in which:
        top, bottom = stripe * STRIPE - _NEAR, (stripe + 1) * STRIPE + _NEAR
        if dy == 0 or (top <= lo and hi <= bottom):
            out.append((x1, y1, x2, y2))
            continue
        t0, t1 = (top - y1) / dy, (bottom - y1) / dy
        if t1 < t0:
            t0, t1 = t1, t0
        if t0 < 0.0:
            t0 = 0.0
        if t1 > 1.0:
            t1 = 1.0
        out.append((x1 + t0 * dx, y1 + t0 * dy, x1 + t1 * dx, y1 + t1 * dy))
    return out


class OverviewItem(NameLaying, QGraphicsItem):
    """Summary boxes of a whole scene (see the module docstring). The scene calls
    :meth:`invalidate` when its items' colours, highlight or geometry change; they are gathered
    again at the next paint (or beforehand: :meth:`preparing`)."""

    def __init__(self, scene: Any) -> None:
        super().__init__()
        self._scene = weakref.ref(scene)  # the diagram scene (which holds this item's scene)
        self.setZValue(-2)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._bounds = QRectF(scene.sceneRect())
        self.gathered = False  # what the scene shows is gathered (else at the next paint)
        self._all = True  # everything is gathered again at the next paint
        self._stale_boxes: set[str] = set()
        self._moved_boxes: set[str] = set()  # boxes only moved (see invalidate)
        self._stale_links: set[Any] = set()  # links (LinkItems) to gather again
        self._live_of: tuple[int, int] = (0, -1)  # (see _live)
        self._live_links: set[Any] = set()
        self._stripes: dict[tuple[int, int], _Stripe] = {}  # (row, column) -> its batches
        self._box_keys: dict[str, tuple] = {}  # box id -> its stripes, batch, place
        self._link_keys: dict[Any, tuple] = {}  # link (a LinkItem) -> its stripes, batch, ends
        self._colours: dict[tuple[int, int], QColor] = {}  # (depth, rgba) -> the colour
        self._pens: dict[tuple[int, int], QPen] = {}  # (rgba, width) -> the pen
        self._box_names: dict[str, tuple[QRectF, str]] = {}
        #: each name as drawn at the zoom of the last paint (see name_at; None: that zoom),
        #: with the name and rectangle it was worked out for (eliding all of them each paint
        #: was half the names' time)
        self._names_laid: dict[Any, tuple] = {}
        #: ... and as drawn at the zoom before, for the names not laid again yet (see _paint_names)
        self._names_before: dict[Any, tuple] = {}
        self._changed: set[tuple[int, int]] = set()  # stripes changed since the picture was drawn
        self._grave = Grave()  # the batches of everything gathered before (freed as it gathers)
        #: the picture: (bounds, zoom step, {stripe: (where in the scene, its tile)}), its
        #: stripes drawn but for ``_changed``
        self._cached: tuple[QRectF, float, dict[tuple[int, int], tuple[QRectF, QPixmap]]] | None = None
        #: the tiles of the last picture drawn whole, shown (scaled) for the stripes the picture
        #: of a new zoom step has not drawn yet (see _picture); None once it has
        self._former: dict[tuple[int, int], tuple[QRectF, QPixmap]] | None = None
        #: the drawing under way ((zoom step, bounds), the generator), carried on by the next
        #: paint or slice (see _carrying_on)
        self._progress: tuple[tuple[float, QRectF], Iterator[None]] | None = None
        self._again = False  # a paint asked for once the event loop went round (see _paint_later)
        self._draw_by = math.inf  # a paint's drawing stops its chunk by then (see _picture)
        #: the view is zooming (a wheel gesture; the view clears it when the zoom settles): a
        #: paint shows the picture and the names as drawn and laid before, scaled, and draws
        #: or lays nothing new. Each wheel step far out on the 16x site expanded drew the new
        #: step's picture for PAINT_DRAW_S and laid names for NAMES_PAINT_S, then asked for
        #: another paint: paints of 7-12 ms back to back, and a wheel step landing after one
        #: made the event loop's longest block of a zoom, 20-30 ms (profile zoomprof3.py)
        self.gesture = False

    def boundingRect(self) -> QRectF:
        return self._bounds

    def _paint_later(self) -> None:
        """Paint again once the event loop went round: an update asked in a paint is the next
        pass's first work, so the paints of a picture drawn a few at a time ran back to back
        (the 16x site zoomed out, 7-9 ms each: 15-22 ms without a pass between)."""
        if not self._again:
            self._again = True
            QTimer.singleShot(1, self._again_now)

    def _again_now(self) -> None:
        if shiboken6.isValid(self):
            self._again = False
            self.update()

    def set_bounds(
        self,
        rect: QRectF,
        boxes: Iterable[str] | None = None,
        links: Iterable[Any] | None = None,
        moved: Iterable[str] = (),
    ) -> None:
        """The scene's new bounds; gather again what :meth:`invalidate` is given."""
        if rect != self._bounds:
            self.prepareGeometryChange()
            self._bounds = QRectF(rect)
            self._cached = None
        self.invalidate(boxes, links, moved)

    def invalidate(
        self, boxes: Iterable[str] | None = None, links: Iterable[Any] | None = None, moved: Iterable[str] = ()
    ) -> None:
        """Gather again at the next paint: the rectangles of ``boxes`` (ids) and the lines of
        ``links`` (the scene's link items, or ones it no longer has) that changed, or everything
        (both None); of ``moved`` (ids of boxes that only moved: a morph) the place alone, their
        colour as gathered. An edit repaints a few boxes, so the overview of a site is not
        walked again for them."""
        if boxes is None and links is None:
            self._all = True
        else:
            self._stale_boxes.update(boxes or ())
            self._stale_links.update(links or ())
            self._moved_boxes.update(moved)
            if not self._stale_boxes and not self._stale_links and not self._moved_boxes and self.gathered:
                return
        self.gathered = False
        self.update()

    def batches(self) -> tuple[list[tuple[QColor, list[QRectF]]], list[tuple[QPen, list[QLineF]]]]:
        """What is gathered, all stripes together: (colour, rectangles) per depth and colour,
        (pen, lines) per colour and width; each box and link once."""
        fills: dict[tuple[int, int], dict[str, tuple]] = {}
        lines: dict[tuple[int, int], dict[Any, tuple]] = {}
        for stripe in self._stripes.values():
            for k, batch in stripe.fills.items():
                fills.setdefault(k, {}).update(batch)
        for i, (_, k, ends) in self._link_keys.items():
            lines.setdefault(k, {})[i] = ends
        return (
            [(self._colours[k], [QRectF(*r) for r in fills[k].values()]) for k in sorted(fills)],
            [(self._pens[k], [QLineF(*ln) for ln in lines[k].values()]) for k in lines],
        )

    def occupied(self, area: QRectF) -> bool:
        """Whether a box gathered lies under ``area`` (scene coordinates)."""
        left, top, right, bottom = area.left(), area.top(), area.right(), area.bottom()
        for i in _stripes_of(left, top, right, bottom):
            stripe = self._stripes.get(i)
            for batch in stripe.fills.values() if stripe is not None else ():
                for x, y, w, h in batch.values():  # (as QRectF.intersects: edges touching do not)
                    if x < right and left < x + w and y < bottom and top < y + h:
                        return True
        return False

    def names(self) -> list[tuple[QRectF, str]]:
        return list(self._box_names.values())

    def preparing(self, scales: Iterable[float] = ()) -> Iterator[None]:
        """Make what the next paint would, pausing (yielding) every few boxes, links and
        stripes: the batches gathered (the 16x site's storage column moved took 10-40 ms in
        one paint), the picture drawn for each of ``scales`` (the views' zooms). The scene runs
        it while the views are held."""
        if not self.gathered:
            yield from self._gathering()
        for scale in scales:
            if self.gathered:
                yield from self._carrying_on(scale)

    def _gather(self) -> None:
        for _ in self._gathering():
            pass

    def _gather_for_paint(self) -> None:
        """Gather what is stale for :data:`PAINT_DRAW_S` at most, the rest at the next paints
        (what changed while zoomed in, not yet gathered when idle: a subsystem deleted and undone
        on the 16x site expanded, then zoomed out, 30-40 ms in one paint); the stripes not
        gathered yet show what they showed. All of it when everything is to be gathered anew
        (nothing to show meanwhile), or in tests."""
        scene = self._scene()
        if self._all or scene is None or getattr(scene.doc, "synchronous", False):
            self._gather()
            return
        until = time.perf_counter() + PAINT_DRAW_S
        for _ in self._gathering():
            if time.perf_counter() >= until:
                self._paint_later()  # (the rest at the next paint)
                return

    def _gathering(self) -> Iterator[None]:
        """Gather what is stale (everything after :meth:`invalidate` without arguments), taken
        one by one from what is stale, so a paint meanwhile gathers the rest."""
        scene = self._scene()
        if scene is None:
            return
        if self._all:
            self._all = False
            self._changed.update(self._stripes)
            for stripe in self._stripes.values():  # (freed below, the batches entry by entry)
                self._grave.bury(*stripe.fills.values(), *stripe.lines.values())
            self._grave.bury(self._stripes, self._box_keys, self._link_keys, self._box_names)
            self._stripes, self._box_keys, self._link_keys, self._box_names = {}, {}, {}, {}
            # (the names laid are kept: each is laid again when its box's name or place differs,
            # and a paint lays them NAMES_PAINT_S at a time: dropped, the first paint after a
            # large selection far out showed most of them missing)
            self._stale_boxes, self._stale_links = set(scene.items_by_id), set(scene.links)
            self._moved_boxes = set()
        boxes, links, moved = self._stale_boxes, self._stale_links, self._moved_boxes
        while boxes or links or moved:  # (what the scene holds read again after each pause: a
            items, live = scene.items_by_id, self._live(scene)  # morph may have run meanwhile)
            for _ in range(_PAUSE_EVERY):
                if boxes:
                    self._gather_box(items, boxes.pop())
                elif moved:
                    self._move_box(items, moved.pop())
                elif links:
                    self._gather_link(live, links.pop())
                else:
                    break
            if boxes or links or moved:
                if self._grave:
                    self._grave.dig(time.perf_counter() + 0.001)
                yield
        self.gathered = not self._all  # (else invalidated meanwhile: gathered at the next paint)

    def _drop(self, member: Any, was: tuple | None, which: str) -> None:
        """Take ``member`` out of its batch ``was`` ((stripes, batch key, ...) or None) of the
        stripes' ``which`` batches; those stripes are drawn again."""
        if was is None:
            return
        stripes, key = self._stripes, was[1]
        for i in was[0]:
            stripe = stripes[i]
            batches, flats = (
                (stripe.fills, stripe.flat_fills) if which == "fills" else (stripe.lines, stripe.flat_lines)
            )
            batch = batches[key]
            del batch[member]
            if not batch:
                del batches[key]
            flats.pop(key, None)
        self._changed.update(was[0])

    def _gather_box(self, items: dict[str, Any], cid: str) -> None:
        """The rectangle of box ``cid`` (the scene's ``items``: id -> item) in its batch;
        nothing is drawn again for a box in the same place and colour (an analysis repaints
        many boxes whose colour stays). Boxes a morph only moved go by :meth:`_move_box`."""
        item = items.get(cid)
        was = self._box_keys.get(cid)
        if item is None:
            if was is not None:
                del self._box_keys[cid]
                self._drop(cid, was, "fills")
            self._box_names.pop(cid, None)
            return
        box = item.box
        if item.depth == 0 and (item.collapsible or box.kind == "server"):
            self._box_names[cid] = (QRectF(box.x, box.y, box.w, box.h), box.label.split("\n")[0])
        elif cid in self._box_names:
            del self._box_names[cid]
        if item.highlighted or item.isSelected():
            colour = _SELECTED
        else:
            colour = util_color(item.util) if item.util is not None else item._fill
        self._place_box(cid, was, (item.depth, colour.rgba()), (box.x, box.y, box.w, box.h), colour)

    def _move_box(self, items: dict[str, Any], cid: str) -> None:
        """Box ``cid`` in its new place, its batch as gathered (no look at its item's colour,
        selection or depth: the 16x site expanded, 23,000 boxes moved by a server deleted);
        gathered whole if it was not yet."""
        item = items.get(cid)
        was = self._box_keys.get(cid)
        if item is None or was is None:
            self._gather_box(items, cid)
            return
        box = item.box
        if cid in self._box_names:
            self._box_names[cid] = (QRectF(box.x, box.y, box.w, box.h), self._box_names[cid][1])
        self._place_box(cid, was, was[1], (box.x, box.y, box.w, box.h))

    def _place_box(self, cid: str, was: tuple | None, key: tuple[int, int], place: tuple, colour: Any = None) -> None:
        """Box ``cid``'s rectangle ``place`` in batch ``key`` (``colour``: that of a new key),
        taken out of where it ``was``; nothing drawn again when both are the same."""
        if was is not None and was[1] == key and was[2] == place:
            return
        if key not in self._colours:
            self._colours[key] = QColor(colour)  # a copy: the overview keeps nothing of an item
        left, top = place[0], place[1]
        r0, r1 = int((top - _NEAR) // STRIPE), int((top + place[3] + _NEAR) // STRIPE)  # (_stripes_of, inline)
        c0, c1 = int((left - _NEAR) // STRIPE), int((left + place[2] + _NEAR) // STRIPE)
        which = (
            ((r0, c0),)
            if r0 == r1 and c0 == c1
            else tuple((r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1))
        )
        self._box_keys[cid] = (which, key, place)
        self._changed.update(which)  # (each stripe drawn again: the steps inline, see _gather_link)
        stripes = self._stripes
        if was is not None and was[0] == which and was[1] == key:  # (in its batches: moved within)
            for i in which:
                stripe = stripes[i]
                stripe.flat_fills.pop(key, None)
                stripe.fills[key][cid] = place
            return
        self._drop(cid, was, "fills")
        for i in which:
            stripe = stripes.get(i)
            if stripe is None:
                stripe = stripes[i] = _Stripe()
            stripe.flat_fills.pop(key, None)
            batch = stripe.fills.get(key)
            if batch is None:
                batch = stripe.fills[key] = {}
            batch[cid] = place

    def _live(self, scene: Any) -> set[Any]:
        """The scene's links now, as a set (made again when the scene's list is another one or
        grew: a morph sets a new list, a build appends to its own)."""
        links = scene.links
        if self._live_of != (id(links), len(links)):
            self._live_of, self._live_links = (id(links), len(links)), set(links)
        return self._live_links

    def _gather_link(self, live: set[Any], li: Any) -> None:
        """The line of link ``li`` (a :class:`widgets.canvas.items.LinkItem`, a plain object: the
        overview holds no Qt item, which dies with its scene; ``live``: the scene's links, see
        :meth:`_live`), from the ends of its curve and its colour, which the link keeps (no Qt
        call for a link whose batch exists: 1,800 links moved by an edit on the 16x site took
        25 ms with a pen made and a path read for each). Kept by the link, not by its place in
        the scene's list: a server's links removed on the 16x site shifted 2,200 others, each
        gathered and drawn again."""
        was = self._link_keys.get(li)
        if li not in live:
            if was is not None:
                del self._link_keys[li]
                self._drop(li, was, "lines")
            return
        key = (li.rgba, 2 if li.highlighted else 1)
        ends = li.ends
        if was is not None and was[1] == key and was[2] == ends:
            return  # drawn as it is
        if key not in self._pens:
            pen = QPen(QColor.fromRgba(li.rgba), key[1])
            pen.setCosmetic(True)
            self._pens[key] = pen
        x1, y1, x2, y2 = ends
        top, bottom = (y1, y2) if y1 <= y2 else (y2, y1)
        rows = range(int((top - _NEAR) // STRIPE), int((bottom + _NEAR) // STRIPE) + 1)  # (_rows_of, inline)
        pieces = (ends,) if len(rows) == 1 else _pieces(x1, y1, x2, y2, rows)
        which, cut = [], []
        for r, piece in zip(rows, pieces):  # (each piece in the stripes of its row it crosses)
            a, b = (piece[0], piece[2]) if piece[0] <= piece[2] else (piece[2], piece[0])
            for c in range(int((a - _NEAR) // STRIPE), int((b + _NEAR) // STRIPE) + 1):
                which.append((r, c))
                cut.append(piece)
        self._link_keys[li] = (which, key, ends)
        if was is not None and (was[0] != which or was[1] != key):  # (else its pieces are replaced
            self._drop(li, was, "lines")  # where they are)
        # each stripe draws its own piece of the line (Qt's raster engine walks a long line
        # through the whole picture even where a clip cuts it: 10,864 links across the 16x
        # site's 35 stripes took 120 ms so). Each stripe it is in is drawn again; those steps
        # inline, not a call (a server of the 16x site restored moves 2,289 links: 7.0 -> 6.0 ms)
        self._changed.update(which)
        stripes = self._stripes
        for s, piece in zip(which, cut):
            stripe = stripes.get(s)
            if stripe is None:
                stripe = stripes[s] = _Stripe()
            stripe.flat_lines.pop(key, None)
            batch = stripe.lines.get(key)
            if batch is None:
                batch = stripe.lines[key] = {}
            batch[li] = piece

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: Any = None) -> None:
        if not self.gathered:
            self._gather_for_paint()
        if self._all:
            return
        scale = option.levelOfDetailFromTransform(painter.worldTransform())
        exposed = painter.clipBoundingRect() if painter.hasClipping() else self._bounds
        rough = self.gesture and not self._whole() and (tiles := self._as_drawn(scale)) is not None
        if not rough:
            tiles = self._picture(scale)
        if tiles is not None:  # a zoom or pan step redraws the pixmaps, not every box
            painter.save()
            # (while zooming, unsmoothed: 1.3 ms rather than 3.5-5 for a 1600 x 1000 view)
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, not rough)
            # (each screen row from one tile: with antialiased edges the row two tiles share
            # was drawn half by each, lighter than both)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
            for target, pixmap in tiles.values():
                if target.intersects(exposed):
                    painter.drawPixmap(target, pixmap, QRectF(pixmap.rect()))
            painter.restore()
        else:
            for i in _stripes_of(exposed.left(), exposed.top(), exposed.right(), exposed.bottom()):
                if i in self._stripes:
                    self._paint_stripe(painter, i, scale)
        if rough and self._names_laid.get(None) is not None:
            self._paint_names_as_laid(painter, exposed)
        else:
            self._paint_names(painter, scale, exposed)

    def _whole(self) -> bool:
        """Whether each paint draws the picture and lays the names whole (tests: a document
        analysed synchronously)."""
        scene = self._scene()
        return scene is None or getattr(scene.doc, "synchronous", False)

    def _as_drawn(self, scale: float) -> dict[tuple[int, int], tuple[QRectF, QPixmap]] | None:
        """The picture as drawn so far (see :meth:`_shown`), to be shown scaled at ``scale``
        while the view zooms; None when there is none of these bounds, or its zoom step is too
        far from the one ``scale`` wants (see :data:`GESTURE_RANGE`)."""
        cached = self._cached
        if cached is None or cached[0] != self._bounds or not (cached[2] or self._former):
            return None
        wanted = self._step(scale)
        if not cached[1] / (4 * GESTURE_RANGE) <= wanted <= cached[1] * GESTURE_RANGE:
            return None
        return self._shown()

    def _step(self, scale: float) -> float:
        """The zoom step just above ``scale`` (a fifth of an octave: a zoom redraws the picture
        every few steps), or up to :data:`STEPS_BELOW` steps below it when the picture would be
        larger than :data:`PICTURE_PIXELS` there (then drawn up to twice larger: the 16x site,
        its bands expanded in four columns, came to 9.5 million pixels at 0.22, and its stripes
        were drawn directly in every paint, 40-45 ms each). The step of the picture drawn is
        kept while ``scale`` is up to two steps below it (see :data:`KEEP_STEPS_ABOVE`)."""
        n = math.ceil(math.log2(max(scale, 1e-4)) * 5)
        area = self._bounds.width() * self._bounds.height()
        for _ in range(STEPS_BELOW):
            if area * 2 ** (2 * n / 5) <= PICTURE_PIXELS:
                break
            n -= 1
        step = 2 ** (n / 5)
        cached = self._cached
        if cached is not None and cached[0] == self._bounds and step <= cached[1] <= step * KEEP_STEPS_ABOVE:
            return cached[1]  # (zoomed out a little: the picture kept, drawn a little smaller)
        return step

    def _picture(self, scale: float) -> dict[tuple[int, int], tuple[QRectF, QPixmap]] | None:
        """The picture at the zoom step of ``scale`` (stripe -> where its tile goes in the
        scene, the tile), its changed stripes drawn again for :data:`PAINT_DRAW_S` at most; the
        stripes not drawn yet at a new zoom step shown from the picture before, scaled, and
        another paint asked for (a zoom drew the whole picture at each new step in one paint:
        the 16x site expanded 22-58 ms a wheel step). None when the picture would be too large
        (then the stripes are drawn directly)."""
        whole = self._whole()
        until = time.perf_counter() + PAINT_DRAW_S
        self._draw_by = math.inf if whole else until  # (its last chunk cut short, not a whole one more)
        try:
            for _ in self._carrying_on(scale):
                if not whole and time.perf_counter() >= until:
                    self._paint_later()  # the rest at the next paints
                    break
        finally:
            self._draw_by = math.inf
        cached = self._cached
        if cached is None or cached[1] != self._step(scale) or cached[0] != self._bounds:
            return None
        return self._shown()

    def _shown(self) -> dict[tuple[int, int], tuple[QRectF, QPixmap]]:
        """The tiles to show: the picture's, and the former picture's (scaled) for the stripes
        the picture has not drawn again yet."""
        cached = self._cached
        assert cached is not None
        if not self._changed:
            self._former = None
            return cached[2]
        former, changed = self._former or {}, self._changed
        return {
            i: tile
            for i in former.keys() | cached[2].keys()
            if (tile := cached[2][i] if i in cached[2] and (i not in changed or i not in former) else former[i])
        }

    def _carrying_on(self, scale: float) -> Iterator[None]:
        """:meth:`_drawing` at ``scale``'s zoom step, carried on where it was left (by a paint
        whose time was up, or a slice of the scene's) rather than begun again: a stripe left
        half drawn would be drawn again from its start, and one longer than a paint's time never
        drawn. A drawing of another step or bounds left unfinished is closed (its stripe half
        drawn is drawn again whole)."""
        key = (self._step(scale), QRectF(self._bounds))
        if self._progress is None or self._progress[0] != key:
            if self._progress is not None:
                self._progress[1].close()
            self._progress = (key, self._drawing(scale))
        drawing = self._progress[1]
        for _ in drawing:  # (not ``yield from``: that would close it with this one)
            yield
        if self._progress is not None and self._progress[1] is drawing:
            self._progress = None

    def _span(self, i: tuple[int, int], step: float) -> tuple[int, int, int, int]:
        """The pixels of the picture at ``step`` that stripe ``i``'s tile holds (first and end
        column, first and end row): the picture's whole grid cut at the stripes' edges, each
        pixel in the tile of the stripe that holds its middle."""
        b = self._bounds
        width, height = math.ceil(b.width() * step), math.ceil(b.height() * step)
        across, down = width / b.width(), height / b.height()  # (the picture is drawn into the bounds)
        r, c = i
        fy = min(max(round((r * STRIPE - b.y()) * down), 0), height)
        ey = min(max(round(((r + 1) * STRIPE - b.y()) * down), 0), height)
        fx = min(max(round((c * STRIPE - b.x()) * across), 0), width)
        ex = min(max(round(((c + 1) * STRIPE - b.x()) * across), 0), width)
        return fx, ex, fy, ey

    def _tile(self, i: tuple[int, int], step: float) -> QPixmap | None:
        """Stripe ``i``'s tile cleared (made at its size the first time); None when the stripe
        holds nothing or lies outside the picture (its tile, if any, is dropped)."""
        tiles = self._cached[2]  # type: ignore[index]
        fx, ex, fy, ey = self._span(i, step)
        if i not in self._stripes or ey <= fy or ex <= fx:
            tiles.pop(i, None)
            return None
        got = tiles.get(i)
        if got is None:
            b = self._bounds
            across = b.width() / math.ceil(b.width() * step)  # scene units a pixel
            down = b.height() / math.ceil(b.height() * step)
            target = QRectF(b.x() + fx * across, b.y() + fy * down, (ex - fx) * across, (ey - fy) * down)
            got = tiles[i] = (target, QPixmap(ex - fx, ey - fy))
        got[1].fill(Qt.GlobalColor.transparent)
        return got[1]

    def _tile_painter(self, i: tuple[int, int], step: float) -> QPainter:
        """A painter on stripe ``i``'s tile, drawing in scene coordinates."""
        p = QPainter(self._cached[2][i][1])  # type: ignore[index]
        fx, _, fy, _ = self._span(i, step)
        p.translate(-fx, -fy)
        p.scale(step, step)
        p.translate(-self._bounds.x(), -self._bounds.y())
        p.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        return p

    def _drawing(self, scale: float) -> Iterator[None]:
        """Bring the picture at ``scale``'s zoom step up to date, a few hundred shapes at a time
        (yielding between them): new tiles at another step or bounds, else the changed stripes'.
        The picture is one pixmap a stripe, each made when its stripe is first drawn: one pixmap
        of the whole picture (up to 32 MB on the 16x site) took 10-30 ms to clear in one go
        when everything was expanded."""
        step = self._step(scale)
        w, h = math.ceil(self._bounds.width() * step), math.ceil(self._bounds.height() * step)
        if w * h > PICTURE_PIXELS or w < 1 or h < 1:
            return
        cached = self._cached
        if cached is None or cached[1] != step or cached[0] != self._bounds:
            if cached is None or cached[0] != self._bounds:
                self._former = None  # (another grid: nothing to show meanwhile)
            elif not self._changed or self._former is None:
                self._former = cached[2]  # (else the one before, drawn whole, stays)
            self._cached = cached = (QRectF(self._bounds), step, {})
            self._changed = set(self._stripes)
        ops: list[tuple] = []  # what is left to draw of the stripe begun (see _ops)
        i = (0, 0)
        try:
            while self._changed or ops:
                until = min(time.perf_counter() + DRAW_SLICE_S, self._draw_by)
                p = self._tile_painter(i, step) if ops else None
                while self._changed or ops:  # (one step at least)
                    if ops:
                        self._draw_op(p, ops.pop())
                        if time.perf_counter() >= until:
                            break
                        continue
                    if p is not None:
                        p.end()
                    i = self._changed.pop()
                    p = self._tile_painter(i, step) if self._tile(i, step) is not None else None
                    ops = self._ops(i, step) if p is not None else []
                if p is not None:
                    p.end()
                if self._changed or ops:
                    yield
                if self._cached is not cached:
                    ops = []
                    return  # (drawn again from nothing meanwhile)
        finally:
            if ops:  # (left half drawn: drawn again whole by whoever draws next)
                self._changed.add(i)

    def _ops(self, i: tuple[int, int], scale: float) -> list[tuple]:
        """Stripe ``i``'s batches as a few hundred lines or rectangles each, in the reverse of
        the order a paint draws them (taken from the end): a stripe of the 16x site expanded
        holds thousands of boxes, 12-25 ms drawn in one go. Each op is (pen, brush or None for
        lines, the batch's shapes (:func:`flat_shapes`), the first, how many)."""
        stripe, out = self._stripes[i], []
        edge = QPen(_EDGE, 0) if scale >= 0.03 else QPen(Qt.PenStyle.NoPen)  # edges once they are apart
        for key in sorted(stripe.lines):  # (in one order, whatever order they were gathered in:
            batch = stripe.lines[key]  # where lines of two colours cross, the same one is on top)
            flat, n = stripe.flat(key, True), len(batch)
            out += [(self._pens[key], None, flat, k, min(_OPS_EVERY, n - k)) for k in range(0, n, _OPS_EVERY)]
        for key in sorted(stripe.fills):
            batch = stripe.fills[key]
            flat, n = stripe.flat(key, False), len(batch)
            out += [(edge, self._colours[key], flat, k, min(_OPS_EVERY, n - k)) for k in range(0, n, _OPS_EVERY)]
        out.reverse()
        return out

    @staticmethod
    def _draw_op(painter: QPainter, op: tuple) -> None:
        pen, brush, flat, first, count = op
        painter.setPen(pen)
        if brush is not None:
            painter.setBrush(brush)
        draw_flat(painter, brush is None, flat, first, count)

    def _paint_stripe(self, painter: QPainter, i: tuple[int, int], scale: float) -> None:
        fills, lines = self._stripes[i].batches()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        for key, segs in lines:
            painter.setPen(self._pens[key])
            draw_flat(painter, True, segs)
        painter.setPen(QPen(_EDGE, 0) if scale >= 0.03 else Qt.PenStyle.NoPen)  # edges once they are apart
        for key, rects in fills:
            painter.setBrush(self._colours[key])
            draw_flat(painter, False, rects)


def overview_scene(scene: Any, everything: bool = True) -> QGraphicsScene:
    """The scene the view shows while zoomed far out: the overview of ``scene`` alone, so a frame
    never looks through the tens of thousands of items indexed in ``scene`` itself. With
    ``everything`` the overview gathers all of the scene's items again (they were made anew);
    else only what it was told changed meanwhile: the scene tells it of every change while
    zoomed in too (colours, selection, highlights, what a morph moved), and gathering the 32x
    site expanded from nothing as a zoom came back out blocked the event loop 0.75-0.9 s."""
    if scene.overview is None:
        scene.overview = OverviewItem(scene)
        scene.overview_scene = QGraphicsScene()  # no Qt parent: it lives and dies with ``scene``
        scene.overview_scene.setBackgroundBrush(scene.backgroundBrush())
        scene.overview_scene.addItem(scene.overview)
        everything = True
    scene.overview_scene.setSceneRect(scene.sceneRect())
    scene.overview.set_bounds(scene.sceneRect(), *((None, None) if everything else ((), ())))
    return scene.overview_scene
