"""Nothing a file, a path or a catalog holds can drive the terminal through the command line."""

from __future__ import annotations

from app.cli import main
from app.terminal import SafeText, escape_controls


def test_escape_controls_makes_every_unsafe_character_visible():
    assert escape_controls("ok\ttab\nline") == "ok\ttab\nline"
    assert escape_controls("\x1b]0;owned\x07") == "\\x1b]0;owned\\x07"
    assert escape_controls("evil\u202etxt\x9b") == "evil\\u202etxt\\x9b"
    assert escape_controls("lone\ud800") == "lone\\ud800"


def test_safe_text_escapes_what_is_written(capsys):
    import sys

    SafeText(sys.stdout).write("\x1b[2Jcleared?\n")
    assert capsys.readouterr().out == "\\x1b[2Jcleared?\n"


def test_an_escape_sequence_in_a_file_name_is_printed_escaped(tmp_path, capsys):
    evil = tmp_path / "\x1b]0;pwned\x07.sanplan"
    evil.write_text("not a design")
    assert main(["analyze", str(evil)]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err and "pwned" in err
