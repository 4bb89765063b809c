"""Build sheet sections for the hardware: slot placement per drawer (load against capacity of
every PHB, RIO2 link and planar) and the port map of every switch (ASIC groups, backplane)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from planner import placement
from planner.exports.buildsheet.document import rl_api
from planner.exports.buildsheet.sections_intro import placeholder_footnote
from planner.exports.buildsheet.sheet import (
    Sheet,
    data_table,
    mbps,
    new_section,
    pct,
    plural,
    util_cells,
    wwpn_text,
)
from planner.exports.cabling import endpoint
from planner.model import Component, Topology
from planner.naming import label, short_label
from planner.schema import chart_kinds, kind_name

# -- slot placement -----------------------------------------------------------------------------------


def slots(sheet: Sheet) -> list[Any]:
    topo = sheet.topo
    out = new_section(sheet, "Slot placement")
    drawers = topo.of_kind("drawer")
    if not drawers:
        out.append(sheet.p("The design has no I/O drawers."))
    for drawer in drawers:
        out += _drawer_slots(sheet, drawer)
    return out + placeholder_footnote(sheet)


def _drawer_slots(sheet: Sheet, drawer: Component) -> list[Any]:
    topo = sheet.topo
    part = topo.part_of(drawer) or {}
    where = ", ".join(x for x in (placement.drawer_location(topo, drawer.id), part.get("id", "")) if x)
    rows, utils, loads = [], [], [drawer]
    for slot in (c for c in topo.descendants(drawer.id) if c.kind == "slot"):
        phb, link = topo.get(slot.parent), topo.ancestor(slot.id, "rio_link")
        planar = topo.ancestor(slot.id, "planar")
        hba = next(iter(topo.children(slot.id, "hba")), None)
        ports = topo.children(hba.id, "hba_port") if hba else []
        owner = topo.get(hba["lpar"]) if hba is not None and hba["lpar"] else None
        rows.append(
            [
                short_label(planar) if planar else "",
                short_label(link) if link else "",
                short_label(phb) if phb else "",
                placement.location_code(topo, slot.id),
                short_label(slot),
                short_label(hba) if hba else "(empty)",
                (hba.part or "") if hba else "",
                short_label(owner) if owner else "",
                ", ".join(wwpn_text(topo, p) for p in ports if p["wwpn"]),
                sheet.load_text(hba.id, sheet.read) if hba else "",
                pct(sheet.util(hba.id)) if hba else "",
            ]
        )
        utils.append(sheet.util(hba.id) if hba else None)
    # the I/O hops above the HBAs (planars, RIO2 links, PHBs); the HBAs are in the slot table
    loads += [c for c in topo.descendants(drawer.id) if c.kind in chart_kinds() and c.kind != "hba"]
    head = (
        "Planar",
        "RIO2 link",
        "PHB",
        "Location",
        "Slot",
        "HBA",
        "Part",
        "LPAR",
        "WWPN",
        "Read MB/s of cap.",
        "Util",
    )
    widths = (0.065, 0.065, 0.135, 0.1, 0.06, 0.06, 0.065, 0.055, 0.24, 0.105, 0.05)  # a marked WWPN fits
    title = label(topo, drawer) + (f" ({where})" if where else "")
    rl = rl_api()
    return [
        rl.KeepTogether(
            [
                sheet.heading(title),
                data_table(sheet, head, rows, widths, numeric=(9, 10), cells=util_cells(10, utils)),
                rl.Spacer(1, 6),
                _load_table(sheet, loads),
                rl.Spacer(1, 10),
            ]
        )
    ]


def _load_table(sheet: Sheet, comps: Sequence[Component]) -> Any:
    """Load against capacity of I/O parts, read and write."""
    topo = sheet.topo
    rows, ur, uw = [], [], []
    top = comps[0].id if comps else ""
    for c in comps:
        name = "    " * _depth(topo, c, top) + short_label(c)  # rows indented as the tree
        r, w = sheet.util(c.id, sheet.read), sheet.util(c.id, sheet.write)
        rows.append(
            [
                name,
                kind_name(c.kind),
                sum(1 for d in topo.descendants(c.id) if d.kind == "hba"),
                sheet.load_text(c.id, sheet.read),
                pct(r),
                sheet.load_text(c.id, sheet.write),
                pct(w),
            ]
        )
        ur.append(r)
        uw.append(w)
    head = ("Part", "Level", "HBAs", "Read MB/s of capacity", "Read util", "Write MB/s of capacity", "Write util")
    widths = (0.26, 0.12, 0.07, 0.17, 0.1, 0.18, 0.1)
    return data_table(sheet, head, rows, widths, numeric=(2, 3, 4, 5, 6), cells=util_cells(4, ur) + util_cells(6, uw))


def _depth(topo: Topology, comp: Component, top: str) -> int:
    """How many levels ``comp`` sits below the component ``top`` (0 for ``top`` itself)."""
    n = 0
    while comp.id != top and comp.parent is not None:
        comp, n = topo[comp.parent], n + 1
    return n


# -- switches -----------------------------------------------------------------------------------------


def _crossings(sheet: Sheet) -> dict[str, dict[str, str]]:
    """Switch port id -> {other switch port id: 'ASIC n' or 'backplane'} from the read paths."""
    topo, out = sheet.topo, {}
    for p in sheet.read.paths:
        hops = p.hops
        for i in range(1, len(hops) - 1):
            mid = topo[hops[i]]
            if mid.kind in ("asic", "backplane") and topo[hops[i - 1]].kind == "switch_port":
                via = short_label(mid) if mid.kind == "asic" else "backplane"
                a, b = hops[i - 1], hops[i + 1]
                out.setdefault(a, {})[b] = via
                out.setdefault(b, {})[a] = via
    return out


def switches(sheet: Sheet) -> list[Any]:
    out = new_section(sheet, "Switch port maps")
    switches = sheet.topo.of_kind("switch")
    if not switches:
        out.append(sheet.p("The design has no switches."))
    crossings = _crossings(sheet)
    for i, sw in enumerate(switches):
        if i:
            out.append(rl_api().CondPageBreak(0.45 * sheet.portrait.height))
        out += _switch_map(sheet, sw, crossings)
    return out


def _switch_map(sheet: Sheet, sw: Component, crossings: dict[str, dict[str, str]]) -> list[Any]:
    topo = sheet.topo
    fabric = topo.get(sw["fabric"]) if sw["fabric"] else None
    title = f"{short_label(sw)}: fabric {short_label(fabric) if fabric else '(none)'}, domain {sw['domain_id']}" + (
        f", {sw.part}" if sw.part else ""
    )
    asics = topo.children(sw.id, "asic")
    groups = [(a, topo.children(a.id, "switch_port")) for a in asics]
    summary = []
    for a, ports in groups:
        numbers = [p["index"] for p in ports]
        span = f"{min(numbers)}-{max(numbers)}" if numbers else "-"
        summary.append(
            [
                short_label(a),
                span,
                sheet.load_text(a.id, sheet.read),
                pct(sheet.util(a.id)),
                "traffic between two ports of this ASIC",
            ]
        )
    utils = [sheet.util(a.id) for a, _ in groups]
    for bp in topo.children(sw.id, "backplane"):
        n = sum(1 for p in sheet.read.paths if bp.id in p.hops)
        summary.append(
            [
                "Backplane",
                "all",
                sheet.load_text(bp.id, sheet.read),
                pct(sheet.util(bp.id)),
                f"traffic between ASICs: {plural(n, 'path')} cross it",
            ]
        )
        utils.append(sheet.util(bp.id))
    head = ("ASIC", "Ports", "Read MB/s of capacity", "Util", "Carries")
    summary_table = data_table(
        sheet, head, summary, (0.12, 0.1, 0.2, 0.1, 0.48), numeric=(2, 3), cells=util_cells(3, utils)
    )
    return [
        sheet.heading(title),
        summary_table,
        rl_api().Spacer(1, 5),
        _port_table(sheet, groups, crossings),
        rl_api().Spacer(1, 8),
    ]


def _port_table(
    sheet: Sheet, groups: list[tuple[Component, list[Component]]], crossings: dict[str, dict[str, str]]
) -> Any:
    rl = rl_api()
    topo = sheet.topo
    rows, utils, cells = [], [], []
    for g, (asic, ports) in enumerate(groups):
        first = len(rows)
        for port in ports:
            peer = topo.peer_port(port.id)
            device, name = endpoint(topo, peer) if peer else ("", "")
            cable = topo.cable_at(port.id)
            talks = crossings.get(port.id, {})
            shown = [f"port {topo[o]['index']} ({via})" for o, via in list(talks.items())[:3]]
            if len(talks) > 3:
                shown.append(f"and {len(talks) - 3} more")
            rows.append(
                [
                    short_label(asic),
                    port["index"],
                    device or "(free)",
                    name,
                    cable["label"] if cable else "",
                    ", ".join(shown),
                    mbps(sheet.read.components[port.id].load) if port.id in sheet.read.components else "-",
                    pct(sheet.util(port.id)),
                ]
            )
            utils.append(sheet.util(port.id))
        if g % 2 and rows[first:]:
            cells.append(("BACKGROUND", (0, first), (-1, len(rows) - 1), rl.colors.HexColor("#e8eef6")))
        if g:
            cells.append(("LINEABOVE", (0, first), (-1, first), 1.2, rl.colors.HexColor("#37474f")))
    head = ("ASIC", "Port", "Plugs into", "Device port", "Cable", "Talks to (through)", "Read MB/s", "Util")
    widths = (0.09, 0.06, 0.12, 0.1, 0.17, 0.27, 0.1, 0.08)
    return data_table(sheet, head, rows, widths, numeric=(1, 6, 7), cells=cells + util_cells(7, utils), zebra=False)
