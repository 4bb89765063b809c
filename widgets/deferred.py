"""Panels that follow ``Document.analysisReady`` but cost time to fill (the paths table, the
charts): :class:`WhenShown` fills them only while they are on screen, and once per analysis.

A panel hidden behind another tab of its dock (or a closed dock) keeps the newest analysis and
fills itself when it is shown; a panel in no shown window (a test's bare widget) fills at once.
The document sends every analysis twice (first without, then with the rules' findings); the
second, with the same result, costs nothing here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QWidget


class WhenShown(QObject):
    """``WhenShown(panel, fill, doc)``: connect it to ``doc.analysisReady`` instead of ``fill``."""

    def __init__(self, panel: QWidget, fill: Callable[[Any], None], doc: Any) -> None:
        super().__init__(panel)
        self.panel, self.fill, self.doc = panel, fill, doc
        self.pending: Any = None
        self.shown_result: Any = None  # the Analysis the panel shows
        panel.installEventFilter(self)

    def __call__(self, bundle: Any) -> None:
        if self.panel.window().isVisible() and not self.panel.isVisible():
            self.pending = bundle
            return
        self.pending = None
        if bundle.result is self.shown_result:
            return
        self.shown_result = bundle.result
        self.fill(bundle)

    def forget(self) -> None:
        """The panel was cleared (a design replaced): the next analysis fills it again."""
        self.pending, self.shown_result = None, None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.panel and event.type() == QEvent.Type.Show and self.pending is not None:
            bundle, self.pending = self.pending, None
            if self.doc.is_current(bundle):
                self(bundle)
        return False
