"""The PyInstaller bundle (packaging/build.sh), built here or reused when newer than every source
file, copied to a temporary folder and run in a clean environment (``env -i``: no virtual
environment, no PATH): --version, the headless analysis, an export, the editor opening and quitting,
and the .tar.gz unpacked and installed with its own install.sh."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
BUNDLE = DIST / "sanplan"
SOURCES = ("app", "planner", "widgets", "catalogs", "resources", "packaging", "pyproject.toml")

pytestmark = pytest.mark.slow


def _newest_source() -> float:
    newest = 0.0
    for name in SOURCES:
        top = ROOT / name
        for p in [top, *top.rglob("*")] if top.is_dir() else [top]:
            if p.is_file() and "__pycache__" not in p.parts:
                newest = max(newest, p.stat().st_mtime)
    return newest


def _tarball() -> Path | None:
    found = sorted(DIST.glob("sanplan-*.tar.gz"), key=lambda p: p.stat().st_mtime)
    return found[-1] if found else None


@pytest.fixture(scope="module")
def bundle() -> Path:
    exe, tarball = BUNDLE / "sanplan", _tarball()
    fresh = exe.is_file() and tarball and min(exe.stat().st_mtime, tarball.stat().st_mtime) > _newest_source()
    if not fresh:
        start = time.monotonic()
        done = subprocess.run(
            ["sh", str(ROOT / "packaging" / "build.sh")],
            env={**os.environ, "PYTHON": sys.executable},
            capture_output=True,
            text=True,
            timeout=1800,
        )
        assert done.returncode == 0, done.stderr
        print(f"bundle built in {time.monotonic() - start:.0f} s")
    return BUNDLE


@pytest.fixture(scope="module")
def copied(bundle, tmp_path_factory) -> Path:
    where = tmp_path_factory.mktemp("elsewhere")
    shutil.copytree(bundle, where / "sanplan", symlinks=True)
    (where / "home").mkdir()
    return where


def _clean_run(where: Path, *args: str, exe: Path | None = None) -> subprocess.CompletedProcess:
    """Run the copied bundle with env -i: only HOME and the offscreen platform."""
    command = ["env", "-i", f"HOME={where / 'home'}", "QT_QPA_PLATFORM=offscreen"]
    command += [str(exe or where / "sanplan" / "sanplan"), *args]
    done = subprocess.run(command, cwd=where, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{args}: {done.stdout}\n{done.stderr}"
    return done


def test_version(copied):
    out = _clean_run(copied, "--version").stdout
    from app.about import version_info

    ours = version_info()
    assert out.splitlines()[0] == f"sanplan {ours['SANplan']}" and ours["SANplan"] != "unknown"
    for label in ("Built-in catalog", ".sanplan file format", "JSON design schema"):
        assert f"{label}: {ours[label]}" in out


def test_headless_analysis_of_the_benchmark(copied):
    out = _clean_run(copied).stdout
    assert "SANplan headless (no display): analysing p690 benchmark" in out
    assert "Aggregate:" in out and "MB/s" in out


def test_example_export_and_analysis(copied):
    _clean_run(copied, "example", "p690-benchmark", "bench.sanplan")
    _clean_run(copied, "export", "bench.sanplan", "--pdf", "bench.pdf")
    assert (copied / "bench.pdf").read_bytes()[:5] == b"%PDF-"
    out = _clean_run(copied, "analyze", "bench.sanplan").stdout
    assert "Aggregate:" in out


def test_editor_opens_and_quits(copied):
    _clean_run(copied, "example", "p690-benchmark", "editor.sanplan")
    for args in (("gui", "--quit-after-ms", "300"), ("gui", "editor.sanplan", "--quit-after-ms", "300")):
        assert "the editor opened" in _clean_run(copied, *args).stdout


def test_tarball_installs_itself(bundle, tmp_path):
    tarball = _tarball()
    with tarfile.open(tarball) as tar:
        tar.extractall(tmp_path / "unpacked", filter="tar")
    home = tmp_path / "home"
    home.mkdir()
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    unpacked = tmp_path / "unpacked" / "sanplan"
    subprocess.run(["sh", str(unpacked / "install.sh")], env=env, check=True, capture_output=True, timeout=300)
    shutil.rmtree(tmp_path / "unpacked")  # the installed copy stands alone
    installed = home / ".local" / "bin" / "sanplan"
    out = _clean_run(tmp_path, "--version", exe=installed).stdout
    assert out.startswith("sanplan ")
    assert (home / ".local/share/applications/sanplan.desktop").is_file()
    subprocess.run(["sh", str(home / ".local/lib/sanplan/uninstall.sh")], env=env, check=True, timeout=300)
    assert list(home.rglob("*")) == []


def test_display_qt_cannot_use_falls_back_to_headless(copied):
    """The bundle probes Qt with its own executable (not python -c) before opening a window."""
    command = ["env", "-i", f"HOME={copied / 'home'}", "DISPLAY=:99", str(copied / "sanplan" / "sanplan")]
    done = subprocess.run(command, cwd=copied, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Qt cannot open a window on this display" in done.stderr
    assert "SANplan headless (the editor could not start)" in done.stdout
