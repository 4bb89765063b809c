"""packaging/install.sh and uninstall.sh, per user, into a temporary HOME, with a small fake
bundle (a ``sanplan`` script plus the desktop files stage_share.py puts in the real one)."""

from __future__ import annotations

import configparser
import os
import shutil
import stat
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"
MIME_NS = "{http://www.freedesktop.org/standards/shared-mime-info}"


@pytest.fixture(scope="module")
def fake_bundle(tmp_path_factory) -> Path:
    bundle = tmp_path_factory.mktemp("bundle") / "sanplan"
    bundle.mkdir()
    exe = bundle / "sanplan"
    exe.write_text('#!/bin/sh\necho fake sanplan "$@"\n')
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    subprocess.run([sys.executable, str(PACKAGING / "stage_share.py"), str(bundle)], check=True, timeout=120)
    return bundle


def _all_files(home: Path) -> set[str]:
    return {str(p.relative_to(home)) for p in home.rglob("*")}


def _run(script: str, home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    return subprocess.run(["sh", str(PACKAGING / script), *args], env=env, capture_output=True, text=True, timeout=120)


def test_install_places_files_and_uninstall_removes_them(fake_bundle, tmp_path):
    home = tmp_path / "home"
    (home / "designs").mkdir(parents=True)
    (home / "designs" / "mine.sanplan").write_text("kept")
    before = _all_files(home)

    done = _run("install.sh", home, str(fake_bundle))
    assert done.returncode == 0, done.stderr
    lib, data = home / ".local/lib/sanplan", home / ".local/share"
    link = home / ".local/bin/sanplan"
    assert link.is_symlink() and link.resolve() == (lib / "sanplan").resolve()
    assert subprocess.run([str(link), "--version"], capture_output=True, text=True).stdout.startswith("fake sanplan")
    for size in ("16x16", "32x32", "48x48", "128x128", "256x256"):
        png = data / "icons/hicolor" / size / "apps/sanplan.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", png
    assert (data / "icons/hicolor/scalable/apps/sanplan.svg").is_file()

    desktop = configparser.ConfigParser(interpolation=None)
    desktop.optionxform = str
    desktop.read(data / "applications/sanplan.desktop")
    entry = desktop["Desktop Entry"]
    assert entry["Exec"] == f'"{lib / "sanplan"}" gui %f'
    assert "application/x-sanplan" in entry["MimeType"].split(";")
    assert entry["Icon"] == "sanplan"

    mime = ET.parse(data / "mime/packages/sanplan.xml").getroot()
    kind = mime.find(f"{MIME_NS}mime-type")
    assert kind.get("type") == "application/x-sanplan"
    assert kind.find(f"{MIME_NS}glob").get("pattern") == "*.sanplan"
    outer = kind.find(f"{MIME_NS}magic/{MIME_NS}match")
    assert (outer.get("type"), outer.get("value"), outer.get("offset")) == ("string", "SQLite format 3\\0", "0")
    inner = outer.find(f"{MIME_NS}match")
    assert (inner.get("type"), int(inner.get("value"), 16), inner.get("offset")) == ("big32", 0x53504C4E, "68")
    if shutil.which("update-mime-database"):  # the database took the type
        assert (data / "mime/application/x-sanplan.xml").is_file()
    manifest = (lib / "install-manifest").read_text()
    assert f"file {data / 'mime/packages/sanplan.xml'}" in manifest

    done = _run("uninstall.sh", home)
    assert done.returncode == 0, done.stderr
    assert _all_files(home) == before


def test_mime_magic_matches_the_file_format(tmp_path, benchmark_design):
    """The header bytes the MIME magic names are those save_project writes."""
    from planner.io import Project, save_project
    from planner.io.sanfile import APPLICATION_ID

    path = tmp_path / "bench.sanplan"
    save_project(Project(benchmark_design), path)
    head = path.read_bytes()[:100]
    assert head[:16] == b"SQLite format 3\x00"
    assert int.from_bytes(head[68:72], "big") == APPLICATION_ID == 0x53504C4E


def test_install_refuses_without_a_bundle(tmp_path):
    done = _run("install.sh", tmp_path, str(tmp_path / "nothing"))
    assert done.returncode == 1
    assert "no bundle" in done.stderr
    assert not (tmp_path / ".local").exists()
