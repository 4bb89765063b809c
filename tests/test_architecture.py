"""The shape issue 7 asked for stays: one description per kind, small modules and functions.

- No module other than planner/schema.py keeps a table keyed by component kinds (display names,
  collections, hop orders, colours, ...): they read :mod:`planner.schema`.
- No source file over 800 lines; no function over 60 lines unless the line above its ``def``
  says why (``# long function: <reason>``); cyclomatic complexity is checked by ruff (C901, max
  20, configured in pyproject.toml) and ruff runs here.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from planner.schema import KINDS

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("planner", "catalogs", "widgets", "app")
MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 60


def sources(folders=PACKAGES):
    for folder in folders:
        yield from sorted((ROOT / folder).rglob("*.py"))


def _kind_strings(nodes) -> list[str]:
    return [n.value for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value in KINDS]


#: tables keyed by kind that are not knowledge about the kind, with the reason
ALLOWED = {
    "planner/rules/san.py:_SPOF_FIXES": "rule data: the fix a finding gives for each kind of single point of failure",
    "planner/sizing.py:DEFAULT_PARTS": "sizing input: the paper's part id for each role a sized design uses",
}
# a table holds data; a dict whose values are computed (accumulators, JSON of an object's fields,
# dispatch to functions) is code and is not counted
_TABLE_VALUES = (ast.Constant, ast.Tuple, ast.List, ast.Set, ast.Call, ast.JoinedStr, ast.BinOp)


def _names(tree: ast.AST) -> dict[int, str]:
    """id(value node) -> the module-level name it is assigned to."""
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Name):
                    out[id(node.value)] = t.id
    return out


def private_kind_tables(path: Path) -> list[str]:
    """Dict literals with three or more kind keys holding data, and sequences of four or more kinds."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = _names(tree)
    rel = path.relative_to(ROOT).as_posix()
    found = []
    for node in ast.walk(tree):
        if f"{rel}:{names.get(id(node), '')}" in ALLOWED:
            continue
        if isinstance(node, ast.Dict):
            kinds = _kind_strings(
                k for k, v in zip(node.keys, node.values) if k is not None and isinstance(v, _TABLE_VALUES)
            )
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            kinds = _kind_strings(node.elts)
            kinds = kinds if len(kinds) >= 4 else []
        else:
            continue
        if len(kinds) >= 3:
            found.append(f"{rel}:{node.lineno}: {', '.join(kinds[:5])}")
    return found


def test_no_private_kind_tables():
    schema = ROOT / "planner" / "schema.py"
    found = [hit for path in sources() if path != schema for hit in private_kind_tables(path)]
    assert found == [], "read planner.schema instead of keeping a kind table:\n" + "\n".join(found)


def test_the_check_finds_a_private_table(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        'NAMES = {"phb": "PHB", "hba": "HBA", "asic": "switch ASIC"}\n'
        'ORDER = ("server", "drawer", "planar", "phb")\n'
        'TOTALS = {"drawer": {}, "switch": {}, "subsystem": {}}  # accumulators: not a table\n'
    )
    bad_rel = ROOT / "planner" / "_probe_never_committed.py"
    try:
        bad_rel.write_text(bad.read_text())
        assert len(private_kind_tables(bad_rel)) == 2
    finally:
        bad_rel.unlink()


def test_no_source_file_over_800_lines():
    long = [
        (str(p.relative_to(ROOT)), n)
        for p in sources(PACKAGES + ("tests", "benchmarks"))
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_FILE_LINES
    ]
    assert long == []


def long_functions(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    out = []
    for node in ast.walk(ast.parse("\n".join(lines))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            size = node.end_lineno - node.lineno + 1
            reason = lines[first - 2].strip() if first >= 2 else ""
            if size > MAX_FUNCTION_LINES and not reason.startswith("# long function:"):
                out.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({size} lines)")
    return out


def test_no_function_over_60_lines_without_a_reason():
    found = [hit for path in sources() for hit in long_functions(path)]
    assert found == [], "split these or state the reason above the def:\n" + "\n".join(found)


def test_ruff_lint_and_complexity():
    exe = Path(sys.executable).with_name("ruff")
    run = subprocess.run([str(exe), "check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr


#: argument types a Qt signal converts element by element for every slot it calls
_COPIED_TYPES = {"list", "dict", "set", "tuple"}


def copying_signals(path: Path) -> list[str]:
    """``Signal(...)`` declarations with a list, dict, set or tuple argument: PySide copies those
    through Qt's variants for each slot (55,000 ids to 6 slots: 51 ms); ``object`` passes the
    value itself."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Signal":
            if any(isinstance(a, ast.Name) and a.id in _COPIED_TYPES for a in node.args):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_no_signal_copies_its_lists():
    found = [hit for path in sources(("widgets", "app")) for hit in copying_signals(path)]
    assert found == [], "declare these arguments as object:\n" + "\n".join(found)


def test_the_check_finds_a_copying_signal():
    probe = ROOT / "widgets" / "_probe_never_committed.py"
    try:
        probe.write_text("a = Signal(list)\nb = Signal(object, str)\nc = Signal(str, dict)\n")
        assert len(copying_signals(probe)) == 2
    finally:
        probe.unlink()
