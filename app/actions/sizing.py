"""Design > Size to a target...: the smallest design that meets a target (:mod:`planner.sizing`),
opened as a new scenario of the open design (one undo step) or as a new design.
Design > Grow...: the fewest parts that take the open design to a higher target
(:mod:`planner.grow`), added as a new scenario (one undo step)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from app.actions.registry import DesignAction, register
from planner.analysis import analyze
from planner.grow import GrowthError, grow
from planner.io.project import AddScenario, Project
from planner.naming import counted
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
        f"Sized: {counted(result.counts.drawers, 'drawer')}, {counted(result.counts.hbas, 'HBA')}, "
        f"{counted(result.counts.subsystems, 'subsystem')}; the analysis gives {a.aggregate:,.0f} MB/s ({result.figures}). {result.limit}"
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


def open_grown(window: Any, values: dict[str, Any]) -> str | None:
    """Grow the current scenario with ``values`` into a new scenario, made current; None when done,
    else the reason (shown in the dialog)."""
    doc = window.doc
    values = dict(values)
    name = values.pop("name", "") or ""
    try:
        result = grow(doc.topology, parts=doc.parts, **values)
    except GrowthError as err:
        return str(err)
    want = result.topology.meta["name"].split(" grown to ")[-1]
    cmd = AddScenario(name or _free_name(doc.project, f"Grown to {want}"), make_current=True)
    cmd.topology = result.topology  # the grown copy: the current scenario itself is not touched
    if not doc.push_project(cmd):
        return doc.last_refusal or "the scenario could not be added"
    c, a = result.candidate, result.analysis
    doc.message.emit(
        f"Grown: added {counted(c.drawers, 'drawer')}, {counted(c.hbas, 'HBA')}, {counted(c.subsystems, 'subsystem')}, {counted(c.switches, 'switch')}; "
        f"the analysis gives {a.aggregate:,.0f} MB/s ({result.figures}). {result.limit}"
    )
    window.last_growth = result
    return None


def grow_design(window: Any, dialog_factory: Callable[..., Any] | None = None) -> Any:
    """Open the growth dialog non-modally (``window.last_dialog``); OK grows into a new scenario."""
    if dialog_factory is None:
        from widgets.dialogs.growth import GrowDialog as dialog_factory
    doc = window.doc
    dlg = dialog_factory(doc.topology, doc.parts, list(doc.project.scenarios), window)
    now = analyze(doc.topology, "planning", "read", cross_check=False).aggregate
    dlg.read.setValue(max(150.0, math.ceil(now * 1.25 / 100) * 100))
    dlg.on_ok = lambda values: open_grown(window, values)
    window.last_dialog = dlg
    dlg.open()
    return dlg


register(
    DesignAction(
        "grow-design",
        "&Grow to a higher target...",
        grow_design,
        tip="Add the fewest parts (HBAs in free slots, drawers, subsystems, switches) to reach a higher target, "
        "as a new scenario; everything that exists stays as it is",
        order=51,
    )
)
