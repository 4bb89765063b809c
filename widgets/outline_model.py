"""The model tree's item model (see :mod:`widgets.model_tree`): its rows' roles, the rows built
when a branch opens (``canFetchMore``/``fetchMore``, asking the panel), and HBA rows dragged onto
LPAR rows."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QMimeData, QModelIndex, Qt
from PySide6.QtGui import QStandardItemModel

from widgets.outline_text import hbas_of

if TYPE_CHECKING:
    from planner.model import Component
    from widgets.model_tree import ModelTreePanel

ID_ROLE = Qt.ItemDataRole.UserRole + 1
SEARCH_ROLE = Qt.ItemDataRole.UserRole + 2
KIND_ROLE = Qt.ItemDataRole.UserRole + 3  # a group row's kind
PLACEHOLDER_ROLE = Qt.ItemDataRole.UserRole + 4  # the one row inside a branch not opened yet
#: the drag payload of tree rows: component ids, one a line
MIME_IDS = "application/x-sanplan-components"


class OutlineModel(QStandardItemModel):
    """The tree's rows; HBA rows (HBAs, their ports, slots holding one) drag, LPAR rows take them
    (the cells' flags, set by the panel as rows are built and as HBAs come and go)."""

    def __init__(self, panel: ModelTreePanel) -> None:
        super().__init__(0, 2, panel)
        self.panel = panel
        self.invisibleRootItem().setDropEnabled(False)

    def _comp(self, index: QModelIndex) -> Component | None:
        cid = index.siblingAtColumn(0).data(ID_ROLE) if index.isValid() else None
        return self.panel.topology.get(cid) if cid else None

    def canFetchMore(self, parent: QModelIndex) -> bool:
        """Whether the row holds its placeholder (see ModelTreePanel._hold): one look, the views
        ask for every open row at each relayout. Never while a search filters the outline: its
        matches' rows are built (``OutlineSearch._reveal``) and no other row would show; the
        view opening every branch found fetched the rows inside each match (the 16x site
        searched for "fcs1": 1,104 rows made, each re-filtered by the proxy as it was: 42 ms of
        expandAll's 114)."""
        return parent.isValid() and not self.panel._words and bool(self.index(0, 0, parent).data(PLACEHOLDER_ROLE))

    def fetchMore(self, parent: QModelIndex) -> None:
        if self.canFetchMore(parent):
            self.panel._fetch(self.itemFromIndex(parent), later=self.panel.fill_later, at_once=self.panel.fill_first)

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
