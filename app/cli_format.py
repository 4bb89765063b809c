"""What the CLI prints: the analysis as text and as its documented JSON, and the findings.

Used by :mod:`app.cli` (``sanplan analyze`` and ``sanplan check``) and the tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from planner import naming
from planner.analysis import Analysis
from planner.demand import WORKLOAD_COLUMNS, workload_rows, workloads_to_dict
from planner.schema import count_label, kind_name


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 1)


def analysis_to_dict(topo, result: Analysis) -> dict[str, Any]:
    """The documented JSON of ``sanplan analyze --json`` (docs/cli.md)."""
    return {
        "design": topo.meta.get("name", ""),
        "figures": result.figures,
        "direction": result.direction,
        "source": result.source,
        "aggregate_mbps": _r(result.aggregate),
        "read_mbps": _r(result.read_mbps),
        "write_mbps": _r(result.write_mbps),
        "read_pct": result.read_pct,
        "max_flow_mbps": _r(result.max_flow),
        "min_cut": result.min_cut,
        "groups": {k: {cid: _r(v) for cid, v in d.items()} for k, d in result.by_group.items()},
        "paths": [
            {
                "id": p.id,
                "hba_port": p.hba_port,
                "host_port": p.host_port,
                "logical_drive": p.logical_drive,
                "hops": p.hops,
                "mbps": _r(p.mbps),
                "read_mbps": _r(p.read_mbps),
                "write_mbps": _r(p.write_mbps),
                "bottleneck": {"id": p.bottleneck, "kind": topo[p.bottleneck].kind} if p.bottleneck else None,
            }
            for p in result.paths
        ],
        "components": [
            {
                "id": ld.id,
                "kind": ld.kind,
                "load_mbps": _r(ld.load),
                "read_load_mbps": _r(ld.read_load),
                "write_load_mbps": _r(ld.write_load),
                "capacity_mbps": _r(ld.capacity),
                "utilization": None if ld.utilization is None else round(ld.utilization, 4),
                "paths": ld.paths,
                "source": ld.source,
                "estimate": ld.estimate,
            }
            for ld in result.components.values()
        ],
        "unreachable": result.unreachable,
        "notes": result.notes,
        "workloads": workloads_to_dict(topo, result.workloads),
    }


def _table(rows: list[Sequence[Any]], header: Sequence[str], right: Sequence[int] = ()) -> str:
    cells = [[str(c) for c in header]] + [[("" if c is None else str(c)) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    lines = []
    for n, r in enumerate(cells):
        parts = [r[i].rjust(widths[i]) if i in right else r[i].ljust(widths[i]) for i in range(len(header))]
        lines.append("  ".join(parts).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _label(topo, cid: str | None) -> str:
    """A hop as the table shows it: its label with context and what kind of part it is."""
    if not cid:
        return "-"
    c = topo.get(cid)
    return f"{naming.label(topo, c)} [{kind_name(c.kind)}]" if c else cid


def _analysis_summary(topo, result: Analysis) -> list[str]:
    """The head of the analysis text: design, figures, aggregate, binding hops, per-group loads."""
    out = [
        f"Design: {topo.meta.get('name', '')}",
        f"Figures: {result.figures}   direction: {result.direction}   data from: {result.source}",
        f"Aggregate: {result.aggregate:,.1f} MB/s over {len(result.paths)} paths"
        + (f"   (max-flow cross-check {result.max_flow:,.1f} MB/s)" if result.max_flow is not None else ""),
    ]
    if result.direction == "mixed":
        share = "each workload's share" if result.read_pct is None else f"{result.read_pct:g} % read"
        out.append(f"Read {result.read_mbps:,.1f} MB/s + write {result.write_mbps:,.1f} MB/s ({share})")
    kinds: dict[str, int] = {}
    for cid, n in result.binding_hops().items():
        kinds[topo[cid].kind] = kinds.get(topo[cid].kind, 0) + n
    if kinds:
        ranked = sorted(kinds.items(), key=lambda kv: -kv[1])
        out.append("Binding hops: " + ", ".join(f"{kind_name(k)} ({count_label(n, 'path')})" for k, n in ranked))
    for group in ("drawer", "switch", "subsystem"):
        vals = result.by_group.get(group) or {}
        if vals and len(vals) <= 16:
            shown = ", ".join(f"{naming.qualified_name(topo, topo[c])} {v:,.0f}" for c, v in vals.items())
            out.append(f"Per {group}: {shown}")
        elif vals:
            out.append(
                f"Per {group}: {naming.counted(len(vals), group)}, {min(vals.values()):,.0f} to "
                f"{max(vals.values()):,.0f} MB/s each"
            )
    return out


def format_analysis(topo, result: Analysis, max_rows: int | None = None) -> str:
    out = _analysis_summary(topo, result)
    if result.workloads:  # those with a target (planner.demand)
        out += ["", _table(workload_rows(topo, result.workloads), WORKLOAD_COLUMNS, right=(1, 2, 4))]
    out.append("")
    shown = result.paths if max_rows is None else sorted(result.paths, key=lambda p: p.mbps or 0)[:max_rows]
    rows = [
        (
            p.hba_port,
            p.host_port,
            p.logical_drive,
            f"{p.mbps:,.1f}" if p.mbps is not None else "?",
            _label(topo, p.bottleneck),
        )
        for p in shown
    ]
    out.append(_table(rows, ("HBA port", "host port", "logical drive", "MB/s", "binding hop"), right=(3,)))
    if len(shown) < len(result.paths):
        out.append(f"... the {len(shown)} slowest of {len(result.paths)} paths; 'sanplan analyze FILE' lists them all")
    levels: dict[str, list] = {}
    for ld in result.components.values():
        if ld.capacity:
            levels.setdefault(ld.kind, []).append(ld)
    out.append("")
    lrows = []
    for kind, lds in levels.items():
        top = max(lds, key=lambda x: x.utilization or 0)
        lrows.append(
            (
                kind_name(kind),
                len(lds),
                f"{top.load:,.0f}",
                f"{top.capacity:,.0f}",
                f"{(top.utilization or 0) * 100:.0f}%",
                top.id,
            )
        )
    out.append(_table(lrows, ("hop level", "count", "max load", "capacity", "util", "busiest"), right=(1, 2, 3, 4)))
    if result.unreachable:
        out.append(f"\nHBA ports with no complete path: {', '.join(result.unreachable)}")
    for n in result.notes[:5]:
        out.append(f"note: {n}")
    return "\n".join(out)


def format_findings(topo, findings) -> str:
    if not findings:
        return "No findings: the design passes every rule."
    counts = {s: sum(1 for f in findings if f.severity == s) for s in ("error", "warning", "advice")}

    def n(count: int, word: str) -> str:
        return f"{count} {word}{'' if count == 1 or word == 'advice' else 's'}"

    out = [f"{n(counts['error'], 'error')}, {n(counts['warning'], 'warning')}, {n(counts['advice'], 'advice')}"]
    for f in findings:
        names = ", ".join(_short(topo, c) for c in f.components[:6]) + (
            f" and {len(f.components) - 6} more" if len(f.components) > 6 else ""
        )
        out.append(f"\n{f.severity.upper():8} {f.rule}: {f.message}")
        if names:
            out.append(f"         components: {names}")
        out.append(f"         fix: {f.fix}")
        out.append(f"         source: {f.source}")
    return "\n".join(out)


def _short(topo, cid: str) -> str:
    c = topo.get(cid)
    return c.id if c else cid
