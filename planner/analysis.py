"""Bandwidth analysis: the paths a design allows, what each gets when all run at once, and why.

A path runs from an HBA port through the server's I/O hierarchy (server, drawer, planar, RIO2
link, PHB, HBA), a cable, the switch (ASIC-local, or across the backplane, or over ISLs), a
cable, a controller host port, the controller and subsystem, to an array and a logical drive.
A path exists only where cabling, zoning, host mapping and LUN ownership all allow it.

All paths run at once and share each hop's capacity max-min fairly (progressive filling): every
path's rate rises together until a hop saturates; the paths through it are frozen with that hop
as their bottleneck, and the rest go on rising. Ties go to the hop with fewer paths (the most
local cause: three adapters at 195 MB/s under one PHB are adapter-bound, as the paper says).

The aggregate is cross-checked with a networkx maximum flow over the union of the paths (node
capacities by node splitting); max flow is an upper bound of the fair aggregate and equals it
when no path could gain without another losing.

A mixed run (direction ``mixed``) gives each path a read share (``read_pct``, else its workloads'
``read_pct``): the path's rate x is s*x read and (1-s)*x write. A Fibre Channel hop (full duplex,
``KindSpec.duplex``) has a read and a write capacity; every other hop (PCI-X, RIO2, planar,
drawer, GX, controllers) is simplex and shares one capacity between the directions, which a
path uses at s/read + (1-s)/write of its figures [P690 Figure 13, 'JFS2 with DIO read-behind-write'].
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from planner.capacity import Capacities as _Capacities
from planner.demand import WorkloadResult, demand_model, workload_results
from planner.fairshare import PAUSE_EVERY, max_min_fair
from planner.figures import DIRECTIONS, FIGURE_SETS, Figure
from planner.gcpause import gc_paused
from planner.maxflow import max_flow as _max_flow
from planner.model import Component, Topology
from planner.routes import IslIndex, switch_route
from planner.schema import KINDS, hop_kinds, part_kinds

SOURCES = ("disk", "cache")
#: what ``analyze`` takes as a direction: one of the figures' directions, or both at once
ANALYSIS_DIRECTIONS = (*DIRECTIONS, "mixed")
#: the read share of a path in a mixed run when neither --read-pct nor a workload says
DEFAULT_READ_PCT = 50.0

#: part kind -> the part figures the analysis reads (see _Capacities); the catalog editor shows
#: them, and a test keeps the built-in catalog in step with it
FIGURES_READ: dict[str, tuple[str, ...]] = {k: KINDS[k].figures_read for k in part_kinds()}

#: hop kinds in path order, used for grouping and charts
HOP_LEVELS = hop_kinds()
_HOP_SET = frozenset(HOP_LEVELS)


@dataclass(slots=True)
class Path:
    id: str
    hba_port: str
    host_port: str
    logical_drive: str
    hops: list[str]
    mbps: float | None = None
    bottleneck: str | None = None
    read_mbps: float | None = None
    write_mbps: float | None = None


@dataclass(slots=True)
class Load:
    id: str
    kind: str
    capacity: float | None
    source: str = ""
    estimate: bool = False
    load: float = 0.0
    paths: int = 0
    read_load: float = 0.0
    write_load: float = 0.0
    #: mixed runs only: the capacity each way (duplex) or the shared figures (simplex)
    read_capacity: float | None = None
    write_capacity: float | None = None
    duplex: bool = False

    @property
    def utilization(self) -> float | None:
        if self.read_capacity or self.write_capacity:  # a mixed run
            rc = self.read_capacity or self.write_capacity
            wc = self.write_capacity or self.read_capacity
            r, w = self.read_load / rc, self.write_load / wc  # type: ignore[operator]
            return max(r, w) if self.duplex else r + w
        if not self.capacity:
            return None
        return self.load / self.capacity


@dataclass
class Analysis:
    figures: str
    direction: str
    source: str
    paths: list[Path]
    components: dict[str, Load]
    aggregate: float
    by_group: dict[str, dict[str, float]] = field(default_factory=dict)
    max_flow: float | None = None
    min_cut: list[str] = field(default_factory=list)
    unreachable: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    read_mbps: float = 0.0
    write_mbps: float = 0.0
    read_pct: float | None = None  # mixed runs: the share given for every path, None = per workload
    workloads: list[WorkloadResult] = field(default_factory=list)  # those with a target (planner.demand)
    #: RDAC's standby paths (through the controller that does not own the logical drive), kept
    #: by a whole-design search (None otherwise); the SINGLE_POINT_OF_FAILURE rule reads them
    standby: list[Path] | None = field(default=None, compare=False, repr=False)
    #: set by planner.incremental: (a weak reference to the analysis this one was updated from,
    #: the ids of the components whose figures may differ from it); None: not known
    touched: tuple[Any, list[str]] | None = field(default=None, compare=False, repr=False)

    def binding_hops(self) -> dict[str, int]:
        """Bottleneck component id -> number of paths it binds."""
        out: dict[str, int] = {}
        for p in self.paths:
            if p.bottleneck:
                out[p.bottleneck] = out.get(p.bottleneck, 0) + 1
        return out


def binding_counts(topo: Topology, result: Analysis) -> dict[str, int]:
    """Kind of hop -> number of paths a hop of that kind binds, the kinds in the order their
    first binding hop comes in the paths (the sizing and growth reports: the first of the kinds
    binding most paths is the one they name)."""
    counts: dict[str, int] = {}
    for cid, n in result.binding_hops().items():
        load, comp = result.components.get(cid), topo.get(cid)
        kind = load.kind if load is not None else comp.kind if comp is not None else ""
        if kind:
            counts[kind] = counts.get(kind, 0) + n
    return counts


def binding_kinds(topo: Topology, result: Analysis) -> list[tuple[str, int]]:
    """(kind, number of paths it binds), most paths first: which kind of hop limits the design
    (the headline's "bound by"; worked out in the editor's analysis lane with the result)."""
    return sorted(binding_counts(topo, result).items(), key=lambda kv: (-kv[1], kv[0]))


class AnalysisError(ValueError):
    pass


# -- paths -------------------------------------------------------------------------------------


def _host_hops(topo: Topology, hba_port: Component) -> list[str] | None:
    """server, drawer, planar, rio_link, phb, slot, hba, hba_port ids; None if not in a server."""
    comps = topo._components
    chain: list[str] = [hba_port.id]
    top = hba_port
    c = comps.get(hba_port.parent)  # type: ignore[arg-type]
    while c is not None:
        chain.append(c.id)
        top = c
        c = comps.get(c.parent)  # type: ignore[arg-type]
    if top.kind != "server":
        return None
    chain.reverse()
    return chain


def path_indexes(
    topo: Topology, comps: Iterable[Component] | None = None
) -> tuple[dict[str, list[Component]], dict[str, list[Component]], IslIndex]:
    """What the path search looks up: zones by member, host mappings by HBA port, and the
    inter-switch links of each switch (an :class:`IslIndex`). ``comps``: the components
    to index (a connected part of the design, in design order); default all. Cost O(n)."""
    if comps is None:
        zones_of, maps_of, cables = topo.of_kind("zone"), topo.of_kind("host_mapping"), topo.of_kind("cable")
    else:
        zones_of, maps_of, cables = [], [], []
        wanted = {"zone": zones_of, "host_mapping": maps_of, "cable": cables}
        for c in comps:
            bucket = wanted.get(c.kind)
            if bucket is not None:
                bucket.append(c)
    zones: dict[str, list[Component]] = {}
    for z in zones_of:
        for m in z["members"]:
            zones.setdefault(m, []).append(z)
    maps: dict[str, list[Component]] = {}
    for m in maps_of:
        for p in m["hba_ports"]:
            maps.setdefault(p, []).append(m)
    isl = IslIndex()
    switch_ports = topo._by_kind["switch_port"]  # ids: no component read for the other cables
    for cab in cables:
        if cab["a"] in switch_ports and cab["b"] in switch_ports:
            pa, pb = topo[cab["a"]], topo[cab["b"]]
            sa, sb = topo.ancestor(pa.id, "switch"), topo.ancestor(pb.id, "switch")
            if sa is None or sb is None:
                continue
            isl.setdefault(sa.id, []).append((pa.id, cab.id, pb.id, sb.id))
            isl.setdefault(sb.id, []).append((pb.id, cab.id, pa.id, sa.id))
    return zones, maps, isl


def find_paths(
    topo: Topology, only: Iterable[str] = (), standby: list[Path] | None = None
) -> tuple[list[Path], list[str]]:
    """Every path the design allows: (paths, ids of HBA ports with no complete path).

    ``only`` keeps the paths that pass through any of the given component ids (the paper's
    profiling of one adapter, PHB, link, planar or drawer). ``standby``: a list that receives
    RDAC's standby paths (to logical drives the target's controller does not own).
    """
    return _search(topo, only, standby, None)


#: HBA ports searched at a time before their paths' hops are registered (:func:`_search`)
_CHUNK = 16


def _search(
    topo: Topology, only: Iterable[str], standby: list[Path] | None, table: _HopTable | None
) -> tuple[list[Path], list[str]]:
    """:func:`find_paths`; with ``table``, each few HBA ports' paths are added to it as soon as
    they are found, while the components they cross are still in the CPU's caches (on a site,
    a second pass over all the paths would read every component from memory again)."""
    only_set = set(only)
    for cid in only_set:
        topo[cid]  # raises ModelError naming a missing id
    ports, indexes = topo.of_kind("hba_port"), path_indexes(topo)
    if table is None:
        return paths_from(topo, ports, indexes, only_set, standby)
    paths: list[Path] = []
    unreachable: list[str] = []
    for i in range(0, len(ports), _CHUNK):
        found, lost = paths_from(topo, ports[i : i + _CHUNK], indexes, only_set, standby)
        table.add(found)
        paths += found
        unreachable += lost
    return paths, unreachable


def paths_from(
    topo: Topology,
    hba_ports: Iterable[Component],
    indexes: tuple,
    only_set: set[str] | frozenset[str] = frozenset(),
    standby: list[Path] | None = None,
) -> tuple[list[Path], list[str]]:
    """The paths from ``hba_ports`` (in that order) with the lookups of :func:`path_indexes`:
    (paths, ids of those HBA ports with no complete path). See :func:`find_paths`."""
    zones_by_member, maps_by_port, isl = indexes
    paths: list[Path] = []
    unreachable: list[str] = []
    for hp in hba_ports:
        host = _host_hops(topo, hp)
        found = 0
        if host is not None:
            for target, middle in _targets(topo, hp, zones_by_member, isl):
                for ld, store, spare in _storage_hops(topo, hp, target, maps_by_port, standby is not None):
                    hops = host + middle + store
                    if spare:
                        standby.append(Path(f"{hp.id}>{target.id}>{ld}", hp.id, target.id, ld, hops))  # type: ignore[union-attr]
                        continue
                    found += 1
                    if only_set and not only_set.intersection(hops):
                        continue
                    paths.append(Path(f"{hp.id}>{target.id}>{ld}", hp.id, target.id, ld, hops))
        if not found:
            unreachable.append(hp.id)
    return paths, unreachable


def _targets(
    topo: Topology,
    hp: Component,
    zones_by_member: dict[str, list[Component]],
    isl: IslIndex,
):
    """(host_port, hops between the HBA port and it) for every host port the HBA port reaches."""
    cable = topo.cable_at(hp.id)
    if cable is None:
        return
    peer = topo.get(cable["b"] if cable["a"] == hp.id else cable["a"])
    if peer is None:
        return
    if peer.kind == "host_port":  # direct attach, no zoning
        yield peer, [cable.id]
        return
    if peer.kind != "switch_port":
        return
    sw = topo.ancestor(peer.id, "switch")
    fabric = sw["fabric"]  # type: ignore[index]
    seen: set[str] = set()
    for zone in zones_by_member.get(hp.id, ()):
        if zone.parent != fabric:
            continue
        for m in zone["members"]:
            if m in seen or m == hp.id:
                continue
            target = topo.get(m)
            if target is None or target.kind != "host_port":
                continue
            seen.add(m)
            tcable = topo.cable_at(m)
            if tcable is None:
                continue
            tpeer = topo.get(tcable["b"] if tcable["a"] == m else tcable["a"])
            if tpeer is None or tpeer.kind != "switch_port":
                continue
            tsw = topo.ancestor(tpeer.id, "switch")
            if tsw["fabric"] != fabric:
                continue
            route = switch_route(topo, peer, tpeer, isl, (sw, tsw))
            if route is None:
                continue
            yield target, [cable.id, peer.id, *route, tpeer.id, tcable.id]


def _storage_hops(
    topo: Topology, hp: Component, target: Component, maps_by_port: dict[str, list[Component]], standby: bool = False
):
    """(logical drive, hops from host port to it, False) for LDs mapped to the HBA port and
    served here; with ``standby``, also (..., True) for those RDAC serves from the other
    controller."""
    ctl = topo.get(target.parent)
    sub = topo.get(ctl.parent) if ctl else None
    if sub is None:
        return
    part = topo.part_of(sub) or {}
    owner_only = "RDAC" in (part.get("multipath") or ["RDAC"])
    seen: set[str] = set()
    for mapping in maps_by_port.get(hp.id, ()):
        if mapping.parent != sub.id:
            continue
        for ld_id in mapping["logical_drives"]:
            if ld_id in seen:
                continue
            ld = topo.get(ld_id)
            if ld is None:
                continue
            spare = owner_only and ld["owner"] != ctl.id  # the path is standby (failover) only
            if spare and not standby:
                continue
            seen.add(ld_id)
            yield ld_id, [target.id, ctl.id, sub.id, ld.parent, ld_id], spare


def _load_of(comp: Component, fig: Figure | None) -> Load:
    if fig is None:
        return Load(comp.id, comp.kind, None)
    return Load(comp.id, comp.kind, fig.value, fig.source, fig.estimate)


def _single_load(cap: _Capacities, comp: Component) -> Load:
    return _load_of(comp, cap(comp))


class _HopTable:
    """One Load per hop the paths cross (first crossing first), the flows as indexes into the
    capacity list (``flows``, ``caps``, ``hop_ids``: the hop id of each capacity) and each
    path's Loads in hop order (``path_loads``), built path by path with :meth:`add`.
    Cost O(total hops over all paths)."""

    def __init__(self, topo: Topology, cap: _Capacities) -> None:
        self.comps, self.cap = topo._components, cap
        self.loads: dict[str, Load] = {}
        self.caps: list[float] = []
        self.hop_ids: list[str] = []
        self.flows: list[list[int]] = []
        self.path_loads: list[list[Load]] = []
        self._seen: dict[str, tuple[Load, int]] = {}  # hop id -> (its Load, its capacity index or -1)

    def add(self, paths: Iterable[Path], pause: Callable[[], None] | None = None) -> None:
        """Register ``paths`` (after those added before); ``pause``: as for :func:`allocate`."""
        seen, new = self._seen, self._new
        for n, p in enumerate(paths):
            if pause is not None and n % PAUSE_EVERY == 0:
                pause()
            fl: list[int] = []
            pl: list[Load] = []
            for hid in p.hops:
                got = seen.get(hid)
                if got is None:
                    got = seen[hid] = new(hid)
                ld, i = got
                ld.paths += 1
                pl.append(ld)
                if i >= 0:
                    fl.append(i)
            self.flows.append(fl)
            self.path_loads.append(pl)

    def _new(self, hid: str) -> tuple[Load, int]:
        comp = self.comps[hid]
        fig = self.cap(comp)
        i = -1
        if fig is None:
            ld = Load(hid, comp.kind, None)
        else:
            ld = Load(hid, comp.kind, fig.value, fig.source, fig.estimate)
            if fig.value > 0:
                i = len(self.caps)
                self.caps.append(fig.value)
                self.hop_ids.append(hid)
        self.loads[hid] = ld
        return ld, i


def _hop_table(
    topo: Topology, paths: list[Path], cap: _Capacities
) -> tuple[dict[str, Load], list[list[int]], list[float], list[str]]:
    """(loads by hop id, per path the indexes of its capacity-limited hops, capacities, hop id
    of each capacity): a :class:`_HopTable` of ``paths``."""
    table = _HopTable(topo, cap)
    table.add(paths)
    return table.loads, table.flows, table.caps, table.hop_ids


class _Mixed:
    """The constraints of a mixed run: per duplex hop a read and a write capacity, per simplex
    hop one shared capacity (its read figure; a path's write share counts read/write times)."""

    def __init__(self, topo: Topology, cap_r: _Capacities, cap_w: _Capacities) -> None:
        self.topo, self.cap_r, self.cap_w = topo, cap_r, cap_w
        self.loads: dict[str, Load] = {}
        self.index: dict[tuple[str, str], int] = {}
        self.caps: list[float] = []
        self.hop_ids: list[str] = []
        self.path_loads: list[list[Load]] = []  # each path's Loads in hop order (after table())

    def load(self, comp: Component) -> Load:
        """The Load of ``comp`` with its read and write capacities, its constraints registered."""
        ld = self.loads.get(comp.id)
        if ld is not None:
            return ld
        fr, fw = self.cap_r(comp), self.cap_w(comp)
        rc = fr.value if fr is not None and fr.value > 0 else None
        wc = fw.value if fw is not None and fw.value > 0 else None
        ld = self.loads[comp.id] = _load_of(comp, fr or fw)
        ld.read_capacity, ld.write_capacity, ld.duplex = rc, wc, KINDS[comp.kind].duplex
        if ld.duplex:  # a figure given one way only holds each way
            ld.capacity = (rc or wc or 0.0) + (wc or rc or 0.0) or None
            wanted = [("r", rc or wc), ("w", wc or rc)]
        else:
            wanted = [("s", rc or wc)]
        for key, c in wanted:
            if c:
                self.index[(comp.id, key)] = len(self.caps)
                self.caps.append(c)
                self.hop_ids.append(comp.id)
        return ld

    def uses(self, ld: Load, share: float) -> list[tuple[int, float]]:
        """(constraint, coefficient) a path with read share ``share`` puts on hop ``ld``."""
        rc = ld.read_capacity or ld.write_capacity
        wc = ld.write_capacity or ld.read_capacity
        if rc is None or wc is None:
            return []
        if ld.duplex:
            return [(self.index[(ld.id, k)], c) for k, c in (("r", share), ("w", 1.0 - share)) if c > 0]
        return [(self.index[(ld.id, "s")], share + (1.0 - share) * rc / wc)]

    def table(
        self, paths: list[Path], shares: list[float], pause: Callable[[], None] | None = None
    ) -> tuple[list[list[int]], list[list[float]]]:
        flows: list[list[int]] = []
        coefs: list[list[float]] = []
        for n, (p, share) in enumerate(zip(paths, shares)):
            if pause is not None and n % PAUSE_EVERY == 0:
                pause()
            fl: list[int] = []
            co: list[float] = []
            pl: list[Load] = []
            for hid in p.hops:
                ld = self.load(self.topo[hid])
                ld.paths += 1
                pl.append(ld)
                for i, c in self.uses(ld, share):
                    fl.append(i)
                    co.append(c)
            flows.append(fl)
            coefs.append(co)
            self.path_loads.append(pl)
        return flows, coefs


def path_read_shares(topo: Topology, paths: list[Path], read_pct: float | None = None) -> list[float]:
    """Each path's read share (0..1): ``read_pct`` for all when given, else the mean ``read_pct``
    of the workloads on the volume groups that use the path's logical drive (an hdisk of it is a
    PV), else DEFAULT_READ_PCT."""
    if read_pct is not None:
        return [read_pct / 100.0] * len(paths)
    pcts: dict[str, list[float]] = {}
    for vg in topo.of_kind("volume_group"):
        wl = [w["read_pct"] for lv in topo.children(vg.id, "logical_volume") for w in topo.children(lv.id, "workload")]
        if not wl:
            continue
        for pv in vg["pvs"]:
            hd = topo.get(pv)
            if hd is not None and hd["logical_drive"]:
                pcts.setdefault(hd["logical_drive"], []).extend(wl)
    out = []
    for p in paths:
        got = pcts.get(p.logical_drive)
        out.append((sum(got) / len(got) if got else DEFAULT_READ_PCT) / 100.0)
    return out


def _check_options(figures: str, direction: str, source: str, read_pct: float | None) -> None:
    if figures not in FIGURE_SETS:
        raise AnalysisError(f"figure set must be one of {', '.join(FIGURE_SETS)}, not {figures!r}")
    if direction not in ANALYSIS_DIRECTIONS:
        raise AnalysisError(f"direction must be read or write, or mixed (with a read share), not {direction!r}")
    if source not in SOURCES:
        raise AnalysisError(f"source must be disk or cache, not {source!r}")
    if read_pct is not None:
        if direction != "mixed":
            raise AnalysisError("a read share (read_pct) applies to the mixed direction only")
        if isinstance(read_pct, bool) or not isinstance(read_pct, (int, float)) or not 0 <= read_pct <= 100:
            raise AnalysisError(f"read share must be a percentage from 0 to 100, not {read_pct!r}")


def analyze(
    topo: Topology,
    figures: str = "planning",
    direction: str = "read",
    source: str = "disk",
    only: Iterable[str] = (),
    cross_check: bool = False,
    read_pct: float | None = None,
) -> Analysis:
    """Analyse a design. ``figures``: rated/measured/planning; ``direction``: read, write or
    mixed (each path reads ``read_pct`` % of its rate, or its workloads' share; see
    :func:`path_read_shares`); ``source``: 'disk' (arrays and subsystems limit) or 'cache'
    (controller cache hits, as in the paper's hardware profiling; the controllers still limit).
    ``cross_check``: also compute the max-flow / min-cut cross-check (:mod:`planner.maxflow`;
    single-direction runs only; off by default: it is not needed for the rates). Workloads with
    a target cap their paths and are reported in ``workloads`` (model in :mod:`planner.demand`;
    not when ``only`` profiles a part of the design). Raises AnalysisError for an unknown option.
    Cost O(n + total path length) (plus the cross-check)."""
    _check_options(figures, direction, source, read_pct)
    with gc_paused():
        return _analyze(topo, (figures, direction, source, read_pct), only, cross_check)


def _analyze(
    topo: Topology, options: tuple[str, str, str, float | None], only: Iterable[str], cross_check: bool
) -> Analysis:
    figures, direction, source, read_pct = options
    standby: list[Path] | None = None if only else []
    table = None if direction == "mixed" else _HopTable(topo, _Capacities(topo, figures, direction, source))
    paths, unreachable = _search(topo, only, standby, table)
    demand = None if only else demand_model(topo, paths, direction)  # workload targets cap paths
    alloc = allocate(topo, paths, options, demand.caps() if demand else None, table)
    result = Analysis(figures, direction, source, paths, alloc.loads, 0.0, unreachable=unreachable, read_pct=read_pct)
    result.standby = standby
    path_totals(result)
    # idle components with a capacity (an empty PHB, an unused switch port) show up too
    result.components.update(alloc.idle(_not_crossed(topo, alloc.loads)))
    result.by_group = _groups(topo, result, alloc.path_loads)
    if demand is not None:
        result.workloads = workload_results(demand, paths, alloc.rates, result.components)
    if cross_check and paths and direction != "mixed":
        result.max_flow, result.min_cut = _max_flow(paths, result.components)
    return result


def _not_crossed(topo: Topology, loads: dict[str, Load]) -> list[Component]:
    """The components of the hop kinds that are not in ``loads``, in design order (without
    reading the other components: drives, zones, hdisks... are most of a site)."""
    comps, seq = topo._components, topo._seq
    out = [comps[cid] for kind in HOP_LEVELS for cid in _ids_of(topo, kind) if cid not in loads]
    out.sort(key=lambda c: seq[c.id])
    return out


def _ids_of(topo: Topology, kind: str) -> Iterable[str]:
    """The ids of the components of ``kind``, in design order (what ``topo.of_kind(kind)``
    lists, without reading the components: on a site each read is a cache miss)."""
    return topo._kind_table(kind)


@dataclass
class Allocation:
    """The fair shares of some paths: the Load of each hop they cross (first crossing first),
    each path's rate as allocated (math.inf: unknown), and how to make the Load of an idle
    component (``new_load``)."""

    loads: dict[str, Load]
    rates: list[float]
    new_load: Callable[[Component], Load]
    #: each path's Loads in hop order (parallel to the paths)
    path_loads: list[list[Load]] = field(default_factory=list)

    def idle(self, comps: Iterable[Component]) -> dict[str, Load]:
        """The Loads of the hop-kind components in ``comps`` that no path crosses and that have
        a capacity (in the order of ``comps``)."""
        loads, out = self.loads, {}
        for comp in comps:
            if comp.id not in loads and comp.kind in _HOP_SET:
                ld = self.new_load(comp)
                loads.pop(comp.id, None)  # a mixed run registers it among the hops
                if ld.capacity is not None:
                    out[comp.id] = ld
        return out


def allocate(
    topo: Topology,
    paths: list[Path],
    options: tuple[str, str, str, float | None],
    demands: list[float] | None,
    table: _HopTable | None = None,
    pause: Callable[[], None] | None = None,
) -> Allocation:
    """Share the hops' capacities among ``paths`` max-min fairly, each path up to its demand
    (``demands``, parallel to ``paths``; None: none). ``options`` are the analysis's (figures,
    direction, source, read_pct). Sets each path's rate, read and write parts and bottleneck;
    the hops' loads are summed in path order. Paths that share no capacity-limited hop with
    other paths outside ``paths`` get the same result here as in a whole-design run. ``table``:
    the hop table of ``paths`` already built (single-direction runs; see :func:`_search`).
    ``pause`` (optional): called every few paths and steps of the filling, a background
    caller's point to give way (it may wait, or raise to abandon the allocation: nothing of the
    design is changed before the paths' results are written, at the end)."""
    figures, direction, source, read_pct = options
    if direction == "mixed":
        shares = path_read_shares(topo, paths, read_pct)
        mixed = _Mixed(topo, _Capacities(topo, figures, "read", source), _Capacities(topo, figures, "write", source))
        flows, coefs = mixed.table(paths, shares, pause)
        loads, hop_ids, path_loads = mixed.loads, mixed.hop_ids, mixed.path_loads
        rates, bott = max_min_fair(flows, mixed.caps, coefs, demands, pause)
        new_load: Callable[[Component], Load] = mixed.load
    else:
        shares = [1.0 if direction == "read" else 0.0] * len(paths)
        if table is None:
            table = _HopTable(topo, _Capacities(topo, figures, direction, source))
            table.add(paths, pause)
        loads, hop_ids, path_loads = table.loads, table.hop_ids, table.path_loads
        rates, bott = max_min_fair(table.flows, table.caps, demands=demands, pause=pause)
        new_load = functools.partial(_single_load, table.cap)
    for p, s, r, b, lds in zip(paths, shares, rates, bott, path_loads):
        if b is None and math.isinf(r):  # no constraint and no demand: the rate is unknown
            p.mbps, p.bottleneck = None, None
            continue
        p.mbps, p.bottleneck = r, None if b is None else hop_ids[b]  # None: held at its demand
        p.read_mbps, p.write_mbps = rm, wm = r * s, r - r * s
        for ld in lds:
            ld.load += r
            ld.read_load += rm
            ld.write_load += wm
    return Allocation(loads, rates, new_load, path_loads)


def path_totals(result: Analysis) -> None:
    """The aggregate and its read and write parts, summed in path order, and a note for each
    path whose rate is unknown."""
    for p in result.paths:
        if p.mbps is None:
            result.notes.append(f"path {p.id} crosses no part with a known capacity; its rate is unknown")
            continue
        result.aggregate += p.mbps
        result.read_mbps += p.read_mbps  # type: ignore[operator]
        result.write_mbps += p.write_mbps  # type: ignore[operator]


def _groups(
    topo: Topology, result: Analysis, path_loads: list[list[Load]] | None = None
) -> dict[str, dict[str, float]]:
    host_sums, switch_sums = path_sums(topo, result.paths, path_loads)
    groups: dict[str, dict[str, float]] = {"host": {}, "drawer": {}, "switch": {}, "subsystem": {}}
    groups["host"] = dict.fromkeys(_ids_of(topo, "lpar"), 0.0)
    groups["host"].update(host_sums)  # an LPAR the design lacks comes after, in path order
    loads = result.components
    for kind in ("drawer", "subsystem"):
        for cid in _ids_of(topo, kind):
            ld = loads.get(cid)
            groups[kind][cid] = ld.load if ld else 0.0
    groups["switch"] = {sw: switch_sums.get(sw, 0.0) for sw in _ids_of(topo, "switch")}
    return groups


def path_sums(
    topo: Topology, paths: list[Path], path_loads: list[list[Load]] | None = None
) -> tuple[dict[str, float], dict[str, float]]:
    """Per LPAR and per switch, the MB/s of ``paths`` (with their rates) summed in path order
    (a path counts once per switch it crosses). ``path_loads``: each path's Loads in hop order
    (:attr:`Allocation.path_loads`), which name the hops' kinds without a lookup per hop."""
    comps = topo._components
    host: dict[str, float] = {}
    switch: dict[str, float] = {}
    switch_of: dict[str, str | None] = {}  # hop -> its switch, None: not a switch port
    port, lpar = None, ""  # the last path's HBA port and its LPAR (a port's paths come together)
    for k, p in enumerate(paths):
        r = p.mbps
        if r is None:
            continue
        if p.hba_port != port:
            port = p.hba_port
            hba = comps.get(comps[port].parent or "")
            lpar = hba["lpar"] if hba else ""
        if lpar:
            host[lpar] = host.get(lpar, 0.0) + r
        if not r:
            continue
        crossed = set()
        if path_loads is not None:
            for ld in path_loads[k]:
                if ld.kind == "switch_port":
                    sw = switch_of.get(ld.id)
                    if sw is None:
                        sw = switch_of[ld.id] = topo.ancestor(ld.id, "switch").id  # type: ignore[union-attr]
                    crossed.add(sw)
        else:
            for hid in p.hops:
                sw = switch_of.get(hid, "")
                if sw == "":
                    sw = switch_of[hid] = topo.ancestor(hid, "switch").id if comps[hid].kind == "switch_port" else None
                if sw is not None:
                    crossed.add(sw)
        for sw in crossed:
            switch[sw] = switch.get(sw, 0.0) + r
    return host, switch
