"""The scaling curve: aggregate MB/s as a design's HBAs (or drawers) are added in placement order.

Like the P690 Redpaper's Figure 4 ('pSeries 690 RIO2 internal simplex bandwidth profile'): one
adapter, then a PHB's worth, a link's, a planar's, a drawer's, up to seven drawers. Point k is
the analysis of the design with only the first k HBAs (or the HBAs of the first k drawers)
running; a *knee* is a point where the slope of the curve changes, and it names the hop type
that binds the paths there.

Placement order is the order the HBAs were placed in the design (the order of its components:
the assistants and the bundled examples place them drawer by drawer, in the paper's slot order).

The paths, their capacities and their workload caps are found once, exactly as
:func:`planner.analysis.analyze` finds them; each point re-runs only the max-min fair sharing
(:func:`planner.analysis.max_min_fair`) over the paths of its HBAs. So the last point, with every
HBA, is the full analysis' aggregate exactly. Cost: O(N x L log L) for N points and L the total
path length (the 112-HBA benchmark: well under a second). No Qt.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from planner.analysis import (
    _Capacities,
    _check_options,
    _hop_table,
    _Mixed,
    find_paths,
    path_read_shares,
)
from planner.demand import demand_model
from planner.fairshare import Refilling, fill_together, independent_flows, series_merged
from planner.model import ModelError, Topology
from planner.schema import hop_kinds, kind_name

BY = ("hba", "drawer")
#: the server-side hop kinds, adapter first: a rise in the curve is a new one of these in use
_HOPS = hop_kinds()
SERVER_SIDE = tuple(reversed(_HOPS[_HOPS.index("drawer") : _HOPS.index("hba") + 1]))
#: two slopes differ (a knee) when they differ by more than this many MB/s per HBA and fraction
SLOPE_TOLERANCE_MBPS = 1.0
SLOPE_TOLERANCE = 0.02


class ScalingError(ModelError):
    """Bad input for the scaling curve (the message names the fix)."""


@dataclass
class ScalePoint:
    count: int  # HBAs (or drawers) running
    added: str  # the id of the HBA (drawer) this point adds
    hbas: int  # HBAs running
    mbps: float
    read_mbps: float
    write_mbps: float
    binding: dict[str, int] = field(default_factory=dict)  # hop kind -> paths it binds
    added_binding: dict[str, int] = field(default_factory=dict)  # the same for the added HBAs' paths
    new_kind: str = ""  # the widest server-side hop kind the added HBAs are the first to use

    @property
    def top(self) -> str:
        """The hop kind that binds the most paths ('' when none binds)."""
        return _top(self.binding)


def _top(binding: dict[str, int]) -> str:
    """The kind binding the most paths, ties to the one nearer the adapter ('' for none)."""
    if not binding:
        return ""
    order = {k: i for i, k in enumerate(hop_kinds())}
    return max(binding, key=lambda k: (binding[k], -order.get(k, 99)))


@dataclass
class Knee:
    count: int  # the point after which the slope changes
    mbps: float
    slope_before: float  # MB/s per HBA (drawer) up to the point
    slope_after: float  # from the point to the next
    kind: str  # the hop kind that binds the next HBA's (drawer's) paths: the cause of a fall
    new_kind: str = ""  # a rise: the hop kind the next HBA is the first to use (a new planar, drawer)

    @property
    def falls(self) -> bool:
        return self.slope_after < self.slope_before

    @property
    def text(self) -> str:
        binds = f"{kind_name(self.kind)} binds" if self.kind else "no path added"
        if not self.falls and self.new_kind:
            return f"a new {kind_name(self.new_kind)}; {binds}"
        return binds


@dataclass
class Scaling:
    by: str
    figures: str
    direction: str
    source: str
    points: list[ScalePoint]
    knees: list[Knee]

    @property
    def unit(self) -> str:
        return "HBA" if self.by == "hba" else "drawer"


def _order(topo: Topology, by: str) -> list[tuple[str, list[str]]]:
    """(HBA or drawer id, the HBAs it adds) in placement order."""
    hbas = topo.of_kind("hba")
    if by == "hba":
        return [(h.id, [h.id]) for h in hbas]
    groups: dict[str, list[str]] = {d.id: [] for d in topo.of_kind("drawer")}
    for h in hbas:
        d = topo.ancestor(h.id, "drawer")
        if d is not None:
            groups[d.id].append(h.id)
    return list(groups.items())


class _Problem:
    """The paths, their constraints, coefficients, caps and read shares, found once."""

    def __init__(self, topo: Topology, figures: str, direction: str, source: str) -> None:
        self.paths, _ = find_paths(topo)
        demand = demand_model(topo, self.paths, direction)
        self.caps_of_demand = demand.caps() if demand else None
        if direction == "mixed":
            self.shares = path_read_shares(topo, self.paths)
            mixed = _Mixed(
                topo, _Capacities(topo, figures, "read", source), _Capacities(topo, figures, "write", source)
            )
            self.flows, coefs = mixed.table(self.paths, self.shares)
            self.coefs: list[list[float]] | None = coefs
            self.caps, self.hop_ids = mixed.caps, mixed.hop_ids
        else:
            self.shares = [1.0 if direction == "read" else 0.0] * len(self.paths)
            _, self.flows, self.caps, self.hop_ids = _hop_table(
                topo, self.paths, _Capacities(topo, figures, direction, source)
            )
            self.coefs = None
        # (once: each point fills a subset of these flows, see _Group.refill)
        self.flows, self.coefs = series_merged(self.flows, self.caps, self.coefs)
        self.kind = {hid: topo[hid].kind for hid in self.hop_ids}
        self.hba_of = [topo[p.hba_port].parent for p in self.paths]
        self.server_hops = [[(h, topo[h].kind) for h in p.hops if topo[h].kind in SERVER_SIDE] for p in self.paths]
        self.seen: set[str] = set()  # server-side hops of the paths already running
        self.paths_of: dict[str, list[int]] = {}
        for i, h in enumerate(self.hba_of):
            self.paths_of.setdefault(h, []).append(i)
        self.groups = [_Group(self, fs) for fs in independent_flows(self.flows, len(self.caps))]
        self.group_of = [0] * len(self.paths)
        for g, group in enumerate(self.groups):
            for i in group.paths:
                self.group_of[i] = g

    def point(self, running: set[str], added: set[str]) -> ScalePoint:
        """The point with only the paths of the ``running`` HBAs, ``added`` the newest of them.

        Only the groups of paths that share a constraint with an added HBA's path are filled
        again (the fair shares of the other groups cannot change: :mod:`planner.fairshare`);
        their sums are kept per group, so a point costs the size of the groups it touches."""
        new = [i for h in added for i in self.paths_of.get(h, ())]
        for g in sorted({self.group_of[i] for i in new}):
            self.groups[g].refill(self, running)
        pt = ScalePoint(0, "", len(running), 0.0, 0.0, 0.0)
        pt.mbps = math.fsum(g.mbps for g in self.groups)
        pt.read_mbps = math.fsum(g.read_mbps for g in self.groups)
        pt.write_mbps = math.fsum(g.write_mbps for g in self.groups)
        for g in self.groups:
            for kind, n in g.binding.items():
                pt.binding[kind] = pt.binding.get(kind, 0) + n
        for i in sorted(new):
            b = self.groups[self.group_of[i]].bott.get(i)
            if b is not None:
                kind = self.kind[self.hop_ids[b]]
                pt.added_binding[kind] = pt.added_binding.get(kind, 0) + 1
        fresh = {k for i in new for h, k in self.server_hops[i] if h not in self.seen}
        pt.new_kind = next((k for k in reversed(SERVER_SIDE) if k in fresh), "")
        self.seen.update(h for i in new for h, _ in self.server_hops[i])
        return pt

    def exact_sums(self, pt: ScalePoint) -> None:
        """Sum ``pt``'s MB/s path by path in path order, as :func:`planner.analysis.analyze`
        does: with every HBA running the point is the analysis' aggregate to the last bit."""
        pt.mbps = pt.read_mbps = pt.write_mbps = 0.0
        for i in range(len(self.paths)):
            r = self.groups[self.group_of[i]].rate.get(i)
            if r is None:
                continue
            s = self.shares[i]
            pt.mbps += r
            pt.read_mbps += r * s
            pt.write_mbps += r - r * s


class _Group:
    """Paths that share constraints (directly or through each other) and nothing with any other
    path: their own constraint table, and the rates, bottlenecks and sums of the running ones."""

    def __init__(self, problem: _Problem, paths: list[int]) -> None:
        self.paths = paths
        self.hops = sorted({h for i in paths for h in problem.flows[i]})  # in the constraints' order
        local = {h: n for n, h in enumerate(self.hops)}
        self.flows = {i: [local[h] for h in problem.flows[i]] for i in paths}
        self.caps = [problem.caps[h] for h in self.hops]
        #: (single direction, no demands) the filling made at a point, and the points filled from
        #: it since (see refill)
        self._refilling: Refilling | None = None
        self._since = 0
        self._pos = {i: n for n, i in enumerate(paths)}
        self.rate: dict[int, float] = {}  # running path -> rate (paths with no capacity left out)
        self.bott: dict[int, int | None] = {}  # running path -> binding constraint (global index)
        self.mbps = self.read_mbps = self.write_mbps = 0.0
        self.binding: dict[str, int] = {}

    def refill(self, problem: _Problem, running: set[str]) -> None:
        sub = [i for i in self.paths if problem.hba_of[i] in running]
        if problem.coefs is None and problem.caps_of_demand is None:
            rates, bott = self._refilled(sub)
        else:
            coefs = [problem.coefs[i] for i in sub] if problem.coefs is not None else None
            demands = [problem.caps_of_demand[i] for i in sub] if problem.caps_of_demand is not None else None
            rates, bott = fill_together([self.flows[i] for i in sub], self.caps, coefs, demands)
        self.rate, self.bott, self.binding = {}, {}, {}
        self.mbps = self.read_mbps = self.write_mbps = 0.0
        for i, r, b in zip(sub, rates, bott):
            if b is None and math.isinf(r):
                continue  # a path with no known capacity: the analysis leaves it out too
            s = problem.shares[i]
            self.rate[i] = r
            self.mbps += r
            self.read_mbps += r * s
            self.write_mbps += r - r * s
            if b is not None:
                self.bott[i] = self.hops[b]
                kind = problem.kind[problem.hop_ids[self.hops[b]]]
                self.binding[kind] = self.binding.get(kind, 0) + 1

    def _refilled(self, sub: list[int]) -> tuple[list[float], list[int | None]]:
        """The fill of ``sub`` (every coefficient 1, no demand) from the filling made a few points
        before, with the paths added since put in (:class:`planner.fairshare.Refilling`: the same
        rates bit for bit; a data centre's 1,536 points each counted its running paths'
        constraints again, 45 % of its curve)."""
        chosen = [self._pos[i] for i in sub]
        if self._refilling is None or self._since >= REBASE_EVERY:
            self._refilling = Refilling([self.flows[i] for i in self.paths], self.caps, chosen)
            self._since = 0
        self._since += 1
        rate, bott = self._refilling.fill(chosen)
        return [rate[n] for n in chosen], [bott[n] for n in chosen]


#: a group's filling is made again from the running paths every this many points (each point
#: fills from it, the paths added since put in: see _Group._refilled)
REBASE_EVERY = 16


def scaling(
    topo: Topology,
    figures: str = "planning",
    direction: str = "read",
    source: str = "disk",
    by: str = "hba",
    progress: Callable[[float], None] | None = None,
) -> Scaling:
    """The scaling curve of ``topo``: one point per HBA (``by`` 'hba') or per drawer ('drawer')
    added in placement order, and the knees where the slope changes.
    Raises ScalingError for a bad ``by`` (AnalysisError for a bad figure set or direction)."""
    if by not in BY:
        raise ScalingError(f"scale by one of {', '.join(BY)}, not {by!r}")
    _check_options(figures, direction, source, None)
    problem = _Problem(topo, figures, direction, source)
    running: set[str] = set()
    points: list[ScalePoint] = []
    order = _order(topo, by)
    for n, (cid, hbas) in enumerate(order, start=1):
        running.update(hbas)
        pt = problem.point(running, set(hbas))
        if n == len(order):
            problem.exact_sums(pt)
        pt.count, pt.added = n, cid
        points.append(pt)
        if progress is not None:
            progress(n / len(order))
    return Scaling(by, figures, direction, source, points, knees(points))


def _differ(a: float, b: float) -> bool:
    return abs(a - b) > max(SLOPE_TOLERANCE_MBPS, SLOPE_TOLERANCE * max(abs(a), abs(b)))


def knees(points: list[ScalePoint]) -> list[Knee]:
    """The points after which the slope changes, each with the hop kind that binds the paths the
    next point adds (and, where the slope rises, the hop kind the next point is the first to use)."""
    prev = [0.0] + [p.mbps for p in points]
    slopes = [prev[i + 1] - prev[i] for i in range(len(points))]
    out = []
    for i in range(len(points) - 1):
        if _differ(slopes[i], slopes[i + 1]):
            p, nxt = points[i], points[i + 1]
            kind = _top(nxt.added_binding) or nxt.top
            out.append(Knee(p.count, p.mbps, slopes[i], slopes[i + 1], kind, nxt.new_kind))
    return out


def first_knee_after(result: Scaling, count: int = 0) -> Knee | None:
    """The first knee at or after point ``count`` where the slope falls (a hop saturates)."""
    return next((k for k in result.knees if k.count >= count and k.slope_after < k.slope_before), None)


# -- output --------------------------------------------------------------------------------------


def scaling_to_dict(result: Scaling) -> dict[str, Any]:
    """The documented JSON of ``sanplan scaling --json`` (docs/cli.md)."""
    return {
        "by": result.by,
        "figures": result.figures,
        "direction": result.direction,
        "source": result.source,
        "points": [
            {
                "count": p.count,
                "added": p.added,
                "hbas": p.hbas,
                "mbps": round(p.mbps, 1),
                "read_mbps": round(p.read_mbps, 1),
                "write_mbps": round(p.write_mbps, 1),
                "binding": p.top,
                "binding_paths": dict(p.binding),
            }
            for p in result.points
        ],
        "knees": [
            {
                "count": k.count,
                "mbps": round(k.mbps, 1),
                "slope_before": round(k.slope_before, 1),
                "slope_after": round(k.slope_after, 1),
                "binding": k.kind,
                "new": k.new_kind if not k.falls else "",
                "text": k.text,
            }
            for k in result.knees
        ],
    }


def format_scaling(result: Scaling) -> str:
    """The table: count, MB/s, binding hop, and a mark at each knee."""
    at = {k.count: k for k in result.knees}
    unit = result.unit
    head = f"{unit + 's':>8}  {'MB/s':>9}  binding hop"
    lines = [
        f"Scaling by {unit} in placement order ({result.figures} figures, {result.direction}, from {result.source})",
        head,
    ]
    for p in result.points:
        mark = ""
        if p.count in at:
            k = at[p.count]
            mark = f"   <- knee: {k.slope_before:,.0f} -> {k.slope_after:,.0f} MB/s per {unit}, then {k.text}"
        top = kind_name(p.top) if p.top else ("at demand" if p.hbas else "-")
        lines.append(f"{p.count:>8}  {p.mbps:>9,.0f}  {top}{mark}")
    if not result.points:
        lines.append(f"(no {unit} in this design)")
    return "\n".join(lines)
