"""Graphics items of the canvas: a component box (:class:`BoxItem`) and a link between two boxes
(:class:`LinkItem`: a cable, a tree edge, an ownership or a PV link).

Items only draw: they hold what the scene tells them (label, utilization, binding count,
highlight, the port state while a cable is drawn) and never read or change the model.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPalette, QPen
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


def is_dark() -> bool:
    app = QApplication.instance()
    return bool(app) and app.palette().color(QPalette.ColorRole.Window).lightness() < 128


class BoxItem(QGraphicsRectItem):
    """One component (or a collapsed group) on the canvas."""

    def __init__(self, box, parent: QGraphicsItem | None = None) -> None:
        super().__init__(0, 0, box.w, box.h, parent)
        self.box = box
        self.cid = box.id
        self.kind = box.kind
        self.util: float | None = None
        self.binds = 0
        self.highlighted = False
        self.port_state = ""  # "", "ok" or "bad" while a cable is drawn
        flags = QGraphicsItem.GraphicsItemFlag.ItemIsSelectable
        if parent is None:
            flags |= QGraphicsItem.GraphicsItemFlag.ItemIsMovable
        self.setFlags(flags)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setAcceptHoverEvents(True)
        self._fill = kind_fill(box.kind)
        bold = box.collapsed or (box.container is None and box.kind in COLLAPSIBLE)
        text = QGraphicsSimpleTextItem(box.label.split("\n")[0], self)
        text.setFont(font(7.0 if box.h < 20 else 8.0, bold))
        text.setBrush(QBrush(QApplication.palette().color(QPalette.ColorRole.Text)))
        text.setPos(4, 1)
        self.text = text
        self._clip_text(text, box.w - 8)
        self.subtext: QGraphicsSimpleTextItem | None = None
        if "\n" in box.label:
            self.set_subtext(box.label.split("\n", 1)[1], 14)
        self.setToolTip(box.label)

    @property
    def collapsible(self) -> bool:
        """Whether this box is a top-level group that collapses (drawer, switch, subsystem...)."""
        return self.kind in COLLAPSIBLE and self.box.container is None

    @staticmethod
    def _clip_text(item: QGraphicsSimpleTextItem, width: float) -> None:
        text = item.text()
        while text and item.boundingRect().width() > width:
            text = text[:-1]
            item.setText(text + "...")

    def set_label(self, box) -> None:
        """Show a new label of the same box (an edit that moved nothing)."""
        old, self.box = self.box.label.split("\n", 1), box
        new = box.label.split("\n", 1)
        if old[0] != new[0]:
            self.text.setText(new[0])
            self._clip_text(self.text, box.w - 8)
        if old[1:] != new[1:] and len(new) > 1:
            self.set_subtext(new[1], 14)

    def set_subtext(self, text: str, y: float = 13) -> None:
        """The second line (a group's count, a collapsed group's load)."""
        if self.subtext is None:
            self.subtext = QGraphicsSimpleTextItem(text, self)
            self.subtext.setFont(font(7.0))
            self.subtext.setBrush(self.text.brush())
            self.subtext.setPos(4, y)
        else:
            self.subtext.setText(text)

    def set_analysis(self, util: float | None, binds: int, tip: str) -> None:
        self.util, self.binds = util, binds
        self.setToolTip(tip)
        self.update()

    def set_highlight(self, on: bool) -> None:
        if on != self.highlighted:
            self.highlighted = on
            self.update()

    def set_port_state(self, state: str) -> None:
        if state != self.port_state:
            self.port_state = state
            self.update()

    def _pen(self) -> QPen:
        if self.isSelected():
            return QPen(QColor(255, 140, 0), 2.4)
        if self.port_state == "bad":
            return QPen(QColor(200, 0, 0), 1.6, Qt.PenStyle.DashLine)
        if self.port_state == "ok":
            return QPen(QColor(0, 170, 0), 2.6)
        if self.highlighted:
            return QPen(HIGHLIGHT, 2.6)
        if self.binds:
            return QPen(BIND, 2.2)
        return QPen(QColor(110, 120, 140) if not is_dark() else QColor(150, 160, 180), 0.8)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: Any = None) -> None:
        r = self.rect()
        painter.setBrush(QBrush(self._fill))
        painter.setPen(self._pen())
        painter.drawRoundedRect(r, 3, 3)
        if self.util is not None:  # utilization bar along the bottom edge
            bar = QRectF(r.left() + 2, r.bottom() - 3.5, (r.width() - 4) * min(self.util, 1.0), 2.5)
            painter.fillRect(bar, util_color(self.util))
        if self.box.collapsed:
            painter.setPen(QPen(QColor(120, 120, 120), 0.8))
            painter.drawText(QRectF(r.right() - 14, r.top(), 12, 14), Qt.AlignmentFlag.AlignCenter, "+")


LINK_WIDTH = {"cable": 1.4, "tree": 1.0, "owner": 0.8, "pv": 0.6}


class LinkItem(QGraphicsPathItem):
    """A cable, a tree edge (drawer -> planar -> link -> PHB -> slot), ownership or PV link."""

    def __init__(self, link, a: BoxItem, b: BoxItem) -> None:
        super().__init__()
        self.link, self.a, self.b = link, a, b
        self.cid = link.via or ""
        self.util: float | None = None
        self.highlighted = False
        self.setZValue(-1)
        self.setAcceptHoverEvents(True)
        self.update_path()
        self.restyle()

    def update_path(self) -> None:
        ra = self.a.sceneBoundingRect()
        rb = self.b.sceneBoundingRect()
        if ra.center().x() > rb.center().x():
            ra, rb = rb, ra
        p1 = QPointF(ra.right(), ra.center().y())
        p2 = QPointF(rb.left(), rb.center().y())
        path = QPainterPath(p1)
        dx = max((p2.x() - p1.x()) * 0.5, 20)
        path.cubicTo(QPointF(p1.x() + dx, p1.y()), QPointF(p2.x() - dx, p2.y()), p2)
        self.setPath(path)

    def restyle(self) -> None:
        kind = self.link.kind
        width = LINK_WIDTH.get(kind, 1.0)
        color = util_color(self.util) if self.util is not None else (IDLE if kind != "pv" else QColor(170, 170, 200))
        if self.highlighted:
            color, width = HIGHLIGHT, 3.0
        pen = QPen(color, width)
        pen.setCosmetic(kind != "cable" or self.highlighted)
        if kind in ("owner", "pv"):
            pen.setStyle(Qt.PenStyle.DotLine)
        self.setPen(pen)


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
