"""Exports that leave the planner, one registry of formats for ``sanplan export`` and File > Export.

- :mod:`~planner.exports.registry`: :class:`ExportFormat` records; :func:`register`, :func:`get`,
  :func:`formats` (menu order). A module of this package that registers a format is found
  without an edit anywhere else.
- :mod:`~planner.exports.zoning`: Brocade Fabric OS and Cisco MDS NX-OS zoning scripts.
- :mod:`~planner.exports.cabling` and :mod:`~planner.exports.netbox`: cabling lists (CSV, NetBox
  cable import); :mod:`~planner.exports.netbox` with :mod:`~planner.exports.netbox_inventory`
  also the NetBox import folder; :mod:`~planner.exports.schedule`: the installer's schedule.
- :mod:`~planner.exports.buildsheet`: the PDF build sheet.
- :mod:`~planner.exports.interchange`: the JSON interchange file (written by planner.io).
- :mod:`~planner.exports.output`: :func:`atomic_write`, so a failed export never leaves a
  half-written file.

No Qt here; reportlab is imported inside the functions that draw the PDF.
"""

from __future__ import annotations

from planner.exports.buildsheet import PAPERS, build_sheet, reportlab_problem
from planner.exports.cabling import (
    CABLING_COLUMNS,
    cabling_csv,
    cabling_rows,
    endpoint,
    format_length,
    spreadsheet_cell,
    write_cabling_csv,
)
from planner.exports.netbox import NETBOX_COLUMNS, cabling_netbox, write_cabling_netbox
from planner.exports.output import ExportError, atomic_write, write_text
from planner.exports.registry import (
    CliFlag,
    ExportFormat,
    ExportOption,
    ExportSource,
    Written,
    formats,
    get,
    register,
    unregister,
)
from planner.exports.zoning import (
    NAME_RE,
    VENDORS,
    FabricZoning,
    fabric_file_name,
    safe_name,
    write_zoning,
    zoning_plan,
    zoning_script,
)

__all__ = [
    "CABLING_COLUMNS",
    "NAME_RE",
    "NETBOX_COLUMNS",
    "PAPERS",
    "VENDORS",
    "CliFlag",
    "ExportError",
    "ExportFormat",
    "ExportOption",
    "ExportSource",
    "FabricZoning",
    "Written",
    "atomic_write",
    "build_sheet",
    "cabling_csv",
    "cabling_netbox",
    "cabling_rows",
    "endpoint",
    "fabric_file_name",
    "format_length",
    "formats",
    "get",
    "register",
    "reportlab_problem",
    "safe_name",
    "spreadsheet_cell",
    "unregister",
    "write_cabling_csv",
    "write_cabling_netbox",
    "write_text",
    "write_zoning",
    "zoning_plan",
    "zoning_script",
]
