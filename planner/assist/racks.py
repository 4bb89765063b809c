"""``rack_everything``: mount every unplaced unit of a design, as one undo step. No Qt.

The order an installer would choose:

1. a site (the first one, or a new "Site 1");
2. each p690 in its own frames: the CEC at its part's ``cec_u`` (U1.18) and the drawers at the
   location codes they carry, else in the order of [P690, Table 2] (U1.9, U1.5, U1.1, U1.13,
   U2.1, ...); an expansion frame is added when a drawer needs frame 2; an ESS gets its own frame;
3. the switches next to the server: the first 19-inch rack, standing right after the frames in
   the row, takes them at its top (from U42 down), where the cables leave for the overhead tray
   (see :data:`planner.placement.LENGTH_RULE`);
4. each subsystem with its expansion enclosures as one group (the controller at the bottom, its
   EXP700s straight above it, so their loop cables stay short), first fit from the bottom up,
   rack after rack; a new 42U rack is added when no rack has room. A row holds
   :data:`RACKS_PER_ROW` racks; the next row starts after it.
"""

from __future__ import annotations

from planner import edit_place
from planner.assist.base import Assisted, assisting, name_of, require
from planner.model import Component, ModelError, Topology
from planner.naming import counted
from planner.placement import (
    frames_of,
    own_frame,
    parse_drawer_location,
    placement_problem,
    position,
    rack_contents,
    reserved_units,
    u_height,
    unplaced,
)

RACKS_PER_ROW = 10  # racks in one row before the next row starts (an estimate of a machine-room row)
RACK_U = 42  # height of a rack the assistant adds (the usual 19-inch rack)


def _site(topo: Topology, a: Assisted) -> str:
    sites = topo.of_kind("site")
    if sites:
        return sites[0].id
    a.add(edit_place.add_site(topo, "Site 1"), "added site Site 1")
    return topo.of_kind("site")[-1].id


def _next_row_place(topo: Topology, site: str) -> tuple[str, int]:
    racks = topo.children(site, "rack")
    if not racks:
        return "A", 1
    row = max((r["row"] for r in racks), key=lambda r: (len(r), r))
    mates = [r for r in racks if r["row"] == row]
    if len(mates) >= RACKS_PER_ROW and len(row) == 1 and row.isalpha() and row < "Z":
        return chr(ord(row) + 1), 1
    return row, 1 + max(r["position"] for r in mates)


def _frame(topo: Topology, a: Assisted, site: str, unit: Component, number: int) -> Component:
    for rack in frames_of(topo, unit.id):
        if rack["frame"] == number:
            return rack
    row, _ = _next_row_place(topo, site)
    a.add(edit_place.add_frame(topo, site, unit.id, number, row), f"added frame {number} of {name_of(topo, unit)}")
    return frames_of(topo, unit.id)[-1]


def _place(topo: Topology, a: Assisted, comp: Component, rack: Component, u: int) -> bool:
    if placement_problem(topo, comp.id, rack.id, u) is not None:
        return False
    a.add(edit_place.place(topo, comp.id, rack.id, u), f"{name_of(topo, comp)}: {rack.label()} U{u}")
    return True


def _rack_server(topo: Topology, a: Assisted, site: str, server: Component) -> None:
    """The CEC and the drawers of one p690 in its frames (see the module docstring)."""
    part = topo.part_of(server) or {}
    if position(topo, server.id) is None and own_frame(topo, server.id):
        _place(topo, a, server, _frame(topo, a, site, server, 1), int(part.get("cec_u") or 1))
    wanted = [parse_drawer_location(t) for t in part.get("drawer_locations", [])]
    order = [w for w in wanted if w is not None]
    drawers = sorted(topo.children(server.id, "drawer"), key=lambda d: (d["index"], d.id))
    for drawer in drawers:
        if position(topo, drawer.id) is not None:
            continue
        own = parse_drawer_location(drawer["location"])
        for frame, eia in ([own] if own else []) + order:
            if _place(topo, a, drawer, _frame(topo, a, site, server, frame), eia):
                break
        else:
            a.say(f"{name_of(topo, drawer)}: no free drawer position in the frames of {name_of(topo, server)}")


def _free_run(topo: Topology, rack: Component, height: int, used: dict[str, set[int]], top: bool = False) -> int | None:
    """The lowest U where ``height`` free units start in ``rack`` (``top``: the highest such
    run), or None. ``used`` caches each rack's taken units for one run of the assistant (the
    caller adds what it places)."""
    if rack.id not in used:
        taken = used[rack.id] = set()
        for _, pos in rack_contents(topo, rack.id):
            taken.update(range(pos.u, pos.top + 1))
        for start, size, _ in reserved_units(topo, rack.id):
            taken.update(range(start, start + size))
    units = range(rack["height_u"], 0, -1) if top else range(1, rack["height_u"] + 1)
    run = 0
    for u in units:
        run = 0 if u in used[rack.id] else run + 1
        if run == height:
            return u if top else u - height + 1
    return None


def _groups(topo: Topology) -> list[list[Component]]:
    """19-inch units to rack, in order: each switch alone, then each subsystem with its enclosures."""
    waiting = {c.id for c in unplaced(topo)}
    groups = [[s] for s in topo.of_kind("switch") if s.id in waiting]
    for sub in topo.of_kind("subsystem"):
        if own_frame(topo, sub.id):
            continue
        members = [sub] + [e for e in topo.children(sub.id, "enclosure") if e.part]
        members = [m for m in members if m.id in waiting]
        if members:
            groups.append(members)
    return groups


def _rack_group(topo: Topology, a: Assisted, site: str, group: list[Component], used: dict[str, set[int]]) -> None:
    height = sum(u_height(topo, m.id) or 1 for m in group)
    is_switch = group[0].kind == "switch"  # at the top of the rack, next to the overhead cable tray
    if height > RACK_U:
        for m in group:  # taller than a rack: place its members one by one
            _rack_group(topo, a, site, [m], used)
        return
    racks = [r for r in topo.children(site, "rack") if not r["frame_of"]]
    racks.sort(key=lambda r: (r["row"], r["position"], r.id))
    for rack in racks:
        start = _free_run(topo, rack, height, used, top=is_switch)
        if start is not None:
            break
    else:
        row, pos = _next_row_place(topo, site)
        name = edit_place.free_name(topo, site, f"R{len(racks) + 1}")
        a.add(edit_place.add_rack(topo, site, name, RACK_U, row, pos), f"added rack {name} (row {row})")
        rack = topo.children(site, "rack")[-1]
        start = _free_run(topo, rack, height, used, top=is_switch) or 1
    for m in group:
        if not _place(topo, a, m, rack, start):
            raise ModelError(f"{name_of(topo, m)} does not fit at U{start} of {rack.label()}")
        size = u_height(topo, m.id) or 1
        used[rack.id].update(range(start, start + size))
        start += size


def rack_everything(topo: Topology) -> Assisted:
    """Mount every unplaced unit (the order is in the module docstring). Raises NothingToDo
    when every rackable unit is already placed."""
    require(unplaced(topo), "every rackable unit is already placed")
    with assisting(topo, "Rack everything") as a:
        site = _site(topo, a)
        for server in topo.of_kind("server"):
            _rack_server(topo, a, site, server)
        for sub in topo.of_kind("subsystem"):
            if own_frame(topo, sub.id) and position(topo, sub.id) is None:
                _place(topo, a, sub, _frame(topo, a, site, sub, 1), 1)
        used: dict[str, set[int]] = {}
        for group in _groups(topo):
            _rack_group(topo, a, site, group, used)
        left = unplaced(topo)
        if left:
            a.say(f"{counted(len(left), 'unit')} could not be placed: {', '.join(name_of(topo, c) for c in left[:4])}")
    return a
