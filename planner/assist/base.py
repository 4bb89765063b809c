"""What every assistant returns: :class:`Assisted`, one undo step with the lines saying what it did.

An assistant is a plain function ``(topo, ...) -> Assisted``. It applies its edits at once (the
:mod:`planner.edit` operations it calls are recorded as steps of one macro), so the result can be
pushed on an undo stack with ``applied=True`` or run by the editor's ``Document.run``. When it
cannot do what is asked it raises :class:`~planner.model.ModelError` with the reason and leaves
the design unchanged; :class:`NothingToDo` says the design already has what it would add.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from planner import naming
from planner.commands import Builder, Command
from planner.model import Component, ModelError, Topology


class NothingToDo(ModelError):
    """The assistant has nothing to add to this design (``complete`` skips it)."""


class Assisted(Builder):
    """The applied edits of one assistant (one undo step) and ``lines``: one sentence per step."""

    def __init__(self, topo: Topology, text: str) -> None:
        super().__init__(topo, text)
        self.lines: list[str] = []

    def add(self, cmd: Command, *lines: str) -> Command:  # type: ignore[override]
        """Record an already applied command (an edit operation's Builder) and what it did."""
        self.commands.append(cmd)
        self.lines.extend(lines)
        if isinstance(cmd, Assisted):
            self.lines.extend(cmd.lines)
        return cmd

    def say(self, *lines: str) -> None:
        self.lines.extend(lines)


@contextmanager
def assisting(topo: Topology, text: str) -> Iterator[Assisted]:
    """An :class:`Assisted` being built; on any error what was applied is undone."""
    a = Assisted(topo, text)
    try:
        yield a
    except Exception:
        a.abort()
        raise


def name_of(topo: Topology, comp: Component | str) -> str:
    """The label a line names a component by."""
    return naming.label(topo, comp)


def token(text: str) -> str:
    """``text`` as an upper-case name token for zone names and cable labels ([A-Z0-9_])."""
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_").upper() or "X"


def expect(topo: Topology, cid: str, kind: str) -> Component:
    """The component ``cid`` of ``kind``; ModelError naming what is wrong otherwise."""
    comp = topo.get(cid)
    if comp is None or comp.kind != kind:
        raise ModelError(f"there is no {kind.replace('_', ' ')} {cid!r} in this design")
    return comp


def require(items: object, reason: str) -> None:
    """Raise :class:`NothingToDo` with ``reason`` when ``items`` is empty."""
    if not items:
        raise NothingToDo(reason)
