"""What a design puts into NetBox: manufacturers, device types, roles, sites, racks, devices,
interfaces and cables, named the same way in every file (no Qt, no file writing).

The NetBox model, decided against NetBox 4.6 (netbox-community/netbox, dcim/forms/bulk_import.py
and netbox/views/generic/bulk_views.py):

- A device is a rackable unit (:func:`planner.placement.placeable_kinds`): the server (its CEC),
  each RIO2 drawer, each switch, each storage subsystem and each expansion enclosure with a part;
  its role is its kind. Drawers and enclosures are named after their
  owner ("p690 Drawer 1", "fastt1 EXP700 1"), since NetBox wants device names unique in a site.
- A device type is a part (devicetype-library format). It holds the ports every unit of the part
  has and that carry no identity of their own: switch ports, and a management port where the part
  names one (``mgmt_port = {name, type}`` in the catalog).
- Ports with a WWPN (HBA ports, storage host ports) are created by the interfaces file, with
  their ``wwn``. NetBox's bulk import updates an existing object only by its numeric ``id``
  (a row without ``id`` always creates one), so an interface the device type already made could
  not be given its WWN from a file; HBAs are optional adapters in drawer slots anyway, so their
  ports sit on the drawer device the cable plugs into.

:func:`inventory` builds it all and raises ExportError naming every component whose name NetBox
would misread (a formula-like first character, a line break, surrounding spaces, too long, not
unique) with the fix; :func:`planner.exports.netbox.netbox_csv` then reads each file back the
way NetBox does (its CSV sniffer) and refuses names that would change the delimiter or quote.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from planner import placement
from planner.exports.output import ExportError
from planner.model import Component, Topology
from planner.naming import label, qualified_name, short_label
from planner.schema import KINDS

#: NetBox's field limits (dcim models: device, interface and label names 64, cable label 100)
NAME_MAX = 64
LABEL_MAX = 100
DEFAULT_ROLE_COLOUR = "9e9e9e"  # NetBox's grey, for a kind with no canvas fill
#: Fibre Channel speed (Gbps) -> NetBox interface type (dcim InterfaceTypeChoices, SFP form factor)
FC_INTERFACE_TYPES = {1: "1gfc-sfp", 2: "2gfc-sfp", 4: "4gfc-sfp", 8: "8gfc-sfpp", 16: "16gfc-sfpp", 32: "32gfc-sfp28"}
#: cable media (model choices) -> NetBox cable type (dcim CableTypeChoices); FC copper is passive twinax
CABLE_TYPES = {
    "LC-LC OM2": "mmf-om2",
    "LC-SC OM2": "mmf-om2",
    "SC-SC OM2": "mmf-om2",
    "LC-LC OM3": "mmf-om3",
    "copper": "dac-passive",
}
#: a first character a spreadsheet runs as a formula; NetBox files refuse these names instead of
#: guarding them with an apostrophe (NetBox would keep the apostrophe as part of the name)
FORMULA_START = "=+-@"
STATUS = "planned"


@dataclass(frozen=True)
class NbInterface:
    device: str
    name: str
    type: str
    wwn: str = ""
    label: str = ""
    description: str = ""
    speed_kbps: int = 0
    mgmt_only: bool = False


@dataclass
class NbDeviceType:
    part_id: str
    manufacturer: str
    model: str
    slug: str
    part_number: str
    u_height: float
    is_full_depth: bool
    interfaces: list[tuple[str, str, bool]] = field(default_factory=list)  # (name, type, mgmt_only)


@dataclass(frozen=True)
class NbDevice:
    comp_id: str
    kind: str
    name: str
    role: str
    manufacturer: str
    model: str
    site: str
    rack: str = ""
    position: int = 0
    face: str = ""
    description: str = ""


@dataclass(frozen=True)
class NbRack:
    site: str
    name: str
    u_height: int
    width_in: int = 19  # rail to rail (NetBox RackWidthChoices: 10, 19, 21, 23)
    description: str = ""
    outer_width_mm: float = 0


@dataclass(frozen=True)
class NbCable:
    cable_id: str
    a_device: str
    a_name: str
    a_site: str
    b_device: str
    b_name: str
    b_site: str
    type: str
    label: str
    length_m: float


@dataclass
class Inventory:
    """Everything one design puts into NetBox, in import order."""

    manufacturers: list[str]
    device_types: list[NbDeviceType]
    roles: list[tuple[str, str, str]]  # (name, slug, colour)
    sites: list[tuple[str, str, str]]  # (name, slug, description)
    racks: list[NbRack]
    devices: list[NbDevice]
    interfaces: list[NbInterface]
    cables: list[NbCable]
    default_site: bool = False  # the design has no site: one named after the design holds it all
    port_names: dict[str, tuple[str, str]] = field(default_factory=dict)  # port id -> (device, interface)


def role_name(kind: str) -> str:
    """The NetBox device role of a rackable kind: its display name ('Server', 'Drawer', 'Switch')."""
    name = KINDS[kind].name
    return name[:1].upper() + name[1:]


def role_colour(kind: str) -> str:
    """The role's colour in NetBox's rack elevations: the kind's canvas fill, as RRGGBB."""
    fill = KINDS[kind].fill
    return fill.lstrip("#").lower() if fill else DEFAULT_ROLE_COLOUR


def slugify(text: str) -> str:
    """NetBox slug (``^[-a-z0-9_]+$``): 'IBM/Brocade' -> 'ibm-brocade', '1722-60U Turbo' ->
    '1722-60u-turbo'; '+' becomes '-plus' and '&' 'and' as the devicetype-library does."""
    s = text.casefold().replace("+", "-plus").replace("&", "and")
    return re.sub(r"[^a-z0-9_]+", "-", s).strip("-") or "x"


def fc_type(speed_gbps: Any) -> str:
    """NetBox interface type of an FC port at this speed; the nearest faster one for an odd speed."""
    speed = int(float(speed_gbps or 0)) or 2
    for gbps in sorted(FC_INTERFACE_TYPES):
        if speed <= gbps:
            return FC_INTERFACE_TYPES[gbps]
    return FC_INTERFACE_TYPES[max(FC_INTERFACE_TYPES)]


def switch_port_name(part: dict[str, Any] | None, index: int) -> str:
    """A switch port as the device type names it: 'fc1/N' (N = index + 1) where the part says
    ``port_names = "fc1/N"`` (NX-OS), else 'port N' (Fabric OS port numbers, as cabled)."""
    if part and part.get("port_names") == "fc1/N":
        return f"fc1/{index + 1}"
    return f"port {index}"


def _of_kind(topo: Topology, kind: str) -> list[Component]:
    return topo.of_kind(kind) if kind in KINDS else []


class _Builder:
    """Collects the inventory and the problems found on the way."""

    def __init__(self, topo: Topology) -> None:
        self.topo = topo
        self.problems: list[str] = []
        self.types: dict[str, NbDeviceType] = {}
        self.devices: dict[str, NbDevice] = {}  # component id -> device
        self.ports: dict[str, tuple[str, str]] = {}  # port id -> (device name, interface name)
        self.port_sites: dict[str, str] = {}  # port id -> the site of its device

    # -- names ------------------------------------------------------------------------------------
    def check(self, comp: Component | None, what: str, value: str, max_len: int = NAME_MAX) -> str:
        """``value`` when NetBox takes it as it is; else records the problem (naming ``comp``)."""
        who = f"{KINDS[comp.kind].name} {label(self.topo, comp)!r}: the {what}" if comp is not None else what
        fix = "rename it"
        if value[:1] in FORMULA_START:
            self.problems.append(
                f"{who} {value!r} begins with {value[0]!r}, which a spreadsheet runs as a formula; "
                f"{fix} so it begins with a letter or digit (NetBox files carry no guarding apostrophe)"
            )
        elif any(c in value for c in "\t\r\n"):
            self.problems.append(f"{who} {value!r} holds a line break or tab; {fix} on one line")
        elif value != value.strip():
            self.problems.append(f"{who} {value!r} begins or ends with a space (NetBox strips it); {fix}")
        elif len(value) > max_len:
            self.problems.append(f"{who} {value!r} is longer than NetBox's {max_len} characters; {fix}")
        elif not value:
            self.problems.append(f"{who} is empty; give it one")
        return value

    # -- device types -------------------------------------------------------------------------------
    def device_type(self, comp: Component) -> NbDeviceType | None:
        part = self.topo.part_of(comp)
        if part is None:
            self.problems.append(
                f"{KINDS[comp.kind].name} {label(self.topo, comp)!r} has no part; place a catalog part on it "
                "(NetBox needs its device type)"
            )
            return None
        found = self.types.get(comp.part or "")
        if found is not None:
            return found
        manufacturer = self.check(None, f"the vendor of part {comp.part!r}", str(part.get("vendor") or ""), 100)
        model = self.check(None, f"the name of part {comp.part!r}", str(part.get("name") or ""), 100)
        number = str(part.get("feature_code") or "")
        slug = f"{slugify(manufacturer)}-{slugify(number or model)}"
        dt = NbDeviceType(
            str(comp.part),
            manufacturer,
            model,
            slug,
            number,
            float(placement.u_height(self.topo, comp.id) or part.get("frame_u") or 1),
            bool(part.get("full_depth", True)),
            _template_interfaces(comp.kind, part),
        )
        self.types[str(comp.part)] = dt
        return dt


def _template_interfaces(kind: str, part: dict[str, Any]) -> list[tuple[str, str, bool]]:
    """The ports every unit of the part has: switch ports, and the management port if named."""
    out: list[tuple[str, str, bool]] = []
    if kind == "switch":
        out += [
            (switch_port_name(part, i), fc_type(part.get("speed_gbps")), False)
            for i in range(int(part.get("ports") or 0))
        ]
    mgmt = part.get("mgmt_port")
    if isinstance(mgmt, dict) and mgmt.get("name"):
        out.append((str(mgmt["name"]), str(mgmt.get("type") or "1000base-t"), True))
    return out


def device_name(topo: Topology, comp: Component) -> str:
    """'p690', 'p690 Drawer 1', 'sw1', 'fastt1', 'fastt1 EXP700 1'."""
    if comp.kind == "drawer":
        server = topo.ancestor(comp.id, "server")
        own = short_label(comp)
        if server is not None and short_label(server) not in own:
            return f"{short_label(server)} {own}"
        return own
    if comp.kind == "enclosure":
        return qualified_name(topo, comp)
    return short_label(comp)


def _is_device(topo: Topology, comp: Component) -> bool:
    # the enclosure a subsystem comes with (no part of its own) is the subsystem itself
    return comp.kind != "enclosure" or comp.part is not None


def inventory(topo: Topology) -> Inventory:
    """The design as NetBox objects. Raises ExportError listing what NetBox would misread (at
    most five problems, then how many more) with the fix for each. Cost: O(components)."""
    b = _Builder(topo)
    sites, racks, rack_site, default_site = _sites_and_racks(b)
    devices: list[NbDevice] = []
    for kind in placement.placeable_kinds():
        for comp in topo.of_kind(kind):
            if not _is_device(topo, comp):
                continue
            dt = b.device_type(comp)
            dev = _device(b, comp, dt, rack_site, default_site)
            devices.append(dev)
            b.devices[comp.id] = dev
    _unique(b, devices)
    interfaces = _interfaces(b)
    cables = _cables(b)
    if b.problems:
        shown = b.problems[:5]
        more = f" (and {len(b.problems) - 5} more)" if len(b.problems) > 5 else ""
        raise ExportError("NetBox import: " + "; ".join(shown) + more)
    types = list(b.types.values())
    used_roles = [k for k in placement.placeable_kinds() if any(d.kind == k for d in devices)]
    return Inventory(
        manufacturers=list(dict.fromkeys(t.manufacturer for t in types)),
        device_types=types,
        roles=[(role_name(k), slugify(role_name(k)), role_colour(k)) for k in used_roles],
        sites=sites,
        racks=racks,
        devices=devices,
        interfaces=interfaces,
        cables=cables,
        default_site=bool(default_site),
        port_names=b.ports,
    )


def _sites_and_racks(b: _Builder) -> tuple[list[tuple[str, str, str]], list[NbRack], dict[str, tuple[str, str]], str]:
    """Sites (name, slug, description), racks, rack id -> (site, rack name), and the name of the
    site that holds unplaced devices ('' when every device sits in a rack of the only site)."""
    topo = b.topo
    sites = [
        (b.check(s, "name", short_label(s), 100), slugify(short_label(s)), str(s.get("description") or ""))
        for s in _of_kind(topo, "site")
    ]
    racks: list[NbRack] = []
    rack_site: dict[str, tuple[str, str]] = {}
    for r in _of_kind(topo, "rack"):
        site = topo.get(r.parent)
        site_name = short_label(site) if site is not None else ""
        name = b.check(r, "name", short_label(r), 100)
        width, where = _rack_width(topo, r)
        racks.append(NbRack(site_name, name, int(r.get("height_u") or 42), width, where, float(r.get("width_mm") or 0)))
        rack_site[r.id] = (site_name, name)
    default = ""
    unplaced = any(
        _is_device(topo, c) and placement.position(topo, c.id) is None
        for k in placement.placeable_kinds()
        for c in topo.of_kind(k)
    )
    if unplaced:
        if len(sites) == 1:
            default = sites[0][0]
        else:
            name = str(topo.meta.get("name") or "SANplan design")
            default = b.check(None, "the design name (the name of its NetBox site)", name, 100)
            if all(s[0] != default for s in sites):
                sites.append((default, slugify(default), "made by SANplan for the devices not in a rack"))
    return sites, racks, rack_site, default


def _rack_width(topo: Topology, rack: Component) -> tuple[int, str]:
    """(NetBox rail width in inches, description): a 24-inch frame (the p690's) is written as 23,
    the widest NetBox offers, and its description says so."""
    row, pos = str(rack.get("row") or ""), rack.get("position")
    where = [f"row {row} position {pos}"] if row else []
    owner = topo.get(rack.get("frame_of") or "")
    inches = int((topo.part_of(owner) or {}).get("rack_width_in") or 19) if owner is not None else 19
    if owner is not None:
        where.append(f"frame {rack.get('frame') or 1} of {short_label(owner)}")
    if inches > 23:
        where.append(f"a {inches}-inch frame (NetBox's widest choice is 23 inches)")
        inches = 23
    return (inches if inches in (10, 19, 21, 23) else 19), ", ".join(where)


def _device(
    b: _Builder, comp: Component, dt: NbDeviceType | None, rack_site: dict[str, tuple[str, str]], default_site: str
) -> NbDevice:
    topo = b.topo
    name = b.check(comp, "name", device_name(topo, comp))
    pos = placement.position(topo, comp.id)
    placed = rack_site.get(pos.rack) if pos is not None else None
    site, rack = placed if placed else (default_site, "")
    position = pos.u if placed and pos is not None else 0
    face = pos.face if placed and pos is not None else ""
    part = topo.part_of(comp) or {}
    description = str(part.get("name") or "")
    if comp.kind == "drawer" and placement.drawer_location(topo, comp.id):
        description = f"location {placement.drawer_location(topo, comp.id)}"
    return NbDevice(
        comp.id,
        comp.kind,
        name,
        role_name(comp.kind),
        dt.manufacturer if dt else "",
        dt.model if dt else "",
        site,
        rack,
        position,
        face,
        description if description != (dt.model if dt else "") else "",
    )


def _unique(b: _Builder, devices: list[NbDevice]) -> None:
    """NetBox keeps device names unique per site, ignoring case; its interface import finds the
    device by name alone (dcim InterfaceImportForm: no site column), so a name used in two sites
    is refused there too ('"fastt1" is not a unique value for this field')."""
    seen: dict[str, NbDevice] = {}
    for d in devices:
        other = seen.setdefault(d.name.casefold(), d)
        if other is d:
            continue
        what = (
            f"{KINDS[d.kind].name} {d.name!r} and {KINDS[other.kind].name} {other.name!r} would be two NetBox devices"
        )
        if other.site == d.site:
            b.problems.append(f"{what} of one name in one site; rename one of them")
        else:
            b.problems.append(
                f"{what} of one name (in sites {other.site!r} and {d.site!r}), and NetBox's interface import finds "
                "a device by its name alone; rename one of them"
            )


def hba_port_name(topo: Topology, port: Component) -> str:
    """An HBA port as its drawer's interface: the adapter's name ('fcs0') for a one-port
    adapter, adapter and port ('fcs4 port 1') for a multi-port one."""
    hba = topo.get(port.parent)
    if hba is not None and len(topo.children(hba.id, "hba_port")) == 1:
        return short_label(hba)
    return qualified_name(topo, port)


def _location_code(topo: Topology, cid: str) -> str:
    return placement.location_code(topo, cid)


def _interfaces(b: _Builder) -> list[NbInterface]:
    """The ports with a WWPN (created by the interfaces file); records every port's (device,
    interface name), switch ports included, for the cables."""
    topo = b.topo
    out: list[NbInterface] = []
    for port in topo.of_kind("hba_port"):
        drawer = topo.ancestor(port.id, "drawer")
        dev = b.devices.get(drawer.id) if drawer is not None else None
        if dev is None:
            continue
        hba = topo.get(port.parent)
        slot = topo.ancestor(port.id, "slot")
        name = b.check(hba, "name", hba_port_name(topo, port))
        part = topo.part_of(hba) if hba is not None else None
        lpar = topo.get(hba.get("lpar")) if hba is not None else None
        description = " ".join(
            x
            for x in (
                (part or {}).get("feature_code") and f"FC {part['feature_code']}",
                slot is not None and f"in slot {slot['number']}",
                lpar is not None and f"for LPAR {short_label(lpar)}",
            )
            if x
        )
        out.append(_fc_interface(dev.name, name, port, _location_code(topo, port.id), description))
        b.ports[port.id], b.port_sites[port.id] = (dev.name, name), dev.site
    for port in topo.of_kind("host_port"):
        sub = topo.ancestor(port.id, "subsystem")
        dev = b.devices.get(sub.id) if sub is not None else None
        ctl = topo.get(port.parent)
        if dev is None or ctl is None:
            continue
        name = b.check(port, "name", f"{ctl.get('slot_name', '')}{port['index']}")
        out.append(_fc_interface(dev.name, name, port, "", f"controller {ctl.get('slot_name', '')} host port"))
        b.ports[port.id], b.port_sites[port.id] = (dev.name, name), dev.site
    for port in topo.of_kind("switch_port"):
        sw = topo.ancestor(port.id, "switch")
        dev = b.devices.get(sw.id) if sw is not None else None
        if dev is not None:
            b.ports[port.id] = (dev.name, switch_port_name(topo.part_of(sw), int(port["index"])))
            b.port_sites[port.id] = dev.site
    _unique_interfaces(b, out)
    return out


def _fc_interface(device: str, name: str, port: Component, location: str, description: str) -> NbInterface:
    speed = port.get("speed_gbps") or 0
    return NbInterface(
        device,
        name,
        fc_type(speed),
        wwn=str(port.get("wwpn") or ""),
        label=location,
        description=description,
        speed_kbps=int(float(speed) * 1_000_000),
    )


def _unique_interfaces(b: _Builder, interfaces: list[NbInterface]) -> None:
    """NetBox keeps interface names unique per device (the device type's included)."""
    templates = {
        d.name: {n for n, _, _ in b.types[d_part].interfaces}
        for d in b.devices.values()
        if (d_part := b.topo[d.comp_id].part) in b.types
    }
    seen: set[tuple[str, str]] = set()
    for i in interfaces:
        key = (i.device, i.name)
        if key in seen or i.name in templates.get(i.device, ()):
            b.problems.append(f"{i.device}: two interfaces are named {i.name!r}; rename one of the adapters or ports")
        seen.add(key)


def cable_length(topo: Topology, cable: Component) -> float:
    """The cable's length in metres: as given, else from the placement (0: not known)."""
    given = float(cable.get("length_m") or 0)
    if given:
        return given
    return float(placement.cable_length_m(topo, cable.id) or 0)


def _cables(b: _Builder) -> list[NbCable]:
    topo = b.topo
    out = []
    for cab in topo.of_kind("cable"):
        ends = [b.ports.get(cab.get("a") or ""), b.ports.get(cab.get("b") or "")]
        if ends[0] is None or ends[1] is None:
            b.problems.append(
                f"cable {label(topo, cab)!r}: an end is not on an HBA, switch or host port of a device; reconnect it"
            )
            continue
        (a_dev, a_name), (b_dev, b_name) = ends
        a_site, b_site = (b.port_sites[cab.get("a") or ""], b.port_sites[cab.get("b") or ""])
        text = b.check(cab, "label", str(cab.get("label") or short_label(cab)), LABEL_MAX)
        out.append(
            NbCable(
                cab.id,
                a_dev,
                a_name,
                a_site,
                b_dev,
                b_name,
                b_site,
                CABLE_TYPES.get(str(cab.get("media") or ""), ""),
                text,
                cable_length(topo, cab),
            )
        )
    return out
