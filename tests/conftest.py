"""Shared fixtures: the built-in parts and the bundled examples (built once per session)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # GUI tests run headless

import pytest  # noqa: E402

from catalogs.catalog import builtin_parts  # noqa: E402
from planner.examples import build_example  # noqa: E402


@pytest.fixture(scope="session")
def parts():
    return builtin_parts()


@pytest.fixture(scope="session")
def _benchmark(parts):
    return build_example("p690-benchmark", parts)


@pytest.fixture
def benchmark_design(_benchmark):
    """The paper's 7-drawer configuration (a fresh copy for each test)."""
    return _benchmark.clone()


@pytest.fixture
def one_drawer(parts):
    return build_example("p690-one-drawer", parts)


@pytest.fixture
def worst_cabling(parts):
    return build_example("p690-worst-cabling", parts)
