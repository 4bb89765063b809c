"""Canvas gestures, one class per gesture. The view hands every mouse, key and drop event to its
tools in order; the first tool whose hook returns True has handled it.

Tools only emit intent through the scene's signals (``cableRequested``, ``boxesMoved``,
``dropPart``...) or change what the view shows (collapse, selection, scrolling); they never
change the model. A new gesture is a new :class:`Tool` subclass added to ``DiagramView.tools``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QGraphicsView

from planner.edit import cable_problem
from widgets.canvas.items import BoxItem, RubberCableItem
from widgets.palette import PART_MIME

if TYPE_CHECKING:
    from widgets.canvas.scene import DiagramScene
    from widgets.canvas.view import DiagramView

GRID = 10.0


class Tool:
    """One gesture. Hooks get the Qt event (and its scene position) and return True when handled."""

    def __init__(self, view: DiagramView) -> None:
        self.view = view

    @property
    def scene(self) -> DiagramScene:
        return self.view.dscene

    def press(self, event, pos: QPointF) -> bool:
        return False

    def move(self, event, pos: QPointF) -> bool:
        return False

    def release(self, event, pos: QPointF) -> bool:
        return False

    def double_click(self, event, pos: QPointF) -> bool:
        return False

    def key_press(self, event) -> bool:
        return False

    def key_release(self, event) -> bool:
        return False

    def after_press(self, event) -> None:
        """Called after the view's default handling of a press no tool took (selection, moves)."""

    def after_move(self, event) -> None:
        """Called after the view's default handling of a mouse move."""

    def after_release(self, event) -> None:
        """Called after the view's default handling of a release."""


class PanTool(Tool):
    """Pan with the middle button, or with Space held and a left drag."""

    def __init__(self, view: DiagramView) -> None:
        super().__init__(view)
        self.dragging = False
        self.space = False
        self._last = QPointF()

    def press(self, event, pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.MiddleButton:
            return False
        self.dragging = True
        self._last = event.position()
        self.view.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
        return True

    def move(self, event, pos: QPointF) -> bool:
        if not self.dragging:
            return False
        delta = event.position() - self._last
        self._last = event.position()
        for bar, d in ((self.view.horizontalScrollBar(), delta.x()), (self.view.verticalScrollBar(), delta.y())):
            bar.setValue(bar.value() - int(d))
        return True

    def release(self, event, pos: QPointF) -> bool:
        if not (self.dragging and event.button() == Qt.MouseButton.MiddleButton):
            return False
        self.dragging = False
        self.view.viewport().unsetCursor()
        return True

    def key_press(self, event) -> bool:
        if event.key() != Qt.Key.Key_Space or event.isAutoRepeat():
            return False
        self.space = True
        self.view.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        return True

    def key_release(self, event) -> bool:
        if event.key() != Qt.Key.Key_Space or event.isAutoRepeat():
            return False
        self.space = False
        self.view.setDragMode(QGraphicsView.DragMode.RubberBandDrag)
        return True


class CableTool(Tool):
    """Drag from an HBA (or its slot row) or a free port: draw a cable, or move the HBA.

    While dragging, compatible free ports and, when an HBA is dragged, the free slots light up.
    Releasing on a port emits ``cableRequested``; releasing an HBA on a slot emits
    ``hbaMoveRequested`` (the controller refuses a taken slot with a reason). A press and release
    without a drag selects what was pressed. Esc cancels.
    """

    def __init__(self, view: DiagramView) -> None:
        super().__init__(view)
        self.source: BoxItem | None = None
        self.port: str | None = None  # the free port a cable would start at
        self.hba: BoxItem | None = None  # the HBA that would move
        self.line: RubberCableItem | None = None
        self._press = QPointF()

    @property
    def active(self) -> bool:
        return self.source is not None

    def press(self, event, pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton or self.view.pan.space:
            return False
        if event.modifiers() & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier):
            return False  # add to the selection: Qt's default
        item = self.scene.box_at(pos)
        if item is None:
            return False
        hba = self.scene.hba_item(item)
        pid = self.scene.port_of(item.cid)
        free = pid is not None and self.scene.doc.topology.cable_at(pid) is None
        if not free and hba is None:
            return False
        self.start(item, pos, pid if free else None, hba)
        return True

    def start(self, item: BoxItem, pos: QPointF, port: str | None, hba: BoxItem | None = None) -> None:
        self.source, self.port, self.hba, self._press = item, port, hba, pos
        self.line = RubberCableItem()
        self.scene.addItem(self.line)
        topo = self.scene.doc.topology
        for other in self.scene.items_by_id.values():
            if other is item or other is hba:
                continue
            ok = False
            if port is not None and (end := self.scene.port_of(other.cid)) is not None:
                ok = cable_problem(topo, port, end) is None
            if hba is not None and self.scene.is_free_slot(other):
                ok = True
            if ok:
                other.set_port_state("ok")
        self.move(None, pos)

    def move(self, event, pos: QPointF) -> bool:
        if self.source is None or self.line is None:
            return False
        self.line.stretch(self.source.sceneBoundingRect().center(), pos)
        return True

    def release(self, event, pos: QPointF) -> bool:
        if self.source is None or event.button() != Qt.MouseButton.LeftButton:
            return False
        src, port, hba = self.source, self.port, self.hba
        target = self.scene.box_at(pos)
        clicked = (pos - self._press).manhattanLength() < 3
        self.cancel()
        if clicked or target is None or target is src or target is hba:
            if clicked:
                self.scene.select_only(src)
            return True
        slot = self.scene.slot_item(target)
        if hba is not None and slot is not None and slot is not hba.parentItem():
            self.scene.hbaMoveRequested.emit(hba.cid, slot.cid)
            return True
        end = self.scene.port_of(target.cid)
        if port and end:
            self.scene.cableRequested.emit(port, end)
        return True

    def key_press(self, event) -> bool:
        if event.key() != Qt.Key.Key_Escape or self.source is None:
            return False
        self.cancel()
        return True

    def cancel(self) -> None:
        if self.line is not None:
            self.scene.removeItem(self.line)
        self.line = None
        self.source = self.hba = None
        self.port = None
        for item in self.scene.items_by_id.values():
            item.set_port_state("")


class MoveTool(Tool):
    """Move the selected top-level boxes (Qt moves them); on release the new positions, snapped to
    the grid, are emitted as one ``boxesMoved`` (one drag of several boxes is one command).

    Positions are read at press and release: no ``itemChange`` override (PySide6 mis-counts
    references when it is overridden on thousands of items).
    """

    def __init__(self, view: DiagramView) -> None:
        super().__init__(view)
        self.start: dict[BoxItem, QPointF] = {}

    def after_press(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.start = {i: i.pos() for i in self.scene.top_selected()}

    def after_move(self, event) -> None:
        if self.start:
            self.scene.refresh_links(list(self.start))
            if self.scene.low_detail[0]:  # zoomed out the view's summary layer draws the boxes
                for item in self.start:
                    item.restyled()
                self.view.resetCachedContent()  # in the view's background
                self.view.viewport().update()

    def after_release(self, event) -> None:
        pressed, self.start = self.start, {}
        moved = {}
        for item, start in pressed.items():
            p = item.pos()
            if p != start:
                moved[item.cid] = (round(p.x() / GRID) * GRID, round(p.y() / GRID) * GRID)
        if moved:  # kept right of and below the diagram's origin, together (see on_the_sheet)
            self.scene.boxesMoved.emit(on_the_sheet(moved))


def on_the_sheet(moved: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """``moved`` (box id -> its new place) shifted right and down as one, as far as it takes for
    none to be left of or above the diagram's origin. The diagram, the scene's rectangle and the
    build sheet's drawing begin there: a box dragged past it could no longer be scrolled to."""
    dx = max(0.0, -min(x for x, _ in moved.values()))
    dy = max(0.0, -min(y for _, y in moved.values()))
    if not dx and not dy:
        return moved
    return {cid: (x + dx, y + dy) for cid, (x, y) in moved.items()}


class RubberBandTool(Tool):
    """Select by clicking or by dragging a rubber band over empty canvas; Esc clears the selection."""

    def __init__(self, view: DiagramView) -> None:
        super().__init__(view)
        view.setDragMode(QGraphicsView.DragMode.RubberBandDrag)

    def key_press(self, event) -> bool:
        if event.key() != Qt.Key.Key_Escape:
            return False
        self.scene.clearSelection()
        return True

    def select_all(self) -> None:
        """Select every top-level box, as one selection of the document: a box at a time, each
        selection change made every panel read the growing selection (the 16x site's 3,000
        boxes did not finish in ten minutes)."""
        self.scene.doc.select([cid for cid, item in self.scene.items_by_id.items() if item.parentItem() is None])


class CollapseTool(Tool):
    """Double-click a group (drawer, switch, subsystem...) or anything inside it to collapse or
    expand it. Collapsing changes only what the canvas shows, never the design."""

    def double_click(self, event, pos: QPointF) -> bool:
        item = self.scene.box_at(pos)
        while item is not None and not item.collapsible:
            item = item.parentItem() if isinstance(item.parentItem(), BoxItem) else None
        if item is None:
            return False
        self.scene.toggle_collapsed(item.cid)
        return True


class DropTool(Tool):
    """Drop a part from the palette: emits ``dropPart(part id, target box id or '', position)``."""

    @staticmethod
    def accepts(event) -> bool:
        return event.mimeData().hasFormat(PART_MIME)

    def drop(self, event) -> bool:
        if not self.accepts(event):
            return False
        part_id = bytes(event.mimeData().data(PART_MIME)).decode("utf-8")
        pos = self.view.mapToScene(event.position().toPoint())
        target = self.scene.box_at(pos)
        self.scene.dropPart.emit(part_id, target.cid if target else "", pos)
        event.acceptProposedAction()
        return True
