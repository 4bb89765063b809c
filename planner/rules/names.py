"""Naming rules: two devices the installer, the cabling sheet or NetBox can only tell apart by a
name they share."""

from __future__ import annotations

from planner import placement
from planner.model import Component, Topology
from planner.rules.context import Context
from planner.rules.registry import RULES, Finding, rule
from planner.schema import KINDS

#: the components whose names must differ from their siblings': everything at the top level
#: (servers, switches, subsystems, fabrics, cables, sites) and what a server or a site holds
#: directly (drawers, LPARs, racks)
_SCOPES = (None, "server", "site")
#: the kinds the NetBox export makes devices, racks or sites of (unique names there)
_NETBOX = frozenset({*placement.placeable_kinds(), "rack", "site"})


@rule(
    "NAME_DUPLICATE",
    "warning",
    "Two components of one kind share a name",
    "NetBox dcim Device constraint dcim_device_unique_name_site_tenant (a device name is unique, ignoring "
    "case, within a site); ANSI/TIA-606 labelling (each cable and unit carries its own identifier)",
)
def name_duplicate(topo: Topology, ctx: Context) -> list[Finding]:
    """Warning for each name that two or more components of one kind carry side by side: at the
    top level (two switches 'sw1', two cables 'D1-S1-SW1P00') or inside one server or site (two
    drawers 'Drawer 1'). The build sheet, the cabling sheet and the zoning scripts name them by
    that name, and NetBox refuses a second device of one name in a site. Names compare ignoring
    case, as NetBox compares them; unnamed components (shown by their ids) are not checked."""
    me = RULES["NAME_DUPLICATE"]
    out = []
    for parent in _parents(topo):
        groups: dict[tuple[str, str], list[Component]] = {}
        for c in topo.children(parent):
            if c.name:
                groups.setdefault((c.kind, c.name.casefold()), []).append(c)
        for (kind, _), same in groups.items():
            if len(same) < 2:
                continue
            ids = [c.id for c in same]
            where = f" in {ctx.label(parent)}" if parent else ""
            shown = ", ".join(ids[:6]) + (f" and {len(ids) - 6} more" if len(ids) > 6 else "")
            netbox = ", and NetBox takes only one of a name in a site" if kind in _NETBOX else ""
            out.append(
                me.finding(
                    ids,
                    f"{len(same)} {KINDS[kind].plural}{where} are named {same[0].name!r} (ids {shown}): the build "
                    f"sheet, the cabling sheet and the zoning scripts cannot tell them apart{netbox}.",
                    f"Give each {KINDS[kind].name} its own name (select it; the Name field of the inspector).",
                )
            )
    return out


def _parents(topo: Topology) -> list[str | None]:
    """The top level and every component whose children must be told apart by name."""
    return [None] + [c.id for kind in _SCOPES[1:] for c in topo.of_kind(kind)]
