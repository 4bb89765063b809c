"""Design > Compare scenarios...: two scenarios of the open project side by side
(:class:`widgets.compare.CompareDialog`), and from it the build sheet of one with a section of the
changes from the other. Nothing here edits the design."""

from __future__ import annotations

from typing import Any

from app.actions.registry import DesignAction, register


def default_pair(project: Any) -> tuple[str, str]:
    """(old, new) shown first: the first scenario against the current one (or, when the current one
    is the first, against the second)."""
    names = list(project.scenarios)
    current = project.current
    return (names[0], current) if current != names[0] else (current, names[1])


def compare_scenarios(window: Any, dialog_factory: Any = None) -> Any:
    """Open the comparison (non-blocking) and keep it as ``window.last_dialog``; None when the
    project has a single scenario (the status line says how to make another)."""
    project = window.doc.project
    if len(project.scenarios) < 2:
        window.doc.message.emit(
            "Compare scenarios: this design has one scenario; make another with "
            "Design > Scenarios > Duplicate current..., change it, then compare"
        )
        return None
    if dialog_factory is None:
        from widgets.compare import CompareDialog as dialog_factory
    old, new = default_pair(project)
    dlg = dialog_factory(project.scenarios, old, new, window.doc.figures, window)
    dlg.buildSheetRequested.connect(lambda o, n, f: build_sheet_with_changes(window, o, n, f))
    window.last_dialog = dlg
    dlg.open()
    return dlg


def build_sheet_with_changes(window: Any, old: str, new: str, figures: str) -> list[Any] | None:
    """Ask for a file and write the build sheet of scenario ``new`` with its changes from ``old``.
    Returns what was written (None when cancelled or failed; a failure is shown)."""
    from app.dialogs import Cancelled, run_with_progress
    from app.export_files import with_extension, written_report
    from app.session import _latest_revision
    from planner.exports import ExportSource, get
    from planner.io import Project

    doc = window.doc
    fmt = get("pdf")
    path = window.ask("export", f"Build sheet of {new} with the changes from {old}", fmt.file_filter)
    if not path:
        return None
    path = with_extension(str(path), fmt.extension)
    view = Project.from_scenarios(doc.project.scenarios, new)  # the same designs, ``new`` current
    source = ExportSource(
        view, lambda: "unsaved" if not doc.is_clean() or doc.path is None else _latest_revision(doc.path)
    )
    options = {
        "figures": figures,
        "paper": str(window.settings.value("paper", "a4")),
        "compare_with": old,
    }
    try:
        written = run_with_progress(
            window, fmt.busy_text or "Building the build sheet...", lambda p: fmt.export(source, path, options, p)
        )
    except Cancelled:
        window.show_message("export cancelled; nothing was written", error=False)
        return None
    except Exception as err:  # the export names its problem; never a traceback
        window.ask("error", "Export failed", str(err))
        return None
    window.show_message(written_report(written)[0], error=False)
    return written


register(
    DesignAction(
        "compare-scenarios",
        "&Compare scenarios...",
        compare_scenarios,
        tip="Two scenarios side by side: aggregates, binding hops, findings and parts that change",
        order=900,
    )
)
