"""What every section of the build sheet shares: the :class:`Sheet` (the design, both analyses,
the findings, styles and page frames), number formats and the table helpers.
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from planner import bands
from planner.analysis import Analysis, analyze
from planner.exports.buildsheet.document import BOLD, BOTTOM, FONT, MARGIN, TOP, one_line, para, rl_api
from planner.exports.zoning import zoning_plan
from planner.model import Topology
from planner.resilience import Resilience, resilience
from planner.rules import Finding, check
from planner.schema import count_label

CELL_FONT = 7.0
CELL_PAD = 2.0

FIGURE_NOTES = {
    "rated": "rated (vendor design figures)",
    "measured": "measured (what the P690 paper measured)",
    "planning": "planning (the P690 paper's rules of thumb)",
}


# -- numbers ---------------------------------------------------------------------------------------


def mbps(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def pct(util: float | None) -> str:
    return "-" if util is None else f"{util * 100:.0f} %"


def threshold(fraction: float) -> str:
    """A band threshold as the sheet writes it: 0.7 -> '70 %'."""
    return f"{fraction * 100:.0f} %"


def kb_text(kb: float) -> str:
    return f"{kb / 1024:g} MB" if kb >= 1024 else f"{kb:g} KB"


def plural(n: int, word: str) -> str:
    """'1 warning', '2 warnings', '7 switches' (:func:`planner.schema.count_label`)."""
    return count_label(n, word)


PLACEHOLDER_MARK = " (placeholder)"  # after a WWPN SANplan made up; the sheet's footnote explains it
PLACEHOLDER_NOTE = (
    "WWPNs marked (placeholder) were made up by SANplan (an example or an assistant): replace each with the "
    "real WWPN of the port (AIX: lscfg -vl fcsN, 'Network Address'; FAStT: the storage subsystem profile) "
    "before zoning and mapping."
)


def wwpn_text(topo: Topology, port: Any) -> str:
    """A port's WWPN as the sheet shows it: marked when it is a placeholder."""
    wwpn = port["wwpn"] or ""
    return wwpn + PLACEHOLDER_MARK if wwpn and port.get("wwpn_placeholder") else wwpn


@dataclass
class Revision:
    """One line of the sheet's revision history."""

    number: str
    date: str
    note: str


# -- the sheet -----------------------------------------------------------------------------------------


@dataclass
class Page:
    width: float  # frame
    height: float
    template: str


class Sheet:
    """Everything the sections share: the design, both analyses, the findings, styles, frames."""

    def __init__(self, topo: Topology, figures: str, scenario: str, revision: str, paper: str) -> None:
        rl = rl_api()
        self.topo, self.figures, self.scenario, self.revision = topo, figures, scenario, revision
        self.read = analyze(topo, figures, "read", "disk", cross_check=True)
        self.write = analyze(topo, figures, "write", "disk", cross_check=True)
        self.findings: list[Finding] = check(topo, analysis=self.read)
        self.zoning = zoning_plan(topo)
        self.date = datetime.date.today().isoformat()
        self.pagesize = rl.A4 if paper == "a4" else rl.LETTER
        pw, ph = self.pagesize
        self.portrait = Page(pw - 2 * MARGIN, ph - TOP - BOTTOM, "portrait")
        self.landscape = Page(ph - 2 * MARGIN, pw - TOP - BOTTOM, "landscape")
        self.styles = make_styles()
        self._keys = 0
        self.sections = 0
        self.history: list[Revision] = []  # set by build_sheet: the file's revisions, or just this one

    @functools.cached_property
    def resilience(self) -> Resilience:
        """Every single failure (read, from disk), computed once for the summary and its section."""
        return resilience(self.topo, self.figures, "read", "disk")

    @functools.cached_property
    def placeholders(self) -> list[Any]:
        """The ports whose WWPN is still a placeholder."""
        return [
            p
            for k in ("hba_port", "host_port")
            for p in self.topo.of_kind(k)
            if p["wwpn"] and p.get("wwpn_placeholder")
        ]

    @property
    def name(self) -> str:
        return one_line(self.topo.meta.get("name", "")) or "Untitled design"

    def heading(self, text: str, level: int = 1, title: str | None = None) -> Any:
        """A heading flowable; level 0 starts a section (bookmark, header, contents)."""
        self._keys += 1
        style = self.styles["h1"] if level == 0 else self.styles["h2"]
        if level == 0:
            self.sections += 1
        return rl_api().Heading(text, style, level, f"k{self._keys}", title or text)

    def sub(self, text: str) -> list[Any]:
        """A sub-heading that is never left alone at the foot of a page."""
        return [rl_api().CondPageBreak(90), self.heading(text)]

    def p(self, text: str, style: str = "body") -> Any:
        """A Paragraph of text that is already markup-safe (use :func:`para` on user text)."""
        return rl_api().Paragraph(text, self.styles[style])

    def util(self, cid: str, analysis: Analysis | None = None) -> float | None:
        ld = (analysis or self.read).components.get(cid)
        return ld.utilization if ld is not None else None

    def load_text(self, cid: str, analysis: Analysis) -> str:
        ld = analysis.components.get(cid)
        if ld is None or ld.capacity is None:
            return "-"
        return f"{ld.load:,.0f} / {ld.capacity:,.0f}"


def make_styles() -> dict[str, Any]:
    rl = rl_api()
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
        "label_small": ps("label_small", fontName=FONT, fontSize=7, leading=8.2),
    }


def data_table(
    sheet: Sheet,
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
    rl = rl_api()
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


def _cell(sheet: Sheet, value: Any, width: float, header: bool = False, right: bool = False) -> Any:
    rl = rl_api()
    text = one_line(value)
    font = BOLD if header else FONT
    room = width - 2 * CELL_PAD - 0.5
    if rl.stringWidth(text, font, CELL_FONT) <= room:
        return text
    too_long = any(rl.stringWidth(word, font, CELL_FONT) > room for word in text.split())
    style = sheet.styles["cell_any" if too_long else "cell_right" if right else "cell"]
    markup = escape(text)
    return rl.Paragraph(f"<b>{markup}</b>" if header else markup, style)


def util_cells(column: int, utils: Sequence[float | None]) -> list[tuple]:
    """Background colours for a column of utilizations (data rows)."""
    rl = rl_api()
    return [
        ("BACKGROUND", (column, i), (column, i), rl.colors.HexColor(bands.colour(u, pale=True)))
        for i, u in enumerate(utils)
        if bands.band(u) is not None
    ]


def key_values(sheet: Sheet, rows: Sequence[tuple[str, str]], key_width: float = 0.22) -> Any:
    """A two-column table without header: bold key, wrapped (escaped) value."""
    rl = rl_api()
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


def new_section(sheet: Sheet, title: str, template: str = "portrait") -> list[Any]:
    """A new section: page template, page break, section heading."""
    rl = rl_api()
    return [rl.NextPageTemplate(template), rl.PageBreak(), sheet.heading(title, 0)]
