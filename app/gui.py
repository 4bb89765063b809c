"""Starting the editor: ``sanplan`` / ``sanplan gui [FILE]``."""

from __future__ import annotations

import sys
from pathlib import Path


def create_window(file: str | None = None, example: str | None = None, offer_recovery: bool = True):
    """Create the QApplication (if needed) and the main window, opened on FILE or an example;
    with neither (and no unsaved work to recover), the window shows its start page."""
    from PySide6.QtWidgets import QApplication

    from app.mainwindow import MainWindow, settings
    from app.theme import app_icon, apply_theme
    from catalogs.catalog import Catalog

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("SANplan")
    app.setOrganizationName("SANplan")
    app.setWindowIcon(app_icon())
    apply_theme(str(settings().value("theme", "System")))
    window = MainWindow(Catalog.default())
    recovered = window.offer_recovery() if offer_recovery else False
    if not recovered:
        if file:
            window.open_path(Path(file))
        elif example:
            window.open_example(example)
        else:
            window.show_start_page()
    return app, window


def run_gui(file: str | None = None) -> int:
    app, window = create_window(file)
    window.show()
    window.view.zoom_to_fit()
    return app.exec()
