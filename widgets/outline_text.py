"""What the model tree's rows read and carry: a component's details in one line, the HBAs rows stand for."""

from __future__ import annotations

from planner.model import Component, Topology
from planner.naming import label_list, short_label
from planner.schema import KINDS, attr_label, count_label

#: at most this many attributes are shown in the details column
MAX_DETAILS = 3
#: references listed by name up to this many, counted beyond
MAX_NAMED = 3
#: the kinds whose rows may stand for HBAs (see :func:`hbas_of`)
DRAG_KINDS = frozenset(("hba", "slot", "hba_port"))


def hbas_of(topo: Topology, ids: list[str]) -> list[str]:
    """The HBAs that rows ``ids`` stand for: an HBA, the HBA of a port, the HBA in a slot."""
    out: list[str] = []
    for cid in ids:
        comp = topo.get(cid)
        if comp is None:
            continue
        if comp.kind == "hba":
            out.append(cid)
        elif comp.kind == "slot":
            out += [h.id for h in topo.children(cid, "hba")]
        elif comp.kind == "hba_port" and comp.parent:
            out.append(comp.parent)
    return list(dict.fromkeys(out))


def details(topo: Topology, comp: Component) -> str:
    """A component's attributes in one line, from the schema: 'WWPN: 10:00:..., Speed (Gbps): 2'.
    References show the referred components' names (or their count), so a rename shows here too."""
    parts: list[str] = []
    for key, attr in KINDS[comp.kind].attrs.items():
        value = comp.attrs.get(key)
        if key == "index" or value in ("", None, ()):
            continue
        if attr.many:
            text = (
                label_list(topo, value, MAX_NAMED) if len(value) <= MAX_NAMED else count_label(len(value), attr.ref[0])
            )
        elif attr.ref:
            target = topo.get(value)
            text = short_label(target) if target is not None else str(value)
        else:
            text = f"{value:g}" if isinstance(value, float) else str(value)
        parts.append(f"{attr_label(key)}: {text}")
        if len(parts) == MAX_DETAILS:
            break
    if comp.part:
        parts.insert(0, comp.part)
    return ", ".join(parts)
