"""Starting the editor: ``sanplan`` / ``sanplan gui [FILE]``."""

from __future__ import annotations

import os
import sys
from pathlib import Path

# Set in the environment of ``sanplan`` (the bundle's executable) to make it only try to create
# the QApplication: the probe that the display can take a window (see app.cli._gui_available).
PROBE_ENV = "SANPLAN_QT_PROBE"
PROBE_CODE = "from PySide6.QtWidgets import QApplication; QApplication([])"


def probe_command() -> list[str]:
    """The child process that tries Qt: ``python -c`` from source, the executable itself in a bundle."""
    if getattr(sys, "frozen", False):
        return [sys.executable]
    return [sys.executable, "-c", PROBE_CODE]


def probe_env() -> dict[str, str]:
    return {**os.environ, PROBE_ENV: "1"}


def run_probe() -> None:
    """The bundle's entry point calls this first: with PROBE_ENV set, try Qt and exit."""
    if os.environ.get(PROBE_ENV):
        exec(PROBE_CODE)
        sys.exit(0)


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


def run_gui(file: str | None = None, quit_after_ms: int | None = None) -> int:
    """Show the editor until the user quits; with quit_after_ms (a check that it starts), close it
    after that many milliseconds without asking about unsaved work."""
    quit_now: list[bool] = []
    if quit_after_ms is not None:  # (armed first: a message at startup, a file that cannot be
        from PySide6.QtCore import QTimer  # opened, is left by it too, never waited on)
        from PySide6.QtWidgets import QApplication

        QApplication.instance() or QApplication(sys.argv[:1])
        QTimer.singleShot(max(0, quit_after_ms), lambda: quit_now.append(True) or QApplication.exit(0))
    app, window = create_window(file, offer_recovery=quit_after_ms is None)
    window.show()
    window.view.zoom_to_fit()
    if quit_after_ms is not None:
        code = 0 if quit_now else app.exec()  # (every event loop left: none to run again)
        shown = window.windowTitle().replace("[*]", "*" if window.isWindowModified() else "")  # (as its title bar)
        print(f"sanplan: the editor opened ({shown}) and quit after {quit_after_ms} ms")
        return code
    return app.exec()
