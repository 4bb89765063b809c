"""The planner and the catalogs stay free of Qt; planner never imports catalogs (STYLE.md)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QT = ("PySide6", "shiboken6", "pyqtgraph")


def imports(folder: str):
    for path in (ROOT / folder).rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    yield path, a.name
            elif isinstance(node, ast.ImportFrom) and node.module:
                yield path, node.module


def test_planner_and_catalogs_do_not_import_qt():
    bad = [(str(p), m) for folder in ("planner", "catalogs") for p, m in imports(folder) if m.split(".")[0] in QT]
    assert bad == []


def test_planner_does_not_import_catalogs_widgets_or_app():
    bad = [(str(p), m) for p, m in imports("planner") if m.split(".")[0] in ("catalogs", "widgets", "app")]
    assert bad == []


def test_catalogs_do_not_import_widgets_or_app():
    bad = [(str(p), m) for p, m in imports("catalogs") if m.split(".")[0] in ("widgets", "app")]
    assert bad == []


def test_import_linter_contracts_are_kept():
    """The contracts in pyproject.toml ([tool.importlinter]): layers app -> widgets -> catalogs ->
    planner, no Qt below widgets, exports free of widgets and app, widgets free of app."""
    import subprocess
    import sys

    exe = Path(sys.executable).with_name("lint-imports")
    run = subprocess.run([str(exe), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    assert out.count(" KEPT") == 4 and "BROKEN" not in out, out
