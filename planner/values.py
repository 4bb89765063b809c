"""Attribute values: the validators, vocabularies and text checks the schema's attributes use.

Each validator takes a value and returns it normalised or raises :class:`ModelError` with a reason
a storage admin understands. :mod:`planner.schema` re-exports every name here. No Qt.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any


class ModelError(ValueError):
    """An edit the model refuses: the message names the thing and the fix. A message never echoes
    more than :data:`MAX_MESSAGE` characters (a value quoted in it is cut)."""

    def __init__(self, message: object = "") -> None:
        text = str(message)
        super().__init__(text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "\u2026")


MAX_MESSAGE = 400


# ---------------------------------------------------------------------------------------------
# Attribute validators. Each takes the value and returns the normalised value or raises
# ModelError with a reason a storage admin understands.

_WWPN_RE = re.compile(r"^[0-9a-f]{2}(:[0-9a-f]{2}){7}$")


def normalize_wwpn(value: Any) -> str:
    """Return a WWPN in ``xx:xx:xx:xx:xx:xx:xx:xx`` lowercase form, or raise ModelError.

    Accepts colon-separated or bare 16-digit hex. Rejects the 16-byte NAA 6 form and the
    all-zero name (T11 FC-FS, Name_Identifier formats).
    """
    if not isinstance(value, str):
        raise ModelError(f"WWPN must be text like 10:00:00:00:c9:aa:bb:01, not {value!r}")
    text = value.strip().lower().replace("-", ":")
    bare = text.replace(":", "")
    if len(bare) == 16 and re.fullmatch(r"[0-9a-f]{16}", bare):
        text = ":".join(bare[i : i + 2] for i in range(0, 16, 2))
    if not _WWPN_RE.match(text):
        raise ModelError(f"WWPN {value!r} is not 8 bytes of hex; write it as xx:xx:xx:xx:xx:xx:xx:xx")
    problem = wwpn_problem(text)
    if problem:
        raise ModelError(problem)
    return text


def wwpn_problem(text: str) -> str | None:
    """Return why a well-formed WWPN is not a valid port name, or None when it is."""
    if not _WWPN_RE.match(text or ""):
        return f"WWPN {text!r} is not 8 bytes of hex (xx:xx:xx:xx:xx:xx:xx:xx)"
    if text.replace(":", "") == "0" * 16:
        return f"WWPN {text} is all zeros; use the port's real name"
    naa = text[0]
    if naa not in "125cdef":
        return f"WWPN {text} has NAA type {naa}; a port WWPN starts with 1, 2, 5 or c-f (6 is the 16-byte form)"
    return None


def _choice(*options: Any) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if value not in options:
            listed = ", ".join(str(o) for o in options)
            raise ModelError(f"{value!r} is not one of {listed}")
        return value

    check.options = options  # type: ignore[attr-defined]
    return check


def _number(lo: float | None = None, hi: float | None = None, integer: bool = False):
    def check(value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            try:
                value = float(value) if not integer else int(str(value), 10)
            except (TypeError, ValueError):
                raise ModelError(f"{value!r} is not a number") from None
        if integer and (isinstance(value, float) and not value.is_integer()):
            raise ModelError(f"{value!r} is not a whole number")
        if integer:
            value = int(value)
        if value != value:  # NaN
            raise ModelError("NaN is not a number")
        if lo is not None and value < lo:
            raise ModelError(f"{value} is below the minimum {lo}")
        if hi is not None and value > hi:
            raise ModelError(f"{value} is above the maximum {hi}")
        return value

    check.bounds = (lo, hi, integer)  # type: ignore[attr-defined]  # the inspector's tooltips show them
    return check


def _text(max_len: int = 200):
    def check(value: Any) -> Any:
        problem = text_problem(value, max_len)
        if problem:
            raise ModelError(problem)
        return value

    check.max_len = max_len  # type: ignore[attr-defined]
    return check


def _bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if value in ("true", "yes", "1", 1):
        return True
    if value in ("false", "no", "0", 0):
        return False
    raise ModelError(f"{value!r} is not yes/no")


def _power_of_two(lo: int, hi: int):
    base = _number(lo, hi, integer=True)

    def check(value: Any) -> int:
        value = base(value)
        if value & (value - 1):
            raise ModelError(f"{value} is not a power of two")
        return value

    check.bounds = (lo, hi, True)  # type: ignore[attr-defined]
    check.hint = "a power of two"  # type: ignore[attr-defined]
    return check


def _wwpn_or_empty(value: Any) -> str:
    if value in ("", None):
        return ""
    return normalize_wwpn(value)


_wwpn_or_empty.hint = "16 hex digits (10:00:00:00:c9:12:34:56) or empty"  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Attr:
    """Schema of one attribute: validator, default, and for references the kinds referred to."""

    check: Callable[[Any], Any]
    default: Any = None
    ref: tuple[str, ...] = ()  # kinds this attribute refers to (a component id)
    many: bool = False  # a list of references
    doc: str = ""
    label: str = ""  # how forms and tables name it ("Segment size (KB)"); default from the key


def _ref(*kinds: str, doc: str = "", label: str = "") -> Attr:
    return Attr(check=_ref_shape, default="", ref=kinds, doc=doc, label=label)


def _refs(*kinds: str, doc: str = "", label: str = "") -> Attr:
    return Attr(check=_refs_shape, default=(), ref=kinds, many=True, doc=doc, label=label)


def _ref_shape(value: Any) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ModelError(f"{value!r} is not a component id")
    return value


def _refs_shape(value: Any) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise ModelError(f"{value!r} is not a list of component ids")
    out = tuple(value)
    if not all(isinstance(v, str) for v in out):
        raise ModelError("a list of component ids holds something else")
    if len(set(out)) != len(out):
        raise ModelError("a component is listed twice")
    return out


MULTIPATH_DRIVERS = ("RDAC", "SDD", "SDDPCM", "MPIO")
RAID_LEVELS = (0, 1, 3, 5, 10)
VG_TYPES = ("normal", "big", "scalable")
LTG_SIZES_KB = (128, 256, 512, 1024, 2048, 4096, 8192, 16384)
STRIPE_SIZES_KB = tuple(2**i for i in range(2, 18))  # 4 KB .. 128 MB
WORKLOAD_PURPOSES = ("data", "WORK", "UTILLOC")
AIX_LEVELS = ("5.1", "5.2", "5.3", "6.1", "7.1")
FC_SPEEDS_GBPS = (1, 2, 4, 8)
CABLE_MEDIA = ("LC-LC OM2", "LC-LC OM3", "LC-SC OM2", "SC-SC OM2", "copper")
MAX_NAME = 64  # characters in a component name (canvas, findings, zoning aliases stay readable)

# Characters that reorder or hide text when shown (bidi overrides and isolates, line and
# paragraph separators): refused in names and text like the C0/C1 control characters.
_INVISIBLE = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2028\u2029\ufeff")


def text_problem(value: Any, max_len: int = 200) -> str | None:
    """Why ``value`` is not acceptable free text (a name, a location, a label), or None."""
    if not isinstance(value, str):
        return f"{value!r} is not text"
    if len(value) > max_len:
        return f"text may have at most {max_len} characters, this one has {len(value)}"
    if value.isascii() and value.isprintable():  # the common case: no control or hidden character
        return None
    for c in value:
        if unicodedata.category(c) == "Cs":
            return f"text contains a lone surrogate (U+{ord(c):04X}), which is not a character; retype it"
        if c in _INVISIBLE or unicodedata.category(c) == "Cc":
            return (
                f"text contains control characters (U+{ord(c):04X}): new lines, tabs, escapes and "
                "direction overrides are not allowed; type it on one line without them"
            )
    return None


def name_problem(value: Any) -> str | None:
    """Why ``value`` cannot be a component name, or None (at most :data:`MAX_NAME` characters,
    no control characters). Used by the model, the loader and the editor."""
    if not isinstance(value, str):
        return "a name must be text"
    if len(value) > MAX_NAME:
        return f"a name may have at most {MAX_NAME} characters, this one has {len(value)}"
    problem = text_problem(value, MAX_NAME)
    return problem.replace("text contains", "a name cannot contain", 1) if problem else None
