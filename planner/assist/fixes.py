"""Mechanical fixes of rule findings: ``fix_for(topo, finding) -> Fix | None``.

A fixer is registered per rule id; it looks at the finding and returns an operation
``op(topo) -> Assisted`` (one undo step), or None when the fix needs the user's judgement. A fix
is offered only after it was tried on a copy of the design: the finding must be gone and no new
error may appear; its ``preview`` is what the trial did, line by line.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from planner import edit, naming
from planner.assist.base import Assisted, NothingToDo, assisting, name_of
from planner.assist.complete import complete
from planner.assist.lvm import aligned_size, full_stripes, vg_type_for
from planner.assist.san import recable_asic_local, rezone_subsystem
from planner.assist.server import assign_lpars
from planner.assist.storage import balance_ownership, map_subsystem
from planner.model import ModelError, Topology
from planner.rules import Finding, check
from planner.rules.storage import FASTT_SEGMENTS
from planner.rules.wording import aix
from planner.schema import LTG_SIZES_KB, STRIPE_SIZES_KB

Op = Callable[[Topology], Assisted]
Fixer = Callable[[Topology, Finding], "Op | None"]


@dataclass(frozen=True)
class Fix:
    """A mechanical fix: ``preview`` says what it will do; ``apply(topo)`` does it (one undo step)."""

    rule: str
    preview: str
    apply: Op


#: rule id -> its fixer
FIXERS: dict[str, Fixer] = {}


def fixer(rule_id: str) -> Callable[[Fixer], Fixer]:
    def register(fn: Fixer) -> Fixer:
        FIXERS[rule_id] = fn
        return fn

    return register


def _errors(findings: list[Finding]) -> int:
    return sum(1 for f in findings if f.severity == "error")


def fix_for(topo: Topology, finding: Finding, before: list[Finding] | None = None) -> Fix | None:
    """The mechanical fix of ``finding``, tried on a copy first (``before``: the design's current
    findings, when the caller has them), or None when there is none that works."""
    make = FIXERS.get(finding.rule)
    op = make(topo, finding) if make is not None else None
    if op is None:
        return None
    trial = topo.clone()
    try:
        done = op(trial)
    except ModelError:
        return None
    after = check(trial)
    before = check(topo) if before is None else before
    key = (finding.rule, tuple(finding.components))
    if any((f.rule, tuple(f.components)) == key for f in after) or _errors(after) > _errors(before):
        return None
    if sum(f.rule == finding.rule for f in after) >= sum(f.rule == finding.rule for f in before):
        return None
    return Fix(finding.rule, "\n".join(done.lines) or done.text, op)


def fix_all(topo: Topology, rules: list[str] | None = None, rounds: int = 20) -> Assisted:
    """Apply every mechanical fix (of ``rules``, or all) until none is left, as one undo step.
    Raises NothingToDo when no finding has a mechanical fix."""
    with assisting(topo, "Apply the mechanical fixes") as a:
        for _ in range(rounds):
            findings = check(topo)
            for f in findings:
                if rules and f.rule not in rules:
                    continue
                fix = fix_for(topo, f, findings)
                if fix is not None:
                    a.say(f"{f.rule}: {f.message}")
                    a.add(fix.apply(topo))
                    break
            else:
                break
        if not a.commands:
            raise NothingToDo("no finding has a mechanical fix")
    return a


def _comp(topo: Topology, finding: Finding, kind: str) -> list[str]:
    return [c for c in finding.components if c in topo and topo[c].kind == kind]


@fixer("ASIC_CROSSING")
def _asic(topo: Topology, f: Finding) -> Op | None:
    sw = _comp(topo, f, "switch")
    return (lambda t: recable_asic_local(t, sw[0])) if sw else None


@fixer("RDAC_PATHS")
def _rdac(topo: Topology, f: Finding) -> Op | None:
    lpar, ctl = _comp(topo, f, "lpar"), _comp(topo, f, "controller")
    if not lpar or not ctl:
        return None
    sub = topo[ctl[0]].parent or ""

    def op(t: Topology) -> Assisted:
        with assisting(t, f"Zone {name_of(t, lpar[0])} for RDAC on {name_of(t, sub)}") as a:
            a.add(rezone_subsystem(t, lpar[0], sub))
            ports = {p.id for h in t.of_kind("hba") if h["lpar"] == lpar[0] for p in t.children(h.id, "hba_port")}
            maps = [m.id for m in t.children(sub, "host_mapping") if ports.intersection(m["hba_ports"])]
            if len(maps) == 1 and len(ports.intersection(t[maps[0]]["hba_ports"])) > 2:
                name = t[maps[0]].name
                a.add(edit.delete(t, maps), f"split partition {name}")
                map_subsystem(t, t[sub], a)
        return a

    return op


@fixer("LUN_OWNERSHIP_BALANCE")
def _owners(topo: Topology, f: Finding) -> Op | None:
    sub = _comp(topo, f, "subsystem")
    return (lambda t: balance_ownership(t, sub[0])) if sub else None


@fixer("HBA_NO_LPAR")
def _no_lpar(topo: Topology, f: Finding) -> Op | None:
    hbas = _comp(topo, f, "hba")
    return (lambda t: assign_lpars(t, hbas)) if hbas else None


def _set(t: Topology, a: Assisted, cid: str, key: str, value: object, line: str) -> None:
    if t[cid][key] != value:
        a.add(edit.set_attr(t, cid, key, value), line)


@fixer("PV_PER_VG")
def _pv_per_vg(topo: Topology, f: Finding) -> Op | None:
    vg = _comp(topo, f, "volume_group")
    if not vg:
        return None

    def op(t: Topology) -> Assisted:
        g = t[vg[0]]
        kind = vg_type_for(len(g["pvs"]), t[g.parent]["aix_level"])
        with assisting(t, f"Make {name_of(t, g)} a {kind} VG") as a:
            _set(t, a, g.id, "vg_type", kind, f"{name_of(t, g)} is now a {kind} volume group ({len(g['pvs'])} PVs)")
        return a

    return op


def _align(t: Topology, vg_id: str) -> Assisted:
    """LTG and LV stripe sizes of ``vg_id`` to a whole number of its arrays' full stripes."""
    vg = t[vg_id]
    lpar = t[vg.parent]
    lds = [t[t[pv]["logical_drive"]] for pv in vg["pvs"] if pv in t and t[pv]["logical_drive"] in t]
    stripes = full_stripes(t, lds)
    big = aix(lpar["aix_level"]) >= (5, 3)
    ltg = aligned_size(stripes, LTG_SIZES_KB, 16384 if big else 1024)
    stripe = aligned_size(stripes, STRIPE_SIZES_KB, 131072 if big else 1024)
    if ltg is None or stripe is None:
        raise ModelError(f"no LTG AIX {lpar['aix_level']} allows is a whole number of {sorted(stripes)} KB")
    with assisting(t, f"Align {name_of(t, vg)} with its full stripe") as a:
        for pv in vg["pvs"]:
            if t[pv]["max_transfer_kb"] < ltg:
                _set(t, a, pv, "max_transfer_kb", ltg, f"{name_of(t, pv)}: max_transfer {ltg} KB")
        _set(
            t,
            a,
            vg.id,
            "ltg_kb",
            ltg,
            f"{name_of(t, vg)}: LTG {ltg} KB (full stripe {'/'.join(map(str, sorted(stripes)))} KB)",
        )
        for lv in t.children(vg.id, "logical_volume"):
            if lv["stripe_kb"] and lv["stripe_kb"] % math_lcm(stripes):
                _set(t, a, lv.id, "stripe_kb", stripe, f"{name_of(t, lv)}: stripe size {stripe} KB")
        if not a.commands:
            raise NothingToDo("already aligned")
    return a


def math_lcm(values: set[int]) -> int:
    return math.lcm(*values) if values else 1


@fixer("FULL_STRIPE_ALIGNMENT")
def _full_stripe(topo: Topology, f: Finding) -> Op | None:
    vg = _comp(topo, f, "volume_group")
    return (lambda t: _align(t, vg[0])) if vg else None


@fixer("LTG_MAX_TRANSFER")
def _ltg(topo: Topology, f: Finding) -> Op | None:
    vg = _comp(topo, f, "volume_group")
    if not vg:
        return None

    def op(t: Topology) -> Assisted:
        g = t[vg[0]]
        ltg = g["ltg_kb"] if aix(t[g.parent]["aix_level"]) >= (5, 3) else min(g["ltg_kb"], 1024)
        with assisting(t, f"Match LTG and max_transfer on {name_of(t, g)}") as a:
            _set(t, a, g.id, "ltg_kb", ltg, f"{name_of(t, g)}: LTG {ltg} KB (AIX {t[g.parent]['aix_level']})")
            for pv in g["pvs"]:
                if pv in t and t[pv]["max_transfer_kb"] < ltg:
                    _set(
                        t,
                        a,
                        pv,
                        "max_transfer_kb",
                        ltg,
                        f"{name_of(t, pv)}: max_transfer {ltg} KB (chdev -a max_transfer)",
                    )
        return a

    return op


@fixer("HDISK_NOT_MAPPED")
def _hdisk(topo: Topology, f: Finding) -> Op | None:
    hdisks = _comp(topo, f, "hdisk")
    if not hdisks:
        return None

    def op(t: Topology) -> Assisted:
        lpar = t[hdisks[0]].parent or ""
        ports = {p.id for h in t.of_kind("hba") if h["lpar"] == lpar for p in t.children(h.id, "hba_port")}
        with assisting(t, "Map the hdisks' logical drives") as a:
            lost = [h for h in hdisks if t[h]["logical_drive"] not in t]
            if lost:
                names = ", ".join(name_of(t, h) for h in lost)
                a.add(edit.delete(t, lost), f"removed {names} (no logical drive)")
            for h in (x for x in hdisks if x not in lost):
                ld = t[h]["logical_drive"]
                sub = t.ancestor(ld, "subsystem")
                maps = [m for m in t.children(sub.id, "host_mapping") if ports.intersection(m["hba_ports"])]
                if not maps:
                    raise ModelError(f"no partition on {name_of(t, sub)} holds an HBA of {name_of(t, lpar)}")
                if ld not in maps[0]["logical_drives"]:
                    _set(
                        t,
                        a,
                        maps[0].id,
                        "logical_drives",
                        (*maps[0]["logical_drives"], ld),
                        f"mapped {name_of(t, ld)} in {maps[0].name}",
                    )
        return a

    return op


@fixer("UNREACHABLE")
def _unreachable(topo: Topology, f: Finding) -> Op | None:
    return lambda t: complete(t)


@fixer("ZONE_MEMBER_MISSING")
def _zone_members(topo: Topology, f: Finding) -> Op | None:
    zones = _comp(topo, f, "zone")
    if not zones or not any(m not in topo for m in topo[zones[0]]["members"]):
        return None

    def op(t: Topology) -> Assisted:
        z = t[zones[0]]
        keep = [m for m in z["members"] if m in t]
        with assisting(t, f"Tidy zone {z.name}") as a:
            if len(keep) < 2:
                a.add(edit.delete(t, [z.id]), f"deleted zone {z.name} (fewer than two members left)")
            else:
                _set(t, a, z.id, "members", keep, f"removed missing members from zone {z.name}")
        return a

    return op


@fixer("MAPPING_EMPTY")
def _mapping_empty(topo: Topology, f: Finding) -> Op | None:
    maps = _comp(topo, f, "host_mapping")

    def op(t: Topology) -> Assisted:
        with assisting(t, "Delete an empty host mapping") as a:
            name = t[maps[0]].name
            a.add(edit.delete(t, maps), f"deleted host mapping {name}")
        return a

    return op if maps else None


@fixer("SEGMENT_SIZE")
def _segment(topo: Topology, f: Finding) -> Op | None:
    arrays = _comp(topo, f, "array")

    def op(t: Topology) -> Assisted:
        with assisting(t, "Use supported segment sizes") as a:
            for arr in arrays:
                allowed = (t.part_of(t[t[arr].parent]) or {}).get("segment_kb") or FASTT_SEGMENTS
                seg = min(allowed, key=lambda s: (abs(s - t[arr]["segment_kb"]), -s))
                _set(t, a, arr, "segment_kb", seg, f"{name_of(t, arr)}: segment {seg} KB")
        return a

    return op if arrays else None


@fixer("LV_STRIPE")
def _lv_stripe(topo: Topology, f: Finding) -> Op | None:
    lvs = _comp(topo, f, "logical_volume")

    def op(t: Topology) -> Assisted:
        lv = t[lvs[0]]
        vg, lpar = t[lv.parent], t[t[lv.parent].parent]
        with assisting(t, f"Fit the stripes of {name_of(t, lv)}") as a:
            if lv["width"] > len(vg["pvs"]):
                _set(t, a, lv.id, "width", len(vg["pvs"]), f"{name_of(t, lv)}: width {len(vg['pvs'])}")
            if lv["stripe_kb"] > 1024 and aix(lpar["aix_level"]) < (5, 3):
                _set(t, a, lv.id, "stripe_kb", 1024, f"{name_of(t, lv)}: stripe size 1 MB")
        return a

    return op if lvs else None


@fixer("NAME_DUPLICATE")
def _duplicate_names(topo: Topology, f: Finding) -> Op | None:
    """The first keeps the name; each other gets it with a number in brackets ('sw1 (2)'), which
    the user can then change to the real one: counting on the name's own number could make a
    name that means something else (a cable label's port, a server model)."""
    same = [c for c in f.components if c in topo]

    def op(t: Topology) -> Assisted:
        with assisting(t, f"Give the {len(same)} components named {t[same[0]].name!r} names of their own") as a:
            for cid in same[1:]:
                c = t[cid]
                new = naming.free_name(t, c.kind, c.name, c.parent, suffix=True)
                line = f"{name_of(t, cid)} ({cid}) is now {new}"
                a.add(edit.set_attr(t, cid, "name", new), line)
        return a

    return op if len(same) > 1 else None
