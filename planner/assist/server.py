"""Server-side assistants: place HBAs in a drawer the paper's way, give adapters an LPAR."""

from __future__ import annotations

from typing import Any

from planner import edit
from planner.assist.base import Assisted, NothingToDo, assisting, expect, name_of
from planner.figures import figure
from planner.model import Component, ModelError, Topology
from planner.naming import counted

#: The paper's 16 adapter slots of a 7040-61D drawer, in its order [P690 'Determine the RIO2
#: slots for adapter placement': PHB1 slots 1-3, PHB2 5-7, PHB3 8-9 on each planar]
PAPER_SLOTS = (1, 2, 3, 5, 6, 7, 8, 9, 11, 12, 13, 15, 16, 17, 18, 19)
_PLANNING_HBA = 150.0  # P690 step 1: plan 150 MB/s per adapter when many are busy


def _capacity(topo: Topology, comp: Component, drawer: Component) -> float | None:
    """Planning capacity of a PHB, RIO2 link, planar or drawer from the drawer part."""
    part = topo.part_of(drawer)
    if comp.kind == "rio_link":
        fig = figure(part, f"rio_link{comp['index']}", "planning", "read") or figure(
            part, "rio_link", "planning", "read"
        )
    else:
        fig = figure(part, comp.kind, "planning", "read")
    return fig.value if fig is not None else None


def _chain(topo: Topology, slot: Component) -> list[Component]:
    """The slot's PHB, RIO2 link, planar and drawer."""
    out, c = [], topo.get(slot.parent)
    while c is not None and c.kind != "server":
        out.append(c)
        c = topo.get(c.parent)
    return out


def _pressure(topo: Topology, slot: Component, drawer: Component, count: dict[str, int], per: float) -> tuple:
    """How full the slot's chain would be with one more adapter: utilisations, fullest first."""
    ratios = []
    for c in _chain(topo, slot):
        cap = _capacity(topo, c, drawer)
        if cap:
            ratios.append((count.get(c.id, 0) + 1) * per / cap)
    return tuple(sorted(ratios, reverse=True))


def slot_order(topo: Topology, drawer_id: str, count: int, beyond_paper: bool = False) -> list[Component]:
    """The free slots of ``drawer_id`` for ``count`` new adapters: among the paper's 16 slots (all
    free slots with ``beyond_paper``), each next adapter goes where the fullest of its PHB, RIO2
    link, planar and drawer is least full at the planning figures, ties in the paper's order.
    Raises ModelError when the slots run out."""
    drawer = expect(topo, drawer_id, "drawer")
    slots = [c for c in topo.descendants(drawer_id) if c.kind == "slot"]
    free = [s for s in slots if not topo.children(s.id, "hba")]
    rank = {n: i for i, n in enumerate(PAPER_SLOTS)}
    allowed = [s for s in free if beyond_paper or s["number"] in rank]
    allowed.sort(key=lambda s: (rank.get(s["number"], 99), s["number"]))
    if count > len(allowed):
        used = len(slots) - len(free)
        raise ModelError(
            f"{name_of(topo, drawer)} has {counted(len(allowed), 'free slot')} of the paper's 16 for {count} adapters "
            f"({counted(used, 'slot')} already hold adapters); 16 adapters at 150 MB/s fill a drawer's 2.4 GB/s "
            "(P690 step 2): add a drawer, or place fewer adapters"
        )
    counts: dict[str, int] = {}
    for hba in (c for c in topo.descendants(drawer_id) if c.kind == "hba"):
        for c in _chain(topo, topo[hba.parent]):
            counts[c.id] = counts.get(c.id, 0) + 1
    chosen: list[Component] = []
    for _ in range(count):
        best = min(allowed, key=lambda s: (_pressure(topo, s, drawer, counts, _PLANNING_HBA), allowed.index(s)))
        allowed.remove(best)
        chosen.append(best)
        for c in _chain(topo, best):
            counts[c.id] = counts.get(c.id, 0) + 1
    return chosen


def _only_lpar(topo: Topology, server: Component | None) -> str:
    lpars = topo.children(server.id, "lpar") if server is not None else []
    return lpars[0].id if len(lpars) == 1 else ""


def place_hbas(
    topo: Topology,
    drawer_id: str,
    hba_part: dict[str, Any],
    count: int = 16,
    lpar: str = "",
    beyond_paper: bool = False,
    parts: Any = None,
) -> Assisted:
    """Put ``count`` HBAs into ``drawer_id`` in the paper's slot order, spread so no PHB, RIO2
    link or planar saturates before the others (:func:`slot_order`). Each goes to ``lpar`` or the
    server's only LPAR. Raises ModelError when slots run out or ``count`` < 1."""
    if count < 1:
        raise ModelError("place at least one HBA")
    slots = slot_order(topo, drawer_id, count, beyond_paper)
    owner = lpar or _only_lpar(topo, topo.ancestor(drawer_id, "server"))
    with assisting(topo, f"Place {counted(count, 'HBA')} in {name_of(topo, drawer_id)}") as a:
        for slot in slots:
            b = edit.add_hba(topo, slot.id, hba_part, lpar=owner)
            hba = topo.children(slot.id, "hba")[0]
            phb = topo[slot.parent]
            link = topo[phb.parent]
            a.add(b, f"placed {name_of(topo, hba)} ({phb.name}, {link.name} of {topo[link.parent].name})")
        a.say(
            "slots follow the paper's 16-per-drawer order, spread over PHBs and RIO2 links at 150 MB/s per "
            "adapter (P690 'Determine the RIO2 slots for adapter placement')"
        )
        if not owner:
            a.say("the adapters have no LPAR yet: assign them to the partition that owns them")
    return a


def assign_lpars(topo: Topology, hbas: list[str] | None = None) -> Assisted:
    """Give adapters without an LPAR (or on another server's LPAR) their server's LPAR, creating
    'lpar1' (RDAC, the paper's driver) on a server that has none. Raises ModelError when a server
    has several LPARs (which one is the user's choice); NothingToDo when every adapter has one."""
    todo = []
    for h in topo.of_kind("hba") if hbas is None else [topo[i] for i in hbas]:
        server = topo.ancestor(h.id, "server")
        lp = topo.get(h["lpar"])
        if server is not None and (lp is None or lp.parent != server.id):
            todo.append((h, server))
    if not todo:
        raise NothingToDo("every adapter already belongs to an LPAR of its server")
    with assisting(topo, "Assign adapters to LPARs") as a:
        for h, server in todo:
            lpars = topo.children(server.id, "lpar")
            if len(lpars) > 1:
                raise ModelError(
                    f"{name_of(topo, server)} has {len(lpars)} LPARs; choose the one for {name_of(topo, h)} yourself"
                )
            if not lpars:
                a.add(edit.add_lpar(topo, server.id, "lpar1", multipath=_driver(topo)))
                a.say(f"added LPAR lpar1 on {name_of(topo, server)} (multipath {_driver(topo)})")
                lpars = topo.children(server.id, "lpar")
            a.add(edit.set_attr(topo, h.id, "lpar", lpars[0].id), f"assigned {name_of(topo, h)} to {lpars[0].name}")
    return a


def _driver(topo: Topology) -> str:
    """The multipath driver the design's subsystems offer first (RDAC for FAStT, SDD for ESS)."""
    for sub in topo.of_kind("subsystem"):
        drivers = (topo.part_of(sub) or {}).get("multipath") or []
        if drivers:
            return drivers[0]
    return "RDAC"
