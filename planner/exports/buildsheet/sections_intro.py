"""The build sheet's opening: the summary in plain language (what the design delivers, what limits
it, what survives a failure, what must be fixed) and the document block (status, revision
history, sign-off lines)."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from planner.analysis import Analysis
from planner.commands import DESIGN_STATUSES
from planner.exports.buildsheet.document import BOLD, para, rl_api
from planner.exports.buildsheet.sheet import PLACEHOLDER_NOTE, Sheet, mbps, new_section, plural
from planner.naming import label, label_list
from planner.schema import KINDS, count_label, kind_name

MAX_WORKLOADS = 8  # named one by one in the summary; the rest are counted


# -- the summary in plain language ------------------------------------------------------------------


def plain_summary(sheet: Sheet) -> list[Any]:
    """Four short paragraphs a customer understands, each led by its question in bold."""
    out = [
        sheet.p(f"<b>What it delivers.</b> {_delivers(sheet)}"),
        sheet.p(f"<b>What limits it.</b> {_limits(sheet)}"),
        sheet.p(f"<b>What survives a failure.</b> {_survives(sheet)}"),
        sheet.p(f"<b>What must be fixed.</b> {_fix(sheet)}"),
    ]
    return out + [rl_api().Spacer(1, 6), sheet.heading("In figures")]


def _delivers(sheet: Sheet) -> str:
    read, write = sheet.read, sheet.write
    n = len(read.paths)
    if not n:
        return "Nothing yet: no HBA reaches a logical drive, so the design moves no data."
    text = (
        f"With all {plural(n, 'path')} busy at once, the design reads {mbps(read.aggregate)} MB/s and writes "
        f"{mbps(write.aggregate)} MB/s from disk ({sheet.figures} figures)."
    )
    return text + _workloads_text(sheet)


def _workloads_text(sheet: Sheet) -> str:
    topo = sheet.topo
    read = {r.id: r for r in sheet.read.workloads}
    write = {r.id: r for r in sheet.write.workloads}
    said = []
    for wl in topo.of_kind("workload"):
        r, w = read.get(wl.id), write.get(wl.id)
        if not wl["target_mbps"] or (r is None and w is None):
            continue
        got = [f"{mbps(x.achieved_mbps)} MB/s {way}" for x, way in ((r, "reading"), (w, "writing")) if x is not None]
        met = all(x.met for x in (r, w) if x is not None)
        said.append(
            f"{para(label(topo, wl.id))} needs {mbps(wl['target_mbps'])} MB/s and gets {' and '.join(got)}: "
            + ("its target is met." if met else "<b>its target is not met</b>.")
        )
    if not said:
        return ""
    more = len(said) - MAX_WORKLOADS
    extra = f" {count_label(more, 'more workload')} in the Workloads section." if more > 0 else ""
    return " " + " ".join(said[:MAX_WORKLOADS]) + extra


def _limits(sheet: Sheet) -> str:
    said = []
    for way, result in (("reads", sheet.read), ("writes", sheet.write)):
        kind, count, rate = _binding(sheet, result)
        if kind is None:
            continue
        total = len(result.paths)
        if count == total:
            share = f"every path is held back by its {kind_name(kind)}"
        else:
            verb = "is" if count == 1 else "are"
            whose = f"its {kind_name(kind)}" if count == 1 else f"their {_kind_plural(kind)}"
            share = f"{count} of the {plural(total, 'path')} {verb} held back by {whose}"
        said.append(f"For {way}, {share} ({rate}).")
    if not said:
        return "No path has a part with a known capacity, so nothing can be said about the limit yet."
    return " ".join(said) + " To go faster, add or spread out that part first; the paths section names each one."


def _kind_plural(kind: str) -> str:
    spec = KINDS.get(kind)
    return spec.plural if spec is not None else kind_name(kind) + "s"


def _binding(sheet: Sheet, result: Analysis) -> tuple[str | None, int, str]:
    """The kind of part that binds the most paths, how many, and their rates as text."""
    by_kind: dict[str, list[float]] = {}
    for p in result.paths:
        if p.bottleneck and p.mbps is not None:
            by_kind.setdefault(sheet.topo[p.bottleneck].kind, []).append(p.mbps)
    if not by_kind:
        return None, 0, ""
    kind, rates = max(by_kind.items(), key=lambda kv: len(kv[1]))
    lo, hi = min(rates), max(rates)
    each = f"{mbps(lo)} MB/s each" if round(lo) == round(hi) else f"{mbps(lo)} to {mbps(hi)} MB/s each"
    return kind, len(rates), each


def _survives(sheet: Sheet) -> str:
    res = sheet.resilience
    topo = sheet.topo
    if res.worst is None:
        return "Nothing carries data yet, so there is nothing to fail."
    kinds = sorted({f.kind for f in res.failures}, key=lambda k: list(KINDS).index(k) if k in KINDS else 99)
    names = ", ".join(KINDS[k].plural if k in KINDS else k for k in kinds)
    lose = res.data_loss
    worst = res.worst
    cut = res.baseline_mbps - worst.aggregate_mbps
    share = f" ({cut / res.baseline_mbps * 100:.0f} % less)" if res.baseline_mbps > 0 else ""
    drop = (
        "it stops all reads"
        if worst.aggregate_mbps <= 0.05
        else f"reads drop to {mbps(worst.aggregate_mbps)} MB/s{share}"
    )
    worst_text = f"The worst single failure is {para(label(topo, worst.component))}: {drop}."
    if not lose:
        return (
            f"Every single failure of one part ({para(names)}; {plural(len(res.failures), 'part')} tried) leaves "
            f"every host with a path to every logical drive. {worst_text}"
        )
    return (
        f"{len(lose)} of the {plural(len(res.failures), 'single failure')} tried would cut a host off from its data, for "
        f"example {para(label_list(topo, [f.component for f in lose], 3))}. {worst_text} The resilience section "
        "lists each failure and what it loses."
    )


def _fix(sheet: Sheet) -> str:
    counts = {s: sum(1 for f in sheet.findings if f.severity == s) for s in ("error", "warning", "advice")}
    n = len(sheet.placeholders)
    wwpns = (
        f" {plural(n, 'WWPN')} {'is a placeholder' if n == 1 else 'are placeholders'} to replace with the real "
        "port names before zoning."
        if n
        else ""
    )
    if not counts["error"] and not counts["warning"]:
        base = "Nothing must be fixed: the design passes every rule"
        return base + (f" ({counts['advice']} advice to consider)." if counts["advice"] else ".") + wwpns
    parts = []
    if counts["error"]:
        parts.append(f"{plural(counts['error'], 'error')} must be fixed before installation")
    if counts["warning"]:
        parts.append(f"{plural(counts['warning'], 'warning')} should be reviewed")
    text = " and ".join(parts) + " (the most important are listed below, every one in the findings section)."
    return text[0].upper() + text[1:] + wwpns


# -- the document block -------------------------------------------------------------------------------


def document_block(sheet: Sheet) -> list[Any]:
    """Status, revision history and sign-off lines (prepared, reviewed, approved)."""
    rl = rl_api()
    status = str(sheet.topo.meta.get("status") or DESIGN_STATUSES[0])
    marks = "   ".join(("[X] " if s == status else "[  ] ") + s.capitalize() for s in DESIGN_STATUSES)
    out = [
        *new_section(sheet, "Document control"),
        sheet.p(f"<b>Status:</b> {escape(marks)}"),
        sheet.p("Set the status in File > Design properties; it prints here and on the cover.", "small"),
        *sheet.sub("Revision history"),
    ]
    rows = [[r.number, r.date, r.note] for r in sheet.history]
    out.append(_ruled(sheet, ("Revision", "Date", "Note"), rows, (0.16, 0.26, 0.58), 14))
    out += sheet.sub("Sign-off")
    author = sheet.topo.meta.get("author", "") or ""
    signers = [["Prepared by", author, "", ""], ["Reviewed by", "", "", ""], ["Approved by", "", "", ""]]
    out.append(_ruled(sheet, ("Role", "Name", "Date", "Signature"), signers, (0.16, 0.34, 0.18, 0.32), 30))
    out.append(rl.Spacer(1, 4))
    out.append(sheet.p("Sign in ink on the printed sheet; the approved revision is the one installed.", "small"))
    return out


def _ruled(sheet: Sheet, head: tuple[str, ...], rows: list[list[Any]], widths: tuple[float, ...], height: float) -> Any:
    """A table with boxes tall enough to write in by hand."""
    rl = rl_api()
    w = sheet.portrait.width
    data = [list(head)] + [[rl.Paragraph(para(v), sheet.styles["body"]) for v in row] for row in rows]
    table = rl.Table(
        data, colWidths=[f * w for f in widths], rowHeights=[14] + [height] * len(rows), hAlign="LEFT", repeatRows=1
    )
    table.setStyle(
        rl.TableStyle(
            [
                ("FONT", (0, 0), (-1, 0), BOLD, 8),
                ("BACKGROUND", (0, 0), (-1, 0), rl.colors.HexColor("#e3e7ea")),
                ("GRID", (0, 0), (-1, -1), 0.5, rl.colors.HexColor("#555555")),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ]
        )
    )
    return table


def placeholder_footnote(sheet: Sheet) -> list[Any]:
    """The footnote under a table that shows WWPNs, when any of them is a placeholder."""
    return [sheet.p(f"(placeholder): {escape(PLACEHOLDER_NOTE)}", "small")] if sheet.placeholders else []
