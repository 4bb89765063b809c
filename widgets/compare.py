"""Two scenarios of the open project side by side (:mod:`planner.diff`): the aggregates with their
deltas, the paths whose binding hop changed, the findings added and removed, and what changes in
the bill of materials. Read-only: it edits nothing; a build sheet with the changes is asked for
with :attr:`CompareDialog.buildSheetRequested`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from planner.diff import Diff, diff, hop_text
from planner.figures import FIGURE_SETS
from planner.model import Topology
from planner.naming import counted, label_list

WORSE, BETTER = QColor("#c62828"), QColor("#2e7d32")


def _table(name: str, header: Sequence[str]) -> QTableWidget:
    t = QTableWidget(0, len(header))
    t.setObjectName(name)
    t.setHorizontalHeaderLabels(list(header))
    t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    t.verticalHeader().setVisible(False)
    t.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    t.horizontalHeader().setStretchLastSection(True)
    return t


def _fill(table: QTableWidget, rows: Sequence[Sequence[Any]], colours: Sequence[QColor | None] = ()) -> None:
    """Rows of values (numbers right-aligned); an optional colour per row for its last cell."""
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            item = QTableWidgetItem("" if value is None else str(value))
            if isinstance(value, (int, float)) or (
                isinstance(value, str) and value[:1] in "+-" and value[1:2].isdigit()
            ):
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            table.setItem(r, c, item)
        colour = colours[r] if r < len(colours) else None
        if colour is not None:
            table.item(r, len(row) - 1).setForeground(colour)


class CompareDialog(QDialog):
    """Compare two of ``scenarios`` (name -> design) with one figure set.

    ``old`` and ``new`` are the scenarios shown first. :attr:`diff` is the comparison shown;
    changing a scenario or the figure set recomputes it (four analyses and two rule checks).
    """

    buildSheetRequested = Signal(str, str, str)  # old scenario, new scenario, figure set

    def __init__(
        self,
        scenarios: Mapping[str, Topology],
        old: str,
        new: str,
        figures: str = "planning",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Compare scenarios")
        self.scenarios = dict(scenarios)
        self.diff: Diff | None = None
        self.old_box, self.new_box, self.figures_box = QComboBox(), QComboBox(), QComboBox()
        for box, name in ((self.old_box, "old"), (self.new_box, "new")):
            box.setObjectName(name)
            box.addItems(list(self.scenarios))
        self.old_box.setCurrentText(old)
        self.new_box.setCurrentText(new)
        self.figures_box.setObjectName("figures")
        self.figures_box.addItems(FIGURE_SETS)
        self.figures_box.setCurrentText(figures)
        self.note = QLabel()
        self.note.setObjectName("note")
        self.note.setWordWrap(True)
        self.aggregate = _table("aggregate", ("MB/s", "old", "new", "change"))
        self.aggregate.setMaximumHeight(90)
        self.binding = _table("binding", ("Dir.", "Path", "Was bound by", "Now bound by"))
        self.findings = _table("findings", ("Change", "Severity", "Rule", "Components", "Message"))
        self.parts = _table("parts", ("Change", "Part", "Description"))
        self.tabs = QTabWidget()
        for w, title in (
            (self.binding, "Binding hops"),
            (self.findings, "Findings"),
            (self.parts, "Bill of materials"),
        ):
            self.tabs.addTab(w, title)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.sheet_button = self.buttons.addButton(
            "&Build sheet with these changes...", QDialogButtonBox.ButtonRole.ActionRole
        )
        self.sheet_button.clicked.connect(self._ask_sheet)
        self.buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addLayout(self._choosers())
        box.addWidget(self.note)
        box.addWidget(self.aggregate)
        box.addWidget(self.tabs, 1)
        box.addWidget(self.buttons)
        self.resize(900, 560)
        for b in (self.old_box, self.new_box, self.figures_box):
            b.currentTextChanged.connect(self.refresh)
        self.refresh()

    def _choosers(self) -> QHBoxLayout:
        """The row choosing the two scenarios and the figure set, and the Swap button."""
        swap = QPushButton("&Swap")
        swap.setToolTip("Compare the other way round")
        swap.clicked.connect(self.swap)
        top = QHBoxLayout()
        for text, w in (("From", self.old_box), ("to", self.new_box), ("figures", self.figures_box)):
            top.addWidget(QLabel(text))
            top.addWidget(w)
        top.addWidget(swap)
        top.addStretch(1)
        return top

    @property
    def old(self) -> str:
        return self.old_box.currentText()

    @property
    def new(self) -> str:
        return self.new_box.currentText()

    def choose(self, old: str, new: str, figures: str | None = None) -> None:
        """Show ``old`` against ``new`` (the scenarios' names) and recompute once."""
        for b, text in ((self.old_box, old), (self.new_box, new), (self.figures_box, figures)):
            if text is not None:
                b.blockSignals(True)
                b.setCurrentText(text)
                b.blockSignals(False)
        self.refresh()

    def swap(self) -> None:
        self.choose(self.new, self.old)

    def _ask_sheet(self) -> None:
        self.buildSheetRequested.emit(self.old, self.new, self.figures_box.currentText())

    def refresh(self) -> None:
        """Recompute the comparison and fill the tables."""
        old, new = self.scenarios[self.old], self.scenarios[self.new]
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            d = self.diff = diff(old, new, self.figures_box.currentText())
        finally:
            QApplication.restoreOverrideCursor()
        self.sheet_button.setEnabled(self.old != self.new)
        self.note.setText(self._note(d))
        self.aggregate.setHorizontalHeaderLabels(["MB/s", self.old, self.new, "change"])
        _fill(
            self.aggregate,
            [(k.capitalize(), f"{c.old:,.1f}", f"{c.new:,.1f}", f"{c.delta:+,.1f}") for k, c in d.aggregate.items()],
            [_sign_colour(c.delta) for c in d.aggregate.values()],
        )
        _fill(
            self.binding,
            [
                (
                    b.direction,
                    b.path,
                    f"{hop_text(old, b.old)} ({_mbps(b.old_mbps)})",
                    f"{hop_text(new, b.new)} ({_mbps(b.new_mbps)})",
                )
                for b in d.binding_changed
            ],
        )
        self._fill_findings(d, old, new)
        self._fill_parts(d, old, new)
        self.tabs.setTabText(0, f"Binding hops ({len(d.binding_changed)})")
        self.tabs.setTabText(1, f"Findings (+{len(d.findings_added)} / -{len(d.findings_removed)})")
        self.tabs.setTabText(2, f"Bill of materials ({len(d.parts_delta) + len(d.cables_delta)})")

    def _note(self, d: Diff) -> str:
        if self.old == self.new:
            return "The same scenario on both sides: choose two different scenarios."
        if d.unchanged:
            return f"{self.new} does not differ from {self.old} in anything compared here."
        lost = f"; {counted(len(d.paths_removed), 'path')} removed" if d.paths_removed else ""
        gained = f"; {counted(len(d.paths_added), 'path')} added" if d.paths_added else ""
        return f"From {self.old} to {self.new} ({d.figures} figures, data from disk){lost}{gained}."

    def _fill_findings(self, d: Diff, old: Topology, new: Topology) -> None:
        rows = []
        for change, found, topo in (("added", d.findings_added, new), ("removed", d.findings_removed, old)):
            for f in found:
                rows.append(
                    (change, f.severity, f.rule, label_list(topo, f.components, limit=4, short=False), f.message)
                )
        _fill(self.findings, rows)
        for r, row in enumerate(rows):
            if row[0] == "removed" or row[1] == "error":  # a finding gone is better; a new error worse
                self.findings.item(r, 0).setForeground(BETTER if row[0] == "removed" else WORSE)

    def _fill_parts(self, d: Diff, old: Topology, new: Topology) -> None:
        rows = []
        for pid, n in d.parts_delta.items():
            part = new.parts.get(pid) or old.parts.get(pid) or {}
            rows.append((f"{n:+d}", pid, part.get("name", "")))
        rows += [(f"{n:+d}", "cable", key) for key, n in d.cables_delta.items()]
        _fill(self.parts, rows)


def _sign_colour(delta: float) -> QColor | None:
    if abs(delta) < 0.05:
        return None
    return BETTER if delta > 0 else WORSE


def _mbps(x: float | None) -> str:
    return "?" if x is None else f"{x:,.1f} MB/s"
