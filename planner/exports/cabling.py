"""Cabling lists: every cable with both ends named the way an installer knows them, as CSV.
Registers the export format ``cabling-csv`` (``sanplan export --cabling csv OUT``).

Cells a spreadsheet would run as a formula get a leading apostrophe (:func:`spreadsheet_cell`).
"""

from __future__ import annotations

import csv
import io
import os
from typing import Any

from planner.exports.output import write_text
from planner.exports.registry import CliFlag, ExportFormat, ExportSource, Progress, Written, register
from planner.model import Component, Topology
from planner.naming import short_label

CABLING_COLUMNS = ("label", "from_device", "from_port", "to_device", "to_port", "fabric", "length_m", "media")


def endpoint(topo: Topology, port_id: str) -> tuple[str, str]:
    """(device, port) as racked and cabled: ('p690', 'fcs0'), ('sw1', 'port 5'), ('fastt1', 'A1')."""
    port = topo.get(port_id)
    if port is None:
        return "", ""
    if port.kind == "hba_port":
        hba = topo.get(port.parent)
        server = topo.ancestor(port.id, "server")
        device = short_label(server) if server is not None else (short_label(hba) if hba is not None else "")
        single = hba is not None and len(topo.children(hba.id, "hba_port")) == 1
        return device, short_label(hba) if single else short_label(port)
    if port.kind == "switch_port":
        sw = topo.ancestor(port.id, "switch")
        return (short_label(sw) if sw is not None else ""), f"port {port['index']}"
    if port.kind == "host_port":
        sub = topo.ancestor(port.id, "subsystem")
        ctl = topo.get(port.parent)
        name = f"{ctl['slot_name'] if ctl is not None and ctl.kind == 'controller' else ''}{port['index']}"
        return (short_label(sub) if sub is not None else ""), name
    return short_label(port), ""


def fabric_of_cable(topo: Topology, cable: Component) -> str:
    """The fabric name of the switch (or switches) a cable plugs into; '' for a direct cable."""
    names: list[str] = []
    for end in (cable["a"], cable["b"]):
        sw = topo.ancestor(end, "switch") if end and end in topo else None
        fab = topo.get(sw["fabric"]) if sw is not None and sw["fabric"] else None
        if fab is not None and short_label(fab) not in names:
            names.append(short_label(fab))
    return " / ".join(names)


def cabling_rows(topo: Topology) -> list[dict[str, Any]]:
    """Every cable in design order: label, from_device, from_port, to_device, to_port, fabric,
    length_m (float, 0 = not given), media."""
    rows = []
    for cab in topo.of_kind("cable"):
        a_dev, a_port = endpoint(topo, cab["a"])
        b_dev, b_port = endpoint(topo, cab["b"])
        rows.append(
            {
                "label": cab["label"] or short_label(cab),
                "from_device": a_dev,
                "from_port": a_port,
                "to_device": b_dev,
                "to_port": b_port,
                "fabric": fabric_of_cable(topo, cab),
                "length_m": float(cab["length_m"] or 0),
                "media": cab["media"],
            }
        )
    return rows


def spreadsheet_cell(value: Any) -> str:
    """Text for a CSV cell that a spreadsheet will not run as a formula (OWASP CSV injection):
    a cell starting with = + - @ tab or carriage return gets a leading apostrophe."""
    text = "" if value is None else str(value)
    if text and text[0] in "=+-@\t\r":
        return "'" + text
    return text


def format_length(metres: float) -> str:
    """5.0 -> '5', 2.5 -> '2.5', 0 -> '' (not given)."""
    if not metres:
        return ""
    return f"{metres:.2f}".rstrip("0").rstrip(".")


def csv_text(header: tuple[str, ...], rows: list[list[str]]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
    writer.writerow(header)
    writer.writerows([[spreadsheet_cell(c) for c in row] for row in rows])
    return buf.getvalue()


def cabling_csv(topo: Topology) -> str:
    """The cabling schedule as CSV text (columns :data:`CABLING_COLUMNS`)."""
    rows = [[r[k] if k != "length_m" else format_length(r[k]) for k in CABLING_COLUMNS] for r in cabling_rows(topo)]
    return csv_text(CABLING_COLUMNS, rows)


def write_cabling_csv(topo: Topology, path: str | os.PathLike[str]) -> int:
    """Write the cabling schedule CSV atomically; returns the number of cables."""
    write_text(path, cabling_csv(topo))
    return len(topo.of_kind("cable"))


# -- the export format ---------------------------------------------------------------------------------

CABLING_FLAG = CliFlag("--cabling", "write the cabling list, csv or netbox (NetBox cable import)", "FORMAT", order=40)


def _write_csv(source: ExportSource, path: str, *, options: dict[str, Any], progress: Progress) -> list[Written]:
    """The cabling schedule CSV."""
    n = write_cabling_csv(source.topology, path)
    return [Written(path, f": {n} cables (CSV)")]


register(
    ExportFormat(
        id="cabling-csv",
        title="Cabling: &CSV...",
        file_filter="CSV (*.csv)",
        extension=".csv",
        write=_write_csv,
        cli=CABLING_FLAG,
        cli_choice="csv",
        group="files",
        order=30,
    )
)
