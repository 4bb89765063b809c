"""The menus built from the action registry: the Design menu and a component context menu."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QMenu


def fill_design_menu(window: Any, menu: QMenu) -> None:
    """The Design menu's registered actions (:mod:`app.actions`), submenus by ``menu``."""
    from app.actions import design_actions

    subs: dict[str, QMenu] = {}
    last_group = None
    for a in design_actions():
        target = menu if not a.menu else subs.setdefault(a.menu, menu.addMenu(a.menu))
        group = (a.menu, a.order // 100)
        if last_group is not None and group != last_group and group[0] == last_group[0]:
            target.addSeparator()
        last_group = group
        act = target.addAction(a.title, lambda a=a: a.run(window))
        act.setObjectName(f"action-{a.id}")
        if a.tip:
            act.setToolTip(a.tip)
            act.setStatusTip(a.tip)
        if a.shortcut:
            act.setShortcut(QKeySequence(a.shortcut))
    menu.setToolTipsVisible(True)


def fill_component_menu(window: Any, menu: QMenu, ids: list[str]) -> None:
    """Add the registered actions (:mod:`app.actions`) for the components ``ids`` to ``menu``."""
    from app.actions import component_actions

    actions = component_actions(window.doc.topology, ids)
    last = None
    for a in actions:
        if last is not None and a.order // 100 != last:
            menu.addSeparator()
        last = a.order // 100
        act = menu.addAction(a.title, lambda a=a: a.run(window, list(ids)))
        act.setObjectName(f"action-{a.id}")
        if a.tip:
            act.setToolTip(a.tip)
    if actions:
        menu.addSeparator()
    menu.setToolTipsVisible(True)
