"""The window's first five minutes: the start page, the headline bar over the canvas, Help >
Getting started and the tooltips of the main window's actions.

The central widget is a stack of two pages: the editor (the headline bar above the canvas) and
the start page. ``sanplan`` with no file shows the start page; any change of the design (New,
Open, an example, a part dropped from the palette) leaves it for the editor.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QStackedWidget, QVBoxLayout, QWidget
from shiboken6 import isValid

from app.recent import recent_files
from planner.examples import EXAMPLES
from widgets.headline import HeadlineBar
from widgets.start_page import StartPage

RESOURCES = Path(__file__).resolve().parents[1] / "resources"
GUIDE = RESOURCES / "guide" / "getting-started.html"

#: the main window's actions (attribute names) and what their tooltips say
ACTION_TIPS = {
    "act_new": "Start a new, blank design",
    "act_open": "Open a .sanplan design or a JSON export",
    "act_save": "Save the design (every save is a revision you can restore)",
    "act_save_as": "Save the design in another file",
    "act_revert": "Discard unsaved changes and reopen the saved file",
    "act_revisions": "The saved revisions of this file: compare and restore them",
    "act_quit": "Close SANplan (asks about unsaved changes)",
    "act_undo": "Undo the last change (the Undo history panel lists them all)",
    "act_redo": "Redo the change just undone",
    "act_copy": "Copy the selected components",
    "act_paste": "Paste the copied components",
    "act_duplicate": "Duplicate the selected components",
    "act_delete": "Delete the selected components (with what depends on them)",
    "act_select_all": "Select every box on the canvas",
    "act_fit": "Zoom so the whole design fits the window",
    "act_zoom_in": "Zoom in on the canvas",
    "act_zoom_out": "Zoom out of the canvas",
    "act_expand": "Show the inside of every box (slots, ports, controllers)",
    "act_collapse": "Show every box as a summary",
    "act_relayout": "Forget moved boxes and lay the diagram out again",
    "act_properties": "The design's name, customer and author (on the build sheet)",
    "act_catalog": "Browse the parts and their figures, add your own parts",
    "act_guide": "A short guide: from a blank canvas to an analysed, exported design",
}


def build_central(window: Any) -> QStackedWidget:
    """The window's central widget: the editor page (``window.headline`` over ``window.view``)
    and ``window.start_page``, wired to the window's file operations."""
    stack = QStackedWidget(window)
    editor = QWidget()
    lay = QVBoxLayout(editor)
    lay.setContentsMargins(0, 0, 0, 0)
    lay.setSpacing(0)
    window.headline = HeadlineBar(window.doc)
    lay.addWidget(window.headline)
    lay.addWidget(window.view, 1)
    page = StartPage([(name, desc) for name, (desc, _) in EXAMPLES.items()], recent_files(window.settings))
    page.newRequested.connect(window.file_new)
    page.openRequested.connect(lambda: window.file_open())
    page.exampleRequested.connect(window.open_example)
    page.recentRequested.connect(window.open_recent)
    page.guideRequested.connect(window.show_guide)
    stack.addWidget(editor)
    stack.addWidget(page)
    window.editor_page, window.start_page, window.pages = editor, page, stack
    window.doc.changed.connect(lambda: show_editor(window))
    return stack


def show_start_page(window: Any) -> None:
    """Show the start page (with the recent files as they are now) instead of the editor."""
    window.start_page.set_recent(recent_files(window.settings))
    window.pages.setCurrentWidget(window.start_page)


def show_editor(window: Any) -> None:
    if window.pages.currentWidget() is not window.editor_page:
        window.pages.setCurrentWidget(window.editor_page)


def on_start_page(window: Any) -> bool:
    return window.pages.currentWidget() is window.start_page


def apply_tips(window: Any) -> None:
    """Give every main-window action its tooltip (and status tip); menus show their tooltips."""
    for name, tip in ACTION_TIPS.items():
        action = getattr(window, name, None)
        if action is not None:
            action.setToolTip(tip)
            action.setStatusTip(tip)
    for action, key in ((window.act_undo, "act_undo"), (window.act_redo, "act_redo")):
        _follow_text(action, ACTION_TIPS[key])
    window.direction_box.setToolTip("Analyse the design reading (read) or writing (write)")
    for dock in window.docks.values():
        dock.toggleViewAction().setToolTip(f"Show or hide the {dock.windowTitle()} panel")
    for menu in (window.examples_menu, window.recent_menu, window.export_menu, window.design_menu):
        menu.setToolTipsVisible(True)


def _follow_text(action: Any, idle_tip: str) -> None:
    """Undo and Redo: the tooltip names the change they would act on ("Undo Add subsystem")."""

    def follow() -> None:
        if not isValid(action):  # the window is being destroyed
            return
        text = action.text().replace("&", "")
        tip = text if " " in text else idle_tip  # just "Undo": nothing to undo
        if action.toolTip() != tip:
            action.setToolTip(tip)  # emits changed once more; then the tip is equal

    action.changed.connect(follow)
    follow()


def show_guide(window: Any) -> None:
    """Help > Getting started: the guide in a window of its own (``window.guide_dialog``)."""
    from widgets.guide import GuideDialog

    dialog = getattr(window, "guide_dialog", None)
    if dialog is None:
        try:
            html = GUIDE.read_text(encoding="utf-8")
        except OSError as err:
            window.ask("error", "The guide is missing from this installation", f"{GUIDE}: {err.strerror or err}")
            return
        dialog = GuideDialog(html, GUIDE.parent, window)
        window.guide_dialog = dialog
    dialog.show()
    dialog.raise_()
    dialog.activateWindow()


def follow_options(window: Any) -> None:
    """The toolbar's Figures and Direction show the document's, whatever set them (a script, a
    panel): the boxes are set without asking the document again."""
    if not isValid(window):  # (the window is being destroyed)
        return
    for box, value in ((window.figures_box, window.doc.figures), (window.direction_box, window.doc.direction)):
        if box.currentText() != value:
            box.blockSignals(True)
            box.setCurrentText(value)
            box.blockSignals(False)
