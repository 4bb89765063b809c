"""The topology canvas: a layered diagram of the design, coloured by utilization.

:class:`DiagramScene` draws the layout from :func:`planner.layout.layout` as :class:`BoxItem`s
and :class:`LinkItem`s; :class:`DiagramView` adds zoom, pan, rubber-band selection, drops from
the parts palette, port-to-port cable drawing and moving boxes with grid snapping. The scene
never changes the model itself: it emits intent (``dropPart``, ``cableRequested``,
``boxesMoved``, ``deleteRequested``...) and the main window turns intent into commands.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QKeySequence,
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
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QMenu,
    QStyleOptionGraphicsItem,
)

from planner.layout import COLLAPSIBLE, Diagram, layout
from widgets.palette import PART_MIME

if TYPE_CHECKING:
    from planner.analysis import Analysis

GRID = 10.0
PORT_KINDS = ("slot", "switch_port", "host_port")  # boxes a cable starts or ends at

UTIL_BANDS = ((0.70, QColor(46, 160, 67)), (0.95, QColor(222, 150, 0)), (10.0, QColor(214, 40, 40)))
IDLE = QColor(150, 150, 150)
BIND = QColor(200, 0, 0)
HIGHLIGHT = QColor(30, 110, 255)

KIND_FILL = {
    "server": QColor(225, 232, 245), "drawer": QColor(232, 238, 250), "planar": QColor(238, 242, 252),
    "rio_link": QColor(240, 244, 252), "phb": QColor(243, 246, 253), "slot": QColor(250, 251, 255),
    "switch": QColor(236, 246, 238), "asic": QColor(244, 250, 245), "switch_port": QColor(252, 255, 252),
    "subsystem": QColor(250, 242, 230), "controller": QColor(252, 247, 238), "host_port": QColor(255, 252, 246),
    "array": QColor(246, 238, 250), "logical_drive": QColor(251, 247, 253),
    "volume_group": QColor(238, 246, 250), "logical_volume": QColor(246, 251, 253),
}


_FONTS: dict[tuple[float, bool], QFont] = {}


def _font(size: float, bold: bool = False) -> QFont:
    """Shared fonts (one QFont per size; also far fewer setter calls when building a scene)."""
    key = (size, bold)
    f = _FONTS.get(key)
    if f is None:
        f = _FONTS[key] = QFont()
        f.setPointSizeF(size)
        f.setBold(bold)
    return f


def util_color(u: float | None) -> QColor:
    if u is None:
        return IDLE
    for limit, color in UTIL_BANDS:
        if u < limit:
            return color
    return UTIL_BANDS[-1][1]


def _dark() -> bool:
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
        top = parent is None
        flags = QGraphicsItem.GraphicsItemFlag.ItemIsSelectable
        if top:
            flags |= QGraphicsItem.GraphicsItemFlag.ItemIsMovable
        self.setFlags(flags)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setAcceptHoverEvents(True)
        fill = KIND_FILL.get(box.kind, QColor(248, 248, 248))
        if _dark():
            fill = fill.darker(320)
        self._fill = fill
        text = QGraphicsSimpleTextItem(box.label.split("\n")[0], self)
        text.setFont(_font(7.0 if box.h < 20 else 8.0, box.collapsed or (box.container is None and box.kind in COLLAPSIBLE)))
        text.setBrush(QBrush(QApplication.palette().color(QPalette.ColorRole.Text)))
        text.setPos(4, 1)
        self._clip_text(text, box.w - 8)
        self.text = text
        if "\n" in box.label:
            sub = QGraphicsSimpleTextItem(box.label.split("\n", 1)[1], self)
            sub.setFont(_font(7.0))
            sub.setBrush(text.brush())
            sub.setPos(4, 14)
            self.subtext = sub
        else:
            self.subtext = None
        self.setToolTip(box.label)

    @staticmethod
    def _clip_text(item: QGraphicsSimpleTextItem, width: float) -> None:
        full = item.text()
        if item.boundingRect().width() <= width:
            return
        text = full
        while text and item.boundingRect().width() > width:
            text = text[:-1]
            item.setText(text + "...")

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

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: Any = None) -> None:
        r = self.rect()
        painter.setBrush(QBrush(self._fill))
        pen = QPen(QColor(110, 120, 140) if not _dark() else QColor(150, 160, 180), 0.8)
        if self.binds:
            pen = QPen(BIND, 2.2)
        if self.highlighted:
            pen = QPen(HIGHLIGHT, 2.6)
        if self.port_state == "ok":
            pen = QPen(QColor(0, 170, 0), 2.6)
        elif self.port_state == "bad":
            pen = QPen(QColor(200, 0, 0), 1.6, Qt.PenStyle.DashLine)
        if self.isSelected():
            pen = QPen(QColor(255, 140, 0), 2.4)
        painter.setPen(pen)
        painter.drawRoundedRect(r, 3, 3)
        if self.util is not None:  # utilization bar along the bottom edge
            bar = QRectF(r.left() + 2, r.bottom() - 3.5, (r.width() - 4) * min(self.util, 1.0), 2.5)
            painter.fillRect(bar, util_color(self.util))
        if self.box.collapsed:
            painter.setPen(QPen(QColor(120, 120, 120), 0.8))
            painter.drawText(QRectF(r.right() - 14, r.top(), 12, 14), Qt.AlignmentFlag.AlignCenter, "+")


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
        width = {"cable": 1.4, "tree": 1.0, "owner": 0.8, "pv": 0.6}.get(kind, 1.0)
        color = util_color(self.util) if self.util is not None else (IDLE if kind != "pv" else QColor(170, 170, 200))
        if self.highlighted:
            color, width = HIGHLIGHT, 3.0
        pen = QPen(color, width)
        pen.setCosmetic(kind != "cable" or self.highlighted)
        if kind in ("owner", "pv"):
            pen.setStyle(Qt.PenStyle.DotLine)
        self.setPen(pen)


class DiagramScene(QGraphicsScene):
    """Scene of one design. Intent signals (the main window turns them into commands):
    ``boxesMoved(dict id -> (x, y))``, ``dropPart(part_id, target_id or '', QPointF)``,
    ``cableRequested(port_a, port_b)``, ``deleteRequested(list[str])``,
    ``duplicateRequested(list[str])``."""

    boxesMoved = Signal(dict)
    dropPart = Signal(str, str, QPointF)
    cableRequested = Signal(str, str)
    deleteRequested = Signal(list)
    duplicateRequested = Signal(list)
    collapseChanged = Signal()

    def __init__(self, doc, parent=None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.collapsed: set[str] | None = None  # None: the layout's default for the design
        self.items_by_id: dict[str, BoxItem] = {}
        self.links: list[LinkItem] = []
        self.diagram: Diagram | None = None
        self._syncing = False
        self.setBackgroundBrush(QApplication.palette().color(QPalette.ColorRole.Base))
        self.selectionChanged.connect(self._selection_to_doc)
        doc.selectionChanged.connect(self.show_selection)
        doc.analysisReady.connect(self.apply_analysis)
        doc.pathHighlighted.connect(self.highlight_path)
        doc.projectReplaced.connect(self._reset_collapse)

    # -- building ---------------------------------------------------------------------------
    def _reset_collapse(self) -> None:
        self.collapsed = None
        self.rebuild(force=True)

    def rebuild(self, force: bool = False) -> None:
        """Lay the design out again; recreate the items when anything moved (or ``force``)."""
        topo = self.doc.topology
        if self.collapsed is None:
            from planner.layout import default_collapsed

            self.collapsed = default_collapsed(topo)
        self.collapsed = {c for c in self.collapsed if c in topo}
        d = layout(topo, self.collapsed)
        if not force and self._same_geometry(d):
            self._relabel(d)  # an edit that moved nothing: keep the items, refresh the labels
            return
        self._syncing = True
        self.clear()
        self.items_by_id.clear()
        self.links.clear()
        self.diagram = d
        # containers first, so children can be parented to them
        order = sorted(d.boxes.values(), key=lambda b: _depth(d, b))
        for box in order:
            parent = self.items_by_id.get(box.container) if box.container else None
            item = BoxItem(box, parent)
            if parent is None:
                item.setPos(box.x, box.y)
                self.addItem(item)
            else:
                item.setPos(box.x - parent.box.x, box.y - parent.box.y)
            self.items_by_id[box.id] = item
        for link in d.links:
            a, b = self.items_by_id.get(link.a), self.items_by_id.get(link.b)
            if a is not None and b is not None:
                li = LinkItem(link, a, b)
                self.addItem(li)
                self.links.append(li)
        self.setSceneRect(QRectF(0, 0, d.width + 200, d.height + 200))
        self._syncing = False
        self.show_selection(self.doc.selection)
        if self.doc.analysis is not None:
            self.apply_analysis(self.doc.analysis)

    def _same_geometry(self, d: Diagram) -> bool:
        old = self.diagram
        if old is None or old.boxes.keys() != d.boxes.keys() or len(old.links) != len(d.links):
            return False
        for cid, b in d.boxes.items():
            o = old.boxes[cid]
            if (o.x, o.y, o.w, o.h, o.container, o.collapsed) != (b.x, b.y, b.w, b.h, b.container, b.collapsed):
                return False
        return all((a.a, a.b, a.kind, a.via) == (b.a, b.b, b.kind, b.via) for a, b in zip(old.links, d.links))

    def _relabel(self, d: Diagram) -> None:
        old, self.diagram = self.diagram, d
        for cid, box in d.boxes.items():
            if old.boxes[cid].label != box.label:
                item = self.items_by_id[cid]
                item.box = box
                item.text.setText(box.label.split("\n")[0])
                item._clip_text(item.text, box.w - 8)
            else:
                self.items_by_id[cid].box = box

    def toggle_collapsed(self, cid: str) -> None:
        if self.collapsed is None:
            self.collapsed = set()
        if cid in self.collapsed:
            self.collapsed.discard(cid)
        else:
            self.collapsed.add(cid)
        self.rebuild()
        self.collapseChanged.emit()

    def set_all_collapsed(self, collapsed: bool) -> None:
        topo = self.doc.topology
        self.collapsed = {c.id for k in COLLAPSIBLE for c in topo.of_kind(k)} if collapsed else set()
        self.rebuild()
        self.collapseChanged.emit()

    # -- analysis -----------------------------------------------------------------------------
    def apply_analysis(self, bundle: Any) -> None:
        result: Analysis = bundle.result
        d = self.diagram
        if d is None:
            return
        binds = result.binding_hops()
        # utilization and binding per visible box: the busiest component it shows
        best: dict[str, tuple[float | None, int, list[str]]] = {}
        for cid, load in result.components.items():
            vis = d.visible(cid)
            if vis is None:
                continue
            u = load.utilization
            cur = best.get(vis)
            lines = cur[2] if cur else []
            if load.capacity:
                lines.append(f"{_name(self.doc.topology, cid)}: {load.load:,.0f} of {load.capacity:,.0f} MB/s ({(u or 0) * 100:.0f}%)")
            nb = binds.get(cid, 0)
            if cur is None:
                best[vis] = (u, nb, lines)
            else:
                cu = cur[0]
                best[vis] = (max(cu, u) if cu is not None and u is not None else (u if cu is None else cu), cur[1] + nb, lines)
        group_load = {cid: v for g in ("drawer", "switch", "subsystem") for cid, v in result.by_group.get(g, {}).items()}
        for cid, item in self.items_by_id.items():
            if item.box.collapsed and item.subtext is not None and cid in group_load:
                first = item.box.label.split("\n")[1] if "\n" in item.box.label else ""
                item.subtext.setText(f"{first + ', ' if first else ''}{group_load[cid]:,.0f} MB/s")
            elif item.box.collapsed and item.subtext is None and cid in group_load:
                item.subtext = QGraphicsSimpleTextItem(f"{group_load[cid]:,.0f} MB/s", item)
                item.subtext.setFont(_font(7.0))
                item.subtext.setBrush(item.text.brush())
                item.subtext.setPos(4, 13)
            u, nb, lines = best.get(cid, (None, 0, []))
            tip = [item.box.label.replace("\n", " - ")]
            if lines:
                tip += lines[:6] + ([f"... {len(lines) - 6} more"] if len(lines) > 6 else [])
            if nb:
                tip.append(f"binds {nb} path{'s' if nb != 1 else ''}")
            item.set_analysis(u, nb, "\n".join(tip))
        for li in self.links:
            li.util = self._link_util(li, result)
            li.restyle()

    def _link_util(self, li: LinkItem, result: Analysis) -> float | None:
        topo = self.doc.topology
        if li.link.kind == "cable":
            cab = topo.get(li.cid)
            if cab is None:
                return None
            us = [result.components[p].utilization for p in (cab["a"], cab["b"]) if p in result.components and result.components[p].utilization is not None]
            if not us:
                # HBA port: colour by its HBA
                for p in (cab["a"], cab["b"]):
                    comp = topo.get(p)
                    if comp is not None and comp.kind == "hba_port" and comp.parent in result.components:
                        return result.components[comp.parent].utilization
                return None
            return max(us)
        if li.link.kind == "tree":
            load = result.components.get(li.b.cid)
            return load.utilization if load else None
        return None

    def highlight_path(self, path: Any) -> None:
        d = self.diagram
        for item in self.items_by_id.values():
            item.set_highlight(False)
        on: set[str] = set()
        if path is not None and d is not None:
            on = {v for h in path.hops if (v := d.visible(h))}
        for cid in on:
            if cid in self.items_by_id:
                self.items_by_id[cid].set_highlight(True)
        hop_set = set(path.hops) if path is not None else set()
        for li in self.links:
            li.highlighted = path is not None and (li.cid in hop_set or (li.link.kind == "tree" and li.a.cid in on and li.b.cid in on))
            li.restyle()

    # -- selection ----------------------------------------------------------------------------
    def _selection_to_doc(self) -> None:
        if self._syncing:
            return
        ids = [i.cid for i in self.selectedItems() if isinstance(i, BoxItem)]
        self.doc.select(ids)

    def show_selection(self, ids: list[str]) -> None:
        self._syncing = True
        try:
            d = self.diagram
            want = {v for i in ids if d is not None and (v := d.visible(i))}
            for cid, item in self.items_by_id.items():
                item.setSelected(cid in want)
        finally:
            self._syncing = False

    def selected_ids(self) -> list[str]:
        return [i.cid for i in self.selectedItems() if isinstance(i, BoxItem)]

    # -- moving -------------------------------------------------------------------------------
    # (positions are read at press and release by the view; no itemChange override: PySide6
    # mis-counts references when itemChange is overridden on thousands of items)
    def top_selected(self) -> list[BoxItem]:
        return [i for i in self.selectedItems() if isinstance(i, BoxItem) and i.parentItem() is None]

    def refresh_links(self, items: list[BoxItem]) -> None:
        moved = set(items)
        for li in self.links:
            if li.a.topLevelItem() in moved or li.b.topLevelItem() in moved:
                li.update_path()

    def port_at(self, pos: QPointF) -> BoxItem | None:
        for it in self.items(pos):
            if isinstance(it, BoxItem) and it.kind in PORT_KINDS:
                return it
        return None

    def box_at(self, pos: QPointF) -> BoxItem | None:
        for it in self.items(pos):
            if isinstance(it, BoxItem):
                return it
        return None

    def focus_items(self, ids: Iterable[str]) -> QRectF:
        rect = QRectF()
        d = self.diagram
        for cid in ids:
            v = d.visible(cid) if d else None
            item = self.items_by_id.get(v or "")
            if item is not None:
                rect = rect.united(item.sceneBoundingRect())
        return rect


def _depth(d: Diagram, box) -> int:
    n = 0
    while box.container and box.container in d.boxes:
        box = d.boxes[box.container]
        n += 1
    return n


def _name(topo, cid: str) -> str:
    c = topo.get(cid)
    return c.label() if c else cid


def cable_port_for(topo, box_id: str) -> str | None:
    """The port a cable attaches to for a box: a slot box stands for its HBA's first port."""
    comp = topo.get(box_id)
    if comp is None:
        return None
    if comp.kind in ("switch_port", "host_port", "hba_port"):
        return comp.id
    if comp.kind == "slot":
        hbas = topo.children(comp.id, "hba")
        ports = topo.children(hbas[0].id, "hba_port") if hbas else []
        return ports[0].id if ports else None
    return None


class DiagramView(QGraphicsView):
    """Zoom (wheel, Ctrl +/-), fit (Ctrl+0 / F), pan (middle button or Space+drag), rubber-band
    selection, drops from the palette, cable drawing from a free port, Delete, Esc."""

    zoomChanged = Signal(float)

    def __init__(self, scene: DiagramScene, parent=None) -> None:
        super().__init__(scene, parent)
        self.dscene = scene
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.RubberBandDrag)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setOptimizationFlags(QGraphicsView.OptimizationFlag.DontSavePainterState | QGraphicsView.OptimizationFlag.DontAdjustForAntialiasing)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setAcceptDrops(True)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.DefaultContextMenu)
        self._cable_from: BoxItem | None = None
        self._cable_line: QGraphicsPathItem | None = None
        self._panning = False
        self._pan_start = QPointF()
        self._space = False
        self._press_pos: dict[BoxItem, QPointF] = {}
        self.show_legend = True

    # -- zoom and pan ---------------------------------------------------------------------------
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

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Escape:
            if self._cable_from is not None:
                self._cancel_cable()
            else:
                self.dscene.clearSelection()
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
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = True
            self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = False
            self.setDragMode(QGraphicsView.DragMode.RubberBandDrag)
            return
        super().keyReleaseEvent(event)

    # -- mouse: pan, cable drawing, moves -------------------------------------------------------
    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.MiddleButton:
            self._panning = True
            self._pan_start = event.position()
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            event.accept()
            return
        if event.button() == Qt.MouseButton.LeftButton and not self._space:
            pos = self.mapToScene(event.position().toPoint())
            port = self.dscene.port_at(pos)
            topo = self.dscene.doc.topology
            pid = cable_port_for(topo, port.cid) if port is not None else None
            if pid is not None and topo.cable_at(pid) is None:
                self._start_cable(port, pos)
                event.accept()
                return
        super().mousePressEvent(event)
        if event.button() == Qt.MouseButton.LeftButton:
            self._press_pos = {i: i.pos() for i in self.dscene.top_selected()}

    def mouseMoveEvent(self, event) -> None:
        if self._panning:
            delta = event.position() - self._pan_start
            self._pan_start = event.position()
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - int(delta.x()))
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - int(delta.y()))
            event.accept()
            return
        if self._cable_from is not None:
            self._drag_cable(self.mapToScene(event.position().toPoint()))
            event.accept()
            return
        super().mouseMoveEvent(event)
        if self._press_pos:
            self.dscene.refresh_links(list(self._press_pos))

    def mouseReleaseEvent(self, event) -> None:
        if self._panning and event.button() == Qt.MouseButton.MiddleButton:
            self._panning = False
            self.viewport().unsetCursor()
            event.accept()
            return
        if self._cable_from is not None and event.button() == Qt.MouseButton.LeftButton:
            self._finish_cable(self.mapToScene(event.position().toPoint()))
            event.accept()
            return
        super().mouseReleaseEvent(event)
        pressed, self._press_pos = self._press_pos, {}
        moved = {}
        for item, start in pressed.items():
            p = item.pos()
            if p != start:  # snap to the grid; one drag of several boxes is one command
                moved[item.cid] = (round(p.x() / GRID) * GRID, round(p.y() / GRID) * GRID)
        if moved:
            self.dscene.boxesMoved.emit(moved)

    def mouseDoubleClickEvent(self, event) -> None:
        item = self.dscene.box_at(self.mapToScene(event.position().toPoint()))
        while item is not None and not (item.kind in COLLAPSIBLE and item.box.container is None):
            item = item.parentItem() if isinstance(item.parentItem(), BoxItem) else None
        if item is not None:
            self.dscene.toggle_collapsed(item.cid)
            event.accept()
            return
        super().mouseDoubleClickEvent(event)

    # -- cable gesture ------------------------------------------------------------------------
    def _start_cable(self, port: BoxItem, pos: QPointF) -> None:
        self._cable_from = port
        line = QGraphicsPathItem()
        pen = QPen(HIGHLIGHT, 2, Qt.PenStyle.DashLine)
        pen.setCosmetic(True)
        line.setPen(pen)
        line.setZValue(10)
        self.dscene.addItem(line)
        self._cable_line = line
        topo = self.dscene.doc.topology
        start = cable_port_for(topo, port.cid)
        for item in self.dscene.items_by_id.values():
            if item.kind in PORT_KINDS and item is not port:
                other = cable_port_for(topo, item.cid)
                item.set_port_state("ok" if other and compatible(topo, start, other) else "")
        self._drag_cable(pos)

    def _drag_cable(self, pos: QPointF) -> None:
        if self._cable_line is None or self._cable_from is None:
            return
        start = self._cable_from.sceneBoundingRect().center()
        path = QPainterPath(start)
        path.lineTo(pos)
        self._cable_line.setPath(path)

    def _finish_cable(self, pos: QPointF) -> None:
        src = self._cable_from
        target = self.dscene.port_at(pos)
        self._cancel_cable()
        if src is None or target is None or target is src:
            return
        topo = self.dscene.doc.topology
        a, b = cable_port_for(topo, src.cid), cable_port_for(topo, target.cid)
        if a and b:
            self.dscene.cableRequested.emit(a, b)

    def _cancel_cable(self) -> None:
        if self._cable_line is not None:
            self.dscene.removeItem(self._cable_line)
        self._cable_line = None
        self._cable_from = None
        for item in self.dscene.items_by_id.values():
            item.set_port_state("")

    # -- drops from the palette -------------------------------------------------------------
    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasFormat(PART_MIME):
            event.acceptProposedAction()
        else:
            super().dragEnterEvent(event)

    def dragMoveEvent(self, event) -> None:
        if event.mimeData().hasFormat(PART_MIME):
            event.acceptProposedAction()
        else:
            super().dragMoveEvent(event)

    def dropEvent(self, event) -> None:
        if not event.mimeData().hasFormat(PART_MIME):
            return super().dropEvent(event)
        part_id = bytes(event.mimeData().data(PART_MIME)).decode("utf-8")
        pos = self.mapToScene(event.position().toPoint())
        target = self.dscene.box_at(pos)
        self.dscene.dropPart.emit(part_id, target.cid if target else "", pos)
        event.acceptProposedAction()

    # -- context menu -------------------------------------------------------------------------
    def contextMenuEvent(self, event) -> None:
        pos = self.mapToScene(event.pos())
        item = self.dscene.box_at(pos)
        menu = QMenu(self)
        if item is not None:
            if not item.isSelected():
                self.dscene.clearSelection()
                item.setSelected(True)
            ids = self.dscene.selected_ids()
            if item.kind in COLLAPSIBLE and item.box.container is None:
                menu.addAction("Expand" if item.box.collapsed else "Collapse", lambda: self.dscene.toggle_collapsed(item.cid))
            menu.addAction("Duplicate", lambda: self.dscene.duplicateRequested.emit(ids))
            menu.addAction("Delete", lambda: self.dscene.deleteRequested.emit(ids))
            menu.addSeparator()
        menu.addAction("Expand all", lambda: self.dscene.set_all_collapsed(False))
        menu.addAction("Collapse all", lambda: self.dscene.set_all_collapsed(True))
        menu.addAction("Zoom to fit", self.zoom_to_fit)
        menu.exec(event.globalPos())

    # -- legend -------------------------------------------------------------------------------
    def drawForeground(self, painter: QPainter, rect: QRectF) -> None:
        if not self.show_legend:
            return
        painter.save()
        painter.resetTransform()
        x, y = self.viewport().width() - 212, self.viewport().height() - 78
        painter.setPen(QPen(QColor(120, 120, 120)))
        painter.setBrush(QBrush(QApplication.palette().color(QPalette.ColorRole.Base)))
        painter.drawRoundedRect(QRectF(x, y, 200, 70), 4, 4)
        painter.setPen(QApplication.palette().color(QPalette.ColorRole.Text))
        f = QFont()
        f.setPointSizeF(8)
        painter.setFont(f)
        rows = [(UTIL_BANDS[0][1], "under 70 % utilized"), (UTIL_BANDS[1][1], "70 to 95 %"), (UTIL_BANDS[2][1], "95 % and more (saturated)")]
        for i, (color, text) in enumerate(rows):
            painter.fillRect(QRectF(x + 8, y + 8 + i * 14, 22, 5), color)
            painter.drawText(QPointF(x + 36, y + 14 + i * 14), text)
        painter.setPen(QPen(BIND, 2))
        painter.drawRect(QRectF(x + 8, y + 50, 22, 10))
        painter.setPen(QApplication.palette().color(QPalette.ColorRole.Text))
        painter.drawText(QPointF(x + 36, y + 59), "binding hop of a path")
        painter.restore()


def compatible(topo, a: str | None, b: str | None) -> bool:
    """Whether a cable may join ports ``a`` and ``b`` (both free, kinds that connect)."""
    if not a or not b or a == b:
        return False
    pa, pb = topo.get(a), topo.get(b)
    if pa is None or pb is None or topo.cable_at(a) or topo.cable_at(b):
        return False
    kinds = {pa.kind, pb.kind}
    if kinds in ({"hba_port"}, {"host_port"}):
        return False
    if kinds == {"switch_port"}:
        return topo.ancestor(a, "switch") is not topo.ancestor(b, "switch")
    return True
