"""``sanplan export``: every format's flag, options that do not apply, bad values, safe writes."""

from __future__ import annotations

import pytest

from app.cli import main


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("SANPLAN_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("SANPLAN_PAPER", raising=False)


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def one_file(tmp_path, capsys):
    path = tmp_path / "one.sanplan"
    assert run(capsys, "example", "p690-one-drawer", path)[0] == 0
    return path


def test_cli_pdf(one_file, tmp_path, capsys, monkeypatch):
    code, out, _ = run(capsys, "export", one_file, "--pdf", tmp_path / "a.pdf", "--labels")
    assert code == 0 and "wrote" in out and "A4" in out
    assert (tmp_path / "a.pdf").read_bytes().startswith(b"%PDF")
    monkeypatch.setenv("SANPLAN_PAPER", "letter")
    code, out, _ = run(capsys, "export", one_file, "--pdf", tmp_path / "b.pdf", "--figures", "measured")
    assert code == 0 and "Letter" in out
    code, out, _ = run(capsys, "export", one_file, "--pdf", tmp_path / "c.pdf", "--paper", "a4")
    assert code == 0 and "A4" in out


def test_cli_zoning_one_file_per_fabric(tmp_path, capsys):
    bench = tmp_path / "bench.sanplan"
    assert run(capsys, "example", "p690-benchmark", bench)[0] == 0
    code, out, _ = run(capsys, "export", bench, "--zoning", "brocade", tmp_path / "zones.txt")
    assert code == 0
    written = sorted(p.name for p in tmp_path.glob("zones*.txt"))
    assert written == [f"zones.FAB_D{d}.txt" for d in range(1, 8)]
    assert out.count("wrote") == 7


def test_cli_zoning_cisco_and_cabling(one_file, tmp_path, capsys):
    code, _, err = run(capsys, "export", one_file, "--zoning", "cisco", tmp_path / "z.txt", "--vsan", 12)
    assert code == 0 and "vsan 12" in (tmp_path / "z.txt").read_text() and err == ""
    code, _, err = run(capsys, "export", one_file, "--zoning", "cisco", tmp_path / "z1.txt")
    assert code == 0 and "VSAN 1" in err
    for fmt in ("csv", "netbox"):
        code, out, _ = run(capsys, "export", one_file, "--cabling", fmt, tmp_path / f"{fmt}.csv")
        assert code == 0 and "32 cables" in out
    assert (tmp_path / "netbox.csv").read_text().startswith("side_a_device,side_a_type")


@pytest.mark.parametrize(
    "extra, needle",
    [
        (["--zoning", "cisco", "OUT", "--vsan", "0"], "VSAN"),
        (["--zoning", "cisco", "OUT", "--vsan", "4095"], "VSAN"),
        (["--zoning", "cisco", "OUT", "--vsan", "ten"], "--vsan"),
        (["--zoning", "brocade", "OUT", "--vsan", "3"], "--vsan does not apply"),
        (["--zoning", "mcdata", "OUT"], "brocade or cisco"),
        (["--cabling", "xlsx", "OUT"], "csv or netbox"),
        (["--pdf", "OUT", "--json", "OUT"], "not allowed"),
        (["--json", "OUT", "--labels"], "--labels does not apply"),
        (["--json", "OUT", "--scenario", "Base"], "--scenario does not apply"),
        (["--pdf", "OUT", "--scenario", "Nope"], "Nope"),
        (["--pdf", "OUT", "--paper", "a3"], "a3"),
        ([], "one of the arguments"),
    ],
)
def test_cli_bad_options_are_one_line(one_file, tmp_path, capsys, extra, needle):
    argv = [str(tmp_path / "out.x") if a == "OUT" else a for a in extra]
    code, _, err = run(capsys, "export", one_file, *argv)
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "out.x").exists()


def test_cli_bad_paper_setting(one_file, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("SANPLAN_PAPER", "A3")
    code, _, err = run(capsys, "export", one_file, "--pdf", tmp_path / "a.pdf")
    assert code == 2 and "SANPLAN_PAPER" in err and not (tmp_path / "a.pdf").exists()


def test_cli_never_overwrites_the_design_or_writes_half_files(one_file, tmp_path, capsys):
    before = one_file.read_bytes()
    for argv in (["--pdf", one_file], ["--zoning", "brocade", one_file], ["--cabling", "csv", one_file]):
        code, _, err = run(capsys, "export", one_file, *argv)
        assert code == 2 and "design file itself" in err
    assert one_file.read_bytes() == before
    code, _, err = run(capsys, "export", one_file, "--pdf", tmp_path / "no" / "such" / "dir.pdf")
    assert code == 2 and "cannot be written" in err and len(err.strip().splitlines()) == 1
    code, _, err = run(capsys, "export", one_file, "--cabling", "csv", tmp_path)
    assert code == 2 and "is a folder" in err


def test_cli_json_still_works(one_file, tmp_path, capsys):
    code, out, _ = run(capsys, "export", one_file, "--json", tmp_path / "a.json")
    assert code == 0 and (tmp_path / "a.json").exists()


def test_cli_netbox_folder_and_schedule(one_file, tmp_path, capsys):
    code, out, err = run(capsys, "export", one_file, "--netbox", tmp_path / "nb")
    assert code == 0 and err == "" and "06-devices.csv: 19 devices" in out and "08-cables.csv: 32 cables" in out
    assert (tmp_path / "nb" / "README.txt").read_text().startswith("NetBox 4.x import files")
    code, out, _ = run(capsys, "export", one_file, "--schedule", tmp_path / "s.csv")
    assert code == 0 and "32 cables in installation order" in out
    (tmp_path / "plain").write_text("x")
    code, _, err = run(capsys, "export", one_file, "--netbox", tmp_path / "plain")
    assert code == 2 and "is a file; the NetBox export writes a folder" in err


def test_cli_labels_are_on_by_default_and_no_labels_leaves_them_out(one_file, tmp_path, capsys):
    import re

    pages = {}
    for name, extra in (("default", []), ("labels", ["--labels"]), ("none", ["--no-labels"])):
        code, out, _ = run(capsys, "export", one_file, "--pdf", tmp_path / f"{name}.pdf", *extra)
        assert code == 0
        pages[name] = int(re.search(r"\((\d+) pages", out).group(1))
    assert pages["default"] == pages["labels"] > pages["none"]
