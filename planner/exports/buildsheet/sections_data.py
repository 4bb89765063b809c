"""Build sheet sections for what the installer and the storage admin configure: the cabling
schedule, zoning per fabric with the host mappings, and the storage layout."""

from __future__ import annotations

from typing import Any

from planner.exports.buildsheet.document import para, rl_api
from planner.exports.buildsheet.sections_intro import placeholder_footnote
from planner.exports.buildsheet.sheet import (
    PLACEHOLDER_MARK,
    Sheet,
    data_table,
    kb_text,
    new_section,
    wwpn_text,
)
from planner.exports.cabling import cabling_rows, endpoint, format_length
from planner.figures import data_drives
from planner.naming import label, short_label
from planner.schema import count_label


def cabling(sheet: Sheet) -> list[Any]:
    rows = [
        [
            r["label"],
            r["from_device"],
            r["from_port"],
            r["to_device"],
            r["to_port"],
            r["fabric"],
            format_length(r["length_m"]) or "-",
            r["media"],
        ]
        for r in cabling_rows(sheet.topo)
    ]
    head = ("Cable label", "From device", "From port", "To device", "To port", "Fabric", "Length (m)", "Media")
    widths = (0.2, 0.12, 0.12, 0.12, 0.1, 0.12, 0.09, 0.13)
    out = [
        *new_section(sheet, "Cabling schedule"),
        sheet.p(
            f"{count_label(len(rows), 'cable')}, in design order. Each end is named as racked: the server and "
            "its adapter, the switch and its port number, the subsystem and its controller port."
        ),
    ]
    if rows:
        out.append(data_table(sheet, head, rows, widths, numeric=(6,)))
    return out


def zoning(sheet: Sheet) -> list[Any]:
    out = new_section(sheet, "Zoning")
    out.append(
        sheet.p(
            "Names as the exported Brocade and Cisco scripts use them (letters, digits and _ only). "
            "Each fabric's configuration holds all its zones."
        )
    )
    if not sheet.zoning:
        out.append(sheet.p("The design has no zones."))
    for plan in sheet.zoning:
        out.append(rl_api().KeepTogether(_fabric_zoning(sheet, plan)))  # a fabric per page when it fits
    out += [*sheet.sub("Host mappings (partitions)"), _mappings(sheet)]
    return out + placeholder_footnote(sheet)


def _fabric_zoning(sheet: Sheet, plan: Any) -> list[Any]:
    topo = sheet.topo
    title = f"Fabric {plan.name}: configuration {plan.config}, {count_label(len(plan.zones), 'zone')}"
    rows = []
    for a in plan.aliases:
        device, port = endpoint(topo, a.port)
        peer = topo.peer_port(a.port)
        where = " ".join(endpoint(topo, peer)) if peer else "(not cabled)"
        rows.append([a.name, a.wwpn + (PLACEHOLDER_MARK if a.placeholder else ""), device, port, where])
    out = [sheet.heading(title)]
    if plan.design_name != plan.name:
        out.append(sheet.p(f"In the design: {para(plan.design_name)}", "small"))
    out.append(data_table(sheet, ("Alias", "WWPN", "Device", "Port", "Cabled to"), rows, (0.26, 0.25, 0.17, 0.1, 0.22)))
    out.append(rl_api().Spacer(1, 5))
    zrows = [
        [z.name, ", ".join(z.members) + (f" (in the design: {z.design_name})" if z.name != z.design_name else "")]
        for z in plan.zones
    ]
    head, widths = ("Zone", "Members (aliases)"), (0.62, 0.38)
    out.append(data_table(sheet, head, zrows, widths))
    if plan.skipped:
        out.append(sheet.p("Left out of the scripts: " + "; ".join(para(n) for n in plan.skipped) + ".", "small"))
    return out


def _mappings(sheet: Sheet) -> Any:
    topo = sheet.topo
    rows = []
    for m in topo.of_kind("host_mapping"):
        sub = topo.ancestor(m.id, "subsystem")
        ports = [topo.get(p) for p in m["hba_ports"]]
        lds = [topo.get(x) for x in m["logical_drives"]]
        rows.append(
            [
                short_label(sub) if sub else "",
                short_label(m),
                ", ".join(
                    f"{endpoint(topo, p.id)[1]} ({wwpn_text(topo, p) or 'no WWPN'})" for p in ports if p is not None
                ),
                ", ".join(f"{short_label(ld)} ({ld['size_gb']:,.0f} GB)" for ld in lds if ld is not None),
            ]
        )
    if not rows:
        return sheet.p("The design has no host mappings.")
    return data_table(
        sheet, ("Subsystem", "Mapping", "HBA ports (WWPN)", "Logical drives"), rows, (0.12, 0.16, 0.44, 0.28)
    )


def storage(sheet: Sheet) -> list[Any]:
    """The storage layout section: arrays with their logical drives, volume groups, logical volumes."""
    out = [*new_section(sheet, "Storage layout"), *sheet.sub("Arrays and logical drives"), _arrays_table(sheet)]
    out += [*sheet.sub("Volume groups"), _volume_groups_table(sheet)]
    out += [*sheet.sub("Logical volumes"), _logical_volumes_table(sheet)]
    return out


def _arrays_table(sheet: Sheet) -> Any:
    """One row per logical drive of each array (an array without any gets a "(none)" row)."""
    topo = sheet.topo
    rows = []
    for sub in topo.of_kind("subsystem"):
        for arr in topo.children(sub.id, "array"):
            rows += _array_rows(sheet, sub, arr)
    head = (
        "Subsystem",
        "Array",
        "RAID",
        "Drives",
        "Segment",
        "Full stripe",
        "Logical drive",
        "LUN",
        "Size (GB)",
        "Owner",
    )
    widths = (0.1, 0.2, 0.07, 0.06, 0.08, 0.09, 0.1, 0.05, 0.08, 0.17)
    if not rows:
        return sheet.p("The design has no arrays.")
    return data_table(sheet, head, rows, widths, numeric=(3, 4, 5, 7, 8))


def _array_rows(sheet: Sheet, sub: Any, arr: Any) -> list[list[Any]]:
    """The rows of one array: its RAID, drives, segment and full stripe, then each logical drive."""
    topo = sheet.topo
    n = len(arr["drives"])
    stripe = arr["segment_kb"] * data_drives(arr["raid_level"], n)
    base = [
        short_label(sub),
        short_label(arr),
        f"RAID {arr['raid_level']}",
        n,
        kb_text(arr["segment_kb"]),
        kb_text(stripe),
    ]
    rows = []
    for ld in topo.children(arr.id, "logical_drive") or [None]:
        if ld is None:
            rows.append(base + ["(none)", "", "", ""])
            continue
        owner = topo.get(ld["owner"]) if ld["owner"] else None
        rows.append(base + [short_label(ld), ld["lun"], f"{ld['size_gb']:,.0f}", short_label(owner) if owner else "-"])
    return rows


def _volume_groups_table(sheet: Sheet) -> Any:
    """One row per volume group: its LPAR (with its server in a design of several), type, LTG,
    PP size and number of PVs."""
    topo = sheet.topo
    vgs = [
        [
            label(topo, vg.parent),
            short_label(vg),
            vg["vg_type"],
            kb_text(vg["ltg_kb"]),
            f"{vg['pp_mb']} MB",
            len(vg["pvs"]),
        ]
        for vg in topo.of_kind("volume_group")
    ]
    if not vgs:
        return sheet.p("The design has no volume groups.")
    return data_table(
        sheet,
        ("LPAR", "Volume group", "Type", "LTG", "PP size", "PVs"),
        vgs,
        (0.16, 0.24, 0.14, 0.14, 0.16, 0.1),
        numeric=(3, 4, 5),
    )


def _logical_volumes_table(sheet: Sheet) -> Any:
    """One row per logical volume: its volume group (with its LPAR: every LPAR may have a
    'datavg'), stripe size, width, size and the workloads on it."""
    topo = sheet.topo
    lvs = []
    for lv in topo.of_kind("logical_volume"):
        wl = topo.children(lv.id, "workload")
        work = ", ".join(f"{w['purpose']}, {kb_text(w['request_kb'])} requests, {w['read_pct']:g} % read" for w in wl)
        lvs.append(
            [
                label(topo, lv.parent),
                short_label(lv),
                kb_text(lv["stripe_kb"]) if lv["stripe_kb"] else "not striped",
                lv["width"] or "-",
                f"{lv['size_gb']:,.0f}",
                work,
            ]
        )
    if not lvs:
        return sheet.p("The design has no logical volumes.")
    return data_table(
        sheet,
        ("Volume group", "Logical volume", "Stripe size", "Width", "Size (GB)", "Workload"),
        lvs,
        (0.24, 0.14, 0.1, 0.07, 0.09, 0.36),
        numeric=(2, 3, 4),
    )
