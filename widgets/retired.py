"""What a panel no longer shows, emptied a slice of each turn of the event loop.

A panel that shows a new design starts from a new item model or graphics scene rather than
emptying the one it showed: the 16x site's outline after a search (12,123 rows built) took
38-52 ms to remove at once, and its Racks panel's 5,040 items 10-25 ms to clear, in the turn
that showed another scenario. The old model or scene, detached from every view, is handed to
:class:`Retired`, which deletes its contents a few at a time (a model's rows with nothing below
them, the last rows of its deepest last branch first; a scene's top-level items with the items
inside them) and then the model or scene itself.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene

from widgets import slice_budget


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


def _model_steps(model: QStandardItemModel) -> Iterator[None]:
    while delete_last_rows(model):
        yield
    model.deleteLater()


def _scene_steps(scene: QGraphicsScene, tops: list[QGraphicsItem]) -> Iterator[None]:
    while tops:
        item = tops.pop()
        if item.scene() is scene:
            scene.removeItem(item)  # (its Python side owns it again: deleted with it below)
        del item
        yield
    scene.clear()  # (what was not in ``tops``: a few items at most)
    scene.deleteLater()


class Retired(QObject):
    """Empties the models and scenes it is given (:meth:`add_model`, :meth:`add_scene`),
    ``slice_s`` of each turn, oldest first, then deletes them."""

    def __init__(self, parent: QObject, slice_s: float) -> None:
        super().__init__(parent)
        self.slice_s = slice_s
        self.pending: list[Iterator[None]] = []  # what is still to empty, oldest first
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self.empty_slice)

    def add_model(self, model: QStandardItemModel) -> None:
        self._add(_model_steps(model))

    def add_scene(self, scene: QGraphicsScene, tops: list[QGraphicsItem]) -> None:
        """``scene`` and its top-level items ``tops`` (the list is emptied)."""
        self._add(_scene_steps(scene, tops))

    def _add(self, steps: Iterator[None]) -> None:
        self.pending.append(steps)
        self.timer.start(1)

    def empty_slice(self) -> None:
        until = slice_budget.until(self.slice_s)  # (what the slices before it in this turn left)
        if until is None:
            self.timer.start(1)
            return
        try:
            while self.pending:
                for _ in self.pending[0]:
                    if time.perf_counter() >= until:
                        self.timer.start(1)
                        return
                self.pending.pop(0)
        finally:
            slice_budget.ended()
