"""The zoning editor of a fabric: initiators (HBA ports) as rows, targets (storage host ports) as
columns, a tick per zone; names and WWPNs edited in place; WWPNs pasted from ``lscfg``, a
spreadsheet or a switch (:mod:`widgets.wwpn_paste`).

The dialog never changes the design: it emits intent (``zoneToggled(fabric, initiator, target,
zoned)``, ``nameEdited(id, text)``, ``wwpnEdited(port, text)``, ``wwpnsPasted(dict port -> wwpn)``)
and the application runs each as one undo step (:mod:`app.actions.san`); a refused edit comes back
through :meth:`ZoningDialog.show_refusal` and the old value is shown again. The grid follows the
document (``Document.edited``): an undo shows at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from planner import zoning_edit as ze
from planner.exports.zoning import alias_text
from planner.naming import label, short_label
from widgets.wwpn_paste import WwpnPasteDialog

if TYPE_CHECKING:
    from planner.model import Component, Topology

#: the rows above the initiators that describe each target column
HEAD_ROWS = ("Subsystem", "Controller", "Port", "WWPN")
NAME_COL, WWPN_COL = 0, 1
FIRST_TARGET = 2
ROLE = Qt.ItemDataRole.UserRole  # ("tick", initiator, target) | ("name", id) | ("wwpn", port)
_TIP = "Tick a cell to zone the HBA port of its row with the storage port of its column (one zone per pair)."


class ZoningDialog(QDialog):
    """The zoning of one fabric (chosen in the dialog). ``doc`` is an ``app.document.Document``
    (duck-typed: ``topology``, ``edited``, ``projectReplaced``, ``selection``)."""

    zoneToggled = Signal(str, str, str, bool)
    nameEdited = Signal(str, str)
    wwpnEdited = Signal(str, str)
    wwpnsPasted = Signal(object)  # dict (see Document.modelEvents)

    def __init__(self, doc: Any, fabric: str = "", parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Zoning")
        self.doc = doc
        self.initiators: list[str] = []
        self.targets: list[str] = []
        self.paste_dialog: WwpnPasteDialog | None = None
        self._filling = False
        self._stale = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.refresh)
        self.fabric_box = QComboBox()
        self.fabric_box.setToolTip("The fabric whose zones are shown")
        self.fabric_box.currentIndexChanged.connect(lambda _i: self._fill_table())
        self.every_port = QCheckBox("Show every port")
        self.every_port.setToolTip("Also show ports not cabled into this fabric (to zone before cabling)")
        self.every_port.toggled.connect(lambda _on: self._fill_table())
        self.table = QTableWidget()
        self.table.setToolTip(_TIP)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.table.itemChanged.connect(self._on_item_changed)
        self.summary = QLabel()
        self.status = QLabel()
        self.status.setWordWrap(True)
        self._build_layout()
        doc.edited.connect(self.schedule_refresh)
        doc.projectReplaced.connect(self.schedule_refresh)
        self.refresh(fabric)
        self.resize(900, 560)

    def _build_layout(self) -> None:
        top = QHBoxLayout()
        top.addWidget(QLabel("Fabric:"))
        top.addWidget(self.fabric_box, 1)
        top.addWidget(self.every_port)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.paste_button = buttons.addButton("&Paste WWPNs...", QDialogButtonBox.ButtonRole.ActionRole)
        self.paste_button.setToolTip(
            "Fill several WWPNs at once from lscfg -vl fcsN output, a spreadsheet column or a switch's nsshow"
        )
        self.paste_button.clicked.connect(self.open_paste)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.status)
        layout.addWidget(buttons)

    # -- what is shown --------------------------------------------------------------------------
    @property
    def topology(self) -> Topology:
        return self.doc.topology

    def fabric(self) -> str:
        return self.fabric_box.currentData() or ""

    def set_fabric(self, fabric: str) -> None:
        i = self.fabric_box.findData(fabric)
        if i >= 0:
            self.fabric_box.setCurrentIndex(i)

    def schedule_refresh(self) -> None:
        """Refresh once the current edit is complete (the grid is rebuilt after the event loop
        returns, never inside the handler of the cell being edited); a hidden dialog refreshes
        when it is shown again."""
        self._stale = True
        if self.isVisible():
            self._timer.start()

    def showEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().showEvent(event)
        if self._stale:
            self.refresh()

    def refresh(self, fabric: str = "") -> None:
        """Show the design as it is now (the fabrics, then the grid of ``fabric`` or the current one)."""
        self._timer.stop()
        self._stale = False
        want = fabric or self.fabric()
        self.fabric_box.blockSignals(True)
        self.fabric_box.clear()
        for f in self.topology.of_kind("fabric"):
            zones = len(self.topology.children(f.id, "zone"))
            self.fabric_box.addItem(f"{short_label(f)} ({zones} zone{'s' if zones != 1 else ''})", f.id)
        i = self.fabric_box.findData(want)
        self.fabric_box.setCurrentIndex(max(i, 0))
        self.fabric_box.blockSignals(False)
        self._fill_table()

    def _ports(self, fabric: str) -> tuple[list[Component], list[Component]]:
        topo = self.topology
        every = self.every_port.isChecked()
        inits = ze.fabric_ports(topo, fabric, ze.INITIATOR, every)
        targets = ze.fabric_ports(topo, fabric, ze.TARGET, every)
        if not every and not inits and not targets:  # nothing cabled yet: offer every port
            self.every_port.blockSignals(True)
            self.every_port.setChecked(True)
            self.every_port.blockSignals(False)
            return self._ports(fabric)
        return inits, targets

    def _fill_table(self) -> None:
        fabric = self.fabric()
        topo = self.topology
        cur = (self.table.currentRow(), self.table.currentColumn())
        self._filling = True
        try:
            self.table.clear()
            if not fabric:
                self.initiators, self.targets = [], []
                self.table.setRowCount(0)
                self.table.setColumnCount(0)
                self.summary.setText("This design has no fabric: drop a switch from Parts (it brings its fabric).")
                return
            inits, targets = self._ports(fabric)
            self.initiators, self.targets = [p.id for p in inits], [p.id for p in targets]
            self.table.setRowCount(len(HEAD_ROWS) + len(inits))
            self.table.setColumnCount(FIRST_TARGET + len(targets))
            self._fill_heads(inits, targets)
            pairs = ze.zoned_pairs(topo, fabric)
            for r, i in enumerate(inits, len(HEAD_ROWS)):
                self._fill_initiator(r, i)
                for c, t in enumerate(targets, FIRST_TARGET):
                    self.table.setItem(r, c, self._tick(i, t, (i.id, t.id) in pairs))
            zones = len(topo.children(fabric, "zone"))
            self.summary.setText(
                f"{len(inits)} HBA ports x {len(targets)} storage ports, {zones} zone{'s' if zones != 1 else ''} "
                f"in {short_label(topo[fabric])}. {_TIP}"
            )
        finally:
            self._filling = False
        self.table.resizeColumnsToContents()
        if cur[0] >= 0 and cur[0] < self.table.rowCount() and cur[1] < self.table.columnCount():
            self.table.setCurrentCell(*cur)

    def _fill_heads(self, inits: list[Component], targets: list[Component]) -> None:
        topo = self.topology
        self.table.setHorizontalHeaderLabels(["HBA", "WWPN"] + [alias_text(topo, t) for t in targets])
        self.table.setVerticalHeaderLabels(["" for _ in HEAD_ROWS] + [alias_text(topo, i) for i in inits])
        for c, t in enumerate(targets, FIRST_TARGET):
            self.table.horizontalHeaderItem(c).setToolTip(f"{label(topo, t)}\nalias in the zoning scripts")
        for r, i in enumerate(inits, len(HEAD_ROWS)):
            self.table.verticalHeaderItem(r).setToolTip(f"{label(topo, i)}\nalias in the zoning scripts")
        bold = QFont()
        bold.setBold(True)
        for r, caption in enumerate(HEAD_ROWS):
            self.table.setItem(r, NAME_COL, _fixed(caption, bold))
            self.table.setItem(r, WWPN_COL, _fixed(""))
        for c, t in enumerate(targets, FIRST_TARGET):
            sub = topo.ancestor(t.id, "subsystem")
            ctl = topo.get(t.parent)
            self.table.setItem(0, c, _editable(short_label(sub), ("name", sub.id)) if sub else _fixed(""))
            self.table.setItem(1, c, _fixed(short_label(ctl) if ctl else ""))
            self.table.setItem(2, c, _editable(short_label(t), ("name", t.id)))
            self.table.setItem(3, c, _editable(t["wwpn"], ("wwpn", t.id), "type or paste the port's WWPN"))

    def _fill_initiator(self, row: int, port: Component) -> None:
        hba = self.topology.get(port.parent)
        name = _editable(short_label(hba), ("name", hba.id), "the adapter's name (its alias follows)") if hba else None
        self.table.setItem(row, NAME_COL, name or _fixed(short_label(port)))
        self.table.setItem(row, WWPN_COL, _editable(port["wwpn"], ("wwpn", port.id), "type or paste the port's WWPN"))

    def _tick(self, i: Component, t: Component, zoned: bool) -> QTableWidgetItem:
        item = QTableWidgetItem()
        item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsSelectable)
        item.setCheckState(Qt.CheckState.Checked if zoned else Qt.CheckState.Unchecked)
        item.setData(ROLE, ("tick", i.id, t.id))
        topo = self.topology
        if zoned:
            names = ", ".join(short_label(z) for z in ze.zones_pairing(topo, self.fabric(), i.id, t.id))
            item.setToolTip(f"zoned: {names}; untick to unzone")
        else:
            item.setToolTip(f"tick to zone {alias_text(topo, i)} with {alias_text(topo, t)}")
        return item

    # -- lookups for tests and for the application ------------------------------------------------
    def cell(self, initiator: str, target: str) -> QTableWidgetItem:
        """The tick of a pair (KeyError when either port is not shown)."""
        return self.table.item(
            len(HEAD_ROWS) + self.initiators.index(initiator), FIRST_TARGET + self.targets.index(target)
        )

    def wwpn_cell(self, port: str) -> QTableWidgetItem:
        if port in self.initiators:
            return self.table.item(len(HEAD_ROWS) + self.initiators.index(port), WWPN_COL)
        return self.table.item(HEAD_ROWS.index("WWPN"), FIRST_TARGET + self.targets.index(port))

    def name_cell(self, port: str) -> QTableWidgetItem:
        """The editable name of the port's row (its HBA) or column (the host port)."""
        if port in self.initiators:
            return self.table.item(len(HEAD_ROWS) + self.initiators.index(port), NAME_COL)
        return self.table.item(HEAD_ROWS.index("Port"), FIRST_TARGET + self.targets.index(port))

    def chosen_ports(self) -> list[str]:
        """The ports of the selected rows and columns (where pasted WWPNs go first)."""
        out: dict[str, None] = {}
        for idx in self.table.selectedIndexes():
            r, c = idx.row() - len(HEAD_ROWS), idx.column() - FIRST_TARGET
            if r >= 0 and c < 0:
                out[self.initiators[r]] = None
            elif c >= 0 and r < 0:
                out[self.targets[c]] = None
        return list(out)

    # -- intent ---------------------------------------------------------------------------------
    def _on_item_changed(self, item: QTableWidgetItem) -> None:
        if self._filling:
            return
        what = item.data(ROLE)
        if not what:
            return
        self.status.setText("")
        if what[0] == "tick":
            self.zoneToggled.emit(self.fabric(), what[1], what[2], item.checkState() == Qt.CheckState.Checked)
        elif what[0] == "name":
            self.nameEdited.emit(what[1], item.text().strip())
        elif what[0] == "wwpn":
            self.wwpnEdited.emit(what[1], item.text())
        self.schedule_refresh()

    def show_refusal(self, reason: str) -> None:
        """Say why an edit was refused; the grid shows the design's values again."""
        self.status.setStyleSheet("color: #c62828")
        self.status.setText(reason)
        self.schedule_refresh()

    def show_note(self, text: str) -> None:
        self.status.setStyleSheet("")
        self.status.setText(text)

    def open_paste(self) -> WwpnPasteDialog:
        """Open the paste preview for the ports shown (non-modal); applying it emits ``wwpnsPasted``."""
        dlg = WwpnPasteDialog(self.topology, self.initiators + self.targets, self.chosen_ports(), parent=self)
        dlg.accepted.connect(lambda: self._pasted(dlg))
        self.paste_dialog = dlg
        dlg.open()
        return dlg

    def _pasted(self, dlg: WwpnPasteDialog) -> None:
        values = dlg.values()
        if values:
            self.status.setText("")
            self.wwpnsPasted.emit(values)
            self.schedule_refresh()


def _fixed(text: str, font: QFont | None = None) -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    item.setFlags(Qt.ItemFlag.ItemIsEnabled)
    if font is not None:
        item.setFont(font)
    return item


def _editable(text: str, what: tuple[str, str], tip: str = "") -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsEditable | Qt.ItemFlag.ItemIsSelectable)
    item.setData(ROLE, what)
    item.setToolTip(tip or "double-click to rename (the zoning alias follows the name)")
    return item
