"""Zoning edits: single-initiator single-target zones per fabric, WWPNs typed or pasted (no Qt).

A zone the editor makes pairs one initiator (an HBA port) with one target (a storage host port)
and is named by :func:`zone_name`: ``Z_<initiator alias>_<target alias>``, where the aliases are
the ones the zoning scripts create (:func:`planner.exports.zoning.alias_text`: ``LPAR1_FCS0``,
``FASTT1_A1``), so a zone reads the same in the editor, the build sheet and on the switch.

Every operation returns one applied :class:`~planner.commands.Builder` (one undo step) or raises
:class:`~planner.model.ModelError` with the reason and leaves the design unchanged. Parsing pasted
WWPNs (:func:`parse_wwpns`) and matching them to ports (:func:`match_wwpns`) are plain functions
the paste preview shows before anything is applied.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from planner import edit, naming
from planner.commands import Builder, RemoveComponent, SetAttr
from planner.exports.zoning import alias_text, safe_name, zone_name_text
from planner.model import Component, ModelError, Topology, normalize_wwpn
from planner.naming import short_label

INITIATOR, TARGET = "hba_port", "host_port"


# -- which ports belong to a fabric ---------------------------------------------------------------


def port_fabric(topo: Topology, port: str) -> str | None:
    """The fabric the port is cabled into (through the switch at the cable's other end), or None."""
    peer = topo.get(topo.peer_port(port))
    if peer is None or peer.kind != "switch_port":
        return None
    switch = topo.ancestor(peer.id, "switch")
    return (switch["fabric"] or None) if switch is not None else None


def fabric_for(topo: Topology, cid: str) -> str | None:
    """The fabric a component belongs to: a fabric itself, a switch's fabric, the fabric a port
    (or the first port of an HBA) is cabled into, else the fabric of a zone it is in."""
    comp = topo.get(cid)
    if comp is None:
        return None
    if comp.kind == "fabric":
        return comp.id
    if comp.kind == "switch":
        return comp["fabric"] or None
    if comp.kind == "zone":
        return comp.parent
    ports = topo.children(cid, INITIATOR) if comp.kind == "hba" else [comp]
    for p in ports:
        found = port_fabric(topo, p.id) or next((z.parent for z in zones_of(topo, p.id)), None)
        if found:
            return found
    return None


def zones_of(topo: Topology, port: str) -> list[Component]:
    """Zones that list ``port`` as a member."""
    return [ref for ref, attr in topo.referrers(port) if ref.kind == "zone" and attr == "members"]


def fabric_ports(topo: Topology, fabric: str, kind: str, every: bool = False) -> list[Component]:
    """Ports of ``kind`` (initiators: "hba_port", targets: "host_port") cabled into ``fabric`` or
    zoned in it, in design order; ``every``: all ports of that kind in the design."""
    _fabric(topo, fabric)
    if every:
        return topo.of_kind(kind)
    zoned = {m for z in topo.children(fabric, "zone") for m in z["members"]}
    return [p for p in topo.of_kind(kind) if p.id in zoned or port_fabric(topo, p.id) == fabric]


def _fabric(topo: Topology, fabric: str) -> Component:
    comp = topo.get(fabric)
    if comp is None or comp.kind != "fabric":
        raise ModelError(f"there is no fabric {fabric!r} in this design; choose one of the design's fabrics")
    return comp


# -- zones ------------------------------------------------------------------------------------------


def zone_name(topo: Topology, initiator: str, target: str, fabric: str | None = None) -> str:
    """``Z_LPAR1_FCS0_FASTT1_A1``: the name of the zone pairing two ports (the aliases of
    :func:`planner.exports.zoning.alias_text`), at most 64 characters of ``[A-Za-z0-9_]``, made
    unique among the zones of ``fabric`` with a suffix ``_2``, ``_3``... The one scheme the zoning
    scripts name zones by (:func:`planner.exports.zoning.zone_name_text`)."""
    text = zone_name_text([alias_text(topo, topo[initiator]), alias_text(topo, topo[target])])
    taken = {short_label(z).lower() for z in topo.children(fabric, "zone")} if fabric else None
    return safe_name(text, "Z", taken)


def zones_pairing(topo: Topology, fabric: str, initiator: str, target: str) -> list[Component]:
    """Zones of ``fabric`` that hold both ports (so they see each other)."""
    return [z for z in topo.children(fabric, "zone") if initiator in z["members"] and target in z["members"]]


def zoned_pairs(topo: Topology, fabric: str) -> set[tuple[str, str]]:
    """Every (initiator, target) pair that shares a zone in ``fabric``. Cost O(zones x members^2)."""
    pairs: set[tuple[str, str]] = set()
    for z in topo.children(fabric, "zone"):
        kinds = {m: topo[m].kind for m in z["members"] if m in topo}
        inits = [m for m, k in kinds.items() if k == INITIATOR]
        targets = [m for m, k in kinds.items() if k == TARGET]
        pairs.update((i, t) for i in inits for t in targets)
    return pairs


def zoned_with(topo: Topology, cid: str) -> list[str]:
    """The ports that share a zone with ``cid`` (an HBA port, a host port, or an HBA: its ports),
    in design order, without the component's own ports."""
    comp = topo.get(cid)
    if comp is None:
        return []
    own = {p.id for p in topo.children(cid, INITIATOR)} if comp.kind == "hba" else {cid}
    seen: dict[str, None] = {}
    for port in own:
        for z in zones_of(topo, port):
            seen.update((m, None) for m in z["members"] if m not in own and m in topo)
    return sorted(seen, key=topo.seq_of)


def set_zoned(topo: Topology, fabric: str, initiator: str, target: str, zoned: bool = True) -> Builder:
    """Zone (``zoned``) or unzone an initiator and a target in ``fabric``: one undo step.

    Zoning adds a zone of the two named by :func:`zone_name` (nothing when they already share a
    zone). Unzoning removes the pair from every zone that holds both: a zone of just the two is
    deleted; a zone with other targets loses the target, one with other initiators loses the
    initiator; a zone of several initiators and several targets loses the initiator, which keeps
    its other targets through new two-port zones. Raises ModelError for ports of the wrong kind.
    """
    _fabric(topo, fabric)
    i = edit._expect(topo, initiator, INITIATOR)
    t = edit._expect(topo, target, TARGET)
    pair = f"{naming.label(topo, i)} and {naming.label(topo, t)}"
    found = zones_pairing(topo, fabric, initiator, target)
    if zoned and found:
        raise ModelError(f"{pair} share zone {short_label(found[0])} already")
    if not zoned and not found:
        raise ModelError(f"{pair} share no zone in {short_label(topo[fabric])}; nothing to unzone")
    if zoned:
        with edit._building(topo, f"Zone {pair}") as b:
            b.commands.append(edit.add_zone(topo, fabric, zone_name(topo, initiator, target, fabric), [i.id, t.id]))
        return b
    with edit._building(topo, f"Unzone {pair}") as b:
        for z in found:
            _split(topo, b, fabric, z, initiator, target)
    return b


def _split(topo: Topology, b: Builder, fabric: str, zone: Component, initiator: str, target: str) -> None:
    members = zone["members"]
    inits = [m for m in members if m in topo and topo[m].kind == INITIATOR]
    targets = [m for m in members if m in topo and topo[m].kind == TARGET]
    rest = [m for m in members if m not in (initiator, target)]
    if not rest:
        b.run(RemoveComponent(zone.id))
    elif inits == [initiator]:
        b.run(SetAttr(zone.id, "members", tuple(m for m in members if m != target)))
    else:
        b.run(SetAttr(zone.id, "members", tuple(m for m in members if m != initiator)))
        if targets != [target]:
            for other in targets:
                if other != target and not zones_pairing(topo, fabric, initiator, other):
                    b.commands.append(
                        edit.add_zone(topo, fabric, zone_name(topo, initiator, other, fabric), [initiator, other])
                    )


# -- WWPNs ------------------------------------------------------------------------------------------


def checked_wwpn(topo: Topology, port: str, text: str) -> str:
    """``text`` as the WWPN of ``port`` (normalised; "" clears it), or ModelError naming the port."""
    comp = edit._expect(topo, port, INITIATOR, TARGET)
    if not text.strip():
        return ""
    try:
        return normalize_wwpn(text)
    except ModelError as err:
        raise ModelError(f"{naming.label(topo, comp)}: {err}") from None


def set_wwpn(topo: Topology, port: str, text: str) -> Builder:
    """Set the WWPN of one HBA or host port from what the user typed: one undo step."""
    value = checked_wwpn(topo, port, text)
    with edit._building(topo, f"Set WWPN of {naming.label(topo, topo[port])}") as b:
        b.run(SetAttr(port, "wwpn", value))
        _entered(b, topo, port)
    return b


def set_wwpns(topo: Topology, wwpns: Mapping[str, str]) -> Builder:
    """Set the WWPNs of several ports (port id -> WWPN) as one undo step. Refuses the whole paste
    (ModelError) when a value is not a WWPN or one WWPN is given to two ports."""
    values = {port: checked_wwpn(topo, port, text) for port, text in wwpns.items()}
    given: dict[str, str] = {}
    for port, value in values.items():
        if value and value in given:
            raise ModelError(
                f"WWPN {value} is given to both {naming.label(topo, given[value])} and {naming.label(topo, port)}"
            )
        given[value] = port
    # a pasted WWPN equal to a placeholder confirms it: the port is no longer a placeholder
    changed = {p: v for p, v in values.items() if topo[p]["wwpn"] != v or topo[p].get("wwpn_placeholder")}
    if not changed:
        raise ModelError("these ports have these WWPNs already; nothing to change")
    with edit._building(topo, f"Set the WWPNs of {len(changed)} port{'s' if len(changed) != 1 else ''}") as b:
        for port, value in changed.items():
            b.run(SetAttr(port, "wwpn", value))
            _entered(b, topo, port)
    return b


def _entered(b: Builder, topo: Topology, port: str) -> None:
    """The user entered this port's WWPN: it is no longer a placeholder (in the same undo step)."""
    if topo[port].get("wwpn_placeholder"):
        b.run(SetAttr(port, "wwpn_placeholder", False))


def wwpn_owners(topo: Topology, wwpn: str, but: str = "") -> list[Component]:
    """Ports other than ``but`` that have ``wwpn`` (a duplicate the WWPN rules report)."""
    if not wwpn:
        return []
    return [p for k in (INITIATOR, TARGET) for p in topo.of_kind(k) if p["wwpn"] == wwpn and p.id != but]


# -- pasted WWPNs -----------------------------------------------------------------------------------

# 8 bytes of hex, bare or separated by ':' or '-', not part of a longer hex run
_WWN = re.compile(r"(?<![0-9A-Fa-f:-])([0-9A-Fa-f]{2}(?:[:-]?[0-9A-Fa-f]{2}){7})(?![0-9A-Fa-f]|[:-][0-9A-Fa-f])")
# lines whose 8-byte names are not port names: node names (lscfg's Z8 field), the switch's own ports
_NOT_PORT = re.compile(r"node ?name|device specific|\(z8\)|fabric port name|permanent port name|switch ?wwn", re.I)
# the AIX device a block of ``lscfg -vl fcsN`` output describes, or a label at the start of a line
_DEVICE = re.compile(r"^\s*(fcs\d+|fscsi\d+)\b", re.I)
_LABEL = re.compile(r"^\s*([A-Za-z][\w.\-/]*)[\s,;:=]")


@dataclass(frozen=True)
class PastedWWPN:
    """One WWPN found in pasted text: the line it came from (1-based), a label found beside it
    (an AIX device such as ``fcs0``, a spreadsheet's first column, a switch interface), the WWPN
    normalised (or as written when it is not valid) and why it cannot be used ("" when it can)."""

    line: int
    label: str
    wwpn: str
    problem: str = ""


def parse_wwpns(text: str) -> list[PastedWWPN]:
    """Port WWPNs in pasted text, in order: ``lscfg -vl fcsN`` output ("Network
    Address.............10000000C9AABB01"), a spreadsheet column (one per line, optionally after
    a name), a switch's ``nsshow`` or ``show flogi database`` ("20:00:00:..."; the first 8-byte
    name on a line is the port name, node names and the switch's own ports are skipped).
    A WWPN listed twice is reported the second time. Cost O(len(text))."""
    found: list[PastedWWPN] = []
    seen: set[str] = set()
    device = ""
    for n, line in enumerate(text.splitlines(), 1):
        dev = _DEVICE.match(line)
        if dev:
            device = dev.group(1).lower()
        match = _WWN.search(line)
        if match is None or _NOT_PORT.search(line):
            continue
        label = device or _label_before(line, match.start())
        try:
            wwpn, problem = normalize_wwpn(match.group(1)), ""
        except ModelError as err:
            wwpn, problem = match.group(1).lower(), str(err)
        if not problem and wwpn in seen:
            problem = f"WWPN {wwpn} is listed twice"
        seen.add(wwpn)
        found.append(PastedWWPN(n, label, wwpn, problem))
        device = ""  # one WWPN per lscfg block or labelled line
    return found


def _label_before(line: str, end: int) -> str:
    got = _LABEL.match(line[:end] + " ")
    word = got.group(1) if got else ""
    return "" if word.lower() in ("n", "nl", "network", "port", "pwwn") else word


def match_wwpns(
    topo: Topology, pasted: Sequence[PastedWWPN], ports: Sequence[str], preferred: Iterable[str] = ()
) -> list[str]:
    """The port each pasted WWPN goes to ("" for none), chosen among ``ports``: the port that has
    it already; else the port whose HBA or alias is named by its label (``fcs0``, ``LPAR1_FCS0``);
    else, in order, the ``preferred`` ports (the rows the user selected), then the initiators
    without a WWPN. Each port gets at most one WWPN; unusable entries get none."""
    comps = [topo[p] for p in ports if p in topo]
    by_wwpn = {c["wwpn"]: c.id for c in comps if c["wwpn"]}
    by_name = _names(topo, comps)
    out = [""] * len(pasted)
    used: set[str] = set()
    for k, entry in enumerate(pasted):
        if entry.problem:
            continue
        port = by_wwpn.get(entry.wwpn) or next((p for p in by_name.get(entry.label.lower(), []) if p not in used), "")
        if port and port not in used:
            out[k] = port
            used.add(port)
    fill = [p for p in preferred if p in ports] or [c.id for c in comps if c.kind == INITIATOR and not c["wwpn"]]
    free = iter(p for p in fill if p not in used)
    for k, entry in enumerate(pasted):
        if not out[k] and not entry.problem:
            out[k] = next(free, "")
    return out


def _names(topo: Topology, comps: Iterable[Component]) -> dict[str, list[str]]:
    names: dict[str, list[str]] = {}
    for c in comps:
        keys = {alias_text(topo, c).lower(), naming.qualified_name(topo, c).lower()}
        if c.kind == INITIATOR and c.parent:
            keys.add(short_label(topo[c.parent]).lower())
        for key in keys:
            names.setdefault(key, []).append(c.id)
    return names
