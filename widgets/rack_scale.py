"""A rack's unit numbers and ticks, drawn by the Racks panel (widgets.rack_elevation) beside each
rack's column as one item."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

UPX = 14.0  # one rack unit on screen (points)
NUMBERS_W = 22.0  # the unit numbers left of each rack


class UnitScale(QGraphicsItem):
    """A rack's unit numbers and ticks left of its column, one item: as an item per number and
    per tick (83 for a 42U rack) the 16x site's racks held 14,600 items, which Qt's index of the
    scene moved one by one when an edit shifted the racks (a server deleted: 25-36 ms). Painted
    once per zoom (the device cache)."""

    def __init__(self, col: QRectF, height_u: int, parent: QGraphicsItem) -> None:
        super().__init__(parent)
        self.col, self.height_u = QRectF(col), height_u
        self._bounds = QRectF(col.left() - NUMBERS_W, col.top(), NUMBERS_W + 6, col.height())
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt override)
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: Any = None) -> None:
        x, bottom = self.col.left(), self.col.bottom()
        font = QFont()
        font.setPointSizeF(6.5)
        painter.setFont(font)
        painter.setPen(QColor("#000000"))
        align = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop
        for u in range(1, self.height_u + 1):
            painter.drawText(QRectF(x - NUMBERS_W + 2, bottom - u * UPX + 1, NUMBERS_W, UPX), align, str(u))
        painter.setPen(QPen(QColor("#b0b0b0")))
        ys = (bottom - (u - 1) * UPX for u in range(2, self.height_u + 1))
        painter.drawLines([QLineF(x, y, x + 6, y) for y in ys])
