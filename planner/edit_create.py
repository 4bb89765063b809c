"""Creating and re-shaping what the editor's dialogs make: LPARs and their HBAs, drives and
enclosures, arrays, logical drives, host mappings and the AIX LVM.

Each ``*_problem(...) -> str | None`` is the one check the dialog shows under its fields (OK
stays disabled while it returns a reason) and the operation raises as a ModelError, so a dialog
never offers what the planner refuses. Each operation returns one undoable
:class:`~planner.commands.Builder`, like those of :mod:`planner.edit` (this module extends it;
``planner/edit.py`` is near the 800-line limit). No Qt.

Decisions:
- removing a drive that is in an array is refused (delete or change the array first);
- replacing a (failed) drive puts a new drive of the same part in the same bay and the new drive
  takes the old one's place in its array, as a FAStT rebuilds onto a drive swapped into the bay;
- a host port (HBA port) belongs to one host mapping per subsystem; a LUN number is used once
  within a mapping;
- a logical drive may not be larger than its array's free capacity (when the drive part gives
  a capacity); a volume group's PV count is limited by its type (AIX mkvg).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from planner import edit, naming
from planner.commands import Builder, RemoveComponent, SetAttr
from planner.edit import _building, _expect, _new, _use_part
from planner.figures import data_drives
from planner.model import Component, ModelError, Topology, check_attr
from planner.naming import counted
from planner.rules.lvm import _VG_LIMITS
from planner.rules.storage import FASTT_SEGMENTS, raid_drive_problem
from planner.schema import LTG_SIZES_KB, name_problem


def _check(problem: str | None) -> None:
    if problem:
        raise ModelError(problem)


def _attr_problem(kind: str, **values: Any) -> str | None:
    for key, value in values.items():
        try:
            check_attr(kind, key, value)
        except ModelError as err:
            return str(err)
    return None


def _name(topo: Topology, comp: Component | str) -> str:
    return naming.label(topo, comp)


# -- LPARs and their HBAs ------------------------------------------------------------------------


def _new_name_problem(
    name: str, what: str, example: str, taken: Iterable[str] = (), taken_text: str = ""
) -> str | None:
    """Why ``name`` cannot name a new component: empty, not a valid name, or already taken."""
    if not name.strip():
        return f"give {what} a name ({example})"
    problem = name_problem(name)
    if problem:
        return problem
    if name in set(taken):
        return taken_text or f"{name} is taken; choose another name"
    return None


def lpar_problem(topo: Topology, server: str, name: str, **attrs: Any) -> str | None:
    """Why an LPAR ``name`` with ``attrs`` (multipath, aix_level, cpus, memory_gb) cannot be added
    to ``server``, or None."""
    if topo.get(server) is None or topo[server].kind != "server":
        return "an LPAR goes on a server: add a server (the p690) first"
    taken = (lp.name for lp in topo.children(server, "lpar"))
    taken_text = f"{_name(topo, server)} already has an LPAR named {name}; choose another name"
    return _new_name_problem(name, "the LPAR", "its AIX host name, e.g. lpar1", taken, taken_text) or _attr_problem(
        "lpar", **attrs
    )


def new_lpar(topo: Topology, server: str, name: str, hbas: Iterable[str] = (), **attrs: Any) -> Builder:
    """Add an LPAR to ``server`` (attributes as the schema's lpar) owning the HBAs ``hbas``."""
    _check(lpar_problem(topo, server, name, **attrs))
    hbas = tuple(hbas)
    with _building(topo, f"Add LPAR {name}") as b:
        lp = _new(b, "lpar", f"{server}.{name}", server, name, **attrs)
        if hbas:
            _check(assign_problem(topo, hbas, lp.id))
            for h in hbas:
                b.run(SetAttr(h, "lpar", lp.id))
    return b


def server_hbas(topo: Topology, server: str) -> list[Component]:
    """The HBAs in the drawers of ``server``, in design order."""
    return [c for c in topo.descendants(server) if c.kind == "hba"]


def assign_problem(topo: Topology, hbas: Iterable[str], lpar: str) -> str | None:
    """Why the HBAs cannot all be given to ``lpar`` ("" takes them from their LPAR), or None."""
    hbas = list(hbas)
    if not hbas:
        return "choose at least one HBA"
    lp = topo.get(lpar) if lpar else None
    if lpar and (lp is None or lp.kind != "lpar"):
        return f"there is no LPAR {lpar!r} in this design"
    for h in hbas:
        comp = topo.get(h)
        if comp is None or comp.kind != "hba":
            return f"{h} is not an HBA of this design"
        server = topo.ancestor(h, "server")
        if lp is not None and (server is None or server.id != lp.parent):
            return f"{_name(topo, comp)} is not in {_name(topo, lp.parent)}, the server of LPAR {lp.name}"
    return None


def assign_hbas(topo: Topology, hbas: Iterable[str], lpar: str) -> Builder:
    """Give the HBAs to ``lpar`` ("" leaves them unassigned); one undo step."""
    hbas = list(dict.fromkeys(hbas))
    _check(assign_problem(topo, hbas, lpar))
    who = topo[lpar].name if lpar else "no LPAR"
    with _building(topo, f"Assign {counted(len(hbas), 'HBA')} to {who}") as b:
        for h in hbas:
            if topo[h]["lpar"] != lpar:
                b.run(SetAttr(h, "lpar", lpar))
    return b


def set_lpar_hbas(topo: Topology, lpar: str, hbas: Iterable[str]) -> Builder:
    """Make ``hbas`` exactly the HBAs of ``lpar``: the chosen ones move to it (from any other
    LPAR), those it had and are not chosen are left unassigned."""
    lp = _expect(topo, lpar, "lpar")
    hbas = list(dict.fromkeys(hbas))
    if hbas:
        _check(assign_problem(topo, hbas, lpar))
    with _building(topo, f"HBAs of LPAR {lp.name}") as b:
        for h in server_hbas(topo, lp.parent):
            want = lpar if h.id in hbas else ("" if h["lpar"] == lpar else h["lpar"])
            if h["lpar"] != want:
                b.run(SetAttr(h.id, "lpar", want))
    return b


# -- enclosures and drives -----------------------------------------------------------------------


def enclosure_bays(topo: Topology, enclosure: str) -> int:
    """Drive bays of an enclosure (its part, else its subsystem's part; 14 when neither says)."""
    enc = topo[enclosure]
    part = topo.part_of(enc) or topo.part_of(topo[enc.parent]) or {}
    return int(part.get("drive_bays", 14))


def free_bays(topo: Topology, enclosure: str) -> list[int]:
    used = {d["bay"] for d in topo.children(enclosure, "drive")}
    return [i for i in range(1, enclosure_bays(topo, enclosure) + 1) if i not in used]


def drives_problem(topo: Topology, enclosure: str, part: dict[str, Any] | None, count: int) -> str | None:
    """Why ``count`` drives of ``part`` cannot go into the free bays of ``enclosure``, or None."""
    if topo.get(enclosure) is None or topo[enclosure].kind != "enclosure":
        return "drives go into an enclosure of a subsystem"
    if count < 1:
        return "add at least one drive"
    if not part or part.get("kind") != "drive":
        return "choose a drive part (the catalog has none: add one in Tools > Parts catalog)"
    free = len(free_bays(topo, enclosure))
    if count > free:
        return (
            f"{_name(topo, enclosure)} has {counted(free, 'free bay')}, not {count}; add an enclosure for more drives"
        )
    return None


def add_drives(topo: Topology, enclosure: str, part: dict[str, Any], count: int) -> Builder:
    """Put ``count`` drives of ``part`` into the first free bays of ``enclosure``."""
    _check(drives_problem(topo, enclosure, part, count))
    with _building(topo, f"Add {counted(count, 'drive')} to {_name(topo, enclosure)}") as b:
        pid = _use_part(b, part, "drive")
        for bay in free_bays(topo, enclosure)[:count]:
            _new(b, "drive", f"{enclosure}.d{bay}", enclosure, f"Bay {bay}", pid, bay=bay)
    return b


def array_of(topo: Topology, drive: str) -> Component | None:
    """The array ``drive`` belongs to, or None."""
    sub = topo.ancestor(drive, "subsystem")
    if sub is None:
        return None
    return next((a for a in topo.children(sub.id, "array") if drive in a["drives"]), None)


def remove_drive_problem(topo: Topology, drives: Iterable[str]) -> str | None:
    for d in drives:
        comp = topo.get(d)
        if comp is None or comp.kind != "drive":
            return f"{d} is not a drive of this design"
        arr = array_of(topo, d)
        if arr is not None:
            return (
                f"{_name(topo, comp)} is in array {arr.name}; delete or change that array first "
                "(or use Replace drive for a failed drive)"
            )
    return None


def remove_drives(topo: Topology, drives: Iterable[str]) -> Builder:
    """Take drives that are in no array out of their bays (a drive in an array is refused)."""
    drives = list(dict.fromkeys(drives))
    _check(remove_drive_problem(topo, drives) or (None if drives else "choose a drive"))
    with _building(topo, f"Remove {counted(len(drives), 'drive')}") as b:
        for d in drives:
            b.run(RemoveComponent(d))
    return b


def replace_drive(topo: Topology, drive: str) -> Builder:
    """Replace a (failed) drive by a new one of the same part in the same bay; the new drive
    takes the old one's place in its array (the array rebuilds onto it)."""
    old = _expect(topo, drive, "drive")
    arr = array_of(topo, drive)
    with _building(topo, f"Replace {_name(topo, old)}") as b:
        b.run(RemoveComponent(drive))
        new = _new(b, "drive", f"{old.parent}.d{old['bay']}.new", old.parent, old.name, old.part, bay=old["bay"])
        if arr is not None:
            b.run(SetAttr(arr.id, "drives", tuple(new.id if d == drive else d for d in arr["drives"])))
    return b


# -- arrays --------------------------------------------------------------------------------------


def drive_capacity_gb(topo: Topology, drive: str) -> float:
    """Capacity of a drive from its part (0 when the part does not say)."""
    return float((topo.part_of(topo[drive]) or {}).get("capacity_gb", 0) or 0)


def array_capacity_gb(topo: Topology, raid_level: int, drives: Iterable[str]) -> float:
    """Usable capacity: data drives x the smallest drive."""
    drives = list(drives)
    if not drives:
        return 0.0
    return data_drives(raid_level, len(drives)) * min(drive_capacity_gb(topo, d) for d in drives)


def array_free_gb(topo: Topology, array: str) -> float:
    arr = topo[array]
    used = sum(ld["size_gb"] for ld in topo.children(array, "logical_drive"))
    return max(array_capacity_gb(topo, arr["raid_level"], arr["drives"]) - used, 0.0)


def full_stripe_kb(raid_level: int, drives: int, segment_kb: int) -> int:
    """Segment x data drives: what one full-stripe write covers."""
    return data_drives(raid_level, drives) * segment_kb


def array_problem(
    topo: Topology, subsystem: str, raid_level: int, drives: Iterable[str], segment_kb: int, array: str | None = None
) -> str | None:
    """Why these drives cannot form (or re-form, ``array``) a RAID ``raid_level`` array with
    ``segment_kb`` segments on ``subsystem``, or None. Reads the part's RAID levels, segment
    sizes and array size limit (P690 Appendix B)."""
    sub = topo.get(subsystem)
    if sub is None or sub.kind != "subsystem":
        return f"there is no subsystem {subsystem!r} in this design"
    part = topo.part_of(sub) or {}
    levels = part.get("raid_levels")
    if levels and raid_level not in levels:
        return f"{part.get('id')} offers RAID {', '.join(map(str, levels))}, not RAID {raid_level}"
    segments = part.get("segment_kb") or FASTT_SEGMENTS
    if segment_kb not in segments:
        return f"{part.get('id', 'this subsystem')} offers segment sizes {', '.join(map(str, segments))} KB, not {segment_kb}"
    drives = list(drives)
    mine = set(topo[array]["drives"]) if array else set()
    free = {d.id for d in edit.free_drives(topo, subsystem)} | mine
    for d in drives:
        if d not in free:
            comp = topo.get(d)
            where = (
                "is not a drive of this subsystem" if comp is None or comp.kind != "drive" else "is already in an array"
            )
            return f"{_name(topo, d)} {where}; pick free drives"
    problem = raid_drive_problem(raid_level, len(drives), part.get("max_drives_per_array"))
    if problem:
        return problem
    if array:
        need = sum(ld["size_gb"] for ld in topo.children(array, "logical_drive"))
        room = array_capacity_gb(topo, raid_level, drives)
        if room and need > room + 1e-6:
            return f"its logical drives hold {need:g} GB, this layout only {room:g} GB; remove logical drives first"
    return None


def new_array(
    topo: Topology, subsystem: str, raid_level: int, drives: Iterable[str], segment_kb: int = 128, name: str = ""
) -> Builder:
    """:func:`planner.edit.add_array` after :func:`array_problem`."""
    drives = tuple(drives)
    _check(array_problem(topo, subsystem, raid_level, drives, segment_kb) or (name and name_problem(name)))
    return edit.add_array(topo, subsystem, raid_level, drives, segment_kb, name)


def change_array(topo: Topology, array: str, raid_level: int, drives: Iterable[str], segment_kb: int) -> Builder:
    """Re-shape an array (RAID level, drives, segment size) in place; its logical drives stay."""
    arr = _expect(topo, array, "array")
    drives = tuple(drives)
    _check(array_problem(topo, arr.parent, raid_level, drives, segment_kb, array))
    with _building(topo, f"Change array {arr.name}") as b:
        for key, value in (("raid_level", raid_level), ("drives", drives), ("segment_kb", segment_kb)):
            if arr[key] != value:
                b.run(SetAttr(array, key, value))
    return b


def array_vgs(topo: Topology, array: str) -> list[Component]:
    """Volume groups with a PV on a logical drive of ``array``."""
    lds = {ld.id for ld in topo.children(array, "logical_drive")}
    out = []
    for vg in topo.of_kind("volume_group"):
        if any((topo.get(pv) or Component("", "")).get("logical_drive") in lds for pv in vg["pvs"]):
            out.append(vg)
    return out


def alignment_notes(topo: Topology, array: str | None, raid_level: int, drives: int, segment_kb: int) -> list[str]:
    """Whether the full stripe fits the LTG of the VGs that use ``array`` (P690: LTG = full stripe)."""
    stripe = full_stripe_kb(raid_level, drives, segment_kb)
    if not stripe:
        return []
    vgs = array_vgs(topo, array) if array else []
    if not vgs:
        fits = (
            f"a VG with a {stripe} KB LTG would align with it"
            if stripe in LTG_SIZES_KB
            else (
                f"no AIX LTG ({LTG_SIZES_KB[0]} KB to {LTG_SIZES_KB[-1] // 1024} MB, powers of two) equals a "
                f"{stripe} KB full stripe: pick a layout whose full stripe is a power of two"
            )
        )
        return [f"No volume group uses this array yet; {fits}."]
    out = []
    for vg in vgs:
        ok = vg["ltg_kb"] % stripe == 0
        state = "aligns with" if ok else "does NOT align with"
        out.append(f"{stripe} KB full stripe {state} the {vg['ltg_kb']} KB LTG of {_name(topo, vg)}.")
    return out


# -- logical drives ------------------------------------------------------------------------------


def next_lun(topo: Topology, subsystem: str) -> int:
    used = {ld["lun"] for a in topo.children(subsystem, "array") for ld in topo.children(a.id, "logical_drive")}
    return next(i for i in range(256) if i not in used) if len(used) < 256 else 0


def balanced_owner(topo: Topology, subsystem: str) -> str:
    """The controller that owns fewest logical drives (LUN ownership balance, P690)."""
    ctls = topo.children(subsystem, "controller")
    if not ctls:
        return ""
    lds = [ld for a in topo.children(subsystem, "array") for ld in topo.children(a.id, "logical_drive")]
    return min(ctls, key=lambda c: sum(1 for ld in lds if ld["owner"] == c.id)).id


def logical_drive_problem(
    topo: Topology, array: str, size_gb: float, owner: str, lun: int, name: str = ""
) -> str | None:
    """Why a logical drive of ``size_gb`` owned by ``owner`` as LUN ``lun`` cannot be made on
    ``array``, or None."""
    arr = topo.get(array)
    if arr is None or arr.kind != "array":
        return f"there is no array {array!r} in this design"
    if size_gb <= 0:
        return "give the logical drive a size in GB"
    free = array_free_gb(topo, array)
    if array_capacity_gb(topo, arr["raid_level"], arr["drives"]) and size_gb > free + 1e-6:
        return f"array {arr.name} has {free:g} GB free, not {size_gb:g} GB"
    ctl = topo.get(owner)
    if ctl is None or ctl.kind != "controller" or ctl.parent != arr.parent:
        return f"choose an owning controller of {_name(topo, arr.parent)}"
    taken = [
        ld
        for a in topo.children(arr.parent, "array")
        for ld in topo.children(a.id, "logical_drive")
        if ld["lun"] == lun
    ]
    if taken:
        return f"LUN {lun} is already {taken[0].name} on {_name(topo, arr.parent)}; LUN {next_lun(topo, arr.parent)} is free"
    return (name and name_problem(name)) or _attr_problem("logical_drive", lun=lun, size_gb=size_gb)


def new_logical_drive(topo: Topology, array: str, owner: str, size_gb: float, lun: int, name: str = "") -> Builder:
    """:func:`planner.edit.add_logical_drive` after :func:`logical_drive_problem`."""
    _check(logical_drive_problem(topo, array, size_gb, owner, lun, name))
    return edit.add_logical_drive(topo, array, owner, size_gb, lun, name)


# -- host mappings (FAStT storage partitions) ----------------------------------------------------


def host_mapping_problem(
    topo: Topology,
    subsystem: str,
    name: str,
    hba_ports: Iterable[str],
    logical_drives: Iterable[str],
    luns: Mapping[str, int] | None = None,
    mapping: str | None = None,
) -> str | None:
    """Why this host mapping (HBA ports x logical drives, LUN per logical drive) cannot be made
    on ``subsystem`` (or ``mapping`` changed to it), or None."""
    if topo.get(subsystem) is None or topo[subsystem].kind != "subsystem":
        return f"there is no subsystem {subsystem!r} in this design"
    others = [m for m in topo.children(subsystem, "host_mapping") if m.id != mapping]
    taken_text = f"{_name(topo, subsystem)} already has a mapping named {name}"
    problem = _new_name_problem(
        name, "the host mapping", "the host group, e.g. P_FASTT1", (m.name for m in others), taken_text
    )
    if problem:
        return problem
    ports, lds = list(hba_ports), list(logical_drives)
    if not ports:
        return "tick at least one HBA port (the host's WWPNs)"
    if not lds:
        return "tick at least one logical drive to map"
    for p in ports:
        if topo.get(p) is None or topo[p].kind != "hba_port":
            return f"{p} is not an HBA port of this design"
        held = next((m for m in others if p in m["hba_ports"]), None)
        if held is not None:
            return (
                f"{_name(topo, p)} is already in mapping {held.name}; a host port belongs to one mapping per subsystem"
            )
    seen: dict[int, str] = {}
    for ld in lds:
        comp = topo.get(ld)
        if comp is None or comp.kind != "logical_drive" or topo.ancestor(ld, "subsystem").id != subsystem:
            return f"{ld} is not a logical drive of {_name(topo, subsystem)}"
        lun = (luns or {}).get(ld, comp["lun"])
        problem = _attr_problem("logical_drive", lun=lun)
        if problem:
            return problem
        if lun in seen:
            return f"LUN {lun} is given to both {seen[lun]} and {comp.name}; a host sees each LUN number once"
        seen[lun] = comp.name
    return None


def set_host_mapping(
    topo: Topology,
    subsystem: str,
    name: str,
    hba_ports: Iterable[str],
    logical_drives: Iterable[str],
    luns: Mapping[str, int] | None = None,
    mapping: str | None = None,
) -> Builder:
    """Add a host mapping (``mapping`` None) or change ``mapping``; ``luns`` sets the LUN
    number of mapped logical drives. One undo step."""
    ports, lds = tuple(dict.fromkeys(hba_ports)), tuple(dict.fromkeys(logical_drives))
    _check(host_mapping_problem(topo, subsystem, name, ports, lds, luns, mapping))
    text = f"{'Edit' if mapping else 'Add'} host mapping {name}"
    with _building(topo, text) as b:
        if mapping is None:
            b.commands.append(edit.add_host_mapping(topo, subsystem, name, ports, lds))
        else:
            m = _expect(topo, mapping, "host_mapping")
            for key, value in (("name", name), ("hba_ports", ports), ("logical_drives", lds)):
                if (m.name if key == "name" else m[key]) != value:
                    b.run(SetAttr(mapping, key, value))
        for ld, lun in (luns or {}).items():
            if ld in lds and topo[ld]["lun"] != lun:
                b.run(SetAttr(ld, "lun", lun))
    return b


def hba_port_title(topo: Topology, port: str) -> str:
    """'10:00:00:00:c9:aa:bb:01  fcs d1s1 port 0 (lpar1)': how the mapping dialog lists a port."""
    p = topo[port]
    hba = topo.get(p.parent)
    lpar = topo.get(hba["lpar"]) if hba is not None and hba["lpar"] else None
    owner = f" ({lpar.name})" if lpar is not None else ""
    return f"{p['wwpn'] or '(no WWPN)'}  {naming.qualified_name(topo, p)}{owner}"


# -- AIX: hdisks, volume groups, logical volumes, workloads ----------------------------------------


def mapped_logical_drives(topo: Topology, lpar: str) -> list[str]:
    """Logical drives mapped (by a host mapping) to a port of an HBA of ``lpar``."""
    ports = {p.id for h in topo.of_kind("hba") if h["lpar"] == lpar for p in topo.children(h.id, "hba_port")}
    out: dict[str, None] = {}
    for m in topo.of_kind("host_mapping"):
        if ports & set(m["hba_ports"]):
            out.update(dict.fromkeys(m["logical_drives"]))
    return list(out)


def unconfigured_logical_drives(topo: Topology, lpar: str) -> list[str]:
    """Mapped logical drives of ``lpar`` that no hdisk of it stands for yet."""
    have = {h["logical_drive"] for h in topo.children(lpar, "hdisk")}
    return [ld for ld in mapped_logical_drives(topo, lpar) if ld not in have]


def create_hdisks(topo: Topology, lpar: str, max_transfer_kb: int = 256) -> Builder:
    """One hdisk per mapped logical drive of ``lpar`` that has none (what cfgmgr finds)."""
    lp = _expect(topo, lpar, "lpar")
    todo = unconfigured_logical_drives(topo, lpar)
    if not todo:
        mapped = mapped_logical_drives(topo, lpar)
        raise ModelError(
            f"every logical drive mapped to LPAR {lp.name} already has an hdisk"
            if mapped
            else f"no logical drive is mapped to LPAR {lp.name}'s HBAs; add a host mapping on the subsystem first"
        )
    return edit.add_hdisks(topo, lpar, todo, max_transfer_kb)


def hdisk_size_gb(topo: Topology, hdisk: str) -> float:
    ld = topo.get(topo[hdisk]["logical_drive"])
    return float(ld["size_gb"]) if ld is not None else 0.0


def free_hdisks(topo: Topology, lpar: str) -> list[Component]:
    """hdisks of ``lpar`` in no volume group."""
    taken = {pv for vg in topo.children(lpar, "volume_group") for pv in vg["pvs"]}
    return [h for h in topo.children(lpar, "hdisk") if h.id not in taken]


def vg_limits(vg_type: str) -> tuple[int, int]:
    """(max PVs, max LVs) of a VG type (AIX mkvg)."""
    max_pv, max_lv, _flag, _aix = _VG_LIMITS.get(vg_type, _VG_LIMITS["normal"])
    return max_pv, max_lv


def volume_group_problem(
    topo: Topology, lpar: str, name: str, pvs: Iterable[str], vg_type: str, ltg_kb: int, pp_mb: int
) -> str | None:
    """Why this volume group cannot be made on ``lpar``, or None."""
    lp = topo.get(lpar)
    if lp is None or lp.kind != "lpar":
        return f"there is no LPAR {lpar!r} in this design"
    taken = (vg.name for vg in topo.children(lpar, "volume_group"))
    problem = _new_name_problem(
        name, "the volume group", "e.g. datavg", taken, f"LPAR {lp.name} already has a volume group {name}"
    )
    if problem:
        return problem
    pvs = list(pvs)
    if not pvs:
        return "tick at least one hdisk (physical volume)"
    free = {h.id for h in free_hdisks(topo, lpar)}
    for pv in pvs:
        if pv not in free:
            return f"{_name(topo, pv)} is not a free hdisk of LPAR {lp.name}; a PV can be in one VG only"
    problem = _attr_problem("volume_group", vg_type=vg_type, ltg_kb=ltg_kb, pp_mb=pp_mb)
    if problem:
        return problem
    max_pv = vg_limits(vg_type)[0]
    if len(pvs) > max_pv:
        return f"a {vg_type} VG holds at most {max_pv} PVs, not {len(pvs)}: choose a big or scalable VG"
    if vg_type == "scalable" and tuple(map(int, lp["aix_level"].split("."))) < (5, 3):
        return f"a scalable VG needs AIX 5.3 or later; LPAR {lp.name} runs AIX {lp['aix_level']}"
    return None


def new_volume_group(
    topo: Topology,
    lpar: str,
    name: str,
    pvs: Iterable[str],
    vg_type: str = "normal",
    ltg_kb: int = 128,
    pp_mb: int = 64,
) -> Builder:
    pvs = tuple(pvs)
    _check(volume_group_problem(topo, lpar, name, pvs, vg_type, ltg_kb, pp_mb))
    return edit.add_volume_group(topo, lpar, name, pvs, vg_type, ltg_kb, pp_mb)


def vg_capacity_gb(topo: Topology, vg: str) -> float:
    return sum(hdisk_size_gb(topo, pv) for pv in topo[vg]["pvs"])


def vg_free_gb(topo: Topology, vg: str) -> float:
    used = sum(lv["size_gb"] for lv in topo.children(vg, "logical_volume"))
    return max(vg_capacity_gb(topo, vg) - used, 0.0)


def logical_volume_problem(
    topo: Topology, vg: str, name: str, stripe_kb: int, width: int, size_gb: float
) -> str | None:
    """Why this logical volume cannot be made in ``vg``, or None."""
    group = topo.get(vg)
    if group is None or group.kind != "volume_group":
        return f"there is no volume group {vg!r} in this design"
    taken = (lv.name for lv in topo.children(vg, "logical_volume"))
    problem = _new_name_problem(
        name, "the logical volume", "e.g. saslv", taken, f"{group.name} already has a logical volume {name}"
    )
    if problem:
        return problem
    problem = _attr_problem("logical_volume", stripe_kb=stripe_kb, width=width, size_gb=size_gb)
    if problem:
        return problem
    npv = len(group["pvs"])
    if width > npv:
        return f"stripe width {width} exceeds the {npv} PVs of {group.name}"
    if stripe_kb and width < 2:
        return "a striped logical volume spreads over at least 2 PVs: set the width (or no striping)"
    if size_gb <= 0:
        return "give the logical volume a size in GB"
    cap = vg_capacity_gb(topo, vg)
    free = vg_free_gb(topo, vg)
    if cap and size_gb > free + 1e-6:
        return f"{group.name} has {free:g} GB free, not {size_gb:g} GB"
    if len(topo.children(vg, "logical_volume")) >= vg_limits(group["vg_type"])[1]:
        return f"a {group['vg_type']} VG holds at most {vg_limits(group['vg_type'])[1]} logical volumes"
    return None


def new_logical_volume(
    topo: Topology, vg: str, name: str, stripe_kb: int = 0, width: int = 0, size_gb: float = 0
) -> Builder:
    _check(logical_volume_problem(topo, vg, name, stripe_kb, width, size_gb))
    return edit.add_logical_volume(topo, vg, name, stripe_kb, width, size_gb)


def workload_problem(topo: Topology, lv: str, name: str, **profile: Any) -> str | None:
    comp = topo.get(lv)
    if comp is None or comp.kind != "logical_volume":
        return f"there is no logical volume {lv!r} in this design"
    return _new_name_problem(name, "the workload", "e.g. SAS read") or _attr_problem("workload", **profile)


def new_workload(topo: Topology, lv: str, name: str = "workload", **profile: Any) -> Builder:
    _check(workload_problem(topo, lv, name, **profile))
    return edit.add_workload(topo, lv, name, **profile)
