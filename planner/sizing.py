"""Size to a target: from "we need 16 GB/s" to a complete design whose analysis proves it.

The steps follow the P690 Redpaper ['Choosing the number and slot location of the Fibre Channel
HBAs']: the target over the per-adapter figure gives the adapters; 16 adapters fill a drawer;
two adapters per FAStT600 Turbo (one per controller) give the subsystems; one 2109-F32 per
drawer; arrays per subsystem from Table 1 (the part's ``layouts``); one VG of all arrays.
The design is then built with the assistants (:mod:`planner.assist`), analysed
(:func:`planner.analysis.analyze`) and grown until it meets the target with the headroom asked.

Counts are the smallest that can meet the target: fewest subsystems (each gives at most
min(its figure, two adapters)), then fewest adapters (an adapter gives at most its figure; one
adapter per subsystem is allowed, zoned to both controllers), then the fewest drawers for them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from planner import edit
from planner.analysis import Analysis, analyze, binding_counts
from planner.assist.base import token
from planner.assist.lvm import build_lvm
from planner.assist.san import cable_asic_local, host_ports_in_order, zone_for_multipath
from planner.assist.server import PAPER_SLOTS, place_hbas
from planner.assist.storage import best_layout, layout_arrays, map_luns
from planner.figures import FIGURE_SETS, Figure, figure
from planner.model import ModelError, Topology
from planner.naming import counted
from planner.schema import kind_name

#: the paper's parts (P690 'Hardware configuration benchmarked')
DEFAULT_PARTS = {
    "server": "7040-681",
    "drawer": "7040-61D",
    "hba": "FC6239",
    "switch": "2109-F32",
    "subsystem": "FAStT600-Turbo",
    "drive": "DRV-36G-15K",
    "enclosure": "EXP700",
}
MULTIPATH = ("RDAC", "SDD", "MPIO")
MAX_ROUNDS = 8  # build-analyse-grow rounds before giving up


class SizingError(ModelError):
    """The target cannot be met with these parts (the message says why), or bad input."""


@dataclass
class Step:
    title: str
    figure: float | None
    unit: str
    source: str
    count: int
    what: str
    estimate: bool = False


@dataclass
class Counts:
    drawers: int
    hbas: int
    subsystems: int
    switches: int
    arrays: int = 0
    per_drawer: list[list[int]] = field(default_factory=list)  # drawer -> HBAs of each subsystem
    fabrics: int = 1  # 2: each subsystem's two adapters and controllers on two switches


@dataclass
class Sizing:
    target_read: float
    target_write: float
    figures: str
    headroom_pct: float
    parts: dict[str, str]
    steps: list[Step]
    counts: Counts
    topology: Topology
    analysis: Analysis
    rounds: int
    limit: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def need_read(self) -> float:
        return self.target_read * (1 + self.headroom_pct / 100)

    @property
    def need_write(self) -> float:
        return self.target_write * (1 + self.headroom_pct / 100)

    def binding_kinds(self) -> dict[str, int]:
        """Hop kind -> paths it binds in the analysis of the result."""
        return binding_counts(self.topology, self.analysis)

    def meets(self) -> bool:
        return meets(self.analysis, self.need_read, self.need_write)


def meets(result: Analysis, read: float, write: float) -> bool:
    eps = 1e-6
    if read and write:
        return result.read_mbps + eps >= read and result.write_mbps + eps >= write
    return result.aggregate + eps >= (read or write)


# -- figures -------------------------------------------------------------------------------------


class _Figures:
    """The figures one sizing uses, per direction, with their sources."""

    def __init__(self, parts: Mapping[str, dict[str, Any]], figset: str, read: float, write: float) -> None:
        self.parts, self.figset = parts, figset
        self.dirs = [d for d, v in (("read", read), ("write", write)) if v]
        self.targets = {"read": read, "write": write}

    def get(self, kind: str, name: str, direction: str) -> Figure:
        fig = figure(self.parts[kind], name, self.figset, direction)
        if fig is None:
            raise SizingError(
                f"part {self.parts[kind].get('id')} has no {self.figset} {direction} figure for {name}: "
                "choose another part or figure set"
            )
        return fig

    def subsystem(self, direction: str) -> tuple[float, str]:
        """A subsystem's figure: the best Table 1 layout for its drives, else its own figure."""
        part = self.parts["subsystem"]
        layout = best_layout(part, _drives_per_subsystem(self.parts), direction=direction)
        fig = self.get("subsystem", "subsystem", direction)
        for row in part.get("layouts") or []:
            if layout and row.get("data_drives") == layout[0] and row.get("segment_kb") == layout[1]:
                return min(fig.value, float(row.get(direction, fig.value))), str(row.get("source", fig.source))
        return fig.value, fig.source


def _drives_per_subsystem(parts: Mapping[str, dict[str, Any]]) -> int:
    enc = parts.get("enclosure")
    return int(parts["subsystem"].get("drive_bays", 0)) + (int(enc.get("drive_bays", 0)) if enc else 0)


# -- counts --------------------------------------------------------------------------------------


def _per_drawer(parts: Mapping[str, dict[str, Any]], figs: _Figures) -> tuple[int, str]:
    """Adapters per drawer: the drawer's figure over the adapter's, at most the paper's 16 slots."""
    d = figs.dirs[0]
    drawer, hba = figs.get("drawer", "drawer", d), figs.get("hba", "hba", d)
    return max(1, min(len(PAPER_SLOTS), int(drawer.value // hba.value + 1e-9))), drawer.source


def _smallest(need: dict[str, float], sub: dict[str, float], hba: dict[str, float]) -> tuple[int, int]:
    """(subsystems, HBAs): fewest subsystems, then fewest HBAs (1 or 2 per subsystem)."""
    share = {d: need[d] / sum(need.values()) for d in need}

    def rate(s: int, h: int, d: str) -> float:
        two = min(h - s, s)
        return two * min(sub[d], 2 * hba[d]) + (s - two) * min(sub[d], hba[d])

    def ok(s: int, h: int) -> bool:  # both directions share the hops in proportion (simplex)
        return sum(need[d] / rate(s, h, d) for d in need) <= 1 + 1e-9 if all(rate(s, h, d) for d in need) else False

    s = max(1, math.ceil(sum(need[d] / min(sub[d], 2 * hba[d]) * share[d] for d in need) - 1e-9))
    while not ok(s, 2 * s):
        s += 1
    h = s
    while not ok(s, h):
        h += 1
    return s, h


def spread(subsystems: int, hbas: int, per_drawer: int, ports: int = 32) -> list[list[int]]:
    """Subsystems over the fewest drawers, balanced: drawer -> HBAs of each of its subsystems.
    A drawer's switch (``ports`` ports) takes its HBAs and its subsystems' two host ports each."""
    counts = [2] * (hbas - subsystems) + [1] * (2 * subsystems - hbas)
    drawers = max(1, math.ceil(hbas / per_drawer))
    out: list[list[int]] = [[] for _ in range(drawers)]

    def fits(i: int, k: int) -> bool:
        return sum(out[i]) + k <= per_drawer and sum(out[i]) + k + 2 * (len(out[i]) + 1) <= ports

    for k in counts:
        room = [i for i in range(len(out)) if fits(i, k)]
        if not room:
            out.append([])
            room = [len(out) - 1]
        out[min(room, key=lambda i: (sum(out[i]), i))].append(k)
    return out


# -- the build -----------------------------------------------------------------------------------


def _hex(n: int) -> str:
    return f"{(n >> 8) & 255:02x}:{n & 255:02x}"


def build(
    parts: Mapping[str, dict[str, Any]], counts: Counts, multipath: str = "RDAC", name: str = "sized design"
) -> Topology:
    """The design for ``counts``: placed, cabled ASIC-local, zoned for ``multipath``, mapped, arrays
    laid out, one VG of all arrays with a striped LV; built with the assistants."""
    t = Topology(name)
    edit.add_server(t, parts["server"], "p690")
    edit.add_lpar(t, "p690", "lpar1", multipath=multipath, aix_level="5.2")
    sub_no = 0
    for d, subs in enumerate(counts.per_drawer, start=1):
        sub_no = _build_drawer(t, parts, d, subs, sub_no, counts.fabrics)
    build_lvm(t, "p690.lpar1")
    t.revision = 0
    return t


def _build_drawer(
    t: Topology, parts: Mapping[str, dict[str, Any]], d: int, subs: list[int], sub_no: int, fabrics: int = 1
) -> int:
    """Drawer ``d`` with its HBAs, its switch in its own fabric (two with ``fabrics`` 2) and its
    subsystems, cabled, zoned and mapped; returns the number of subsystems built so far."""
    edit.add_drawer(t, "p690", parts["drawer"], index=d)
    drawer = t.children("p690", "drawer")[-1].id
    place_hbas(t, drawer, parts["hba"], sum(subs), lpar="p690.lpar1")
    for n, hba in enumerate(c for c in t.descendants(drawer) if c.kind == "hba"):
        for port in t.children(hba.id, "hba_port"):
            edit.set_attr(t, port.id, "wwpn", f"10:00:00:00:c9:{d:02x}:{n:02x}:{port['index'] + 1:02x}")
            edit.set_attr(t, port.id, "wwpn_placeholder", True)  # made up: replace with the real one
    names = [f"D{d}"] if fabrics == 1 else [f"D{d}A", f"D{d}B"]
    for k, tag in enumerate(names):
        edit.add_fabric(t, f"FAB_{tag}")
        edit.add_switch(t, parts["switch"], f"fab.FAB_{tag}", f"sw{tag.lower()[1:]}", domain_id=d + 10 * k)
    enc = parts.get("enclosure")
    first = sub_no
    drive = parts["drive"]
    for _ in subs:
        sub_no += 1
        sub = f"fastt{sub_no}"
        bays = int(parts["subsystem"].get("drive_bays", 0))
        edit.add_subsystem(
            t, parts["subsystem"], sub, wwpn_base=f"20:0a:00:a0:b8:{_hex(sub_no)}:00", drive_part=drive, drives=bays
        )
        if enc:
            edit.add_enclosure(t, sub, enc, drive_part=drive, drives=int(enc.get("drive_bays", 0)))
        layout_arrays(t, sub)
    if fabrics == 1:
        cable_asic_local(t, f"sw{d}")
        zone_for_multipath(t, f"fab.FAB_D{d}")
    else:
        _zone_two_fabrics(t, drawer, [f"fastt{n}" for n in range(first + 1, sub_no + 1)], names)
        cable_asic_local(t)
    map_luns(t)
    return sub_no


def _zone_two_fabrics(t: Topology, drawer: str, subs: list[str], names: list[str]) -> None:
    """Each subsystem's first adapter with controller A in the first fabric, its second with
    controller B in the second, so no single switch failure loses a logical drive; cabling
    then follows the zones (ASIC-local)."""
    ports = [p.id for h in (c for c in t.descendants(drawer) if c.kind == "hba") for p in t.children(h.id, "hba_port")]
    for i, sub in enumerate(subs):
        for k, tag in enumerate(names):
            host = host_ports_in_order(t, t[sub])[k]
            hp = ports[2 * i + k]
            zone = f"Z_{token(t[hp].parent or '')}_{token(sub)}_{token(host.name)}"[:64]
            edit.add_zone(t, f"fab.FAB_{tag}", zone, [hp, host.id])


# -- sizing --------------------------------------------------------------------------------------


def _resolve(
    parts: Mapping[str, dict[str, Any]], chosen: Mapping[str, str | None]
) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """Part dicts by role and their ids; a wrong id or kind raises SizingError naming the fix."""
    out, ids = {}, {}
    for role, default in DEFAULT_PARTS.items():
        pid = chosen.get(role) or default
        part = parts.get(pid)
        if part is None:
            if role == "enclosure":
                continue
            raise SizingError(f"no {role} part {pid!r} in the catalog: see 'sanplan parts --kind {role}'")
        if part.get("kind") != role:
            raise SizingError(f"part {pid!r} is a {part.get('kind')}, not a {role}: see 'sanplan parts --kind {role}'")
        out[role], ids[role] = part, pid
    return out, ids


def _check_inputs(read: float, write: float, figures: str, multipath: str, fabrics: int, headroom: float) -> None:
    if read < 0 or write < 0 or not (read or write):
        raise SizingError("give a read and/or write target in MB/s greater than 0")
    if figures not in FIGURE_SETS:
        raise SizingError(f"figure set must be one of {', '.join(FIGURE_SETS)}, not {figures!r}")
    if multipath not in MULTIPATH:
        raise SizingError(f"multipath driver must be one of {', '.join(MULTIPATH)}, not {multipath!r}")
    if fabrics not in (1, 2):
        raise SizingError(f"fabrics must be 1 or 2, not {fabrics!r}")
    if not 0 <= headroom <= 1000:
        raise SizingError(f"headroom must be a percentage from 0 to 1000, not {headroom!r}")


def _plan(
    parts: dict[str, dict[str, Any]], figs: _Figures, need: dict[str, float], fill_drawers: bool, fabrics: int = 1
) -> tuple[list[Step], Counts]:
    """The paper's steps and the smallest counts they lead to."""
    d0 = figs.dirs[0]
    hba = {d: figs.get("hba", "hba", d) for d in figs.dirs}
    sub = {d: figs.subsystem(d) for d in figs.dirs}
    per_drawer, drawer_src = _per_drawer(parts, figs)
    s, h = _smallest(need, {d: sub[d][0] for d in need}, {d: hba[d].value for d in need})
    if fill_drawers:
        h = math.ceil(h / per_drawer) * per_drawer
        s = math.ceil(h / 2)
    layout = best_layout(parts["subsystem"], _drives_per_subsystem(parts), direction=d0)
    counts = _counts(parts, figs, s, h, layout[2] if layout else 0, fabrics)
    arrays = counts.arrays
    s, h = counts.subsystems, counts.hbas
    total = " + ".join(f"{need[d]:,.0f} MB/s {d}" for d in figs.dirs)
    steps = [
        Step("adapters", hba[d0].value, "MB/s per adapter", hba[d0].source, h, f"{total} over the adapters"),
        Step("drawers", float(per_drawer), "adapters per drawer", drawer_src, counts.drawers, f"{h} adapters"),
        Step(
            "subsystems",
            sub[d0][0],
            "MB/s per subsystem",
            sub[d0][1],
            s,
            f"two adapters per subsystem, one per controller (P690 Appendix B); {h} adapters",
        ),
        Step(
            "switches",
            float(fabrics),
            "switch per drawer" if fabrics == 1 else "switches per drawer (two fabrics)",
            "P690 'Hardware configuration benchmarked'",
            counts.switches,
            f"{parts['switch'].get('ports', '?')} ports for each drawer's adapters and storage ports",
        ),
        Step(
            "arrays",
            float(layout[2] if layout else 0),
            "arrays per subsystem",
            layout[3] if layout else "no layout",
            arrays,
            f"RAID 5 {layout[0]}+P, {layout[1]} KB segments" if layout else "no aligned layout",
        ),
        Step(
            "volume groups",
            float(arrays),
            "arrays per VG",
            "P690: one VG of all arrays, striped LVs",
            1,
            "hdisk per logical drive; VG type by PV count",
        ),
    ]
    return steps, counts


def _ports(parts: dict[str, dict[str, Any]]) -> int:
    return int(parts["switch"].get("ports") or 32)


def _max_drawers(parts: dict[str, dict[str, Any]]) -> int:
    return int(parts["server"].get("max_drawers") or 64)


def reach(parts: dict[str, dict[str, Any]], figs: _Figures) -> float:
    """About the most these parts give with the server's maximum drawers (first direction)."""
    per, _ = _per_drawer(parts, figs)
    d = figs.dirs[0]
    hba = figs.get("hba", "hba", d).value
    sub, _ = figs.subsystem(d)
    return _max_drawers(parts) * per * min(hba, sub / 2)


def _too_big(parts: dict[str, dict[str, Any]], figs: _Figures, counts: Counts) -> SizingError:
    most = _max_drawers(parts)
    return SizingError(
        f"the target needs {counts.drawers} drawers; {most} is the most a {parts['server'].get('id')} takes: "
        f"beyond about {reach(parts, figs):,.0f} MB/s ({figs.figset} figures) no configuration of these parts "
        "reaches the target"
    )


def size(
    target_read_mbps: float,
    target_write_mbps: float = 0,
    figures: str = "planning",
    parts: Mapping[str, dict[str, Any]] | None = None,
    multipath: str = "RDAC",
    fabrics: int = 1,
    headroom_pct: float = 0,
    fill_drawers: bool = False,
    **part_ids: str | None,
) -> Sizing:
    """Size, build and prove the smallest design that meets the target(s) with the headroom.
    ``part_ids``: server, drawer, hba, switch, subsystem, drive, enclosure (default: the paper's);
    ``fill_drawers``: 16 adapters in every drawer, as the paper's benchmark. Raises SizingError."""
    unknown = set(part_ids) - set(DEFAULT_PARTS)
    if unknown:
        raise SizingError(f"unknown part role {', '.join(sorted(unknown))}; roles: {', '.join(DEFAULT_PARTS)}")
    _check_inputs(target_read_mbps, target_write_mbps, figures, multipath, fabrics, headroom_pct)
    chosen, ids = _resolve(parts or {}, part_ids)
    figs = _Figures(chosen, figures, target_read_mbps, target_write_mbps)
    factor = 1 + headroom_pct / 100
    need = {d: figs.targets[d] * factor for d in figs.dirs}
    steps, counts = _plan(chosen, figs, need, fill_drawers, fabrics)
    for rounds in range(1, MAX_ROUNDS + 1):
        if counts.drawers > _max_drawers(chosen):
            raise _too_big(chosen, figs, counts)
        topo = build(chosen, counts, multipath, name=_name(target_read_mbps, target_write_mbps))
        result = _analyse(topo, figures, need)
        if meets(result, need.get("read", 0), need.get("write", 0)):
            if not fill_drawers:
                counts, topo, result = _shrink(chosen, figs, counts, (topo, result), need, multipath)
            _recount(steps, counts)
            out = Sizing(
                target_read_mbps, target_write_mbps, figures, headroom_pct, ids, steps, counts, topo, result, rounds
            )
            out.limit = _limit(out, chosen, figs)
            return out
        counts = _grow(chosen, figs, counts, result, need)
    raise SizingError(f"no design of these parts met the target after {MAX_ROUNDS} rounds of growth")


def estimate(
    target_read_mbps: float,
    target_write_mbps: float = 0,
    figures: str = "planning",
    parts: Mapping[str, dict[str, Any]] | None = None,
    headroom_pct: float = 0,
    fill_drawers: bool = False,
    fabrics: int = 1,
    **part_ids: str | None,
) -> tuple[list[Step], Counts]:
    """The paper's steps and counts without building or analysing (fast: for a live preview).
    Raises SizingError for bad input or a target beyond the server's maximum drawers."""
    _check_inputs(target_read_mbps, target_write_mbps, figures, "RDAC", fabrics, headroom_pct)
    chosen, _ = _resolve(parts or {}, part_ids)
    figs = _Figures(chosen, figures, target_read_mbps, target_write_mbps)
    need = {d: figs.targets[d] * (1 + headroom_pct / 100) for d in figs.dirs}
    steps, counts = _plan(chosen, figs, need, fill_drawers, fabrics)
    if counts.drawers > _max_drawers(chosen):
        raise _too_big(chosen, figs, counts)
    return steps, counts


def format_steps(steps: list[Step]) -> list[str]:
    """One line per step: title, figure, count and source."""
    out = []
    for n, st in enumerate(steps, start=1):
        fig = f"{st.figure:,.0f} {st.unit}" if st.figure is not None else st.unit
        out.append(f"{n}. {st.title}: {fig} -> {st.count}  ({st.what})")
        out.append(f"   source: {st.source}")
    return out


def _name(read: float, write: float) -> str:
    parts = [f"{read:,.0f} MB/s read" if read else "", f"{write:,.0f} MB/s write" if write else ""]
    return "sized for " + " + ".join(p for p in parts if p)


def _analyse(topo: Topology, figures: str, need: dict[str, float]) -> Analysis:
    if len(need) == 2:
        pct = 100 * need["read"] / (need["read"] + need["write"])
        return analyze(topo, figures, "mixed", read_pct=pct)
    return analyze(topo, figures, next(iter(need)))


def _grow(
    parts: dict[str, dict[str, Any]], figs: _Figures, counts: Counts, result: Analysis, need: dict[str, float]
) -> Counts:
    """More subsystems and adapters in proportion to the shortfall (at least one more of each)."""
    got = result.aggregate if len(need) == 1 else result.read_mbps + result.write_mbps
    ratio = sum(need.values()) / max(got, 1e-9)
    s = max(counts.subsystems + 1, math.ceil(counts.subsystems * ratio))
    h = min(2 * s, max(counts.hbas + 1, math.ceil(counts.hbas * ratio), s))
    return _counts(parts, figs, s, h, counts.arrays // max(counts.subsystems, 1), counts.fabrics)


def _limit(result: Sizing, parts: dict[str, dict[str, Any]], figs: _Figures) -> str:
    """What limits further growth: the server's drawers when all are used, else the binding hops."""
    most = _max_drawers(parts)
    kinds = result.binding_kinds()
    top = max(kinds, key=lambda k: kinds[k]) if kinds else ""
    bound = f"the analysis is bound by the {kind_name(top) if top else 'nothing'}"
    most_text = f"beyond about {reach(parts, figs):,.0f} MB/s no configuration of these parts reaches a target"
    if result.counts.drawers >= most:
        return f"drawer {result.counts.drawers} is the {parts['server'].get('id')}'s maximum; {most_text}; {bound}"
    return f"{bound}; growth adds subsystems and adapters, then drawers (up to {most}); {most_text}"


def _counts(
    parts: dict[str, dict[str, Any]], figs: _Figures, s: int, h: int, arrays_per: int, fabrics: int = 1
) -> Counts:
    """Counts for ``s`` subsystems and ``h`` adapters (two per subsystem with two fabrics)."""
    h = 2 * s if fabrics == 2 else h
    per, _ = _per_drawer(parts, figs)
    out = Counts(0, h, s, 0, arrays_per * s, spread(s, h, per, _ports(parts) * fabrics), fabrics)
    out.drawers = len(out.per_drawer)
    out.switches = out.drawers * fabrics
    return out


def _shrink(
    parts: dict[str, dict[str, Any]],
    figs: _Figures,
    counts: Counts,
    best: tuple[Topology, Analysis],
    need: dict[str, float],
    multipath: str,
) -> tuple[Counts, Topology, Analysis]:
    """Fewer subsystems, then fewer adapters, while the analysis still meets the target (the
    estimate is conservative where links are full duplex)."""
    per_sub = counts.arrays // max(counts.subsystems, 1)
    for _ in range(4 * MAX_ROUNDS):
        s, h = counts.subsystems, counts.hbas
        for s2, h2 in ((s - 1, min(h, 2 * s - 2)), (s, h - 1)):
            if s2 < 1 or h2 < s2:
                continue
            if counts.fabrics == 2 and h2 != 2 * s2:
                continue
            cand = _counts(parts, figs, s2, h2, per_sub, counts.fabrics)
            topo = build(parts, cand, multipath, name=best[0].meta["name"])
            result = _analyse(topo, figs.figset, need)
            if meets(result, need.get("read", 0), need.get("write", 0)):
                counts, best = cand, (topo, result)
                break
        else:
            break
    return counts, best[0], best[1]


def _recount(steps: list[Step], counts: Counts) -> None:
    """The steps' counts after growth or shrinking."""
    by = {"adapters": counts.hbas, "drawers": counts.drawers, "subsystems": counts.subsystems}
    by |= {"switches": counts.switches, "arrays": counts.arrays}
    for st in steps:
        if st.title in by and st.count != by[st.title]:
            st.what += f" (the analysis changed the estimate of {st.count})"
            st.count = by[st.title]


# -- output --------------------------------------------------------------------------------------


def _part_counts(s: Sizing) -> dict[str, int]:
    """Part id -> how many the design uses (drives counted one by one)."""
    out: dict[str, int] = {}
    for comp in s.topology.components():
        if comp.part:
            out[comp.part] = out.get(comp.part, 0) + 1
    return out


def sizing_to_dict(s: Sizing) -> dict[str, Any]:
    """The documented JSON of ``sanplan size --json`` (docs/cli.md)."""
    a = s.analysis
    return {
        "target": {"read_mbps": s.target_read, "write_mbps": s.target_write, "headroom_pct": s.headroom_pct},
        "figures": s.figures,
        "parts": dict(s.parts),
        "steps": [
            {
                "step": st.title,
                "figure": st.figure,
                "unit": st.unit,
                "source": st.source,
                "count": st.count,
                "why": st.what,
            }
            for st in s.steps
        ],
        "counts": {
            "drawers": s.counts.drawers,
            "hbas": s.counts.hbas,
            "switches": s.counts.switches,
            "subsystems": s.counts.subsystems,
            "arrays": s.counts.arrays,
            "volume_groups": len(s.topology.of_kind("volume_group")),
        },
        "part_counts": _part_counts(s),
        "analysis": {
            "direction": a.direction,
            "aggregate_mbps": round(a.aggregate, 1),
            "read_mbps": round(a.read_mbps, 1),
            "write_mbps": round(a.write_mbps, 1),
            "paths": len(a.paths),
            "binding": s.binding_kinds(),
            "meets_target": s.meets(),
        },
        "limit": s.limit,
    }


def format_sizing(s: Sizing) -> str:
    """The steps in the paper's manner, then the analysed result and its binding hops."""
    d = sizing_to_dict(s)
    want = " + ".join(f"{v:,.0f} MB/s {k[:-5]}" for k, v in d["target"].items() if k != "headroom_pct" and v)
    lines = [f"Sizing for {want}" + (f" with {s.headroom_pct:g}% headroom" if s.headroom_pct else "")]
    lines.append(f"({s.figures} figures; parts: {', '.join(f'{k} {v}' for k, v in s.parts.items())})")
    lines += format_steps(s.steps)
    c, a = d["counts"], d["analysis"]
    lines.append(
        f"Design: {counted(c['drawers'], 'drawer')}, {counted(c['hbas'], 'HBA')}, {counted(c['switches'], 'switch')}, "
        f"{counted(c['subsystems'], 'subsystem')}, {counted(c['arrays'], 'array')}, {counted(c['volume_groups'], 'volume group')}"
    )
    lines += result_lines(a, s.limit)
    return "\n".join(lines)


def result_lines(a: dict[str, Any], limit: str, before_mbps: float | None = None) -> list[str]:
    """The analysed result of a sized or grown design (its JSON ``analysis``), its binding hops and
    the limit to further growth, as printed by ``sanplan size`` and ``sanplan grow``."""
    got = f"{a['aggregate_mbps']:,.0f} MB/s {a['direction']}"
    if a["direction"] == "mixed":
        got += f" ({a['read_mbps']:,.0f} read + {a['write_mbps']:,.0f} write)"
    start = "" if before_mbps is None else f"{before_mbps:,.0f} -> "
    verdict = "meets" if a["meets_target"] else "misses"
    binding = ", ".join(
        f"{kind_name(k)} ({counted(n, 'path')})" for k, n in sorted(a["binding"].items(), key=lambda x: -x[1])
    )
    return [
        f"Analysis: {start}{got} over {counted(a['paths'], 'path')}; {verdict} the target",
        f"Binding hops: {binding or 'none'}",
        f"Limit: {limit}",
    ]
