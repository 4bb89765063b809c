"""Max-min fair sharing by progressive filling (:func:`max_min_fair`), the allocation at the
heart of :func:`planner.analysis.analyze`, :mod:`planner.resilience` and
:mod:`planner.incremental`.

The allocation decomposes over the connected components of the flow/constraint sharing graph:
flows that share no constraint (directly or through other flows) get exactly the same rates,
bit for bit, whether they are filled together or apart, as long as the constraints keep their
relative order (ties between constraints at the same level go to the smaller capacity, then
the lower index). :mod:`planner.incremental` relies on this.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterable

#: how many steps of a filling (a constraint saturated, a flow held at its demand) between two
#: calls of its ``pause`` point
PAUSE_EVERY = 16


def max_min_fair(
    flows: list[list[int]],
    capacity: list[float],
    coef: list[list[float]] | None = None,
    demands: list[float] | None = None,
    pause: Callable[[], None] | None = None,
) -> tuple[list[float], list[int | None]]:
    """Max-min fair rates by progressive filling, each flow up to its demand.

    Parameters: ``flows`` lists, per flow, the indexes of the capacity constraints it crosses
    (a hop, or one direction of a duplex hop); ``capacity`` gives each constraint's capacity
    (> 0); ``coef`` (optional, parallel to ``flows``) how much of a constraint one unit of the
    flow's rate uses (> 0; default 1: a mixed path uses its read share of a read capacity);
    ``demands`` (optional) each flow's upper bound (math.inf: none): a flow stops rising at its
    demand and leaves the rest to the others. ``pause`` (optional) is called every
    :data:`PAUSE_EVERY` steps and between groups: a background caller's point to give way (it
    may wait, or raise to abandon the filling).
    Returns (rate per flow, binding constraint index per flow, or None for a flow held at its
    demand or with no constraint: rate inf when it has neither). Complexity O(L log l + F log f)
    for L = total path length, F flows, and l, f those of the largest group of flows that share
    constraints: each group is filled on its own, with its own heap of constraint saturation
    levels (the same rates, see the module's docstring; a site of many servers is many small
    heaps that stay in the CPU's caches).
    """
    flows, coef = series_merged(flows, capacity, coef)
    groups = _independent(flows, len(capacity))
    if len(groups) <= 1:
        return _fill(flows, capacity, coef, demands, pause)
    rate: list[float] = [math.inf] * len(flows)
    bott: list[int | None] = [None] * len(flows)
    for fs in groups:
        if pause is not None:
            pause()
        hs = sorted({h for f in fs for h in flows[f]})  # the group's constraints, in their order
        local = {h: i for i, h in enumerate(hs)}
        r, b = _fill(
            [[local[h] for h in flows[f]] for f in fs],
            [capacity[h] for h in hs],
            [coef[f] for f in fs] if coef is not None else None,
            [demands[f] for f in fs] if demands is not None else None,
            pause,
        )
        for f, rf, bf in zip(fs, r, b):
            rate[f] = rf
            bott[f] = None if bf is None else hs[bf]
    return rate, bott


def series_merged(
    flows: list[list[int]], capacity: list[float], coef: list[list[float]] | None = None
) -> tuple[list[list[int]], list[list[float]] | None]:
    """``flows`` (and ``coef``) without the constraints that can never bind: of the constraints
    crossed by exactly the same flows, with the same coefficients, the one with the least
    capacity (then the lowest index) always saturates first and freezes them all (the same
    loads on each, a level in proportion to the capacity), so the others are dropped; the
    rates and binding constraints of these flows, and of any subset of them, are the same bit
    for bit (a path's HBA, its port, its cable and the switch port it is plugged into are
    crossed by the same flows: a data centre's 1,536 paths, 27,312 hops to fill, merged to
    16,672, filled in half the time; the merge costs a fifth of a fill). The flows come back
    as given when nothing merges."""
    nh = len(capacity)
    users: list[list[int]] = [[] for _ in range(nh)]
    for f, fl in enumerate(flows):
        for h in fl:
            users[h].append(f)
    weights: list[list[float]] = [[] for _ in range(nh)] if coef is not None else []
    if coef is not None:
        for fl, cs in zip(flows, coef):
            for h, c in zip(fl, cs):
                weights[h].append(c)
    best: dict[tuple, int] = {}
    used = 0
    for h in range(nh):
        if not users[h]:
            continue
        used += 1
        key = (tuple(users[h]), tuple(weights[h])) if coef is not None else tuple(users[h])
        b = best.setdefault(key, h)
        if capacity[h] < capacity[b]:  # (h after b: the lower index wins a tie)
            best[key] = h
    if len(best) == used:
        return flows, coef
    keep = [False] * nh
    for h in best.values():
        keep[h] = True
    if coef is None:
        return [[h for h in fl if keep[h]] for fl in flows], None
    merged = [[(h, c) for h, c in zip(fl, cs) if keep[h]] for fl, cs in zip(flows, coef)]
    return [[h for h, _ in m] for m in merged], [[c for _, c in m] for m in merged]


def fill_together(
    flows: list[list[int]],
    capacity: list[float],
    coef: list[list[float]] | None = None,
    demands: list[float] | None = None,
) -> tuple[list[float], list[int | None]]:
    """:func:`max_min_fair` with no pause, every flow in one filling and no merge: the same
    rates bit for bit (see the module docstring), without the search for independent groups or
    the merge of constraints in series (:func:`series_merged`), for a caller that merged its
    flows once and fills many subsets of them (the resilience report fills a data centre's
    shared set of 1,536 flows again for each of its thousands of failures, the scaling curve
    once per HBA added; the search was a third of each fill)."""
    return _fill(flows, capacity, coef, demands)


def _independent(flows: list[list[int]], nh: int) -> list[list[int]]:
    """The flows in groups that share no constraint with each other (union-find; each group in
    flow order, the groups by their first flow)."""
    parent = list(range(len(flows)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    first = [-1] * nh  # constraint -> the first flow that crosses it
    for f, hops in enumerate(flows):
        for h in hops:
            o = first[h]
            if o < 0:
                first[h] = f
            else:
                a, b = find(o), find(f)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    groups: dict[int, list[int]] = {}
    for f in range(len(flows)):
        groups.setdefault(find(f), []).append(f)
    return list(groups.values())


def _fill(
    flows: list[list[int]],
    capacity: list[float],
    coef: list[list[float]] | None,
    demands: list[float] | None,
    pause: Callable[[], None] | None = None,
) -> tuple[list[float], list[int | None]]:
    """Progressive filling of one set of flows (see :func:`max_min_fair`)."""
    fill = _Filling(flows, capacity, coef)
    capped = sorted(((d, f) for f, d in enumerate(demands or ()) if d < math.inf), reverse=True)  # pop: lowest
    return _run(fill, capped, pause)


def _run(
    fill: _Filling, capped: list[tuple[float, int]], pause: Callable[[], None] | None = None
) -> tuple[list[float], list[int | None]]:
    heap = fill.heap
    steps = 0
    while heap or capped:
        steps += 1
        if pause is not None and steps % PAUSE_EVERY == 0:
            pause()
        while heap and (heap[0][3] != fill.version[heap[0][2]] or fill.active[heap[0][2]] == 0):
            heapq.heappop(heap)
        if capped and (not heap or round(capped[-1][0], 6) <= heap[0][0]):
            d, f = capped.pop()
            fill.freeze((f,), max(d, 0.0), None)
            continue
        if not heap:
            break
        _, _, h, _, level = heapq.heappop(heap)
        fill.freeze(fill.users[h], level, h)
    return fill.rate, fill.bott


class _Filling:
    """The state of a progressive filling: per constraint its rising flows, their weight and the
    load of the frozen ones; a heap of the levels at which constraints saturate."""

    def __init__(self, flows: list[list[int]], capacity: list[float], coef: list[list[float]] | None) -> None:
        nh = len(capacity)
        self.flows, self.capacity, self.coef = flows, capacity, coef
        self.users: list[list[int]] = [[] for _ in range(nh)]
        self.active = [0] * nh
        self.weight = [0.0] * nh  # sum of the coefficients of the flows still rising
        for f, hops in enumerate(flows):
            cs = coef[f] if coef is not None else None
            for i, h in enumerate(hops):
                self.users[h].append(f)
                self.active[h] += 1
                self.weight[h] += cs[i] if cs is not None else 1.0
        self.frozen_load = [0.0] * nh
        self.version = [0] * nh
        self.rate: list[float] = [math.inf] * len(flows)
        self.bott: list[int | None] = [None] * len(flows)
        self.done = [False] * len(flows)
        self.heap = [
            (round(capacity[h] / self.weight[h], 6), capacity[h], h, 0, capacity[h] / self.weight[h])
            for h in range(nh)
            if self.active[h]
        ]
        heapq.heapify(self.heap)

    def freeze(self, fs: Iterable[int], level: float, hop: int | None) -> None:
        """Fix flows ``fs`` at ``level`` (bound by ``hop``, None: by their demand)."""
        done, rate, bott, flows, coef = self.done, self.rate, self.bott, self.flows, self.coef
        active, weight, frozen = self.active, self.weight, self.frozen_load
        touched: set[int] = set()
        for f in fs:
            if done[f]:
                continue
            done[f] = True
            rate[f] = level
            bott[f] = hop
            if coef is None:  # every coefficient 1: the same sums as below, fewer steps (the
                for g in flows[f]:  # weight is the count of rising flows: not kept apart)
                    active[g] -= 1
                    frozen[g] += level
                touched.update(flows[f])
                continue
            for g, c in zip(flows[f], coef[f]):
                active[g] -= 1
                weight[g] -= c
                frozen[g] += c * level
                touched.add(g)
        capacity, version, heap = self.capacity, self.version, self.heap
        if coef is None:
            weight = active  # (an exact float of the count: the same quotient)
        for g in touched:
            version[g] += 1
            if active[g]:
                lv = max((capacity[g] - frozen[g]) / max(weight[g], 1e-12), level)
                heapq.heappush(heap, (round(lv, 6), capacity[g], g, version[g], lv))


class Refilling:
    """Fill many variants of one set of flows, each the flows ``base`` less a few and plus a
    few others of ``flows`` (a failure's paths gone, its standby paths taken up), from the state
    of ``base`` made once: the same rates and binding constraints, bit for bit, as
    :func:`fill_together` of the variant's flows (every coefficient 1, no demand), without
    counting every flow's constraints again (a data centre's resilience report filled its 1,536
    flows some 3,400 times; a third of each fill was that count and the first heap)."""

    def __init__(self, flows: list[list[int]], capacity: list[float], base: list[int]) -> None:
        nh = len(capacity)
        self.flows, self.capacity, self.base = flows, capacity, set(base)
        self.users: list[list[int]] = [[] for _ in range(nh)]
        self.active = [0] * nh
        for f in base:
            for h in flows[f]:
                self.users[h].append(f)
                self.active[h] += 1
        self.done = [True] * len(flows)
        for f in base:
            self.done[f] = False
        self.heap = [
            (round(capacity[h] / a, 6), capacity[h], h, 0, capacity[h] / a) for h, a in enumerate(self.active) if a
        ]
        heapq.heapify(self.heap)

    def fill(self, chosen: list[int]) -> tuple[list[float], list[int | None]]:
        """(rate per flow of ``flows``, binding constraint or None) with the flows ``chosen``
        filled; the others' rates are inf and their constraints None."""
        flows, capacity, base = self.flows, self.capacity, self.base
        mine = set(chosen)
        gone = [f for f in base if f not in mine]
        added = [f for f in chosen if f not in base]
        fill = _Filling.__new__(_Filling)
        fill.flows, fill.capacity, fill.coef = flows, capacity, None
        active, done, users = list(self.active), list(self.done), self.users
        changed: set[int] = set()
        for f in gone:
            done[f] = True
            for h in flows[f]:
                active[h] -= 1
            changed.update(flows[f])
        if added:
            more: dict[int, list[int]] = {}
            for f in added:
                done[f] = False
                for h in flows[f]:
                    active[h] += 1
                    more.setdefault(h, []).append(f)
            users = list(users)
            for h, fs in more.items():
                users[h] = users[h] + fs  # (the base's lists are not changed)
            changed.update(more)
        fill.users, fill.active, fill.done = users, active, done
        fill.weight = []  # (every coefficient 1: the count of rising flows is the weight, see freeze)
        fill.frozen_load = [0.0] * len(capacity)
        fill.version = [0] * len(capacity)
        fill.rate, fill.bott = [math.inf] * len(flows), [None] * len(flows)
        heap = fill.heap = list(self.heap)
        for h in changed:  # (their first entries stale)
            fill.version[h] = 1
            if active[h]:
                heapq.heappush(heap, (round(capacity[h] / active[h], 6), capacity[h], h, 1, capacity[h] / active[h]))
        return _run(fill, [])


def independent_flows(flows: list[list[int]], nh: int) -> list[list[int]]:
    """The flows (constraint indexes below ``nh``) in groups that share no constraint with each
    other, each group in flow order: the fair shares of one group never depend on another's."""
    return _independent(flows, nh)
