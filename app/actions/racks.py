"""Design > Racks (Add site..., Add rack..., Rack everything) and the Racks panel's wiring.

The panel (:class:`widgets.rack_elevation.RackElevationPanel`) emits intent; each request becomes
one undoable command through ``window.doc.run`` with the operations of
:mod:`planner.edit_place` (a refusal is shown by the document's message, nothing changes).
Questions (a name, a height) go through ``window.ask("text", ...)``, which tests replace.
"""

from __future__ import annotations

from typing import Any

from app.actions.assist import run_assistant
from app.actions.registry import ComponentAction, DesignAction, register
from planner import edit_place, placement
from planner.assist.racks import RACK_U, rack_everything

MENU = "Racks"


def _ask(window: Any, question: str, default: str) -> str | None:
    answer = window.ask("text", question, default)
    return None if answer in (None, "") else str(answer).strip()


def add_site(window: Any) -> Any:
    """Ask for a name and add a site."""
    topo = window.doc.topology
    name = _ask(window, "Name of the new site (a building or computer room):", f"Site {len(topo.of_kind('site')) + 1}")
    if name is None:
        return None
    return window.doc.run(edit_place.add_site, name)


def _site_of_selection(window: Any) -> str | None:
    topo = window.doc.topology
    for cid in window.doc.selection:
        comp = topo.get(cid)
        if comp is not None and comp.kind in ("site", "rack"):
            return comp.id if comp.kind == "site" else comp.parent
    sites = topo.of_kind("site")
    return sites[0].id if sites else None


def add_rack(window: Any, site: str | None = None) -> Any:
    """Ask for a name and a height and add a rack to ``site`` (the selected or the first site)."""
    topo = window.doc.topology
    site = site or _site_of_selection(window)
    if site is None:
        window.doc.message.emit("Add rack: add a site first (Design > Racks > Add site...)")
        return None
    count = len(topo.children(site, "rack"))
    name = _ask(window, f"Name of the new rack in {topo[site].label()}:", f"R{count + 1}")
    if name is None:
        return None
    height = _ask(window, f"Height of {name} in rack units (U):", str(RACK_U))
    if height is None:
        return None
    try:
        units = int(height)
    except ValueError:
        window.doc.message.emit(f"Add rack: {height!r} is not a whole number of rack units (42 is usual)")
        return None
    row = next((r["row"] for r in reversed(topo.children(site, "rack"))), "A")
    return window.doc.run(edit_place.add_rack, site, name, units, row)


def rename(window: Any, cid: str) -> Any:
    comp = window.doc.topology.get(cid)
    if comp is None:
        return None
    name = _ask(window, f"New name of {comp.kind} {comp.label()}:", comp.name)
    return None if name is None else window.doc.run(edit_place.rename, cid, name)


def rack_all(window: Any) -> Any:
    return run_assistant(window, "Rack everything", rack_everything)


def attach_racks(window: Any) -> Any:
    """Make the Racks panel, dock it beside the bottom panels and turn its intent into commands."""
    from PySide6.QtCore import Qt

    from widgets.rack_elevation import RackElevationPanel

    doc = window.doc
    panel = RackElevationPanel(doc)
    window.racks = panel
    dock = window._dock("Racks", panel, Qt.DockWidgetArea.BottomDockWidgetArea, "RacksDock")
    window.docks["racks"] = dock
    window.tabifyDockWidget(window.docks["charts"], dock)
    panel.placeRequested.connect(lambda cid, rack, u, face: doc.run(edit_place.place, cid, rack, u, face))
    panel.unplaceRequested.connect(lambda cid: doc.run(edit_place.unplace, cid))
    panel.addSiteRequested.connect(lambda: add_site(window))
    panel.addRackRequested.connect(lambda site: add_rack(window, site))
    panel.renameRequested.connect(lambda cid: rename(window, cid))
    panel.deleteRequested.connect(lambda cid: doc.run(edit_place.delete_place, cid))
    panel.unitClicked.connect(lambda cid: doc.select([cid]))
    return panel


for _order, (_id, _title, _run, _tip) in enumerate(
    (
        ("add-site", "Add &site...", add_site, "A building or computer room that holds racks"),
        ("add-rack", "Add &rack...", add_rack, "A rack in the selected (or first) site"),
        ("rack-everything", "Rack &everything", rack_all, "Mount every unplaced unit: frames, switches, storage"),
    )
):
    register(DesignAction(f"racks-{_id}", _title, _run, _tip, order=100 + _order, menu=MENU))

register(
    ComponentAction(
        "racks-add-rack-here",
        "Add &rack...",
        ("site", "rack"),
        lambda w, ids: add_rack(w, ids[0] if w.doc.topology[ids[0]].kind == "site" else w.doc.topology[ids[0]].parent),
        tip="A rack in this site",
        many=False,
    )
)
register(ComponentAction("racks-rename", "Re&name...", ("site", "rack"), lambda w, ids: rename(w, ids[0]), many=False))
register(
    ComponentAction(
        "racks-delete",
        "&Delete (its units become unplaced)",
        ("site", "rack"),
        lambda w, ids: w.doc.run(edit_place.delete_place, ids[0]),
        many=False,
        order=900,
    )
)
register(
    ComponentAction(
        "racks-unplace",
        "Take out of its &rack",
        placement.placeable_kinds(),
        lambda w, ids: w.doc.run(edit_place.unplace_all, ids),
        tip="Clear the rack position (the unit shows up as not placed in the Racks panel)",
        order=800,
        enabled=lambda topo, ids: any(placement.position(topo, i) is not None for i in ids),
    )
)
