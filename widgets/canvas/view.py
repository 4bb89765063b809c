"""The canvas view: zoom, fit, the legend, the context menu, and the dispatch of events to the
gesture tools (:mod:`widgets.canvas.tools`). Intent (delete, duplicate) goes out through the
scene's signals; the view never changes the model.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QKeySequence, QPainter, QPalette, QPen
from PySide6.QtWidgets import QApplication, QGraphicsView, QMenu

from widgets.canvas.items import BIND, font, legend_rows
from widgets.canvas.scene import DiagramScene
from widgets.canvas.tools import CableTool, CollapseTool, DropTool, MoveTool, PanTool, RubberBandTool, Tool


class DiagramView(QGraphicsView):
    """Zoom (wheel, Ctrl +/-), fit (Ctrl+0), Delete, and the tools: pan (middle button or
    Space+drag), cable drawing from a free port, moves with grid snap, rubber-band selection,
    double-click collapse, drops from the palette."""

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

    # -- zoom -----------------------------------------------------------------------------------
    def zoom(self, factor: float) -> None:
        current = self.transform().m11()
        factor = max(0.02 / current, min(factor, 8.0 / current))
        self.scale(factor, factor)
        self.zoomChanged.emit(self.transform().m11())

    def zoom_to_fit(self) -> None:
        rect = self.dscene.itemsBoundingRect()
        if rect.isValid():
            self.fitInView(rect.adjusted(-20, -20, 20, 20), Qt.AspectRatioMode.KeepAspectRatio)
            self.zoomChanged.emit(self.transform().m11())

    def center_on_ids(self, ids: Iterable[str]) -> None:
        rect = self.dscene.focus_items(ids)
        if rect.isValid():
            self.centerOn(rect.center())

    def wheelEvent(self, event) -> None:
        if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            return super().wheelEvent(event)
        steps = event.angleDelta().y() / 120.0
        if steps:
            self.zoom(1.15**steps)
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
        menu.exec(event.globalPos())

    # -- legend -------------------------------------------------------------------------------
    def drawForeground(self, painter: QPainter, rect: QRectF) -> None:
        if not self.show_legend:
            return
        painter.save()
        painter.resetTransform()
        x, y = self.viewport().width() - 212, self.viewport().height() - 78
        text = QApplication.palette().color(QPalette.ColorRole.Text)
        painter.setPen(QPen(QColor(120, 120, 120)))
        painter.setBrush(QBrush(QApplication.palette().color(QPalette.ColorRole.Base)))
        painter.drawRoundedRect(QRectF(x, y, 200, 70), 4, 4)
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
