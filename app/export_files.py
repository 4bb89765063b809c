"""File names for File > Export: the format's extension, and what to tell about the files written."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def with_extension(path: str, extension: str) -> str:
    """``path`` ending with ``extension`` ('sheet' -> 'sheet.pdf'); kept as it is when it already
    ends with it (any case), when the format has none, or when it names a folder (refused later
    with a reason)."""
    if not extension or not path or os.path.isdir(path) or path.lower().endswith(extension.lower()):
        return path
    return path + extension


def written_report(written: Sequence[Any]) -> tuple[str, str]:
    """(status line, detail) for the files an export wrote; the detail lists every file with its
    summary (one zoning script per fabric) and the folder, '' for a single file."""
    names = [Path(w.path).name for w in written]
    status = f"wrote {', '.join(names)}" if len(names) <= 2 else f"wrote {len(names)} files: {', '.join(names)}"
    if len(written) <= 1:
        return status, ""
    folder = Path(written[0].path).parent
    lines = [f"{Path(w.path).name}{w.summary}" for w in written]
    return status, f"In {folder}:\n" + "\n".join(lines)
