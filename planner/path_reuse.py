"""Which HBA ports' paths an edit can change, inside a connected part (no Qt).

A part is re-made after every edit that touches it (:class:`planner.incremental.Partition`);
its paths were searched again for every HBA port of it. On a data centre whose hosts share
their fabrics and subsystems the whole design is one part (384 hosts, 25,658 components, 1,536
HBA ports), and every edit searched 1,536 ports' paths, about a third of the analysis. The
search of one port reads only what lies on its way (:func:`planner.analysis.paths_from`): its
own chain up to the server, its cable and the switch port at the other end, the zones naming
it and their members, those members' cables and switch ports, the inter-switch links between
(with each switch's ASICs and backplane), the controllers and subsystems of the host ports it
reaches (a subsystem's part says whether RDAC serves only from the owning controller), the
host mappings naming it and their logical drives (each one's owner). :func:`affected_ports`
names the ports whose search read or would read something the edit changed; the others keep
their paths (the same ids, hop for hop: a fresh search would find them again).

Why the list is whole. A changed component, old or new version, is either on a path found
before (its id among that path's hops or a standby path's: the port is named), or it can make
a path only through a reference or a parent link that the search follows from a port: a cable
(both ends named, old and new), a zone (its members, old and new), a host mapping (its ports
and logical drives), a logical drive or host port named by a zone or mapping (their ports
named), a container of HBA ports (its ports now). A change to what every route between
switches reads (a switch, an ASIC, a backplane, a fabric, a cable between two switch ports)
names every port.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from planner.analysis import HOP_LEVELS, Load, Path, _load_of, _Mixed
from planner.capacity import Capacities
from planner.model import Component, Topology
from planner.part_search import PLACING
from planner.schema import KINDS, spec


def _above(kind: str) -> set[str]:
    """The kinds a component of ``kind`` may sit inside, at any depth (from the schema)."""
    out: set[str] = set()
    todo = [kind]
    while todo:
        for parent in spec(todo.pop()).parents:
            if parent is not None and parent not in out:
                out.add(parent)
                todo.append(parent)
    return out


#: kinds whose change may re-route any path of the part (the routes between switches read them):
#: what holds a switch port, what else those hold (a switch's backplane), and what a switch
#: names (its fabric; not where it stands)
_SWITCHING = _above("switch_port")
EVERY_PORT = frozenset(
    {
        *_SWITCHING,
        *(k for k in KINDS if _SWITCHING.intersection(p for p in spec(k).parents if p)),
        *(r for k in _SWITCHING for a in spec(k).attrs.values() if a.ref for r in a.ref if r not in PLACING),
    }
) - {"switch_port"}
#: kinds that hold HBA ports below them (a port's path starts from its chain up to the server)
HOLDERS = frozenset(_above("hba_port"))


def affected_ports(
    topo: Topology, ids: Iterable[str], olds: dict[str, Component], old_paths: Iterable[Path]
) -> set[str] | None:
    """The HBA ports of ``topo`` (after the edit) or of the parts before it whose paths may
    differ after an edit that changed ``ids`` (added, removed or changed components, and the
    ids named by references); ``olds``: the components before the edit, by id (those of the
    parts re-made); ``old_paths``: those parts' paths and standby paths. None: every port."""
    comps, kinds = topo._components, topo._by_kind
    switch_ports = kinds["switch_port"]

    def was_switch_port(x: str | None) -> bool:
        return x in switch_ports or (x in olds and olds[x].kind == "switch_port")  # type: ignore[operator]

    near: set[str] = set(ids)
    holders: list[str] = []
    for cid in ids:
        for comp in (olds.get(cid), comps.get(cid)):
            if comp is None:
                continue
            kind, attrs = comp.kind, comp.attrs
            if kind in EVERY_PORT:
                return None
            if kind == "cable":
                a, b = attrs.get("a"), attrs.get("b")
                if was_switch_port(a) and was_switch_port(b):
                    return None  # an inter-switch link
                near.update(x for x in (a, b) if x)
            elif kind == "zone":
                near.update(x for x in attrs.get("members") or () if x)
            elif kind == "host_mapping":
                near.update(x for x in attrs.get("hba_ports") or () if x)
                near.update(x for x in attrs.get("logical_drives") or () if x)
            elif kind in HOLDERS and comp is comps.get(cid):
                holders.append(cid)
    hba_ports = kinds["hba_port"]
    out = {p.hba_port for p in old_paths if not near.isdisjoint(p.hops)}
    out.update(x for x in near if x in hba_ports or (x in olds and olds[x].kind == "hba_port"))
    for x in near:  # the zones and mappings naming it now (changed ones named their members above)
        for r, _attr in topo._refs_to.get(x, ()):
            ref = comps.get(r)
            if ref is None:
                continue
            if ref.kind == "zone":
                out.update(m for m in ref.attrs.get("members") or () if m in hba_ports)
            elif ref.kind == "host_mapping":
                out.update(m for m in ref.attrs.get("hba_ports") or () if m in hba_ports)
    tops = set(holders)  # (one inside another changed holder is walked with it: a server
    for cid in holders:  # restored changes every drawer, slot and HBA below it too)
        if comps[cid].parent not in tops:  # its ports now (those before: on the paths above, or changed too)
            out.update(c.id for c in topo.descendants(cid) if c.kind == "hba_port")
    return out


#: attributes no analysis reads (names, WWPNs, labels, cable lengths and media, where a unit
#: stands): an edit of only these leaves a part's figures as they were
NO_FIGURES = frozenset({"wwpn", "wwpn_placeholder", "label", "length_m", "media", "location", "description", "address"})


def figure_changes(before: dict[str, Component], comps: dict[str, Component]) -> list[str] | None:
    """Of the components an edit changed (``before``: each as it was; ``comps``: the design's
    now), those that changed an attribute an analysis may read (any but the name and
    :data:`NO_FIGURES`); None when one was removed or changed its kind, parent or part."""
    out = []
    for cid, was in before.items():
        now = comps.get(cid)
        if was is None or now is None or (was.kind, was.parent, was.part) != (now.kind, now.parent, now.part):
            return None
        keys = was.attrs.keys() | now.attrs.keys()
        if any(was.attrs.get(k) != now.attrs.get(k) for k in keys if k not in NO_FIGURES):
            out.append(cid)
    return out


def same_shape(old: Any, new: Any) -> bool:
    """Whether part ``new`` (a :class:`planner.incremental._Part` re-made after an edit) has
    the members, ports and paths of part ``old`` (ids and hops, standby too): with the changed
    components' figures as they were (:func:`figure_changes` empty), its allocation is old's.
    A WWPN typed or a host renamed in a data centre whose one part holds 1,536 paths
    re-allocated all of them (70 ms)."""
    if old.members != new.members or old.ports != new.ports or old.unreachable != new.unreachable:
        return False
    return _hops(old.paths) == _hops(new.paths) and _hops(old.standby) == _hops(new.standby)


def _hops(paths: Iterable[Path]) -> list[tuple[str, list[str]]]:
    return [(p.id, p.hops) for p in paths]


_HOPS = frozenset(HOP_LEVELS)  # the kinds with a capacity


def same_loads(
    topo: Topology,
    options: tuple[str, str, str, float | None],
    loads: dict[str, Load],
    idle: dict[str, Load],
    changes: list[str],
) -> bool:
    """Whether an allocation under ``options`` with no workload demand (``loads``: the hops its
    paths cross; ``idle``: the other components with a capacity), of a part re-made with the
    members and paths it had (:func:`same_shape`), still holds after an edit that changed an
    attribute an analysis may read on each of ``changes``: each of them, and the subsystem of a
    changed array (its figure from disk averages its arrays' layouts), has the Load figures it
    had (capacity, each way's, source, estimate), and no workload has a target. Exact because an
    allocation reads nothing else an attribute sets: a capacity comes from the component's own
    attributes and the parts of it and its ancestors (planner.capacity; the edit changed no
    part); a mixed run's read shares come from the volume groups, volumes, workloads and hdisks
    (planner.analysis.path_read_shares), none of them a kind with a capacity, so a mixed run
    keeps its allocation only when every changed component has one. A segment size changed on
    the data centre (one part of 1,536 paths) re-allocated all of them: 100-150 ms of the edit
    in the editor."""
    figures, direction, source, _ = options
    comps = topo._components
    if any(wl["target_mbps"] > 0 for wl in topo.of_kind("workload")):
        return False
    if direction == "mixed":
        if any(comps[c].kind not in _HOPS for c in changes):
            return False
        mixed = _Mixed(topo, Capacities(topo, figures, "read", source), Capacities(topo, figures, "write", source))
        new_load = mixed.load
    else:
        cap = Capacities(topo, figures, direction, source)
        new_load = lambda comp: _load_of(comp, cap(comp))  # noqa: E731
    ids = dict.fromkeys(changes)
    for cid in changes:
        if comps[cid].kind == "array":
            ids[comps[cid].parent] = None  # type: ignore[index]
    for cid in ids:
        comp = comps.get(cid)
        if comp is None:
            return False
        now = new_load(comp) if comp.kind in _HOPS else None
        was = loads.get(cid) or idle.get(cid)  # (an idle one with no capacity: neither)
        if was is None:
            if now is not None and now.capacity is not None:
                return False
        elif now is None or _figures(was) != _figures(now):
            return False
    return True


def _figures(ld: Load) -> tuple:
    return (ld.capacity, ld.read_capacity, ld.write_capacity, ld.duplex, ld.source, ld.estimate)
