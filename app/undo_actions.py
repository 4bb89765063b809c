"""The window's Undo and Redo actions, and their buttons on the toolbar."""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence, QUndoStack
from PySide6.QtWidgets import QStyle, QToolBar, QToolButton, QWidget


def undo_actions(window: QWidget, stack: QUndoStack) -> tuple[QAction, QAction]:
    """Undo and Redo, made by ``stack`` (their text names the edit: "Undo Delete s8.p690"),
    with their shortcuts and icons: the Edit menu's."""
    keys, icons = QKeySequence.StandardKey, QStyle.StandardPixmap
    undo, redo = stack.createUndoAction(window, "&Undo"), stack.createRedoAction(window, "&Redo")
    for act, key, icon in ((undo, keys.Undo, icons.SP_ArrowBack), (redo, keys.Redo, icons.SP_ArrowForward)):
        act.setShortcut(QKeySequence(key))
        act.setIcon(window.style().standardIcon(icon))
    return undo, redo


def toolbar_buttons(toolbar: QToolBar, *actions: QAction) -> list[QToolButton]:
    """Add a button to ``toolbar`` for each of ``actions``: it triggers the action and is enabled
    with it, but is not bound to it. A tool button bound to an action is set up again at any
    change of the action (the undo stack renames its actions at each edit and enables them at
    the ends of the history), its icon set again, which resizes it, and its toolbar then had
    the whole window laid out again, every dock with it: 11-14 ms of the turn after each edit
    or undo on the 16x site with every panel showing (found with an event filter on the
    application)."""
    buttons = []
    for act in actions:
        word = act.text().replace("&", "")
        button = QToolButton(toolbar)
        button.setObjectName(f"{word}Button")
        button.setAccessibleName(word)
        button.setIcon(act.icon())
        button.setIconSize(toolbar.iconSize())
        toolbar.iconSizeChanged.connect(button.setIconSize)
        button.setAutoRaise(True)
        tip = f"{word} the last edit ({act.shortcut().toString(QKeySequence.SequenceFormat.NativeText)})"
        button.setToolTip(tip)
        held = toolbar.addWidget(button)
        held.setText(word)
        held.setToolTip(tip)  # (each change of ``held`` enables its button as ``held`` is: first)
        button.setEnabled(act.isEnabled())
        button.clicked.connect(act.trigger)
        act.enabledChanged.connect(button.setEnabled)
        buttons.append(button)
    return buttons
