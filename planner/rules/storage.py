"""Storage subsystem rules: RAID arrays, segment sizes, logical drive ownership, RDAC paths
and host mappings."""

from __future__ import annotations

from planner import naming
from planner.model import Component, Topology
from planner.rules.context import Context
from planner.rules.registry import RULES, Finding, Rule, rule
from planner.rules.wording import kb, plural, verb

_RAID_MIN = {0: 1, 1: 2, 3: 3, 5: 3, 10: 4}
FASTT_SEGMENTS = (4, 8, 16, 32, 64, 128, 256)  # P690 Appendix B 'Segment size': 4 KB to 256 KB


def raid_drive_problem(raid_level: int, drives: int, max_drives: int | None = None) -> str | None:
    """Why ``drives`` drives cannot form a RAID ``raid_level`` array, or None when they can.

    Minimums from P690 Appendix B (RAID 1 two, RAID 5 three) and the RAID definitions
    (RAID 3 needs data + parity, RAID 10 two mirrored pairs); RAID 1 and 10 mirror drives in
    pairs, so FAStT builds them from an even number of drives.
    """
    least = _RAID_MIN.get(raid_level)
    if least is None:
        return f"RAID {raid_level} is not a RAID level this planner knows (0, 1, 3, 5, 10)"
    if drives < least:
        return f"RAID {raid_level} needs at least {least} drives, not {drives}"
    if raid_level in (1, 10) and drives % 2:
        return f"RAID {raid_level} mirrors drives in pairs and needs an even number of drives, not {drives}"
    if max_drives and drives > max_drives:
        return f"an array holds at most {max_drives} drives, not {drives}"
    return None


@rule("RAID_DRIVE_COUNT", "error", "Drives per RAID array", "P690 Appendix B 'FAStT configuration options'")
def raid_drive_count(topo: Topology, ctx: Context) -> list[Finding]:
    """Error when an array has too few drives for its RAID level (RAID 0 1, RAID 1 2, RAID 3 and
    5 3, RAID 10 4), an odd number for RAID 1/10, more than the subsystem's maximum (30 on
    FAStT), or a RAID level the subsystem does not offer. Arrays with the same problem are
    grouped into one finding."""
    me = RULES["RAID_DRIVE_COUNT"]
    groups: dict[str, list[str]] = {}
    for arr in ctx.of_kind("array"):
        sub = ctx.subsystem_of(arr.id)
        part = (topo.part_of(sub) if sub is not None else None) or {}
        levels = part.get("raid_levels")
        if levels and arr["raid_level"] not in levels:
            problem = (
                f"RAID {arr['raid_level']} is not offered by {part.get('name', part.get('id'))} "
                f"(it offers RAID {', '.join(map(str, levels))})"
            )
        else:
            problem = raid_drive_problem(arr["raid_level"], len(arr["drives"]), part.get("max_drives_per_array"))
        if problem:
            groups.setdefault(problem, []).append(arr.id)
    out = []
    for problem, arrays in groups.items():
        out.append(
            me.finding(
                arrays,
                f"{plural(len(arrays), 'array')} ({ctx.names(arrays, short=False)}): {problem}.",
                "Change the array's drives or RAID level in the subsystem's array settings: RAID 5 "
                "n+P with n+1 >= 3 drives, RAID 1/10 an even number, at most the subsystem's maximum "
                "per array.",
            )
        )
    return out


@rule("SEGMENT_SIZE", "error", "Segment size supported by the subsystem", "P690 Appendix B 'Segment size'")
def segment_size(topo: Topology, ctx: Context) -> list[Finding]:
    """Error when an array's segment size is not one the subsystem part lists (FAStT: 4 KB to
    256 KB, powers of two). Without a list in the part, the FAStT range is assumed."""
    me = RULES["SEGMENT_SIZE"]
    groups: dict[tuple[int, tuple[int, ...]], list[str]] = {}
    for arr in ctx.of_kind("array"):
        sub = ctx.subsystem_of(arr.id)
        allowed = tuple((topo.part_of(sub) or {}).get("segment_kb") or ()) if sub is not None else ()
        seg = arr["segment_kb"]
        ok = seg in (allowed or FASTT_SEGMENTS)
        if not ok:
            groups.setdefault((seg, allowed), []).append(arr.id)
    out = []
    for (seg, allowed), arrays in groups.items():
        sizes = ", ".join(kb(s) for s in allowed) if allowed else "4 KB to 256 KB (powers of two)"
        out.append(
            me.finding(
                arrays,
                f"{plural(len(arrays), 'array')} ({ctx.names(arrays, short=False)}) "
                f"{verb(len(arrays), 'uses', 'use')} a {kb(seg)} segment; the subsystem supports {sizes}.",
                "Pick a supported segment size; for large sequential I/O choose one where segment x data "
                "drives equals the LTG (RAID5 8+P x 128 KB or 4+P x 256 KB for a 1 MB LTG).",
            )
        )
    return out


@rule(
    "LUN_OWNERSHIP_BALANCE",
    "warning",
    "Logical drives balanced over both controllers",
    "P690 Appendix B 'Controller ownership'",
)
def lun_ownership_balance(topo: Topology, ctx: Context) -> list[Finding]:
    """Warning per subsystem when a controller owns no logical drive, when the owners are
    strongly unbalanced (one controller holds more than two thirds of the logical drives, with
    three or more of them, or more than two thirds of the gigabytes), or when a logical drive
    has no owner. Size stands in for load, which the design does not know per LUN. "In order to use
    both controllers ... you must define at least two LUNs, one being owned by controller A and
    the other owned by controller B"."""
    me, out = RULES["LUN_OWNERSHIP_BALANCE"], []
    for sub in ctx.of_kind("subsystem"):
        ctls = topo.children(sub.id, "controller")
        lds = [ld for arr in topo.children(sub.id, "array") for ld in topo.children(arr.id, "logical_drive")]
        if not lds or len(ctls) < 2:
            continue
        count = {c.id: 0 for c in ctls}
        size = {c.id: 0.0 for c in ctls}
        orphans = []
        for ld in lds:
            if ld["owner"] in count:
                count[ld["owner"]] += 1
                size[ld["owner"]] += ld["size_gb"]
            else:
                orphans.append(ld.id)
        problems = []
        idle = [c for c in count if count[c] == 0]
        if idle:
            problems.append(
                f"{ctx.names(idle)} own{'s' if len(idle) == 1 else ''} no logical drive, so "
                f"{'its' if len(idle) == 1 else 'their'} bandwidth is unused"
            )
        owned = sum(count.values())
        total_gb = sum(size.values())
        if not idle:
            top = max(count, key=lambda c: count[c])
            big = max(size, key=lambda c: size[c])
            if owned >= 3 and count[top] * 3 > owned * 2:
                problems.append(f"{naming.qualified_name(topo, topo[top])} owns {count[top]} of {owned} logical drives")
            elif total_gb > 0 and size[big] * 3 > total_gb * 2:
                problems.append(f"{naming.qualified_name(topo, topo[big])} owns {size[big]:.0f} of {total_gb:.0f} GB")
        if orphans:
            problems.append(f"{ctx.names(orphans)} {'has' if len(orphans) == 1 else 'have'} no preferred owner")
        if not problems:
            continue
        by = ", ".join(f"{naming.qualified_name(topo, topo[c])}: {count[c]}" for c in count)
        out.append(
            me.finding(
                (sub.id, *idle, *orphans),
                f"On {naming.qualified_name(topo, sub)} ({by} logical drives) " + "; ".join(problems) + ".",
                f"Set the preferred owner so {naming.qualified_name(topo, sub)}'s logical drives (and their expected load) "
                "split evenly between the controllers, e.g. one array's LUN on A and the other's on B.",
            )
        )
    return out


def _uses_rdac(ctx: Context, sub: Component) -> bool:
    return "RDAC" in ((ctx.topo.part_of(sub) or {}).get("multipath") or ["RDAC"])


_Reach = dict[str, list[str]]  # HBA port id -> the host ports it is connected to


def _rdac_reach(topo: Topology, ctx: Context, lpar: Component) -> dict[str, _Reach]:
    """Subsystem id -> what the LPAR's HBA ports reach on it (subsystems it is mapped on
    included, with no connection)."""
    conns = ctx.connections
    ports = ctx.ports_of_lpar.get(lpar.id, [])
    by_sub: dict[str, _Reach] = {}
    for p in ports:
        for hp in conns.get(p, {}):
            sub = ctx.subsystem_of(hp)
            if sub is not None:
                by_sub.setdefault(sub.id, {}).setdefault(p, []).append(hp)
    maps = {m.id: m for p in ports for m in ctx.mappings_by_port.get(p, ())}
    for m in sorted(maps.values(), key=lambda m: topo.seq_of(m.id)):  # design order
        by_sub.setdefault(m.parent, {})
    return by_sub


def _partitions(topo: Topology, sub_id: str, mine: set[str], reach: _Reach) -> list[tuple[Component | None, list[str]]]:
    """(host mapping, the LPAR's HBA ports in it) per partition on the subsystem, then
    (None, [port]) for each connected port in no partition."""
    groups: list[tuple[Component | None, list[str]]] = []
    grouped: set[str] = set()
    for m in topo.children(sub_id, "host_mapping"):
        members = [p for p in m["hba_ports"] if p in mine]
        if members:
            groups.append((m, members))
            grouped.update(members)
    return groups + [(None, [p]) for p in reach if p not in grouped]


def _dac_findings(
    me: Rule,
    ctx: Context,
    lpar: Component,
    sub: Component,
    mapping: Component | None,
    members: list[str],
    reach: _Reach,
) -> list[Finding]:
    """RDAC findings for one partition (or one unmapped HBA port): per controller, more than
    one path (error) or, with logical drives mapped, none (warning)."""
    topo, conns, out = ctx.topo, ctx.connections, []

    def who() -> str:  # (named only for a finding: most partitions have none)
        if mapping is None:
            return ctx.label(members[0])
        return f"partition {naming.qualified_name(topo, mapping)} ({ctx.names(members)})"

    for ctl in topo.children(sub.id, "controller"):
        seen = [(p, hp) for p in members for hp in reach.get(p, ()) if topo[hp].parent == ctl.id]
        if len(seen) > 1:
            zones = list(dict.fromkeys(z for p, hp in seen for z in conns[p][hp] if z))
            lines = ", ".join(
                f"{naming.qualified_name(topo, topo[p])} -> {naming.qualified_name(topo, topo[hp])}" for p, hp in seen
            )
            out.append(
                me.finding(
                    (lpar.id, ctl.id, *dict.fromkeys(x for pair in seen for x in pair), *zones),
                    f"{ctx.label(lpar.id)} uses RDAC, and {who()} sees {naming.qualified_name(topo, ctl)} through {len(seen)} paths "
                    f"({lines}); the AIX RDAC driver allows exactly one path to each controller (dac).",
                    "Zone so that each controller is reached once per partition: HBA1 to controller A, "
                    "HBA2 to controller B (remove one of these connections from the zones "
                    f"{ctx.names(zones, 6) if zones else 'the direct cabling'}); or use MPIO/SDDPCM on AIX "
                    f"5.3+ if the subsystem supports it.",
                )
            )
        elif not seen and mapping is not None and mapping["logical_drives"]:
            out.append(
                me.finding(
                    (lpar.id, ctl.id, mapping.id),
                    f"{who()} on {naming.qualified_name(topo, sub)} reaches {naming.qualified_name(topo, ctl)} through no "
                    "HBA: RDAC needs both controllers (dacs) discovered for failover, and the logical "
                    f"drives {naming.qualified_name(topo, ctl)} owns are not reachable.",
                    f"Cable and zone one HBA of partition {naming.qualified_name(topo, mapping)} to a {naming.qualified_name(topo, ctl)} port.",
                    "warning",
                )
            )
    return out


@rule(
    "RDAC_PATHS",
    "error",
    "RDAC: exactly one path to each controller",
    "P690 Appendix B 'AIX structures used for FAST disk subsystems' and 'Zoning requirements'",
)
def rdac_paths(topo: Topology, ctx: Context) -> list[Finding]:
    """For LPARs whose multipath driver is RDAC (MPIO and SDDPCM lift the rule; SDD hosts
    balance over many paths), on subsystems driven by RDAC: "the system should be allowed to
    see exactly one path to a dac". A dac is one controller as seen by one host partition
    (host mapping): two HBAs mapped together get HBA1 -> controller A, HBA2 -> controller B;
    four HBAs get two partitions, each with one path to A and one to B.

    Error: a partition (or an unmapped HBA port) with more than one zoned and cabled
    connection to one controller (an HBA zoned to both A ports, or both HBAs zoned to A).
    Warning: a partition with logical drives that reaches a controller through no HBA: RDAC
    needs both controllers discovered for failover."""
    me, out = RULES["RDAC_PATHS"], []
    for lpar in ctx.of_kind("lpar"):
        if lpar["multipath"] != "RDAC":
            continue
        mine = set(ctx.ports_of_lpar.get(lpar.id, []))
        for sub_id, reach in _rdac_reach(topo, ctx, lpar).items():
            sub = topo[sub_id]
            if not _uses_rdac(ctx, sub):
                continue
            for mapping, members in _partitions(topo, sub_id, mine, reach):
                out += _dac_findings(me, ctx, lpar, sub, mapping, members, reach)
    return out


@rule(
    "MAPPING_EMPTY",
    "warning",
    "Host mappings with HBA ports and logical drives",
    "P690 Appendix B 'Zoning requirements' (one partition definition with the WWPNs of the HBAs)",
)
def mapping_empty(topo: Topology, ctx: Context) -> list[Finding]:
    """Warning for a host mapping (storage partition) with no HBA ports or no logical drives."""
    me, out = RULES["MAPPING_EMPTY"], []
    for m in ctx.of_kind("host_mapping"):
        lack = [w for w, v in (("HBA ports", m["hba_ports"]), ("logical drives", m["logical_drives"])) if not v]
        if lack:
            out.append(
                me.finding(
                    (m.id,),
                    f"Host mapping {ctx.label(m.id)} has no {' and no '.join(lack)}; it gives "
                    "no host access to anything.",
                    f"Add the HBA WWPNs and the logical drives to {naming.qualified_name(topo, m)}, or delete it.",
                )
            )
    return out
