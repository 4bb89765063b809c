"""The links a view is about to show, drawn beforehand in slices (:class:`Backdrop`).

At a working zoom the view strokes every link over what it draws again: on the 16x site about
300 antialiased curves over a 1000 x 600 viewport, 25-40 ms in one paint (90 ms on a larger
screen) after an edit moved the boxes in view, after an analysis recoloured links there, and
when a zoom settles and the links are drawn smooth again. A backdrop draws the background and
those links into an image of the viewport, a few links per step, between events (while the
scene holds the views still, or in the view's own slices when a zoom settles); the paint then
copies the image. It holds only while nothing it shows changed: the layer's links (its
``version``, its tiles cut from the same items), the view's transform and size, and whether
links are drawn smooth; otherwise the view strokes the links as before.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QImage, QPainter, QTransform
from PySide6.QtWidgets import QGraphicsView

if TYPE_CHECKING:
    from widgets.canvas.view import DiagramView

#: the margin (pixels) around a changed tile's rectangle in view that Qt may draw again (it
#: rounds the scene rectangle to whole pixels)
EDGE = 3


def _state(view: DiagramView, smooth: bool) -> tuple:
    """What a backdrop's pixels depend on besides the area it covers."""
    t = view.viewportTransform()
    vp = view.viewport()
    layer = view.summary
    return (
        layer.version,
        layer.scene.generation,
        (t.m11(), t.m12(), t.m21(), t.m22(), t.dx(), t.dy()),
        vp.width(),
        vp.height(),
        vp.devicePixelRatioF(),
        smooth,
    )


def holds(backdrop: Backdrop, smooth: bool) -> bool:
    """Whether ``backdrop`` holds the view as it is now (links smooth or not)."""
    return backdrop.image is not None and backdrop.state == _state(backdrop.view, smooth)


class Backdrop:
    """One view's links drawn beforehand (see the module docstring)."""

    def __init__(self, view: DiagramView) -> None:
        self.view = view
        self.image: QImage | None = None
        self.area = QRect()  # what the image holds (viewport pixels)
        self.state: tuple = ()

    def drop(self) -> None:
        self.image, self.area, self.state = None, QRect(), ()

    def making(self, whole: bool, smooth: bool | None = None) -> Iterator[None]:
        """Draw what the view's next paint draws again (all of the viewport when ``whole``:
        its cache was reset; else the changed tiles in view), a few links per step; the
        backdrop holds it once done, unless something it shows changed meanwhile. Smooth
        links unless ``smooth`` says (default: as the layer draws them now)."""
        view = self.view
        layer = view.summary
        smooth = not layer.rough if smooth is None else smooth
        vp = view.viewport()
        shown = QRect(0, 0, vp.width(), vp.height())
        if whole:
            area = shown
        else:
            area = QRect()
            visible = view.mapToScene(shown).boundingRect()
            for bounds in layer.dirty_over(visible):
                area = area.united(view.mapFromScene(bounds).boundingRect().adjusted(-EDGE, -EDGE, EDGE, EDGE))
            area = area.intersected(shown)
        if area.isEmpty() or not layer.current():
            return
        state = _state(view, smooth)
        dpr = vp.devicePixelRatioF()
        image = QImage(round(vp.width() * dpr), round(vp.height() * dpr), QImage.Format.Format_ARGB32_Premultiplied)
        image.setDevicePixelRatio(dpr)
        image.fill(Qt.GlobalColor.transparent)
        exposed = view.mapToScene(area).boundingRect()
        painter = QPainter(image)
        try:
            painter.setClipRect(area)
            painter.setWorldTransform(view.viewportTransform())
            QGraphicsView.drawBackground(view, painter, exposed)  # the scene's fill
            for _ in layer.stroking(painter, exposed, smooth):
                if _state(view, smooth) != state:
                    return  # (something it shows changed: the view strokes it as before)
                yield
        finally:
            painter.end()
        if _state(view, smooth) == state:
            self.image, self.area, self.state = image, area, state

    def draw(self, painter: QPainter, exposed: QRectF) -> bool:
        """Copy what the backdrop holds of ``exposed`` (scene coordinates) to the view's
        background painter; False (nothing drawn) unless it holds all of it as it is now."""
        if self.image is None:
            return False
        if self.state != _state(self.view, not self.view.summary.rough):
            self.drop()
            return False
        world = painter.worldTransform()
        if world != self.view.viewportTransform():  # (not the view's own paint: a print, say)
            return False
        device = world.mapRect(exposed).toAlignedRect().adjusted(1, 1, -1, -1)
        if not self.area.contains(device):
            return False
        painter.save()
        painter.setWorldTransform(QTransform())
        painter.drawImage(QPointF(0, 0), self.image)
        painter.restore()
        self.view.summary.drawn(exposed)
        return True
