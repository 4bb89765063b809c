"""The build sheet: the PDF that leaves the sizing session.

It is the handout the customer keeps and the sheet the installer racks and cables from, so it is
complete enough to build the system from and readable by someone who never opened SANplan.
Sections, each starting on a new page, in this order:

cover (design, customer, author, date, file revision, scenario, figure set, contents) ->
summary (aggregate read and write, the hops that bind, findings by severity, the main findings) ->
topology diagram (vector; an overview with drawers, switches and subsystems collapsed, then one
page per drawer with its slots, its switches and the subsystems it reaches; parts coloured by
utilization) -> slot placement per drawer (with load against capacity of every PHB, RIO2 link and
planar) -> port map per switch (ASIC groups, backplane traffic) -> cabling schedule -> zoning per
fabric and host mappings -> storage layout -> paths and a utilization chart -> findings ->
bill of materials -> cable labels (optional).
Every page has a header (design name, section) and a footer "Page X of Y".

Safety: user text is made one line and escaped (xml.sax.saxutils.escape) before it reaches
reportlab's Paragraph markup; plain table cells and drawing strings are never parsed as markup.
reportlab older than 3.6.13 (CVE-2023-33733: code execution through crafted markup) is refused.
The PDF is written beside its target and renamed into place (:func:`planner.exports.atomic_write`).
reportlab is imported inside the functions that use it.
"""

from __future__ import annotations

import bisect
import datetime
import functools
import math
import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any
from xml.sax.saxutils import escape

from planner.analysis import Analysis, analyze
from planner.exports import ExportError, atomic_write, cabling_rows, endpoint, format_length, zoning_plan
from planner.figures import FIGURE_SETS, data_drives
from planner.layout import ROW, Box, Diagram, layout
from planner.model import Component, Topology
from planner.rules import SEVERITIES, Context, Finding, check

PAPERS = ("a4", "letter")
MIN_REPORTLAB = (3, 6, 13)  # 3.6.13 fixed CVE-2023-33733
AMBER_AT, RED_AT = 0.70, 0.95  # utilization colours: green < 70 %, amber < 95 %, red >= 95 %

MARGIN, TOP, BOTTOM = 36.0, 52.0, 44.0  # page margins (points); header and footer live in them
FONT, BOLD = "Helvetica", "Helvetica-Bold"
CELL_FONT = 7.0
CELL_PAD = 2.0
MIN_FONT, MAX_FONT = 5.0, 8.0  # diagram labels
HEADING_H = 30.0  # room a diagram page's title takes
LEGEND_H = 16.0

FIGURE_NOTES = {
    "rated": "rated (vendor design figures)",
    "measured": "measured (what the P690 paper measured)",
    "planning": "planning (the P690 paper's rules of thumb)",
}
KIND_NAMES = {
    "server": "server",
    "drawer": "drawer",
    "planar": "I/O planar",
    "rio_link": "RIO2 link",
    "phb": "PHB",
    "hba": "HBA",
    "switch_port": "switch port",
    "asic": "switch ASIC",
    "backplane": "switch backplane",
    "host_port": "host port",
    "controller": "controller",
    "subsystem": "subsystem",
    "array": "array",
}
CHART_LEVELS = (
    "hba",
    "phb",
    "rio_link",
    "planar",
    "drawer",
    "server",
    "switch_port",
    "asic",
    "backplane",
    "host_port",
    "subsystem",
    "array",
)
BOM_ORDER = ("server", "drawer", "hba", "switch", "subsystem", "enclosure", "drive")
# diagram column widths on paper (points before scaling); columns a diagram does not use are left out
PDF_COLUMN = {
    "server": 58,
    "drawer": 72,
    "planar": 52,
    "rio_link": 44,
    "phb": 84,
    "slot": 96,
    "switch": 122,
    "subsystem": 104,
    "array": 184,
    "volume_group": 168,
}
PDF_GAP = 22.0
MIN_SY = MIN_FONT / (0.6 * (ROW - 3))  # vertical scale below which leaf labels would be under MIN_FONT

PALE = {"green": "#dcf1dc", "amber": "#ffebc0", "red": "#f8cfcf", None: "#ffffff"}
STRONG = {"green": "#2e7d32", "amber": "#d98a00", "red": "#c62828", None: "#8a8a8a"}
SEVERITY_COLOURS = {"error": "#c62828", "warning": "#d98a00", "advice": "#1565c0"}


# -- reportlab ---------------------------------------------------------------------------------------


def reportlab_problem(version: str) -> str | None:
    """Why this reportlab version must not be used, or None when it is safe."""
    numbers = [int(n) for n in re.findall(r"\d+", version)[:3]]
    if tuple(numbers + [0] * (3 - len(numbers))) < MIN_REPORTLAB:
        return (
            f"reportlab {version} is older than 3.6.13 and has CVE-2023-33733 (code execution through crafted "
            "text); upgrade it: pip install 'reportlab>=4.0.5'"
        )
    return None


def _require_reportlab() -> None:
    try:
        import reportlab
    except ImportError:
        raise ExportError("the PDF build sheet needs reportlab; install it: pip install 'reportlab>=4.0.5'") from None
    problem = reportlab_problem(str(getattr(reportlab, "Version", "0")))
    if problem:
        raise ExportError(problem)


@functools.lru_cache(maxsize=1)
def _rl() -> SimpleNamespace:
    """The reportlab names the build sheet uses, plus its own flowable, canvas and document classes."""
    from reportlab.graphics.charts.barcharts import VerticalBarChart
    from reportlab.graphics.shapes import Drawing, Line, Rect, String
    from reportlab.lib import colors
    from reportlab.lib.enums import TA_RIGHT
    from reportlab.lib.pagesizes import A4, LETTER
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import (
        BaseDocTemplate,
        CondPageBreak,
        Flowable,
        Frame,
        KeepTogether,
        NextPageTemplate,
        PageBreak,
        PageTemplate,
        Paragraph,
        Spacer,
        Table,
        TableStyle,
    )

    ns = SimpleNamespace(
        VerticalBarChart=VerticalBarChart,
        Drawing=Drawing,
        Line=Line,
        Rect=Rect,
        String=String,
        colors=colors,
        TA_RIGHT=TA_RIGHT,
        A4=A4,
        LETTER=LETTER,
        ParagraphStyle=ParagraphStyle,
        stringWidth=stringWidth,
        BaseDocTemplate=BaseDocTemplate,
        CondPageBreak=CondPageBreak,
        Frame=Frame,
        KeepTogether=KeepTogether,
        NextPageTemplate=NextPageTemplate,
        PageBreak=PageBreak,
        PageTemplate=PageTemplate,
        Paragraph=Paragraph,
        Spacer=Spacer,
        Table=Table,
        TableStyle=TableStyle,
    )
    ns.Heading, ns.ContentsBox = _flowable_classes(Paragraph, Flowable)
    ns.SheetCanvas = _canvas_class(Canvas, stringWidth)
    ns.SheetDoc = _doc_class(BaseDocTemplate, ns.Heading)
    return ns


def _flowable_classes(paragraph: type, flowable: type) -> tuple[type, type]:
    class Heading(paragraph):  # type: ignore[misc, valid-type]
        """A heading that bookmarks itself; level 0 starts a section (header, contents, progress)."""

        def __init__(self, text: str, style: Any, level: int, key: str, title: str) -> None:
            super().__init__(escape(one_line(text)), style)
            self.level, self.key, self.title = level, key, one_line(title)

        def draw(self) -> None:
            canv = self.canv
            canv.bookmarkPage(self.key)
            canv.addOutlineEntry(self.title, self.key, self.level, closed=self.level > 0)
            if self.level == 0:
                canv.start_section(self.title)
            super().draw()

        def split(self, avail_width: float, avail_height: float) -> list[Any]:
            return []  # a heading moves to the next page whole

    class ContentsBox(flowable):  # type: ignore[misc, valid-type]
        """Room on the cover for the contents, filled in when the page numbers are known."""

        def __init__(self, height: float) -> None:
            super().__init__()
            self.height = height

        def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
            self.width = avail_width
            return avail_width, self.height

        def draw(self) -> None:
            x, y = self.canv.absolutePosition(0, 0)
            self.canv.sheet_contents = (x, y, self.width, self.height)

    return Heading, ContentsBox


def _canvas_class(canvas: type, string_width: Callable[..., float]) -> type:
    class SheetCanvas(canvas):  # type: ignore[misc, valid-type]
        """Keeps every page until the end, then draws header, footer "Page X of Y" and contents."""

        def __init__(self, *args: Any, header: str = "", footer: str = "", **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.sheet_pages: list[dict[str, Any]] = []
            self.sheet_section = ""
            self.sheet_sections: list[tuple[str, int]] = []
            self.sheet_contents: tuple[float, float, float, float] | None = None
            self.sheet_header, self.sheet_footer = header, footer

        def start_section(self, title: str) -> None:
            self.sheet_section = title
            self.sheet_sections.append((title, self.getPageNumber()))

        def showPage(self) -> None:  # noqa: N802 (reportlab's name)
            self.sheet_pages.append(dict(self.__dict__))
            self._startPage()

        def save(self) -> None:
            total, sections = len(self.sheet_pages), list(self.sheet_sections)
            for state in self.sheet_pages:
                self.__dict__.update(state)
                self._decorate(total, sections)
                canvas.showPage(self)
            canvas.save(self)

        def _decorate(self, total: int, sections: list[tuple[str, int]]) -> None:
            w, h = self._pagesize
            self.saveState()
            self.setStrokeColorRGB(0.6, 0.6, 0.6)
            self.setLineWidth(0.5)
            self.line(MARGIN, h - TOP + 12, w - MARGIN, h - TOP + 12)
            self.line(MARGIN, BOTTOM - 12, w - MARGIN, BOTTOM - 12)
            self.setFillColorRGB(0.3, 0.3, 0.3)
            section = self.sheet_section if self.getPageNumber() > 1 else ""
            room = w - 2 * MARGIN - string_width(section, FONT, 8) - 20
            self.setFont(BOLD, 8)
            self.drawString(MARGIN, h - TOP + 17, fit_text(self.sheet_header, room, 8, BOLD, string_width)[0])
            self.setFont(FONT, 8)
            self.drawRightString(w - MARGIN, h - TOP + 17, section)
            self.drawString(MARGIN, BOTTOM - 24, self.sheet_footer)
            self.drawRightString(w - MARGIN, BOTTOM - 24, f"Page {self.getPageNumber()} of {total}")
            if self.getPageNumber() == 1 and self.sheet_contents:
                self._contents(sections)
            self.restoreState()

        def _contents(self, sections: list[tuple[str, int]]) -> None:
            x, y, w, h = self.sheet_contents  # type: ignore[misc]
            self.setFillColorRGB(0, 0, 0)
            self.setFont(BOLD, 11)
            self.drawString(x, y + h - 12, "Contents")
            self.setFont(FONT, 9)
            for i, (title, page) in enumerate(sections):
                yy = y + h - 30 - 13 * i
                if yy < y:
                    break
                self.drawString(x + 6, yy, title)
                self.drawRightString(x + min(w, 320), yy, str(page))

    return SheetCanvas


def _doc_class(base: type, heading: type) -> type:
    class SheetDoc(base):  # type: ignore[misc, valid-type]
        """Reports progress as each section is laid out."""

        def __init__(self, filename: str, progress: Callable[[float, str], None], sections: int, **kw: Any) -> None:
            super().__init__(filename, **kw)
            self._progress, self._sections, self._done = progress, max(sections, 1), 0

        def afterFlowable(self, flowable: Any) -> None:  # noqa: N802 (reportlab's name)
            if isinstance(flowable, heading) and flowable.level == 0:
                self._done += 1
                self._progress(0.3 + 0.65 * min(self._done / self._sections, 1.0), f"laid out {flowable.title}")

    return SheetDoc


# -- text ---------------------------------------------------------------------------------------------

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]+")


def one_line(text: Any) -> str:
    """User text as one line: control characters (new lines, tabs) become one space."""
    return _CONTROL.sub(" ", "" if text is None else str(text))


def para(text: Any) -> str:
    """User text ready for a Paragraph: one line, with & < > escaped."""
    return escape(one_line(text))


def fit_text(text: str, width: float, size: float, font: str, string_width: Callable[..., float]) -> tuple[str, float]:
    """(text, font size) that fits ``width``: the size shrinks to MIN_FONT, then the text is cut
    with an ellipsis."""
    text = one_line(text)
    w = string_width(text, font, size)
    if w <= width:
        return text, size
    size = max(MIN_FONT, size * width / w) if w else size
    if string_width(text, font, size) <= width:
        return text, size
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if string_width(text[:mid] + "\u2026", font, size) <= width:
            lo = mid
        else:
            hi = mid - 1
    return (text[:lo] + "\u2026") if lo else "", size


def mbps(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def pct(util: float | None) -> str:
    return "-" if util is None else f"{util * 100:.0f} %"


def band(util: float | None) -> str | None:
    """'green', 'amber', 'red' or None (no capacity known)."""
    if util is None:
        return None
    return "red" if util >= RED_AT else "amber" if util >= AMBER_AT else "green"


def _kb(kb: float) -> str:
    return f"{kb / 1024:g} MB" if kb >= 1024 else f"{kb:g} KB"


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# -- the sheet -----------------------------------------------------------------------------------------


@dataclass
class _Page:
    width: float  # frame
    height: float
    template: str


class _Sheet:
    """Everything the sections share: the design, both analyses, the findings, styles, frames."""

    def __init__(self, topo: Topology, figures: str, scenario: str, revision: str, paper: str) -> None:
        rl = _rl()
        self.topo, self.figures, self.scenario, self.revision = topo, figures, scenario, revision
        self.read = analyze(topo, figures, "read", "disk")
        self.write = analyze(topo, figures, "write", "disk")
        self.findings: list[Finding] = check(topo, analysis=self.read)
        self.ctx = Context(topo, analysis=self.read)
        self.zoning = zoning_plan(topo)
        self.date = datetime.date.today().isoformat()
        self.pagesize = rl.A4 if paper == "a4" else rl.LETTER
        pw, ph = self.pagesize
        self.portrait = _Page(pw - 2 * MARGIN, ph - TOP - BOTTOM, "portrait")
        self.landscape = _Page(ph - 2 * MARGIN, pw - TOP - BOTTOM, "landscape")
        self.styles = _styles()
        self._keys = 0
        self.sections = 0

    @property
    def name(self) -> str:
        return one_line(self.topo.meta.get("name", "")) or "Untitled design"

    def heading(self, text: str, level: int = 1, title: str | None = None) -> Any:
        """A heading flowable; level 0 starts a section (bookmark, header, contents)."""
        self._keys += 1
        style = self.styles["h1"] if level == 0 else self.styles["h2"]
        if level == 0:
            self.sections += 1
        return _rl().Heading(text, style, level, f"k{self._keys}", title or text)

    def sub(self, text: str) -> list[Any]:
        """A sub-heading that is never left alone at the foot of a page."""
        return [_rl().CondPageBreak(90), self.heading(text)]

    def p(self, text: str, style: str = "body") -> Any:
        """A Paragraph of text that is already markup-safe (use :func:`para` on user text)."""
        return _rl().Paragraph(text, self.styles[style])

    def label(self, cid: str | None) -> str:
        return self.ctx.label(cid) if cid else ""

    def util(self, cid: str, analysis: Analysis | None = None) -> float | None:
        ld = (analysis or self.read).components.get(cid)
        return ld.utilization if ld is not None else None

    def load_text(self, cid: str, analysis: Analysis) -> str:
        ld = analysis.components.get(cid)
        if ld is None or ld.capacity is None:
            return "-"
        return f"{ld.load:,.0f} / {ld.capacity:,.0f}"


def _styles() -> dict[str, Any]:
    rl = _rl()
    ps = rl.ParagraphStyle
    body = ps("body", fontName=FONT, fontSize=8.5, leading=11, spaceAfter=4)
    return {
        "body": body,
        "small": ps("small", parent=body, fontSize=7.5, leading=9.5, spaceAfter=2),
        "cell": ps("cell", fontName=FONT, fontSize=CELL_FONT, leading=CELL_FONT + 1.5),
        "cell_any": ps("cell_any", fontName=FONT, fontSize=CELL_FONT, leading=CELL_FONT + 1.5, wordWrap="CJK"),
        "cell_right": ps(
            "cell_right", fontName=FONT, fontSize=CELL_FONT, leading=CELL_FONT + 1.5, alignment=rl.TA_RIGHT
        ),
        "title": ps("title", fontName=BOLD, fontSize=26, leading=32, spaceAfter=6),
        "subtitle": ps("subtitle", fontName=FONT, fontSize=15, leading=19, spaceAfter=18),
        "h1": ps("h1", fontName=BOLD, fontSize=15, leading=19, spaceAfter=8),
        "h2": ps("h2", fontName=BOLD, fontSize=10.5, leading=13, spaceBefore=8, spaceAfter=4),
        "label": ps("label", fontName=BOLD, fontSize=9, leading=11),
        "label_small": ps("label_small", fontName=FONT, fontSize=6.5, leading=8),
    }


def _table(
    sheet: _Sheet,
    header: Sequence[str],
    rows: Iterable[Sequence[Any]],
    widths: Sequence[float],
    *,
    numeric: Iterable[int] = (),
    cells: Iterable[tuple] = (),
    zebra: bool = True,
) -> Any:
    """Rows of plain values -> a styled Table that splits over pages with its header repeated.

    ``widths`` are fractions of the portrait frame width. Text that does not fit its column
    becomes an escaped, wrapped Paragraph (breaking anywhere when one word is too long);
    everything else stays a plain string, which reportlab never parses as markup. ``numeric``
    columns are right-aligned; ``cells`` are extra TableStyle commands with row numbers counted
    from the first data row.
    """
    rl = _rl()
    numeric = set(numeric)
    points = [w * sheet.portrait.width for w in widths]
    data = [[_cell(sheet, h, points[i], header=True) for i, h in enumerate(header)]]
    data += [[_cell(sheet, v, points[i], right=i in numeric) for i, v in enumerate(row)] for row in rows]
    style = [
        ("FONT", (0, 0), (-1, -1), FONT, CELL_FONT, CELL_FONT + 1.5),
        ("FONT", (0, 0), (-1, 0), BOLD, CELL_FONT, CELL_FONT + 1.5),
        ("BACKGROUND", (0, 0), (-1, 0), rl.colors.HexColor("#37474f")),
        ("TEXTCOLOR", (0, 0), (-1, 0), rl.colors.white),
        ("GRID", (0, 0), (-1, -1), 0.25, rl.colors.HexColor("#b0b0b0")),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LEFTPADDING", (0, 0), (-1, -1), CELL_PAD),
        ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PAD),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
    ]
    style += [("ALIGN", (i, 1), (i, -1), "RIGHT") for i in sorted(numeric)]
    if zebra:
        style.append(("ROWBACKGROUNDS", (0, 1), (-1, -1), [rl.colors.white, rl.colors.HexColor("#f3f5f7")]))
    for cmd in cells:
        name, (c0, r0), (c1, r1), *rest = cmd
        style.append((name, (c0, r0 + 1), (c1, r1 + 1 if r1 >= 0 else r1), *rest))
    table = rl.Table(data, colWidths=points, repeatRows=1, hAlign="LEFT")
    table.setStyle(rl.TableStyle(style))
    return table


def _cell(sheet: _Sheet, value: Any, width: float, header: bool = False, right: bool = False) -> Any:
    rl = _rl()
    text = one_line(value)
    font = BOLD if header else FONT
    room = width - 2 * CELL_PAD - 0.5
    if rl.stringWidth(text, font, CELL_FONT) <= room:
        return text
    too_long = any(rl.stringWidth(word, font, CELL_FONT) > room for word in text.split())
    style = sheet.styles["cell_any" if too_long else "cell_right" if right else "cell"]
    markup = escape(text)
    return rl.Paragraph(f"<b>{markup}</b>" if header else markup, style)


def _util_cells(column: int, utils: Sequence[float | None]) -> list[tuple]:
    """Background colours for a column of utilizations (data rows)."""
    rl = _rl()
    return [
        ("BACKGROUND", (column, i), (column, i), rl.colors.HexColor(PALE[band(u)]))
        for i, u in enumerate(utils)
        if band(u) is not None
    ]


def _key_values(sheet: _Sheet, rows: Sequence[tuple[str, str]], key_width: float = 0.22) -> Any:
    """A two-column table without header: bold key, wrapped (escaped) value."""
    rl = _rl()
    data = [
        [rl.Paragraph(f"<b>{escape(k)}</b>", sheet.styles["body"]), rl.Paragraph(para(v), sheet.styles["body"])]
        for k, v in rows
    ]
    w = sheet.portrait.width
    table = rl.Table(data, colWidths=[key_width * w, (1 - key_width) * w], hAlign="LEFT")
    table.setStyle(
        rl.TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LINEBELOW", (0, 0), (-1, -1), 0.25, rl.colors.HexColor("#cccccc")),
                ("LEFTPADDING", (0, 0), (-1, -1), 2),
                ("TOPPADDING", (0, 0), (-1, -1), 2),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
            ]
        )
    )
    return table


def _start(sheet: _Sheet, title: str, template: str = "portrait") -> list[Any]:
    """A new section: page template, page break, section heading."""
    rl = _rl()
    return [rl.NextPageTemplate(template), rl.PageBreak(), sheet.heading(title, 0)]


# -- sections ---------------------------------------------------------------------------------------


def _cover(sheet: _Sheet, paper: str) -> list[Any]:
    rl = _rl()
    meta = sheet.topo.meta
    rows = [
        ("Design", sheet.name),
        ("Customer", meta.get("customer", "") or "-"),
        ("Author", meta.get("author", "") or "-"),
        ("Date", sheet.date),
        ("File revision", sheet.revision or "unsaved"),
        ("Scenario", sheet.scenario or "-"),
        ("Figure set", FIGURE_NOTES.get(sheet.figures, sheet.figures)),
        ("Paper", paper.upper() if paper == "a4" else "Letter"),
    ]
    note = (
        "Bandwidth in MB/s (1,000,000 bytes per second, as in the P690 paper). Loads are what every path gets "
        "when all run at once; utilization is load against the part's capacity in the chosen figure set: "
        "green below 70 %, amber below 95 %, red at 95 % or more (the hop that binds)."
    )
    return [
        rl.Spacer(1, 30),
        sheet.p("SANplan build sheet", "title"),
        sheet.p(para(sheet.name), "subtitle"),
        _key_values(sheet, rows),
        rl.Spacer(1, 10),
        sheet.p(note, "small"),
        rl.Spacer(1, 14),
        rl.ContentsBox(16 * 13 + 24),
    ]


def _summary(sheet: _Sheet) -> list[Any]:
    read, write = sheet.read, sheet.write
    counts = {s: sum(1 for f in sheet.findings if f.severity == s) for s in SEVERITIES}
    topo = sheet.topo
    size = ", ".join(
        _count(len(topo.of_kind(k)), w)
        for k, w in (
            ("drawer", "drawer"),
            ("hba", "HBA"),
            ("switch", "switch"),
            ("subsystem", "subsystem"),
            ("array", "array"),
            ("cable", "cable"),
            ("zone", "zone"),
        )
    )
    rows = [
        ("Aggregate read", f"{read.aggregate:,.0f} MB/s over {_count(len(read.paths), 'path')}"),
        ("Aggregate write", f"{write.aggregate:,.0f} MB/s over {_count(len(write.paths), 'path')}"),
        ("Hops that bind (read)", _binding_text(sheet, read)),
        ("Hops that bind (write)", _binding_text(sheet, write)),
        ("Findings", f"{counts['error']} errors, {counts['warning']} warnings, {counts['advice']} advice"),
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
                ", ".join(sheet.label(c) for c in read.unreachable[:12])
                + (f" and {len(read.unreachable) - 12} more" if len(read.unreachable) > 12 else ""),
            )
        )
    out = [*_start(sheet, "Summary"), _key_values(sheet, rows, 0.26), *sheet.sub("The most important findings")]
    if not sheet.findings:
        out.append(sheet.p("No findings: the design passes every rule."))
    for f in sheet.findings[:5]:
        out.append(sheet.p(f"<b>{f.severity.capitalize()}:</b> {para(f.message)} <i>Fix:</i> {para(f.fix)}"))
    if len(sheet.findings) > 5:
        out.append(sheet.p(f"{len(sheet.findings) - 5} more in the findings section."))
    return out


def _binding_text(sheet: _Sheet, result: Analysis) -> str:
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
        parts.append(f"{KIND_NAMES.get(kind, kind)} binds {_count(len(rates), 'path')} ({each})")
    return "; ".join(parts)


# -- slot placement -----------------------------------------------------------------------------------


def _slots(sheet: _Sheet) -> list[Any]:
    topo = sheet.topo
    out = _start(sheet, "Slot placement")
    drawers = topo.of_kind("drawer")
    if not drawers:
        out.append(sheet.p("The design has no I/O drawers."))
    for drawer in drawers:
        out += _drawer_slots(sheet, drawer)
    return out


def _drawer_slots(sheet: _Sheet, drawer: Component) -> list[Any]:
    topo = sheet.topo
    part = topo.part_of(drawer) or {}
    where = ", ".join(x for x in (drawer["location"], part.get("id", "")) if x)
    rows, utils, loads = [], [], []
    for slot in (c for c in topo.descendants(drawer.id) if c.kind == "slot"):
        phb, link = topo.get(slot.parent), topo.ancestor(slot.id, "rio_link")
        planar = topo.ancestor(slot.id, "planar")
        hba = next(iter(topo.children(slot.id, "hba")), None)
        ports = topo.children(hba.id, "hba_port") if hba else []
        owner = topo.get(hba["lpar"]) if hba is not None and hba["lpar"] else None
        rows.append(
            [
                planar.label() if planar else "",
                link.label() if link else "",
                phb.label() if phb else "",
                slot.label(),
                hba.label() if hba else "(empty)",
                (hba.part or "") if hba else "",
                owner.label() if owner else "",
                ", ".join(p["wwpn"] for p in ports if p["wwpn"]),
                sheet.load_text(hba.id, sheet.read) if hba else "",
                pct(sheet.util(hba.id)) if hba else "",
            ]
        )
        utils.append(sheet.util(hba.id) if hba else None)
    for c in [drawer, *(c for c in topo.descendants(drawer.id) if c.kind in ("planar", "rio_link", "phb"))]:
        loads.append(c)
    head = ("Planar", "RIO2 link", "PHB", "Slot", "HBA", "Part", "LPAR", "WWPN", "Read MB/s of cap.", "Util")
    widths = (0.08, 0.07, 0.15, 0.07, 0.08, 0.07, 0.07, 0.19, 0.13, 0.07)
    title = f"{drawer.label()}" + (f" ({where})" if where else "")
    rl = _rl()
    return [
        rl.KeepTogether(
            [
                sheet.heading(title),
                _table(sheet, head, rows, widths, numeric=(8, 9), cells=_util_cells(9, utils)),
                rl.Spacer(1, 6),
                _load_table(sheet, loads),
                rl.Spacer(1, 10),
            ]
        )
    ]


def _load_table(sheet: _Sheet, comps: Sequence[Component]) -> Any:
    """Load against capacity of I/O parts, read and write."""
    hbas = sheet.ctx.hbas_under
    rows, ur, uw = [], [], []
    for c in comps:
        depth = {"drawer": 0, "planar": 1, "rio_link": 2, "phb": 3}.get(c.kind, 0)
        name = "    " * depth + (
            c.label() if c.kind != "rio_link" else f"{c.label()} of {sheet.topo[c.parent].label()}"
        )
        r, w = sheet.util(c.id, sheet.read), sheet.util(c.id, sheet.write)
        rows.append(
            [
                name,
                KIND_NAMES.get(c.kind, c.kind),
                len(hbas.get(c.id, ())),
                sheet.load_text(c.id, sheet.read),
                pct(r),
                sheet.load_text(c.id, sheet.write),
                pct(w),
            ]
        )
        ur.append(r)
        uw.append(w)
    head = ("Part", "Level", "HBAs", "Read MB/s of capacity", "Read util", "Write MB/s of capacity", "Write util")
    widths = (0.26, 0.12, 0.07, 0.17, 0.1, 0.18, 0.1)
    return _table(sheet, head, rows, widths, numeric=(2, 3, 4, 5, 6), cells=_util_cells(4, ur) + _util_cells(6, uw))


# -- switches -----------------------------------------------------------------------------------------


def _crossings(sheet: _Sheet) -> dict[str, dict[str, str]]:
    """Switch port id -> {other switch port id: 'ASIC n' or 'backplane'} from the read paths."""
    topo, out = sheet.topo, {}
    for p in sheet.read.paths:
        hops = p.hops
        for i in range(1, len(hops) - 1):
            mid = topo[hops[i]]
            if mid.kind in ("asic", "backplane") and topo[hops[i - 1]].kind == "switch_port":
                via = mid.label() if mid.kind == "asic" else "backplane"
                a, b = hops[i - 1], hops[i + 1]
                out.setdefault(a, {})[b] = via
                out.setdefault(b, {})[a] = via
    return out


def _switches(sheet: _Sheet) -> list[Any]:
    out = _start(sheet, "Switch port maps")
    switches = sheet.topo.of_kind("switch")
    if not switches:
        out.append(sheet.p("The design has no switches."))
    crossings = _crossings(sheet)
    for i, sw in enumerate(switches):
        if i:
            out.append(_rl().CondPageBreak(0.45 * sheet.portrait.height))
        out += _switch_map(sheet, sw, crossings)
    return out


def _switch_map(sheet: _Sheet, sw: Component, crossings: dict[str, dict[str, str]]) -> list[Any]:
    topo = sheet.topo
    fabric = topo.get(sw["fabric"]) if sw["fabric"] else None
    title = f"{sw.label()}: fabric {fabric.label() if fabric else '(none)'}, domain {sw['domain_id']}" + (
        f", {sw.part}" if sw.part else ""
    )
    asics = topo.children(sw.id, "asic")
    groups = [(a, topo.children(a.id, "switch_port")) for a in asics]
    summary = []
    for a, ports in groups:
        numbers = [p["index"] for p in ports]
        span = f"{min(numbers)}-{max(numbers)}" if numbers else "-"
        summary.append(
            [
                a.label(),
                span,
                sheet.load_text(a.id, sheet.read),
                pct(sheet.util(a.id)),
                "traffic between two ports of this ASIC",
            ]
        )
    utils = [sheet.util(a.id) for a, _ in groups]
    for bp in topo.children(sw.id, "backplane"):
        n = sum(1 for p in sheet.read.paths if bp.id in p.hops)
        summary.append(
            [
                "Backplane",
                "all",
                sheet.load_text(bp.id, sheet.read),
                pct(sheet.util(bp.id)),
                f"traffic between ASICs: {_count(n, 'path')} cross it",
            ]
        )
        utils.append(sheet.util(bp.id))
    head = ("ASIC", "Ports", "Read MB/s of capacity", "Util", "Carries")
    summary_table = _table(
        sheet, head, summary, (0.12, 0.1, 0.2, 0.1, 0.48), numeric=(2, 3), cells=_util_cells(3, utils)
    )
    return [
        sheet.heading(title),
        summary_table,
        _rl().Spacer(1, 5),
        _port_table(sheet, groups, crossings),
        _rl().Spacer(1, 8),
    ]


def _port_table(
    sheet: _Sheet, groups: list[tuple[Component, list[Component]]], crossings: dict[str, dict[str, str]]
) -> Any:
    rl = _rl()
    topo = sheet.topo
    rows, utils, cells = [], [], []
    for g, (asic, ports) in enumerate(groups):
        first = len(rows)
        for port in ports:
            peer = topo.peer_port(port.id)
            device, name = endpoint(topo, peer) if peer else ("", "")
            cable = topo.cable_at(port.id)
            talks = crossings.get(port.id, {})
            shown = [f"port {topo[o]['index']} ({via})" for o, via in list(talks.items())[:3]]
            if len(talks) > 3:
                shown.append(f"and {len(talks) - 3} more")
            rows.append(
                [
                    asic.label(),
                    port["index"],
                    device or "(free)",
                    name,
                    cable["label"] if cable else "",
                    ", ".join(shown),
                    mbps(sheet.read.components[port.id].load) if port.id in sheet.read.components else "-",
                    pct(sheet.util(port.id)),
                ]
            )
            utils.append(sheet.util(port.id))
        if g % 2 and rows[first:]:
            cells.append(("BACKGROUND", (0, first), (-1, len(rows) - 1), rl.colors.HexColor("#e8eef6")))
        if g:
            cells.append(("LINEABOVE", (0, first), (-1, first), 1.2, rl.colors.HexColor("#37474f")))
    head = ("ASIC", "Port", "Plugs into", "Device port", "Cable", "Talks to (through)", "Read MB/s", "Util")
    widths = (0.09, 0.06, 0.12, 0.1, 0.17, 0.27, 0.1, 0.08)
    return _table(sheet, head, rows, widths, numeric=(1, 6, 7), cells=cells + _util_cells(7, utils), zebra=False)


# -- cabling, zoning, storage -------------------------------------------------------------------------


def _cabling(sheet: _Sheet) -> list[Any]:
    rows = [
        [
            r["label"],
            r["from_device"],
            r["from_port"],
            r["to_device"],
            r["to_port"],
            r["fabric"],
            format_length(r["length_m"]) or "-",
            r["media"],
        ]
        for r in cabling_rows(sheet.topo)
    ]
    head = ("Cable label", "From device", "From port", "To device", "To port", "Fabric", "Length (m)", "Media")
    widths = (0.2, 0.12, 0.12, 0.12, 0.1, 0.12, 0.09, 0.13)
    out = [
        *_start(sheet, "Cabling schedule"),
        sheet.p(
            f"{_count(len(rows), 'cable')}, in design order. Each end is named as racked: the server and "
            "its adapter, the switch and its port number, the subsystem and its controller port."
        ),
    ]
    if rows:
        out.append(_table(sheet, head, rows, widths, numeric=(6,)))
    return out


def _zoning(sheet: _Sheet) -> list[Any]:
    out = _start(sheet, "Zoning")
    out.append(
        sheet.p(
            "Names as the exported Brocade and Cisco scripts use them (letters, digits and _ only). "
            "Each fabric's configuration holds all its zones."
        )
    )
    if not sheet.zoning:
        out.append(sheet.p("The design has no zones."))
    for plan in sheet.zoning:
        out.append(_rl().KeepTogether(_fabric_zoning(sheet, plan)))  # a fabric per page when it fits
    out += [*sheet.sub("Host mappings (partitions)"), _mappings(sheet)]
    return out


def _fabric_zoning(sheet: _Sheet, plan: Any) -> list[Any]:
    topo = sheet.topo
    title = f"Fabric {plan.name}: configuration {plan.config}, {_count(len(plan.zones), 'zone')}"
    rows = []
    for a in plan.aliases:
        device, port = endpoint(topo, a.port)
        peer = topo.peer_port(a.port)
        where = " ".join(endpoint(topo, peer)) if peer else "(not cabled)"
        rows.append([a.name, a.wwpn, device, port, where])
    out = [sheet.heading(title)]
    if plan.design_name != plan.name:
        out.append(sheet.p(f"In the design: {para(plan.design_name)}", "small"))
    out.append(_table(sheet, ("Alias", "WWPN", "Device", "Port", "Cabled to"), rows, (0.34, 0.22, 0.16, 0.1, 0.18)))
    out.append(_rl().Spacer(1, 5))
    renamed = any(z.name != z.design_name for z in plan.zones)
    zrows = [
        [z.name, ", ".join(z.members)] + ([z.design_name if z.name != z.design_name else ""] if renamed else [])
        for z in plan.zones
    ]
    head = ("Zone", "Members (aliases)") + (("Name in the design",) if renamed else ())
    widths = (0.4, 0.6) if not renamed else (0.4, 0.34, 0.26)
    out.append(_table(sheet, head, zrows, widths))
    if plan.skipped:
        out.append(sheet.p("Left out of the scripts: " + "; ".join(para(n) for n in plan.skipped) + ".", "small"))
    return out


def _mappings(sheet: _Sheet) -> Any:
    topo = sheet.topo
    rows = []
    for m in topo.of_kind("host_mapping"):
        sub = topo.ancestor(m.id, "subsystem")
        ports = [topo.get(p) for p in m["hba_ports"]]
        lds = [topo.get(x) for x in m["logical_drives"]]
        rows.append(
            [
                sub.label() if sub else "",
                m.label(),
                ", ".join(f"{endpoint(topo, p.id)[1]} ({p['wwpn'] or 'no WWPN'})" for p in ports if p is not None),
                ", ".join(f"{ld.label()} ({ld['size_gb']:,.0f} GB)" for ld in lds if ld is not None),
            ]
        )
    if not rows:
        return sheet.p("The design has no host mappings.")
    return _table(sheet, ("Subsystem", "Mapping", "HBA ports (WWPN)", "Logical drives"), rows, (0.12, 0.16, 0.44, 0.28))


def _storage(sheet: _Sheet) -> list[Any]:
    topo = sheet.topo
    rows = []
    for sub in topo.of_kind("subsystem"):
        for arr in topo.children(sub.id, "array"):
            n = len(arr["drives"])
            stripe = arr["segment_kb"] * data_drives(arr["raid_level"], n)
            base = [sub.label(), arr.label(), f"RAID {arr['raid_level']}", n, _kb(arr["segment_kb"]), _kb(stripe)]
            lds = topo.children(arr.id, "logical_drive")
            for ld in lds or [None]:
                owner = topo.get(ld["owner"]) if ld is not None and ld["owner"] else None
                rows.append(
                    base
                    + (
                        [ld.label(), ld["lun"], f"{ld['size_gb']:,.0f}", owner.label() if owner else "-"]
                        if ld is not None
                        else ["(none)", "", "", ""]
                    )
                )
    head = (
        "Subsystem",
        "Array",
        "RAID",
        "Drives",
        "Segment",
        "Full stripe",
        "Logical drive",
        "LUN",
        "Size (GB)",
        "Owner",
    )
    widths = (0.1, 0.2, 0.07, 0.06, 0.08, 0.09, 0.1, 0.05, 0.08, 0.17)
    out = [*_start(sheet, "Storage layout"), *sheet.sub("Arrays and logical drives")]
    out.append(
        _table(sheet, head, rows, widths, numeric=(3, 4, 5, 7, 8)) if rows else sheet.p("The design has no arrays.")
    )
    vgs = [
        [topo[vg.parent].label(), vg.label(), vg["vg_type"], _kb(vg["ltg_kb"]), f"{vg['pp_mb']} MB", len(vg["pvs"])]
        for vg in topo.of_kind("volume_group")
    ]
    out += sheet.sub("Volume groups")
    out.append(
        _table(
            sheet,
            ("LPAR", "Volume group", "Type", "LTG", "PP size", "PVs"),
            vgs,
            (0.16, 0.24, 0.14, 0.14, 0.16, 0.1),
            numeric=(3, 4, 5),
        )
        if vgs
        else sheet.p("The design has no volume groups.")
    )
    lvs = []
    for lv in topo.of_kind("logical_volume"):
        wl = topo.children(lv.id, "workload")
        work = ", ".join(f"{w['purpose']}, {_kb(w['request_kb'])} requests, {w['read_pct']:g} % read" for w in wl)
        lvs.append(
            [
                topo[lv.parent].label(),
                lv.label(),
                _kb(lv["stripe_kb"]) if lv["stripe_kb"] else "not striped",
                lv["width"] or "-",
                f"{lv['size_gb']:,.0f}",
                work,
            ]
        )
    out += sheet.sub("Logical volumes")
    out.append(
        _table(
            sheet,
            ("Volume group", "Logical volume", "Stripe size", "Width", "Size (GB)", "Workload"),
            lvs,
            (0.14, 0.16, 0.12, 0.08, 0.1, 0.4),
            numeric=(2, 3, 4),
        )
        if lvs
        else sheet.p("The design has no logical volumes.")
    )
    return out


# -- paths, findings, bill of materials, labels ---------------------------------------------------------


def _paths(sheet: _Sheet) -> list[Any]:
    topo = sheet.topo
    write = {p.id: p for p in sheet.write.paths}
    rows = []
    for n, p in enumerate(sheet.read.paths, 1):
        hba = topo.get(topo[p.hba_port].parent)
        slot = topo.get(hba.parent) if hba is not None else None
        drawer = topo.ancestor(p.hba_port, "drawer")
        sub = topo.ancestor(p.host_port, "subsystem")
        wp = write.get(p.id)
        rows.append(
            [
                n,
                hba.label() if hba else p.hba_port,
                ", ".join(x.label() for x in (drawer, slot) if x is not None),
                _switch_hops(topo, p.hops),
                " ".join(endpoint(topo, p.host_port)),
                f"{topo[p.logical_drive].label()} on {sub.label() if sub else ''}",
                mbps(p.mbps),
                mbps(wp.mbps if wp else None),
                sheet.label(p.bottleneck) or "-",
            ]
        )
    head = (
        "#",
        "HBA",
        "Drawer, slot",
        "Switch ports",
        "Storage port",
        "Logical drive",
        "Read MB/s",
        "Write MB/s",
        "Binding hop (read)",
    )
    widths = (0.04, 0.07, 0.13, 0.15, 0.1, 0.14, 0.08, 0.08, 0.21)
    out = [
        *_start(sheet, "Paths and utilization"),
        *sheet.sub("Utilization by hop level"),
        _chart(sheet),
        _level_table(sheet),
        *sheet.sub(f"Paths ({len(rows)})"),
    ]
    out.append(
        _table(sheet, head, rows, widths, numeric=(0, 6, 7)) if rows else sheet.p("The design has no complete path.")
    )
    return out


def _switch_hops(topo: Topology, hops: Sequence[str]) -> str:
    """'sw1: 0 > 1 (ASIC 0)' for each switch a path crosses."""
    parts = []
    for i in range(1, len(hops) - 1):
        mid = topo[hops[i]]
        if mid.kind in ("asic", "backplane") and topo[hops[i - 1]].kind == "switch_port":
            sw = topo.ancestor(mid.id, "switch")
            a, b = topo[hops[i - 1]], topo[hops[i + 1]]
            parts.append(
                f"{sw.label() if sw else ''}: {a['index']} > {b['index']} ({mid.label() if mid.kind == 'asic' else 'backplane'})"
            )
    return "; ".join(parts)


def _level_stats(result: Analysis) -> dict[str, tuple[int, Any]]:
    """Hop level -> (parts with a capacity, the busiest part's Load)."""
    out: dict[str, tuple[int, Any]] = {}
    for ld in result.components.values():
        if ld.kind not in CHART_LEVELS or not ld.capacity:
            continue
        n, top = out.get(ld.kind, (0, None))
        out[ld.kind] = (n + 1, ld if top is None or (ld.utilization or 0) > (top.utilization or 0) else top)
    return out


def _chart(sheet: _Sheet) -> Any:
    rl = _rl()
    read, write = _level_stats(sheet.read), _level_stats(sheet.write)
    levels = [k for k in CHART_LEVELS if k in read]
    width, height = sheet.portrait.width, 190.0
    d = rl.Drawing(width, height)
    if not levels:
        d.add(rl.String(0, height / 2, "No part carries a load with a known capacity.", fontName=FONT, fontSize=9))
        return d
    data = [
        [100 * (read[k][1].utilization or 0) for k in levels],
        [100 * ((write[k][1].utilization or 0) if k in write else 0) for k in levels],
    ]
    top = max(100.0, math.ceil(max(max(r) for r in data) / 20) * 20)
    chart = rl.VerticalBarChart()
    chart.x, chart.y, chart.width, chart.height = 36, 42, width - 50, height - 62
    chart.data = data
    chart.valueAxis.valueMin, chart.valueAxis.valueMax, chart.valueAxis.valueStep = 0, top, 20
    chart.valueAxis.labels.fontName, chart.valueAxis.labels.fontSize = FONT, 7
    chart.valueAxis.labelTextFormat = "%d %%"
    chart.categoryAxis.categoryNames = [KIND_NAMES[k] for k in levels]
    chart.categoryAxis.labels.fontName, chart.categoryAxis.labels.fontSize = FONT, 7
    chart.categoryAxis.labels.angle, chart.categoryAxis.labels.boxAnchor = 25, "ne"
    chart.bars[0].fillColor = rl.colors.HexColor("#4f7cac")
    chart.bars[1].fillColor = rl.colors.HexColor("#e39b4b")
    chart.barSpacing, chart.groupSpacing = 1, 8
    d.add(chart)
    for limit, colour in ((AMBER_AT, STRONG["amber"]), (RED_AT, STRONG["red"])):
        y = chart.y + chart.height * limit * 100 / top
        d.add(
            rl.Line(
                chart.x,
                y,
                chart.x + chart.width,
                y,
                strokeColor=rl.colors.HexColor(colour),
                strokeWidth=0.7,
                strokeDashArray=[3, 2],
            )
        )
    x = chart.x
    for text, colour in (("read", "#4f7cac"), ("write", "#e39b4b"), ("70 %", STRONG["amber"]), ("95 %", STRONG["red"])):
        d.add(rl.Rect(x, height - 10, 8, 6, fillColor=rl.colors.HexColor(colour), strokeColor=None))
        d.add(rl.String(x + 11, height - 10, text, fontName=FONT, fontSize=7))
        x += 50
    d.add(rl.String(x + 10, height - 10, "highest utilization at each hop level", fontName=FONT, fontSize=7))
    return d


def _level_table(sheet: _Sheet) -> Any:
    read, write = _level_stats(sheet.read), _level_stats(sheet.write)
    rows, ur, uw = [], [], []
    for k in (k for k in CHART_LEVELS if k in read):
        n, top = read[k]
        wtop = write.get(k, (0, None))[1]
        rows.append(
            [
                KIND_NAMES[k],
                n,
                sheet.label(top.id),
                f"{top.load:,.0f} / {top.capacity:,.0f}",
                pct(top.utilization),
                pct(wtop.utilization if wtop else None),
            ]
        )
        ur.append(top.utilization)
        uw.append(wtop.utilization if wtop else None)
    head = ("Hop level", "Parts", "Busiest part (read)", "Read MB/s of capacity", "Read util", "Write util (busiest)")
    return _table(
        sheet,
        head,
        rows,
        (0.14, 0.07, 0.37, 0.16, 0.1, 0.16),
        numeric=(1, 3, 4, 5),
        cells=_util_cells(4, ur) + _util_cells(5, uw),
    )


def _findings(sheet: _Sheet) -> list[Any]:
    rl = _rl()
    out = _start(sheet, "Findings")
    if not sheet.findings:
        return out + [sheet.p("No findings: the design passes every rule.")]
    width = sheet.portrait.width
    for f in sheet.findings:
        comps = ", ".join(sheet.label(c) for c in f.components[:12])
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
                    ("BACKGROUND", (0, 0), (0, 0), rl.colors.HexColor(SEVERITY_COLOURS[f.severity])),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("BOX", (0, 0), (-1, -1), 0.4, rl.colors.HexColor("#b0b0b0")),
                ]
            )
        )
        out += [table, rl.Spacer(1, 6)]
    return out


def _bom(sheet: _Sheet) -> list[Any]:
    topo = sheet.topo
    counts: dict[str, int] = {}
    for c in topo.components():
        if c.part:
            counts[c.part] = counts.get(c.part, 0) + 1
    order = {k: i for i, k in enumerate(BOM_ORDER)}
    rows = []
    for pid in sorted(counts, key=lambda p: (order.get((topo.parts.get(p) or {}).get("kind", ""), 99), p)):
        part = topo.parts.get(pid) or {}
        rows.append([counts[pid], pid, part.get("name", ""), part.get("feature_code", ""), part.get("kind", "")])
    cables: dict[tuple[str, str], int] = {}
    for cab in topo.of_kind("cable"):
        key = (cab["media"], format_length(float(cab["length_m"] or 0)))
        cables[key] = cables.get(key, 0) + 1
    for (media, length), n in sorted(cables.items()):
        rows.append(
            [
                n,
                "cable",
                f"Fibre Channel cable {media}" + (f", {length} m" if length else ", length not given"),
                "",
                "cable",
            ]
        )
    head = ("Quantity", "Part", "Description", "Feature code", "Kind")
    out = [
        *_start(sheet, "Bill of materials"),
        sheet.p("Counted from the design: every part placed, and the cables by media and length."),
    ]
    out.append(
        _table(sheet, head, rows, (0.09, 0.15, 0.5, 0.14, 0.12), numeric=(0,))
        if rows
        else sheet.p("The design holds no parts.")
    )
    return out


def _labels(sheet: _Sheet) -> list[Any]:
    """Cable labels to print: one per cable end, naming this end and the other."""
    rl = _rl()
    cells = []
    for r in cabling_rows(sheet.topo):
        a, b = f"{r['from_device']} {r['from_port']}", f"{r['to_device']} {r['to_port']}"
        for here, there in ((a, b), (b, a)):
            cells.append(
                [
                    rl.Paragraph(para(r["label"]), sheet.styles["label"]),
                    rl.Paragraph(f"this end: {para(here)}<br/>other end: {para(there)}", sheet.styles["label_small"]),
                ]
            )
    out = [*_start(sheet, "Cable labels"), sheet.p("One label per cable end; cut along the lines.", "small")]
    if not cells:
        return out + [sheet.p("The design has no cables.")]
    cols = 4
    width = sheet.portrait.width / cols
    grid = [cells[i : i + cols] + [""] * (cols - len(cells[i : i + cols])) for i in range(0, len(cells), cols)]
    table = rl.Table(grid, colWidths=[width] * cols, rowHeights=[48] * len(grid), hAlign="LEFT")
    table.setStyle(
        rl.TableStyle(
            [("GRID", (0, 0), (-1, -1), 0.3, rl.colors.HexColor("#999999")), ("VALIGN", (0, 0), (-1, -1), "TOP")]
        )
    )
    return out + [table]


# -- the topology diagram -------------------------------------------------------------------------------


@dataclass
class _Band:
    y0: float  # layout coordinates
    y1: float


@dataclass
class _Geometry:
    page: _Page
    sx: float
    sy: float
    old: dict[str, tuple[float, float]]  # column -> (x, width) in the layout
    new: dict[str, tuple[float, float]]  # column -> (x, width) on paper
    bands: list[_Band]

    def x(self, box: Box) -> tuple[float, float]:
        ox, ow = self.old[box.column]
        nx, nw = self.new[box.column]
        return nx + (box.x - ox) / ow * nw, box.w / ow * nw


def _geometry(sheet: _Sheet, d: Diagram) -> _Geometry:
    """Columns packed side by side on paper, the page orientation with the fewest pages, and the
    horizontal bands the diagram is split into so labels stay at least MIN_FONT high."""
    boxes = list(d.boxes.values())
    old: dict[str, tuple[float, float]] = {}
    for b in boxes:
        x0, w0 = old.get(b.column, (b.x, b.w))
        lo, hi = min(x0, b.x), max(x0 + w0, b.x + b.w)
        old[b.column] = (lo, max(hi - lo, 1.0))
    columns = sorted(old, key=lambda c: old[c][0])
    total = sum(PDF_COLUMN.get(c, 120) for c in columns) + PDF_GAP * max(len(columns) - 1, 0)
    top = min((b.y for b in boxes), default=0.0) - 4
    bottom = max((b.y + b.h for b in boxes), default=0.0) + 4
    best = None
    for page in (sheet.portrait, sheet.landscape):
        sx = min(1.25, page.width / total)
        room = page.height - HEADING_H - LEGEND_H - 2
        sy = max(min(1.0, room / (bottom - top)), MIN_SY)
        pages = math.ceil((bottom - top) * sy / room - 1e-9)
        score = (sx < 0.5, pages, -min(sx, 1.0))
        if best is None or score < best[0]:
            best = (score, page, sx, sy, room)
    _, page, sx, sy, room = best
    new, x = {}, 0.0
    for c in columns:
        w = PDF_COLUMN.get(c, 120) * sx
        new[c] = (x, w)
        x += w + PDF_GAP * sx
    return _Geometry(page, sx, sy, old, new, _bands(boxes, top, bottom, room / sy))


def _bands(boxes: Sequence[Box], top: float, bottom: float, height: float) -> list[_Band]:
    """Split [top, bottom] into bands of at most ``height``; each cut goes through as few small
    boxes as it can (between rows), as low as it can. O(n log n) per cut."""
    small = [b for b in boxes if b.h < height / 2]
    starts, ends = sorted(b.y for b in small), sorted(b.y + b.h for b in small)

    def crossing(y: float) -> int:  # small boxes with top < y < bottom
        return bisect.bisect_left(starts, y) - bisect.bisect_right(ends, y)

    out, start = [], top
    while bottom - start > height:
        lo, hi = start + 0.3 * height, start + height
        cuts = [hi] + [y for b in small for y in (b.y - 0.5, b.y + b.h + 0.5) if lo < y <= hi]
        cut = min(cuts, key=lambda y: (crossing(y), -y))
        out.append(_Band(start, cut))
        start = cut
    out.append(_Band(start, bottom))
    return out


def _box_utilization(sheet: _Sheet, d: Diagram) -> dict[str, float]:
    """Box id -> utilization: the box's own part when it has a capacity, else the busiest part it shows."""
    own: dict[str, float] = {}
    inner: dict[str, float] = {}
    for cid, ld in sheet.read.components.items():
        u = ld.utilization
        if u is None:
            continue
        box = d.visible(cid)
        if box is None:
            continue
        if box == cid:
            own[box] = u
        else:
            inner[box] = max(inner.get(box, 0.0), u)
    return {**inner, **own}


def _link_utilization(sheet: _Sheet, topo: Topology, d: Diagram) -> dict[frozenset, float]:
    """Pair of visible boxes -> the highest utilization of the cables drawn between them."""
    out: dict[frozenset, float] = {}
    comps = sheet.read.components
    for cab in topo.of_kind("cable"):
        ld = comps.get(cab.id)
        caps = [comps[e].capacity for e in (cab["a"], cab["b"]) if e in comps and comps[e].capacity]
        if ld is None or not caps:
            continue
        key = frozenset((d.visible(cab["a"]) or "", d.visible(cab["b"]) or ""))
        out[key] = max(out.get(key, 0.0), ld.load / min(caps))
    return out


def _diagrams(sheet: _Sheet) -> list[Any]:
    topo = sheet.topo
    overview = topo.clone()
    overview.positions = {}  # the paper layout packs columns itself
    groups = {c.id for kind in ("drawer", "switch", "subsystem", "volume_group") for c in overview.of_kind(kind)}
    pages = _diagram_pages(
        sheet, overview, layout(overview, groups), "Overview: drawers, switches and subsystems collapsed", first=True
    )
    for drawer in topo.of_kind("drawer"):
        view, n_subs = _drawer_view(sheet, drawer)
        where = f" ({one_line(drawer['location'])})" if drawer["location"] else ""
        title = f"{drawer.label()}{where}: its slots, switches and the {_count(n_subs, 'subsystem')} it reaches"
        pages += _diagram_pages(sheet, view, layout(view, set()), title)
    return pages + [_rl().NextPageTemplate("portrait")]


def _drawer_view(sheet: _Sheet, drawer: Component) -> tuple[Topology, int]:
    """A design of one drawer with the switches its HBAs are cabled or routed to and the
    subsystems they reach (zones and paths), for that drawer's diagram page."""
    topo = sheet.topo
    ports = {c.id for c in topo.descendants(drawer.id) if c.kind == "hba_port"}
    switches: dict[str, None] = {}
    subsystems: dict[str, None] = {}
    for pid in ports:
        peer = topo.peer_port(pid)
        sw = topo.ancestor(peer, "switch") if peer else None
        sub = topo.ancestor(peer, "subsystem") if peer else None  # direct attach
        if sw is not None:
            switches[sw.id] = None
        if sub is not None:
            subsystems[sub.id] = None
    for p in sheet.read.paths:
        if p.hba_port in ports:
            for hop in p.hops:
                if topo[hop].kind == "switch_port":
                    switches[topo.ancestor(hop, "switch").id] = None
            sub = topo.ancestor(p.host_port, "subsystem")
            if sub is not None:
                subsystems[sub.id] = None
    zones = [z for z in topo.of_kind("zone") if ports.intersection(z["members"])]
    for z in zones:
        for m in z["members"]:
            sub = topo.ancestor(m, "subsystem") if m in topo else None
            if sub is not None:
                subsystems[sub.id] = None
    view = Topology(topo.meta.get("name", ""))
    view.parts = topo.parts
    server = topo.ancestor(drawer.id, "server")
    if server is not None:
        view._add_silent(server.copy())  # without its other drawers and partitions
    for root in [drawer.id, *switches, *subsystems]:
        _copy_tree(topo, view, topo[root])
    for fab in dict.fromkeys(z.parent for z in zones):
        view._add_silent(topo[fab].copy())
    for z in zones:
        view._add_silent(z.copy())
    for cab in topo.of_kind("cable"):
        if cab["a"] in view and cab["b"] in view:
            view._add_silent(cab.copy())
    return view, len(subsystems)


def _copy_tree(topo: Topology, view: Topology, comp: Component) -> None:
    """Copy a component and everything below it, keeping the sibling order."""
    view._add_silent(comp.copy())  # a view for drawing, not an edit: no events, no undo
    for child in topo.children(comp.id):
        _copy_tree(topo, view, child)


def _diagram_pages(sheet: _Sheet, view: Topology, d: Diagram, title: str, first: bool = False) -> list[Any]:
    rl = _rl()
    if not d.boxes:
        return [*_start(sheet, "Topology diagram"), sheet.p("The design has nothing to draw yet.")] if first else []
    geo = _geometry(sheet, d)
    utils = _box_utilization(sheet, d)
    links = _link_utilization(sheet, view, d)
    for sw in view.of_kind("switch"):  # the backplane is drawn as its switch: say how busy it is
        box = d.boxes.get(sw.id)
        for bp in view.children(sw.id, "backplane"):
            if box is not None and sheet.util(bp.id) is not None:
                box.label = f"{one_line(sw.label())}: backplane {pct(sheet.util(bp.id))}"
    out: list[Any] = []
    for i, b in enumerate(geo.bands):
        part = f" (part {i + 1} of {len(geo.bands)})" if len(geo.bands) > 1 else ""
        out += [rl.NextPageTemplate(geo.page.template), rl.PageBreak()]
        out.append(
            sheet.heading(title + part, 0 if first and i == 0 else 1, "Topology diagram" if first and i == 0 else None)
        )
        out.append(_drawing(d, geo, b, utils, links))
    return out


def _drawing(d: Diagram, geo: _Geometry, b: _Band, utils: dict[str, float], links: dict[frozenset, float]) -> Any:
    rl = _rl()
    sy = geo.sy
    height = (b.y1 - b.y0) * sy + LEGEND_H + 2
    drawing = rl.Drawing(geo.page.width, height)

    def y_of(y: float) -> float:
        return LEGEND_H + 2 + (b.y1 - y) * sy

    font = min(MAX_FONT, max(MIN_FONT, 0.6 * (ROW - 3) * sy))
    containers = {x.container for x in d.boxes.values() if x.container}
    depth = {bid: _depth(d, bid) for bid in d.boxes}
    visible = [x for x in d.boxes.values() if x.y < b.y1 and x.y + x.h > b.y0]
    outer = sorted((x for x in visible if x.id in containers), key=lambda x: depth[x.id])
    for box in outer:
        _draw_box(drawing, box, geo, b, y_of, font, utils.get(box.id), container=True)
    for link in d.links:
        _draw_link(drawing, d, link, geo, b, y_of, links)
    for box in visible:
        if box.id not in containers:
            _draw_box(drawing, box, geo, b, y_of, font, utils.get(box.id), container=False)
    _legend(drawing)
    return drawing


def _depth(d: Diagram, bid: str) -> int:
    n, box = 0, d.boxes.get(bid)
    while box is not None and box.container and n < 16:
        n, box = n + 1, d.boxes.get(box.container)
    return n


def _draw_box(
    drawing: Any,
    box: Box,
    geo: _Geometry,
    b: _Band,
    y_of: Callable[[float], float],
    font: float,
    util: float | None,
    container: bool,
) -> None:
    rl = _rl()
    x, w = geo.x(box)
    top, bottom = max(box.y, b.y0), min(box.y + box.h, b.y1)
    colour = band(util)
    fill = PALE[colour] if colour or not container else "#f4f5f7"
    drawing.add(
        rl.Rect(
            x,
            y_of(bottom),
            w,
            (bottom - top) * geo.sy,
            fillColor=rl.colors.HexColor(fill),
            strokeColor=rl.colors.HexColor(STRONG[colour]),
            strokeWidth=0.6 if colour else 0.4,
        )
    )
    lines = [one_line(box.label)] if container else [ln for ln in box.label.split("\n") if ln.strip()]
    if container or (box.collapsed and len(lines) == 1):
        if box.y < b.y0 and container:
            lines = [f"{lines[0]} (continued)"] if lines else []
        lines = lines[:1] if container else lines
        first = y_of(top) - font * 1.15
    else:
        mid = (y_of(top) + y_of(bottom)) / 2
        first = mid + (len(lines) - 1) * font * 0.6 - font * 0.35
    for i, text in enumerate(lines):
        y = first - i * font * 1.2
        if y < y_of(bottom) + 0.5:
            break
        shown, size = fit_text(text, w - 4, font, BOLD if container else FONT, rl.stringWidth)
        drawing.add(
            rl.String(
                x + 2,
                y,
                shown,
                fontName=BOLD if container else FONT,
                fontSize=size,
                fillColor=rl.colors.HexColor("#1a1a1a"),
            )
        )


def _draw_link(
    drawing: Any,
    d: Diagram,
    link: Any,
    geo: _Geometry,
    b: _Band,
    y_of: Callable[[float], float],
    links: dict[frozenset, float],
) -> None:
    rl = _rl()
    a, c = d.boxes.get(link.a), d.boxes.get(link.b)
    if a is None or c is None:
        return
    (xa, wa), (xc, wc) = geo.x(a), geo.x(c)
    ya, yc = a.y + a.h / 2, c.y + c.h / 2
    if a.column == c.column:  # two ports of one column (an ISL): loop out to the right
        xr = max(xa + wa, xc + wc) + 6
        points = [(xa + wa, ya), (xr, ya), (xr, yc), (xc + wc, yc)]
    elif xa < xc:
        points = [(xa + wa, ya), (xc, yc)]
    else:
        points = [(xc + wc, yc), (xa, ya)]
    if link.kind == "cable":
        colour = STRONG[band(links.get(frozenset((link.a, link.b))))]
        style = {"strokeWidth": 0.8}
    elif link.kind == "tree":
        colour, style = "#b5b5b5", {"strokeWidth": 0.5}
    else:
        colour, style = (
            "#7d7d7d",
            {"strokeWidth": 0.5, "strokeDashArray": [2, 1.5] if link.kind == "owner" else [0.6, 1.4]},
        )
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        seg = _clip(x0, y0, x1, y1, b.y0, b.y1)
        if seg is not None:
            drawing.add(
                rl.Line(seg[0], y_of(seg[1]), seg[2], y_of(seg[3]), strokeColor=rl.colors.HexColor(colour), **style)
            )


def _clip(x0: float, y0: float, x1: float, y1: float, lo: float, hi: float) -> tuple[float, float, float, float] | None:
    """The part of a segment between the horizontal lines y = lo and y = hi, or None."""
    if (y0 < lo and y1 < lo) or (y0 > hi and y1 > hi):
        return None
    if y0 == y1:
        return x0, y0, x1, y1

    def at(y: float) -> float:
        return x0 + (x1 - x0) * (y - y0) / (y1 - y0)

    ya, yb = min(max(y0, lo), hi), min(max(y1, lo), hi)
    return at(ya), ya, at(yb), yb


def _legend(drawing: Any) -> None:
    rl = _rl()
    x, y = 0.0, 3.0
    entries = [
        ("green", "below 70 %"),
        ("amber", "70 to 95 %"),
        ("red", "95 % or more (binds)"),
        (None, "no capacity figure"),
    ]
    for colour, text in entries:
        drawing.add(
            rl.Rect(
                x,
                y,
                10,
                7,
                fillColor=rl.colors.HexColor(PALE[colour]),
                strokeColor=rl.colors.HexColor(STRONG[colour]),
                strokeWidth=0.6,
            )
        )
        drawing.add(rl.String(x + 13, y + 1, text, fontName=FONT, fontSize=7))
        x += 20 + rl.stringWidth(text, FONT, 7)
    for dash, text in ((None, "cable"), ([2, 1.5], "LUN owner"), ([0.6, 1.4], "PV of a volume group")):
        drawing.add(
            rl.Line(
                x,
                y + 3.5,
                x + 16,
                y + 3.5,
                strokeColor=rl.colors.HexColor("#555555"),
                strokeWidth=0.8,
                strokeDashArray=dash,
            )
        )
        drawing.add(rl.String(x + 19, y + 1, text, fontName=FONT, fontSize=7))
        x += 26 + rl.stringWidth(text, FONT, 7)
    drawing.add(
        rl.String(
            x + 6,
            y + 1,
            "utilization of each part, read, data from disk",
            fontName=FONT,
            fontSize=7,
            fillColor=rl.colors.HexColor("#555555"),
        )
    )


# -- building ------------------------------------------------------------------------------------------


def build_sheet(
    topo: Topology,
    path: str | os.PathLike[str],
    *,
    paper: str = "a4",
    figures: str = "planning",
    scenario: str = "",
    revision: str = "",
    labels: bool = False,
    compress: bool = True,
    progress: Callable[[float, str], None] | None = None,
) -> int:
    """Write the build sheet of ``topo`` as a PDF at ``path``; return its page count.

    Parameters: ``paper`` "a4" or "letter"; ``figures`` the figure set (rated, measured,
    planning); ``scenario`` and ``revision`` are shown on the cover (the caller knows them;
    an empty revision reads "unsaved"); ``labels`` adds pages of cable labels; ``compress=False``
    writes uncompressed page streams (tests search them); ``progress(fraction, text)`` is called
    as the sheet is analysed, assembled and laid out.
    Raises ExportError for a bad option, a reportlab without the CVE-2023-33733 fix, or a file
    that cannot be written (the target is then untouched). Time: O(components + paths).
    """
    if paper not in PAPERS:
        raise ExportError(f"paper must be {' or '.join(PAPERS)}, not {paper!r}")
    if figures not in FIGURE_SETS:
        raise ExportError(f"figure set must be one of {', '.join(FIGURE_SETS)}, not {figures!r}")
    _require_reportlab()
    report = progress or (lambda fraction, text: None)
    report(0.0, "analysing the design")
    sheet = _Sheet(topo, figures, scenario, revision, paper)
    report(0.05, "assembling the sections")
    story = _story(sheet, paper, labels, report)
    pages = [0]

    def write(tmp: str) -> None:
        pages[0] = _render(sheet, story, tmp, compress, report)

    atomic_write(path, write)
    report(1.0, "written")
    return pages[0]


def _story(sheet: _Sheet, paper: str, labels: bool, report: Callable[[float, str], None]) -> list[Any]:
    steps: list[tuple[str, Callable[[], list[Any]]]] = [
        ("cover", lambda: _cover(sheet, paper)),
        ("summary", lambda: _summary(sheet)),
        ("topology diagram", lambda: _diagrams(sheet)),
        ("slot placement", lambda: _slots(sheet)),
        ("switch port maps", lambda: _switches(sheet)),
        ("cabling schedule", lambda: _cabling(sheet)),
        ("zoning", lambda: _zoning(sheet)),
        ("storage layout", lambda: _storage(sheet)),
        ("paths", lambda: _paths(sheet)),
        ("findings", lambda: _findings(sheet)),
        ("bill of materials", lambda: _bom(sheet)),
    ]
    if labels:
        steps.append(("cable labels", lambda: _labels(sheet)))
    story: list[Any] = []
    for i, (name, make) in enumerate(steps):
        story += make()
        report(0.05 + 0.25 * (i + 1) / len(steps), f"assembled {name}")
    return story


def _render(
    sheet: _Sheet, story: list[Any], filename: str, compress: bool, report: Callable[[float, str], None]
) -> int:
    rl = _rl()
    pw, ph = sheet.pagesize
    frames = {
        "portrait": ((pw, ph), sheet.portrait),
        "landscape": ((ph, pw), sheet.landscape),
    }
    templates = [
        rl.PageTemplate(
            id=name,
            pagesize=size,
            frames=[
                rl.Frame(
                    MARGIN,
                    BOTTOM,
                    page.width,
                    page.height,
                    id=name,
                    leftPadding=0,
                    rightPadding=0,
                    topPadding=0,
                    bottomPadding=0,
                )
            ],
        )
        for name, (size, page) in frames.items()
    ]
    author = one_line(sheet.topo.meta.get("author", ""))
    doc = rl.SheetDoc(
        filename,
        report,
        sheet.sections,
        pagesize=sheet.pagesize,
        pageTemplates=templates,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=TOP,
        bottomMargin=BOTTOM,
        title=f"Build sheet: {sheet.name}",
        author=author,
        subject="SANplan build sheet",
        creator="SANplan",
        pageCompression=1 if compress else 0,
    )
    canvasmaker = functools.partial(rl.SheetCanvas, header=sheet.name, footer=f"SANplan build sheet, {sheet.date}")
    doc.build(story, canvasmaker=canvasmaker)
    return doc.page
