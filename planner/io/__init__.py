"""Reading and writing designs, Qt-free.

- :mod:`planner.io.document` — the JSON interchange document (``topology_to_dict``, ``import_json``...)
- :mod:`planner.io.sanfile` — the ``.sanplan`` SQLite file: open, save, revisions, migrations
- :mod:`planner.io.project` — :class:`Project` (scenarios) and the scenario commands
- :mod:`planner.io.parts` — :func:`part_problem`, the one check of a part record
- :mod:`planner.io.atomic` — atomic file replacement shared by saves and exports
- :mod:`planner.io.errors` — :class:`ProjectError`, one line naming the file, the problem, the fix

This package re-exports the public names; patch constants (``SCHEMA_VERSION``, ``MAX_REVISIONS``)
in the module that defines them.
"""

from planner.io.atomic import TempFileError, atomic_replace
from planner.io.document import (
    FORMAT,
    JSON_MIGRATIONS,
    SCHEMA_VERSION,
    export_json,
    import_json,
    project_from_dict,
    project_to_dict,
    topology_from_dict,
    topology_to_dict,
)
from planner.io.errors import ProjectError
from planner.io.parts import part_problem
from planner.io.project import (
    DEFAULT_SCENARIO,
    AddScenario,
    DeleteScenario,
    Project,
    RenameScenario,
    ScenarioCommand,
    SwitchScenario,
    scenario_name_problem,
)
from planner.io.sanfile import (
    APPLICATION_ID,
    FILE_VERSION,
    MAX_REVISIONS,
    MIGRATIONS,
    list_revisions,
    open_project,
    restore_revision,
    save_project,
)

__all__ = [
    "APPLICATION_ID",
    "DEFAULT_SCENARIO",
    "FILE_VERSION",
    "FORMAT",
    "JSON_MIGRATIONS",
    "MAX_REVISIONS",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "AddScenario",
    "DeleteScenario",
    "Project",
    "ProjectError",
    "RenameScenario",
    "ScenarioCommand",
    "SwitchScenario",
    "TempFileError",
    "atomic_replace",
    "export_json",
    "import_json",
    "list_revisions",
    "open_project",
    "part_problem",
    "project_from_dict",
    "project_to_dict",
    "restore_revision",
    "save_project",
    "scenario_name_problem",
    "topology_from_dict",
    "topology_to_dict",
]
