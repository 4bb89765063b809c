"""Reading a design file for the window: in a worker, with a progress dialog and Cancel.

Reading the 16x site (55,393 components) took 0.8-1.4 s on the GUI thread and the 32x site 1.1 s
more, the window frozen meanwhile with no word of what it was doing. The file is now read by a
worker (:func:`app.dialogs.run_with_progress`: the dialog shows after 0.4 s, the window keeps
painting, Cancel leaves the design shown as it was); the window then shows what was read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.dialogs import Cancelled, run_with_progress
from planner.io import Project, ProjectError, open_project


def read_project(window: Any, path: str | Path, title: str | None = None) -> Project | None:
    """The project in ``path``, read with progress; None when the user cancelled (said in the
    status bar) or the file cannot be read (said in a message naming the file and the fix;
    ``title``: its title, else "Cannot open" and the file's name)."""
    name = Path(path).name
    try:
        return run_with_progress(
            window, f"Opening {name}...", lambda progress: open_project(path, progress), name="open"
        )
    except Cancelled:
        window.show_message(f"opening {name} cancelled; the design shown is unchanged", error=False)
    except ProjectError as err:
        window.ask("error", title or f"Cannot open {name}", str(err))
    return None
