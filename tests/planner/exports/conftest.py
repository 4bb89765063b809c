"""Shared by the export tests: a design whose user text tries markup, quoting and shell injection."""

from __future__ import annotations

import pytest

from planner.fixtures import set_raw

NASTY = "<b>&amp;\"q';$(reboot)\n`id`|x"  # markup, quotes, ; and shell expansions, a new line


@pytest.fixture
def nasty_text():
    return NASTY


@pytest.fixture
def nasty_design(one_drawer):
    """The one-drawer design with user text that tries markup, quoting and shell injection."""
    topo = one_drawer
    topo.meta["name"] = "Design " + NASTY
    for cid, text in (
        ("hba.d1s1", "fcs0" + NASTY),
        ("sw1", "sw1;" + NASTY),
        ("fastt1", "fastt1 " + NASTY),
        ("z.Z_D1_FCS0_FASTT1_A", "Z " + NASTY),
        ("fab.FAB_D1", "FAB$(x)"),
        ("cab1", "=HYPERLINK(1)"),
    ):
        set_raw(topo, cid, "name", text)
    set_raw(topo, "cab1", "label", "=cmd|' /C calc'!A0")
    set_raw(topo, "cab2", "label", "@SUM(1)\n" + NASTY)
    return topo
