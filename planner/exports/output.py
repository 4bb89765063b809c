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


def write_texts(files: dict[str, str]) -> None:
    """Write several UTF-8 files all or none: each is written whole beside its target first; only
    when every one is written are they renamed into place. A failure (a full disk) removes the
    temporary files, leaves every target as it was, and raises ExportError."""
    import contextlib
    import tempfile

    temps: list[tuple[str, str]] = []
    try:
        for path, text in files.items():
            target = Path(os.path.realpath(path))
            if target.is_dir():
                raise ExportError(f"{path}: is a folder; choose a file name")
            try:
                fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
            except OSError as err:
                raise ExportError(
                    f"{path}: cannot be written ({err.strerror or err}); check that the folder exists and you may "
                    "write to it"
                ) from None
            temps.append((tmp, str(target)))
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(text.encode("utf-8"))
                    f.flush()
                    os.fsync(f.fileno())
            except OSError as err:
                raise ExportError(
                    f"{path}: not written ({err.strerror or err}); no file of this export was written, check the "
                    "disk space"
                ) from None
        for tmp, target in temps:
            os.replace(tmp, target)
        temps = []
    finally:
        for tmp, _ in temps:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
