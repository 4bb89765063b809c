"""The NetBox cable bulk-import CSV (dcim cables between interfaces, status planned).
Registers the export format ``netbox`` (``sanplan export --cabling netbox OUT``).
"""

from __future__ import annotations

import os
from typing import Any

from planner.exports.cabling import CABLING_FLAG, cabling_rows, csv_text, format_length
from planner.exports.output import write_text
from planner.exports.registry import ExportFormat, ExportSource, Progress, Written, register
from planner.model import Topology

NETBOX_COLUMNS = (
    "side_a_device",
    "side_a_type",
    "side_a_name",
    "side_b_device",
    "side_b_type",
    "side_b_name",
    "type",
    "status",
    "label",
    "color",
    "length",
    "length_unit",
)
#: cable media (model choices) -> NetBox cable type slug (dcim CableTypeChoices). FC copper
#: cables are passive twinax, NetBox's "dac-passive".
NETBOX_CABLE_TYPES = {
    "LC-LC OM2": "mmf-om2",
    "LC-SC OM2": "mmf-om2",
    "SC-SC OM2": "mmf-om2",
    "LC-LC OM3": "mmf-om3",
    "copper": "dac-passive",
}


def cabling_netbox(topo: Topology) -> str:
    """NetBox cable bulk-import CSV (columns :data:`NETBOX_COLUMNS`; interfaces, status planned)."""
    rows = []
    for r in cabling_rows(topo):
        length = format_length(r["length_m"])
        rows.append(
            [
                r["from_device"],
                "dcim.interface",
                r["from_port"],
                r["to_device"],
                "dcim.interface",
                r["to_port"],
                NETBOX_CABLE_TYPES.get(r["media"], ""),
                "planned",
                r["label"],
                "",
                length,
                "m" if length else "",
            ]
        )
    return csv_text(NETBOX_COLUMNS, rows)


def write_cabling_netbox(topo: Topology, path: str | os.PathLike[str]) -> int:
    """Write the NetBox cable import CSV atomically; returns the number of cables."""
    write_text(path, cabling_netbox(topo))
    return len(topo.of_kind("cable"))


def _write_netbox(source: ExportSource, path: str, *, options: dict[str, Any], progress: Progress) -> list[Written]:
    """The NetBox cable import CSV."""
    n = write_cabling_netbox(source.topology, path)
    return [Written(path, f": {n} cables (NetBox cable import)")]


register(
    ExportFormat(
        id="netbox",
        title="Cabling: &NetBox import...",
        file_filter="CSV (*.csv)",
        extension=".csv",
        write=_write_netbox,
        cli=CABLING_FLAG,
        cli_choice="netbox",
        group="files",
        order=31,
    )
)
