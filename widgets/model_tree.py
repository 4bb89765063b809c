"""The model tree: an outline of every component of the design, by kind and parent, with search.

Top-level components are grouped by kind ("Servers", "Fabrics", "Switches", "Subsystems",
"Cables"); below each, the components inside it in design order (server > LPARs > hdisks,
volume groups > logical volumes > workloads; drawers > planars > ...; fabrics > zones;
subsystems > controllers, enclosures, arrays > logical drives, host mappings). It finds what the
canvas does not draw (zones, mappings, hdisks).

The tree follows the document per model event: an added or removed component adds or removes
its row, a move re-parents it, a name or attribute edit rewrites only the rows whose text changed
(the component and those that name it); a new project or scenario rebuilds it. Its selection and
the document's are kept the same both ways. The context menu offers the registered component
actions through ``fill_menu(menu, ids)`` (the window's, passed in: widgets never import the app).
HBAs are given to an LPAR by dragging: rows of HBAs, their ports or the slots that hold them
drag onto an LPAR row (nothing else takes the drop), and the tree emits
``hbasDropped(hbas, lpar)``; the controller makes it one undo step. The tree never changes the
design.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QItemSelection,
    QItemSelectionModel,
    QMimeData,
    QModelIndex,
    QRegularExpression,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QAbstractItemView, QLineEdit, QMenu, QTreeView, QVBoxLayout, QWidget

from planner.naming import label_list, short_label
from planner.schema import KINDS, attr_label, count_label, kind_name

if TYPE_CHECKING:
    from planner.model import Component, Event, Topology

ID_ROLE = Qt.ItemDataRole.UserRole + 1
SEARCH_ROLE = Qt.ItemDataRole.UserRole + 2
#: at most this many attributes are shown in the details column
MAX_DETAILS = 3
#: references listed by name up to this many, counted beyond
MAX_NAMED = 3
#: the drag payload of tree rows: component ids, one a line
MIME_IDS = "application/x-sanplan-components"


def hbas_of(topo: Topology, ids: list[str]) -> list[str]:
    """The HBAs that rows ``ids`` stand for: an HBA, the HBA of a port, the HBA in a slot."""
    out: list[str] = []
    for cid in ids:
        comp = topo.get(cid)
        if comp is None:
            continue
        if comp.kind == "hba":
            out.append(cid)
        elif comp.kind == "slot":
            out += [h.id for h in topo.children(cid, "hba")]
        elif comp.kind == "hba_port" and comp.parent:
            out.append(comp.parent)
    return list(dict.fromkeys(out))


class OutlineModel(QStandardItemModel):
    """The tree's rows; HBA rows (HBAs, their ports, slots holding one) drag, LPAR rows take them."""

    def __init__(self, panel: ModelTreePanel) -> None:
        super().__init__(0, 2, panel)
        self.panel = panel

    def _comp(self, index: QModelIndex) -> Component | None:
        cid = index.siblingAtColumn(0).data(ID_ROLE) if index.isValid() else None
        return self.panel.topology.get(cid) if cid else None

    def flags(self, index: QModelIndex) -> Qt.ItemFlag:
        flags = super().flags(index) & ~(Qt.ItemFlag.ItemIsDragEnabled | Qt.ItemFlag.ItemIsDropEnabled)
        comp = self._comp(index)
        if comp is not None and hbas_of(self.panel.topology, [comp.id]):
            flags |= Qt.ItemFlag.ItemIsDragEnabled
        if comp is not None and comp.kind == "lpar":
            flags |= Qt.ItemFlag.ItemIsDropEnabled
        return flags

    def mimeTypes(self) -> list[str]:
        return [MIME_IDS]

    def mimeData(self, indexes) -> QMimeData:
        ids = dict.fromkeys(i.siblingAtColumn(0).data(ID_ROLE) for i in indexes)
        data = QMimeData()
        data.setData(MIME_IDS, "\n".join(i for i in ids if i).encode())
        return data

    def supportedDragActions(self) -> Qt.DropAction:
        return Qt.DropAction.CopyAction

    def supportedDropActions(self) -> Qt.DropAction:
        return Qt.DropAction.CopyAction

    def dropped_hbas(self, data: QMimeData, row: int, parent: QModelIndex) -> tuple[list[str], str]:
        """The HBAs ``data`` carries and the LPAR it is dropped on; ([], "") when refused."""
        lpar = self._comp(parent)
        if row != -1 or lpar is None or lpar.kind != "lpar" or not data.hasFormat(MIME_IDS):
            return [], ""
        ids = bytes(data.data(MIME_IDS).data()).decode().split()
        hbas = hbas_of(self.panel.topology, ids)
        return (hbas, lpar.id) if hbas else ([], "")

    def canDropMimeData(self, data, action, row, column, parent) -> bool:
        return bool(self.dropped_hbas(data, row, parent)[0])

    def dropMimeData(self, data, action, row, column, parent) -> bool:
        hbas, lpar = self.dropped_hbas(data, row, parent)
        if hbas:
            self.panel.hbasDropped.emit(hbas, lpar)
        return bool(hbas)


def details(topo: Topology, comp: Component) -> str:
    """A component's attributes in one line, from the schema: 'WWPN: 10:00:..., Speed (Gbps): 2'.
    References show the referred components' names (or their count), so a rename shows here too."""
    parts: list[str] = []
    for key, attr in KINDS[comp.kind].attrs.items():
        value = comp.attrs.get(key)
        if key == "index" or value in ("", None, ()):
            continue
        if attr.many:
            text = (
                label_list(topo, value, MAX_NAMED) if len(value) <= MAX_NAMED else count_label(len(value), attr.ref[0])
            )
        elif attr.ref:
            target = topo.get(value)
            text = short_label(target) if target is not None else str(value)
        else:
            text = f"{value:g}" if isinstance(value, float) else str(value)
        parts.append(f"{attr_label(key)}: {text}")
        if len(parts) == MAX_DETAILS:
            break
    if comp.part:
        parts.insert(0, comp.part)
    return ", ".join(parts)


class ModelTreePanel(QWidget):
    """The outline of ``doc`` (an ``app.document.Document``, duck-typed). ``fill_menu(menu, ids)``
    adds the registered actions for the components ``ids`` to a context menu.

    Signals: ``focusRequested(list[str])`` (double-click or "Show on canvas");
    ``hbasDropped(list[str], str)``: HBAs dragged onto an LPAR row (HBA ids, LPAR id)."""

    focusRequested = Signal(list)
    hbasDropped = Signal(list, str)

    def __init__(self, doc: Any, fill_menu: Callable[[QMenu, list[str]], None] | None = None, parent=None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.fill_menu = fill_menu
        self.items: dict[str, QStandardItem] = {}  # component id -> its name item
        self.groups: dict[str, QStandardItem] = {}  # top-level kind -> its group item
        self._syncing = False
        self.model = OutlineModel(self)
        self.model.setHorizontalHeaderLabels(["Name", "Details"])
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterRole(SEARCH_ROLE)
        self.proxy.setFilterKeyColumn(0)
        self.proxy.setRecursiveFilteringEnabled(True)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search names, kinds, WWPNs...")
        self.search.setClearButtonEnabled(True)
        self.search.setToolTip("Show the components whose name, kind or details hold every word typed")
        self.search.textChanged.connect(self.set_filter)
        self.view = QTreeView()
        self.view.setModel(self.proxy)
        self.view.setUniformRowHeights(True)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setDragDropMode(QAbstractItemView.DragDropMode.DragDrop)
        self.view.setDefaultDropAction(Qt.DropAction.CopyAction)
        self.view.setDragDropOverwriteMode(True)  # a drop lands on a row, never between rows
        self.view.setDropIndicatorShown(True)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._context_menu_at)
        self.view.doubleClicked.connect(lambda idx: self._focus(self._ids_of([idx])))
        self.view.selectionModel().selectionChanged.connect(self._selection_to_doc)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.search)
        layout.addWidget(self.view)
        doc.modelEvent.connect(self._on_event)
        doc.projectReplaced.connect(self.rebuild)
        doc.selectionChanged.connect(self.show_selection)
        self.rebuild()

    @property
    def topology(self) -> Topology:
        return self.doc.topology

    # -- building -------------------------------------------------------------------------------
    def rebuild(self) -> None:
        """Build the whole outline afresh (a new project or scenario)."""
        self.model.removeRows(0, self.model.rowCount())
        self.items.clear()
        self.groups.clear()
        topo = self.topology
        for comp in topo.children(None):
            self._add_tree(comp, self._group(comp.kind))
        for kind in self.groups:
            self._retitle(kind)
        self.view.expandToDepth(0)
        self.view.resizeColumnToContents(0)
        self.show_selection(self.doc.selection)

    def _add_tree(self, comp: Component, parent: QStandardItem, row: int | None = None) -> None:
        topo = self.topology
        stack = [(comp, parent, row)]
        while stack:
            c, holder, at = stack.pop()
            item = self._row(c, holder, at)
            stack.extend((child, item, None) for child in reversed(topo.children(c.id)))

    def _row(self, comp: Component, holder: QStandardItem, row: int | None) -> QStandardItem:
        name = QStandardItem(short_label(comp))
        name.setData(comp.id, ID_ROLE)
        name.setToolTip(f"{kind_name(comp.kind)} {comp.id}")
        detail = QStandardItem()
        self._set_texts(comp, name, detail)
        cells = [name, detail]
        if row is None or row >= holder.rowCount():
            holder.appendRow(cells)
        else:
            holder.insertRow(row, cells)
        self.items[comp.id] = name
        return name

    def _set_texts(self, comp: Component, name: QStandardItem, detail: QStandardItem) -> None:
        text = details(self.topology, comp)
        name.setText(short_label(comp))
        detail.setText(text)
        detail.setToolTip(text)
        name.setData(f"{comp.name} {comp.id} {kind_name(comp.kind)} {text}".lower(), SEARCH_ROLE)

    def _group(self, kind: str) -> QStandardItem:
        group = self.groups.get(kind)
        if group is None:
            group = QStandardItem(KINDS[kind].plural)
            group.setData(f"{KINDS[kind].plural}".lower(), SEARCH_ROLE)
            order = list(KINDS)
            row = sum(1 for k in self.groups if order.index(k) < order.index(kind))
            self.model.insertRow(row, [group, QStandardItem()])
            self.groups[kind] = group
        return group

    def _retitle(self, kind: str) -> None:
        group = self.groups.get(kind)
        if group is None:
            return
        n = group.rowCount()
        if n == 0:
            self.model.removeRow(group.row())
            del self.groups[kind]
            return
        plural = KINDS[kind].plural
        group.setText(f"{plural[0].upper()}{plural[1:]} ({n})")

    # -- following the model ------------------------------------------------------------------------
    def _on_event(self, event: Event) -> None:
        if event.type == "added":
            self._added(event.id)
        elif event.type == "removed":
            self._removed(event.id)
        elif event.type == "changed" and event.key == "parent":
            self._removed(event.id)
            self._added(event.id)
        elif event.type == "changed":
            self._changed(event.id, event.key == "name")

    def _holder(self, comp: Component) -> QStandardItem | None:
        return self._group(comp.kind) if comp.parent is None else self.items.get(comp.parent)

    def _added(self, cid: str) -> None:
        topo = self.topology
        comp = topo.get(cid)
        holder = self._holder(comp) if comp is not None else None
        if comp is None or holder is None or cid in self.items:
            return
        siblings = topo.children(comp.parent)
        if comp.parent is None:
            siblings = [c for c in siblings if c.kind == comp.kind]
        row = 0
        for s in siblings:
            if s.id == cid:
                break
            row += s.id in self.items
        self._add_tree(comp, holder, row)
        if comp.parent is None:
            self._retitle(comp.kind)

    def _removed(self, cid: str) -> None:
        item = self.items.get(cid)
        if item is None:
            return
        holder = item.parent()
        stack = [item]
        while stack:  # forget the ids of the rows that go with it
            it = stack.pop()
            self.items.pop(it.data(ID_ROLE), None)
            stack.extend(it.child(r) for r in range(it.rowCount()))
        if holder is None:
            return
        holder.removeRow(item.row())
        kind = next((k for k, g in self.groups.items() if g is holder), None)
        if kind is not None:
            self._retitle(kind)

    def _changed(self, cid: str, renamed: bool) -> None:
        """Rewrite the row of ``cid`` and of the rows that name it (a rename: or any part of it,
        whose qualified names carry its name)."""
        topo = self.topology
        named = [cid] + ([c.id for c in topo.descendants(cid)] if renamed else [])
        todo = [cid] + [ref.id for one in named for ref, _attr in topo.referrers(one)]
        for one in dict.fromkeys(todo):
            item, comp = self.items.get(one), topo.get(one)
            if item is None or comp is None:
                continue
            holder = item.parent() or self.model.invisibleRootItem()
            self._set_texts(comp, item, holder.child(item.row(), 1))

    # -- search ------------------------------------------------------------------------------------
    def set_filter(self, text: str) -> None:
        """Show only the components whose name, id, kind or details hold every word of ``text``."""
        words = text.lower().split()
        # every word, in any order: one lookahead per word over the row's search text
        pattern = "".join(f"(?=.*{QRegularExpression.escape(w)})" for w in words)
        self.proxy.setFilterRegularExpression(QRegularExpression(pattern))
        if words:
            self.view.expandAll()
        self.show_selection(self.doc.selection)

    def visible_ids(self) -> list[str]:
        """The ids of the components the filter shows, in outline order."""
        out: list[str] = []
        stack = [QModelIndex()]
        while stack:
            parent = stack.pop()
            for r in reversed(range(self.proxy.rowCount(parent))):
                stack.append(self.proxy.index(r, 0, parent))
            if parent.isValid() and parent.data(ID_ROLE):
                out.append(parent.data(ID_ROLE))
        return out

    # -- selection ------------------------------------------------------------------------------------
    def _ids_of(self, indexes: list[QModelIndex]) -> list[str]:
        ids = (i.siblingAtColumn(0).data(ID_ROLE) for i in indexes)
        return list(dict.fromkeys(i for i in ids if i))

    def selected_ids(self) -> list[str]:
        return self._ids_of(self.view.selectionModel().selectedIndexes())

    def _selection_to_doc(self, *_args: Any) -> None:
        if not self._syncing:
            self.doc.select(self.selected_ids())

    def show_selection(self, ids: list[str]) -> None:
        """Select the rows of ``ids`` (the document's selection), opening their parents."""
        selection = QItemSelection()
        first = None
        for cid in ids:
            item = self.items.get(cid)
            index = self.proxy.mapFromSource(item.index()) if item is not None else QModelIndex()
            if index.isValid():
                selection.select(index, index.siblingAtColumn(1))
                first = first or index
        self._syncing = True
        try:
            flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
            self.view.selectionModel().select(selection, flags)
            if first is not None:
                self.view.scrollTo(first)
        finally:
            self._syncing = False

    # -- context menu -------------------------------------------------------------------------------------
    def context_menu(self, ids: list[str]) -> QMenu:
        """The context menu for the components ``ids``: the registered actions, then Show on canvas."""
        menu = QMenu(self)
        if ids and self.fill_menu is not None:
            self.fill_menu(menu, list(ids))
        if ids:
            menu.addAction("Show on &canvas", lambda: self._focus(ids))
        menu.addAction("E&xpand all", self.view.expandAll)
        menu.addAction("C&ollapse all", self.view.collapseAll)
        return menu

    def _context_menu_at(self, pos) -> None:
        index = self.view.indexAt(pos)
        if index.isValid() and not self.view.selectionModel().isSelected(index):
            self.view.selectionModel().select(
                index,
                QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
            )
        self.context_menu(self.selected_ids()).popup(self.view.viewport().mapToGlobal(pos))

    def _focus(self, ids: list[str]) -> None:
        if ids:
            self.focusRequested.emit(list(ids))
