"""The build sheet as printed and handed over: no text under 7 pt, cables that never run through
other boxes, utilization readable in greyscale, a plain-language summary, the document block, the
installation checklist, a clickable contents page, placeholder WWPNs marked, SFPs in the bill of
materials and cable labels sized to a label stock."""

from __future__ import annotations

import re

import pytest

from planner import placement
from planner.commands import SetMeta
from planner.examples import build_datacenter, build_example, build_site
from planner.exports.buildsheet import _history, build_sheet, diagram, sections_install
from planner.exports.buildsheet.sections_overview import LABEL_H, LABEL_W, MM
from planner.exports.buildsheet.sheet import Sheet
from planner.exports.registry import ExportSource
from planner.fixtures import set_raw
from planner.io import Project, save_project
from tests.planner.exports.test_buildsheet import pdf_lines

_TF = re.compile(rb"/F\d+ ([0-9.]+) Tf")


@pytest.fixture(scope="module")
def one(tmp_path_factory, parts):
    topo = build_example("p690-one-drawer", parts)
    path = tmp_path_factory.mktemp("print") / "one.pdf"
    pages = build_sheet(topo, str(path), compress=False, history=[("1", "2026-01-01", "first draft")])
    data = path.read_bytes()
    return topo, data, pages, pdf_lines(data)


@pytest.fixture(scope="module")
def bench(tmp_path_factory, parts):
    topo = build_example("p690-benchmark", parts)
    path = tmp_path_factory.mktemp("print") / "bench.pdf"
    pages = build_sheet(topo, str(path), compress=False)
    return topo, path.read_bytes(), pages


def _font_sizes(data: bytes) -> list[float]:
    return [float(m) for m in _TF.findall(data)]


def test_no_text_under_7_points_anywhere(one, bench):
    for data in (one[1], bench[1]):
        sizes = _font_sizes(data)
        assert len(sizes) > 1000  # every text object sets its font: the check sees them all
        assert min(sizes) >= 7.0, sorted(set(s for s in sizes if s < 7))


# -- cables and boxes -------------------------------------------------------------------------------------


def _hits(p: tuple[float, float], q: tuple[float, float], rect: tuple[float, float, float, float]) -> bool:
    """Does the segment p-q touch the inside of rect (x0, y0, x1, y1)? (Liang-Barsky clipping)"""
    (x0, y0), (x1, y1) = p, q
    dx, dy = x1 - x0, y1 - y0
    lo, hi = 0.0, 1.0
    for step, room in ((-dx, x0 - rect[0]), (dx, rect[2] - x0), (-dy, y0 - rect[1]), (dy, rect[3] - y0)):
        if step == 0:
            if room < 0:
                return False
            continue
        t = room / step
        lo, hi = (max(lo, t), hi) if step < 0 else (lo, min(hi, t))
        if lo > hi:
            return False
    return True


def _crossings(sheet: Sheet, route) -> list[str]:
    """Cables whose line runs through a box that is neither of its ports nor a box around them."""
    bad = []
    for v in diagram.views(sheet):
        title, d = v.title, v.diagram
        geo = diagram._geometry(sheet, d, v.note)
        for link in (k for k in d.links if k.kind == "cable"):
            own = set()
            for end in (link.a, link.b):
                box = d.boxes.get(end)
                while box is not None:
                    own.add(box.id)
                    box = d.boxes.get(box.container) if box.container else None
            points = route(d, link, geo)
            for box in d.boxes.values():
                x, w = geo.x(box)
                inside = (x + 0.3, box.y + 0.3, x + w - 0.3, box.y + box.h - 0.3)
                if box.id not in own and any(_hits(p, q, inside) for p, q in zip(points, points[1:])):
                    bad.append(f"{title}: {link.a} - {link.b} runs through {box.id}")
    return bad


def _straight(d, link, geo):
    (xa, wa), (xc, wc) = geo.x(d.boxes[link.a]), geo.x(d.boxes[link.b])
    a, c = d.boxes[link.a], d.boxes[link.b]
    return (
        [(xa + wa, a.y + a.h / 2), (xc, c.y + c.h / 2)] if xa < xc else [(xc + wc, c.y + c.h / 2), (xa, a.y + a.h / 2)]
    )


@pytest.mark.parametrize("example", ["p690-one-drawer", "p690-benchmark"])
def test_cables_never_run_through_other_boxes(parts, example):
    sheet = Sheet(build_example(example, parts), "planning", "", "", "a4")
    assert _crossings(sheet, diagram.link_points) == []
    if example == "p690-benchmark":  # the check can fail: straight port-to-port lines cross subsystems
        assert len(_crossings(sheet, _straight)) > 10


def test_busy_and_over_boxes_are_hatched_for_greyscale():
    from reportlab.graphics.shapes import Drawing

    def lines(colour):
        drawing = Drawing(100, 100)
        diagram._hatch(drawing, 0, 0, 40, 12, colour)
        pts = [v for shape in drawing.contents for v in shape.points]
        return [tuple(pts[i : i + 4]) for i in range(0, len(pts), 4)]  # moveTo x, y, lineTo x, y

    assert lines("ok") == [] and lines(None) == []
    busy, over = lines("busy"), lines("over")
    assert busy and len(over) > len(busy)  # over: denser and crossed
    assert {(x2 - x1) * (y2 - y1) > 0 for x1, y1, x2, y2 in over} == {True, False}  # both diagonals
    for x1, y1, x2, y2 in busy + over:  # every hatch line stays inside its box
        assert all(-1e-9 <= v <= 40 + 1e-9 for v in (x1, x2)) and all(-1e-9 <= v <= 12 + 1e-9 for v in (y1, y2))


def test_utilization_is_written_as_well_as_coloured(one):
    lines = one[3]
    assert lines.count("100 %") >= 16 and "75 %" in lines  # HBA slots bind; switch ports are busy
    assert "95 % or more (binds)" in lines


# -- the opening pages ---------------------------------------------------------------------------------------


def test_summary_speaks_plain_language_with_grammar(one):
    text = " ".join(one[3])
    for lead in ("What it delivers.", "What limits it.", "What survives a failure.", "What must be fixed."):
        assert lead in text
    assert "the design reads 2,400 MB/s and writes 2,280 MB/s" in text
    assert "every path is held back by its HBA (150 MB/s each)" in text
    assert "2 warnings should be reviewed" in text
    assert "32 WWPNs are placeholders" in text
    assert re.search(r"\b1 (warnings|errors|paths|switches)\b|\bswitchs\b", text) is None


def test_contents_page_links_to_every_section(one):
    _, data, pages, lines = one
    assert lines.index("Contents") < lines.index("Summary")
    links = re.findall(rb"/Subtype /Link", data)
    assert len(links) >= 12  # a link per section and heading on the contents page
    assert b"/Outlines" in data  # and the PDF bookmarks


def test_document_block_has_status_history_and_sign_off(one, tmp_path, parts):
    lines = one[3]
    for text in ("Document control", "[X] Draft", "Revision history", "first draft", "Prepared by", "Approved by"):
        assert any(text in ln for ln in lines), text
    topo = build_example("p690-one-drawer", parts)
    SetMeta("status", "approved").do(topo)
    path = tmp_path / "approved.pdf"
    build_sheet(topo, str(path), compress=False, labels=False)
    approved = pdf_lines(path.read_bytes())
    assert "Approved" in approved and any("[X] Approved" in ln for ln in approved)
    assert any("this build sheet" in ln for ln in approved)  # no file: only its own revision


def test_revision_history_comes_from_the_sanplan_file(tmp_path, parts):
    path = tmp_path / "d.sanplan"
    project = save_project(Project.single(build_example("p690-one-drawer", parts)), path, message="first")
    project = save_project(project, path, message="HBAs moved")
    history = _history(ExportSource.of(project))
    assert [(n, note) for n, _, note in history] == [("1", "first"), ("2", "HBAs moved")]
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d", date) for _, date, _ in history)
    assert _history(ExportSource.of(build_example("p690-one-drawer", parts))) is None


def test_installation_checklist_lists_the_verifying_commands(one):
    text = " ".join(one[3])
    for cmd in ("lsdev -Cc adapter", "lscfg -vpl fcsN", "fcstat fcsN", "cfgshow", "zoneshow", "lsdev -Cc disk"):
        assert cmd in text
    assert "fget_config -Av" in text  # the example's LPAR uses RDAC
    assert "Replace the placeholder WWPNs first (32 placeholders)" in text


# -- placeholders, materials, labels -------------------------------------------------------------------------


def test_placeholder_wwpns_are_marked_with_a_footnote(one, tmp_path, parts):
    squeezed = re.sub(r"\s+", "", "".join(one[3]))
    assert squeezed.count("(placeholder)") >= 64  # slot table and zoning aliases (and the mappings)
    assert "WWPNsmarked(placeholder)weremadeupbySANplan" in squeezed
    topo = build_example("p690-one-drawer", parts)
    for p in topo.of_kind("hba_port") + topo.of_kind("host_port"):
        set_raw(topo, p.id, "wwpn_placeholder", False)
    path = tmp_path / "real.pdf"
    build_sheet(topo, str(path), compress=False, labels=False)
    assert "(placeholder)" not in "".join(pdf_lines(path.read_bytes()))


def test_bill_of_materials_counts_sfps_and_cables_by_length(parts):
    topo = build_example("p690-one-drawer", parts)
    sheet = Sheet(topo, "planning", "", "", "a4")
    sfps, notes = sections_install.sfp_count(sheet)
    # 32 cables: every switch end takes an SFP, every FAStT host port too; the FC 6239 has its optics built in
    assert sfps == {"2109-F32": 32, "FAStT600-Turbo": 16}
    assert any("estimate" in n and "FC 6239" in n for n in notes)
    for rack in topo.of_kind("rack"):  # without rack positions: the lengths entered on the cables
        for unit, _ in placement.rack_contents(topo, rack.id):
            set_raw(topo, unit.id, "rack", "")
    groups = sections_install.cable_groups(Sheet(topo, "planning", "", "", "a4"))
    assert groups == {("LC-LC OM2", "3 m (as entered)"): 16, ("LC-LC OM2", "5 m (as entered)"): 16}
    set_raw(topo, "cab1", "length_m", 0)
    assert sections_install.cable_groups(Sheet(topo, "planning", "", "", "a4"))[("LC-LC OM2", "length not set")] == 1


def test_cable_labels_are_on_by_default_and_sized_to_the_label_stock(one):
    lines = one[3]
    assert "Cable labels" in lines and "this end: p690 fcs0" in lines
    assert (round(LABEL_W / MM, 1), round(LABEL_H / MM, 1)) == (38.1, 25.4)
    assert any("38.1 x 25.4 mm" in ln for ln in lines)


# -- racks ------------------------------------------------------------------------------------------------------


def test_a_rack_elevation_page_per_rack_and_location_codes(one, parts):
    topo, _, _, lines = one
    racks = topo.of_kind("rack")
    assert racks  # the example is racked
    titles = [ln for ln in lines if any(ln.startswith(r.name + " (") for r in racks)]
    assert len(set(titles)) == len(racks) and all(titles.count(t) == 2 for t in titles)  # contents and page
    assert "p690 frame 1 (frame U1 of p690, row A, position 1, 42U, 785 mm) in Site 1" in lines
    assert "Drawer 1  U1.9" in lines and "bulk power assembly (part of the server frame)" in lines
    assert "7040-61D, 4U, front, U9-12" in lines
    # the slot table names each slot by its AIX location code, as lscfg prints it
    assert "U1.9-P1-I5" in lines and "U1.9-P2-I10" in lines


def test_cable_lengths_come_from_the_rack_positions(parts):
    sheet = Sheet(build_example("p690-one-drawer", parts), "planning", "", "", "a4")
    groups = sections_install.cable_groups(sheet)
    assert sum(groups.values()) == 32
    assert all(length.endswith("m (from rack positions)") for _, length in groups)
    rows = sections_install.rack_rows(sheet)
    assert sum(r[0] for r in rows) == len(sheet.topo.of_kind("rack"))
    assert any("frame of p690" in r[2] for r in rows) and any("rack, 42U, 600 mm wide" in r[2] for r in rows)


def test_a_part_record_without_optics_is_named_in_the_notes(parts):
    """A design saved with catalog 5 parts (no port_optics): no SFPs guessed, the note says so."""
    topo = build_example("p690-one-drawer", parts)
    for part in topo.parts.values():
        part.pop("port_optics", None)
        part.pop("port_optics_source", None)
    sfps, notes = sections_install.sfp_count(Sheet(topo, "planning", "", "", "a4"))
    assert sfps == {}
    assert any("2109-F32 does not say whether its ports take SFPs" in n for n in notes)


def _drawer_uses(sheet: Sheet, drawer) -> tuple[set[str], set[str], list]:
    """The switch ports and logical drives a drawer's cables and paths use, found independently."""
    topo = sheet.topo
    ports = {c.id for c in topo.descendants(drawer.id) if c.kind == "hba_port"}
    paths = [p for p in sheet.read.paths if p.hba_port in ports]
    used = {h for p in paths for h in p.hops if topo[h].kind == "switch_port"}
    used |= {topo.peer_port(x) for x in ports if topo.peer_port(x) and topo[topo.peer_port(x)].kind == "switch_port"}
    drives = {p.logical_drive for p in paths}
    for hm in topo.of_kind("host_mapping"):
        if ports & set(hm["hba_ports"]):
            drives |= set(hm["logical_drives"])
    return used, drives, paths


def test_a_data_centre_drawer_page_draws_only_the_ports_and_drives_it_uses(parts):
    """Hosts sharing switches and subsystems: a drawer's page drew every port of every switch and
    every LUN of the subsystem (5-13 pages a drawer); now only what the drawer uses, with a note
    that counts what was left out and says where to find it."""
    topo = build_datacenter(parts, hosts=8)
    sheet = Sheet(topo, "planning", "", "", "a4")
    drawer_views = diagram.views(sheet)[1:]
    assert len(drawer_views) == len(topo.of_kind("drawer")) == 8
    for v, drawer in zip(drawer_views, topo.of_kind("drawer")):
        used, drives, paths = _drawer_uses(sheet, drawer)
        assert paths and {c.id for c in v.topo.of_kind("switch_port")} == used
        assert {c.id for c in v.topo.of_kind("logical_drive")} == drives
        assert all(h in v.topo for p in paths for h in p.hops)  # every hop of its paths is drawn
        cabled = {
            c.id for c in topo.of_kind("cable") if {c["a"], c["b"]} & used and c["a"] in v.topo and c["b"] in v.topo
        }
        assert cabled and cabled <= {c.id for c in v.topo.of_kind("cable")}
        assert all(v.topo.children(a.id) for a in v.topo.of_kind("asic"))  # no empty ASIC drawn
        switches = v.topo.of_kind("switch")
        n_ports = sum(1 for s in switches for c in topo.descendants(s.id) if c.kind == "switch_port")
        n_drives = sum(
            1 for s in v.topo.of_kind("subsystem") for c in topo.descendants(s.id) if c.kind == "logical_drive"
        )
        assert len(used) < n_ports and len(drives) < n_drives
        assert v.note == (
            f"Only what this drawer uses is drawn: {len(used)} of its switches' {n_ports} ports (all of them: "
            f"Switch port maps) and {len(drives)} of its subsystems' {n_drives} logical drives (all of them: "
            "Storage layout)."
        )
        assert len(diagram._geometry(sheet, v.diagram, v.note).bands) <= 2


def test_the_data_centre_sheet_prints_the_note_under_each_drawer_diagram(parts, tmp_path):
    topo = build_datacenter(parts, hosts=4)
    path = tmp_path / "dc.pdf"
    pages = build_sheet(topo, str(path), compress=False)
    lines = pdf_lines(path.read_bytes())
    notes = [ln for ln in lines if ln.startswith("Only what this drawer uses is drawn: ")]
    titles = [ln for ln in lines if "its slots, switches and the" in ln and "(part " not in ln]
    parted = [ln for ln in lines if "its slots, switches and the" in ln and "(part " in ln]
    assert len(notes) == len(titles) + len(parted) >= 4  # one under each page's drawing
    assert pages < 120


def test_the_papers_drawer_pages_still_draw_every_port_and_drive(bench, parts):
    """The benchmark's drawers use every port of sw1 and every LUN: nothing is left out, no note."""
    sheet = Sheet(build_example("p690-benchmark", parts), "planning", "", "", "a4")
    for v in diagram.views(sheet)[1:]:
        topo = sheet.topo
        drawn_sw = v.topo.of_kind("switch")
        assert v.note == "" and drawn_sw
        assert len(v.topo.of_kind("switch_port")) == sum(
            1 for s in drawn_sw for c in topo.descendants(s.id) if c.kind == "switch_port"
        )
        subs = v.topo.of_kind("subsystem")
        assert len(v.topo.of_kind("logical_drive")) == sum(
            1 for s in subs for c in topo.descendants(s.id) if c.kind == "logical_drive"
        )


def test_a_subsystem_no_path_reaches_is_drawn_whole(parts):
    """Zoned but with no path (nothing mapped yet): the drawer's page draws all of its subsystem."""
    topo = build_example("p690-one-drawer", parts)
    sheet = Sheet(topo, "planning", "", "", "a4")
    sheet.read.paths.clear()
    for hm in topo.of_kind("host_mapping"):
        set_raw(topo, hm.id, "logical_drives", [])
    (v,) = diagram.views(sheet)[1:]
    assert v.topo.of_kind("subsystem")
    assert len(v.topo.of_kind("logical_drive")) == len(topo.of_kind("logical_drive")) > 0
    cabled = {topo.peer_port(c.id) for c in topo.of_kind("hba_port") if topo.peer_port(c.id)}
    assert {c.id for c in v.topo.of_kind("switch_port")} >= cabled
    assert "logical drives" not in v.note


def _strings(node):
    """Every reportlab String in a drawing, groups opened."""
    for item in getattr(node, "contents", ()):
        if type(item).__name__ == "String":
            yield item
        else:
            yield from _strings(item)


def test_the_legend_of_a_portrait_diagram_wraps_instead_of_running_off_the_page(parts):
    """A data centre's overview is drawn on a portrait page, narrower than the legend on one line:
    its last words ran off the page's edge; they go on a line of their own below, room made."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    sheet = Sheet(build_datacenter(parts, 24), "planning", "", "", "a4")
    v = diagram.views(sheet)[0]
    geo = diagram._geometry(sheet, v.diagram, v.note)
    assert geo.page.template == "portrait" and diagram._legend_width() > geo.page.width
    assert geo.foot == diagram.LEGEND_H + diagram.NOTE_H
    drawing = diagram._drawing(v.diagram, geo, geo.bands[0], {}, {})
    strings = list(_strings(drawing))
    assert all(s.x + stringWidth(s.text, s.fontName, s.fontSize) <= geo.page.width + 0.01 for s in strings)
    reads = next(s for s in strings if s.text.startswith("utilization of each part"))
    cable = next(s for s in strings if s.text == "cable")
    assert reads.x == 0 and reads.y == cable.y - diagram.NOTE_H >= 0
    one = Sheet(build_example("p690-one-drawer", parts), "planning", "", "", "a4")
    w = diagram.views(one)[0]
    wide = diagram._geometry(one, w.diagram)
    assert wide.page.template == "landscape" and wide.foot == diagram.LEGEND_H  # one line there
    on_it = list(_strings(diagram._drawing(w.diagram, wide, wide.bands[0], {}, {})))
    assert next(x for x in on_it if x.text.startswith("utilization")).y == next(x for x in on_it if x.text == "cable").y


def test_a_grid_of_subsystems_is_drawn_at_the_scale_of_a_column_of_them(parts):
    """A site's subsystems are laid out as a grid several boxes wide in one column; on paper
    that column had the width of one box, so the grid was drawn at a third of the scale of the
    other columns and the names were cut ("s1..."). It now gets as many boxes' width."""
    from planner.schema import KINDS

    spec = KINDS["subsystem"]
    sheet = Sheet(build_site(parts, 3), "planning", "", "", "a4")
    v = diagram.views(sheet)[0]
    geo = diagram._geometry(sheet, v.diagram, v.note)
    wide, paper = geo.old["subsystem"][1], geo.new["subsystem"][1]
    assert wide > 1.5 * spec.column_width  # (a grid)
    assert paper / wide >= 0.9 * spec.pdf_width * geo.sx / spec.column_width  # a column's scale
    assert geo.sx >= diagram.READABLE_SX
