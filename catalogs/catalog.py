"""The parts catalog: built-in parts from ``builtin/parts.toml`` plus the user's own parts, in SQLite.

The built-in data lives in the repository as reviewable TOML; every figure carries its source.
The SQLite catalog (one file per user) has a schema version with registered migrations. When the
built-in catalog's ``catalog_version`` changes, its rows are replaced; user parts live in their
own table and survive.
"""

from __future__ import annotations

import json
import os
import sqlite3
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from planner.io.parts import part_problem, part_where

BUILTIN_PATH = Path(__file__).with_name("builtin") / "parts.toml"
SCHEMA_VERSION = 2


class CatalogError(ValueError):
    """A catalog problem the user can fix; the message names the part or file."""


def validate_part(part: Any, where: str = "part") -> dict[str, Any]:
    """Check a part record with :func:`planner.io.parts.part_problem`. Returns the part.

    Raises CatalogError naming the part (``part <id>``, else ``where``) and the problem.
    """
    problem = part_problem(part)
    if problem:
        raise CatalogError(f"{part_where(part, where)}: {problem}")
    return part


def load_builtin(path: Path = BUILTIN_PATH) -> tuple[int, dict[str, dict[str, Any]]]:
    """Parse the built-in TOML catalog: (catalog_version, parts by id)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as err:
        raise CatalogError(f"built-in catalog {path}: {err}") from None
    parts: dict[str, dict[str, Any]] = {}
    for i, part in enumerate(data.get("parts", [])):
        validate_part(part, f"{path.name} part #{i + 1}")
        if part["id"] in parts:
            raise CatalogError(f"{path.name}: part id {part['id']} appears twice")
        parts[part["id"]] = part
    return int(data.get("catalog_version", 1)), parts


# -- schema migrations -------------------------------------------------------------------------


def _migrate_0_to_1(db: sqlite3.Connection) -> None:
    db.execute("CREATE TABLE builtin_parts (id TEXT PRIMARY KEY, kind TEXT NOT NULL, body TEXT NOT NULL)")
    db.execute("CREATE TABLE user_parts (id TEXT PRIMARY KEY, kind TEXT NOT NULL, body TEXT NOT NULL)")
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")


def _migrate_1_to_2(db: sqlite3.Connection) -> None:
    # version 2 records when a user part was created and last changed
    db.execute("ALTER TABLE user_parts ADD COLUMN created TEXT NOT NULL DEFAULT ''")
    db.execute("ALTER TABLE user_parts ADD COLUMN modified TEXT NOT NULL DEFAULT ''")


MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {0: _migrate_0_to_1, 1: _migrate_1_to_2}


class Catalog:
    """Built-in and user parts. ``Catalog(":memory:")`` for a throw-away catalog."""

    def __init__(self, path: str | os.PathLike[str] = ":memory:", builtin_path: Path = BUILTIN_PATH) -> None:
        self.path = str(path)
        try:
            self.db = sqlite3.connect(self.path)
            self.db.execute("PRAGMA foreign_keys=ON")
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.DatabaseError as err:
            raise CatalogError(
                f"catalog {self.path} cannot be opened: {err}; move it aside to start a fresh one"
            ) from None
        if version > SCHEMA_VERSION:
            raise CatalogError(
                f"catalog {self.path} was written by a newer SANplan (schema {version}); upgrade SANplan"
            )
        with self.db:
            while version < SCHEMA_VERSION:
                MIGRATIONS[version](self.db)
                version += 1
                self.db.execute(f"PRAGMA user_version={version}")
        self.builtin_version, builtin = load_builtin(builtin_path)
        self._sync_builtin(builtin)

    def _sync_builtin(self, builtin: dict[str, dict[str, Any]]) -> None:
        row = self.db.execute("SELECT value FROM meta WHERE key='builtin_version'").fetchone()
        if row and int(row[0]) == self.builtin_version:
            return
        with self.db:
            self.db.execute("DELETE FROM builtin_parts")
            self.db.executemany(
                "INSERT INTO builtin_parts (id, kind, body) VALUES (?, ?, ?)",
                [(p["id"], p["kind"], json.dumps(p, sort_keys=True)) for p in builtin.values()],
            )
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('builtin_version', ?)", (str(self.builtin_version),))

    @classmethod
    def default(cls) -> Catalog:
        """The user's catalog (``$SANPLAN_HOME`` or ~/.local/share/sanplan); in memory if that fails."""
        home = Path(os.environ.get("SANPLAN_HOME") or Path.home() / ".local" / "share" / "sanplan")
        try:
            home.mkdir(parents=True, exist_ok=True)
            return cls(home / "catalog.sqlite")
        except (OSError, CatalogError):
            return cls(":memory:")

    def close(self) -> None:
        self.db.close()

    # -- reading ------------------------------------------------------------------------
    def __getitem__(self, pid: str) -> dict[str, Any]:
        part = self.get(pid)
        if part is None:
            raise CatalogError(f"no part {pid!r} in the catalog")
        return part

    def get(self, pid: str) -> dict[str, Any] | None:
        for table in ("user_parts", "builtin_parts"):
            row = self.db.execute(f"SELECT body FROM {table} WHERE id=?", (pid,)).fetchone()
            if row:
                return json.loads(row[0])
        return None

    def parts(self, kind: str | None = None, text: str = "") -> Iterator[tuple[dict[str, Any], bool]]:
        """(part, is_user) for every part, built-in first, filtered by kind and search text."""
        needle = text.lower()
        for table, user in (("builtin_parts", False), ("user_parts", True)):
            for (body,) in self.db.execute(f"SELECT body FROM {table} ORDER BY kind, id"):
                part = json.loads(body)
                if kind and part["kind"] != kind:
                    continue
                hay = " ".join(str(part.get(k, "")) for k in ("id", "name", "vendor", "feature_code", "kind")).lower()
                if needle and needle not in hay:
                    continue
                yield part, user

    def as_dict(self) -> dict[str, dict[str, Any]]:
        return {p["id"]: p for p, _ in self.parts()}

    # -- user parts -----------------------------------------------------------------------
    def add_user_part(self, part: dict[str, Any]) -> None:
        validate_part(part)
        if self.db.execute("SELECT 1 FROM builtin_parts WHERE id=?", (part["id"],)).fetchone():
            raise CatalogError(f"part id {part['id']} is a built-in part; give your part another id")
        if self.db.execute("SELECT 1 FROM user_parts WHERE id=?", (part["id"],)).fetchone():
            raise CatalogError(f"you already have a part {part['id']}; edit it instead")
        with self.db:
            self.db.execute(
                "INSERT INTO user_parts (id, kind, body, created, modified) VALUES (?, ?, ?, datetime('now'), datetime('now'))",
                (part["id"], part["kind"], json.dumps(part, sort_keys=True)),
            )

    def update_user_part(self, part: dict[str, Any]) -> None:
        validate_part(part)
        with self.db:
            cur = self.db.execute(
                "UPDATE user_parts SET body=?, kind=?, modified=datetime('now') WHERE id=?",
                (json.dumps(part, sort_keys=True), part["kind"], part["id"]),
            )
        if cur.rowcount == 0:
            raise CatalogError(f"no user part {part['id']} to edit (built-in parts cannot be edited; copy one)")

    def delete_user_part(self, pid: str) -> None:
        with self.db:
            cur = self.db.execute("DELETE FROM user_parts WHERE id=?", (pid,))
        if cur.rowcount == 0:
            raise CatalogError(f"no user part {pid} to delete")


def builtin_parts() -> dict[str, dict[str, Any]]:
    """The built-in parts by id, straight from the TOML (no database)."""
    return load_builtin()[1]
