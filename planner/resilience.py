"""What survives a failure: fail each single component on the data path in turn and re-analyse.

The host's multipath driver decides what a failure does [DOMAIN "RDAC failover"; P690
Appendix B]. On a subsystem driven by RDAC (the FAStT family: a logical drive is served by its
owning controller only) a logical drive whose owner has lost every path moves to the other
controller (AVT / failover) and is carried by that controller's paths, the standby paths the
analysis leaves idle. On a subsystem whose driver balances (SDD / MPIO, the ESS) the remaining
paths carry it. A host loses a logical drive when no path to it is left at all; a workload on
an LV loses access when a physical volume of its volume group loses its logical drive (an LV
may have partitions on every PV of its VG; the paper's striped LVs span them all).

Speed: the path search runs once (:func:`all_paths`); a failure only removes the paths that
cross the failed component, re-owns logical drives under RDAC, and re-runs the max-min fair
allocation (:func:`planner.analysis.max_min_fair`) on the flows left, with the capacities of the
full analysis. Failures that remove the same paths share one allocation.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from planner import naming
from planner.analysis import Analysis, Path, _host_hops, _targets, analyze, path_indexes
from planner.fairshare import Refilling, fill_together, independent_flows, series_merged
from planner.model import Component, Topology
from planner.naming import counted
from planner.schema import hop_kinds, kind_name, spec

_HOPS = hop_kinds()
#: the kinds failed one at a time: the hops between the server and the storage (drawer to
#: controller, as ordered in the schema), the cables between ports and the switches that hold
#: ASICs. The server, the subsystem and its arrays are the ends of every path, not redundancy.
FAIL_KINDS: tuple[str, ...] = (*_HOPS[1 : _HOPS.index("subsystem")], "cable", spec("asic").parents[0])


@dataclass
class Failure:
    """One component failed: the aggregate after it and what is lost."""

    component: str
    kind: str
    aggregate_mbps: float
    loss_mbps: float
    paths_lost: int
    lost_logical_drives: list[str] = field(default_factory=list)
    lost_workloads: list[str] = field(default_factory=list)
    unmet_workloads: list[str] = field(default_factory=list)
    failed_over: list[str] = field(default_factory=list)  # logical drives RDAC moved to the other controller

    @property
    def loses_data(self) -> bool:
        return bool(self.lost_logical_drives)


@dataclass
class Resilience:
    """Every single failure, worst first (lost data access, then lost bandwidth)."""

    figures: str
    direction: str
    source: str
    baseline_mbps: float
    failures: list[Failure]
    unaffected: int = 0  # components of the failed kinds that carry no path
    notes: list[str] = field(default_factory=list)

    @property
    def worst(self) -> Failure | None:
        return self.failures[0] if self.failures else None

    @property
    def data_loss(self) -> list[Failure]:
        """The failures that cost some host all access to a logical drive."""
        return [f for f in self.failures if f.loses_data]


# -- the paths, owner and standby ------------------------------------------------------------


def owner_only(topo: Topology, sub: Component) -> bool:
    """The subsystem serves a logical drive from its owning controller only (RDAC), as
    :func:`planner.analysis.find_paths` assumes; otherwise every path carries it (SDD)."""
    return "RDAC" in ((topo.part_of(sub) or {}).get("multipath") or ["RDAC"])


def _indexes(topo: Topology):
    """Zones by member, host mappings by HBA port and inter-switch links by switch."""
    return path_indexes(topo)


def all_paths(topo: Topology) -> list[Path]:
    """Every path the design allows whatever the logical drive's owner: the analysis's paths
    plus RDAC's standby paths through the non-owning controller. Cost O(total path length)."""
    zones, maps, isl = _indexes(topo)
    out: list[Path] = []
    for hp in topo.of_kind("hba_port"):
        host = _host_hops(topo, hp)
        if host is None:
            continue
        for target, middle in _targets(topo, hp, zones, isl):
            ctl = topo.get(target.parent)
            sub = topo.get(ctl.parent) if ctl else None
            if sub is None:
                continue
            seen: set[str] = set()
            for mapping in maps.get(hp.id, ()):
                if mapping.parent != sub.id:
                    continue
                for ld_id in mapping["logical_drives"]:
                    ld = topo.get(ld_id)
                    if ld is None or ld_id in seen:
                        continue
                    seen.add(ld_id)
                    hops = [*host, *middle, target.id, ctl.id, sub.id, ld.parent, ld_id]
                    out.append(Path(f"{hp.id}>{target.id}>{ld_id}", hp.id, target.id, ld_id, hops))
    return out


#: the kinds of hop inside a switch: its failure takes them down too
_IN_SWITCH = frozenset(("switch_port", "asic", "backplane"))


@dataclass
class _PathInfo:
    ld: str
    ctl: str
    owner: str  # the LD's owner; '' when every path carries it (not RDAC)
    host: str  # the LPAR of the HBA ('' for an adapter assigned to none)


class Paths:
    """The paths once, indexed for failures: which paths cross each component (or a component
    inside it, for a switch), and per (LPAR, logical drive) access how many paths it has."""

    def __init__(self, topo: Topology, paths: list[Path] | None = None, kinds: Iterable[str] = FAIL_KINDS) -> None:
        self.topo = topo
        self.kinds = frozenset(kinds)  # the kinds failed: ``crossing`` lists those only
        self.paths = all_paths(topo) if paths is None else paths
        self.info: list[_PathInfo] = []
        self.crossing: dict[str, list[int]] = {}
        ancestors: dict[str, list[str]] = {}
        rdac: dict[str, bool] = {}
        for i, p in enumerate(self.paths):
            ctl = topo[p.host_port].parent or ""
            sub = topo[ctl].parent or ""
            if sub not in rdac:
                rdac[sub] = owner_only(topo, topo[sub])
            hba = topo.get(topo[p.hba_port].parent)
            owner = (topo[p.logical_drive]["owner"] or "") if rdac[sub] else ""
            self.info.append(_PathInfo(p.logical_drive, ctl, owner, (hba["lpar"] or "") if hba else ""))
            for hid in p.hops:
                ups = ancestors.get(hid)
                if ups is None:
                    ups = ancestors[hid] = self._failing(hid)
                for cid in ups:
                    self.crossing.setdefault(cid, []).append(i)
        self.access: dict[tuple[str, str], list[int]] = {}
        for i, inf in enumerate(self.info):
            self.access.setdefault((inf.host, inf.ld), []).append(i)

    def _failing(self, hid: str) -> list[str]:
        """The hop and the components around it whose failure takes it down (a switch port's
        ASIC and switch), kept to the kinds that are failed."""
        comps, kinds = self.topo._components, self.kinds  # read only
        out, c = [], comps.get(hid)
        while c is not None:
            if c.kind in kinds:
                out.append(c.id)
            if c.kind not in _IN_SWITCH:
                break  # a drawer's failure is a hop of the path itself; only switches hold hops
            c = comps.get(c.parent) if c.parent else None
        return out

    def lost_access(self, removed: Iterable[int]) -> list[tuple[str, str]]:
        """(LPAR, logical drive) pairs left with no path when the paths ``removed`` are gone."""
        count: dict[tuple[str, str], int] = {}
        for i in removed:
            key = (self.info[i].host, self.info[i].ld)
            count[key] = count.get(key, 0) + 1
        return sorted(k for k, n in count.items() if n == len(self.access[k]))

    def serving(self, removed: set[int], among: list[int] | None = None) -> tuple[list[int], list[str]]:
        """The flows that carry data once the paths ``removed`` are gone, and the logical drives
        RDAC moved: an owner-only logical drive is carried by its owner's paths while one is
        left, else by the paths left to its other controllers. ``among``: only these paths (in
        order; every path of a logical drive or none), default all."""
        chosen = [(i, self.info[i]) for i in among] if among is not None else list(enumerate(self.info))
        owner_alive: set[str] = set()
        for i, inf in chosen:
            if inf.owner and i not in removed and inf.ctl == inf.owner:
                owner_alive.add(inf.ld)
        flows, moved = [], set()
        for i, inf in chosen:
            if i in removed:
                continue
            if not inf.owner or inf.ctl == inf.owner:
                flows.append(i)
            elif inf.ld not in owner_alive:
                flows.append(i)
                moved.add(inf.ld)
        return flows, sorted(moved)


# -- workloads --------------------------------------------------------------------------------


def workloads_by_access(topo: Topology) -> dict[tuple[str, str], list[str]]:
    """(LPAR, logical drive) -> the workloads on LVs of a volume group with that drive's hdisk."""
    vg_of: dict[str, list[str]] = {}
    for vg in topo.of_kind("volume_group"):
        for pv in vg["pvs"]:
            vg_of.setdefault(pv, []).append(vg.id)
    out: dict[tuple[str, str], list[str]] = {}
    for hd in topo.of_kind("hdisk"):
        if not hd["logical_drive"]:
            continue
        found = out.setdefault((hd.parent or "", hd["logical_drive"]), [])
        for vg in vg_of.get(hd.id, ()):
            for lv in topo.children(vg, "logical_volume"):
                found += [w.id for w in topo.children(lv.id, "workload") if w.id not in found]
    return out


def _field(obj: Any, name: str) -> Any:
    return obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)


def workload_results(result: Analysis) -> list[Any]:
    """The analysis's workload results when it offers them (demand analysis), else []."""
    got = getattr(result, "workloads", None) or []
    return list(got.values()) if isinstance(got, dict) else list(got)


class _Demand:
    """Which workloads become unmet: each met workload with a target, against the bandwidth
    its logical drives keep. An estimate: the drives' surviving max-min fair bandwidth is shared
    by the targets of the workloads that use any of them."""

    def __init__(self, topo: Topology, result: Analysis, by_access: dict[tuple[str, str], list[str]]) -> None:
        self.lds: dict[str, set[str]] = {}
        for (_, ld), wls in by_access.items():
            for w in wls:
                self.lds.setdefault(w, set()).add(ld)
        self.target: dict[str, float] = {}
        for w in workload_results(result):
            wid, target = _field(w, "id"), _field(w, "target_mbps")
            if wid in self.lds and target and _field(w, "met") is not False:
                self.target[wid] = float(target)

    def unmet(self, ld_rate: dict[str, float], lost: set[str]) -> list[str]:
        out = []
        for w in self.target:
            if w in lost:
                out.append(w)
                continue
            supply = sum(ld_rate.get(ld, 0.0) for ld in self.lds[w])
            demand = sum(t for o, t in self.target.items() if self.lds[o] & self.lds[w])
            if supply < demand * (1 - 1e-9):
                out.append(w)
        return sorted(out)


# -- the failures -------------------------------------------------------------------------------


def _shape(flows: list[list[int]], caps: list[float]) -> bytes:
    """The whole input of a fair share, as bytes: each flow's length and constraints, then the
    capacities (exactly: their IEEE bits)."""
    ints = array("q")
    for fl in flows:
        ints.append(len(fl))
        ints.extend(fl)
    return len(flows).to_bytes(8, "little") + ints.tobytes() + array("d", caps).tobytes()


#: a set of flows this size or smaller has its fair shares kept by its shape (see
#: :meth:`_Allocator.rates`: a site of identical builds, 56 flows a build, fills each shape
#: once); a larger one is filled from the state of the flows with nothing failed (a data
#: centre's 768 flows failed 3,400 ways would keep some 200 MB of shapes no other repeats)
SHAPE_KEPT_FLOWS = 128


class _Allocator:
    """Max-min fair rates of any subset of the paths, with the capacities of one analysis.
    The constraints are merged in series (:func:`planner.fairshare.series_merged`) and the flows
    kept in their independent sets (those that share no constraint through any path): a failure
    fills again only the sets it changed (a site's other servers keep their rates; a data
    centre's hosts share their subsystems' controllers across both fabrics: one set)."""

    def __init__(self, paths: Paths, result: Analysis) -> None:
        index: dict[str, int] = {}
        caps: list[float] = []
        flows: list[list[int]] = []
        for p in paths.paths:
            fl = []
            for hid in p.hops:
                if hid not in index:
                    load = result.components.get(hid)
                    if load is None or not load.capacity or load.capacity <= 0:
                        index[hid] = -1
                        continue
                    index[hid] = len(caps)
                    caps.append(load.capacity)
                if index[hid] >= 0:
                    fl.append(index[hid])
            flows.append(fl)
        self.flows, self.caps = series_merged(flows, caps)[0], caps
        #: per flow its independent set (-1: no capacitated hop) and its constraints numbered
        #: in that set (in their order); per set the capacities
        self.set_of: list[int] = [-1] * len(flows)
        self.local: list[list[int]] = [[] for _ in flows]
        self.set_caps: list[list[float]] = []
        self.members: list[list[int]] = []
        for members in independent_flows(self.flows, len(self.caps)):
            if not self.flows[members[0]]:
                continue  # (flows with no constraint are alone each)
            hs = sorted({h for f in members for h in self.flows[f]})
            number = {h: n for n, h in enumerate(hs)}
            for f in members:
                self.set_of[f] = len(self.set_caps)
                self.local[f] = [number[h] for h in self.flows[f]]
            self.set_caps.append([self.caps[h] for h in hs])
            self.members.append(members)
        #: per set, the flows last remembered and their rates (see rates)
        self._kept: dict[int, tuple[list[int], dict[int, float]]] = {}
        #: per large set, its filling from the flows remembered (see rates)
        self._refill: dict[int, tuple[Refilling, dict[int, int]]] = {}
        #: the fair shares of each small set of flows seen, by shape (see rates)
        self._shares: dict[bytes, tuple[list[float], list[int | None]]] = {}

    def rates(self, flows: list[int], remember: bool = False) -> dict[int, float]:
        """Path index -> rate for the flows given (paths with no capacitated hop are left out),
        filled independent set by independent set. A set with the same flows as when last
        ``remember``-ed keeps its rates; a small set with the same shape (its flows and
        capacities, numbered in the set) as one filled before gets the same shares, bit for
        bit: they are computed once (a site of identical server builds fails each build's parts
        alike)."""
        by_set: dict[int, list[int]] = {}
        set_of = self.set_of
        for i in flows:
            if set_of[i] >= 0:
                by_set.setdefault(set_of[i], []).append(i)
        out: dict[int, float] = {}
        for s, fs in by_set.items():
            kept = self._kept.get(s)
            if kept is not None and kept[0] == fs:
                out.update(kept[1])
                continue
            if s in self._refill:  # (a large set: filled from the state of the flows remembered)
                refill, pos = self._refill[s]
                rate, bott = refill.fill([pos[i] for i in fs])
                got = ([rate[pos[i]] for i in fs], [bott[pos[i]] for i in fs])
            else:
                chosen = [self.local[i] for i in fs]
                if len(fs) > SHAPE_KEPT_FLOWS:
                    got = fill_together(chosen, self.set_caps[s])
                elif (got := self._shares.get(key := _shape(chosen, self.set_caps[s]))) is None:
                    got = self._shares[key] = fill_together(chosen, self.set_caps[s])
            mine = {i: r for i, r, b in zip(fs, *got) if b is not None and not math.isinf(r)}
            if remember:
                self._kept[s] = (fs, mine)
                if len(fs) > SHAPE_KEPT_FLOWS:
                    pos = {f: n for n, f in enumerate(self.members[s])}
                    local = [self.local[f] for f in self.members[s]]
                    self._refill[s] = (Refilling(local, self.set_caps[s], [pos[i] for i in fs]), pos)
            out.update(mine)
        return out

    def groups(self, paths: Paths) -> list[list[int]]:
        """The paths in independent groups, each in path order: paths that share a capacitated
        hop or a logical drive are in one group. A failure changes the rates of its own groups
        only (max-min fair rates are set per connected set of constraints), so a site of many
        separate configurations re-allocates one configuration per failure."""
        up = list(range(len(self.flows)))

        def root(i: int) -> int:
            while up[i] != i:
                up[i] = up[up[i]]
                i = up[i]
            return i

        first: dict[Any, int] = {}
        for i, fl in enumerate(self.flows):
            for key in (*fl, paths.info[i].ld):
                j = first.setdefault(key, i)
                a, b = root(i), root(j)
                if a != b:
                    up[max(a, b)] = min(a, b)
        members: dict[int, list[int]] = {}
        for i in range(len(self.flows)):
            members.setdefault(root(i), []).append(i)
        return list(members.values())


def resilience(
    topo: Topology,
    figures: str = "planning",
    direction: str = "read",
    source: str = "disk",
    kinds: Iterable[str] = (),
    progress: Callable[[float], None] | None = None,
) -> Resilience:
    """Fail each component of ``kinds`` (default :data:`FAIL_KINDS`) that carries a path, one at
    a time, and re-analyse. Raises AnalysisError for an unknown option (as :func:`analyze`).
    ``progress(fraction)`` is called every few dozen failures (it may raise to stop the run).
    Cost: one analysis and one path search, then one allocation per distinct set of lost paths."""
    base = analyze(topo, figures, direction, source, cross_check=False)
    paths = Paths(topo)
    alloc = _Allocator(paths, base)
    by_access = workloads_by_access(topo)
    demand = _Demand(topo, base, by_access)
    flows, moved0 = paths.serving(set())
    rates0 = alloc.rates(flows, remember=True)
    baseline = sum(rates0.values())
    notes = []
    if moved0:
        notes.append(
            f"{counted(len(moved0), 'logical drive')} have no path to their owning controller; RDAC carries them "
            f"through the other controller here (the analysis counts owner paths only: {base.aggregate:,.1f} MB/s)"
        )
    kinds = set(kinds or FAIL_KINDS)
    memo: dict[frozenset[int], tuple[float, list[str], dict[str, float]]] = {}
    failures: list[Failure] = []
    candidates = [c for k in FAIL_KINDS if k in kinds for c in topo.of_kind(k)]
    split = _Split(paths, alloc, rates0)
    for n, comp in enumerate(candidates):
        if progress is not None and n % 64 == 0:
            progress(n / len(candidates))
        crossing = paths.crossing.get(comp.id)
        if not crossing:
            continue
        key = frozenset(crossing)
        if key not in memo:
            aggregate, moved, per_ld = split.outcome(key)
            memo[key] = (aggregate, [m for m in moved if m not in moved0], per_ld)
        failures.append(_failure(comp, key, memo[key], baseline, paths, by_access, demand))
    failures.sort(key=_impact)
    unaffected = len(candidates) - len(failures)
    return Resilience(figures, direction, source, baseline, failures, unaffected, notes)


class _Split:
    """The outcome of removing some paths, re-allocating only the groups they belong to
    (:meth:`_Allocator.groups`); the other groups keep their rates of the design with nothing
    failed. One group (the paper's benchmark): the whole design, as before."""

    def __init__(self, paths: Paths, alloc: _Allocator, rates0: dict[int, float]) -> None:
        self.paths, self.alloc, self.rates0 = paths, alloc, rates0
        self.groups = alloc.groups(paths)
        self.group_of = {i: g for g, members in enumerate(self.groups) for i in members}
        self.sums = [sum(rates0[i] for i in members if i in rates0) for members in self.groups]
        self.per_ld0 = self._per_ld(rates0, {})
        self.fl0 = paths.serving(set())[0]
        self.of_ld: dict[str, list[int]] = {}
        for i, inf in enumerate(paths.info):
            self.of_ld.setdefault(inf.ld, []).append(i)

    def _serving(self, removed: frozenset[int]) -> tuple[list[int], list[str]]:
        """:meth:`Paths.serving` of every path, worked out again for the logical drives of the
        paths ``removed`` alone (RDAC decides per logical drive; the others serve as with
        nothing failed): a data centre's 1,536 paths walked for each of 3,400 failures took
        a tenth of its report)."""
        info, lds = self.paths.info, {self.paths.info[i].ld for i in removed}
        among = sorted(i for ld in lds for i in self.of_ld[ld])
        fl, moved = self.paths.serving(set(removed), among)
        fl.extend(i for i in self.fl0 if info[i].ld not in lds)
        fl.sort()
        return fl, moved

    def _per_ld(self, rates: dict[int, float], into: dict[str, float]) -> dict[str, float]:
        info = self.paths.info
        for i, r in rates.items():
            into[info[i].ld] = into.get(info[i].ld, 0.0) + r
        return into

    def outcome(self, removed: frozenset[int]) -> tuple[float, list[str], dict[str, float]]:
        """(aggregate, logical drives RDAC moved, rate per logical drive) with ``removed`` gone."""
        touched = sorted({self.group_of[i] for i in removed})
        if len(self.groups) == 1:
            fl, moved = self._serving(removed)
            rates = self.alloc.rates(fl)
            return sum(rates.values()), moved, self._per_ld(rates, {})
        among = sorted(i for g in touched for i in self.groups[g])
        fl, moved = self.paths.serving(set(removed), among)
        rates = self.alloc.rates(fl)
        per_ld = dict(self.per_ld0)
        for i in among:
            per_ld.pop(self.paths.info[i].ld, None)
        self._per_ld(rates, per_ld)
        skip = set(touched)
        kept = sum(s for g, s in enumerate(self.sums) if g not in skip)
        return kept + sum(rates.values()), moved, per_ld


def _failure(
    comp: Component,
    removed: frozenset[int],
    outcome: tuple[float, list[str], dict[str, float]],
    baseline: float,
    paths: Paths,
    by_access: dict[tuple[str, str], list[str]],
    demand: _Demand,
) -> Failure:
    aggregate, moved, per_ld = outcome
    lost = paths.lost_access(removed)
    lost_lds = sorted({ld for _, ld in lost})
    lost_wl: dict[str, None] = {}
    for pair in lost:
        for w in by_access.get(pair, ()):
            lost_wl[w] = None
    return Failure(
        comp.id,
        comp.kind,
        aggregate,
        max(baseline - aggregate, 0.0),
        len(removed),
        lost_lds,
        list(lost_wl),
        demand.unmet(per_ld, set(lost_wl)),
        moved,
    )


def _impact(f: Failure) -> tuple:
    """Worst first: more logical drives lost, then less bandwidth left, then by kind; ties stay
    in the design's order (the sort is stable: a data centre's hosts h001, h002, ... rather
    than in the order of their internal ids, h001, h010, h011, ..., h002)."""
    return (
        -len(f.lost_logical_drives),
        -len(f.lost_workloads),
        round(f.aggregate_mbps, 6),
        FAIL_KINDS.index(f.kind),
    )


def lost_access_by_component(
    topo: Topology, kinds: Iterable[str], paths: Iterable[Path] | None = None
) -> dict[str, list[tuple[str, str]]]:
    """Component id -> the (LPAR, logical drive) accesses its failure leaves with no path, for
    the components of ``kinds`` whose failure loses some (no bandwidth analysis: fast enough
    for a rule): a component an access loses is one that every path of the access crosses.
    ``paths``: every path, standby ones included (:func:`all_paths`, in any order; default:
    searched here). Used by the SINGLE_POINT_OF_FAILURE rule. Cost O(total path length)."""
    kinds = tuple(kinds)
    fails = Paths(topo, [], kinds)  # for its _failing walk
    comps = topo._components
    # what each hop's failure takes down, for the only hops where that is anything: those of the
    # kinds failed and those inside a switch (the 32x site: 16,000 of them worked out, where
    # its paths' 45,000 distinct hops walked each cost 3x as much)
    failing = {
        cid: ups for kind in {*kinds, *_IN_SWITCH} for cid in topo.ids_of_kind(kind) if (ups := fails._failing(cid))
    }
    failing_of = failing.get

    def crossing(hops: Iterable[str]) -> set[str]:
        out: set[str] = set()
        for hid in hops:
            if ups := failing_of(hid):
                out.update(ups)
        return out

    # the paths from one HBA port to one host port differ in their last two hops (the array and
    # the logical drive): what the rest crosses is worked out once (the 16x site: 3,584 paths,
    # 256 such routes)
    routes: dict[tuple[str, ...], set[str]] = {}
    common: dict[tuple[str, str], set[str]] = {}  # access -> the components all its paths cross
    lpar_of: dict[str, str] = {}  # HBA port -> its LPAR ("" none): looked up once a port
    for p in all_paths(topo) if paths is None else paths:
        route = tuple(p.hops[:-2])
        crossed = routes.get(route)
        if crossed is None:
            crossed = routes[route] = crossing(route)
        if tail := crossing(p.hops[-2:]):
            crossed = crossed | tail
        lpar = lpar_of.get(p.hba_port)
        if lpar is None:
            hba = comps.get(comps[p.hba_port].parent or "")
            lpar = lpar_of[p.hba_port] = (hba["lpar"] or "") if hba else ""
        key = (lpar, p.logical_drive)
        got = common.get(key)
        if got is None:
            common[key] = set(crossed)  # (a route's set is shared by its paths)
        else:
            got &= crossed
    lost: dict[str, list[tuple[str, str]]] = {}
    for key, crossed in common.items():
        for cid in crossed:
            lost.setdefault(cid, []).append(key)
    # in the order of ``kinds``, each in design order: the few components lost sorted, not every
    # component of those kinds walked (9.6 ms of the 32x site's 65)
    rank = {kind: n for n, kind in enumerate(kinds)}
    order = sorted((rank[comps[cid].kind], topo.seq_of(cid), cid) for cid in lost if comps[cid].kind in rank)
    return {cid: sorted(lost[cid]) for _, _, cid in order}


# -- output -------------------------------------------------------------------------------------


def _r(x: float) -> float:
    return round(float(x), 1)


def summary(res: Resilience) -> dict[str, Any]:
    """The summary: the baseline, the worst single failure and the components whose failure
    loses data access."""
    worst = res.worst
    return {
        "baseline_mbps": _r(res.baseline_mbps),
        "failures_analysed": len(res.failures),
        "components_carrying_no_path": res.unaffected,
        "worst": None
        if worst is None
        else {
            "component": worst.component,
            "kind": worst.kind,
            "aggregate_mbps": _r(worst.aggregate_mbps),
            "loss_mbps": _r(worst.loss_mbps),
            "lost_logical_drives": len(worst.lost_logical_drives),
        },
        "loses_data_access": [f.component for f in res.data_loss],
        "notes": res.notes,
    }


def to_dict(topo: Topology, res: Resilience) -> dict[str, Any]:
    """The documented JSON of ``sanplan resilience --json`` (docs/cli.md)."""
    return {
        "design": topo.meta.get("name", ""),
        "figures": res.figures,
        "direction": res.direction,
        "source": res.source,
        "baseline_mbps": _r(res.baseline_mbps),
        "failures": [
            {
                "component": f.component,
                "kind": f.kind,
                "aggregate_mbps": _r(f.aggregate_mbps),
                "loss_mbps": _r(f.loss_mbps),
                "paths_lost": f.paths_lost,
                "lost_logical_drives": f.lost_logical_drives,
                "lost_workloads": f.lost_workloads,
                "unmet_workloads": f.unmet_workloads,
                "failed_over": f.failed_over,
            }
            for f in res.failures
        ],
        "summary": summary(res),
    }


def impact_text(topo: Topology, f: Failure) -> str:
    """What a failure does, in a few words: 'loses 2 logical drives (...)', 'RDAC moves ...'."""
    parts = []
    if f.lost_logical_drives:
        parts.append(f"loses {naming.label_list(topo, f.lost_logical_drives, 3)}")
    if f.lost_workloads:
        parts.append(f"{counted(len(f.lost_workloads), 'workload')} lose access")
    if f.failed_over:
        parts.append(f"RDAC moves {counted(len(f.failed_over), 'logical drive')} to the other controller")
    if f.unmet_workloads:
        parts.append(f"{counted(len(f.unmet_workloads), 'workload')} become unmet")
    return "; ".join(parts) or "the remaining paths carry the load"


def format_text(topo: Topology, res: Resilience, max_rows: int | None = None) -> str:
    """The text report of ``sanplan resilience``: the summary, then the failures worst first."""
    out = [
        f"Design: {topo.meta.get('name', '')}",
        f"Figures: {res.figures}   direction: {res.direction}   data from: {res.source}",
        f"Aggregate with nothing failed: {res.baseline_mbps:,.1f} MB/s",
    ]
    worst = res.worst
    if worst is None:
        out.append("No component carries a path: nothing to fail.")
        return "\n".join(out)
    out.append(
        f"Worst single failure: {naming.label(topo, worst.component)} [{kind_name(worst.kind)}]: "
        f"{worst.aggregate_mbps:,.1f} MB/s left; {impact_text(topo, worst)}"
    )
    lose = res.data_loss
    out.append(
        f"{len(lose)} of {len(res.failures)} single failures lose data access"
        + (f": {naming.label_list(topo, [f.component for f in lose], 8)}" if lose else "")
    )
    out += [f"note: {n}" for n in res.notes]
    out.append("")
    shown = res.failures if max_rows is None else res.failures[:max_rows]
    rows = [
        (
            naming.label(topo, f.component),
            kind_name(f.kind),
            f"{f.aggregate_mbps:,.1f}",
            f"{f.loss_mbps:,.1f}",
            impact_text(topo, f),
        )
        for f in shown
    ]
    out.append(_table(rows, ("failed component", "kind", "MB/s left", "MB/s lost", "impact")))
    if len(shown) < len(res.failures):
        out.append(f"... the {len(shown)} worst of {len(res.failures)} failures")
    return "\n".join(out)


def _table(rows: list[tuple[str, ...]], header: tuple[str, ...]) -> str:
    cells = [header, *rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    right = (2, 3)
    lines = []
    for n, r in enumerate(cells):
        lines.append(
            "  ".join(r[i].rjust(widths[i]) if i in right else r[i].ljust(widths[i]) for i in range(len(r))).rstrip()
        )
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)
