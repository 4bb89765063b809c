"""The orders the layout reads from cabling and zoning, and what one layout lends the next
(:class:`LayoutMemo`), kept apart from the drawing in :mod:`planner.layout` (no Qt).

The host side is drawn in the servers' slot order; switches in the order of the HBA ports
cabled to them, subsystems in that of the HBA ports zoned to them. On the 16x site these three
walks took 10 of the 23 ms of a layout; a memo keeps each until an edit touches what it read
(the ids it read, or a component of a kind it walks), so deleting a subsystem works out the
subsystems' order again and keeps the other two.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from planner.layout_bands import EndPairs
from planner.layout_keep import forget as forget_bands
from planner.model import Component, Topology
from planner.schema import KINDS

if TYPE_CHECKING:
    from planner.layout import Diagram


def ids_of(topo: Topology, kind: str) -> dict[str, None]:
    """The ids of ``kind`` in design order (read only)."""
    return topo._kind_table(kind) if kind in topo._by_kind else {}


def _holding(kind: str) -> frozenset[str]:
    """The kinds that may have a ``kind`` below them (from the schema's parents)."""
    out: set[str] = set()
    todo = [kind]
    while todo:
        for p in KINDS[todo.pop()].parents:
            if p is not None and p not in out:
                out.add(p)
                todo.append(p)
    return frozenset(out)


_HOLD_PORTS = _holding("hba_port")  # where a server's HBA ports may sit: drawers .. HBAs, not LPARs


_RANK_KINDS = _HOLD_PORTS | {"hba_port"}  # what host_ranks walks (an edit of one may change it)
_PEER_KINDS = _holding("switch_port") | {"switch_port"}  # what by_peer_rank reads besides cables
_STORAGE_KINDS = _holding("host_port") | {"host_port", "zone"}  # ... storage_order


class LayoutMemo:
    """What one layout of a design lends the next: the members of each collapsed group (what
    :func:`layout` hides below it, as {member: group}), kept until an edit touches the group or
    a layout shows it open. Before laying out after an edit, call :meth:`forget` with the ids
    the edit changed and the diagram laid out last with this memo; one memo per copy of the
    design (the editor's analysis lane keeps one with its replica)."""

    def __init__(self) -> None:
        self.members: dict[str, tuple[dict[str, str], int]] = {}  # group -> (members, HBAs among them)
        #: the orders read from cabling and zoning (see host_ranks, by_peer_rank, storage_order),
        #: each with the ids it read (what an edit must touch to change it); None: to work out
        self.ranks: dict[str, int] | None = None
        #: host_ranks's walk of each server: server -> (its HBA ports in order, the ids it read),
        #: kept until an edit touches an id it read or one now below it (``ranks_read``: each id
        #: read -> its server), whatever the other servers (a server deleted or restored on the
        #: 16x site walked all sixteen again)
        self.server_ports: dict[str, tuple[list[str], set[str]]] = {}
        self.ranks_read: dict[str, str] = {}
        self.peers: dict[str, list[int]] | None = None
        #: peer_ranks's part of each cable: (switch, HBA port) when it joins the two, else None,
        #: kept until an edit touches an id it read (``cable_reads``: id -> the cables that read
        #: it), whatever the ranks (a server deleted or restored on the 16x site read all 10,752
        #: cables and the switch of each port again)
        self.cable_peers: dict[str, tuple[str, str] | None] = {}
        self.cable_reads: dict[str, set[str]] = {}
        self.storage: dict[str, float] | None = None
        self.storage_read: set[str] = set()
        #: storage_order's part of each zone: (subsystem, the zone's HBA ports) pairs, kept until
        #: an edit touches the zone or a member or what it was read from (``zone_reads``: id ->
        #: the zones that read it), whatever the ranks (a server deleted or restored on the 16x
        #: site renumbers the HBA ports after it: every zone's part was read again, 10,752 of
        #: them, about 5 ms of the lane's layout)
        self.zone_parts: dict[str, list[tuple[str, list[str]]]] = {}
        self.zone_reads: dict[str, set[str]] = {}
        self._merged: dict[str, str] = {}  # every folded member -> its group, as of _merged_from
        self._merged_from: dict[str, dict[str, str]] = {}  # group -> the members merged
        #: each expanded subsystem's boxes as laid out at (0, 0) (see planner.layout._subsystems):
        #: subsystem -> (editor, boxes, alias entries, the parts read as (part ids, their drive
        #: bays), width, height); ``cell_reads``: id of each component a cell read -> its subsystem. Kept until
        #: an edit touches a component read or one now below the subsystem
        self.cells: dict[str, tuple[bool, list, dict[str, str], tuple, float, float]] = {}
        self.cell_reads: dict[str, str] = {}
        #: the bands of the last layout by their keys (planner.layout_keep.BandLaid), kept until
        #: an edit touches them; ``band_of``: each box and alias entry of a band -> its key
        self.bands: dict[tuple, Any] = {}
        self.band_of: dict[str, tuple] = {}
        #: each component's top-level server, switch or subsystem as ``site_bands`` found it,
        #: kept until an edit touches it or one above it
        self.tops: dict[Any, str] = {}
        #: the tops at each cable's and disk's ends, as site_bands found them (see EndPairs)
        self.pairs = EndPairs()

    def merged(self, folded: dict[str, dict[str, str]]) -> dict[str, str]:
        """Every member of the groups ``folded`` (group -> members) -> its group: the merge
        made last time, with the groups whose members changed since taken out and put in."""
        alias, last = self._merged, self._merged_from
        for g, members in last.items():
            if folded.get(g) is not members:
                for c in members:
                    if alias.get(c) == g:
                        del alias[c]
        for g, members in folded.items():
            if last.get(g) is not members:
                alias.update(members)
        self._merged_from = dict(folded)
        return alias

    def keep(self, folded: dict[str, dict[str, str]]) -> None:
        """Keep only the groups folded in the layout just made: every member of a group kept is
        then in that diagram's alias, so :meth:`forget` finds the group of a component removed
        from it (a group shown open hides nothing: its removed members would go unnoticed)."""
        if len(self.members) != len(folded):
            self.members = {g: v for g, v in self.members.items() if g in folded}

    def forget(self, topo: Topology, ids: Iterable[str], shown: Diagram | None) -> None:
        """Drop the groups holding any of ``ids`` now (their ancestors in ``topo``) or before
        (the group ``shown``, the diagram laid out before the edit, hid them in)."""
        members, comps = self.members, topo._components  # read only
        self._forget_orders(comps, ids)
        forget_bands(self, topo, ids, shown)
        if self.tops or self.pairs.known:  # (an edit of a component names it, not what is below
            tops, below, seen = self.tops, topo._children, set()  # it: a moved HBA's ports)
            for cid in ids:  # (a server restored names its 884 components: each walked once)
                todo = [cid]
                while todo:
                    c = todo.pop()
                    if c not in seen:
                        tops.pop(c, None)
                        seen.add(c)
                        todo += below.get(c, ())
            self.pairs.forget(seen)
        cells, cell_reads = self.cells, self.cell_reads
        up_from: dict[str, bool] = {}  # an id walked up from -> whether its cells were dropped too
        for cid in ids:
            keep = _cell_unchanged(cells, comps.get(cid))
            if (sub := cell_reads.get(cid)) is not None and not keep:
                cells.pop(sub, None)
            c: str | None = cid
            while c is not None:  # (up to where a walk before went, as far: seven levels an id)
                if (was := up_from.get(c)) is not None and (keep or was):
                    break
                up_from[c] = not keep
                members.pop(c, None)
                if not keep:
                    cells.pop(c, None)
                comp = comps.get(c)
                c = comp.parent if comp is not None else None
            if shown is not None and (g := shown.alias.get(cid)) is not None:
                members.pop(g, None)

    def _forget_server(self, server: str | None) -> None:
        """Drop ``server``'s walk of :func:`host_ranks` (None: nothing)."""
        got = self.server_ports.pop(server, None) if server is not None else None
        if got is not None:
            read = self.ranks_read
            for cid in got[1]:
                if read.get(cid) == server:
                    del read[cid]

    def _forget_orders(self, comps: dict[str, Component], ids: Iterable[str]) -> None:
        """Drop the orders an edit of ``ids`` may change: one whose ids read include one of them,
        or that one of them, as it is now, may enter (a component of a kind it walks; a cable
        at a ranked HBA port). The host side's ranks feed the other two."""
        ranks = self.ranks
        for cid in ids:
            comp = comps.get(cid)
            kind = comp.kind if comp is not None else ""
            if cid in self.ranks_read or kind in _RANK_KINDS:
                self._forget_server(self.ranks_read.get(cid))
                self._forget_server(_server_of(comps, comp))
                if ranks is not None:
                    self.ranks = ranks = self.peers = self.storage = None  # (the zones' parts stay)
            for zid in (cid, *self.zone_reads.get(cid, ())):  # (a zone reads itself)
                self.zone_parts.pop(zid, None)
            dropped = False
            for c in (cid, *self.cable_reads.get(cid, ())):  # (a cable reads itself)
                dropped = self.cable_peers.pop(c, False) is not False or dropped
            if dropped or kind in _PEER_KINDS or kind == "cable":
                self.peers = None
            if self.storage is not None and (cid in self.storage_read or kind in _STORAGE_KINDS):
                self.storage = None


def _cell_unchanged(cells: dict[str, tuple], comp: Component | None) -> bool:
    """Whether an edit of ``comp`` leaves its subsystem's cell as the memo keeps it: a host
    mapping that was in the cell already (a mapping draws no box, only its alias to the
    subsystem; a delete elsewhere cleans the references of many mappings: a server deleted on
    the 16x site touched all 56 cells of its band)."""
    if comp is None or comp.kind != "host_mapping" or comp.parent is None:
        return False
    kept = cells.get(comp.parent)
    return kept is not None and comp.id in kept[2]


def _server_of(comps: dict[str, Component], comp: Component | None) -> str | None:
    """The server ``comp`` is in (itself for a server), or None."""
    while comp is not None and comp.kind != "server":
        comp = comps.get(comp.parent) if comp.parent else None
    return comp.id if comp is not None else None


def host_ranks(topo: Topology, memo: LayoutMemo | None = None) -> dict[str, int]:
    """HBA port id -> its place in the server's slot order (drawer, PHB, slot): the order the
    host side is drawn in, whatever is collapsed. The walk enters only what may hold ports.
    ``memo``: kept there until an edit touches what the walk read (read only)."""
    if memo is not None and memo.ranks is not None:
        return memo.ranks
    kept = memo.server_ports if memo is not None else {}
    ranks: dict[str, int] = {}
    for sid in ids_of(topo, "server"):
        got = kept.get(sid)
        if got is None:
            got = kept[sid] = _server_walk(topo, sid)
            if memo is not None:
                memo.ranks_read.update(dict.fromkeys(got[1], sid))
        for pid in got[0]:
            ranks[pid] = len(ranks)
    for pid in ids_of(topo, "hba_port"):  # HBAs in no server (a draft) come last
        ranks.setdefault(pid, len(ranks))
    if memo is not None:
        memo.ranks = ranks
    return ranks


def _server_walk(topo: Topology, sid: str) -> tuple[list[str], set[str]]:
    """Server ``sid``'s HBA ports in slot order, and the ids the walk read (it enters only
    what may hold ports)."""
    below, comps = topo._children, topo._components  # read only
    ports: list[str] = []
    read = {sid}
    stack = list(reversed(below.get(sid, ())))
    while stack:
        c = comps[stack.pop()]
        read.add(c.id)
        if c.kind == "hba_port":
            ports.append(c.id)
        elif c.kind in _HOLD_PORTS and (kids := below.get(c.id)):
            stack += reversed(kids)
    return ports, read


def storage_order(topo: Topology, ranks: dict[str, int], memo: LayoutMemo | None = None) -> dict[str, float]:
    """Order subsystems by the mean slot order of the HBAs zoned to them (fewer crossings).
    ``ranks`` holds every HBA port of the design and nothing else; ``memo``: kept there until
    an edit touches a zone, the storage side or the ranks."""
    if memo is not None and memo.storage is not None:
        return memo.storage
    comps = topo._components  # read only: this runs for every layout of a site
    parts = memo.zone_parts if memo is not None else {}
    reads = memo.zone_reads if memo is not None else {}
    pos: dict[str, list[float]] = {}
    zones = ids_of(topo, "zone")
    for zid in zones:  # (a zone's part kept: a subsystem deleted on the 16x site read 7,168
        part = parts.get(zid)  # members again, 3.4 ms of the lane's layout)
        if part is None:
            part = parts[zid] = _zone_part(comps, zid, ranks, reads)
        if part:
            hb = [ranks[m] for m in part[0][1]]  # (one list of HBA ports for the whole zone)
            for sub, _ports in part:
                pos.setdefault(sub, []).extend(hb)
    order = {k: sum(v) / len(v) for k, v in pos.items()}
    if memo is not None:  # (a zone without an HBA port that gets one is an edit of the zone)
        memo.storage, memo.storage_read = order, {*zones, *reads}
    return order


def _zone_part(
    comps: dict[str, Component], zid: str, ranks: dict[str, int], reads: dict[str, set[str]]
) -> list[tuple[str, list[str]]]:
    """The zone's part of :func:`storage_order`: (subsystem, the zone's HBA ports) for each of
    its storage members, in member order (one list of ports, shared); what it read noted in
    ``reads``, every member included (an HBA port removed, or made again by an undo)."""
    members = comps[zid].attrs.get("members") or ()
    for m in members:
        reads.setdefault(m, set()).add(zid)
    hb = [m for m in members if m in ranks]
    if not hb:
        return []
    part = []
    for m in members:
        if m in ranks:
            continue
        c = comps.get(m)
        if c is None or c.kind != "host_port":
            continue
        while c is not None and c.kind != "subsystem":  # (Topology.ancestor, each parent's id
            parent = c.parent  # noted, one missing now too)
            if parent:
                reads.setdefault(parent, set()).add(zid)
            c = comps.get(parent)  # type: ignore[arg-type]
        if c is not None:
            part.append((c.id, hb))
    return part


def by_peer_rank(
    topo: Topology, ranks: dict[str, int], switches: list[Component], memo: LayoutMemo | None = None
) -> list[Component]:
    """Switches in the slot order of the HBAs cabled to them (switches without HBAs last).
    ``ranks`` holds every HBA port of the design and nothing else; ``memo``: the HBA ports'
    ranks at each switch are kept there until an edit touches what they were read from."""
    got = memo.peers if memo is not None else None
    if got is None:
        got = peer_ranks(topo, ranks, memo)

    def key(sw: Component) -> float:
        mine = got.get(sw.id)
        return sum(mine) / len(mine) if mine else 1e12

    return sorted(switches, key=key)


def peer_ranks(topo: Topology, ranks: dict[str, int], memo: LayoutMemo | None) -> dict[str, list[int]]:
    """Switch id -> the ranks of the HBA ports cabled to it (see :func:`by_peer_rank`)."""
    comps, sports = topo._components, ids_of(topo, "switch_port")
    kept = memo.cable_peers if memo is not None else {}
    reads = memo.cable_reads if memo is not None else {}
    got: dict[str, list[int]] = {}
    for cid in ids_of(topo, "cable"):
        part = kept.get(cid, False)
        if part is False:
            part = kept[cid] = _cable_peer(comps, sports, cid, reads)
        if part is not None and part[1] in ranks:
            got.setdefault(part[0], []).append(ranks[part[1]])
    if memo is not None:
        memo.peers = got
    return got


def _cable_peer(
    comps: dict[str, Component], sports: dict[str, None], cid: str, reads: dict[str, set[str]]
) -> tuple[str, str] | None:
    """(the switch, the HBA port) cable ``cid`` joins, or None; the ids read noted in ``reads``
    (its ends, present or not, and the components from its switch port up to the switch)."""
    attrs = comps[cid].attrs
    a, b = attrs.get("a"), attrs.get("b")
    for end in (cid, a, b):
        if end:
            reads.setdefault(end, set()).add(cid)
    port, peer = (a, b) if a in sports else (b, a)
    other = comps.get(peer) if peer else None
    if port not in sports or other is None or other.kind != "hba_port":
        return None
    c = comps.get(port)
    while c is not None and c.kind != "switch":
        parent = c.parent
        if parent:
            reads.setdefault(parent, set()).add(cid)
        c = comps.get(parent) if parent else None
    return (c.id, peer) if c is not None else None
