"""Commands: every change to a :class:`~planner.model.Topology` is a command with do and undo.

Primitive commands (add one component, remove one, set one attribute, put a part's figures into
the design, set a metadata field) are composed into :class:`Macro` commands, so one user gesture
(add a drawer with its planars, links, PHBs and slots) is one undo step. The editor wraps each
command in one ``QUndoCommand``; the CLI and tests use :class:`UndoStack`.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from planner.model import KINDS, Component, Event, ModelError, Topology, check_attr
from planner.schema import name_problem, text_problem


class Command:
    """Base class: ``do`` applies the change, ``undo`` reverts it exactly."""

    text = "edit"

    def do(self, topo: Topology) -> None:
        raise NotImplementedError

    def undo(self, topo: Topology) -> None:
        raise NotImplementedError


class AddComponent(Command):
    def __init__(self, comp: Component, index: int | None = None) -> None:
        self.comp = comp
        self.index = index
        self.text = f"Add {comp.kind} {comp.label()}"

    def do(self, topo: Topology) -> None:
        if self.comp.parent is not None and self.comp.parent not in topo:
            raise ModelError(f"cannot add {self.comp.id}: {self.comp.parent} does not exist")
        topo._add(self.comp.copy(), self.index)

    def undo(self, topo: Topology) -> None:
        topo._remove(self.comp.id)


class RemoveComponent(Command):
    """Remove one childless component; undo puts it back at the same place."""

    def __init__(self, cid: str) -> None:
        self.cid = cid
        self.saved: Component | None = None
        self.index: int | None = None
        self.seq: int | None = None
        self.position: tuple[float, float] | None = None
        self.text = f"Delete {cid}"

    def do(self, topo: Topology) -> None:
        self.saved = topo[self.cid].copy()
        self.seq = topo.seq_of(self.cid)
        self.position = topo.positions.get(self.cid)
        self.index = topo._remove(self.cid)  # drops its position too

    def undo(self, topo: Topology) -> None:
        assert self.saved is not None
        topo._add(self.saved.copy(), self.index, self.seq)
        if self.position is not None:
            topo.positions[self.cid] = self.position


class SetAttr(Command):
    """Set one attribute (or ``name``) of a component; the value is validated by the schema."""

    def __init__(self, cid: str, key: str, value: Any) -> None:
        self.cid = cid
        self.key = key
        self.value = value
        self.old: Any = None
        self.text = f"Set {key} of {cid}"

    def do(self, topo: Topology) -> None:
        comp = topo[self.cid]
        if self.key == "name":
            problem = name_problem(self.value)
            if problem:
                raise ModelError(f"name of {self.cid}: {problem}")
            value = self.value
        elif self.key == "part":
            if self.value is not None and self.value not in topo.parts:
                raise ModelError(f"part {self.value!r} is not in this design")
            value = self.value
        else:
            value = check_attr(comp.kind, self.key, self.value)
        self.old = topo._set(self.cid, self.key, value)

    def undo(self, topo: Topology) -> None:
        topo._set(self.cid, self.key, self.old)


class PutPart(Command):
    """Put a part's figures into the design (so it analyses identically elsewhere)."""

    def __init__(self, part: dict[str, Any]) -> None:
        self.part = copy.deepcopy(part)
        self.old: dict[str, Any] | None = None
        self.text = f"Use part {part.get('id')}"

    def do(self, topo: Topology) -> None:
        pid = self.part["id"]
        self.old = topo.parts.get(pid)
        topo.parts[pid] = copy.deepcopy(self.part)
        topo._emit(Event("parts", pid))

    def undo(self, topo: Topology) -> None:
        pid = self.part["id"]
        if self.old is None:
            del topo.parts[pid]
        else:
            topo.parts[pid] = self.old
        topo._emit(Event("parts", pid))


META_FIELDS = ("name", "customer", "author", "status")
DESIGN_STATUSES = ("draft", "for review", "approved")  # the build sheet's document status


class SetMeta(Command):
    def __init__(self, key: str, value: str) -> None:
        if key not in META_FIELDS:
            raise ModelError(f"design metadata has no field {key!r}")
        if key == "status" and value not in DESIGN_STATUSES:
            raise ModelError(f"design status must be {', '.join(DESIGN_STATUSES)}, not {value!r}")
        problem = text_problem(value, 200)
        if problem:
            raise ModelError(f"design {key}: {problem}")
        self.key, self.value, self.old = key, value, None
        self.text = f"Set design {key}"

    def do(self, topo: Topology) -> None:
        self.old = topo.meta.get(self.key, "")
        topo.meta[self.key] = self.value
        topo._emit(Event("meta", key=self.key))

    def undo(self, topo: Topology) -> None:
        topo.meta[self.key] = self.old
        topo._emit(Event("meta", key=self.key))


class SetPositions(Command):
    """Place diagram boxes (one drag of several boxes is one command); None clears a position."""

    def __init__(self, positions: dict[str, tuple[float, float] | None]) -> None:
        self.positions = dict(positions)
        self.old: dict[str, tuple[float, float] | None] = {}
        self.text = "Move " + (
            next(iter(self.positions)) if len(self.positions) == 1 else f"{len(self.positions)} boxes"
        )

    def do(self, topo: Topology) -> None:
        for cid in self.positions:
            topo[cid]
        self.old = {cid: topo.positions.get(cid) for cid in self.positions}
        self._apply(topo, self.positions)

    def undo(self, topo: Topology) -> None:
        self._apply(topo, self.old)

    @staticmethod
    def _apply(topo: Topology, positions: dict[str, tuple[float, float] | None]) -> None:
        for cid, xy in positions.items():
            if xy is None:
                topo.positions.pop(cid, None)
            else:
                topo.positions[cid] = (float(xy[0]), float(xy[1]))
        topo._emit(Event("layout", key=",".join(positions)))


class Macro(Command):
    """Several commands as one step. If one fails, those already done are undone."""

    def __init__(self, text: str, commands: list[Command] | None = None) -> None:
        self.text = text
        self.commands: list[Command] = list(commands or [])

    def add(self, cmd: Command) -> Command:
        self.commands.append(cmd)
        return cmd

    def do(self, topo: Topology) -> None:
        done: list[Command] = []
        try:
            for cmd in self.commands:
                cmd.do(topo)
                done.append(cmd)
        except Exception:
            for cmd in reversed(done):
                cmd.undo(topo)
            raise

    def undo(self, topo: Topology) -> None:
        for cmd in reversed(self.commands):
            cmd.undo(topo)


class Builder(Macro):
    """A macro that is applied while it is built, so later steps can read earlier results.

    Used by the editing operations in :mod:`planner.edit`: each ``run`` applies a command at
    once; if building fails, :meth:`abort` undoes what was applied. After building, the
    Builder is an ordinary macro whose ``do``/``undo`` replay the steps.
    """

    def __init__(self, topo: Topology, text: str) -> None:
        super().__init__(text)
        self.topo = topo

    def run(self, cmd: Command) -> Command:
        cmd.do(self.topo)
        self.commands.append(cmd)
        return cmd

    def abort(self) -> None:
        for cmd in reversed(self.commands):
            cmd.undo(self.topo)
        self.commands.clear()


class UndoStack:
    """A plain undo stack for the headless planner (the GUI uses QUndoStack with an adapter)."""

    def __init__(self, topo: Topology) -> None:
        self.topo = topo
        self._done: list[Command] = []
        self._undone: list[Command] = []
        self.clean_index = 0
        self.listeners: list[Callable[[], None]] = []

    def push(self, cmd: Command, applied: bool = False) -> None:
        """Apply ``cmd`` (unless ``applied``) and record it."""
        if not applied:
            cmd.do(self.topo)
        self._done.append(cmd)
        self._undone.clear()
        if self.clean_index > len(self._done):
            self.clean_index = -1
        self._changed()

    def undo(self) -> bool:
        if not self._done:
            return False
        cmd = self._done.pop()
        cmd.undo(self.topo)
        self._undone.append(cmd)
        self._changed()
        return True

    def redo(self) -> bool:
        if not self._undone:
            return False
        cmd = self._undone.pop()
        cmd.do(self.topo)
        self._done.append(cmd)
        self._changed()
        return True

    def set_clean(self) -> None:
        self.clean_index = len(self._done)

    def is_clean(self) -> bool:
        return self.clean_index == len(self._done)

    @property
    def texts(self) -> list[str]:
        return [c.text for c in self._done]

    def _changed(self) -> None:
        for cb in self.listeners:
            cb()


class Reparent(Command):
    """Move a component under another parent (an HBA to another slot, a drive to another bay)."""

    def __init__(self, cid: str, new_parent: str) -> None:
        self.cid, self.new_parent = cid, new_parent
        self.old_parent: str | None = None
        self.text = f"Move {cid} to {new_parent}"

    def do(self, topo: Topology) -> None:
        comp = topo[self.cid]
        target = topo[self.new_parent]
        if target.kind not in KINDS[comp.kind].parents:
            raise ModelError(f"a {comp.kind} cannot go into a {target.kind}")
        self.old_parent = comp.parent
        self.old_index = topo._reparent(self.cid, self.new_parent)

    def undo(self, topo: Topology) -> None:
        topo._reparent(self.cid, self.old_parent, self.old_index)
