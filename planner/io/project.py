"""A project: one design file's named scenarios of a design, one of them current, and the scenario
operations as undoable commands (:class:`AddScenario`, :class:`RenameScenario`,
:class:`DeleteScenario`, :class:`SwitchScenario`).

The commands follow :mod:`planner.commands` (``do``/``undo``, a ``text``), but act on a
:class:`Project`, not on one design: ``cmd.do(project)``, ``cmd.undo(project)``. Undo restores the
exact state: the same designs (the same objects), in the same order, with the same one current.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from planner.commands import Command
from planner.io.errors import ProjectError
from planner.model import Topology

DEFAULT_SCENARIO = "Base"
MAX_NAME_LENGTH = 64


def scenario_name_problem(name: Any, taken: Iterable[str] = ()) -> str | None:
    """Why ``name`` cannot name a scenario beside the names ``taken``, or None."""
    if not isinstance(name, str):
        return "is not text"
    if not name.strip():
        return f"is empty; give the scenario a name of 1 to {MAX_NAME_LENGTH} characters"
    if len(name) > MAX_NAME_LENGTH:
        return f"is longer than {MAX_NAME_LENGTH} characters"
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
    it is given none (set by :func:`planner.io.sanfile.restore_revision`).
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
        #: the newest revision of ``path`` when it was opened or last saved: a save refuses to
        #: overwrite a file someone else saved since (planner.io.sanfile.ChangedOnDisk)
        self.base_revision: int | None = None

    @classmethod
    def single(cls, topology: Topology, scenario: str = DEFAULT_SCENARIO) -> Project:
        """A project holding one design as its only scenario."""
        return cls(topology, scenario)

    @classmethod
    def from_scenarios(cls, scenarios: dict[str, Topology], current: str) -> Project:
        """A project of ``scenarios`` (in order) with ``current`` current; the names are not checked."""
        project = cls()
        project.scenarios = dict(scenarios)
        project.current = current
        return project

    @property
    def topology(self) -> Topology:
        """The current scenario's design."""
        return self.scenarios[self.current]

    def _check_name(self, name: Any, taken: Iterable[str]) -> None:
        problem = scenario_name_problem(name, taken)
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

    def _put_scenario(self, name: str, topo: Topology, index: int) -> None:
        """Insert ``topo`` as scenario ``name`` at position ``index`` (an undo puts a deleted one back)."""
        items = list(self.scenarios.items())
        items.insert(index, (name, topo))
        self.scenarios = dict(items)


def as_project(obj: Project | Topology) -> Project:
    """``obj`` as a project: a design becomes the only scenario. Raises TypeError for anything else."""
    if isinstance(obj, Project):
        return obj
    if isinstance(obj, Topology):
        return Project.single(obj)
    raise TypeError(f"expected a Project or a Topology, not {type(obj).__name__}")


# -- scenario operations as commands -------------------------------------------------------------


class ScenarioCommand(Command):
    """A command on a :class:`Project`'s scenarios: ``do(project)`` and ``undo(project)``."""

    def do(self, project: Project) -> None:  # type: ignore[override]
        raise NotImplementedError

    def undo(self, project: Project) -> None:  # type: ignore[override]
        raise NotImplementedError


class AddScenario(ScenarioCommand):
    """Add scenario ``name`` as a copy of ``from_name`` (default: the current one).

    With ``make_current`` the new scenario becomes current. The copy is made once, on the first
    ``do``; a redo puts the same design back. Raises ProjectError for a bad or taken name.
    """

    def __init__(self, name: str, from_name: str | None = None, make_current: bool = False) -> None:
        self.name, self.from_name, self.make_current = name, from_name, make_current
        self.topology: Topology | None = None
        self.old_current: str | None = None
        self.text = f"Add scenario {name}"

    def do(self, project: Project) -> None:
        self.old_current = project.current
        if self.topology is None:
            self.topology = project.add_scenario(self.name, self.from_name)
        else:
            project._check_name(self.name, project.scenarios)
            project._put_scenario(self.name, self.topology, len(project.scenarios))
        if self.make_current:
            project.switch(self.name)

    def undo(self, project: Project) -> None:
        del project.scenarios[self.name]
        assert self.old_current is not None
        project.current = self.old_current


class RenameScenario(ScenarioCommand):
    """Rename scenario ``old`` to ``new`` in place. Raises ProjectError for a bad or taken name."""

    def __init__(self, old: str, new: str) -> None:
        self.old, self.new = old, new
        self.text = f"Rename scenario {old} to {new}"

    def do(self, project: Project) -> None:
        project.rename_scenario(self.old, self.new)

    def undo(self, project: Project) -> None:
        project.rename_scenario(self.new, self.old)


class DeleteScenario(ScenarioCommand):
    """Delete scenario ``name`` (not the last one); undo puts the same design back at its place.

    Deleting the current scenario makes its neighbour current (see :meth:`Project.delete_scenario`).
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.topology: Topology | None = None
        self.index = 0
        self.old_current: str | None = None
        self.text = f"Delete scenario {name}"

    def do(self, project: Project) -> None:
        self.topology = project._existing(self.name)
        self.index = list(project.scenarios).index(self.name)
        self.old_current = project.current
        project.delete_scenario(self.name)

    def undo(self, project: Project) -> None:
        assert self.topology is not None and self.old_current is not None
        project._put_scenario(self.name, self.topology, self.index)
        project.current = self.old_current


class SwitchScenario(ScenarioCommand):
    """Make scenario ``name`` current; undo makes the previous one current again."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.old_current: str | None = None
        self.text = f"Switch to scenario {name}"

    def do(self, project: Project) -> None:
        old = project.current
        project.switch(self.name)
        self.old_current = old

    def undo(self, project: Project) -> None:
        assert self.old_current is not None
        project.current = self.old_current
