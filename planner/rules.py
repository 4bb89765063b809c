"""Design rules: checks a storage admin would make, each a small function in a registry.

A rule takes the design and a shared :class:`Context` and returns :class:`Finding`s: a stable
rule id, a severity (``error``: the design cannot work as drawn or breaks a hard limit;
``warning``: it works but loses bandwidth or redundancy; ``advice``: a better choice exists),
the components involved, a message naming them by their labels, a concrete fix, and the source
of the rule (paper and section, see ``shared/DOMAIN.md``).

Rules are registered with :func:`rule` into :data:`RULES`; :func:`check` runs them all (or some)
and returns the findings sorted by severity, rule id and components. One finding may group many
components (all ports sharing one WWPN, all logical drives of one LPAR behind one switch), so a
big design gives a readable list rather than one line per LUN.

The :class:`Context` builds the indexes several rules share (cables by port, zones by member,
zoned connections, the volume groups' arrays) once per check, and the bandwidth analysis lazily,
once, for the rules that need it. The analysis must be a full one (no ``only`` filter).

Papers: P690 = "JFS2/DIO Sequential I/O Performance on IBM pSeries 690" (Redpaper 2004);
SASAIX = "Setting up and tuning direct I/O for SAS 9 on AIX"; SGIO = "How to Increase I/O
Throughput with SAS for Windows' SGIO Feature"; SUN = "SAS users and Solaris admins";
NT = "Tuning SAS for better performance on IBM Netfinity Servers running Windows NT 4.0".
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from planner.analysis import Analysis, analyze
from planner.figures import DIRECTIONS, FIGURE_SETS, data_drives, figure
from planner.model import Component, Topology, wwpn_problem

log = logging.getLogger(__name__)

SEVERITIES = ("error", "warning", "advice")
_SEVERITY_ORDER = {s: i for i, s in enumerate(SEVERITIES)}


@dataclass(frozen=True)
class Finding:
    """One problem or suggestion: which rule, how bad, which components, what to do, and why."""

    rule: str
    severity: str  # "error" | "warning" | "advice"
    components: tuple[str, ...]
    message: str
    fix: str
    source: str

    def __post_init__(self) -> None:
        if self.severity not in _SEVERITY_ORDER:
            raise ValueError(f"severity must be one of {', '.join(SEVERITIES)}, not {self.severity!r}")

    def to_dict(self) -> dict[str, Any]:
        """The finding as plain data (JSON, the findings panel, reports)."""
        return {
            "rule": self.rule,
            "severity": self.severity,
            "components": list(self.components),
            "message": self.message,
            "fix": self.fix,
            "source": self.source,
        }


RuleFn = Callable[[Topology, "Context"], list[Finding]]


@dataclass(frozen=True)
class Rule:
    """A registered rule: id, default severity, title, source and the checking function."""

    id: str
    severity: str
    title: str
    source: str
    fn: RuleFn

    def finding(
        self, components: Iterable[str], message: str, fix: str, severity: str | None = None, source: str | None = None
    ) -> Finding:
        """A finding of this rule with its default severity and source unless given."""
        return Finding(self.id, severity or self.severity, tuple(components), message, fix, source or self.source)


#: rule id -> Rule, in registration order
RULES: dict[str, Rule] = {}


def rule(rule_id: str, severity: str, title: str, source: str) -> Callable[[RuleFn], RuleFn]:
    """Register ``fn(topo, ctx) -> list[Finding]`` as rule ``rule_id``. Raises ValueError for a
    duplicate id or an unknown severity."""
    if severity not in _SEVERITY_ORDER:
        raise ValueError(f"rule {rule_id}: severity must be one of {', '.join(SEVERITIES)}")

    def register(fn: RuleFn) -> RuleFn:
        if rule_id in RULES:
            raise ValueError(f"rule {rule_id} is registered twice")
        RULES[rule_id] = Rule(rule_id, severity, title, source, fn)
        return fn

    return register


def rules_table() -> list[dict[str, str]]:
    """The registered rules as rows (id, severity, title, source) for documentation and the UI."""
    return [{"id": r.id, "severity": r.severity, "title": r.title, "source": r.source} for r in RULES.values()]


# ---------------------------------------------------------------------------------------------
# Context: shared indexes, built once per check


_LABEL_CONTEXT: dict[str, tuple[str, tuple[str, ...]]] = {
    # kind -> (first joiner, ancestor kinds whose labels make the name unambiguous)
    "planar": (" of ", ("drawer",)),
    "rio_link": (" of ", ("planar", "drawer")),
    "phb": (" of ", ("drawer",)),
    "slot": (" of ", ("drawer",)),
    "hba": (" in ", ("slot", "drawer")),
    "hba_port": (" in ", ("slot", "drawer")),
    "asic": (" of ", ("switch",)),
    "switch_port": (" of ", ("switch",)),
    "backplane": (" of ", ("switch",)),
    "controller": (" of ", ("subsystem",)),
    "host_port": (" of ", ("subsystem",)),
    "enclosure": (" of ", ("subsystem",)),
    "drive": (" of ", ("enclosure", "subsystem")),
    "array": (" on ", ("subsystem",)),
    "logical_drive": (" on ", ("subsystem",)),
    "host_mapping": (" on ", ("subsystem",)),
    "hdisk": (" on ", ("lpar",)),
    "volume_group": (" on ", ("lpar",)),
    "logical_volume": (" in ", ("volume_group",)),
    "workload": (" on ", ("logical_volume",)),
    "zone": (" in ", ("fabric",)),
}

_IO_LEVELS = ("slot", "phb", "rio_link", "planar", "drawer")


class Context:
    """What the rules share during one check: the design, the figure set and direction, the
    analysis (computed lazily, once) and indexes built on first use.

    Parameters: ``topo``; ``figures`` (rated/measured/planning) and ``direction`` (read/write)
    for the analysis; ``analysis``: a full analysis already computed for this design (its figure
    set and direction then win). Raises ValueError for an unknown figure set or direction.
    """

    def __init__(
        self, topo: Topology, figures: str = "planning", direction: str = "read", analysis: Analysis | None = None
    ) -> None:
        if analysis is not None:
            figures, direction = analysis.figures, analysis.direction
        if figures not in FIGURE_SETS:
            raise ValueError(f"figure set must be one of {', '.join(FIGURE_SETS)}, not {figures!r}")
        if direction not in DIRECTIONS:
            raise ValueError(f"direction must be read or write, not {direction!r}")
        self.topo, self.figures, self.direction = topo, figures, direction
        self._analysis = analysis
        self._analysis_error: Exception | None = None
        self._labels: dict[str, str] = {}

    # -- analysis ------------------------------------------------------------------------------
    @property
    def analysis(self) -> Analysis:
        """The bandwidth analysis from disk (computed once; a failure re-raises for each rule)."""
        if self._analysis is None:
            if self._analysis_error is not None:
                raise self._analysis_error
            try:
                self._analysis = analyze(self.topo, self.figures, self.direction, "disk", cross_check=False)
            except Exception as err:
                self._analysis_error = err
                raise
        return self._analysis

    @cached_property
    def binding(self) -> dict[str, int]:
        """Bottleneck component id -> number of paths it binds."""
        return self.analysis.binding_hops()

    # -- labels --------------------------------------------------------------------------------
    def label(self, cid: str) -> str:
        """A component's name with enough context to find it: 'PHB1 (drawer PHB1) of Drawer 1'."""
        got = self._labels.get(cid)
        if got is not None:
            return got
        comp = self.topo.get(cid)
        if comp is None:
            text = cid
        else:
            text = comp.label()
            joiner, kinds = _LABEL_CONTEXT.get(comp.kind, ("", ()))
            for kind in kinds:
                anc = self.topo.ancestor(comp.parent, kind) if comp.parent else None
                if anc is None:
                    continue
                name = anc.label()
                if re.search(rf"(^|[^\w]){re.escape(name)}($|[^\w])", text):
                    continue  # 'sw1 port 3' already names its switch
                text += joiner + name
                joiner = " of "
        self._labels[cid] = text
        return text

    def names(self, ids: Iterable[str], limit: int = 4, short: bool = True) -> str:
        """'a, b, c and 5 more': labels of the first ``limit`` components."""
        ids = list(dict.fromkeys(ids))
        shown = [(self.topo[c].label() if short and c in self.topo else self.label(c)) for c in ids[:limit]]
        if len(ids) > limit:
            return ", ".join(shown) + f" and {len(ids) - limit} more"
        if len(shown) > 1:
            return ", ".join(shown[:-1]) + " and " + shown[-1]
        return shown[0] if shown else "none"

    # -- cabling and zoning --------------------------------------------------------------------
    @cached_property
    def cable_of(self) -> dict[str, Component]:
        """Port id -> the cable plugged into it."""
        out: dict[str, Component] = {}
        for cab in self.topo.of_kind("cable"):
            for end in (cab["a"], cab["b"]):
                if end:
                    out[end] = cab
        return out

    def peer(self, port: str) -> Component | None:
        """The port at the other end of ``port``'s cable."""
        cab = self.cable_of.get(port)
        if cab is None:
            return None
        return self.topo.get(cab["b"] if cab["a"] == port else cab["a"])

    def switch_of(self, switch_port: Component) -> Component | None:
        asic = self.topo.get(switch_port.parent)
        return self.topo.get(asic.parent) if asic is not None else None

    @cached_property
    def islands(self) -> dict[str, str]:
        """Switch id -> id of the first switch of its group of switches joined by ISLs."""
        root: dict[str, str] = {s.id: s.id for s in self.topo.of_kind("switch")}

        def find(s: str) -> str:
            while root[s] != s:
                root[s] = root[root[s]]
                s = root[s]
            return s

        for cab in self.topo.of_kind("cable"):
            a, b = self.topo.get(cab["a"]), self.topo.get(cab["b"])
            if a is None or b is None or a.kind != "switch_port" or b.kind != "switch_port":
                continue
            sa, sb = self.switch_of(a), self.switch_of(b)
            if sa is not None and sb is not None:
                root[find(sa.id)] = find(sb.id)
        return {s: find(s) for s in root}

    def attachment(self, port: str) -> tuple[str, Component | None]:
        """How an HBA or host port is attached: ('switch', switch port), ('direct', the other
        end port), ('none', None) when it is not cabled, ('other', the other end) otherwise."""
        peer = self.peer(port)
        if peer is None:
            return "none", None
        if peer.kind == "switch_port":
            return "switch", peer
        if peer.kind in ("hba_port", "host_port"):
            return "direct", peer
        return "other", peer

    @cached_property
    def zones_by_member(self) -> dict[str, list[Component]]:
        out: dict[str, list[Component]] = {}
        for z in self.topo.of_kind("zone"):
            for m in z["members"]:
                out.setdefault(m, []).append(z)
        return out

    @cached_property
    def zone_pairs(self) -> list[tuple[Component, str, str]]:
        """(zone, hba_port id, host_port id) for every initiator-target pair a zone allows."""
        out = []
        for z in self.topo.of_kind("zone"):
            members = [self.topo.get(m) for m in z["members"]]
            initiators = [m.id for m in members if m is not None and m.kind == "hba_port"]
            targets = [m.id for m in members if m is not None and m.kind == "host_port"]
            out += [(z, i, t) for i in initiators for t in targets]
        return out

    def in_fabric(self, port: str, fabric: str) -> Component | None:
        """The switch port ``port`` is cabled to when that switch is in ``fabric``, else None."""
        how, sp = self.attachment(port)
        if how != "switch" or sp is None:
            return None
        sw = self.switch_of(sp)
        return sp if sw is not None and sw["fabric"] == fabric else None

    @cached_property
    def connections(self) -> dict[str, dict[str, list[str]]]:
        """HBA port id -> {host port id: zones allowing it} for every logical connection:
        both ports cabled into the zone's fabric, on switches joined by ISLs, or direct-attached
        (key '' stands for 'no zone needed')."""
        out: dict[str, dict[str, list[str]]] = {}
        islands = self.islands
        for z, i, t in self.zone_pairs:
            si, st = self.in_fabric(i, z.parent or ""), self.in_fabric(t, z.parent or "")
            if si is None or st is None:
                continue
            swi, swt = self.switch_of(si), self.switch_of(st)
            if islands.get(swi.id) != islands.get(swt.id):
                continue
            out.setdefault(i, {}).setdefault(t, []).append(z.id)
        for hp in self.topo.of_kind("hba_port"):
            how, peer = self.attachment(hp.id)
            if how == "direct" and peer is not None and peer.kind == "host_port":
                out.setdefault(hp.id, {}).setdefault(peer.id, []).append("")
        return out

    # -- server side ---------------------------------------------------------------------------
    @cached_property
    def io_chain(self) -> dict[str, dict[str, str]]:
        """HBA id -> {'slot', 'phb', 'rio_link', 'planar', 'drawer': id} (levels that exist)."""
        out: dict[str, dict[str, str]] = {}
        for hba in self.topo.of_kind("hba"):
            chain: dict[str, str] = {}
            c = self.topo.get(hba.parent)
            while c is not None:
                if c.kind in _IO_LEVELS:
                    chain[c.kind] = c.id
                c = self.topo.get(c.parent)
            out[hba.id] = chain
        return out

    @cached_property
    def hbas_under(self) -> dict[str, list[str]]:
        """Slot, PHB, link, planar or drawer id -> the HBAs placed below it."""
        out: dict[str, list[str]] = {}
        for hba, chain in self.io_chain.items():
            for cid in chain.values():
                out.setdefault(cid, []).append(hba)
        return out

    @cached_property
    def free_slots(self) -> list[Component]:
        """PCI slots that hold no adapter, in design order."""
        taken = self.hbas_under
        return [s for s in self.topo.of_kind("slot") if s.id not in taken]

    def slot_chain(self, slot: Component) -> list[str]:
        """The slot's PHB, RIO2 link, planar and drawer ids."""
        out, c = [], self.topo.get(slot.parent)
        while c is not None and c.kind in _IO_LEVELS:
            out.append(c.id)
            c = self.topo.get(c.parent)
        return out

    def io_capacity(self, comp: Component, figset: str) -> float | None:
        """Capacity of a PHB, RIO2 link, planar or drawer in ``figset`` (from the drawer part)."""
        drawer = comp if comp.kind == "drawer" else self.topo.ancestor(comp.id, "drawer")
        part = self.topo.part_of(drawer) if drawer is not None else None
        if comp.kind == "rio_link":
            fig = figure(part, f"rio_link{comp['index']}", figset, self.direction) or figure(
                part, "rio_link", figset, self.direction
            )
        else:
            fig = figure(part, comp.kind, figset, self.direction)
        return fig.value if fig is not None else None

    def hba_planning(self, hba_id: str) -> float:
        """The HBA's planning figure (P690 step 1: 150 MB/s when many adapters are busy)."""
        fig = figure(self.topo.part_of(self.topo[hba_id]), "hba", "planning", self.direction)
        return fig.value if fig is not None else 0.0

    @cached_property
    def ports_of_lpar(self) -> dict[str, list[str]]:
        """LPAR id -> ids of the HBA ports of its adapters."""
        out: dict[str, list[str]] = {}
        for hp in self.topo.of_kind("hba_port"):
            hba = self.topo.get(hp.parent)
            if hba is not None and hba.kind == "hba" and hba["lpar"]:
                out.setdefault(hba["lpar"], []).append(hp.id)
        return out

    def lpar_of_port(self, hba_port: str) -> str:
        hba = self.topo.get(self.topo[hba_port].parent)
        return hba["lpar"] if hba is not None and hba.kind == "hba" else ""

    # -- storage side --------------------------------------------------------------------------
    @cached_property
    def mappings_by_ld(self) -> dict[str, list[Component]]:
        out: dict[str, list[Component]] = {}
        for m in self.topo.of_kind("host_mapping"):
            for ld in m["logical_drives"]:
                out.setdefault(ld, []).append(m)
        return out

    def subsystem_of(self, cid: str) -> Component | None:
        return self.topo.ancestor(cid, "subsystem")

    @cached_property
    def arrays_of_vg(self) -> dict[str, list[str]]:
        """Volume group id -> the arrays its hdisks' logical drives live on (design order)."""
        out: dict[str, list[str]] = {}
        for vg in self.topo.of_kind("volume_group"):
            arrays: dict[str, None] = {}
            for pv in vg["pvs"]:
                hd = self.topo.get(pv)
                ld = self.topo.get(hd["logical_drive"]) if hd is not None else None
                if ld is not None and ld.parent:
                    arrays[ld.parent] = None
            out[vg.id] = list(arrays)
        return out


def _aix(level: str) -> tuple[int, ...]:
    try:
        return tuple(int(x) for x in str(level).split("."))
    except ValueError:
        return (0,)


def _ranges(numbers: Iterable[int]) -> str:
    """[0, 1, 2, 3, 8] -> '0-3, 8'."""
    nums = sorted(set(numbers))
    parts: list[str] = []
    i = 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        parts.append(f"{nums[i]}-{nums[j]}" if j > i else str(nums[i]))
        i = j + 1
    return ", ".join(parts)


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"


def _verb(n: int, one: str, many: str) -> str:
    return one if n == 1 else many


def _kb(kb: float) -> str:
    if kb >= 1024 and kb % 1024 == 0:
        return f"{int(kb // 1024)} MB"
    if kb >= 1024:
        return f"{kb / 1024:g} MB"
    return f"{kb:g} KB"


# ---------------------------------------------------------------------------------------------
# AIX LVM


_VG_LIMITS = {  # vg type -> (max PVs, max LVs, mkvg flag, AIX level needed)  [AIX mkvg]
    "normal": (32, 256, "", (5, 1)),
    "big": (128, 512, "-B", (5, 1)),
    "scalable": (1024, 4096, "-S", (5, 3)),
}


@rule(
    "PV_PER_VG",
    "error",
    "Physical volumes per volume group",
    "P690 'AIX 5.2 limits 128 PV per volume group'; AIX mkvg (normal 32 PVs, -B big 128, -S scalable 1024 on AIX 5.3)",
)
def pv_per_vg(topo: Topology, ctx: Context) -> list[Finding]:
    """Error when a volume group holds more PVs (or LVs) than its type allows, or is a scalable
    VG on an AIX level below 5.3. Each hdisk (LUN) is one PV: the benchmark's 112 arrays needed
    a big VG, and AIX 5.2's 128-PV limit is why it used one array per adapter."""
    me, out = RULES["PV_PER_VG"], []
    for vg in topo.of_kind("volume_group"):
        max_pv, max_lv, flag, needs = _VG_LIMITS.get(vg["vg_type"], _VG_LIMITS["normal"])
        lpar = topo.get(vg.parent)
        level = lpar["aix_level"] if lpar is not None and lpar.kind == "lpar" else ""
        npv, lvs = len(vg["pvs"]), topo.children(vg.id, "logical_volume")
        if npv > max_pv:
            bigger = next((t for t, lim in _VG_LIMITS.items() if lim[0] >= npv), None)
            fix = (
                f"Recreate {vg.label()} as a {bigger} VG (mkvg {_VG_LIMITS[bigger][2]})"
                + (" on AIX 5.3 or later" if bigger == "scalable" else "")
                if bigger
                else "Split the PVs over several volume groups"
            )
            fix += ", or use fewer, larger arrays (one array per adapter, as the paper did)."
            out.append(
                me.finding(
                    (vg.id,),
                    f"Volume group {ctx.label(vg.id)} holds {npv} physical volumes; a "
                    f"{vg['vg_type']} VG allows at most {max_pv}.",
                    fix,
                )
            )
        if len(lvs) > max_lv:
            out.append(
                me.finding(
                    (vg.id,),
                    f"Volume group {ctx.label(vg.id)} holds {len(lvs)} logical volumes; a "
                    f"{vg['vg_type']} VG allows at most {max_lv}.",
                    "Use a bigger VG type (big: 512 LVs, scalable: 4096) or fewer logical volumes.",
                )
            )
        if level and _aix(level) < needs:
            out.append(
                me.finding(
                    (vg.id, lpar.id),
                    f"Volume group {ctx.label(vg.id)} is a {vg['vg_type']} VG "
                    f"(mkvg {flag}), which needs AIX {'.'.join(map(str, needs))}; "
                    f"{lpar.label()} runs AIX {level}.",
                    f"Upgrade {lpar.label()} to AIX {'.'.join(map(str, needs))} or use a big VG "
                    "(mkvg -B, up to 128 PVs).",
                )
            )
    return out


@rule(
    "LTG_MAX_TRANSFER",
    "error",
    "Logical track group versus the disks' maximum transfer",
    "P690 'Logical track group size 1 MB'; P690 'Conclusions' (larger LTG with AIX 5.3)",
)
def ltg_max_transfer(topo: Topology, ctx: Context) -> list[Finding]:
    """Error when a VG's LTG exceeds the smallest max_transfer of its hdisks ("The maximum
    allowed value is the smallest maximum transfer size supported by all disks in a volume
    group"), or when an LTG above 1 MB is set on AIX below 5.3."""
    me, out = RULES["LTG_MAX_TRANSFER"], []
    for vg in topo.of_kind("volume_group"):
        ltg = vg["ltg_kb"]
        disks = [topo[pv] for pv in vg["pvs"] if pv in topo]
        small = [d for d in disks if d["max_transfer_kb"] < ltg]
        if small:
            lowest = min(d["max_transfer_kb"] for d in small)
            hexval = hex(ltg * 1024)
            out.append(
                me.finding(
                    (vg.id, *[d.id for d in small]),
                    f"Volume group {ctx.label(vg.id)} has a {_kb(ltg)} logical track group, but "
                    f"{ctx.names(d.id for d in small)} {_verb(len(small), 'transfers', 'transfer')} at most "
                    f"{_kb(lowest)}; AIX refuses an LTG above the smallest max_transfer of the VG's disks.",
                    f"Raise max_transfer before mkvg/chvg: chdev -l {small[0].label()} -a max_transfer={hexval}"
                    f"{' (and the same on each listed hdisk)' if len(small) > 1 else ''}, or lower the LTG to "
                    f"{_kb(lowest)}.",
                )
            )
        lpar = topo.get(vg.parent)
        if ltg > 1024 and lpar is not None and lpar.kind == "lpar" and _aix(lpar["aix_level"]) < (5, 3):
            out.append(
                me.finding(
                    (vg.id, lpar.id),
                    f"Volume group {ctx.label(vg.id)} has a {_kb(ltg)} LTG; AIX {lpar['aix_level']} on {lpar.label()} "
                    "allows at most 1 MB (AIX 5.3 raises the limit).",
                    f"Set the LTG to 1 MB (chvg -L 1024 {vg.label()}) or upgrade {lpar.label()} to AIX 5.3.",
                )
            )
    return out


@rule(
    "LV_STRIPE",
    "error",
    "Striped logical volume size and width",
    "P690 'Stripe size: 1 MB' (4 KB-1024 KB); P690 'Conclusions' (larger stripes with AIX 5.3)",
)
def lv_stripe(topo: Topology, ctx: Context) -> list[Finding]:
    """Error when a striped LV uses a stripe size above 1 MB below AIX 5.3, or a stripe width
    larger than the PVs of its volume group (only a loaded file can hold that)."""
    me, out = RULES["LV_STRIPE"], []
    for lv in topo.of_kind("logical_volume"):
        vg = topo.get(lv.parent)
        lpar = topo.get(vg.parent) if vg is not None else None
        if lv["stripe_kb"] > 1024 and lpar is not None and _aix(lpar["aix_level"]) < (5, 3):
            out.append(
                me.finding(
                    (lv.id, lpar.id),
                    f"Logical volume {ctx.label(lv.id)} uses {_kb(lv['stripe_kb'])} "
                    f"stripes; AIX {lpar['aix_level']} allows 4 KB to 1 MB.",
                    f"Use a 1 MB stripe size or upgrade {lpar.label()} to AIX 5.3.",
                )
            )
        if vg is not None and lv["width"] > len(vg["pvs"]):
            out.append(
                me.finding(
                    (lv.id, vg.id),
                    f"Logical volume {ctx.label(lv.id)} is striped over {lv['width']} "
                    f"PVs but {vg.label()} has only {len(vg['pvs'])}.",
                    f"Set the stripe width to at most {len(vg['pvs'])} or add PVs to {vg.label()}.",
                )
            )
    return out


# ---------------------------------------------------------------------------------------------
# RAID arrays and logical drives

_RAID_MIN = {0: 1, 1: 2, 3: 3, 5: 3, 10: 4}
_FASTT_SEGMENTS = (4, 8, 16, 32, 64, 128, 256)  # P690 Appendix B 'Segment size': 4 KB to 256 KB


def raid_drive_problem(raid_level: int, drives: int, max_drives: int | None = None) -> str | None:
    """Why ``drives`` drives cannot form a RAID ``raid_level`` array, or None when they can.

    Minimums from P690 Appendix B (RAID 1 two, RAID 5 three) and the RAID definitions
    (RAID 3 needs data + parity, RAID 10 two mirrored pairs); RAID 1 and 10 mirror drives in
    pairs, so FAStT builds them from an even number of drives.
    """
    least = _RAID_MIN.get(raid_level)
    if least is None:
        return f"RAID {raid_level} is not a RAID level this planner knows (0, 1, 3, 5, 10)"
    if drives < least:
        return f"RAID {raid_level} needs at least {least} drives, not {drives}"
    if raid_level in (1, 10) and drives % 2:
        return f"RAID {raid_level} mirrors drives in pairs and needs an even number of drives, not {drives}"
    if max_drives and drives > max_drives:
        return f"an array holds at most {max_drives} drives, not {drives}"
    return None


@rule("RAID_DRIVE_COUNT", "error", "Drives per RAID array", "P690 Appendix B 'FAStT configuration options'")
def raid_drive_count(topo: Topology, ctx: Context) -> list[Finding]:
    """Error when an array has too few drives for its RAID level (RAID 0 1, RAID 1 2, RAID 3 and
    5 3, RAID 10 4), an odd number for RAID 1/10, more than the subsystem's maximum (30 on
    FAStT), or a RAID level the subsystem does not offer. Arrays with the same problem are
    grouped into one finding."""
    me = RULES["RAID_DRIVE_COUNT"]
    groups: dict[str, list[str]] = {}
    for arr in topo.of_kind("array"):
        sub = ctx.subsystem_of(arr.id)
        part = (topo.part_of(sub) if sub is not None else None) or {}
        levels = part.get("raid_levels")
        if levels and arr["raid_level"] not in levels:
            problem = (
                f"RAID {arr['raid_level']} is not offered by {part.get('name', part.get('id'))} "
                f"(it offers RAID {', '.join(map(str, levels))})"
            )
        else:
            problem = raid_drive_problem(arr["raid_level"], len(arr["drives"]), part.get("max_drives_per_array"))
        if problem:
            groups.setdefault(problem, []).append(arr.id)
    out = []
    for problem, arrays in groups.items():
        out.append(
            me.finding(
                arrays,
                f"{_plural(len(arrays), 'array')} ({ctx.names(arrays, short=False)}): {problem}.",
                "Change the array's drives or RAID level in the subsystem's array settings: RAID 5 "
                "n+P with n+1 >= 3 drives, RAID 1/10 an even number, at most the subsystem's maximum "
                "per array.",
            )
        )
    return out


@rule("SEGMENT_SIZE", "error", "Segment size supported by the subsystem", "P690 Appendix B 'Segment size'")
def segment_size(topo: Topology, ctx: Context) -> list[Finding]:
    """Error when an array's segment size is not one the subsystem part lists (FAStT: 4 KB to
    256 KB, powers of two). Without a list in the part, the FAStT range is assumed."""
    me = RULES["SEGMENT_SIZE"]
    groups: dict[tuple[int, tuple[int, ...]], list[str]] = {}
    for arr in topo.of_kind("array"):
        sub = ctx.subsystem_of(arr.id)
        allowed = tuple((topo.part_of(sub) or {}).get("segment_kb") or ()) if sub is not None else ()
        seg = arr["segment_kb"]
        ok = seg in (allowed or _FASTT_SEGMENTS)
        if not ok:
            groups.setdefault((seg, allowed), []).append(arr.id)
    out = []
    for (seg, allowed), arrays in groups.items():
        sizes = ", ".join(_kb(s) for s in allowed) if allowed else "4 KB to 256 KB (powers of two)"
        out.append(
            me.finding(
                arrays,
                f"{_plural(len(arrays), 'array')} ({ctx.names(arrays, short=False)}) "
                f"{_verb(len(arrays), 'uses', 'use')} a {_kb(seg)} segment; the subsystem supports {sizes}.",
                "Pick a supported segment size; for large sequential I/O choose one where segment x data "
                "drives equals the LTG (RAID5 8+P x 128 KB or 4+P x 256 KB for a 1 MB LTG).",
            )
        )
    return out


@rule(
    "FULL_STRIPE_ALIGNMENT",
    "advice",
    "Full stripe versus LTG and LV stripe size",
    "P690 'RAID5 8+P with 128 KB segment size gives the best I/O performance'; Appendix B 'Segment size' "
    "and 'RAID5 or RAID10'",
)
def full_stripe_alignment(topo: Topology, ctx: Context) -> list[Finding]:
    """Full stripe = segment x data drives. Advice when a VG's LTG or an LV stripe size on it is
    not a whole number of its arrays' full stripes (RAID5 6+P x 256 KB = 1.5 MB against a 1 MB
    LTG: one request no longer fills whole stripes). Warning when the arrays are parity RAID (3
    or 5) and a workload on the VG writes: a partial-stripe write costs RAID 5 two reads and two
    writes, where a matched full-stripe write is one. One finding per VG and array layout."""
    me, out = RULES["FULL_STRIPE_ALIGNMENT"], []
    for vg in topo.of_kind("volume_group"):
        arrays = ctx.arrays_of_vg.get(vg.id, [])
        if not arrays:
            continue
        layouts: dict[tuple[int, int, int], list[str]] = {}
        for aid in arrays:
            arr = topo[aid]
            layouts.setdefault((arr["raid_level"], len(arr["drives"]), arr["segment_kb"]), []).append(aid)
        lvs = topo.children(vg.id, "logical_volume")
        writes = any(w["read_pct"] < 100 for lv in lvs for w in topo.children(lv.id, "workload"))
        for (level, ndrives, seg), group in layouts.items():
            n = data_drives(level, ndrives)
            stripe = seg * n
            if not stripe:
                continue
            what, bad_lvs = [], []
            if vg["ltg_kb"] % stripe:
                what.append(f"the {_kb(vg['ltg_kb'])} LTG")
            for lv in lvs:
                if lv["stripe_kb"] and lv["stripe_kb"] % stripe:
                    bad_lvs.append(lv.id)
            if bad_lvs:
                sizes = sorted({topo[i]["stripe_kb"] for i in bad_lvs})
                what.append(f"the {'/'.join(_kb(s) for s in sizes)} stripe size of {ctx.names(bad_lvs)}")
            if not what:
                continue
            severity = "warning" if writes and level in (3, 5) else "advice"
            shape = f"RAID{level} {n}+P" if level in (3, 5) else f"RAID{level} with {n} data drives"
            ltg = vg["ltg_kb"]
            sub = ctx.subsystem_of(group[0])
            allowed = ((topo.part_of(sub) if sub is not None else None) or {}).get("segment_kb") or _FASTT_SEGMENTS
            if level in (3, 5):
                best = [f"{k}+P x {_kb(ltg // k)}" for k in (4, 8, 2, 16) if ltg % k == 0 and ltg // k in allowed]
            else:
                best = [f"{_kb(ltg // n)} segments"] if ltg % n == 0 and ltg // n in allowed else []
            message = (
                f"{_plural(len(group), 'array')} in {ctx.label(vg.id)} ({ctx.names(group, short=False)}) "
                f"{_verb(len(group), 'is', 'are')} {shape} with {_kb(seg)} segments: a {_kb(stripe)} full stripe, "
                f"which does not divide {' or '.join(what)}; large sequential requests will not fill whole stripes."
            )
            if severity == "warning":
                message += " Workloads on this VG write, and RAID 5 pays read-modify-write for partial stripes."
            fix = (
                f"Match segment x data drives to the LTG: for {_kb(vg['ltg_kb'])} use "
                f"{' or '.join(best) if best else 'a layout whose full stripe divides it'}; or set the LTG/LV "
                f"stripe size to a multiple of {_kb(stripe)} where AIX allows it."
            )
            out.append(me.finding((vg.id, *bad_lvs, *group), message, fix, severity))
    return out


@rule(
    "LUN_OWNERSHIP_BALANCE",
    "warning",
    "Logical drives balanced over both controllers",
    "P690 Appendix B 'Controller ownership'",
)
def lun_ownership_balance(topo: Topology, ctx: Context) -> list[Finding]:
    """Warning per subsystem when a controller owns no logical drive, when the owners are
    strongly unbalanced (one controller holds more than two thirds of the logical drives, with
    three or more of them, or more than two thirds of the gigabytes), or when a logical drive
    has no owner. Size stands in for load, which the design does not know per LUN. "In order to use
    both controllers ... you must define at least two LUNs, one being owned by controller A and
    the other owned by controller B"."""
    me, out = RULES["LUN_OWNERSHIP_BALANCE"], []
    for sub in topo.of_kind("subsystem"):
        ctls = topo.children(sub.id, "controller")
        lds = [ld for arr in topo.children(sub.id, "array") for ld in topo.children(arr.id, "logical_drive")]
        if not lds or len(ctls) < 2:
            continue
        count = {c.id: 0 for c in ctls}
        size = {c.id: 0.0 for c in ctls}
        orphans = []
        for ld in lds:
            if ld["owner"] in count:
                count[ld["owner"]] += 1
                size[ld["owner"]] += ld["size_gb"]
            else:
                orphans.append(ld.id)
        problems = []
        idle = [c for c in count if count[c] == 0]
        if idle:
            problems.append(
                f"{ctx.names(idle)} own{'s' if len(idle) == 1 else ''} no logical drive, so "
                f"{'its' if len(idle) == 1 else 'their'} bandwidth is unused"
            )
        owned = sum(count.values())
        total_gb = sum(size.values())
        if not idle:
            top = max(count, key=lambda c: count[c])
            big = max(size, key=lambda c: size[c])
            if owned >= 3 and count[top] * 3 > owned * 2:
                problems.append(f"{topo[top].label()} owns {count[top]} of {owned} logical drives")
            elif total_gb > 0 and size[big] * 3 > total_gb * 2:
                problems.append(f"{topo[big].label()} owns {size[big]:.0f} of {total_gb:.0f} GB")
        if orphans:
            problems.append(f"{ctx.names(orphans)} {'has' if len(orphans) == 1 else 'have'} no preferred owner")
        if not problems:
            continue
        by = ", ".join(f"{topo[c].label()}: {count[c]}" for c in count)
        out.append(
            me.finding(
                (sub.id, *idle, *orphans),
                f"On {sub.label()} ({by} logical drives) " + "; ".join(problems) + ".",
                f"Set the preferred owner so {sub.label()}'s logical drives (and their expected load) "
                "split evenly between the controllers, e.g. one array's LUN on A and the other's on B.",
            )
        )
    return out


# ---------------------------------------------------------------------------------------------
# Server I/O placement

_SATURATION = {  # kind -> (rule id, what it is called in messages)
    "phb": ("PHB_SATURATED", "PHB"),
    "rio_link": ("LINK_SATURATED", "RIO2 link"),
    "planar": ("PLANAR_SATURATED", "planar"),
    "drawer": ("DRAWER_SATURATED", "drawer"),
}


def _headroom_analysis(ctx: Context) -> Callable[[str], float | None]:
    comps = ctx.analysis.components

    def room(cid: str) -> float | None:
        ld = comps.get(cid)
        if ld is None or not ld.capacity:
            cap = ctx.io_capacity(ctx.topo[cid], ctx.figures)
            return cap
        return ld.capacity - ld.load

    return room


def _headroom_planning(ctx: Context) -> Callable[[str], float | None]:
    def room(cid: str) -> float | None:
        cap = ctx.io_capacity(ctx.topo[cid], "planning")
        if cap is None:
            return None
        return cap - sum(ctx.hba_planning(h) for h in ctx.hbas_under.get(cid, ()))

    return room


def _move_fix(ctx: Context, comp: Component, room: Callable[[str], float | None], what: str) -> str:
    """A concrete move: the free slot outside ``comp`` with the most spare bandwidth on its
    whole chain (PHB, link, planar, drawer), or why there is none."""
    best: tuple[float, Component] | None = None
    for slot in ctx.free_slots:
        chain = ctx.slot_chain(slot)
        if comp.id in chain:
            continue
        rooms = [r for r in (room(c) for c in chain) if r is not None]
        spare = min(rooms) if rooms else 0.0
        if spare >= 1.0 and (best is None or spare > best[0]):  # ignore rounding crumbs
            best = (spare, slot)
    if best is None:
        server = ctx.topo.ancestor(comp.id, "server")
        limit = (ctx.topo.part_of(server) or {}).get("max_drawers") if server is not None else None
        drawers = len(ctx.topo.children(server.id, "drawer")) if server is not None else 0
        more = (
            "add an I/O drawer for more adapters"
            if not limit or drawers < limit
            else f"the server already has its maximum of {limit} drawers"
        )
        return (
            f"No free slot outside this {what} has spare bandwidth, so moving adapters gains nothing; "
            f"{more}, or plan with this limit."
        )
    spare, slot = best
    hbas = ctx.hbas_under.get(comp.id, [])
    mover = ctx.label(hbas[-1]) if hbas else "an adapter"
    phb = ctx.topo.get(slot.parent)
    return (
        f"Move {mover} to {ctx.label(slot.id)} (under {phb.label() if phb else 'another PHB'}, about "
        f"{spare:.0f} MB/s spare), or to another less loaded {what}."
    )


def _saturated(kind: str, topo: Topology, ctx: Context) -> list[Finding]:
    """Warning for the ``kind`` components that are the bottleneck of paths in the analysis
    (alike ones grouped: same number of paths, load, capacity, adapters and fix); advice where
    the adapters placed behind one need more than its capacity at the planning figures (the
    paper: three adapters at 150 MB/s saturate PHB1, five saturate link1)."""
    rule_id, what = _SATURATION[kind]
    me, out = RULES[rule_id], []
    comps = ctx.analysis.components
    room = None
    alike: dict[tuple[Any, ...], list[str]] = {}
    for cid, n in ctx.binding.items():
        comp = topo.get(cid)
        if comp is None or comp.kind != kind:
            continue
        ld = comps[cid]
        room = room or _headroom_analysis(ctx)
        key = (
            n,
            round(ld.load),
            round(ld.capacity or 0),
            ld.source,
            len(ctx.hbas_under.get(cid, [])),
            _move_fix(ctx, comp, room, what),
        )
        alike.setdefault(key, []).append(cid)
    for (n, load, cap, source, k, fix), ids in alike.items():
        who = ctx.label(ids[0]) if len(ids) == 1 else f"{len(ids)} {what}s ({ctx.names(ids, 3, short=False)})"
        each = "" if len(ids) == 1 else " each"
        out.append(
            me.finding(
                ids,
                f"{who}{each} limit{'s' if len(ids) == 1 else ''} {_plural(n, 'path')}: {load} of {cap} MB/s "
                f"({ctx.figures} figure{': ' + source if source else ''}); the {_plural(k, 'adapter')} behind "
                f"{'it' if len(ids) == 1 else 'each'} cannot run at their own speed.",
                fix,
            )
        )
    planning_room = None
    for comp in topo.of_kind(kind):
        hbas = ctx.hbas_under.get(comp.id, [])
        if not hbas or any(comp.id in ids for ids in alike.values()):
            continue
        cap = ctx.io_capacity(comp, "planning")
        need = sum(ctx.hba_planning(h) for h in hbas)
        if cap is None or need <= cap:
            continue
        per = ctx.hba_planning(hbas[0])
        fits = int(cap // per) if per else 0
        planning_room = planning_room or _headroom_planning(ctx)
        message = (
            f"{ctx.label(comp.id)} has {_plural(len(hbas), 'adapter')} behind it: at the planning figure of "
            f"{per:.0f} MB/s per adapter they need {need:.0f} MB/s, above its {cap:.0f} MB/s, so "
            f"{_plural(fits, 'adapter')} already fill{'s' if fits == 1 else ''} it"
        )
        if kind == "phb":
            message += " (P690 Figure 4: 'Adding the fourth adapter to PHB1 may not improve the bandwidth')"
        out.append(
            me.finding((comp.id, *hbas[fits:]), message + ".", _move_fix(ctx, comp, planning_room, what), "advice")
        )
    return out


_PLACEMENT = "P690 'Choosing the number and slot location of the Fibre Channel HBAs'"


@rule(
    "PHB_SATURATED",
    "warning",
    "PCI host bridge saturated",
    f"{_PLACEMENT}, step 3 (450 MB/s per PHB); P690 Figure 4 text",
)
def phb_saturated(topo: Topology, ctx: Context) -> list[Finding]:
    """Warning: a PHB binds paths (450 MB/s planning, about 585 measured with three adapters);
    advice: more adapters behind it than its planning figure carries ("Adding the fourth adapter
    to PHB1 may not improve the bandwidth")."""
    return _saturated("phb", topo, ctx)


@rule(
    "LINK_SATURATED",
    "warning",
    "RIO2 link saturated",
    f"{_PLACEMENT}, step 3 (about 750 MB/s per link); P690 Figure 4 text (link1 814 MB/s)",
)
def link_saturated(topo: Topology, ctx: Context) -> list[Finding]:
    """Warning: a RIO2 link binds paths (750 MB/s planning, link1 814 measured); advice: more
    adapters behind it than that ("Installing 5 adapters in these slots will saturate the RIO
    link")."""
    return _saturated("rio_link", topo, ctx)


@rule(
    "PLANAR_SATURATED",
    "warning",
    "I/O planar saturated",
    f"{_PLACEMENT}, step 3 (a 10-slot planar on one GX bus: 1200 MB/s)",
)
def planar_saturated(topo: Topology, ctx: Context) -> list[Finding]:
    """Warning: an I/O planar (one GX bus) binds paths (1200 MB/s planning, 1332 measured);
    advice: more adapters on it than that carries."""
    return _saturated("planar", topo, ctx)


@rule(
    "DRAWER_SATURATED",
    "warning",
    "RIO2 drawer saturated",
    f"{_PLACEMENT}, step 2 (2.4 GB/s per drawer, 16 adapters); P690 Table 2",
)
def drawer_saturated(topo: Topology, ctx: Context) -> list[Finding]:
    """Warning: a RIO2 drawer binds paths (2400 MB/s planning, 2650 measured); advice: more
    than the 16 adapters x 150 MB/s the paper planned per drawer."""
    return _saturated("drawer", topo, ctx)


@rule(
    "SLOT_INVALID",
    "error",
    "HBA placement in PCI slots",
    "P690 'Determine the RIO2 slots for adapter placement' (drawer slot map)",
)
def slot_invalid(topo: Topology, ctx: Context) -> list[Finding]:
    """Error for an HBA that does not sit in a PCI slot, two HBAs in one slot, or a slot whose
    number the drawer's slot map does not wire to its PHB (all possible only in loaded files).
    The papers give no slot-type constraint for the FC 6239 (all 20 drawer slots are 64-bit
    PCI-X), so none is checked."""
    me, out = RULES["SLOT_INVALID"], []
    for hba in topo.of_kind("hba"):
        parent = topo.get(hba.parent)
        if parent is None or parent.kind != "slot":
            out.append(
                me.finding(
                    (hba.id,),
                    f"Adapter {hba.label()} is not in a PCI slot "
                    f"({'it sits in ' + parent.kind + ' ' + parent.label() if parent else 'no parent'}).",
                    "Move the adapter into a free PCI slot of an I/O drawer.",
                )
            )
    for slot_id, hbas in ctx.hbas_under.items():
        slot = topo.get(slot_id)
        if slot is None or slot.kind != "slot":
            continue
        direct = [h for h in hbas if topo[h].parent == slot_id]
        if len(direct) > 1:
            out.append(
                me.finding(
                    (slot_id, *direct),
                    f"{ctx.label(slot_id)} holds {len(direct)} adapters ({ctx.names(direct)}); a PCI slot takes one.",
                    f"Move all but one of them to free slots{_free_hint(ctx)}.",
                )
            )
    for slot in topo.of_kind("slot"):
        phb = topo.get(slot.parent)
        drawer = topo.ancestor(slot.id, "drawer")
        rows = ((topo.part_of(drawer) if drawer is not None else None) or {}).get("slot_map") or []
        if phb is None or phb.kind != "phb" or not rows:
            continue
        row = next((r for r in rows if r.get("drawer_phb") == phb["drawer_phb"]), None)
        if row is not None and slot["number"] not in row.get("slots", ()):
            out.append(
                me.finding(
                    (slot.id, phb.id),
                    f"{ctx.label(slot.id)} is placed under {ctx.label(phb.id)}, but "
                    f"the drawer wires that PHB to slots {_ranges(row['slots'])}.",
                    "Re-create the drawer from its part so slots sit under the right PHB.",
                )
            )
    return out


def _free_hint(ctx: Context) -> str:
    free = ctx.free_slots[:3]
    return f" (free: {ctx.names([s.id for s in free], short=False)})" if free else ""


@rule(
    "HBA_NO_LPAR",
    "warning",
    "Adapter assigned to a partition",
    "P690 Appendix B 'Zoning requirements' (the HBAs available to the AIX system (LPAR))",
)
def hba_no_lpar(topo: Topology, ctx: Context) -> list[Finding]:
    """Warning for adapters assigned to no partition (no host can use them); error for an
    adapter assigned to a partition of another server."""
    me, out = RULES["HBA_NO_LPAR"], []
    lone, foreign = [], []
    for hba in topo.of_kind("hba"):
        if not hba["lpar"]:
            lone.append(hba.id)
            continue
        lpar = topo.get(hba["lpar"])
        server = topo.ancestor(hba.id, "server")
        if lpar is not None and server is not None and lpar.parent != server.id:
            foreign.append(hba.id)
    if lone:
        out.append(
            me.finding(
                lone,
                f"{_plural(len(lone), 'adapter')} ({ctx.names(lone, short=False)}) "
                f"{'is' if len(lone) == 1 else 'are'} assigned to no partition; no host will use "
                f"{'it' if len(lone) == 1 else 'them'}.",
                "Assign each adapter to the LPAR that should own it (adapter settings, LPAR).",
            )
        )
    for hid in foreign:
        out.append(
            me.finding(
                (hid, topo[hid]["lpar"]),
                f"Adapter {ctx.label(hid)} is assigned to "
                f"{topo[topo[hid]['lpar']].label()}, a partition of another server.",
                "Assign it to a partition of the server it is installed in.",
                "error",
            )
        )
    return out


# ---------------------------------------------------------------------------------------------
# SAN: WWPNs, zoning, switches


def _wwpn_ports(topo: Topology) -> list[Component]:
    return topo.of_kind("hba_port") + topo.of_kind("host_port")


@rule("WWPN_INVALID", "error", "WWPN format", "Fibre Channel port names (NAA 1, 2, 5, C-F; 8 bytes), DOMAIN.md §5")
def wwpn_invalid(topo: Topology, ctx: Context) -> list[Finding]:
    """Error for a malformed or reserved WWPN (not 8 bytes, all zeros, NAA 6); warning for cabled
    or zoned ports with no WWPN yet (zoning and host mappings are written with WWPNs)."""
    me, out = RULES["WWPN_INVALID"], []
    missing = []
    for port in _wwpn_ports(topo):
        w = port["wwpn"]
        if not w:
            if port.id in ctx.cable_of or port.id in ctx.zones_by_member:
                missing.append(port.id)
            continue
        problem = wwpn_problem(w)
        if problem:
            out.append(
                me.finding(
                    (port.id,),
                    f"{ctx.label(port.id)}: {problem}.",
                    "Copy the port name from the adapter (lscfg -vl fcsN, 'Network Address') or the "
                    "subsystem profile, as xx:xx:xx:xx:xx:xx:xx:xx.",
                )
            )
    if missing:
        out.append(
            me.finding(
                missing,
                f"{_plural(len(missing), 'cabled or zoned port')} "
                f"({ctx.names(missing, short=False)}) {'has' if len(missing) == 1 else 'have'} no WWPN; "
                "the zoning script and host mappings need it.",
                "Enter each port's WWPN (AIX: lscfg -vl fcsN; FAStT: the storage subsystem profile).",
                "warning",
            )
        )
    return out


@rule("WWPN_DUPLICATE", "error", "WWPN used twice", "Fibre Channel port names are unique in a fabric, DOMAIN.md §5")
def wwpn_duplicate(topo: Topology, ctx: Context) -> list[Finding]:
    """Error for each WWPN that two or more ports of the design carry (one finding per WWPN,
    listing all its ports). Zoning by WWPN cannot tell the ports apart."""
    me = RULES["WWPN_DUPLICATE"]
    by: dict[str, list[str]] = {}
    for port in _wwpn_ports(topo):
        w = (port["wwpn"] or "").lower().replace(":", "").replace("-", "")
        if w:
            by.setdefault(w, []).append(port.id)
    out = []
    for ports in by.values():
        if len(ports) > 1:
            w = topo[ports[0]]["wwpn"]
            out.append(
                me.finding(
                    ports,
                    f"WWPN {w} is used by {len(ports)} ports: {ctx.names(ports, 6, short=False)}.",
                    f"Give each port its own WWPN; keep {w} on the port that really has it.",
                )
            )
    return out


@rule("ZONE_MEMBER_MISSING", "warning", "Zone members", "P690 Appendix B 'Zoning requirements'")
def zone_member_missing(topo: Topology, ctx: Context) -> list[Finding]:
    """Per zone: warning when it has fewer than two members or lacks an initiator (HBA port) or
    a target (storage port), or when a member is not cabled; error when a member is missing from
    the design or cabled into another fabric (the zone cannot take effect for it)."""
    me, out = RULES["ZONE_MEMBER_MISSING"], []
    for z in topo.of_kind("zone"):
        name = ctx.label(z.id)
        members = list(z["members"])
        gone = [m for m in members if m not in topo]
        present = [topo[m] for m in members if m in topo]
        if gone:
            out.append(
                me.finding(
                    (z.id,),
                    f"Zone {name} names {', '.join(gone)}, which {'is' if len(gone) == 1 else 'are'} "
                    "not in the design.",
                    f"Remove the missing members from {z.label()}.",
                    "error",
                )
            )
        if len(present) < 2:
            out.append(
                me.finding(
                    (z.id, *[c.id for c in present]),
                    f"Zone {name} has {_plural(len(present), 'member')}; a zone joins an HBA port and a storage port.",
                    f"Add the HBA port and the storage port that should talk to each other to {z.label()}, "
                    "or delete it.",
                )
            )
        else:
            kinds = {c.kind for c in present}
            lack = [
                w
                for k, w in (("hba_port", "an HBA port (initiator)"), ("host_port", "a storage port (target)"))
                if k not in kinds
            ]
            if lack:
                out.append(
                    me.finding(
                        (z.id, *[c.id for c in present]),
                        f"Zone {name} has no {' and no '.join(lack)}, so it allows no I/O.",
                        f"Add {' and '.join(lack)} to {z.label()}.",
                    )
                )
        uncabled, foreign = [], []
        for c in present:
            how, sp = ctx.attachment(c.id)
            if how == "none":
                uncabled.append(c.id)
            elif how == "switch" and sp is not None:
                sw = ctx.switch_of(sp)
                if sw is not None and sw["fabric"] != z.parent:
                    foreign.append(c.id)
        if uncabled:
            out.append(
                me.finding(
                    (z.id, *uncabled),
                    f"Zone {name} includes {ctx.names(uncabled, short=False)}, "
                    f"which {'is' if len(uncabled) == 1 else 'are'} not cabled.",
                    f"Cable {'it' if len(uncabled) == 1 else 'them'} to a switch of "
                    f"{topo[z.parent].label() if z.parent in topo else 'the fabric'}.",
                )
            )
        if foreign:
            fab = topo[z.parent].label() if z.parent in topo else z.parent
            out.append(
                me.finding(
                    (z.id, *foreign),
                    f"Zone {name} belongs to fabric {fab}, but "
                    f"{ctx.names(foreign, short=False)} {'is' if len(foreign) == 1 else 'are'} cabled to a "
                    "switch of another fabric; the zone cannot connect them.",
                    f"Cable {'it' if len(foreign) == 1 else 'them'} into {fab}, or move the zone to the "
                    "fabric the ports are in.",
                    "error",
                )
            )
    return out


@rule(
    "ASIC_CROSSING",
    "warning",
    "Zoned traffic crossing the switch backplane",
    "P690 Appendix C 'SAN design considerations' (2109-F32 ASICs and backplane, Figures 16 and 17)",
)
def asic_crossing(topo: Topology, ctx: Context) -> list[Finding]:
    """Per switch: the zones whose HBA port and storage port sit on different ASICs send their
    traffic over the backplane (1600 MB/s for all of it on a 2109-F32, against 800 MB/s inside
    each ASIC). Warning; error when the analysis finds the backplane is the bottleneck of a path
    (demand exceeds its capacity), as in the paper's first cabling, which gave "half the needed
    throughput"."""
    me, out = RULES["ASIC_CROSSING"], []
    crossing: dict[str, list[tuple[Component, str, str, Component, Component]]] = {}
    for z, i, t in ctx.zone_pairs:
        si, st = ctx.in_fabric(i, z.parent or ""), ctx.in_fabric(t, z.parent or "")
        if si is None or st is None or si.parent == st.parent:
            continue
        swi, swt = ctx.switch_of(si), ctx.switch_of(st)
        if swi is None or swt is None or swi.id != swt.id:
            continue  # ISL traffic is another matter
        crossing.setdefault(swi.id, []).append((z, i, t, si, st))
    if not crossing:
        return out
    a = ctx.analysis
    for sw_id, pairs in crossing.items():
        sw = topo[sw_id]
        bps = topo.children(sw_id, "backplane")
        bp = bps[0] if bps else None
        bound = ctx.binding.get(bp.id, 0) if bp is not None else 0
        zones = list(dict.fromkeys(p[0].id for p in pairs))
        ports = list(dict.fromkeys(x for p in pairs for x in (p[1], p[2])))
        z, i, t, si, st = pairs[0]
        example = (
            f"{topo[i].label()} on {si.label()} ({topo[si.parent].label()}) with {topo[t].label()} on "
            f"{st.label()} ({topo[st.parent].label()})"
        )
        asics = "; ".join(
            f"{x.label()}: ports {_ranges(p['index'] for p in topo.children(x.id, 'switch_port'))}"
            for x in topo.children(sw_id, "asic")
        )
        message = (
            f"On {sw.label()}, {_plural(len(zones), 'zone')} pair an HBA port and a storage port on different "
            f"ASICs (e.g. {example}); that traffic crosses the backplane."
        )
        ld = a.components.get(bp.id) if bp is not None else None
        if bound and ld is not None:
            demand = 0.0
            for p in a.paths:
                if bp.id in p.hops:
                    caps = [a.components[h].capacity for h in p.hops if h != bp.id and a.components[h].capacity]
                    demand += min(caps) if caps else 0.0
            message += (
                f" The backplane is the bottleneck of {_plural(bound, 'path')}: it carries {ld.load:.0f} of "
                f"its {ld.capacity:.0f} MB/s while those paths could move up to {demand:.0f} MB/s."
            )
        elif ld is not None and ld.capacity:
            message += f" It carries {ld.load:.0f} of its {ld.capacity:.0f} MB/s, shared by all cross-ASIC traffic."
        fix = (
            f"Cable each HBA next to its storage port on the same ASIC and zone them together ({asics}), as the "
            f"paper's second cabling did"
        )
        free = [p for p in topo.children(si.parent, "switch_port") if p.id not in ctx.cable_of]
        if free:
            fix += f"; e.g. move {topo[t].label()} from {st.label()} to {free[0].label()}"
        out.append(
            me.finding(
                (sw_id, *([bp.id] if bp is not None else []), *zones, *ports),
                message,
                fix + ".",
                "error" if bound else "warning",
            )
        )
    return out


@rule(
    "SPEED_MISMATCH",
    "advice",
    "Link speed of both cable ends",
    "Fibre Channel speed negotiation (a link runs at its slower end); P690 step 1 (2 Gbps ~ 200 MB/s)",
)
def speed_mismatch(topo: Topology, ctx: Context) -> list[Finding]:
    """Advice for cables whose two ports have different speeds: the link runs at the lower one.
    Cables with the same pair of speeds are grouped."""
    me = RULES["SPEED_MISMATCH"]
    groups: dict[tuple[int, int], list[str]] = {}
    for cab in topo.of_kind("cable"):
        a, b = topo.get(cab["a"]), topo.get(cab["b"])
        if a is None or b is None:
            continue
        sa, sb = a.get("speed_gbps"), b.get("speed_gbps")
        if sa and sb and sa != sb:
            groups.setdefault((min(sa, sb), max(sa, sb)), []).append(cab.id)
    out = []
    for (lo, hi), cables in groups.items():
        ports = [p for c in cables for p in (topo[c]["a"], topo[c]["b"])]
        out.append(
            me.finding(
                (*cables, *ports),
                f"{_plural(len(cables), 'cable')} ({ctx.names(cables)}) {_verb(len(cables), 'joins', 'join')} a "
                f"{hi} Gbps port to a {lo} Gbps port; the link runs at {lo} Gbps "
                f"(about {lo * 100} MB/s).",
                f"Use ports of the same speed at both ends, or plan with {lo} Gbps for these links.",
            )
        )
    return out


# ---------------------------------------------------------------------------------------------
# Multipath and reachability


def _uses_rdac(ctx: Context, sub: Component) -> bool:
    return "RDAC" in ((ctx.topo.part_of(sub) or {}).get("multipath") or ["RDAC"])


@rule(
    "RDAC_PATHS",
    "error",
    "RDAC: exactly one path to each controller",
    "P690 Appendix B 'AIX structures used for FAST disk subsystems' and 'Zoning requirements'",
)
def rdac_paths(topo: Topology, ctx: Context) -> list[Finding]:
    """For LPARs whose multipath driver is RDAC (MPIO and SDDPCM lift the rule; SDD hosts
    balance over many paths), on subsystems driven by RDAC: "the system should be allowed to
    see exactly one path to a dac". A dac is one controller as seen by one host partition
    (host mapping): two HBAs mapped together get HBA1 -> controller A, HBA2 -> controller B;
    four HBAs get two partitions, each with one path to A and one to B.

    Error: a partition (or an unmapped HBA port) with more than one zoned and cabled
    connection to one controller (an HBA zoned to both A ports, or both HBAs zoned to A).
    Warning: a partition with logical drives that reaches a controller through no HBA: RDAC
    needs both controllers discovered for failover."""
    me, out = RULES["RDAC_PATHS"], []
    conns = ctx.connections
    for lpar in topo.of_kind("lpar"):
        if lpar["multipath"] != "RDAC":
            continue
        ports = ctx.ports_of_lpar.get(lpar.id, [])
        by_sub: dict[str, dict[str, list[str]]] = {}  # subsystem -> hba port -> host ports
        for p in ports:
            for hp in conns.get(p, {}):
                sub = ctx.subsystem_of(hp)
                if sub is not None:
                    by_sub.setdefault(sub.id, {}).setdefault(p, []).append(hp)
        mine = set(ports)
        for m in topo.of_kind("host_mapping"):
            if mine.intersection(m["hba_ports"]):
                by_sub.setdefault(m.parent, {})
        for sub_id, reach in by_sub.items():
            sub = topo[sub_id]
            if not _uses_rdac(ctx, sub):
                continue
            groups: list[tuple[Component | None, list[str]]] = []
            grouped: set[str] = set()
            for m in topo.children(sub_id, "host_mapping"):
                members = [p for p in m["hba_ports"] if p in mine]
                if members:
                    groups.append((m, members))
                    grouped.update(members)
            groups += [(None, [p]) for p in reach if p not in grouped]
            ctls = topo.children(sub_id, "controller")
            for mapping, members in groups:
                who = (
                    f"partition {mapping.label()} ({ctx.names(members)})"
                    if mapping is not None
                    else f"{ctx.label(members[0])}"
                )
                for ctl in ctls:
                    seen = [(p, hp) for p in members for hp in reach.get(p, ()) if topo[hp].parent == ctl.id]
                    if len(seen) > 1:
                        zones = list(dict.fromkeys(z for p, hp in seen for z in conns[p][hp] if z))
                        lines = ", ".join(f"{topo[p].label()} -> {topo[hp].label()}" for p, hp in seen)
                        out.append(
                            me.finding(
                                (lpar.id, ctl.id, *dict.fromkeys(x for pair in seen for x in pair), *zones),
                                f"{lpar.label()} uses RDAC, and {who} sees {ctl.label()} through {len(seen)} paths "
                                f"({lines}); the AIX RDAC driver allows exactly one path to each controller (dac).",
                                "Zone so that each controller is reached once per partition: HBA1 to controller A, "
                                "HBA2 to controller B (remove one of these connections from zone(s) "
                                f"{ctx.names(zones, 6) if zones else 'the direct cabling'}); or use MPIO/SDDPCM on AIX "
                                f"5.3+ if the subsystem supports it.",
                            )
                        )
                    elif not seen and mapping is not None and mapping["logical_drives"]:
                        out.append(
                            me.finding(
                                (lpar.id, ctl.id, mapping.id),
                                f"{who} on {sub.label()} reaches {ctl.label()} through no "
                                "HBA: RDAC needs both controllers (dacs) discovered for failover, and the logical "
                                f"drives {ctl.label()} owns are not reachable.",
                                f"Cable and zone one HBA of partition {mapping.label()} to a {ctl.label()} port.",
                                "warning",
                            )
                        )
    return out


@rule(
    "UNREACHABLE",
    "warning",
    "Adapters, storage ports and logical drives without a path",
    "P690 'AIX 5.2 limits 128 PV per volume group' (at least one array per adapter); "
    "P690 Appendix B 'Logical drives and controller ownership'",
)
def unreachable(topo: Topology, ctx: Context) -> list[Finding]:
    """From the analysis: warning for HBA ports with no complete path (cabling, zoning and host
    mapping), and for cabled storage ports no path uses; error for mapped logical drives no path
    reaches (the host will not see them, or only after a failover); warning for unmapped ones."""
    me, out = RULES["UNREACHABLE"], []
    a = ctx.analysis
    if a.unreachable:
        out.append(
            me.finding(
                a.unreachable,
                f"{_plural(len(a.unreachable), 'HBA port')} "
                f"({ctx.names(a.unreachable, short=False)}) {'has' if len(a.unreachable) == 1 else 'have'} "
                "no complete path to a logical drive; the adapter bandwidth is wasted.",
                "Cable each to a switch, zone it with a storage port, and add its WWPN to the host "
                "mapping of the logical drives it should serve.",
            )
        )
    used_host_ports = {p.host_port for p in a.paths}
    reached = {p.logical_drive for p in a.paths}
    idle_ports = [hp.id for hp in topo.of_kind("host_port") if hp.id in ctx.cable_of and hp.id not in used_host_ports]
    if idle_ports:
        out.append(
            me.finding(
                idle_ports,
                f"{_plural(len(idle_ports), 'cabled storage port')} "
                f"({ctx.names(idle_ports, short=False)}) {_verb(len(idle_ports), 'carries', 'carry')} no path: "
                "no zoned HBA port is mapped to a logical drive its controller owns.",
                "Zone each with an HBA port of the host, map the logical drives to that HBA port, and "
                "give its controller ownership of some of them.",
            )
        )
    mapped, unmapped = [], []
    for arr in topo.of_kind("array"):
        for ld in topo.children(arr.id, "logical_drive"):
            if ld.id not in reached:
                (mapped if ctx.mappings_by_ld.get(ld.id) else unmapped).append(ld.id)
    if mapped:
        out.append(
            me.finding(
                mapped,
                f"{_plural(len(mapped), 'mapped logical drive')} "
                f"({ctx.names(mapped, short=False)}) {'is' if len(mapped) == 1 else 'are'} reached by no "
                "path: no mapped HBA port is zoned and cabled to the owning controller.",
                "Zone an HBA port of the mapping to a port of the owning controller, or change the "
                "preferred owner to the controller the host reaches.",
                "error",
            )
        )
    if unmapped:
        out.append(
            me.finding(
                unmapped,
                f"{_plural(len(unmapped), 'logical drive')} "
                f"({ctx.names(unmapped, short=False)}) {'is' if len(unmapped) == 1 else 'are'} mapped to "
                "no host.",
                "Add them to a host mapping (storage partition), or delete them.",
            )
        )
    return out


@rule(
    "SINGLE_POINT_OF_FAILURE",
    "warning",
    "Redundant access to logical drives",
    "P690 Appendix B 'AIX structures used for FAST disk subsystems' (failover needs two controllers); "
    "SASAIX 'SAN and file system' (vpaths over several paths)",
)
def single_point_of_failure(topo: Topology, ctx: Context) -> list[Finding]:
    """Warning when a host reaches a mapped logical drive through only one HBA, only one switch,
    or only one controller, counting every zoned and cabled connection (RDAC's standby path to
    the other controller counts: it is what failover uses). Grouped per LPAR and kind of single
    point, so the benchmark (one switch per drawer by the paper's choice) gives one finding."""
    me, out = RULES["SINGLE_POINT_OF_FAILURE"], []
    conns = ctx.connections
    groups: dict[tuple[str, str], tuple[dict[str, None], dict[str, None]]] = {}
    ctls_of: dict[str, set[str]] = {}
    for ld_id, maps in ctx.mappings_by_ld.items():
        ld = topo.get(ld_id)
        sub = ctx.subsystem_of(ld_id) if ld is not None else None
        if sub is None:
            continue
        sub_ctls = ctls_of.get(sub.id)
        if sub_ctls is None:
            sub_ctls = ctls_of[sub.id] = {c.id for c in topo.children(sub.id, "controller")}
        by_lpar: dict[str, list[tuple[str, str]]] = {}
        for m in maps:
            for p in m["hba_ports"]:
                if p not in topo:
                    continue
                for hp in conns.get(p, {}):
                    if topo[hp].parent in sub_ctls:
                        by_lpar.setdefault(ctx.lpar_of_port(p), []).append((p, hp))
        for lpar, pairs in by_lpar.items():
            hbas = {topo[p].parent for p, _ in pairs}
            ctls = {topo[hp].parent for _, hp in pairs}
            switches: set[str] = set()
            direct = False
            for p, _ in pairs:
                how, sp = ctx.attachment(p)
                if how == "switch" and sp is not None:
                    switches.add(ctx.switch_of(sp).id)
                else:
                    direct = True
            singles = []
            if len(hbas) == 1:
                singles.append(("HBA", next(iter(hbas))))
            if len(switches) == 1 and not direct:
                singles.append(("switch", next(iter(switches))))
            if len(ctls) == 1:
                singles.append(("controller", next(iter(ctls))))
            for kind, cid in singles:
                points, lds = groups.setdefault((lpar, kind), ({}, {}))
                points[cid] = None
                lds[ld_id] = None
    for (lpar, kind), (points, lds) in groups.items():
        host = topo[lpar].label() if lpar in topo else "an unassigned adapter"
        fixes = {
            "HBA": "Map each logical drive to two HBAs (one partition with both WWPNs) and zone one to each "
            "controller.",
            "switch": "Cable the partition's second HBA and the other controller's port to a second switch (a second "
            "fabric), so the controller A and B paths share no switch.",
            "controller": "Zone an HBA of the partition to the other controller too, so RDAC can fail over.",
        }
        out.append(
            me.finding(
                ((lpar,) if lpar else ()) + (*points, *lds),
                f"{_plural(len(lds), 'logical drive')} used by {host} "
                f"({ctx.names(lds, short=False)}) {'is' if len(lds) == 1 else 'are'} reached through "
                f"only one {kind} each ({ctx.names(points, 6)}); if it fails, "
                f"{'that drive is' if len(lds) == 1 else 'those drives are'} lost to the host.",
                fixes[kind],
            )
        )
    return out


@rule(
    "MAPPING_EMPTY",
    "warning",
    "Host mappings with HBA ports and logical drives",
    "P690 Appendix B 'Zoning requirements' (one partition definition with the WWPNs of the HBAs)",
)
def mapping_empty(topo: Topology, ctx: Context) -> list[Finding]:
    """Warning for a host mapping (storage partition) with no HBA ports or no logical drives."""
    me, out = RULES["MAPPING_EMPTY"], []
    for m in topo.of_kind("host_mapping"):
        lack = [w for w, v in (("HBA ports", m["hba_ports"]), ("logical drives", m["logical_drives"])) if not v]
        if lack:
            out.append(
                me.finding(
                    (m.id,),
                    f"Host mapping {ctx.label(m.id)} has no {' and no '.join(lack)}; it gives "
                    "no host access to anything.",
                    f"Add the HBA WWPNs and the logical drives to {m.label()}, or delete it.",
                )
            )
    return out


@rule(
    "HDISK_NOT_MAPPED",
    "warning",
    "hdisks whose logical drive is mapped to their LPAR",
    "P690 Appendix B 'AIX and FAST disk subsystems' (RDAC presents each mapped logical drive as one hdisk)",
)
def hdisk_not_mapped(topo: Topology, ctx: Context) -> list[Finding]:
    """Warning for hdisks naming no logical drive, or one mapped to no HBA port of their LPAR:
    cfgmgr will not discover them. Grouped per LPAR."""
    me = RULES["HDISK_NOT_MAPPED"]
    by: dict[str, list[str]] = {}
    for hd in topo.of_kind("hdisk"):
        ports = set(ctx.ports_of_lpar.get(hd.parent or "", ()))
        maps = ctx.mappings_by_ld.get(hd["logical_drive"], [])
        if not hd["logical_drive"] or not any(ports.intersection(m["hba_ports"]) for m in maps):
            by.setdefault(hd.parent or "", []).append(hd.id)
    out = []
    for lpar, disks in by.items():
        out.append(
            me.finding(
                (lpar, *disks),
                f"{_plural(len(disks), 'hdisk')} on "
                f"{topo[lpar].label() if lpar in topo else 'no LPAR'} ({ctx.names(disks)}) "
                f"{'has' if len(disks) == 1 else 'have'} no logical drive mapped to the LPAR's HBAs; "
                "AIX will not find them.",
                "Map each hdisk's logical drive to the LPAR's HBA WWPNs (host mapping), or remove the "
                "hdisk from the design.",
            )
        )
    return out


# ---------------------------------------------------------------------------------------------
# Workloads (SAS papers)


def _workload_arrays(ctx: Context, wl: Component) -> list[str]:
    lv = ctx.topo.get(wl.parent)
    return ctx.arrays_of_vg.get(lv.parent or "", []) if lv is not None else []


@rule(
    "WORK_ON_RAID5",
    "warning",
    "SAS WORK and UTILLOC on parity RAID",
    "SUN 'RAID issues - RAID 5, Striping/Mirroring, Stripe interlace'; NT 'Conclusion' (saswork on RAID 0 with as "
    "many disks as possible)",
)
def work_on_raid5(topo: Topology, ctx: Context) -> list[Finding]:
    """Warning for a WORK or UTILLOC workload whose logical volume's volume group sits on parity
    RAID (5, or 3): "Areas that are write intensive (typically WORK) should avoid using ...
    RAID 5 ... a logical write requires on the order of 4-5 I/Os"."""
    me, out = RULES["WORK_ON_RAID5"], []
    for wl in topo.of_kind("workload"):
        if wl["purpose"] not in ("WORK", "UTILLOC"):
            continue
        parity = [a for a in _workload_arrays(ctx, wl) if topo[a]["raid_level"] in (3, 5)]
        if parity:
            out.append(
                me.finding(
                    (wl.id, wl.parent, *parity),
                    f"SAS {wl['purpose']} workload {ctx.label(wl.id)} "
                    f"writes to {_plural(len(parity), 'parity RAID array')} ({ctx.names(parity, short=False)}); "
                    "each small RAID 5 write costs about 4-5 disk I/Os.",
                    f"Put {wl['purpose']} on its own volume group of RAID 0 arrays (RAID 10 where it must "
                    "survive a drive failure) striped over as many drives as possible, apart from the "
                    "data areas.",
                )
            )
    return out


@rule(
    "DIO_REQUEST_SIZE",
    "warning",
    "Request size and buffers under direct I/O",
    "SASAIX 'PROC SORT performance using direct I/O (data set and utility file PAGESIZE=256K, BUFNO=16)'",
)
def dio_request_size(topo: Topology, ctx: Context) -> list[Finding]:
    """For direct I/O workloads (not Windows, see SGIO_BUFFER_LIMIT): warning when requests (or
    the SAS page size) are below 256 KB or below the LV's stripe size: without the file cache's
    read-ahead every small request goes to disk ("16 KB pages ran slowly until PAGESIZE=256K").
    Advice when BUFNO is set below 16: SAS needs several buffers to pipeline I/O under DIO."""
    me, out = RULES["DIO_REQUEST_SIZE"], []
    for wl in topo.of_kind("workload"):
        if not wl["direct_io"] or wl["platform"] == "windows":
            continue
        lv = topo.get(wl.parent)
        stripe = lv["stripe_kb"] if lv is not None else 0
        req, page = wl["request_kb"], wl["bufsize_kb"]
        floor = max(256, stripe)
        small = [f"{_kb(req)} requests"] if req < floor else []
        if page and page < 256:
            small.append(f"a {_kb(page)} SAS page size")
        if small:
            why = (
                f"below the {_kb(stripe)} stripe size of {lv.label()}"
                if stripe > 256 and req < stripe
                else "below 256 KB"
            )
            out.append(
                me.finding(
                    (wl.id, wl.parent),
                    f"{ctx.label(wl.id)} (direct I/O) uses "
                    f"{' and '.join(small)}, {why}; without the file cache's read-ahead each small "
                    "request waits on the disks.",
                    f"Set PAGESIZE/BUFSIZE=256K (or larger, up to the {_kb(floor)} stripe) and "
                    "BUFNO=16 or more for this workload.",
                )
            )
        if 0 < wl["bufno"] < 16:
            out.append(
                me.finding(
                    (wl.id,),
                    f"{ctx.label(wl.id)} (direct I/O) has BUFNO={wl['bufno']}; with "
                    "direct I/O SAS needs several buffers to pipeline requests.",
                    "Set BUFNO=16 (the paper also found 64 faster, at more memory).",
                    "advice",
                )
            )
    return out


_SGIO_LIMIT_KB = 64 * 1024  # SGIO 'Conclusion': Windows' limit for the size of an I/O buffer


@rule("SGIO_BUFFER_LIMIT", "error", "SAS SGIO buffers on Windows", "SGIO 'Conclusion'; SGIO 'Examples' (BUFNO tables)")
def sgio_buffer_limit(topo: Topology, ctx: Context) -> list[Finding]:
    """Windows workloads: error when BUFNO x BUFSIZE exceeds 64 MB ("Windows' limit for the size
    of an I/O buffer"). With SGIO (direct_io): warning when BUFSIZE is not a multiple of 4 KB
    (what 32-bit SAS requires), advice when it is not a multiple of 8 KB (64-bit SAS), and
    advice when BUFNO is below 32 ("start with 32, 128, or 256. Avoid the default BUFNO value
    of 1"). The paper found 256 fine, so values above 128 are not flagged."""
    me, out = RULES["SGIO_BUFFER_LIMIT"], []
    for wl in topo.of_kind("workload"):
        if wl["platform"] != "windows":
            continue
        size, n = wl["bufsize_kb"], wl["bufno"]
        name = ctx.label(wl.id)
        if size and n and size * n > _SGIO_LIMIT_KB:
            out.append(
                me.finding(
                    (wl.id,),
                    f"{name}: BUFNO={n} x BUFSIZE={_kb(size)} = {_kb(size * n)}, "
                    "above Windows' 64 MB limit for one I/O buffer.",
                    f"Lower BUFNO to {int(_SGIO_LIMIT_KB // size)} or less, or use a smaller BUFSIZE.",
                )
            )
        if not wl["direct_io"]:
            continue
        if size and size % 4:
            out.append(
                me.finding(
                    (wl.id,),
                    f"{name} (SGIO) has BUFSIZE={size:g}K, not a multiple of 4 KB as SGIO requires of the page size.",
                    "Use a multiple of 8 KB, e.g. BUFSIZE=16K or 64K.",
                    "warning",
                )
            )
        elif size and size % 8:
            out.append(
                me.finding(
                    (wl.id,),
                    f"{name} (SGIO) has BUFSIZE={size:g}K: fine for 32-bit SAS, but "
                    "64-bit SAS needs a multiple of 8 KB.",
                    "Use a multiple of 8 KB, e.g. BUFSIZE=16K.",
                    "advice",
                )
            )
        if 0 < n < 32:
            out.append(
                me.finding(
                    (wl.id,),
                    f"{name} (SGIO) has BUFNO={n}; each SGIO request is only "
                    f"{_kb(size * n) if size else 'BUFNO pages'} long.",
                    "Start with BUFNO=32, 128 or 256 and keep the fastest for each step.",
                    "advice",
                )
            )
    return out


# ---------------------------------------------------------------------------------------------


def check(
    topo: Topology,
    figures: str = "planning",
    direction: str = "read",
    analysis: Analysis | None = None,
    rules: Iterable[str] | None = None,
) -> list[Finding]:
    """Run the rules (all, or the ids in ``rules``) on ``topo``.

    Parameters: ``figures`` and ``direction`` select the analysis the bandwidth rules use;
    ``analysis`` reuses a full analysis already computed (its figures and direction then win).
    Returns the findings sorted by severity (error, warning, advice), rule id, components.
    A rule that raises becomes an ``INTERNAL`` error finding naming the rule (and is logged with
    its traceback); the other rules still run. Raises ValueError for an unknown rule id, figure
    set or direction.
    """
    ctx = Context(topo, figures, direction, analysis)
    if rules is None:
        selected = list(RULES.values())
    else:
        ids = list(rules)
        unknown = [r for r in ids if r not in RULES]
        if unknown:
            raise ValueError(f"unknown rule id(s) {', '.join(unknown)}; known: {', '.join(RULES)}")
        selected = [RULES[r] for r in ids]
    findings: list[Finding] = []
    for r in selected:
        try:
            findings += r.fn(topo, ctx)
        except Exception as err:  # a rule bug must not hide the other findings or show a traceback
            log.exception("rule %s failed", r.id)
            findings.append(
                Finding(
                    "INTERNAL",
                    "error",
                    (),
                    f"The check '{r.title}' ({r.id}) failed: {type(err).__name__}: {err}.",
                    "This is a bug in SANplan, not in your design; please report it with the design file. The other "
                    "checks ran normally.",
                    r.source,
                )
            )
    findings.sort(key=lambda f: (_SEVERITY_ORDER[f.severity], f.rule, f.components))
    return findings
