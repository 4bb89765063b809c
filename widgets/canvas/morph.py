"""Turn the canvas's items into those of a new layout, keeping the items that did not change.

After an edit that moves boxes (a subsystem deleted, a cable added, a group expanded) the scene
used to clear itself and make every item again: on the 16x site 1,151 boxes and 2,014 links,
0.2-0.3 s on the GUI thread, then every box repainted and the zoomed-out overview gathered from
nothing. :func:`morph` compares the layout shown with the new one instead: a box of the same
size, kind and container keeps its item (moved where the new layout puts it, relabelled if its
text changed), a link between two kept items keeps its item (its path redrawn if an end moved);
only the other boxes and links are made again, and only they and the boxes whose components
changed are repainted with the next analysis. The result is the scene a full rebuild would
make (``tests/widgets/test_canvas_morph.py`` compares the two after edits of every kind).
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Iterator
from operator import attrgetter, is_
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QRectF

from planner.diagram_order import containers_first, heads, kept_frames, shared_bands
from planner.layout import Box, Diagram, alias_changes
from widgets import giveway, slice_budget
from widgets.canvas.items import BoxItem, LinkItem, box_ends
from widgets.canvas.spare import SPARE_AT_MOST, Spare

if TYPE_CHECKING:
    from widgets.canvas.scene import DiagramScene

#: how often (in boxes or links) a step looks at the clock
CLOCK_EVERY = 32
#: how long a slice of a morph runs before the event loop turns again (the views held). A slice
#: overruns by its last step (a drawer's item and its children moved or deleted in one call):
#: on the 16x site expanded, a server deleted and undone, 8 ms slices ran 8-12 ms and the event
#: loop was blocked over 15 ms 66 times in 16 edits; with 6 ms, 11 times, and the edit took
#: 851 ms instead of 1,008 (medians of 16, probe runs alternately; 5 ms: 19 times, 964 ms)
MORPH_SLICE_S = 0.006
#: below this share of the new diagram's boxes kept, a rebuild is as quick (expand all)
KEEP_SHARE = 0.5
#: after a morph the views stay held until the analysis that follows is painted, this long at most
HOLD_FOR_ANALYSIS_S = 0.3
#: boxes made asleep (see BoxItem.wake) are woken once the canvas has shown the design's analysis
#: and nothing changed for this long, a slice of WAKE_SLICE_S a turn (an edit pauses it)
WAKE_AFTER_MS = 200
WAKE_SLICE_S = 0.003


def make_item(scene: DiagramScene, d: Diagram, box: Box, head: float | None, asleep: bool = False) -> BoxItem:
    """A new item for ``box`` of ``d`` in ``scene``, inside its container's item (made before
    it), where the diagram places it; ``asleep``: its texts made later (see BoxItem.wake), when
    the scene is zoomed far out."""
    up = d.boxes.get(box.container) if box.container else None
    parent = scene.items_by_id.get(up.id) if up is not None else None
    item = BoxItem(box, parent, head, asleep and scene.far)
    if item.asleep:
        scene.wake_later(item)
    if parent is None or up is None:
        item.setPos(box.x, box.y)
        scene.addItem(item)
    else:
        item.at = (box.x - up.x, box.y - up.y)
        item.setPos(*item.at)
    scene.items_by_id[box.id] = item
    return item


def index_rect(scene: DiagramScene, d: Diagram, build: bool = False) -> None:
    """Give ``scene`` the rectangle of ``d`` (a margin around it; a morph keeps the one it has
    while ``d`` still fits in it: see :func:`_still_fits`), with the items it holds now
    indexed at once. Qt indexes the items in a tree over the scene's rectangle: a new rectangle
    puts every item back in the queue to index, which Qt walks a few seconds later (the 16x site
    expanded: 55-65 ms in one turn, long after the expand), and each item deleted meanwhile is
    looked for in that queue (0.4-1.2 ms a box while the site folded). So a build sets it once
    the items shown before are gone (before the first new one), and has the few there indexed;
    then Qt indexes the new ones as they come, a slice at a time. A ``build`` also sizes the
    tree for the items to come (Qt sizes it once, for the items it holds at its first look: a
    few hundred, the first slice of a design opened)."""
    rect = QRectF(0, 0, d.width + 200, d.height + 200)
    depth = max(5, math.ceil(math.log2(max(2, ITEMS_A_BOX * len(d.boxes))))) if build else scene.bspTreeDepth()
    if not build and _still_fits(scene.sceneRect(), rect):
        rect = scene.sceneRect()
    if scene.sceneRect() != rect or scene.bspTreeDepth() != depth:
        scene.setSceneRect(rect)
        scene.setBspTreeDepth(depth)
        index_now(scene)


def _still_fits(now: QRectF, rect: QRectF) -> bool:
    """Whether a morph keeps the scene's rectangle ``now`` for a diagram that needs ``rect``: it
    holds it and is not much larger (:data:`RECT_SLACK`). A server of the 16x site deleted or
    brought back made the diagram 120 units shorter or longer, and each new rectangle had Qt
    index every item again, the view's scroll bar drawn again (1.4-1.9 ms, twice) and the
    overview's picture drawn again whole."""
    if now.topLeft() != rect.topLeft():
        return False
    w, h = rect.width(), rect.height()
    return w <= now.width() <= w + max(RECT_SLACK, w * 0.1) and h <= now.height() <= h + max(RECT_SLACK, h * 0.1)


def index_now(scene: DiagramScene) -> None:
    """Have Qt index the items added to ``scene`` since the last look (a slice's worth). Left
    to itself, Qt indexes them from a timer that each item added puts off to the next turn, so
    while slices add items every turn it waits until they stop and then indexes them all in one
    turn (the 16x site expanded: 46-47 ms as its links were made)."""
    scene.items(_CORNER)  # (any look at the index brings it up to date)


_CORNER = QRectF(0, 0, 1, 1)
_LINK_OF = attrgetter("link")
_SAME = 1e-6  # scene units: an inner box this close to where it was is where it was
#: a morph keeps the scene's rectangle while the diagram fits in it with at most this much to
#: spare (scene units; or a tenth of the diagram's size, if more): see _still_fits
RECT_SLACK = 256.0
#: graphics items a box makes on average (its texts); Qt's own depth for n items is log2(n)
ITEMS_A_BOX = 2


def _link_key(link: Any) -> tuple[str, str, str, str]:
    return (link.a, link.b, link.kind, link.via)


class Morph:
    """A morph under way (see :func:`morph`): :meth:`step` moves and makes the boxes in depth
    order, then matches the links, a slice at a time; it says what it did, for the scene to
    repaint: the boxes made or changed, the links made again or redrawn."""

    def __init__(
        self, scene: DiagramScene, d: Diagram, order: list[str], keep: set[str], head, only: bool = False
    ) -> None:
        self.scene, self.d, self.order, self.keep, self.head = scene, d, order, keep, head  # (box ids)
        #: ``order`` holds only the boxes that changed: the other kept items are handed their
        #: new boxes once those are placed (``reboxed``: how many of ``d``'s boxes so far)
        self.only, self.reboxed = only, 0
        self._rebox_ids: list[str] | None = None  # (those of d's boxes when not set: see morph)
        self.made: list[str] = []  # boxes with a new item
        self.changed: list[str] = []  # kept items with another text
        self.moved: list[str] = []  # kept items now elsewhere (and the boxes inside them)
        self.removed: list[str] = []  # boxes no longer shown (or shown by a new item)
        self.made_links: list[LinkItem] = []
        self.redrawn: list[LinkItem] = []  # kept links whose curve changed
        self.old_links: list[LinkItem] = []  # the scene's links before
        self.before = 0  # the scene's generation before (see SummaryLayer.following)
        self.following: Iterator[None] | None = None  # the views' layers following it
        self.stale_links: list[LinkItem] = []  # links made, redrawn or gone (the overview's to gather)
        self.shifted: set[str] = set()  # boxes whose place in the scene changed
        self.placed = 0  # boxes of ``order`` placed so far
        self.recycle: Spare | None = None  # the items the morph before dropped (see Spare)
        self.links_back: Spare | None = None  # ... once placed: the link items it dropped
        #: the links of ``d`` by band (all in one when it has none), each with whether the band
        #: is shared with the diagram shown (see morph) and the band; ``run``: the one being
        #: matched, ``linked``: how many of its links so far
        self.runs: list[tuple[list, bool, Any]] = [(d.links, False, None)]
        self.run = self.linked = 0
        self.links: list[LinkItem] = []  # the scene's links to be
        self.spare: dict[tuple, list[LinkItem]] | None = None  # the old links by what they join
        self.same: dict[int, LinkItem] = {}  # the old links by the id of their link
        #: the old link items of each band shared (by its id) taken whole, as the scene lists
        #: them (see link_spans); ``loose``: the other old link items, those matched link by
        #: link; ``relinked``: where the links of the loose ones stand in ``links`` (start, end)
        self.taken: dict[int, list[LinkItem]] = {}
        self.loose: list[LinkItem] = []
        self.relinked: list[tuple[int, int]] = []
        self.gone: list[LinkItem] = []  # the old links not kept
        self.swapped = False  # the scene's links are the new ones
        self.old: Diagram | None = None  # the diagram shown before (set by the scene)
        self.aliases: list[str] | None = None  # the components shown by another box, if known
        self.preparing: Iterator[None] | None = None  # the views' preparations (see Morphing)
        self.overview_told = False
        self.ready = False  # all made: the views are let paint on the next turn

    def step(self, until: float | None) -> bool:
        """Place boxes, then match links, until the clock passes ``until`` (None: to the end);
        True once done (the scene's links are then the new ones)."""
        order, boxes, place, n = self.order, self.d.boxes, self._place, len(self.order)
        while self.placed < n:  # (a run of CLOCK_EVERY boxes between looks at the clock)
            end = min(self.placed + CLOCK_EVERY, n)
            for cid in order[self.placed : end]:
                place(boxes[cid])
            self.placed = end
            if self.placed == n and self.recycle is not None:  # (what it did not take back: freed)
                self.recycle.free_rest(self.scene)
                self.links_back, self.recycle = self.recycle, None
            if until is not None and time.perf_counter() >= until:
                return False  # (the links begin a slice of their own then)
        if self.only and not self._rebox(until):
            return False
        if self.swapped:
            return True
        if self.spare is None:
            self._match_links()
        if not self._relink_all(until):
            return False
        new = self.links
        self.old_links = self.scene.links
        kept = {li for a, b in self.relinked for li in new[a:b]}  # (the bands taken whole keep all theirs)
        self.stale_links += self.made_links
        gone = [li for li in self.loose if li not in kept]
        self.gone += gone
        self.stale_links += gone
        spare = self.scene._spare  # (this morph's drop: the links at its items go with them)
        if spare is not None and gone:
            spare.keep_links(gone, _link_key)
        self.scene.links = new
        self.swapped = True
        link_spans(self.scene, self.d)
        return True

    def _relink_all(self, until: float | None) -> bool:
        """Match every link of the new diagram (see :meth:`_relink`), band by band: a band
        shared with the diagram shown takes its old link items as they were (the same boxes,
        items and links: 10,000 of the 16x site's 10,864 links after a server deleted), the
        others link by link; True once all are."""
        runs = self.runs
        while self.run < len(runs):
            links, shared, band = runs[self.run]
            if shared and self.linked == 0:
                if (whole := self.taken.get(id(band))) is not None:
                    self.links += whole
                    self.run += 1
                    continue
                same = self.same
                olds = [same.get(id(link)) for link in links]
                if None not in olds:  # (each had an item: the usual case; kept, of the loose ones)
                    self.relinked.append((len(self.links), len(self.links) + len(olds)))
                    self.links += olds
                    self.run += 1
                    continue
            if self.linked == 0:
                self.relinked.append((len(self.links), len(self.links)))
            while self.linked < len(links):
                self._relink(links[self.linked])
                self.linked += 1
                if until is not None and self.linked % CLOCK_EVERY == 0 and time.perf_counter() >= until:
                    self.relinked[-1] = (self.relinked[-1][0], len(self.links))
                    return False
            self.relinked[-1] = (self.relinked[-1][0], len(self.links))
            self.run, self.linked = self.run + 1, 0
        return True

    def _match_links(self) -> None:
        """The old link items by their links (a band kept whole keeps its very links), and the
        others by what they join (``spare``)."""
        old = self.scene.links
        self.taken, self.loose = _taken_whole(self.scene, self.runs)
        self.same = same = {id(li.link): li for li in self.loose}
        hit = {
            i for links, _, band in self.runs if id(band) not in self.taken for link in links if (i := id(link)) in same
        }
        self.spare = spare = {}
        for li in old:
            li.layer = None  # the views' layers follow once it is done (see SummaryLayer.following)
        for li in self.loose:
            if id(li.link) not in hit:
                spare.setdefault(_link_key(li.link), []).append(li)

    def _rebox(self, until: float | None) -> bool:
        """Hand every kept item its box of the new diagram (those placed have theirs); True
        once all have."""
        items, boxes = self.scene.items_by_id, self.d.boxes
        if self._rebox_ids is None:
            self._rebox_ids = list(self.d.boxes)
        ids, n = self._rebox_ids, len(self._rebox_ids)
        while self.reboxed < n:
            end = min(self.reboxed + 32 * CLOCK_EVERY, n)
            for cid in ids[self.reboxed : end]:
                item = items.get(cid)
                if item is not None:
                    item.box = boxes[cid]
            self.reboxed = end
            if until is not None and time.perf_counter() >= until:
                return False
        return True

    def _place(self, box: Box) -> None:
        """Move and relabel the kept item of ``box``, or make one. (Hot: 44,864 boxes on the
        16x site expanded; an item's attributes and Qt calls are read once each.)"""
        cid, container = box.id, box.container
        up = self.d.boxes.get(container) if container else None
        item = self.scene.items_by_id.get(cid) if cid in self.keep else None  # (the others are gone)
        if item is None:  # (the item the morph before dropped, if it shows the box so: see Spare)
            if self.recycle is None or self.recycle.take(self.scene, box, up, self.head.get(cid)) is None:
                make_item(self.scene, self.d, box, self.head.get(cid), not self.scene.doc.synchronous)
            self.made.append(cid)
            return
        was, shifted = item.box, self.shifted
        if up is None:  # (a top-level box may have been dragged)
            x, y = box.x, box.y
            moved = item.x() != x or item.y() != y
        else:
            x, y = box.x - up.x, box.y - up.y
            at = item.at  # (a box and its container moved alike differ in the last bit: not moved)
            moved = at is None or abs(at[0] - x) > _SAME or abs(at[1] - y) > _SAME
            if moved:
                item.at = (x, y)
        if moved:
            item.setPos(x, y)
        if moved or (up is not None and container in shifted):
            shifted.add(cid)
            item.update()  # its device-cached picture was made at another fraction of a pixel
            self.moved.append(cid)
        elif was.x != box.x or was.y != box.y:
            self.moved.append(cid)
        if was.label != box.label or was.tip != box.tip:
            if item.set_label(box, self.scene.far):
                self.scene.wake_later(item)
            self.changed.append(cid)
        item.box = box

    def _relink(self, link: Any) -> None:
        """The old item of a link between two kept items (its curve redrawn if an end moved),
        else a new one."""
        items = self.scene.items_by_id
        a, b = items.get(link.a), items.get(link.b)
        if a is None or b is None:
            return
        li = self.same.get(id(link))
        if li is None:
            same = self.spare.get(_link_key(link)) if self.spare is not None else None
            li = same.pop() if same else None
        if li is None and self.links_back is not None:  # (the link's item the morph before dropped)
            li = self.links_back.take_link(_link_key(link), a, b)
            if li is not None:
                li.link, boxes = link, (self.d.boxes[link.a], self.d.boxes[link.b])
                if li.ends != box_ends(*boxes):
                    li.update_path(*boxes)
                self.made_links.append(li)
                self.links.append(li)
                return
        if li is not None and li.a is a and li.b is b:
            li.link = link
            if link.a in self.shifted or link.b in self.shifted:
                li.update_path(self.d.boxes[link.a], self.d.boxes[link.b])  # items stand at their boxes
                self.redrawn.append(li)
                self.stale_links.append(li)
        else:  # (links are not in the scene: see LinkItem; the items stand at their boxes)
            li = LinkItem(link, a, b, (self.d.boxes[link.a], self.d.boxes[link.b]))
            self.made_links.append(li)
        self.links.append(li)


def morph(
    scene: DiagramScene, d: Diagram, kept: set[str] | None = None, changed: list[str] | None = None
) -> Morph | None:
    """Begin to make ``scene``'s items those of ``d`` (see the module docstring): the items not
    kept are gone, the scene shows ``d``; the returned :class:`Morph` places the others and
    matches the links as it is stepped. ``kept``: the boxes whose items stay, when worked out
    beforehand against the diagram shown, with the boxes ``changed``
    (:func:`planner.diagram_order.kept_and_changed`: only those are placed). None, having
    changed nothing, when too few items would be kept to be worth it (the caller rebuilds)."""
    old = scene.diagram
    if old is None:
        return None
    if kept is None and len(d.boxes.keys() & old.boxes.keys()) < KEEP_SHARE * len(d.boxes):
        return None  # (at most those could be kept: no need to look closer)
    keep = _kept_ids(scene, old, d, kept)
    if len(keep) < KEEP_SHARE * len(d.boxes):
        return None
    shared: set[int] = set()
    if changed is not None and keep is kept:  # (every item the diagram shown has was made)
        done = Morph(scene, d, changed, keep, heads(d), only=True)
        if shared := {id(band) for band in shared_bands(old, d)}:  # (their items have their very boxes)
            done._rebox_ids = [cid for band in d.bands or () if id(band) not in shared for cid in band.boxes]
            done.runs = [(band.links, id(band) in shared, band) for band in d.bands or ()]
    else:
        done = Morph(scene, d, containers_first(d), keep, heads(d))
    done.recycle, scene._spare = scene._spare, None
    if done.recycle is not None and not done.order:
        done.recycle.free_rest(scene)
        done.recycle = None
    _drop_boxes(scene, keep, _not_kept(scene, old, keep, shared), done)
    scene.diagram = d
    index_rect(scene, d)
    return done


def link_spans(scene: DiagramScene, d: Diagram) -> None:
    """Note where each band's links stand in the scene's list of links, once they are those
    of ``d`` (every link of ``d`` has an item, in ``d``'s order: the bands' links one band
    after the other): the next morph takes a band it shares whole, without looking up its
    links one by one (the 16x site's 10,000 kept after a server deleted: 3-4 ms a morph)."""
    links, bands = scene.links, d.bands or ()
    scene.link_spans = None
    if len(links) != len(d.links) or sum(len(band.links) for band in bands) != len(links):
        return
    spans, at = {}, 0
    for band in bands:
        spans[id(band)] = (band, at, at + len(band.links))
        at += len(band.links)
    scene.link_spans = (links, len(links), spans)


def _taken_whole(scene: DiagramScene, runs: list[tuple[list, bool, Any]]) -> tuple[dict[int, list], list]:
    """The scene's link items of each band shared in ``runs`` (see Morph.runs) where
    :func:`link_spans` noted them, by the band's id (each item checked to show the band's
    link in its place), and the scene's other link items."""
    old, noted = scene.links, getattr(scene, "link_spans", None)
    if noted is None or noted[0] is not old or noted[1] != len(old):
        return {}, old
    spans, taken, cuts = noted[2], {}, []
    for links, shared, band in runs:
        span = spans.get(id(band)) if shared else None
        if span is None or span[0] is not band or span[2] - span[1] != len(links):
            continue
        whole = old[span[1] : span[2]]
        if all(map(is_, map(_LINK_OF, whole), links)):
            taken[id(band)] = whole
            cuts.append((span[1], span[2]))
    if not taken:
        return {}, old
    loose, at = [], 0
    for a, b in sorted(cuts):
        loose += old[at:a]
        at = b
    loose += old[at:]
    return taken, loose


def _kept_ids(scene: DiagramScene, old: Diagram, d: Diagram, kept: set[str] | None) -> set[str]:
    """The boxes of ``d`` whose items (of ``old``) stay (see :func:`morph`)."""
    items = scene.items_by_id
    kept = kept_frames(old, d) if kept is None else kept
    if len(items) == len(old.boxes) or items.keys() >= kept:  # (every item made: the usual case)
        return kept
    out: set[str] = set()
    for cid in containers_first(d):
        up = d.boxes[cid].container
        if cid in kept and cid in items and (up is None or up in out):
            out.add(cid)
    return out


def _not_kept(scene: DiagramScene, old: Diagram, keep: set[str], shared: set[int]) -> Iterable[str]:
    """The items of ``scene`` (those of the boxes of ``old``, the diagram shown) not in
    ``keep``: looked for in the bands of ``old`` not ``shared`` (ids) with the new diagram
    when every item is made (the set operations over the 16x site's 44,864 items took 1-2 ms
    each); else among all items."""
    items = scene.items_by_id
    if shared and old.bands and len(items) == len(old.boxes):
        return [cid for band in old.bands if id(band) not in shared for cid in band.boxes if cid not in keep]
    return items.keys() - keep


def _drop_boxes(scene: DiagramScene, keep: set[str], gone_ids: Iterable[str], done: Morph) -> None:
    """Take the items of ``gone_ids`` (those not in ``keep``) out of the scene (an item's inner items go with it),
    deleted in the morph's slices (a server of the 16x site expanded, some 2,800 items, took
    up to 25 ms deleted at once in the morph's first turn)."""
    items, gone, dropped = scene.items_by_id, [], {}
    for cid in gone_ids:
        item = dropped[cid] = items.pop(cid)
        done.removed.append(cid)
        up = item.box.container
        if up is None or up in keep:  # not inside a box that goes too (which takes it along)
            scene.removeItem(item)  # out of the scene (and Qt's index) with the items inside it
            gone.append(item)
    if len(dropped) <= SPARE_AT_MOST:  # kept for the next morph (an undo takes them back)
        scene._spare = Spare(dropped, gone) if dropped else None
    else:
        scene._grave.bury_items(gone)


def _keep_links_at(scene: Any, done: Morph) -> None:
    """The scene's links by box (``Painting._links_by_box``) after ``done``: the links gone
    taken out, those made put in (listing all 11,000 links of the 16x site again took 10-20 ms
    after each edit; a server deleted there takes out 700 and an undo puts in as many)."""
    at = scene._links_at
    if at is None:
        return
    for li in done.gone:
        for cid in {li.a.cid, li.b.cid}:
            got = at.get(cid)
            if got is not None:
                got[:] = [x for x in got if x is not li]
                if not got:
                    del at[cid]
    for li in done.made_links:
        at.setdefault(li.a.cid, []).append(li)
        if li.b.cid != li.a.cid:
            at.setdefault(li.b.cid, []).append(li)


class Morphing:
    """The morph's part of :class:`widgets.canvas.scene.DiagramScene` (a mixin): begin it,
    step it a slice per turn of the event loop with the views held still, finish it at once
    when something needs the whole of it (another layout, a path to light up), and repaint what
    it changed."""

    def _morph(
        self: Any, d: Diagram, moved: list[str] | None, kept: set[str] | None = None, changed: list[str] | None = None
    ) -> bool:
        """Show ``d`` keeping the items that did not change (see :func:`morph`); False when a
        rebuild is as quick. The items made or relabelled are painted with the analysis once
        the morph is done, with those whose components moved to another box."""
        old, job = self.diagram, self._job
        self._syncing = True
        try:
            done = morph(self, d, kept, changed)
        finally:
            self._syncing = False
        if done is None or old is None:
            return False
        self.generation += 1
        self.painted_revision, self._job, self._ports = None, None, None  # (_links_at: kept, see _morphed)
        self._slice_timer.stop()  # (its views stay held)
        self._relabelled_here = set()
        if job is not None:  # what an analysis being painted had left: painted with the next one
            boxes, links = job.rest()
            self._dirty_boxes.update(boxes)
            self._dirty_boxes.update(cid for li in links for cid in (li.a.cid, li.b.cid))
        done.old, done.aliases, done.before = old, moved, self.generation - 1
        self._morphing = done
        if self.doc.synchronous:
            self._morph_slice()
        else:  # the first slice on the next turn (working out what to keep took this one)
            if not self._held:
                self._hold_views()
            self.doc.layout_showing = True  # the analysis waits for it (see Document.layout_shown)
            self._morph_timer.start()
        return True

    @slice_budget.counted
    def _morph_slice(self: Any) -> None:
        """The next slice of the morph under way (all of it when analysing synchronously)."""
        done = self._morphing
        if done is None:
            return
        until = None if self.doc.synchronous else slice_budget.until(MORPH_SLICE_S, first=True)
        if self._grave:  # the items dropped first (see _drop_boxes)
            self._grave.dig(until)
        if not done.ready:  # (the views are prepared by the paint that follows: see _morphed)
            finished = self._step_morph(done, until) and (self._held_for_paint() or self._prepare_views(done, until))
            if finished and (until is None or not self._held):
                self._morphed(done)
                return
            done.ready = finished  # (the views held are let paint on the next turn)
            if not self._held:
                self._hold_views()
            self._morph_timer.start()
            return
        self._morphed(done)

    def _prepare_views(self: Any, job: Any, until: float | None) -> bool:
        """Once the items are made (``job``, a morph or a build of the scene, holds how far it
        got): what the views' next paint needs, made in slices while they are held (see
        ``DiagramView.preparing``; the overview's batches gathered, its picture drawn); True
        when all of it is made. Nothing when analysing synchronously or finishing at once:
        each view makes it when it paints."""
        if until is None:
            return True
        if job.preparing is None:
            job.preparing = self._view_preparations()
            if time.perf_counter() >= until:
                return False  # (the slice is spent: the first step, as long again, in the next)
        for _ in job.preparing:
            if time.perf_counter() >= until:
                return False
        return True

    def _view_preparations(self: Any) -> Iterator[None]:
        for view in self.views():
            preparing = getattr(view, "preparing", None)
            if preparing is not None:
                yield from preparing()
        if self.far and self.overview is not None:
            scales = [v.transform().m11() for v in self.overview_scene.views()]
            yield from self.overview.preparing(scales)

    def _tell_overview(self: Any, done: Morph) -> None:
        """The overview gathers again what the morph changed (once)."""
        if self.overview is None or done.overview_told:
            return
        done.overview_told = True
        assert self.overview_scene is not None
        self.overview_scene.setSceneRect(self.sceneRect())
        boxes = [*done.made, *done.changed, *done.removed]
        self.overview.set_bounds(self.sceneRect(), boxes, done.stale_links, done.moved)

    def finish_morph(self: Any) -> None:
        """Do the rest of the morph under way at once (nothing when there is none)."""
        done = self._morphing
        if done is not None:
            self._morph_timer.stop()
            self._step_morph(done, None)
            self._morphed(done)

    def _step_morph(self: Any, done: Morph, until: float | None) -> bool:
        self._syncing = True
        try:
            stepped = done.step(until)
            index_now(self)
            if not stepped:
                return False
        finally:
            self._syncing = False
        if done.following is None:
            done.following = self._following(done)
        for _ in done.following:
            if until is not None and time.perf_counter() >= until:
                return False
        self._tell_overview(done)
        if getattr(self.doc, "layout_showing", False):
            self.doc.layout_shown()  # the items are placed: the analysis goes on while the views are prepared
        return True

    def _following(self: Any, done: Morph) -> Iterator[None]:
        """The items are placed: each view's summary layer moves what changed to its tiles, in
        steps (it cut every item and link into tiles again, and gathered every tile's links: on
        the 16x site at a working zoom, 60-80 ms in the slices before the views paint and
        150-250 ms between events after)."""
        self.generation += 1  # (a layer cut during the morph holds a part of the items)
        for view in self.views():
            layer = getattr(view, "summary", None)
            if layer is not None:
                yield from layer.following(done, self.generation)

    def _morphed(self: Any, done: Morph) -> None:
        """The morph is done: what changed is repainted with the analysis, the overview
        gathers it again; the selection and the path shown are marked on the new items."""
        self._morphing = None
        d, old = self.diagram, done.old
        self._selected_cells = {c for c in self._selected_cells if self.items_by_id.get(c.cid) is c}
        dirty = self._dirty_boxes
        dirty.update(done.made, done.changed)
        dirty.update(cid for li in done.made_links for cid in (li.a.cid, li.b.cid))
        for cid in (*done.made, *done.changed, *done.removed):
            self._subtexts.pop(cid, None)
        if self._members is not None:
            moved = alias_changes(old, d) if done.aliases is None else done.aliases
            # a box made again shows its own component (a deleted subsystem back by an undo: no
            # alias changed, and the analysis shown may still be the one from before the delete)
            again = [c for c in done.made if c not in self._member_set]
            self._regroup(old, d, [*moved, *again] if again else moved)
            for cid in done.removed:
                if cid not in self.items_by_id:
                    self._member_set.difference_update(self._members.pop(cid, ()))
        if self.low_detail[0] and not self.far:  # (far out no item is shown: set on the way back)
            for cid in (*done.made, *done.changed):
                self.items_by_id[cid].set_low_detail(*self.low_detail)
        self.show_selection(self.doc.selection)
        if self.chosen_path is not None:
            self.highlight_path(self.chosen_path)
        self._tell_overview(done)
        self.idle_later()  # (the other zooms made ready when idle: see Detailing._far_prepared)
        _keep_links_at(self, done)
        if done.spare:  # the links not kept, freed when idle: each frees the pieces of its curve
            self._grave.bury(done.spare)  # (the view's layer keeps 24 Qt lines a link: the benchmark
            self.idle_later()  # expanded, its server deleted, 11-12 ms at the end of this turn)
        done.spare = None
        if self._held_for_paint():
            self._hold_timer.start(round(HOLD_FOR_ANALYSIS_S * 1000))  # (one timer: a later morph restarts it)
        else:
            self._let_views_paint()
        self.rebuilt.emit()
        self.paint_analysis_soon()  # held back while the items were changed

    def wake_later(self: Any, item: BoxItem) -> None:
        """``item`` was made asleep: wake it when the canvas is idle (or zoomed in: see
        DiagramScene.set_low_detail)."""
        self._asleep.append(item)
        self.idle_later()

    def idle_later(self: Any) -> None:
        """Have the idle work done once the canvas is idle: the boxes made asleep woken, what
        the grave holds freed (see :meth:`_wake_slice`); at most WAKE_AFTER_MS from now."""
        timer = self._wake_timer
        if not timer.isActive() or timer.remainingTime() > WAKE_AFTER_MS:
            timer.start(WAKE_AFTER_MS)

    def _wake_slice(self: Any) -> None:
        """Wake a slice of the boxes made asleep, then free a slice of what the grave holds,
        unless the canvas is changing or an analysis is still to be painted (an edit under
        way waits for none of it), or the user zooms and the detail pass has still to bring
        the items in and around the view (the give-way slices share a small budget a turn
        then, and the layers' idle gathering took it first on a slow machine: CI)."""
        busy = self._job is not None or self._morphing is not None or self._build is not None
        busy = busy or (giveway.moving() and self.detail_near_pending())
        if busy or self._held or self.analysis_to_paint():
            self._wake_timer.start(WAKE_AFTER_MS)
            return
        until, asleep, items = slice_budget.until(WAKE_SLICE_S, gives_way=True), self._asleep, self.items_by_id
        if until is None:  # (the turn's other slices took its time)
            self._wake_timer.start(1)
            return
        try:
            while asleep and time.perf_counter() < until:
                item = asleep.pop()
                if items.get(item.cid) is item:  # (not gone since)
                    item.wake()
            if not asleep and self._grave:
                self._grave.dig(until)
            more = bool(asleep or self._grave) or not self._far_prepared(until)
        finally:
            slice_budget.ended()
        if more:
            self._wake_timer.start(0)

    def _held_for_paint(self: Any) -> bool:
        """Whether the views held through a morph stay held until the analysis that follows
        (this revision's, from the analysis lane, or the one shown, for the items made) is
        painted, which prepares them once: the morph's own preparation drew every link in view
        again, and the analysis then recoloured them and had them drawn again (on the 16x site
        30-40 ms of strokes a change; the new boxes showed uncoloured meanwhile). At most
        HOLD_FOR_ANALYSIS_S."""
        return bool(self._held) and not self.doc.synchronous
