"""Read SANplan's NetBox files the way NetBox and the devicetype-library read them (tests only).

- :func:`read_netbox_csv`: NetBox 4.6 ``BulkImportForm._clean_csv`` + ``parse_csv``: the dialect
  sniffed over ``,;|`` and tab, headers and cells stripped, every row as long as the header.
- :func:`check_csv`: column names against the import form's fields, required columns filled,
  choice columns against NetBox's choices (``netbox_reference.json``, copied from NetBox 4.6.8).
- :func:`read_yaml`: a reader for the YAML subset SANplan writes (PyYAML is not installed here):
  ``---``, ``key: scalar`` lines, and one level of lists of mappings (``  - key: scalar``).
  Scalars are JSON strings, ``true``/``false`` or numbers; anything else is an error.
- :func:`validate`: a JSON-schema validator for the keywords the devicetype-library schema uses
  (type, properties, required, additionalProperties, maxLength, pattern, minimum, multipleOf,
  enum, const, items, $ref, allOf with if/then); jsonschema is not installed here either.
"""

from __future__ import annotations

import csv
import io
import json
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
REFERENCE = json.loads((HERE / "netbox_reference.json").read_text())
SCHEMA = json.loads((HERE / "devicetype_schema.json").read_text())

#: (import form, column) -> NetBox choice set its values must come from
CHOICE_COLUMNS = {
    ("SiteImportForm", "status"): "SiteStatusChoices",
    ("RackImportForm", "status"): "RackStatusChoices",
    ("RackImportForm", "width"): "RackWidthChoices",
    ("RackImportForm", "outer_unit"): "RackDimensionUnitChoices",
    ("DeviceImportForm", "status"): "DeviceStatusChoices",
    ("DeviceImportForm", "face"): "DeviceFaceChoices",
    ("InterfaceImportForm", "type"): "InterfaceTypeChoices",
    ("CableImportForm", "type"): "CableTypeChoices",
    ("CableImportForm", "status"): "LinkStatusChoices",
    ("CableImportForm", "length_unit"): "CableLengthUnitChoices",
}


def read_netbox_csv(text: str) -> tuple[list[str], list[dict[str, str]]]:
    """(headers, records) as NetBox parses an uploaded CSV; asserts it sniffs ',' and '"'."""
    dialect = csv.Sniffer().sniff(text.strip(), delimiters=",;|\t")
    assert (dialect.delimiter, dialect.quotechar) == (",", '"'), (dialect.delimiter, dialect.quotechar)
    reader = csv.reader(io.StringIO(text.strip()), dialect=dialect)
    headers = [h.strip() for h in next(reader)]
    assert len(set(headers)) == len(headers), headers
    records = []
    for i, row in enumerate(reader, start=1):
        assert len(row) == len(headers), f"row {i}: {len(row)} columns, header has {len(headers)}"
        records.append(dict(zip(headers, [c.strip() for c in row])))
    return headers, records


def check_csv(text: str, form: str) -> list[dict[str, str]]:
    """Parse as NetBox does and check the columns, required values and choices of ``form``."""
    headers, records = read_netbox_csv(text)
    allowed = set(REFERENCE["import_fields"][form])
    assert set(headers) <= allowed, f"{form}: not import fields: {set(headers) - allowed}"
    required = REFERENCE["required"][form]
    assert set(required) <= set(headers), f"{form}: missing columns {set(required) - set(headers)}"
    for n, rec in enumerate(records, start=1):
        for col in required:
            assert rec[col], f"{form} record {n}: {col} is empty"
        for col, value in rec.items():
            assert value[:1] not in ("=", "+", "-", "@", "'"), f"{form} record {n}: {col}={value!r}"
            choice_set = CHOICE_COLUMNS.get((form, col))
            if choice_set and value:
                assert value in REFERENCE["choices"][choice_set], f"{form} record {n}: {col}={value!r}"
    return records


# -- YAML ------------------------------------------------------------------------------------------


def _scalar(text: str) -> Any:
    text = text.strip()
    if text in ("true", "false"):
        return text == "true"
    if text.startswith('"'):
        return json.loads(text)
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if re.fullmatch(r"-?\d+\.\d+", text):
        return Decimal(text)
    raise ValueError(f"not a scalar SANplan writes: {text!r}")


def read_yaml(text: str) -> dict[str, Any]:
    """One document of the subset described in the module docstring."""
    lines = text.split("\n")
    assert lines[0] == "---" and text.endswith("\n"), "starts with --- and ends with a new line"
    doc: dict[str, Any] = {}
    current: list[dict[str, Any]] | None = None
    for line in lines[1:]:
        if not line:
            continue
        if m := re.fullmatch(r"([a-z_-]+):(?: (.*))?", line):
            key, value = m.groups()
            assert key not in doc, f"duplicate key {key}"
            if value is None:
                current = doc[key] = []
            else:
                doc[key], current = _scalar(value), None
        elif m := re.fullmatch(r"  - ([a-z_-]+): (.*)", line):
            assert current is not None, line
            current.append({m.group(1): _scalar(m.group(2))})
        elif m := re.fullmatch(r"    ([a-z_-]+): (.*)", line):
            assert current, line
            assert m.group(1) not in current[-1], line
            current[-1][m.group(1)] = _scalar(m.group(2))
        else:
            raise ValueError(f"line not in the subset: {line!r}")
    return doc


# -- JSON schema -----------------------------------------------------------------------------------

_TYPES = {
    "object": dict,
    "array": list,
    "string": str,
    "boolean": bool,
    "number": (int, float, Decimal),
    "integer": int,
}
_INTERFACE_TYPE_REF = "urn:devicetype-library:generated-schema#/definitions/interface/properties/type"


def _resolve(ref: str) -> dict[str, Any]:
    if ref == "urn:devicetype-library:components#/definitions/interface":
        return SCHEMA["components_interface"]
    if ref == _INTERFACE_TYPE_REF:
        return {"type": "string", "enum": REFERENCE["choices"]["InterfaceTypeChoices"]}
    raise AssertionError(f"$ref not in the subset SANplan uses: {ref}")


def validate(value: Any, schema: dict[str, Any], path: str = "$") -> list[str]:
    """Errors of ``value`` against ``schema`` (empty: valid)."""
    if "$ref" in schema:
        return validate(value, _resolve(schema["$ref"]), path)
    errors: list[str] = []
    kind = schema.get("type")
    if kind:
        ok = isinstance(value, _TYPES[kind]) and not (kind in ("number", "integer") and isinstance(value, bool))
        if not ok:
            return [f"{path}: not {kind}: {value!r}"]
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {value!r} not in enum")
    if "const" in schema and value != schema["const"]:
        errors.append(f"{path}: {value!r} != {schema['const']!r}")
    if isinstance(value, str):
        if len(value) > schema.get("maxLength", len(value)):
            errors.append(f"{path}: longer than {schema['maxLength']}")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            errors.append(f"{path}: {value!r} does not match {schema['pattern']}")
    if kind == "number":
        if "minimum" in schema and value < schema["minimum"]:
            errors.append(f"{path}: below {schema['minimum']}")
        if "multipleOf" in schema and Decimal(str(value)) % Decimal(str(schema["multipleOf"])) != 0:
            errors.append(f"{path}: not a multiple of {schema['multipleOf']}")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            errors += validate(item, schema["items"], f"{path}[{i}]")
    if isinstance(value, dict):
        errors += _validate_object(value, schema, path)
    return errors


def _validate_object(value: dict[str, Any], schema: dict[str, Any], path: str) -> list[str]:
    errors = [f"{path}: missing {k}" for k in schema.get("required", ()) if k not in value]
    props = schema.get("properties", {})
    for key, item in value.items():
        if key in props:
            errors += validate(item, props[key], f"{path}.{key}")
        elif schema.get("additionalProperties") is False:
            errors.append(f"{path}: {key} is not allowed")
    for rule in schema.get("allOf", ()):
        if "if" in rule and not validate(value, rule["if"], path):
            errors += validate(value, rule["then"], path)
        elif "if" not in rule:
            errors += validate(value, rule, path)
    return errors


# -- devicetype-library's own checks (tests/device_types.py), for the rules it adds ----------------


def library_slug(text: str, model: bool = True) -> str:
    """The library's slugify of a model or part number (tests/device_types.py)."""
    s = text.casefold().replace(" ", "-").replace("-+", "-plus").replace("+", "-plus-").replace("_", "-")
    s = s.replace("&", "-and-").replace("!", "").replace("/", "-").replace(",", "").replace("'", "").replace("*", "-")
    if model:
        s = s.replace("sfp+", "sfpp")
    return s[:-1] if s.endswith("-") else s


def library_manufacturer_slug(text: str) -> str:
    s = text.casefold().replace(" ", "-").replace("sfp+", "sfpp").replace("poe+", "poep").replace("-+", "-plus-")
    s = s.replace("+", "-plus").replace("_", "-").replace("!", "").replace("/", "-").replace(",", "").replace("'", "")
    return s.replace("*", "-").replace("&", "and")


def library_problems(doc: dict[str, Any], file_name: str) -> list[str]:
    """The library's slug, file name, duplicate and empty-string checks for one device type."""
    problems = []
    slug, part = doc["slug"], doc.get("part_number", "")
    if not slug.startswith(library_manufacturer_slug(doc["manufacturer"])):
        problems.append(f"slug {slug} does not start with the manufacturer")
    if not (slug.endswith(library_slug(doc["model"])) or (part and slug.endswith(library_slug(part, False)))):
        problems.append(f"slug {slug} does not end with the model or part number")
    stem = file_name.rsplit(".", 1)[0].casefold()
    if stem not in (library_slug(doc["model"]), library_slug(part, False), part.casefold()):
        problems.append(f"file name {file_name} is neither the model nor the part number")
    names = [i["name"] for i in doc.get("interfaces", [])]
    if len(names) != len(set(names)):
        problems.append("duplicate interface names")
    strings = [v for v in doc.values() if isinstance(v, str)]
    strings += [v for i in doc.get("interfaces", []) for v in i.values() if isinstance(v, str)]
    if any(not s for s in strings):
        problems.append("empty string")
    return problems
