"""Help > Getting started: the in-app guide, a non-modal window of rich text."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget


class GuideDialog(QDialog):
    """Shows an HTML guide (``html``); relative links and images resolve in ``folder``.

    Public: ``browser`` (the QTextBrowser). Non-modal: open it with ``show()``.
    """

    def __init__(self, html: str, folder: Path | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("GuideDialog")
        self.setWindowTitle("Getting started with SANplan")
        self.setWindowFlag(Qt.WindowType.WindowContextHelpButtonHint, False)
        self.resize(720, 760)
        lay = QVBoxLayout(self)
        self.browser = QTextBrowser()
        self.browser.setOpenExternalLinks(True)
        if folder is not None:
            self.browser.setSearchPaths([str(folder)])
        self.browser.setHtml(html)
        lay.addWidget(self.browser)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        lay.addWidget(buttons)
