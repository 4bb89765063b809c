"""Actions the editor offers on components and on the whole design: one registry.

A :class:`ComponentAction` appears in the context menu of the canvas and of the model tree when
the clicked (selected) components are of one of its ``kinds`` ("New array..." on a subsystem,
"Assign to LPAR..." on HBAs). A :class:`DesignAction` appears in the Design menu ("Place HBAs",
"Zone for the multipath driver", "New LPAR..."). Each module of :mod:`app.actions` registers its
own actions when imported, so a new operation is one module: no window code changes.

An action's ``run`` gets the main window (its ``controller``, ``doc``, ``ask`` and dialogs) and,
for component actions, the selected ids; it changes the design only through the controller or
``doc.run``/``doc.push`` (one undo step) and reports refusals through ``doc.message``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ComponentAction:
    id: str
    title: str  # menu text, "&New array..."
    kinds: tuple[str, ...]  # the kinds of the selected components it applies to
    run: Callable[[Any, list[str]], Any]  # (main window, selected ids)
    tip: str = ""
    order: int = 100  # position in the menu (groups separated every 100)
    many: bool = True  # offered for several selected components at once
    enabled: Callable[[Any, list[str]], bool] | None = None  # (topology, ids) -> offered


@dataclass(frozen=True)
class DesignAction:
    id: str
    title: str
    run: Callable[[Any], Any]  # (main window)
    tip: str = ""
    order: int = 100
    menu: str = ""  # a submenu of Design ("Assistants"), or "" for Design itself
    shortcut: str = ""


_COMPONENT: dict[str, ComponentAction] = {}
_DESIGN: dict[str, DesignAction] = {}


def register(action: ComponentAction | DesignAction) -> ComponentAction | DesignAction:
    """Add an action (an id registered twice is a programming error: ValueError)."""
    table: dict[str, Any] = _COMPONENT if isinstance(action, ComponentAction) else _DESIGN
    if action.id in table:
        raise ValueError(f"action {action.id} is registered twice")
    table[action.id] = action
    return action


def unregister(action_id: str) -> None:
    _COMPONENT.pop(action_id, None)
    _DESIGN.pop(action_id, None)


def component_actions(topo: Any, ids: Sequence[str]) -> list[ComponentAction]:
    """The actions offered for the selected ``ids`` (all of a kind the action takes), in menu order."""
    comps = [topo.get(i) for i in ids]
    if not comps or any(c is None for c in comps):
        return []
    kinds = {c.kind for c in comps}
    out = []
    for a in _COMPONENT.values():
        if not kinds <= set(a.kinds) or (len(comps) > 1 and not a.many):
            continue
        if a.enabled is not None and not a.enabled(topo, list(ids)):
            continue
        out.append(a)
    return sorted(out, key=lambda a: (a.order, a.title))


def design_actions() -> list[DesignAction]:
    """Every Design-menu action, in menu order."""
    return sorted(_DESIGN.values(), key=lambda a: (a.menu, a.order, a.title))
