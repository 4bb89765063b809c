"""Server I/O rules: adapter placement in PCI slots and partitions, and saturation of the
PHBs, RIO2 links, I/O planars and drawers adapters sit behind."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from planner import naming
from planner.model import Component, Topology
from planner.rules.context import Context
from planner.rules.registry import RULES, Finding, Rule, rule
from planner.rules.wording import plural, ranges
from planner.schema import count_label, kind_name

Room = Callable[[str], float | None]


def _headroom_analysis(ctx: Context) -> Room:
    """Spare MB/s of a component in the analysis (its capacity when no path loads it)."""
    comps = ctx.analysis.components

    def room(cid: str) -> float | None:
        ld = comps.get(cid)
        if ld is None or not ld.capacity:
            return ctx.io_capacity(ctx.topo[cid], ctx.figures)
        return ld.capacity - ld.load

    return room


def _headroom_planning(ctx: Context) -> Room:
    """Spare MB/s of a component at the planning figures of the adapters placed behind it."""

    def room(cid: str) -> float | None:
        cap = ctx.io_capacity(ctx.topo[cid], "planning")
        if cap is None:
            return None
        return cap - sum(ctx.hba_planning(h) for h in ctx.hbas_under.get(cid, ()))

    return room


def _no_move(ctx: Context, comp: Component) -> str:
    """Why no adapter move helps ``comp``, and what would."""
    server = ctx.topo.ancestor(comp.id, "server")
    limit = (ctx.topo.part_of(server) or {}).get("max_drawers") if server is not None else None
    drawers = len(ctx.topo.children(server.id, "drawer")) if server is not None else 0
    more = (
        "add an I/O drawer for more adapters"
        if not limit or drawers < limit
        else f"the server already has its maximum of {limit} drawers"
    )
    return (
        f"No free slot outside this {kind_name(comp.kind)} has spare bandwidth, so moving adapters gains nothing; "
        f"{more}, or plan with this limit."
    )


class _Moves:
    """Where an adapter behind a component could move: the free slots of the component's
    server (an adapter serves a partition of its own server: a slot of another is no move),
    each with the spare MB/s (by ``room``) of its whole chain (PHB, link, planar, drawer),
    ranked most first. A server's slots are ranked once per rule: the 32x site's saturated
    links each looked through every free slot of the site (684 ms of its check with the
    measured figures)."""

    def __init__(self, ctx: Context, room: Room) -> None:
        self.ctx, self.room = ctx, room
        self._by_server: dict[str | None, list[tuple[Component, list[str]]]] | None = None
        self._ranked: dict[str | None, list[tuple[float, int, Component, list[str]]]] = {}

    def _server_of_chain(self, chain: list[str]) -> str | None:
        top = self.ctx.topo.get(chain[-1]) if chain else None
        return top.parent if top is not None else None

    def best(self, comp: Component) -> tuple[float, Component] | None:
        """The free slot outside ``comp`` (of its server) with the most spare bandwidth, at
        least 1 MB/s (rounding crumbs ignored), the first in design order of equals; None."""
        ctx = self.ctx
        if self._by_server is None:
            self._by_server = {}
            for slot in ctx.free_slots:
                chain = ctx.slot_chain(slot)
                self._by_server.setdefault(self._server_of_chain(chain), []).append((slot, chain))
        server = ctx.topo.ancestor(comp.id, "server")
        key = server.id if server is not None else None
        ranked = self._ranked.get(key)
        if ranked is None:
            ranked = []
            for n, (slot, chain) in enumerate(self._by_server.get(key, ())):
                rooms = [r for r in (self.room(c) for c in chain) if r is not None]
                spare = min(rooms) if rooms else 0.0
                if spare >= 1.0:
                    ranked.append((spare, n, slot, chain))
            ranked.sort(key=lambda x: (-x[0], x[1]))
            self._ranked[key] = ranked
        return next(((spare, slot) for spare, _, slot, chain in ranked if comp.id not in chain), None)


def _move_fix(ctx: Context, comp: Component, moves: _Moves) -> str:
    """A concrete move: the free slot of ``comp``'s server outside ``comp`` with the most spare
    bandwidth on its whole chain (PHB, link, planar, drawer), or why there is none."""
    best = moves.best(comp)
    if best is None:
        return _no_move(ctx, comp)
    spare, slot = best
    hbas = ctx.hbas_under.get(comp.id, [])
    mover = ctx.label(hbas[-1]) if hbas else "an adapter"
    phb = ctx.topo.get(slot.parent)
    return (
        f"Move {mover} to {ctx.label(slot.id)} (under {naming.qualified_name(ctx.topo, phb) if phb else 'another PHB'}, about "
        f"{spare:.0f} MB/s spare), or to another less loaded {kind_name(comp.kind)}."
    )


def _binding_groups(kind: str, topo: Topology, ctx: Context) -> dict[tuple[Any, ...], list[str]]:
    """The ``kind`` components that bind paths in the analysis, alike ones grouped: (paths,
    load, capacity, figure source, adapters behind, fix) -> ids."""
    comps = ctx.analysis.components
    moves = _Moves(ctx, _headroom_analysis(ctx))
    alike: dict[tuple[Any, ...], list[str]] = {}
    for cid, n in ctx.binding.items():
        comp = topo.get(cid)
        if comp is None or comp.kind != kind:
            continue
        ld = comps[cid]
        key = (
            n,
            round(ld.load),
            round(ld.capacity or 0),
            ld.source,
            len(ctx.hbas_under.get(cid, [])),
            _move_fix(ctx, comp, moves),
        )
        alike.setdefault(key, []).append(cid)
    return alike


def _binding_finding(me: Rule, kind: str, key: tuple[Any, ...], ids: list[str], ctx: Context) -> Finding:
    """The warning for a group of alike ``kind`` components that bind paths."""
    n, load, cap, source, k, fix = key
    one = len(ids) == 1
    who = ctx.label(ids[0]) if one else f"{count_label(len(ids), kind)} ({ctx.names(ids, 3, short=False)})"
    return me.finding(
        ids,
        f"{who}{'' if one else ' each'} limit{'s' if one else ''} {plural(n, 'path')}: {load} of {cap} MB/s "
        f"({ctx.figures} figure{': ' + source if source else ''}); the {plural(k, 'adapter')} behind "
        f"{'it' if one else 'each'} cannot run at their own speed.",
        fix,
    )


def _planning_findings(me: Rule, kind: str, topo: Topology, ctx: Context, skip: set[str]) -> list[Finding]:
    """Advice for the ``kind`` components (not in ``skip``) whose adapters need more than its
    capacity at the planning figures."""
    out: list[Finding] = []
    moves = _Moves(ctx, _headroom_planning(ctx))
    for comp in ctx.of_kind(kind):
        hbas = ctx.hbas_under.get(comp.id, [])
        if not hbas or comp.id in skip:
            continue
        cap = ctx.io_capacity(comp, "planning")
        need = sum(ctx.hba_planning(h) for h in hbas)
        if cap is None or need <= cap:
            continue
        per = ctx.hba_planning(hbas[0])
        fits = int(cap // per) if per else 0
        message = (
            f"{ctx.label(comp.id)} has {plural(len(hbas), 'adapter')} behind it: at the planning figure of "
            f"{per:.0f} MB/s per adapter they need {need:.0f} MB/s, above its {cap:.0f} MB/s, so "
            f"{plural(fits, 'adapter')} already fill{'s' if fits == 1 else ''} it"
        )
        if kind == "phb":
            message += " (P690 Figure 4: 'Adding the fourth adapter to PHB1 may not improve the bandwidth')"
        out.append(me.finding((comp.id, *hbas[fits:]), message + ".", _move_fix(ctx, comp, moves), "advice"))
    return out


def _saturated(rule_id: str, kind: str, topo: Topology, ctx: Context) -> list[Finding]:
    """Rule ``rule_id`` for ``kind``: warning for the components that are the bottleneck of paths
    in the analysis (alike ones grouped: same number of paths, load, capacity, adapters and fix);
    advice where the adapters placed behind one need more than its capacity at the planning
    figures (the paper: three adapters at 150 MB/s saturate PHB1, five saturate link1). Reads
    the context's one analysis; never runs another."""
    me = RULES[rule_id]
    groups = _binding_groups(kind, topo, ctx)
    out = [_binding_finding(me, kind, key, ids, ctx) for key, ids in groups.items()]
    bound = {cid for ids in groups.values() for cid in ids}
    return out + _planning_findings(me, kind, topo, ctx, bound)


_PLACEMENT = "P690 'Choosing the number and slot location of the Fibre Channel HBAs'"


@rule(
    "PHB_SATURATED",
    "warning",
    "PCI host bridge saturated",
    f"{_PLACEMENT}, step 3 (450 MB/s per PHB); P690 Figure 4 text",
)
def phb_saturated(topo: Topology, ctx: Context) -> list[Finding]:
    """Warning: a PHB binds paths (450 MB/s planning, about 585 measured with three adapters);
    advice: more adapters behind it than its planning figure carries ("Adding the fourth adapter
    to PHB1 may not improve the bandwidth")."""
    return _saturated("PHB_SATURATED", "phb", topo, ctx)


@rule(
    "LINK_SATURATED",
    "warning",
    "RIO2 link saturated",
    f"{_PLACEMENT}, step 3 (about 750 MB/s per link); P690 Figure 4 text (link1 814 MB/s)",
)
def link_saturated(topo: Topology, ctx: Context) -> list[Finding]:
    """Warning: a RIO2 link binds paths (750 MB/s planning, link1 814 measured); advice: more
    adapters behind it than that ("Installing 5 adapters in these slots will saturate the RIO
    link")."""
    return _saturated("LINK_SATURATED", "rio_link", topo, ctx)


@rule(
    "PLANAR_SATURATED",
    "warning",
    "I/O planar saturated",
    f"{_PLACEMENT}, step 3 (a 10-slot planar on one GX bus: 1200 MB/s)",
)
def planar_saturated(topo: Topology, ctx: Context) -> list[Finding]:
    """Warning: an I/O planar (one GX bus) binds paths (1200 MB/s planning, 1332 measured);
    advice: more adapters on it than that carries."""
    return _saturated("PLANAR_SATURATED", "planar", topo, ctx)


@rule(
    "DRAWER_SATURATED",
    "warning",
    "RIO2 drawer saturated",
    f"{_PLACEMENT}, step 2 (2.4 GB/s per drawer, 16 adapters); P690 Table 2",
)
def drawer_saturated(topo: Topology, ctx: Context) -> list[Finding]:
    """Warning: a RIO2 drawer binds paths (2400 MB/s planning, 2650 measured); advice: more
    than the 16 adapters x 150 MB/s the paper planned per drawer."""
    return _saturated("DRAWER_SATURATED", "drawer", topo, ctx)


@rule(
    "SLOT_INVALID",
    "error",
    "HBA placement in PCI slots",
    "P690 'Determine the RIO2 slots for adapter placement' (drawer slot map)",
)
def slot_invalid(topo: Topology, ctx: Context) -> list[Finding]:
    """Error for an HBA that does not sit in a PCI slot, two HBAs in one slot, or a slot whose
    number the drawer's slot map does not wire to its PHB (all possible only in loaded files).
    The papers give no slot-type constraint for the FC 6239 (all 20 drawer slots are 64-bit
    PCI-X), so none is checked."""
    me, out = RULES["SLOT_INVALID"], []
    for hba in ctx.of_kind("hba"):
        parent = topo.get(hba.parent)
        if parent is None or parent.kind != "slot":
            out.append(
                me.finding(
                    (hba.id,),
                    f"Adapter {naming.qualified_name(topo, hba)} is not in a PCI slot "
                    f"({'it sits in ' + parent.kind + ' ' + naming.qualified_name(topo, parent) if parent else 'no parent'}).",
                    "Move the adapter into a free PCI slot of an I/O drawer.",
                )
            )
    for slot_id, hbas in ctx.hbas_under.items():
        slot = topo.get(slot_id)
        if slot is None or slot.kind != "slot":
            continue
        direct = [h for h in hbas if topo[h].parent == slot_id]
        if len(direct) > 1:
            out.append(
                me.finding(
                    (slot_id, *direct),
                    f"{ctx.label(slot_id)} holds {len(direct)} adapters ({ctx.names(direct)}); a PCI slot takes one.",
                    f"Move all but one of them to free slots{_free_hint(ctx)}.",
                )
            )
    wiring: dict[str | None, tuple[Component, dict] | None] = {}  # slot's parent -> (PHB, its slot map row)
    for slot in ctx.of_kind("slot"):
        got = wiring.get(slot.parent, False)
        if got is False:
            got = wiring[slot.parent] = _slot_map_row(topo, slot.parent)
        if got is None:
            continue
        phb, row = got
        if slot["number"] not in row.get("slots", ()):
            out.append(
                me.finding(
                    (slot.id, phb.id),
                    f"{ctx.label(slot.id)} is placed under {ctx.label(phb.id)}, but "
                    f"the drawer wires that PHB to slots {ranges(row['slots'])}.",
                    "Re-create the drawer from its part so slots sit under the right PHB.",
                )
            )
    return out


def _slot_map_row(topo: Topology, parent: str | None) -> tuple[Component, dict] | None:
    """(the PHB, the row of its drawer's slot map that wires it) for slots under ``parent``;
    None when the parent is not a PHB or the drawer's part has no row for it."""
    phb = topo.get(parent)
    drawer = topo.ancestor(parent, "drawer") if parent else None
    rows = ((topo.part_of(drawer) if drawer is not None else None) or {}).get("slot_map") or []
    if phb is None or phb.kind != "phb" or not rows:
        return None
    row = next((r for r in rows if r.get("drawer_phb") == phb["drawer_phb"]), None)
    return None if row is None else (phb, row)


def _free_hint(ctx: Context) -> str:
    free = ctx.free_slots[:3]
    return f" (free: {ctx.names([s.id for s in free], short=False)})" if free else ""


@rule(
    "HBA_NO_LPAR",
    "warning",
    "Adapter assigned to a partition",
    "P690 Appendix B 'Zoning requirements' (the HBAs available to the AIX system (LPAR))",
)
def hba_no_lpar(topo: Topology, ctx: Context) -> list[Finding]:
    """Warning for adapters assigned to no partition (no host can use them); error for an
    adapter assigned to a partition of another server."""
    me, out = RULES["HBA_NO_LPAR"], []
    lone, foreign = [], []
    for hba in ctx.of_kind("hba"):
        if not hba["lpar"]:
            lone.append(hba.id)
            continue
        lpar = topo.get(hba["lpar"])
        server = topo.ancestor(hba.id, "server")
        if lpar is not None and server is not None and lpar.parent != server.id:
            foreign.append(hba.id)
    if lone:
        out.append(
            me.finding(
                lone,
                f"{plural(len(lone), 'adapter')} ({ctx.names(lone, short=False)}) "
                f"{'is' if len(lone) == 1 else 'are'} assigned to no partition; no host will use "
                f"{'it' if len(lone) == 1 else 'them'}.",
                "Assign each adapter to the LPAR that should own it (adapter settings, LPAR).",
            )
        )
    for hid in foreign:
        out.append(
            me.finding(
                (hid, topo[hid]["lpar"]),
                f"Adapter {ctx.label(hid)} is assigned to "
                f"{naming.qualified_name(topo, topo[topo[hid]['lpar']])}, a partition of another server.",
                "Assign it to a partition of the server it is installed in.",
                "error",
            )
        )
    return out
