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

import hashlib
import os
import sqlite3
import time
import zlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from planner.io.atomic import replace_or_refuse
from planner.io.document import (
    FORMAT_KEYS,
    SCHEMA_VERSION,
    Progress,
    design_from_body,
    design_from_dict,
    dumps,
    dumps_in_steps,
    import_json,
    parse_json,
    share_of,
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
    short,
    show,
)
from planner.io.lock import save_lock
from planner.io.project import DEFAULT_SCENARIO, Project, as_project, scenario_name_problem
from planner.model import Topology

APPLICATION_ID = 0x53504C4E  # "SPLN"
FILE_VERSION = 2  # the .sanplan SQLite layout
MAX_REVISIONS = 100

# Limits of what a .sanplan file may hold (docs/file-format.md, "Limits"): a file beyond them is
# refused in one line, never read for ever.
MAX_FILE_BYTES = 1 << 30  # 1 GiB
MAX_SCENARIOS = 100
MAX_META_ROWS = 200
MAX_TEXT_BYTES = 64 << 20  # one scenario body, one value
MAX_DECOMPRESSED_BYTES = 64 << 20  # one revision body, decompressed
READ_SECONDS = 20.0  # SQLite work allowed for reading one file

#: the tables of each file version and their columns (views, triggers and other tables are refused)
TABLES = {
    1: {"meta": ("key", "value"), "design": ("body",)},
    2: {
        "meta": ("key", "value"),
        "scenarios": ("name", "position", "is_current", "body"),
        "revisions": ("id", "created", "message", "scenario_names", "body"),
        "sqlite_sequence": ("name", "seq"),
    },
}


class ChangedOnDisk(ProjectError):
    """The file was saved by someone else since the project was opened from it."""


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
    return _body_of_texts(current, [(name, dumps(design)) for name, design in designs])


def _body_of_texts(current: str, texts: list[tuple[str, str]]) -> bytes:
    """A revision's body from its scenarios' JSON texts (as the rows hold them): the text
    ``dumps({"current": ..., "scenarios": [{"name": ..., "design": ...}]})`` gives, put
    together rather than encoded a second time, compressed."""
    parts = ['{"current":', dumps(current), ',"scenarios":[']
    for i, (name, text) in enumerate(texts):
        parts += [',{"name":' if i else '{"name":', dumps(name), ',"design":', text, "}"]
    parts.append("]}")
    # fed a slice at a time: the same bytes as zlib.compress of the whole text encoded, without
    # a copy of the whole (a site's 13 MB, two copies held the interpreter 5-15 ms at a stretch
    # while the editor waited: the autosave runs this in a worker); compressing lets other
    # threads in
    z = zlib.compressobj(6)
    out = [z.compress(piece.encode("utf-8")) for part in parts for piece in _slices(part)]
    out.append(z.flush())
    return b"".join(out)


_SLICE = 1 << 20  # characters


def _slices(text: str) -> Iterator[str]:
    """``text`` in slices of at most :data:`_SLICE` characters (each a short copy)."""
    for start in range(0, len(text), _SLICE):
        yield text[start : start + _SLICE]


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


def open_project(path: str | os.PathLike[str], progress: Progress | None = None) -> Project:
    """Open a design: a ``.sanplan`` file or a SANplan JSON export (told apart by content).

    Older file versions are migrated in memory; the file is never written. Raises ProjectError
    (one line naming the file) for a missing, empty, truncated, damaged, foreign or newer file.
    ``progress`` is told how far the reading got (and may raise to stop it: see ``Progress``).
    """
    where = show(path)
    if read_head(path, where) != SQLITE_MAGIC:
        return import_json(path, progress)
    contents = _read_sanplan(path, where)
    scenarios: dict[str, Topology] = {}
    for k, (name, body) in enumerate(contents.scenarios):
        try:
            scenarios[name] = design_from_body(body, share_of(progress, k, len(contents.scenarios)))
        except Newer as err:
            raise ProjectError(where, str(err), FIX_NEWER) from None
        except Invalid as err:
            raise ProjectError(where, f"is damaged (scenario {name!r}: {err})", FIX_DAMAGED) from None
    project = Project.from_scenarios(scenarios, contents.current)
    project.path = Path(path)
    project.base_revision = contents.revisions[-1].id if contents.revisions else None
    return project


def _read_sanplan(path: str | os.PathLike[str], where: str, scenarios: bool = True) -> _Contents:
    """Check and read a .sanplan file (read-only, leaving no file beside it), migrating an older
    version in memory. Every read is bounded (:data:`TABLES`, the ``MAX_*`` limits, :data:`READ_SECONDS`).
    ``scenarios=False`` (revision listing and restoring) skips the scenarios' checksum, so an intact
    revision of a damaged file can still be restored."""
    _check_size(path, where)
    try:
        uri = Path(path).absolute().as_uri() + "?mode=ro&immutable=1"  # no -wal/-shm files, no locks
        con = sqlite3.connect(uri, uri=True)
    except (sqlite3.Error, ValueError, OSError) as err:
        raise ProjectError(where, f"cannot be opened ({err})", "check the file and its permissions") from None
    deadline = time.monotonic() + READ_SECONDS
    con.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
    con.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_TEXT_BYTES)
    mem: sqlite3.Connection | None = None
    try:
        version = _check_header(con, where)
        _check_schema(con, version)
        report = [row[0] for row in con.execute("PRAGMA integrity_check(5)").fetchall()]
        if report != ["ok"]:
            raise Invalid(f"integrity check: {report[0] if report else 'no answer'}")
        db = con
        if version < FILE_VERSION:
            mem = sqlite3.connect(":memory:")
            con.backup(mem)
            for v in range(version, FILE_VERSION):
                MIGRATIONS[v](mem)
            db = mem
        contents = _read_tables(db, version)
        _check_digests(contents, where, scenarios)
        return contents
    except sqlite3.Error as err:
        if time.monotonic() > deadline:
            raise ProjectError(
                where,
                f"takes too long to read (over {READ_SECONDS:.0f} s): it is damaged or not a SANplan file",
                FIX_DAMAGED,
            ) from None
        raise ProjectError(
            where, f"is damaged or not a complete SANplan file ({short(str(err))})", FIX_DAMAGED
        ) from None
    except UnicodeError:
        raise ProjectError(where, "is damaged (it holds text that is not UTF-8)", FIX_DAMAGED) from None
    except Invalid as err:
        raise ProjectError(where, f"is damaged ({err})", FIX_DAMAGED) from None
    finally:
        con.close()
        if mem is not None:
            mem.close()


def _check_size(path: str | os.PathLike[str], where: str) -> None:
    """Refuse a file over :data:`MAX_FILE_BYTES`, or shorter than its own header says (truncated)."""
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            head = f.read(100)
    except OSError as err:
        raise ProjectError(where, f"cannot be read ({err.strerror or err})", "check the file and the disk") from None
    if size > MAX_FILE_BYTES:
        raise ProjectError(
            where, f"is {size / (1 << 20):,.0f} MiB, more than a design file may be (1 GiB)", FIX_DAMAGED
        )
    if len(head) < 100:
        raise ProjectError(where, f"is truncated (only {size} bytes)", FIX_DAMAGED)
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    if page < 512 or page & (page - 1):
        raise ProjectError(where, f"is damaged (its header gives a page size of {page} bytes)", FIX_DAMAGED)
    pages = int.from_bytes(head[28:32], "big")
    valid = head[24:28] == head[92:96]  # the in-header size is valid only then (SQLite file format 1.3.7)
    if valid and pages and size < pages * page:
        raise ProjectError(
            where, f"is truncated ({size:,} of {pages * page:,} bytes)", FIX_DAMAGED + ", or restore a revision"
        )


def _check_header(con: sqlite3.Connection, where: str) -> int:
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
    return version


def _check_schema(con: sqlite3.Connection, version: int) -> None:
    """The file holds exactly the tables of its version with their columns: no view, no trigger."""
    rows = con.execute("SELECT type, name, tbl_name FROM sqlite_master LIMIT 50").fetchall()
    expected = TABLES[version]
    tables = set()
    for kind, name, table in rows:
        if kind == "table" and name in expected:
            tables.add(name)
        elif kind == "index" and str(name).startswith("sqlite_autoindex_") and table in expected:
            continue
        else:
            raise Invalid(
                f"it holds a {short(str(kind), 20)} {short(str(name), 40)!r} that is not part of a SANplan file"
            )
    missing = [t for t in expected if t not in tables and t != "sqlite_sequence"]
    if missing:
        raise Invalid(f"its table {missing[0]!r} is missing")
    for name in tables:
        columns = tuple(r[1] for r in con.execute(f'PRAGMA table_info("{name}")').fetchall())
        if columns != expected[name]:
            raise Invalid(f"its table {name!r} has the columns {', '.join(columns)}, not {', '.join(expected[name])}")


def _read_tables(db: sqlite3.Connection, version: int) -> _Contents:
    meta = {}
    for key, value in _bounded(db, "SELECT key, value FROM meta", MAX_META_ROWS, "meta rows"):
        if not isinstance(key, str) or not isinstance(value, str):
            raise Invalid("its meta table holds something other than text")
        meta[key] = value
    scenarios: list[tuple[str, str]] = []
    current = ""
    query = "SELECT name, is_current, body FROM scenarios ORDER BY position, rowid"
    for name, is_current, body in _bounded(db, query, MAX_SCENARIOS, "scenarios"):
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
    query = "SELECT id, created, message, scenario_names, body FROM revisions ORDER BY id"
    for rid, created, message, names, body in _bounded(db, query, MAX_REVISIONS + 1, "revisions"):
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


def _bounded(db: sqlite3.Connection, query: str, limit: int, what: str) -> list[tuple[Any, ...]]:
    rows = db.execute(f"{query} LIMIT {limit + 1}").fetchall()
    if len(rows) > limit:
        raise Invalid(f"it holds more than {limit} {what}")
    return rows


def _digest(rows: list[tuple[Any, ...]]) -> str:
    h = hashlib.sha256()
    for row in rows:
        for value in row:
            # a long text encoded a slice at a time (see _body_of_texts): the same bytes
            chunks = (
                [value]
                if isinstance(value, bytes)
                else [s.encode("utf-8", "surrogatepass") for s in _slices(str(value))]
            )
            h.update(sum(map(len, chunks)).to_bytes(8, "big"))
            for chunk in chunks:
                h.update(chunk)
    return h.hexdigest()


def _digests(scenarios: list[tuple[str, str]], revisions: list[_Revision]) -> dict[str, str]:
    """meta entries that let a reader tell damaged content SQLite itself cannot see."""
    out = {"sha256:scenarios": _digest(scenarios)}
    for r in revisions:
        out[f"sha256:revision:{r.id}"] = _digest([(r.id, r.created, r.message, dumps(r.names), r.body)])
    return out


def _check_digests(contents: _Contents, where: str, scenarios: bool = True) -> None:
    """Compare the content with the digests a save stored (files from before digests have none)."""
    meta = contents.meta
    intact = [
        r.id
        for r in contents.revisions
        if meta.get(f"sha256:revision:{r.id}") in (None, _digests([], [r])[f"sha256:revision:{r.id}"])
    ]
    if len(intact) < len(contents.revisions):
        bad = [r.id for r in contents.revisions if r.id not in intact]
        raise ProjectError(where, f"is damaged (revision {bad[0]} does not match its checksum)", FIX_DAMAGED)
    want = meta.get("sha256:scenarios")
    if scenarios and want is not None and want != _digest(contents.scenarios):
        fix = f"restore its revision {intact[-1]} (sanplan restore)" if intact else FIX_DAMAGED
        raise ProjectError(where, "is damaged (its scenarios do not match their checksum)", fix)


def list_revisions(path: str | os.PathLike[str]) -> list[tuple[int, str, str, list[str]]]:
    """The revisions a .sanplan file keeps, oldest first: (id, created UTC ISO time, message, scenario names)."""
    where = show(path)
    if read_head(path, where) != SQLITE_MAGIC:
        raise ProjectError(where, "is not a .sanplan design file, so it keeps no revisions", "open a .sanplan file")
    return [(r.id, r.created, r.message, list(r.names)) for r in _read_sanplan(path, where, scenarios=False).revisions]


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
    contents = _read_sanplan(path, where, scenarios=False)
    found = [r for r in contents.revisions if r.id == rev_id]
    if not found:
        kept = ", ".join(str(r.id) for r in contents.revisions) or "none"
        raise ProjectError(where, f"has no revision {rev_id!r}", f"choose one it keeps: {kept}")
    try:
        doc = parse_json(_inflate(found[0].body))
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
    project.base_revision = contents.revisions[-1].id  # restoring starts from the file as it is now
    project.next_message = f"restored revision {rev_id}"
    return project


def _inflate(body: bytes) -> bytes:
    """A revision body decompressed, refused (Invalid) beyond :data:`MAX_DECOMPRESSED_BYTES`."""
    d = zlib.decompressobj()
    data = d.decompress(body, MAX_DECOMPRESSED_BYTES)
    if d.unconsumed_tail or not d.eof:
        raise Invalid(f"it unpacks to more than {MAX_DECOMPRESSED_BYTES >> 20} MiB or is cut short")
    return data


# -- writing files ---------------------------------------------------------------------------------


def _utcnow() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def save_project(
    project: Project | Topology,
    path: str | os.PathLike[str],
    message: str = "",
    force: bool = False,
    stepwise: bool = False,
) -> Project:
    """Save ``project`` as a .sanplan file at ``path``, atomically, appending a revision.

    The file is written whole beside ``path`` and renamed over it, under the file's save lock
    (:mod:`planner.io.lock`): two writers save one after the other and both revisions are kept. On
    any failure the previous file is untouched and no temporary file is left. Revisions already in
    the file are kept (the newest :data:`MAX_REVISIONS`). Refuses (ProjectError, nothing written) to
    overwrite a file that is not a SANplan design, is damaged, or was written by a newer SANplan;
    refuses with :class:`ChangedOnDisk` when the project was opened from ``path`` and someone saved
    it since, unless ``force``. Returns the project, whose ``path`` is now ``path``. ``stepwise``:
    encoded in small steps (for a worker thread: see :func:`save_designs`).
    """
    project = as_project(project)
    designs = [(name, topology_to_dict(topo)) for name, topo in project.scenarios.items()]
    opened = _opened_from(project, path)
    revision = _save_designs(
        designs, project.current, path, str(message or project.next_message), opened, project.base_revision, force,
        stepwise,
    )  # fmt: skip
    project.path = Path(path)
    project.base_revision = revision
    project.next_message = ""
    return project


def save_designs(
    designs: list[tuple[str, dict[str, Any] | str]], current: str, path: str | os.PathLike[str], message: str = ""
) -> int:
    """Save design documents already detached from the live designs (for each scenario its
    ``topology_to_dict``, or the JSON text of it, ``current`` naming the current one) as
    :func:`save_project` does, without its changed-on-disk check (a file only this process
    writes: the autosave). Meant for a worker thread: a document still to encode is encoded in
    small steps (Python's pure encoder, same text), so the GUI thread is never kept from the
    interpreter for long; the one-shot C encoder holds it through a whole site (about 100 ms per
    design on the 16x site). Returns the revision written."""
    return _save_designs(designs, current, path, message, False, None, True, stepwise=True)


def _save_designs(
    designs: list[tuple[str, dict[str, Any] | str]],
    current: str,
    path: str | os.PathLike[str],
    message: str,
    opened: bool,
    base: int | None,
    force: bool,
    stepwise: bool = False,
) -> int:
    where = show(path)
    try:
        rows, body = _rows_and_body(designs, current, stepwise)
    except (TypeError, ValueError) as err:
        raise ProjectError(
            where, f"not saved: the design holds a value a file cannot store ({short(str(err))})", "correct that value"
        ) from None
    with save_lock(path, where):
        kept = _revisions_to_keep(path, where)
        newest = kept[-1] if kept else None
        if not force and newest is not None and opened and base != newest.id:
            raise ChangedOnDisk(
                where,
                f"not saved: it was saved elsewhere since you opened it (revision {newest.id}, {newest.created})",
                "save under another name, or reopen it; to overwrite it anyway, save again and confirm",
            )
        now = _utcnow()
        revision = _Revision(
            max((r.id for r in kept), default=0) + 1,
            now,
            message,
            [name for name, _ in designs],
            body,
        )
        revisions = [*kept, revision][-MAX_REVISIONS:]
        meta = {
            "application": "SANplan",
            "file_version": str(FILE_VERSION),
            "schema_version": str(SCHEMA_VERSION),
            "saved": now,
            **_digests([(name, text) for name, _, _, text in rows], revisions),
        }
        replace_or_refuse(path, where, lambda tmp: _write_sanplan(tmp, meta, rows, revisions))
    return revision.id


def _rows_and_body(
    designs: list[tuple[str, dict[str, Any] | str]], current: str, stepwise: bool = False
) -> tuple[list[tuple[str, int, int, str]], bytes]:
    encode = dumps_in_steps if stepwise else dumps
    rows = [
        (name, pos, int(name == current), design if isinstance(design, str) else encode(design))
        for pos, (name, design) in enumerate(designs)
    ]
    return rows, _body_of_texts(current, [(name, text) for name, _, _, text in rows])


def _opened_from(project: Project, path: str | os.PathLike[str]) -> bool:
    if project.path is None:
        return False
    try:
        return os.path.samefile(project.path, path)
    except OSError:
        return False


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
        return _read_sanplan(path, where, scenarios=False).revisions  # its scenarios are being replaced
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
