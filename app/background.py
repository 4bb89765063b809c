"""The editor's background analysis: two worker threads, each with its own replica of the design
(:class:`planner.incremental.Replica`) kept in step by the small deltas the GUI thread builds.

- The *analysis lane* applies each edit's :class:`~planner.incremental.Delta` to its replica and
  re-analyses only the parts of the design the edit can affect
  (:class:`~planner.incremental.IncrementalAnalysis`, read and write, and mixed when chosen).
  It sends the result at once (``analysed``: a bundle whose ``checked`` is False), so the canvas
  is recoloured before the rules have run.
- The *check lane* follows with the rules (``checked``: the same revision with its findings) and,
  once the design has been quiet for :data:`IDLE_S`, the max-flow cross-check of the current
  analysis (``crossChecked``). An edit supersedes both: the lane catches up with every delta
  queued and checks only the newest revision; results of older revisions are dropped by the
  document (:meth:`app.document.Document.is_current`).

The GUI thread never copies the whole design per edit: only when the replicas are reset (a file
opened, a scenario switched), and then once (``reset``: one snapshot both lanes copy in their own
thread). The lanes never touch the live design: a job carries ``origin`` (the live
:class:`Topology`) only to hand it back on the result.
"""

from __future__ import annotations

import math
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from PySide6.QtCore import QObject, Signal

from planner.analysis import Analysis, gc_paused
from planner.incremental import Delta, IncrementalAnalysis, Replica
from planner.layout import alias_changes, layout
from planner.model import Topology
from planner.rules import check
from widgets.canvas.figures import canvas_figures

IDLE_S = 1.0  # quiet time before the cross-check runs
#: the rules wait until the analyses have been quiet this long (at most SETTLE_MAX_S), so a
#: quick series of edits recolours the canvas without the rules competing for the interpreter
SETTLE_S, SETTLE_MAX_S = 0.15, 1.0
#: how soon a thread waiting for the interpreter gets it (Python's default is 5 ms): the GUI
#: thread's slots and paint calls then wait at most this long for a worker
SWITCH_INTERVAL_S = 0.001


@dataclass
class CrossCheck:
    """The max-flow cross-check of one analysed revision: ``agrees`` when the analysis carries no
    more than the network can (aggregate <= max flow, up to rounding)."""

    revision: int
    figures: str
    direction: str
    aggregate: float
    max_flow: float
    min_cut: list[str]
    origin: Any = None

    @property
    def agrees(self) -> bool:
        return math.isinf(self.max_flow) or self.aggregate <= self.max_flow * (1 + 1e-6) + 1e-6


class _Lane:
    """One daemon thread working through a queue; ``work(items)`` gets everything queued so far;
    ``idle()`` runs after ``idle_s`` of quiet when ``want_idle`` is set."""

    def __init__(
        self, name: str, work: Callable[[list], None], idle: Callable[[], None] | None = None, settle_s: float = 0.0
    ) -> None:
        self._cond = threading.Condition()
        self.settle_s = settle_s  # wait until nothing new came for this long before working
        self._queue: deque = deque()
        self._work, self._idle = work, idle
        self.want_idle = False
        self.busy = False
        self.stopped = False
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)
        self._thread.start()

    def post(self, item: Any) -> None:
        with self._cond:
            self._queue.append(item)
            self._cond.notify()

    def stop(self) -> None:
        with self._cond:
            self.stopped = True
            self._cond.notify()

    def pending(self) -> bool:
        with self._cond:
            return bool(self._queue) or self.busy

    def _loop(self) -> None:
        while True:
            with self._cond:
                quiet_since = time.monotonic()
                while not self._queue and not self.stopped:
                    left = IDLE_S - (time.monotonic() - quiet_since)
                    if self.want_idle and left <= 0:
                        break
                    self._cond.wait(left if self.want_idle else None)
                start = time.monotonic()
                while self._queue and self.settle_s and not self.stopped:
                    n = len(self._queue)
                    self._cond.wait(self.settle_s)
                    if len(self._queue) == n or time.monotonic() - start > SETTLE_MAX_S:
                        break
                if self.stopped:
                    return
                items = list(self._queue)
                self._queue.clear()
                self.busy = True
            try:
                if items:
                    self._work(items)
                elif self._idle is not None:
                    self.want_idle = False
                    self._idle()
            except RuntimeError:  # the receiving QObject is gone (the window closed)
                return
            finally:
                self.busy = False


@dataclass
class _Job:
    """One request: the deltas since the last job (or a reset snapshot), the options, and the
    live design the result is for (never read by the lanes)."""

    delta: Delta | None
    figures: str
    direction: str
    origin: Topology
    snapshot: Topology | None = None  # set: start again from this copy of the design
    layout: tuple | None = None  # (collapsed ids, box positions): lay the design out too (see LaidOut)


@dataclass
class LaidOut:
    """The canvas layout (:func:`planner.layout.layout`, ``editor=True``) of one revision, made
    by the analysis lane on its replica: a structural edit is laid out off the GUI thread."""

    revision: int
    origin: Topology
    collapsed: frozenset
    diagram: Any
    since: Any = None  # the diagram laid out before (``moved`` is against it)
    moved: list[str] | None = None  # components shown by another box than in ``since``


class BackgroundAnalysis(QObject):
    """Signals: ``analysed(bundle or Exception)``, ``checked(bundle or Exception)``,
    ``crossChecked(CrossCheck)``. The bundles are :class:`app.document.AnalysisBundle` s."""

    analysed = Signal(object)
    checked = Signal(object)
    crossChecked = Signal(object)
    laidOut = Signal(object)  # LaidOut or Exception; sent before the same job's analysis

    def __init__(self, make_bundle: Callable[..., Any], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._make_bundle = make_bundle
        self._replica: Replica | None = None  # the analysis lane's
        self._incs: dict[str, IncrementalAnalysis] = {}
        self._incs_key: str | None = None
        self._check_replica: Replica | None = None
        self._last: tuple[Any, Analysis] | None = None  # (bundle, ruled analysis) last checked
        self._crossed: int | None = None
        self._canvas: Any = None  # the canvas figures sent last (the next ones say what changed since)
        self._laid: Any = None  # the diagram laid out last
        self._lane = _Lane("sanplan-analysis", self._analyse)
        self._check_lane = _Lane("sanplan-check", self._check, self._cross_check, settle_s=SETTLE_S)
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL_S))
        self.destroyed.connect(self._lane.stop)
        self.destroyed.connect(self._check_lane.stop)

    # -- GUI thread ----------------------------------------------------------------------------
    def reset(self, topo: Topology, figures: str, direction: str) -> None:
        """Start again from a copy of ``topo`` (a file opened, a scenario switched)."""
        self._lane.post(_Job(None, figures, direction, topo, snapshot=topo.clone()))

    def submit(self, delta: Delta, figures: str, direction: str, origin: Topology, layout: tuple | None = None) -> None:
        """Analyse the design after ``delta`` (built with ``Delta.from_events``); ``layout``
        (collapsed ids, box positions): lay it out first (``laidOut``)."""
        self._lane.post(_Job(delta, figures, direction, origin, layout=layout))

    def busy(self) -> bool:
        """Whether an analysis or a check is queued or running."""
        return self._lane.pending() or self._check_lane.pending()

    def shutdown(self) -> None:
        self._lane.stop()
        self._check_lane.stop()

    # -- the analysis lane ---------------------------------------------------------------------
    def _analyse(self, jobs: list[_Job]) -> None:
        t0 = time.perf_counter()
        resets = [i for i, j in enumerate(jobs) if j.snapshot is not None]
        if resets:
            jobs = jobs[resets[-1] :]
            snapshot = jobs[0].snapshot
            assert snapshot is not None
            self._replica = Replica(snapshot)
            self._incs, self._incs_key = {}, None
            self._canvas = self._laid = None
        if self._replica is None:
            return  # nothing to analyse before the first reset
        deltas = [j.delta for j in jobs if j.delta is not None]
        ids: set[str] = set()
        full = False
        for d in deltas:
            self._replica.apply(d)
            ids |= d.ids
            full = full or bool(d.parts)
        job = jobs[-1]
        wanted = next((j.layout for j in reversed(jobs) if j.layout is not None), None)
        if wanted is not None:
            self._lay_out(wanted, job.origin)
        try:
            with gc_paused():
                bundle, ruled = self._results(job, ids, full, _regrouping(deltas))
        except Exception as err:  # never lose the window over an analysis bug
            self._incs_key = None  # start the analyses afresh next time
            self.analysed.emit(err)
            return
        bundle.seconds = time.perf_counter() - t0
        self.analysed.emit(bundle)
        self._check_lane.post((jobs[0].snapshot if resets else None, deltas, bundle, ruled))

    def _lay_out(self, wanted: tuple, origin: Topology) -> None:
        topo = self._replica.topo  # type: ignore[union-attr]
        collapsed, positions = wanted
        topo.positions = dict(positions)  # the boxes the user placed (not part of a delta)
        try:
            with gc_paused():
                diagram = layout(topo, set(collapsed), editor=True)
                since = self._laid
                moved = alias_changes(since, diagram) if since is not None else None  # reads only .alias
        except Exception as err:  # the GUI thread lays it out itself then
            self.laidOut.emit(err)
            return
        self._laid = diagram
        self.laidOut.emit(LaidOut(topo.revision, origin, frozenset(collapsed), diagram, since, moved))

    def _results(self, job: _Job, ids: set[str], full: bool, regrouping: bool = False) -> tuple[Any, Analysis]:
        topo = self._replica.topo  # type: ignore[union-attr]
        if self._incs_key != job.figures:
            self._incs, self._incs_key = {}, job.figures
            full = False  # the new analyses start from the replica as it is
        wanted = ("read", "write") + ((job.direction,) if job.direction not in ("read", "write") else ())
        out: dict[str, Analysis] = {}
        for direction in wanted:
            inc = self._incs.get(direction)
            if inc is None:
                inc = self._incs[direction] = IncrementalAnalysis(topo, job.figures, direction)
                out[direction] = inc.analysis
            elif full:
                out[direction] = inc.rebuild()
            else:
                out[direction] = inc.update(ids) if ids else inc.analysis
        for direction in [d for d in self._incs if d not in wanted]:
            del self._incs[direction]  # not kept in step from now on
        chosen = out[job.direction]
        ruled = out["read"] if job.direction == "mixed" else chosen
        bundle = self._make_bundle(
            topo.revision, job.figures, job.direction, chosen, out["read"].aggregate, out["write"].aggregate
        )
        bundle.origin, bundle.checked = job.origin, False
        bundle.canvas = self._canvas = canvas_figures(chosen, self._canvas, regrouping)  # what the canvas repaints
        return bundle, ruled

    # -- the check lane ------------------------------------------------------------------------
    def _check(self, items: list[tuple]) -> None:
        resets = [i for i, it in enumerate(items) if it[0] is not None]
        if resets:
            items = items[resets[-1] :]
            self._check_replica = Replica(items[0][0])
        if self._check_replica is None:
            return
        for _, deltas, _, _ in items:
            for d in deltas:
                self._check_replica.apply(d)
        _, _, bundle, ruled = items[-1]
        try:
            with gc_paused():
                findings = check(self._check_replica.topo, bundle.figures, ruled.direction, analysis=ruled)
        except Exception as err:
            self.checked.emit(err)
            return
        done = replace(bundle, findings=findings, checked=True)
        self._last = (done, ruled)
        self._check_lane.want_idle = True
        self.checked.emit(done)

    def _cross_check(self) -> None:
        if self._last is None:
            return
        bundle, ruled = self._last
        if self._crossed == id(bundle) or ruled.direction == "mixed":
            return
        from planner.maxflow import max_flow

        try:
            with gc_paused():
                flow, cut = max_flow(ruled.paths, ruled.components) if ruled.paths else (0.0, [])
        except Exception:  # noqa: BLE001 - the cross-check is advisory; the analysis stands
            return
        self._crossed = id(bundle)
        self.crossChecked.emit(
            CrossCheck(bundle.revision, bundle.figures, bundle.direction, ruled.aggregate, flow, cut, bundle.origin)
        )


def _regrouping(deltas: list[Delta]) -> bool:
    """Whether the edits added, removed or moved components (the canvas then lists some boxes'
    members again, in the order of the result)."""
    return any(d.removed or any(index >= 0 for _, _, index in d.components.values()) for d in deltas)
