"""Widget tests run headless: the offscreen platform is chosen before Qt is imported."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from planner.examples import build_example  # noqa: E402
from planner.io import Project  # noqa: E402


@pytest.fixture
def make_doc(qtbot, parts):
    """A Document showing a bundled example, analysed synchronously (in the GUI thread)."""
    from app.document import Document

    def make(example: str = "p690-one-drawer"):
        doc = Document(parts)
        doc.synchronous = True
        doc.replace_project(Project(build_example(example, parts)), None)
        assert doc.analysis is not None
        return doc

    return make


@pytest.fixture
def doc(make_doc):
    return make_doc("p690-one-drawer")
