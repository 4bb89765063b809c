"""The parts catalog: sources on every figure, schema migrations, user parts survive upgrades."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

from catalogs.catalog import BUILTIN_PATH, SCHEMA_VERSION, Catalog, CatalogError, load_builtin, validate_part
from planner.figures import FIGURE_SETS, figure, layout_throughput

PAPER_PARTS = [
    "7040-681",
    "7040-61D",
    "FC6239",
    "2109-F32",
    "FAStT600",
    "FAStT600-Turbo",
    "FAStT900",
    "ESS800",
    "EXP700",
    "DRV-36G-15K",
]


def test_every_part_the_papers_name_is_built_in():
    _, parts = load_builtin()
    assert set(PAPER_PARTS) <= set(parts)


def test_every_figure_has_all_three_sets_with_a_source():
    _, parts = load_builtin()
    for part in parts.values():
        for name, sets in part.get("figures", {}).items():
            assert set(sets) == set(FIGURE_SETS), (part["id"], name)
            for s, entry in sets.items():
                assert entry["source"].strip(), (part["id"], name, s)
                # a set the paper gives no figure for says which set it reuses, or is an estimate
                if "reuses" in entry:
                    assert entry["reuses"] in FIGURE_SETS and entry["reuses"] != s


def test_paper_figures():
    _, p = load_builtin()
    assert [figure(p["FC6239"], "hba", s, "read").value for s in FIGURE_SETS] == [200, 195, 150]
    assert figure(p["7040-61D"], "rio_link1", "measured", "read").value == 814
    assert figure(p["7040-61D"], "rio_link0", "measured", "read").value == 820
    assert figure(p["7040-61D"], "planar", "planning", "read").value == 1200
    assert figure(p["7040-681"], "system", "measured", "write").value == 18512
    assert figure(p["2109-F32"], "backplane", "rated", "read").value == 1600
    assert len(p["2109-F32"]["asics"]) == 4 and p["2109-F32"]["asics"][2][0] == 16


def test_layout_lookup_table1_and_estimates():
    _, p = load_builtin()
    turbo = p["FAStT600-Turbo"]
    exact = layout_throughput(turbo, 5, 7, 256, "write")  # RAID5 6+P, 256 KB
    assert exact.value == 274 and not exact.estimate and "Table 1" in exact.source
    est = layout_throughput(turbo, 5, 5, 128, "read")  # 4+P at 128 KB is not in Table 1
    assert est.estimate and est.value <= 370 and "estimated" in est.note
    assert layout_throughput(p["FAStT900"], 5, 9, 128, "read") is None


def test_catalog_database_and_user_parts_survive_builtin_upgrade(tmp_path):
    path = tmp_path / "catalog.sqlite"
    cat = Catalog(path)
    mine = {
        "id": "MY-HBA",
        "kind": "hba",
        "name": "4 Gb HBA",
        "ports": 2,
        "figures": {"hba": {"rated": {"value": 400, "source": "vendor sheet"}}},
    }
    cat.add_user_part(mine)
    assert cat["MY-HBA"]["name"] == "4 Gb HBA"
    assert [p["id"] for p, user in cat.parts(kind="hba") if user] == ["MY-HBA"]
    cat.close()
    # a newer built-in catalog replaces the built-in rows; the user's part stays
    text = re.sub(r"catalog_version = \d+", "catalog_version = 99", BUILTIN_PATH.read_text()).replace(
        'name = "2 Gb Fibre Channel PCI-X adapter, 1 port"', 'name = "FC 6239 renamed"'
    )
    newer = tmp_path / "parts.toml"
    newer.write_text(text)
    cat = Catalog(path, builtin_path=newer)
    assert cat["FC6239"]["name"] == "FC 6239 renamed"
    assert cat["MY-HBA"]["figures"]["hba"]["rated"]["value"] == 400
    cat.close()


def test_user_part_errors(tmp_path):
    cat = Catalog(tmp_path / "c.sqlite")
    with pytest.raises(CatalogError, match="built-in"):
        cat.add_user_part({"id": "FC6239", "kind": "hba"})
    with pytest.raises(CatalogError, match="no source"):
        cat.add_user_part({"id": "X", "kind": "hba", "figures": {"hba": {"rated": {"value": 1}}}})
    with pytest.raises(CatalogError, match="positive"):
        validate_part({"id": "X", "kind": "hba", "figures": {"hba": {"rated": {"value": -1, "source": "s"}}}})
    with pytest.raises(CatalogError, match="kind"):
        validate_part({"id": "X", "kind": "toaster"})
    with pytest.raises(CatalogError, match="no user part"):
        cat.delete_user_part("nope")


def test_migrates_from_schema_1(tmp_path):
    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE builtin_parts (id TEXT PRIMARY KEY, kind TEXT NOT NULL, body TEXT NOT NULL);"
        "CREATE TABLE user_parts (id TEXT PRIMARY KEY, kind TEXT NOT NULL, body TEXT NOT NULL);"
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); PRAGMA user_version=1;"
    )
    old = {"id": "OLD", "kind": "drive", "name": "old drive"}
    db.execute("INSERT INTO user_parts VALUES ('OLD', 'drive', ?)", (json.dumps(old),))
    db.commit()
    db.close()
    cat = Catalog(path)
    assert cat.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert cat["OLD"]["name"] == "old drive"
    cat.update_user_part(dict(old, name="renamed"))
    assert cat["OLD"]["name"] == "renamed"


def test_bad_catalog_files(tmp_path):
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not sqlite at all" * 10)
    with pytest.raises(CatalogError, match="junk.sqlite"):
        Catalog(junk)
    newer = tmp_path / "newer.sqlite"
    db = sqlite3.connect(newer)
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 5}")
    db.close()
    with pytest.raises(CatalogError, match="newer SANplan"):
        Catalog(newer)


def test_catalog_figures_are_the_ones_the_analysis_reads():
    """A figure the analysis does not read would be silently ignored; one it reads but the
    catalog lacks would leave a hop without a capacity."""
    from planner.analysis import FIGURES_READ

    _, parts = load_builtin()
    for part in parts.values():
        assert set(part.get("figures", {})) <= set(FIGURES_READ[part["kind"]]), part["id"]
    for kind, names in FIGURES_READ.items():
        if kind in ("server", "drawer", "hba", "switch"):
            assert any(set(names) == set(p.get("figures", {})) for p in parts.values() if p["kind"] == kind), kind
