"""Editing operations: what a user does, as one undoable command each.

Each function checks the edit the way a real editor would, applies it to the topology and
returns the applied command (a :class:`~planner.commands.Builder`), ready to be pushed on an
undo stack with ``stack.push(cmd, applied=True)``. An impossible edit raises
:class:`~planner.model.ModelError` with the reason and leaves the topology unchanged.

Decisions on impossible edits (issue #2 §8):
- refused: a part in a slot, port or bay that does not exist or is taken; a cable to a taken
  port, between two ports of one device, or between two HBA ports; a malformed WWPN; a value
  outside what the part or AIX allows (schema);
- accepted as a draft and reported by a rule: a RAID level with too few or too many drives
  (RAID_DRIVE_COUNT), a duplicate WWPN (WWPN_DUPLICATE), a zone with one member
  (ZONE_MEMBER_MISSING), an unbalanced ownership (LUN_OWNERSHIP_BALANCE), anything the
  analysis finds saturated.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from planner import naming
from planner.commands import (
    AddComponent,
    Builder,
    Command,
    PutPart,
    RemoveComponent,
    Reparent,
    SetAttr,
)
from planner.model import KINDS, PORT_KINDS, Component, ModelError, Topology, check_attr, default_attrs
from planner.naming import counted
from planner.placement import placement_problem
from planner.schema import kind_name, name_problem, structural_kinds


@contextmanager
def _building(topo: Topology, text: str) -> Iterator[Builder]:
    b = Builder(topo, text)
    try:
        yield b
    except Exception:
        b.abort()
        raise


def _new(
    bld: Builder, kind: str, cid: str, parent: str | None, name: str = "", part: str | None = None, **attrs: Any
) -> Component:
    problem = name_problem(name)
    if problem:
        raise ModelError(f"{kind_name(kind)} {name[:64]!r}: {problem}")
    values = default_attrs(kind)
    for k, v in attrs.items():
        values[k] = check_attr(kind, k, v)
    comp = Component(bld.topo.new_id(cid), kind, name, parent, part, values)
    bld.run(AddComponent(comp))
    return bld.topo[comp.id]


def _use_part(b: Builder, part: dict[str, Any], kind: str) -> str:
    if not isinstance(part, dict) or "id" not in part:
        raise ModelError("a part must be a catalog entry with an id")
    if part.get("kind") != kind:
        raise ModelError(f"part {part['id']} is a {part.get('kind')}, not a {kind}")
    if b.topo.parts.get(part["id"]) != part:
        b.run(PutPart(part))
    return part["id"]


def _expect(topo: Topology, cid: str, *kinds: str) -> Component:
    comp = topo.get(cid)
    if comp is None:
        raise ModelError(f"there is no {' or '.join(kinds)} {cid!r} in this design")
    if comp.kind not in kinds:
        raise ModelError(f"{cid} is a {comp.kind}, not a {' or '.join(kinds)}")
    return comp


# -- server side ------------------------------------------------------------------------------


def add_server(topo: Topology, part: dict[str, Any], name: str = "p690") -> Builder:
    with _building(topo, f"Add server {name}") as b:
        pid = _use_part(b, part, "server")
        _new(b, "server", name, None, name, pid, model=part.get("name", ""))
    return b


def add_lpar(topo: Topology, server: str, name: str, multipath: str = "RDAC", aix_level: str = "5.2") -> Builder:
    _expect(topo, server, "server")
    with _building(topo, f"Add LPAR {name}") as b:
        _new(b, "lpar", f"{server}.{name}", server, name, multipath=multipath, aix_level=aix_level)
    return b


def add_drawer(
    topo: Topology, server: str, part: dict[str, Any], index: int | None = None, location: str = ""
) -> Builder:
    """Add an I/O drawer with its planars, RIO2 links, PHBs and PCI slots from the slot map."""
    srv = _expect(topo, server, "server")
    drawers = topo.children(server, "drawer")
    limit = (topo.parts.get(srv.part or "") or {}).get("max_drawers")
    if limit and len(drawers) >= limit:
        raise ModelError(f"{server} already has {len(drawers)} drawers, the most this server takes")
    used = {d["index"] for d in drawers}
    if index is None:
        index = next(i for i in range(1, 65) if i not in used)
    elif index in used:
        raise ModelError(f"{server} already has a drawer {index}")
    slot_map = part.get("slot_map") or []
    if not slot_map:
        raise ModelError(f"part {part.get('id')} has no slot map")
    with _building(topo, f"Add drawer {index}") as b:
        pid = _use_part(b, part, "drawer")
        d = _new(b, "drawer", f"d{index}", server, f"Drawer {index}", pid, index=index, location=location)
        planars: dict[int, Component] = {}
        links: dict[tuple[int, int], Component] = {}
        for row in slot_map:
            p = row["planar"]
            if p not in planars:
                planars[p] = _new(b, "planar", f"{d.id}.p{p}", d.id, f"Planar {p}", index=p)
            key = (p, row["link"])
            if key not in links:
                links[key] = _new(
                    b,
                    "rio_link",
                    f"{d.id}.p{p}.link{row['link']}",
                    planars[p].id,
                    f"link{row['link']}",
                    index=row["link"],
                )
            phb = _new(
                b,
                "phb",
                f"{d.id}.phb{row['drawer_phb']}",
                links[key].id,
                f"PHB{row['phb']} (drawer PHB{row['drawer_phb']})",
                index=row["phb"],
                drawer_phb=row["drawer_phb"],
            )
            for s in row["slots"]:
                _new(b, "slot", f"{d.id}.s{s}", phb.id, f"Slot {s}", number=s)
    return b


def find_slot(topo: Topology, drawer: str, number: int) -> Component:
    """The PCI slot ``number`` of ``drawer``; raises ModelError naming the valid slots."""
    _expect(topo, drawer, "drawer")
    slots = [c for c in topo.descendants(drawer) if c.kind == "slot"]
    for s in slots:
        if s["number"] == number:
            return s
    valid = ", ".join(str(s["number"]) for s in slots)
    raise ModelError(f"{drawer} has no slot {number}; its slots are {valid}")


def add_hba(
    topo: Topology, slot: str, part: dict[str, Any], lpar: str = "", wwpns: Iterable[str] = (), name: str = ""
) -> Builder:
    """Put an HBA into a free PCI slot; it gets one port per the part's ``ports``."""
    s = _expect(topo, slot, "slot")
    if topo.children(slot, "hba"):
        raise ModelError(f"{slot} already holds {topo.children(slot, 'hba')[0].id}; choose a free slot")
    if lpar:
        _expect(topo, lpar, "lpar")
    wwpns = list(wwpns)
    nports = int(part.get("ports", 1))
    if len(wwpns) > nports:
        raise ModelError(f"part {part.get('id')} has {counted(nports, 'port')}, {len(wwpns)} WWPNs given")
    drawer = topo.ancestor(slot, "drawer")
    tag = f"{drawer.id if drawer else 'x'}s{s['number']}"
    with _building(topo, f"Add HBA in {slot}") as b:
        pid = _use_part(b, part, "hba")
        h = _new(b, "hba", f"hba.{tag}", slot, name or f"fcs {tag}", pid, lpar=lpar)
        for i in range(nports):
            _new(
                b,
                "hba_port",
                f"{h.id}.{i}",
                h.id,
                f"port {i}",
                index=i,
                wwpn=wwpns[i] if i < len(wwpns) else "",
                speed_gbps=part.get("speed_gbps", 2),
            )
    return b


def move_hba(topo: Topology, hba: str, slot: str) -> Builder:
    _expect(topo, hba, "hba")
    _expect(topo, slot, "slot")
    if topo.children(slot, "hba"):
        raise ModelError(f"{slot} is taken; choose a free slot")
    with _building(topo, f"Move {hba} to {slot}") as b:
        b.run(Reparent(hba, slot))
    return b


# -- SAN ---------------------------------------------------------------------------------------


def add_fabric(topo: Topology, name: str) -> Builder:
    with _building(topo, f"Add fabric {name}") as b:
        _new(b, "fabric", f"fab.{name}", None, name)
    return b


def add_switch(topo: Topology, part: dict[str, Any], fabric: str, name: str, domain_id: int = 1) -> Builder:
    """Add a switch with its ASICs (ports grouped as the part's ASIC map says) and backplane."""
    _expect(topo, fabric, "fabric")
    asics = part.get("asics") or [list(range(int(part.get("ports", 0))))]
    with _building(topo, f"Add switch {name}") as b:
        pid = _use_part(b, part, "switch")
        sw = _new(b, "switch", name, None, name, pid, fabric=fabric, domain_id=domain_id)
        for i, ports in enumerate(asics):
            a = _new(b, "asic", f"{sw.id}.asic{i}", sw.id, f"ASIC {i}", index=i)
            for p in ports:
                _new(
                    b,
                    "switch_port",
                    f"{sw.id}.p{p}",
                    a.id,
                    f"port {p}",
                    index=p,
                    speed_gbps=part.get("speed_gbps", 2),
                )
        if len(asics) > 1:
            _new(b, "backplane", f"{sw.id}.bp", sw.id, "backplane")
    return b


def switch_port(topo: Topology, switch: str, number: int) -> Component:
    _expect(topo, switch, "switch")
    for c in topo.descendants(switch):
        if c.kind == "switch_port" and c["index"] == number:
            return c
    raise ModelError(f"{switch} has no port {number}")


def cable_problem(topo: Topology, a: str | None, b: str | None) -> str | None:
    """Why a cable cannot join ports ``a`` and ``b``, or None when it can.

    Both must be free Fibre Channel ports (HBA, switch or host ports) of different devices;
    two HBA ports or two host ports meet only through a switch; an ISL joins two switches.
    The one decision used by :func:`add_cable` and by the canvas while a cable is drawn.
    """
    if not a or not b:
        return "a cable needs two ports"
    pa, pb = topo.get(a), topo.get(b)
    for cid, p in ((a, pa), (b, pb)):
        if p is None:
            return f"there is no component {cid!r} in this design"
        if p.kind not in PORT_KINDS:
            return f"{naming.qualified_name(topo, p)} is a {kind_name(p.kind)}; a cable ends at an HBA, switch or host port"
    if a == b:
        return f"a cable needs two different ports, both ends are {a}"
    for p in (pa, pb):
        cab = topo.cable_at(p.id)
        if cab is not None:
            return f"port {p.id} is taken by cable {naming.qualified_name(topo, cab)}; remove that cable first or choose a free port"
    kinds = {pa.kind, pb.kind}
    if kinds == {"hba_port"} or kinds == {"host_port"}:
        return f"cannot cable a {kind_name(pa.kind)} to a {kind_name(pb.kind)}; connect through a switch port"
    if pa.parent == pb.parent and pa.kind != "switch_port":
        return "both ends are on the same device"
    if kinds == {"switch_port"} and topo.ancestor(a, "switch") is topo.ancestor(b, "switch"):
        return "both ends are on the same switch; an ISL joins two switches"
    return None


def add_cable(
    topo: Topology, a: str, b_port: str, label: str = "", length_m: float = 0, media: str = "LC-LC OM2"
) -> Builder:
    """Lay a cable between two free, compatible ports (see :func:`cable_problem`)."""
    problem = cable_problem(topo, a, b_port)
    if problem:
        raise ModelError(problem)
    with _building(topo, f"Cable {a} - {b_port}") as b:
        n = len(topo.of_kind("cable")) + 1
        _new(
            b,
            "cable",
            f"cab{n}",
            None,
            label or f"C{n:03d}",
            a=a,
            b=b_port,
            label=label or f"C{n:03d}",
            length_m=length_m,
            media=media,
        )
    return b


def add_zone(topo: Topology, fabric: str, name: str, members: Iterable[str]) -> Builder:
    _expect(topo, fabric, "fabric")
    members = tuple(members)
    for m in members:
        _expect(topo, m, "hba_port", "host_port")
    with _building(topo, f"Add zone {name}") as b:
        _new(b, "zone", f"z.{name}", fabric, name, members=members)
    return b


# -- storage -----------------------------------------------------------------------------------


def add_subsystem(
    topo: Topology,
    part: dict[str, Any],
    name: str,
    wwpn_base: str = "",
    drive_part: dict[str, Any] | None = None,
    drives: int = 0,
) -> Builder:
    """Add a storage subsystem with its controllers and host ports; ``drives`` fills the bays."""
    ctrls = part.get("controllers") or ["A", "B"]
    per = int(part.get("host_ports_per_controller", 1))
    bays = int(part.get("drive_bays", 0))
    if drives > bays:
        raise ModelError(f"{part.get('id')} has {bays} drive bays, not {drives}; add an enclosure")
    with _building(topo, f"Add subsystem {name}") as b:
        pid = _use_part(b, part, "subsystem")
        sub = _new(b, "subsystem", name, None, name, pid, cache_mb=part.get("cache_mb", 0))
        n = 0
        for c in ctrls:
            ctl = _new(b, "controller", f"{sub.id}.{c}", sub.id, f"controller {c}", slot_name=c)
            for i in range(1, per + 1):
                wwpn = _wwpn_plus(wwpn_base, n) if wwpn_base else ""
                n += 1
                made_up = {"wwpn_placeholder": True} if wwpn else {}  # generated from the base: a placeholder
                _new(b, "host_port", f"{sub.id}.{c}{i}", ctl.id, f"{c}{i}", index=i, wwpn=wwpn, **made_up)
        if bays:
            enc = _new(b, "enclosure", f"{sub.id}.e0", sub.id, "controller drawer", index=0)
            _fill(b, enc, drive_part, drives)
    return b


def _wwpn_plus(base: str, n: int) -> str:
    digits = base.replace(":", "")
    value = (int(digits, 16) + n) % (1 << 64)
    text = f"{value:016x}"
    return ":".join(text[i : i + 2] for i in range(0, 16, 2))


def _fill(b: Builder, enc: Component, drive_part: dict[str, Any] | None, count: int) -> None:
    if count and drive_part is None:
        raise ModelError("choose a drive part to fill the bays")
    if count:
        dpid = _use_part(b, drive_part, "drive")
        for bay in range(1, count + 1):
            _new(b, "drive", f"{enc.id}.d{bay}", enc.id, f"Bay {bay}", dpid, bay=bay)


def add_enclosure(
    topo: Topology, subsystem: str, part: dict[str, Any], drive_part: dict[str, Any] | None = None, drives: int = 0
) -> Builder:
    _expect(topo, subsystem, "subsystem")
    bays = int(part.get("drive_bays", 0))
    if drives > bays:
        raise ModelError(f"{part.get('id')} has {bays} drive bays, not {drives}")
    index = 1 + max((e["index"] for e in topo.children(subsystem, "enclosure")), default=0)
    with _building(topo, f"Add enclosure to {subsystem}") as b:
        pid = _use_part(b, part, "enclosure")
        enc = _new(b, "enclosure", f"{subsystem}.e{index}", subsystem, f"{part.get('id')} {index}", pid, index=index)
        _fill(b, enc, drive_part, drives)
    return b


def free_drives(topo: Topology, subsystem: str) -> list[Component]:
    """Drives of a subsystem not yet in an array, in enclosure and bay order."""
    used = {d for a in topo.children(subsystem, "array") for d in a["drives"]}
    return [c for c in topo.descendants(subsystem) if c.kind == "drive" and c.id not in used]


def add_array(
    topo: Topology, subsystem: str, raid_level: int, drives: Iterable[str], segment_kb: int = 128, name: str = ""
) -> Builder:
    """Define an array on drives of the subsystem (drives already in an array are refused)."""
    _expect(topo, subsystem, "subsystem")
    drives = tuple(drives)
    free = {d.id for d in free_drives(topo, subsystem)}
    for d in drives:
        _expect(topo, d, "drive")
        if topo.ancestor(d, "subsystem").id != subsystem:
            raise ModelError(f"drive {d} belongs to another subsystem")
        if d not in free:
            raise ModelError(f"drive {d} is already in an array")
    n = len(topo.children(subsystem, "array")) + 1
    with _building(topo, f"Add array to {subsystem}") as b:
        _new(
            b,
            "array",
            f"{subsystem}.arr{n}",
            subsystem,
            name or f"Array {n}",
            raid_level=raid_level,
            drives=drives,
            segment_kb=segment_kb,
        )
    return b


def add_logical_drive(
    topo: Topology, array: str, owner: str, size_gb: float = 0, lun: int | None = None, name: str = ""
) -> Builder:
    arr = _expect(topo, array, "array")
    ctl = _expect(topo, owner, "controller")
    if ctl.parent != arr.parent:
        raise ModelError(f"{owner} is not a controller of {arr.parent}")
    sub = arr.parent
    existing = [ld for a in topo.children(sub, "array") for ld in topo.children(a.id, "logical_drive")]
    if lun is None:
        lun = len(existing)
    with _building(topo, f"Add logical drive to {array}") as b:
        _new(
            b,
            "logical_drive",
            f"{sub}.ld{len(existing) + 1}",
            array,
            name or f"LUN {lun}",
            size_gb=size_gb,
            owner=owner,
            lun=lun,
        )
    return b


def add_host_mapping(
    topo: Topology, subsystem: str, name: str, hba_ports: Iterable[str], logical_drives: Iterable[str]
) -> Builder:
    _expect(topo, subsystem, "subsystem")
    lds = tuple(logical_drives)
    for ld in lds:
        _expect(topo, ld, "logical_drive")
        if topo.ancestor(ld, "subsystem").id != subsystem:
            raise ModelError(f"logical drive {ld} is not on {subsystem}")
    ports = tuple(hba_ports)
    for p in ports:
        _expect(topo, p, "hba_port")
    with _building(topo, f"Add host mapping {name}") as b:
        _new(b, "host_mapping", f"{subsystem}.map.{name}", subsystem, name, hba_ports=ports, logical_drives=lds)
    return b


# -- AIX LVM -----------------------------------------------------------------------------------


def add_hdisks(topo: Topology, lpar: str, logical_drives: Iterable[str], max_transfer_kb: int = 256) -> Builder:
    _expect(topo, lpar, "lpar")
    n = len(topo.children(lpar, "hdisk"))
    with _building(topo, f"Configure hdisks on {lpar}") as b:
        for i, ld in enumerate(logical_drives):
            _expect(topo, ld, "logical_drive")
            _new(
                b,
                "hdisk",
                f"{lpar}.hdisk{n + i + 2}",
                lpar,
                f"hdisk{n + i + 2}",
                logical_drive=ld,
                max_transfer_kb=max_transfer_kb,
            )
    return b


def add_volume_group(
    topo: Topology,
    lpar: str,
    name: str,
    pvs: Iterable[str],
    vg_type: str = "normal",
    ltg_kb: int = 128,
    pp_mb: int = 64,
) -> Builder:
    _expect(topo, lpar, "lpar")
    pvs = tuple(pvs)
    for pv in pvs:
        _expect(topo, pv, "hdisk")
    taken = {pv for vg in topo.children(lpar, "volume_group") for pv in vg["pvs"]}
    dup = [pv for pv in pvs if pv in taken]
    if dup:
        raise ModelError(f"{dup[0]} already belongs to a volume group; a PV can be in one VG only")
    with _building(topo, f"Add volume group {name}") as b:
        _new(b, "volume_group", f"{lpar}.{name}", lpar, name, vg_type=vg_type, ltg_kb=ltg_kb, pp_mb=pp_mb, pvs=pvs)
    return b


def add_logical_volume(
    topo: Topology, vg: str, name: str, stripe_kb: int = 0, width: int = 0, size_gb: float = 0
) -> Builder:
    group = _expect(topo, vg, "volume_group")
    if width > len(group["pvs"]):
        raise ModelError(f"stripe width {width} exceeds the {len(group['pvs'])} PVs of {vg}")
    with _building(topo, f"Add logical volume {name}") as b:
        _new(b, "logical_volume", f"{vg}.{name}", vg, name, stripe_kb=stripe_kb, width=width, size_gb=size_gb)
    return b


def add_workload(topo: Topology, lv: str, name: str = "workload", **profile: Any) -> Builder:
    _expect(topo, lv, "logical_volume")
    with _building(topo, f"Add workload to {lv}") as b:
        _new(b, "workload", f"{lv}.wl", lv, name, **profile)
    return b


# -- generic -----------------------------------------------------------------------------------


def set_attr(topo: Topology, cid: str, key: str, value: Any) -> Builder:
    """Set one attribute, with the checks an editor makes beyond the schema."""
    comp = topo[cid]
    if key in ("parent", "id", "kind"):
        raise ModelError(f"the {key} of {cid} cannot be set; move or re-create the component")
    if comp.kind == "cable" and key in ("a", "b"):
        other = comp["b"] if key == "a" else comp["a"]
        port = _expect(topo, value, *PORT_KINDS)
        if port.id == other:
            raise ModelError("both ends of a cable cannot be the same port")
        taken = topo.cable_at(port.id)
        if taken is not None and taken.id != cid:
            raise ModelError(f"port {port.id} is taken by cable {naming.qualified_name(topo, taken)}")
    if comp.kind == "logical_drive" and key == "owner":
        ctl = _expect(topo, value, "controller")
        if ctl.parent != topo.ancestor(cid, "subsystem").id:
            raise ModelError(f"{value} is not a controller of this logical drive's subsystem")
    if key in ("rack", "u", "face") and {"rack", "u", "face"} <= set(KINDS[comp.kind].attrs):
        _check_position(topo, comp, key, value)
    spec = KINDS[comp.kind].attrs.get(key)
    if spec is not None and spec.ref:
        for target in (value if spec.many else (value,)) or ():
            if target:
                _expect(topo, target, *spec.ref)
    with _building(topo, f"Set {key} of {naming.qualified_name(topo, comp)}") as b:
        b.run(SetAttr(cid, key, value))
        if key == "wwpn" and comp.get("wwpn_placeholder"):  # the user's WWPN replaces a made-up one
            b.run(SetAttr(cid, "wwpn_placeholder", False))
    return b


def _check_position(topo: Topology, comp: Component, key: str, value: Any) -> None:
    """An inspector edit of a rack position: the new position must be free (planner.placement)."""
    where = {k: comp[k] for k in ("rack", "u", "face")} | {key: check_attr(comp.kind, key, value)}
    if where["rack"] and where["u"]:
        problem = placement_problem(topo, comp.id, where["rack"], where["u"], where["face"])
        if problem:
            raise ModelError(problem)


def delete(topo: Topology, ids: Iterable[str]) -> Builder:
    """Delete components with everything inside them; cables to removed ports go too, and
    references in zones, mappings and volume groups are cleaned. One undo step."""
    ids = [i for i in dict.fromkeys(ids)]
    for i in ids:
        topo[i]
    doomed: dict[str, Component] = {}
    for i in ids:
        doomed[i] = topo[i]
        for d in topo.descendants(i):
            doomed[d.id] = d
    # cables at removed ports go with them
    for cid in list(doomed):
        if topo[cid].kind in PORT_KINDS:
            cab = topo.cable_at(cid)
            if cab is not None:
                doomed[cab.id] = cab
    with _building(topo, f"Delete {', '.join(ids[:3])}{'...' if len(ids) > 3 else ''}") as b:
        for cid in list(doomed):
            for ref, attr in topo.referrers(cid):
                if ref.id in doomed:
                    continue
                spec = KINDS[ref.kind].attrs[attr]
                if spec.many:
                    b.run(SetAttr(ref.id, attr, tuple(v for v in topo[ref.id][attr] if v != cid)))
                else:
                    b.run(SetAttr(ref.id, attr, ""))
        # children before parents
        order = sorted(doomed, key=lambda c: -_depth(topo, c))
        for cid in order:
            b.run(RemoveComponent(cid))
    return b


def _depth(topo: Topology, cid: str) -> int:
    n, c = 0, topo.get(cid)
    while c is not None and c.parent:
        n += 1
        c = topo.get(c.parent)
    return n


def push(stack: Any, cmd: Command) -> Command:
    """Record an applied command on an undo stack (planner or Qt adapter)."""
    stack.push(cmd, applied=True)
    return cmd


#: parts of a device that are created and deleted with it, never on their own
STRUCTURAL = structural_kinds()  # kinds made with their parent (planner.schema)


def place_part(
    topo: Topology,
    part: dict[str, Any],
    target: str | None = None,
    parts: dict[str, dict[str, Any]] | None = None,
    drives: int | None = None,
) -> Builder:
    """Add a catalog part where the user dropped it (``target``: the component under the drop).

    A drawer goes into the server, an HBA into the slot it was dropped on (or the first free
    slot under the target, or in the design), an enclosure into its subsystem, a drive into a
    free bay. A new switch gets its own fabric; a new subsystem or enclosure gets ``drives``
    drives of the catalog's first drive (default: its bays full, 14 at most for a subsystem).
    Raises ModelError saying where the part can go when it cannot.
    """
    kind = part.get("kind")
    place = _PLACERS.get(kind)
    if place is None:
        raise ModelError(f"a {kind} part cannot be placed on the canvas")
    extra = {"drives": drives} if drives is not None and kind in ("subsystem", "enclosure") else {}
    return place(topo, part, topo.get(target) if target else None, parts, **extra)


def _place_server(topo: Topology, part: dict[str, Any], tgt: Component | None, parts: Any) -> Builder:
    n = len(topo.of_kind("server"))
    return add_server(topo, part, naming.free_name(topo, "server", "p690" if n == 0 else f"server{n + 1}"))


def _place_drawer(topo: Topology, part: dict[str, Any], tgt: Component | None, parts: Any) -> Builder:
    server = topo.ancestor(tgt.id, "server") if tgt else None
    servers = topo.of_kind("server")
    if server is None and not servers:
        raise ModelError("a drawer goes into a server: add a server (the p690) first")
    return add_drawer(topo, (server or servers[0]).id, part)


def _place_hba(topo: Topology, part: dict[str, Any], tgt: Component | None, parts: Any) -> Builder:
    slot = _free_slot(topo, tgt)
    server = topo.ancestor(slot.id, "server")
    own = [lp for lp in topo.of_kind("lpar") if lp.parent == (server.id if server else None)]
    return add_hba(topo, slot.id, part, lpar=own[0].id if own else "")


def _place_switch(topo: Topology, part: dict[str, Any], tgt: Component | None, parts: Any) -> Builder:
    n = len(topo.of_kind("switch")) + 1
    with _building(topo, f"Add switch {n}") as b:
        fname = naming.free_name(topo, "fabric", f"FAB_{chr(64 + n) if n <= 26 else n}")
        fab = _new(b, "fabric", f"fab.{fname}", None, fname)
        sub = add_switch(
            topo, part, fab.id, naming.free_name(topo, "switch", topo.new_id(f"sw{n}")), domain_id=min(n, 239)
        )
        b.commands.append(sub)
    return b


def _place_subsystem(
    topo: Topology, part: dict[str, Any], tgt: Component | None, parts: Any, drives: int | None = None
) -> Builder:
    n = len(topo.of_kind("subsystem")) + 1
    base = "ess" if "ESS" in part.get("id", "") else "fastt"
    drive = _first_drive(parts)
    bays = int(part.get("drive_bays", 0))
    count = min(bays, 14) if drives is None else drives
    name = naming.free_name(topo, "subsystem", topo.new_id(f"{base}{n}"))
    return add_subsystem(topo, part, name, drive_part=drive if bays else None, drives=count if drive else 0)


def _place_enclosure(
    topo: Topology, part: dict[str, Any], tgt: Component | None, parts: Any, drives: int | None = None
) -> Builder:
    sub = topo.ancestor(tgt.id, "subsystem") if tgt else None
    if sub is None:
        raise ModelError("drop an enclosure onto the subsystem it extends")
    drive = _first_drive(parts)
    count = int(part.get("drive_bays", 0)) if drives is None else drives
    return add_enclosure(topo, sub.id, part, drive_part=drive, drives=count if drive else 0)


def _place_drive(topo: Topology, part: dict[str, Any], tgt: Component | None, parts: Any) -> Builder:
    enc = topo.ancestor(tgt.id, "enclosure") if tgt else None
    sub = topo.ancestor(tgt.id, "subsystem") if tgt else None
    encs = [enc] if enc else (topo.children(sub.id, "enclosure") if sub else [])
    for e in encs:
        bays = int((topo.part_of(e) or topo.part_of(topo[e.parent]) or {}).get("drive_bays", 14))
        used = {d["bay"] for d in topo.children(e.id, "drive")}
        free = [i for i in range(1, bays + 1) if i not in used]
        if free:
            with _building(topo, f"Add drive to {naming.qualified_name(topo, e)}") as b:
                pid = _use_part(b, part, "drive")
                _new(b, "drive", f"{e.id}.d{free[0]}", e.id, f"Bay {free[0]}", pid, bay=free[0])
            return b
    raise ModelError("drop a drive onto an enclosure or subsystem with a free bay")


#: part kind -> how a dropped part of that kind is placed
_PLACERS: dict[str, Callable[..., Builder]] = {
    "server": _place_server,
    "drawer": _place_drawer,
    "hba": _place_hba,
    "switch": _place_switch,
    "subsystem": _place_subsystem,
    "enclosure": _place_enclosure,
    "drive": _place_drive,
}


def _first_drive(parts: dict[str, dict[str, Any]] | None) -> dict[str, Any] | None:
    for p in (parts or {}).values():
        if p.get("kind") == "drive":
            return p
    return None


def _free_slot(topo: Topology, tgt: Component | None) -> Component:
    if tgt is not None and tgt.kind == "slot":
        if topo.children(tgt.id, "hba"):
            raise ModelError(
                f"{naming.qualified_name(topo, tgt)} of {naming.qualified_name(topo, topo.ancestor(tgt.id, 'drawer'))} is taken; drop the HBA onto a free slot"
            )
        return tgt
    holds_slots = tgt is not None and any(c.kind == "slot" for c in topo.descendants(tgt.id))
    scope = [tgt] if holds_slots else topo.of_kind("drawer")
    for root in scope:
        for c in [root, *topo.descendants(root.id)]:
            if c.kind == "slot" and not topo.children(c.id, "hba"):
                return c
    raise ModelError("no free PCI slot: add a drawer or free a slot first")


def duplicate(topo: Topology, ids: Iterable[str]) -> Builder:
    """Copy drawers (with their HBAs in the same slots), subsystems (with enclosures, drives,
    arrays and logical drives), switches (same fabric) and HBAs (next free slot). WWPNs are
    left empty on the copies (a WWPN is unique; the WWPN rules remind the user)."""
    ids = list(dict.fromkeys(ids))
    with _building(topo, f"Duplicate {', '.join(ids[:3])}") as b:
        for cid in ids:
            c = _expect(topo, cid, "drawer", "subsystem", "switch", "hba")
            if c.kind == "drawer":
                b.commands.append(add_drawer(topo, c.parent, topo.parts[c.part]))
                new = topo.children(c.parent, "drawer")[-1]
                for hba in (h for h in topo.descendants(c.id) if h.kind == "hba"):
                    slot = find_slot(topo, new.id, topo[hba.parent]["number"])
                    b.commands.append(add_hba(topo, slot.id, topo.parts[hba.part], lpar=hba["lpar"]))
            elif c.kind == "switch":
                name = naming.free_name(topo, "switch", topo.new_id(f"sw{len(topo.of_kind('switch')) + 1}"))
                b.commands.append(add_switch(topo, topo.parts[c.part], c["fabric"], name, c["domain_id"]))
            elif c.kind == "hba":
                drawer = topo.ancestor(c.id, "drawer")
                slot = _free_slot(topo, drawer)
                b.commands.append(add_hba(topo, slot.id, topo.parts[c.part], lpar=c["lpar"]))
            else:
                b.commands.append(_duplicate_subsystem(topo, c))
    return b


def _duplicate_subsystem(topo: Topology, sub: Component) -> Builder:
    n = len(topo.of_kind("subsystem")) + 1
    base = "".join(ch for ch in sub.id if not ch.isdigit()) or "sub"
    name = naming.free_name(topo, "subsystem", topo.new_id(f"{base}{n}"))
    part = topo.parts[sub.part]
    encs = topo.children(sub.id, "enclosure")
    first_drives = topo.children(encs[0].id, "drive") if encs else []
    drive_part = topo.parts.get(first_drives[0].part) if first_drives else None
    with _building(topo, f"Duplicate {naming.qualified_name(topo, sub)}") as b:
        b.commands.append(add_subsystem(topo, part, name, drive_part=drive_part, drives=len(first_drives)))
        for enc in encs[1:]:
            drives = topo.children(enc.id, "drive")
            dp = topo.parts.get(drives[0].part) if drives else None
            b.commands.append(add_enclosure(topo, name, topo.parts[enc.part], drive_part=dp, drives=len(drives)))
        # map old drives to new ones by (enclosure index, bay)
        new_drives = {(topo[d.parent]["index"], d["bay"]): d.id for d in topo.descendants(name) if d.kind == "drive"}
        ctl_map = {c.id: f"{name}.{c['slot_name']}" for c in topo.children(sub.id, "controller")}
        for arr in topo.children(sub.id, "array"):
            drives = [new_drives.get((topo[topo[d].parent]["index"], topo[d]["bay"])) for d in arr["drives"]]
            b.commands.append(
                add_array(topo, name, arr["raid_level"], [d for d in drives if d], arr["segment_kb"], arr.name)
            )
            new_arr = topo.children(name, "array")[-1]
            for ld in topo.children(arr.id, "logical_drive"):
                b.commands.append(
                    add_logical_drive(topo, new_arr.id, ctl_map.get(ld["owner"], f"{name}.A"), ld["size_gb"], ld["lun"])
                )
    return b
