"""SAN rules: WWPNs, zones, switch ASICs and backplane, link speeds, and reachability and
redundancy of the logical drives over the zoned fabric."""

from __future__ import annotations

from planner import naming
from planner.model import Component, Topology
from planner.resilience import lost_access_by_component
from planner.rules.context import Context
from planner.rules.registry import RULES, Finding, Rule, rule
from planner.rules.wording import plural, ranges, verb
from planner.schema import kind_name, wwpn_problem


def _wwpn_ports(ctx: Context) -> list[Component]:
    return ctx.of_kind("hba_port") + ctx.of_kind("host_port")


@rule(
    "WWPN_INVALID",
    "error",
    "WWPN format",
    "T11 FC-FS (Fibre Channel Framing and Signaling) 'Name_Identifier formats' (8 bytes, NAA 1, 2, 5 or C-F; "
    "NAA 6 is the 16-byte form)",
)
def wwpn_invalid(topo: Topology, ctx: Context) -> list[Finding]:
    """Error for a malformed or reserved WWPN (not 8 bytes, all zeros, NAA 6); warning for cabled
    or zoned ports with no WWPN yet (zoning and host mappings are written with WWPNs)."""
    me, out = RULES["WWPN_INVALID"], []
    missing = []
    for port in _wwpn_ports(ctx):
        w = port["wwpn"]
        if not w:
            if port.id in ctx.cable_of or port.id in ctx.zones_by_member:
                missing.append(port.id)
            continue
        problem = wwpn_problem(w)
        if problem:
            out.append(
                me.finding(
                    (port.id,),
                    f"{ctx.label(port.id)}: {problem}.",
                    "Copy the port name from the adapter (lscfg -vl fcsN, 'Network Address') or the "
                    "subsystem profile, as xx:xx:xx:xx:xx:xx:xx:xx.",
                )
            )
    if missing:
        out.append(
            me.finding(
                missing,
                f"{plural(len(missing), 'cabled or zoned port')} "
                f"({ctx.names(missing, short=False)}) {'has' if len(missing) == 1 else 'have'} no WWPN; "
                "the zoning script and host mappings need it.",
                "Enter each port's WWPN (AIX: lscfg -vl fcsN; FAStT: the storage subsystem profile).",
                "warning",
            )
        )
    return out


@rule(
    "WWPN_DUPLICATE",
    "error",
    "WWPN used twice",
    "T11 FC-FS (Fibre Channel Framing and Signaling) 'Name_Identifier formats' (a port name is worldwide unique); "
    "P690 Appendix B 'Zoning requirements' (partitions name the HBAs by WWPN)",
)
def wwpn_duplicate(topo: Topology, ctx: Context) -> list[Finding]:
    """Error for each WWPN that two or more ports of the design carry (one finding per WWPN,
    listing all its ports). Zoning by WWPN cannot tell the ports apart."""
    me = RULES["WWPN_DUPLICATE"]
    by: dict[str, list[str]] = {}
    for port in _wwpn_ports(ctx):
        w = (port["wwpn"] or "").lower().replace(":", "").replace("-", "")
        if w:
            by.setdefault(w, []).append(port.id)
    out = []
    for ports in by.values():
        if len(ports) > 1:
            w = topo[ports[0]]["wwpn"]
            out.append(
                me.finding(
                    ports,
                    f"WWPN {w} is used by {len(ports)} ports: {ctx.names(ports, 6, short=False)}.",
                    f"Give each port its own WWPN; keep {w} on the port that really has it.",
                )
            )
    return out


@rule(
    "WWPN_PLACEHOLDER",
    "warning",
    "WWPNs still placeholders",
    "P690 Appendix B 'Zoning requirements' (zones and partitions name each HBA and storage port by its WWPN)",
)
def wwpn_placeholder(topo: Topology, ctx: Context) -> list[Finding]:
    """One warning counting the WWPNs SANplan made up (an example, an assistant) that the user has
    not replaced yet: zones and host mappings written with them match no real port. It names the
    partitions and subsystems that own those ports (stable while single ports come and go)."""
    ports = [p for p in _wwpn_ports(ctx) if p["wwpn"] and p.get("wwpn_placeholder")]
    if not ports:
        return []
    owners: dict[str, None] = {}
    for p in ports:
        hba = topo.ancestor(p.id, "hba")
        top = topo.ancestor(p.id, "server" if hba else "subsystem")
        owners[(hba["lpar"] if hba else "") or (top.id if top else p.id)] = None
    n = len(ports)
    return [
        RULES["WWPN_PLACEHOLDER"].finding(
            list(owners),
            f"{plural(n, 'WWPN')} {verb(n, 'is a placeholder', 'are placeholders')} (ports of "
            f"{ctx.names(list(owners), 6, short=False)}); zones and host mappings made with "
            f"{verb(n, 'it', 'them')} match no real port.",
            "Enter the real WWPNs: AIX lscfg -vl fcsN ('Network Address'), the FAStT storage subsystem "
            "profile; paste them in the zoning editor or type them in the inspector.",
        )
    ]


def _zone_members(
    me: Rule, z: Component, topo: Topology, ctx: Context, gone: list[str], present: list[Component]
) -> list[Finding]:
    """Findings on who zone ``z`` names (``gone``: member ids not in the design, ``present``
    the members that are): members not in the design, fewer than two, or no initiator or no
    target."""
    out: list[Finding] = []
    if not gone and len(present) >= 2 and {"hba_port", "host_port"} <= {c.kind for c in present}:
        return out  # the common case: nothing to say, no label to build
    name = ctx.label(z.id)
    if gone:
        out.append(
            me.finding(
                (z.id,),
                f"Zone {name} names {', '.join(gone)}, which {'is' if len(gone) == 1 else 'are'} not in the design.",
                f"Remove the missing members from {naming.qualified_name(topo, z)}.",
                "error",
            )
        )
    if len(present) < 2:
        out.append(
            me.finding(
                (z.id, *[c.id for c in present]),
                f"Zone {name} has {plural(len(present), 'member')}; a zone joins an HBA port and a storage port.",
                f"Add the HBA port and the storage port that should talk to each other to {naming.qualified_name(topo, z)}, or delete it.",
            )
        )
        return out
    kinds = {c.kind for c in present}
    wanted = (("hba_port", "an HBA port (initiator)"), ("host_port", "a storage port (target)"))
    lack = [w for k, w in wanted if k not in kinds]
    if lack:
        out.append(
            me.finding(
                (z.id, *[c.id for c in present]),
                f"Zone {name} has no {' and no '.join(lack)}, so it allows no I/O.",
                f"Add {' and '.join(lack)} to {naming.qualified_name(topo, z)}.",
            )
        )
    return out


def _zone_cabling(me: Rule, z: Component, topo: Topology, ctx: Context, present: list[Component]) -> list[Finding]:
    """Findings on where zone ``z``'s members (``present``: those in the design) are cabled:
    nowhere, or into another fabric."""
    out: list[Finding] = []
    uncabled, foreign = [], []
    for c in present:
        how, sp = ctx.attachment(c.id)
        if how == "none":
            uncabled.append(c.id)
        elif how == "switch" and sp is not None:
            sw = ctx.switch_of(sp)
            if sw is not None and sw["fabric"] != z.parent:
                foreign.append(c.id)
    if not uncabled and not foreign:
        return out
    name = ctx.label(z.id)
    if uncabled:
        out.append(
            me.finding(
                (z.id, *uncabled),
                f"Zone {name} includes {ctx.names(uncabled, short=False)}, "
                f"which {'is' if len(uncabled) == 1 else 'are'} not cabled.",
                f"Cable {'it' if len(uncabled) == 1 else 'them'} to a switch of "
                f"{naming.qualified_name(topo, topo[z.parent]) if z.parent in topo else 'the fabric'}.",
            )
        )
    if foreign:
        fab = naming.qualified_name(topo, topo[z.parent]) if z.parent in topo else z.parent
        out.append(
            me.finding(
                (z.id, *foreign),
                f"Zone {name} belongs to fabric {fab}, but "
                f"{ctx.names(foreign, short=False)} {'is' if len(foreign) == 1 else 'are'} cabled to a "
                "switch of another fabric; the zone cannot connect them.",
                f"Cable {'it' if len(foreign) == 1 else 'them'} into {fab}, or move the zone to the "
                "fabric the ports are in.",
                "error",
            )
        )
    return out


@rule("ZONE_MEMBER_MISSING", "warning", "Zone members", "P690 Appendix B 'Zoning requirements'")
def zone_member_missing(topo: Topology, ctx: Context) -> list[Finding]:
    """Per zone: warning when it has fewer than two members or lacks an initiator (HBA port) or
    a target (storage port), or when a member is not cabled; error when a member is missing from
    the design or cabled into another fabric (the zone cannot take effect for it)."""
    me, out = RULES["ZONE_MEMBER_MISSING"], []
    for z in ctx.of_kind("zone"):
        found = [(m, topo.get(m)) for m in z["members"]]  # one lookup per member
        present = [c for _, c in found if c is not None]
        gone = [m for m, c in found if c is None]
        out += _zone_members(me, z, topo, ctx, gone, present) + _zone_cabling(me, z, topo, ctx, present)
    return out


_Crossing = tuple[Component, str, str, Component, Component]  # zone, HBA port, host port, their switch ports


def _crossings(ctx: Context) -> dict[str, list[_Crossing]]:
    """Switch id -> the zoned initiator-target pairs cabled to two different ASICs of it."""
    crossing: dict[str, list[_Crossing]] = {}
    for z, i, t in ctx.zone_pairs:
        si, st = ctx.in_fabric(i, z.parent or ""), ctx.in_fabric(t, z.parent or "")
        if si is None or st is None or si.parent == st.parent:
            continue
        swi, swt = ctx.switch_of(si), ctx.switch_of(st)
        if swi is None or swt is None or swi.id != swt.id:
            continue  # ISL traffic is another matter
        crossing.setdefault(swi.id, []).append((z, i, t, si, st))
    return crossing


def _backplane_load(ctx: Context, bp: Component | None, bound: int) -> str:
    """What the analysis says of backplane ``bp`` (bottleneck of ``bound`` paths), or ''."""
    a = ctx.analysis
    ld = a.components.get(bp.id) if bp is not None else None
    if ld is None:
        return ""
    if bound:
        demand = 0.0
        for p in a.paths:
            if bp.id in p.hops:
                caps = [a.components[h].capacity for h in p.hops if h != bp.id and a.components[h].capacity]
                demand += min(caps) if caps else 0.0
        return (
            f" The backplane is the bottleneck of {plural(bound, 'path')}: it carries {ld.load:.0f} of "
            f"its {ld.capacity:.0f} MB/s while those paths could move up to {demand:.0f} MB/s."
        )
    if ld.capacity:
        return f" It carries {ld.load:.0f} of its {ld.capacity:.0f} MB/s, shared by all cross-ASIC traffic."
    return ""


def _asic_fix(topo: Topology, ctx: Context, sw_id: str, first: _Crossing) -> str:
    """Re-cable each HBA next to its storage port, with a concrete move for the first pair."""
    asics = "; ".join(
        f"{naming.qualified_name(topo, x)}: ports {ranges(p['index'] for p in topo.children(x.id, 'switch_port'))}"
        for x in topo.children(sw_id, "asic")
    )
    fix = (
        f"Cable each HBA next to its storage port on the same ASIC and zone them together ({asics}), as the "
        f"paper's second cabling did"
    )
    _, _, t, si, st = first
    free = [p for p in topo.children(si.parent, "switch_port") if p.id not in ctx.cable_of]
    if free:
        fix += f"; e.g. move {naming.qualified_name(topo, topo[t])} from {naming.qualified_name(topo, st)} to {naming.qualified_name(topo, free[0])}"
    return fix + "."


@rule(
    "ASIC_CROSSING",
    "warning",
    "Zoned traffic crossing the switch backplane",
    "P690 Appendix C 'SAN design considerations' (2109-F32 ASICs and backplane, Figures 16 and 17)",
)
def asic_crossing(topo: Topology, ctx: Context) -> list[Finding]:
    """Per switch: the zones whose HBA port and storage port sit on different ASICs send their
    traffic over the backplane (1600 MB/s for all of it on a 2109-F32, against 800 MB/s inside
    each ASIC). Warning; error when the analysis finds the backplane is the bottleneck of a path
    (demand exceeds its capacity), as in the paper's first cabling, which gave "half the needed
    throughput"."""
    me, out = RULES["ASIC_CROSSING"], []
    for sw_id, pairs in _crossings(ctx).items():
        bps = topo.children(sw_id, "backplane")
        bp = bps[0] if bps else None
        bound = ctx.binding.get(bp.id, 0) if bp is not None else 0
        zones = list(dict.fromkeys(p[0].id for p in pairs))
        ports = list(dict.fromkeys(x for p in pairs for x in (p[1], p[2])))
        _, i, t, si, st = pairs[0]
        example = (
            f"{naming.qualified_name(topo, topo[i])} on {naming.qualified_name(topo, si)} ({naming.qualified_name(topo, topo[si.parent])}) with {naming.qualified_name(topo, topo[t])} on "
            f"{naming.qualified_name(topo, st)} ({naming.qualified_name(topo, topo[st.parent])})"
        )
        message = (
            f"On {naming.qualified_name(topo, topo[sw_id])}, {plural(len(zones), 'zone')} pair an HBA port and a storage port on "
            f"different ASICs (e.g. {example}); that traffic crosses the backplane."
        ) + _backplane_load(ctx, bp, bound)
        out.append(
            me.finding(
                (sw_id, *([bp.id] if bp is not None else []), *zones, *ports),
                message,
                _asic_fix(topo, ctx, sw_id, pairs[0]),
                "error" if bound else "warning",
            )
        )
    return out


@rule(
    "SPEED_MISMATCH",
    "advice",
    "Link speed of both cable ends",
    "Fibre Channel speed negotiation (a link runs at its slower end); P690 step 1 (2 Gbps ~ 200 MB/s)",
)
def speed_mismatch(topo: Topology, ctx: Context) -> list[Finding]:
    """Advice for cables whose two ports have different speeds: the link runs at the lower one.
    Cables with the same pair of speeds are grouped."""
    me = RULES["SPEED_MISMATCH"]
    groups: dict[tuple[int, int], list[str]] = {}
    for cab in ctx.of_kind("cable"):
        a, b = topo.get(cab["a"]), topo.get(cab["b"])
        if a is None or b is None:
            continue
        sa, sb = a.get("speed_gbps"), b.get("speed_gbps")
        if sa and sb and sa != sb:
            groups.setdefault((min(sa, sb), max(sa, sb)), []).append(cab.id)
    out = []
    for (lo, hi), cables in groups.items():
        ports = [p for c in cables for p in (topo[c]["a"], topo[c]["b"])]
        out.append(
            me.finding(
                (*cables, *ports),
                f"{plural(len(cables), 'cable')} ({ctx.names(cables)}) {verb(len(cables), 'joins', 'join')} a "
                f"{hi} Gbps port to a {lo} Gbps port; the link runs at {lo} Gbps "
                f"(about {lo * 100} MB/s).",
                f"Use ports of the same speed at both ends, or plan with {lo} Gbps for these links.",
            )
        )
    return out


@rule(
    "UNREACHABLE",
    "warning",
    "Adapters, storage ports and logical drives without a path",
    "P690 'AIX 5.2 limits 128 PV per volume group' (at least one array per adapter); "
    "P690 Appendix B 'Logical drives and controller ownership'",
)
def unreachable(topo: Topology, ctx: Context) -> list[Finding]:
    """From the analysis: warning for HBA ports with no complete path (cabling, zoning and host
    mapping), and for cabled storage ports no path uses; error for mapped logical drives no path
    reaches (the host will not see them, or only after a failover); warning for unmapped ones."""
    me, out = RULES["UNREACHABLE"], []
    a = ctx.analysis
    if a.unreachable:
        out.append(
            me.finding(
                a.unreachable,
                f"{plural(len(a.unreachable), 'HBA port')} "
                f"({ctx.names(a.unreachable, short=False)}) {'has' if len(a.unreachable) == 1 else 'have'} "
                "no complete path to a logical drive; the adapter bandwidth is wasted.",
                "Cable each to a switch, zone it with a storage port, and add its WWPN to the host "
                "mapping of the logical drives it should serve.",
            )
        )
    used_host_ports = {p.host_port for p in a.paths}
    reached = {p.logical_drive for p in a.paths}
    idle_ports = [hp.id for hp in ctx.of_kind("host_port") if hp.id in ctx.cable_of and hp.id not in used_host_ports]
    if idle_ports:
        out.append(
            me.finding(
                idle_ports,
                f"{plural(len(idle_ports), 'cabled storage port')} "
                f"({ctx.names(idle_ports, short=False)}) {verb(len(idle_ports), 'carries', 'carry')} no path: "
                "no zoned HBA port is mapped to a logical drive its controller owns.",
                "Zone each with an HBA port of the host, map the logical drives to that HBA port, and "
                "give its controller ownership of some of them.",
            )
        )
    mapped, unmapped = [], []
    for arr in ctx.of_kind("array"):
        for ld in topo.children(arr.id, "logical_drive"):
            if ld.id not in reached:
                (mapped if ctx.mappings_by_ld.get(ld.id) else unmapped).append(ld.id)
    if mapped:
        out.append(
            me.finding(
                mapped,
                f"{plural(len(mapped), 'mapped logical drive')} "
                f"({ctx.names(mapped, short=False)}) {'is' if len(mapped) == 1 else 'are'} reached by no "
                "path: no mapped HBA port is zoned and cabled to the owning controller.",
                "Zone an HBA port of the mapping to a port of the owning controller, or change the "
                "preferred owner to the controller the host reaches.",
                "error",
            )
        )
    if unmapped:
        out.append(
            me.finding(
                unmapped,
                f"{plural(len(unmapped), 'logical drive')} "
                f"({ctx.names(unmapped, short=False)}) {'is' if len(unmapped) == 1 else 'are'} mapped to "
                "no host.",
                "Add them to a host mapping (storage partition), or delete them.",
            )
        )
    return out


_SPOF_FIXES = {  # kind of single point -> the fix
    "hba": "Map each logical drive to two HBAs (one partition with both WWPNs) and zone one to each controller.",
    "switch": "Cable the partition's second HBA and the other controller's port to a second switch (a second "
    "fabric), so the controller A and B paths share no switch.",
    "controller": "Zone an HBA of the partition to the other controller too, so RDAC can fail over.",
}


@rule(
    "SINGLE_POINT_OF_FAILURE",
    "warning",
    "Redundant access to logical drives",
    "P690 Appendix B 'AIX structures used for FAST disk subsystems' (failover needs two controllers); "
    "SASAIX 'SAN and file system' (vpaths over several paths)",
)
def single_point_of_failure(topo: Topology, ctx: Context) -> list[Finding]:
    """Warning when a host reaches a mapped logical drive through only one HBA, only one switch,
    or only one controller: failing that component leaves the host no path to the drive, with
    RDAC's failover to the other controller counted (:mod:`planner.resilience`, the machinery of
    the resilience report, which also fails drawers, PHBs, links, ASICs, cables and ports). Grouped
    per LPAR and kind of single point, so the benchmark (one switch per drawer by the paper's
    choice) gives one finding."""
    me, out = RULES["SINGLE_POINT_OF_FAILURE"], []
    groups: dict[tuple[str, str], tuple[dict[str, None], dict[str, None]]] = {}
    for cid, lost in lost_access_by_component(topo, _SPOF_FIXES, ctx.all_paths).items():
        for lpar, ld_id in lost:
            points, lds = groups.setdefault((lpar, topo[cid].kind), ({}, {}))
            points[cid] = None
            lds[ld_id] = None
    for (lpar, kind), (points, lds) in groups.items():
        host = ctx.label(lpar) if lpar in topo else "an unassigned adapter"
        out.append(
            me.finding(
                ((lpar,) if lpar else ()) + (*points, *lds),
                f"{plural(len(lds), 'logical drive')} used by {host} "
                f"({ctx.names(lds, short=False)}) {'is' if len(lds) == 1 else 'are'} reached through "
                f"only one {kind_name(kind)} each ({ctx.names(points, 6)}); if it fails, "
                f"{'that drive is' if len(lds) == 1 else 'those drives are'} lost to the host.",
                _SPOF_FIXES[kind],
            )
        )
    return out
