"""Writing an export's file: one clear error, and never a half-written file.

:func:`atomic_write` writes beside the target and renames it into place (planner.io.atomic), so a
failed export leaves the old file, or none, where the target was.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from planner.io.atomic import TempFileError, atomic_replace


class ExportError(ValueError):
    """An export that cannot be made, as one line naming the file or option and the fix."""


def atomic_write(path: str | os.PathLike[str], write: Callable[[str], None]) -> None:
    """Create ``path`` through ``write(temporary path)`` atomically (planner.io.atomic). Raises
    ExportError (one line) for a folder, a missing or read-only folder, a full disk; other
    exceptions from ``write`` pass through after the clean-up; an existing ``path`` is untouched."""
    shown = os.fspath(path)
    if Path(os.path.realpath(path)).is_dir():
        raise ExportError(f"{shown}: is a folder; choose a file name")
    try:
        atomic_replace(path, write)
    except TempFileError as err:
        raise ExportError(
            f"{shown}: cannot be written ({err.strerror or err}); check that the folder exists and you may write to it"
        ) from None
    except OSError as err:
        raise ExportError(
            f"{shown}: not written ({err.strerror or err}); nothing was overwritten, check the disk space and permissions"
        ) from None


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write UTF-8 text (``\\n`` line ends) atomically."""
    data = text.encode("utf-8")

    def write(tmp: str) -> None:
        with open(tmp, "wb") as f:
            f.write(data)

    atomic_write(path, write)
