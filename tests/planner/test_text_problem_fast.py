"""``text_problem`` answers printable ASCII at once; every other text gets the same answer as the
character-by-character check (the loader calls it for every name and id of a site)."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from planner.values import _INVISIBLE, name_problem, text_problem


def _slow(value: str, max_len: int = 200) -> str | None:
    """The character-by-character check alone."""
    if len(value) > max_len:
        return text_problem(value, max_len)
    for c in value:
        if unicodedata.category(c) == "Cs" or c in _INVISIBLE or unicodedata.category(c) == "Cc":
            return text_problem(c, max_len)
    return None


def test_every_character_alone_and_inside_ascii_text():
    for code in [*range(0x3000), 0xD800, 0xDFFF, 0xFEFF, 0xFFFD, 0x1F600]:
        c = chr(code)
        for text in (c, f"fastt1 {c} A1"):
            assert text_problem(text) == _slow(text), hex(code)
    assert text_problem("fcs0 port 1: 10:00:00:00:c9:01:00:01") is None
    assert "U+0009" in name_problem("a\tb") and "U+007F" in name_problem("del\x7f")


@given(st.text(max_size=80))
def test_any_text_gets_the_same_answer(text):
    assert text_problem(text) == _slow(text)
