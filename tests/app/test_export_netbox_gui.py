"""File > Export > NetBox import files: the menu action asks for a folder and writes every file."""

from __future__ import annotations


def _menu_action(window, format_id):
    return next(a for a in window.export_menu.actions() if a.data() == format_id)


def test_netbox_folder_from_the_export_menu(window, home):
    w = window
    out = home / "netbox"
    w.answers["folder"] = str(out)
    _menu_action(w, "netbox-import").trigger()
    assert w.asked[-1][0] == "info" and "README.txt" in w.asked[-1][2]
    assert any(what == "folder" for what, _, _ in w.asked)
    assert (out / "06-devices.csv").read_text().startswith("name,role,manufacturer,device_type")
    assert len((out / "08-cables.csv").read_text().splitlines()) == 1 + len(w.doc.topology.of_kind("cable"))
    assert sorted(p.name for p in (out / "02-device-types").iterdir()) == [
        "1722-60u-turbo.yaml",
        "1740-1ru.yaml",
        "2109-f32.yaml",
        "6571.yaml",
        "7040-681.yaml",
    ]


def test_netbox_export_refusal_is_shown_not_raised(window, home):
    w = window
    assert w.controller.edit_attribute(["sw1"], "name", "=sw1")  # as typed in the inspector
    w.answers["folder"] = str(home / "nb")
    _menu_action(w, "netbox-import").trigger()
    what, title, detail = w.asked[-1]
    assert what == "error" and "switch '=sw1'" in detail and "rename it" in detail
    assert not (home / "nb" / "06-devices.csv").exists()


def test_schedule_from_the_export_menu(window, home):
    w = window
    out = home / "schedule"
    w.answers["export"] = str(out)
    _menu_action(w, "cabling-schedule").trigger()
    text = (home / "schedule.csv").read_text()
    assert text.startswith("seq,label,a_site,a_rack,a_u,a_device")
    assert len(text.splitlines()) == 1 + len(w.doc.topology.of_kind("cable"))
