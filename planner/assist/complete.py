"""``complete``: run every assistant that applies to a partial design, as one undo step."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from planner.assist.base import Assisted, NothingToDo, assisting, name_of, require
from planner.assist.lvm import build_lvm
from planner.assist.racks import rack_everything
from planner.assist.san import cable_asic_local, zone_for_multipath
from planner.assist.server import assign_lpars, place_hbas
from planner.assist.storage import layout_arrays, map_luns
from planner.model import ModelError, Topology

Step = tuple[str, Callable[[], Assisted]]


def _hba_part(topo: Topology, parts: dict[str, dict[str, Any]] | None) -> dict[str, Any] | None:
    for p in list((parts or {}).values()) + list(topo.parts.values()):
        if p.get("kind") == "hba":
            return p
    return None


def place_missing_hbas(topo: Topology, parts: dict[str, dict[str, Any]] | None = None) -> Assisted:
    """In a design with drawers and subsystems but no HBA: two HBAs per subsystem (the paper's two
    adapters per FAStT600 Turbo, one per controller), at most 16 per drawer, in the paper's slots."""
    drawers = topo.of_kind("drawer")
    need = 2 * len(topo.of_kind("subsystem"))
    part = _hba_part(topo, parts)
    require(not topo.of_kind("hba") and drawers and need and part, "the design already has HBAs (or no drawer)")
    with assisting(topo, "Place HBAs") as a:
        for d in drawers:
            free = sum(1 for s in topo.descendants(d.id) if s.kind == "slot" and not topo.children(s.id, "hba"))
            n = min(need, 16, free)
            if n:
                a.add(place_hbas(topo, d.id, part, n))
                need -= n
        if need:
            a.say(f"{need} more HBA(s) would be needed (two per subsystem): add a drawer")
    return a


def _steps(topo: Topology, parts: dict[str, dict[str, Any]] | None) -> list[Step]:
    """The assistants in the order a design is finished; subsystem and LPAR steps are listed when
    their turn comes (earlier steps may add what they work on)."""
    return [
        ("place HBAs", lambda: place_missing_hbas(topo, parts)),
        ("assign LPARs", lambda: assign_lpars(topo)),
        ("lay out arrays", lambda: _each(topo, "subsystem", lambda s: layout_arrays(topo, s), _no_arrays)),
        ("cable", lambda: cable_asic_local(topo)),
        ("zone", lambda: zone_for_multipath(topo)),
        ("map", lambda: map_luns(topo)),
        ("build LVM", lambda: _each(topo, "lpar", lambda lp: build_lvm(topo, lp), lambda t, c: True)),
        ("rack", lambda: rack_everything(topo)),
    ]


def _no_arrays(topo: Topology, sub: Any) -> bool:
    return not topo.children(sub.id, "array")


def _each(
    topo: Topology, kind: str, step: Callable[[str], Assisted], when: Callable[[Topology, Any], bool]
) -> Assisted:
    with assisting(topo, kind) as a:
        for comp in topo.of_kind(kind):
            if when(topo, comp):
                try:
                    a.add(step(comp.id))
                except NothingToDo:
                    continue
                except ModelError as err:
                    a.say(f"{name_of(topo, comp)}: {err}")
        require(a.commands, f"no {kind} to work on")
    return a


def complete(topo: Topology, parts: dict[str, dict[str, Any]] | None = None) -> Assisted:
    """Finish a partial design (for example a server with HBAs, a switch and subsystems with
    drives, nothing cabled): place HBAs if there are none, give adapters an LPAR, lay out arrays,
    cable ASIC-local, zone for the multipath driver, map the logical drives, build the LVM, rack
    every unit. Each step that has nothing to do is skipped; a step that cannot run says why in a
    line. Raises NothingToDo when no step applies."""
    with assisting(topo, "Complete the design") as a:
        for title, step in _steps(topo, parts):
            try:
                a.add(step())
            except NothingToDo:
                continue
            except ModelError as err:
                a.say(f"{title}: skipped, {err}")
        require(a.commands, "nothing to complete: every assistant finds the design finished")
    return a
