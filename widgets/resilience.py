"""Resilience panel: what survives each single failure (:mod:`planner.resilience`), worst first.

"Run" computes the report off the GUI thread (``Document.compute_later``: on the background's copy
of the design, so nothing is copied here; an edit made meanwhile stops it), with the document's
figure set and direction; "Automatic" reruns it after every analysis. A result is shown only if
the design has not changed meanwhile (else it is marked out of date). Choosing a row selects the
failed component (``doc.select``) and asks the canvas to centre on it (``focusRequested``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from planner import naming
from planner.resilience import Resilience, impact_text, resilience
from planner.schema import kind_name

if TYPE_CHECKING:
    from app.document import Document

COLUMNS = ("Failed component", "Kind", "MB/s left", "MB/s lost", "Drives lost", "Impact")
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
ID_ROLE = Qt.ItemDataRole.UserRole + 2


class _SortItem(QTableWidgetItem):
    """A cell that sorts by its SORT_ROLE value (numbers numerically, the rank for the name)."""

    def __lt__(self, other: QTableWidgetItem) -> bool:
        a, b = self.data(SORT_ROLE), other.data(SORT_ROLE)
        if a is None or b is None:
            return super().__lt__(other)
        return a < b


class ResiliencePanel(QWidget):
    """Signals: ``focusRequested(list[str])``. Public: ``run()``, ``result``, ``table``,
    ``select_component(id)``; ``synchronous`` computes in the GUI thread (tests)."""

    focusRequested = Signal(object)  # list[str] (see Document.modelEvents)

    def __init__(self, doc: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.result: Resilience | None = None
        self.synchronous = False
        self._pending: tuple | None = None  # the tag of the run on its way
        self._tag: tuple | None = None
        self.run_button = QPushButton("Run")
        self.run_button.setToolTip(
            "Fail each HBA, PHB, link, planar, drawer, cable, switch, ASIC, port and controller in turn"
        )
        self.run_button.clicked.connect(self.run)
        self.auto = QCheckBox("Automatic")
        self.auto.setToolTip("Recompute after every change of the design")
        self.status = QLabel("Press Run to fail each component in turn.")
        self.status.setWordWrap(True)
        top = QHBoxLayout()
        top.addWidget(self.run_button)
        top.addWidget(self.auto)
        top.addWidget(self.status, 1)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(len(COLUMNS) - 1, QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setSortIndicator(0, Qt.SortOrder.AscendingOrder)  # worst first
        self.table.itemSelectionChanged.connect(self._on_selected)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addLayout(top)
        lay.addWidget(self.table)
        doc.analysisReady.connect(self._on_analysis)
        doc.computed.connect(self._on_computed)

    def _current_tag(self) -> tuple:
        topo = self.doc.topology
        return (id(topo), topo.revision, self.doc.figures, self.doc.direction)

    def _on_analysis(self, _bundle: Any) -> None:
        if self.auto.isChecked():
            self.run()
            return
        if self._pending is not None and self._pending != self._current_tag():
            self._pending = None  # the edit stopped the run
            self.status.setText("The design changed during the run. Press Run.")
        elif self._pending is None and self.result is not None and self._tag != self._current_tag():
            self.status.setText("Out of date: the design changed. Press Run.")

    def run(self) -> None:
        """Compute the report for the design as it is now (in the background unless synchronous)."""
        tag = self._current_tag()
        if tag == self._pending:
            return  # already on its way
        topo, figures, direction = self.doc.topology, self.doc.figures, self.doc.direction
        if self.synchronous:
            try:
                self._show(tag, resilience(topo, figures, direction))
            except Exception as err:
                self._show(tag, err)
            return
        self.status.setText("Failing each component in turn...")
        self._pending = tag
        self.doc.compute_later(
            "resilience", lambda design, progress: resilience(design, figures, direction, progress=progress)
        )

    def _on_computed(self, done: Any) -> None:
        tag = self._pending
        if done.key != "resilience" or tag is None or (id(done.origin), done.revision) != tag[:2]:
            return
        self._pending = None
        self._show(tag, done.result)

    def wait(self, timeout_ms: int = 10000) -> bool:
        """Wait until the run on its way is shown (tests)."""
        from PySide6.QtCore import QCoreApplication, QElapsedTimer, QThread

        clock = QElapsedTimer()
        clock.start()
        while self._pending is not None and clock.elapsed() < timeout_ms:
            QCoreApplication.processEvents()
            QThread.msleep(2)
        QCoreApplication.processEvents()
        return self._pending is None

    def _show(self, tag: tuple, res: Any) -> None:
        if tag != self._current_tag():
            return  # the design changed meanwhile: a stale report is never shown
        if isinstance(res, Exception):
            self.status.setText(f"Resilience could not be computed: {res}")
            return
        self.result, self._tag = res, tag
        self._fill(res)

    def _fill(self, res: Resilience) -> None:
        topo = self.doc.topology
        lose = len(res.data_loss)
        worst = res.worst
        head = f"Nothing failed: {res.baseline_mbps:,.0f} MB/s. {lose} of {len(res.failures)} single failures lose data access."
        if worst is not None:
            head += f" Worst: {naming.label(topo, worst.component)} ({worst.aggregate_mbps:,.0f} MB/s left)."
        self.status.setText(head)
        self.table.setSortingEnabled(False)
        self.table.blockSignals(True)
        self.table.setRowCount(len(res.failures))
        for r, f in enumerate(res.failures):
            cells = (
                (naming.label(topo, f.component), r),
                (kind_name(f.kind), kind_name(f.kind)),
                (f"{f.aggregate_mbps:,.1f}", f.aggregate_mbps),
                (f"{f.loss_mbps:,.1f}", f.loss_mbps),
                (str(len(f.lost_logical_drives)), len(f.lost_logical_drives)),
                (impact_text(topo, f), r),
            )
            for c, (text, key) in enumerate(cells):
                item = _SortItem(text)
                item.setData(SORT_ROLE, key)
                item.setData(ID_ROLE, f.component)
                if c in (2, 3, 4):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, c, item)
        self.table.blockSignals(False)
        self.table.setSortingEnabled(True)
        self.table.resizeColumnsToContents()

    def select_component(self, cid: str) -> bool:
        """Choose the row of the failure of ``cid``; False when it has none."""
        for r in range(self.table.rowCount()):
            item = self.table.item(r, 0)
            if item is not None and item.data(ID_ROLE) == cid:
                self.table.selectRow(r)
                return True
        return False

    def _on_selected(self) -> None:
        items = self.table.selectedItems()
        if not items:
            return
        cid = items[0].data(ID_ROLE)
        if cid in self.doc.topology:
            self.doc.select([cid])
            self.focusRequested.emit([cid])
