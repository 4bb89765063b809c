"""The editor's Direction selector offers mixed: the panels show the mixed analysis."""

from __future__ import annotations

import pytest


def test_direction_box_offers_mixed(window):
    box = window.direction_box
    assert [box.itemText(i) for i in range(box.count())] == ["read", "write", "mixed"]
    box.setCurrentText("mixed")
    bundle = window.doc.wait_for_analysis()
    assert window.doc.direction == "mixed" and bundle.direction == "mixed"
    result = bundle.result
    assert result.direction == "mixed"
    # the example's workloads read 100 %: the mixed run equals the read run
    assert result.aggregate == pytest.approx(bundle.read_mbps)
    assert result.read_mbps == pytest.approx(result.aggregate) and result.write_mbps == 0
    box.setCurrentText("read")
    assert window.doc.wait_for_analysis().result.direction == "read"
