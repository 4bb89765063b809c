"""SAN assistants: pair HBA ports with storage ports, cable them ASIC-local, zone per driver.

Pairing [P690 Appendix B 'Zoning requirements']: a subsystem's host ports are taken controller
by controller (A1, B1, A2, B2), and HBA n works with host port n: two HBAs per FAStT, the first
with controller A, the second with B; four HBAs with one FAStT900 get A1, B1, A2, B2. With fewer
HBAs than host ports each HBA takes more ports, but under RDAC never two of one controller.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from planner import edit
from planner.assist.base import Assisted, assisting, expect, name_of, require, token
from planner.model import Component, ModelError, Topology
from planner.naming import counted

Distance = Callable[[str, str], "int | None"]


def host_ports_in_order(topo: Topology, sub: Component) -> list[Component]:
    """A subsystem's host ports interleaved by controller: A1, B1, A2, B2."""
    ctls = topo.children(sub.id, "controller")
    ports = {c.id: sorted(topo.children(c.id, "host_port"), key=lambda p: p["index"]) for c in ctls}
    most = max((len(v) for v in ports.values()), default=0)
    return [ports[c.id][i] for i in range(most) for c in ctls if i < len(ports[c.id])]


def driver_of(topo: Topology, hba_port: str) -> str:
    """The multipath driver of the LPAR that owns the HBA port (RDAC when it has none)."""
    hba = topo.get(topo[hba_port].parent)
    lpar = topo.get(hba["lpar"]) if hba is not None and hba.kind == "hba" else None
    return lpar["multipath"] if lpar is not None else "RDAC"


def rdac_applies(topo: Topology, hba_port: str, host_port: str) -> bool:
    """RDAC's one-path-per-controller rule holds for this pair: the host runs RDAC and the
    subsystem is driven by it (P690 Appendix B)."""
    sub = topo.ancestor(host_port, "subsystem")
    drivers = ((topo.part_of(sub) if sub is not None else None) or {}).get("multipath") or ["RDAC"]
    return driver_of(topo, hba_port) == "RDAC" and "RDAC" in drivers


def pair_ports(
    topo: Topology, hbas: list[str], hosts: list[str], distance: Distance, load: dict[str, int] | None = None
) -> list[tuple[str, str]]:
    """Which HBA port works with which host port (see the module docstring).

    Each HBA port takes the least used reachable host port (nearest, then first); then each host
    port still unused goes to the reachable HBA port with fewest partners. ``distance(h, t)`` is
    None when ``h`` cannot reach ``t``; ``load`` counts partners a host port already has."""
    load = {t: (load or {}).get(t, 0) for t in hosts}
    ctls: dict[str, set[str]] = {h: set() for h in hbas}
    pairs: list[tuple[str, str]] = []

    def allowed(h: str, t: str) -> bool:
        ctl = topo[t].parent or ""
        return distance(h, t) is not None and not (ctl in ctls[h] and rdac_applies(topo, h, t))

    def take(h: str, t: str) -> None:
        pairs.append((h, t))
        load[t] += 1
        ctls[h].add(topo[t].parent or "")

    for h in hbas:
        cands = [t for t in hosts if allowed(h, t)]
        if cands:
            take(h, min(cands, key=lambda t: (load[t], distance(h, t), hosts.index(t))))
    for t in hosts:
        cands = [h for h in hbas if not load[t] and allowed(h, t)]
        if cands:
            take(min(cands, key=lambda h: (len(ctls[h]), distance(h, t), hbas.index(h))), t)
    order = {h: i for i, h in enumerate(hbas)}
    return sorted(pairs, key=lambda p: order[p[0]])


# -- cabling -----------------------------------------------------------------------------------


def _free_hba_ports(topo: Topology) -> list[str]:
    return [p.id for p in topo.of_kind("hba_port") if topo.cable_at(p.id) is None and topo.ancestor(p.id, "server")]


def _free_host_ports(topo: Topology, subs: Iterable[Component]) -> list[str]:
    return [p.id for s in subs for p in host_ports_in_order(topo, s) if topo.cable_at(p.id) is None]


def _chunks(items: list, n: int) -> list[list]:
    size, extra = divmod(len(items), n)
    out, start = [], 0
    for i in range(n):
        end = start + size + (1 if i < extra else 0)
        out.append(items[start:end])
        start = end
    return out


def _scope(topo: Topology, switches: list[Component]) -> dict[str, tuple[list[str], list[str]]]:
    """Switch id -> (HBA ports, host ports) to cable to it: a port zoned in a switch's fabric goes
    there; otherwise one drawer per switch when they are as many, else even shares, and the
    subsystems (whole) in even shares."""
    hbas, subs = _free_hba_ports(topo), topo.of_kind("subsystem")
    out = {s.id: ([], []) for s in switches}
    by_fabric = {s["fabric"]: s.id for s in switches}
    zoned = {m: by_fabric[z.parent] for z in topo.of_kind("zone") if z.parent in by_fabric for m in z["members"]}
    drawers = list(dict.fromkeys(topo.ancestor(h, "drawer").id for h in hbas if topo.ancestor(h, "drawer")))
    rest = [h for h in hbas if h not in zoned]
    if len(switches) > 1 and len(drawers) == len(switches):
        shares = [[h for h in rest if topo.ancestor(h, "drawer").id == d] for d in drawers]
    else:
        shares = _chunks(rest, len(switches))
    for sw, share in zip(switches, shares):
        out[sw.id][0].extend(share)
    sub_shares = _chunks(subs, len(switches))
    for sw, share in zip(switches, sub_shares):
        out[sw.id][1].extend(t for t in _free_host_ports(topo, share) if t not in zoned)
    for port, sw_id in zoned.items():
        if topo.get(port) is not None and topo.cable_at(port) is None:
            out[sw_id][0 if topo[port].kind == "hba_port" else 1].append(port)
    return out


def _zoned_pairs(topo: Topology, ports: set[str]) -> list[tuple[str, str]]:
    """(HBA port, host port) pairs the zones already make among ``ports``."""
    out = []
    for z in topo.of_kind("zone"):
        members = [m for m in z["members"] if m in ports]
        hs = [m for m in members if topo[m].kind == "hba_port"]
        out += [(h, t) for h in hs for t in members if topo[t].kind == "host_port"]
    return list(dict.fromkeys(out))


def _groups(pairs: list[tuple[str, str]], singles: list[str]) -> list[list[str]]:
    """Ports that must share an ASIC (connected by pairs), in order of first appearance."""
    root: dict[str, str] = {}

    def find(x: str) -> str:
        root.setdefault(x, x)
        while root[x] != x:
            x = root[x]
        return x

    for h, t in pairs:
        root[find(h)] = find(t)
    groups: dict[str, list[str]] = {}
    for h, t in pairs:
        for p in (h, t):
            g = groups.setdefault(find(p), [])
            if p not in g:
                g.append(p)
    return list(groups.values()) + [[s] for s in singles if s not in root]


def _label(topo: Topology, port: Component, sw: Component, number: int) -> str:
    owner = topo.ancestor(port.id, "hba") or topo.ancestor(port.id, "subsystem")
    head = token(owner.name or owner.id) if port.kind == "hba_port" else f"{token(owner.name)}-{token(port.name)}"
    return f"{head}-{token(sw.name)}P{number:02d}"[-64:]


def _cable_switch(topo: Topology, sw: Component, hbas: list[str], hosts: list[str]) -> Assisted:
    """Cable ``hbas`` and ``hosts`` to free ports of ``sw``, each pair on one ASIC."""
    here = {p.id: topo[p.parent].id for a in topo.children(sw.id, "asic") for p in topo.children(a.id, "switch_port")}
    fixed = {}  # port already cabled to this switch -> its ASIC
    for port in topo.of_kind("hba_port") + topo.of_kind("host_port"):
        peer = topo.peer_port(port.id)
        if peer in here:
            fixed[port.id] = here[peer]
    pairs = _zoned_pairs(topo, set(hbas) | set(hosts) | set(fixed))
    pairs = [p for p in pairs if not (p[0] in fixed and p[1] in fixed)]
    done_h = {h for h, _ in pairs}
    pairs += pair_ports(topo, [h for h in hbas if h not in done_h], hosts, lambda h, t: 0)
    free = {
        a.id: [
            p
            for p in sorted(topo.children(a.id, "switch_port"), key=lambda p: p["index"])
            if topo.cable_at(p.id) is None
        ]
        for a in topo.children(sw.id, "asic")
    }
    paired = {p for pair in pairs for p in pair}
    left = [t for t in hosts if t not in paired]
    with assisting(topo, f"Cable to {sw.name} ASIC-local") as a:
        for group in _groups(pairs, hbas):
            todo = [p for p in group if p not in fixed and (p in hbas or p in hosts)]
            asic = _asic_for(free, [fixed[p] for p in group if p in fixed], len(todo))
            for p in todo:
                if not free[asic]:
                    asic = max(free, key=lambda x: len(free[x]))
                    if not free[asic]:
                        raise ModelError(
                            f"{name_of(topo, sw)} has no free port left for {name_of(topo, p)}; add a switch"
                        )
                    a.say(
                        f"{name_of(topo, p)} could not join its partner's ASIC (full): its traffic crosses the backplane"
                    )
                a.add(_cable(topo, topo[p], sw, free[asic].pop(0)))
        if left:
            a.say(f"left uncabled (no HBA to work with): {', '.join(name_of(topo, t) for t in left)}")
    return a


def _asic_for(free: dict[str, list[Component]], preferred: list[str], need: int) -> str:
    for asic in preferred + list(free):
        if len(free[asic]) >= need:
            return asic
    return max(free, key=lambda x: len(free[x]))


def _cable(topo: Topology, port: Component, sw: Component, sp: Component) -> Assisted:
    length = 5 if port.kind == "hba_port" else 3
    label = _label(topo, port, sw, sp["index"])
    with assisting(topo, f"Cable {port.id}") as a:
        a.add(
            edit.add_cable(topo, port.id, sp.id, label=label, length_m=length),
            f"cabled {name_of(topo, port)} to {name_of(topo, sp)} ({topo[sp.parent].name}), label {label}, {length} m",
        )
    return a


def cable_asic_local(topo: Topology, switch_id: str | None = None, parts: object = None) -> Assisted:
    """Cable the uncabled HBA ports and storage host ports to free ports of ``switch_id`` (or of
    every switch), each HBA on the ASIC of the storage port it works with, as the paper's final
    cabling [P690 Appendix C]: pairs from the zones, else from :func:`pair_ports`. Cable lengths
    are estimates (5 m to the server, 3 m to the storage, as the bundled example): measure the
    runs. Raises ModelError when there is no switch or no free port; NothingToDo when all is cabled."""
    switches = [expect(topo, switch_id, "switch")] if switch_id else topo.of_kind("switch")
    require(switches, "there is no switch to cable to: add a 2109-F32 first")
    scope = _scope(topo, switches)
    require([1 for h, t in scope.values() if h or t], "every HBA port and storage port is already cabled")
    with assisting(topo, "Cable ASIC-local") as a:
        for sw in switches:
            hbas, hosts = scope[sw.id]
            if hbas or hosts:
                a.add(_cable_switch(topo, sw, hbas, hosts))
        a.say("cable lengths are estimates (5 m server side, 3 m storage side): measure the runs")
    return a


# -- zoning ------------------------------------------------------------------------------------


def _attached(topo: Topology, fabric: str) -> dict[str, Component]:
    """HBA and host port id -> the switch port it is cabled to, for switches of ``fabric``."""
    out = {}
    for sw in topo.of_kind("switch"):
        if sw["fabric"] != fabric:
            continue
        for sp in (c for c in topo.descendants(sw.id) if c.kind == "switch_port"):
            peer = topo.peer_port(sp.id)
            if peer is not None and topo[peer].kind in ("hba_port", "host_port"):
                out[peer] = sp
    return out


RDAC_RULE = (
    "RDAC: each HBA sees exactly one port of each controller it uses; two HBAs per FAStT, the first "
    "with controller A, the second with B (P690 Appendix B 'Zoning requirements')"
)
SDD_RULE = (
    "{driver}: the driver balances I/O over every path to a LUN (SASAIX Listing 1, vpaths over several "
    "paths); one HBA port and one storage port per zone, nearest first, and all the LPAR's HBAs on a "
    "subsystem in one partition, so each LUN is reached through each of them"
)


def zone_for_multipath(topo: Topology, fabric: str | None = None, parts: object = None) -> Assisted:
    """Zone every cabled HBA port that is in no zone, per its LPAR's multipath driver: one zone
    per (HBA port, storage port) pair from :func:`pair_ports`, ASIC-local pairs first. RDAC: one
    port of each controller per HBA; SDD, SDDPCM, MPIO: as :data:`SDD_RULE`. NothingToDo when
    every cabled HBA port is zoned."""
    fabrics = [expect(topo, fabric, "fabric")] if fabric else topo.of_kind("fabric")
    zoned = {m for z in topo.of_kind("zone") for m in z["members"]}
    with assisting(topo, "Zone for the multipath driver") as a:
        drivers: set[str] = set()
        for fab in fabrics:
            where = _attached(topo, fab.id)
            hbas = [p for p in where if topo[p].kind == "hba_port" and p not in zoned]
            hosts = [p.id for s in topo.of_kind("subsystem") for p in host_ports_in_order(topo, s) if p.id in where]
            load = {t: sum(1 for z in topo.of_kind("zone") if t in z["members"]) for t in hosts}

            def distance(h: str, t: str, where: dict[str, Component] = where) -> int:
                same_switch = topo[where[h].parent].parent == topo[where[t].parent].parent
                return 0 if where[h].parent == where[t].parent else (1 if same_switch else 2)

            for h, t in pair_ports(topo, hbas, hosts, distance, load):
                a.add(_zone(topo, fab, h, t))
                drivers.add(driver_of(topo, h))
        require(a.commands, "every cabled HBA port is already zoned (or no storage port is cabled in its fabric)")
        for d in sorted(drivers):
            a.say(RDAC_RULE if d == "RDAC" else SDD_RULE.format(driver=d))
    return a


def _zone(topo: Topology, fab: Component, h: str, t: str) -> Assisted:
    hba, sub = topo.ancestor(h, "hba"), topo.ancestor(t, "subsystem")
    name = f"Z_{token(hba.name)}_{token(sub.name)}_{token(topo[t].name)}"[:64]
    with assisting(topo, f"Zone {name}") as a:
        a.add(
            edit.add_zone(topo, fab.id, name, [h, t]),
            f"zone {name} in {fab.name}: {name_of(topo, h)} with {name_of(topo, t)} ({topo[topo[t].parent].name})",
        )
    return a


def recable_asic_local(topo: Topology, switch_id: str) -> Assisted:
    """Re-cable the zoned HBA and storage ports of ``switch_id`` so each zoned pair shares an
    ASIC, as the paper re-cabled its first design [P690 Appendix C]; zones stay as they are."""
    sw = expect(topo, switch_id, "switch")
    zoned = {m for z in topo.of_kind("zone") for m in z["members"]}
    ports = [
        p
        for p in _attached(topo, sw["fabric"])
        if p in zoned and topo.ancestor(topo.peer_port(p), "switch").id == sw.id
    ]
    require(ports, f"no zoned port is cabled to {name_of(topo, sw)}")
    cables = [topo.cable_at(p).id for p in ports]
    with assisting(topo, f"Re-cable {name_of(topo, sw)} ASIC-local") as a:
        a.add(
            edit.delete(topo, cables),
            f"unplugged {counted(len(cables), 'cable')} of zoned ports from {name_of(topo, sw)}",
        )
        hbas = [p for p in ports if topo[p].kind == "hba_port"]
        a.add(_cable_switch(topo, sw, hbas, [p for p in ports if p not in hbas]))
    return a


def rezone_subsystem(topo: Topology, lpar: str, subsystem: str) -> Assisted:
    """Zone ``lpar``'s HBA ports to ``subsystem`` afresh (:func:`pair_ports`): its zones between
    them are removed (or lose the subsystem's ports) and one zone per pair is made in each fabric."""
    ports = {p.id for h in topo.of_kind("hba") if h["lpar"] == lpar for p in topo.children(h.id, "hba_port")}
    hosts = {p.id for p in topo.descendants(subsystem) if p.kind == "host_port"}
    with assisting(topo, f"Re-zone {name_of(topo, lpar)} to {name_of(topo, subsystem)}") as a:
        users: set[str] = {p for m in topo.children(subsystem, "host_mapping") for p in m["hba_ports"] if p in ports}
        for z in topo.of_kind("zone"):
            mine, theirs = ports.intersection(z["members"]), hosts.intersection(z["members"])
            if not (mine and theirs):
                continue
            users |= mine
            rest = [m for m in z["members"] if m not in hosts]
            if set(z["members"]) <= ports | hosts:
                a.add(edit.delete(topo, [z.id]), f"removed zone {z.name}")
            else:
                a.add(
                    edit.set_attr(topo, z.id, "members", rest), f"removed {name_of(topo, subsystem)} from zone {z.name}"
                )
        for fab in topo.of_kind("fabric"):
            where = _attached(topo, fab.id)
            hs = [p for p in sorted(users, key=lambda p: topo.seq_of(p)) if p in where]
            ts = [p.id for p in host_ports_in_order(topo, topo[subsystem]) if p.id in where]
            for h, t in pair_ports(topo, hs, ts, lambda h, t: 0):
                a.add(_zone(topo, fab, h, t))
    return a
