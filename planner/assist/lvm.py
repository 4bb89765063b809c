"""The LVM assistant: hdisks for the mapped logical drives, a VG of the right type with an LTG
matching the arrays' full stripe, and a striped LV over all its PVs."""

from __future__ import annotations

import math
from typing import Any

from planner import edit
from planner.assist.base import Assisted, assisting, expect, name_of, require
from planner.figures import data_drives
from planner.model import Component, ModelError, Topology
from planner.naming import counted
from planner.rules.wording import aix
from planner.schema import LTG_SIZES_KB, STRIPE_SIZES_KB

#: VG type -> most PVs, smallest AIX level [AIX mkvg: normal 32, -B big 128, -S scalable 1024 on 5.3]
VG_TYPES = (("normal", 32, (5, 1)), ("big", 128, (5, 1)), ("scalable", 1024, (5, 3)))
_PPS_PER_PV = 1016  # AIX mkvg: at most 1016 PPs per PV in a normal or big VG (factor 1)


def vg_type_for(pvs: int, aix_level: str) -> str:
    """The smallest VG type that holds ``pvs`` PVs on ``aix_level``; ModelError when none does."""
    for name, most, needs in VG_TYPES:
        if pvs <= most and aix(aix_level) >= needs:
            return name
    raise ModelError(
        f"{pvs} PVs do not fit one volume group on AIX {aix_level} (big VG: 128, scalable: 1024 on AIX 5.3); "
        "use fewer, larger arrays (the paper: one array per adapter) or upgrade AIX"
    )


def full_stripes(topo: Topology, lds: list[Component]) -> set[int]:
    """Full stripe (segment x data drives, KB) of the arrays under these logical drives."""
    out = set()
    for ld in lds:
        arr = topo.get(ld.parent)
        if arr is not None and arr.kind == "array":
            out.add(arr["segment_kb"] * data_drives(arr["raid_level"], len(arr["drives"])))
    return {s for s in out if s}


def aligned_size(stripes: set[int], sizes: tuple[int, ...], most: int) -> int | None:
    """The smallest of ``sizes`` (at most ``most``) that is a whole number of every full stripe."""
    lcm = math.lcm(*stripes) if stripes else 0
    for s in sizes:
        if s <= most and (not lcm or s % lcm == 0):
            return s
    return None


def _pp_mb(largest_gb: float) -> int:
    """The smallest power-of-two PP size (at least 64 MB) that holds the largest PV in 1016 PPs
    (the paper's 274 GB arrays: 512 MB)."""
    need = largest_gb * 1024 / _PPS_PER_PV
    return max(64, 1 << math.ceil(math.log2(need))) if need > 1 else 64


def _mapped(topo: Topology, lpar: Component) -> list[str]:
    ports = {p.id for h in topo.of_kind("hba") if h["lpar"] == lpar.id for p in topo.children(h.id, "hba_port")}
    out: dict[str, None] = {}
    for m in topo.of_kind("host_mapping"):
        if ports.intersection(m["hba_ports"]):
            out.update(dict.fromkeys(m["logical_drives"]))
    return list(out)


def build_lvm(
    topo: Topology, lpar: str, name: str = "datavg", lv_name: str = "stripelv01", parts: Any = None
) -> Assisted:
    """On ``lpar``: an hdisk per mapped logical drive that has none, then a VG of every hdisk in
    no VG: its type by PV count (:data:`VG_TYPES`), its LTG the full stripe of its arrays (1 MB
    for RAID 5 8+P x 128 KB, as the paper), max_transfer raised to the LTG, a PP size that holds
    the largest PV, and one LV striped over all PVs with the full stripe as stripe size.
    Raises ModelError when the PVs do not fit one VG; NothingToDo when there are no new PVs."""
    lp = expect(topo, lpar, "lpar")
    have = {hd["logical_drive"] for hd in topo.children(lpar, "hdisk")}
    new = [ld for ld in _mapped(topo, lp) if ld not in have]
    in_vg = {pv for vg in topo.children(lpar, "volume_group") for pv in vg["pvs"]}
    spare = [hd.id for hd in topo.children(lpar, "hdisk") if hd.id not in in_vg and hd["logical_drive"] in topo]
    require(new or spare, f"{name_of(topo, lp)} has no mapped logical drive without a volume group")
    lds = [topo[x] for x in new] + [topo[topo[h]["logical_drive"]] for h in spare]
    level = lp["aix_level"]
    vg_type = vg_type_for(len(lds), level)
    stripes = full_stripes(topo, lds)
    limit = 16384 if aix(level) >= (5, 3) else 1024
    ltg = aligned_size(stripes, LTG_SIZES_KB, limit)
    with assisting(topo, f"Build LVM on {name_of(topo, lp)}") as a:
        if ltg is None:
            ltg = 1024
            a.say(
                f"no LTG of at most {limit} KB is a whole number of the full stripes {sorted(stripes)} KB: LTG 1 MB, not aligned"
            )
        transfer = max(256, ltg)
        if new:
            a.add(edit.add_hdisks(topo, lpar, new, max_transfer_kb=transfer))
            a.say(f"{counted(len(new), 'hdisk')} for the mapped logical drives, max_transfer {transfer} KB")
        hdisks = spare + [hd.id for hd in topo.children(lpar, "hdisk") if hd["logical_drive"] in new]
        for h in spare:
            if topo[h]["max_transfer_kb"] < ltg:
                a.add(
                    edit.set_attr(topo, h, "max_transfer_kb", ltg),
                    f"{name_of(topo, h)}: max_transfer raised to {ltg} KB",
                )
        _vg_and_lv(topo, a, lp, hdisks, lds, (name, lv_name, vg_type, ltg, stripes, limit))
    return a


def _vg_and_lv(topo: Topology, a: Assisted, lp: Component, hdisks: list[str], lds: list[Component], how: tuple) -> None:
    name, lv_name, vg_type, ltg, stripes, limit = how
    pp = _pp_mb(max(ld["size_gb"] for ld in lds))
    vg_name = topo.new_id(f"{lp.id}.{name}").split(".")[-1] if f"{lp.id}.{name}" in topo else name
    a.add(edit.add_volume_group(topo, lp.id, vg_name, hdisks, vg_type=vg_type, ltg_kb=ltg, pp_mb=pp))
    vg = topo.children(lp.id, "volume_group")[-1]
    a.say(
        f"{vg_type} volume group {vg.name}: {len(hdisks)} PVs (a {vg_type} VG holds up to "
        f"{dict((t, m) for t, m, _ in VG_TYPES)[vg_type]}), LTG {ltg} KB"
        + (f" = the {'/'.join(map(str, sorted(stripes)))} KB full stripe" if stripes else "")
        + f", PP {pp} MB"
    )
    stripe = aligned_size(stripes, STRIPE_SIZES_KB, min(limit, 1024 if limit == 1024 else 131072)) or 1024
    size = math.floor(sum(ld["size_gb"] for ld in lds))
    a.add(edit.add_logical_volume(topo, vg.id, lv_name, stripe_kb=stripe, width=len(hdisks), size_gb=size))
    a.say(
        f"logical volume {lv_name}: {size} GB striped over all {len(hdisks)} PVs, {stripe} KB stripes (P690 'Stripe size: 1 MB')"
    )
