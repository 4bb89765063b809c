"""The build sheet's document: reportlab (loaded on first use, refused when older than the
CVE-2023-33733 fix), the page templates, the header and the footer "Page X of Y", the contents
on the cover, text that fits, and :func:`render`, which lays the story out into a PDF.

Safety: user text is made one line and escaped (xml.sax.saxutils.escape) before it reaches
reportlab's Paragraph markup; plain table cells and drawing strings are never parsed as markup.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from planner.exports.output import ExportError

if TYPE_CHECKING:
    from planner.exports.buildsheet.sheet import Sheet

PAPERS = ("a4", "letter")
MIN_REPORTLAB = (3, 6, 13)  # 3.6.13 fixed CVE-2023-33733

MARGIN, TOP, BOTTOM = 36.0, 52.0, 44.0  # page margins (points); header and footer live in them
FONT, BOLD = "Helvetica", "Helvetica-Bold"
MIN_FONT, MAX_FONT = 7.0, 8.0  # no text under 7 pt: readable on printed A4
CONTENTS_LINE = 11.5  # points per line of the contents page


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


def require_reportlab() -> None:
    try:
        import reportlab
    except ImportError:
        raise ExportError("the PDF build sheet needs reportlab; install it: pip install 'reportlab>=4.0.5'") from None
    problem = reportlab_problem(str(getattr(reportlab, "Version", "0")))
    if problem:
        raise ExportError(problem)


@functools.lru_cache(maxsize=1)
def rl_api() -> SimpleNamespace:
    """The reportlab names the build sheet uses, plus its own flowable, canvas and document classes."""
    from reportlab import rl_config

    # the drawings are built from checked numbers: skip reportlab's per-attribute validation of
    # shapes (its documented speed switch; it takes effect when the shapes module is first loaded)
    rl_config.shapeChecking = 0
    from reportlab.graphics.charts.barcharts import VerticalBarChart
    from reportlab.graphics.shapes import Drawing, Line, Path, Rect, String
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
        Path=Path,
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
    ns.Heading, ns.ContentsBox, ns.LabelGrid = _flowable_classes(Paragraph, Flowable)
    ns.SheetCanvas = _canvas_class(Canvas, stringWidth)
    ns.SheetDoc = _doc_class(BaseDocTemplate, ns.Heading)
    return ns


def _flowable_classes(paragraph: type, flowable: type) -> tuple[type, type, type]:
    class Heading(paragraph):  # type: ignore[misc, valid-type]
        """A heading that bookmarks itself; level 0 starts a section (header, contents, progress)."""

        def __init__(self, text: str, style: Any, level: int, key: str, title: str) -> None:
            super().__init__(escape(one_line(text)), style)
            self.level, self.key, self.title = level, key, one_line(title)

        def draw(self) -> None:
            canv = self.canv
            canv.bookmarkPage(self.key)
            canv.addOutlineEntry(self.title, self.key, self.level, closed=self.level > 0)
            canv.sheet_entries.append((self.level, self.title, canv.getPageNumber(), self.key))
            if self.level == 0:
                canv.start_section(self.title)
            super().draw()

        def split(self, avail_width: float, avail_height: float) -> list[Any]:
            return []  # a heading moves to the next page whole

    class ContentsBox(flowable):  # type: ignore[misc, valid-type]
        """The rest of the page, kept for the contents and filled in when the page numbers are known."""

        def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
            self.width, self.height = avail_width, avail_height - 1
            return self.width, self.height

        def draw(self) -> None:
            x, y = self.canv.absolutePosition(0, 0)
            self.canv.sheet_contents = (self.canv.getPageNumber(), x, y, self.width, self.height)

    return Heading, ContentsBox, _label_grid_class(flowable)


def _label_grid_class(flowable: type) -> type:
    class LabelGrid(flowable):  # type: ignore[misc, valid-type]
        """Label cells (lines of (font, text, size)) in a grid of ``cols`` x w x h points with cut
        lines, drawn straight onto the canvas (fast for hundreds of labels); splits between rows."""

        def __init__(self, cells: list[list[tuple[str, str, float]]], cols: int, w: float, h: float) -> None:
            super().__init__()
            self.cells, self.cols, self.cw, self.ch = cells, max(cols, 1), w, h

        def _rows(self) -> int:
            return -(-len(self.cells) // self.cols)

        def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
            return self.cols * self.cw, self._rows() * self.ch

        def split(self, avail_width: float, avail_height: float) -> list[Any]:
            fit = int(avail_height // self.ch)
            if fit <= 0 or fit >= self._rows():
                return [] if fit <= 0 else [self]
            cut = fit * self.cols
            return [
                LabelGrid(self.cells[:cut], self.cols, self.cw, self.ch),
                LabelGrid(self.cells[cut:], self.cols, self.cw, self.ch),
            ]

        def draw(self) -> None:
            canv, rows = self.canv, self._rows()
            canv.setStrokeColorRGB(0.6, 0.6, 0.6)
            canv.setLineWidth(0.3)
            for i, lines in enumerate(self.cells):
                r, c = divmod(i, self.cols)
                x, top = c * self.cw, (rows - r) * self.ch
                canv.rect(x, top - self.ch, self.cw, self.ch)
                y = top - 12
                for font, text, size in lines:
                    canv.setFont(font, size)
                    canv.drawString(x + 3, y, text)
                    y -= size + 2.5

    return LabelGrid


def _canvas_class(canvas: type, string_width: Callable[..., float]) -> type:
    class SheetCanvas(canvas):  # type: ignore[misc, valid-type]
        """Keeps every page until the end, then draws header, footer "Page X of Y" and contents."""

        def __init__(self, *args: Any, header: str = "", footer: str = "", **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.sheet_pages: list[dict[str, Any]] = []
            self.sheet_section = ""
            self.sheet_sections: list[tuple[str, int]] = []
            self.sheet_entries: list[tuple[int, str, int, str]] = []  # level, title, page, bookmark
            self.sheet_contents: tuple[int, float, float, float, float] | None = None  # page, x, y, w, h
            self.sheet_header, self.sheet_footer = header, footer

        def start_section(self, title: str) -> None:
            self.sheet_section = title
            self.sheet_sections.append((title, self.getPageNumber()))

        def showPage(self) -> None:  # noqa: N802 (reportlab's name)
            self.sheet_pages.append(dict(self.__dict__))
            self._startPage()

        def save(self) -> None:
            total, entries = len(self.sheet_pages), list(self.sheet_entries)
            for state in self.sheet_pages:
                self.__dict__.update(state)
                _decorate_page(self, total, entries, string_width)
                canvas.showPage(self)
            canvas.save(self)

    return SheetCanvas


def _decorate_page(
    canv: Any, total: int, entries: list[tuple[int, str, int, str]], string_width: Callable[..., float]
) -> None:
    """Draw the header rule and title, the current section, the footer "Page X of Y" and, on the
    cover, the contents onto the SheetCanvas ``canv``."""
    w, h = canv._pagesize
    canv.saveState()
    canv.setStrokeColorRGB(0.6, 0.6, 0.6)
    canv.setLineWidth(0.5)
    canv.line(MARGIN, h - TOP + 12, w - MARGIN, h - TOP + 12)
    canv.line(MARGIN, BOTTOM - 12, w - MARGIN, BOTTOM - 12)
    canv.setFillColorRGB(0.3, 0.3, 0.3)
    section = canv.sheet_section if canv.getPageNumber() > 1 else ""
    room = w - 2 * MARGIN - string_width(section, FONT, 8) - 20
    canv.setFont(BOLD, 8)
    canv.drawString(MARGIN, h - TOP + 17, fit_text(canv.sheet_header, room, 8, BOLD, string_width)[0])
    canv.setFont(FONT, 8)
    canv.drawRightString(w - MARGIN, h - TOP + 17, section)
    canv.drawString(MARGIN, BOTTOM - 24, canv.sheet_footer)
    canv.drawRightString(w - MARGIN, BOTTOM - 24, f"Page {canv.getPageNumber()} of {total}")
    if canv.sheet_contents and canv.sheet_contents[0] == canv.getPageNumber():
        _draw_contents(canv, entries, string_width)
    canv.restoreState()


def _draw_contents(canv: Any, entries: list[tuple[int, str, int, str]], string_width: Callable[..., float]) -> None:
    """Draw the contents into the box kept for them: each section (bold) and its headings, with
    their page and a link to it; two columns when one is too short; only the sections when two are."""
    _, x, y, w, h = canv.sheet_contents
    rows = int(h // CONTENTS_LINE)
    shown = [e for e in entries if e[0] <= 1]
    if len(shown) > 2 * rows:
        shown = [e for e in entries if e[0] == 0]
    columns = 1 if len(shown) <= rows else 2
    col_w = (w - 12 * (columns - 1)) / columns
    canv.setFillColorRGB(0, 0, 0)
    for i, (level, title, page, key) in enumerate(shown[: columns * rows]):
        cx, yy = x + (i // rows) * (col_w + 12), y + h - CONTENTS_LINE * (i % rows + 1)
        font, size, indent = (BOLD, 9.0, 0.0) if level == 0 else (FONT, 8.0, 10.0)
        number = str(page)
        room = col_w - indent - string_width(number, FONT, size) - 8
        text, size = fit_text(title, room, size, font, string_width)
        canv.setFont(font, size)
        canv.drawString(cx + indent, yy, text)
        canv.setFont(FONT, size)
        canv.drawRightString(cx + col_w, yy, number)
        canv.linkAbsolute(title, key, Rect=(cx, yy - 2.5, cx + col_w, yy + size), thickness=0)


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


MAX_TEXT = 300  # characters of one user text on the sheet; longer text is elided (no name can stall a page)


def one_line(text: Any) -> str:
    """User text as one line: control characters (new lines, tabs) become one space; text over
    :data:`MAX_TEXT` characters is cut with an ellipsis."""
    text = _CONTROL.sub(" ", "" if text is None else str(text))
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "\u2026"


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


# -- the PDF --------------------------------------------------------------------------------------------


def render(sheet: Sheet, story: list[Any], filename: str, compress: bool, report: Callable[[float, str], None]) -> int:
    rl = rl_api()
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
    from reportlab import rl_config

    a85, rl_config.useA85 = rl_config.useA85, 0  # binary Flate streams: smaller and faster than ASCII85
    try:
        doc.build(story, canvasmaker=canvasmaker)
    finally:
        rl_config.useA85 = a85
    return doc.page
