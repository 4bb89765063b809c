"""The JSON interchange document of a design and of a project (``"format": "sanplan-design"``).

The document is the form for diffing and scripting; it names its collections in the domain's words
(``servers``, ``hbas``, ``cables``, ``zones``...) and is described in ``docs/file-format.md``.
Older schema versions open through registered migrations (:data:`JSON_MIGRATIONS`). Every problem
a user can cause raises :class:`~planner.io.errors.ProjectError` naming the file and the fix.
"""

from __future__ import annotations

import copy
import itertools
import json
import math
import os
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from planner.io.atomic import replace_or_refuse
from planner.io.errors import (
    FIX_JSON,
    FIX_NEWER,
    FIX_NOT_OURS,
    FIX_TAKEN,
    SQLITE_MAGIC,
    Invalid,
    Newer,
    ProjectError,
    read_head,
    short,
    show,
)
from planner.io.parts import part_problem
from planner.io.project import DEFAULT_SCENARIO, Project, as_project, scenario_name_problem
from planner.model import ModelError, Topology, check_references, load_component
from planner.schema import KINDS, collection, text_problem

MAX_META_TEXT = 200  # characters of the design's name, customer and author (as the editor allows)

FORMAT = "sanplan-design"
SCHEMA_VERSION = 1  # the JSON design document

_ENTRY_KEYS = ("id", "name", "parent", "part")
_DESIGN_KEYS = frozenset({"meta", "parts", "positions", *(collection(kind) for kind in KINDS)})
FORMAT_KEYS = frozenset({"format", "schema_version"})
_SCENARIO_KEYS = frozenset({"scenario", "scenario_order", "scenarios"})

# -- JSON design documents -------------------------------------------------------------------------

#: JSON schema migrations: version n -> function turning a version-n design dict into version n+1.
#: Each is applied to the top-level design and to every scenario under ``scenarios``; it must keep
#: keys it does not know. Empty while the schema is at version 1.
JSON_MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}

#: a load's progress: called with (the share done, what is being read), it may raise to stop
#: the load (the editor's Cancel: ``app.dialogs.run_with_progress``)
Progress = Callable[[float, str], None]
#: how many components a load reads between two reports of its progress
PROGRESS_EVERY = 2048


def share_of(progress: Progress | None, k: int, n: int) -> Progress | None:
    """``progress`` for the ``k``-th of ``n`` designs read one after the other (a project's
    scenarios): its share of the whole."""
    if progress is None:
        return None
    return lambda done, text: progress((k + done) / n, text)


def topology_to_dict(topo: Topology) -> dict[str, Any]:
    """The JSON design document of ``topo``: format keys, ``meta``, ``parts``, then every collection.

    Entries are flat (``id``, ``name``, ``parent`` unless a root, ``part`` when set, then the
    attributes in schema order, tuples as lists). Within a collection the entries keep the order
    the components were added in. The result shares nothing with ``topo``.
    """
    return _document(topo, {collection(kind): [_entry(comp) for comp in topo.of_kind(kind)] for kind in KINDS})


def topology_text_in_steps(topo: Topology, per_step: int = 500) -> Iterator[str | None]:
    """``dumps(topology_to_dict(topo))`` a piece at a time, for a caller that must not hold its
    thread for long (the editor's autosave on the GUI thread): yields None after each piece of at
    most ``per_step`` components of one kind, then the text, equal to the one-shot one. Each
    piece is encoded as soon as it is made, so what the caller holds meanwhile is text, never
    the tens of thousands of dicts and lists of a site's document (young objects every cyclic
    collection on the GUI thread would walk: 5-20 ms each on the 16x site). Raises ValueError or
    TypeError as :func:`dumps` does. The design must not change meanwhile (``topo.revision``
    says if it did: start again)."""
    head = dumps(_document(topo, {}))
    out = [head[:-1]]  # the document's keys before its collections, without the closing brace
    comps = topo._components
    for kind in KINDS:
        out.append(f",{dumps(collection(kind))}:[")
        ids = topo.ids_of_kind(kind)  # not of_kind: a list of a site's 50,000 drives took 5-10 ms
        for start in range(0, len(ids), per_step):
            if start:
                out.append(",")
            out.append(dumps([_entry(comps[i]) for i in ids[start : start + per_step]])[1:-1])
            yield None
        out.append("]")
    out.append("}")
    yield "".join(out)


def _document(topo: Topology, collections: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """The design document: format keys, ``meta``, ``parts``, ``positions`` when any, then
    the collections (their entries made by the caller)."""
    doc: dict[str, Any] = {
        "format": FORMAT,
        "schema_version": SCHEMA_VERSION,
        "meta": dict(topo.meta),
        "parts": copy.deepcopy(topo.parts),
    }
    if topo.positions:
        doc["positions"] = {cid: [x, y] for cid, (x, y) in topo.positions.items()}
    doc.update(collections)
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
        doc = upgrade(data)
        return design_from_dict(doc, allowed=FORMAT_KEYS | _SCENARIO_KEYS)
    except Newer as err:
        raise ProjectError(where, str(err), FIX_NEWER) from None
    except Invalid as err:
        raise ProjectError(where, str(err), FIX_JSON) from None


def project_to_dict(project: Project | Topology) -> dict[str, Any]:
    """The JSON document of a project: its current scenario as the design, the others under ``scenarios``."""
    project = as_project(project)
    design = topology_to_dict(project.topology)
    doc: dict[str, Any] = {key: design.pop(key) for key in ("format", "schema_version")}
    doc["scenario"] = project.current
    if len(project.scenarios) > 1:
        doc["scenario_order"] = list(project.scenarios)
    doc.update(design)
    if len(project.scenarios) > 1:
        doc["scenarios"] = {
            name: without_format(topology_to_dict(topo))
            for name, topo in project.scenarios.items()
            if name != project.current
        }
    return doc


def project_from_dict(data: Any, where: str = "<json>", progress: Progress | None = None) -> Project:
    """The project a JSON document describes (all its scenarios). Raises ProjectError naming ``where``."""
    try:
        return _project_from_document(data, progress)
    except Newer as err:
        raise ProjectError(where, str(err), FIX_NEWER) from None
    except Invalid as err:
        raise ProjectError(where, str(err), FIX_JSON) from None


def without_format(design: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in design.items() if k not in FORMAT_KEYS}


def upgrade(data: Any) -> dict[str, Any]:
    """Check the format keys and migrate an older document to :data:`SCHEMA_VERSION`."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise Invalid(f'is not a SANplan design document (it lacks "format": "{FORMAT}")')
    version = data.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise Invalid(f"has schema_version {version!r}; it must be a whole number from 1")
    if version > SCHEMA_VERSION:
        raise Newer(
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


def design_from_dict(body: Any, allowed: Iterable[str] = (), progress: Progress | None = None) -> Topology:
    """One design (meta, parts, collections) -> Topology; raises Invalid. ``progress`` is told
    every few thousand components read (see :data:`Progress`)."""
    if not isinstance(body, dict):
        raise Invalid("a design must be a JSON object")
    allowed = frozenset(allowed)
    for key in body:
        if key not in _DESIGN_KEYS and key not in allowed and not _private(key):
            raise Invalid(
                f"has an unknown key {key!r} (a design has meta, parts and the collections; private keys start with x-)"
            )
    topo = Topology()
    meta = body.get("meta", {})
    if not isinstance(meta, dict) or not all(isinstance(v, str) for v in meta.values()):
        raise Invalid("meta must be an object of text fields (name, customer, author)")
    for key, value in meta.items():
        problem = text_problem(value, MAX_META_TEXT)
        if problem:
            raise Invalid(f"meta {short(str(key), 40)!r}: {problem}")
    topo.meta.update(meta)
    parts = body.get("parts", {})
    if not isinstance(parts, dict):
        raise Invalid("parts must be an object of parts by id")
    for pid, part in parts.items():
        _part_problem(pid, part)
    topo.parts = copy.deepcopy(parts)
    total, done = sum(len(v) for k in KINDS if isinstance(v := body.get(collection(k)), list)), 0
    for kind in KINDS:  # the collections in document order: parents before children
        name = collection(kind)
        entries = body.get(name, [])
        if not isinstance(entries, list):
            raise Invalid(f"{name} must be a list of objects")
        for i, entry in enumerate(entries):
            if progress is not None and (done + i) % PROGRESS_EVERY == 0:
                progress((done + i) / total, f"Reading {done + i:,} of {total:,} components")
            _load_entry(topo, kind, name, i, entry)
        done += len(entries)
    try:
        check_references(topo)
    except ModelError as err:
        raise Invalid(str(err)) from None
    positions = body.get("positions", {})
    if not isinstance(positions, dict):
        raise Invalid("positions must be an object of [x, y] by component id")
    for cid, xy in positions.items():
        if (
            not isinstance(xy, list)
            or len(xy) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in xy)
        ):
            raise Invalid(f"position of {cid!r} must be [x, y] in points")
        if cid in topo:  # a position of a deleted component is dropped
            topo.positions[cid] = (float(xy[0]), float(xy[1]))
    topo.revision = 0
    return topo


def _load_entry(topo: Topology, kind: str, collection: str, i: int, entry: Any) -> None:
    if not isinstance(entry, dict):
        raise Invalid(f"{collection}[{i}] is not an object")
    cid = entry.get("id")
    if not isinstance(cid, str) or not cid:
        raise Invalid(f"{collection}[{i}] has no id (it needs a non-empty text id)")
    name = entry.get("name", "")
    if not isinstance(name, str):
        raise Invalid(f"in {collection}: component {cid}: name must be text")
    for key in ("parent", "part"):
        if entry.get(key) is not None and not isinstance(entry[key], str):
            raise Invalid(f"in {collection}: component {cid}: {key} must be a component id (text) or null")
    attrs = {k: v for k, v in entry.items() if k not in _ENTRY_KEYS and not (isinstance(k, str) and k[:2] == "x-")}
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
        raise Invalid(f"in {collection}: {_with_attribute(kind, cid, attrs, err)}") from None


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


def _part_problem(pid: str, part: Any) -> None:
    """A part of the design's ``parts``: a valid part record whose id is its key; raises Invalid."""
    where = f"part {pid!r}"
    if not isinstance(part, dict):
        raise Invalid(f"{where} must be an object")
    if "id" in part and part["id"] != pid:
        raise Invalid(f"{where} has id {part['id']!r}; it must match its key")
    problem = part_problem(part if "id" in part else {**part, "id": pid})  # the key is its id
    if problem:
        raise Invalid(f"{where}: {problem}")


def _project_from_document(data: Any, progress: Progress | None = None) -> Project:
    doc = upgrade(data)
    current = doc.get("scenario", DEFAULT_SCENARIO)
    problem = scenario_name_problem(current)
    if problem:
        raise Invalid(f"scenario {current!r} {problem}")
    others = doc.get("scenarios", {})
    if not isinstance(others, dict):
        raise Invalid("scenarios must be an object of designs by scenario name")
    n = 1 + len(others)
    designs = {current: design_from_dict(doc, FORMAT_KEYS | _SCENARIO_KEYS, share_of(progress, 0, n))}
    for k, (name, body) in enumerate(others.items(), 1):
        problem = scenario_name_problem(name, designs)
        if problem:
            raise Invalid(f"scenario {name!r} {problem}")
        try:
            designs[name] = design_from_dict(body, progress=share_of(progress, k, n))
        except Invalid as err:
            raise Invalid(f"scenario {name!r}: {err}") from None
    order = doc.get("scenario_order", list(designs))
    if not isinstance(order, list) or not all(isinstance(n, str) for n in order) or sorted(order) != sorted(designs):
        raise Invalid(f"scenario_order must list each scenario once: {', '.join(designs)}")
    return Project.from_scenarios({name: designs[name] for name in order}, current)


def design_from_body(body: str | bytes, progress: Progress | None = None) -> Topology:
    return design_from_dict(upgrade(parse_json(body)), FORMAT_KEYS, progress)


def import_json(path: str | os.PathLike[str], progress: Progress | None = None) -> Project:
    """Read a SANplan JSON export (all its scenarios). The project has no ``path`` (save it as .sanplan).

    Raises ProjectError naming the file for anything but a valid SANplan JSON document.
    """
    where = show(path)
    if read_head(path, where) == SQLITE_MAGIC:
        raise ProjectError(where, "is a .sanplan design file, not a JSON export", "open it as a design instead")
    doc = read_json_file(path, where)
    return project_from_dict(doc, where, progress)


def read_json_file(path: str | os.PathLike[str], where: str) -> Any:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as err:
        raise ProjectError(where, f"cannot be read ({err.strerror or err})", "check the file and the disk") from None
    data = data.removeprefix(b"\xef\xbb\xbf")  # a byte order mark some editors write
    if data.lstrip(b" \t\r\n")[:1] != b"{":
        raise ProjectError(
            where, "is not a SANplan design (neither a .sanplan file nor a SANplan JSON export)", FIX_NOT_OURS
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ProjectError(
            where, f"is not valid JSON (byte {err.start} is not UTF-8 text); the file may be damaged", FIX_JSON
        ) from None
    try:
        return parse_json(text)
    except Invalid as err:
        raise ProjectError(where, f"{err}; the file may be truncated or edited by hand", FIX_JSON) from None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text[:20]} is out of range")
    return value


MAX_INT_DIGITS = 18  # whole numbers beyond +-10**18 are no figure, position or count SANplan uses
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(f"number {text[:20]}... has {len(text)} digits; at most {MAX_INT_DIGITS} are allowed")
    return int(text)


def parse_json(text: str | bytes) -> Any:
    """Strict JSON: no NaN or Infinity, finite numbers, whole numbers of at most 18 digits, text
    that is valid Unicode (no lone surrogates); raises Invalid."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        value = json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float, parse_int=_bounded_int)
    except RecursionError:
        raise Invalid("is not valid JSON (nested too deeply)") from None
    except ValueError as err:  # JSONDecodeError, UnicodeDecodeError, too many digits, out of range
        raise Invalid(f"is not valid JSON ({short(str(err))})") from None
    if _SURROGATE_ESCAPE.search(text):
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise Invalid(
                "holds text with a lone surrogate escape (\\ud800-\\udfff), which is not a character"
            ) from None
    return value


def dumps(value: Any, indent: int | None = None) -> str:
    """JSON text; raises ValueError/TypeError for values JSON cannot store (NaN, sets, objects)."""
    separators = (",", ": ") if indent else (",", ":")
    return json.dumps(value, indent=indent, separators=separators, ensure_ascii=False, allow_nan=False)


def dumps_in_steps(value: Any) -> str:
    """What :func:`dumps` gives (without indent), encoded by Python's pure encoder a piece at a
    time: slower, but a thread running it lets other threads in between the pieces."""
    encoder = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    chunks = encoder.iterencode(value)
    # joined a batch at a time: one join of the 16x site's 1.3 million chunks, and freeing them,
    # held the interpreter 21 ms at a stretch (the editor froze for that long during an autosave)
    pieces = []
    while batch := list(itertools.islice(chunks, 20000)):
        pieces.append("".join(batch))
    return "".join(pieces)


def export_json(project: Project | Topology, path: str | os.PathLike[str]) -> None:
    """Write the JSON document of a project or design (indent 2, UTF-8) atomically.

    Overwrites only an earlier SANplan JSON export; refuses (ProjectError) any other file.
    """
    where = show(path)
    try:
        text = dumps(project_to_dict(project), indent=2) + "\n"
    except (TypeError, ValueError) as err:
        raise ProjectError(
            where, f"not written: the design holds a value JSON cannot store ({err})", "correct that value"
        ) from None
    if os.path.exists(path):
        if os.path.isdir(path):
            raise ProjectError(where, "is a folder", "choose a file name")
        try:
            read_head(path, where)
            old = read_json_file(path, where)
        except ProjectError:
            old = None
        if not isinstance(old, dict) or old.get("format") != FORMAT:
            raise ProjectError(where, "is not a SANplan JSON export", FIX_TAKEN)
    data = text.encode("utf-8")

    def write(tmp: str) -> None:
        with open(tmp, "wb") as f:
            f.write(data)

    replace_or_refuse(path, where, write)
