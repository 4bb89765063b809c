"""Comparing two designs (two files, or two scenarios of one): what a change does.

:func:`diff` analyses both designs with one figure set and reports the aggregate read and write
before, after and the delta; the paths whose binding hop changed (paths are matched by their
HBA port, host port and logical drive, which stay the same across scenarios of one design); the
paths only one side has; the findings added and removed (matched by rule and components); and the
bill-of-materials delta (parts counted per part id, as the build sheet's bill of materials counts
them, and cables per media and length).

:func:`open_design` reads one side given as ``FILE`` or ``FILE:SCENARIO`` (the command line).
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from planner import naming
from planner.analysis import Analysis, analyze
from planner.model import Topology
from planner.naming import counted
from planner.rules import Finding, check
from planner.schema import kind_name

DIRECTIONS = ("read", "write")


@dataclass(frozen=True)
class Change:
    """One number before and after."""

    old: float
    new: float

    @property
    def delta(self) -> float:
        return self.new - self.old


@dataclass(frozen=True)
class BindingChange:
    """A path both designs have whose binding hop (its bottleneck) differs in one direction."""

    path: str
    hba_port: str
    host_port: str
    logical_drive: str
    direction: str
    old: str | None  # the binding hop's id, None when the rate is unknown
    new: str | None
    old_mbps: float | None
    new_mbps: float | None


@dataclass
class Diff:
    """What changes from ``old`` to ``new`` (see :func:`diff`)."""

    figures: str
    source: str
    aggregate: dict[str, Change]
    binding_changed: list[BindingChange] = field(default_factory=list)
    paths_added: list[str] = field(default_factory=list)
    paths_removed: list[str] = field(default_factory=list)
    findings_added: list[Finding] = field(default_factory=list)
    findings_removed: list[Finding] = field(default_factory=list)
    parts_delta: dict[str, int] = field(default_factory=dict)
    cables_delta: dict[str, int] = field(default_factory=dict)

    @property
    def unchanged(self) -> bool:
        """True when nothing this comparison looks at differs."""
        return not (
            any(abs(c.delta) > 1e-9 for c in self.aggregate.values())
            or self.binding_changed
            or self.paths_added
            or self.paths_removed
            or self.findings_added
            or self.findings_removed
            or self.parts_delta
            or self.cables_delta
        )

    def to_dict(self) -> dict[str, Any]:
        """The documented JSON of ``sanplan diff --json`` (docs/cli.md)."""
        return {
            "figures": self.figures,
            "source": self.source,
            "aggregate": {
                d: {"old": _r(c.old), "new": _r(c.new), "delta": _r(c.delta)} for d, c in self.aggregate.items()
            },
            "binding_changed": [
                {
                    "path": b.path,
                    "hba_port": b.hba_port,
                    "host_port": b.host_port,
                    "logical_drive": b.logical_drive,
                    "direction": b.direction,
                    "old": b.old,
                    "new": b.new,
                    "old_mbps": _r(b.old_mbps),
                    "new_mbps": _r(b.new_mbps),
                }
                for b in self.binding_changed
            ],
            "paths_added": list(self.paths_added),
            "paths_removed": list(self.paths_removed),
            "findings_added": [_finding(f) for f in self.findings_added],
            "findings_removed": [_finding(f) for f in self.findings_removed],
            "parts_delta": dict(self.parts_delta),
            "cables_delta": dict(self.cables_delta),
        }


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 1)


def _finding(f: Finding) -> dict[str, Any]:
    return {"rule": f.rule, "severity": f.severity, "components": list(f.components), "message": f.message}


# -- the comparison --------------------------------------------------------------------------------


def diff(old: Topology, new: Topology, figures: str = "planning", source: str = "disk") -> Diff:
    """Compare ``old`` with ``new`` under one figure set and data source.

    Both designs are analysed read and write; the rules run on the read analysis (as in the
    editor and the build sheet). Raises AnalysisError for an unknown figure set or source.
    Time: four analyses and two rule checks.
    """
    result = Diff(figures, source, {})
    for direction in DIRECTIONS:
        a = analyze(old, figures, direction, source, cross_check=False)
        b = analyze(new, figures, direction, source, cross_check=False)
        result.aggregate[direction] = Change(a.aggregate, b.aggregate)
        result.binding_changed += binding_changes(a, b, direction)
        if direction == "read":
            result.paths_removed, result.paths_added = _paths_only(a, b)
            read_old, read_new = a, b
    result.findings_removed, result.findings_added = findings_delta(
        check(old, analysis=read_old), check(new, analysis=read_new)
    )
    result.parts_delta = count_delta(part_counts(old), part_counts(new))
    result.cables_delta = count_delta(cable_counts(old), cable_counts(new))
    return result


def _key(p: Any) -> tuple[str, str, str]:
    return (p.hba_port, p.host_port, p.logical_drive)


def binding_changes(old: Analysis, new: Analysis, direction: str) -> list[BindingChange]:
    """The paths of both analyses (matched by HBA port, host port, logical drive) whose binding hop differs."""
    before = {_key(p): p for p in old.paths}
    out = []
    for q in new.paths:
        p = before.get(_key(q))
        if p is not None and p.bottleneck != q.bottleneck:
            out.append(BindingChange(q.id, *_key(q), direction, p.bottleneck, q.bottleneck, p.mbps, q.mbps))
    return out


def _paths_only(old: Analysis, new: Analysis) -> tuple[list[str], list[str]]:
    """(ids of paths only ``old`` has, ids of paths only ``new`` has)."""
    a = {_key(p): p.id for p in old.paths}
    b = {_key(p): p.id for p in new.paths}
    return [a[k] for k in a if k not in b], [b[k] for k in b if k not in a]


def finding_key(f: Finding) -> tuple[str, tuple[str, ...]]:
    """What makes two findings the same finding: the rule and the components (in any order)."""
    return (f.rule, tuple(sorted(f.components)))


def findings_delta(old: list[Finding], new: list[Finding]) -> tuple[list[Finding], list[Finding]]:
    """(findings only ``old`` has: removed, findings only ``new`` has: added)."""
    a = {finding_key(f) for f in old}
    b = {finding_key(f) for f in new}
    return [f for f in old if finding_key(f) not in b], [f for f in new if finding_key(f) not in a]


def part_counts(topo: Topology) -> Counter[str]:
    """Part id -> how many components use it (the build sheet's bill of materials)."""
    return Counter(c.part for c in topo.components() if c.part)


def cable_counts(topo: Topology) -> Counter[str]:
    """'<media> cable, <length> m' -> how many cables (the bill of materials' cable lines)."""
    out: Counter[str] = Counter()
    for cab in topo.of_kind("cable"):
        length = float(cab["length_m"] or 0)
        out[f"{cab['media']} cable, " + (f"{length:g} m" if length else "length not given")] += 1
    return out


def count_delta(old: Counter[str], new: Counter[str]) -> dict[str, int]:
    """Key -> change in count, for the keys whose count changed (sorted by key)."""
    return {k: new[k] - old[k] for k in sorted(set(old) | set(new)) if new[k] != old[k]}


# -- text ------------------------------------------------------------------------------------------


def hop_text(topo: Topology, cid: str | None) -> str:
    """A binding hop as people read it: its label, or 'unknown' for a path without a known rate."""
    return naming.label(topo, cid) if cid else "unknown"


def summary_lines(d: Diff, old: Topology, new: Topology, old_name: str = "old", new_name: str = "new") -> list[str]:
    """The comparison as plain text lines (the command line's output)."""
    out = [f"Comparing {old_name} -> {new_name} (figures: {d.figures}, data from: {d.source})", ""]
    out.append(f"{'':8}{'old':>12}{'new':>12}{'delta':>12}  MB/s")
    for direction, c in d.aggregate.items():
        out.append(f"{direction:8}{c.old:>12,.1f}{c.new:>12,.1f}{c.delta:>+12,.1f}")
    out.append("")
    out += binding_lines(d, old, new)
    for title, ids in (("Paths removed", d.paths_removed), ("Paths added", d.paths_added)):
        if ids:
            more = f" and {len(ids) - 6} more (--json lists them all)" if len(ids) > 6 else ""
            out.append(f"{title} ({len(ids)}): " + ", ".join(ids[:6]) + more)
    out.append("")
    for title, found in (("Findings added", d.findings_added), ("Findings removed", d.findings_removed)):
        out.append(f"{title}: {len(found) or 'none'}")
        for f in found:
            comps = naming.label_list(new if title.endswith("added") else old, f.components, limit=4)
            out.append(f"  {f.severity.upper():8} {f.rule}: {comps}")
    out.append("")
    out += parts_lines(d)
    return out


def binding_groups(d: Diff, old: Topology, new: Topology) -> list[tuple[str, str, str, int]]:
    """(direction, old binding kind, new binding kind, paths) for each kind of change, most paths first."""
    groups: Counter[tuple[str, str, str]] = Counter()
    for b in d.binding_changed:
        groups[(b.direction, _kind(old, b.old), _kind(new, b.new))] += 1
    return [(*k, n) for k, n in sorted(groups.items(), key=lambda kv: (DIRECTIONS.index(kv[0][0]), -kv[1]))]


def _kind(topo: Topology, cid: str | None) -> str:
    comp = topo.get(cid) if cid else None
    return kind_name(comp.kind) if comp is not None else "unknown"


def binding_lines(d: Diff, old: Topology, new: Topology, limit: int = 12) -> list[str]:
    """The paths whose binding hop changed: counts per kind of change, then up to ``limit`` paths."""
    if not d.binding_changed:
        return ["Binding hops: no path changed its binding hop."]
    out = [f"Binding hop changed on {counted(len(d.binding_changed), 'path')}:"]
    for direction, a, b, n in binding_groups(d, old, new):
        out.append(f"  {direction:5} {n:4} {'path' if n == 1 else 'paths'}: {a} -> {b}")
    for b in d.binding_changed[:limit]:
        out.append(
            f"  {b.direction:5} {b.path}: {hop_text(old, b.old)} ({_mbps(b.old_mbps)})"
            f" -> {hop_text(new, b.new)} ({_mbps(b.new_mbps)})"
        )
    if len(d.binding_changed) > limit:
        out.append(f"  ... and {len(d.binding_changed) - limit} more (--json lists them all)")
    return out


def parts_lines(d: Diff) -> list[str]:
    """The bill-of-materials delta as text lines."""
    if not d.parts_delta and not d.cables_delta:
        return ["Bill of materials: unchanged."]
    out = ["Bill of materials:"]
    for key, n in {**d.parts_delta, **d.cables_delta}.items():
        out.append(f"  {n:+d}  {key}")
    return out


def _mbps(x: float | None) -> str:
    return "?" if x is None else f"{x:,.1f} MB/s"


# -- one side given on the command line -------------------------------------------------------


def open_design(spec: str) -> tuple[Topology, str]:
    """The design named by ``FILE`` or ``FILE:SCENARIO``, and how to name it ('a.sanplan:Base').

    ``spec`` is a file when such a file exists (a Windows path ``C:\\d\\a.sanplan`` included);
    otherwise the text after a ':' is a scenario when the text before it is an existing file
    (the last such ':' first, so a scenario name may hold a ':'). Without a scenario, the file's
    current one. Raises ProjectError for a file that cannot be read, or a scenario the file does
    not have (naming the ones it has).
    """
    from planner.io import ProjectError, open_project

    if os.path.isfile(spec) or ":" not in spec:
        project = open_project(spec)
        return project.topology, f"{spec}:{project.current}"
    cuts = [i for i, ch in enumerate(spec) if ch == ":"]
    for i in reversed(cuts):
        path, name = spec[:i], spec[i + 1 :]
        if not os.path.isfile(path):
            continue
        project = open_project(path)
        if name in project.scenarios:
            return project.scenarios[name], spec
        raise ProjectError(
            path, f"has no scenario {name!r}", f"choose one of {', '.join(project.scenarios)} (FILE:SCENARIO)"
        )
    return open_project(spec).topology, spec  # raises: no such file
