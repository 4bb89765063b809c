"""Build sheet sections that sum the design up: cover, contents, summary, findings and cable
labels (sized to a common label stock)."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from planner import bands
from planner.analysis import Analysis
from planner.commands import DESIGN_STATUSES
from planner.exports.buildsheet.document import BOLD, FONT, fit_text, para, rl_api
from planner.exports.buildsheet.sections_intro import plain_summary
from planner.exports.buildsheet.sheet import (
    FIGURE_NOTES,
    Sheet,
    key_values,
    new_section,
    plural,
    threshold,
)
from planner.exports.cabling import cabling_rows
from planner.naming import label
from planner.rules import SEVERITIES
from planner.schema import count_label, counted_kinds, kind_name


def cover(sheet: Sheet, paper: str) -> list[Any]:
    rl = rl_api()
    meta = sheet.topo.meta
    rows = [
        ("Design", sheet.name),
        ("Customer", meta.get("customer", "") or "-"),
        ("Author", meta.get("author", "") or "-"),
        ("Status", str(meta.get("status") or DESIGN_STATUSES[0]).capitalize()),
        ("Date", sheet.date),
        ("File revision", sheet.revision or "unsaved"),
        ("Scenario", sheet.scenario or "-"),
        ("Figure set", FIGURE_NOTES.get(sheet.figures, sheet.figures)),
        ("Paper", paper.upper() if paper == "a4" else "Letter"),
    ]
    note = (
        "Bandwidth in MB/s (1,000,000 bytes per second, as in the P690 paper). Loads are what every path gets "
        "when all run at once; utilization is load against the part's capacity in the chosen figure set: "
        f"green below {threshold(bands.OK_BELOW)}, amber below {threshold(bands.OVER_FROM)}, "
        f"red at {threshold(bands.OVER_FROM)} or more (the hop that binds)."
    )
    return [
        rl.Spacer(1, 30),
        sheet.p("SANplan build sheet", "title"),
        sheet.p(para(sheet.name), "subtitle"),
        key_values(sheet, rows),
        rl.Spacer(1, 10),
        sheet.p(note, "small"),
        rl.NextPageTemplate("portrait"),
        rl.PageBreak(),
        sheet.p("Contents", "h1"),
        sheet.p("Click a line to go to its page; the PDF's bookmarks hold the same entries.", "small"),
        rl.ContentsBox(),
    ]


def summary(sheet: Sheet) -> list[Any]:
    read, write = sheet.read, sheet.write
    counts = {s: sum(1 for f in sheet.findings if f.severity == s) for s in SEVERITIES}
    topo = sheet.topo
    size = ", ".join(count_label(len(topo.of_kind(k)), k) for k in counted_kinds())
    rows = [
        ("Aggregate read", f"{read.aggregate:,.0f} MB/s over {plural(len(read.paths), 'path')}"),
        ("Aggregate write", f"{write.aggregate:,.0f} MB/s over {plural(len(write.paths), 'path')}"),
        ("Hops that bind (read)", _binding_text(sheet, read)),
        ("Hops that bind (write)", _binding_text(sheet, write)),
        (
            "Findings",
            f"{plural(counts['error'], 'error')}, {plural(counts['warning'], 'warning')}, {counts['advice']} advice",
        ),
        ("Figures", f"{FIGURE_NOTES.get(sheet.figures, sheet.figures)}, data from disk"),
        ("Design", size),
    ]
    if read.max_flow is not None:
        rows.insert(
            2, ("Max-flow cross-check", f"read {read.max_flow:,.0f} MB/s, write {(write.max_flow or 0):,.0f} MB/s")
        )
    if read.unreachable:
        rows.append(
            (
                "HBA ports without a path",
                ", ".join(label(topo, c) for c in read.unreachable[:12])
                + (f" and {len(read.unreachable) - 12} more" if len(read.unreachable) > 12 else ""),
            )
        )
    out = [
        *new_section(sheet, "Summary"),
        *plain_summary(sheet),
        key_values(sheet, rows, 0.26),
        *sheet.sub("The most important findings"),
    ]
    if not sheet.findings:
        out.append(sheet.p("No findings: the design passes every rule."))
    for f in sheet.findings[:5]:
        out.append(sheet.p(f"<b>{f.severity.capitalize()}:</b> {para(f.message)} <i>Fix:</i> {para(f.fix)}"))
    if len(sheet.findings) > 5:
        out.append(sheet.p(f"{len(sheet.findings) - 5} more in the findings section."))
    return out


def _binding_text(sheet: Sheet, result: Analysis) -> str:
    by_kind: dict[str, list[float]] = {}
    for p in result.paths:
        if p.bottleneck and p.mbps is not None:
            by_kind.setdefault(sheet.topo[p.bottleneck].kind, []).append(p.mbps)
    if not by_kind:
        return "no path has a known capacity"
    parts = []
    for kind, rates in sorted(by_kind.items(), key=lambda kv: -len(kv[1])):
        lo, hi = min(rates), max(rates)
        each = f"{lo:,.0f} MB/s each" if round(lo) == round(hi) else f"{lo:,.0f} to {hi:,.0f} MB/s each"
        parts.append(f"{kind_name(kind)} binds {plural(len(rates), 'path')} ({each})")
    return "; ".join(parts)


def findings(sheet: Sheet) -> list[Any]:
    rl = rl_api()
    out = new_section(sheet, "Findings")
    if not sheet.findings:
        return out + [sheet.p("No findings: the design passes every rule.")]
    width = sheet.portrait.width
    for f in sheet.findings:
        comps = ", ".join(label(sheet.topo, c) for c in f.components[:12])
        if len(f.components) > 12:
            comps += f" and {len(f.components) - 12} more"
        body = [sheet.p(f"<b>{escape(f.rule)}</b>: {para(f.message)}")]
        if comps:
            body.append(sheet.p(f"<i>Components:</i> {para(comps)}", "small"))
        body += [sheet.p(f"<i>Fix:</i> {para(f.fix)}"), sheet.p(f"<i>Source:</i> {para(f.source)}", "small")]
        badge = rl.Paragraph(f"<font color='white'><b>{f.severity.upper()}</b></font>", sheet.styles["small"])
        table = rl.Table([[badge, body]], colWidths=[56, width - 56], hAlign="LEFT")
        table.setStyle(
            rl.TableStyle(
                [
                    ("BACKGROUND", (0, 0), (0, 0), rl.colors.HexColor(bands.SEVERITY_COLOURS[f.severity])),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("BOX", (0, 0), (-1, -1), 0.4, rl.colors.HexColor("#b0b0b0")),
                ]
            )
        )
        out += [table, rl.Spacer(1, 6)]
    return out


# A choice, not a standard: a common self-laminating wrap-around cable label for laser printers
# whose printable area is 1 x 1.5 in (25.4 x 38.1 mm); the clear tail wraps over the print.
LABEL_STOCK = "self-laminating wrap-around cable label, printable area 38.1 x 25.4 mm (1.5 x 1 in)"
MM = 72 / 25.4
LABEL_W, LABEL_H = 38.1 * MM, 25.4 * MM


def labels(sheet: Sheet) -> list[Any]:
    """Cable labels to print: one per cable end, naming this end and the other, each cell the size of
    the :data:`LABEL_STOCK` printable area."""
    rl = rl_api()
    room = LABEL_W - 6
    cells = []
    for r in cabling_rows(sheet.topo):
        a, b = f"{r['from_device']} {r['from_port']}", f"{r['to_device']} {r['to_port']}"
        for here, there in ((a, b), (b, a)):  # plain strings, never parsed as markup
            cells.append(
                [
                    (BOLD, *fit_text(r["label"], room, 9, BOLD, rl.stringWidth)),
                    (FONT, *fit_text(f"this end: {here}", room, 7.5, FONT, rl.stringWidth)),
                    (FONT, *fit_text(f"other end: {there}", room, 7.5, FONT, rl.stringWidth)),
                ]
            )
    out = [
        *new_section(sheet, "Cable labels"),
        sheet.p(
            f"One label per cable end, each cell {LABEL_W / MM:.1f} x {LABEL_H / MM:.1f} mm: the printable area of a "
            f"{LABEL_STOCK} (a choice; cut along the lines or print onto the label sheet).",
            "small",
        ),
    ]
    if not cells:
        return out + [sheet.p("The design has no cables.")]
    cols = int(sheet.portrait.width // LABEL_W)
    return out + [rl.LabelGrid(cells, cols, LABEL_W, LABEL_H)]
