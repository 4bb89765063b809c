"""Item models no longer shown, emptied a few rows a turn of the event loop.

A panel that shows a new design starts from a new model rather than removing every row of the
one it showed: the 16x site's outline after a search (12,123 rows built) took 38-52 ms to
remove at once, in the turn that showed another scenario. The old model, detached from every
view, is handed to :class:`RetiredModels`, which deletes its rows for a slice of each turn,
rows with nothing below them only (the last rows of its deepest last branch), and then the
model itself.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QStandardItemModel


def delete_last_rows(model: QStandardItemModel, most: int = 256) -> bool:
    """Delete up to ``most`` rows of ``model`` (detached from every view) with nothing below
    them, from the end of its deepest last branch; False once it is empty."""
    item = model.invisibleRootItem()
    if not item.rowCount():
        return False
    while item.child(item.rowCount() - 1).rowCount():
        item = item.child(item.rowCount() - 1)
    n = item.rowCount()
    k = 1
    while k < min(n, most) and not item.child(n - k - 1).rowCount():
        k += 1
    item.removeRows(n - k, k)
    return True


class RetiredModels(QObject):
    """Empties the models it is given (:meth:`add`), ``slice_s`` of each turn, oldest first,
    then deletes them."""

    def __init__(self, parent: QObject, slice_s: float) -> None:
        super().__init__(parent)
        self.slice_s = slice_s
        self.models: list[QStandardItemModel] = []  # still to empty, oldest first
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self.empty_slice)

    def add(self, model: QStandardItemModel) -> None:
        self.models.append(model)
        self.timer.start(1)

    def empty_slice(self) -> None:
        until = time.perf_counter() + self.slice_s
        while self.models:
            model = self.models[0]
            while delete_last_rows(model):
                if time.perf_counter() >= until:
                    self.timer.start(1)
                    return
            self.models.pop(0)
            model.deleteLater()
