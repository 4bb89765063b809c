"""The widgets and the editor keep no private table keyed by component kind: display names, hop
order, colours, bands and labels come from planner.schema, planner.naming and planner.bands."""

from __future__ import annotations

import ast
from pathlib import Path

from planner.schema import KINDS

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "widgets").rglob("*.py")) + [
    ROOT / "app" / name for name in ("controller.py", "document.py", "mainwindow.py", "gui.py")
]


def kind_literals(path: Path) -> list[tuple[int, list[str]]]:
    """(line, kinds) of every dict, tuple, list or set literal naming three or more kinds."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Dict):
            elements = node.keys
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            elements = node.elts
        else:
            continue
        kinds = [e.value for e in elements if isinstance(e, ast.Constant) and e.value in KINDS]
        if len(kinds) >= 3:
            found.append((node.lineno, kinds))
    return found


def test_no_kind_tables_in_widgets_or_the_editor():
    bad = {str(p.relative_to(ROOT)): hits for p in FILES if (hits := kind_literals(p))}
    assert bad == {}


def test_the_check_finds_a_table(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('NAMES = {"phb": "PHB", "hba": "HBA", "asic": "ASIC"}\n', encoding="utf-8")
    assert kind_literals(sample) == [(1, ["phb", "hba", "asic"])]
