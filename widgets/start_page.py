"""The start page: what ``sanplan`` shows when it starts with no file.

New blank design, Open..., the bundled examples (each with its description), the recent files
and the Getting started guide. The page emits intent only; the main window opens the design and
leaves the page for the editor.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QCommandLinkButton,
    QFrame,
    QGridLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)


class StartPage(QScrollArea):
    """The first screen. ``examples`` are (name, description) pairs; ``recent`` are file paths.

    Signals: ``newRequested()``, ``openRequested()``, ``exampleRequested(str name)``,
    ``recentRequested(str path)``, ``guideRequested()``. Public buttons for tests and scripts:
    ``new_button``, ``open_button``, ``guide_button``, ``example_buttons`` (name -> button),
    ``recent_buttons`` (path -> button).
    """

    newRequested = Signal()
    openRequested = Signal()
    exampleRequested = Signal(str)
    recentRequested = Signal(str)
    guideRequested = Signal()

    def __init__(
        self, examples: Sequence[tuple[str, str]], recent: Sequence[str] = (), parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("StartPage")
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        body = QWidget()
        body.setObjectName("StartPageBody")
        self.setWidget(body)
        outer = QVBoxLayout(body)
        outer.setContentsMargins(48, 32, 48, 32)
        outer.addWidget(_heading("SANplan", 2.2))
        intro = QLabel(
            "Plan a server-to-storage design: place the server, its I/O drawers and HBAs, the SAN switches "
            "and the disk subsystems, cable them, and see the MB/s every path gets and the hop that binds it."
        )
        intro.setWordWrap(True)
        outer.addWidget(intro)
        grid = QGridLayout()
        grid.setHorizontalSpacing(40)
        grid.setVerticalSpacing(12)
        outer.addLayout(grid)
        outer.addStretch(1)

        start = self._column(grid, 0, 0, "Start")
        self.new_button = _link("New blank design", "An empty canvas: drag parts onto it from the Parts panel")
        self.new_button.clicked.connect(self.newRequested)
        self.open_button = _link("Open...", "A .sanplan design or a JSON export")
        self.open_button.clicked.connect(self.openRequested)
        self.guide_button = _link("Getting started", "A short guide: from a blank canvas to an analysed design")
        self.guide_button.clicked.connect(self.guideRequested)
        for b in (self.new_button, self.open_button, self.guide_button):
            start.addWidget(b)

        ex = self._column(grid, 0, 1, "Examples from the P690 Redpaper")
        self.example_buttons: dict[str, QCommandLinkButton] = {}
        for name, description in examples:
            b = _link(name, description[:1].upper() + description[1:])
            b.clicked.connect(lambda _=False, n=name: self.exampleRequested.emit(n))
            self.example_buttons[name] = b
            ex.addWidget(b)
        ex.addStretch(1)

        self._recent_box = self._column(grid, 2, 0, "Recent files")
        self.recent_buttons: dict[str, QCommandLinkButton] = {}
        self.no_recent = QLabel("No recent files yet.")
        self.no_recent.setEnabled(False)
        self._recent_box.addWidget(self.no_recent)
        self.set_recent(recent)

    def _column(self, grid: QGridLayout, row: int, col: int, title: str) -> QVBoxLayout:
        """A heading at (row, col) of ``grid`` with a box of buttons under it."""
        grid.addWidget(_heading(title, 1.3), row, col, Qt.AlignmentFlag.AlignTop)
        box = QVBoxLayout()
        box.setSpacing(2)
        grid.addLayout(box, row + 1, col, Qt.AlignmentFlag.AlignTop)
        grid.setColumnStretch(col, 1)
        return box

    def set_recent(self, paths: Sequence[str]) -> None:
        """Show ``paths`` (newest first); a file that is gone is shown disabled."""
        for b in self.recent_buttons.values():
            self._recent_box.removeWidget(b)
            b.deleteLater()
        self.recent_buttons = {}
        for i, path in enumerate(paths):
            p = Path(path)
            exists = os.path.exists(path)
            b = _link(p.name, str(p.parent) if exists else f"{p.parent} (no longer there)")
            b.setToolTip(path)
            b.setEnabled(exists)
            b.clicked.connect(lambda _=False, x=path: self.recentRequested.emit(x))
            self._recent_box.insertWidget(i, b)
            self.recent_buttons[path] = b
        self.no_recent.setVisible(not paths)


def _heading(text: str, scale: float) -> QLabel:
    label = QLabel(text)
    font = QFont(label.font())
    font.setPointSizeF(font.pointSizeF() * scale)
    font.setBold(True)
    label.setFont(font)
    return label


def _link(title: str, description: str) -> QCommandLinkButton:
    b = QCommandLinkButton(title, description)
    b.setToolTip(description)
    b.setMinimumWidth(200)
    return b
