"""File > Export is built from the export registry: one action per format, one generic handler."""

from __future__ import annotations

from planner.exports import CliFlag, ExportFormat, ExportOption, Written, formats, register, unregister, write_text


def format_actions(window) -> list[tuple[str, str]]:
    """(format id, menu text) of the Export menu's format actions, in menu order."""
    return [(a.data(), a.text()) for a in window.export_menu.actions() if a.data()]


def test_one_action_per_registered_format(window):
    assert format_actions(window) == [(f.id, f.title) for f in formats()]
    settings = [a.text() for a in window.export_menu.actions() if not a.data() and not a.isSeparator()]
    assert settings == [
        "Build sheet &paper",
        "Build sheet with cable &labels",
        "Zoning script &mode",
        "Zoning: also write a &back-out script",
        "Zoning (Cisco): also assign the &ports to the VSAN",
    ]


def test_a_new_format_gets_an_action_that_exports(window, tmp_path):
    seen = {}

    def write(source, path, *, options, progress):
        seen.update(options, scenario=source.scenario)
        write_text(path, source.topology.meta["name"])
        return [Written(path)]

    fmt = ExportFormat(
        id="design-name",
        title="Design &name...",
        file_filter="Text (*.txt)",
        extension=".txt",
        write=write,
        cli=CliFlag("--design-name", "write the design's name"),
        options=(ExportOption("suffix", "", "--suffix", "a suffix", question="Suffix"),),
    )
    register(fmt)
    try:
        window._fill_export_menu()
        assert format_actions(window)[-1] == ("design-name", "Design &name...")
        out = tmp_path / "name.txt"
        window.answers.update(export=str(out), text="-x")
        next(a for a in window.export_menu.actions() if a.data() == "design-name").trigger()
        assert out.read_text() == window.doc.topology.meta["name"]
        assert seen == {"suffix": "-x", "scenario": window.doc.project.current}
        assert ("text", "Suffix", "") in window.asked
    finally:
        unregister("design-name")
        window._fill_export_menu()
    assert "design-name" not in [fid for fid, _ in format_actions(window)]
