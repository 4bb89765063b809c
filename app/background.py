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
opened, a scenario switched), and then once (``reset``: one exact copy of the design's tables,
which the analysis lane takes over; it copies its replica for the check lane after sending the
first analysis). The lanes never touch the live design: a job carries ``origin`` (the live
:class:`Topology`) only to hand it back on the result.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from PySide6.QtCore import QObject, Signal

from app import gui_gc
from app.cross_check import CrossCheck, cross_check  # noqa: F401  (re-exported: the lane's record)
from app.lane_records import (  # noqa: F401  (LaidOut, Computed, Superseded re-exported)
    Computed,
    LaidOut,
    Superseded,
    _Adopted,
    _Extra,
    _Gate,
    _Job,
)
from app.piecewise import Pile
from planner.analysis import Analysis, binding_kinds
from planner.diagram_order import containers_first, heads, kept_and_changed
from planner.figures import FIGURE_SETS
from planner.gcpause import gc_paused, hold_gc, release_gc
from planner.incremental import Delta, IncrementalAnalysis, Partition, Replica, part_users
from planner.layout import LayoutMemo, alias_changes, changed_boxes, layout, same_geometry
from planner.model import Topology
from planner.rules import CheckStopped, check
from widgets import giveway, slice_budget
from widgets.canvas.figures import canvas_figures, mark_boxes, working_out_tops

log = logging.getLogger(__name__)

IDLE_S = 1.0  # quiet time before the cross-check runs
#: After sending an analysis the lane lets the GUI thread show it before it analyses the other
#: direction (at most this long, until the GUI thread sets :attr:`BackgroundAnalysis.gui_turn`:
#: when the canvas has painted it, in slices, ``Document.analysis_shown``): the two would
#: otherwise take turns at the interpreter and the repaint would stretch over several frames (a
#: subsystem deleted on the 16x site: the overview gathered and drew what moved, 50-80 ms in
#: slices, while the other direction took 30-40 ms of them).
GUI_FIRST_S = 0.3
#: the lane puts a layout's boxes containers first (for the canvas to make every item in that
#: order) only when the canvas will: when it keeps less than this share of them (KEEP_SHARE of
#: widgets.canvas.morph; else it places only the boxes that changed: 1 ms of every edit of the
#: 16x site)
MAKES_ALL_BELOW = 0.5
#: After sending a layout the lane lets the GUI thread show it (the canvas places its items in
#: slices; ``Document.layout_shown``) before it analyses the edit, at most this long: the two
#: taking turns at the interpreter made a subsystem deleted on the 16x site block the GUI
#: 50-110 ms instead of 25-45, and took longer in all.
LAYOUT_FIRST_S = 0.3
#: The lane begins an edit's work once the GUI thread has repainted what the edit changed in
#: its panels (``edit_turn``, set by ``Document`` after the repaints Qt posted), at most this
#: long: a server deleted on the 16x site with the tree, paths and racks showing, the two taking
#: turns at the interpreter made the window's repaint 7-12 ms instead of 3 and the longest
#: block 16-17 ms instead of 13-15 (probe medians of 8, old and new alternately); the time to
#: the recoloured canvas stayed the same (142-169 ms both).
EDIT_FIRST_S = 0.05
#: (ANALYSED_FIRST) An edit that moves boxes is analysed before it is laid out: the lane then
#: works while the GUI thread waits for the layout, and the analysis is ready when the canvas
#: has placed the items (the views are held until it is painted). Analysed after the layout, it
#: began once the items were placed and took turns at the interpreter with the canvas preparing
#: its views (a server deleted on the 16x site expanded: 14-17 ms, 12-13 alone), and the canvas
#: waited for it.
#: A design shown afresh (opened, a scenario switched to) is analysed once the canvas has made
#: its items (``shown_turn``), at most this long after
SHOWN_FIRST_S = 1.0
#: ... and waits this long for another edit (a key held down, a spin box stepped) before it
#: analyses the other direction: an edit that comes is analysed first, and the other direction
#: (its total in the headline) and the rules catch up with both at once
OTHERS_AFTER_S = 0.03
#: the rules wait until the analyses have been quiet this long (at most SETTLE_MAX_S), so a
#: quick series of edits recolours the canvas without the rules competing for the interpreter
SETTLE_S, SETTLE_MAX_S = 0.15, 1.0
#: the fill of the other figure sets (work no one waits for) goes on with its next part only
#: once the GUI thread's event loop, seen working, has waited for events this long (its slices
#: come a few ms apart), looking again every FILL_YIELD_S: the two took turns at the
#: interpreter, every call from Qt into Python waiting for it, and the 32x site's paths panel,
#: shown while the fill ran after an open, blocked the window 30-57 ms (2-12 with no fill)
FILL_QUIET_S, FILL_YIELD_S = 0.03, 0.002


class _Lane:
    """One daemon thread working through a queue; ``work(items)`` gets everything queued so far;
    ``idle()`` runs after ``idle_s`` of quiet when ``want_idle`` is set. ``counts(item)``: whether
    an item is work that others wait for or give way to (default: every item); the others, and
    the lane while ``light`` is set, are work that gives way (a warm-up layout): :meth:`pending`,
    :meth:`queued` and :meth:`wait_queued` do not see them."""

    def __init__(
        self,
        name: str,
        work: Callable[[list], None],
        idle: Callable[[], None] | None = None,
        settle_s: float = 0.0,
        counts: Callable[[Any], bool] | None = None,
    ) -> None:
        self._cond = threading.Condition()
        self.settle_s = settle_s  # wait until nothing new came for this long before working
        self._queue: deque = deque()
        self._hurry = False  # (see post)
        self._work, self._idle = work, idle
        self._counts = counts
        self.want_idle = False
        self.busy = False
        self.light = False  # busy with work that gives way (see the class docstring)
        self.stopped = False
        self.pile = Pile()  # what the work dropped, freed once the lane has nothing else to do
        gui_gc.install()  # a busy lane holds the collector off; the GUI thread collects (see there)
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)
        self._thread.start()

    def post(self, item: Any, hurry: bool = False) -> None:
        """Queue ``item``; ``hurry``: work on it without waiting for the queue to settle (a
        design just opened: no series of edits to gather)."""
        gui_gc.worker_coming()
        with self._cond:
            self._queue.append(item)
            self._hurry = self._hurry or hurry
            self._cond.notify()

    def stop(self) -> None:
        with self._cond:
            self.stopped = True
            self._cond.notify()

    def _waiting(self) -> bool:
        """Whether work that counts is queued (call holding ``_cond``)."""
        return bool(self._queue) if self._counts is None else any(map(self._counts, self._queue))

    def pending(self) -> bool:
        with self._cond:
            return self._waiting() or (self.busy and not self.light)

    def queued(self) -> bool:
        """Whether new work waits (an edit arrived while the lane was busy)."""
        with self._cond:
            return self._waiting()

    def wait_queued(self, timeout: float) -> bool:
        """Wait up to ``timeout`` for new work; whether some waits."""
        with self._cond:
            return self._cond.wait_for(lambda: self._waiting() or self.stopped, timeout) and self._waiting()

    def _loop(self) -> None:
        while True:
            with self._cond:
                quiet_since = time.monotonic()
                while not self._queue and not self.stopped:
                    left = IDLE_S - (time.monotonic() - quiet_since)
                    idle = self.want_idle or bool(self.pile)  # (idle work: what the work dropped first)
                    if idle and left <= 0:
                        break
                    self._cond.wait(left if idle else None)
                start = time.monotonic()
                while self._queue and self.settle_s and not self._hurry and not self.stopped:
                    n = len(self._queue)
                    self._cond.wait(self.settle_s)
                    if len(self._queue) == n or time.monotonic() - start > SETTLE_MAX_S:
                        break
                if self.stopped:
                    return
                hold_gc()  # before this thread's first allocation: it must never collect
                items = list(self._queue)
                self._queue.clear()
                self.busy, self._hurry = True, False
                self.light = self._counts is not None and not any(map(self._counts, items))
            try:
                if items:
                    self._work(items)
                elif self.pile:  # (quiet a while: a piece at a time until work comes, see app.piecewise)
                    self.light = True  # (work that gives way: no one waits for it)
                    self.pile.free(busy=lambda: bool(self._queue) or self.stopped)
                elif self._idle is not None:
                    self.want_idle = False
                    self._idle()
            except RuntimeError:  # the receiving QObject is gone (the window closed)
                return
            finally:
                self.busy = False
                self.light = False  # (after busy: never busy with work that counts meanwhile)
                release_gc(leave_off=True)  # the GUI thread switches it back on (app.gui_gc)


class BackgroundAnalysis(QObject):
    """Signals: ``analysed(bundle or Exception)`` (the chosen direction, sent before the other
    direction is analysed: a total not known yet is None), ``totalled(bundle)`` (the same
    revision with both totals, when ``analysed`` lacked one), ``checked(bundle or Exception)``,
    ``crossChecked(CrossCheck)``, ``computed(Computed)`` (see :meth:`compute`), ``laidOut``.
    The bundles are :class:`app.document.AnalysisBundle` s."""

    analysed = Signal(object)
    checked = Signal(object)
    crossChecked = Signal(object)
    computed = Signal(object)
    laidOut = Signal(object)  # LaidOut or Exception; sent before the same job's analysis
    totalled = Signal(object)  # the bundle sent by ``analysed`` with both directions' totals

    def __init__(self, make_bundle: Callable[..., Any], parent: QObject | None = None) -> None:
        super().__init__(parent)
        gui_gc.install()  # (the switch interval too: see app.gui_gc.GIL_SWITCH_S)
        self._make_bundle = make_bundle
        self._replica: Replica | None = None  # the analysis lane's
        self._incs: dict[str, IncrementalAnalysis] = {}
        self._incs_key: str | None = None
        self._partition: Partition | None = None  # of the analysis lane's replica, for every direction
        #: the analyses of the figure sets not shown, by figure set and direction: the sets shown
        #: before and those filled while idle (see _fill_shelf), not kept in step
        self._shelf: dict[str, dict[str, IncrementalAnalysis]] = {}
        self._ready: int | None = None  # the revision analysed last (its partition split)
        self._fill_failed = False  # filling the shelf raised (not tried again until a reset)
        self._check_replica: Replica | None = None
        self._last: tuple[Any, Analysis] | None = None  # (bundle, ruled analysis) last checked
        self._crossed: int | None = None
        self._extras: dict[str, _Extra] = {}  # panels' computations waiting for their revision
        self._rule_point = giveway.yielding()  # (made afresh for each check)
        self._check_origin: Any = None  # the live design the check lane's copy stands for
        self._canvas: Any = None  # the canvas figures sent last (the next ones say what changed since)
        #: (figure set, direction) -> its canvas figures made while idle (see _prepare_switches)
        self._switches: dict[tuple[str, str], Any] = {}
        self._sent: tuple | None = None  # (figures, direction, revision) of the analysis sent last
        self._laid: Any = None  # the diagram laid out last
        self._layout_memo = LayoutMemo()  # what the next layout of the replica may reuse
        #: set (by the GUI thread) once it has shown the analysis sent last: the lane goes on
        self.gui_turn = threading.Event()
        #: set (by the GUI thread) once it has repainted what an edit changed in its panels
        self.edit_turn = threading.Event()
        self.edit_turn.set()
        #: cleared (by the GUI thread) as a design is shown afresh, set once the canvas has made it
        self.shown_turn = threading.Event()
        self.shown_turn.set()
        #: directions not brought up to date because another edit was waiting, and the deltas
        #: not yet sent to the check lane meanwhile
        self._behind: set[str] = set()
        self._unchecked: list[Delta] = []
        self._check_reset_due = False  # the check lane's copy is to be made afresh (after a reset)
        self._lane = _Lane("sanplan-analysis", self._analyse, self._fill_shelf, counts=_Job.counts)
        self._check_lane = _Lane("sanplan-check", self._check, self._cross_check, settle_s=SETTLE_S)
        self._gate = gate = _Gate()
        for closing in (gate.close, self._lane.stop, self._check_lane.stop):
            if parent is not None:  # a QObject's destroyed comes before its children are deleted
                parent.destroyed.connect(closing)
            self.destroyed.connect(closing)

    # -- GUI thread ----------------------------------------------------------------------------
    def reset(self, snapshot: Topology, topo: Topology, figures: str, direction: str) -> None:
        """Start again from ``snapshot``, an exact copy of ``topo``'s tables
        (:meth:`Topology.snapshot`: a file opened, a scenario switched), which the analysis lane
        takes over; the check lane's copy is made in the analysis lane once the first analysis
        is sent."""
        self._lane.post(_Job(None, figures, direction, topo, snapshot=snapshot))

    def submit(
        self,
        delta: Delta,
        figures: str,
        direction: str,
        origin: Topology,
        layout: tuple | None = None,
        warm: tuple | None = None,
    ) -> None:
        """Analyse the design after ``delta`` (built with ``Delta.from_events``); ``layout``
        (collapsed ids, box positions, the diagram shown or None): lay it out first (``laidOut``);
        ``warm``: a warm-up layout done after the analyses (see :meth:`warm`)."""
        self._lane.post(_Job(delta, figures, direction, origin, layout=layout, warm=warm))

    def warm(self, layout: tuple) -> None:
        """Lay the design out once the lane is idle, as the canvas shows it (``layout``: collapsed
        ids, box positions, the diagram shown and the live design it is of), to fill the lane's
        layout memo: the canvas laid the design out itself (opened, a group folded), and the next
        structural edit would otherwise lay everything out and compare every group (on the 16x
        site 70 ms instead of 30). ``laidOut`` then sends a :class:`LaidOut` with ``warm`` set;
        no analysis is made. A warm-up gives way to every other work (see :class:`_Lane`)."""
        self._lane.post(_Job(None, "", "", layout[3], warm=layout))

    def compute(
        self, key: str, work: Callable[[Topology, Callable[[float], None]], Any], revision: int, origin: Any
    ) -> None:
        """Run ``work(design, progress)`` in the check lane on its copy of the design once that
        copy is at ``revision`` (after that revision's rules), and send ``computed`` (a
        :class:`Computed`). An edit arriving before or meanwhile stops it and nothing is sent
        (the panel asks again for the new revision); of several requests with one key only the
        newest runs."""
        self._check_lane.post(_Extra(key, work, revision, origin))

    def filled(self, figures: str, directions: tuple[str, ...] = ("read", "write")) -> bool:
        """Whether the analyses of ``figures`` in ``directions`` are filled for the revision
        analysed last (a set not shown, or the mixed one of the set shown: see _fill_shelf;
        read by tests and benchmarks)."""
        try:
            incs = dict(self._incs if figures == self._incs_key else self._shelf.get(figures, {}))
            return all(d in incs for d in directions) and all(
                (a := incs[d].alloc.get(k)) is not None and a.done for d in directions for k in list(incs[d].parts)
            )
        except RuntimeError:  # (the lane changed them meanwhile)
            return False

    def busy(self) -> bool:
        """Whether an analysis or a check is queued or running."""
        return self._lane.pending() or self._check_lane.pending()

    def shutdown(self) -> None:
        self._gate.close()
        self._lane.stop()
        self._check_lane.stop()

    def _send(self, name: str, value: Any) -> None:
        """Emit signal ``name`` from a lane, unless the object is being deleted (see _Gate)."""
        self._gate.send(self, name, value)

    # -- the analysis lane ---------------------------------------------------------------------
    def _analyse(self, jobs: list[_Job]) -> None:
        t0 = time.perf_counter()
        warm = next((j.warm for j in reversed(jobs) if j.warm is not None), None)
        jobs = [j for j in jobs if j.counts()]
        if not jobs:  # only warm-ups
            if self._replica is not None and warm is not None:
                self._lay_out(warm, warm_of=True)
            return
        self.edit_turn.wait(EDIT_FIRST_S)
        if any(j.snapshot is not None for j in jobs):
            self.shown_turn.wait(SHOWN_FIRST_S)
        jobs = self._start_again(jobs)
        if self._replica is None:
            return  # nothing to analyse before the first reset
        ids = self._apply(jobs)
        job = jobs[-1]
        wanted = next((j.layout for j in reversed(jobs) if j.layout is not None), None)
        # an edit to lay out is analysed first (see ANALYSED_FIRST), the analysis sent once the
        # canvas has placed the layout's items
        got = self._analysed(job, ids, t0) if wanted is not None and ids else None
        if wanted is not None:
            self._lay_out(wanted, job.origin)
            warm = None
            if not ids and self._sent == (job.figures, job.direction, self._replica.topo.revision):
                return  # a group folded or opened, nothing edited: the analysis sent stands
        if got is None:
            got = self._analysed(job, ids, t0)
        if isinstance(got, Exception):  # never lose the window over an analysis bug
            self._incs_key = None  # start the analyses afresh next time
            self._send("analysed", got)
            return
        bundle, out = got
        mark_boxes(bundle.canvas, self._laid)  # (the layout the canvas shows, or is about to)
        self.gui_turn.clear()
        self._sent = (job.figures, job.direction, bundle.revision)
        self._send("analysed", bundle)  # the canvas is recoloured from the chosen direction at once
        self.gui_turn.wait(GUI_FIRST_S)
        if self._lane.wait_queued(OTHERS_AFTER_S) and not self._check_reset_due:  # the next edit first
            self._behind.update(d for d in self._incs if d != job.direction)
            return
        try:
            with gc_paused(), gui_gc.lane_making(len(self._replica.topo)):
                self._other_directions(job, ids, out)
        except Exception as err:
            self._incs_key = None
            self._send("analysed", err)
            return
        done = replace(bundle, read_mbps=out["read"].aggregate, write_mbps=out["write"].aggregate)
        if (bundle.read_mbps, bundle.write_mbps) != (done.read_mbps, done.write_mbps):
            self._send("totalled", done)
        self._to_rules(done, out["read"] if job.direction == "mixed" else out[job.direction])
        if warm is not None and not self._lane.queued():
            self._lay_out(warm, warm_of=True)

    def _apply(self, jobs: list[_Job]) -> set[str]:
        """The jobs' edits applied to the replica, the layout memo told: the ids they touched,
        with those of the components of any part whose figures changed (an HBA of a model new
        to the design: the parts of the design holding that one HBA are analysed again, not
        every part, 220 ms of the 16x site's edit before)."""
        deltas = [j.delta for j in jobs if j.delta is not None]
        ids: set[str] = set()
        part_ids: set[str] = set()
        for d in deltas:
            self._replica.apply(d)  # type: ignore[union-attr]
            ids |= d.ids
            part_ids.update(d.parts)
        topo = self._replica.topo  # type: ignore[union-attr]
        self._layout_memo.forget(topo, ids, self._laid)  # (the groups the edits touched)
        ids |= part_users(topo, part_ids)
        self._unchecked += deltas  # sent to the check lane with the next revision analysed in full
        return ids

    def _analysed(self, job: _Job, ids: set[str], t0: float) -> tuple[Any, dict[str, Analysis]] | Exception:
        """:meth:`_results` (the bundle's ``seconds`` since ``t0``), or the error it raised."""
        try:
            with gc_paused(), gui_gc.lane_making(len(self._replica.topo)):  # type: ignore[union-attr]
                bundle, out = self._results(job, ids)
        except Exception as err:
            return err
        bundle.seconds = time.perf_counter() - t0
        return bundle, out

    def _to_rules(self, done: Any, ruled: Analysis) -> None:
        """Hand the revision analysed (``done``, both totals; ``ruled``, the analysis the rules
        read) to the check lane, with the deltas since the last one it got."""
        deltas, self._unchecked = self._unchecked, []
        self._lane.light = True  # the revision is done: a warm-up at most is left, the rules need not stop for it
        self._lane.want_idle = True  # (then fill the other figure sets: _fill_shelf)
        if self._check_reset_due:  # the check lane starts from a copy of the replica as analysed
            self._check_reset_due = False
            self._check_lane.post((self._replica.topo.snapshot(), [], done, ruled), hurry=True)  # type: ignore[union-attr]
        else:
            self._check_lane.post((None, deltas, done, ruled))

    def _start_again(self, jobs: list[_Job]) -> list[_Job]:
        """The jobs from the last reset on, the replica made from its snapshot (all of them
        when there is none)."""
        resets = [i for i, j in enumerate(jobs) if j.snapshot is not None]
        if resets:
            jobs = jobs[resets[-1] :]
            snapshot = jobs[0].snapshot
            assert snapshot is not None
            if self._replica is not None:  # (freed a piece at a time once the lane is idle: see Pile)
                self._lane.pile.add(self._replica.topo, self._incs, self._layout_memo, self._shelf)
            self._replica = _Adopted(snapshot)
            self._incs, self._incs_key, self._shelf, self._ready = {}, None, {}, None
            self._fill_failed = False
            self._canvas = self._laid = None
            self._switches = {}
            self._layout_memo = LayoutMemo()
            self._behind, self._unchecked, self._check_reset_due = set(), [], True
            self._sent = None
        return jobs

    def _lay_out(self, wanted: tuple, origin: Topology | None = None, warm_of: bool = False) -> None:
        """Lay out ``wanted`` for ``origin``; ``warm_of``: a warm-up (``wanted`` is then
        (collapsed, positions, shown, origin)), whose failure is only logged."""
        topo = self._replica.topo  # type: ignore[union-attr]
        collapsed, positions, shown = wanted[:3]
        if warm_of:
            origin = wanted[3]
        topo.positions = dict(positions)  # the boxes the user placed (not part of a delta)
        since = shown if shown is not None else self._laid  # what the canvas shows (read only)
        light = self._lane.light
        self._lane.light = light or warm_of  # the rules of a revision go on meanwhile (see _Lane)
        try:
            with gc_paused(), gui_gc.lane_making(len(topo)):
                diagram = layout(topo, set(collapsed), editor=True, memo=self._layout_memo)
                heads(diagram)  # kept on it for the canvas and the comparisons
                laid = LaidOut(topo.revision, origin, frozenset(collapsed), diagram, since, warm=warm_of)
                if since is not None:  # what the canvas would otherwise work out on the GUI thread
                    laid.moved = alias_changes(since, diagram)  # reads only .alias
                    laid.same = same_geometry(since, diagram)
                    laid.relabelled = changed_boxes(since, diagram) if laid.same else None
                    if not laid.same:  # (reads boxes only)
                        laid.kept, laid.changed = kept_and_changed(since, diagram)
                if not laid.same and (laid.kept is None or len(laid.kept) < len(diagram.boxes) * MAKES_ALL_BELOW):
                    containers_first(diagram)  # the canvas makes every item in that order (60 ms unbanded)
        except Exception as err:  # the GUI thread lays it out itself then
            self._layout_memo = LayoutMemo()
            if warm_of:
                log.exception("warm-up layout failed")
            else:
                self._send("laidOut", err)
            return
        finally:
            self._lane.light = light
        self._laid = diagram
        if warm_of:
            self._send("laidOut", laid)
            return
        self.gui_turn.clear()
        self._send("laidOut", laid)
        self.gui_turn.wait(LAYOUT_FIRST_S)  # the canvas shows it before the analysis starts

    def _results(self, job: _Job, ids: set[str]) -> tuple[Any, dict[str, Analysis]]:
        """The bundle of the chosen direction (the other direction's total None: see
        :meth:`_other_directions`) and the analyses made so far, by direction."""
        topo = self._replica.topo  # type: ignore[union-attr]
        if self._incs_key is None or self._partition is None or self._partition.topo is not topo:
            self._partition = Partition(topo)  # split once per edit for every direction
            self._lane.pile.add(self._shelf)
            self._shelf = {}
        elif self._incs_key != job.figures and ids:  # (the parts do not depend on the figures: kept)
            self._partition.split_change(ids, topo.revision)  # the edits split in, as an update does
        if self._incs_key != job.figures:
            self._switch_figures(job.figures)
        chosen = self._direction(job, ids, job.direction)
        out = {job.direction: chosen}
        read, write = (out.get(d) for d in ("read", "write"))
        bundle = self._make_bundle(
            topo.revision, job.figures, job.direction, chosen, read and read.aggregate, write and write.aggregate
        )
        bundle.origin, bundle.checked = job.origin, False
        made = self._switches.get((job.figures, job.direction))  # (switched to: made while idle)
        if made is None or made.result is not chosen or self._canvas is None or made.since is not self._canvas.result:
            made = canvas_figures(chosen, self._canvas)
        bundle.canvas = self._canvas = made  # what the canvas repaints
        self._switches = {}  # (each made against the figures sent before these)
        bundle.binding = binding_kinds(topo, chosen)  # what the headline shows (6-8 ms on a site)
        self._ready = topo.revision
        return bundle, out

    def _switch_figures(self, figures: str) -> None:
        """Analyse for another figure set from the parts of the design as they are: with its
        analyses on the shelf when there are some (shown before, or filled while idle: each is
        brought up to date by an update, the parts re-made since are new to it), else afresh.
        The set left goes on the shelf (two directions of the 32x site: 32 MB a set)."""
        if self._incs_key is not None and self._incs:
            self._shelf[self._incs_key] = self._incs
        self._incs = self._shelf.pop(figures, {})
        self._incs_key, self._behind = figures, set(self._incs)

    def _fill_shelf(self) -> None:
        """(The analysis lane, idle.) Fill the read and write analyses of every figure set not
        shown, and the mixed one of the set shown, a part at a time, until an edit comes (it
        resumes once the lane is idle again): a switch to one then only assembles its result
        (the 16x site's first switch to another set took 141 ms, 75 of them this allocation;
        back and forth 69). Work that gives way: the rules and the editor never wait for it."""
        topo = self._replica.topo if self._replica is not None else None
        partition = self._partition
        if topo is None or self._incs_key is None or self._ready != topo.revision or partition is None:
            return
        if self._fill_failed:  # (once per design: the sets are analysed afresh when shown)
            return
        lane, share = self._lane, giveway.Share()
        busy_at = [0.0]  # when the GUI thread was last seen working

        def stop() -> bool:
            giveway.pause()  # (the user moves the canvas)
            if share.contended():  # (the GUI thread, waiting for the interpreter, looks idle)
                busy_at[0] = time.monotonic()
            while not (lane.queued() or lane.stopped):
                now = time.monotonic()
                if not slice_budget.loop_waiting():
                    busy_at[0] = now
                elif now - busy_at[0] >= FILL_QUIET_S:
                    share.restart()
                    return False
                time.sleep(FILL_YIELD_S)  # the GUI thread works: it has the interpreter to itself
            return True

        if not self._prepare_switches(stop):
            lane.want_idle = True  # (the rest once idle again)
            return
        if not self._fill(stop):
            return
        try:
            self._prepare_sets(stop)
        except Exception:  # noqa: BLE001 - a set switched to is then assembled when shown
            log.exception("making the canvas figures of the other figure sets failed")
            self._switches = {k: v for k, v in self._switches.items() if k[0] == self._incs_key}

    def _fill(self, stop: Callable[[], bool]) -> bool:
        """(Idle.) The prefill of :meth:`_fill_shelf`; whether it is done (False: ``stop`` said
        stop, the rest is filled once idle again; or it failed)."""
        topo, partition = self._replica.topo, self._partition  # type: ignore[union-attr]
        shown = self._incs_key
        todo = [(self._shelf.setdefault(f, {}), f, d) for f in FIGURE_SETS if f != shown for d in ("read", "write")]
        todo.append((self._incs, shown, "mixed"))  # (made afresh, the first switch to it took 282 ms)
        try:
            for incs, figures, direction in todo:
                inc = incs.get(direction)
                if inc is None:
                    inc = incs[direction] = IncrementalAnalysis(
                        topo, figures, direction, partition=partition, deferred=True
                    )
                    if incs is self._incs:
                        self._behind.add(direction)  # (brought up to date when shown: see _direction)
                with gc_paused(), gui_gc.lane_making(len(topo)):
                    if not inc.prefill(stop):
                        self._lane.want_idle = True  # (the rest once idle again)
                        return False
        except Exception:  # noqa: BLE001 - a figure set then is analysed afresh when shown
            log.exception("filling the analyses of the other figure sets failed")
            self._fill_failed = True
            self._lane.pile.add(self._shelf)
            self._shelf = {}
            if (mixed := self._incs.get("mixed")) is not None and mixed.analysis is None:  # (one filled)
                del self._incs["mixed"]
            return False
        return True

    def _prepare_switches(self, stop: Callable[[], bool]) -> bool:
        """(Idle, before the fill.) The canvas figures of each other direction of the figure set
        shown whose analysis is kept in step, made against the figures sent last and marked on
        the diagram laid out last: a switch to that direction sends them as they are (the 16x
        site's direction switched spent 22-37 ms of the lane on them before the canvas could
        paint; the same functions, run earlier). False: ``stop`` said stop."""
        shown, laid = self._canvas, self._laid
        for direction, inc in list(self._incs.items()) if shown is not None else ():
            result, made = inc.analysis, self._switches.get((self._incs_key, direction))  # type: ignore[arg-type]
            skip = result is None or result is shown.result or direction in self._behind
            if skip:  # (the shown one, one not in step)
                continue
            if getattr(made, "result", 0) is not result:
                if stop():
                    return False
                with gc_paused():
                    made = canvas_figures(result, shown)
                    mark_boxes(made, laid)
                self._switches[(self._incs_key, direction)] = made  # type: ignore[index]
            if not self._worked_out(made, laid, stop):
                return False
        return True

    def _worked_out(self, made: Any, laid: Any, stop: Callable[[], bool]) -> bool:
        """What each box ``made`` marks on ``laid`` is painted with, and its cables' colours
        (``CanvasFigures.tops``: a switch to it paints them as they are), worked out a step at a
        time; False: ``stop`` said stop (the rest when idle again)."""
        if made.steps is None:
            made.steps = working_out_tops(made, laid, self._replica.topo)  # type: ignore[union-attr]
        for _ in made.steps:
            if stop():
                return False
        return True

    def _prepare_sets(self, stop: Callable[[], bool]) -> None:
        """(Idle, after the fill.) For each figure set not shown: its analysis of the direction
        shown assembled (kept: see IncrementalAnalysis.current, _direction) and its canvas
        figures made against those sent last and marked on the diagram laid out last: a switch
        to that set sends them as they are (the 16x site's figure set switched spent 25-45 ms of
        the lane on the two before the canvas could paint). Stops when ``stop`` says stop."""
        shown, laid = self._canvas, self._laid
        direction = shown.result.direction if shown is not None else None
        topo = self._replica.topo  # type: ignore[union-attr]
        for figures in FIGURE_SETS:
            inc = self._shelf.get(figures, {}).get(direction)  # type: ignore[arg-type]
            if inc is None or figures == self._incs_key:
                continue
            made = self._switches.get((figures, direction))  # type: ignore[arg-type]
            if not (inc.current() and getattr(made, "result", 0) is inc.analysis):
                if stop():
                    return
                with gc_paused(), gui_gc.lane_making(len(topo)):
                    result = inc.analysis if inc.current() else inc.update((), token=topo.revision)
                if stop():
                    return
                with gc_paused():
                    made = canvas_figures(result, shown)
                    mark_boxes(made, laid)
                self._switches[(figures, direction)] = made  # type: ignore[index]
            if not self._worked_out(made, laid, stop):
                return

    def _other_directions(self, job: _Job, ids: set[str], out: dict[str, Analysis]) -> None:
        """Bring the analyses of the other directions up to date (both totals are shown; the
        rules of a mixed run read the read analysis) and stop keeping any other in step: the
        mixed one left is kept as it is, brought up to date by an update when shown again
        (made afresh, the 16x site's mixed analysis took 300 ms of each switch to it)."""
        wanted = ("read", "write") + ((job.direction,) if job.direction not in ("read", "write") else ())
        for direction in wanted:
            if direction not in out:
                giveway.pause()  # (its totals wait while the user zooms: 10-15 ms of the 16x site's lane)
                out[direction] = self._direction(job, ids, direction, giveway.yielding(self._lane.queued))
        self._behind.update(d for d in self._incs if d not in wanted)  # not kept in step from now on

    def _direction(self, job: _Job, ids: set[str], direction: str, pause: Any = None) -> Analysis:
        """The analysis of one direction after the edits ``ids``. One skipped for an edit since
        is brought up to date too: the parts that edit re-made in the shared partition are new
        to it, and its update allocates them. ``pause``: see IncrementalAnalysis.update."""
        topo = self._replica.topo  # type: ignore[union-attr]
        inc = self._incs.get(direction)
        if inc is None:
            inc = self._incs[direction] = IncrementalAnalysis(
                topo, job.figures, direction, partition=self._partition, pause=pause
            )
            return inc.analysis  # type: ignore[return-value]
        skipped = direction in self._behind or inc.analysis is None
        self._behind.discard(direction)
        if not ids and inc.current():  # (a figure set not shown, assembled while idle: _prepare_sets)
            return inc.analysis  # type: ignore[return-value]
        return inc.update(ids, token=topo.revision, pause=pause) if ids or skipped else inc.analysis  # type: ignore[return-value]

    # -- the check lane ------------------------------------------------------------------------
    def _check(self, items: list) -> None:
        checks = [it for it in items if not isinstance(it, _Extra)]
        if checks:
            self._check_revisions(checks)
            self._check_origin = checks[-1][2].origin
        self._extras.update((it.key, it) for it in items if isinstance(it, _Extra))
        replica = self._check_replica
        for key, extra in list(self._extras.items()):
            if replica is None or extra.origin is not self._check_origin or replica.topo.revision < extra.revision:
                continue  # its design or revision is still on its way to this lane
            del self._extras[key]
            if replica.topo.revision == extra.revision and not self._check_lane.queued():
                self._run_extra(extra, replica.topo)

    def _run_extra(self, extra: _Extra, topo: Topology) -> None:
        point = giveway.yielding()  # (the user moves the canvas, or the GUI thread works)

        def progress(_fraction: float) -> None:
            point()
            if self._check_lane.queued():
                raise Superseded(extra.key)

        try:
            with gc_paused():
                result = extra.work(topo, progress)
        except Superseded:
            return
        except Exception as err:  # noqa: BLE001 - handed to the panel, which says what failed
            result = err
        self._send("computed", Computed(extra.key, topo.revision, extra.origin, result))

    def _check_revisions(self, items: list[tuple]) -> None:
        resets = [i for i, it in enumerate(items) if it[0] is not None]
        if resets:
            items = items[resets[-1] :]
            if self._check_replica is not None:
                self._check_lane.pile.add(self._check_replica.topo)
            self._check_replica = _Adopted(items[0][0])  # a copy made for this lane alone
        if self._check_replica is None:
            return
        for _, deltas, _, _ in items:
            for d in deltas:
                self._check_replica.apply(d)
        _, _, bundle, ruled = items[-1]
        try:
            with gc_paused():  # an edit meanwhile stops it: its own check follows
                topo = self._check_replica.topo
                self._rule_point = giveway.yielding(self._lane.pending)
                findings = check(topo, bundle.figures, ruled.direction, analysis=ruled, stop=self._rule_due)
        except CheckStopped:
            return
        except Exception as err:
            self._send("checked", err)
            return
        done = replace(bundle, findings=findings, checked=True)
        self._last = (done, ruled)
        self._check_lane.want_idle = True
        self._send("checked", done)

    def _rule_due(self) -> bool:
        """Asked by the check before each rule: whether to stop (an edit arrived), once any
        gesture on the canvas is over, after a sleep while the GUI thread works (see
        widgets.giveway.yielding)."""
        self._rule_point()
        return self._lane.pending()

    def _cross_check(self) -> None:
        """The idle max-flow cross-check of the last checked revision. An edit that arrives
        meanwhile cancels it (at a pause point: giveway.yielding) and the lane moves on to it."""
        if self._last is None:
            return
        bundle, ruled = self._last
        if self._crossed == id(bundle) or self._check_lane.queued():
            return
        try:
            with gc_paused():
                result = cross_check(bundle, ruled, giveway.yielding(give_up=self._check_lane.queued))
        except Exception:  # noqa: BLE001 - the cross-check is advisory; the analysis stands
            return
        self._crossed = id(bundle)
        if result is not None and not self._check_lane.queued():
            self._send("crossChecked", result)
