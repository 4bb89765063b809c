"""What-if growth: the fewest parts to add to an existing design so it reaches a higher target.

Everything that exists stays as it is (every component, id, attribute, cable, zone, mapping and
diagram position); the grown design is a copy with parts added, meant for a new scenario.
What is added, in this order of preference [P690 'Choosing the number and slot location of the
Fibre Channel HBAs']: HBAs into the free slots of the paper's 16 per drawer, then new drawers
of 16; new subsystems, each with one or two of the new adapters (one per controller, P690
Appendix B); their drawer's switch when it has free ports, else a new switch (one per drawer,
as the paper). New adapters only work with new subsystems: an existing partition (host
mapping) is never changed. The new parts are placed, cabled ASIC-local, zoned for the
multipath driver and mapped with the assistants (:mod:`planner.assist`); their logical drives
go into a new volume group (the existing one keeps its PVs).

"Fewest" is ordered: fewest new drawers, then subsystems, then switches, then HBAs. Candidates
are taken in that order; one whose upper bound (each adapter at its figure, each subsystem at
its figure, each existing drawer's spare capacity, each new drawer's figure) cannot reach the
target is skipped without building; the first that the analysis proves is the answer. No Qt.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from planner import edit
from planner.analysis import Analysis, binding_counts
from planner.assist.base import token
from planner.assist.lvm import build_lvm
from planner.assist.san import _cable_switch, host_ports_in_order
from planner.assist.server import PAPER_SLOTS, place_hbas
from planner.assist.storage import best_layout, layout_arrays, map_luns
from planner.figures import FIGURE_SETS
from planner.model import Component, ModelError, Topology
from planner.naming import counted
from planner.schema import kind_name
from planner.sizing import (
    DEFAULT_PARTS,
    Step,
    _analyse,
    _drives_per_subsystem,
    _Figures,
    _resolve,
    meets,
    result_lines,
)

MAX_BUILDS = 40  # candidates built and analysed before giving up


class GrowthError(ModelError):
    """The target cannot be reached by adding these parts (the message names the limit), or bad input."""


class AlreadyMet(GrowthError):
    """The design already meets the target: nothing to add."""


@dataclass
class Group:
    """New parts behind one drawer: its new HBAs, new subsystems (HBAs each) and the switch."""

    drawer: str  # an existing drawer id, or "" for a new drawer
    hbas: int
    subs: list[tuple[int, str]]  # (its new HBAs, an idle existing subsystem or "" for a new one)
    switch: str  # the existing switch the parts join, or "" for a new one


@dataclass
class Candidate:
    hbas: int
    subsystems: int  # new ones (idle existing subsystems put to work are free)
    drawers: int
    switches: int
    groups: list[Group]
    idle_used: int = 0  # idle existing subsystems put to work

    def cost(self) -> tuple[int, int, int, int]:
        return (self.drawers, self.subsystems, self.switches, self.hbas)


@dataclass
class Growth:
    target_read: float
    target_write: float
    figures: str
    parts: dict[str, str]
    before: Analysis
    topology: Topology
    analysis: Analysis
    candidate: Candidate
    steps: list[Step]
    built: int
    arrays: int = 0
    limit: str = ""
    notes: list[str] = field(default_factory=list)

    def binding_kinds(self) -> dict[str, int]:
        """Hop kind -> paths it binds in the analysis of the grown design."""
        return binding_counts(self.topology, self.analysis)

    def meets(self) -> bool:
        return meets(self.analysis, self.target_read, self.target_write)


# -- what the design has -------------------------------------------------------------------------


class _Design:
    """The design's server, LPAR, parts by role, figures, free slots and switch ports."""

    def __init__(self, topo: Topology, parts: Mapping[str, dict[str, Any]], figset: str, need: dict[str, float]):
        self.topo, self.figset, self.need = topo, figset, need
        servers = topo.of_kind("server")
        if len(servers) != 1:
            raise GrowthError(f"growth works on a design with one server, not {len(servers)}: open one server's design")
        self.server = servers[0]
        all_parts = {**dict(parts), **topo.parts}
        chosen = {role: self._used(role) for role in DEFAULT_PARTS}
        self.parts, self.ids = _resolve(all_parts, chosen)
        self.figs = _Figures(self.parts, figset, need.get("read", 0), need.get("write", 0))
        self.before = _analyse(topo, figset, need)
        self.drawers = topo.children(self.server.id, "drawer")
        self.free = {d.id: self._free_slots(d) for d in self.drawers}
        self.switch_of = {d.id: self._switch(d) for d in self.drawers}
        self.idle = [sub.id for sub in topo.of_kind("subsystem") if self._idle(sub)]
        self.most = int(self.parts["server"].get("max_drawers") or 64)
        self.hba = self._fig("hba", "hba")
        self.sub = max(self.figs.subsystem(d)[0] for d in self.figs.dirs)
        self.drawer_fig = self._fig("drawer", "drawer")
        self.host_ports = len(self.parts["subsystem"].get("controllers") or ["A", "B"]) * int(
            self.parts["subsystem"].get("host_ports_per_controller", 1)
        )

    def _used(self, role: str) -> str | None:
        """The part the design already uses for ``role`` (the most used one), else None (the default)."""
        kind = "drive" if role == "drive" else role
        count: dict[str, int] = {}
        for c in self.topo.of_kind(kind):
            if c.part:
                count[c.part] = count.get(c.part, 0) + 1
        return max(count, key=lambda p: count[p]) if count else None

    def _idle(self, sub: Component) -> bool:
        """Bought but not connected: no host port cabled, and a logical drive in no partition (or
        free drives for an array)."""
        t = self.topo
        ports = [p for c in t.children(sub.id, "controller") for p in t.children(c.id, "host_port")]
        if not ports or any(t.cable_at(p.id) is not None for p in ports):
            return False
        mapped = {ld for m in t.of_kind("host_mapping") for ld in m["logical_drives"]}
        lds = [ld.id for a in t.children(sub.id, "array") for ld in t.children(a.id, "logical_drive")]
        return any(ld not in mapped for ld in lds) or len(edit.free_drives(t, sub.id)) >= 3

    def _fig(self, role: str, name: str) -> float:
        """The best of the directions' figures (an upper bound for a mixed target)."""
        return max(self.figs.get(role, name, d).value for d in self.figs.dirs)

    def _free_slots(self, drawer: Component) -> int:
        slots = [s for s in self.topo.descendants(drawer.id) if s.kind == "slot" and s["number"] in PAPER_SLOTS]
        return sum(1 for s in slots if not self.topo.children(s.id, "hba"))

    def _switch(self, drawer: Component) -> tuple[str, int]:
        """(the switch most of the drawer's HBA ports are cabled to, its free ports), or ("", 0)."""
        count: dict[str, int] = {}
        for hp in (c for c in self.topo.descendants(drawer.id) if c.kind == "hba_port"):
            peer = self.topo.peer_port(hp.id)
            sw = self.topo.ancestor(peer, "switch") if peer else None
            if sw is not None:
                count[sw.id] = count.get(sw.id, 0) + 1
        if not count:
            return "", 0
        sw = max(count, key=lambda s: count[s])
        ports = [p for p in self.topo.descendants(sw) if p.kind == "switch_port"]
        return sw, sum(1 for p in ports if self.topo.cable_at(p.id) is None)

    def spare(self, drawer: str) -> float:
        """The drawer's capacity left over in the analysis of the design as it is."""
        ld = self.before.components.get(drawer)
        if ld is None or not ld.capacity:
            return self.drawer_fig
        return max(0.0, ld.capacity - ld.load)

    @property
    def got(self) -> float:
        b = self.before
        return b.aggregate if len(self.need) == 1 else b.read_mbps + b.write_mbps


# -- candidates ----------------------------------------------------------------------------------


def _per_drawer(design: _Design) -> int:
    return max(1, min(len(PAPER_SLOTS), int(design.drawer_fig // design.hba + 1e-9)))


def layout(design: _Design, hbas: int, subsystems: int) -> Candidate | None:
    """Where ``hbas`` new adapters and ``subsystems`` new subsystems go, or None when they cannot
    (too many drawers, or not one or two adapters per subsystem in each drawer)."""
    if hbas < 1 or subsystems > hbas or hbas > 2 * (subsystems + len(design.idle)):
        return None
    groups: list[Group] = []
    left = hbas
    for d in design.drawers:
        n = min(left, design.free[d.id])
        if n:
            groups.append(Group(d.id, n, [], ""))
            left -= n
    per = _per_drawer(design)
    new = math.ceil(left / per)
    if len(design.drawers) + new > design.most:
        return None
    for i in range(new):
        groups.append(Group("", min(per, left - i * per), [], ""))
    used = min(len(design.idle), hbas - subsystems)  # idle subsystems first: they are bought
    subs = [math.ceil(g.hbas / 2) for g in groups]
    extra = subsystems + used - sum(subs)
    if extra < 0:
        return None
    for i, g in enumerate(groups):
        add = min(extra, g.hbas - subs[i])
        subs[i] += add
        extra -= add
    idle = list(design.idle[:used])
    switches = 0
    for g, s in zip(groups, subs):
        counts = [2] * (g.hbas - s) + [1] * (2 * s - g.hbas)
        g.subs = [(k, idle.pop(0) if idle else "") for k in counts]
        sw, free = design.switch_of.get(g.drawer, ("", 0))
        if sw and free >= g.hbas + design.host_ports * s:
            g.switch = sw
        else:
            switches += 1
    return Candidate(hbas, subsystems, new, switches, groups, used)


def bound(design: _Design, cand: Candidate) -> float:
    """An upper bound of what the candidate adds (MB/s): no adapter beyond its figure, no
    subsystem beyond its figure, no existing drawer beyond its spare, no new one beyond its figure."""
    host = 0.0
    for g in cand.groups:
        cap = design.spare(g.drawer) if g.drawer else design.drawer_fig
        host += min(g.hbas * design.hba, cap)
    storage = sum(min(design.sub, k * design.hba) for g in cand.groups for k, _ in g.subs)
    return min(host, storage)


def candidates(design: _Design) -> list[Candidate]:
    """Every layout that could reach the need by its bound, cheapest first."""
    short = sum(design.need.values()) - design.got
    room = sum(design.free.values()) + _per_drawer(design) * max(0, design.most - len(design.drawers))
    out = []
    for h in range(1, room + 1):
        if h * design.hba + 1e-6 < short:
            continue
        for s in range(max(0, math.ceil(h / 2) - len(design.idle)), h + 1):
            cand = layout(design, h, s)
            if cand is not None and bound(design, cand) + 1e-6 >= short:
                out.append(cand)
    return sorted(out, key=Candidate.cost)


# -- the build -----------------------------------------------------------------------------------


class _Names:
    """Fresh names and WWPNs beside the design's."""

    def __init__(self, topo: Topology) -> None:
        self.topo = topo
        self.wwpns = {c["wwpn"] for c in topo.components() if c.kind in ("hba_port", "host_port") and c["wwpn"]}
        self.counter = 0

    def wwpn(self, prefix: str, count: int = 1) -> str:
        """The first of ``count`` consecutive unused WWPNs starting with ``prefix`` (5 bytes)."""
        while True:
            self.counter += 1
            block = [self._text(prefix, self.counter + i) for i in range(count)]
            if not self.wwpns.intersection(block):
                self.wwpns.update(block)
                self.counter += count - 1
                return block[0]

    @staticmethod
    def _text(prefix: str, n: int) -> str:
        return f"{prefix}:{(n >> 16) & 255:02x}:{(n >> 8) & 255:02x}:{n & 255:02x}"

    def free(self, fmt: str, start: int = 1) -> str:
        """The first ``fmt`` (a top-level component's id and name) from ``start`` on that is
        neither an id of the design nor the name of one of its top-level components (the
        NAME_DUPLICATE rule compares names ignoring case)."""
        taken = {c.name.casefold() for c in self.topo.children(None)}
        n = start
        while fmt.format(n) in self.topo or f"fab.{fmt.format(n)}" in self.topo or fmt.format(n).casefold() in taken:
            n += 1
        return fmt.format(n)


def _lpar(topo: Topology, server: Component, drawer: str) -> str:
    """The LPAR of the drawer's adapters (most of them), else of the server's adapters, else its first."""
    count: dict[str, int] = {}
    scope = topo.descendants(drawer) if drawer else topo.descendants(server.id)
    for h in (c for c in scope if c.kind == "hba" and c["lpar"]):
        count[h["lpar"]] = count.get(h["lpar"], 0) + 1
    if not count and drawer:
        return _lpar(topo, server, "")
    lpars = topo.children(server.id, "lpar")
    return max(count, key=lambda k: count[k]) if count else (lpars[0].id if lpars else "")


def build_growth(design: _Design, cand: Candidate, name: str = "") -> Topology:
    """A copy of the design with the candidate's parts added, placed, cabled, zoned, mapped and in a
    new volume group. Raises ModelError when an assistant cannot do its part."""
    t = design.topo.clone()
    if name:
        t.meta["name"] = name
    names = _Names(t)
    lpars: list[str] = []
    for g in cand.groups:
        lpar = _build_group(t, design, g, names)
        if lpar and lpar not in lpars:
            lpars.append(lpar)
    for lpar in lpars:
        vg = names.free("datavg{}", 2)
        build_lvm(t, lpar, name=vg)
    return t


def _build_group(t: Topology, design: _Design, g: Group, names: _Names) -> str:
    """The group's drawer (new or not), HBAs, switch, subsystems, cables, zones and mappings;
    returns the LPAR the HBAs went to."""
    parts, server = design.parts, design.server
    drawer = g.drawer
    if not drawer:
        edit.add_drawer(t, server.id, parts["drawer"])
        drawer = t.children(server.id, "drawer")[-1].id
    lpar = _lpar(t, server, drawer)
    before = {c.id for c in t.descendants(drawer) if c.kind == "hba_port"}
    place_hbas(t, drawer, parts["hba"], g.hbas, lpar=lpar)
    hba_ports = [c.id for c in t.descendants(drawer) if c.kind == "hba_port" and c.id not in before]
    for p in hba_ports:
        edit.set_attr(t, p, "wwpn", names.wwpn("10:00:00:00:c9"))
    sw = g.switch or _new_switch(t, design, names, t[drawer]["index"])
    fabric = t[sw]["fabric"]
    hosts: list[str] = []
    free_ports = list(hba_ports)
    for k, idle in g.subs:
        sub = idle or _new_subsystem(t, design, names)
        if idle and not _unmapped(t, sub):
            layout_arrays(t, sub)
        free_hp = [hp for hp in host_ports_in_order(t, t[sub]) if t.cable_at(hp.id) is None]
        first = [hp for i, hp in enumerate(free_hp) if hp.parent not in {x.parent for x in free_hp[:i]}][:2]
        mine = [free_ports.pop(0) for _ in range(k)]
        for i, hp in enumerate(first):
            _zone(t, fabric, mine[i % k], hp.id)
        hosts += [hp.id for hp in first]
    _cable_switch(t, t[sw], hba_ports, hosts)
    for sub in dict.fromkeys(t.ancestor(p, "subsystem").id for p in hosts):
        map_luns(t, sub)
    return lpar


def _new_subsystem(t: Topology, design: _Design, names: _Names) -> str:
    """A subsystem of the design's part with its enclosure filled and its arrays laid out."""
    parts = design.parts
    sub = names.free("fastt{}", len(t.of_kind("subsystem")) + 1)
    base = names.wwpn("20:0a:00:a0:b8", design.host_ports)  # the host ports count up from the base
    bays = int(parts["subsystem"].get("drive_bays", 0))
    edit.add_subsystem(t, parts["subsystem"], sub, wwpn_base=base, drive_part=parts["drive"], drives=bays)
    enc = parts.get("enclosure")
    if enc:
        edit.add_enclosure(t, sub, enc, drive_part=parts["drive"], drives=int(enc.get("drive_bays", 0)))
    layout_arrays(t, sub)
    return sub


def _unmapped(t: Topology, sub: str) -> list[str]:
    mapped = {ld for m in t.of_kind("host_mapping") for ld in m["logical_drives"]}
    return [ld.id for a in t.children(sub, "array") for ld in t.children(a.id, "logical_drive") if ld.id not in mapped]


def _zone(t: Topology, fabric: str, hba_port: str, host_port: str) -> None:
    """One zone of an HBA port and a storage port, named as the zoning assistant names them."""
    hba, sub = t.ancestor(hba_port, "hba"), t.ancestor(host_port, "subsystem")
    name = f"Z_{token(hba.name)}_{token(sub.name)}_{token(t[host_port].name)}"[:64]
    edit.add_zone(t, fabric, name, [hba_port, host_port])


def _new_switch(t: Topology, design: _Design, names: _Names, index: int) -> str:
    """A new fabric with one switch of the design's switch part for drawer ``index``."""
    fabric = names.free("FAB_D{}", index) if f"fab.FAB_D{index}" in t else f"FAB_D{index}"
    edit.add_fabric(t, fabric)
    sw = names.free("sw{}", index)
    domain = 1 + max((s["domain_id"] for s in t.of_kind("switch")), default=0)
    edit.add_switch(t, design.parts["switch"], f"fab.{fabric}", sw, domain_id=min(domain, 239))
    return sw


# -- growing -------------------------------------------------------------------------------------


def _check(read: float, write: float, figures: str) -> None:
    if read < 0 or write < 0 or not (read or write):
        raise GrowthError("give a read and/or write target in MB/s greater than 0")
    if figures not in FIGURE_SETS:
        raise GrowthError(f"figure set must be one of {', '.join(FIGURE_SETS)}, not {figures!r}")


def plan(
    topo: Topology,
    target_read_mbps: float,
    target_write_mbps: float = 0,
    figures: str = "planning",
    parts: Mapping[str, dict[str, Any]] | None = None,
) -> tuple[_Design, list[Candidate]]:
    """The design as it is and the candidates that could reach the target, cheapest first.
    Raises AlreadyMet when the design meets the target, GrowthError when no candidate can."""
    _check(target_read_mbps, target_write_mbps, figures)
    need = {d: v for d, v in (("read", target_read_mbps), ("write", target_write_mbps)) if v}
    design = _Design(topo, parts or {}, figures, need)
    if meets(design.before, target_read_mbps, target_write_mbps):
        raise AlreadyMet(
            f"the design already gives {design.got:,.0f} MB/s ({figures} figures), which meets the target: nothing to add"
        )
    cands = candidates(design)
    if not cands:
        raise GrowthError(_unreachable(design))
    return design, cands


def preview(
    topo: Topology,
    target_read_mbps: float,
    target_write_mbps: float = 0,
    figures: str = "planning",
    parts: Mapping[str, dict[str, Any]] | None = None,
) -> list[str]:
    """The plan's lines without building or analysing (fast: for a live preview): the design as it
    is, then the cheapest candidate whose bound reaches the target. Raises AlreadyMet or GrowthError."""
    design, cands = plan(topo, target_read_mbps, target_write_mbps, figures, parts)
    c = cands[0]
    in_free = sum(g.hbas for g in c.groups if g.drawer)
    joined = sum(1 for g in c.groups if g.switch)
    return [
        f"The design gives {design.got:,.0f} MB/s ({figures} figures); "
        f"{sum(design.need.values()) - design.got:,.0f} MB/s to add.",
        f"About: {counted(c.hbas, 'HBA')} ({in_free} in free slots of the paper's 16 at {design.hba:,.0f} MB/s each), "
        f"{counted(c.drawers, 'drawer')}, {counted(c.subsystems, 'new subsystem')} at {design.sub:,.0f} MB/s"
        + (f" and {counted(c.idle_used, 'idle one')} put to work" if c.idle_used else "")
        + f", {counted(c.switches, 'new switch')} ({counted(joined, 'group')} on their drawer's switch).",
        f"{counted(len(cands), 'candidate')} can reach it by their figures; OK builds the cheapest the analysis proves "
        "and adds it as a new scenario (one undo step). Everything that exists stays as it is.",
    ]


def _unreachable(design: _Design) -> str:
    """The one line that names the limit a refused target runs into."""
    free = sum(design.free.values())
    left = max(0, design.most - len(design.drawers))
    most = layout(design, free + _per_drawer(design) * left, free + _per_drawer(design) * left)
    top = design.got + (bound(design, most) if most else 0.0)
    want = sum(design.need.values())
    server = design.parts["server"].get("id")
    return (
        f"{want:,.0f} MB/s is beyond reach: the {server} takes at most {design.most} drawers ({len(design.drawers)} "
        f"used, {left} left) and the drawers have {counted(free, 'free slot')} of the paper's 16; with all of them these "
        f"parts give at most about {top:,.0f} MB/s ({design.figset} figures)"
    )


def grow(
    topo: Topology,
    target_read_mbps: float,
    target_write_mbps: float = 0,
    figures: str = "planning",
    parts: Mapping[str, dict[str, Any]] | None = None,
    name: str = "",
) -> Growth:
    """The fewest parts that take ``topo`` to the target(s), added to a copy of it, proved by the
    analysis. ``topo`` is not changed. Raises AlreadyMet, or GrowthError naming the limit."""
    design, cands = plan(topo, target_read_mbps, target_write_mbps, figures, parts)
    label = name or _name(topo, target_read_mbps, target_write_mbps)
    for built, cand in enumerate(cands[:MAX_BUILDS], start=1):
        grown = build_growth(design, cand, label)
        result = _analyse(grown, figures, design.need)
        if meets(result, target_read_mbps, target_write_mbps):
            out = Growth(
                target_read_mbps,
                target_write_mbps,
                figures,
                dict(design.ids),
                design.before,
                grown,
                result,
                cand,
                [],
                built,
            )
            out.arrays = len(grown.of_kind("array")) - len(topo.of_kind("array"))
            out.steps = _steps(design, out)
            out.limit = _limit(design, out)
            return out
    raise GrowthError(
        f"no growth of up to {counted(cands[min(len(cands), MAX_BUILDS) - 1].hbas, 'HBA')} met the target in the analysis "
        f"({min(len(cands), MAX_BUILDS)} designs tried); {_unreachable(design)}"
    )


def _name(topo: Topology, read: float, write: float) -> str:
    want = " + ".join(
        t for t in (f"{read:,.0f} MB/s read" if read else "", f"{write:,.0f} write" if write else "") if t
    )
    return f"{topo.meta.get('name') or 'design'} grown to {want}"


def _steps(design: _Design, g: Growth) -> list[Step]:
    """What was added and why, each with its figure and source, as sizing prints its steps."""
    c, d0 = g.candidate, design.figs.dirs[0]
    hba, drawer = design.figs.get("hba", "hba", d0), design.figs.get("drawer", "drawer", d0)
    sub_fig, sub_src = design.figs.subsystem(d0)
    in_free = sum(x.hbas for x in c.groups if x.drawer)
    where = ", ".join(design.topo[x.drawer].name for x in c.groups if x.drawer) or "none"
    short = round(sum(design.need.values()) - design.got, 1)
    joined = sum(1 for x in c.groups if x.switch)
    layout_ = best_layout(design.parts["subsystem"], _drives_per_subsystem(design.parts), direction=d0)
    per_sub = layout_[2] if layout_ else 0
    as_is = f"the analysis of the design as it is ({g.figures})"
    return [
        Step("shortfall", short, "MB/s to add", as_is, 0, f"it gives {design.got:,.0f} MB/s"),
        Step(
            "HBAs in free slots",
            hba.value,
            "MB/s per adapter",
            hba.source,
            in_free,
            f"free slots of the paper's 16 in {where}",
        ),
        Step(
            "drawers",
            float(_per_drawer(design)),
            "adapters per drawer",
            drawer.source,
            c.drawers,
            f"{counted(c.hbas - in_free, 'adapter')} beyond the free slots",
        ),
        Step(
            "subsystems",
            sub_fig,
            "MB/s per subsystem",
            sub_src,
            c.subsystems,
            f"one or two of the new adapters each, one per controller (P690 Appendix B); {counted(c.idle_used, 'idle subsystem')} "
            "of the design put to work first; existing partitions unchanged",
        ),
        Step(
            "switches",
            float(design.parts["switch"].get("ports") or 32),
            "ports per switch",
            "P690 'Hardware configuration benchmarked': one 2109-F32 per drawer",
            c.switches,
            f"{counted(joined, 'group')} joined their drawer's switch (free ports), {c.switches} new",
        ),
        Step(
            "arrays",
            float(per_sub),
            "arrays per subsystem",
            layout_[3] if layout_ else "no layout",
            g.arrays,
            "laid out on the new subsystems; their logical drives form a new volume group",
        ),
    ]


def _limit(design: _Design, g: Growth) -> str:
    kinds = g.binding_kinds()
    top = max(kinds, key=lambda k: kinds[k]) if kinds else ""
    left = design.most - len(design.drawers) - g.candidate.drawers
    return (
        f"the grown design is bound by the {kind_name(top) if top else 'nothing'}; {counted(left, 'more drawer')} fit the "
        f"{design.parts['server'].get('id')}"
    )


# -- output --------------------------------------------------------------------------------------


def growth_to_dict(g: Growth) -> dict[str, Any]:
    """The documented JSON of ``sanplan grow --json`` (docs/cli.md)."""
    a, b, c = g.analysis, g.before, g.candidate
    return {
        "target": {"read_mbps": g.target_read, "write_mbps": g.target_write},
        "figures": g.figures,
        "parts": dict(g.parts),
        "before": {
            "aggregate_mbps": round(b.aggregate, 1),
            "read_mbps": round(b.read_mbps, 1),
            "write_mbps": round(b.write_mbps, 1),
        },
        "steps": [
            {
                "step": st.title,
                "figure": st.figure,
                "unit": st.unit,
                "source": st.source,
                "count": st.count,
                "why": st.what,
            }
            for st in g.steps
        ],
        "added": {
            "drawers": c.drawers,
            "hbas": c.hbas,
            "switches": c.switches,
            "subsystems": c.subsystems,
            "arrays": g.arrays,
            "idle_subsystems_used": c.idle_used,
        },
        "analysis": {
            "direction": a.direction,
            "aggregate_mbps": round(a.aggregate, 1),
            "read_mbps": round(a.read_mbps, 1),
            "write_mbps": round(a.write_mbps, 1),
            "paths": len(a.paths),
            "binding": g.binding_kinds(),
            "meets_target": g.meets(),
        },
        "designs_analysed": g.built,
        "limit": g.limit,
    }


def format_steps(steps: list[Step]) -> list[str]:
    """One line per step: title, figure, count and source."""
    out = []
    for n, st in enumerate(steps, start=1):
        fig = f"{st.figure:,.0f} {st.unit}" if st.figure is not None else st.unit
        out.append(
            f"{n}. {st.title}: {fig} -> {st.count}  ({st.what})" if n > 1 else f"{n}. {st.title}: {fig}  ({st.what})"
        )
        out.append(f"   source: {st.source}")
    return out


def format_growth(g: Growth) -> str:
    """The steps, what was added, the analysed result and its binding hops."""
    d = growth_to_dict(g)
    want = " + ".join(f"{v:,.0f} MB/s {k[:-5]}" for k, v in d["target"].items() if v)
    lines = [f"Growing to {want} ({g.figures} figures; parts: {', '.join(f'{k} {v}' for k, v in g.parts.items())})"]
    lines += format_steps(g.steps)
    c, a = d["added"], d["analysis"]
    lines.append(
        f"Added: {counted(c['drawers'], 'drawer')}, {counted(c['hbas'], 'HBA')}, {counted(c['switches'], 'switch')}, "
        f"{counted(c['subsystems'], 'subsystem')}, {counted(c['arrays'], 'array')}; everything that was there is unchanged"
    )
    lines += result_lines(a, g.limit, d["before"]["aggregate_mbps"])
    return "\n".join(lines)
