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
- Headroom: for a met workload, how much more it could take with its own target lifted and
  the others kept, still spread evenly (its weakest path relative to its share decides); for
  an unmet workload, minus the shortfall.

No Qt. Cost: O(total path length) to map, plus one extra fair-share run per met workload.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

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

    def caps(self, lifted: str | None = None) -> list[float]:
        """Per path the sum of its workloads' demands (inf where one has none, or ``lifted``)."""
        out = []
        for users in self.on_path:
            total = 0.0 if users else math.inf
            for wl, w in users.items():
                total += math.inf if wl == lifted else self.demand[wl] * w
            out.append(total)
        return out

    def parts(self, rates: Sequence[float], lifted: str | None = None) -> list[dict[str, float]]:
        """Per path: workload id -> the MB/s it gets of the path's rate (:func:`split`)."""
        out = []
        for users, rate in zip(self.on_path, rates):
            ids = list(users)
            wants = [math.inf if wl == lifted else self.demand[wl] * users[wl] for wl in ids]
            out.append(dict(zip(ids, split(rate, wants))))
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
    model: DemandModel,
    rates: Sequence[float],
    bottlenecks: Sequence[str | None],
    rerun: Callable[[list[float]], Sequence[float]],
) -> list[WorkloadResult]:
    """One result per targeted workload, given the capped allocation (``rates`` and the binding
    hop of each path). ``rerun(caps)`` returns the path rates under other caps (for headroom)."""
    parts = model.parts(rates)
    out = []
    for wl, target in model.target.items():
        weights = model.weights[wl]
        achieved = sum(parts[i].get(wl, 0.0) for i in weights)
        binding: dict[str, float] = {}
        for i, w in weights.items():
            short = target * w - parts[i].get(wl, 0.0)
            if short > TOLERANCE:
                hop = bottlenecks[i] or ""
                binding[hop] = binding.get(hop, 0.0) + short
        missing = model.unreached[wl]
        met = achieved >= target - TOLERANCE * max(1.0, target)
        res = WorkloadResult(wl, target, achieved, met, achieved - target, None, {}, len(weights), missing)
        res.binding = {h: v for h, v in binding.items() if h}
        if res.binding:
            res.bottleneck = max(res.binding, key=lambda h: res.binding[h])
        if met and target > 0:
            res.headroom_mbps = _headroom(model, wl, target, rerun)
        out.append(res)
    return out


def _headroom(model: DemandModel, wl: str, target: float, rerun: Callable[[list[float]], Sequence[float]]) -> float:
    """How much more a met workload could take, spread evenly, with its own target lifted."""
    parts = model.parts(rerun(model.caps(lifted=wl)), lifted=wl)
    weights = model.weights[wl]
    if not weights:
        return 0.0
    most = min(parts[i][wl] / w for i, w in weights.items())
    return max(0.0, most - target) if math.isfinite(most) else math.inf
