"""The build sheet's scaling section: the curve with its knees named, text of 7 pt or more."""

from __future__ import annotations

from reportlab.graphics.shapes import Group, String

from planner.exports.buildsheet import build_sheet
from planner.exports.buildsheet.sections_scaling import chart, knee_kinds
from planner.exports.buildsheet.sheet import Sheet
from planner.scaling import scaling
from tests.planner.exports.test_buildsheet import in_order, pdf_lines


def _strings(node):
    """Every String of a drawing, the chart widgets' own (axis labels) included."""
    if isinstance(node, String):
        yield node
    elif isinstance(node, Group) or hasattr(node, "contents"):
        for child in node.contents:
            yield from _strings(child)
    elif hasattr(node, "draw"):
        yield from _strings(node.draw())


def test_section_in_the_sheet(tmp_path, one_drawer):
    path = tmp_path / "one.pdf"
    build_sheet(one_drawer, str(path), figures="measured", compress=False)
    lines = pdf_lines(path.read_bytes())
    assert in_order(
        lines,
        ("Paths and utilization", "Scaling: MB/s as HBAs are added", "Resilience: single failures"),
    )
    assert "Knees (3 of 3)" in lines and "7: RIO2 link binds" in lines and "8: a new planar; array binds" in lines
    assert "a hop saturates" in lines and "a new planar or drawer starts" in lines


def test_chart_text_is_readable(one_drawer):
    sheet = Sheet(one_drawer, "measured", "", "", "a4")
    result = scaling(one_drawer, "measured")
    drawing = chart(sheet, result)
    texts = list(_strings(drawing))
    assert len(texts) > 10 and min(s.fontSize for s in texts) >= 7
    assert any(s.text == "2,500" for s in texts)  # an axis label, drawn by the chart widget
    assert any(s.text == "7: RIO2 link binds" for s in texts)
    assert knee_kinds(result) == ["RIO2 link", "array"]


def test_planning_figures_have_no_knee(tmp_path, one_drawer):
    path = tmp_path / "plan.pdf"
    build_sheet(one_drawer, str(path), compress=False)
    lines = pdf_lines(path.read_bytes())
    assert "No knee: every HBA added adds the same MB/s up to the last one." in lines
