"""Workloads panel: every workload with a throughput target, what the latest analysis gives it,
met or unmet, its headroom and the hop that binds it (the rows of :func:`planner.demand.workload_rows`,
the same words as ``sanplan analyze``). Choosing a row selects the workload and emits
:attr:`WorkloadsPanel.focusRequested`. Also :func:`inspector_rows`, the inspector's lines for a
selected workload or logical volume.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from planner import bands
from planner.demand import WORKLOAD_COLUMNS, WorkloadResult, workload_rows

if TYPE_CHECKING:
    from app.document import AnalysisBundle, Document
    from planner.analysis import Analysis
    from planner.model import Topology

_MET_COLUMN = WORKLOAD_COLUMNS.index("met")


class WorkloadsPanel(QWidget):
    """The workloads of the latest current analysis. ``doc`` is an ``app.document.Document``
    (duck-typed). Signals: ``focusRequested(list[str])``. Public: :meth:`rows` (the text shown)."""

    focusRequested = Signal(object)  # list[str] (see Document.modelEvents)

    def __init__(self, doc: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("WorkloadsPanel")
        self.doc = doc
        self._ids: list[str] = []
        self.summary = QLabel("No analysis yet.")
        self.table = QTableWidget(0, len(WORKLOAD_COLUMNS))
        self.table.setHorizontalHeaderLabels(list(WORKLOAD_COLUMNS))
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.verticalHeader().hide()
        self.table.itemSelectionChanged.connect(self._on_selected)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.summary)
        lay.addWidget(self.table)
        doc.analysisReady.connect(self._on_analysis)
        if doc.analysis is not None and doc.is_current(doc.analysis):
            self._on_analysis(doc.analysis)

    def rows(self) -> list[tuple[str, ...]]:
        """The table's text, row by row."""
        return [
            tuple(self.table.item(r, c).text() for c in range(self.table.columnCount()))
            for r in range(self.table.rowCount())
        ]

    def _on_analysis(self, bundle: AnalysisBundle) -> None:
        if not self.doc.is_current(bundle):
            return
        results = bundle.result.workloads
        self._ids = [r.id for r in results]
        rows = workload_rows(self.doc.topology, results)
        self.table.blockSignals(True)
        self.table.setRowCount(len(rows))
        for r, (row, res) in enumerate(zip(rows, results)):
            for c, text in enumerate(row):
                item = QTableWidgetItem(text)
                if c in (1, 2, 4):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if c == _MET_COLUMN:
                    item.setBackground(QColor(bands.PALE["ok" if res.met else "over"]))
                self.table.setItem(r, c, item)
        self.table.blockSignals(False)
        unmet = sum(1 for r in results if not r.met)
        self.summary.setText(
            f"{len(results)} with a target, {unmet} unmet ({bundle.direction}, {bundle.figures} figures)"
            if results
            else "No workload has a target: give one a Target (MB/s) in its properties."
        )

    def _on_selected(self) -> None:
        picked = self.table.selectionModel().selectedRows()
        if not picked or picked[0].row() >= len(self._ids):
            return
        ids = [self._ids[picked[0].row()]]
        self.doc.select(ids)
        self.focusRequested.emit(ids)


def inspector_rows(topo: Topology, result: Analysis, ids: list[str]) -> list[tuple[str, str]]:
    """(name, text) lines for the inspector when the selection is workloads or logical volumes
    (their workloads): target, what they get, met or not, headroom, binding hop. Empty when none
    of them has a target."""
    wanted = set()
    for cid in ids:
        comp = topo.get(cid)
        if comp is not None and comp.kind == "workload":
            wanted.add(cid)
        elif comp is not None:
            wanted.update(w.id for w in topo.children(cid, "workload"))
    found: list[WorkloadResult] = [r for r in result.workloads if r.id in wanted]
    out = []
    for res, row in zip(found, workload_rows(topo, found)):
        name = row[0] if len(found) > 1 else "Workload"
        status = "met" if res.met else "UNMET"
        text = f"{status}: gets {row[2]} of {row[1]} MB/s, headroom {row[4]} MB/s"
        if row[5] != "-":
            text += f"; binding hop {row[5]}"
        out.append((name, text))
    return out
