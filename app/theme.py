"""The look of the editor: the Fusion style with the system, light or dark palette, and the icon."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QColor, QIcon, QPalette
from PySide6.QtWidgets import QApplication


def apply_theme(name: str) -> None:
    """Apply theme ``name`` ("System", "Light" or "Dark") to the running application."""
    app = QApplication.instance()
    if app is None:
        return
    app.setStyle("Fusion")
    if name == "Dark":
        p = QPalette()
        base, window, text = QColor(35, 38, 43), QColor(48, 52, 58), QColor(225, 228, 232)
        for role, color in (
            (QPalette.ColorRole.Window, window),
            (QPalette.ColorRole.Base, base),
            (QPalette.ColorRole.AlternateBase, window),
            (QPalette.ColorRole.Text, text),
            (QPalette.ColorRole.WindowText, text),
            (QPalette.ColorRole.Button, window),
            (QPalette.ColorRole.ButtonText, text),
            (QPalette.ColorRole.ToolTipBase, base),
            (QPalette.ColorRole.ToolTipText, text),
            (QPalette.ColorRole.Highlight, QColor(42, 110, 200)),
            (QPalette.ColorRole.HighlightedText, QColor(255, 255, 255)),
        ):
            p.setColor(role, color)
        app.setPalette(p)
    else:
        app.setPalette(app.style().standardPalette())


def app_icon() -> QIcon:
    """The SANplan icon (empty when the resource is missing)."""
    path = Path(__file__).resolve().parents[1] / "resources" / "icons" / "sanplan.svg"
    return QIcon(str(path)) if path.exists() else QIcon()
