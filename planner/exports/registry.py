"""The one registry of export formats, read by ``sanplan export`` and by File > Export.

An export format is one :class:`ExportFormat` record: its id, the menu text, the file filter, the
options it takes (defaults, CLI flags, how the window gets them) and a ``write`` function. A
module of this package that calls :func:`register` at import is found by :func:`formats` (every
module here is imported once), so a new export format is one new module: the command line and
the main window list it with no edit.

    register(ExportFormat(id="bom-csv", title="&Bill of materials (CSV)...", ...))
    fmt = get("bom-csv")
    fmt.export(project_or_topology, "bom.csv", options={...})  # -> [Written(path, summary)]
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from planner.exports.output import ExportError

if TYPE_CHECKING:
    from planner.io import Project
    from planner.model import Topology

Progress = Callable[[float, str], None]


@dataclass(frozen=True)
class ExportOption:
    """An option a format takes: its keyword, its default, its CLI flag and how the window sets it.

    ``parse`` turns typed text into the value (``int`` for a number; None keeps the text); an
    option whose default is a bool is an on/off switch. The window takes the value from its
    settings (``setting``, changed in the Export menu), from a question asked at each export
    (``question``), or from what the window shows (``view``: "figures").
    """

    name: str
    default: Any
    flag: str
    help: str
    choices: tuple[str, ...] | None = None
    parse: Callable[[str], Any] | None = None
    env: str = ""  # CLI: environment variable giving the default when the flag is not given
    default_note: str = ""  # CLI: note on stderr when the default is used
    setting: str = ""
    setting_title: str = ""
    choice_titles: Mapping[str, str] = field(default_factory=dict)
    question: str = ""
    view: str = ""

    @property
    def switch(self) -> bool:
        """True for an on/off option (``--labels``)."""
        return isinstance(self.default, bool)


@dataclass(frozen=True)
class CliFlag:
    """The ``sanplan export`` flag that picks a format: ``--pdf OUT``, or ``--zoning VENDOR OUT``
    where several formats share the flag and each answers to one choice (``ExportFormat.cli_choice``)."""

    flag: str
    help: str
    choice_metavar: str = ""
    order: int = 100  # position among the flags in ``sanplan export --help``


@dataclass(frozen=True)
class Written:
    """A file an export wrote; ``summary`` follows ``wrote PATH`` on the command line."""

    path: str
    summary: str = ""


@dataclass(frozen=True)
class ExportSource:
    """What an export is made from: a project (its current scenario is exported, except by a
    format that writes the whole project) and how to find the file revision the build sheet names
    (asked only by a format that shows it: reading a file's revisions is not free)."""

    project: Project
    revision_of: Callable[[], str] = lambda: ""

    @classmethod
    def of(cls, design: ExportSource | Project | Topology, revision: str = "") -> ExportSource:
        """Wrap a project or a single design (a project with one scenario)."""
        if isinstance(design, ExportSource):
            return design
        from planner.io import Project

        if not isinstance(design, Project):
            design = Project.single(design)
        return cls(design, lambda: revision)

    @property
    def revision(self) -> str:
        """The file revision ('3 (saved 2026-01-01T10:00:00)', 'unsaved'), '' when not known."""
        return self.revision_of()

    @property
    def topology(self) -> Topology:
        return self.project.topology

    @property
    def scenario(self) -> str:
        return self.project.current


@dataclass(frozen=True)
class ExportFormat:
    """One export format.

    ``write(source, path, *, options, progress)`` writes atomically (planner.exports.output) and
    returns what it wrote; it raises ExportError (or ProjectError) naming the problem and the fix.
    ``title`` is the menu text (``&`` marks the access key); formats of one ``group`` sit between
    separators; ``order`` places the format in the menu.
    """

    id: str
    title: str
    file_filter: str
    extension: str
    write: Callable[..., list[Written]]
    cli: CliFlag
    cli_choice: str = ""
    options: tuple[ExportOption, ...] = ()
    whole_project: bool = False  # writes every scenario: --scenario does not apply
    folder: bool = False  # writes a folder of files: the window asks for a folder, not a file
    group: str = ""
    order: int = 100
    busy_text: str = ""  # the progress dialog's text
    # why this design cannot be exported at all ("has no zones"), asked before the file name
    check: Callable[[ExportSource], str | None] | None = None

    @property
    def name(self) -> str:
        """The title without access key and dots: 'Zoning script: Brocade'."""
        return self.title.replace("&", "").rstrip(".").strip()

    def option(self, name: str) -> ExportOption | None:
        return next((o for o in self.options if o.name == name), None)

    def export(
        self,
        design: ExportSource | Project | Topology,
        path: str | os.PathLike[str],
        options: Mapping[str, Any] | None = None,
        progress: Progress | None = None,
    ) -> list[Written]:
        """Write ``design`` to ``path`` with ``options`` (the defaults for those not given).
        Raises ExportError for an option this format does not take, and what ``write`` raises."""
        values = {o.name: o.default for o in self.options}
        for key, value in (options or {}).items():
            if key not in values:
                takes = ", ".join(values) or "none"
                raise ExportError(f"{self.name}: no option {key!r} (it takes: {takes})")
            values[key] = value
        return self.write(ExportSource.of(design), os.fspath(path), options=values, progress=progress or _quiet)


def _quiet(fraction: float, text: str = "") -> None:
    pass


_FORMATS: dict[str, ExportFormat] = {}
_loaded = False


def register(fmt: ExportFormat) -> ExportFormat:
    """Add a format; returns it. Raises ValueError when another format has its id."""
    old = _FORMATS.get(fmt.id)
    if old is not None and old != fmt:
        raise ValueError(f"an export format {fmt.id!r} is registered already")
    _FORMATS[fmt.id] = fmt
    return fmt


def unregister(format_id: str) -> None:
    """Remove a format (tests, plug-ins that unload); no error when it is not there."""
    _FORMATS.pop(format_id, None)


def get(format_id: str) -> ExportFormat:
    """The format with this id. Raises ExportError naming the ids there are."""
    _load_builtin()
    try:
        return _FORMATS[format_id]
    except KeyError:
        ids = ", ".join(f.id for f in formats())
        raise ExportError(f"no export format {format_id!r}; choose one of {ids}") from None


def formats() -> list[ExportFormat]:
    """Every registered format in menu order."""
    _load_builtin()
    index = {fid: i for i, fid in enumerate(_FORMATS)}
    return sorted(_FORMATS.values(), key=lambda f: (f.order, index[f.id]))


def cli_flags() -> list[tuple[CliFlag, list[ExportFormat]]]:
    """Each ``sanplan export`` flag with the formats it picks, in ``--help`` order."""
    groups: dict[CliFlag, list[ExportFormat]] = {}
    for fmt in formats():
        groups.setdefault(fmt.cli, []).append(fmt)
    return sorted(groups.items(), key=lambda kv: kv[0].order)


def cli_options() -> list[ExportOption]:
    """Every option flag once (its first declaration), in ``--help`` order."""
    seen: dict[str, ExportOption] = {}
    for _, group in cli_flags():
        for fmt in group:
            for opt in fmt.options:
                seen.setdefault(opt.flag, opt)
    return list(seen.values())


def _load_builtin() -> None:
    """Import every module of planner.exports once, so the formats they define are registered."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    import planner.exports as package

    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if not info.name.rsplit(".", 1)[-1].startswith("_"):
            importlib.import_module(info.name)


def choices_text(values: Sequence[str]) -> str:
    """'a4 or letter', 'csv or netbox', 'rated, measured or planning'."""
    values = list(values)
    return values[0] if len(values) == 1 else f"{', '.join(values[:-1])} or {values[-1]}"
