"""The analysis painted on the canvas's items, a slice at a time (a mixin of
:class:`widgets.canvas.scene.DiagramScene`).

An analysis repaints the boxes whose figures changed and the links at them, in slices of
:data:`PAINT_SLICE_S` with the views held still (each view's repaint cost more than a slice);
the views show the progress at most every :data:`VIEW_REFRESH_S`, and before they are let
paint, what their paint needs is made in the slices too (see
:meth:`widgets.canvas.morph.Morphing._prepare_views`): zoomed far out on the 16x site expanded,
each refresh gathered thousands of boxes and drew the overview's picture in one paint, 120-190 ms.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from widgets import slice_budget
from widgets.canvas.figures import busiest, link_util, tip_lines, top_and_binds
from widgets.canvas.items import BoxItem, LinkItem

if TYPE_CHECKING:
    from planner.analysis import Analysis
    from planner.model import Topology

#: an analysis is painted in slices of about this long, the event loop running between them
PAINT_SLICE_S = 0.006
#: (what :meth:`Painting._release_held` holds once the views' paint is prepared)
_MADE: tuple = ()
#: while an analysis takes several slices, the views show its progress at most this often (each
#: slice repainting the view cost more than the slice itself: on the 16x site's overview the
#: first edit after opening took 52 slices and 52 repaints of 10 ms, 0.8 s instead of 0.2 s)
VIEW_REFRESH_S = 0.25
#: which links are at each box is worked out this many links per step
LINKS_PER_STEP = 512


@dataclass
class PaintJob:
    """An analysis being painted: the boxes and links still to do (in order; ``next_box`` and
    ``next_link`` mark how far it got). Links in ``links`` are restyled whatever their figure
    (a full paint); the links at a painted box only when their figure changed."""

    bundle: Any
    boxes: list[str]
    links: list[LinkItem]  # of the scene's links
    group_load: dict[str, float]
    binds: dict[str, int]
    next_box: int = 0
    next_link: int = 0
    collecting: Any = None  # which box shows each component, before any is painted
    preparing: Any = None  # what the views need before they show it (see Painting._show_progress)
    prepared: bool = False
    restyled: bool = False  # links restyled: their tiles are gathered before the views paint
    #: the links at the boxes painted so far whose figure was worked out (once a job: a link
    #: between two boxes painted was worked out twice, 4 of a figure switch's 8 ms on the 16x site)
    seen_links: set[int] = field(default_factory=set)

    def rest(self) -> tuple[list[str], list[LinkItem]]:
        return self.boxes[self.next_box :], self.links[self.next_link :]


class Painting:
    """The painting part of the diagram scene (see the module docstring)."""

    @slice_budget.counted
    def _paint_slice(self: Any) -> None:
        """Paint the next boxes (and the links at them) of the analysis being painted, for about
        :data:`PAINT_SLICE_S`; go on at the next turn of the event loop. A result that is no
        longer current stops (the newer one takes over the rest)."""
        job = self._job
        if job is None or job.bundle.origin is not self.shown_topology or not self.doc.is_current(job.bundle):
            self._let_views_paint()
            self._tell_shown()  # (given up: a newer result is on its way)
            return
        if job.preparing is not None:  # the views are to show the progress, or the end
            self._show_progress(job)
            return
        budget = None if self.doc.synchronous else slice_budget.until(PAINT_SLICE_S, first=True)
        if not self._collected(job, budget):
            return
        assert self.diagram is not None
        result = job.bundle.result

        def spent() -> bool:  # one box or link at least per slice
            return budget is not None and time.perf_counter() >= budget

        painted, restyled = self._paint_boxes(job, spent)
        first = job.next_link
        while job.next_link < len(job.links) and not ((painted or job.next_link > first) and spent()):
            li = job.links[job.next_link]
            job.next_link += 1
            li.util = self._link_util(li, result)
            if li.restyle():  # (in the same band as before it draws the same)
                restyled.append(li)
        self._overview_changed(painted, restyled)
        job.restyled = job.restyled or bool(restyled)
        more = job.next_box < len(job.boxes) or job.next_link < len(job.links)
        if not more and (budget is None or not (self._held or job.restyled)):
            self._let_views_paint()
            self._painted(job)
            return
        if not self._held:  # (links restyled: their tiles are gathered again before a paint)
            self._hold_views()
        if not more or time.perf_counter() - self._held_at >= VIEW_REFRESH_S:
            job.preparing = self._view_preparations()  # then shown (held again after the next slice)
        self.sliced.emit()  # (texts and tips of thousands of boxes made: see app.gui_gc)
        self._slice_timer.start()

    def _paint_boxes(self: Any, job: PaintJob, spent: Callable[[], bool]) -> tuple[list[str], list[LinkItem]]:
        """Paint the next boxes of ``job`` and the links at them whose figure changed, until
        ``spent()`` (one box at least): the boxes painted (ids) and the links restyled."""
        topo, result, members = self.doc.topology, job.bundle.result, self._members or {}
        fig = getattr(job.bundle, "canvas", None)  # (what the boxes are painted with, if worked out while idle)
        ready = fig is not None and fig.tops is not None and fig.of is self.diagram
        tops, known = (fig.tops, fig.cable_utils) if ready else ({}, None)
        painted: list[str] = []
        restyled: list[LinkItem] = []
        links_at = self._links_by_box()
        due: list[BoxItem] = []  # (woken when idle: see _paint_box)
        seen = job.seen_links
        while job.next_box < len(job.boxes) and not (painted and spent()):
            cid = job.boxes[job.next_box]
            job.next_box += 1
            item = self.items_by_id.get(cid)
            if item is None:
                continue
            if self._paint_box(item, result, topo, members.get(cid, ()), job.group_load, job.binds, tops.get(cid)):
                due.append(item)
            painted.append(cid)
            for li in links_at.get(cid, ()):
                if id(li) in seen:
                    continue
                seen.add(id(li))
                util = self._link_util(li, result, known)
                if util != li.util:
                    li.util = util
                    if li.restyle():
                        restyled.append(li)
        if due:  # (one look at the idle timer, not one a box: 763 boxes after a server deleted)
            self._asleep += due
            self.idle_later()
        return painted, restyled

    def paint_analysis_soon(self: Any) -> None:
        """Paint the document's analysis on the next turn of the event loop (at once when
        analysing synchronously): the items were just changed, the views are about to paint."""
        if self.doc.synchronous:
            self._paint_analysis_now()
        else:
            self._paint_soon_timer.start()  # (a timer: a zero single shot is a posted event, run before the timers due)

    #: the analysis is applied in a turn of its own (after a morph): its first slice is painted
    #: in it (within the turn's budget: widgets.slice_budget), not a turn later (1-2 ms an edit)
    _first_slice_now = False

    def _paint_analysis_now(self: Any) -> None:
        if self.doc.analysis is not None:
            self._first_slice_now = True
            try:
                self.apply_analysis(self.doc.analysis)
            finally:
                self._first_slice_now = False

    def _collected(self: Any, job: PaintJob, budget: float | None) -> bool:
        """Which box shows each component, first (False: the next slice goes on with it)."""
        if job.collecting is not None:
            for _ in job.collecting:
                if budget is not None and time.perf_counter() >= budget:
                    if not self._held:
                        self._hold_views()
                    self._slice_timer.start()
                    return False
            job.collecting = None
        return True

    def _show_progress(self: Any, job: PaintJob) -> None:
        """A slice of making what the held views' paint needs; once made, let them paint on the
        next turn, then go on painting (or be done)."""
        if not job.prepared:
            job.prepared = self._prepare_views(job, time.perf_counter() + PAINT_SLICE_S)
            self._slice_timer.start()
            return
        job.preparing, job.prepared = None, False
        self._let_views_paint()
        if job.next_box < len(job.boxes) or job.next_link < len(job.links):
            self._slice_timer.start()
            return
        self._painted(job)

    def _painted(self: Any, job: PaintJob) -> None:
        """``job`` is painted and shown."""
        self._job = None
        self.painted_revision = job.bundle.revision
        self._tell_shown()

    def _tell_shown(self: Any) -> None:
        """The analysis lane, waiting while an analysis is painted in slices (the other
        direction would take turns with the slices at the interpreter), goes on."""
        if getattr(self.doc, "analysis_showing", False):
            self.doc.analysis_shown()

    def _hold_views(self: Any) -> None:
        """Stop the views repainting what the slices change (see :data:`VIEW_REFRESH_S`). Held
        before the items change: Qt still paints what was marked for repainting before (the
        benchmark expanded, its server deleted: the scene's new rectangle, set as the morph
        began, had the view paint in the morph's second turn, the tiles of its links and
        summaries cut and gathered in that paint, 25-40 ms)."""
        views = self.views() + (self.overview_scene.views() if self.overview is not None else [])
        self._held = [v.viewport() for v in views if v.viewport().updatesEnabled()]
        for vp in self._held:
            vp.setUpdatesEnabled(False)
        self._held_at = time.perf_counter()

    def _release_held(self: Any) -> None:
        """Let the views held after a morph paint (see :meth:`Morphing._morphed`), once what
        they need is made, in slices; nothing when a paint or a change of the items under way
        will."""
        if not self._held or self._job is not None or self._morphing is not None or self._build is not None:
            self._releasing = None
            return
        if self._releasing is None:
            self._releasing = self._view_preparations()
        until = time.perf_counter() + PAINT_SLICE_S
        if self._releasing is not _MADE:
            for _ in self._releasing:
                if time.perf_counter() >= until:
                    self._release_timer.start()
                    return
            if time.perf_counter() >= until:  # the views' repaint (2-3 ms) on a turn of its own:
                self._releasing = _MADE  # Select All's release on the 16x site was one turn of
                self._release_timer.start()  # 9-12 ms (its slice, a stripe drawn, the repaint)
                return
        self._let_views_paint()

    def _let_views_paint(self: Any) -> None:
        """Let the held views repaint (all of their viewport, once)."""
        self._releasing = None
        held, self._held = self._held, []
        for vp in held:
            vp.setUpdatesEnabled(True)
            vp.repaint()

    def _links_by_box(self: Any) -> dict[str, list[LinkItem]]:
        """Box id -> the links at it (kept by a morph: see Morphing._morphed)."""
        if self._links_at is None:
            for _ in self._collecting_links():
                pass
        return self._links_at

    def _collecting_links(self: Any) -> Iterator[None]:
        """:meth:`_links_by_box` made a few hundred links at a time (the 16x site's 11,000 links
        took 10-20 ms, the first paint slice after each edit that moved boxes)."""
        at: dict[str, list[LinkItem]] = {}
        for i, li in enumerate(self.links):
            at.setdefault(li.a.cid, []).append(li)
            if li.b.cid != li.a.cid:
                at.setdefault(li.b.cid, []).append(li)
            if i % LINKS_PER_STEP == LINKS_PER_STEP - 1:
                yield
        self._links_at = at

    def _paint_box(
        self: Any, item: BoxItem, result: Analysis, topo: Topology, members, group_load, binds, top=None
    ) -> bool:
        """Paint ``item`` with ``result``; True when its figure is to be placed once the canvas
        is idle (zoomed far out: see BoxItem.set_figure), for the caller to have it woken.
        ``top``: its (highest utilization, paths bound), if worked out (``CanvasFigures.tops``)."""
        cid = item.cid
        own = result.components.get(cid)
        pct = f"{(own.utilization or 0) * 100:.0f}\u00a0%" if own is not None and own.capacity else ""
        far = self.far  # (no item drawn: its texts placed when the item is woken)
        due = False
        if item.box.collapsed and cid in group_load:
            first = item.box.label.split("\n")[1] + ", " if "\n" in item.box.label else ""
            load = f"{group_load[cid]:,.0f} MB/s"
            if pct:
                full = f"{first}{own.load:,.0f} / {own.capacity:,.0f} MB/s, {pct}"
                texts: tuple[str, ...] = (full, f"{first}{load}, {pct}", f"{load}, {pct}", f"{first}{load}")
            else:
                texts = (f"{first}{load}",)
            if self._subtexts.get(cid) != texts:  # wrapping and eliding cost: only for a new text
                self._subtexts[cid] = texts
                due = item.set_subtext(*texts, later=far)
        if pct and not item.box.collapsed:
            due = item.set_figure(f"{own.load:,.0f} / {own.capacity:,.0f} MB/s, {pct}", pct, far) or due
        else:
            due = item.set_figure("", "", far) or due
        # (its tooltip made when asked for: see analysis_tip)
        item.set_analysis(*(top if top is not None else top_and_binds(result, members, binds)))
        return due

    def analysis_tip(self: Any, item: BoxItem) -> str:
        """The tooltip of a box painted with the analysis shown: its own line, its parts' loads
        (the first TIP_LINES with a capacity, labelled) and the paths it binds. Made when Qt
        asks for it (:meth:`BoxItem.toolTip`), not on every paint: labelling every box's members
        took 40-50 ms of the paint after a figure set switched on the 16x site, and a maker kept
        per box (a closure and its loads) made a full expand of it 10 % slower (the collector
        walked 44,864 of them)."""
        result, fig = self._shown, self._figures
        if result is None or fig is None:
            return item.base_tip()
        _, nb, shown, more = busiest(result, (self._members or {}).get(item.cid, ()), fig.binds)
        lines = [item.base_tip(), *tip_lines(self.doc.topology, shown, more)]
        if nb:
            lines.append(f"binds {nb} path{'s' if nb != 1 else ''}")
        return "\n".join(lines)

    def _link_util(self: Any, li: LinkItem, result: Analysis, known: dict | None = None) -> float | None:
        """The utilization ``li`` is coloured by (see ``figures.link_util``); ``known``: the
        cables' worked out while idle (``CanvasFigures.cable_utils``)."""
        if known is not None and li.cid in known and li.link.kind == "cable":
            return known[li.cid]
        return link_util(self.doc.topology, result, li.link.kind, li.cid, li.b.cid)
