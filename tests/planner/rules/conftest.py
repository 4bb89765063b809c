"""Fixtures of the rule tests: the one-drawer example (fresh for each test) and the benchmark."""

from __future__ import annotations

import pytest

from planner.examples import build_example


@pytest.fixture
def one(parts):
    """The P690 one-drawer example, built fresh for each test (tests edit it)."""
    return build_example("p690-one-drawer", parts)


@pytest.fixture
def benchmark(_benchmark):
    """The paper's 7-drawer configuration, shared: tests that edit it work on a clone."""
    return _benchmark
