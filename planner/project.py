"""The design file (``.sanplan``) and the JSON interchange document.

A ``.sanplan`` file is a SQLite application file (``PRAGMA application_id`` = "SPLN",
``PRAGMA user_version`` = the file version) that holds one design as named scenarios, each with
the part figures it was planned with, plus a revision history. Every earlier file version opens
through a registered migration (:data:`MIGRATIONS`), done in memory: opening never writes. A
save writes a whole new file beside the old one and renames it into place, so a crash during a
save leaves the previous file as it was.

The JSON document (``"format": "sanplan-design"``, :data:`SCHEMA_VERSION`) is the interchange
form for diffing and scripting; it names its collections in the domain's words (``servers``,
``hbas``, ``cables``, ``zones``...). Both layouts are described in ``docs/file-format.md``.

Every problem a user can cause (missing, truncated, damaged, foreign or newer files, bad JSON)
raises :class:`ProjectError` with one line naming the file, the problem and the fix.
"""

from __future__ import annotations

import copy
import json
import math
import os
import sqlite3
import zlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from planner.fileio import TempFileError, atomic_replace
from planner.model import KINDS, ModelError, Topology, check_references, load_component

FORMAT = "sanplan-design"
SCHEMA_VERSION = 1  # the JSON design document
APPLICATION_ID = 0x53504C4E  # "SPLN"
FILE_VERSION = 2  # the .sanplan SQLite layout
MAX_REVISIONS = 100
DEFAULT_SCENARIO = "Base"
SQLITE_MAGIC = b"SQLite format 3\x00"

#: component kind -> the collection that holds it in the JSON document (in the document's order)
COLLECTIONS: dict[str, str] = {
    "server": "servers",
    "lpar": "lpars",
    "drawer": "drawers",
    "planar": "planars",
    "rio_link": "rio_links",
    "phb": "phbs",
    "slot": "slots",
    "hba": "hbas",
    "hba_port": "hba_ports",
    "fabric": "fabrics",
    "switch": "switches",
    "asic": "asics",
    "backplane": "backplanes",
    "switch_port": "switch_ports",
    "subsystem": "subsystems",
    "controller": "controllers",
    "host_port": "host_ports",
    "enclosure": "enclosures",
    "drive": "drives",
    "array": "arrays",
    "logical_drive": "logical_drives",
    "host_mapping": "host_mappings",
    "hdisk": "hdisks",
    "volume_group": "volume_groups",
    "logical_volume": "logical_volumes",
    "workload": "workloads",
    "cable": "cables",
    "zone": "zones",
}

_ENTRY_KEYS = ("id", "name", "parent", "part")
_DESIGN_KEYS = frozenset({"meta", "parts", "positions", *COLLECTIONS.values()})
_FORMAT_KEYS = frozenset({"format", "schema_version"})
_SCENARIO_KEYS = frozenset({"scenario", "scenario_order", "scenarios"})
_PART_NUMBERS = ("max_drawers", "ports", "speed_gbps", "drive_bays", "host_ports_per_controller", "cache_mb")
_MAX_PART_DEPTH = 16  # nesting of a part's figures; deeper is damage, not data

_FIX_JSON = "fix the JSON (the format is described in docs/file-format.md)"
_FIX_DAMAGED = "open a backup or an earlier copy of the file"
_FIX_NOT_OURS = "choose a .sanplan design or a SANplan JSON export"
_FIX_NEWER = "upgrade SANplan to open it"
_FIX_TAKEN = "choose another name (the file was left as it is)"


class ProjectError(ValueError):
    """A design file or document SANplan cannot use, as one line: the file, the problem, the fix.

    ``ProjectError("a.sanplan", "is empty (0 bytes)", "open a backup")`` reads
    ``a.sanplan: is empty (0 bytes); open a backup``; a single argument is used as the message.
    """

    def __init__(self, where: str, problem: str = "", fix: str = "") -> None:
        self.where, self.problem, self.fix = str(where), problem, fix
        text = ": ".join(p for p in (self.where, problem) if p)
        if fix:
            text += f"; {fix}"
        super().__init__(" ".join(text.split("\n")))


class _Invalid(Exception):
    """A problem inside a document; the caller names the file and the fix."""


class _Newer(_Invalid):
    """The document or file was written by a newer SANplan."""


# -- JSON design documents -------------------------------------------------------------------------

#: JSON schema migrations: version n -> function turning a version-n design dict into version n+1.
#: Each is applied to the top-level design and to every scenario under ``scenarios``; it must keep
#: keys it does not know. Empty while the schema is at version 1.
JSON_MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}


def topology_to_dict(topo: Topology) -> dict[str, Any]:
    """The JSON design document of ``topo``: format keys, ``meta``, ``parts``, then every collection.

    Entries are flat (``id``, ``name``, ``parent`` unless a root, ``part`` when set, then the
    attributes in schema order, tuples as lists). Within a collection the entries keep the order
    the components were added in. The result shares nothing with ``topo``.
    """
    doc: dict[str, Any] = {
        "format": FORMAT,
        "schema_version": SCHEMA_VERSION,
        "meta": dict(topo.meta),
        "parts": copy.deepcopy(topo.parts),
    }
    if topo.positions:
        doc["positions"] = {cid: [x, y] for cid, (x, y) in topo.positions.items()}
    for kind in KINDS:
        doc[COLLECTIONS[kind]] = [_entry(comp) for comp in topo.of_kind(kind)]
    return doc


def _entry(comp: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"id": comp.id, "name": comp.name}
    if comp.parent is not None:
        entry["parent"] = comp.parent
    if comp.part is not None:
        entry["part"] = comp.part
    for name in KINDS[comp.kind].attrs:
        if name in comp.attrs:
            value = comp.attrs[name]
            entry[name] = list(value) if isinstance(value, tuple) else value
    return entry


def topology_from_dict(data: Any, where: str = "<json>") -> Topology:
    """Build the design a JSON document describes (the top-level design of a multi-scenario export).

    Older schema versions are migrated first. Raises ProjectError naming ``where`` for anything
    that is not a valid design: wrong format, newer schema, unknown keys, bad values, dangling
    references.
    """
    try:
        doc = _upgrade(data)
        return _design_from_dict(doc, allowed=_FORMAT_KEYS | _SCENARIO_KEYS)
    except _Newer as err:
        raise ProjectError(where, str(err), _FIX_NEWER) from None
    except _Invalid as err:
        raise ProjectError(where, str(err), _FIX_JSON) from None


def project_to_dict(project: Project | Topology) -> dict[str, Any]:
    """The JSON document of a project: its current scenario as the design, the others under ``scenarios``."""
    project = _as_project(project)
    design = topology_to_dict(project.topology)
    doc: dict[str, Any] = {key: design.pop(key) for key in ("format", "schema_version")}
    doc["scenario"] = project.current
    if len(project.scenarios) > 1:
        doc["scenario_order"] = list(project.scenarios)
    doc.update(design)
    if len(project.scenarios) > 1:
        doc["scenarios"] = {
            name: _without_format(topology_to_dict(topo))
            for name, topo in project.scenarios.items()
            if name != project.current
        }
    return doc


def project_from_dict(data: Any, where: str = "<json>") -> Project:
    """The project a JSON document describes (all its scenarios). Raises ProjectError naming ``where``."""
    try:
        return _project_from_document(data)
    except _Newer as err:
        raise ProjectError(where, str(err), _FIX_NEWER) from None
    except _Invalid as err:
        raise ProjectError(where, str(err), _FIX_JSON) from None


def _without_format(design: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in design.items() if k not in _FORMAT_KEYS}


def _upgrade(data: Any) -> dict[str, Any]:
    """Check the format keys and migrate an older document to :data:`SCHEMA_VERSION`."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _Invalid(f'is not a SANplan design document (it lacks "format": "{FORMAT}")')
    version = data.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise _Invalid(f"has schema_version {version!r}; it must be a whole number from 1")
    if version > SCHEMA_VERSION:
        raise _Newer(
            f"was written by a newer SANplan (JSON schema version {version}; this SANplan reads up to {SCHEMA_VERSION})"
        )
    if version < SCHEMA_VERSION:
        data = copy.deepcopy(data)  # migrations edit in place; never the caller's document
    while version < SCHEMA_VERSION:
        migrate = JSON_MIGRATIONS[version]
        data = migrate(dict(data))
        scenarios = data.get("scenarios")
        if isinstance(scenarios, dict):
            data["scenarios"] = {k: migrate(dict(v)) if isinstance(v, dict) else v for k, v in scenarios.items()}
        version += 1
        data["schema_version"] = version
    return data


def _design_from_dict(body: Any, allowed: Iterable[str] = ()) -> Topology:
    """One design (meta, parts, collections) -> Topology; raises _Invalid."""
    if not isinstance(body, dict):
        raise _Invalid("a design must be a JSON object")
    allowed = frozenset(allowed)
    for key in body:
        if key not in _DESIGN_KEYS and key not in allowed and not _private(key):
            raise _Invalid(
                f"has an unknown key {key!r} (a design has meta, parts and the collections; private keys start with x-)"
            )
    topo = Topology()
    meta = body.get("meta", {})
    if not isinstance(meta, dict) or not all(isinstance(v, str) for v in meta.values()):
        raise _Invalid("meta must be an object of text fields (name, customer, author)")
    topo.meta.update(meta)
    parts = body.get("parts", {})
    if not isinstance(parts, dict):
        raise _Invalid("parts must be an object of parts by id")
    for pid, part in parts.items():
        _check_part(pid, part)
    topo.parts = copy.deepcopy(parts)
    for kind, collection in COLLECTIONS.items():
        entries = body.get(collection, [])
        if not isinstance(entries, list):
            raise _Invalid(f"{collection} must be a list of objects")
        for i, entry in enumerate(entries):
            _load_entry(topo, kind, collection, i, entry)
    try:
        check_references(topo)
    except ModelError as err:
        raise _Invalid(str(err)) from None
    positions = body.get("positions", {})
    if not isinstance(positions, dict):
        raise _Invalid("positions must be an object of [x, y] by component id")
    for cid, xy in positions.items():
        if (
            not isinstance(xy, list)
            or len(xy) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in xy)
        ):
            raise _Invalid(f"position of {cid!r} must be [x, y] in points")
        if cid in topo:  # a position of a deleted component is dropped
            topo.positions[cid] = (float(xy[0]), float(xy[1]))
    topo.revision = 0
    return topo


def _load_entry(topo: Topology, kind: str, collection: str, i: int, entry: Any) -> None:
    if not isinstance(entry, dict):
        raise _Invalid(f"{collection}[{i}] is not an object")
    cid = entry.get("id")
    if not isinstance(cid, str) or not cid:
        raise _Invalid(f"{collection}[{i}] has no id (it needs a non-empty text id)")
    name = entry.get("name", "")
    if not isinstance(name, str):
        raise _Invalid(f"in {collection}: component {cid}: name must be text")
    for key in ("parent", "part"):
        if entry.get(key) is not None and not isinstance(entry[key], str):
            raise _Invalid(f"in {collection}: component {cid}: {key} must be a component id (text) or null")
    attrs = {k: v for k, v in entry.items() if k not in _ENTRY_KEYS and not _private(k)}
    data = {
        "id": cid,
        "kind": kind,
        "name": name,
        "parent": entry.get("parent"),
        "part": entry.get("part"),
        "attrs": attrs,
    }
    try:
        load_component(topo, data)
    except (ModelError, KeyError, TypeError, ValueError) as err:
        raise _Invalid(f"in {collection}: {_with_attribute(kind, cid, attrs, err)}") from None


def _with_attribute(kind: str, cid: str, attrs: dict[str, Any], err: Exception) -> str:
    """The loader's message names the component; add the attribute that is wrong."""
    prefix = f"component {cid}: "
    for key, value in attrs.items():
        try:
            load_component(Topology(), {"id": cid, "kind": kind, "parent": "-", "attrs": {key: value}})
        except (ModelError, KeyError, TypeError, ValueError) as inner:
            text = str(inner).removeprefix(prefix)
            return prefix + (text if repr(key) in text else f"{key}: {text}")
    return str(err)


def _private(key: Any) -> bool:
    """Keys starting with ``x-`` are the user's own: ignored on reading, not kept."""
    return isinstance(key, str) and key.startswith("x-")


def _check_part(pid: str, part: Any) -> None:
    """The shape of a part's figures, as far as the analysis reads them; raises _Invalid."""
    where = f"part {pid!r}"
    if not isinstance(part, dict):
        raise _Invalid(f"{where} must be an object")
    if "id" in part and part["id"] != pid:
        raise _Invalid(f"{where} has id {part['id']!r}; it must match its key")
    _check_depth(part, where, 0)
    figures = part.get("figures", {})
    if not isinstance(figures, dict):
        raise _Invalid(f"{where}: figures must be an object")
    for fname, sets in figures.items():
        if not isinstance(sets, dict):
            raise _Invalid(f"{where}: figure {fname} must be an object of figure sets")
        for set_name, entry in sets.items():
            if not isinstance(entry, dict):
                raise _Invalid(f"{where}: figure {fname}.{set_name} must be an object")
            for key in ("value", "read", "write"):
                if key in entry and not _positive(entry[key]):
                    raise _Invalid(f"{where}: figure {fname}.{set_name}.{key} must be a positive number of MB/s")
    layouts = part.get("layouts", [])
    if not isinstance(layouts, list):
        raise _Invalid(f"{where}: layouts must be a list")
    for row in layouts:
        if not isinstance(row, dict):
            raise _Invalid(f"{where}: a layout row must be an object")
        for key in (
            "raid_level",
            "data_drives",
            "segment_kb",
            "read",
            "write",
            *(("arrays",) if "arrays" in row else ()),
        ):
            if not _number(row.get(key)):
                raise _Invalid(f"{where}: layout row {key} must be a number")
    for key in _PART_NUMBERS:
        if key in part and not _number(part[key]):
            raise _Invalid(f"{where}: {key} must be a number")
    multipath = part.get("multipath")
    if multipath is not None and not isinstance(multipath, (str, list)):
        raise _Invalid(f"{where}: multipath must be text or a list of drivers")


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _positive(value: Any) -> bool:
    return _number(value) and value > 0


def _check_depth(value: Any, where: str, depth: int) -> None:
    if depth > _MAX_PART_DEPTH:
        raise _Invalid(f"{where} is nested too deeply")
    if isinstance(value, dict):
        for v in value.values():
            _check_depth(v, where, depth + 1)
    elif isinstance(value, list):
        for v in value:
            _check_depth(v, where, depth + 1)


def _project_from_document(data: Any) -> Project:
    doc = _upgrade(data)
    current = doc.get("scenario", DEFAULT_SCENARIO)
    problem = _scenario_name_problem(current)
    if problem:
        raise _Invalid(f"scenario {current!r} {problem}")
    designs: dict[str, Topology] = {current: _design_from_dict(doc, allowed=_FORMAT_KEYS | _SCENARIO_KEYS)}
    others = doc.get("scenarios", {})
    if not isinstance(others, dict):
        raise _Invalid("scenarios must be an object of designs by scenario name")
    for name, body in others.items():
        problem = _scenario_name_problem(name, designs)
        if problem:
            raise _Invalid(f"scenario {name!r} {problem}")
        try:
            designs[name] = _design_from_dict(body)
        except _Invalid as err:
            raise _Invalid(f"scenario {name!r}: {err}") from None
    order = doc.get("scenario_order", list(designs))
    if not isinstance(order, list) or not all(isinstance(n, str) for n in order) or sorted(order) != sorted(designs):
        raise _Invalid(f"scenario_order must list each scenario once: {', '.join(designs)}")
    return Project._from_scenarios({name: designs[name] for name in order}, current)


# -- projects --------------------------------------------------------------------------------------


def _scenario_name_problem(name: Any, taken: Iterable[str] = ()) -> str | None:
    if not isinstance(name, str):
        return "is not text"
    if not name.strip():
        return "is empty; give the scenario a name of 1 to 64 characters"
    if len(name) > 64:
        return "is longer than 64 characters"
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        return "contains control characters (tabs, new lines)"
    if name != name.strip():
        return "starts or ends with spaces"
    if name in taken:
        return "is already used; choose another name"
    return None


class Project:
    """One design file's contents: named scenarios of a design (ordered), one of them current.

    ``path`` is the ``.sanplan`` file it was opened from or last saved to (None for a new
    project or a JSON import). ``next_message`` is the revision message the next save uses when
    it is given none (set by :func:`restore_revision`).
    """

    def __init__(
        self,
        topology: Topology | None = None,
        scenario: str = DEFAULT_SCENARIO,
        path: str | os.PathLike[str] | None = None,
    ) -> None:
        self._check_name(scenario, ())
        self.scenarios: dict[str, Topology] = {scenario: topology if topology is not None else Topology()}
        self.current = scenario
        self.path: Path | None = Path(path) if path is not None else None
        self.next_message = ""

    @classmethod
    def single(cls, topology: Topology, scenario: str = DEFAULT_SCENARIO) -> Project:
        """A project holding one design as its only scenario."""
        return cls(topology, scenario)

    @classmethod
    def _from_scenarios(cls, scenarios: dict[str, Topology], current: str) -> Project:
        project = cls()
        project.scenarios = dict(scenarios)
        project.current = current
        return project

    @property
    def topology(self) -> Topology:
        """The current scenario's design."""
        return self.scenarios[self.current]

    def _check_name(self, name: Any, taken: Iterable[str]) -> None:
        problem = _scenario_name_problem(name, taken)
        if problem:
            raise ProjectError(f"scenario name {name!r}", problem)

    def _existing(self, name: str) -> Topology:
        if name not in self.scenarios:
            raise ProjectError(f"scenario {name!r}", "does not exist", f"choose one of {', '.join(self.scenarios)}")
        return self.scenarios[name]

    def add_scenario(self, name: str, from_name: str | None = None) -> Topology:
        """Add a scenario as a copy of ``from_name`` (default: the current one); returns its design.

        The current scenario does not change. Raises ProjectError for a bad or taken name.
        """
        source = self._existing(from_name if from_name is not None else self.current)
        self._check_name(name, self.scenarios)
        topo = source.clone()
        self.scenarios[name] = topo
        return topo

    def rename_scenario(self, old: str, new: str) -> None:
        """Rename a scenario in place (its position and currency stay)."""
        self._existing(old)
        if new == old:
            return
        self._check_name(new, [n for n in self.scenarios if n != old])
        self.scenarios = {(new if n == old else n): t for n, t in self.scenarios.items()}
        if self.current == old:
            self.current = new

    def delete_scenario(self, name: str) -> None:
        """Delete a scenario (not the last one). Deleting the current one makes its neighbour current."""
        self._existing(name)
        if len(self.scenarios) == 1:
            raise ProjectError(
                f"scenario {name!r}", "is the only scenario", "a design keeps at least one; add another first"
            )
        names = list(self.scenarios)
        index = names.index(name)
        del self.scenarios[name]
        if self.current == name:
            self.current = names[index - 1] if index > 0 else names[1]

    def switch(self, name: str) -> Topology:
        """Make ``name`` the current scenario; returns its design."""
        topo = self._existing(name)
        self.current = name
        return topo


def _as_project(obj: Project | Topology) -> Project:
    if isinstance(obj, Project):
        return obj
    if isinstance(obj, Topology):
        return Project.single(obj)
    raise TypeError(f"expected a Project or a Topology, not {type(obj).__name__}")


# -- reading files ---------------------------------------------------------------------------------


def _show(path: str | os.PathLike[str]) -> str:
    """The path as given, safe to print on one line."""
    text = os.fsdecode(path)
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _head(path: str | os.PathLike[str], where: str) -> bytes:
    """The first 16 bytes of a file that exists and can be read; ProjectError otherwise."""
    try:
        with open(path, "rb") as f:
            head = f.read(len(SQLITE_MAGIC))
    except FileNotFoundError:
        raise ProjectError(where, "no such file", "check the name and the folder") from None
    except IsADirectoryError:
        raise ProjectError(where, "is a folder, not a design file", _FIX_NOT_OURS) from None
    except PermissionError:
        raise ProjectError(where, "cannot be read (permission denied)", "check the file's permissions") from None
    except OSError as err:
        raise ProjectError(where, f"cannot be read ({err.strerror or err})", "check the file and the disk") from None
    if not head:
        raise ProjectError(where, "is empty (0 bytes), not a SANplan design", _FIX_DAMAGED)
    if head != SQLITE_MAGIC and len(head) < len(SQLITE_MAGIC) and SQLITE_MAGIC.startswith(head):
        raise ProjectError(where, f"is truncated (only {len(head)} bytes)", _FIX_DAMAGED)
    return head


def open_project(path: str | os.PathLike[str]) -> Project:
    """Open a design: a ``.sanplan`` file or a SANplan JSON export (told apart by content).

    Older file versions are migrated in memory; the file is never written. Raises ProjectError
    (one line naming the file) for a missing, empty, truncated, damaged, foreign or newer file.
    """
    where = _show(path)
    if _head(path, where) != SQLITE_MAGIC:
        return import_json(path)
    contents = _read_sanplan(path, where)
    scenarios: dict[str, Topology] = {}
    for name, body in contents.scenarios:
        try:
            scenarios[name] = _design_from_body(body)
        except _Newer as err:
            raise ProjectError(where, str(err), _FIX_NEWER) from None
        except _Invalid as err:
            raise ProjectError(where, f"is damaged (scenario {name!r}: {err})", _FIX_DAMAGED) from None
    project = Project._from_scenarios(scenarios, contents.current)
    project.path = Path(path)
    return project


def _design_from_body(body: str | bytes) -> Topology:
    return _design_from_dict(_upgrade(_parse_json(body)), allowed=_FORMAT_KEYS)


def import_json(path: str | os.PathLike[str]) -> Project:
    """Read a SANplan JSON export (all its scenarios). The project has no ``path`` (save it as .sanplan).

    Raises ProjectError naming the file for anything but a valid SANplan JSON document.
    """
    where = _show(path)
    if _head(path, where) == SQLITE_MAGIC:
        raise ProjectError(where, "is a .sanplan design file, not a JSON export", "open it as a design instead")
    doc = _read_json_file(path, where)
    return project_from_dict(doc, where)


def _read_json_file(path: str | os.PathLike[str], where: str) -> Any:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as err:
        raise ProjectError(where, f"cannot be read ({err.strerror or err})", "check the file and the disk") from None
    data = data.removeprefix(b"\xef\xbb\xbf")  # a byte order mark some editors write
    if data.lstrip(b" \t\r\n")[:1] != b"{":
        raise ProjectError(
            where, "is not a SANplan design (neither a .sanplan file nor a SANplan JSON export)", _FIX_NOT_OURS
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ProjectError(
            where, f"is not valid JSON (byte {err.start} is not UTF-8 text); the file may be damaged", _FIX_JSON
        ) from None
    try:
        return _parse_json(text)
    except _Invalid as err:
        raise ProjectError(where, f"{err}; the file may be truncated or edited by hand", _FIX_JSON) from None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text[:20]} is out of range")
    return value


def _parse_json(text: str | bytes) -> Any:
    """Strict JSON: no NaN or Infinity, finite numbers; raises _Invalid."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        return json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
    except RecursionError:
        raise _Invalid("is not valid JSON (nested too deeply)") from None
    except ValueError as err:  # JSONDecodeError, UnicodeDecodeError, too many digits, out of range
        raise _Invalid(f"is not valid JSON ({err})") from None


def _dumps(value: Any, indent: int | None = None) -> str:
    """JSON text; raises ValueError/TypeError for values JSON cannot store (NaN, sets, objects)."""
    separators = (",", ": ") if indent else (",", ":")
    return json.dumps(value, indent=indent, separators=separators, ensure_ascii=False, allow_nan=False)


@dataclass
class _Revision:
    id: int
    created: str
    message: str
    names: list[str]
    body: bytes  # zlib-compressed JSON: {"current": name, "scenarios": [{"name", "design"}]}


@dataclass
class _Contents:
    """A .sanplan file's rows, migrated to :data:`FILE_VERSION` (in memory)."""

    version: int  # the version on disk
    meta: dict[str, str]
    scenarios: list[tuple[str, str]]  # (name, JSON body), by position
    current: str
    revisions: list[_Revision]


_SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE scenarios (name TEXT PRIMARY KEY, position INTEGER NOT NULL, is_current INTEGER NOT NULL,"
    " body TEXT NOT NULL)",
    "CREATE TABLE revisions (id INTEGER PRIMARY KEY AUTOINCREMENT, created TEXT NOT NULL, message TEXT NOT NULL,"
    " scenario_names TEXT NOT NULL, body BLOB NOT NULL)",
)


def _revision_body(current: str, designs: list[tuple[str, dict[str, Any]]]) -> bytes:
    doc = {"current": current, "scenarios": [{"name": name, "design": design} for name, design in designs]}
    return zlib.compress(_dumps(doc).encode("utf-8"), 6)


def _migrate_1_to_2(db: sqlite3.Connection) -> None:
    """File version 1 held one design (table ``design``); it becomes scenario "Base" with one revision."""
    rows = db.execute("SELECT body FROM design").fetchall()
    if len(rows) != 1 or not isinstance(rows[0][0], str):
        raise _Invalid(f"its design table holds {len(rows)} designs instead of one")
    body = rows[0][0]
    saved = dict(db.execute("SELECT key, value FROM meta").fetchall()).get("saved", "")
    revision = _revision_body(DEFAULT_SCENARIO, [(DEFAULT_SCENARIO, _parse_json(body))])
    for statement in _SCHEMA[1:]:
        db.execute(statement)
    db.execute("INSERT INTO scenarios VALUES (?, 0, 1, ?)", (DEFAULT_SCENARIO, body))
    db.execute(
        "INSERT INTO revisions (created, message, scenario_names, body) VALUES (?, ?, ?, ?)",
        (str(saved or ""), "migrated from file version 1", _dumps([DEFAULT_SCENARIO]), revision),
    )
    db.execute("DROP TABLE design")
    db.execute("INSERT OR REPLACE INTO meta VALUES ('file_version', ?)", (str(FILE_VERSION),))


#: file migrations: version n -> function upgrading an (in-memory) database from n to n+1
MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {1: _migrate_1_to_2}


def _read_sanplan(path: str | os.PathLike[str], where: str) -> _Contents:
    """Check and read a .sanplan file (read-only), migrating an older version in memory."""
    try:
        uri = Path(path).absolute().as_uri() + "?mode=ro"
        con = sqlite3.connect(uri, uri=True)
    except (sqlite3.Error, ValueError, OSError) as err:
        raise ProjectError(where, f"cannot be opened ({err})", "check the file and its permissions") from None
    mem: sqlite3.Connection | None = None
    try:
        app_id = con.execute("PRAGMA application_id").fetchone()[0]
        version = con.execute("PRAGMA user_version").fetchone()[0]
        if app_id != APPLICATION_ID:
            raise ProjectError(
                where, "is not a SANplan design (it is a SQLite database of another application)", _FIX_NOT_OURS
            )
        if version > FILE_VERSION:
            raise ProjectError(where, f"was written by a newer SANplan (file version {version})", _FIX_NEWER)
        if version < 1:
            raise _Invalid(f"it has no valid file version ({version})")
        report = [row[0] for row in con.execute("PRAGMA integrity_check").fetchall()]
        if report != ["ok"]:
            raise _Invalid(f"integrity check: {report[0] if report else 'no answer'}")
        db = con
        if version < FILE_VERSION:
            mem = sqlite3.connect(":memory:")
            con.backup(mem)
            for v in range(version, FILE_VERSION):
                MIGRATIONS[v](mem)
            db = mem
        return _read_tables(db, version)
    except sqlite3.Error as err:
        raise ProjectError(where, f"is damaged or not a complete SANplan file ({err})", _FIX_DAMAGED) from None
    except _Invalid as err:
        raise ProjectError(where, f"is damaged ({err})", _FIX_DAMAGED) from None
    finally:
        con.close()
        if mem is not None:
            mem.close()


def _read_tables(db: sqlite3.Connection, version: int) -> _Contents:
    meta = {}
    for key, value in db.execute("SELECT key, value FROM meta"):
        if not isinstance(key, str) or not isinstance(value, str):
            raise _Invalid("its meta table holds something other than text")
        meta[key] = value
    scenarios: list[tuple[str, str]] = []
    current = ""
    for name, is_current, body in db.execute("SELECT name, is_current, body FROM scenarios ORDER BY position, rowid"):
        problem = _scenario_name_problem(name, [n for n, _ in scenarios])
        if problem:
            raise _Invalid(f"a scenario name {problem}")
        if not isinstance(body, str):
            raise _Invalid(f"scenario {name!r} holds no design")
        scenarios.append((name, body))
        if is_current and not current:
            current = name
    if not scenarios:
        raise _Invalid("it holds no scenario")
    revisions = []
    for rid, created, message, names, body in db.execute(
        "SELECT id, created, message, scenario_names, body FROM revisions ORDER BY id"
    ):
        if not (
            isinstance(rid, int) and isinstance(created, str) and isinstance(message, str) and isinstance(body, bytes)
        ):
            raise _Invalid(f"revision {rid!r} is malformed")
        try:
            listed = _parse_json(names) if isinstance(names, str) else None
        except _Invalid:
            listed = None
        if not isinstance(listed, list) or not all(isinstance(n, str) for n in listed):
            raise _Invalid(f"revision {rid} does not list its scenarios")
        revisions.append(_Revision(rid, created, message, listed, body))
    return _Contents(version, meta, scenarios, current or scenarios[0][0], revisions)


def list_revisions(path: str | os.PathLike[str]) -> list[tuple[int, str, str, list[str]]]:
    """The revisions a .sanplan file keeps, oldest first: (id, created UTC ISO time, message, scenario names)."""
    where = _show(path)
    if _head(path, where) != SQLITE_MAGIC:
        raise ProjectError(where, "is not a .sanplan design file, so it keeps no revisions", "open a .sanplan file")
    return [(r.id, r.created, r.message, list(r.names)) for r in _read_sanplan(path, where).revisions]


def restore_revision(path: str | os.PathLike[str], rev_id: int) -> Project:
    """The project as revision ``rev_id`` of the file saved it. Nothing is written: save it to keep it
    (the save records a new revision "restored revision N")."""
    where = _show(path)
    if _head(path, where) != SQLITE_MAGIC:
        raise ProjectError(where, "is not a .sanplan design file, so it keeps no revisions", "open a .sanplan file")
    try:
        rev_id = int(rev_id)
    except (TypeError, ValueError):
        raise ProjectError(
            where, f"has no revision {rev_id!r}", "give a revision number (see the list of revisions)"
        ) from None
    contents = _read_sanplan(path, where)
    found = [r for r in contents.revisions if r.id == rev_id]
    if not found:
        kept = ", ".join(str(r.id) for r in contents.revisions) or "none"
        raise ProjectError(where, f"has no revision {rev_id!r}", f"choose one it keeps: {kept}")
    try:
        doc = _parse_json(zlib.decompress(found[0].body))
        if not isinstance(doc, dict) or not isinstance(doc.get("scenarios"), list):
            raise _Invalid("it lists no scenarios")
        scenarios: dict[str, Topology] = {}
        for item in doc["scenarios"]:
            if not isinstance(item, dict) or _scenario_name_problem(item.get("name"), scenarios):
                raise _Invalid("a scenario is unnamed or named twice")
            scenarios[item["name"]] = _design_from_dict(_upgrade(item.get("design")), allowed=_FORMAT_KEYS)
        current = doc.get("current")
        if not scenarios or current not in scenarios:
            raise _Invalid("it names no current scenario")
    except zlib.error as err:
        raise ProjectError(where, f"revision {rev_id} is damaged ({err})", "restore another revision") from None
    except _Newer as err:
        raise ProjectError(where, f"revision {rev_id} {err}", _FIX_NEWER) from None
    except _Invalid as err:
        raise ProjectError(where, f"revision {rev_id} is damaged ({err})", "restore another revision") from None
    project = Project._from_scenarios(scenarios, current)
    project.path = Path(path)
    project.next_message = f"restored revision {rev_id}"
    return project


# -- writing files ---------------------------------------------------------------------------------


def _utcnow() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def save_project(project: Project | Topology, path: str | os.PathLike[str], message: str = "") -> Project:
    """Save ``project`` as a .sanplan file at ``path``, atomically, appending a revision.

    The file is written whole beside ``path`` and renamed over it; on any failure the previous
    file is untouched and no temporary file is left. Revisions already in the file are kept
    (the newest :data:`MAX_REVISIONS`). Refuses (ProjectError, nothing written) to overwrite a
    file that is not a SANplan design, is damaged, or was written by a newer SANplan. Returns the
    project, whose ``path`` is now ``path``.
    """
    project = _as_project(project)
    where = _show(path)
    kept = _revisions_to_keep(path, where)
    now = _utcnow()
    try:
        designs = [(name, topology_to_dict(topo)) for name, topo in project.scenarios.items()]
        rows = [(name, pos, int(name == project.current), _dumps(design)) for pos, (name, design) in enumerate(designs)]
        body = _revision_body(project.current, designs)
    except (TypeError, ValueError) as err:
        raise ProjectError(
            where, f"not saved: the design holds a value a file cannot store ({err})", "correct that value"
        ) from None
    revision = _Revision(
        max((r.id for r in kept), default=0) + 1,
        now,
        str(message or project.next_message),
        list(project.scenarios),
        body,
    )
    revisions = [*kept, revision][-MAX_REVISIONS:]
    meta = {
        "application": "SANplan",
        "file_version": str(FILE_VERSION),
        "schema_version": str(SCHEMA_VERSION),
        "saved": now,
    }
    _replace_atomically(path, where, lambda tmp: _write_sanplan(tmp, meta, rows, revisions))
    project.path = Path(path)
    project.next_message = ""
    return project


def _revisions_to_keep(path: str | os.PathLike[str], where: str) -> list[_Revision]:
    """The revisions of the SANplan file at ``path`` (none if there is no file); refuses other files."""
    if not os.path.exists(path):  # a dangling symlink counts as no file: the save creates its target
        return []
    if os.path.isdir(path):
        raise ProjectError(where, "is a folder", "choose a file name")
    try:
        head = _head(path, where)
    except ProjectError as err:
        raise ProjectError(where, f"not saved: it {err.problem}", _FIX_TAKEN) from None
    if head != SQLITE_MAGIC:
        try:
            import_json(path)
        except ProjectError:
            raise ProjectError(where, "not saved: it is not a SANplan design", _FIX_TAKEN) from None
        raise ProjectError(where, "not saved: it is a SANplan JSON export, not a .sanplan file", _FIX_TAKEN)
    try:
        return _read_sanplan(path, where).revisions
    except ProjectError as err:
        raise ProjectError(where, f"not saved: it {err.problem}", _FIX_TAKEN) from None


def _write_sanplan(
    tmp: str, meta: Mapping[str, str], rows: list[tuple[str, int, int, str]], revisions: list[_Revision]
) -> None:
    con = sqlite3.connect(tmp, isolation_level=None)
    try:
        con.execute("PRAGMA journal_mode = MEMORY").fetchall()  # the temp file is thrown away on failure
        con.execute("BEGIN")
        con.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        con.execute(f"PRAGMA user_version = {FILE_VERSION}")
        for statement in _SCHEMA:
            con.execute(statement)
        con.executemany("INSERT INTO meta VALUES (?, ?)", list(meta.items()))
        con.executemany("INSERT INTO scenarios VALUES (?, ?, ?, ?)", rows)
        con.executemany(
            "INSERT INTO revisions VALUES (?, ?, ?, ?, ?)",
            [(r.id, r.created, r.message, _dumps(r.names), r.body) for r in revisions],
        )
        con.execute("COMMIT")
    finally:
        con.close()


def export_json(project: Project | Topology, path: str | os.PathLike[str]) -> None:
    """Write the JSON document of a project or design (indent 2, UTF-8) atomically.

    Overwrites only an earlier SANplan JSON export; refuses (ProjectError) any other file.
    """
    where = _show(path)
    try:
        text = _dumps(project_to_dict(project), indent=2) + "\n"
    except (TypeError, ValueError) as err:
        raise ProjectError(
            where, f"not written: the design holds a value JSON cannot store ({err})", "correct that value"
        ) from None
    if os.path.exists(path):
        if os.path.isdir(path):
            raise ProjectError(where, "is a folder", "choose a file name")
        try:
            _head(path, where)
            old = _read_json_file(path, where)
        except ProjectError:
            old = None
        if not isinstance(old, dict) or old.get("format") != FORMAT:
            raise ProjectError(where, "is not a SANplan JSON export", _FIX_TAKEN)
    data = text.encode("utf-8")

    def write(tmp: str) -> None:
        with open(tmp, "wb") as f:
            f.write(data)

    _replace_atomically(path, where, write)


def _replace_atomically(path: str | os.PathLike[str], where: str, write: Callable[[str], None]) -> None:
    """Write a new file with ``write(temp path)`` beside ``path``, fsync it and rename it over ``path``.

    On failure the temporary file is removed and ``path`` is untouched; OSError and sqlite3.Error
    become ProjectError.
    """
    try:
        atomic_replace(path, write)
    except TempFileError as err:
        raise ProjectError(
            where, f"cannot be written ({err.strerror or err})", "check that the folder exists and you may write to it"
        ) from None
    except (OSError, sqlite3.Error) as err:
        reason = getattr(err, "strerror", None) or str(err)
        raise ProjectError(
            where, f"not saved ({reason}); nothing was overwritten", "check the disk space and permissions"
        ) from None


