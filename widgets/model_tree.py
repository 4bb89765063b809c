"""The model tree: an outline of every component of the design, by kind and parent, with search.

Top-level components are grouped by kind ("Servers", "Fabrics", "Switches", "Subsystems", "Cables"); below each,
the components inside it in design order (server > LPARs > hdisks, volume groups > logical volumes > workloads;
drawers > planars > ...; fabrics > zones; subsystems > controllers, enclosures, arrays > logical drives, host
mappings). It finds what the canvas does not draw (zones, mappings, hdisks).

Rows are built when their branch is first opened (``canFetchMore``/``fetchMore``), so a 55,000 component site
opens with a few hundred rows; :attr:`ModelTreePanel.items` builds the rows down to any component asked for
(selection, search, tests), so nothing is ever missing from the outline. The tree follows the document per model
event: an added or removed component adds or removes its row, a move re-parents it, a name or attribute edit
rewrites only the rows whose text changed (the component and those that name it); a new project or scenario
rebuilds it. Its selection and the document's are kept the same both ways. The context menu offers the
registered component actions through ``fill_menu(menu, ids)`` (the window's, passed in: widgets never import the
app). HBAs are given to an LPAR by dragging: rows of HBAs, their ports or the slots that hold them drag onto an
LPAR row (nothing else takes the drop), and the tree emits ``hbasDropped(hbas, lpar)``; the controller makes it
one undo step. The tree never changes the design.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QSortFilterProxyModel,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QStandardItem
from PySide6.QtWidgets import QAbstractItemView, QMenu, QTreeView, QVBoxLayout, QWidget

from planner.naming import short_label
from planner.schema import KINDS, kind_name
from widgets import slice_budget
from widgets.deferred import HeldEvents, SelectionFollower, unseen
from widgets.model_tree_search import OutlineSearch
from widgets.outline_model import ID_ROLE, KIND_ROLE, PLACEHOLDER_ROLE, SEARCH_ROLE, OutlineModel
from widgets.outline_text import DRAG_KINDS, details, hbas_of  # (details: also the tests')
from widgets.retired import Retired

if TYPE_CHECKING:
    from planner.model import Component, Event, Topology

#: a selection of more ids than this selects the rows built already, opening no branch
SELECTION_OPENS_AT_MOST = 200
#: a group of more top-level components than this starts closed: on the 16x site the open
#: groups of 3,584 cables and 896 subsystems were 4,480 rows the view laid out again after every
#: edit that added or removed one (a server undone: 224 cable rows built one by one and the
#: view's relayout, 25-45 ms of its longest blocks); the user opens it (rows built then)
OPEN_GROUP_ROWS = 500
HEADERS = ["Name", "Details"]
#: a design of at least this many components has its groups opened in the turn after the
#: outline is rebuilt: the 32x site's four small groups (481 rows, built as they open, the
#: column sized to them) took 21-23 ms of the 35 ms the open's showing turn spent in the panels
OPEN_LATER_AT = 20_000
#: ... one group a turn, which takes about this long (the 16x site's four: 8-14 ms), a slice of a
#: turn (widgets.slice_budget)
OPEN_GROUPS_S = 0.004
#: a group of more rows than this, opened by the user or by a selection inside it, is filled
#: over several turns of the event loop, FILL_SLICE_S at a time (the 16x site's 3,584 cables
#: built at once blocked the editor 126-153 ms); its first FILL_AT_ONCE rows at once
FILL_AT_ONCE = 200
#: ... and a search builds one this many rows a step (see ModelTreePanel._group_built)
GROUP_STEP = 64
FILL_SLICE_S = 0.004
#: ... of a group opened by a selection, whose row is shown once the group is filled, or as a
#: design is shown: a few (the first cable selected on the 16x site built 200 rows in the
#: selection's turn: 5-7 ms)
REACH_AT_ONCE = 20
#: the name column is sized to the rows shown and at most this many more (Qt's
#: ``resizeContentsPrecision``, 1,000 by default: sized after a search of the 16x site's
#: outline, 5-8 ms of its last turn)
WIDTH_ROWS = 200
#: a component row's flags (Qt's default for an item, without drag and drop: see _set_flags)
_ROW_FLAGS = Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsEditable


class Rows(Mapping):
    """``panel.items``: component id -> its name row, built (with the rows above it) when asked
    for. Iterating gives every component of the outline, built or not."""

    def __init__(self, panel: ModelTreePanel) -> None:
        self.panel = panel

    def __getitem__(self, cid: str) -> QStandardItem:
        self.panel.caught_up()
        item = self.panel._ensure(cid)
        if item is None:
            raise KeyError(cid)
        return item

    def __contains__(self, cid: object) -> bool:
        return isinstance(cid, str) and self.panel.topology.get(cid) is not None

    def __iter__(self) -> Iterator[str]:
        return (c.id for c in self.panel.topology.components())

    def __len__(self) -> int:
        return len(self.panel.topology)


class ModelTreePanel(OutlineSearch, QWidget):
    """The outline of ``doc`` (an ``app.document.Document``, duck-typed). ``fill_menu(menu, ids)`` adds the
    registered actions for the components ``ids`` to a context menu. Signals: ``focusRequested(list[str])``
    (double-click or "Show on canvas"); ``hbasDropped(list[str], str)``: HBAs (ids) dragged onto an LPAR row (id)."""

    focusRequested = Signal(object)  # list[str] (see Document.modelEvents)
    hbasDropped = Signal(object, str)  # list[str] (see Document.modelEvents)

    def __init__(self, doc: Any, fill_menu: Callable[[QMenu, list[str]], None] | None = None, parent=None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.fill_menu = fill_menu
        self.rows: dict[str, QStandardItem] = {}  # component id -> its name item, rows built so far
        self.items = Rows(self)  # component id -> its name item, built when asked for
        self.groups: dict[str, QStandardItem] = {}  # top-level kind -> its group item
        self._fetched: set[str] = set()  # ids (and group kinds) whose child rows are built
        self._search_texts: dict[str, str] = {}  # component id -> its search text, when computed
        self._words: list[str] = []  # the search words
        self._top: dict[str, str] = {}  # top-level component id -> its kind (the group titles count them)
        self._top_count: dict[str, int] = {}  # kind -> how many top-level components (a site has thousands)
        self._retitling: set[str] | None = None  # kinds whose group counts change in the batch of events under way
        self._hba_slot: dict[str, str] = {}  # HBA id -> the slot whose built row drags because of it
        self._syncing = False
        self._groups_pending = False  # the group rows wait for the panel to be shown to open
        #: whether a group opened may be filled in slices (off while every branch is opened)
        self.fill_later = True
        self.fill_first = FILL_AT_ONCE  # ... and how many of its rows are built at once then
        #: a group's kind, or ("row", id) of a component's row -> the components whose rows are still to build inside it
        self._filling: dict[object, list[Component]] = {}
        self._shown_later: list[str] | None = None  # a selection shown once the groups it needs are filled
        self._fill_timer = QTimer(self)
        self._fill_timer.setSingleShot(True)
        self._fill_timer.timeout.connect(self._fill_slice)
        self.model = OutlineModel(self)
        self.model.setHorizontalHeaderLabels(HEADERS)
        self.retired = Retired(self, FILL_SLICE_S)  # the models of outlines gone, emptied in slices
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterRole(SEARCH_ROLE)
        self.proxy.setFilterKeyColumn(0)
        self.proxy.setRecursiveFilteringEnabled(True)
        self._init_search()
        self.view = QTreeView()
        self.view.setModel(self.proxy)
        self.view.setUniformRowHeights(True)
        self.view.header().setResizeContentsPrecision(WIDTH_ROWS)
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
        #: the model events that come while the panel is behind another tab, applied when it is seen
        self._held = HeldEvents(self, self._on_events, self.rebuild, lambda: self.show_selection(doc.selection))
        doc.modelEvents.connect(self._held.take)
        doc.projectReplaced.connect(self.rebuild)
        self._selection = SelectionFollower(self, doc, self.show_selection)  # (a large one: next turn)
        if hasattr(doc, "showing_check"):  # (a design shown afresh is analysed once its outline is filled)
            doc.showing_check(self._showing_design)
        self.rebuild()

    @property
    def topology(self) -> Topology:
        return self.doc.topology

    # -- building -------------------------------------------------------------------------------
    def rebuild(self) -> None:
        """Build the outline afresh (a new project or scenario): the group rows; the rows inside
        a branch are built when it is opened."""
        if self.model.rowCount():
            self._retire_model()
        self._held.drop()
        self._filling.clear()
        self._shown_later = None
        self.rows.clear()
        self.groups.clear()
        self._fetched.clear()
        self._hba_slot.clear()
        self._search_texts.clear()
        self._searching = None  # (its words are searched again below)
        self._top = {c.id: c.kind for c in self.topology.children(None)}
        self._top_count = {}
        for kind in self._top.values():
            self._top_count[kind] = self._top_count.get(kind, 0) + 1
        for kind in dict.fromkeys(self._top.values()):
            self._group(kind)
        for kind in list(self.groups):
            self._retitle(kind)
        if len(self.topology) >= OPEN_LATER_AT:  # (in the next turn: see OPEN_LATER_AT)
            self._groups_pending = True  # (a slice of the turn's budget: see widgets.slice_budget)
            QTimer.singleShot(1, self, self._open_pending_groups)
        else:
            self._open_groups()
        if self._words:
            self._reveal(c.id for c in self.topology.components())
        self.show_selection(self.doc.selection)

    def _showing_design(self) -> bool:
        """Whether the outline is still being made, in slices (see ``Document.showing_check``)."""
        return bool(self._filling or self.retired.pending) or (self._groups_pending and not unseen(self))

    def _retire_model(self) -> None:
        """Show a new, empty model; the rows of the one shown are deleted a few at a time (:class:`widgets.retired.
        Retired`): removed at once, a 16x site's outline searched (12,123 rows) took 38-52 ms of a scenario's showing."""
        old, self.model = self.model, OutlineModel(self)
        self.model.setHorizontalHeaderLabels(HEADERS)
        self.proxy.setSourceModel(self.model)
        self.retired.add_model(old)

    def _open_groups(self, at_most: int | None = None) -> None:
        """Open the group rows of at most :data:`OPEN_GROUP_ROWS` components (building their
        rows); behind another tab of its dock, when the panel is next shown; ``at_most`` of
        them now, the others in the next turns (the 16x site's four: 8-14 ms in one turn)."""
        self._groups_pending = unseen(self)
        if self._groups_pending:
            return
        self.fill_first = REACH_AT_ONCE  # (the 32x site's 224 switches and 224 fabrics: 200 each, 17-19 ms)
        try:
            shut = [
                index
                for kind, group in self.groups.items()
                if self._top_count.get(kind, 0) <= OPEN_GROUP_ROWS
                and not self.view.isExpanded(index := self.proxy.mapFromSource(group.index()))
            ]
            for index in shut[:at_most]:
                self.view.expand(index)
            if at_most is not None and len(shut) > at_most:
                self._groups_pending = True
                QTimer.singleShot(1, self, self._open_pending_groups)
                return
            self.view.resizeColumnToContents(0)
        finally:
            self.fill_first = FILL_AT_ONCE

    def showEvent(self, event: Any) -> None:  # noqa: N802 (Qt override)
        super().showEvent(event)
        if self._groups_pending:
            QTimer.singleShot(0, self._open_pending_groups)

    def paintEvent(self, event: Any) -> None:  # noqa: N802 (Qt override)
        super().paintEvent(event)
        if self._groups_pending:  # a raised tab paints without a show event
            QTimer.singleShot(0, self._open_pending_groups)

    def _open_pending_groups(self) -> None:
        if not self._groups_pending:
            return
        if slice_budget.until(OPEN_GROUPS_S, whole=True) is None:  # (the turn's other slices took its time)
            QTimer.singleShot(1, self, self._open_pending_groups)
            return
        try:
            self._open_groups(at_most=1)
        finally:
            slice_budget.ended()

    @staticmethod
    def _key(item: QStandardItem) -> object:
        """What ``_fetched`` holds for a row: its component id, or ("group", kind)."""
        cid = item.data(ID_ROLE)
        return cid if cid else ("group", item.data(KIND_ROLE))

    def _below(self, item: QStandardItem) -> list[Component]:
        """The components whose rows go inside ``item`` (a group or a component row)."""
        cid = item.data(ID_ROLE)
        if cid:
            return self.topology.children(cid)
        kind = item.data(KIND_ROLE)
        return [c for c in self.topology.children(None) if c.kind == kind] if kind else []

    def _unfetched(self, item: QStandardItem | None) -> bool:
        return item is not None and item.column() == 0 and self._key(item) not in self._fetched

    @staticmethod
    def _hold(item: QStandardItem, below: bool) -> None:
        """A row not opened yet holds one placeholder row while it has something inside, so the view shows it can
        open with no question to Python: the views asked whether each row had rows below 4,700 times per relayout
        of the 16x site's outline (30-40 ms)."""
        if below and not item.rowCount():
            mark = QStandardItem("...")
            mark.setData(True, PLACEHOLDER_ROLE)
            mark.setFlags(Qt.ItemFlag.ItemIsEnabled)
            item.appendRow([mark, QStandardItem()])  # (both columns: the first row to be takes them over)
        elif not below and item.rowCount() == 1 and item.child(0).data(PLACEHOLDER_ROLE):
            item.removeRow(0)

    def _fetch(self, item: QStandardItem, later: bool = False, at_once: int = FILL_AT_ONCE) -> None:
        """Build the rows inside ``item`` (its branch is being opened); ``later``: of a group
        of more than FILL_AT_ONCE, the first ``at_once`` now and the others in slices (see
        :meth:`_fill_slice`). Its placeholder row becomes the first, not removed: a proxy
        filtering recursively drops a branch whose last row goes, and the views and searches
        opening branches hold its index meanwhile."""
        key = self._fill_key(item)
        comps = [c for c in self._below(item) if c.id not in self.rows]
        if later and len(comps) > FILL_AT_ONCE:
            self._filling[key] = comps[at_once:][::-1]  # (taken from the end)
            self._fill_timer.start(1)
            comps = comps[:at_once]
        else:
            self._filling.pop(key, None)
            self._fetched.add(self._key(item))
        mark = item.child(0) if item.rowCount() == 1 and item.child(0).data(PLACEHOLDER_ROLE) else None
        for i, comp in enumerate(comps):
            self._row(comp, item, None, mark if i == 0 else None)
        if mark is not None and not comps:
            item.removeRow(0)

    def _fill_slice(self) -> None:
        """Build the next rows of the groups being filled, for FILL_SLICE_S; once a group is
        whole it counts as opened, and a selection waiting for it is shown."""
        until = slice_budget.until(FILL_SLICE_S)  # (None: this turn's other slices took its time)
        try:
            for kind in list(self._filling):
                whole = until is not None and self._fill_rows(kind, until=until)
                if not whole or (self._filling and time.perf_counter() >= until):  # type: ignore[operator]
                    self._fill_timer.start(1)  # (a group whole and the time up: the next one next turn)
                    return
        finally:
            slice_budget.ended()
        self._show_waiting()

    @staticmethod
    def _fill_key(item: QStandardItem) -> object:
        """What ``_filling`` holds for a row filled in slices: a group's kind, or ("row", id)."""
        cid = item.data(ID_ROLE)
        return ("row", cid) if cid else item.data(KIND_ROLE)

    def _filled(self, key: object) -> QStandardItem | None:
        """The row being filled that ``key`` (see _fill_key) names, if it is still there."""
        return self.rows.get(key[1]) if isinstance(key, tuple) else self.groups.get(key)  # type: ignore[arg-type]

    def _fill_rows(self, kind: object, until: float | None = None, count: int | None = None) -> bool:
        """Build the next rows of the group of ``kind`` (or the row: see _fill_key) being
        filled, until the clock reaches ``until`` or ``count`` rows are built; True once the
        group is whole (it counts as opened then)."""
        todo, group, topo, built = self._filling.get(kind), self._filled(kind), self.topology, 0
        while todo and group is not None:
            comp = todo.pop()
            if topo.get(comp.id) is comp and comp.id not in self.rows:  # (edits finish the fill first)
                self._row(comp, group, None)
            built += 1
            if todo and (
                (until is not None and time.perf_counter() >= until) or (count is not None and built >= count)
            ):
                return False
        self._filling.pop(kind, None)
        if group is not None:
            self._fetched.add(self._key(group))
        return True

    def _group_built(self, kind: str) -> Iterator[None]:
        """Build the rows of the group of ``kind`` a few at a time (yielding between), when it
        has more than FILL_AT_ONCE and is not built yet: a search's slices (see
        ``OutlineSearch._revealing``). A match among the 16x site's 3,584 cables built them all
        in one turn: 45 ms."""
        group = self.groups.get(kind)
        if group is None or not self._unfetched(group) or self._top_count.get(kind, 0) <= FILL_AT_ONCE:
            return
        if kind not in self._filling:
            self._fetch(group, later=True, at_once=1)  # (the placeholder becomes the first row)
        while not self._fill_rows(kind, count=GROUP_STEP):
            yield

    def _rows_built(self, cid: str) -> Iterator[None]:
        """Build the rows inside each component above ``cid`` (top first) that holds more than
        FILL_AT_ONCE, GROUP_STEP rows a step (yielding between): a search's slices (see
        ``OutlineSearch._revealing``). A match among a data centre's fabric of 768 zones built
        them all in one turn: 30-45 ms."""
        topo, chain = self.topology, []
        comp = topo.get(cid)
        while comp is not None and comp.parent is not None:
            comp = topo.get(comp.parent)
            if comp is not None:
                chain.append(comp)
        for above in reversed(chain):
            item = self._ensure(above.id)  # (the rows above it built by the steps before)
            if item is None or not self._unfetched(item) or len(topo.children(above.id)) <= FILL_AT_ONCE:
                continue
            key = ("row", above.id)
            if key not in self._filling:
                self._fetch(item, later=True, at_once=1)  # (the placeholder becomes the first row)
            while not self._fill_rows(key, count=GROUP_STEP):
                yield

    def _show_waiting(self) -> None:
        """Show the selection that waited for the groups being filled, if still the document's."""
        waiting, self._shown_later = self._shown_later, None
        if waiting is not None and waiting == self.doc.selection:
            self.show_selection(waiting)

    def _finish_fills(self) -> None:
        """Build at once the rows of the groups being filled (an edit comes, every branch is
        opened); the selection waiting for them is shown by the caller (``_show_waiting``)."""
        for kind in list(self._filling):
            group = self._filled(kind)
            if group is None:
                self._filling.pop(kind)
            else:
                self._fetch(group)

    def _ensure(self, cid: str) -> QStandardItem | None:
        """The row of ``cid``, building the rows above it first; None when it is not in the design."""
        item = self.rows.get(cid)
        if item is not None:
            return item
        comp = self.topology.get(cid)
        if comp is None:
            return None
        holder = self._group(comp.kind) if comp.parent is None else self._ensure(comp.parent)
        if holder is None:
            return None
        if self._unfetched(holder):
            self._fetch(holder)
        return self.rows.get(cid)

    def _row(
        self, comp: Component, holder: QStandardItem, row: int | None, mark: QStandardItem | None = None
    ) -> QStandardItem:
        """The row of ``comp`` in ``holder`` at ``row`` (None: last); ``mark``: the placeholder
        row to become it (see _fetch)."""
        name = mark if mark is not None else QStandardItem()
        if mark is not None:
            name.setData(None, PLACEHOLDER_ROLE)
        name.setData(comp.id, ID_ROLE)
        name.setToolTip(f"{kind_name(comp.kind)} {comp.id}")
        detail = holder.child(mark.row(), 1) if mark is not None else QStandardItem()
        self._set_texts(comp, name, detail)
        cells = [name, detail]
        self._set_flags(comp, cells)
        if mark is None and (row is None or row >= holder.rowCount()):
            holder.appendRow(cells)
        elif mark is None:
            holder.insertRow(row, cells)
        self.rows[comp.id] = name
        if self.topology.has_children(comp.id):
            self._hold(name, True)
        return name

    def _set_flags(self, comp: Component, cells: list[QStandardItem]) -> None:
        """Rows of HBAs (an HBA, its port, a slot holding one) drag; LPAR rows take the drop."""
        hbas = hbas_of(self.topology, [comp.id]) if comp.kind in DRAG_KINDS else []
        if comp.kind == "slot":
            self._hba_slot.update(dict.fromkeys(hbas, comp.id))
        flags = _ROW_FLAGS | Qt.ItemFlag.ItemIsDragEnabled if hbas else _ROW_FLAGS
        if comp.kind == "lpar":
            flags |= Qt.ItemFlag.ItemIsDropEnabled
        for cell in cells:  # (one call a cell: a group of 3,584 rows opened made 4 each)
            cell.setFlags(flags)

    def _reflag_slot(self, slot: str | None) -> None:
        """An HBA came or went: whether the row of its slot drags."""
        item, comp = self.rows.get(slot or ""), self.topology.get(slot)
        if item is not None and comp is not None:
            holder = item.parent() or self.model.invisibleRootItem()
            self._set_flags(comp, [item, holder.child(item.row(), 1)])

    def _search_text(self, comp: Component, text: str | None = None) -> str:
        """What the search looks in: name, id, kind and details, lower case (kept until changed)."""
        found = self._search_texts.get(comp.id)
        if found is None:
            text = details(self.topology, comp) if text is None else text
            found = f"{comp.name} {comp.id} {kind_name(comp.kind)} {text}".lower()
            self._search_texts[comp.id] = found
        return found

    def _set_texts(self, comp: Component, name: QStandardItem, detail: QStandardItem) -> None:
        text = details(self.topology, comp)
        name.setText(short_label(comp))
        detail.setText(text)
        detail.setToolTip(text)
        name.setData(self._search_text(comp, text), SEARCH_ROLE)

    def _group(self, kind: str) -> QStandardItem:
        group = self.groups.get(kind)
        if group is None:
            group = QStandardItem(KINDS[kind].plural)
            group.setData(f"{KINDS[kind].plural}".lower(), SEARCH_ROLE)
            group.setData(kind, KIND_ROLE)
            order = list(KINDS)
            row = sum(1 for k in self.groups if order.index(k) < order.index(kind))
            cells = [group, QStandardItem()]
            for cell in cells:
                cell.setDragEnabled(False)
                cell.setDropEnabled(False)
            self.model.insertRow(row, cells)
            self.groups[kind] = group
            self._hold(group, True)  # (made for a component of its kind)
        return group

    def _retitle(self, kind: str) -> None:
        """Show the count of ``kind``'s group (once at the end of a batch of events: a server
        deleted on the 16x site retitled the cables' group 112 times, each a change the view
        and its filter followed)."""
        if self._retitling is not None:
            self._retitling.add(kind)
        else:
            self._retitle_now(kind)

    def _retitle_now(self, kind: str) -> None:
        group = self.groups.get(kind)
        if group is None:
            return
        n = self._top_count.get(kind, 0)
        if n == 0:
            self._fetched.discard(("group", kind))
            self.model.removeRow(group.row())
            del self.groups[kind]
            return
        plural = KINDS[kind].plural
        group.setText(f"{plural[0].upper()}{plural[1:]} ({n})")

    # -- following the model ------------------------------------------------------------------------
    def caught_up(self) -> None:
        """Apply the model events held while the panel was covered (see HeldEvents), the view's
        selection changes meanwhile not sent to the document."""
        self._held.catch_up()

    def _on_events(self, events: list[Event]) -> None:
        if self._filling and any(e.type != "changed" or e.key == "parent" for e in events):
            self._finish_fills()  # (rows then come and go where a whole group has them)
        gone = {e.id for e in events if e.type == "removed"}
        new = {e.id for e in events if e.type == "added"}
        inside: list[str] = []  # added inside a component added too, whose branch is closed
        self._retitling = set()
        try:
            for event in events:
                if event.type == "removed" and event.was_in in gone:  # its row goes with its parent's
                    self._hba_slot.pop(event.id, None)
                    continue
                if event.type == "added" and self._closed_new(event.id, new):
                    inside.append(event.id)
                    continue
                self._on_event(event)
        finally:
            kinds, self._retitling = self._retitling, None
            for kind in kinds:
                self._retitle_now(kind)
        if inside:  # rows that name them (and are not new themselves) say so now
            topo = self.topology
            self._rewrite([r for cid in inside for r in topo.referrer_ids(cid) if r in self.rows and r not in new])
        self._show_waiting()

    def _closed_new(self, cid: str, new: set[str]) -> bool:
        """Whether ``cid`` was added inside a component added in the same batch whose row, if
        any, is closed: its row is made when the branch opens, and the branch already shows it
        can open (a server undone: 714 components, each of them looked at as one added alone
        took 7-24 ms of the undo)."""
        comp = self.topology.get(cid)
        if comp is None or comp.parent not in new or cid in self.rows:
            return False
        above = self.rows.get(comp.parent)  # (built in this batch: it shows it can open)
        return above is None or self._unfetched(above)

    def _on_event(self, event: Event) -> None:
        if event.type in ("removed", "changed") and event.key in ("", "parent"):
            self._reflag_slot(self._hba_slot.pop(event.id, None))  # an HBA left its slot
        if event.type == "added":
            self._added(event.id)
        elif event.type == "removed":
            self._removed(event.id, event.was_in)
        elif event.type == "changed" and event.key == "parent":
            self._removed(event.id, event.was_in)
            self._added(event.id)
        elif event.type == "changed":
            self._changed(event.id, event.key == "name")
        comp = self.topology.get(event.id) if event.type == "added" or event.key == "parent" else None
        if comp is not None and comp.kind == "hba":
            self._reflag_slot(comp.parent)  # an HBA came into a slot

    def _holder(self, comp: Component) -> QStandardItem | None:
        """The row that holds ``comp``'s row when that row is built; None while its branch is closed."""
        holder = self._group(comp.kind) if comp.parent is None else self.rows.get(comp.parent)
        return None if holder is None or self._unfetched(holder) else holder

    def _added(self, cid: str) -> None:
        topo = self.topology
        comp = topo.get(cid)
        holder = self._holder(comp) if comp is not None else None
        if comp is not None and holder is not None and cid not in self.rows:
            row = 0  # after the nearest sibling before it with a row (of its kind, at the top level)
            for s in topo.siblings_before(cid):
                item = self.rows.get(s)
                if item is not None and (comp.parent is not None or topo[s].kind == comp.kind):
                    row = item.row() + 1
                    break
            self._row(comp, holder, row)
        elif comp is not None and comp.parent is not None:
            above = self.rows.get(comp.parent)
            if above is not None and self._unfetched(above):  # its branch shows it can open
                self._hold(above, True)
        if comp is not None and comp.parent is None:
            was = self._top.get(cid)
            if was != comp.kind:
                if was is not None:
                    self._top_count[was] -= 1
                self._top[cid] = comp.kind
                self._top_count[comp.kind] = self._top_count.get(comp.kind, 0) + 1
            self._retitle(comp.kind)
        if comp is not None and self._words:
            self._reveal([cid] + [c.id for c in topo.descendants(cid)])
        self._rewrite([r for r in topo.referrer_ids(cid) if r in self.rows])  # (named a missing id)

    def _removed(self, cid: str, was_in: str | None = None) -> None:
        self._search_texts.clear()  # the parts of ``cid`` may have no rows to find them by
        above = self.rows.get(was_in or "")
        if above is not None and self._unfetched(above) and not self.topology.has_children(was_in):
            self._hold(above, False)  # nothing left inside its branch
        item = self.rows.get(cid)
        if item is not None:
            holder = item.parent()
            stack = [item]
            while stack:  # forget the ids of the rows that go with it
                it = stack.pop()
                self.rows.pop(it.data(ID_ROLE), None)
                self._fetched.discard(it.data(ID_ROLE))
                stack.extend(it.child(r) for r in range(it.rowCount()))
            if holder is not None:
                holder.removeRow(item.row())
        kind = self._top.pop(cid, None)
        if kind is not None:
            self._top_count[kind] -= 1
            self._retitle(kind)
        self._rewrite([r for r in self.topology.referrer_ids(cid) if r in self.rows])  # (named it)

    def _changed(self, cid: str, renamed: bool) -> None:
        """Rewrite the row of ``cid`` and of the rows that name it (a rename: or any part of it,
        whose qualified names carry its name)."""
        topo = self.topology
        named = [cid] + ([c.id for c in topo.descendants(cid)] if renamed else [])
        self._rewrite([cid] + [ref.id for one in named for ref, _attr in topo.referrers(one)])

    def _rewrite(self, ids: list[str]) -> None:
        """Set the texts of the rows of ``ids`` again (those built)."""
        if not ids:
            return
        topo = self.topology
        todo = list(dict.fromkeys(ids))
        for one in todo:
            self._search_texts.pop(one, None)
            item, comp = self.rows.get(one), topo.get(one)
            if item is None or comp is None:
                continue
            holder = item.parent() or self.model.invisibleRootItem()
            self._set_texts(comp, item, holder.child(item.row(), 1))
        if self._words:
            self._reveal(todo)

    def expand_all(self) -> None:
        """Open every branch (building every row: on a site, tens of thousands)."""
        self.caught_up()
        self.fill_later = False
        try:
            self._finish_fills()
            self.view.expandAll()
        finally:
            self.fill_later = True
        self._show_waiting()

    def visible_ids(self) -> list[str]:
        """The ids of the components the filter shows, in outline order (opening every branch)."""
        self.caught_up()
        self._finish_fills()
        self._show_waiting()
        self.fill_later = False
        try:
            return self._visible_ids()
        finally:
            self.fill_later = True

    def _visible_ids(self) -> list[str]:
        out: list[str] = []
        stack = [QModelIndex()]
        while stack:
            parent = stack.pop()
            if self.proxy.canFetchMore(parent):
                self.proxy.fetchMore(parent)
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
        self.caught_up()
        return self._ids_of(self.view.selectionModel().selectedIndexes())

    def _selection_to_doc(self, *_args: Any) -> None:
        if not self._syncing and not self._held.replaying:
            self.doc.select(self.selected_ids())

    def show_selection(self, ids: list[str]) -> None:
        """Select the rows of ``ids`` (the document's selection), opening their parents; of a
        selection of more than SELECTION_OPENS_AT_MOST, the rows built already (Select All on
        the 16x site built the rows of its 1,152 boxes: 110-140 ms). Covered with model events
        held, nothing: the document's selection is shown once they are applied."""
        if self._held.pending and unseen(self):
            return
        self.caught_up()
        selection = QItemSelection()
        first = None
        opens = len(ids) <= SELECTION_OPENS_AT_MOST
        self._shown_later = None
        for cid in ids:
            item = self._reach(cid) if opens else self.rows.get(cid)
            if item is None and opens and self._filling:
                self._shown_later = list(ids)  # shown again once the group is filled
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

    def _reach(self, cid: str) -> QStandardItem | None:
        """The row of ``cid``, building the rows above it; None when it is not in the design or
        sits in a group or a component of many being filled (which this starts: a zone
        selected in a data centre's fabric of 768 built all their rows in one turn)."""
        item = self.rows.get(cid)
        if item is not None:
            return item
        topo = self.topology
        chain = [topo.get(cid)]
        while chain[-1] is not None and chain[-1].parent is not None:
            chain.append(topo.get(chain[-1].parent))
        top = chain[-1]
        group = self.groups.get(top.kind) if top is not None else None
        if self.fill_later and group is not None and top.id not in self.rows and self._unfetched(group):
            if top.kind not in self._filling and self._top_count.get(top.kind, 0) > FILL_AT_ONCE:
                self._fetch(group, later=True, at_once=REACH_AT_ONCE)
            if top.kind in self._filling and top.id not in self.rows:
                return None
        pairs = zip(chain[:0:-1], chain[-2::-1]) if self.fill_later and None not in chain else ()
        for above, below in pairs:  # (each component above it and the next one down, top first)
            held, key = self._ensure(above.id), ("row", above.id)  # type: ignore[union-attr]
            if held is not None and self._unfetched(held) and key not in self._filling:
                if len(topo.children(above.id)) > FILL_AT_ONCE:  # type: ignore[union-attr]
                    self._fetch(held, later=True, at_once=REACH_AT_ONCE)
            if key in self._filling and below.id not in self.rows:  # type: ignore[union-attr]
                return None
        return self._ensure(cid)

    # -- context menu -------------------------------------------------------------------------------------
    def context_menu(self, ids: list[str]) -> QMenu:
        """The context menu for the components ``ids``: the registered actions, then Show on canvas."""
        self.caught_up()
        menu = QMenu(self)
        if ids and self.fill_menu is not None:
            self.fill_menu(menu, list(ids))
        if ids:
            menu.addAction("Show on &canvas", lambda: self._focus(ids))
        menu.addAction("E&xpand all", self.expand_all)
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
