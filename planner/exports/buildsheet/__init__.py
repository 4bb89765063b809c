"""The build sheet: the PDF that leaves the sizing session. Registers the export format ``pdf``.

It is the handout the customer keeps and the sheet the installer racks and cables from, so it is
complete enough to build the system from and readable by someone who never opened SANplan.
Sections, each starting on a new page, in this order:

cover (design, customer, author, status, date, file revision, scenario, figure set) -> contents
(clickable, with the PDF outline) -> summary (in plain language first: what the design delivers,
what limits it, what survives a failure, what must be fixed; then in figures and the main
findings) -> changes from another scenario (only when ``compare_with`` is given:
``sections_changes``) -> document control (status, revision history, sign-off lines) ->
installation checklist (rack, cable, zone, map, verify, with the commands that verify) ->
topology diagram (vector; an overview with drawers, switches and subsystems collapsed, then one
page per drawer with its slots, its switches and the subsystems it reaches; parts coloured by
utilization) -> rack elevations (a page per rack or server frame) -> slot placement per drawer
(with AIX location codes) (with load against capacity of every PHB, RIO2 link and
planar) -> port map per switch (ASIC groups, backplane traffic) -> cabling schedule -> zoning per
fabric and host mappings -> storage layout -> paths and a utilization chart -> findings ->
bill of materials (parts, SFPs, cables by media and length) -> cable labels (on by default).
Every page has a header (design name, section) and a footer "Page X of Y".

The modules: ``document`` (reportlab, page templates, header and footer, rendering), ``sheet``
(what the sections share, table helpers), ``sections_*`` (the sections) and ``diagram`` (the
topology drawings). reportlab older than 3.6.13 (CVE-2023-33733: code execution through crafted
markup) is refused; reportlab is imported inside the functions that use it. The PDF is written
beside its target and renamed into place (:func:`planner.exports.output.atomic_write`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from planner.exports.buildsheet import (
    diagram,
    document,
    sections_changes,
    sections_data,
    sections_hardware,
    sections_install,
    sections_intro,
    sections_overview,
    sections_paths,
    sections_racks,
    sections_resilience,
    sections_scaling,
    sections_workloads,
)
from planner.exports.buildsheet.document import PAPERS, reportlab_problem, require_reportlab
from planner.exports.buildsheet.sheet import Revision, Sheet
from planner.exports.output import ExportError, atomic_write
from planner.exports.registry import CliFlag, ExportFormat, ExportOption, ExportSource, Progress, Written, register
from planner.figures import FIGURE_SETS
from planner.model import Topology

__all__ = ["PAPERS", "build_sheet", "reportlab_problem"]


def build_sheet(
    topo: Topology,
    path: str | os.PathLike[str],
    *,
    paper: str = "a4",
    figures: str = "planning",
    scenario: str = "",
    revision: str = "",
    labels: bool = True,
    compare_with: tuple[str, Topology] | None = None,
    compress: bool = True,
    progress: Callable[[float, str], None] | None = None,
    history: Sequence[tuple[str, str, str]] | None = None,
) -> int:
    """Write the build sheet of ``topo`` as a PDF at ``path``; return its page count.

    Parameters: ``paper`` "a4" or "letter"; ``figures`` the figure set (rated, measured,
    planning); ``scenario`` and ``revision`` are shown on the cover (the caller knows them;
    an empty revision reads "unsaved"); ``labels`` adds pages of cable labels; ``compare_with``
    (scenario name, its design) adds the section "Changes from scenario X"; ``compress=False``
    writes uncompressed page streams (tests search them); ``progress(fraction, text)`` is called
    as the sheet is analysed, assembled and laid out; ``history`` the revisions (number, date, note)
    of the file the design comes from, oldest first (None: only this sheet's own revision).
    Raises ExportError for a bad option, a reportlab without the CVE-2023-33733 fix, or a file
    that cannot be written (the target is then untouched). Time: O(components + paths).
    """
    if paper not in PAPERS:
        raise ExportError(f"paper must be {' or '.join(PAPERS)}, not {paper!r}")
    if figures not in FIGURE_SETS:
        raise ExportError(f"figure set must be one of {', '.join(FIGURE_SETS)}, not {figures!r}")
    require_reportlab()
    report = progress or (lambda fraction, text: None)
    report(0.0, "analysing the design")
    sheet = Sheet(topo, figures, scenario, revision, paper)
    sheet.history = (
        [Revision(*h) for h in history]
        if history
        else [Revision(revision or "unsaved", sheet.date, "this build sheet")]
    )
    report(0.05, "assembling the sections")
    story = _story(sheet, paper, labels, report, compare_with)
    pages = [0]

    def write(tmp: str) -> None:
        pages[0] = document.render(sheet, story, tmp, compress, report)

    atomic_write(path, write)
    report(1.0, "written")
    return pages[0]


def _story(
    sheet: Sheet,
    paper: str,
    labels: bool,
    report: Callable[[float, str], None],
    compare_with: tuple[str, Topology] | None = None,
) -> list[Any]:
    steps: list[tuple[str, Callable[[], list[Any]]]] = [
        ("cover", lambda: sections_overview.cover(sheet, paper)),
        ("summary", lambda: sections_overview.summary(sheet)),
        ("document control", lambda: sections_intro.document_block(sheet)),
        ("installation checklist", lambda: sections_install.checklist(sheet)),
        ("topology diagram", lambda: diagram.diagrams(sheet)),
        ("rack elevations", lambda: sections_racks.racks(sheet)),
        ("slot placement", lambda: sections_hardware.slots(sheet)),
        ("switch port maps", lambda: sections_hardware.switches(sheet)),
        ("cabling schedule", lambda: sections_data.cabling(sheet)),
        ("zoning", lambda: sections_data.zoning(sheet)),
        ("storage layout", lambda: sections_data.storage(sheet)),
        ("paths", lambda: sections_paths.paths(sheet)),
        ("scaling", lambda: sections_scaling.section(sheet)),
        ("resilience", lambda: sections_resilience.section(sheet)),
        ("workloads", lambda: sections_workloads.workloads(sheet)),
        ("findings", lambda: sections_overview.findings(sheet)),
        ("bill of materials", lambda: sections_install.bom(sheet)),
    ]
    if compare_with is not None:
        steps.insert(2, ("changes", lambda: sections_changes.changes(sheet, *compare_with)))
    if labels:
        steps.append(("cable labels", lambda: sections_overview.labels(sheet)))
    story: list[Any] = []
    for i, (name, make) in enumerate(steps):
        story += make()
        report(0.05 + 0.25 * (i + 1) / len(steps), f"assembled {name}")
    return story


# -- the export format ---------------------------------------------------------------------------------

PDF_FLAG = CliFlag("--pdf", "write the PDF build sheet", order=20)
PDF_OPTIONS = (
    ExportOption(
        "paper",
        "a4",
        "--paper",
        "PDF paper size (default: $SANPLAN_PAPER, else a4)",
        choices=PAPERS,
        env="SANPLAN_PAPER",
        setting="paper",
        setting_title="Build sheet &paper",
        choice_titles={"a4": "A4", "letter": "Letter"},
    ),
    ExportOption(
        "figures", "planning", "--figures", "PDF figure set (default planning)", choices=FIGURE_SETS, view="figures"
    ),
    ExportOption(
        "labels",
        True,
        "--labels",
        "PDF: pages of cable labels (on unless --no-labels)",
        setting="cable_labels",
        setting_title="Build sheet with cable &labels",
    ),
    ExportOption(
        "compare_with",
        "",
        "--changes-from",
        "PDF: add a section 'Changes from scenario SCENARIO' (another scenario of the file)",
    ),
)


def _write_pdf(source: ExportSource, path: str, *, options: dict[str, Any], progress: Progress) -> list[Written]:
    """The build sheet of the source's current scenario."""
    paper = options["paper"]
    pages = build_sheet(
        source.topology,
        path,
        paper=paper,
        figures=options["figures"],
        scenario=source.scenario,
        revision=source.revision,
        labels=bool(options["labels"]),
        compare_with=_compared(source, options.get("compare_with") or ""),
        progress=progress,
        history=_history(source),
    )
    return [Written(path, f" ({pages} pages, {'A4' if paper == 'a4' else 'Letter'})")]


def _history(source: ExportSource) -> list[tuple[str, str, str]] | None:
    """The revisions of the .sanplan file the design comes from, oldest first, as (number, date,
    note); None for a design with no file (the sheet then lists only its own revision)."""
    from planner.io import ProjectError, list_revisions

    path = source.project.path
    if path is None or path.suffix != ".sanplan" or not path.is_file():
        return None
    try:
        revisions = list_revisions(path)
    except ProjectError:
        return None
    return [(str(rid), created[:10], message or "-") for rid, created, message, _ in revisions]


def _compared(source: ExportSource, name: str) -> tuple[str, Topology] | None:
    """The scenario the build sheet shows its changes from; ExportError for one the file lacks."""
    if not name:
        return None
    if name not in source.project.scenarios:
        raise ExportError(f"no scenario {name!r} to compare with; choose one of {', '.join(source.project.scenarios)}")
    return name, source.project.scenarios[name]


register(
    ExportFormat(
        id="pdf",
        title="&Build sheet (PDF)...",
        file_filter="PDF (*.pdf)",
        extension=".pdf",
        write=_write_pdf,
        cli=PDF_FLAG,
        options=PDF_OPTIONS,
        group="build sheet",
        order=10,
        busy_text="Building the build sheet...",
    )
)
