"""Workload rules from the SAS papers (SAS WORK on parity RAID, direct I/O request sizes,
Windows SGIO buffers) and full-stripe alignment of the volume groups the workloads use."""

from __future__ import annotations

import math

from planner import naming
from planner.demand import WorkloadResult
from planner.figures import data_drives
from planner.model import Component, Topology
from planner.rules.context import Context
from planner.rules.registry import RULES, Finding, rule
from planner.rules.storage import FASTT_SEGMENTS
from planner.rules.wording import kb, plural, verb
from planner.schema import count_label, hop_kinds, kind_name


def _layouts(topo: Topology, arrays: list[str]) -> dict[tuple[int, int, int], list[str]]:
    """(RAID level, drives, segment KB) -> the arrays with that layout."""
    layouts: dict[tuple[int, int, int], list[str]] = {}
    for aid in arrays:
        arr = topo[aid]
        layouts.setdefault((arr["raid_level"], len(arr["drives"]), arr["segment_kb"]), []).append(aid)
    return layouts


def _misfits(ctx: Context, vg: Component, lvs: list[Component], stripe: int) -> tuple[list[str], list[str]]:
    """What a ``stripe`` KB full stripe does not divide on ``vg``: (phrases, ids of the LVs)."""
    what: list[str] = []
    if vg["ltg_kb"] % stripe:
        what.append(f"the {kb(vg['ltg_kb'])} LTG")
    bad_lvs = [lv.id for lv in lvs if lv["stripe_kb"] and lv["stripe_kb"] % stripe]
    if bad_lvs:
        sizes = sorted({ctx.topo[i]["stripe_kb"] for i in bad_lvs})
        what.append(f"the {'/'.join(kb(s) for s in sizes)} stripe size of {ctx.names(bad_lvs)}")
    return what, bad_lvs


def _aligned_layouts(ctx: Context, array: str, level: int, n: int, ltg: int) -> list[str]:
    """Layouts whose full stripe equals the LTG with a segment size the subsystem offers."""
    sub = ctx.subsystem_of(array)
    allowed = ((ctx.topo.part_of(sub) if sub is not None else None) or {}).get("segment_kb") or FASTT_SEGMENTS
    if level in (3, 5):
        return [f"{k}+P x {kb(ltg // k)}" for k in (4, 8, 2, 16) if ltg % k == 0 and ltg // k in allowed]
    return [f"{kb(ltg // n)} segments"] if ltg % n == 0 and ltg // n in allowed else []


@rule(
    "FULL_STRIPE_ALIGNMENT",
    "advice",
    "Full stripe versus LTG and LV stripe size",
    "P690 'RAID5 8+P with 128 KB segment size gives the best I/O performance'; Appendix B 'Segment size' "
    "and 'RAID5 or RAID10'",
)
def full_stripe_alignment(topo: Topology, ctx: Context) -> list[Finding]:
    """Full stripe = segment x data drives. Advice when a VG's LTG or an LV stripe size on it is
    not a whole number of its arrays' full stripes (RAID5 6+P x 256 KB = 1.5 MB against a 1 MB
    LTG: one request no longer fills whole stripes). Warning when the arrays are parity RAID (3
    or 5) and a workload on the VG writes: a partial-stripe write costs RAID 5 two reads and two
    writes, where a matched full-stripe write is one. One finding per VG and array layout."""
    me, out = RULES["FULL_STRIPE_ALIGNMENT"], []
    for vg in ctx.of_kind("volume_group"):
        lvs = topo.children(vg.id, "logical_volume")
        writes = any(w["read_pct"] < 100 for lv in lvs for w in topo.children(lv.id, "workload"))
        for (level, ndrives, seg), group in _layouts(topo, ctx.arrays_of_vg.get(vg.id, [])).items():
            n = data_drives(level, ndrives)
            stripe = seg * n
            what, bad_lvs = _misfits(ctx, vg, lvs, stripe) if stripe else ([], [])
            if not what:
                continue
            severity = "warning" if writes and level in (3, 5) else "advice"
            shape = f"RAID{level} {n}+P" if level in (3, 5) else f"RAID{level} with {n} data drives"
            best = _aligned_layouts(ctx, group[0], level, n, vg["ltg_kb"])
            message = (
                f"{plural(len(group), 'array')} in {ctx.label(vg.id)} ({ctx.names(group, short=False)}) "
                f"{verb(len(group), 'is', 'are')} {shape} with {kb(seg)} segments: a {kb(stripe)} full stripe, "
                f"which does not divide {' or '.join(what)}; large sequential requests will not fill whole stripes."
            )
            if severity == "warning":
                message += " Workloads on this VG write, and RAID 5 pays read-modify-write for partial stripes."
            fix = (
                f"Match segment x data drives to the LTG: for {kb(vg['ltg_kb'])} use "
                f"{' or '.join(best) if best else 'a layout whose full stripe divides it'}; or set the LTG/LV "
                f"stripe size to a multiple of {kb(stripe)} where AIX allows it."
            )
            out.append(me.finding((vg.id, *bad_lvs, *group), message, fix, severity))
    return out


def _workload_arrays(ctx: Context, wl: Component) -> list[str]:
    lv = ctx.topo.get(wl.parent)
    return ctx.arrays_of_vg.get(lv.parent or "", []) if lv is not None else []


@rule(
    "WORK_ON_RAID5",
    "warning",
    "SAS WORK and UTILLOC on parity RAID",
    "SUN 'RAID issues - RAID 5, Striping/Mirroring, Stripe interlace'; NT 'Conclusion' (saswork on RAID 0 with as "
    "many disks as possible)",
)
def work_on_raid5(topo: Topology, ctx: Context) -> list[Finding]:
    """Warning for a WORK or UTILLOC workload whose logical volume's volume group sits on parity
    RAID (5, or 3): "Areas that are write intensive (typically WORK) should avoid using ...
    RAID 5 ... a logical write requires on the order of 4-5 I/Os"."""
    me, out = RULES["WORK_ON_RAID5"], []
    for wl in ctx.of_kind("workload"):
        if wl["purpose"] not in ("WORK", "UTILLOC"):
            continue
        parity = [a for a in _workload_arrays(ctx, wl) if topo[a]["raid_level"] in (3, 5)]
        if parity:
            out.append(
                me.finding(
                    (wl.id, wl.parent, *parity),
                    f"SAS {wl['purpose']} workload {ctx.label(wl.id)} "
                    f"writes to {plural(len(parity), 'parity RAID array')} ({ctx.names(parity, short=False)}); "
                    "each small RAID 5 write costs about 4-5 disk I/Os.",
                    f"Put {wl['purpose']} on its own volume group of RAID 0 arrays (RAID 10 where it must "
                    "survive a drive failure) striped over as many drives as possible, apart from the "
                    "data areas.",
                )
            )
    return out


@rule(
    "DIO_REQUEST_SIZE",
    "warning",
    "Request size and buffers under direct I/O",
    "SASAIX 'PROC SORT performance using direct I/O (data set and utility file PAGESIZE=256K, BUFNO=16)'",
)
def dio_request_size(topo: Topology, ctx: Context) -> list[Finding]:
    """For direct I/O workloads (not Windows, see SGIO_BUFFER_LIMIT): warning when requests (or
    the SAS page size) are below 256 KB or below the LV's stripe size: without the file cache's
    read-ahead every small request goes to disk ("16 KB pages ran slowly until PAGESIZE=256K").
    Advice when BUFNO is set below 16: SAS needs several buffers to pipeline I/O under DIO."""
    me, out = RULES["DIO_REQUEST_SIZE"], []
    for wl in ctx.of_kind("workload"):
        if not wl["direct_io"] or wl["platform"] == "windows":
            continue
        lv = topo.get(wl.parent)
        stripe = lv["stripe_kb"] if lv is not None else 0
        req, page = wl["request_kb"], wl["bufsize_kb"]
        floor = max(256, stripe)
        small = [f"{kb(req)} requests"] if req < floor else []
        if page and page < 256:
            small.append(f"a {kb(page)} SAS page size")
        if small:
            why = (
                f"below the {kb(stripe)} stripe size of {naming.qualified_name(topo, lv)}"
                if stripe > 256 and req < stripe
                else "below 256 KB"
            )
            out.append(
                me.finding(
                    (wl.id, wl.parent),
                    f"{ctx.label(wl.id)} (direct I/O) uses "
                    f"{' and '.join(small)}, {why}; without the file cache's read-ahead each small "
                    "request waits on the disks.",
                    f"Set PAGESIZE/BUFSIZE=256K (or larger, up to the {kb(floor)} stripe) and "
                    "BUFNO=16 or more for this workload.",
                )
            )
        if 0 < wl["bufno"] < 16:
            out.append(
                me.finding(
                    (wl.id,),
                    f"{ctx.label(wl.id)} (direct I/O) has BUFNO={wl['bufno']}; with "
                    "direct I/O SAS needs several buffers to pipeline requests.",
                    "Set BUFNO=16 (the paper also found 64 faster, at more memory).",
                    "advice",
                )
            )
    return out


_SGIO_LIMIT_KB = 64 * 1024  # SGIO 'Conclusion': Windows' limit for the size of an I/O buffer


@rule("SGIO_BUFFER_LIMIT", "error", "SAS SGIO buffers on Windows", "SGIO 'Conclusion'; SGIO 'Examples' (BUFNO tables)")
def sgio_buffer_limit(topo: Topology, ctx: Context) -> list[Finding]:
    """Windows workloads: error when BUFNO x BUFSIZE exceeds 64 MB ("Windows' limit for the size
    of an I/O buffer"). With SGIO (direct_io): warning when BUFSIZE is not a multiple of 4 KB
    (what 32-bit SAS requires), advice when it is not a multiple of 8 KB (64-bit SAS), and
    advice when BUFNO is below 32 ("start with 32, 128, or 256. Avoid the default BUFNO value
    of 1"). The paper found 256 fine, so values above 128 are not flagged."""
    me, out = RULES["SGIO_BUFFER_LIMIT"], []
    for wl in ctx.of_kind("workload"):
        if wl["platform"] != "windows":
            continue
        size, n = wl["bufsize_kb"], wl["bufno"]
        name = ctx.label(wl.id)
        if size and n and size * n > _SGIO_LIMIT_KB:
            out.append(
                me.finding(
                    (wl.id,),
                    f"{name}: BUFNO={n} x BUFSIZE={kb(size)} = {kb(size * n)}, "
                    "above Windows' 64 MB limit for one I/O buffer.",
                    f"Lower BUFNO to {int(_SGIO_LIMIT_KB // size)} or less, or use a smaller BUFSIZE.",
                )
            )
        if not wl["direct_io"]:
            continue
        if size and size % 4:
            out.append(
                me.finding(
                    (wl.id,),
                    f"{name} (SGIO) has BUFSIZE={size:g}K, not a multiple of 4 KB as SGIO requires of the page size.",
                    "Use a multiple of 8 KB, e.g. BUFSIZE=16K or 64K.",
                    "warning",
                )
            )
        elif size and size % 8:
            out.append(
                me.finding(
                    (wl.id,),
                    f"{name} (SGIO) has BUFSIZE={size:g}K: fine for 32-bit SAS, but "
                    "64-bit SAS needs a multiple of 8 KB.",
                    "Use a multiple of 8 KB, e.g. BUFSIZE=16K.",
                    "advice",
                )
            )
        if 0 < n < 32:
            out.append(
                me.finding(
                    (wl.id,),
                    f"{name} (SGIO) has BUFNO={n}; each SGIO request is only "
                    f"{kb(size * n) if size else 'BUFNO pages'} long.",
                    "Start with BUFNO=32, 128 or 256 and keep the fastest for each step.",
                    "advice",
                )
            )
    return out


_ADAPTER_MBPS = 150  # P690 'Choosing the number and slot location': planning figure per busy adapter


def _where(kind: str) -> str:
    """Which side of the path a binding hop kind is on, from its place in the schema's hop order."""
    hops = hop_kinds()
    if kind not in hops:
        return "other"
    at = hops.index(kind)
    for side, first in (("storage", "host_port"), ("san", "switch_port"), ("adapter", "hba")):
        if first in hops and at >= hops.index(first):
            return side
    return "server"


def _unmet_fix(ctx: Context, res: WorkloadResult) -> str:
    """What to change so the workload gets its target, by where its binding hop is."""
    topo, short = ctx.topo, res.target_mbps - res.achieved_mbps
    if res.unreached_pvs:
        return (
            f"Map and zone the logical drives of {ctx.names(res.unreached_pvs)} to the LPAR's HBAs, or take "
            "those hdisks out of the volume group: the LV's share on them goes nowhere."
        )
    if res.bottleneck is None:
        return "Give the workload a path: put its logical volume on hdisks whose logical drives the LPAR reaches."
    kind = topo[res.bottleneck].kind
    side = _where(kind)
    name = kind_name(kind)
    if side == "adapter":
        more = max(1, math.ceil(short / _ADAPTER_MBPS))
        how = (
            f"add {plural(more, 'adapter')} ({_ADAPTER_MBPS} MB/s each when many are busy) on PHBs with room, each "
            "with its own logical drive, and spread the LV over them"
        )
    elif side == "server":
        how = (
            f"move adapters off the saturated {name} to PHBs, links or drawers with room (link0 feeds PHB1 only, "
            "link1 feeds PHB2 and PHB3), or add a drawer"
        )
    elif side == "san":
        how = "cable each HBA on the same ASIC as its storage port and zone them together, or add switch ports"
    else:
        how = "spread the LV over more arrays and subsystems (more PVs, both controllers)"
    return f"{how[0].upper()}{how[1:]}; or lower the target to {res.achieved_mbps:.0f} MB/s."


@rule(
    "WORKLOAD_UNMET",
    "warning",
    "Workload target not met",
    "P690 'Choosing the number and slot location of the Fibre Channel HBAs' (150 MB/s per adapter for "
    "sizing); SUN 'General Guidelines' (spread the load over as many spindles, controllers and paths as possible)",
)
def workload_unmet(topo: Topology, ctx: Context) -> list[Finding]:
    """Warning for each workload whose target (MB/s, its share in the analysed direction) its
    paths cannot carry when everything runs at once (demand-capped max-min fair sharing, see
    planner.demand): what it gets, the hop that binds most of the shortfall and how to fix it."""
    me, out = RULES["WORKLOAD_UNMET"], []
    for res in ctx.analysis.workloads:
        if res.met:
            continue
        hops = sorted(res.binding, key=lambda h: -res.binding[h])
        if res.bottleneck:
            cause = f"{ctx.label(res.bottleneck)} binds it"
            if len(hops) > 1:
                kinds = {topo[h].kind for h in hops}
                many = count_label(len(hops), kinds.pop()) if len(kinds) == 1 else plural(len(hops), "hop")
                cause += f" ({many} bind it in all: {ctx.names(hops)})"
        elif res.unreached_pvs:
            cause = (
                f"{ctx.names(res.unreached_pvs)} {verb(len(res.unreached_pvs), 'has', 'have')} no path from the LPAR"
            )
        else:
            cause = "no path carries it"
        out.append(
            me.finding(
                (res.id, *hops, *res.unreached_pvs),
                f"{ctx.label(res.id)} needs {res.target_mbps:.0f} MB/s ({ctx.direction}) but gets "
                f"{res.achieved_mbps:.0f} MB/s, {res.target_mbps - res.achieved_mbps:.0f} MB/s short; {cause}.",
                _unmet_fix(ctx, res),
            )
        )
    return out
