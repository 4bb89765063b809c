"""The build sheet's installer pages: the installation checklist (rack, cable, zone, map, verify,
with the commands that verify each step) and the bill of materials (parts, SFPs, cables by length
and media, racks)."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from planner import placement
from planner.exports.buildsheet.document import BOLD, FONT, rl_api
from planner.exports.buildsheet.sections_racks import rack_rows, racks_summary
from planner.exports.buildsheet.sheet import Sheet, data_table, new_section, plural
from planner.exports.cabling import format_length
from planner.schema import count_label, part_kinds

# -- the installation checklist -------------------------------------------------------------------------

# where each verifying command is documented (no source paper of the project lists them)
SOURCES = {
    "aix": "IBM AIX 5L Commands Reference (lsdev, lscfg, fcstat, cfgmgr)",
    "rdac": "IBM TotalStorage FAStT Storage Manager Installation and Support Guide for AIX (fget_config)",
    "fos": "Brocade Fabric OS Command Reference (cfgshow, zoneshow, cfgactvshow, switchshow)",
    "nxos": "Cisco MDS 9000 Family NX-OS Command Reference (show zoneset active, show flogi database)",
}


def _steps(sheet: Sheet) -> list[tuple[str, str, list[str]]]:
    """(step, what to do, commands that verify it) in the order an installer works."""
    topo = sheet.topo
    vendors = {str((topo.part_of(sw) or {}).get("switch_os", "")) for sw in topo.of_kind("switch")}
    zone_checks = []
    if "nx-os" in vendors:
        zone_checks += ["show zoneset active vsan N", "show flogi database"]
    if vendors - {"nx-os"} or not vendors:
        zone_checks += ["cfgactvshow", "cfgshow", "zoneshow", "switchshow"]
    multipaths = {str(lp["multipath"] or "") for lp in topo.of_kind("lpar")}
    disk_checks = ["lsdev -Cc disk"] + (["fget_config -Av"] if "RDAC" in multipaths else [])
    racked = [count_label(len(topo.of_kind(k)), k) for k in ("drawer", "switch", "subsystem")]
    n_place = len(sheet.placeholders)
    return [
        (
            "Rack",
            f"Set up {racks_summary(sheet)}; rack and power up {', '.join(racked)} at the rack units of the "
            "rack elevations; seat each HBA in the slot the slot placement names (its location code, as "
            "lscfg prints it).",
            ["lsdev -Cc adapter", "lscfg -vpl fcsN"],
        ),
        (
            "Cable",
            f"Lay the {plural(len(topo.of_kind('cable')), 'cable')} of the cabling schedule, label both ends with "
            "the cable labels, fit the SFPs of the bill of materials; each port's link light comes on.",
            ["fcstat fcsN", "switchshow" if vendors - {"nx-os"} or not vendors else "show interface brief"],
        ),
        (
            "Zone",
            ("Replace the placeholder WWPNs first (" + plural(n_place, "placeholder") + "). " if n_place else "")
            + "Paste each fabric's zoning script (sanplan export --zoning) on one switch of the fabric.",
            zone_checks,
        ),
        (
            "Map",
            f"Create the {count_label(len(topo.of_kind('host_mapping')), 'host mapping')} of the zoning section "
            "in the storage manager: each partition's HBA WWPNs and logical drives (LUN numbers as listed); "
            "then run cfgmgr on each LPAR to find the new disks.",
            ["cfgmgr"],
        ),
        (
            "Verify",
            "On each LPAR, every adapter is Available, every logical drive shows as a disk and, with RDAC, each "
            "logical drive is owned by the controller the storage layout names.",
            disk_checks,
        ),
    ]


def checklist(sheet: Sheet) -> list[Any]:
    rl = rl_api()
    out = [
        *new_section(sheet, "Installation checklist"),
        sheet.p(
            "Work from top to bottom; tick each step when its commands show what the sheet says. fcsN is the "
            "adapter's AIX name (slot placement); in show zoneset, N is the fabric's VSAN."
        ),
    ]
    body = sheet.styles["body"]
    rows = [["Done", "Step", "What to do", "Verify with"]]
    for step, what, commands in _steps(sheet):
        cmds = "<br/>".join(f"<font name='Courier'>{escape(c)}</font>" for c in commands)
        rows.append(
            ["", rl.Paragraph(f"<b>{step}</b>", body), rl.Paragraph(escape(what), body), rl.Paragraph(cmds, body)]
        )
    w = sheet.portrait.width
    table = rl.Table(rows, colWidths=[0.07 * w, 0.1 * w, 0.55 * w, 0.28 * w], repeatRows=1, hAlign="LEFT")
    table.setStyle(
        rl.TableStyle(
            [
                ("FONT", (0, 0), (-1, 0), BOLD, 8),
                ("FONT", (0, 1), (-1, -1), FONT, 8),
                ("BACKGROUND", (0, 0), (-1, 0), rl.colors.HexColor("#e3e7ea")),
                ("GRID", (0, 0), (-1, -1), 0.5, rl.colors.HexColor("#777777")),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("TOPPADDING", (0, 1), (-1, -1), 5),
                ("BOTTOMPADDING", (0, 1), (-1, -1), 5),
            ]
        )
    )
    out.append(table)
    out.append(rl.Spacer(1, 6))
    out.append(
        sheet.p(
            "<i>Where the commands are documented:</i> " + "; ".join(escape(s) for s in SOURCES.values()) + ".", "small"
        )
    )
    return out


# -- the bill of materials ------------------------------------------------------------------------------


def _optics(part: dict[str, Any]) -> tuple[str, str]:
    """The part's ``port_optics`` ("sfp", "built-in" or "") and its source, from the catalog."""
    own = str(part.get("port_optics", "") or "")
    if not own:
        return "", ""
    return own, str(part.get("port_optics_source", "") or f"part record {part.get('id', '')}: port_optics = {own}")


def sfp_count(sheet: Sheet) -> tuple[dict[str, int], list[str]]:
    """SFPs per part id (one per cable end on a port whose part takes an SFP) and the notes on how."""
    topo = sheet.topo
    counts: dict[str, int] = {}
    notes: dict[str, None] = {}
    for cab in topo.of_kind("cable"):
        for end in (cab["a"], cab["b"]):
            device = _device_of(topo, end)
            part = topo.part_of(device) if device is not None else None
            if part is None:
                continue
            optics, note = _optics(part)
            notes[
                note
                or f"part {part.get('id', '?')} does not say whether its ports take SFPs (a part record saved "
                "before catalog 6); count its transceivers by hand"
            ] = None
            if optics == "sfp":
                counts[part["id"]] = counts.get(part["id"], 0) + 1
    return counts, list(notes)


def _device_of(topo: Any, port: str) -> Any:
    for kind in ("hba", "switch", "subsystem"):
        dev = topo.ancestor(port, kind)
        if dev is not None:
            return dev
    return None


def cable_groups(sheet: Sheet) -> dict[tuple[str, str], int]:
    """(media, length) -> cables. The length comes from the rack positions of both ends
    (:func:`planner.placement.cable_length_m`), else the length entered on the cable, else it
    reads 'length not set'."""
    out: dict[tuple[str, str], int] = {}
    for cab in sheet.topo.of_kind("cable"):
        placed = placement.cable_length_m(sheet.topo, cab.id)
        length = format_length(placed if placed is not None else float(cab["length_m"] or 0))
        how = " (from rack positions)" if placed is not None else " (as entered)"
        key = (str(cab["media"]), f"{length} m{how}" if length else "length not set")
        out[key] = out.get(key, 0) + 1
    return out


def bom(sheet: Sheet) -> list[Any]:
    topo = sheet.topo
    counts: dict[str, int] = {}
    for c in topo.components():
        if c.part:
            counts[c.part] = counts.get(c.part, 0) + 1
    order = {k: i for i, k in enumerate(part_kinds())}
    rows = []
    for pid in sorted(counts, key=lambda p: (order.get((topo.parts.get(p) or {}).get("kind", ""), 99), p)):
        part = topo.parts.get(pid) or {}
        rows.append([counts[pid], pid, part.get("name", ""), part.get("feature_code", ""), part.get("kind", "")])
    sfps, notes = sfp_count(sheet)
    for pid, n in sorted(sfps.items()):
        rows.append([n, "SFP", f"2 Gb short-wave LC SFP for the {pid} ports that are cabled", "", "transceiver"])
    groups = cable_groups(sheet)
    for (media, length), n in sorted(groups.items(), key=lambda kv: (kv[0][0], _metres(kv[0][1]), kv[0][1])):
        rows.append([n, "cable", f"Fibre Channel cable {media}, {length}", "", "cable"])
    rows += rack_rows(sheet)
    head = ("Quantity", "Part", "Description", "Feature code", "Kind")
    out = [
        *new_section(sheet, "Bill of materials"),
        sheet.p(
            "Counted from the design: every part placed, one SFP per cable end on a port that takes one, and the "
            "cables by media and length."
        ),
    ]
    if not rows:
        return out + [sheet.p("The design holds no parts.")]
    out.append(data_table(sheet, head, rows, (0.09, 0.15, 0.5, 0.14, 0.12), numeric=(0,)))
    if notes:
        out.append(sheet.p("<i>Transceivers:</i> " + escape("; ".join(notes)) + ".", "small"))
    if any("from rack positions" in length for _, length in groups):
        out.append(sheet.p("<i>Cable lengths:</i> " + escape(placement.LENGTH_RULE), "small"))
    return out


def _metres(text: str) -> float:
    """'7 m (from rack positions)' -> 7.0 (sorts cable groups by length; no length sorts last)."""
    head = text.split(" ", 1)[0]
    try:
        return float(head)
    except ValueError:
        return float("inf")
