"""The design file (``.sanplan``): a SQLite application file holding one project.

A ``.sanplan`` file (``PRAGMA application_id`` = "SPLN", ``PRAGMA user_version`` = the file
version) holds one design as named scenarios, each with the part figures it was planned with, plus
a revision history. Every earlier file version opens through a registered migration
(:data:`MIGRATIONS`), done in memory: opening never writes. A save writes a whole new file beside
the old one and renames it into place, so a crash during a save leaves the previous file as it
was. The layout is described in ``docs/file-format.md``.

Every problem a user can cause (missing, truncated, damaged, foreign or newer files) raises
:class:`~planner.io.errors.ProjectError` with one line naming the file, the problem and the fix.
"""

from __future__ import annotations

import os
import sqlite3
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from planner.io.atomic import replace_or_refuse
from planner.io.document import (
    FORMAT_KEYS,
    SCHEMA_VERSION,
    design_from_body,
    design_from_dict,
    dumps,
    import_json,
    parse_json,
    topology_to_dict,
    upgrade,
)
from planner.io.errors import (
    FIX_DAMAGED,
    FIX_NEWER,
    FIX_NOT_OURS,
    FIX_TAKEN,
    SQLITE_MAGIC,
    Invalid,
    Newer,
    ProjectError,
    read_head,
    show,
)
from planner.io.project import DEFAULT_SCENARIO, Project, as_project, scenario_name_problem
from planner.model import Topology

APPLICATION_ID = 0x53504C4E  # "SPLN"
FILE_VERSION = 2  # the .sanplan SQLite layout
MAX_REVISIONS = 100


@dataclass
class _Revision:
    id: int
    created: str
    message: str
    names: list[str]
    body: bytes  # zlib-compressed JSON: {"current": name, "scenarios": [{"name", "design"}]}


@dataclass
class _Contents:
    """A .sanplan file's rows, migrated to :data:`FILE_VERSION` (in memory)."""

    version: int  # the version on disk
    meta: dict[str, str]
    scenarios: list[tuple[str, str]]  # (name, JSON body), by position
    current: str
    revisions: list[_Revision]


_SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE scenarios (name TEXT PRIMARY KEY, position INTEGER NOT NULL, is_current INTEGER NOT NULL,"
    " body TEXT NOT NULL)",
    "CREATE TABLE revisions (id INTEGER PRIMARY KEY AUTOINCREMENT, created TEXT NOT NULL, message TEXT NOT NULL,"
    " scenario_names TEXT NOT NULL, body BLOB NOT NULL)",
)


def _revision_body(current: str, designs: list[tuple[str, dict[str, Any]]]) -> bytes:
    doc = {"current": current, "scenarios": [{"name": name, "design": design} for name, design in designs]}
    return zlib.compress(dumps(doc).encode("utf-8"), 6)


def _migrate_1_to_2(db: sqlite3.Connection) -> None:
    """File version 1 held one design (table ``design``); it becomes scenario "Base" with one revision."""
    rows = db.execute("SELECT body FROM design").fetchall()
    if len(rows) != 1 or not isinstance(rows[0][0], str):
        raise Invalid(f"its design table holds {len(rows)} designs instead of one")
    body = rows[0][0]
    saved = dict(db.execute("SELECT key, value FROM meta").fetchall()).get("saved", "")
    revision = _revision_body(DEFAULT_SCENARIO, [(DEFAULT_SCENARIO, parse_json(body))])
    for statement in _SCHEMA[1:]:
        db.execute(statement)
    db.execute("INSERT INTO scenarios VALUES (?, 0, 1, ?)", (DEFAULT_SCENARIO, body))
    db.execute(
        "INSERT INTO revisions (created, message, scenario_names, body) VALUES (?, ?, ?, ?)",
        (str(saved or ""), "migrated from file version 1", dumps([DEFAULT_SCENARIO]), revision),
    )
    db.execute("DROP TABLE design")
    db.execute("INSERT OR REPLACE INTO meta VALUES ('file_version', ?)", (str(FILE_VERSION),))


#: file migrations: version n -> function upgrading an (in-memory) database from n to n+1
MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {1: _migrate_1_to_2}


def open_project(path: str | os.PathLike[str]) -> Project:
    """Open a design: a ``.sanplan`` file or a SANplan JSON export (told apart by content).

    Older file versions are migrated in memory; the file is never written. Raises ProjectError
    (one line naming the file) for a missing, empty, truncated, damaged, foreign or newer file.
    """
    where = show(path)
    if read_head(path, where) != SQLITE_MAGIC:
        return import_json(path)
    contents = _read_sanplan(path, where)
    scenarios: dict[str, Topology] = {}
    for name, body in contents.scenarios:
        try:
            scenarios[name] = design_from_body(body)
        except Newer as err:
            raise ProjectError(where, str(err), FIX_NEWER) from None
        except Invalid as err:
            raise ProjectError(where, f"is damaged (scenario {name!r}: {err})", FIX_DAMAGED) from None
    project = Project.from_scenarios(scenarios, contents.current)
    project.path = Path(path)
    return project


def _read_sanplan(path: str | os.PathLike[str], where: str) -> _Contents:
    """Check and read a .sanplan file (read-only), migrating an older version in memory."""
    try:
        uri = Path(path).absolute().as_uri() + "?mode=ro"
        con = sqlite3.connect(uri, uri=True)
    except (sqlite3.Error, ValueError, OSError) as err:
        raise ProjectError(where, f"cannot be opened ({err})", "check the file and its permissions") from None
    mem: sqlite3.Connection | None = None
    try:
        app_id = con.execute("PRAGMA application_id").fetchone()[0]
        version = con.execute("PRAGMA user_version").fetchone()[0]
        if app_id != APPLICATION_ID:
            raise ProjectError(
                where, "is not a SANplan design (it is a SQLite database of another application)", FIX_NOT_OURS
            )
        if version > FILE_VERSION:
            raise ProjectError(where, f"was written by a newer SANplan (file version {version})", FIX_NEWER)
        if version < 1:
            raise Invalid(f"it has no valid file version ({version})")
        report = [row[0] for row in con.execute("PRAGMA integrity_check").fetchall()]
        if report != ["ok"]:
            raise Invalid(f"integrity check: {report[0] if report else 'no answer'}")
        db = con
        if version < FILE_VERSION:
            mem = sqlite3.connect(":memory:")
            con.backup(mem)
            for v in range(version, FILE_VERSION):
                MIGRATIONS[v](mem)
            db = mem
        return _read_tables(db, version)
    except sqlite3.Error as err:
        raise ProjectError(where, f"is damaged or not a complete SANplan file ({err})", FIX_DAMAGED) from None
    except Invalid as err:
        raise ProjectError(where, f"is damaged ({err})", FIX_DAMAGED) from None
    finally:
        con.close()
        if mem is not None:
            mem.close()


def _read_tables(db: sqlite3.Connection, version: int) -> _Contents:
    meta = {}
    for key, value in db.execute("SELECT key, value FROM meta"):
        if not isinstance(key, str) or not isinstance(value, str):
            raise Invalid("its meta table holds something other than text")
        meta[key] = value
    scenarios: list[tuple[str, str]] = []
    current = ""
    for name, is_current, body in db.execute("SELECT name, is_current, body FROM scenarios ORDER BY position, rowid"):
        problem = scenario_name_problem(name, [n for n, _ in scenarios])
        if problem:
            raise Invalid(f"a scenario name {problem}")
        if not isinstance(body, str):
            raise Invalid(f"scenario {name!r} holds no design")
        scenarios.append((name, body))
        if is_current and not current:
            current = name
    if not scenarios:
        raise Invalid("it holds no scenario")
    revisions = []
    for rid, created, message, names, body in db.execute(
        "SELECT id, created, message, scenario_names, body FROM revisions ORDER BY id"
    ):
        if not (
            isinstance(rid, int) and isinstance(created, str) and isinstance(message, str) and isinstance(body, bytes)
        ):
            raise Invalid(f"revision {rid!r} is malformed")
        try:
            listed = parse_json(names) if isinstance(names, str) else None
        except Invalid:
            listed = None
        if not isinstance(listed, list) or not all(isinstance(n, str) for n in listed):
            raise Invalid(f"revision {rid} does not list its scenarios")
        revisions.append(_Revision(rid, created, message, listed, body))
    return _Contents(version, meta, scenarios, current or scenarios[0][0], revisions)


def list_revisions(path: str | os.PathLike[str]) -> list[tuple[int, str, str, list[str]]]:
    """The revisions a .sanplan file keeps, oldest first: (id, created UTC ISO time, message, scenario names)."""
    where = show(path)
    if read_head(path, where) != SQLITE_MAGIC:
        raise ProjectError(where, "is not a .sanplan design file, so it keeps no revisions", "open a .sanplan file")
    return [(r.id, r.created, r.message, list(r.names)) for r in _read_sanplan(path, where).revisions]


def restore_revision(path: str | os.PathLike[str], rev_id: int) -> Project:
    """The project as revision ``rev_id`` of the file saved it. Nothing is written: save it to keep it
    (the save records a new revision "restored revision N")."""
    where = show(path)
    if read_head(path, where) != SQLITE_MAGIC:
        raise ProjectError(where, "is not a .sanplan design file, so it keeps no revisions", "open a .sanplan file")
    try:
        rev_id = int(rev_id)
    except (TypeError, ValueError):
        raise ProjectError(
            where, f"has no revision {rev_id!r}", "give a revision number (see the list of revisions)"
        ) from None
    contents = _read_sanplan(path, where)
    found = [r for r in contents.revisions if r.id == rev_id]
    if not found:
        kept = ", ".join(str(r.id) for r in contents.revisions) or "none"
        raise ProjectError(where, f"has no revision {rev_id!r}", f"choose one it keeps: {kept}")
    try:
        doc = parse_json(zlib.decompress(found[0].body))
        if not isinstance(doc, dict) or not isinstance(doc.get("scenarios"), list):
            raise Invalid("it lists no scenarios")
        scenarios: dict[str, Topology] = {}
        for item in doc["scenarios"]:
            if not isinstance(item, dict) or scenario_name_problem(item.get("name"), scenarios):
                raise Invalid("a scenario is unnamed or named twice")
            scenarios[item["name"]] = design_from_dict(upgrade(item.get("design")), allowed=FORMAT_KEYS)
        current = doc.get("current")
        if not scenarios or current not in scenarios:
            raise Invalid("it names no current scenario")
    except zlib.error as err:
        raise ProjectError(where, f"revision {rev_id} is damaged ({err})", "restore another revision") from None
    except Newer as err:
        raise ProjectError(where, f"revision {rev_id} {err}", FIX_NEWER) from None
    except Invalid as err:
        raise ProjectError(where, f"revision {rev_id} is damaged ({err})", "restore another revision") from None
    project = Project.from_scenarios(scenarios, current)
    project.path = Path(path)
    project.next_message = f"restored revision {rev_id}"
    return project


# -- writing files ---------------------------------------------------------------------------------


def _utcnow() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def save_project(project: Project | Topology, path: str | os.PathLike[str], message: str = "") -> Project:
    """Save ``project`` as a .sanplan file at ``path``, atomically, appending a revision.

    The file is written whole beside ``path`` and renamed over it; on any failure the previous
    file is untouched and no temporary file is left. Revisions already in the file are kept
    (the newest :data:`MAX_REVISIONS`). Refuses (ProjectError, nothing written) to overwrite a
    file that is not a SANplan design, is damaged, or was written by a newer SANplan. Returns the
    project, whose ``path`` is now ``path``.
    """
    project = as_project(project)
    where = show(path)
    kept = _revisions_to_keep(path, where)
    now = _utcnow()
    try:
        designs = [(name, topology_to_dict(topo)) for name, topo in project.scenarios.items()]
        rows = [(name, pos, int(name == project.current), dumps(design)) for pos, (name, design) in enumerate(designs)]
        body = _revision_body(project.current, designs)
    except (TypeError, ValueError) as err:
        raise ProjectError(
            where, f"not saved: the design holds a value a file cannot store ({err})", "correct that value"
        ) from None
    revision = _Revision(
        max((r.id for r in kept), default=0) + 1,
        now,
        str(message or project.next_message),
        list(project.scenarios),
        body,
    )
    revisions = [*kept, revision][-MAX_REVISIONS:]
    meta = {
        "application": "SANplan",
        "file_version": str(FILE_VERSION),
        "schema_version": str(SCHEMA_VERSION),
        "saved": now,
    }
    replace_or_refuse(path, where, lambda tmp: _write_sanplan(tmp, meta, rows, revisions))
    project.path = Path(path)
    project.next_message = ""
    return project


def _revisions_to_keep(path: str | os.PathLike[str], where: str) -> list[_Revision]:
    """The revisions of the SANplan file at ``path`` (none if there is no file); refuses other files."""
    if not os.path.exists(path):  # a dangling symlink counts as no file: the save creates its target
        return []
    if os.path.isdir(path):
        raise ProjectError(where, "is a folder", "choose a file name")
    try:
        head = read_head(path, where)
    except ProjectError as err:
        raise ProjectError(where, f"not saved: it {err.problem}", FIX_TAKEN) from None
    if head != SQLITE_MAGIC:
        try:
            import_json(path)
        except ProjectError:
            raise ProjectError(where, "not saved: it is not a SANplan design", FIX_TAKEN) from None
        raise ProjectError(where, "not saved: it is a SANplan JSON export, not a .sanplan file", FIX_TAKEN)
    try:
        return _read_sanplan(path, where).revisions
    except ProjectError as err:
        raise ProjectError(where, f"not saved: it {err.problem}", FIX_TAKEN) from None


def _write_sanplan(
    tmp: str, meta: Mapping[str, str], rows: list[tuple[str, int, int, str]], revisions: list[_Revision]
) -> None:
    con = sqlite3.connect(tmp, isolation_level=None)
    try:
        con.execute("PRAGMA journal_mode = MEMORY").fetchall()  # the temp file is thrown away on failure
        con.execute("BEGIN")
        con.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        con.execute(f"PRAGMA user_version = {FILE_VERSION}")
        for statement in _SCHEMA:
            con.execute(statement)
        con.executemany("INSERT INTO meta VALUES (?, ?)", list(meta.items()))
        con.executemany("INSERT INTO scenarios VALUES (?, ?, ?, ?)", rows)
        con.executemany(
            "INSERT INTO revisions VALUES (?, ?, ?, ?, ?)",
            [(r.id, r.created, r.message, dumps(r.names), r.body) for r in revisions],
        )
        con.execute("COMMIT")
    finally:
        con.close()
