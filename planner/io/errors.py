"""What goes wrong with a design file, said in one line: :class:`ProjectError`, and the checks every
reader shares (the path as printed, the first bytes of a file)."""

from __future__ import annotations

import os

SQLITE_MAGIC = b"SQLite format 3\x00"

FIX_JSON = "fix the JSON (the format is described in docs/file-format.md)"
FIX_DAMAGED = "open a backup or an earlier copy of the file"
FIX_NOT_OURS = "choose a .sanplan design or a SANplan JSON export"
FIX_NEWER = "upgrade SANplan to open it"
FIX_TAKEN = "choose another name (the file was left as it is)"


MAX_MESSAGE = 400  # characters of a problem text; a refusal never echoes a whole value


def short(text: str, limit: int = 120) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis (quoted values in messages)."""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


class ProjectError(ValueError):
    """A design file or document SANplan cannot use, as one line: the file, the problem, the fix.

    ``ProjectError("a.sanplan", "is empty (0 bytes)", "open a backup")`` reads
    ``a.sanplan: is empty (0 bytes); open a backup``; a single argument is used as the message.
    """

    def __init__(self, where: str, problem: str = "", fix: str = "") -> None:
        self.where, self.problem, self.fix = short(str(where), 300), short(problem, MAX_MESSAGE), short(fix, 300)
        text = ": ".join(p for p in (self.where, self.problem) if p)
        if self.fix:
            text += f"; {self.fix}"
        super().__init__(" ".join(text.split("\n")))


class Invalid(Exception):
    """A problem inside a document; the caller names the file and the fix (cut to MAX_MESSAGE)."""

    def __init__(self, message: object = "") -> None:
        super().__init__(short(str(message), MAX_MESSAGE))


class Newer(Invalid):
    """The document or file was written by a newer SANplan."""


def show(path: str | os.PathLike[str]) -> str:
    """The path as given, safe to print on one line."""
    text = os.fsdecode(path)
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def read_head(path: str | os.PathLike[str], where: str) -> bytes:
    """The first 16 bytes of a file that exists and can be read.

    Raises ProjectError naming ``where`` for a missing, unreadable, empty or truncated file.
    """
    try:
        with open(path, "rb") as f:
            head = f.read(len(SQLITE_MAGIC))
    except FileNotFoundError:
        raise ProjectError(where, "no such file", "check the name and the folder") from None
    except IsADirectoryError:
        raise ProjectError(where, "is a folder, not a design file", FIX_NOT_OURS) from None
    except PermissionError:
        raise ProjectError(where, "cannot be read (permission denied)", "check the file's permissions") from None
    except OSError as err:
        raise ProjectError(where, f"cannot be read ({err.strerror or err})", "check the file and the disk") from None
    if not head:
        raise ProjectError(where, "is empty (0 bytes), not a SANplan design", FIX_DAMAGED)
    if head != SQLITE_MAGIC and len(head) < len(SQLITE_MAGIC) and SQLITE_MAGIC.startswith(head):
        raise ProjectError(where, f"is truncated (only {len(head)} bytes)", FIX_DAMAGED)
    return head
