"""Write the golden design files the tests open, one per .sanplan file version.

Run from the repository root: ``python tests/golden/make_golden.py``. The files are committed;
regenerate them only when adding a file version (write the new version's golden beside the old
ones, never replace an old one: old goldens are what the migrations are tested against).

- ``one-drawer-v1.sanplan``: file version 1, the first layout (one design in table ``design``).
- ``one-drawer-v2.sanplan``: file version 2, written by :func:`planner.project.save_project`.

Both hold the bundled ``p690-one-drawer`` example with the built-in part figures.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from catalogs.catalog import builtin_parts  # noqa: E402
from planner.examples import build_example  # noqa: E402
from planner.io import sanfile as project  # noqa: E402

HERE = Path(__file__).resolve().parent
SAVED = "2024-01-01T00:00:00+00:00"  # fixed, so regenerating gives the same content


def write_v1(topo, path: Path) -> None:
    """The version-1 layout: tables meta(key, value) and design(body) with one row."""
    path.unlink(missing_ok=True)
    con = sqlite3.connect(path)
    try:
        con.execute(f"PRAGMA application_id = {project.APPLICATION_ID}")
        con.execute("PRAGMA user_version = 1")
        con.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
        con.execute("CREATE TABLE design (body TEXT)")
        con.executemany(
            "INSERT INTO meta VALUES (?, ?)", [("application", "SANplan"), ("file_version", "1"), ("saved", SAVED)]
        )
        body = json.dumps(project.topology_to_dict(topo), separators=(",", ":"), ensure_ascii=False)
        con.execute("INSERT INTO design VALUES (?)", (body,))
        con.commit()
    finally:
        con.close()


def main() -> None:
    topo = build_example("p690-one-drawer", builtin_parts())
    write_v1(topo, HERE / "one-drawer-v1.sanplan")
    v2 = HERE / "one-drawer-v2.sanplan"
    v2.unlink(missing_ok=True)
    project._utcnow = lambda: SAVED
    project.save_project(project.Project.single(topo), v2, message="golden file, version 2")
    print(f"wrote {HERE / 'one-drawer-v1.sanplan'} and {v2}")


if __name__ == "__main__":
    main()
