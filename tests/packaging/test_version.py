"""``sanplan --version`` and the About text: the version, the catalog's and the file formats'."""

from __future__ import annotations

from app.about import about_html, version_info
from app.cli import main
from catalogs.catalog import load_builtin
from planner.io.document import SCHEMA_VERSION
from planner.io.sanfile import FILE_VERSION


def test_version_flag(capsys):
    try:
        main(["--version"])
    except SystemExit as done:
        assert done.code == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("sanplan ") and out[0] != "sanplan "
    assert f"Built-in catalog: {load_builtin()[0]}" in out
    assert f".sanplan file format: {FILE_VERSION}" in out
    assert f"JSON design schema: {SCHEMA_VERSION}" in out


def test_about_shows_the_same():
    text = about_html()
    for label, value in version_info().items():
        assert f"<td>{label}</td><td>{value}</td>" in text
