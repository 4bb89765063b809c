"""The JSON interchange file as an export format: ``json`` (``sanplan export --json OUT``).

The document itself (every scenario of the project) is written by planner.io.export_json
(docs/file-format.md); this module only registers it with the other exports.
"""

from __future__ import annotations

from typing import Any

from planner.exports.registry import CliFlag, ExportFormat, ExportSource, Progress, Written, register

JSON_FLAG = CliFlag("--json", "write the JSON interchange file", order=10)


def _write_json(source: ExportSource, path: str, *, options: dict[str, Any], progress: Progress) -> list[Written]:
    """The JSON document of the whole project. Raises ProjectError for a file it must not replace."""
    from planner.io import export_json

    export_json(source.project, path)
    return [Written(path)]


register(
    ExportFormat(
        id="json",
        title="&JSON interchange...",
        file_filter="JSON (*.json)",
        extension=".json",
        write=_write_json,
        cli=JSON_FLAG,
        whole_project=True,
        group="files",
        order=90,
    )
)
