"""The Racks panel: rack elevations side by side, the units not yet placed, drag to place.

Every rack of the design is drawn as a column of rack units (U1 at the bottom, the unit numbers at
the side), grouped by site and ordered by row and position; each mounted unit is a box at its
units with its name and height. The front or the rear face is shown (the toggle at the top);
units mounted from the other face are drawn hatched, since they fill the same units. A server
frame's reserved units (bulk power, media drawer) are drawn grey.

The panel never edits the design. Dragging a unit from the list of unplaced units (or a mounted
unit to another place) and dropping it on a rack emits ``placeRequested(unit, rack, u, face)``;
the unit's lowest U is the unit under the pointer. A drop the placement check refuses
(:func:`planner.placement.placement_problem`) emits nothing and shows the reason under the view.
Dropping a mounted unit on the list emits ``unplaceRequested``. The context menu asks for sites and
racks to be added, renamed and deleted (``addSiteRequested``, ``addRackRequested(site)``,
``renameRequested(id)``, ``deleteRequested(id)``); the application turns these into undoable
commands (``app.actions.racks``).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QMimeData, QPoint, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QBrush, QColor, QDrag, QFont, QPainter, QPen
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from planner import placement
from planner.naming import counted, label
from planner.schema import KINDS, kind_name
from widgets.deferred import unseen

MIME = "application/x-sanplan-unit"  # the dragged unit's id
UPX = 14.0  # one rack unit on screen (points)
RACK_W = 170.0
NUMBERS_W = 22.0  # the unit numbers left of each rack
GAP = 26.0
TOP = 44.0  # room above the racks for their names
ID_ROLE = 0  # QGraphicsItem data key: the component id an item stands for


def _fill(kind: str) -> QColor:
    spec = KINDS.get(kind)
    colour = (spec.fill if spec else None) or KINDS["subsystem"].fill or "#eeeeee"
    return QColor(colour)


def ordered_racks(topo: Any) -> list[Any]:
    """The racks in drawing order: by site, then row and position."""
    sites = {s.id: i for i, s in enumerate(topo.of_kind("site"))}
    return sorted(topo.of_kind("rack"), key=lambda r: (sites.get(r.parent, 0), r["row"], r["position"], r.id))


class RackView(QGraphicsView):
    """The drawing: takes drops of units and hands them to its panel; a unit box can be dragged."""

    def __init__(self, panel: RackElevationPanel) -> None:
        super().__init__(panel)
        self.panel = panel
        self.setAcceptDrops(True)
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self._press: tuple[QPoint, str] | None = None

    def dragEnterEvent(self, event: Any) -> None:
        if event.mimeData().hasFormat(MIME):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event: Any) -> None:
        if not event.mimeData().hasFormat(MIME):
            event.ignore()
            return
        cid = bytes(event.mimeData().data(MIME)).decode()
        spot = self.panel.spot_at(self.mapToScene(event.position().toPoint()))
        self.panel.show_hover(cid, spot)
        event.acceptProposedAction()

    def dropEvent(self, event: Any) -> None:
        if not event.mimeData().hasFormat(MIME):
            event.ignore()
            return
        cid = bytes(event.mimeData().data(MIME)).decode()
        self.panel.drop(cid, self.panel.spot_at(self.mapToScene(event.position().toPoint())))
        event.acceptProposedAction()

    def mousePressEvent(self, event: Any) -> None:
        cid = self.panel.unit_at(self.mapToScene(event.position().toPoint()))
        self._press = (event.position().toPoint(), cid) if cid else None
        if cid:
            self.panel.unitClicked.emit(cid)
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: Any) -> None:
        if self._press is not None and (event.position().toPoint() - self._press[0]).manhattanLength() > 8:
            cid, self._press = self._press[1], None
            self.panel.start_drag(cid, self)
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: Any) -> None:
        self._press = None
        super().mouseReleaseEvent(event)

    def contextMenuEvent(self, event: Any) -> None:
        menu = self.panel.menu_at(self.mapToScene(event.pos()))
        menu.exec(event.globalPos())


class UnplacedList(QListWidget):
    """The units not yet placed: a drag source, and a drop target that unplaces a mounted unit."""

    def __init__(self, panel: RackElevationPanel) -> None:
        super().__init__(panel)
        self.panel = panel
        self.setDragEnabled(True)
        self.setAcceptDrops(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragDrop)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)

    def mimeData(self, items: Any) -> QMimeData:
        data = QMimeData()
        if items:
            data.setData(MIME, items[0].data(Qt.ItemDataRole.UserRole).encode())
        return data

    def mimeTypes(self) -> list[str]:
        return [MIME]

    def dragEnterEvent(self, event: Any) -> None:
        event.acceptProposedAction() if event.mimeData().hasFormat(MIME) else event.ignore()

    def dragMoveEvent(self, event: Any) -> None:
        event.acceptProposedAction() if event.mimeData().hasFormat(MIME) else event.ignore()

    def dropEvent(self, event: Any) -> None:
        cid = bytes(event.mimeData().data(MIME)).decode()
        if placement.position(self.panel.doc.topology, cid) is not None:
            self.panel.unplaceRequested.emit(cid)
        event.acceptProposedAction()


class RackElevationPanel(QWidget):
    """Rack elevations of ``doc`` (an ``app.document.Document``, read only) and the unplaced
    units. Signals: ``placeRequested(unit, rack, u, face)``, ``unplaceRequested(unit)``,
    ``addSiteRequested()``, ``addRackRequested(site)``, ``renameRequested(id)``,
    ``deleteRequested(id)`` (a site or rack), ``unitClicked(id)``."""

    placeRequested = Signal(str, str, int, str)
    unplaceRequested = Signal(str)
    addSiteRequested = Signal()
    addRackRequested = Signal(str)
    renameRequested = Signal(str)
    deleteRequested = Signal(str)
    unitClicked = Signal(str)

    def __init__(self, doc: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("RackElevationPanel")
        self.doc = doc
        self.face = "front"
        self.racks: dict[str, QRectF] = {}  # rack id -> its unit column in scene coordinates
        self.units: dict[str, QGraphicsRectItem] = {}  # mounted unit id -> its box
        self.scene = QGraphicsScene(self)
        self.view = RackView(self)
        self.view.setScene(self.scene)
        self.unplaced = UnplacedList(self)
        self.reason = QLabel()
        self.reason.setWordWrap(True)
        self.reason.setObjectName("RackReason")
        self._build()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._refresh_if_seen)
        self._stale = False
        self._shown_ids: set[str] = set()  # what the racks show and what their labels read
        self._touched = True  # an edit since the last refresh reached something they show
        doc.modelEvent.connect(self._note_event)
        doc.changed.connect(self._timer.start)
        doc.projectReplaced.connect(self._replaced)  # an opened site's racks wait for their tab
        doc.selectionChanged.connect(lambda _ids: self._show_selection())
        self.refresh()

    def _build(self) -> None:
        bar = QHBoxLayout()
        self.face_buttons: dict[str, QToolButton] = {}
        group = QButtonGroup(self)
        for face in placement_faces():
            b = QToolButton()
            b.setText(face.capitalize())
            b.setCheckable(True)
            b.setChecked(face == self.face)
            b.setToolTip(f"Show the racks from the {face}")
            b.clicked.connect(lambda _=False, f=face: self.set_face(f))
            group.addButton(b)
            bar.addWidget(b)
            self.face_buttons[face] = b
        self.summary = QLabel()
        bar.addWidget(self.summary, 1)
        side = QWidget()
        side_lay = QVBoxLayout(side)
        side_lay.setContentsMargins(0, 0, 0, 0)
        side_lay.addWidget(QLabel("Not placed (drag into a rack):"))
        side_lay.addWidget(self.unplaced, 1)
        split = QSplitter()
        split.addWidget(self.view)
        split.addWidget(side)
        split.setStretchFactor(0, 4)
        split.setStretchFactor(1, 1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(bar)
        lay.addWidget(split, 1)
        lay.addWidget(self.reason)

    # -- public --------------------------------------------------------------------------------
    def set_face(self, face: str) -> None:
        """Show the racks from ``face`` ('front' or 'rear')."""
        self.face = face
        self.face_buttons[face].setChecked(True)
        self.refresh()

    def unplaced_ids(self) -> list[str]:
        return [self.unplaced.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.unplaced.count())]

    def unit_scene_point(self, rack: str, u: int) -> QPointF:
        """The middle of unit ``u`` of ``rack`` in scene coordinates."""
        col = self.racks[rack]
        return QPointF(col.center().x(), col.bottom() - (u - 0.5) * UPX)

    def unit_view_point(self, rack: str, u: int) -> QPoint:
        """The middle of unit ``u`` of ``rack`` in the view's viewport coordinates."""
        return self.view.mapFromScene(self.unit_scene_point(rack, u))

    def spot_at(self, point: QPointF) -> tuple[str, int] | None:
        """(rack id, unit) under a scene point, or None off the racks."""
        for rack, col in self.racks.items():
            if col.left() <= point.x() <= col.right() and col.top() <= point.y() <= col.bottom():
                return rack, int((col.bottom() - point.y()) // UPX) + 1
        return None

    def unit_at(self, point: QPointF) -> str | None:
        for item in self.scene.items(point):
            cid = item.data(ID_ROLE)
            if cid and cid in self.units:
                return cid
        return None

    def drop_problem(self, cid: str, spot: tuple[str, int] | None) -> str | None:
        """Why ``cid`` cannot be dropped at ``spot``, or None."""
        if spot is None:
            return "drop the unit on a rack"
        return placement.placement_problem(self.doc.topology, cid, spot[0], spot[1], self.face)

    def show_hover(self, cid: str, spot: tuple[str, int] | None) -> None:
        problem = self.drop_problem(cid, spot)
        topo = self.doc.topology
        if problem or spot is None:
            self._say(f"Cannot place here: {problem}", error=True)
        else:
            self._say(f"Drop to place {label(topo, cid)} at {topo[spot[0]].label()} U{spot[1]} ({self.face})")

    def drop(self, cid: str, spot: tuple[str, int] | None) -> bool:
        """A unit dropped at ``spot``: emit ``placeRequested``, or show why not. True when emitted."""
        if cid not in self.doc.topology:
            return False
        problem = self.drop_problem(cid, spot)
        if problem or spot is None:
            self._say(f"Not placed: {problem}", error=True)
            return False
        self._say("")
        self.placeRequested.emit(cid, spot[0], spot[1], self.face)
        return True

    def start_drag(self, cid: str, source: QWidget) -> None:
        data = QMimeData()
        data.setData(MIME, cid.encode())
        drag = QDrag(source)
        drag.setMimeData(data)
        drag.exec(Qt.DropAction.MoveAction)

    def menu_at(self, point: QPointF) -> QMenu:
        """The context menu for what is under a scene point (a unit, a rack, or the background)."""
        topo = self.doc.topology
        self._menu = menu = QMenu()  # kept alive until the next menu is asked for
        unit = self.unit_at(point)
        spot = self.spot_at(point)
        rack = topo.get(spot[0]) if spot else self._rack_at_label(point)
        if unit:
            self._item(menu, f"Unplace {label(topo, unit)}", lambda: self.unplaceRequested.emit(unit), "unplace")
            menu.addSeparator()
        site = topo.get(rack.parent) if rack is not None else next(iter(topo.of_kind("site")), None)
        if site is not None:
            self._item(menu, f"Add rack to {site.label()}...", lambda: self.addRackRequested.emit(site.id), "add-rack")
        self._item(menu, "Add site...", self.addSiteRequested.emit, "add-site")
        if rack is not None:
            menu.addSeparator()
            self._item(menu, f"Rename rack {rack.label()}...", lambda: self.renameRequested.emit(rack.id), "rename")
            self._item(menu, f"Delete rack {rack.label()}", lambda: self.deleteRequested.emit(rack.id), "delete-rack")
            self._item(menu, f"Delete site {site.label()}", lambda: self.deleteRequested.emit(site.id), "delete-site")
        return menu

    @staticmethod
    def _item(menu: QMenu, text: str, slot: Any, name: str) -> QAction:
        act = menu.addAction(text, slot)
        act.setObjectName(f"rack-menu-{name}")
        return act

    def _rack_at_label(self, point: QPointF) -> Any:
        for rack, col in self.racks.items():
            if col.left() <= point.x() <= col.right() and col.top() - TOP <= point.y() < col.top():
                return self.doc.topology.get(rack)
        return None

    def _say(self, text: str, error: bool = False) -> None:
        self.reason.setText(text)
        self.reason.setStyleSheet("color: #c62828;" if error else "")

    # -- drawing -------------------------------------------------------------------------------
    def _note_event(self, event: Any) -> None:
        """Whether an edit reaches the racks: sites, racks, rackable units, what their labels
        read (their ancestors), part figures; the other edits of a site (an HBA, an array's
        segment size) leave them as they are (redrawing every rack of the 16x site took 0.6 s)."""
        if self._touched:
            return
        topo = self.doc.topology
        if event.type == "parts":  # a part's figures (its height in U): if it is a rackable one
            part = topo.parts.get(event.id)
            self._touched = part is None or part.get("kind") in _rack_kinds()
            return
        if event.type == "meta" or event.id in self._shown_ids:
            self._touched = True
            return
        comp = topo.get(event.id)
        if comp is not None and comp.kind in _rack_kinds():
            self._touched = True

    def _replaced(self) -> None:
        self._touched = True
        self._refresh_if_seen()

    def _refresh_if_seen(self) -> None:
        """After an edit or a new design: redraw now when the panel can be seen, else when its tab
        is raised; nothing when the edit did not reach what it shows."""
        if not self._touched:
            return
        self._stale = True
        if not unseen(self):
            self.refresh()

    def paintEvent(self, event: Any) -> None:  # noqa: N802 (Qt override)
        super().paintEvent(event)
        if self._stale:  # a raised tab paints without a show event
            QTimer.singleShot(0, self._refresh_if_stale)

    def _refresh_if_stale(self) -> None:
        if self._stale and not unseen(self):
            self.refresh()

    def refresh(self) -> None:
        """Redraw every rack and the list of unplaced units from the design."""
        self._stale = self._touched = False
        topo = self.doc.topology
        self._shown_ids = shown = set()
        for kind in _rack_kinds():
            for comp in topo.of_kind(kind):
                c = comp
                while c is not None and c.id not in shown:
                    shown.add(c.id)
                    c = topo.get(c.parent) if c.parent else None
        self.scene.clear()
        self.racks, self.units = {}, {}
        racks = ordered_racks(topo)
        tallest = max((r["height_u"] for r in racks), default=0)
        for i, rack in enumerate(racks):
            self._draw_rack(topo, rack, NUMBERS_W + i * (RACK_W + NUMBERS_W + GAP), tallest)
        if not racks:
            hint = self.scene.addSimpleText("No racks yet: Design > Racks > Add site..., then Add rack...")
            hint.setPos(8, 8)
        self.scene.setSceneRect(self.scene.itemsBoundingRect().adjusted(-8, -8, 8, 8))
        self._fill_unplaced(topo)
        self._show_selection()
        placed = sum(len(placement.rack_contents(topo, r.id)) for r in racks)
        self.summary.setText(
            f"{counted(len(topo.of_kind('site')), 'site')}, {counted(len(racks), 'rack')}, {counted(placed, 'unit')} placed, "
            f"{self.unplaced.count()} not placed - {self.face} view"
        )

    def _show_selection(self) -> None:
        """Outline the selected units in blue."""
        chosen = set(self.doc.selection)
        for cid, box in self.units.items():
            box.setPen(QPen(QColor("#1565c0"), 3) if cid in chosen else QPen(QColor("#303030")))

    def _fill_unplaced(self, topo: Any) -> None:
        self.unplaced.clear()
        for comp in placement.unplaced(topo):
            h = placement.u_height(topo, comp.id)
            item = QListWidgetItem(f"{label(topo, comp)} ({kind_name(comp.kind)}, {h or '?'}U)")
            item.setData(Qt.ItemDataRole.UserRole, comp.id)
            item.setToolTip(f"{comp.id}: drag it onto a rack unit (its lowest U)")
            self.unplaced.addItem(item)

    def _draw_rack(self, topo: Any, rack: Any, x: float, tallest: int) -> None:
        height = rack["height_u"]
        col = QRectF(x, TOP + (tallest - height) * UPX, RACK_W, height * UPX)
        self.racks[rack.id] = col
        self._draw_frame(topo, rack, col)
        for start, size, what in placement.reserved_units(topo, rack.id):
            box = self._box(col, start, size, QColor("#d0d0d0"), Qt.BrushStyle.BDiagPattern)
            self._text(box, f"{what} ({size}U)", f"U{start}-U{start + size - 1}: {what}, part of the server frame")
        for comp, pos in placement.rack_contents(topo, rack.id):
            self._draw_unit(topo, comp, pos, col)

    def _draw_frame(self, topo: Any, rack: Any, col: QRectF) -> None:
        """The rack's name and place above it, its outline and the unit numbers beside it."""
        height, x = rack["height_u"], col.left()
        site = topo.get(rack.parent)
        title = f"{rack.label()}" + (f" (U{rack['frame']})" if rack["frame_of"] else "")
        where = f"{site.label() if site else ''}, row {rack['row'] or '-'} #{rack['position']}, {height}U"
        where += f", {rack['width_mm']:g} mm frame" if rack["frame_of"] else ""
        for text, dy, bold in ((title, 34, True), (where, 18, False)):
            t = self.scene.addSimpleText(text)
            font = QFont()
            font.setBold(bold)
            font.setPointSizeF(8)
            t.setFont(font)
            t.setPos(x, col.top() - dy)
        frame = self.scene.addRect(col, QPen(QColor("#404040"), 1.5), QBrush(QColor("#fafafa")))
        frame.setData(ID_ROLE, rack.id)
        frame.setToolTip(f"{rack.label()}: {height}U, {rack['width_mm']:g} mm wide")
        small = QFont()
        small.setPointSizeF(6.5)
        tick = QPen(QColor("#b0b0b0"))
        for u in range(1, height + 1):
            n = self.scene.addSimpleText(str(u))
            n.setFont(small)
            n.setPos(x - NUMBERS_W + 2, col.bottom() - u * UPX + 1)
            if u > 1:
                y = col.bottom() - (u - 1) * UPX
                self.scene.addLine(x, y, x + 6, y, tick)

    def _draw_unit(self, topo: Any, comp: Any, pos: placement.Position, col: QRectF) -> None:
        """A mounted unit: solid from its face, hatched from the other (it fills the same units)."""
        other_face = pos.face != self.face
        style = Qt.BrushStyle.Dense5Pattern if other_face else Qt.BrushStyle.SolidPattern
        box = self._box(col, pos.u, pos.height_u, _fill(comp.kind), style)
        box.setData(ID_ROLE, comp.id)
        code = placement.location_code(topo, comp.id)
        name = label(topo, comp)
        text = f"{name} - {pos.height_u}U" + (f" ({pos.face})" if other_face else "") + (f"  {code}" if code else "")
        tip = f"{name} ({kind_name(comp.kind)}): U{pos.u}-U{pos.top}, {pos.face}" + (f", {code}" if code else "")
        self._text(box, text, tip + "\nDrag to move it; drop it on the list to unplace it")
        self.units[comp.id] = box

    def _box(self, col: QRectF, u: int, size: int, colour: QColor, style: Qt.BrushStyle) -> QGraphicsRectItem:
        rect = QRectF(col.left() + 8, col.bottom() - (u - 1 + size) * UPX + 1, col.width() - 12, size * UPX - 2)
        brush = QBrush(colour, style)
        return self.scene.addRect(rect, QPen(QColor("#303030")), brush)

    def _text(self, box: QGraphicsRectItem, text: str, tip: str) -> QGraphicsSimpleTextItem:
        t = QGraphicsSimpleTextItem(text, box)
        font = QFont()
        font.setPointSizeF(7)
        t.setFont(font)
        rect = box.rect()
        while t.boundingRect().width() > rect.width() - 6 and len(text) > 4:
            text = text[:-2]
            t.setText(text + "\u2026")
        t.setPos(rect.left() + 3, rect.top() + (min(rect.height(), UPX) - t.boundingRect().height()) / 2)
        box.setToolTip(tip)
        return t


def _rack_kinds() -> frozenset[str]:
    return frozenset(placement.placeable_kinds()) | {"site", "rack"}


def placement_faces() -> tuple[str, ...]:
    """The faces a unit is mounted from, as the schema lists them."""
    return tuple(getattr(KINDS["switch"].attrs["face"].check, "options", ("front", "rear")))
