"""The installer's cabling schedule: one CSV row per cable, both ends as site / rack / U / device /
slot or port with the AIX location code, and what the installer checks off.
Registers ``cabling-schedule`` (``sanplan export FILE --schedule OUT.csv``).

Rows are in the order an installer works: grouped by the rack of the switch, then the switch
(from the top of the rack down, as the elevation reads), then its port number; a cable without a switch end comes last,
by the rack and unit of its first end. The end on a server drawer or a storage subsystem is end A,
the switch port end B. Device and port names are those of the NetBox files
(:mod:`planner.exports.netbox_inventory`).

It is a spreadsheet file: a cell a spreadsheet would run as a formula gets the guarding
apostrophe (:func:`planner.exports.cabling.spreadsheet_cell`). Lengths say where they come from
(``length_from``) and, when derived from the rack positions, the rule (``length_rule``); there
are no comment rows, so any CSV reader takes the file as it is.
"""

from __future__ import annotations

import os
import re
from typing import Any

from planner import placement
from planner.exports.cabling import csv_text, fabric_of_cable, format_length
from planner.exports.netbox_inventory import device_name, hba_port_name, switch_port_name
from planner.exports.output import write_text
from planner.exports.registry import CliFlag, ExportFormat, ExportSource, Progress, Written, register
from planner.model import Component, Topology
from planner.naming import short_label

SCHEDULE_COLUMNS = (
    "seq",
    "label",
    "a_site",
    "a_rack",
    "a_u",
    "a_device",
    "a_slot",
    "a_port",
    "a_location_code",
    "b_site",
    "b_rack",
    "b_u",
    "b_device",
    "b_slot",
    "b_port",
    "b_location_code",
    "wwpn",
    "wwpn_status",
    "speed_gbps",
    "fabric",
    "zones",
    "media",
    "length_m",
    "length_from",
    "length_rule",
    "installed",
    "tested",
)


def _natural(text: str) -> tuple:
    return tuple((0, int(t), "") if t.isdigit() else (1, 0, t) for t in re.split(r"(\d+)", text or "") if t)


def _end(topo: Topology, port_id: str) -> dict[str, Any]:
    """One end: site, rack, U, device, slot, port, location code, WWPN and its status, speed."""
    port = topo.get(port_id)
    out: dict[str, Any] = dict.fromkeys(("site", "rack", "u", "device", "slot", "port", "location_code", "wwpn"), "")
    out.update(wwpn_status="", speed=0, kind="", index=0)
    if port is None:
        return out
    unit = placement.unit_of(topo, port_id)
    pos = placement.position(topo, unit.id) if unit is not None else None
    if pos is not None:
        site, rack = topo.get(pos.site), topo.get(pos.rack)
        out.update(site=short_label(site) if site else "", rack=short_label(rack) if rack else "", u=pos.u)
    if unit is not None:
        out["device"] = device_name(topo, unit)
    out.update(kind=port.kind, index=int(port.get("index") or 0), speed=port.get("speed_gbps") or 0)
    if port.kind == "hba_port":
        slot = topo.ancestor(port_id, "slot")
        out.update(port=hba_port_name(topo, port), slot=f"slot {slot['number']}" if slot is not None else "")
        out["location_code"] = placement.location_code(topo, port_id)
    elif port.kind == "host_port":
        ctl = topo.get(port.parent)
        out["port"] = f"{ctl.get('slot_name', '') if ctl is not None else ''}{port['index']}"
        out["slot"] = f"controller {ctl.get('slot_name', '')}" if ctl is not None else ""
    elif port.kind == "switch_port":
        sw = topo.ancestor(port_id, "switch")
        out["port"] = switch_port_name(topo.part_of(sw) if sw is not None else None, int(port["index"]))
    if port.kind in ("hba_port", "host_port"):
        out["wwpn"] = str(port.get("wwpn") or "")
        out["wwpn_status"] = "missing" if not out["wwpn"] else ("placeholder" if port.get("wwpn_placeholder") else "")
    return out


def _end_order(end: dict[str, Any]) -> tuple[bool, bool]:
    """End A is the server or storage end (an HBA port before a host port), end B the switch."""
    return end["kind"] == "switch_port", end["kind"] != "hba_port"


def _zones(topo: Topology, ports: set[str]) -> str:
    return " ".join(short_label(z) for z in topo.of_kind("zone") if ports & set(z.get("members") or ()))


def _length(topo: Topology, cable: Component) -> tuple[str, str, str]:
    """(length in metres, where it comes from, the rule when derived)."""
    given = float(cable.get("length_m") or 0)
    if given:
        return format_length(given), "design", ""
    derived = placement.cable_length_m(topo, cable.id)
    if derived:
        return format_length(derived), "placement rule", placement.LENGTH_RULE
    return "", "", ""


def schedule_rows(topo: Topology) -> list[dict[str, Any]]:
    """Every cable as a schedule row (columns :data:`SCHEDULE_COLUMNS`), in installer order."""
    rows = []
    for cab in topo.of_kind("cable"):
        ends = sorted((_end(topo, cab.get("a") or ""), _end(topo, cab.get("b") or "")), key=_end_order)
        a, b = ends
        length, source, rule = _length(topo, cab)
        speeds = [float(e["speed"]) for e in ends if e["speed"]]
        row = {"label": cab.get("label") or short_label(cab)}
        for side, end in (("a", a), ("b", b)):
            for key in ("site", "rack", "u", "device", "slot", "port", "location_code"):
                row[f"{side}_{key}"] = end[key]
        wwpn_end = a if a["wwpn"] or a["kind"] in ("hba_port", "host_port") else b
        row.update(
            wwpn=wwpn_end["wwpn"],
            wwpn_status=wwpn_end["wwpn_status"],
            speed_gbps=format_length(min(speeds)) if speeds else "",
            fabric=fabric_of_cable(topo, cab),
            zones=_zones(topo, {cab.get("a"), cab.get("b")} - {None, ""}),
            media=cab.get("media") or "",
            length_m=length,
            length_from=source,
            length_rule=rule,
            installed="",
            tested="",
        )
        switch_end = b if b["kind"] == "switch_port" else None
        key = (
            (
                0,
                _natural(switch_end["rack"]),
                -(switch_end["u"] or 0),
                _natural(switch_end["device"]),
                switch_end["index"],
            )
            if switch_end
            else (1, _natural(a["rack"]), -(a["u"] or 0), _natural(a["device"]), 0)
        )
        rows.append((key, row))
    rows.sort(key=lambda kr: kr[0])
    out = []
    for n, (_, row) in enumerate(rows, start=1):
        out.append({"seq": n, **row})
    return out


def schedule_csv(topo: Topology) -> str:
    """The schedule as CSV text, formula cells guarded."""
    rows = schedule_rows(topo)
    return csv_text(SCHEDULE_COLUMNS, [[r[c] for c in SCHEDULE_COLUMNS] for r in rows])


def write_schedule(topo: Topology, path: str | os.PathLike[str]) -> int:
    """Write the schedule atomically; returns the number of cables."""
    write_text(path, schedule_csv(topo))
    return len(topo.of_kind("cable"))


def _write(source: ExportSource, path: str, *, options: dict[str, Any], progress: Progress) -> list[Written]:
    """The installer's cabling schedule."""
    n = write_schedule(source.topology, path)
    return [Written(path, f": {n} cables in installation order")]


register(
    ExportFormat(
        id="cabling-schedule",
        title="Cabling: installer's &schedule (CSV)...",
        file_filter="CSV (*.csv)",
        extension=".csv",
        write=_write,
        cli=CliFlag("--schedule", "write the installer's cabling schedule (CSV, in installation order)", order=42),
        group="files",
        order=33,
    )
)
