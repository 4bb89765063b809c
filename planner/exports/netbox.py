"""NetBox 4.x import files: everything a design needs, in import order, in one folder.
Registers ``netbox-import`` (``sanplan export FILE --netbox DIR``) and ``netbox`` (the cables
file alone, ``sanplan export FILE --cabling netbox OUT``, for a NetBox that has the devices).

The files (numbered in import order; the NetBox page for each is in the README written beside
them, :func:`readme_text`)::

    01-manufacturers.csv  02-device-types/<slug>.yaml  03-device-roles.csv  04-sites.csv
    05-racks.csv (only when the design has racks)  06-devices.csv  07-interfaces.csv
    08-cables.csv  README.txt

Column names are those of NetBox's import forms (dcim/forms/bulk_import.py) and values its
choices (dcim/choices.py); the YAML follows the devicetype-library schema. No cell carries the
spreadsheet apostrophe: a name NetBox or a spreadsheet would misread is refused
(:func:`planner.exports.netbox_inventory.inventory`), and every file is read back the way
NetBox reads it (``csv.Sniffer`` over ``,;|`` and tab) before anything is written.
"""

from __future__ import annotations

import csv
import io
import json
import os
from typing import Any

from planner import placement
from planner.exports.cabling import CABLING_FLAG, format_length
from planner.exports.netbox_inventory import STATUS, Inventory, NbDeviceType, inventory, slugify
from planner.exports.output import ExportError, write_text, write_texts
from planner.exports.registry import CliFlag, ExportFormat, ExportSource, Progress, Written, register
from planner.model import Topology

NETBOX_COLUMNS = (
    "side_a_device",
    "side_a_type",
    "side_a_name",
    "side_a_site",
    "side_b_device",
    "side_b_type",
    "side_b_name",
    "side_b_site",
    "type",
    "status",
    "label",
    "length",
    "length_unit",
)
MANUFACTURER_COLUMNS = ("name", "slug")
ROLE_COLUMNS = ("name", "slug", "color")
SITE_COLUMNS = ("name", "slug", "status", "description")
RACK_COLUMNS = ("site", "name", "status", "width", "u_height", "outer_width", "outer_unit", "description")
DEVICE_COLUMNS = (
    "name",
    "role",
    "manufacturer",
    "device_type",
    "status",
    "site",
    "rack",
    "position",
    "face",
    "description",
)
INTERFACE_COLUMNS = ("device", "name", "label", "type", "speed", "wwn", "description")
#: NetBox reads a CSV with csv.Sniffer over these delimiters (utilities/forms/bulk_import.py)
SNIFF_DELIMITERS = ",;|\t"

FILE_NAMES = {
    "manufacturers": "01-manufacturers.csv",
    "device_types": "02-device-types",
    "roles": "03-device-roles.csv",
    "sites": "04-sites.csv",
    "racks": "05-racks.csv",
    "devices": "06-devices.csv",
    "interfaces": "07-interfaces.csv",
    "cables": "08-cables.csv",
    "readme": "README.txt",
}


def netbox_csv(name: str, header: tuple[str, ...], rows: list[list[Any]]) -> str:
    """CSV text as NetBox imports it: no spreadsheet apostrophe (names are checked instead), and
    read back the way NetBox reads it. Raises ExportError when NetBox would guess another
    delimiter or quote character, naming the cells to rename."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
    writer.writerow(header)
    writer.writerows([["" if c is None else str(c) for c in row] for row in rows])
    text = buf.getvalue()
    if rows:
        dialect = csv.Sniffer().sniff(text.strip(), delimiters=SNIFF_DELIMITERS)
        if dialect.delimiter != "," or dialect.quotechar != '"':
            odd = sorted({str(c) for row in rows for c in row if any(ch in str(c) for ch in ";|'")})
            raise ExportError(
                f"{name}: NetBox would read this file with {dialect.delimiter!r} between columns and "
                f"{dialect.quotechar!r} as the quote; rename these so they hold no ; | or ': {', '.join(odd[:5])}"
            )
    return text


def _number(value: float) -> str:
    return f"{value:g}"


def device_type_yaml(dt: NbDeviceType) -> str:
    """One device type in the devicetype-library YAML format (a document starting with ``---``,
    so NetBox's import page detects YAML). Strings are written as JSON strings, which YAML reads
    as double-quoted scalars."""
    lines = [
        "---",
        f"manufacturer: {json.dumps(dt.manufacturer)}",
        f"model: {json.dumps(dt.model)}",
        f"slug: {json.dumps(dt.slug)}",
    ]
    if dt.part_number:
        lines.append(f"part_number: {json.dumps(dt.part_number)}")
    lines += [f"u_height: {_number(dt.u_height)}", f"is_full_depth: {'true' if dt.is_full_depth else 'false'}"]
    if dt.interfaces:
        lines.append("interfaces:")
        for name, kind, mgmt in dt.interfaces:
            lines += [f"  - name: {json.dumps(name)}", f"    type: {json.dumps(kind)}"]
            if mgmt:
                lines.append("    mgmt_only: true")
    return "\n".join(lines) + "\n"


def device_type_file(dt: NbDeviceType) -> str:
    """'02-device-types/1722-60u-turbo.yaml': named by the part number (or model) as the library wants."""
    return f"{FILE_NAMES['device_types']}/{slugify(dt.part_number or dt.model)}.yaml"


def netbox_texts(inv: Inventory) -> dict[str, str]:
    """Every file (relative path -> text), in import order."""
    files: dict[str, str] = {}
    files[FILE_NAMES["manufacturers"]] = netbox_csv(
        FILE_NAMES["manufacturers"], MANUFACTURER_COLUMNS, [[m, slugify(m)] for m in inv.manufacturers]
    )
    for dt in inv.device_types:
        files[device_type_file(dt)] = device_type_yaml(dt)
    files[FILE_NAMES["roles"]] = netbox_csv(FILE_NAMES["roles"], ROLE_COLUMNS, [list(r) for r in inv.roles])
    files[FILE_NAMES["sites"]] = netbox_csv(
        FILE_NAMES["sites"], SITE_COLUMNS, [[name, slug, STATUS, text] for name, slug, text in inv.sites]
    )
    if inv.racks:
        rows = [
            [r.site, r.name, STATUS, r.width_in, r.u_height, _number(r.outer_width_mm) if r.outer_width_mm else "",
             "mm" if r.outer_width_mm else "", r.description]
            for r in inv.racks
        ]  # fmt: skip
        files[FILE_NAMES["racks"]] = netbox_csv(FILE_NAMES["racks"], RACK_COLUMNS, rows)
    files[FILE_NAMES["devices"]] = netbox_csv(
        FILE_NAMES["devices"],
        DEVICE_COLUMNS,
        [
            [d.name, d.role, d.manufacturer, d.model, STATUS, d.site, d.rack, d.position or "", d.face, d.description]
            for d in inv.devices
        ],
    )
    files[FILE_NAMES["interfaces"]] = netbox_csv(
        FILE_NAMES["interfaces"],
        INTERFACE_COLUMNS,
        [[i.device, i.name, i.label, i.type, i.speed_kbps or "", i.wwn, i.description] for i in inv.interfaces],
    )
    files[FILE_NAMES["cables"]] = cables_csv(inv)
    files[FILE_NAMES["readme"]] = readme_text(inv, list(files))
    return files


def cables_csv(inv: Inventory) -> str:
    """The cables file (columns :data:`NETBOX_COLUMNS`): interfaces at both ends found by site,
    device and name; status planned; length in metres where known."""
    rows = []
    for c in inv.cables:
        length = format_length(c.length_m)
        rows.append(
            [c.a_device, "dcim.interface", c.a_name, c.a_site, c.b_device, "dcim.interface", c.b_name, c.b_site,
             c.type, STATUS, c.label, length, "m" if length else ""]
        )  # fmt: skip
    return netbox_csv(FILE_NAMES["cables"], NETBOX_COLUMNS, rows)


#: (file key, NetBox 4 menu path, import page URL) in import order
IMPORT_PAGES = (
    ("manufacturers", "Devices > Manufacturers > Import", "/dcim/manufacturers/import/"),
    ("device_types", "Devices > Device Types > Import (one file at a time; YAML)", "/dcim/device-types/import/"),
    ("roles", "Devices > Device Roles > Import", "/dcim/device-roles/import/"),
    ("sites", "Organization > Sites > Import", "/dcim/sites/import/"),
    ("racks", "Racks > Racks > Import", "/dcim/racks/import/"),
    ("devices", "Devices > Devices > Import", "/dcim/devices/import/"),
    ("interfaces", "Devices > Interfaces > Import", "/dcim/interfaces/import/"),
    ("cables", "Connections > Cables > Import", "/dcim/cables/import/"),
)


def readme_text(inv: Inventory, written: list[str]) -> str:
    """The README beside the files: import order with the NetBox page for each, and what the
    files assume (status planned, rows NetBox has already, where devices without a rack go)."""
    lines = [
        "NetBox 4.x import files written by SANplan",
        "",
        f"{len(inv.devices)} devices of {len(inv.device_types)} device types, {len(inv.interfaces)} interfaces "
        f"with a WWN, {len(inv.cables)} cables; everything has status 'planned'.",
        "",
        "Import the files in this order, each on its NetBox page (menu path, or the page's URL):",
    ]
    n = 0
    for key, page, url in IMPORT_PAGES:
        if key == "device_types":
            files = [f for f in written if f.startswith(FILE_NAMES[key] + "/")]
        else:
            files = [FILE_NAMES[key]] if FILE_NAMES[key] in written else []
        for f in files:
            n += 1
            lines.append(f"  {n:2}. {f}: {page}, {url}")
    lines += [
        "",
        "NetBox imports a file whole or not at all, and names the row it refused ('Record 3 ...').",
        "A row for something NetBox has already (the manufacturer IBM, a device type, a role such as",
        "Server or Switch, your site) is refused as a duplicate: delete that row (or that file) and",
        "import the file again.",
        "NetBox finds the device of each row of 07-interfaces.csv by its name alone: a device of the",
        'same name anywhere in your NetBox (another site too) fails that file with \'"NAME" is not a',
        "unique value for this field'; rename the device in the design and export again.",
        "Ports with a WWPN (HBA ports on the drawer they sit in, storage host ports) are created by",
        "07-interfaces.csv with their WWN: NetBox's import changes an existing interface only by its",
        "numeric id, so the device types hold only the ports without a WWPN (switch ports).",
        "Cable lengths: as entered in the design; where none is, from the rack positions:",
        placement.LENGTH_RULE,
    ]
    if not inv.racks:
        site = next((s[0] for s in inv.sites), "")
        lines += [
            "",
            f"The design has no racks: every device goes to the site {site!r} without a rack or",
            "position (NetBox allows it); place them in racks in SANplan, or in NetBox afterwards.",
        ]
    elif inv.default_site:
        lines += ["", "Devices not placed in a rack go to their site without a rack or position."]
    return "\n".join(lines) + "\n"


def write_netbox(topo: Topology, folder: str | os.PathLike[str]) -> tuple[list[str], Inventory]:
    """Write every NetBox file into ``folder`` (made if missing), all or none. Returns the paths
    written and the inventory. Raises ExportError for a name NetBox would misread or a folder
    that cannot be written."""
    inv = inventory(topo)
    texts = netbox_texts(inv)
    root = os.fspath(folder)
    if os.path.exists(root) and not os.path.isdir(root):
        raise ExportError(f"{root}: is a file; the NetBox export writes a folder of files, choose a folder")
    try:
        os.makedirs(os.path.join(root, FILE_NAMES["device_types"]), exist_ok=True)
    except OSError as err:
        raise ExportError(f"{root}: cannot make the folder ({err.strerror or err}); choose another") from None
    paths = {os.path.join(root, *rel.split("/")): text for rel, text in texts.items()}
    write_texts(paths)
    return list(paths), inv


def cabling_netbox(topo: Topology) -> str:
    """The NetBox cables file alone (columns :data:`NETBOX_COLUMNS`), for a NetBox that has the
    devices and interfaces already (from ``--netbox DIR``: the same names)."""
    return cables_csv(inventory(topo))


def write_cabling_netbox(topo: Topology, path: str | os.PathLike[str]) -> int:
    """Write the NetBox cables file atomically; returns the number of cables."""
    write_text(path, cabling_netbox(topo))
    return len(topo.of_kind("cable"))


def _write_cables(source: ExportSource, path: str, *, options: dict[str, Any], progress: Progress) -> list[Written]:
    """The NetBox cables file."""
    n = write_cabling_netbox(source.topology, path)
    return [Written(path, f": {n} cables (NetBox cable import; devices and interfaces from --netbox)")]


def _write_folder(source: ExportSource, path: str, *, options: dict[str, Any], progress: Progress) -> list[Written]:
    """Every NetBox import file, in a folder."""
    paths, inv = write_netbox(source.topology, path)
    summary = {
        FILE_NAMES["devices"]: f": {len(inv.devices)} devices",
        FILE_NAMES["interfaces"]: f": {len(inv.interfaces)} interfaces with a WWN",
        FILE_NAMES["cables"]: f": {len(inv.cables)} cables",
        FILE_NAMES["readme"]: ": the import order",
    }
    return [Written(p, summary.get(os.path.basename(p), "")) for p in paths]


register(
    ExportFormat(
        id="netbox",
        title="Cabling: &NetBox cables only...",
        file_filter="CSV (*.csv)",
        extension=".csv",
        write=_write_cables,
        cli=CABLING_FLAG,
        cli_choice="netbox",
        group="files",
        order=31,
    )
)
register(
    ExportFormat(
        id="netbox-import",
        title="NetBox &import files (folder)...",
        file_filter="",
        extension="",
        write=_write_folder,
        cli=CliFlag(
            "--netbox",
            "write the NetBox 4 import files (device types, sites, racks, devices, interfaces, cables) into the folder OUT",
            order=45,
        ),
        group="files",
        order=32,
        folder=True,
    )
)
