"""The canvas view: zoom, fit, the legend, the context menu, and the dispatch of events to the
gesture tools (:mod:`widgets.canvas.tools`). Intent (delete, duplicate) goes out through the
scene's signals; the view never changes the model.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable, Iterator

import shiboken6
from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QCursor, QKeySequence, QPainter, QPalette, QPen, QResizeEvent
from PySide6.QtWidgets import QApplication, QGraphicsView, QMenu

from widgets import giveway, slice_budget
from widgets.canvas.backdrop import Backdrop, holds
from widgets.canvas.items import BIND, BoxItem, font, legend_rows
from widgets.canvas.overview import overview_scene
from widgets.canvas.scene import DiagramScene
from widgets.canvas.summary import SummaryLayer, clip_parts, clip_to
from widgets.canvas.tools import CableTool, CollapseTool, DropTool, MoveTool, PanTool, RubberBandTool, Tool

#: below this zoom the boxes switch to summaries (inner text hidden, group names large)
LOW_DETAIL_SCALE = 0.6
#: while the user zooms, links are stroked without antialiasing (a zoom step redraws every link
#: in view: on the 16x site 21 frames/s antialiased, 72 without); this long after the last
#: step they are drawn again, smooth
ZOOM_SETTLE_MS = 150
#: the links are drawn smooth again in slices this long (see :mod:`widgets.canvas.backdrop`)
SETTLE_SLICE_S = 0.006
#: ... begun again at most this often when the view moves meanwhile (then drawn in one paint)
SETTLE_TRIES = 8
#: a background region of more rectangles is drawn again through the one around them
MAX_CLIP_PARTS = 4
#: while the view pans or zooms the legend looks for a free corner at most this often
LEGEND_HOLD_S = 0.15
BOUNDS = Qt.ItemSelectionMode.IntersectsItemBoundingRect
EMPTY_HINT = "Drag a server from Parts onto the canvas, or open an example (File > Open example)"


class DiagramView(QGraphicsView):
    """Scroll (wheel; Shift+wheel sideways), zoom (Ctrl+wheel, Ctrl +/-), fit (Ctrl+0), Delete,
    and the tools: pan (middle button or Space+drag), cable drawing from a free port and HBA
    moves to another slot (drag), moves with grid snap, rubber-band selection, double-click
    collapse, drops from the palette. The legend keeps to a corner with no boxes under it (and
    hides with :attr:`show_legend`); an empty design shows how to begin."""

    zoomChanged = Signal(float)

    def __init__(self, scene: DiagramScene, parent=None) -> None:
        super().__init__(scene, parent)
        self.dscene = scene
        #: fills the context menu of selected components with the application's actions
        #: (``extra_menu(menu, ids)``; the main window sets it from :mod:`app.actions`)
        self.extra_menu: Callable[[QMenu, list[str]], None] | None = None
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setOptimizationFlags(
            QGraphicsView.OptimizationFlag.DontSavePainterState
            | QGraphicsView.OptimizationFlag.DontAdjustForAntialiasing
        )
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setAcceptDrops(True)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.DefaultContextMenu)
        self.pan = PanTool(self)
        self.cable = CableTool(self)
        self.select = RubberBandTool(self)
        self.drop = DropTool(self)
        self.tools: list[Tool] = [self.pan, self.cable, CollapseTool(self), MoveTool(self), self.select, self.drop]
        self.show_legend = True
        self.legend_rect = QRectF()  # where the legend was drawn last (viewport coordinates)
        # while the view moves, the legend keeps its corner for up to LEGEND_HOLD_S (finding a
        # free corner asks the scene for the items under four of them: 1.3 ms a frame on the 16x
        # site); the next paint of a still view looks again
        self._legend_state: tuple = ()
        self._legend_at = 0.0
        self._far_shown = False  # the view shows the scene's overview (zoomed far out)
        self._rezooming = False  # a zoom under way (see scrollContentsBy)
        self._selected: set[BoxItem] = set()  # the boxes selected at the last selection change
        scene.selectionChanged.connect(self._restyle_selection)
        self.summary = SummaryLayer(scene)  # draws the links, and the boxes while zoomed out
        self._smooth_again = QTimer(self)
        self._smooth_again.setSingleShot(True)
        self._smooth_again.setInterval(ZOOM_SETTLE_MS)
        self._smooth_again.timeout.connect(self._zoom_settled)
        self.backdrop = Backdrop(self)  # the links drawn beforehand, in slices
        self._settling: Iterator[None] | None = None
        self._settle_tries = 0
        # what the layer draws is in the background, cached: a pan draws only the strips it uncovers
        self.setCacheMode(QGraphicsView.CacheModeFlag.CacheBackground)

    # -- zoom -----------------------------------------------------------------------------------
    def zoom(self, factor: float) -> None:
        current = self.transform().m11()
        factor = max(0.02 / current, min(factor, 8.0 / current))
        giveway.gesture()  # (the lanes wait meanwhile: see widgets.giveway)
        with self._rezoom():  # (its scrolling brings no items' detail: _zoomed does, once)
            self.scale(factor, factor)
        self.summary.rough = True  # until the zoom settles (see ZOOM_SETTLE_MS)
        self._smooth_again.start()
        self._zoomed()
        if self.dscene.overview is not None:  # (its picture and names scaled, until it settles)
            self.dscene.overview.gesture = True

    def _zoom_settled(self) -> None:
        """The zoom has been still for ZOOM_SETTLE_MS: links smooth again, drawn beforehand in
        slices (one paint of them all took 25-90 ms on the 16x site); the repaint also lets the
        legend look again for a corner with no box under it."""
        if not self.summary.rough:
            return
        self._settle_tries, self._settling = 0, None
        if self.scene() is self.dscene and not self.dscene.low_detail[0] and not self.viewport().rect().isEmpty():
            self._settling = self.backdrop.making(whole=True, smooth=True)
        self._settle_slice()  # (zoomed out the layer's batches are drawn as they are: no backdrop)

    def _settle_slice(self) -> None:
        if self._smooth_again.isActive():
            self._settling = None  # (zooming again: it settles anew)
            return
        if self.dscene.changing():  # the scene's own slices first; they prepare the view too
            QTimer.singleShot(20, self, self._settle_slice)
            return
        until = slice_budget.until(SETTLE_SLICE_S)  # (None: the turn's other slices took its time)
        try:
            if until is None or not all(time.perf_counter() < until for _ in self._settling or ()):
                QTimer.singleShot(1, self, self._settle_slice)
                return
        finally:
            slice_budget.ended()
        if self._settling is not None and not holds(self.backdrop, smooth=True) and self._settle_tries < SETTLE_TRIES:
            self._settle_tries += 1  # (the view moved or the links changed meanwhile: again)
            self._settling = self.backdrop.making(whole=True, smooth=True)
            QTimer.singleShot(1, self, self._settle_slice)
            return
        self._settling = None
        self.summary.rough = False
        self.gesture_over()
        self.resetCachedContent()
        self.viewport().update()

    def gesture_over(self) -> None:
        """The zoom settled: the overview draws its picture and lays its names at the zoom it came
        to (see OverviewItem.gesture)."""
        overview = self.dscene.overview
        if overview is not None and overview.gesture:
            overview.gesture = False
            overview.update()

    def zoom_to_fit(self) -> None:
        rect = self.dscene.items_rect()
        if rect.isValid():
            with self._rezoom():
                self.fitInView(rect.adjusted(-20, -20, 20, 20), Qt.AspectRatioMode.KeepAspectRatio)
            self._zoomed()

    def _zoomed(self) -> None:
        scale = self.transform().m11()
        self.resetCachedContent()  # the background was drawn at the former zoom
        shown = self.scene() is self.dscene
        brought = self.dscene.set_low_detail(scale < LOW_DETAIL_SCALE, scale) and shown
        if self.dscene.far != self._far_shown:  # far out: one overview item, not every box
            self._far_shown = self.dscene.far
            centre = self.mapToScene(self.viewport().rect().center())
            with self._rezoom():
                self.setScene(overview_scene(self.dscene, everything=False) if self.dscene.far else self.dscene)
                self.centerOn(centre)
            if self.dscene.far:  # (its layer made ready for the way back while idle)
                self.dscene.idle_later()
        if not brought:  # (a pass begun brought those in view already)
            self._detail_shown()
        self.zoomChanged.emit(scale)

    @contextlib.contextmanager
    def _rezoom(self) -> Iterator[None]:
        """A zoom's own scrolling (see scrollContentsBy) brings no items' detail meanwhile."""
        self._rezooming = True
        try:
            yield
        finally:
            self._rezooming = False

    def _detail_shown(self) -> None:
        """The items in view brought to the zoom's detail now, while the scene brings the
        others in slices (see widgets.canvas.detail)."""
        if self.scene() is self.dscene and self.dscene.detail_pending():
            self.dscene.detail_in(self.mapToScene(self.viewport().rect()).boundingRect(), self.summary)

    def scrollContentsBy(self, dx: int, dy: int) -> None:  # noqa: N802 (Qt override)
        giveway.gesture()
        super().scrollContentsBy(dx, dy)
        if not self._rezooming:
            self._detail_shown()  # (scrolled to items the scene has not brought yet)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        self._detail_shown()

    def _restyle_selection(self) -> None:
        """A box selected or deselected is drawn with another outline (also in its group's
        summary picture when zoomed out)."""
        if not shiboken6.isValid(self.dscene):
            return
        now = {i for i in self.dscene.selectedItems() if isinstance(i, BoxItem)}
        for item in now ^ self._selected:
            if shiboken6.isValid(item) and item.scene() is self.dscene:  # not of a scene rebuilt since
                item.restyled()
        self._selected = now

    def center_on_ids(self, ids: Iterable[str]) -> None:
        rect = self.dscene.focus_items(ids)
        if rect.isValid():
            self.centerOn(rect.center())

    def wheelEvent(self, event) -> None:
        """The wheel scrolls (Shift+wheel sideways); Ctrl+wheel zooms under the mouse."""
        mods = event.modifiers()
        delta = event.angleDelta()
        if mods & Qt.KeyboardModifier.ControlModifier:
            steps = (delta.y() or delta.x()) / 120.0
            if steps:
                self.zoom(1.15**steps)
        elif mods & Qt.KeyboardModifier.ShiftModifier:
            bar = self.horizontalScrollBar()
            bar.setValue(bar.value() - (delta.y() or delta.x()))
        else:
            if delta.x():
                self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - delta.x())
            bar = self.verticalScrollBar()
            bar.setValue(bar.value() - delta.y())
        event.accept()

    # -- keys -----------------------------------------------------------------------------------
    def keyPressEvent(self, event) -> None:
        if any(tool.key_press(event) for tool in self.tools):
            event.accept()
            return
        if event.matches(QKeySequence.StandardKey.Delete) or event.key() == Qt.Key.Key_Backspace:
            ids = self.dscene.selected_ids()
            if ids:
                self.dscene.deleteRequested.emit(ids)
            event.accept()
            return
        if event.matches(QKeySequence.StandardKey.ZoomIn):
            self.zoom(1.25)
            return
        if event.matches(QKeySequence.StandardKey.ZoomOut):
            self.zoom(0.8)
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event) -> None:
        if any(tool.key_release(event) for tool in self.tools):
            return
        super().keyReleaseEvent(event)

    # -- mouse: each event goes to the first tool that takes it, else to Qt's default -------------
    def _scene_pos(self, event) -> QPointF:
        return self.mapToScene(event.position().toPoint())

    def mousePressEvent(self, event) -> None:
        pos = self._scene_pos(event)
        if any(tool.press(event, pos) for tool in self.tools):
            event.accept()
            return
        super().mousePressEvent(event)
        for tool in self.tools:
            tool.after_press(event)

    def mouseMoveEvent(self, event) -> None:
        self._legend_dodge(event.position())
        pos = self._scene_pos(event)
        if any(tool.move(event, pos) for tool in self.tools):
            event.accept()
            return
        super().mouseMoveEvent(event)
        for tool in self.tools:
            tool.after_move(event)

    def mouseReleaseEvent(self, event) -> None:
        pos = self._scene_pos(event)
        if any(tool.release(event, pos) for tool in self.tools):
            event.accept()
            return
        super().mouseReleaseEvent(event)
        for tool in self.tools:
            tool.after_release(event)

    def mouseDoubleClickEvent(self, event) -> None:
        pos = self._scene_pos(event)
        if any(tool.double_click(event, pos) for tool in self.tools):
            event.accept()
            return
        super().mouseDoubleClickEvent(event)

    # -- drops from the palette -------------------------------------------------------------
    def dragEnterEvent(self, event) -> None:
        if self.drop.accepts(event):
            event.acceptProposedAction()
        else:
            super().dragEnterEvent(event)

    def dragMoveEvent(self, event) -> None:
        if self.drop.accepts(event):
            event.acceptProposedAction()
        else:
            super().dragMoveEvent(event)

    def dropEvent(self, event) -> None:
        if not self.drop.drop(event):
            super().dropEvent(event)

    # -- context menu -------------------------------------------------------------------------
    def contextMenuEvent(self, event) -> None:
        scene = self.dscene
        item = scene.box_at(self.mapToScene(event.pos()))
        menu = QMenu(self)
        if item is not None:
            if not item.isSelected():
                scene.clearSelection()
                item.setSelected(True)
            ids = scene.selected_ids()
            if item.collapsible:
                text = "Expand" if item.box.collapsed else "Collapse"
                menu.addAction(text, lambda: scene.toggle_collapsed(item.cid))
            if self.extra_menu is not None:
                self.extra_menu(menu, ids)  # the application's actions on these components
            menu.addAction("Duplicate", lambda: scene.duplicateRequested.emit(ids))
            menu.addAction("Delete", lambda: scene.deleteRequested.emit(ids))
            menu.addSeparator()
        menu.addAction("Expand all", lambda: scene.set_all_collapsed(False))
        menu.addAction("Collapse all", lambda: scene.set_all_collapsed(True))
        menu.addAction("Zoom to fit", self.zoom_to_fit)
        legend = menu.addAction("Show legend", lambda: self.set_legend_shown(not self.show_legend))
        legend.setCheckable(True)
        legend.setChecked(self.show_legend)
        menu.exec(event.globalPos())

    # -- legend and the empty canvas ------------------------------------------------------------
    def set_legend_shown(self, on: bool) -> None:
        self.show_legend = on
        self.viewport().update()

    def _legend_box(self) -> QRectF:
        """Where to draw the legend now (see ``_legend_state``)."""
        vp = self.viewport()
        state = (
            self.horizontalScrollBar().value(),
            self.verticalScrollBar().value(),
            self.transform().m11(),
            vp.width(),
            vp.height(),
        )
        now = time.monotonic()
        moving = state != self._legend_state
        self._legend_state = state
        if (
            moving
            and self.legend_rect.width() == 200
            and now - self._legend_at < LEGEND_HOLD_S
            and not self.legend_rect.contains(QPointF(vp.mapFromGlobal(QCursor.pos())))  # never under the mouse
        ):
            return self.legend_rect
        self._legend_at = now
        return self._legend_corner(200, 70)

    def _legend_corner(self, w: float, h: float) -> QRectF:
        """The first corner (bottom right, bottom left, top right, top left) with no box under it,
        and none under the mouse; bottom right when every corner is taken."""
        vw, vh = self.viewport().width(), self.viewport().height()
        mouse = self.viewport().mapFromGlobal(QCursor.pos())
        corners = [(vw - w - 12, vh - h - 8), (8, vh - h - 8), (vw - w - 12, 8), (8, 8)]
        for x, y in corners:
            rect = QRectF(x, y, w, h)
            if rect.contains(QPointF(mouse)):
                continue
            if not self._boxes_under(self.mapToScene(rect.toRect()).boundingRect()):
                return rect
        x, y = corners[0]
        return QRectF(x, y, w, h)

    def _boxes_under(self, area: QRectF) -> bool:
        """Whether a box lies under ``area`` (scene coordinates). Zoomed far out, as the overview
        draws them: the scene's index of its items is built at the first question after they
        were made (46 ms on the 16x site expanded), and the overview knows where they are."""
        overview = self.dscene.overview
        if self.scene() is not self.dscene and overview is not None and overview.gathered:
            return overview.occupied(area)
        # boxes are rectangles: their bounding rectangles will do (a link's shape is costly)
        return any(isinstance(i, BoxItem) for i in self.dscene.items(area, BOUNDS, Qt.SortOrder.AscendingOrder))

    def preparing(self) -> Iterator[None]:
        """What the next paint needs made beforehand, a piece per step (see
        :meth:`SummaryLayer.preparing`): the scene runs it while it holds the views still."""
        if self.scene() is not self.dscene:
            return  # (zoomed far out: the overview is shown)
        rect = self.mapToScene(self.viewport().rect()).boundingRect()
        cut = self.summary.current()
        low = self.dscene.low_detail[0]
        yield from self.summary.preparing(rect, low)
        if not cut:
            self.resetCachedContent()  # the links drawn before the items changed
        if not low:
            yield from self.backdrop.making(whole=not cut)

    def paintEvent(self, event) -> None:
        if self.scene() is self.dscene and not self.summary.current():  # a rebuilt scene
            self.resetCachedContent()
            self.viewport().update()
        super().paintEvent(event)

    def drawBackground(self, painter: QPainter, rect: QRectF) -> None:
        if self.scene() is not self.dscene:
            super().drawBackground(painter, rect)
            return
        visible = self.mapToScene(self.viewport().rect()).boundingRect()
        low = self.dscene.low_detail[0]
        if not low and self.backdrop.draw(painter, rect.intersected(visible)):
            return  # (drawn beforehand)
        parts = clip_parts(painter)  # (see there: each part through a plain rectangle)
        if len(parts) > MAX_CLIP_PARTS:
            united = QRectF()
            for part in parts:
                united = united.united(part)
            parts = [united]  # (all of it is drawn as it is now, the region and around)
        painter.save()
        for part in parts or [None]:
            scene_part = rect if part is None else clip_to(painter, part)
            super().drawBackground(painter, scene_part)
            self.summary.paint(painter, scene_part.intersected(visible), low)  # (a region may reach out of view)
        painter.restore()

    def drawForeground(self, painter: QPainter, rect: QRectF) -> None:
        if not self.dscene.items_by_id:
            self._draw_empty_hint(painter)
            return
        if not self.show_legend:
            return
        painter.save()
        painter.resetTransform()
        box = self.legend_rect = self._legend_box()
        x, y = box.x(), box.y()
        text = QApplication.palette().color(QPalette.ColorRole.Text)
        painter.setPen(QPen(QColor(120, 120, 120)))
        base = QColor(QApplication.palette().color(QPalette.ColorRole.Base))
        base.setAlpha(235)
        painter.setBrush(QBrush(base))
        painter.drawRoundedRect(box, 4, 4)
        painter.setPen(text)
        painter.setFont(font(8))
        for i, (color, label) in enumerate(legend_rows()):
            painter.fillRect(QRectF(x + 8, y + 8 + i * 14, 22, 5), color)
            painter.drawText(QPointF(x + 36, y + 14 + i * 14), label)
        painter.setPen(QPen(BIND, 2))
        painter.drawRect(QRectF(x + 8, y + 50, 22, 10))
        painter.setPen(text)
        painter.drawText(QPointF(x + 36, y + 59), "binding hop of a path")
        painter.restore()

    def _draw_empty_hint(self, painter: QPainter) -> None:
        painter.save()
        painter.resetTransform()
        color = QColor(QApplication.palette().color(QPalette.ColorRole.Text))
        color.setAlpha(150)
        painter.setPen(color)
        painter.setFont(font(13))
        area = QRectF(self.viewport().rect()).adjusted(40, 40, -40, -40)
        painter.drawText(area, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, EMPTY_HINT)
        painter.restore()

    def _legend_dodge(self, pos: QPointF) -> None:
        """Move the legend out of the way when the mouse comes over it."""
        if self.show_legend and self.legend_rect.contains(pos):
            self.viewport().update()
