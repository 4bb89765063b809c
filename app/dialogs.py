"""Dialogs of the main window: revision history (list, compare, restore) and export progress."""

from __future__ import annotations

import html
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEventLoop, QObject, Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QProgressDialog,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
)

from app import gui_gc
from planner.io import Project, ProjectError, list_revisions, restore_revision


def compare_summary(old: Project, new: Project) -> str:
    """What changed between two projects, in words: counts per kind added/removed/changed."""
    lines = []
    names = list(dict.fromkeys([*old.scenarios, *new.scenarios]))
    for name in names:
        a, b = old.scenarios.get(name), new.scenarios.get(name)
        if a is None:
            lines.append(f"scenario {name}: only in the newer one")
            continue
        if b is None:
            lines.append(f"scenario {name}: only in the older one")
            continue
        ca = {c.id: c for c in a.components()}
        cb = {c.id: c for c in b.components()}
        per: dict[str, list[int]] = {}
        for cid in ca.keys() | cb.keys():
            x, y = ca.get(cid), cb.get(cid)
            kind = (x or y).kind
            slot = per.setdefault(kind, [0, 0, 0])
            if x is None:
                slot[0] += 1
            elif y is None:
                slot[1] += 1
            elif (x.name, x.parent, x.part, x.attrs) != (y.name, y.parent, y.part, y.attrs):
                slot[2] += 1
        changes = [
            f"{kind}: " + ", ".join(f"{n} {w}" for n, w in zip(v, ("added", "removed", "changed")) if n)
            for kind, v in sorted(per.items())
            if any(v)
        ]
        lines.append(f"scenario {name}: " + ("; ".join(changes) if changes else "no change"))
    return "\n".join(lines)


class RevisionsDialog(QDialog):
    """Lists the revisions saved in a design file; compares one with the open design; restores."""

    def __init__(self, path: Path, current: Project, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Revision history of {path.name}")
        self.path, self.current = path, current
        self.restored: Project | None = None
        self.table = QTableWidget(0, 4)
        self.table.setHorizontalHeaderLabels(["Revision", "Saved", "Message", "Scenarios"])
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.summary = QTextBrowser()
        self.summary.setMaximumHeight(140)
        try:
            self.revisions = list_revisions(path)
        except ProjectError as err:
            self.revisions = []
            self.summary.setPlainText(str(err))
        for rev in reversed(self.revisions):
            row = self.table.rowCount()
            self.table.insertRow(row)
            for col, value in enumerate((rev[0], rev[1], rev[2], ", ".join(rev[3]))):
                item = QTableWidgetItem(str(value))
                item.setData(Qt.ItemDataRole.UserRole, rev[0])
                self.table.setItem(row, col, item)
        self.table.resizeColumnsToContents()
        self.table.itemSelectionChanged.connect(self._compare)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.restore_button = buttons.addButton("Restore this revision", QDialogButtonBox.ButtonRole.AcceptRole)
        self.restore_button.setEnabled(False)
        self.restore_button.clicked.connect(self._restore)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        row = QHBoxLayout()
        row.addWidget(QLabel("Changes from this revision to the open design:"))
        layout.addLayout(row)
        layout.addWidget(self.summary)
        layout.addWidget(buttons)
        self.resize(760, 480)

    def selected_revision(self) -> int | None:
        items = self.table.selectedItems()
        return int(items[0].data(Qt.ItemDataRole.UserRole)) if items else None

    def _compare(self) -> None:
        rev = self.selected_revision()
        self.restore_button.setEnabled(rev is not None)
        if rev is None:
            return
        try:
            old = restore_revision(self.path, rev)
        except ProjectError as err:
            self.summary.setPlainText(str(err))
            return
        self.summary.setHtml("<pre>" + html.escape(compare_summary(old, self.current)) + "</pre>")

    def _restore(self) -> None:
        rev = self.selected_revision()
        if rev is None:
            return
        try:
            self.restored = restore_revision(self.path, rev)
        except ProjectError as err:
            QMessageBox.warning(self, "SANplan", str(err))
            return
        self.accept()


class Cancelled(Exception):
    """The user pressed Cancel in the progress dialog of :func:`run_with_progress`."""


class _Bridge(QObject):
    """Carries the worker's progress and its end to the GUI thread (queued signals)."""

    progressed = Signal(float, str)
    finished = Signal()


def run_with_progress(
    parent,
    title: str,
    job: Callable[[Callable[[float, str], None]], Any],
    name: str = "export",
    cancellable: bool = True,
) -> Any:
    """Run ``job(progress)`` in a worker thread with a progress dialog (shown when it takes more
    than a moment) and a Cancel button; returns what the job returns.

    ``progress(fraction, text)`` (called by the job, in the worker) moves the bar; once Cancel is
    pressed it raises :class:`Cancelled`, which the job lets through (an export then leaves its
    target untouched: ``planner.exports.output.atomic_write``) and which is raised again here.
    The window keeps painting meanwhile; the dialog is window-modal, so the design cannot change
    under the job. An error of the job is raised again for the caller to report. ``name``: the
    worker thread's; not ``cancellable``: no Cancel button (a save runs to its end).
    """
    dlg = QProgressDialog(title, "Cancel", 0, 100, parent)
    dlg.setWindowTitle("SANplan")
    dlg.setMinimumDuration(400)
    dlg.setAutoClose(False)
    dlg.setAutoReset(False)
    dlg.setWindowModality(Qt.WindowModality.WindowModal)
    if not cancellable:
        dlg.setCancelButton(None)
    cancelled = threading.Event()
    dlg.canceled.connect(cancelled.set)
    bridge, loop, outcome = _Bridge(), QEventLoop(), {}
    queued = Qt.ConnectionType.QueuedConnection  # run in the GUI thread, once its loop runs
    bridge.progressed.connect(lambda fraction, text: _show_progress(dlg, fraction, text), queued)
    bridge.finished.connect(loop.quit, queued)

    def progress(fraction: float, text: str = "") -> None:
        if cancelled.is_set():
            raise Cancelled(f"{title.rstrip('.')}: cancelled")
        bridge.progressed.emit(fraction, text)

    def work() -> None:
        try:
            outcome["result"] = job(progress)
        except BaseException as err:  # handed to the GUI thread, raised again there
            outcome["error"] = err
        finally:
            bridge.finished.emit()

    worker = gui_gc.start_thread(work, name)  # never collects (see app.gui_gc)
    try:
        loop.exec()
        worker.join()
    finally:
        dlg.canceled.disconnect()
        dlg.close()
        dlg.deleteLater()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["result"]


def _show_progress(dlg: QProgressDialog, fraction: float, text: str) -> None:
    if dlg.wasCanceled():
        return
    dlg.setValue(int(max(0.0, min(1.0, fraction)) * 100))
    if text:
        dlg.setLabelText(text)
