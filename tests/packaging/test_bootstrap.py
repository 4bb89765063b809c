"""packaging/bootstrap.sh (./run.sh, ./test.sh) prints one line per step, not pip's output,
unless a step fails: then the full log's path."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FAKE_PYTHON = """#!/bin/sh
echo "$*" >> "$(dirname "$0")/calls"
echo "Collecting lots of pip output"; echo "DEPRECATION: a warning" >&2
case "$*" in *" -e "*) [ -f "$(dirname "$0")/fail" ] && { echo "ERROR: no matching distribution" >&2; exit 1; } ;; esac
exit 0
"""


def _tree(tmp_path: Path, fail: bool) -> Path:
    """A checkout whose .venv python is a stand-in for pip (no network)."""
    (tmp_path / "packaging").mkdir()
    shutil.copy(ROOT / "packaging" / "bootstrap.sh", tmp_path / "packaging")
    (tmp_path / "pyproject.toml").write_text("# changed\n")
    venv_bin = tmp_path / ".venv" / "bin"
    venv_bin.mkdir(parents=True)
    (venv_bin / "python").write_text(FAKE_PYTHON)
    (venv_bin / "python").chmod(0o755)
    if fail:
        (venv_bin / "fail").write_text("")
    return tmp_path


def _bootstrap(root: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "TMPDIR": str(root)}
    return subprocess.run(
        ["sh", str(root / "packaging" / "bootstrap.sh")], env=env, capture_output=True, text=True, timeout=120
    )


def test_quiet_when_it_works(tmp_path):
    root = _tree(tmp_path, fail=False)
    done = _bootstrap(root)
    assert done.returncode == 0, done.stderr
    lines = (done.stdout + done.stderr).splitlines()
    assert lines == [
        "sanplan setup: installing SANplan and its dependencies into .venv (first run takes a minute)",
        "sanplan setup: ready",
    ]
    assert not list(root.glob("sanplan-setup.*"))  # no log left behind
    again = _bootstrap(root)  # nothing to do: nothing said
    assert again.returncode == 0 and again.stdout + again.stderr == ""


def test_failure_names_the_full_log(tmp_path):
    root = _tree(tmp_path, fail=True)
    done = _bootstrap(root)
    assert done.returncode == 1
    logs = list(root.glob("sanplan-setup.*"))
    assert len(logs) == 1
    assert f"installing the package (pip) failed; the full log: {logs[0]}" in done.stderr
    assert "ERROR: no matching distribution" in logs[0].read_text()
    assert not (root / ".venv" / ".sanplan-installed").exists()


def test_the_sources_are_compiled_once_for_every_start(tmp_path):
    """Where PYTHONDONTWRITEBYTECODE is set Python never writes its cache of the compiled
    sources, and every start compiled every module: the setup compiles them (each run: an up to
    date cache is only looked at)."""
    root = _tree(tmp_path, fail=False)
    assert _bootstrap(root).returncode == 0
    calls = (root / ".venv" / "bin" / "calls").read_text().splitlines()
    compiled = [c for c in calls if c.startswith("-m compileall")]
    assert len(compiled) == 1
    assert [Path(a).name for a in compiled[0].split()[3:]] == ["app", "planner", "widgets", "catalogs"]
