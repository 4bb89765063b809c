"""Server-side component actions: LPARs, their HBAs, and the AIX LVM on an LPAR (hdisks,
volume groups, logical volumes, workloads).

Each action opens a dialog from :mod:`widgets.dialogs` with :func:`open_dialog` (non-modal,
kept as ``window.last_dialog`` so tests can fill it and press OK) and runs the edit of
:mod:`planner.edit_create` as one undo step through ``window.doc.run``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.actions.registry import ComponentAction, DesignAction, register
from planner import edit_create as ec
from widgets.dialogs import (
    AssignLparDialog,
    LogicalVolumeDialog,
    LparDialog,
    LparHbasDialog,
    VolumeGroupDialog,
    WorkloadDialog,
)


def open_dialog(window: Any, dlg: Any, op: Callable[..., Any], adapt: Callable[[dict], dict] | None = None) -> Any:
    """Show ``dlg`` (a FormDialog) non-modally; its OK runs ``op(topology, **values)`` as one
    undo step. A refusal keeps the dialog open with the reason. Returns the dialog."""

    def ok(values: dict[str, Any]) -> str | None:
        kwargs = adapt(values) if adapt else values
        if window.doc.run(op, **kwargs) is not None:
            return None
        return window.doc.last_refusal or "the design refused this edit"

    dlg.on_ok = ok
    window.last_dialog = dlg
    dlg.open()
    return dlg


def refuse(window: Any, text: str) -> None:
    """Tell the user why an action cannot run (status bar)."""
    window.doc.last_refusal = text
    window.doc.message.emit(text)


# -- LPARs ----------------------------------------------------------------------------------------


def new_lpar(window: Any, ids: list[str]) -> Any:
    return open_dialog(window, LparDialog(window.doc.topology, ids[0], window), ec.new_lpar)


def new_lpar_in_design(window: Any) -> Any:
    """Design > New LPAR...: on the selected server (or the one a selected part is in), else the first."""
    topo = window.doc.topology
    for cid in getattr(window.doc, "selection", []):
        server = topo.get(cid) if topo.get(cid) and topo[cid].kind == "server" else topo.ancestor(cid, "server")
        if server is not None:
            return new_lpar(window, [server.id])
    servers = topo.of_kind("server")
    if not servers:
        return refuse(window, "an LPAR goes on a server: drag a p690 from Parts onto the canvas first")
    return new_lpar(window, [servers[0].id])


def _hbas_of(topo: Any, ids: list[str]) -> list[str]:
    """HBAs selected, or held by the selected slots."""
    out = []
    for cid in ids:
        comp = topo.get(cid)
        if comp is not None and comp.kind == "slot":
            out += [h.id for h in topo.children(cid, "hba")]
        elif comp is not None:
            out.append(cid)
    return out


def assign_to_lpar(window: Any, ids: list[str]) -> Any:
    hbas = _hbas_of(window.doc.topology, ids)
    return open_dialog(window, AssignLparDialog(window.doc.topology, hbas, window), ec.assign_hbas)


def lpar_hbas(window: Any, ids: list[str]) -> Any:
    return open_dialog(window, LparHbasDialog(window.doc.topology, ids[0], window), ec.set_lpar_hbas)


def _slots_hold_hbas(topo: Any, ids: list[str]) -> bool:
    return all(topo[c].kind != "slot" or topo.children(c, "hba") for c in ids)


# -- AIX LVM --------------------------------------------------------------------------------------


def create_hdisks(window: Any, ids: list[str]) -> Any:
    """One hdisk per mapped logical drive of the LPAR that has none; refused with the reason."""
    return window.doc.run(ec.create_hdisks, ids[0])


def new_volume_group(window: Any, ids: list[str]) -> Any:
    return open_dialog(window, VolumeGroupDialog(window.doc.topology, ids[0], window), ec.new_volume_group)


def new_logical_volume(window: Any, ids: list[str]) -> Any:
    return open_dialog(window, LogicalVolumeDialog(window.doc.topology, ids[0], window), ec.new_logical_volume)


def new_workload(window: Any, ids: list[str]) -> Any:
    return open_dialog(window, WorkloadDialog(window.doc.topology, ids[0], window), ec.new_workload)


for _action in (
    ComponentAction(
        "new-lpar", "New &LPAR...", ("server",), new_lpar, "a logical partition of this server", 100, many=False
    ),
    ComponentAction(
        "assign-lpar",
        "Assign to &LPAR...",
        ("hba", "slot"),
        assign_to_lpar,
        "give the selected HBAs to an LPAR",
        110,
        enabled=_slots_hold_hbas,
    ),
    ComponentAction(
        "lpar-hbas", "Assign &HBAs...", ("lpar",), lpar_hbas, "pick the HBAs this LPAR owns", 110, many=False
    ),
    ComponentAction(
        "create-hdisks",
        "Create &hdisks",
        ("lpar",),
        create_hdisks,
        "one hdisk per logical drive mapped to this LPAR's HBAs (cfgmgr)",
        200,
        many=False,
    ),
    ComponentAction(
        "new-vg", "New &volume group...", ("lpar",), new_volume_group, "mkvg on free hdisks", 210, many=False
    ),
    ComponentAction(
        "new-lv", "New &logical volume...", ("volume_group",), new_logical_volume, "mklv in this VG", 210, many=False
    ),
    ComponentAction(
        "new-workload",
        "New &workload...",
        ("logical_volume",),
        new_workload,
        "the I/O profile of the application on this LV",
        220,
        many=False,
    ),
    DesignAction("design-new-lpar", "New &LPAR...", new_lpar_in_design, "a logical partition of the server", 300),
):
    register(_action)
