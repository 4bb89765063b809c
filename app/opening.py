"""Reading a design file for the window: in a worker, with a progress dialog and Cancel.

Read on the GUI thread, the 16x site (55,393 components) froze the window 0.5-0.6 s and the 32x
site 1.1 s, with no word of what it was doing. The file is now read by a
worker (:func:`app.dialogs.run_with_progress`: the dialog shows after 0.4 s, the window keeps
painting, Cancel leaves the design shown as it was); the window then shows what was read.

What the worker makes is frozen as it is made, as a lane's layout is (``gui_gc.lane_making``):
the GUI thread's collector walked it in young collections while it was read (12-14 ms each,
freeing nothing), promoted it, and the first full collection after (CPython's rule: the objects
promoted since the last one outnumber a quarter of its survivors) fell inside the canvas's first
layout, on the GUI thread (the 32x site: that layout's pass over the cables 68-82 ms instead of
18).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app import gui_gc
from app.dialogs import Cancelled, run_with_progress
from app.document import Prepared
from planner.io import Project, ProjectError, open_project
from planner.layout import default_collapsed, layout
from planner.model import Topology

#: a scenario of at least this many components is prepared by a worker before it is shown
#: (see :func:`prepare_shown`: the p690 benchmark's switch blocked 21 ms on the GUI thread)
PREPARE_AT = 1_000
#: the share of an open's progress bar that reading takes (the first layout takes the rest)
READ_SHARE = 0.9


def read_project(window: Any, path: str | Path, title: str | None = None) -> Project | None:
    """The project in ``path``, read with progress; None when the user cancelled (said in the
    status bar) or the file cannot be read (said in a message naming the file and the fix;
    ``title``: its title, else "Cannot open" and the file's name). The worker also lays the
    design out and copies it for the background, offered to the window's document (see
    :func:`prepare`)."""
    name = Path(path).name

    def read(progress: Any) -> tuple[Project, Prepared]:
        def told(share: float, text: str) -> None:  # (the dialog's text names the file)
            progress(share * READ_SHARE, f"Opening {name}: {text[:1].lower()}{text[1:]}")

        with gui_gc.lane_making(gui_gc.MAKING_COMPONENTS):  # (see the module docstring)
            project = open_project(path, told)
            progress(READ_SHARE, f"Opening {name}: laying the diagram out")
            return project, prepare(project.topology)

    try:
        project, prepared = run_with_progress(window, f"Opening {name}...", read, name="open")
        window.doc.offer(prepared)
        return project
    except Cancelled:
        window.show_message(f"opening {name} cancelled; the design shown is unchanged", error=False)
    except ProjectError as err:
        window.ask("error", title or f"Cannot open {name}", str(err))
    return None


def prepare(topo: Topology) -> Prepared:
    """What the window makes of ``topo`` as it shows it, made beforehand (by the worker that
    read it): its layout as the canvas first shows it (its groups folded by default, the
    editor's boxes) and the background's snapshot. On the GUI thread, opening the 16x site
    spent 78 ms of a 95-ms block laying it out; the 32x site blocked about 100 ms for each."""
    collapsed = frozenset(default_collapsed(topo))
    diagram = layout(topo, set(collapsed), editor=True)
    return Prepared(topo, topo.revision, collapsed, diagram, topo.snapshot())


def saving(window: Any, path: str | Path | None) -> Any:
    """A runner for ``Document.save``: the save in a worker, the window painting meanwhile
    and its input held by a progress dialog without Cancel (shown after 0.4 s). Saving the 16x
    site on the GUI thread blocked it 190-210 ms (its design encoded and written); the worker
    encodes it in small steps (``save_project(..., stepwise=True)``)."""
    name = Path(path).name if path else "the design"
    return lambda job: run_with_progress(window, f"Saving {name}...", job, name="save", cancellable=False)


def copy_design(window: Any, topo: Topology) -> Topology:
    """A copy of ``topo`` (a new scenario's), made by a worker behind a progress dialog without
    Cancel, frozen for the collector as it is made (see the module docstring), and prepared to
    be shown (offered to the window's document: see :func:`prepare`): duplicating a scenario of
    the 16x site blocked the editor about 240 ms, the copy most of it, then 100 ms for its
    first layout and the background's copy."""

    def copy(progress: Any) -> Prepared:
        with gui_gc.lane_making(len(topo)):
            return prepare(topo.clone())

    prepared = run_with_progress(window, "Copying the scenario...", copy, name="copy", cancellable=False)
    window.doc.offer(prepared)
    return prepared.topo


def prepare_shown(window: Any, topo: Topology) -> None:
    """Prepare ``topo`` (another scenario's design, about to be shown) in a worker behind a
    progress dialog without Cancel, and offer it to the window's document; a design of fewer
    than :data:`PREPARE_AT` components is laid out as it is shown, in a moment."""
    if len(topo) < PREPARE_AT:
        return

    def prepared(progress: Any) -> Prepared:
        with gui_gc.lane_making(len(topo)):
            return prepare(topo)

    window.doc.offer(run_with_progress(window, "Showing the scenario...", prepared, name="prepare", cancellable=False))
