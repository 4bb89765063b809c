"""Design > Size to a target...: the smallest design that meets a target (:mod:`planner.sizing`),
opened as a new scenario of the open design (one undo step) or as a new design."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.actions.registry import DesignAction, register
from planner.io.project import AddScenario, Project
from planner.sizing import SizingError, size


def _free_name(project: Any, base: str) -> str:
    name, n = base, 2
    while name in project.scenarios:
        name, n = f"{base} {n}", n + 1
    return name


def open_sized(window: Any, values: dict[str, Any], destination: str) -> str | None:
    """Size with ``values`` and show the result; None when done, else the reason (shown)."""
    doc = window.doc
    try:
        result = size(parts=doc.parts, **values)
    except SizingError as err:
        return str(err)
    topo = result.topology
    if destination == "design":
        doc.replace_project(Project.single(topo), None)
    else:
        cmd = AddScenario(_free_name(doc.project, topo.meta["name"]), make_current=True)
        cmd.topology = topo  # the sized design, not a copy of the current one
        if not doc.push_project(cmd):
            return doc.last_refusal or "the scenario could not be added"
    a = result.analysis
    doc.message.emit(
        f"Sized: {result.counts.drawers} drawer(s), {result.counts.hbas} HBA(s), {result.counts.subsystems} "
        f"subsystem(s); the analysis gives {a.aggregate:,.0f} MB/s ({result.figures}). {result.limit}"
    )
    window.last_sizing = result
    return None


def size_to_target(window: Any, dialog_factory: Callable[..., Any] | None = None) -> Any:
    """Open the sizing dialog non-modally (``window.last_dialog``); OK sizes and opens the design."""
    if dialog_factory is None:
        from widgets.dialogs.sizing import SizingDialog as dialog_factory
    dlg = dialog_factory(window.doc.topology, window.doc.parts, window)
    dlg.on_ok = lambda values: open_sized(window, values, dlg.destination())
    window.last_dialog = dlg
    dlg.open()
    return dlg


register(
    DesignAction(
        "size-to-target",
        "Si&ze to a target...",
        size_to_target,
        tip="The smallest design that meets a read/write target, in the P690 paper's sizing steps, proved by analysis",
        order=50,
    )
)
