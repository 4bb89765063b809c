"""Style sheets set on widgets that change often (the status bar, the headline)."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget


def set_style_sheet(widget: QWidget, sheet: str) -> None:
    """Give ``widget`` the style sheet ``sheet`` unless it has it already: setting one polishes
    the widget again and lays out its parent (3-7 ms for a label of the status bar or the
    headline on the 16x site's window, with every analysis or step of progress)."""
    if widget.styleSheet() != sheet:
        widget.setStyleSheet(sheet)
