"""NetBox import files: read the way NetBox reads them (import-form columns, choices), the device
types validated against the devicetype-library schema and its checks, refused names, goldens."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from netbox_check import REFERENCE, SCHEMA, check_csv, library_problems, read_yaml, validate

from planner.exports import ExportError, get
from planner.exports.netbox import FILE_NAMES, IMPORT_PAGES, netbox_texts, write_netbox
from planner.exports.netbox_inventory import FC_INTERFACE_TYPES, inventory, slugify
from planner.fixtures import remove_raw, set_raw

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "netbox"
FORMS = {
    "manufacturers": "ManufacturerImportForm",
    "roles": "DeviceRoleImportForm",
    "sites": "SiteImportForm",
    "racks": "RackImportForm",
    "devices": "DeviceImportForm",
    "interfaces": "InterfaceImportForm",
    "cables": "CableImportForm",
}


def parsed(texts: dict[str, str]) -> dict[str, list[dict[str, str]]]:
    """Every CSV checked against its NetBox import form, by file key."""
    return {key: check_csv(texts[FILE_NAMES[key]], form) for key, form in FORMS.items() if FILE_NAMES[key] in texts}


def device_types(texts: dict[str, str]) -> dict[str, dict]:
    return {name: read_yaml(text) for name, text in texts.items() if name.endswith(".yaml")}


def test_benchmark_files_import_in_order(benchmark_design):
    texts = netbox_texts(inventory(benchmark_design))
    names = list(texts)
    numbered = [n for n in names if n[:2].isdigit()]
    assert numbered == sorted(numbered, key=lambda n: n[:2]) and names[-1] == "README.txt"
    files = parsed(texts)
    # 1 p690, 7 drawers, 7 switches, 56 FAStT600 Turbo, 56 EXP700
    assert len(files["devices"]) == 127
    assert len(files["interfaces"]) == 112 + 112 and len(files["cables"]) == 224
    assert {r["status"] for r in files["devices"]} == {"planned"}
    wwns = [r["wwn"] for r in files["interfaces"]]
    assert len(set(wwns)) == 224 and all(re.fullmatch(r"([0-9a-f]{2}:){7}[0-9a-f]{2}", w) for w in wwns)


def test_every_name_refers_to_what_an_earlier_file_made(benchmark_design):
    texts = netbox_texts(inventory(benchmark_design))
    files, types = parsed(texts), device_types(texts)
    manufacturers = {r["name"] for r in files["manufacturers"]}
    models = {(t["manufacturer"], t["model"]): t for t in types.values()}
    assert {t["manufacturer"] for t in types.values()} <= manufacturers
    roles, sites = {r["name"] for r in files["roles"]}, {r["name"] for r in files["sites"]}
    interfaces: dict[tuple[str, str], str] = {}
    for dev in files["devices"]:
        assert dev["role"] in roles and dev["site"] in sites
        dt = models[(dev["manufacturer"], dev["device_type"])]
        for i in dt.get("interfaces", []):
            interfaces[(dev["name"], i["name"])] = dev["site"]
    devices = {d["name"]: d["site"] for d in files["devices"]}
    for i in files["interfaces"]:
        assert i["device"] in devices and (i["device"], i["name"]) not in interfaces  # created, not duplicated
        interfaces[(i["device"], i["name"])] = devices[i["device"]]
    ends = set()
    for c in files["cables"]:
        for side in "ab":
            key = (c[f"side_{side}_device"], c[f"side_{side}_name"])
            assert c[f"side_{side}_type"] in REFERENCE["cable_termination_types"]
            assert interfaces.get(key) == c[f"side_{side}_site"], key
            assert key not in ends, f"{key} cabled twice"
            ends.add(key)


def test_device_types_follow_the_devicetype_library(benchmark_design):
    types = device_types(netbox_texts(inventory(benchmark_design)))
    assert set(types) == {
        "02-device-types/7040-681.yaml",
        "02-device-types/6571.yaml",
        "02-device-types/2109-f32.yaml",
        "02-device-types/1722-60u-turbo.yaml",
        "02-device-types/1740-1ru.yaml",
    }
    for name, doc in types.items():
        assert validate(doc, SCHEMA["devicetype"]) == [], name
        assert library_problems(doc, name.split("/")[-1]) == [], name
        assert set(doc) <= set(REFERENCE["import_fields"]["DeviceTypeImportForm"]) | {"interfaces"}
        for i in doc.get("interfaces", []):
            assert i["type"] in SCHEMA["generated_interface_types_checked"]
    switch = types["02-device-types/2109-f32.yaml"]
    assert [i["name"] for i in switch["interfaces"]] == [f"port {n}" for n in range(32)]
    assert {i["type"] for i in switch["interfaces"]} == {"2gfc-sfp"}


def test_the_schema_validator_rejects_what_the_library_rejects():
    good = {"manufacturer": "IBM", "model": "X", "slug": "ibm-x", "u_height": 1, "is_full_depth": True}
    assert validate(good, SCHEMA["devicetype"]) == []
    for bad in (
        {**good, "slug": "IBM X"},
        {**good, "u_height": 1.25},
        {**good, "colour": "red"},
        {**good, "interfaces": [{"name": "p0", "type": "2gfc"}]},
        {k: v for k, v in good.items() if k != "is_full_depth"},
    ):
        assert validate(bad, SCHEMA["devicetype"]), bad


def test_management_port_where_the_part_names_one(one_drawer):
    part = one_drawer.parts["2109-F32"]
    part["mgmt_port"] = {"name": "eth0", "type": "1000base-t"}
    texts = netbox_texts(inventory(one_drawer))
    doc = read_yaml(texts["02-device-types/2109-f32.yaml"])
    assert doc["interfaces"][-1] == {"name": "eth0", "type": "1000base-t", "mgmt_only": True}
    assert validate(doc, SCHEMA["devicetype"]) == []
    assert "1000base-t" in REFERENCE["choices"]["InterfaceTypeChoices"]


def test_interface_types_are_netbox_choices():
    assert set(FC_INTERFACE_TYPES.values()) <= set(REFERENCE["choices"]["InterfaceTypeChoices"])
    assert slugify("IBM/Brocade") == "ibm-brocade" and slugify("1722-60U Turbo") == "1722-60u-turbo"


@pytest.mark.parametrize("start", ["=", "+", "-", "@"])
def test_a_formula_like_name_is_refused_naming_the_component_and_fix(one_drawer, tmp_path, start):
    set_raw(one_drawer, "sw1", "name", start + "sw1")
    out = tmp_path / "nb"
    with pytest.raises(ExportError) as err:
        write_netbox(one_drawer, out)
    text = str(err.value)
    assert f"switch '{start}sw1'" in text and "rename it" in text and "apostrophe" in text
    assert not out.exists() or not any(out.rglob("*.csv"))  # nothing written


def test_nasty_names_are_refused_never_guarded(nasty_design, tmp_path):
    with pytest.raises(ExportError) as err:
        write_netbox(nasty_design, tmp_path / "nb")
    text = str(err.value)
    # the first problems are named, with the fix; the rest counted
    assert text.startswith("NetBox import: switch 'sw1;") and "holds a line break or tab; rename it" in text
    assert re.search(r"\(and \d+ more\)$", text)
    with pytest.raises(
        ExportError, match=r"cable '=HYPERLINK\(1\)': the label \"=cmd\|' /C calc'!A0\" begins with '='"
    ):
        nasty_design.meta["name"] = "Design"
        for cid, name in (("hba.d1s1", "fcs0"), ("sw1", "sw1"), ("fastt1", "fastt1")):
            set_raw(nasty_design, cid, "name", name)
        write_netbox(nasty_design, tmp_path / "nb")
    assert not (tmp_path / "nb" / FILE_NAMES["devices"]).exists()


def test_a_name_netbox_would_sniff_wrongly_is_refused(one_drawer):
    for sub in ("fastt1", "fastt2", "fastt3", "fastt4", "fastt5", "fastt6", "fastt7", "fastt8"):
        set_raw(one_drawer, sub, "name", f"'{sub}'")  # NetBox's sniffer takes ' for the quote
    with pytest.raises(ExportError, match=r"NetBox would read .* rename these"):
        netbox_texts(inventory(one_drawer))


def test_device_names_unique_per_site_ignoring_case(one_drawer):
    set_raw(one_drawer, "fastt2", "name", "FASTT1")
    with pytest.raises(ExportError, match="one name in one site; rename one"):
        inventory(one_drawer)


def in_two_sites(topo):
    """The storage moved to a rack of a second site (the switch stays in site 1)."""
    from planner import edit_place, placement

    edit_place.add_site(topo, "Site 2")
    site2 = topo.of_kind("site")[-1].id
    edit_place.add_rack(topo, site2, "R9", 42)
    r9, u = topo.children(site2, "rack")[0].id, 1
    for sub in topo.of_kind("subsystem")[:4]:
        edit_place.unplace(topo, sub.id)
        edit_place.place(topo, sub.id, r9, u)
        u += int(placement.u_height(topo, sub.id))
    return topo


def test_a_device_name_used_in_two_sites_is_refused(one_drawer):
    """Found importing into NetBox 4.6.8: the interfaces file names a device without its site, so
    NetBox refused '"fastt1" is not a unique value for this field; multiple objects were found'."""
    topo = in_two_sites(one_drawer)
    set_raw(topo, "sw1", "name", "FASTT1")  # site 1; the subsystem fastt1 is in site 2
    with pytest.raises(ExportError) as err:
        inventory(topo)
    text = str(err.value)
    assert "'FASTT1'" in text and "'fastt1'" in text and "in sites 'Site 1' and 'Site 2'" in text
    assert "finds a device by its name alone; rename one of them" in text


def test_cable_ends_carry_the_site_of_their_device(one_drawer):
    files = parsed(netbox_texts(inventory(in_two_sites(one_drawer))))
    site = {d["name"]: d["site"] for d in files["devices"]}
    assert site["fastt1"] == "Site 2" and site["sw1"] == "Site 1"
    for c in files["cables"]:
        assert (c["side_a_site"], c["side_b_site"]) == (site[c["side_a_device"]], site[c["side_b_device"]])
    assert any(c["side_a_site"] != c["side_b_site"] for c in files["cables"])


def unracked(topo):
    """The design with its sites and racks taken away (as before placement existed)."""
    for kind in ("server", "drawer", "switch", "subsystem", "enclosure"):
        for comp in topo.of_kind(kind):
            set_raw(topo, comp.id, "rack", "")
            set_raw(topo, comp.id, "u", 0)
    for kind in ("rack", "site"):
        for comp in list(topo.of_kind(kind)):
            remove_raw(topo, comp.id)
    return topo


def test_racks_and_positions_from_the_placement(one_drawer):
    files = parsed(netbox_texts(inventory(one_drawer)))
    racks = {r["name"]: r for r in files["racks"]}
    frame = racks["p690 frame 1"]
    assert frame["width"] == "23" and "24-inch frame" in frame["description"] and frame["u_height"] == "42"
    assert racks["R1"]["width"] == "19" and racks["R1"]["outer_width"] == "600" and racks["R1"]["outer_unit"] == "mm"
    devices = {d["name"]: d for d in files["devices"]}
    assert (devices["p690"]["rack"], devices["p690"]["position"], devices["p690"]["face"]) == (
        "p690 frame 1",
        "18",
        "front",
    )
    assert devices["p690 Drawer 1"]["position"] == "9" and devices["p690 Drawer 1"]["rack"] == "p690 frame 1"
    assert all(d["rack"] in racks and d["site"] == racks[d["rack"]]["site"] for d in devices.values())
    hba = next(i for i in files["interfaces"] if i["name"] == "fcs0")
    assert hba["label"] == "U1.9-P1-I1/Q1"  # AIX location code of the HBA port


def test_without_racks_devices_go_to_the_site_and_the_readme_says_so(one_drawer):
    texts = netbox_texts(inventory(unracked(one_drawer)))
    devices = parsed(texts)["devices"]
    assert {(d["rack"], d["position"], d["face"]) for d in devices} == {("", "", "")}
    assert FILE_NAMES["racks"] not in texts
    assert "The design has no racks" in texts["README.txt"]
    for _, _, url in IMPORT_PAGES:
        if "racks" not in url:
            assert url in texts["README.txt"]


@pytest.mark.parametrize("example", ["p690-benchmark"])
def test_netbox_files_match_the_golden_files(benchmark_design, example, tmp_path):
    """Golden files of the benchmark; regenerate with SANPLAN_REGEN_GOLDEN=1 when intended."""
    texts = netbox_texts(inventory(benchmark_design))
    folder = GOLDEN / example
    if os.environ.get("SANPLAN_REGEN_GOLDEN") == "1":
        for old in folder.rglob("*.*"):
            old.unlink()
        paths, _ = write_netbox(benchmark_design, folder)
    golden = {p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8") for p in folder.rglob("*.*")}
    assert golden == texts


def test_folder_export_through_the_registry(one_drawer, tmp_path):
    fmt = get("netbox-import")
    assert fmt.folder and fmt.cli.flag == "--netbox"
    written = fmt.export(one_drawer, tmp_path / "nb")
    names = [Path(w.path).relative_to(tmp_path / "nb").as_posix() for w in written]
    assert names[0] == "01-manufacturers.csv" and "08-cables.csv" in names and names[-1] == "README.txt"
    assert any(w.summary == ": 32 cables" for w in written)
    (tmp_path / "file").write_text("x")
    with pytest.raises(ExportError, match="is a file; the NetBox export writes a folder"):
        fmt.export(one_drawer, tmp_path / "file")
