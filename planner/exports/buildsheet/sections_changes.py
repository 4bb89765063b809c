"""The build sheet's optional section "Changes from scenario X": what this design changes against
another scenario (:mod:`planner.diff`): the aggregates, the binding hops, the findings and the
bill of materials. Included when the export is given ``compare_with``."""

from __future__ import annotations

from typing import Any

from planner.diff import Diff, binding_groups, diff, hop_text
from planner.exports.buildsheet.document import para
from planner.exports.buildsheet.sheet import FIGURE_NOTES, Sheet, data_table, mbps, new_section
from planner.model import Topology
from planner.naming import label_list
from planner.rules import Finding

MAX_PATH_ROWS = 40


def changes(sheet: Sheet, name: str, old: Topology) -> list[Any]:
    """The section comparing scenario ``name`` (``old``) with the sheet's design."""
    d = diff(old, sheet.topo, sheet.figures, "disk")
    this = f"scenario {sheet.scenario}" if sheet.scenario else "this design"
    out = [
        *new_section(sheet, f"Changes from scenario {para(name)}"),
        sheet.p(
            f"What {para(this)} changes against scenario {para(name)}, both analysed with the "
            f"{FIGURE_NOTES.get(sheet.figures, sheet.figures)} figures, data from disk. Paths are matched "
            "by HBA port, host port and logical drive; findings by rule and components."
        ),
    ]
    rows = [
        (direction.capitalize(), mbps(c.old), mbps(c.new), f"{c.delta:+,.1f}") for direction, c in d.aggregate.items()
    ]
    out.append(
        data_table(
            sheet, ("Aggregate MB/s", name, "this design", "change"), rows, (0.3, 0.2, 0.2, 0.3), numeric=(1, 2, 3)
        )
    )
    out += _binding(sheet, d, old)
    out += _findings(sheet, "Findings added", d.findings_added, sheet.topo)
    out += _findings(sheet, "Findings removed", d.findings_removed, old)
    out += _parts(sheet, d, old)
    return out


def _binding(sheet: Sheet, d: Diff, old: Topology) -> list[Any]:
    out = sheet.sub("Binding hops that changed")
    if d.paths_removed or d.paths_added:
        out.append(
            sheet.p(f"Paths removed: {len(d.paths_removed)}; paths added: {len(d.paths_added)} (read analysis).")
        )
    if not d.binding_changed:
        out.append(sheet.p("No path both designs have changed its binding hop."))
        return out
    groups = [(direction.capitalize(), n, a, b) for direction, a, b, n in binding_groups(d, old, sheet.topo)]
    out.append(
        data_table(
            sheet, ("Direction", "Paths", "was bound by", "now bound by"), groups, (0.2, 0.1, 0.35, 0.35), numeric=(1,)
        )
    )
    rows = [
        (
            b.direction,
            b.path,
            f"{hop_text(old, b.old)} ({mbps(b.old_mbps)})",
            f"{hop_text(sheet.topo, b.new)} ({mbps(b.new_mbps)})",
        )
        for b in d.binding_changed[:MAX_PATH_ROWS]
    ]
    out.append(data_table(sheet, ("Dir.", "Path", "Was (MB/s)", "Now (MB/s)"), rows, (0.07, 0.37, 0.28, 0.28)))
    if len(d.binding_changed) > MAX_PATH_ROWS:
        out.append(sheet.p(f"... and {len(d.binding_changed) - MAX_PATH_ROWS} more paths."))
    return out


def _findings(sheet: Sheet, title: str, found: list[Finding], topo: Topology) -> list[Any]:
    out = sheet.sub(title)
    if not found:
        return [*out, sheet.p("None.")]
    rows = [(f.severity, f.rule, label_list(topo, f.components, limit=4, short=False), f.message) for f in found]
    out.append(data_table(sheet, ("Severity", "Rule", "Components", "Message"), rows, (0.1, 0.2, 0.25, 0.45)))
    return out


def _parts(sheet: Sheet, d: Diff, old: Topology) -> list[Any]:
    out = sheet.sub("Bill of materials: what changes")
    if not d.parts_delta and not d.cables_delta:
        return [*out, sheet.p("The same parts and cables.")]
    rows = []
    for pid, n in d.parts_delta.items():
        part = sheet.topo.parts.get(pid) or old.parts.get(pid) or {}
        rows.append((f"{n:+d}", pid, part.get("name", ""), part.get("kind", "")))
    rows += [(f"{n:+d}", "cable", key, "cable") for key, n in d.cables_delta.items()]
    out.append(data_table(sheet, ("Change", "Part", "Description", "Kind"), rows, (0.1, 0.2, 0.55, 0.15), numeric=(0,)))
    return out
