"""Physical placement rules: units left out of the racks, and units a damaged file stacks into
the same rack units or outside their rack (issue 12)."""

from __future__ import annotations

from planner import placement
from planner.model import Topology
from planner.rules.context import Context
from planner.rules.registry import RULES, Finding, rule
from planner.rules.wording import plural, verb

_SOURCE = "EIA-310 rack units (1U = 44.45 mm); the installer racks from the design's rack elevations"


@rule("UNIT_UNPLACED", "warning", "Units without a rack position", _SOURCE)
def unit_unplaced(topo: Topology, ctx: Context) -> list[Finding]:
    """Once the design has a rack, every rackable unit (server, drawer, switch, subsystem,
    expansion enclosure) should have a rack position; a design with no rack is not checked."""
    if not ctx.of_kind("rack"):
        return []
    left = placement.unplaced(topo)
    if not left:
        return []
    names = ", ".join(ctx.label(c.id) for c in left[:5]) + (", ..." if len(left) > 5 else "")
    return [
        RULES["UNIT_UNPLACED"].finding(
            [c.id for c in left],
            f"{plural(len(left), 'unit')} {verb(len(left), 'has', 'have')} no rack position: {names}. "
            "The build sheet cannot say where to mount them, and their cables have no length.",
            "Drag them into a rack in the Racks panel, or run Design > Racks > Rack everything.",
        )
    ]


@rule("RACK_OVERLAP", "error", "Rack units used twice or outside the rack", _SOURCE)
def rack_overlap(topo: Topology, ctx: Context) -> list[Finding]:
    """A placed unit whose position overlaps another unit, runs past the top of its rack, sits
    in a server frame's reserved units or does not suit the rack (only a damaged or hand-edited
    file carries one: the editor refuses such a position)."""
    return [
        RULES["RACK_OVERLAP"].finding(
            [cid],
            f"{ctx.label(cid)} cannot be mounted where the design puts it: {problem}.",
            "Drag it to free rack units in the Racks panel (or take it out of its rack and run Rack everything).",
        )
        for cid, problem in placement.position_problems(topo).items()
    ]
