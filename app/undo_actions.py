"""The window's Undo and Redo actions, and their twins on the toolbar."""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence, QUndoStack
from PySide6.QtWidgets import QStyle, QWidget


def undo_actions(window: QWidget, stack: QUndoStack) -> tuple[QAction, QAction]:
    """Undo and Redo, made by ``stack`` (their text names the edit: "Undo Delete s8.p690"),
    with their shortcuts and icons: the Edit menu's."""
    keys, icons = QKeySequence.StandardKey, QStyle.StandardPixmap
    undo, redo = stack.createUndoAction(window, "&Undo"), stack.createRedoAction(window, "&Redo")
    for act, key, icon in ((undo, keys.Undo, icons.SP_ArrowBack), (redo, keys.Redo, icons.SP_ArrowForward)):
        act.setShortcut(QKeySequence(key))
        act.setIcon(window.style().standardIcon(icon))
    return undo, redo


def toolbar_twins(window: QWidget, *actions: QAction) -> list[QAction]:
    """For the toolbar: an action that triggers each of ``actions`` and is enabled with it, but
    keeps its text. Any change of a tool button's action (the undo stack renames its actions at
    each edit) sets the button's icon again, which resizes it, and its toolbar then has the
    whole window laid out again, every dock with it: 11-14 ms of the turn after each edit or
    undo on the 16x site with every panel showing (found with an event filter on the
    application). Only a change of enabled state (the first edit, the last undo) still does."""
    twins = []
    for act in actions:
        word = act.text().replace("&", "")
        twin = QAction(act.icon(), word, window)
        twin.setToolTip(f"{word} the last edit ({act.shortcut().toString(QKeySequence.SequenceFormat.NativeText)})")
        twin.setEnabled(act.isEnabled())
        twin.triggered.connect(act.trigger)
        act.enabledChanged.connect(twin.setEnabled)
        twins.append(twin)
    return twins
