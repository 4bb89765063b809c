"""Where the editor keeps its state between runs: the data folder, settings, autosaves.

``SANPLAN_HOME`` (tests, portable installs) puts everything in one folder. Autosaves of a
session that did not end cleanly are offered for recovery (:func:`pending_recovery`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from PySide6.QtCore import QSettings, QStandardPaths

from planner.io import ProjectError

APP_NAME = "SANplan"


def data_dir() -> Path:
    base = os.environ.get("SANPLAN_HOME") or QStandardPaths.writableLocation(
        QStandardPaths.StandardLocation.AppDataLocation
    )
    path = Path(base or Path.home() / ".local" / "share" / "sanplan")
    path.mkdir(parents=True, exist_ok=True)
    return path


def settings() -> QSettings:
    if os.environ.get("SANPLAN_HOME"):
        return QSettings(str(Path(os.environ["SANPLAN_HOME"]) / "settings.ini"), QSettings.Format.IniFormat)
    return QSettings(APP_NAME, APP_NAME)


def pending_recovery(exclude_pid: int | None = None) -> list[tuple[Path, dict]]:
    """Autosaved designs of sessions that did not end cleanly, newest first."""
    folder = data_dir() / "autosave"
    out = []
    for note_path in folder.glob("session-*.json") if folder.exists() else ():
        try:
            note = json.loads(note_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if exclude_pid is not None and note.get("pid") == exclude_pid:
            continue
        if note.get("pid") and _alive(int(note["pid"])) and note.get("pid") != os.getpid():
            continue  # another SANplan still runs with it
        design = note_path.with_suffix(".sanplan")
        if design.exists():
            out.append((design, note))
    return sorted(out, key=lambda x: -x[1].get("time", 0))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True


def _remove_autosave(design: Path) -> None:
    for p in (design, design.with_suffix(".json")):
        try:
            p.unlink()
        except FileNotFoundError:
            pass


def _latest_revision(path: Path) -> str:
    from planner.io import list_revisions

    try:
        revs = list_revisions(path)
    except ProjectError:
        return "unsaved"
    return str(revs[-1][0]) if revs else "unsaved"
