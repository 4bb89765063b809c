"""Which components a reference attribute may sensibly name, and how a candidate reads (no Qt).

The inspector offers these in its reference combos and lists: a logical drive's owner is a
controller of its own subsystem, an HBA's LPAR one of its server's partitions, a zone's members
the ports cabled into its fabric, an array's drives the free drives of its subsystem.
"""

from __future__ import annotations

from collections.abc import Sequence

from planner.model import Component, Topology
from planner.naming import label, qualified_name
from planner.schema import KINDS, PORT_KINDS

#: at most this many candidates in a reference combo or list (the current value is always kept)
MAX_CANDIDATES = 300
#: references whose candidates span the whole design (a cable's end: every free port, 10,700
#: ports looked at on the 16x site): the inspector lists them once the user opens the choice
WIDE_REFS: dict[str, tuple[str, ...]] = {"cable": ("a", "b")}


def _capped(found: list[Component], current: Sequence[str], topo: Topology) -> tuple[list[Component], int]:
    """Cap a candidate list at MAX_CANDIDATES, always keeping the current values; (list, left out)."""
    seen = {c.id for c in found}
    extra = [topo[c] for c in current if c and c not in seen and c in topo]
    shown = found[:MAX_CANDIDATES]
    shown_ids = {c.id for c in shown}
    keep = [topo[c] for c in current if c in seen and c not in shown_ids]
    return shown + keep + extra, max(len(found) - MAX_CANDIDATES - len(keep), 0)


def reference_candidates(topo: Topology, comp: Component, key: str) -> tuple[list[Component], int]:
    """Components ``comp.key`` may sensibly name, and how many more were left out.

    The choice follows what is valid in the domain: a logical drive's owner is a controller of
    its own subsystem, an HBA's LPAR one of its server's partitions, a zone's members the ports
    cabled into its fabric, an array's drives the free drives of its subsystem.
    """
    spec = KINDS[comp.kind].attrs[key]
    value = comp.get(key)
    current: Sequence[str] = tuple(value or ()) if spec.many else ((value,) if value else ())
    found: list[Component]
    pair = (comp.kind, key)
    if pair == ("logical_drive", "owner"):
        sub = topo.ancestor(comp.id, "subsystem")
        found = topo.children(sub.id, "controller") if sub else []
    elif pair == ("hba", "lpar"):
        server = topo.ancestor(comp.id, "server")
        found = topo.children(server.id, "lpar") if server else topo.of_kind("lpar")
    elif pair == ("zone", "members"):
        found = _fabric_end_ports(topo, comp.parent)
    elif pair == ("host_mapping", "hba_ports"):
        found = _zoned_hba_ports(topo, comp.parent) or topo.of_kind("hba_port")
    elif pair == ("host_mapping", "logical_drives"):
        found = [c for c in topo.descendants(comp.parent) if c.kind == "logical_drive"]
    elif pair == ("volume_group", "pvs"):
        taken = {pv for vg in topo.children(comp.parent, "volume_group") if vg.id != comp.id for pv in vg["pvs"]}
        found = [h for h in topo.children(comp.parent, "hdisk") if h.id not in taken]
    elif pair == ("array", "drives"):
        taken = {d for a in topo.children(comp.parent, "array") if a.id != comp.id for d in a["drives"]}
        found = [c for c in topo.descendants(comp.parent) if c.kind == "drive" and c.id not in taken]
    elif comp.kind == "cable" and key in ("a", "b"):
        found = _free_ports_for(topo, comp, "b" if key == "a" else "a")
    else:
        found = [c for k in spec.ref for c in topo.of_kind(k)]
    return _capped(found, current, topo)


def _fabric_end_ports(topo: Topology, fabric: str | None) -> list[Component]:
    out: list[Component] = []
    for sw in topo.of_kind("switch"):
        if sw.get("fabric") != fabric:
            continue
        for sp in topo.descendants(sw.id):
            if sp.kind != "switch_port":
                continue
            peer = topo.get(topo.peer_port(sp.id))
            if peer is not None and peer.kind in ("hba_port", "host_port"):
                out.append(peer)
    return out


def _zoned_hba_ports(topo: Topology, subsystem: str | None) -> list[Component]:
    host_ports = {c.id for c in topo.descendants(subsystem) if c.kind == "host_port"} if subsystem else set()
    found: dict[str, Component] = {}
    for zone in topo.of_kind("zone"):
        members = zone["members"]
        if host_ports.intersection(members):
            for m in members:
                c = topo.get(m)
                if c is not None and c.kind == "hba_port":
                    found[c.id] = c
    return list(found.values())


def _free_ports_for(topo: Topology, cable: Component, other_end: str) -> list[Component]:
    other = topo.get(cable.get(other_end))
    if other is None:
        kinds: tuple[str, ...] = PORT_KINDS
    elif other.kind == "switch_port":
        kinds = PORT_KINDS
    else:
        kinds = ("switch_port",)
    other_switch = topo.ancestor(other.id, "switch") if other is not None and other.kind == "switch_port" else None
    cabled = {end for cab in topo.of_kind("cable") for end in (cab.get("a"), cab.get("b")) if end}
    out = []
    for kind in kinds:  # (a port's own cable looked up port by port: 10,700 on the 16x site, 4-7 ms)
        for port in topo.of_kind(kind):
            if port is other or port.id in cabled:
                continue
            if other_switch is not None and kind == "switch_port" and topo.ancestor(port.id, "switch") is other_switch:
                continue
            out.append(port)
    return out


def candidate_label(topo: Topology, comp: Component) -> str:
    """How a candidate reads in a reference list: its label plus where it is plugged in."""
    text = label(topo, comp)
    if comp.kind in PORT_KINDS:
        peer = topo.get(topo.peer_port(comp.id))
        if peer is not None:
            return f"{text} - {label(topo, peer)}"
    ld = topo.get(comp.get("logical_drive")) if "logical_drive" in KINDS[comp.kind].attrs else None
    if ld is not None:
        return f"{text} - {label(topo, ld)}"
    return text


def slot_candidates(topo: Topology, hba: Component) -> list[Component]:
    """The PCI slots an HBA may be in: its own slot first, then the free slots of its server
    (every free slot when it is in no server), in drawer and slot order."""
    server = topo.ancestor(hba.id, "server")
    slots = [c for c in topo.descendants(server.id) if c.kind == "slot"] if server else topo.of_kind("slot")
    own = [topo[hba.parent]] if hba.parent in topo else []
    return own + [s for s in slots if s.id != hba.parent and not topo.children(s.id, "hba")]


def slot_label(topo: Topology, slot: Component) -> str:
    """A slot with the PHB and RIO2 link it hangs off: 'Slot 4 of Drawer 1 - PHB1, link0 of Planar 0'."""
    text = label(topo, slot)
    phb, link, planar = (topo.ancestor(slot.id, k) for k in ("phb", "rio_link", "planar"))
    where = [qualified_name(topo, c) for c in (phb, link) if c is not None]
    if where and planar is not None:
        where[-1] += f" of {qualified_name(topo, planar)}"
    return f"{text} - {', '.join(where)}" if where else text
