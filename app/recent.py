"""The recently opened designs, kept in the settings (File > Open recent and the start page).

QSettings gives back what its backend stored: a list, or, from an ini file holding one entry,
a bare string (and ``None`` or ``""`` for none). :func:`recent_files` always returns a list of
paths, so no caller iterates the characters of a path.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

MAX_RECENT = 8
KEY = "recent"


def recent_files(settings: Any) -> list[str]:
    """The recent paths, newest first, without duplicates (at most :data:`MAX_RECENT`)."""
    value = settings.value(KEY, [])
    if value is None or isinstance(value, str | bytes):
        value = [value] if value else []
    out: list[str] = []
    for item in value:
        path = str(item) if item else ""
        if path and path not in out:
            out.append(path)
    return out[:MAX_RECENT]


def remember(settings: Any, path: str | os.PathLike[str]) -> list[str]:
    """Put ``path`` (made absolute) first in the recent files; returns the new list."""
    path = os.path.abspath(os.fspath(path))
    recent = [path] + [p for p in recent_files(settings) if p != path]
    return _store(settings, recent)


def forget(settings: Any, path: str | os.PathLike[str]) -> list[str]:
    """Remove ``path`` from the recent files (it was moved or deleted); returns the new list."""
    path = os.fspath(path)
    return _store(settings, [p for p in recent_files(settings) if p != path])


def _store(settings: Any, recent: list[str]) -> list[str]:
    recent = recent[:MAX_RECENT]
    settings.setValue(KEY, recent)
    settings.sync()
    return recent


def menu_text(index: int, path: str) -> str:
    """'&1 design.sanplan  (/home/me/plans)': the file name first, its folder after it."""
    p = Path(path)
    name = p.name.replace("&", "&&")
    folder = str(p.parent).replace("&", "&&")
    return f"&{index + 1} {name}  ({folder})" if index < 9 else f"{name}  ({folder})"
