"""Workload demand: which paths carry a workload, what it asks of each and what it gets.

The model (a sizing model, stated so its numbers can be checked by hand):

- A workload sits on a logical volume (LV) of a volume group (VG) on an LPAR. The LV spreads its
  I/O evenly over its physical volumes: the first ``width`` PVs of the VG when the LV has a
  stripe width, else all of the VG's PVs (AIX stripes round robin, so each PV gets the same
  share; an unstriped LV is assumed spread the same way, as with ``mklv -e x``).
- A PV is an hdisk naming a logical drive. Its I/O goes evenly over the paths to that logical
  drive from the HBA ports of the hdisk's LPAR (under RDAC the owner's paths only, as
  :func:`planner.analysis.find_paths` finds them; under SDD/MPIO all of them).
- So a workload with demand T over N PVs, PV i having k_i paths, asks T / (N * k_i) of each of
  PV i's paths. A PV with no path loses its share: the workload cannot be met.
- The demand in one analysis is the target times the workload's share of that direction:
  ``read_pct`` for reads, the rest for writes, all of it for any other direction.
- A path's cap is the sum of its workloads' demands on it. A path that also carries a workload
  without a target, or no workload at all, has no cap: an unplanned load competes with the
  planned ones. On a path shared by several workloads, the path's rate is split max-min fairly
  among them, each up to its demand (:func:`split`).
- Headroom: for a met workload, how much more it could take, spread as now, before a hop on
  its paths is full (spare capacity / the workload's share through the hop, least over its
  hops); for an unmet workload, minus the shortfall.

No Qt. Cost: O(total path length) per workload.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from planner import naming
from planner.model import Topology

#: met when the achieved rate is within this of the target (MB/s): rounding, not a margin
TOLERANCE = 1e-6


@dataclass
class WorkloadResult:
    """What one workload with a target gets in one analysis (rates in MB/s)."""

    id: str
    target_mbps: float
    achieved_mbps: float
    met: bool
    headroom_mbps: float
    bottleneck: str | None = None  # the hop that binds most of the shortfall
    binding: dict[str, float] = field(default_factory=dict)  # hop id -> MB/s of shortfall it causes
    paths: int = 0
    unreached_pvs: list[str] = field(default_factory=list)  # hdisks with no path from the LPAR


@dataclass
class DemandModel:
    """The workloads' spread over the paths of one analysis."""

    weights: dict[str, dict[int, float]]  # workload id -> path index -> share of its I/O
    demand: dict[str, float]  # workload id -> demand in this direction (inf: no target)
    target: dict[str, float]  # targeted workload id -> its target in this direction
    unreached: dict[str, list[str]]  # workload id -> its PVs with no path
    on_path: list[dict[str, float]]  # per path: workload id -> its share of that workload

    def caps(self) -> list[float]:
        """Per path the sum of its workloads' demands (inf where one of them has no target, or
        where no workload uses the path)."""
        return [sum(self.demand[wl] * w for wl, w in users.items()) if users else math.inf for users in self.on_path]

    def parts(self, rates: Sequence[float]) -> list[dict[str, float]]:
        """Per path: workload id -> the MB/s it gets of the path's rate (:func:`split`)."""
        out = []
        for users, rate in zip(self.on_path, rates):
            ids = list(users)
            out.append(dict(zip(ids, split(rate, [self.demand[wl] * users[wl] for wl in ids]))))
        return out


def direction_share(read_pct: float, direction: str) -> float:
    """The fraction of a workload's I/O in ``direction`` (read, write, or both for any other)."""
    if direction == "read":
        return read_pct / 100.0
    if direction == "write":
        return 1.0 - read_pct / 100.0
    return 1.0


def split(rate: float, wants: Sequence[float]) -> list[float]:
    """Share ``rate`` max-min fairly among consumers each wanting at most ``wants[i]``.

    >>> split(150.0, [125.0, 40.0])
    [110.0, 40.0]
    """
    if not math.isfinite(rate):
        return list(wants)
    got = [0.0] * len(wants)
    left = rate
    order = sorted(range(len(wants)), key=lambda i: wants[i])
    for n, i in enumerate(order):
        got[i] = min(wants[i], left / (len(order) - n))
        left -= got[i]
    return got


def _pv_paths(topo: Topology, paths: Sequence[Any]) -> dict[tuple[str, str], list[int]]:
    """(LPAR id, logical drive id) -> indexes of the paths from that LPAR's HBA ports to it."""
    out: dict[tuple[str, str], list[int]] = {}
    for i, p in enumerate(paths):
        port = topo.get(p.hba_port)
        hba = topo.get(port.parent) if port is not None else None
        if hba is not None and hba.get("lpar"):
            out.setdefault((hba["lpar"], p.logical_drive), []).append(i)
    return out


def _lv_pvs(topo: Topology, lv_id: str) -> tuple[str, list[str]]:
    """(LPAR id, the hdisks an LV spreads over) per the model above."""
    lv = topo.get(lv_id)
    vg = topo.get(lv.parent) if lv is not None else None
    if vg is None:
        return "", []
    pvs = [pv for pv in vg["pvs"] if pv in topo]
    if lv["width"]:
        pvs = pvs[: lv["width"]]
    return vg.parent or "", pvs


def demand_model(topo: Topology, paths: Sequence[Any], direction: str) -> DemandModel | None:
    """Map every workload onto the paths; None when no workload has a target (no caps at all)."""
    workloads = topo.of_kind("workload")
    if not any(wl["target_mbps"] > 0 for wl in workloads):
        return None
    by_pv = _pv_paths(topo, paths)
    model = DemandModel({}, {}, {}, {}, [{} for _ in paths])
    for wl in workloads:
        lpar, pvs = _lv_pvs(topo, wl.parent or "")
        weights: dict[int, float] = {}
        missing = []
        for pv in pvs:
            idx = by_pv.get((lpar, topo[pv]["logical_drive"]), [])
            if not idx:
                missing.append(pv)
            for i in idx:
                weights[i] = weights.get(i, 0.0) + 1.0 / (len(pvs) * len(idx))
        if wl["target_mbps"] > 0:
            model.target[wl.id] = wl["target_mbps"] * direction_share(wl["read_pct"], direction)
        model.demand[wl.id] = model.target.get(wl.id, math.inf)
        model.weights[wl.id] = weights
        model.unreached[wl.id] = missing
        for i, w in weights.items():
            model.on_path[i][wl.id] = w
    return model


def workload_results(
    model: DemandModel, paths: Sequence[Any], rates: Sequence[float], loads: dict[str, Any]
) -> list[WorkloadResult]:
    """One result per targeted workload, given the capped allocation: ``paths`` (with their
    ``hops`` and binding ``bottleneck``), the rate of each and the hop ``loads`` (``capacity``
    and ``load`` by hop id, as :class:`planner.analysis.Load`)."""
    parts = model.parts(rates)
    out = []
    for wl, target in model.target.items():
        weights = model.weights[wl]
        achieved = sum(parts[i].get(wl, 0.0) for i in weights)
        binding: dict[str, float] = {}
        for i, w in weights.items():
            short = target * w - parts[i].get(wl, 0.0)
            if short > TOLERANCE and paths[i].bottleneck:
                binding[paths[i].bottleneck] = binding.get(paths[i].bottleneck, 0.0) + short
        met = achieved >= target - TOLERANCE * max(1.0, target)
        res = WorkloadResult(wl, target, achieved, met, achieved - target, None, binding, len(weights))
        res.unreached_pvs = model.unreached[wl]
        if binding:
            res.bottleneck = max(binding, key=lambda h: binding[h])
        if met:
            res.headroom_mbps = _headroom(weights, paths, loads)
        out.append(res)
    return out


def _headroom(weights: dict[int, float], paths: Sequence[Any], loads: dict[str, Any]) -> float:
    """How much more a workload could take, spread as now, before a hop on its paths is full:
    the least over those hops of spare capacity / the workload's share through the hop
    (math.inf when no hop on its paths has a capacity)."""
    through: dict[str, float] = {}
    for i, w in weights.items():
        for hid in set(paths[i].hops):
            if loads[hid].capacity:
                through[hid] = through.get(hid, 0.0) + w
    spare = (max(0.0, loads[h].capacity - loads[h].load) / f for h, f in through.items() if f > 0)
    return min(spare, default=math.inf)


def workloads_to_dict(topo: Topology, results: Sequence[WorkloadResult]) -> list[dict[str, Any]]:
    """The ``workloads`` of ``sanplan analyze --json`` (docs/cli.md), rates to 0.1 MB/s."""
    out = []
    for r in results:
        hop = topo.get(r.bottleneck) if r.bottleneck else None
        out.append(
            {
                "id": r.id,
                "target_mbps": round(r.target_mbps, 1),
                "achieved_mbps": round(r.achieved_mbps, 1),
                "met": r.met,
                "headroom_mbps": round(r.headroom_mbps, 1) if math.isfinite(r.headroom_mbps) else None,
                "bottleneck": r.bottleneck,
                "bottleneck_kind": hop.kind if hop is not None else None,
                "paths": r.paths,
                "unreached_pvs": list(r.unreached_pvs),
            }
        )
    return out


WORKLOAD_COLUMNS = ("workload", "target MB/s", "gets MB/s", "met", "headroom MB/s", "binding hop")


def workload_rows(topo: Topology, results: Sequence[WorkloadResult]) -> list[tuple[str, ...]]:
    """One row of text per workload (:data:`WORKLOAD_COLUMNS`): the CLI, the build sheet and the
    editor's table show the same words."""
    rows = []
    for r in results:
        if r.bottleneck:
            hop = naming.label(topo, r.bottleneck)
        elif r.unreached_pvs:
            hop = f"no path to {len(r.unreached_pvs)} PV(s)"
        else:
            hop = "-" if r.met else "no path"
        head = f"{r.headroom_mbps:+,.0f}" if math.isfinite(r.headroom_mbps) else "unlimited"
        met = "met" if r.met else "UNMET"
        rows.append((naming.label(topo, r.id), f"{r.target_mbps:,.0f}", f"{r.achieved_mbps:,.0f}", met, head, hop))
    return rows
