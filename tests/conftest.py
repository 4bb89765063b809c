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


@pytest.fixture(autouse=True)
def _qt_widgets_deleted_at_teardown(request):
    """Widgets a test gives ``qtbot.addWidget`` live until the test's teardown, then are deleted
    there, on the GUI thread, while Python still holds them.

    pytest-qt keeps only a weak reference: once the test returns, a view, its scene and its
    document (a reference cycle through their signal connections) are left to the cyclic
    collector, which may free them in the middle of pytest-qt's event processing after the
    test, with the view still shown and the scene's queued calls pending: PySide then calls
    into wrappers being freed (a segfault in ``_q_polishItems`` -> ``itemChange``, seen running
    tests/widgets alone). Deleting the C++ objects first invalidates their wrappers the
    normal way; the collector then frees only dead wrappers."""
    if "qtbot" not in request.fixturenames:
        yield
        return
    import shiboken6
    from PySide6.QtWidgets import QApplication

    qtbot = request.getfixturevalue("qtbot")
    held: list = []
    add = qtbot.addWidget

    def add_and_hold(widget, **kw):
        held.append(widget)
        add(widget, **kw)

    qtbot.addWidget = add_and_hold
    yield
    for widget in reversed(held):
        if shiboken6.isValid(widget):
            widget.close()
            shiboken6.delete(widget)
    held.clear()
    QApplication.processEvents()


@pytest.fixture(autouse=True)
def _undo_stacks_emptied_at_teardown(request, monkeypatch):
    """The undo stacks of the documents a test made are emptied at its teardown, while Python
    still holds them.

    A document with no parent widget is left to the cyclic collector, which frees it at some
    later point, in another test: ~QUndoStack then deleted commands (Python subclasses) whose
    wrappers the same collection had already freed, a segfault in ``QUndoStack::clear`` (seen
    as a crash in a later, unrelated test, one run in three once another window test came
    before it, with the code of before as with after). Emptied here, the stack deletes its
    commands while their wrappers are alive, the normal way. Their background lanes are stopped
    too: an idle lane fills the analyses of the other figure sets (``app.background``), and one
    left from an earlier test did so inside ``test_gui_gc``, its heap freeze resetting the
    collector's counts that test follows."""
    if "qapp" not in request.fixturenames:
        yield
        return
    import weakref

    import shiboken6

    from app.document import Document

    made: list = []
    real_init = Document.__init__

    def init(self, *args, **kw):
        real_init(self, *args, **kw)
        made.append(weakref.ref(self))

    monkeypatch.setattr(Document, "__init__", init)
    yield
    for ref in made:
        doc = ref()
        if doc is not None and shiboken6.isValid(doc):
            doc.undo_stack.clear()
            bg = getattr(doc, "_background", None)
            if bg is not None and shiboken6.isValid(bg):
                bg.shutdown()  # (its lanes stop: an idle one fills the other figure sets in a later test)


@pytest.fixture(autouse=True)
def _no_gesture_left_over():
    """No test starts within a gesture of the test before (a zoom marks the next 150 ms as the
    user's: the canvas's slices then take 2 ms a turn and the lanes wait; see widgets.giveway)."""
    from widgets import giveway

    giveway.reset()
    yield
    giveway.reset()
