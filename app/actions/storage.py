"""Storage component actions: enclosures and drives, arrays, logical drives, host mappings;
and :func:`ask_drive_count`, the question a new subsystem or enclosure asks.

Dialogs come from :mod:`widgets.dialogs`; OK runs one edit of :mod:`planner.edit_create`
through ``window.doc.run`` (one undo step), see :func:`app.actions.host.open_dialog`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QDialog

from app.actions.host import open_dialog, refuse
from app.actions.registry import ComponentAction, register
from planner import edit
from planner import edit_create as ec
from widgets.dialogs import (
    AddDrivesDialog,
    ArrayDialog,
    DriveCountDialog,
    EnclosureDialog,
    HostMappingDialog,
    LogicalDriveDialog,
)
from widgets.dialogs.base import set_checked

#: the setting that remembers how a new subsystem or enclosure is filled: "empty", "full" or a count
FILL_SETTING = "storage/new_drives"


def _fill(window: Any) -> str:
    settings = getattr(window, "settings", None)
    return str(settings.value(FILL_SETTING, "full")) if settings is not None else "full"


def _remember(window: Any, drives: int, bays: int) -> None:
    settings = getattr(window, "settings", None)
    if settings is not None:
        settings.setValue(FILL_SETTING, "empty" if drives == 0 else "full" if drives == bays else str(drives))


def ask_drive_count(window: Any, part: dict[str, Any], run: Callable[[QDialog], bool] | None = None) -> int | None:
    """How many drives a new ``part`` (a subsystem or enclosure) comes with; None: cancelled.

    The first answer offered is the last one given (``window.settings``: empty, full or a
    count), full the first time. ``run`` shows the dialog and says whether it was accepted
    (default: modal ``exec``); the dialog is ``window.last_dialog`` meanwhile.
    """
    bays = int(part.get("drive_bays", 0))
    if bays <= 0:
        return 0
    fill = _fill(window)
    first = 0 if fill == "empty" else bays if fill == "full" else int(fill) if fill.isdigit() else bays
    dlg = DriveCountDialog(part.get("id", "the new part"), bays, first, window)
    window.last_dialog = dlg
    ok = run(dlg) if run is not None else dlg.exec() == QDialog.DialogCode.Accepted
    if not ok:
        return None
    n = dlg.values()["drives"]
    _remember(window, n, bays)
    return n


# -- enclosures and drives ------------------------------------------------------------------------


def add_enclosure(window: Any, ids: list[str]) -> Any:
    topo, sub = window.doc.topology, ids[0]
    dlg = EnclosureDialog(topo, sub, window.doc.parts, "empty" if _fill(window) == "empty" else "full", window)

    def run(values: dict[str, Any]) -> dict[str, Any]:
        _remember(window, values["drives"], dlg.bays())
        return values

    return open_dialog(window, dlg, edit.add_enclosure, run)


def add_drives(window: Any, ids: list[str]) -> Any:
    topo = window.doc.topology
    comp = topo[ids[0]]
    encs = [comp] if comp.kind == "enclosure" else topo.children(comp.id, "enclosure")
    enc = next((e for e in encs if ec.free_bays(topo, e.id)), None)
    if enc is None:
        where = "enclosure" if comp.kind == "enclosure" else "enclosure of this subsystem"
        return refuse(window, f"no free bay in the {where}: add an enclosure (Add enclosure... on the subsystem)")
    return open_dialog(window, AddDrivesDialog(topo, enc.id, window.doc.parts, window), ec.add_drives)


def remove_drives(window: Any, ids: list[str]) -> Any:
    return window.doc.run(ec.remove_drives, ids)


def replace_drive(window: Any, ids: list[str]) -> Any:
    return window.doc.run(ec.replace_drive, ids[0])


# -- arrays and logical drives ------------------------------------------------------------------------


def new_array(window: Any, ids: list[str]) -> Any:
    topo = window.doc.topology
    first = topo[ids[0]]
    sub = first.id if first.kind == "subsystem" else topo.ancestor(first.id, "subsystem").id
    dlg = ArrayDialog(topo, sub, parent=window)
    if first.kind == "drive":
        set_checked(dlg.drives, ids)
        dlg.refresh()
    return open_dialog(window, dlg, ec.new_array)


def change_array(window: Any, ids: list[str]) -> Any:
    topo = window.doc.topology
    return open_dialog(window, ArrayDialog(topo, topo[ids[0]].parent, ids[0], window), ec.change_array)


def new_logical_drive(window: Any, ids: list[str]) -> Any:
    return open_dialog(window, LogicalDriveDialog(window.doc.topology, ids[0], window), ec.new_logical_drive)


# -- host mappings ------------------------------------------------------------------------------------


def new_host_mapping(window: Any, ids: list[str]) -> Any:
    return open_dialog(window, HostMappingDialog(window.doc.topology, ids[0], parent=window), ec.set_host_mapping)


def edit_host_mapping(window: Any, ids: list[str]) -> Any:
    topo = window.doc.topology
    dlg = HostMappingDialog(topo, topo[ids[0]].parent, ids[0], window)
    return open_dialog(window, dlg, ec.set_host_mapping)


def _one_subsystem(topo: Any, ids: list[str]) -> bool:
    return len({getattr(topo.ancestor(i, "subsystem"), "id", None) for i in ids}) == 1


for _action in (
    ComponentAction(
        "add-enclosure",
        "Add &enclosure...",
        ("subsystem",),
        add_enclosure,
        "an expansion enclosure (EXP700) with empty or full bays",
        100,
        many=False,
    ),
    ComponentAction(
        "add-drives", "Add &drives...", ("enclosure", "subsystem"), add_drives, "drives into free bays", 110, many=False
    ),
    ComponentAction("remove-drive", "&Remove drive", ("drive",), remove_drives, "take drives in no array out", 120),
    ComponentAction(
        "replace-drive",
        "Re&place drive",
        ("drive",),
        replace_drive,
        "a failed drive: a new drive of the same part in the same bay; the array rebuilds onto it",
        120,
        many=False,
    ),
    ComponentAction(
        "new-array", "New &array...", ("subsystem",), new_array, "a RAID array from free drives", 200, many=False
    ),
    ComponentAction(
        "new-array-drives",
        "New &array from these drives...",
        ("drive",),
        new_array,
        "a RAID array of the selected drives",
        200,
        enabled=_one_subsystem,
    ),
    ComponentAction(
        "change-array",
        "Change &array...",
        ("array",),
        change_array,
        "RAID level, drives, segment size",
        200,
        many=False,
    ),
    ComponentAction(
        "new-logical-drive",
        "New logical &drive...",
        ("array",),
        new_logical_drive,
        "a LUN on this array",
        210,
        many=False,
    ),
    ComponentAction(
        "new-host-mapping",
        "New &host mapping...",
        ("subsystem",),
        new_host_mapping,
        "a storage partition: HBA ports x logical drives with LUN numbers",
        300,
        many=False,
    ),
    ComponentAction(
        "edit-host-mapping",
        "&Edit mapping...",
        ("host_mapping",),
        edit_host_mapping,
        "HBA ports, logical drives and LUN numbers of this mapping",
        300,
        many=False,
    ),
):
    register(_action)
