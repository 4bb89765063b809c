"""Atomic file replacement shared by saves and exports: a crash never leaves a half-written file."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

from planner.io.errors import ProjectError


class TempFileError(OSError):
    """The temporary file beside the target could not be created (missing or read-only folder)."""


def atomic_replace(path: str | os.PathLike[str], write: Callable[[str], None]) -> None:
    """Create ``path`` through ``write(temporary path)``: the temporary file is written beside the
    target, fsynced, given the target's permissions and renamed over it; the folder is fsynced.

    Raises TempFileError when the temporary file cannot be created; any error from ``write`` or
    the rename is re-raised after the temporary file is removed, and ``path`` is untouched.
    Through a symlink, the file it names is replaced.
    """
    target = Path(os.path.realpath(path))
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        mode = 0o644
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
        os.close(fd)
    except OSError as err:
        raise TempFileError(err.errno, err.strerror or str(err)) from None
    try:
        write(tmp)
        fd = os.open(tmp, os.O_RDWR)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if os.name == "posix":  # make the rename durable; best effort
        with contextlib.suppress(OSError):
            dfd = os.open(target.parent, os.O_RDONLY)
            try:
                os.fsync(dfd)
            finally:
                os.close(dfd)


def replace_or_refuse(path: str | os.PathLike[str], where: str, write: Callable[[str], None]) -> None:
    """:func:`atomic_replace` for a design file: OSError and sqlite3.Error become ProjectError.

    On failure the temporary file is removed and ``path`` is untouched.
    """
    try:
        atomic_replace(path, write)
    except TempFileError as err:
        raise ProjectError(
            where, f"cannot be written ({err.strerror or err})", "check that the folder exists and you may write to it"
        ) from None
    except (OSError, sqlite3.Error) as err:
        reason = getattr(err, "strerror", None) or str(err)
        raise ProjectError(
            where, f"not saved ({reason}); nothing was overwritten", "check the disk space and permissions"
        ) from None
