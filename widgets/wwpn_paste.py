"""Paste WWPNs: text from ``lscfg -vl fcsN``, a spreadsheet column or a switch's ``nsshow`` /
``show flogi database``, previewed as pasted WWPN -> port before anything is applied.

The dialog reads the design and returns :meth:`WwpnPasteDialog.values` (port id -> WWPN); the
caller applies them as one undo step (:func:`planner.zoning_edit.set_wwpns`). Parsing and the
first guess of the ports are :func:`planner.zoning_edit.parse_wwpns` and
:func:`~planner.zoning_edit.match_wwpns`; each guess can be changed in the preview.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from planner import zoning_edit as ze
from planner.exports.zoning import alias_text
from planner.naming import label

if TYPE_CHECKING:
    from planner.model import Topology

_HELP = (
    "Paste the output of <b>lscfg -vl fcs0</b> (one block per adapter), a spreadsheet column of WWPNs "
    "(optionally after a name such as fcs0), or a switch's <b>nsshow</b> / <b>show flogi database</b>. "
    "Check the port each WWPN goes to, then Apply (one undo step)."
)
_NOT_USED = "(not used)"


class WwpnPasteDialog(QDialog):
    """Pasted text -> a preview table (line, label, WWPN, port, note) -> :meth:`values`.

    ``ports``: the ports WWPNs may go to (ids, in the order offered); ``preferred``: ports the
    user chose (filled first by WWPNs whose label names no port)."""

    def __init__(
        self, topo: Topology, ports: Sequence[str], preferred: Sequence[str] = (), text: str = "", parent=None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Paste WWPNs")
        self.topo = topo
        self.ports = [p for p in ports if p in topo]
        self.preferred = list(preferred)
        self.entries: list[ze.PastedWWPN] = []
        self.editor = QPlainTextEdit()
        self.editor.setPlaceholderText("Network Address.............10000000C9AABB01")
        self.preview = QTableWidget(0, 4)
        self.preview.setHorizontalHeaderLabels(["From", "WWPN", "Port", "Note"])
        self.preview.horizontalHeader().setStretchLastSection(True)
        self.summary = QLabel()
        help_label = QLabel(_HELP)
        help_label.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.apply_button = self.buttons.addButton("&Apply", QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.editor)
        box = QWidget()
        inner = QVBoxLayout(box)
        inner.setContentsMargins(0, 0, 0, 0)
        inner.addWidget(self.summary)
        inner.addWidget(self.preview)
        split.addWidget(box)
        layout = QVBoxLayout(self)
        layout.addWidget(help_label)
        layout.addWidget(split, 1)
        layout.addWidget(self.buttons)
        self.editor.textChanged.connect(self._update_preview)
        if not text:
            clip = QApplication.clipboard().text() if QApplication.instance() else ""
            text = clip if ze.parse_wwpns(clip or "") else ""
        self.set_text(text)
        self.resize(720, 520)

    def set_text(self, text: str) -> None:
        """Put ``text`` in the editor (the preview follows)."""
        self.editor.setPlainText(text)  # textChanged updates the preview

    def _update_preview(self) -> None:
        self.entries = ze.parse_wwpns(self.editor.toPlainText())
        guess = ze.match_wwpns(self.topo, self.entries, self.ports, self.preferred)
        self.preview.setRowCount(len(self.entries))
        for r, (entry, port) in enumerate(zip(self.entries, guess)):
            source = f"line {entry.line}" + (f": {entry.label}" if entry.label else "")
            self.preview.setItem(r, 0, _cell(source))
            self.preview.setItem(r, 1, _cell(entry.wwpn))
            self.preview.setCellWidget(r, 2, self._port_box(port, enabled=not entry.problem))
            self.preview.setItem(r, 3, _cell(self._note(entry, port)))
        self.preview.resizeColumnsToContents()
        self._summarise()

    def _port_box(self, port: str, enabled: bool) -> QComboBox:
        box = QComboBox()
        box.addItem(_NOT_USED, "")
        for p in self.ports:
            comp = self.topo[p]
            box.addItem(f"{alias_text(self.topo, comp)} ({label(self.topo, comp)})", p)
        box.setCurrentIndex(max(box.findData(port), 0))
        box.setEnabled(enabled)
        box.currentIndexChanged.connect(lambda _i: self._summarise())
        return box

    def _note(self, entry: ze.PastedWWPN, port: str) -> str:
        if entry.problem:
            return entry.problem
        if not port:
            return "no port matched: choose one"
        if self.topo[port]["wwpn"] == entry.wwpn:
            return "already set"
        others = ze.wwpn_owners(self.topo, entry.wwpn, but=port)
        if others:
            return f"also the WWPN of {label(self.topo, others[0])}"
        old = self.topo[port]["wwpn"]
        return f"replaces {old}" if old else "new"

    def port_box(self, row: int) -> QComboBox:
        return self.preview.cellWidget(row, 2)

    def mapping(self) -> list[tuple[str, str]]:
        """(port, WWPN) per usable preview row, in order."""
        out = []
        for r, entry in enumerate(self.entries):
            port = self.port_box(r).currentData() if not entry.problem else ""
            if port:
                out.append((port, entry.wwpn))
        return out

    def values(self) -> dict[str, str]:
        """port id -> WWPN for the ports whose WWPN changes."""
        return {p: w for p, w in self.mapping() if self.topo[p]["wwpn"] != w}

    def _summarise(self) -> None:
        n, changes = len(self.entries), len(self.values())
        bad = sum(1 for e in self.entries if e.problem)
        text = f"{n} WWPN{'s' if n != 1 else ''} found, {changes} to set"
        if bad:
            text += f", {bad} not usable"
        self.summary.setText(text if n else "No WWPN found yet: paste text above.")
        self.apply_button.setEnabled(changes > 0)


def _cell(text: str) -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
    item.setToolTip(text)
    return item
