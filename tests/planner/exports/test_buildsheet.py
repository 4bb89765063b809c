"""The PDF build sheet: complete (every cable, zone and HBA slot), paged, safe with hostile text."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from planner.examples import build_example
from planner.exports import ExportError, zoning_plan
from planner.exports.buildsheet import build_sheet, document, reportlab_problem
from planner.fixtures import set_raw
from planner.model import Topology

ROOT = Path(__file__).resolve().parents[3]
SECTIONS = (
    "Summary",
    "Topology diagram",
    "Slot placement",
    "Switch port maps",
    "Cabling schedule",
    "Zoning",
    "Storage layout",
    "Paths and utilization",
    "Findings",
    "Bill of materials",
)
HOSTILE = "<b>&amp;\"q';$(reboot) `id`|x"


# -- reading the PDF without a PDF library: reportlab writes text as literal strings -----------------------

_ESCAPES = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f", b"(": b"(", b")": b")", b"\\": b"\\"}


def _literal(data: bytes, i: int) -> tuple[bytes, int]:
    """The PDF literal string starting at data[i] == '(' and the index after it."""
    out, depth, i = bytearray(), 1, i + 1
    while i < len(data):
        c = data[i : i + 1]
        if c == b"\\":
            nxt = data[i + 1 : i + 2]
            octal = re.match(rb"[0-7]{1,3}", data[i + 1 : i + 4])
            if octal:
                out.append(int(octal.group(), 8) & 0xFF)
                i += 1 + len(octal.group())
                continue
            out += _ESCAPES.get(nxt, b"" if nxt in b"\r\n" else nxt)
            i += 2
            continue
        if c == b"(":
            depth += 1
        elif c == b")":
            depth -= 1
            if depth == 0:
                return bytes(out), i + 1
        out += c
        i += 1
    raise AssertionError("unterminated PDF string")


def pdf_lines(pdf: bytes) -> list[str]:
    """The text lines of the page content streams, in drawing order (one per text object or line)."""
    lines: list[str] = []
    for stream in re.findall(rb"stream\r?\n(.*?)endstream", pdf, re.S):
        assert b"/FlateDecode" not in stream[:200]
        cur: list[str] = []
        i = 0
        while i < len(stream):
            if stream[i : i + 1] == b"(":
                text, i = _literal(stream, i)
                cur.append(text.decode("cp1252", "replace"))
                continue
            if re.match(rb"\s(ET|T\*)\s", stream[i : i + 4]):
                if cur:
                    lines.append("".join(cur))
                    cur = []
                i += 3
                continue
            i += 1
        if cur:
            lines.append("".join(cur))
    return lines


def poppler_text(path: Path) -> str | None:
    tool = shutil.which("pdftotext")
    if tool is None:
        return None
    return subprocess.run([tool, "-layout", str(path), "-"], capture_output=True, check=True).stdout.decode("utf-8")


def in_order(lines: list[str], needles: tuple[str, ...]) -> bool:
    positions = [lines.index(n) for n in needles]
    return positions == sorted(positions)


# -- fixtures -------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def one_pdf(tmp_path_factory, parts):
    topo = build_example("p690-one-drawer", parts)
    path = tmp_path_factory.mktemp("sheet") / "one.pdf"
    pages = build_sheet(topo, str(path), scenario="Base", revision="3 (saved 2026-01-01)", labels=True, compress=False)
    return topo, path, pages, pdf_lines(path.read_bytes())


@pytest.fixture(scope="module")
def bench_pdf(tmp_path_factory, parts):
    topo = build_example("p690-benchmark", parts)
    path = tmp_path_factory.mktemp("sheet") / "bench.pdf"
    pages = build_sheet(topo, str(path), compress=False, labels=False)  # labels are on by default now
    return topo, path, pages, pdf_lines(path.read_bytes())


def assert_complete(topo, path, lines):
    """Every cable label, zone (as scripted and as named) and HBA slot of the design is in the PDF."""
    text = set(lines)
    squeezed = re.sub(r"\s+", "", "".join(lines))  # a name too long for its column wraps

    def shown(name: str) -> bool:
        return name in text or re.sub(r"\s+", "", name) in squeezed

    assert [c["label"] for c in topo.of_kind("cable") if not shown(c["label"])] == []
    for plan in zoning_plan(topo):
        assert [z.name for z in plan.zones if not shown(z.name)] == []
        assert [a.name for a in plan.aliases if not shown(a.name)] == []
    after: dict[str, list[int]] = {}  # the slot column sits just left of the HBA column (which may wrap)
    for i, line in enumerate(lines[:-1]):
        after.setdefault(line, []).append(i + 1)

    def placed(hba) -> bool:
        name = re.sub(r"\s+", "", hba.label())
        for start in after.get(topo[hba.parent].label(), ()):
            cell = ""
            for line in lines[start : start + 6]:
                cell += re.sub(r"\s+", "", line)
                if cell == name:
                    return True
                if not name.startswith(cell):
                    break
        return False

    assert [h.id for h in topo.of_kind("hba") if not placed(h)] == []
    poppler = poppler_text(path)
    if poppler is not None:
        squeezed = re.sub(r"\s+", "", poppler)
        assert all(re.sub(r"\s+", "", c["label"]) in squeezed for c in topo.of_kind("cable"))
        assert all(z.name in squeezed for plan in zoning_plan(topo) for z in plan.zones)


# -- tests -------------------------------------------------------------------------------------------------------


def test_one_drawer_sheet_is_complete(one_pdf):
    topo, path, pages, lines = one_pdf
    assert_complete(topo, path, lines)
    assert path.read_bytes().startswith(b"%PDF-")


def test_every_page_has_header_and_page_x_of_y(one_pdf):
    topo, _, pages, lines = one_pdf
    assert pages == sum(1 for ln in lines if re.fullmatch(rf"Page \d+ of {pages}", ln))
    assert [ln for ln in lines if ln.startswith("Page ")] == [f"Page {n} of {pages}" for n in range(1, pages + 1)]
    assert lines.count(topo.meta["name"]) >= pages


def test_sections_come_in_order_with_the_cover_facts(one_pdf):
    topo, _, _, lines = one_pdf
    assert in_order(lines, SECTIONS + ("Cable labels",))
    for fact in (
        "IBM pSeries Benchmark Center",
        "3 (saved 2026-01-01)",
        "Base",
        "planning (the P690 paper's rules of thumb)",
    ):
        assert fact in lines
    assert "Contents" in lines


def test_summary_and_sections_carry_the_figures(one_pdf):
    _, _, _, lines = one_pdf
    assert "2,400 MB/s over 16 paths" in lines  # aggregate read, planning figures
    assert "2,280 MB/s over 16 paths" in lines  # aggregate write
    assert "0 errors, 2 warnings, 0 advice" in lines  # the WWPN placeholders and the single point of failure
    assert "SINGLE_POINT_OF_FAILURE" in " ".join(lines)
    assert "traffic between ASICs: 0 paths cross it" in lines  # the port map's backplane line
    assert "fcs0 in Slot 1 of Drawer 1" in lines  # the binding hop in the path table
    assert "this end: p690 fcs0" in lines  # a cable label


def test_benchmark_sheet_is_complete(bench_pdf):
    topo, path, pages, lines = bench_pdf
    assert_complete(topo, path, lines)
    assert in_order(lines, SECTIONS)
    assert 30 <= pages <= 80
    assert "16,800 MB/s over 112 paths" in lines
    for d in range(1, 8):  # one diagram page per drawer
        assert any(ln.startswith(f"Drawer {d} (") and "subsystems it reaches" in ln for ln in lines)


def test_letter_paper_and_landscape_diagram_pages(tmp_path, one_drawer):
    path = tmp_path / "letter.pdf"
    build_sheet(one_drawer, str(path), paper="letter", compress=False)
    data = path.read_bytes()
    assert b"/MediaBox [ 0 0 612 792 ]" in data and b"/MediaBox [ 0 0 792 612 ]" in data
    assert b"595.2756" not in data


def test_hostile_text_is_shown_literally_and_breaks_nothing(tmp_path, one_drawer):
    topo = one_drawer
    topo.meta["name"] = "Design " + HOSTILE
    topo.meta["customer"] = "<font size=40>ACME</font> & <para>"
    for cid in ("hba.d1s1", "sw1", "fastt1", "z.Z_D1_FCS0_FASTT1_A", "fab.FAB_D1", "fastt1.arr1"):
        set_raw(topo, cid, "name", f"{cid} {HOSTILE}\nline2")
    set_raw(topo, "cab1", "label", "=cmd|' /C calc'!A0")
    path = tmp_path / "hostile.pdf"
    build_sheet(topo, str(path), labels=True, compress=False)
    lines = pdf_lines(path.read_bytes())
    joined = "\n".join(lines)
    assert "Design " + HOSTILE in lines  # header, cover: markup not interpreted, quotes kept
    assert "<font size=40>ACME</font> & <para>" in lines
    assert f"sw1 {HOSTILE} line2" in joined  # the new line became a space
    squeezed = re.sub(r"\s+", "", "".join(lines))  # wrapped table cells break anywhere
    assert re.sub(r"\s+", "", f"z.Z_D1_FCS0_FASTT1_A {HOSTILE} line2") in squeezed
    assert "=cmd|' /C calc'!A0" in lines
    assert_complete(topo, path, lines)


def test_empty_design_builds(tmp_path):
    path = tmp_path / "empty.pdf"
    pages = build_sheet(Topology("empty"), str(path), compress=False)
    lines = pdf_lines(path.read_bytes())
    assert pages >= 10 and "The design has nothing to draw yet." in lines and "The design has no zones." in lines


def test_progress_goes_from_zero_to_one(tmp_path, one_drawer):
    seen: list[float] = []
    build_sheet(one_drawer, str(tmp_path / "p.pdf"), progress=lambda f, text: seen.append(f))
    assert seen[0] == 0.0 and seen[-1] == 1.0 and seen == sorted(seen) and len(seen) > 10


def test_bad_options_are_refused(tmp_path, one_drawer):
    with pytest.raises(ExportError, match="a4 or letter"):
        build_sheet(one_drawer, str(tmp_path / "x.pdf"), paper="a3")
    with pytest.raises(ExportError, match="figure set"):
        build_sheet(one_drawer, str(tmp_path / "x.pdf"), figures="typical")
    with pytest.raises(ExportError, match="cannot be written"):
        build_sheet(one_drawer, str(tmp_path / "missing" / "x.pdf"))
    assert list(tmp_path.iterdir()) == []


def test_old_reportlab_is_refused(tmp_path, one_drawer, monkeypatch):
    import reportlab

    assert reportlab_problem("3.6.13") is None and reportlab_problem("4.0.5") is None
    assert "CVE-2023-33733" in reportlab_problem("3.6.12") and reportlab_problem("3.5") is not None
    monkeypatch.setattr(reportlab, "Version", "3.6.12")
    with pytest.raises(ExportError, match="CVE-2023-33733"):
        build_sheet(one_drawer, str(tmp_path / "x.pdf"))
    assert list(tmp_path.iterdir()) == []


def test_a_failed_build_leaves_no_half_file(tmp_path, one_drawer, monkeypatch):
    target = tmp_path / "sheet.pdf"
    target.write_bytes(b"%PDF- the previous sheet")

    def broken(sheet, story, filename, compress, report):
        Path(filename).write_bytes(b"%PDF- half")
        raise MemoryError("out of memory")

    monkeypatch.setattr(document, "render", broken)
    with pytest.raises(MemoryError):
        build_sheet(one_drawer, str(target))
    assert target.read_bytes() == b"%PDF- the previous sheet"
    assert [p.name for p in tmp_path.iterdir()] == ["sheet.pdf"]


def test_planner_imports_without_loading_reportlab():
    code = "import sys, planner.exports, planner.exports.buildsheet; planner.exports.formats(); print('reportlab' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
