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

import time
from typing import Any

from PySide6.QtCore import QMimeData, QObject, QPoint, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QBrush, QColor, QDrag, QFont, QPainter, QPen
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QGraphicsItem,
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
from widgets import slice_budget
from widgets.deferred import shown_later, turns, unseen
from widgets.rack_scale import NUMBERS_W, UPX, UnitScale
from widgets.retired import Retired
from widgets.style import set_style_sheet

MIME = "application/x-sanplan-unit"  # the dragged unit's id
RACK_W = 170.0
GAP = 26.0
TOP = 44.0  # room above the racks for their names
ID_ROLE = 0  # QGraphicsItem data key: the component id an item stands for
#: at most this many racks are drawn at once; more in slices of DRAW_SLICE_S (see
#: RackElevationPanel._draw_slice): the 16x site's 176 racks took 58-61 ms, 136-175 with a
#: lane analysing a scenario just shown, in the turn that showed it
DRAW_AT_ONCE = 24
#: a design shown afresh is drawn this long after the turn that shows it, so not in the same
#: pass of the event loop: that turn (every panel replacing what it shows, 6-10 ms on the
#: benchmark), the racks drawn at once (4 ms) and their scene's own processing (4-7 ms) blocked
#: the editor 25-27 ms when a scenario of the benchmark was shown
REPLACED_AFTER_MS = 2
DRAW_SLICE_S = 0.006
#: after an edit the racks are redrawn once the canvas shows its analysis (Document.analysisShown),
#: or this long after the edit at the latest: redrawn on the edit's own turn (8-11 ms on the 16x
#: site, a server deleted: its rack and the list of units not placed) they came before the
#: analysis lane began, and the canvas waited for them (probe srvtl6.py, thirty-ninth session)
AFTER_EDIT_MS = 400
_LIST = "\0unplaced"  # in the panel's reads: the list of unplaced units (not a rack)


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


def _extent(cols: dict[str, QRectF]) -> QRectF:
    """The scene's rectangle for racks in columns ``cols`` (not empty)."""
    last = max(cols.values(), key=QRectF.right)
    return QRectF(0, 0, last.right() + 8, last.top() + last.height() + 8)


def _new_scene(parent: QObject) -> QGraphicsScene:
    """A scene for the racks, with no index of its items: Qt indexed the 16x site's 5,040 in one
    go once they were drawn (23-35 ms, twice, in the turns after); a paint looks at each item's
    bounds instead."""
    scene = QGraphicsScene(parent)
    scene.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
    return scene


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
        self._outlined: set[str] = set()  # the units whose box is outlined as selected
        self.scene = _new_scene(self)
        self.retired = Retired(self, DRAW_SLICE_S)  # the scenes of drawings gone, emptied in slices
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
        self._replaced_timer = QTimer(self)  # a design shown afresh is drawn on a later turn (see _replaced)
        self._replaced_timer.setSingleShot(True)
        self._replaced_timer.setInterval(REPLACED_AFTER_MS)
        self._replaced_timer.timeout.connect(self._draw_replaced)
        self._drawing: tuple[Any, list[str]] | None = None  # (design, racks still to draw) in slices
        self._draw_timer = QTimer(self)
        self._draw_timer.setSingleShot(True)
        self._draw_timer.timeout.connect(self._draw_slice)
        self._stale = False
        #: what is to be redrawn: everything (racks, sites, part figures or the face changed),
        #: some racks (a unit in them, or what its label reads), the list of unplaced units
        self._whole, self._dirty, self._list_due = True, set(), False
        self._arrange_due = False  # a site or rack added, removed or changed: the racks placed again
        self._reads: dict[str, set[str]] = {}  # id -> the racks (or _LIST) whose drawing reads it
        self._reads_of: dict[str, set[str]] = {}  # the other way round
        self._holders: dict[str, QGraphicsRectItem] = {}  # rack id -> the parent of its items
        self._units_in: dict[str, list[str]] = {}  # rack id -> the units drawn in it
        if hasattr(doc, "showing_check"):  # (a design shown afresh is analysed once drawn)
            doc.showing_check(self._showing)
        self._sites: set[str] = set()
        self._several: frozenset[str] = frozenset()  # kinds the design holds two or more of (see refresh)
        doc.modelEvents.connect(self._note_events)
        doc.changed.connect(self._edited)
        self._after_edit = QTimer(self)  # (see AFTER_EDIT_MS)
        self._after_edit.setSingleShot(True)
        self._after_edit.setInterval(AFTER_EDIT_MS)
        self._after_edit.timeout.connect(self._timer.start)
        if hasattr(doc, "analysisShown"):
            doc.analysisShown.connect(self._analysis_shown)
        doc.projectReplaced.connect(self._replaced)  # an opened site's racks wait for their tab
        doc.selectionChanged.connect(self._selection_changed)
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
        self._whole = True
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
        set_style_sheet(self.reason, "color: #c62828;" if error else "")

    # -- drawing -------------------------------------------------------------------------------
    def _note_events(self, events: list[Any]) -> None:
        for event in events:
            if self._whole:
                return
            self._note_event(event)

    def _note_event(self, event: Any) -> None:
        """What an edit reaches: everything for sites, racks and rackable part figures; the racks
        whose units it changes or whose labels read it (their ancestors); the list of unplaced
        units. The other edits of a site (an HBA, an array's segment size) leave the racks as
        they are (redrawing every rack of the 16x site took 0.6 s, the racks a server is in 10 ms)."""
        if self._whole:
            return
        topo = self.doc.topology
        if event.type == "parts":  # a part's figures (its height in U): if it is a rackable one
            part = topo.parts.get(event.id)
            if part is not None:
                self._whole = part.get("kind") in _rack_kinds()
            else:  # taken out (an HBA of a new model undone): if a unit still names it
                self._whole = any(c.part == event.id for k in placement.placeable_kinds() for c in topo.of_kind(k))
            return
        if event.type == "meta":
            self._whole = True
            return
        comp = topo.get(event.id)
        if event.id in self.racks or event.id in self._sites or (comp is not None and comp.kind in ("site", "rack")):
            self._arrange_due = True  # (a rack changed is drawn again; a site's racks read it)
            if event.id in self.racks:
                self._dirty.add(event.id)
        for key in self._reads.get(event.id, ()):
            if key == _LIST:
                self._list_due = True
            else:
                self._dirty.add(key)
        if comp is not None and comp.kind in placement.placeable_kinds():
            self._list_due = True
            if comp["rack"] in self.racks:
                self._dirty.add(comp["rack"])

    def _due(self) -> bool:
        return self._whole or self._arrange_due or bool(self._dirty) or self._list_due

    def _showing(self) -> bool:
        """Whether the design shown afresh is still being drawn (or the drawings gone emptied)."""
        return self._replaced_timer.isActive() or self._drawing is not None or bool(self.retired.pending)

    def _replaced(self) -> None:
        """A design shown afresh (opened, another scenario): drawn on a later turn than the one
        showing it, which every panel spends replacing what it shows (see REPLACED_AFTER_MS); at
        once when the document analyses synchronously (tests)."""
        self._whole = True
        if getattr(self.doc, "synchronous", True):
            self._refresh_if_seen()
        else:
            self._replaced_timer.start()

    def _edited(self) -> None:
        """An edit: redrawn once the canvas shows its analysis (see AFTER_EDIT_MS); at once when
        the document analyses synchronously (tests) or shows no analysis."""
        if getattr(self.doc, "synchronous", True) or not hasattr(self.doc, "analysisShown"):
            self._timer.start()
        elif not self._after_edit.isActive():  # (the latest: not put off by the edits that follow)
            self._after_edit.start()

    def _analysis_shown(self) -> None:
        if self._after_edit.isActive():
            self._after_edit.stop()
            self._timer.start()

    def _refresh_if_seen(self) -> None:
        """After an edit or a new design: redraw now when the panel can be seen, else when its tab
        is raised; nothing when the edit did not reach what it shows."""
        if not self._due():
            return
        self._stale = True
        if not unseen(self) and not self._replaced_timer.isActive():  # (else drawn by it)
            self.refresh()

    def _draw_replaced(self) -> None:
        """The design shown afresh drawn (see :meth:`_replaced`), in a turn with the time for
        it left of the slices' budget (drawn at once when its racks are few: DRAW_SLICE_S about),
        else on the next."""
        if slice_budget.until(DRAW_SLICE_S, whole=True) is None:
            self._replaced_timer.start()
            return
        try:
            self._refresh_if_seen()
        finally:
            slice_budget.ended()

    def paintEvent(self, event: Any) -> None:  # noqa: N802 (Qt override)
        super().paintEvent(event)
        if self._stale:  # a raised tab paints without a show event
            QTimer.singleShot(0, self._refresh_if_stale)

    def _refresh_if_stale(self) -> None:
        if self._stale and not unseen(self):
            self.refresh()

    def refresh(self) -> None:
        """Redraw what the edits since the last redraw reached (see :meth:`_note_event`):
        every rack (in slices when they are many: :meth:`_draw_slice`), or the racks they
        changed; then the list of unplaced units."""
        topo = self.doc.topology
        several = frozenset(k for k in KINDS if topo.count_of(k) > 1)
        if several != self._several:  # a label names its server only when the design has several
            self._several, self._whole = several, True
        if self._drawing is not None and not self._whole:
            return  # (being drawn in slices: what the edits reach is redrawn once they are done)
        if self._whole or not self.racks:
            if self._draw_all(topo):
                return  # (in slices: the rest once they are drawn)
        else:
            todo = self._arrange(topo) if self._arrange_due else {r for r in self._dirty if r in self.racks}
            if todo:
                self._redraw(topo, todo)
        self._stale, self._whole, self._dirty, self._list_due = False, False, set(), False
        self._arrange_due = False
        self._drawn(topo)

    def _drawn(self, topo: Any) -> None:
        """The racks are drawn: the list of unplaced units, the selection, the summary."""
        self._fill_unplaced(topo)
        self._show_selection()
        placed = sum(map(len, self._units_in.values()))
        self.summary.setText(
            f"{counted(len(self._sites), 'site')}, {counted(len(self.racks), 'rack')}, {counted(placed, 'unit')} placed, "
            f"{self.unplaced.count()} not placed - {self.face} view"
        )

    def _draw_all(self, topo: Any) -> bool:
        """Draw every rack afresh: at once when they are at most DRAW_AT_ONCE, else in slices
        (True: under way; what is due starts anew, the edits meanwhile mark it again)."""
        self._drawing = None
        bars = (self.view.horizontalScrollBar(), self.view.verticalScrollBar())
        scrolled = [bar.value() for bar in bars]  # (where the user looked: kept)
        if self._holders:  # a new scene; the old one's items deleted a few a turn (see widgets.retired)
            old, self.scene = self.scene, _new_scene(self)
            self.view.setScene(self.scene)
            self.retired.add_scene(old, list(self._holders.values()))
        else:
            self.scene.clear()
        self.units, self._holders, self._units_in = {}, {}, {}
        self._reads, self._reads_of = {}, {}
        self.racks = self._columns(topo)
        if len(self.racks) > DRAW_AT_ONCE:
            self.scene.setSceneRect(_extent(self.racks))  # (else each slice grew it: the view followed)
            for bar, value in zip(bars, scrolled, strict=True):
                bar.setValue(value)
            self._stale, self._whole, self._dirty, self._list_due = False, False, set(), False
            self._arrange_due = False
            self._drawing = (topo, list(self.racks)[::-1])  # (taken from the end)
            self._draw_timer.start(1)
            self.summary.setText(f"Drawing {counted(len(self.racks), 'rack')}...")
            return True
        for rid in self.racks:
            self._draw_rack(topo, topo[rid], placement.rack_contents(topo, rid))
        if not self.racks:
            hint = self.scene.addSimpleText("No racks yet: Design > Racks > Add site..., then Add rack...")
            hint.setPos(8, 8)
        self.scene.setSceneRect(self.scene.itemsBoundingRect().adjusted(-8, -8, 8, 8))
        for bar, value in zip(bars, scrolled, strict=True):
            bar.setValue(value)
        return False

    def _draw_slice(self) -> None:
        """Draw the next racks of a drawing under way for DRAW_SLICE_S; once all are, what
        refresh does after them, then what the edits made meanwhile reached."""
        if self._drawing is None:
            return
        topo, todo = self._drawing
        if topo is not self.doc.topology:  # (another design: drawn afresh)
            self._drawing, self._whole = None, True
            self._refresh_if_seen()
            return
        until = slice_budget.until(DRAW_SLICE_S)  # (what the slices before it in this turn left)
        if until is None:
            self._draw_timer.start(1)
            return
        try:
            while todo:
                rack = topo.get(todo.pop())
                if rack is not None and rack.id in self.racks:
                    self._draw_rack(topo, rack, placement.rack_contents(topo, rack.id))
                if todo and time.perf_counter() >= until:
                    self._draw_timer.start(1)
                    return
        finally:
            slice_budget.ended()
        self._drawing = None
        self.scene.setSceneRect(self.scene.itemsBoundingRect().adjusted(-8, -8, 8, 8))
        self._drawn(topo)
        self._refresh_if_seen()  # (the edits made while it drew)

    def _columns(self, topo: Any) -> dict[str, QRectF]:
        """Rack id -> its column of units, in drawing order (racks side by side, bottoms level)."""
        self._sites = set(topo.ids_of_kind("site"))
        racks = ordered_racks(topo)
        tallest = max((r["height_u"] for r in racks), default=0)
        cols = {}
        for i, rack in enumerate(racks):
            x = NUMBERS_W + i * (RACK_W + NUMBERS_W + GAP)
            cols[rack.id] = QRectF(x, TOP + (tallest - rack["height_u"]) * UPX, RACK_W, rack["height_u"] * UPX)
        return cols

    def _arrange(self, topo: Any) -> set[str]:
        """Place the racks again after a site or rack changed: the racks gone are taken away,
        those only moved sideways are shifted, the others are to be drawn (returned). A server
        deleted with its frames on the 16x site: the other 174 racks shifted instead of 176
        racks drawn again (0.3-0.45 s)."""
        cols = self._columns(topo)
        if not cols:  # the last rack gone: the hint instead
            self._draw_all(topo)
            return set()
        for rid in [r for r in self._holders if r not in cols]:
            self.scene.removeItem(self._holders.pop(rid))
            for cid in self._units_in.pop(rid, ()):
                self.units.pop(cid, None)
            self._forget(rid)
        todo = {r for r in self._dirty if r in cols}
        for rid, col in cols.items():
            old = self.racks.get(rid)
            if old is None or rid not in self._holders or old.top() != col.top():
                todo.add(rid)
            elif old.left() != col.left() and rid not in todo:
                self._holders[rid].moveBy(col.left() - old.left(), 0)
        self.racks = cols
        self.scene.setSceneRect(_extent(cols))
        return todo

    def _redraw(self, topo: Any, racks: set[str]) -> None:
        """Draw ``racks`` again in their places (the racks themselves did not change)."""
        for rid in racks:  # every unit they showed is forgotten before any is drawn (a unit moved)
            holder = self._holders.pop(rid, None)
            if holder is not None:
                self.scene.removeItem(holder)
            for cid in self._units_in.pop(rid, ()):
                self.units.pop(cid, None)
        for rid in racks:
            self._draw_rack(topo, topo[rid], placement.rack_contents(topo, rid))

    def _read(self, topo: Any, comp: Any, key: str) -> None:
        """``key``'s drawing reads ``comp`` and (its label) its ancestors."""
        c = comp
        while c is not None:
            self._reads.setdefault(c.id, set()).add(key)
            self._reads_of.setdefault(key, set()).add(c.id)
            c = topo.get(c.parent) if c.parent else None

    def _forget(self, key: str) -> None:
        for cid in self._reads_of.pop(key, ()):
            keys = self._reads.get(cid)
            if keys is not None:
                keys.discard(key)

    def _selection_changed(self, ids: list[str]) -> None:
        """Outline the selection on a later turn, after the canvas has shown it (Select All or
        its clearing on the 16x site: a thousand units' outlines, then Qt's repaint of them,
        5-6 ms, in the turn of the canvas's 10 ms; see :func:`widgets.deferred.shown_later`)."""
        if shown_later(self.doc, len(ids) + len(self._outlined)):
            turns().put(self, self._show_selection)  # (one panel a turn: see widgets.deferred)
        else:
            turns().drop(self)  # (a large one pending is replaced by this one)
            self._show_selection()

    def _show_selection(self) -> None:
        """Outline the selected units in blue: only the units whose outline changes (every unit
        of the 16x site, 2,032, was restyled on each click: 5-7 ms). A unit drawn again comes
        with the plain outline (see :meth:`_draw_unit`)."""
        units = self.units
        chosen = units.keys() & set(self.doc.selection)
        plain, outlined = QPen(QColor("#303030")), QPen(QColor("#1565c0"), 3)  # (one pen each: Select All
        for cid in self._outlined - chosen:  # outlines a thousand units)
            box = units.get(cid)
            if box is not None:
                box.setPen(plain)
        for cid in chosen - self._outlined:
            units[cid].setPen(outlined)
        self._outlined = chosen

    def _fill_unplaced(self, topo: Any) -> None:
        self.unplaced.clear()
        self._forget(_LIST)
        for comp in placement.unplaced(topo):
            self._read(topo, comp, _LIST)
            h = placement.u_height(topo, comp.id)
            item = QListWidgetItem(f"{label(topo, comp)} ({kind_name(comp.kind)}, {h or '?'}U)")
            item.setData(Qt.ItemDataRole.UserRole, comp.id)
            item.setToolTip(f"{comp.id}: drag it onto a rack unit (its lowest U)")
            self.unplaced.addItem(item)

    def _draw_rack(self, topo: Any, rack: Any, contents: list) -> None:
        """Draw ``rack`` at its column (``self.racks``) with ``contents`` (see
        :func:`planner.placement.rack_contents`), its items under one parent."""
        col = self.racks[rack.id]
        self._forget(rack.id)
        holder = self._holders[rack.id] = QGraphicsRectItem()
        holder.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents)
        self.scene.addItem(holder)
        self._draw_frame(topo, rack, col, holder)
        owner = topo.get(rack["frame_of"]) if rack["frame_of"] else None
        if owner is not None:  # its reserved units come from the server's part
            self._read(topo, owner, rack.id)
        for start, size, what in placement.reserved_units(topo, rack.id):
            box = self._box(holder, col, start, size, QColor("#d0d0d0"), Qt.BrushStyle.BDiagPattern)
            self._text(box, f"{what} ({size}U)", f"U{start}-U{start + size - 1}: {what}, part of the server frame")
        self._units_in[rack.id] = []
        for comp, pos in contents:
            self._draw_unit(topo, comp, pos, col, holder)
            self._units_in[rack.id].append(comp.id)
            self._read(topo, comp, rack.id)

    def _draw_frame(self, topo: Any, rack: Any, col: QRectF, holder: QGraphicsItem) -> None:
        """The rack's name and place above it, its outline and the unit numbers beside it."""
        height, x = rack["height_u"], col.left()
        site = topo.get(rack.parent)
        if site is not None:  # its name is in the rack's title
            self._read(topo, site, rack.id)
        title = f"{rack.label()}" + (f" (U{rack['frame']})" if rack["frame_of"] else "")
        where = f"{site.label() if site else ''}, row {rack['row'] or '-'} #{rack['position']}, {height}U"
        where += f", {rack['width_mm']:g} mm frame" if rack["frame_of"] else ""
        for text, dy, bold in ((title, 34, True), (where, 18, False)):
            t = QGraphicsSimpleTextItem(text, holder)
            font = QFont()
            font.setBold(bold)
            font.setPointSizeF(8)
            t.setFont(font)
            t.setPos(x, col.top() - dy)
        frame = QGraphicsRectItem(col, holder)
        frame.setPen(QPen(QColor("#404040"), 1.5))
        frame.setBrush(QBrush(QColor("#fafafa")))
        frame.setData(ID_ROLE, rack.id)
        frame.setToolTip(f"{rack.label()}: {height}U, {rack['width_mm']:g} mm wide")
        UnitScale(col, height, holder)

    def _draw_unit(self, topo: Any, comp: Any, pos: placement.Position, col: QRectF, holder: QGraphicsItem) -> None:
        """A mounted unit: solid from its face, hatched from the other (it fills the same units)."""
        other_face = pos.face != self.face
        style = Qt.BrushStyle.Dense5Pattern if other_face else Qt.BrushStyle.SolidPattern
        box = self._box(holder, col, pos.u, pos.height_u, _fill(comp.kind), style)
        box.setData(ID_ROLE, comp.id)
        code = placement.location_code(topo, comp.id)
        name = label(topo, comp)
        text = f"{name} - {pos.height_u}U" + (f" ({pos.face})" if other_face else "") + (f"  {code}" if code else "")
        tip = f"{name} ({kind_name(comp.kind)}): U{pos.u}-U{pos.top}, {pos.face}" + (f", {code}" if code else "")
        self._text(box, text, tip + "\nDrag to move it; drop it on the list to unplace it")
        self.units[comp.id] = box
        self._outlined.discard(comp.id)  # (drawn in the plain outline)

    @staticmethod
    def _box(
        holder: QGraphicsItem, col: QRectF, u: int, size: int, colour: QColor, style: Qt.BrushStyle
    ) -> QGraphicsRectItem:
        rect = QRectF(col.left() + 8, col.bottom() - (u - 1 + size) * UPX + 1, col.width() - 12, size * UPX - 2)
        box = QGraphicsRectItem(rect, holder)
        box.setPen(QPen(QColor("#303030")))
        box.setBrush(QBrush(colour, style))
        return box

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
