"""What the canvas paints of one analysis, worked out where the analysis is made (no Qt).

The editor's background worker (:mod:`app.background`) computes a :class:`CanvasFigures` with
each result, so the GUI thread does not walk the whole design to find what an edit changed:
the collapsed groups' loads, the paths each component binds, and the components whose figures
differ from the result before (the incremental analysis shares the loads of the parts of the
design an edit did not affect, so most are the same objects and cost no comparison).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from planner.layout import COLLAPSIBLE
from planner.naming import label

if TYPE_CHECKING:
    from planner.analysis import Analysis, Load
    from planner.model import Topology

#: tooltip lines of a box's components' figures (then "... n more")
TIP_LINES = 6


@dataclass
class CanvasFigures:
    """The figures of ``result`` the canvas paints; ``changed``: the components whose figures
    (own load, group load, binding count) differ from those of ``since`` (None: not known)."""

    result: Analysis
    group_load: dict[str, float]
    binds: dict[str, int]
    since: Analysis | None = None
    changed: list[str] | None = None
    #: the boxes of diagram ``of`` that show the components in ``changed`` (``changed`` as a set
    #: in ``wanted``), worked out with them (see :func:`mark_boxes`); None: not worked out
    of: Any = None
    boxes: set[str] | None = None
    wanted: set[str] | None = None
    #: what each of ``boxes`` is painted with, (highest utilization, paths bound) as
    #: :func:`top_and_binds` gives it, worked out while the editor is idle for a switch made
    #: ready (see :func:`mark_boxes`); None: the canvas works it out as it paints
    tops: dict[str, tuple[float | None, int]] | None = None
    #: the colour (utilization) of each cable drawn at one of ``boxes``, worked out with ``tops``
    cable_utils: dict[str, float | None] | None = None
    #: (the lane) the steps of working out ``tops`` left, when idle work stopped half way
    steps: Iterator[None] | None = field(default=None, repr=False, compare=False)


def canvas_figures(result: Analysis, before: CanvasFigures | None = None) -> CanvasFigures:
    """The canvas figures of ``result``, with what changed since ``before`` (when given)."""
    group_load = {cid: v for g in COLLAPSIBLE for cid, v in result.by_group.get(g, {}).items()}
    binds = result.binding_hops()
    figures = CanvasFigures(result, group_load, binds)
    if before is not None:
        figures.since = before.result
        figures.changed = changed_components(before.result, result, before, figures)
    return figures


def mark_boxes(figures: CanvasFigures, d: Any) -> None:
    """Work out which boxes of diagram ``d`` (a :class:`planner.layout.Diagram`: its box ids and
    aliases, which never change once laid out) show the components ``figures`` says changed,
    where the analysis is made: the canvas showing ``d`` paints them without looking each one
    up (a figure set or direction switched on the 16x site changes 26,000 components: 7-13 ms
    of the turn that shows the analysis on the GUI thread). What those boxes are painted with
    is worked out afterwards, while idle (:func:`working_out_tops`)."""
    if figures.changed is None or d is None:
        return
    if figures.of is not d:  # (else marked for ``d`` already: while idle)
        wanted = set(figures.changed)
        direct = d.boxes.keys() & wanted
        boxes = direct | set(map(d.alias.get, wanted - direct))
        boxes.discard(None)
        boxes.discard("")
        figures.of, figures.boxes, figures.wanted = d, boxes, wanted
        figures.tops = figures.cable_utils = figures.steps = None


#: :func:`working_out_tops` yields after about this many components looked at
STEP_WORK = 4096


def working_out_tops(figures: CanvasFigures, d: Any, topo: Topology) -> Iterator[None]:
    """Work out ``figures.tops`` and ``cable_utils`` for the boxes marked on ``d`` (see
    :func:`mark_boxes`; ``topo``: the design the figures are of), yielding after every
    :data:`STEP_WORK` components or links looked at: idle work that stops when an edit comes
    (the canvas worked them out as it painted a switch: on the 16x site folded, 1,136 groups of
    25,000 members and 1,700 cables, 14-15 ms of its paint; here 20-50 ms a figure set, folded
    or expanded). Set once all is worked out; nothing when the
    boxes are marked on another diagram, or nothing is marked."""
    if figures.of is not d or figures.boxes is None or figures.tops is not None:
        return
    shows = yield from _members_steps(d)
    result, binds, boxes = figures.result, figures.binds, figures.boxes
    tops: dict[str, tuple[float | None, int]] = {}
    done = 0
    for v in boxes:
        members = shows.get(v, (v,))
        tops[v] = top_and_binds(result, members, binds)
        done += len(members)
        if done >= STEP_WORK:
            done = 0
            yield
    utils: dict[str, float | None] = {}
    for i, link in enumerate(d.links):
        if link.kind == "cable" and (link.a in boxes or link.b in boxes):
            utils[link.via] = link_util(topo, result, link.kind, link.via, link.b)
        if i % STEP_WORK == STEP_WORK - 1:
            yield
    figures.tops, figures.cable_utils = tops, utils


def link_util(topo: Topology, result: Analysis, kind: str, via: str, child: str) -> float | None:
    """The utilization a link is coloured by: a tree link's by its child box's component
    (``child``), a cable's (``via``) by the busier of its ends, or for an end without a figure
    of its own (an HBA port) by its adapter's; None for the other links."""
    if kind == "tree":
        load = result.components.get(child)
        return load.utilization if load else None
    if kind != "cable":
        return None
    cab = topo.get(via)
    if cab is None:
        return None
    comps = result.components
    ends = (cab["a"], cab["b"])
    us = [u for p in ends if p in comps and (u := comps[p].utilization) is not None]
    if us:
        return max(us)
    for p in ends:  # a port without a figure of its own (an HBA port): colour by its adapter
        comp = topo.get(p)
        if comp is not None and comp.parent in comps:
            return comps[comp.parent].utilization
    return None


def members_by_box(d: Any) -> dict[str, list[str]]:
    """Each box of diagram ``d`` that hides components -> the ids it shows: its own, then those
    hidden in it (the other boxes show only their own). Worked out once for a diagram, which
    never changes once laid out (kept on it)."""
    for _ in _members_steps(d):
        pass
    return d.by_box


def _members_steps(d: Any) -> Iterator[None]:
    """:func:`members_by_box` a few thousand aliases at a time (yielding between); returns it."""
    if d.by_box is None:
        boxes, by_box = d.boxes, {}
        for i, (cid, v) in enumerate(d.alias.items()):
            if cid not in boxes and v:
                got = by_box.get(v)
                if got is None:
                    by_box[v] = got = [v]
                got.append(cid)
            if i % STEP_WORK == STEP_WORK - 1:
                yield
        d.by_box = by_box
    return d.by_box


def changed_components(prev: Analysis, result: Analysis, old: CanvasFigures, new: CanvasFigures) -> list[str]:
    """Components whose figures differ between two results: a new or removed load, a load
    with other figures (one the edit's part recomputed to the same figures is not), a group
    load or a binding count that changed. When ``result`` was updated from ``prev``
    (planner.incremental), only the components of the parts it re-analysed are compared."""
    before, after = prev.components, result.components
    touched = result.touched
    # (a load's own figure compared first: a direction or figure set switched changes most, and
    # a whole comparison of 13 fields for each of the 16x site's 55,000 loads took 7 ms)
    if touched is not None and touched[0]() is prev:  # updated from prev: only these can differ
        changed = [
            c
            for c in dict.fromkeys(touched[1])
            if (a := after.get(c)) is not (b := before.get(c))
            and (a is None or b is None or a.load != b.load or a != b)
        ]
    else:
        changed = [
            cid
            for cid, ld in after.items()
            if (was := before.get(cid)) is not ld and (was is None or was.load != ld.load or was != ld)
        ]
        changed += [cid for cid in before.keys() - after.keys()]
    gl, ogl = new.group_load, old.group_load
    changed += [c for c in gl.keys() | ogl.keys() if gl.get(c) != ogl.get(c)]
    changed += [c for c in new.binds.keys() | old.binds.keys() if new.binds.get(c) != old.binds.get(c)]
    return changed


def busiest(result: Analysis, members, binds: dict) -> tuple[float | None, int, list[tuple[str, Load]], int]:
    """Of the components a box shows: the highest utilization, the paths they bind, the first
    :data:`TIP_LINES` with a capacity (id, load) for its tooltip and how many more there are."""
    top: float | None = None
    nb = more = 0
    shown: list[tuple[str, Load]] = []
    comps = result.components
    for cid in members:
        load = comps.get(cid)
        if load is None:
            continue
        u = load.utilization
        if load.capacity:
            if len(shown) < TIP_LINES:
                shown.append((cid, load))
            else:
                more += 1
        nb += binds.get(cid, 0)
        if u is not None:
            top = u if top is None else max(top, u)
    return top, nb, shown, more


def top_and_binds(result: Analysis, members, binds: dict) -> tuple[float | None, int]:
    """What a box is painted with: the highest utilization of the components it shows and the
    paths they bind, as :func:`busiest` gives them, without its tooltip's lines (a figure set
    switched on the 16x site folded painted 1,136 boxes of 25,000 members: 15 ms with them)."""
    top: float | None = None
    nb = 0
    comps = result.components
    for cid in members:
        load = comps.get(cid)
        if load is None:
            continue
        if cid in binds:
            nb += binds[cid]
        if load.read_capacity or load.write_capacity:  # a mixed run's
            u = load.utilization
        else:  # (Load.utilization inline: 2-3 ms of the 12)
            cap = load.capacity
            if not cap:
                continue
            u = load.load / cap
        if top is None or u > top:  # type: ignore[operator]  (max() keeps the first of equals: so does this)
            top = u
    return top, nb


def tip_lines(topo: Topology, shown: list[tuple[str, Load]], more: int) -> list[str]:
    """The tooltip lines of the loads :func:`busiest` chose (labelled only now), then how many
    more there are."""
    lines = [
        f"{label(topo, cid)}: {ld.load:,.0f} of {ld.capacity:,.0f} MB/s ({(ld.utilization or 0) * 100:.0f}%)"
        for cid, ld in shown
    ]
    return lines + ([f"... {more} more"] if more else [])
