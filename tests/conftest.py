"""Shared fixtures: the built-in parts and the bundled examples (built once per session)."""

from __future__ import annotations

import pytest

from catalogs.catalog import builtin_parts
from planner.examples import build_example


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
