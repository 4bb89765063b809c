"""Graphics items of the canvas: a component box (:class:`BoxItem`) and a link between two boxes
(:class:`LinkItem`: a cable, a tree edge, an ownership or a PV link).

Items only draw: they hold what the scene tells them (label, utilization, binding count,
highlight, the port state while a cable is drawn) and never read or change the model.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPalette,
    QPen,
)
from PySide6.QtWidgets import (
    QApplication,
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsRectItem,
    QGraphicsSimpleTextItem,
    QStyleOptionGraphicsItem,
)

from planner import bands
from planner.layout import COLLAPSIBLE
from planner.schema import KINDS

_COLOURS: dict[str, QColor] = {}


def qcolor(hex_colour: str) -> QColor:
    """A shared QColor for a '#rrggbb' string of :mod:`planner.bands` or :mod:`planner.schema`."""
    c = _COLOURS.get(hex_colour)
    if c is None:
        c = _COLOURS[hex_colour] = QColor(hex_colour)
    return c


IDLE = qcolor(bands.IDLE)
_PV_IDLE = QColor(170, 170, 200)  # (a volume group's link to its hdisks, with no figure)
BIND = qcolor(bands.BINDING)
HIGHLIGHT = qcolor(bands.HIGHLIGHT)
NO_FILL = QColor(248, 248, 248)  # a kind the schema gives no fill

_FONTS: dict[tuple[float, bool], QFont] = {}


def font(size: float, bold: bool = False) -> QFont:
    """Shared fonts (one QFont per size; also far fewer setter calls when building a scene)."""
    key = (size, bold)
    f = _FONTS.get(key)
    if f is None:
        f = _FONTS[key] = QFont()
        f.setPointSizeF(size)
        f.setBold(bold)
    return f


def util_color(u: float | None) -> QColor:
    """The band colour of a utilization (grey when there is no figure)."""
    return IDLE if u is None else qcolor(bands.colour(u))


def legend_rows() -> list[tuple[QColor, str]]:
    """(colour, text) for each utilization band, as the legend shows them."""
    ok, over = f"{bands.OK_BELOW * 100:.0f}", f"{bands.OVER_FROM * 100:.0f}"
    return [
        (qcolor(bands.STRONG["ok"]), f"under {ok} % utilized"),
        (qcolor(bands.STRONG["busy"]), f"{ok} to {over} %"),
        (qcolor(bands.STRONG["over"]), f"{over} % and more (saturated)"),
    ]


def kind_fill(kind: str) -> QColor:
    """The fill of a box of ``kind`` (darkened under a dark palette)."""
    spec = KINDS.get(kind)
    fill = QColor(spec.fill) if spec is not None and spec.fill else NO_FILL
    return fill.darker(320) if is_dark() else fill


_DARK: dict[int, bool] = {}


def is_dark() -> bool:
    """Whether the application's palette is dark (remembered per palette)."""
    app = QApplication.instance()
    if not app:
        return False
    palette = app.palette()
    key = palette.cacheKey()
    dark = _DARK.get(key)
    if dark is None:
        dark = _DARK[key] = palette.color(QPalette.ColorRole.Window).lightness() < 128
    return dark


class BoxItem(QGraphicsRectItem):
    """One component (or a collapsed group) on the canvas.

    A box shows its label (elided to its width, the full text in the tooltip; a tall box wraps
    it onto two lines), the load and capacity of its own component where there is room
    ("585 / 600 MB/s, 98 %", or "98 %" in a one-line row), and a band-coloured bar. A drive
    bay (``box.state``) is a small cell: free, or in an array. Zoomed far out the scene switches
    to summary boxes (:meth:`set_low_detail`): inner text hidden, each group's name large.
    """

    def __init__(
        self, box, parent: QGraphicsItem | None = None, head: float | None = None, asleep: bool = False
    ) -> None:
        super().__init__(0, 0, box.w, box.h, parent)
        self.box = box
        self.head = box.h if head is None else head  # room above the first box drawn inside it
        self.cid = box.id
        self.kind = box.kind
        self.depth = parent.depth + 1 if isinstance(parent, BoxItem) else 0  # boxes around it
        self.util: float | None = None
        self.binds = 0
        self.bind_shown = True  # False while a chosen path marks another hop as its binding one
        self.highlighted = False
        self.port_state = ""  # "", "ok" or "bad" while a cable is drawn
        #: where an inner box was put in its container (read by the morph instead of asking Qt:
        #: only the canvas places inner boxes, a drag moves the top-level one); None: unknown
        self.at: tuple[float, float] | None = None
        flags = QGraphicsItem.GraphicsItemFlag.ItemIsSelectable
        if parent is None:
            flags |= QGraphicsItem.GraphicsItemFlag.ItemIsMovable
        self.setFlags(flags)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setAcceptHoverEvents(True)
        self._fill = cell_fill(box.state) if box.state else kind_fill(box.kind)
        self.text: QGraphicsSimpleTextItem | None = None
        self.subtext: QGraphicsSimpleTextItem | None = None
        self.figure: QGraphicsSimpleTextItem | None = None  # load / capacity
        self.summary: QGraphicsSimpleTextItem | None = None  # the name, large, at low detail
        self.summary_scale = 1.0  # the view's scale the summary was set for
        self._figure_text = self._short = ""
        self._figure_due: tuple[str, str] | None = None  # (far out) the figure to place once woken
        self._sub_due: tuple[str, ...] | None = None  # (far out) the second line to place once woken
        self._title_due = False  # (far out) relabelled: its title to wrap and place once woken
        self._tip_due = False  # the analysis tooltip is to be made (see toolTip)
        self.setToolTip(self.base_tip())
        self.bays = False  # an enclosure whose drive bays it draws
        self.low = False  # summary mode (zoomed far out): see set_low_detail
        self.tile: Any = None  # a top-level box's tile of the view's summary layer (zoomed out)
        #: its texts are not made yet, only what they are to say kept (see :meth:`wake`)
        self.asleep = False
        self._sub_wanted: tuple[str, ...] | None = None  # (asleep) the second line last asked for
        if box.state:  # a drive bay: its enclosure draws it (one cached picture for 14 cells)
            if isinstance(parent, BoxItem):
                parent.bays = True
            self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, True)
            self.setCacheMode(QGraphicsItem.CacheMode.NoCache)
            return
        if asleep:
            self.asleep = True
            return
        self._make_texts()

    def _make_texts(self) -> None:
        box = self.box
        bold = box.collapsed or (box.container is None and box.kind in COLLAPSIBLE)
        self.text = QGraphicsSimpleTextItem(self)
        self.text.setVisible(not self.low)
        self.text.setFont(font(7.0 if box.h < 20 else 8.0, bold))
        self.text.setBrush(QBrush(QApplication.palette().color(QPalette.ColorRole.Text)))
        self.text.setPos(4, 1)
        self._set_title(box.label.split("\n")[0])
        if "\n" in box.label:
            self.set_subtext(box.label.split("\n", 1)[1])

    def wake(self) -> None:
        """Make the texts of an item made asleep, saying what was asked of them meanwhile. A box
        made while the canvas is zoomed far out (the overview shown, no item drawn) is made
        asleep: its title wrapped and its figures placed cost 20-30 us a box, a third of the
        canvas's work when a server of the 16x site comes back (361 boxes made, 424 painted). An
        item awake places the second line and the figure it was given far out (see
        :meth:`set_subtext`, :meth:`set_figure`)."""
        if self._title_due:
            self._title_due = False
            self._set_title(self.box.label.split("\n")[0])
            if self.summary is not None:
                self.set_low_detail(self.low, self.summary_scale)
        if self._sub_due is not None:
            sub_due, self._sub_due = self._sub_due, None
            self.set_subtext(*sub_due)
        if self._figure_due is not None:
            due, self._figure_due = self._figure_due, None
            self.set_figure(*due)
        if not self.asleep:
            return
        self.asleep = False
        sub, self._sub_wanted = self._sub_wanted, None
        figure, self._figure_text, self._short = (self._figure_text, self._short), "", ""
        self._make_texts()
        if sub is not None:
            self.set_subtext(*sub)
        if figure[0]:
            self.set_figure(*figure)

    def base_tip(self) -> str:
        """The box's full label and its context (a slot's PHB and link, a drive's array)."""
        text = self.box.label.replace("\n", " - ")
        return f"{text}\n{self.box.tip}" if self.box.tip else text

    @property
    def collapsible(self) -> bool:
        """Whether this box is a top-level group that collapses (drawer, switch, subsystem...)."""
        return self.kind in COLLAPSIBLE and self.box.container is None

    def _title_room(self) -> int:
        """Lines the title may take: two in a tall box that has no second line of its own."""
        return 2 if self.head >= 2.4 * LINE and "\n" not in self.box.label and not self.box.collapsed else 1

    def _set_title(self, title: str) -> None:
        assert self.text is not None
        fm = metrics(self.text.font())
        room = self.box.w - 8 - (14 if self.box.collapsed else 0)
        lines = wrap(title, fm, room, self._title_room(), ", ")
        if lines[-1].endswith("\u2026"):  # no break after a comma fits: break between words
            lines = wrap(title, fm, room, self._title_room())
        self.text.setText("\n".join(lines))
        self._place_lines()

    def _place_lines(self) -> None:
        """Put the second line and the load figure under the title."""
        below = 1 + (self.text.boundingRect().height() if self.text is not None else 0)
        if self.subtext is not None:
            self.subtext.setPos(4, below - 1)
            below += self.subtext.boundingRect().height() - 1
        if self.figure is not None:
            self._place_figure(below)

    def set_label(self, box, later: bool = False) -> bool:
        """Show a new label of the same box (an edit that moved nothing). ``later``: the canvas
        is zoomed far out (no item drawn): a new title is wrapped and placed when the box is
        woken, as :meth:`set_figure` keeps a figure (a server of the 16x site deleted or back
        relabels the 224 switch ports cabled to it, 4-5 ms of the morph); True when it is to
        be woken."""
        old, self.box = self.box.label.split("\n", 1), box
        new = box.label.split("\n", 1)
        due = False  # (asleep, no text: made from the label when it wakes)
        if self.text is not None and (old[0] != new[0] or self._title_due):
            if later:
                self._title_due = due = True
            else:
                self._title_due = False
                self._set_title(new[0])
                if self.summary is not None:  # (its name, large, zoomed out: at the scale it was set for)
                    self.set_low_detail(self.low, self.summary_scale)
        if old[1:] != new[1:] and len(new) > 1:
            due = self.set_subtext(new[1], later=later) or due
        if (self.text is None and not self.asleep) or self.util is None:
            self._tip_due = False
            self.setToolTip(self.base_tip())
        return due

    @property
    def due(self) -> bool:
        """Whether a text given far out is still to be placed (see :meth:`wake`)."""
        return self._figure_due is not None or self._sub_due is not None or self._title_due

    def set_subtext(self, text: str, *shorter: str, later: bool = False) -> bool:
        """The second line (a group's count, a collapsed group's load): ``text``, or the first of
        the ``shorter`` ones that fits without eliding. ``later``: the canvas is zoomed far out
        (no item drawn): kept to be placed when woken, as :meth:`set_figure` keeps a figure (a
        figure set switched on the 16x site folded wrapped 1,120 groups' loads, 15 ms of its
        65 ms paint); True when it is to be woken."""
        if self.asleep:
            self._sub_wanted = (text, *shorter)
            return False
        if self.text is None:
            return False
        if later:
            self._sub_due = (text, *shorter)
            return True
        self._sub_due = None
        if self.subtext is None:
            self.subtext = QGraphicsSimpleTextItem(self)
            self.subtext.setVisible(not self.low)
            self.subtext.setFont(font(7.0))
            self.subtext.setBrush(self.text.brush())
        fm = metrics(self.subtext.font())
        room = max(1, int((self.head - 5 - self.text.boundingRect().height()) // fm.height()))
        for option in (text, *shorter):
            lines = "\n".join(wrap(option, fm, self.box.w - 8, room, ", "))
            if not lines.endswith("\u2026"):
                break
        self.subtext.setText(lines)
        self._place_lines()
        return False

    def set_figure(self, text: str, short: str, later: bool = False) -> bool:
        """The load and capacity of the box's component: ``text`` where it fits, else ``short``.
        ``later``: the canvas is zoomed far out (the overview shown, no item drawn): kept to be
        placed when woken (:meth:`wake`; a server deleted on the 16x site expanded placed 763
        boxes' figures in the analysis's paint, 8 of its 13 ms); True when it is to be woken."""
        if self.asleep:
            self._figure_text, self._short = text, short
            return False
        if later and self.text is not None:
            if self._figure_due is None and (text, short) == (self._figure_text, self._short):
                return False
            self._figure_due = (text, short)
            return True
        self._figure_due = None
        if self.text is None or (text, short) == (self._figure_text, self._short):
            return False
        self._figure_text, self._short = text, short
        if not text:
            if self.figure is not None:
                self.figure.setText("")
            return False
        if self.figure is None:
            self.figure = QGraphicsSimpleTextItem(self)
            self.figure.setVisible(not self.low)
            self.figure.setFont(font(7.0))
            self.figure.setBrush(self.text.brush())
        self._place_lines()
        return False

    def _place_figure(self, below: float) -> None:
        assert self.figure is not None and self.text is not None
        fm = metrics(self.figure.font())
        text, room = self._figure_text, self.box.w - 8
        lines = int((self.head - 3 - below) // fm.height())
        if lines >= 1:  # lines of its own under the title
            self.figure.setText("\n".join(wrap(text, fm, room, lines)))
            self.figure.setPos(4, below - 1)
            return
        # a one-line row: right-aligned after the title, the full figure or the percentage
        free = room - self.text.boundingRect().width() - 6
        shown = text if fm.horizontalAdvance(text) <= free else self._short
        if fm.horizontalAdvance(shown) > free:
            shown = ""
        self.figure.setText(shown)
        line_h = min(self.head, self.text.boundingRect().height() + 2)
        self.figure.setPos(self.box.w - 4 - fm.horizontalAdvance(shown), max(1.0, (line_h - fm.height()) / 2))

    def set_analysis(self, util: float | None, binds: int) -> None:
        """Show an analysis: the box's utilization and the paths it binds; its tooltip is made
        by the scene when it is asked for (see :meth:`toolTip`)."""
        if (util, binds) != (self.util, self.binds):
            self.util, self.binds = util, binds
            self.restyled()
        self._tip_due = True

    def toolTip(self) -> str:  # noqa: N802 (Qt's name; DiagramScene.helpEvent asks it first)
        if self._tip_due:
            self._tip_due = False
            maker = getattr(self.scene(), "analysis_tip", None)
            if maker is not None:
                self.setToolTip(maker(self))
        return super().toolTip()

    def set_highlight(self, on: bool) -> None:
        if on != self.highlighted:
            self.highlighted = on
            self.restyled()

    def set_bind_shown(self, on: bool) -> None:
        """Show this box's binding mark or not (a chosen path marks only its own binding hop);
        a box that binds no path looks the same either way and is not repainted (a port's
        zone partners lit up or no longer: every box of the 16x site repainted, 10-20 ms)."""
        if on != self.bind_shown:
            self.bind_shown = on
            if self.binds:
                self.restyled()

    def set_port_state(self, state: str) -> None:
        if state != self.port_state:
            self.port_state = state
            self.restyled()

    def restyled(self) -> None:
        """The box is drawn differently (colour, outline, selection): repaint it, and, zoomed
        out, the summary layer's tile that draws it."""
        self.update()
        top = self.topLevelItem()
        if isinstance(top, BoxItem) and top.tile is not None:
            top.tile.invalidate_boxes()

    def set_low_detail(self, low: bool, scale: float) -> None:
        """Summary mode when zoomed far out: inner text hidden, a group shows its name large; the
        view's summary layer (:mod:`widgets.canvas.summary`) draws the boxes and links in batches,
        so the items themselves draw nothing (they still take clicks, hover and selection)."""
        self.wake()
        if low != self.low:
            self.low = low
            for t in (self.text, self.subtext, self.figure):
                if t is not None:
                    t.setVisible(not low)
            if not self.box.state:  # a drive bay never draws itself
                self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, low)
        if self.parentItem() is not None or self.text is None:
            return
        if low and self.summary is None:
            self.summary = QGraphicsSimpleTextItem(self)
            self.summary.setBrush(self.text.brush())
        if self.summary is None:
            return
        self.summary.setVisible(low)
        self.summary_scale = scale
        title = self.box.label.split("\n")[0]
        px = 1.0 / max(scale, 1e-3)  # one screen pixel in scene units
        # about 11 pixels high, within the title row of a group; at least 7 pixels where the box allows
        size = max(min(11 * px, self.box.h * 0.6, self.head * 0.85), min(7 * px, self.box.h * 0.9))
        wide = metrics(font(round(size, 1), True)).horizontalAdvance(title)
        if wide > self.box.w - 6:  # smaller, down to where the name still reads, then elided
            size = max(size * (self.box.w - 6) / wide, 7 * px)
        readable = low and size * scale >= 6.0  # too small a box for its name to be read: none
        self.summary.setVisible(readable)
        if readable:
            self.summary.setFont(font(round(size, 1), True))
            fm = metrics(self.summary.font())
            text = fm.elidedText(title, ELIDE, self.box.w - 6)
            self.summary.setText(text)
            self.summary.setPos(3, 2)
            self.summary.setVisible(text == title or len(text) >= 6)  # never a stub like "fa..."

    def _pen(self) -> QPen:
        if self.isSelected():
            return PENS["selected"]
        if self.port_state == "bad":
            return PENS["bad"]
        if self.port_state == "ok":
            return PENS["ok"]
        if self.highlighted and self.binds and self.bind_shown:  # the chosen path's binding hop
            return PENS["chosen bind"]
        if self.highlighted:
            return PENS["highlight"]
        if self.binds and self.bind_shown:
            return PENS["bind"]
        return PENS["dark edge" if is_dark() else "edge"]

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: Any = None) -> None:
        r = self.rect()
        painter.setBrush(QBrush(self._fill))
        painter.setPen(self._pen())
        painter.drawRoundedRect(r, 3, 3)
        if self.bays or self.box.cells:
            self._paint_bays(painter)
        if self.util is not None:  # utilization bar along the bottom edge
            bar = QRectF(r.left() + 2, r.bottom() - 3.5, (r.width() - 4) * min(self.util, 1.0), 2.5)
            painter.fillRect(bar, util_color(self.util))
        if self.box.collapsed:
            painter.setPen(PENS["plus"])
            painter.drawText(QRectF(r.right() - 14, r.top(), 12, 14), Qt.AlignmentFlag.AlignCenter, "+")

    def _paint_bays(self, painter: QPainter) -> None:
        """An enclosure's bays: its drives (filled by state, a selected one outlined) and, dotted,
        its empty bays."""
        for c in self.childItems():
            if isinstance(c, BoxItem) and c.box.state:
                painter.setBrush(QBrush(c._fill))
                painter.setPen(PENS["selected cell"] if c.isSelected() else PENS["cell"])
                painter.drawRect(QRectF(c.pos().x(), c.pos().y(), c.box.w, c.box.h))
        if self.box.cells:
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(PENS["empty bay"])
            for x, y, w, h in self.box.cells:
                painter.drawRect(QRectF(x - self.box.x, y - self.box.y, w, h))


def summary_batch(top: BoxItem, ops: dict[tuple, tuple[Any, Any, list]]) -> None:
    """Add ``top`` and the boxes inside it to ``ops``: (depth, what, pen, fill) -> (pen, brush,
    rectangles (x, y, w, h) or, for a brush of None, lines (x1, y1, x2, y2), as plain tuples) in
    scene coordinates; painted in the order of their keys, outer boxes first. The summary of each
    box: its outline and fill, its load bar, its empty bays, a "+" on a collapsed group. Plain
    tuples, not QRectF: every Qt object made is an entry in PySide's table of wrappers, and the
    16x site's layer, gathered, took it from 132,000 entries to 337,000 (a doubling of the table
    copies every entry: 40-50 ms in one slice)."""
    pos = top.pos()
    ox, oy = top.box.x - pos.x(), top.box.y - pos.y()
    stack: list[tuple[BoxItem, int]] = [(top, 0)]
    while stack:
        item, depth = stack.pop()
        b = item.box
        x, y = b.x - ox, b.y - oy
        if b.state:  # a drive bay
            pen = PENS["selected cell"] if item.isSelected() else PENS["cell"]
        else:
            pen = item._pen()
        ops.setdefault((depth, 0, id(pen), item._fill.rgba()), (pen, QBrush(item._fill), []))[2].append(
            (x, y, b.w, b.h)
        )
        if item.util is not None:
            colour = util_color(item.util)
            ops.setdefault((depth, 1, colour.rgba(), 0), (Qt.PenStyle.NoPen, QBrush(colour), []))[2].append(
                (x + 2, y + b.h - 3.5, (b.w - 4) * min(item.util, 1.0), 2.5)
            )
        for cx, cy, w, h in b.cells:
            empty = (depth + 1, 2, 0, 0)
            ops.setdefault(empty, (PENS["empty bay"], Qt.BrushStyle.NoBrush, []))[2].append((cx - ox, cy - oy, w, h))
        if b.collapsed:
            px, py = x + b.w - 8, y + 7
            plus = ops.setdefault((depth, 3, 0, 0), (PENS["plus"], None, []))[2]
            plus += ((px - 3, py, px + 3, py), (px, py - 3, px, py + 3))
        stack.extend((c, depth + 1) for c in item.childItems() if isinstance(c, BoxItem))


def _pen(color: QColor, width: float, style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPen:
    return QPen(color, width, style)


PENS = {
    "selected": _pen(QColor(255, 140, 0), 2.4),
    "selected cell": _pen(QColor(255, 140, 0), 1.6),
    "bad": _pen(QColor(200, 0, 0), 1.6, Qt.PenStyle.DashLine),
    "ok": _pen(QColor(0, 170, 0), 2.6),
    "chosen bind": _pen(BIND, 3.2),
    "highlight": _pen(HIGHLIGHT, 2.6),
    "bind": _pen(BIND, 2.2),
    "edge": _pen(QColor(110, 120, 140), 0.8),
    "dark edge": _pen(QColor(150, 160, 180), 0.8),
    "cell": _pen(QColor(110, 120, 140), 0.5),
    "empty bay": _pen(QColor(150, 150, 150), 0.6, Qt.PenStyle.DotLine),
    "plus": _pen(QColor(120, 120, 120), 0.8),
}


LINE = 11.0  # height of one 8 pt text line in scene units
ELIDE = Qt.TextElideMode.ElideRight
_METRICS: dict[tuple[float, bool], QFontMetricsF] = {}


def metrics(f: QFont) -> QFontMetricsF:
    key = (f.pointSizeF(), f.bold())
    m = _METRICS.get(key)
    if m is None:
        m = _METRICS[key] = QFontMetricsF(f)
    return m


#: texts wrapped, by (text, metrics, width, lines, separator): a figure set or direction switched
#: on the 16x site wrapped ~1,100 group loads anew (Qt measuring each word), 9 ms of its 40 ms
#: paint; its servers alike, most texts recur (and a switch back shows those of before). Kept
#: up to WRAPPED_KEPT, then started again.
_WRAPPED: dict[tuple, tuple[str, ...]] = {}
WRAPPED_KEPT = 20_000


def wrap(text: str, fm: QFontMetricsF, width: float, lines: int, sep: str = " ") -> tuple[str, ...]:
    """``text`` on at most ``lines`` lines of ``width``, broken at ``sep``, the last one elided
    (``fm``: one of :func:`metrics`, which are kept)."""
    key = (text, id(fm), width, lines, sep)
    got = _WRAPPED.get(key)
    if got is None:
        if len(_WRAPPED) >= WRAPPED_KEPT:
            _WRAPPED.clear()
        got = _WRAPPED[key] = tuple(_wrap(text, fm, width, lines, sep))
    return got


def _wrap(text: str, fm: QFontMetricsF, width: float, lines: int, sep: str) -> list[str]:
    if lines <= 1 or fm.horizontalAdvance(text) <= width:
        return [fm.elidedText(text, ELIDE, width)]
    words, first = text.split(sep), ""
    while words and fm.horizontalAdvance(first + sep + words[0] if first else words[0]) <= width:
        first = first + sep + words.pop(0) if first else words.pop(0)
    if not first or not words:
        return [fm.elidedText(text, ELIDE, width)]
    return [first + sep.rstrip(), *_wrap(sep.join(words), fm, width, lines - 1, sep)]


#: drive bays: free drives white, drives of alternate arrays in two shades of the array colour
CELL_FILLS = {"free": QColor(255, 255, 255), "array0": QColor(186, 160, 214), "array1": QColor(140, 158, 210)}


def cell_fill(state: str) -> QColor:
    """The fill of a drive bay in ``state`` ("free" or "array:<n>")."""
    if state.startswith("array:"):
        return CELL_FILLS[f"array{int(state.split(':')[1]) % 2}"]
    return CELL_FILLS["free"]


LINK_WIDTH = {"cable": 1.4, "tree": 1.0, "owner": 0.8, "pv": 0.6}
#: half the width of a box's pen (Qt's default, one unit): its bounding rectangle's margin
BOX_PEN_MARGIN = 0.5


_NO_PEN = QPen()  # (a link's pen until it is styled, read once: one made per link was 1 us of it)
#: the links' pens, one per look (colour, width, cosmetic, dotted): shared, never changed
_LINK_PENS: dict[tuple[int, float, bool, bool], QPen] = {}


def _link_pen(color: QColor, width: float, cosmetic: bool, dotted: bool) -> QPen:
    key = (color.rgba(), width, cosmetic, dotted)
    pen = _LINK_PENS.get(key)
    if pen is None:
        pen = _LINK_PENS[key] = QPen(color, width)
        pen.setCosmetic(cosmetic)
        if dotted:
            pen.setStyle(Qt.PenStyle.DotLine)
    return pen


def box_ends(a: Any, b: Any) -> tuple[float, float, float, float]:
    """The ends of the curve between boxes ``a`` and ``b`` (see LinkItem.update_path): a box's
    bounding rectangle is its rectangle and half its pen (BOX_PEN_MARGIN) around."""
    m = BOX_PEN_MARGIN
    return _curve_ends(a.x - m, a.y - m, a.w + 2 * m, a.h + 2 * m, b.x - m, b.y - m, b.w + 2 * m, b.h + 2 * m)


def _curve_ends(
    ax: float, ay: float, aw: float, ah: float, bx: float, by: float, bw: float, bh: float
) -> tuple[float, float, float, float]:
    if ax + aw / 2 > bx + bw / 2:
        ax, ay, aw, ah, bx, by, bw, bh = bx, by, bw, bh, ax, ay, aw, ah
    return (ax + aw, ay + ah / 2, bx, by + bh / 2)


class LinkItem:
    """A cable, a tree edge (drawer -> planar -> link -> PHB -> slot), ownership or PV link.

    It holds its path and pen but draws nothing itself: the view's summary layer
    (:mod:`widgets.canvas.summary`) draws the links in view under the boxes, in one loop (about
    half the cost of Qt drawing them as items). Nor is it a graphics item in the scene: no click
    or hover is meant for a link, and the scene's index of 2,000 long links made every path
    change cost 50 us (an edit that moved the storage column redrew 1,560 of them on the 16x
    site); a plain object also dies with its last reference, not with a Qt item's destructor
    whenever the collector gets to it. It answers ``path``, ``pen`` and ``boundingRect`` as
    a ``QGraphicsPathItem`` at the scene's origin would."""

    __slots__ = (
        "link", "a", "b", "cid", "util", "highlighted", "layer", "order",
        "segments", "polyline", "near", "_path", "_pen", "_bounds", "_extent", "ends", "rgba", "keys", "solid", "thin",
    )  # fmt: skip

    def __init__(self, link, a: BoxItem, b: BoxItem, boxes: tuple[Any, Any] | None = None) -> None:
        """The link between items ``a`` and ``b``; ``boxes``: their boxes, when the caller knows
        the items stand at them (no Qt call for the curve's ends: see :meth:`update_path`)."""
        self.link, self.a, self.b = link, a, b
        self.cid = link.via or ""
        self.util: float | None = None
        self.highlighted = False
        self.layer: Any = None  # the view's summary layer that draws it
        self.order = 0  # its place in the scene's links (the layer draws them in that order)
        self.segments: dict | None = None  # its path as short straight lines by tile (for the layer)
        self.polyline: Any = None  # its path as a fine polyline (for the layer, at a working zoom)
        self.near: dict | None = None  # the rectangle of that polyline over each tile (for the layer)
        self._path: QPainterPath | None = None  # (see path)
        self._pen, self._bounds, self._extent = _NO_PEN, None, None  # (restyle sets its own)
        self.ends = (0.0, 0.0, 0.0, 0.0)  # the curve's first and last points (x1, y1, x2, y2)
        self.rgba = 0  # its pen's colour (QColor.rgba)
        self.keys: list[tuple[int, int]] = []  # the layer's tiles it was put in (see SummaryLayer)
        self.solid = True  # its pen draws a solid line (not dotted)
        self.thin: QPen | None = None  # the layer's one-pixel pen of its colour, once asked for
        self.update_path(*(boxes or ()))
        self.restyle()

    def controls(self) -> tuple[tuple[float, float], ...]:
        """Its curve's four control points: a cubic from ``ends[:2]`` leaving to the right, to
        ``ends[2:]`` arriving from the left."""
        x1, y1, x2, y2 = self.ends
        dx = max((x2 - x1) * 0.5, 20)
        return (x1, y1), (x1 + dx, y1), (x2 - dx, y2), (x2, y2)

    def path(self) -> QPainterPath:
        """Its curve (see :meth:`controls`), made when first asked for: an edit that moves the
        storage column of the 16x site moves 1,560 links, whose curves only a view zoomed in
        on them draws."""
        if self._path is None:
            p0, p1, p2, p3 = self.controls()
            path = self._path = QPainterPath()
            path.moveTo(*p0)
            path.cubicTo(*p1, *p2, *p3)
        return self._path

    def pen(self) -> QPen:
        return self._pen

    def boundingRect(self) -> QRectF:  # noqa: N802 (as the Qt item's)
        """The rectangle of its curve's control points, a pen's width around: it holds what the
        pen draws (the bounds ``QGraphicsPathItem`` would give, Qt's stroke of the path, were
        30 us a link, most of cutting a site's links into tiles again after an edit)."""
        if self._bounds is None:
            self._bounds = QRectF(*self._rect())
        return self._bounds

    def extent(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of :meth:`boundingRect`, as the rectangle gives them, made
        without a Qt object (the summary layer puts the links in tiles by it: an edit that moves
        the 16x site's storage column moves 1,460 links)."""
        if self._extent is None:
            x, y, w, h = self._rect()
            self._extent = (x, y, x + w, y + h)
        return self._extent

    def _rect(self) -> tuple[float, float, float, float]:
        xs, ys = zip(*self.controls())
        m = max(self._pen.widthF(), 1.0)
        left, right, top, bottom = min(xs), max(xs), min(ys), max(ys)
        return left - m, top - m, right - left + 2 * m, bottom - top + 2 * m

    sceneBoundingRect = boundingRect  # (it stands at the scene's origin)

    def update_path(self, a: Any = None, b: Any = None) -> None:
        """The curve from the right edge of the left end's box to the left edge of the other:
        between the ends' items where they are now, or between the boxes ``a`` and ``b`` (their
        places in the scene, when the caller knows the items stand there: no Qt call for it)."""
        if a is None or b is None:
            ra, rb = self.a.sceneBoundingRect(), self.b.sceneBoundingRect()
            self.ends = _curve_ends(ra.x(), ra.y(), ra.width(), ra.height(), rb.x(), rb.y(), rb.width(), rb.height())
        else:
            self.ends = box_ends(a, b)
        self._path = self._bounds = self._extent = None
        self.segments = self.polyline = self.near = None
        if self.layer is not None:
            self.layer.relink(self)

    def restyle(self) -> bool:
        """Take the pen of its utilization band and highlight; True when it is another one (the
        layer's tiles it passes through are drawn again). A new figure in the same band draws
        the same: a figure set or direction switched on the 16x site gave 1,120 links a new
        figure, every one in the band it was in, and each link was handed to the layer's tiles
        and the overview to be gathered and drawn again."""
        kind = self.link.kind
        width = LINK_WIDTH.get(kind, 1.0)
        color = util_color(self.util) if self.util is not None else (IDLE if kind != "pv" else _PV_IDLE)
        if self.highlighted:
            color, width = HIGHLIGHT, 3.0
        self.solid = kind not in ("owner", "pv")
        pen = _link_pen(color, width, kind != "cable" or self.highlighted, not self.solid)
        if pen is self._pen:
            return False
        if pen.widthF() != self._pen.widthF():
            self._bounds = self._extent = None
        self._pen, self.rgba, self.thin = pen, color.rgba(), None
        if self.layer is not None:
            self.layer.restyled(self)
        return True


class RubberCableItem(QGraphicsPathItem):
    """The dashed line that follows the mouse while a cable is drawn."""

    def __init__(self) -> None:
        super().__init__()
        pen = QPen(HIGHLIGHT, 2, Qt.PenStyle.DashLine)
        pen.setCosmetic(True)
        self.setPen(pen)
        self.setZValue(10)

    def stretch(self, start: QPointF, end: QPointF) -> None:
        path = QPainterPath(start)
        path.lineTo(end)
        self.setPath(path)
