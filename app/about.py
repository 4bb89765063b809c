"""What ``sanplan --version`` prints and Help > About shows: the program's version (package
metadata), the built-in catalog's version and the file format versions."""

from __future__ import annotations

import argparse
import html
import sys
from importlib import metadata

SOURCES_NOTE = (
    "Figures from the IBM p690 JFS2/DIO Redpaper (2004) and the SAS tuning papers; every figure shows its source."
)


def program_version() -> str:
    """The installed package's version (kept in the bundle's metadata); 'unknown' when run from
    a source tree that was never installed."""
    try:
        return metadata.version("sanplan")
    except metadata.PackageNotFoundError:
        return "unknown"


def version_info() -> dict[str, str]:
    """Label -> version, in the order shown."""
    from catalogs.catalog import load_builtin
    from planner.io.document import SCHEMA_VERSION
    from planner.io.sanfile import FILE_VERSION

    try:
        catalog = str(load_builtin()[0])
    except Exception as err:  # a broken install: say so rather than fail to print a version
        catalog = f"unreadable ({err})"
    return {
        "SANplan": program_version(),
        "Built-in catalog": catalog,
        ".sanplan file format": str(FILE_VERSION),
        "JSON design schema": str(SCHEMA_VERSION),
        "Python": sys.version.split()[0],
    }


def version_text() -> str:
    info = version_info()
    first, rest = next(iter(info.items())), list(info.items())[1:]
    return "\n".join([f"sanplan {first[1]}"] + [f"{k}: {v}" for k, v in rest])


def about_html() -> str:
    rows = "".join(f"<tr><td>{html.escape(k)}</td><td>{html.escape(v)}</td></tr>" for k, v in version_info().items())
    return (
        "<b>SANplan</b><br>Server-to-storage topology planner.<br><br>"
        f"<table>{rows}</table><br>{html.escape(SOURCES_NOTE)}"
    )


def show_about(parent) -> None:
    from PySide6.QtWidgets import QMessageBox

    QMessageBox.about(parent, "About SANplan", about_html())


class VersionAction(argparse.Action):
    """``--version``: print :func:`version_text` and exit 0 (computed only when asked)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        print(version_text())
        parser.exit()
