"""The open design as the editor sees it: project, undo stack, selection and live analysis.

Widgets observe a :class:`Document` (its Qt signals) and change the design only through
:meth:`Document.run` (an editing operation from :mod:`planner.edit`) or :meth:`Document.push`
(a planner command). Each planner command is wrapped in one :class:`PlannerUndoCommand`, so one
gesture is one undo step and the window title follows ``QUndoStack.cleanChanged``.

After every change the design is re-analysed off the GUI thread (:mod:`app.background`): the
GUI thread builds only the edit's small delta; worker threads keep replicas of the design and
re-analyse the parts the edit can affect, then check the rules, then (when idle) cross-check
with max flow. Every result carries its revision; results for an older revision are dropped.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QThread, QTimer, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from app.background import BackgroundAnalysis  # (imported with the window, not at its first open: 15 ms)
from planner.analysis import Analysis, analyze
from planner.commands import Command
from planner.incremental import Delta
from planner.io import Project, ProjectError, open_project, save_project
from planner.io.sanfile import ChangedOnDisk
from planner.model import Event, ModelError, Topology
from planner.rules import Finding, check

#: How often the panels showing a design afresh in slices are asked whether they are done (see
#: Document.design_shown), and for how long at most (the lane waits as long:
#: ``app.background.SHOWN_FIRST_S``).
SHOWN_POLL_MS = 5
SHOWN_WAIT_S = 1.0


class PlannerUndoCommand(QUndoCommand):
    """One planner command as one Qt undo step. The command is already applied when pushed.

    A design command acts on the current design (``do(topology)``); a scenario command
    (``on_project=True``) acts on the project (``do(project)``). Scenario changes share the undo
    history with design edits: the history is linear, so each design command is undone while the
    scenario it was made in is current again.
    """

    def __init__(self, doc: Document, cmd: Any, applied: bool = True, on_project: bool = False) -> None:
        super().__init__(cmd.text)
        # weakly: the stack (the document's child) owns its commands, and a command holding
        # the document would close a reference cycle; when the cyclic collector freed such a
        # cycle, Python and ~QUndoStack both deleted the commands (a crash seen in the tests)
        self._doc = weakref.ref(doc)
        self.cmd, self.on_project = cmd, on_project
        self._skip_first_redo = applied

    @property
    def doc(self) -> Document:
        doc = self._doc()
        if doc is None:
            raise RuntimeError(f"{self.text()!r}: its document is gone")
        return doc

    def _run(self, step: Callable[[Any], None]) -> None:
        doc = self.doc
        if self.on_project:
            doc._rescope(lambda: step(doc.project))
        else:
            with doc._batched():
                step(doc.topology)

    def redo(self) -> None:
        if self._skip_first_redo:
            self._skip_first_redo = False
            return
        self._run(self.cmd.do)

    def undo(self) -> None:
        self._run(self.cmd.undo)


def after_repaints(parent: QObject, then: Callable[[], None]) -> None:
    """Run ``then`` on this thread at its next turn, once the events posted so far (the
    windows' repaints too, which Qt posts at low priority and would deliver after) have been
    delivered; nothing if ``parent`` is gone by then. (Posting an event of our own, below the
    repaints' priority, left stale event wrappers behind in PySide: a later receiver at the
    same address came to Python as a ``QEvent``.)"""

    def turn() -> None:
        QCoreApplication.sendPostedEvents()
        then()

    QTimer.singleShot(0, parent, turn)


@dataclass
class AnalysisBundle:
    """Everything the panels show about one revision of the design.

    ``revision`` and ``origin`` (the live :class:`Topology` that was analysed, not the snapshot)
    say which design state it describes: see :meth:`Document.is_current`.
    """

    revision: int
    figures: str
    direction: str
    result: Analysis  # in the chosen direction
    read_mbps: float | None  # None: not analysed yet (the editor analyses the chosen direction first)
    write_mbps: float | None
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0
    origin: Topology | None = field(default=None, repr=False, compare=False)
    checked: bool = True  # False: the rules have not run yet (``findings`` is empty until then)
    canvas: Any = field(default=None, repr=False, compare=False)  # widgets.canvas.figures.CanvasFigures
    binding: list[tuple[str, int]] | None = field(default=None, compare=False)  # planner.analysis.binding_kinds


def compute_bundle(topo: Topology, revision: int, figures: str, direction: str) -> AnalysisBundle:
    """Analyse ``topo`` in both directions (and mixed, when chosen: each workload's read share)
    and check it; the bundle's ``origin`` is ``topo`` (the caller sets it to the live design
    when ``topo`` is a snapshot). The rules of a mixed run use the read analysis."""
    read = analyze(topo, figures, "read", cross_check=False)
    write = analyze(topo, figures, "write", cross_check=False)
    chosen = {"read": read, "write": write}.get(direction) or analyze(topo, figures, direction, cross_check=False)
    ruled = read if direction == "mixed" else chosen
    findings = check(topo, figures, ruled.direction, analysis=ruled)
    return AnalysisBundle(revision, figures, direction, chosen, read.aggregate, write.aggregate, findings, origin=topo)


@dataclass(frozen=True)
class Prepared:
    """A design made ready off the GUI thread before it is shown (by the worker that read it,
    see ``app.opening.prepare``): ``diagram``, its layout as the canvas first shows it (the
    groups ``collapsed`` folded), and ``snapshot``, the background's copy of it, both of
    ``topo`` at ``revision``. Made on the GUI thread as the 32x site was opened, they blocked
    the editor about 100 ms each."""

    topo: Topology
    revision: int
    collapsed: frozenset[str]
    diagram: Any
    snapshot: Topology

    def of(self, topo: Topology) -> bool:
        """Whether it is of ``topo`` as it is now."""
        return self.topo is topo and self.revision == topo.revision


class Document(QObject):
    """The open design. Signals: ``changed`` (any model change), ``modelEvents(list[Event])``
    (a command's events, sent once it is applied, undone or redone; a change outside a command
    is sent as it happens),
    ``edited()`` (a command was applied, undone or redone: all its events are sent),
    ``analysisReady(AnalysisBundle)``, ``selectionChanged(list[str])``, ``pathHighlighted(object)``,
    ``fileStateChanged()``, ``projectReplaced()``, ``scenariosChanged()``, ``message(str)``
    (an error or note for the user), ``crossChecked(CrossCheck)`` (the idle max-flow cross-check
    of the current revision; a disagreement is also sent as ``message``), ``computed(Computed)``
    (a panel's costly computation, :meth:`compute_later`).

    ``analysisReady`` comes twice per revision in the background: first with the analysis
    (``bundle.checked`` False: the canvas recolours at once), then with the rules' findings."""

    changed = Signal()
    edited = Signal()
    #: lists are sent as ``object``, the list itself: a ``Signal(list)`` copies it through Qt's
    #: variants for every slot (a server of the 16x site deleted, 2,800 events to 6 slots: 2 ms;
    #: 55,000 ids: 51 ms). The receivers read them, never change them.
    modelEvents = Signal(object)  # list[Event]
    analysisReady = Signal(object)
    selectionChanged = Signal(object)  # list[str]
    pathHighlighted = Signal(object)
    fileStateChanged = Signal()
    projectReplaced = Signal()
    scenariosChanged = Signal()
    message = Signal(str)
    crossChecked = Signal(object)
    computed = Signal(object)
    layoutReady = Signal(object)  # app.background.LaidOut: a layout asked for with request_layout
    totalsReady = Signal(object)  # the bundle shown, now with both directions' totals
    optionsChanged = Signal()  # the figure set or the direction analysed
    #: the analysis of the revision shown is on the canvas (painted, or no canvas paints it),
    #: or it failed: the side panels redraw what an edit changed after it (see widgets.rack_elevation)
    analysisShown = Signal()

    def __init__(self, parts: dict[str, dict[str, Any]], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.parts = parts
        self.project = Project(Topology("Untitled design"))
        self.path: Path | None = None
        self.untitled = "Untitled"  # the name shown while there is no file (an example's name)
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)
        self.undo_stack.indexChanged.connect(self._on_index_changed)
        self.figures = "planning"
        self.direction = "read"
        self.selection: list[str] = []
        self.analysis: AnalysisBundle | None = None
        # tests may analyse in the GUI thread, the panels following the selection at once, for determinism
        self.synchronous = False
        self.last_refusal = ""  # the reason the last refused edit gave (also sent as ``message``)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)  # after the command: all its events are in
        self._timer.timeout.connect(self._start_analysis)
        self._events: list[Event] = []  # since the last delta sent to the background
        self._batch: list[Event] | None = None  # the events of the command under way (see _batched)
        self._background: Any = None  # app.background.BackgroundAnalysis, made on first use
        self._reset = True  # the background's replicas must start again from the design
        self.cross_check: Any = None  # the last CrossCheck of the design shown
        self._layout_request: tuple | None = None  # (collapsed, positions, diagram shown) for the next job
        self._warm_request: tuple | None = None  # the same and the design, sent with it (see warm_layout)
        self.layout_showing = False  # the canvas is showing a layout in slices (see layout_shown)
        self.analysis_showing = False  # the canvas is painting the analysis sent last in slices (see analysis_shown)
        self.shows_designs = False  # a canvas shows the designs (it calls design_shown)
        # whether each panel that shows a design in slices still does (see showing_check)
        self._showing_checks: list[Callable[[], bool]] = []
        self._shown_poll = QTimer(self)  # (see design_shown)
        self._shown_poll.setInterval(SHOWN_POLL_MS)
        self._shown_poll.timeout.connect(self._poll_shown)
        self._shown_by = 0.0  # when the analysis of a design shown afresh starts in any case
        self._shown_due = False  # a canvas is to say it has shown the design (design_shown)
        self._offered: Prepared | None = None  # its diagram not yet taken (see offer)
        self._offered_snapshot: Prepared | None = None  # its snapshot not yet taken
        self._attach()

    def _on_clean_changed(self, _clean: bool) -> None:
        self.fileStateChanged.emit()

    def _on_index_changed(self, _index: int) -> None:
        self.edited.emit()
        self._schedule()

    # -- the design ----------------------------------------------------------------------------
    @property
    def topology(self) -> Topology:
        return self.project.topology

    def _attach(self) -> None:
        self.topology.subscribe(self._on_event)

    def _detach(self) -> None:
        self.topology.unsubscribe(self._on_event)

    @contextmanager
    def _batched(self) -> Iterator[None]:
        """Send the events of what runs inside as one ``modelEvents``, once it is done: the
        panels' slots were called once per event (a server deleted: 940 events, 6 panels; the
        signal's dispatch alone took about 9 ms), and they handle a batch as a whole."""
        if self._batch is not None:
            yield
            return
        self._batch = []
        try:
            yield
        finally:
            batch, self._batch = self._batch, None
            if batch:
                self.modelEvents.emit(batch)

    def _on_event(self, event: Event) -> None:
        if self._batch is not None:
            self._batch.append(event)
        else:
            self.modelEvents.emit([event])
        if not self.synchronous:
            self._events.append(event)
        if event.type == "removed" and event.id in self.selection:
            self.selection = [s for s in self.selection if s in self.topology and s != event.id]
            self.selectionChanged.emit(list(self.selection))
        if self.synchronous:  # (analysed once the whole command is applied)
            self.changed.emit()
        elif len(self._events) == 1:  # the first event since the last analysis started: the rest of
            self.changed.emit()  # the command come before the event loop turns (a server deleted:
            self._schedule()  # 940 events, 940 emissions)

    def replace_project(self, project: Project, path: Path | None) -> None:
        """Show another project (after New, Open, Revert, restore); the undo history starts anew."""
        self._show(lambda: setattr(self, "project", project))
        self.path = path
        self.undo_stack.setClean()
        self.fileStateChanged.emit()

    def switch_scenario(self, name: str) -> None:
        """Show another scenario of the project, starting a new undo history (the editor switches
        through :meth:`push_project` instead, as an undo step)."""
        self._show(lambda: self.project.switch(name))

    def _show(self, swap: Callable[[], Any]) -> None:
        self._rescope(swap, new_history=True)

    def _rescope(self, swap: Callable[[], Any], new_history: bool = False) -> None:
        """Run ``swap`` (which may replace the project or change its current scenario) and show
        the result afresh; ``new_history`` starts a new undo history."""
        self._detach()
        try:
            swap()
        finally:
            self._attach()
        if new_history:
            self.undo_stack.clear()
        self.selection = []
        self.analysis = None
        self.cross_check = None
        self._reset = True
        self._shown_due = self.shows_designs  # (the background made for it waits too: see _start_analysis)
        self._shown_by = time.perf_counter() + SHOWN_WAIT_S
        if self._background is not None and self.shows_designs:
            self._background.shown_turn.clear()  # (set by design_shown)
        self.projectReplaced.emit()
        self.scenariosChanged.emit()
        self.selectionChanged.emit([])
        self.changed.emit()
        self.fileStateChanged.emit()
        self._schedule(now=True)

    # -- changing it ---------------------------------------------------------------------------
    def run(self, operation: Callable[..., Command], *args: Any, **kwargs: Any) -> Command | None:
        """Apply an editing operation (``planner.edit.*``) as one undo step. A refused edit is
        reported through ``message`` with its reason and changes nothing; returns None then."""
        try:
            with self._batched():
                cmd = operation(self.topology, *args, **kwargs)
        except (ModelError, ProjectError, ValueError, KeyError) as err:
            self.last_refusal = _reason(err)
            self.message.emit(self.last_refusal)
            return None
        self.undo_stack.push(PlannerUndoCommand(self, cmd, applied=True))
        return cmd

    def push_project(self, cmd: Any) -> bool:
        """Apply a scenario command (``do(project)``/``undo(project)``, e.g. add or switch a
        scenario) as one undo step; False (and a message) when refused."""
        try:
            self._rescope(lambda: cmd.do(self.project))
        except (ProjectError, ModelError, ValueError, KeyError) as err:
            self.last_refusal = _reason(err)
            self.message.emit(self.last_refusal)
            return False
        self.undo_stack.push(PlannerUndoCommand(self, cmd, applied=True, on_project=True))
        return True

    def push(self, cmd: Command) -> bool:
        """Apply a planner command as one undo step; False (and a message) when refused."""
        try:
            with self._batched():
                cmd.do(self.topology)
        except (ModelError, ValueError, KeyError) as err:
            self.last_refusal = _reason(err)
            self.message.emit(self.last_refusal)
            return False
        self.undo_stack.push(PlannerUndoCommand(self, cmd, applied=True))
        return True

    # -- selection -----------------------------------------------------------------------------
    def select(self, ids: list[str]) -> None:
        ids = [i for i in dict.fromkeys(ids) if i in self.topology]
        if ids != self.selection:
            self.selection = ids
            self.selectionChanged.emit(list(ids))

    def highlight_path(self, path: Any) -> None:
        self.pathHighlighted.emit(path)

    # -- analysis options ----------------------------------------------------------------------
    def set_figures(self, figures: str) -> None:
        if figures != self.figures:
            self.figures = figures
            self._schedule(now=True)
            self.optionsChanged.emit()

    def set_direction(self, direction: str) -> None:
        if direction != self.direction:
            self.direction = direction
            self._schedule(now=True)
            self.optionsChanged.emit()

    def _schedule(self, now: bool = False) -> None:
        if self.synchronous:
            self._start_analysis()
            return
        self._timer.start(0 if now else self._timer.interval())

    def _start_analysis(self) -> None:
        topo = self.topology
        if self.synchronous:
            self._events.clear()
            self._reset = True  # the background starts afresh if it is used again
            self._done(compute_bundle(topo, topo.revision, self.figures, self.direction))
            return
        bg = self._background
        if bg is None:
            bg = self._background = BackgroundAnalysis(AnalysisBundle, self)
            bg.analysed.connect(self._done)
            bg.checked.connect(self._done)
            bg.crossChecked.connect(self.accept_cross_check)
            bg.computed.connect(self.computed)
            bg.laidOut.connect(self._on_laid_out)
            bg.totalled.connect(self._on_totalled)
            if self._shown_due:  # (a window's first design: its analysis waits for the canvas too)
                bg.shown_turn.clear()
        if self._reset:
            self._reset = False
            self._events.clear()
            bg.reset(self._take_snapshot(), topo, self.figures, self.direction)  # one copy of the design
        delta = Delta.from_events(topo, self._events)  # only what changed: O(edit)
        self._events.clear()
        request, self._layout_request = self._layout_request, None
        warm, self._warm_request = self._warm_request, None
        bg.edit_turn.clear()
        after_repaints(self, bg.edit_turn.set)
        bg.submit(delta, self.figures, self.direction, topo, request, warm)

    def request_layout(self, collapsed: set[str], shown: Any = None) -> bool:
        """Lay the design out in the background with the next analysis (``layoutReady``, before
        the analysis); False when analysing synchronously (the caller lays it out itself).
        ``shown``: the diagram the canvas shows (the layout says what changed against it)."""
        if self.synchronous:
            return False
        self._layout_request = (frozenset(collapsed), dict(self.topology.positions), shown)
        self._schedule()
        return True

    def offer(self, prepared: Prepared) -> None:
        """What a worker made of a design before it is shown (see :class:`Prepared`): the
        canvas takes its diagram (:meth:`take_layout`), the background its snapshot, instead of
        making them on the GUI thread."""
        self._offered, self._offered_snapshot = prepared, prepared

    def take_layout(self, collapsed: set[str]) -> Any:
        """The diagram offered for the design shown at its revision with ``collapsed`` folded,
        once; None when there is none (another design, an edit since, other groups folded)."""
        offered, self._offered = self._offered, None
        if offered is None or not offered.of(self.topology) or offered.collapsed != collapsed:
            return None
        return offered.diagram

    def _take_snapshot(self) -> Topology:
        """A snapshot of the design shown for the background: the one offered, else made now."""
        offered, self._offered_snapshot = self._offered_snapshot, None
        if offered is not None and offered.of(self.topology):
            return offered.snapshot
        return self.topology.snapshot()

    def warm_layout(self, collapsed: set[str], shown: Any) -> None:
        """The canvas laid ``shown`` out itself: the background lays it out again once idle, to
        have its layout memo ready for the next edit (:meth:`BackgroundAnalysis.warm`), and
        sends it back (``layoutReady``, ``warm`` set). Sent with the next analysis if one is
        due (a design just opened); nothing when analysing synchronously."""
        if self.synchronous:
            return
        request = (frozenset(collapsed), dict(self.topology.positions), shown, self.topology)
        if self._background is None or self._reset or self._timer.isActive():
            self._warm_request = request
        else:
            self._background.warm(request)

    def _on_laid_out(self, result: Any) -> None:
        try:
            if isinstance(result, Exception):
                self.message.emit(f"layout failed in the background: {result}; laid out here instead")
            elif result.origin is not self.topology:
                return
            self.layoutReady.emit(result)
        finally:
            if self._background is not None and not self.layout_showing:  # else: see layout_shown
                QTimer.singleShot(0, self._background.gui_turn.set)

    def showing_check(self, busy: Callable[[], bool]) -> None:
        """A panel that shows a design afresh in slices (the racks drawn, the outline filled)
        says through ``busy()`` whether it still does: the analysis of a design shown afresh
        waits for them as for the canvas (see :meth:`design_shown`)."""
        self._showing_checks.append(busy)

    def design_shown(self) -> None:
        """The canvas has made the items of a design shown afresh: its analysis may start once
        the panels showing it in slices are done too (:meth:`showing_check`, looked at every
        :data:`SHOWN_POLL_MS`), at most :data:`app.background.SHOWN_FIRST_S` after the canvas
        began. The lanes and the GUI thread would otherwise take turns at the interpreter: Qt
        waits for it at each call of a Python wrapper, and the racks' and the outline's slices
        ran 5-6 times slower beside a lane (a scenario of the 16x site shown: 30-39 ms turns)."""
        if not self._shown_due:
            return
        if any(busy() for busy in self._showing_checks):
            self._shown_poll.start()
        else:
            self._let_analyse_shown()

    def _poll_shown(self) -> None:
        if time.perf_counter() >= self._shown_by or not any(busy() for busy in self._showing_checks):
            self._let_analyse_shown()

    def _let_analyse_shown(self) -> None:
        self._shown_poll.stop()
        self._shown_due = False
        if self._background is not None:
            self._background.shown_turn.set()

    def layout_shown(self) -> None:
        """The canvas has placed the items of the layout sent last, in slices (it set
        :attr:`layout_showing` meanwhile): the analysis lane, waiting for it (at most
        ``LAYOUT_FIRST_S``), goes on."""
        self.layout_showing = False
        if self._background is not None:
            QTimer.singleShot(0, self._background.gui_turn.set)

    def _on_totalled(self, done: Any) -> None:
        """Both directions' totals of the revision shown (``analysed`` sent the chosen one
        first): completed in the bundle shown, and ``totalsReady``."""
        a = self.analysis
        if a is None or not self.is_current(done) or a.revision != done.revision or a.origin is not done.origin:
            return
        a.read_mbps, a.write_mbps = done.read_mbps, done.write_mbps
        self.totalsReady.emit(a)

    def _done(self, bundle: Any) -> None:
        try:
            if isinstance(bundle, Exception):
                self.message.emit(f"analysis failed: {bundle}; the design is unchanged")
                return
            if not self.is_current(bundle):
                return  # stale: a newer revision is on its way
            self.analysis = bundle
            self.analysis_showing = False
            self.analysisReady.emit(bundle)  # the canvas starts painting it
        finally:
            if self._background is not None and not self.analysis_showing:  # else: see analysis_shown
                self._background.gui_turn.set()  # the analysis lane goes on (see GUI_FIRST_S)
            if not self.analysis_showing and (isinstance(bundle, Exception) or self.is_current(bundle)):
                self.analysisShown.emit()

    def analysis_shown(self) -> None:
        """The canvas has painted the analysis sent last, in slices (it set
        :attr:`analysis_showing` meanwhile), or given it up for a newer one: the analysis lane,
        waiting for it (at most ``GUI_FIRST_S``), analyses the other direction."""
        self.analysis_showing = False
        if self._background is not None:
            self._background.gui_turn.set()
        self.analysisShown.emit()

    def accept_cross_check(self, result: Any) -> None:
        """Keep and announce a max-flow cross-check (:class:`app.background.CrossCheck`) if it is
        of the revision, figures and direction shown now; a stale one is dropped."""
        a = self.analysis
        if a is None or not self.is_current(a) or result.origin is not a.origin or result.revision != a.revision:
            return  # superseded by an edit
        if (result.figures, result.direction) != (a.figures, a.direction):
            return
        self.cross_check = result
        self.crossChecked.emit(result)
        if not result.agrees:
            self.message.emit(
                f"max-flow cross-check disagrees: the analysis carries {result.aggregate:,.1f} MB/s but the "
                f"network's max flow is {result.max_flow:,.1f} MB/s (min cut: {', '.join(result.min_cut[:4])}); "
                "please report the design"
            )

    def compute_later(self, key: str, work: Callable[[Topology, Callable[[float], None]], Any]) -> None:
        """Run ``work(design, progress)`` off the GUI thread, on the background's copy of the
        design at the current revision, and send ``computed``
        (:class:`app.background.Computed`: key, revision, design, result or Exception; for
        costly panels: the scaling curve). An edit stops it; the panel asks
        again for the new revision. In synchronous mode (tests) it runs here, at once."""
        topo = self.topology
        if self.synchronous:
            from app.background import Computed

            try:
                result = work(topo, lambda _fraction: None)
            except Exception as err:  # noqa: BLE001 - handed to the panel, which reports it
                result = err
            self.computed.emit(Computed(key, topo.revision, topo, result))
            return
        if self._background is None or self._timer.isActive():
            self._start_analysis()  # the background's copy must exist and catch up first
        self._background.compute(key, work, topo.revision, topo)

    def background_busy(self) -> bool:
        """Whether an analysis is scheduled, queued or running."""
        bg = self._background
        return self._timer.isActive() or (bg is not None and bg.busy())

    def is_current(self, bundle: AnalysisBundle | None) -> bool:
        """Whether ``bundle`` describes the design as it is now: the same scenario's design at the
        same revision, with the chosen figures and direction. A stale result is never shown."""
        topo = self.topology
        return (
            bundle is not None
            and bundle.origin is topo
            and bundle.revision == topo.revision
            and bundle.figures == self.figures
            and bundle.direction == self.direction
        )

    def wait_for_analysis(self, timeout_ms: int = 5000) -> AnalysisBundle | None:
        """Block (processing events) until the current revision is analysed (tests, exports)."""
        from PySide6.QtCore import QCoreApplication, QDeadlineTimer

        deadline = QDeadlineTimer(timeout_ms)
        while not deadline.hasExpired():
            a = self.analysis
            if self.is_current(a) and a.checked and not self._timer.isActive():
                return a
            QCoreApplication.processEvents()
            QThread.msleep(2)
        return None

    # -- files ---------------------------------------------------------------------------------
    def is_clean(self) -> bool:
        return self.undo_stack.isClean()

    def title(self) -> str:
        name = self.path.name if self.path else self.untitled
        scen = f" [{self.project.current}]" if len(self.project.scenarios) > 1 else ""
        return f"{name}{scen}"

    def open(self, path: str | Path) -> bool:
        try:
            project = open_project(path)
        except ProjectError as err:
            self.message.emit(str(err))
            return False
        self.replace_project(project, Path(path))
        return True

    def save(self, path: str | Path | None = None, message: str = "", force: bool = False, runner: Any = None) -> bool:
        """Save to ``path`` (default: the file it came from). False with a message when refused;
        ``self.changed_on_disk`` is then True if the file was saved elsewhere since it was opened
        (save again with ``force`` once the user confirmed). ``runner``: runs the save (a job
        taking a progress callback) in a worker and returns what it returns, errors raised
        again (the window's: ``app.opening.saving``); None: here."""
        target = Path(path) if path else self.path
        self.changed_on_disk = False
        if target is None:
            self.message.emit("choose a file name first (Save As)")
            return False
        project, worker = self.project, runner is not None

        def job(progress: Any) -> None:
            save_project(project, target, message=message, force=force, stepwise=worker)

        try:
            if worker:
                runner(job)
            else:
                job(None)
        except ChangedOnDisk as err:
            self.changed_on_disk = True
            self.message.emit(str(err))
            return False
        except ProjectError as err:
            self.message.emit(str(err))
            return False
        self.path = target
        self.undo_stack.setClean()
        self.fileStateChanged.emit()
        return True


def _reason(err: BaseException) -> str:
    text = str(err)
    if isinstance(err, KeyError) and err.args:
        text = str(err.args[0])
    return text.strip("'\"") or type(err).__name__
