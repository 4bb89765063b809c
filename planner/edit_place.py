"""Editing operations for physical placement: sites, racks and where units are mounted. No Qt.

Each operation checks its input first (the ``*_problem`` functions here and
:func:`planner.placement.placement_problem`), raises :class:`ModelError` with a message naming the
thing and the fix, and otherwise returns one undoable :class:`Builder` (one undo step).
"""

from __future__ import annotations

import re
from typing import Any

from planner import naming
from planner.commands import Builder, SetAttr
from planner.edit import _building, _expect, _new, delete
from planner.model import ModelError, Topology
from planner.naming import counted
from planner.placement import drawer_location, frames_of, placement_problem, position, rackable_problem
from planner.schema import check_attr, name_problem


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower()[:40] or "x"


def _name_problem(topo: Topology, kind: str, name: str, parent: str | None, skip: str = "") -> str | None:
    if not isinstance(name, str) or not name.strip():
        return f"a {kind} needs a name"
    problem = name_problem(name)
    if problem:
        return f"{kind} {name[:64]!r}: {problem}"
    for other in topo.children(parent, kind):
        if other.id != skip and other.name.strip().lower() == name.strip().lower():
            return f"there is already a {kind} named {other.name!r}{' in this site' if parent else ''}; choose another name"
    return None


def free_name(topo: Topology, site: str, *names: str) -> str:
    """The first of ``names`` no rack of ``site`` has yet, else the last with a number added."""
    taken = {r.name.strip().lower() for r in topo.children(site, "rack")}
    for name in names:
        if name.lower() not in taken:
            return name
    n = 2
    while f"{names[-1]} ({n})".lower() in taken:
        n += 1
    return f"{names[-1]} ({n})"


def site_problem(topo: Topology, name: str) -> str | None:
    """Why a new site cannot be called ``name``, or None."""
    return _name_problem(topo, "site", name, None)


def rack_problem(topo: Topology, site: str, name: str, height_u: Any = 42) -> str | None:
    """Why a rack ``name`` of ``height_u`` units cannot be added to ``site``, or None."""
    target = topo.get(site)
    if target is None or target.kind != "site":
        return "choose a site for the rack (add one with Design > Racks > Add site)"
    problem = _name_problem(topo, "rack", name, site)
    if problem:
        return problem
    try:
        check_attr("rack", "height_u", height_u)
    except ModelError as err:
        return f"rack height: {err} (a rack has 1 to 60 U; 42 is usual)"
    return None


def add_site(topo: Topology, name: str, description: str = "", address: str = "") -> Builder:
    """Add a site (a building or computer room that holds racks)."""
    problem = site_problem(topo, name)
    if problem:
        raise ModelError(problem)
    with _building(topo, f"Add site {name}") as b:
        _new(b, "site", _slug(name), None, name.strip(), description=description, address=address)
    return b


def add_rack(
    topo: Topology,
    site: str,
    name: str,
    height_u: int = 42,
    row: str = "",
    position_in_row: int | None = None,
    width_mm: float = 600,
    frame_of: str = "",
    frame: int = 0,
) -> Builder:
    """Add a rack to ``site``; ``position_in_row`` defaults to the next free place in ``row``.
    ``frame_of``/``frame``: the rack is frame ``frame`` (1, 2) of that server or ESS."""
    problem = rack_problem(topo, site, name, height_u)
    if problem:
        raise ModelError(problem)
    if frame_of:
        _expect(topo, frame_of, "server", "subsystem")
    if position_in_row is None:
        taken = [r["position"] for r in topo.children(site, "rack") if r["row"] == row]
        position_in_row = 1 + max(taken, default=0)
    with _building(topo, f"Add rack {name}") as b:
        _new(
            b,
            "rack",
            f"{site}.{_slug(name)}",
            site,
            name.strip(),
            height_u=height_u,
            row=row,
            position=position_in_row,
            width_mm=width_mm,
            frame_of=frame_of,
            frame=frame,
        )
    return b


def add_frame(topo: Topology, site: str, unit: str, frame: int | None = None, row: str = "") -> Builder:
    """Add the next frame of a p690 (or an ESS's frame) as a rack: its height and width from
    the unit's part, named after it ('p690 frame 1')."""
    comp = _expect(topo, unit, "server", "subsystem")
    part = topo.part_of(comp) or {}
    if not part.get("own_frame"):
        raise ModelError(f"{comp.label()} ({comp.part}) is not a frame of its own; add a 19-inch rack for it")
    number = frame or 1 + max((r["frame"] for r in frames_of(topo, unit)), default=0)
    return add_rack(
        topo,
        site,
        free_name(topo, site, f"{comp.label()} frame {number}", f"{comp.id} frame {number}"),
        int(part.get("frame_u") or 42),
        row,
        width_mm=float(part.get("frame_width_mm") or 600),
        frame_of=unit,
        frame=number,
    )


def rename(topo: Topology, cid: str, name: str) -> Builder:
    """Rename a site or a rack (names are unique within their parent)."""
    comp = _expect(topo, cid, "site", "rack")
    problem = _name_problem(topo, comp.kind, name, comp.parent, skip=cid)
    if problem:
        raise ModelError(problem)
    with _building(topo, f"Rename {comp.kind} {comp.label()} to {name}") as b:
        b.run(SetAttr(cid, "name", name.strip()))
    return b


def delete_place(topo: Topology, cid: str) -> Builder:
    """Delete a site or a rack; the units mounted in it become unplaced (one undo step)."""
    comp = _expect(topo, cid, "site", "rack")
    racks = [comp] if comp.kind == "rack" else topo.children(cid, "rack")
    rack_ids = {r.id for r in racks}
    with _building(topo, f"Delete {comp.kind} {comp.label()}") as b:
        for ref, attr in [pair for r in racks for pair in topo.referrers(r.id)]:
            if attr == "rack" and ref.id not in rack_ids:
                b.run(SetAttr(ref.id, "u", 0))
        b.add(delete(topo, [cid]))  # applied already: recorded in this one undo step
    return b


def place(topo: Topology, cid: str, rack: str, u: int, face: str = "front") -> Builder:
    """Mount ``cid`` at U ``u`` of ``rack`` from ``face`` (a move when it is already placed).
    A drawer placed in its server's frame also gets that location code as its ``location``."""
    problem = placement_problem(topo, cid, rack, u, face)
    if problem:
        raise ModelError(problem)
    comp = topo[cid]
    before = position(topo, cid)
    verb = "Move" if before is not None else "Place"
    with _building(topo, f"{verb} {naming.label(topo, comp)} to {topo[rack].label()} U{u}") as b:
        for key, value in (("rack", rack), ("u", u), ("face", face)):
            if comp[key] != value:
                b.run(SetAttr(cid, key, value))
        code = drawer_location(topo, cid) if comp.kind == "drawer" else ""
        if code and code != comp["location"]:
            b.run(SetAttr(cid, "location", code))  # the typed location follows the frame position
    return b


def move(topo: Topology, cid: str, rack: str, u: int, face: str | None = None) -> Builder:
    """Move a placed unit (keeps its face unless ``face`` is given)."""
    return place(topo, cid, rack, u, face or topo[cid]["face"])


def unplace(topo: Topology, cid: str) -> Builder:
    """Take a unit out of its rack (its rack, U and face are cleared)."""
    problem = rackable_problem(topo, cid)
    if problem:
        raise ModelError(problem)
    comp = topo[cid]
    with _building(topo, f"Unplace {naming.label(topo, comp)}") as b:
        for key, value in (("rack", ""), ("u", 0), ("face", "front")):
            if comp[key] != value:
                b.run(SetAttr(cid, key, value))
    return b


def unplace_all(topo: Topology, ids: list[str]) -> Builder:
    """Take several units out of their racks as one undo step (those not placed are skipped)."""
    placed = [cid for cid in ids if position(topo, cid) is not None]
    if not placed:
        raise ModelError("none of the selected units is in a rack")
    with _building(topo, f"Unplace {counted(len(placed), 'unit')}") as b:
        for cid in placed:
            b.add(unplace(topo, cid))
    return b
