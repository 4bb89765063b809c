"""Fuzzing the loaders: arbitrary bytes, mutated files and arbitrary values in any field either
open or are refused with one line naming the file; nothing else."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner.io import Project, ProjectError, list_revisions, open_project, project_from_dict, project_to_dict
from planner.schema import KINDS, collection

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# -- fuzzing the loaders ---------------------------------------------------------------------------


def _opens_or_refuses(path: Path) -> None:
    try:
        result = open_project(path)
    except ProjectError as err:
        assert str(err).startswith(str(path)) and "\n" not in str(err)
    else:
        assert isinstance(result, Project)


@FUZZ
@given(
    data=st.one_of(
        st.binary(max_size=2048),
        st.binary(max_size=2048).map(lambda b: b"SQLite format 3\x00" + b),
        st.binary(max_size=512).map(lambda b: b"{" + b),
        st.text(max_size=300).map(lambda s: s.encode("utf-8")),
    )
)
def test_fuzz_arbitrary_bytes(data, fuzz_dir):
    path = fuzz_dir / "bytes.sanplan"
    path.write_bytes(data)
    _opens_or_refuses(path)


JSON_CHARACTERS = '{}[]",:0123456789.-eE truefalsnul\\'


@st.composite
def mutations(draw, size: int):
    """Up to four edits of a file: flip a bit, overwrite (random bytes or JSON-like text), zero or
    delete a range, or truncate. A quarter of the edits hit the header (first 128 bytes)."""

    def position():
        return draw(st.one_of(st.integers(0, 127), *[st.integers(0, size - 1)] * 3))

    edits = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["flip", "overwrite", "text", "zero", "delete", "truncate"]))
        if kind == "flip":
            edits.append((kind, position(), draw(st.integers(0, 7))))
        elif kind == "overwrite":
            edits.append((kind, position(), draw(st.binary(min_size=1, max_size=64))))
        elif kind == "text":
            edits.append(("overwrite", position(), draw(st.text(JSON_CHARACTERS, min_size=1, max_size=12)).encode()))
        elif kind in ("zero", "delete"):
            edits.append((kind, position(), draw(st.integers(1, 4096))))
        else:
            edits.append((kind, position(), None))
    return edits


def _mutate(data: bytes, edits) -> bytes:
    buf = bytearray(data)
    for kind, pos, arg in edits:
        if not buf:
            break
        pos %= len(buf)
        if kind == "flip":
            buf[pos] ^= 1 << arg
        elif kind == "overwrite":
            buf[pos : pos + len(arg)] = arg
        elif kind == "zero":
            buf[pos : pos + arg] = bytes(len(buf[pos : pos + arg]))
        elif kind == "delete":
            del buf[pos : pos + arg]
        else:
            del buf[pos:]
    return bytes(buf)


@FUZZ
@given(data=st.data())
def test_fuzz_mutated_sanplan_file(data, valid_files, fuzz_dir):
    good = valid_files["sanplan"]
    path = fuzz_dir / "mutated.sanplan"
    path.write_bytes(_mutate(good, data.draw(mutations(len(good)))))
    _opens_or_refuses(path)
    try:
        list_revisions(path)
    except ProjectError:
        pass


@FUZZ
@given(data=st.data())
def test_fuzz_mutated_json_export(data, valid_files, fuzz_dir):
    good = valid_files["json"]
    path = fuzz_dir / "mutated.json"
    path.write_bytes(_mutate(good, data.draw(mutations(len(good)))))
    _opens_or_refuses(path)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@FUZZ
@given(data=st.data(), value=json_values)
def test_fuzz_json_fields_with_arbitrary_values(data, value, valid_files):
    """Any value in any field of a valid document: the design loads or is refused, nothing else."""
    doc = json.loads(valid_files["json"])
    collections = [collection(kind) for kind in KINDS if doc[collection(kind)]]
    where = data.draw(st.sampled_from(["top", "entry", "part", "scenario"]))
    if where == "top":
        doc[data.draw(st.sampled_from([*doc, "x-extra", "unknown"]))] = value
    elif where == "entry":
        entries = doc[data.draw(st.sampled_from(collections))]
        entry = entries[data.draw(st.integers(0, len(entries) - 1))]
        entry[data.draw(st.sampled_from([*entry, "extra"]))] = value
    elif where == "part":
        part = doc["parts"][data.draw(st.sampled_from(sorted(doc["parts"])))]
        part[data.draw(st.sampled_from([*part, "figures", "layouts", "multipath"]))] = value
    else:
        doc["scenarios"]["Upgrade"][data.draw(st.sampled_from(["meta", "parts", *collections]))] = value
    try:
        result = project_from_dict(json.loads(json.dumps(doc)), where="fuzz.json")
    except ProjectError as err:
        assert str(err).startswith("fuzz.json: ")
    else:
        assert isinstance(result, Project)
        json.dumps(project_to_dict(result), allow_nan=False)  # what loads can be written again
