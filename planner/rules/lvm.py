"""AIX LVM rules: physical volumes per volume group, logical track group, striped logical
volumes, and hdisks whose logical drive reaches their partition."""

from __future__ import annotations

from planner import naming
from planner.model import Topology
from planner.rules.context import Context
from planner.rules.registry import RULES, Finding, rule
from planner.rules.wording import aix, kb, plural, verb

_VG_LIMITS = {  # vg type -> (max PVs, max LVs, mkvg flag, AIX level needed)  [AIX mkvg]
    "normal": (32, 256, "", (5, 1)),
    "big": (128, 512, "-B", (5, 1)),
    "scalable": (1024, 4096, "-S", (5, 3)),
}


@rule(
    "PV_PER_VG",
    "error",
    "Physical volumes per volume group",
    "P690 'AIX 5.2 limits 128 PV per volume group'; AIX mkvg (normal 32 PVs, -B big 128, -S scalable 1024 on AIX 5.3)",
)
def pv_per_vg(topo: Topology, ctx: Context) -> list[Finding]:
    """Error when a volume group holds more PVs (or LVs) than its type allows, or is a scalable
    VG on an AIX level below 5.3. Each hdisk (LUN) is one PV: the benchmark's 112 arrays needed
    a big VG, and AIX 5.2's 128-PV limit is why it used one array per adapter."""
    me, out = RULES["PV_PER_VG"], []
    for vg in ctx.of_kind("volume_group"):
        max_pv, max_lv, flag, needs = _VG_LIMITS.get(vg["vg_type"], _VG_LIMITS["normal"])
        lpar = topo.get(vg.parent)
        level = lpar["aix_level"] if lpar is not None and lpar.kind == "lpar" else ""
        npv, lvs = len(vg["pvs"]), topo.children(vg.id, "logical_volume")
        if npv > max_pv:
            bigger = next((t for t, lim in _VG_LIMITS.items() if lim[0] >= npv), None)
            fix = (
                f"Recreate {naming.qualified_name(topo, vg)} as a {bigger} VG (mkvg {_VG_LIMITS[bigger][2]})"
                + (" on AIX 5.3 or later" if bigger == "scalable" else "")
                if bigger
                else "Split the PVs over several volume groups"
            )
            fix += ", or use fewer, larger arrays (one array per adapter, as the paper did)."
            out.append(
                me.finding(
                    (vg.id,),
                    f"Volume group {ctx.label(vg.id)} holds {npv} physical volumes; a "
                    f"{vg['vg_type']} VG allows at most {max_pv}.",
                    fix,
                )
            )
        if len(lvs) > max_lv:
            out.append(
                me.finding(
                    (vg.id,),
                    f"Volume group {ctx.label(vg.id)} holds {len(lvs)} logical volumes; a "
                    f"{vg['vg_type']} VG allows at most {max_lv}.",
                    "Use a bigger VG type (big: 512 LVs, scalable: 4096) or fewer logical volumes.",
                )
            )
        if level and aix(level) < needs:
            out.append(
                me.finding(
                    (vg.id, lpar.id),
                    f"Volume group {ctx.label(vg.id)} is a {vg['vg_type']} VG "
                    f"(mkvg {flag}), which needs AIX {'.'.join(map(str, needs))}; "
                    f"{naming.qualified_name(topo, lpar)} runs AIX {level}.",
                    f"Upgrade {naming.qualified_name(topo, lpar)} to AIX {'.'.join(map(str, needs))} or use a big VG "
                    "(mkvg -B, up to 128 PVs).",
                )
            )
    return out


@rule(
    "LTG_MAX_TRANSFER",
    "error",
    "Logical track group versus the disks' maximum transfer",
    "P690 'Logical track group size 1 MB'; P690 'Conclusions' (larger LTG with AIX 5.3)",
)
def ltg_max_transfer(topo: Topology, ctx: Context) -> list[Finding]:
    """Error when a VG's LTG exceeds the smallest max_transfer of its hdisks ("The maximum
    allowed value is the smallest maximum transfer size supported by all disks in a volume
    group"), or when an LTG above 1 MB is set on AIX below 5.3."""
    me, out = RULES["LTG_MAX_TRANSFER"], []
    for vg in ctx.of_kind("volume_group"):
        ltg = vg["ltg_kb"]
        disks = [topo[pv] for pv in vg["pvs"] if pv in topo]
        small = [d for d in disks if d["max_transfer_kb"] < ltg]
        if small:
            lowest = min(d["max_transfer_kb"] for d in small)
            hexval = hex(ltg * 1024)
            out.append(
                me.finding(
                    (vg.id, *[d.id for d in small]),
                    f"Volume group {ctx.label(vg.id)} has a {kb(ltg)} logical track group, but "
                    f"{ctx.names(d.id for d in small)} {verb(len(small), 'transfers', 'transfer')} at most "
                    f"{kb(lowest)}; AIX refuses an LTG above the smallest max_transfer of the VG's disks.",
                    f"Raise max_transfer before mkvg/chvg: chdev -l {naming.qualified_name(topo, small[0])} -a max_transfer={hexval}"
                    f"{' (and the same on each listed hdisk)' if len(small) > 1 else ''}, or lower the LTG to "
                    f"{kb(lowest)}.",
                )
            )
        lpar = topo.get(vg.parent)
        if ltg > 1024 and lpar is not None and lpar.kind == "lpar" and aix(lpar["aix_level"]) < (5, 3):
            out.append(
                me.finding(
                    (vg.id, lpar.id),
                    f"Volume group {ctx.label(vg.id)} has a {kb(ltg)} LTG; AIX {lpar['aix_level']} on {naming.qualified_name(topo, lpar)} "
                    "allows at most 1 MB (AIX 5.3 raises the limit).",
                    f"Set the LTG to 1 MB (chvg -L 1024 {naming.qualified_name(topo, vg)}) or upgrade {naming.qualified_name(topo, lpar)} to AIX 5.3.",
                )
            )
    return out


@rule(
    "LV_STRIPE",
    "error",
    "Striped logical volume size and width",
    "P690 'Stripe size: 1 MB' (4 KB-1024 KB); P690 'Conclusions' (larger stripes with AIX 5.3)",
)
def lv_stripe(topo: Topology, ctx: Context) -> list[Finding]:
    """Error when a striped LV uses a stripe size above 1 MB below AIX 5.3, or a stripe width
    larger than the PVs of its volume group (only a loaded file can hold that)."""
    me, out = RULES["LV_STRIPE"], []
    for lv in ctx.of_kind("logical_volume"):
        vg = topo.get(lv.parent)
        lpar = topo.get(vg.parent) if vg is not None else None
        if lv["stripe_kb"] > 1024 and lpar is not None and aix(lpar["aix_level"]) < (5, 3):
            out.append(
                me.finding(
                    (lv.id, lpar.id),
                    f"Logical volume {ctx.label(lv.id)} uses {kb(lv['stripe_kb'])} "
                    f"stripes; AIX {lpar['aix_level']} allows 4 KB to 1 MB.",
                    f"Use a 1 MB stripe size or upgrade {naming.qualified_name(topo, lpar)} to AIX 5.3.",
                )
            )
        if vg is not None and lv["width"] > len(vg["pvs"]):
            out.append(
                me.finding(
                    (lv.id, vg.id),
                    f"Logical volume {ctx.label(lv.id)} is striped over {lv['width']} "
                    f"PVs but {naming.qualified_name(topo, vg)} has only {len(vg['pvs'])}.",
                    f"Set the stripe width to at most {len(vg['pvs'])} or add PVs to {naming.qualified_name(topo, vg)}.",
                )
            )
    return out


@rule(
    "HDISK_NOT_MAPPED",
    "warning",
    "hdisks whose logical drive is mapped to their LPAR",
    "P690 Appendix B 'AIX and FAST disk subsystems' (RDAC presents each mapped logical drive as one hdisk)",
)
def hdisk_not_mapped(topo: Topology, ctx: Context) -> list[Finding]:
    """Warning for hdisks naming no logical drive, or one mapped to no HBA port of their LPAR:
    cfgmgr will not discover them. Grouped per LPAR."""
    me = RULES["HDISK_NOT_MAPPED"]
    by: dict[str, list[str]] = {}
    for hd in ctx.of_kind("hdisk"):
        ports = set(ctx.ports_of_lpar.get(hd.parent or "", ()))
        maps = ctx.mappings_by_ld.get(hd["logical_drive"], [])
        if not hd["logical_drive"] or not any(ports.intersection(m["hba_ports"]) for m in maps):
            by.setdefault(hd.parent or "", []).append(hd.id)
    out = []
    for lpar, disks in by.items():
        out.append(
            me.finding(
                (lpar, *disks),
                f"{plural(len(disks), 'hdisk')} on "
                f"{naming.qualified_name(topo, topo[lpar]) if lpar in topo else 'no LPAR'} ({ctx.names(disks)}) "
                f"{'has' if len(disks) == 1 else 'have'} no logical drive mapped to the LPAR's HBAs; "
                "AIX will not find them.",
                "Map each hdisk's logical drive to the LPAR's HBA WWPNs (host mapping), or remove the "
                "hdisk from the design.",
            )
        )
    return out
