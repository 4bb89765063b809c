"""Made-up WWPNs are marked as placeholders until the user enters real ones: the examples and the
sizing mark them, every way of entering a WWPN clears the mark in the same undo step, the zoning
scripts comment them (commands unchanged) and a rule counts them."""

from __future__ import annotations

import pytest

from planner import edit
from planner.examples import build_example
from planner.exports.zoning import PLACEHOLDER_COMMENT, zoning_script
from planner.fixtures import set_raw
from planner.model import ModelError
from planner.rules import check
from planner.zoning_edit import set_wwpn, set_wwpns

PORT = "hba.d1s1.0"


def _ports(topo):
    return [p for k in ("hba_port", "host_port") for p in topo.of_kind(k)]


def _placeholders(topo):
    return sorted(p.id for p in _ports(topo) if p["wwpn_placeholder"])


def test_examples_mark_every_made_up_wwpn(one_drawer):
    ports = _ports(one_drawer)
    assert len(ports) == 32 and all(p["wwpn"] and p["wwpn_placeholder"] for p in ports)


def test_a_new_port_without_wwpn_is_no_placeholder(one_drawer, parts):
    edit.add_hba(one_drawer, edit.find_slot(one_drawer, "d1", 4).id, parts["FC6239"])
    assert [p["wwpn_placeholder"] for p in one_drawer.of_kind("hba_port") if not p["wwpn"]] == [False]


@pytest.mark.parametrize(
    "enter",
    [
        lambda t: set_wwpn(t, PORT, "10:00:00:00:c9:aa:bb:cc"),
        lambda t: set_wwpns(t, {PORT: "10:00:00:00:c9:aa:bb:cc"}),
        lambda t: edit.set_attr(t, PORT, "wwpn", "10:00:00:00:c9:aa:bb:cc"),
    ],
    ids=["typed in the zoning editor", "pasted", "inspector"],
)
def test_entering_a_wwpn_clears_the_mark_in_one_undo_step(one_drawer, enter):
    before, wwpn = _placeholders(one_drawer), one_drawer[PORT]["wwpn"]
    step = enter(one_drawer)
    assert one_drawer[PORT]["wwpn_placeholder"] is False
    assert _placeholders(one_drawer) == [p for p in before if p != PORT]
    step.undo(one_drawer)
    assert one_drawer[PORT]["wwpn_placeholder"] is True
    assert one_drawer[PORT]["wwpn"] == wwpn
    assert _placeholders(one_drawer) == before


def test_pasting_the_same_wwpn_confirms_the_placeholder(one_drawer):
    same = one_drawer[PORT]["wwpn"]
    set_wwpns(one_drawer, {PORT: same})
    assert one_drawer[PORT]["wwpn"] == same and one_drawer[PORT]["wwpn_placeholder"] is False
    with pytest.raises(ModelError, match="nothing to change"):
        set_wwpns(one_drawer, {PORT: same})


def test_the_rule_counts_the_placeholders_with_grammar(one_drawer):
    found = [f for f in check(one_drawer) if f.rule == "WWPN_PLACEHOLDER"]
    assert len(found) == 1 and found[0].severity == "warning"
    assert found[0].message.startswith("32 WWPNs are placeholders")
    assert set(found[0].components) == {"p690.lpar1", *(f"fastt{i}" for i in range(1, 9))}
    for p in _ports(one_drawer)[1:]:
        set_raw(one_drawer, p.id, "wwpn_placeholder", False)
    (one,) = [f for f in check(one_drawer) if f.rule == "WWPN_PLACEHOLDER"]
    assert one.message.startswith("1 WWPN is a placeholder") and one.components == ("p690.lpar1",)
    set_raw(one_drawer, _ports(one_drawer)[0].id, "wwpn_placeholder", False)
    assert [f for f in check(one_drawer) if f.rule == "WWPN_PLACEHOLDER"] == []


@pytest.mark.parametrize("vendor", ["brocade", "cisco"])
@pytest.mark.parametrize("backout", [False, True])
def test_zoning_scripts_comment_placeholders_and_keep_their_commands(one_drawer, parts, vendor, backout):
    marked = zoning_script(one_drawer, vendor, backout=backout)["FAB_D1"].splitlines()
    real = build_example("p690-one-drawer", parts)
    for p in _ports(real):
        set_raw(real, p.id, "wwpn_placeholder", False)
    clean = zoning_script(real, vendor, backout=backout)["FAB_D1"].splitlines()
    mark = "#" if vendor == "brocade" else "!"
    assert [ln for ln in marked if not ln.lstrip().startswith(mark)] == [
        ln for ln in clean if not ln.lstrip().startswith(mark)
    ]
    added = [ln for ln in marked if ln not in clean]
    header = f"{mark} PLACEHOLDER WWPNs: 32 of the 32 aliases have WWPNs made up by SANplan"
    assert added[0].startswith(header)
    comments = [ln for ln in marked if ln == PLACEHOLDER_COMMENT % mark]
    assert len(comments) == (0 if backout else 32)
    if not backout:  # each comment follows the alias command it is about
        alias = "alicreate" if vendor == "brocade" else "device-alias name"
        assert all(alias in marked[i - 1] for i, ln in enumerate(marked) if ln.strip() == PLACEHOLDER_COMMENT % mark)
    assert not any(ln.startswith(header) for ln in clean)
