"""How the overview (widgets.canvas.overview) lays and draws the boxes' names far out: across a
box's top, or up its left edge when it is tall and narrow, each a :class:`QStaticText` laid out
once (a mixin of :class:`widgets.canvas.overview.OverviewItem`)."""

from __future__ import annotations

import time
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QStaticText, QTransform

from widgets.canvas.items import font, metrics

#: a paint lays the names again at a new zoom for about this long; the others are drawn as they
#: were laid at the zoom before, and laid at the next paints (all of them, 1,152 on the 16x site
#: expanded, took 4-5 ms of a paint; 0.8 ms took a millisecond off the bench's zoom row, but a
#: loaded machine then showed some names a frame late, where no name laid before stood in)
NAMES_PAINT_S = 0.0015


def draw_name(painter: QPainter, op: tuple) -> None:
    """Draw a name laid by :func:`name_at`."""
    if op[0] is None:
        painter.drawStaticText(op[1], op[2])
    else:
        base = painter.transform()
        painter.setTransform(op[0] * base)  # (x up the box, y across it)
        painter.drawStaticText(0.0, 0.0, op[2])
        painter.setTransform(base)


def name_at(rect: QRectF, name: str, scale: float, fm: Any) -> tuple | None:
    """Where and how a box's name is drawn at ``scale`` (font metrics ``fm``): (None, its
    top-left corner, the text) across the box's top, or (the turn from the scene up the box,
    None, the text) up its left edge; None when the box is too small for a name, or the name
    would be elided too far. The text a :class:`QStaticText`: its glyphs laid out once (256
    names up the drawers of the 16x site expanded took 1.9 ms a paint drawn as strings, 1.0
    as static texts)."""
    if rect.width() * scale >= 40:
        text = fm.elidedText(name, Qt.TextElideMode.ElideRight, rect.width() - 4 / scale)
        return (
            (None, QPointF(rect.left() + 2 / scale, rect.top() + 1 / scale), static_text(text))
            if len(text) >= 4
            else None
        )
    if rect.width() * scale >= 12 and rect.height() * scale >= 40:
        text = fm.elidedText(name, Qt.TextElideMode.ElideRight, rect.height() - 4 / scale)
        up = QTransform.fromTranslate(rect.left() + 1 / scale, rect.bottom() - 2 / scale).rotate(-90)
        return (up, None, static_text(text)) if len(text) >= 4 else None
    return None


def static_text(text: str) -> QStaticText:
    st = QStaticText(text)
    st.setPerformanceHint(QStaticText.PerformanceHint.AggressiveCaching)
    return st


class NameLaying:
    """The overview's names (see the module docstring): ``_box_names`` (box id -> its rectangle
    and name) gathered by the overview, ``_names_laid`` and ``_names_before`` as laid at the
    zoom of the last paint and the one before."""

    _box_names: dict[str, tuple[QRectF, str]]
    _names_laid: dict[Any, tuple]
    _names_before: dict[Any, tuple]
    _whole: Any  # (the overview's: whether a paint lays every name at once)

    def _paint_names(self, painter: QPainter, scale: float, exposed: QRectF) -> None:
        """The groups' and servers' names, about 9 pixels high, where the box is wide enough on
        screen; up its left edge where it is tall and narrow instead (a server beside its
        drawers, an expanded drawer: a site's bands zoomed to fit say which server each is)."""
        size = 9.0 / max(scale, 1e-4)
        f = font(round(size, 1), True)
        painter.setFont(f)
        painter.setPen(QColor(30, 30, 30))
        laid, fm = self._names_laid, None
        if laid.get(None) != (scale, f.pointSizeF()):  # (another zoom: every name elided again)
            self._grave.bury(self._names_before)  # (freed when idle: the 16x site's 1,400 static
            self._names_before = laid  # texts took 16-19 ms to free at once)
            self._names_laid = laid = {None: (scale, f.pointSizeF())}
            scene = self._scene()
            if scene is not None:
                scene.idle_later()
        until = None if self._whole() else time.perf_counter() + NAMES_PAINT_S
        before, former, fresh = self._names_before, [], 0
        for cid, (rect, name) in self._box_names.items():
            if not rect.intersects(exposed):
                continue
            got = laid.get(cid)
            if got is None or got[0] != name or got[1] != rect:
                fresh += 1
                if until is not None and fresh > 8 and time.perf_counter() >= until:  # (at the next paints)
                    old = before.get(cid)
                    if old is not None and old[0] == name and old[1] == rect and old[2] is not None:
                        former.append(old[2])
                    continue
                fm = fm or metrics(f)
                got = laid[cid] = (name, rect, name_at(rect, name, scale, fm))
            if got[2] is not None:
                draw_name(painter, got[2])
        if until is not None and fresh > 8 and time.perf_counter() >= until:
            self._paint_later()
        if former:  # (as laid at the zoom before, in its font: a little larger or smaller a frame or two)
            painter.setFont(font(before[None][1], True))
            for op in former:
                draw_name(painter, op)

    def _paint_names_as_laid(self, painter: QPainter, exposed: QRectF) -> None:
        """While the view zooms: the names as laid at the zoom of an earlier paint (and those not
        laid again yet as at the zoom before it), scaled with the picture; none laid anew."""
        laid, before, names = self._names_laid, self._names_before, self._box_names
        painter.setPen(QColor(30, 30, 30))
        for layout, skip in ((laid, {}), (before, laid)):
            if layout.get(None) is None:
                continue
            painter.setFont(font(layout[None][1], True))
            for cid, got in layout.items():
                if cid is None or got[2] is None or cid in skip or not got[1].intersects(exposed):
                    continue
                if names.get(cid) == (got[1], got[0]):  # (not of a box gone or renamed since)
                    draw_name(painter, got[2])
