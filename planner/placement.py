"""Physical placement: sites, racks, rack units, location codes and cable lengths. No Qt.

A design places its rackable units (the kinds whose schema has ``rack``/``u``/``face``: the
server, drawers, switches, subsystems and enclosures) in racks (kind ``rack``, inside a ``site``).
``u`` is the lowest rack unit a unit occupies (1 = the bottom unit); its height in U comes from its
catalog part (``u_height``, see ``catalogs/builtin/parts.toml`` for each figure's source).

The pSeries 690 is not a 19-inch unit in somebody's rack: it is a 24-inch frame of its own
(7040-61R, 42 EIA) holding its CEC, its bulk power and up to four 7040-61D I/O drawers; more drawers
go into an expansion frame. The model says so truthfully: a rack whose ``frame_of`` names the
server *is* one of its frames (``frame`` 1 = the primary frame U1, 2 = the expansion frame U2).
The CEC (the server component) and its drawers mount only in their own server's frames, and the
frame's drawer positions give the drawers' location codes: a drawer at EIA 9 of frame 1 is
``U1.9``, as in [P690, Table 2] (drawer 1 at U1.9, drawer 2 at U1.5, ... drawer 5 at U2.1). 19-inch
units (switches, FAStT) never mount in a p690 frame. An ESS 800 is a floor-standing frame too:
it is the only unit of its own frame.

Functions take the topology first and return plain values; they never change the design (the
edits are in :mod:`planner.edit_place`).
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from typing import Any

from planner.model import KINDS, Component, Topology
from planner.schema import kind_name

#: height of one rack unit (EIA-310: 1.75 in)
U_MM = 44.45

#: The cable length rule, with its reasoning, in one place. Outputs print LENGTH_RULE.
END_ALLOWANCE_M = 0.5  # each end: from the port to the rack's vertical cable manager (estimate)
TRAY_RISE_M = 0.5  # each end, between racks: from the rack top up into the overhead tray (estimate)
ROW_PITCH_M = 2.4  # row to row: a 1.2 m deep rack plus a 1.2 m aisle (TIA-942 front aisle minimum)
SLACK_FACTOR = 1.10  # 10 % for bends and dressing ...
SERVICE_LOOP_M = 1.0  # ... plus a 1 m service loop to pull a unit out on its rails
STOCK_LENGTHS_M = (1, 2, 3, 5, 7, 10, 15, 20, 25, 30, 40, 50, 75, 100)  # common LC-LC patch lengths
LENGTH_RULE = (
    "Cable length = route x 1.10 + 1 m service loop, rounded up to a stock length "
    f"({', '.join(str(n) for n in STOCK_LENGTHS_M)} m). Route: 0.5 m at each end to the cable "
    "manager; in one rack the vertical distance between the units' middles (1U = 44.45 mm); "
    "between racks up to the rack top, 0.5 m up into the overhead tray at each end, along the row "
    "from rack centre to rack centre (rack widths), and 2.4 m per row crossed (1.2 m rack + 1.2 m "
    "aisle). Ends in different sites, or an end not placed: no length. All allowances are estimates."
)


@dataclass(frozen=True)
class Position:
    """Where a unit sits: the site and rack ids, its lowest rack unit, the face it is mounted
    from and its height in U (units occupy U ``u`` .. ``u + height_u - 1``, full depth)."""

    site: str
    rack: str
    u: int
    face: str
    height_u: int

    @property
    def top(self) -> int:
        return self.u + self.height_u - 1


@functools.cache
def placeable_kinds() -> tuple[str, ...]:
    """Kinds a rack holds: those whose schema has the ``rack``, ``u`` and ``face`` attributes
    (the schema is fixed: computed once, not per unit on a site)."""
    return tuple(k for k, s in KINDS.items() if {"rack", "u", "face"} <= set(s.attrs))


def _part(topo: Topology, comp: Component) -> dict[str, Any]:
    return topo.part_of(comp) or {}


def own_frame(topo: Topology, cid: str) -> bool:
    """True for a unit that is a frame of its own (the p690 server, an ESS)."""
    comp = topo.get(cid)
    return comp is not None and bool(_part(topo, comp).get("own_frame"))


def frames_of(topo: Topology, cid: str) -> list[Component]:
    """The racks that are ``cid``'s own frames, by frame number."""
    racks = [r for r in topo.of_kind("rack") if r["frame_of"] == cid]
    return sorted(racks, key=lambda r: (r["frame"], r["position"], r.id))


def u_height(topo: Topology, cid: str) -> int | None:
    """Height in rack units of a placeable unit, from its part; None when unknown.

    An ESS (a frame that stands alone) fills its frame: its height is that rack's height when
    placed, else its part's ``frame_u``.
    """
    comp = topo.get(cid)
    if comp is None or comp.kind not in placeable_kinds():
        return None
    part = _part(topo, comp)
    if part.get("own_frame") and not part.get("u_height"):
        rack = topo.get(comp.get("rack"))
        return int(rack["height_u"]) if rack is not None and rack.kind == "rack" else part.get("frame_u")
    h = part.get("u_height")
    return int(h) if isinstance(h, (int, float)) and not isinstance(h, bool) and h > 0 else None


def position(topo: Topology, cid: str) -> Position | None:
    """Where ``cid`` is mounted, or None when it is not placed (no rack, or U 0)."""
    comp = topo.get(cid)
    if comp is None or comp.kind not in placeable_kinds():
        return None
    rack = topo.get(comp["rack"])
    if rack is None or rack.kind != "rack" or comp["u"] < 1:
        return None
    return Position(rack.parent or "", rack.id, int(comp["u"]), comp["face"], u_height(topo, cid) or 1)


def rack_contents(topo: Topology, rack_id: str) -> list[tuple[Component, Position]]:
    """The units mounted in a rack with their positions, from the bottom up. O(units naming the
    rack), through the reference index: every placement check asks this (a pass over every unit
    of the 16x site each time made Rack everything take 0.8-1 s)."""
    kinds = placeable_kinds()
    out = []
    for comp, attr in topo.referrers(rack_id):
        if attr == "rack" and comp.kind in kinds:
            pos = position(topo, comp.id)
            if pos is not None:
                out.append((comp, pos))
    return sorted(out, key=lambda cp: (cp[1].u, cp[0].id))


def reserved_units(topo: Topology, rack_id: str) -> list[tuple[int, int, str]]:
    """Units of a server frame held by parts the design does not model: (u, height, what).

    From the server part's ``frame_reserved`` rows (``frame`` 0 = every frame of the server).
    """
    rack = topo.get(rack_id)
    if rack is None or rack.kind != "rack" or not rack["frame_of"] or topo.get(rack["frame_of"]) is None:
        return []
    out = []
    for row in _part(topo, topo[rack["frame_of"]]).get("frame_reserved", []):
        if not isinstance(row, dict) or row.get("frame", 0) not in (0, rack["frame"]):
            continue
        u, height = row.get("u", 1), row.get("height", 1)
        if isinstance(u, int) and isinstance(height, int) and u > 0 and height > 0:  # a damaged row is skipped
            out.append((u, height, str(row.get("what", "reserved"))))
    return sorted(out)


def unplaced(topo: Topology) -> list[Component]:
    """Rackable units not yet placed (an enclosure that is its subsystem's own controller drawer
    is part of the subsystem and never listed)."""
    out = []
    comps = topo._components
    for kind in placeable_kinds():
        for comp in topo.of_kind(kind):
            rack = comps.get(comp["rack"])  # placed: as position() says, without its height
            if (rack is None or rack.kind != "rack" or comp["u"] < 1) and rackable_problem(topo, comp.id) is None:
                out.append(comp)
    return out


def rackable_problem(topo: Topology, cid: str) -> str | None:
    """Why ``cid`` can never be racked, or None when it can."""
    comp = topo.get(cid)
    if comp is None:
        return f"there is no component {cid!r} in this design"
    if comp.kind not in placeable_kinds():
        parent = topo.get(comp.parent)
        where = f"; place its {kind_name(parent.kind)} {parent.label()}" if parent is not None else ""
        return f"a {kind_name(comp.kind)} is not mounted in a rack by itself{where}"
    if comp.kind == "enclosure" and not comp.part:
        sub = topo.get(comp.parent)
        return (
            f"{comp.label()} is the controller drawer of {sub.label() if sub else 'its subsystem'}: place the subsystem"
        )
    if u_height(topo, cid) is None and not own_frame(topo, cid):
        part = comp.part or "no part"
        return f"{comp.label()} ({part}) has no height in rack units: give its part a u_height"
    return None


def _fit_problem(topo: Topology, comp: Component, rack: Component) -> str | None:
    """Whether the kind of unit may mount in this kind of rack (a frame or a 19-inch rack)."""
    owner = rack["frame_of"]
    server = topo.ancestor(comp.id, "server") if comp.kind == "drawer" else None
    if comp.kind == "drawer" and server is not None:
        if owner != server.id:
            return (
                f"{comp.label()} is a 24-inch p690 I/O drawer: it mounts only in a frame of {server.label()} "
                "(a rack whose 'Frame of' is the server)"
            )
        return None
    if own_frame(topo, comp.id):
        if owner != comp.id:
            return f"{comp.label()} is a frame of its own: place it in a rack whose 'Frame of' is {comp.label()}"
        return None
    if owner:
        frame_owner = topo.get(owner)
        return (
            f"{rack.label()} is the frame of {frame_owner.label() if frame_owner else owner}, for its own units; "
            f"mount {comp.label()} in a 19-inch rack"
        )
    return None


def placement_problem(topo: Topology, cid: str, rack: str, u: int, face: str = "front") -> str | None:
    """Why ``cid`` cannot go at U ``u`` of ``rack`` from ``face``, or None when it can.

    Checks that the unit can be racked and has a height, that the rack exists, that the rack suits
    the unit (p690 drawers and CEC in their server's frames, 19-inch units not in a frame), that it
    fits inside the rack, that it misses the units a frame reserves (bulk power) and that it
    overlaps no other unit (units are taken as full depth, so front and rear units collide too).
    """
    problem = rackable_problem(topo, cid)
    if problem:
        return problem
    comp = topo[cid]
    target = topo.get(rack)
    if target is None or target.kind != "rack":
        return f"there is no rack {rack!r} in this design; add one with Design > Racks > Add rack"
    if face not in ("front", "rear"):
        return f"face {face!r} is not front or rear"
    if isinstance(u, bool) or not isinstance(u, int) or u < 1:
        return f"U {u!r} is not a rack unit; the bottom unit is U1"
    problem = _fit_problem(topo, comp, target)
    if problem:
        return problem
    height = u_height(topo, cid) or 1
    if own_frame(topo, cid) and not _part(topo, comp).get("u_height"):
        height = int(target["height_u"])  # an ESS fills its frame
    problem = _span_problem(topo, comp, target, u, height)
    if problem:
        return problem
    for other, pos in rack_contents(topo, rack):
        if other.id != cid and u <= pos.top and pos.u <= u + height - 1:
            return _overlap(target, u, u + height - 1, other, pos)
    return None


def _span_problem(
    topo: Topology, comp: Component, rack: Component, u: int, height: int, reserved: list | None = None
) -> str | None:
    """Whether units ``u`` .. ``u + height - 1`` lie inside the rack and miss its reserved units
    (``reserved``: :func:`reserved_units` of the rack, when the caller has them)."""
    top = u + height - 1
    if top > rack["height_u"]:
        return (
            f"{comp.label()} is {height}U: at U{u} it would reach U{top}, but {rack.label()} has "
            f"{rack['height_u']}U; place it at U{max(1, rack['height_u'] - height + 1)} or lower"
        )
    for start, size, what in reserved_units(topo, rack.id) if reserved is None else reserved:
        if u <= start + size - 1 and start <= top:
            return f"U{start}-U{start + size - 1} of {rack.label()} hold the {what}"
    return None


def _overlap(rack: Component, u: int, top: int, other: Component, pos: Position) -> str:
    return f"U{u}-U{top} overlaps {other.label()} at U{pos.u}-U{pos.top} of {rack.label()}"


def position_problems(topo: Topology) -> dict[str, str]:
    """Every placed unit whose stored position is impossible (a damaged or hand-edited file) ->
    why, with the texts of :func:`placement_problem`; of two overlapping units the higher one is
    named. One pass per rack (the editor's checks never let such a position in)."""
    by_rack: dict[str, list[tuple[Component, Position]]] = {}
    for kind in placeable_kinds():
        for comp in topo.of_kind(kind):
            pos = position(topo, comp.id)
            if pos is not None:
                by_rack.setdefault(pos.rack, []).append((comp, pos))
    out: dict[str, str] = {}
    for rack_id, units in by_rack.items():
        rack = topo[rack_id]
        reserved = reserved_units(topo, rack_id)
        below: list[tuple[Component, Position]] = []
        for comp, pos in sorted(units, key=lambda cp: (cp[1].u, cp[0].id)):
            problem = rackable_problem(topo, comp.id) or _fit_problem(topo, comp, rack)
            problem = problem or _span_problem(topo, comp, rack, pos.u, pos.height_u, reserved)
            hit = next(((o, p) for o, p in below if p.top >= pos.u), None)
            if problem is None and hit is not None:
                problem = _overlap(rack, pos.u, pos.top, *hit)
            if problem:
                out[comp.id] = problem
            below.append((comp, pos))
    return out


# -- location codes ------------------------------------------------------------------------------

_LOCATION = re.compile(r"^U(\d)\.(\d{1,2})$")


def parse_drawer_location(text: str) -> tuple[int, int] | None:
    """``'U1.9'`` -> (frame 1, EIA 9); None for anything else."""
    m = _LOCATION.match((text or "").strip())
    return (int(m.group(1)), int(m.group(2))) if m else None


def drawer_location(topo: Topology, drawer_id: str) -> str:
    """The drawer's location code, ``U<frame>.<EIA>``, from its place in its server's frame;
    a drawer not placed in a frame keeps the ``location`` the user typed ('' when none)."""
    drawer = topo[drawer_id]
    pos = position(topo, drawer_id)
    if pos is not None:
        rack = topo[pos.rack]
        if rack["frame_of"]:
            return f"U{rack['frame'] or 1}.{pos.u}"
    return str(drawer.get("location", "") or "").strip()


def location_code(topo: Topology, cid: str) -> str:
    """The AIX physical location code of a drawer, planar, slot, HBA or HBA port ('' otherwise,
    or when the drawer has no location).

    pSeries 690 form (pSeries 690 service guide, 'Location codes'; ``lscfg -vl fcs0`` prints the
    same): drawer ``U1.9``; I/O planar ``U1.9-P1`` (planar index 0) or ``-P2``; PCI slot
    ``U1.9-P1-I5`` (each planar numbers its ten slots I1-I10: drawer slot 15 is ``P2-I5``); an
    adapter has its slot's code; its Fibre Channel port adds ``/Q1`` (``U1.9-P1-I5/Q1``).
    """
    comp = topo.get(cid)
    if comp is None:
        return ""
    drawer = comp if comp.kind == "drawer" else topo.ancestor(cid, "drawer")
    if drawer is None:
        return ""
    base = drawer_location(topo, drawer.id)
    if not base or comp.kind == "drawer":
        return base
    if comp.kind == "planar":
        return f"{base}-P{comp['index'] + 1}"
    slot = comp if comp.kind == "slot" else topo.ancestor(cid, "slot")
    planar = topo.ancestor(cid, "planar")
    if slot is None or planar is None:
        return ""
    code = f"{base}-P{planar['index'] + 1}-I{(slot['number'] - 1) % 10 + 1}"
    if comp.kind == "hba_port":
        return f"{code}/Q{comp['index'] + 1}"
    return code if comp.kind in ("slot", "hba") else ""


# -- cable lengths ---------------------------------------------------------------------------------


def unit_of(topo: Topology, cid: str) -> Component | None:
    """The rackable unit that holds ``cid`` (itself when it is one): a port's drawer, switch or
    subsystem. An HBA port's unit is its drawer; a switch port's the switch."""
    comp = topo.get(cid)
    placeable = placeable_kinds()
    while comp is not None and comp.kind not in placeable:
        comp = topo.get(comp.parent)
    return comp


def _natural(text: str) -> tuple:
    return tuple(int(t) if t.isdigit() else t for t in re.split(r"(\d+)", text or ""))


def _row_geometry(topo: Topology, rack: Component) -> tuple[int, float]:
    """(row number within the site, x of the rack's centre along its row in metres)."""
    racks = topo.children(rack.parent, "rack")
    rows = sorted({r["row"] for r in racks}, key=_natural)
    mates = sorted((r for r in racks if r["row"] == rack["row"]), key=lambda r: (r["position"], r.id))
    x_mm = 0.0
    for r in mates:
        if r.id == rack.id:
            break
        x_mm += r["width_mm"]
    return rows.index(rack["row"]), (x_mm + rack["width_mm"] / 2) / 1000


def route_m(topo: Topology, a: Position, b: Position) -> float | None:
    """The cable route between two placed units in metres, before slack (see LENGTH_RULE)."""
    if a.site != b.site:
        return None
    mid_a, mid_b = a.u - 1 + a.height_u / 2, b.u - 1 + b.height_u / 2
    if a.rack == b.rack:
        return abs(mid_a - mid_b) * U_MM / 1000 + 2 * END_ALLOWANCE_M
    ra, rb = topo[a.rack], topo[b.rack]
    up = ((ra["height_u"] - mid_a) + (rb["height_u"] - mid_b)) * U_MM / 1000 + 2 * TRAY_RISE_M
    (row_a, x_a), (row_b, x_b) = _row_geometry(topo, ra), _row_geometry(topo, rb)
    across = abs(x_a - x_b) + abs(row_a - row_b) * ROW_PITCH_M
    return up + across + 2 * END_ALLOWANCE_M


def stock_length(metres: float) -> float:
    """The shortest stock length at least ``metres`` long (the longest when none is)."""
    for n in STOCK_LENGTHS_M:
        if n >= metres - 1e-9:
            return float(n)
    return float(math.ceil(metres))


def cable_length_m(topo: Topology, cable_id: str) -> float | None:
    """The length to order for a cable from its ends' positions (LENGTH_RULE), or None when an
    end is not placed, the ends are in different sites, or ``cable_id`` is not a cable."""
    cable = topo.get(cable_id)
    if cable is None or cable.kind != "cable":
        return None
    ends = [unit_of(topo, cable[k]) if cable[k] else None for k in ("a", "b")]
    if any(u is None for u in ends):
        return None
    pa, pb = (position(topo, u.id) for u in ends)
    if pa is None or pb is None:
        return None
    route = route_m(topo, pa, pb)
    return None if route is None else stock_length(route * SLACK_FACTOR + SERVICE_LOOP_M)
