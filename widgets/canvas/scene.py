"""The canvas scene: the layout of :func:`planner.layout.layout` drawn as :class:`BoxItem`s and
:class:`LinkItem`s, coloured by the latest analysis.

The scene observes the document per event: structural changes (a component added or removed,
moved to another parent, a reference attribute that draws a link, a box moved) lay the diagram
out again; an attribute or name edit only relabels the items whose text changed (no item is
created, moved or removed). Model events are gathered until the command that sent them is
complete (``Document.edited``), so one gesture refreshes the canvas once.

An analysis result is painted only when it was computed on the design revision the scene shows
(``Document.is_current``); a late result for an older revision is ignored.

The scene never changes the model: intent goes out through its signals
(``boxesMoved(dict id -> (x, y))``, ``dropPart(part_id, target_id or '', QPointF)``,
``cableRequested(port_a, port_b)``, ``hbaMoveRequested(hba, slot)``, ``deleteRequested(list[str])``,
``duplicateRequested(list[str])``)
and the controller (:mod:`app.controller`) turns it into commands.
"""

from __future__ import annotations

import itertools
import time
import weakref
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPointF, QRectF, QTimer, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QGraphicsScene
from shiboken6 import isValid

from planner.layout import COLLAPSIBLE, Diagram, alias_changes, box_text, default_collapsed, layout, same_geometry
from planner.schema import KINDS
from widgets import slice_budget
from widgets.canvas.building import ItemBuild
from widgets.canvas.detail import Detailing
from widgets.canvas.figures import CanvasFigures, canvas_figures, changed_components
from widgets.canvas.grave import Grave
from widgets.canvas.items import BoxItem, LinkItem
from widgets.canvas.lookups import ToolLookups
from widgets.canvas.morph import Morph, Morphing, index_now, link_spans
from widgets.canvas.overview import FAR_SCALE, OverviewItem, overview_scene
from widgets.canvas.painting import Painting, PaintJob
from widgets.canvas.spare import Spare

if TYPE_CHECKING:
    from planner.analysis import Analysis
    from planner.model import Event, Topology


def is_structural(topo: Topology, event: Event) -> bool:
    """Whether a model event changes the diagram's shape (boxes, links, positions), not only text."""
    if event.type in ("added", "removed", "layout"):
        return True
    if event.type != "changed" or event.key in ("name", "part"):
        return False
    if event.key == "parent":
        return True
    comp = topo.get(event.id)
    attr = KINDS[comp.kind].attrs.get(event.key) if comp is not None else None
    return attr is None or bool(attr.ref)  # references draw links and order the storage column


#: attributes whose change can move boxes although they draw no link (a drive's bay, a part's bays)
_GEOMETRY_KEYS = frozenset({"name", "part", "bay"})
#: items made from nothing (a design opened, everything expanded) in slices of about this long
BUILD_SLICE_S = 0.008
#: the first slice of a build waits this long, so not in the pass of the event loop that began
#: it: a 0 ms timer was due when that pass (a scenario shown: every panel replacing what it
#: shows, 6-10 ms on the benchmark) went on to its timers, and its 8 ms ran in the same pass
FIRST_BUILD_AFTER_MS = 2
#: a selection changing more boxes than this far out has the overview gather and draw them in
#: slices before the views paint (Select All on the 16x site: 1,150 boxes, 18-26 ms in one paint)
SELECTION_AT_ONCE = 100


class DiagramScene(Painting, Morphing, Detailing, ToolLookups, QGraphicsScene):
    """Scene of one design (see the module docstring for its signals and events)."""

    boxesMoved = Signal(object)  # dict (see Document.modelEvents)
    dropPart = Signal(str, str, QPointF)
    cableRequested = Signal(str, str)
    deleteRequested = Signal(object)  # list[str]
    duplicateRequested = Signal(object)  # list[str]
    hbaMoveRequested = Signal(str, str)  # hba id, slot id
    collapseChanged = Signal()
    rebuilt = Signal()  # the items were made again (many long-lived objects: see app.gui_gc)
    building = Signal(int, int)  # boxes made, of how many (items made again a slice at a time)
    #: a slice of a build or of an analysis painted done (many long-lived objects made: see app.gui_gc)
    sliced = Signal()

    _spare: Spare | None  # the items the last morph dropped, for the next (see widgets.canvas.spare)

    def __init__(self, doc, parent=None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.collapsed: set[str] | None = None  # None: the layout's default for the design
        self.items_by_id: dict[str, BoxItem] = {}
        self.links: list[LinkItem] = []
        self.link_spans: tuple | None = None  # where each band's links stand in them (see morph.link_spans)
        self.diagram: Diagram | None = None
        self.shown_topology: Topology | None = None  # the design the items were built from
        self._selected_cells: set[BoxItem] = set()  # drive bays selected (their enclosure draws them)
        self.chosen_path: Any = None  # the path highlighted (from the paths table)
        self.low_detail: tuple[bool, float] = (False, 1.0)  # summary boxes when zoomed far out
        self.painted_revision: int | None = None  # the design revision of the analysis shown
        self._ports: dict[str, list[str]] | None = None  # box id -> the ports it shows (cable ends)
        self.overview: OverviewItem | None = None  # the whole diagram as one item, zoomed far out
        self.overview_scene: QGraphicsScene | None = None  # the scene the view shows then
        self.far = False  # zoomed far out: the view shows the overview (see widgets.canvas.overview)
        self._detail_due = False  # the items' detail is not of low_detail (set when back from far)
        self._syncing = False
        self._pending = ""  # "", "local", "relabel" or "relayout": what the events since the last refresh need
        self._touched: set[str] = set()  # components changed by "local" events (their boxes are relabelled)
        self._shown: Any = None  # the Analysis painted now
        self._members: dict[str, list[str]] | None = None  # box id -> the components it shows
        self._member_set: set[str] = set()
        self._dirty_boxes: set[str] = set()  # relabelled since the last paint: repaint their figures
        self._figures: CanvasFigures | None = None  # the figures of the analysis painted
        self._job: PaintJob | None = None  # the analysis being painted, slice by slice
        self._slice_timer = _next_turn(self, self._paint_slice)
        self.generation = 0  # counts the changes of items (made again or morphed)
        self._held, self._held_at = [], 0.0  # the views' viewports held still while slices are painted, since
        self._releasing: Iterator[None] | None = None  # the held views' preparations (see _release_held)
        self._links_at: dict[str, list[LinkItem]] | None = None  # box id -> the links at it
        self._subtexts: dict[str, tuple[str, ...]] = {}  # box id -> the load texts it was given
        self._regrouped: set[str] = set()  # boxes whose members changed in a relabel (sorted again)
        self._overview_selected: set[str] = set()  # boxes the overview drew as selected
        self._layout_asked: int | None = None  # the revision a background layout was asked for
        self._relabelled_here: set[str] = set()  # boxes relabel_local changed in the diagram shown
        self._build: ItemBuild | None = None  # the items being made (see widgets.canvas.building)
        self._grave, self._spare = Grave(), None  # what a build dropped, freed in its slices; see _spare
        self._build_timer = _next_turn(self, self._build_slice)
        self._morphing: Morph | None = None  # the morph under way (see widgets.canvas.morph)
        self._morph_timer = _next_turn(self, self._morph_slice)
        self._asleep: list[BoxItem] = []  # boxes made asleep, to wake (see Morphing.wake_later)
        self._wake_timer = _next_turn(self, self._wake_slice)
        self._flush_timer = _next_turn(self, self.flush)
        self._paint_soon_timer = _next_turn(self, self._paint_analysis_now)
        self._release_timer = _next_turn(self, self._release_held)
        self._hold_timer = _next_turn(self, self._release_held)  # (started with the hold's length)
        self.setBackgroundBrush(QApplication.palette().color(QPalette.ColorRole.Base))
        self.selectionChanged.connect(_selection_handler(self))
        doc.selectionChanged.connect(self.show_selection)
        doc.analysisReady.connect(self.apply_analysis)
        doc.pathHighlighted.connect(self.highlight_path)
        doc.projectReplaced.connect(self._reset_collapse)
        doc.modelEvents.connect(self._on_model_events)
        if hasattr(doc, "edited"):
            doc.edited.connect(self.flush)
        if hasattr(doc, "layoutReady"):
            doc.layoutReady.connect(self._show_layout)
            doc.shows_designs = True  # (its analysis waits for design_shown: see _build_slice)

    # -- model events ---------------------------------------------------------------------------
    def helpEvent(self, event: Any) -> None:  # noqa: N802 (Qt override)
        """A box's analysis tooltip is made when it is asked for (:meth:`BoxItem.toolTip`):
        make those of the boxes under the pointer, then let Qt show the topmost."""
        for item in self.items(event.scenePos()):
            if isinstance(item, BoxItem):
                item.toolTip()
        super().helpEvent(event)

    def _on_model_events(self, events: list[Event]) -> None:
        shown = False
        for event in events:
            if event.type in ("meta", "parts"):
                continue  # the diagram shows neither the design's metadata nor part figures
            shown = True
            if self._pending == "relayout":
                break  # (the rest cannot change what is due)
            self._note(event)
        if shown:
            self._flush_timer.start()  # changes outside a command (fixtures) are shown on the next loop

    def _note(self, event: Event) -> None:
        if is_structural(self.doc.topology, event):
            self._pending = "relayout"
        elif event.key in _GEOMETRY_KEYS:
            self._pending = self._pending if self._pending == "relayout" else "relabel"
        elif not self._pending or self._pending == "local":
            self._pending = "local"  # an attribute: only the boxes near it change their text
            self._touched.add(event.id)

    def flush(self) -> None:
        """Show the changes gathered since the last refresh: relayout or relabel, or nothing."""
        self._flush_timer.stop()
        pending, self._pending = self._pending, ""
        touched, self._touched = self._touched, set()
        if pending in ("relayout", "relabel") and self._request_layout():
            return  # laid out in the background: shown by _show_layout
        if pending == "relayout":
            self.rebuild()
        elif pending == "relabel":
            self.relabel()
        elif pending == "local":
            self.relabel_local(touched)

    def relabel_local(self, ids: Iterable[str]) -> None:
        """After an attribute edit that moves nothing: refresh the text of the boxes of ``ids``
        and of their neighbours (parent, children, references), without a layout."""
        self.finish_morph()
        d, topo = self.diagram, self.doc.topology
        if d is None:
            return
        near: set[str] = set()
        for cid in ids:
            comp = topo.get(cid)
            if comp is None:
                continue
            near.add(cid)
            near.update(c.id for c in topo.children(cid))
            near.update(r.id for r, _ in topo.referrers(cid))
            for name, spec in KINDS[comp.kind].attrs.items():
                if spec.ref:
                    value = comp.attrs.get(name)
                    near.update(v for v in (value if spec.many else (value,)) or () if v)
            if comp.parent:
                near.add(comp.parent)
        for cid in near:
            box = d.boxes.get(cid)
            if box is None or cid not in topo:
                continue
            label, tip = box_text(topo, d, cid)
            if (label, tip) != (box.label, box.tip):
                new = replace(box, label=label, tip=tip)
                d.boxes[cid] = new
                self._relabelled_here.add(cid)
                if cid in self.items_by_id:  # (else made later, from the box as it is then)
                    self.items_by_id[cid].set_label(new)
                self._subtexts.pop(cid, None)
                self._dirty_boxes.add(cid)

    # -- building ---------------------------------------------------------------------------
    def _reset_collapse(self) -> None:
        self.collapsed = None
        self._pending = ""
        self.rebuild(force=True)

    def _collapsed_now(self) -> set[str]:
        """The groups folded now: those of :attr:`collapsed` in the design. A group deleted
        stays in :attr:`collapsed`, so that an undo brings it back folded (a server of the 16x
        site folded with all the others came back open: its 361 boxes made, the diagram a third
        taller and wider, every box beside it and below moved)."""
        topo = self.doc.topology
        if self.collapsed is None:
            self.collapsed = default_collapsed(topo)
        return {c for c in self.collapsed if c in topo}

    def _layout(self) -> Diagram:
        """The design laid out as shown now: the layout offered by the worker that read it
        (``Document.offer``, ``take_layout``) when it is of this design and these groups folded, else
        laid out here."""
        collapsed = self._collapsed_now()
        take = getattr(self.doc, "take_layout", None)
        offered = take(collapsed) if take is not None else None
        return offered if offered is not None else layout(self.doc.topology, collapsed, editor=True)

    def _request_layout(self) -> bool:
        """Ask the document to lay the design out off the GUI thread (False: it cannot; lay it
        out here). Until the layout comes the canvas shows the diagram before the edit, and the
        analyses wait for it."""
        request = getattr(self.doc, "request_layout", None)
        if self.diagram is None or request is None or not request(self._collapsed_now(), self.diagram):
            return False
        self._layout_asked = self.doc.topology.revision
        return True

    def _show_layout(self, laid: Any) -> None:
        """A layout made in the background: show it if it is of the design and collapse state
        shown now, else ask again (an edit that moved nothing came after it)."""
        topo = self.doc.topology
        self.finish_morph()
        if getattr(laid, "warm", False):  # the background's copy of the diagram shown: adopt it
            if (self._layout_asked is None and self._build is None and laid.since is self.diagram and laid.same
                    and laid.origin is topo and laid.revision == topo.revision
                    and laid.collapsed == frozenset(self._collapsed_now())):  # fmt: skip
                self._relabel(laid.diagram, laid.moved, laid.relabelled)
            return
        if self._layout_asked is None:
            return  # laid out here since (a collapse, a reset)
        if isinstance(laid, Exception):
            self.rebuild()
            return
        if laid.origin is not topo or laid.revision < self._layout_asked:
            return  # a newer one is on its way
        if laid.revision != topo.revision or laid.collapsed != frozenset(self._collapsed_now()):
            self._request_layout()
            return
        if laid.since is self.diagram:  # compared with the diagram shown in the background
            worked = {"moved": laid.moved, "same": laid.same, "relabelled": laid.relabelled, "kept": laid.kept}
            worked["changed"] = laid.changed
            self.rebuild(diagram=laid.diagram, **worked)
        else:
            self.rebuild(diagram=laid.diagram)

    def rebuild(
        self,
        force: bool = False,
        diagram: Diagram | None = None,
        moved: list[str] | None = None,
        same: bool | None = None,
        relabelled: list[str] | None = None,
        kept: set[str] | None = None,
        changed: list[str] | None = None,
    ) -> None:
        """Lay the design out again (or show ``diagram``, laid out in the background, with what
        was worked out there against the diagram shown, when known: the components ``moved`` to
        another box, whether it has the ``same`` geometry, the boxes ``relabelled``, those
        whose items are ``kept`` and those ``changed``, see
        :func:`planner.diagram_order.kept_and_changed`); recreate the items when anything moved
        (or ``force``)."""
        self._layout_asked = None
        self.finish_morph()
        force = force or self._build is not None  # a build under way is begun again
        d = diagram if diagram is not None else self._layout()
        if diagram is None and hasattr(self.doc, "warm_layout"):
            self.doc.warm_layout(self._collapsed_now(), d)  # the background's layout memo follows
        if not force and (same if same is not None else self._same_geometry(d)):
            self._relabel(d, moved, relabelled)  # nothing moved: keep the items, refresh the labels
            if self.doc.analysis is not None:
                self.apply_analysis(self.doc.analysis)  # held back while the layout was made
        else:
            if not self._held and not self.doc.synchronous:
                self._hold_views()  # (before the items change: see Painting._hold_views)
            if force or not self._morph(d, moved, kept, changed):
                self._make_all(d)  # (the morph or the build paints the analysis once done)

    def _make_all(self, d: Diagram) -> None:
        """Show ``d`` with items made again from nothing, a slice at a time (see
        :mod:`widgets.canvas.building`); the analysis is painted when they are all made."""
        self.generation += 1
        self._syncing = True
        self._selected_cells = set()
        blocked = self.blockSignals(True)
        self.clearSelection()
        self.blockSignals(blocked)
        # containers come before the items inside them (made in that order, by a build or a
        # morph): deleted from the end, each item goes on its own (sorting 44,864 items by
        # depth took 20 ms in this turn)
        if self._spare is not None:
            self._spare, spare = None, self._spare
            spare.free_rest(self)
        self._grave.bury_items(list(self.items_by_id.values()))  # in the build's first slices
        self._grave.bury(self.items_by_id, self.links, self._members, self._links_at, self._subtexts)
        self.items_by_id, self.links, self.link_spans = {}, [], None
        self.painted_revision = None
        self._ports = None
        self._shown, self._members = None, None
        self._job, self._links_at, self._subtexts, self._regrouped = None, None, {}, set()
        self.diagram, self._relabelled_here = d, set()  # (views held stay held: the build lets them go)
        self.shown_topology = self.doc.topology
        self._build = ItemBuild(self, d)
        if self.doc.synchronous:
            self._build_slice()
        else:  # the first slice on a later turn (what this one did took 10-20 ms on the 16x site)
            if not self._held:
                self._hold_views()
            self._build_timer.start(FIRST_BUILD_AFTER_MS)  # (the next slices: at once, see _build_slice)

    @slice_budget.counted
    def _build_slice(self) -> None:
        """Make the next items of the build under way (all of them when analysing
        synchronously), then what the views' first paint needs; once all is made, let the
        views paint (on the next turn) and show the selection, path and analysis."""
        build = self._build
        if build is None:
            return
        until = None if self.doc.synchronous else slice_budget.until(BUILD_SLICE_S, first=True)
        if not build.ready:
            digging = until is not None and bool(self._grave)
            finished = (
                self._grave.dig(until)  # the items shown before go first
                and not (digging and time.perf_counter() >= until)  # (a build step, 4-6 ms on the
                and self._step_build(build, until)  # 16x site, after a dig that spent the slice
                and self._prepare_views(build, until)  # made 15-21 ms slices while it folded)
            )
            if not finished or (until is not None and self._held):
                build.ready = finished  # (the views held are let paint on the next turn)
                if not self._held:
                    self._hold_views()
                if build.made < build.total:  # (then links and what the views need: it stays)
                    self.building.emit(build.made, build.total)
                self.sliced.emit()
                self._build_timer.start(0)
                return
        self._build = None
        self._syncing = False
        self._let_views_paint()
        self.building.emit(build.total, build.total)
        self.show_selection(self.doc.selection)
        if self.chosen_path is not None:
            self.highlight_path(self.chosen_path)
        self.rebuilt.emit()
        if hasattr(self.doc, "design_shown"):
            self.doc.design_shown()
        self.paint_analysis_soon()

    def _step_build(self, build: ItemBuild, until: float | None) -> bool:
        """The next items of ``build``; once all are made, the views cut them into tiles anew
        and the overview gathers them."""
        if build.linked == len(build.d.links) and build.made == build.total:
            return True  # (made: preparing the views)
        stepped = build.step(until)
        index_now(self)
        if not stepped:
            return False
        self.generation += 1  # (a view may have cut a part of the items into tiles meanwhile)
        link_spans(self, build.d)
        if self.overview is not None:
            overview_scene(self)  # its bounds and batches follow the new items
        self.idle_later()  # (the zooms not shown made ready when idle: see Detailing._far_prepared)
        return True

    def changing(self) -> bool:
        """Whether the items are being made or morphed in slices (work of lower priority waits)."""
        return self._build is not None or self._morphing is not None

    def analysis_to_paint(self) -> bool:
        """Whether the analysis of the design shown is still to be painted (or is being)."""
        return self._job is not None or self.painted_revision != self.doc.topology.revision

    def items_rect(self) -> QRectF:
        """The bounds of the diagram's boxes: the diagram's own size (its bands reach that far,
        the boxes the user placed included; none is placed left of or above its origin). Not
        Qt's ``itemsBoundingRect``: it visits every item, and Zoom to fit on the 16x site
        expanded (84,736 items) blocked the event loop 107-172 ms in it."""
        d = self.diagram
        return QRectF(0, 0, d.width, d.height) if d is not None else self.itemsBoundingRect()

    def set_low_detail(self, low: bool, scale: float, force: bool = False) -> bool:
        """Switch to summary boxes (inner text hidden, group names large) or back; the view calls
        it when the zoom crosses its threshold. True when a pass began (the items the views show
        brought already)."""
        self.far = low and scale < FAR_SCALE
        self._detail_due = self._detail_due or self.far  # (far out even by a small step)
        back = self._detail_due and not self.far
        force = force or back
        if not force and self.low_detail[0] == low and (not low or abs(scale / self.low_detail[1] - 1) < 0.4):
            return False
        self.low_detail = (low, scale)
        self._detail_due = self.far  # far out no item is shown (the overview is): done on the way back
        if self.far:
            self._stop_detail()
            return False
        # (and woken: see BoxItem.wake); in view at once, the rest in slices (widgets.canvas.detail)
        self._bring_detail(self.views(), fresh=force, back=back)
        return True

    def relabel(self) -> None:
        """After a field edit: refresh the text of the items whose label changed. Falls back to a
        relayout if the edit did change the diagram's shape."""
        self.finish_morph()
        d = self._layout()
        if self._build is None and self._same_geometry(d):
            self._relabel(d)
        else:
            self.rebuild()

    def _same_geometry(self, d: Diagram) -> bool:
        return self.diagram is not None and same_geometry(self.diagram, d)

    def _relabel(self, d: Diagram, moved: list[str] | None = None, relabelled: list[str] | None = None) -> None:
        """Show a layout with the same geometry: relabel the boxes whose text changed and move
        the components whose box changed (hidden in another group) to their new box; those
        boxes are repainted with the next analysis, the others keep their figures.
        ``relabelled``: the boxes of ``d`` that differ from the diagram shown as the background
        saw it (the boxes relabelled here since are looked at too)."""
        old, self.diagram = self.diagram, d
        local, self._relabelled_here = self._relabelled_here, set()
        ids: Iterable[str] = d.boxes if relabelled is None else dict.fromkeys([*relabelled, *local])
        changed = []
        for cid in ids:
            box = d.boxes.get(cid)
            if box is None:
                continue
            item = self.items_by_id[cid]
            if box != item.box:
                item.set_label(box)
                self._subtexts.pop(cid, None)
                changed.append(cid)
        self._dirty_boxes.update(changed)
        if old is not None:
            self._regroup(old, d, alias_changes(old, d) if moved is None else moved)
        self._overview_changed(changed, [])

    def _regroup(self, old: Diagram, d: Diagram, moved: list[str]) -> None:
        """Components now shown by another box (added, removed, moved between hidden groups):
        both boxes are repainted with the next analysis, the new one lists them."""
        if self._members is None:
            return
        left: dict[str, set[str]] = {}  # box -> the members it no longer shows
        for cid in moved:
            was, now = old.visible(cid), d.visible(cid)
            if was == now:
                continue
            if was is not None and cid in self._member_set:
                left.setdefault(was, set()).add(cid)
                self._member_set.discard(cid)
                self._dirty_boxes.add(was)
            if now is not None:
                self._dirty_boxes.add(now)
                if self._shown is not None and cid in self._shown.components and cid not in self._member_set:
                    self._members.setdefault(now, []).append(cid)
                    self._member_set.add(cid)
                    self._regrouped.add(now)  # sorted with the next analysis
        for box, gone in left.items():  # (one pass a box: a server deleted took 714 passes of its 714)
            self._members[box] = [m for m in self._members.get(box, ()) if m not in gone]

    def toggle_collapsed(self, cid: str) -> None:
        if self.collapsed is None:
            self.collapsed = set()
        self.collapsed ^= {cid}
        self._relayout_folded()
        self.collapseChanged.emit()

    def set_all_collapsed(self, collapsed: bool) -> None:
        topo = self.doc.topology
        self.collapsed = {c.id for k in COLLAPSIBLE for c in topo.of_kind(k)} if collapsed else set()
        if not self.doc.synchronous:  # every item made or deleted in slices from now on: the
            self.sliced.emit()  # collector held from the start (see app.gui_gc: a full collection
        self._relayout_folded()  # while the lane laid out a fold of the 16x site after panning: 41 ms)
        self.collapseChanged.emit()

    def _relayout_folded(self) -> None:
        """Show the groups folded as :attr:`collapsed` now says: laid out in the analysis lane
        when it can (its layout memo keeps the members of the groups that stay folded; on the
        16x site the layout took 0.3-0.8 s on the GUI thread), shown when it comes (the lane
        analyses the unchanged design again with it); else laid out here."""
        if self._build is not None or not self._request_layout():
            self.rebuild()

    # -- analysis -----------------------------------------------------------------------------
    def apply_analysis(self, bundle: Any) -> None:
        """Paint an analysis result; ignored unless computed on the revision shown now. Only the
        boxes whose figures changed since the result painted before are touched (the background
        analysis shares the loads of the parts of the design an edit did not affect). The boxes
        are painted in slices of about :data:`PAINT_SLICE_S` (all at once when the document
        analyses synchronously); ``painted_revision`` is set when the last one is done. A newer
        result takes over what an older one had left to paint."""
        if self.diagram is None or bundle.origin is not self.shown_topology or not self.doc.is_current(bundle):
            return
        if self._layout_asked is not None or self._build is not None or self._morphing is not None:
            return  # painted once the layout of this revision is shown, its items made
        result: Analysis = bundle.result
        prev, self._shown = self._shown, result
        job = self._job
        if prev is result:  # the same analysis again (with the rules' findings), or new items
            dirty = self._pending_boxes()
            if job is None and not dirty:
                self.painted_revision = bundle.revision
                self._release_held()  # (held after a morph for this paint: see Morphing._morphed)
                return
            if job is None:
                assert self._figures is not None
                fig = self._figures
                links_at = self._collecting_links() if self._links_at is None else None  # (see below)
                job = self._job = PaintJob(bundle, [], [], fig.group_load, fig.binds, collecting=links_at)
            job.bundle = bundle
            job.boxes += dirty
        else:
            fig = getattr(bundle, "canvas", None)  # worked out by the background worker
            if fig is None or fig.result is not result:
                fig = canvas_figures(result)
            group_load, binds = fig.group_load, fig.binds
            links: list[LinkItem] = []
            collecting = None
            if prev is None or self._members is None:
                self._shown, self._dirty_boxes = None, set()  # (shown once its members are known)
                collecting = self._collecting_members(result)
                boxes, links = list(self.items_by_id), list(self.links)
            else:
                self._figures, old = fig, self._figures
                if fig.since is prev and fig.changed is not None:
                    boxes = list(self._changed_boxes(fig.changed, result, fig))
                else:  # the worker compared with another result than the one shown
                    changed = changed_components(prev, result, old or canvas_figures(prev), fig)
                    boxes = list(self._changed_boxes(changed, result))
            if job is not None:  # what the older result had left
                rest, rest_links = job.rest()
                boxes = list(dict.fromkeys(boxes + rest))
                links = list(dict.fromkeys(links + rest_links))
            self._figures = fig
            if self._links_at is None:  # (the items were made again: which links are at each box)
                collecting = itertools.chain(collecting or (), self._collecting_links())
            self._job = PaintJob(bundle, boxes, links, group_load, binds, collecting=collecting)
        if self.doc.synchronous:
            self._paint_slice()
        else:  # its first slice on a turn of its own (the result arrives in a turn busy enough)
            self.doc.analysis_showing = True  # the analysis lane waits for it (Document.analysis_shown)
            now = self._first_slice_now and not self._slice_timer.isActive()  # (see _paint_analysis_now)
            (self._paint_slice if now else self._slice_timer.start)()

    def _collecting_members(self, result: Analysis) -> Iterator[None]:
        """Which box shows each component of ``result`` (in design order: see _sort_members),
        a few hundred at a time (the 16x site's 55,000 took 35 ms); then ``result`` is the one
        shown."""
        d = self.diagram
        assert d is not None
        members: dict[str, list[str]] = {}
        member_set: set[str] = set()
        comps = result.components
        for n, comp in enumerate(self.doc.topology.components()):
            if comp.id in comps and (v := d.visible(comp.id)) is not None:
                members.setdefault(v, []).append(comp.id)
                member_set.add(comp.id)
            if n % 512 == 511:
                yield
        self._members, self._member_set, self._shown = members, member_set, result

    def _changed_boxes(self, changed: list[str], result: Analysis, fig: CanvasFigures | None = None) -> set[str]:
        """The boxes that show the components in ``changed`` (their figures changed), and those
        relabelled since the last paint; new components join their box's members. ``fig``:
        the canvas figures ``changed`` comes from, with the boxes worked out by the worker for
        the diagram shown (see ``mark_boxes``)."""
        d = self.diagram
        assert d is not None and self._members is not None
        new, shown, alias = result.components, d.boxes, d.alias
        members, member_set = self._members, self._member_set
        if fig is not None and fig.of is d and fig.boxes is not None and fig.wanted is not None:
            boxes, wanted = fig.boxes, fig.wanted
        else:  # (set operations, not a loop: a figure set switched on the 16x site changes 27,000
            wanted = set(changed)  # components, 6-8 ms as a loop in the turn that shows the analysis)
            direct = shown.keys() & wanted
            boxes = direct | set(map(alias.get, wanted - direct))
            boxes.discard(None)
            boxes.discard("")
        grown: set[str] = set()
        for cid in wanted - member_set:  # (few: the components new since the last paint)
            v = cid if cid in shown else alias.get(cid)
            if v and cid in new:
                members.setdefault(v, []).append(cid)
                member_set.add(cid)
                grown.add(v)
        self._sort_members(grown)
        return boxes | set(self._pending_boxes())

    def _pending_boxes(self) -> list[str]:
        """The boxes relabelled, made or regrouped since the last paint (then forgotten)."""
        self._sort_members(self._regrouped)
        self._regrouped = set()
        dirty, self._dirty_boxes = self._dirty_boxes, set()
        return [c for c in dirty if c in self.items_by_id]

    def _sort_members(self, boxes: set[str]) -> None:
        """Put the members of ``boxes`` back in design order (as a full paint lists them), after
        members were added or moved to another box. Not the result's order: that follows the
        paths, which an edit elsewhere changes (a switch deleted), and a kept box would list
        its members otherwise than a new one."""
        if not boxes or self._members is None:
            return
        topo = self.doc.topology
        last, seq = topo.seq_of_next(), topo.seq_of
        for v in boxes:
            if v in self._members:
                self._members[v].sort(key=lambda c: seq(c) if c in topo else last)

    def highlight_path(self, path: Any) -> None:
        """Light up a path's boxes and links; only its own binding hop keeps the binding mark
        (``None``: back to every binding hop marked)."""
        self.finish_morph()
        d = self.diagram
        on: set[str] = set()
        bind = None
        if path is not None and d is not None:
            on = {v for h in path.hops if (v := d.visible(h))}
            bind = d.visible(path.bottleneck) if path.bottleneck else ""
        self.chosen_path = path
        lit = []  # boxes and links lit up or no longer (the overview gathers them again)
        for cid, item in self.items_by_id.items():
            if item.highlighted != (cid in on):
                lit.append(cid)
            item.set_highlight(cid in on)
            item.set_bind_shown(bind is None or cid == bind)
        hop_set = set(path.hops) if path is not None else set()
        restyled = []
        for li in self.links:
            tree = li.link.kind == "tree" and li.a.cid in on and li.b.cid in on
            now = path is not None and (li.cid in hop_set or tree)
            if now != li.highlighted:
                li.highlighted = now
                if li.restyle():
                    restyled.append(li)
        self._overview_changed(lit, restyled)

    # -- selection ----------------------------------------------------------------------------
    def _selection_to_doc(self) -> None:
        cells = {i for i in self.selectedItems() if isinstance(i, BoxItem) and i.box.state}
        for cell in cells ^ self._selected_cells:  # a drive bay is drawn by its enclosure
            if cell.parentItem() is not None:
                cell.parentItem().update()
        self._selected_cells = cells
        if self._syncing:
            return
        self.doc.select(self.selected_ids())

    def show_selection(self, ids: list[str]) -> None:
        """Select the boxes showing ``ids`` and only those. Qt signals a selection change per
        box; the handlers (here and the view's) read the whole selection each time, so they are
        held off and run once: selecting a finding's 900 subsystems took 0.8 s."""
        d, by_id = self.diagram, self.items_by_id
        want = {v for i in ids if d is not None and (v := d.visible(i))}
        now = {i for i in self.selectedItems() if isinstance(i, BoxItem) and by_id.get(i.cid) is i}
        turn = [i for i in now if i.cid not in want] + [by_id[c] for c in want if c in by_id and by_id[c] not in now]
        self._syncing = True
        try:
            if turn:
                blocked = self.blockSignals(True)
                try:
                    for item in turn:
                        item.setSelected(not item.isSelected())
                finally:
                    self.blockSignals(blocked)
                self.selectionChanged.emit()
        finally:
            self._syncing = False
        changed = self._overview_selected | want
        self._overview_changed(changed, [])
        self._overview_selected = want
        if len(changed) > SELECTION_AT_ONCE and self.far and not self._held and not self.doc.synchronous:
            self._hold_views()  # the overview gathers and draws what changed in slices first
            self._release_timer.start()

    def _overview_changed(self, boxes: Iterable[str] | None = None, links: Iterable[LinkItem] | None = None) -> None:
        """Tell the overview what to gather again: ``boxes`` (ids) and ``links`` (link items, of
        :attr:`links` or gone from it); None: everything."""
        if self.overview is not None:
            self.overview.invalidate(boxes, links)

    def selected_ids(self) -> list[str]:
        return [i.cid for i in self.selectedItems() if isinstance(i, BoxItem)]


def _next_turn(scene: DiagramScene, slot: Callable[[], None]) -> QTimer:
    """A single-shot timer of the scene that runs ``slot`` at the next turn of the event loop."""
    timer = QTimer(scene)
    timer.setSingleShot(True)
    timer.setInterval(0)
    timer.timeout.connect(slot)
    return timer


def _selection_handler(scene: DiagramScene) -> Callable[[], None]:
    """The scene's own selectionChanged handler, holding the scene weakly: when the scene is
    deleted with items selected, each item leaving it signals a selection change while the
    scene's wrapper is being torn down, and a bound method of it crashed PySide (a segfault
    closing a window, or deleting a scene in a test, with something selected)."""
    ref = weakref.ref(scene)

    def handler() -> None:
        s = ref()
        if s is not None and isValid(s):
            s._selection_to_doc()

    return handler
