"""One writer at a time: a lock held while a design file is saved.

A save takes an exclusive lock on ``.<name>.lock`` beside the design (``fcntl.flock`` on POSIX,
``msvcrt.locking`` on Windows), so two SANplans (or two ``sanplan import`` runs) saving the same
file do it one after the other: each save is kept as a revision, none vanishes. The lock is released
by the system if the process dies; the holder removes the lock file when it is done (on Windows
the empty lock file stays). A writer that cannot get the lock within ``timeout`` seconds is refused
with a message; it never writes without it.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path

from planner.io.errors import ProjectError

try:  # POSIX
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)

    _UNLINK_WHEN_DONE = True
except ImportError:  # Windows
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        with contextlib.suppress(OSError):
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

    _UNLINK_WHEN_DONE = False


def lock_path(path: str | os.PathLike[str]) -> Path:
    target = Path(os.path.realpath(path))
    return target.with_name(f".{target.name}.lock")


@contextlib.contextmanager
def save_lock(path: str | os.PathLike[str], where: str, timeout: float = 10.0) -> Iterator[None]:
    """Hold the save lock of the design at ``path``; raises ProjectError after ``timeout`` seconds."""
    lock = lock_path(path)
    deadline = time.monotonic() + timeout
    while True:
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as err:
            raise ProjectError(
                where,
                f"cannot be written ({err.strerror or err})",
                "check that the folder exists and you may write to it",
            ) from None
        if _try_lock(fd) and _still_the_lock(fd, lock):
            break
        os.close(fd)
        if time.monotonic() > deadline:
            raise ProjectError(
                where, "not saved: another program is saving this design right now", "try again in a moment"
            )
        time.sleep(0.02)
    try:
        yield
    finally:
        if _UNLINK_WHEN_DONE:
            with contextlib.suppress(OSError):
                os.unlink(lock)
        _unlock(fd)
        os.close(fd)


def _still_the_lock(fd: int, lock: Path) -> bool:
    """The file we locked is still the lock file (the previous holder may have removed it)."""
    try:
        return os.fstat(fd).st_ino == os.stat(lock).st_ino
    except OSError:
        return False
