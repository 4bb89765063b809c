"""Shapes kept as C arrays of doubles and drawn through Qt's pointer-and-count calls (the
overview's batches, :mod:`widgets.canvas.overview`): no Python object made a shape."""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from itertools import chain

import shiboken6
from PySide6.QtCore import QLineF, QRectF
from PySide6.QtGui import QPainter


def flat_shapes(shapes: Iterable[tuple[float, float, float, float]]) -> array:
    """Rectangles (x, y, w, h) or lines (x1, y1, x2, y2) as one C array of doubles, four a
    shape: the memory of as many QRectF or QLineF (see :func:`draw_flat`)."""
    return array("d", chain.from_iterable(shapes))


def draw_flat(painter: QPainter, lines: bool, shapes: array, first: int = 0, count: int | None = None) -> None:
    """Draw ``count`` shapes of ``shapes`` (:func:`flat_shapes`) from the ``first`` (all: None):
    ``lines``, else rectangles with the painter's brush. Qt's call that takes the first of a C
    array and a count (PySide6 >= 6.4.3) is handed one buffer kept for good (:class:`ShapeBuffer`),
    the shapes copied into it a run at a time, so no Python object is made a shape: a QRectF or
    QLineF made for each of the 16x site's 99,000 took 58 of the 138 ms its whole picture took."""
    n = len(shapes) // 4 - first if count is None else count
    buffer = _LINES if lines else _RECTS
    while n > 0:
        k = min(n, ShapeBuffer.SHAPES)
        buffer.data[: 4 * k] = shapes[4 * first : 4 * (first + k)]
        if lines:
            painter.drawLines(buffer.first, k)
        else:
            painter.drawRects(buffer.first, k)
        first, n = first + k, n - k


class ShapeBuffer:
    """A C array of :data:`SHAPES` rectangles or lines that lives as long as the program (never
    resized: its address stays), and a wrapper of its first as the Qt type, made once."""

    SHAPES = 1024

    def __init__(self, kind: type) -> None:
        self.data = array("d", bytes(8 * 4 * self.SHAPES))
        self.first = shiboken6.wrapInstance(self.data.buffer_info()[0], kind)


_RECTS, _LINES = ShapeBuffer(QRectF), ShapeBuffer(QLineF)
