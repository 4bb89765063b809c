"""Counts read as English: one thing, two things; kinds take their own plural."""

from planner.naming import counted


def test_counted():
    assert counted(1, "path") == "1 path"
    assert counted(0, "path") == "0 paths"
    assert counted(7, "switch") == "7 switches"
    assert counted(2, "free slot") == "2 free slots"
    assert counted(3, "logical drive") == "3 logical drives"
    assert counted(2, "PHB") == "2 PHBs"
    assert counted(1, "new switch") == "1 new switch"
