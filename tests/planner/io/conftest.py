"""Fixtures of the planner.io tests: a saved design, and valid files to mutate."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.examples import build_example
from planner.io import Project, export_json, save_project


@pytest.fixture
def saved(one_drawer, tmp_path) -> Path:
    path = tmp_path / "design.sanplan"
    save_project(Project.single(one_drawer), path, message="first")
    return path


@pytest.fixture(scope="module")
def valid_files(tmp_path_factory) -> dict[str, bytes]:
    """Bytes of a valid .sanplan and a valid JSON export (two scenarios), for mutation fuzzing."""
    from catalogs.catalog import builtin_parts

    folder = tmp_path_factory.mktemp("valid")
    proj = Project.single(build_example("p690-one-drawer", builtin_parts()))
    proj.add_scenario("Upgrade")
    save_project(proj, folder / "v.sanplan", message="for fuzzing")
    export_json(proj, folder / "v.json")
    return {"sanplan": (folder / "v.sanplan").read_bytes(), "json": (folder / "v.json").read_bytes()}


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz")
