"""Zoning scripts: the zones of a design as ready-to-paste Brocade Fabric OS or Cisco MDS NX-OS
commands, one script per fabric (syntax: DOMAIN.md §5). Registers the export formats
``zoning-brocade`` and ``zoning-cisco`` (``sanplan export --zoning VENDOR OUT``).

Safety: a zoning script is pasted into a switch shell (the FOS CLI is a restricted bash shell, so
``$(...)``, backticks and ``;`` would be interpreted even inside double quotes). No user text
reaches a script raw: every generated name is mapped by :func:`safe_name` to
``[A-Za-z][A-Za-z0-9_]{0,63}`` (valid for both vendors), every WWPN is checked with
:func:`planner.model.wwpn_problem`, and comment lines hold only such names and fixed words.
A zone member without a valid WWPN is left out with a comment saying so.
"""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from planner.exports.output import ExportError, write_texts
from planner.exports.registry import CliFlag, ExportFormat, ExportOption, ExportSource, Progress, Written, register
from planner.model import Component, Topology, wwpn_problem
from planner.naming import short_label

VENDORS = ("brocade", "cisco")
NAME_MAX = 64
NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}")
VSAN_RANGE = (1, 4094)  # Cisco MDS: VSAN 1 is the default VSAN, 4094 the isolated one


# -- names -----------------------------------------------------------------------------------------


def safe_name(text: Any, prefix: str = "N", taken: set[str] | None = None) -> str:
    """Map any text to a name both switch vendors accept and no shell interprets:
    ``[A-Za-z][A-Za-z0-9_]{0,63}``.

    Accents are dropped (``Müller`` -> ``Muller``), every run of other characters becomes ``_``,
    a name that does not start with a letter gets ``prefix`` and ``_`` in front, and the result is
    cut to 64 characters. With ``taken`` (a set of lower-cased names already used in one script),
    a name already used gets a suffix ``_2``, ``_3``... and is added to ``taken``.
    Raises ValueError when ``prefix`` is not itself a valid name.
    """
    if not NAME_RE.fullmatch(prefix) or len(prefix) > NAME_MAX // 2:
        raise ValueError(f"prefix {prefix!r} must be a short name of letters, digits and _ starting with a letter")
    plain = unicodedata.normalize("NFKD", str(text)).encode("ascii", "ignore").decode("ascii")
    body = re.sub(r"[^A-Za-z0-9_]+", "_", plain).strip("_")
    if not body:
        body = prefix
    elif not body[0].isalpha():
        body = f"{prefix}_{body}"
    body = body[:NAME_MAX].rstrip("_") or prefix
    if taken is None:
        return body
    name, n = body, 2
    while name.lower() in taken:
        suffix = f"_{n}"
        name = body[: NAME_MAX - len(suffix)] + suffix
        n += 1
    taken.add(name.lower())
    return name


def hba_port_alias_text(topo: Topology, port: Component) -> str:
    """'LPAR1_FCS0': the partition (or server) and the adapter, as admins name an HBA alias."""
    hba = topo.get(port.parent)
    host = ""
    if hba is not None:
        owner = topo.get(hba["lpar"]) if hba.kind == "hba" and hba["lpar"] else None
        owner = owner or topo.ancestor(hba.id, "server")
        host = short_label(owner) if owner is not None else ""
    text = f"{host}_{short_label(hba) if hba is not None else short_label(port)}"
    if hba is not None and len(topo.children(hba.id, "hba_port")) > 1:
        text += f"_P{port['index']}"
    return text.upper()


def host_port_alias_text(topo: Topology, port: Component) -> str:
    """'FASTT1_A1': the subsystem, the controller and the port number."""
    sub = topo.ancestor(port.id, "subsystem")
    ctl = topo.get(port.parent)
    ctl_name = ctl["slot_name"] if ctl is not None and ctl.kind == "controller" else ""
    return f"{short_label(sub) if sub is not None else ''}_{ctl_name}{port['index']}".upper()


def alias_text(topo: Topology, port: Component) -> str:
    if port.kind == "hba_port":
        return hba_port_alias_text(topo, port)
    if port.kind == "host_port":
        return host_port_alias_text(topo, port)
    return short_label(port).upper()


# -- zoning ----------------------------------------------------------------------------------------


@dataclass
class Alias:
    name: str
    wwpn: str
    port: str  # component id of the HBA or host port


@dataclass
class ZoneEntry:
    name: str  # the name used in the scripts
    design_name: str  # the zone's name in the design (user text)
    zone: str  # component id
    members: list[str]  # alias names


@dataclass
class FabricZoning:
    """The zoning of one fabric as the scripts and the build sheet show it."""

    fabric: str  # component id
    name: str  # safe name of the fabric (script file names)
    design_name: str
    config: str  # configuration (Brocade) / zone set (Cisco) name
    aliases: list[Alias] = field(default_factory=list)
    zones: list[ZoneEntry] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # notes; safe names and fixed words only

    def alias_of(self) -> dict[str, Alias]:
        return {a.port: a for a in self.aliases}


def zoning_plan(topo: Topology) -> list[FabricZoning]:
    """The zoning of every fabric that has zones, in design order: aliases for the zoned ports
    with a valid WWPN, zones with their member aliases, the configuration name, and notes on
    what was left out (members without a valid WWPN, WWPNs used twice, empty zones).
    Names are unique within a fabric (zones keep their design names where those are valid).
    Cost O(zones x members)."""
    plans: list[FabricZoning] = []
    fabric_names: set[str] = set()
    for fabric in topo.of_kind("fabric"):
        zones = topo.children(fabric.id, "zone")
        if zones:
            plans.append(_fabric_plan(topo, fabric, zones, safe_name(short_label(fabric), "FAB", fabric_names)))
    return plans


def _fabric_plan(topo: Topology, fabric: Component, zones: list[Component], name: str) -> FabricZoning:
    taken: set[str] = set()
    zone_names = [safe_name(short_label(z), "Z", taken) for z in zones]
    plan = FabricZoning(fabric.id, name, short_label(fabric), safe_name(f"CFG_{name}", "CFG", taken))
    aliases: dict[str, Alias] = {}
    refused: set[str] = set()
    by_wwpn: dict[str, Alias] = {}
    for zone, zname in zip(zones, zone_names):
        members: list[str] = []
        for mid in zone["members"]:
            alias = aliases.get(mid)
            if alias is None and mid not in refused:
                alias = _new_alias(topo, mid, zname, taken, by_wwpn, plan.skipped)
                if alias is None:
                    refused.add(mid)
                else:
                    aliases[mid] = by_wwpn[alias.wwpn] = alias
                    plan.aliases.append(alias)
            if alias is not None and alias.name not in members:
                members.append(alias.name)
        if members:
            plan.zones.append(ZoneEntry(zname, short_label(zone), zone.id, members))
        else:
            plan.skipped.append(f"zone {zname} left out: none of its members has a valid WWPN")
    return plan


def _new_alias(
    topo: Topology, member: str, zone: str, taken: set[str], by_wwpn: dict[str, Alias], notes: list[str]
) -> Alias | None:
    port = topo.get(member)
    if port is None or port.kind not in ("hba_port", "host_port"):
        notes.append(f"a member of zone {zone} left out: it is not an HBA or storage port of the design")
        return None
    shown = safe_name(alias_text(topo, port), "A")
    wwpn = port["wwpn"] or ""
    if not wwpn or wwpn_problem(wwpn):
        why = "it has no WWPN" if not wwpn else "its WWPN is not valid"
        notes.append(f"{shown} left out of zone {zone}: {why}")
        return None
    if wwpn in by_wwpn:
        notes.append(f"{shown} left out of zone {zone}: it has the same WWPN as {by_wwpn[wwpn].name}")
        return None
    return Alias(safe_name(alias_text(topo, port), "A", taken), wwpn, port.id)


def zoning_script(topo: Topology, vendor: str, vsan: int = 1) -> dict[str, str]:
    """Zoning scripts, one per fabric with zones: {fabric's safe name: script text}.

    ``vendor`` is ``"brocade"`` (Fabric OS: alicreate, zonecreate, cfgcreate/cfgadd, cfgsave,
    cfgenable; ``#`` comment lines, which the FOS bash shell ignores) or ``"cisco"`` (MDS NX-OS:
    device aliases, zones and a zone set in ``vsan``, activated and saved; ``!`` comments).
    Output is deterministic (design order). Raises ExportError for an unknown vendor or a VSAN
    outside 1-4094.
    """
    if vendor not in VENDORS:
        raise ExportError(f"zoning vendor must be {' or '.join(VENDORS)}, not {vendor!r}")
    if isinstance(vsan, bool) or not isinstance(vsan, int) or not VSAN_RANGE[0] <= vsan <= VSAN_RANGE[1]:
        raise ExportError(f"VSAN must be a whole number from {VSAN_RANGE[0]} to {VSAN_RANGE[1]}, not {vsan!r}")
    design = safe_name(topo.meta.get("name", ""), "D")
    out: dict[str, str] = {}
    for plan in zoning_plan(topo):
        lines = _brocade(plan, design) if vendor == "brocade" else _cisco(plan, design, vsan)
        _check_script(lines)
        out[plan.name] = "\n".join(lines) + "\n"
    return out


def _header(mark: str, plan: FabricZoning, design: str, what: str, config: str) -> list[str]:
    return [
        f"{mark} SANplan zoning for fabric {plan.name} of design {design} ({what})",
        f"{mark} {len(plan.aliases)} aliases, {len(plan.zones)} zones, {config} {plan.config}",
    ]


def _brocade(plan: FabricZoning, design: str) -> list[str]:
    lines = _header("#", plan, design, "Brocade Fabric OS", "configuration")
    lines += [
        "# Paste into the CLI of one switch of the fabric. cfgsave and cfgenable ask for",
        "# confirmation (answer y); cfgenable replaces the configuration in effect on the fabric.",
    ]
    lines += [f"# skipped: {note}" for note in plan.skipped]
    lines += [f'alicreate "{a.name}", "{a.wwpn}"' for a in plan.aliases]
    lines += [f'zonecreate "{z.name}", "{";".join(z.members)}"' for z in plan.zones]
    if not plan.zones:
        return lines + ["# no zone has a member with a valid WWPN: nothing to enable"]
    lines.append(f'cfgcreate "{plan.config}", "{plan.zones[0].name}"')
    lines += [f'cfgadd "{plan.config}", "{z.name}"' for z in plan.zones[1:]]
    return lines + ["cfgsave", f'cfgenable "{plan.config}"']


def _cisco(plan: FabricZoning, design: str, vsan: int) -> list[str]:
    lines = _header("!", plan, design, f"Cisco MDS NX-OS, VSAN {vsan}", "zone set")
    lines.append("! Paste in EXEC mode on one switch of the fabric; the zone set is activated and saved.")
    if vsan == 1:
        lines.append("! VSAN 1 is the default VSAN; export with another VSAN number if the fabric uses one")
    lines += [f"! skipped: {note}" for note in plan.skipped]
    lines += ["configure terminal", "device-alias database"]
    lines += [f"  device-alias name {a.name} pwwn {a.wwpn}" for a in plan.aliases]
    lines += ["exit", "device-alias commit"]
    for z in plan.zones:
        lines.append(f"zone name {z.name} vsan {vsan}")
        lines += [f"  member device-alias {m}" for m in z.members]
        lines.append("exit")
    if plan.zones:
        lines.append(f"zoneset name {plan.config} vsan {vsan}")
        lines += [f"  member {z.name}" for z in plan.zones]
        lines += ["exit", f"zoneset activate name {plan.config} vsan {vsan}"]
    else:
        lines.append("! no zone has a member with a valid WWPN: nothing to activate")
    return lines + ["end", "copy running-config startup-config"]


_SAFE_LINE = re.compile(r'[#!A-Za-z0-9_ :;,.()"/-]*')


def _check_script(lines: list[str]) -> None:
    """Last line of defence: a script line holds only name characters, punctuation of the
    command syntax and no control characters, shell expansions or quotes inside names."""
    for line in lines:
        if not _SAFE_LINE.fullmatch(line):
            raise AssertionError(f"unsafe zoning script line {line!r}")  # a bug, never user input


def fabric_file_name(path: str | os.PathLike[str], fabric: str) -> str:
    """'zones.txt' + 'FAB_D1' -> 'zones.FAB_D1.txt' (``fabric`` is a safe name)."""
    base, ext = os.path.splitext(os.fspath(path))
    return f"{base}.{fabric}{ext}"


def zoning_problem(topo: Topology) -> str | None:
    """Why there is no zoning script to write (no fabric has a zone), or None."""
    if zoning_plan(topo):
        return None
    return f"{topo.meta.get('name', 'the design')} has no zones; nothing to write (zone the HBA ports with the storage ports first)"


def write_zoning(
    topo: Topology, vendor: str, out: str | os.PathLike[str], vsan: int = 1
) -> list[tuple[str, FabricZoning]]:
    """Write one zoning script per fabric (``out`` itself when there is one fabric, else with the
    fabric name before the extension); returns (path, plan) per file written. Raises ExportError
    when the design has no zones or a file cannot be written."""
    scripts = zoning_script(topo, vendor, vsan)
    if not scripts:
        raise ExportError(zoning_problem(topo) or "no zones")
    plans = {p.name: p for p in zoning_plan(topo)}
    paths = {fabric: os.fspath(out) if len(scripts) == 1 else fabric_file_name(out, fabric) for fabric in scripts}
    write_texts({paths[fabric]: text for fabric, text in scripts.items()})  # all fabrics or none
    return [(paths[fabric], plans[fabric]) for fabric in scripts]


# -- the export formats --------------------------------------------------------------------------------

ZONING_FLAG = CliFlag(
    "--zoning",
    "write zoning scripts, brocade or cisco, one per fabric (OUT gets the fabric name when there are several)",
    choice_metavar="VENDOR",
    order=30,
)
VSAN_OPTION = ExportOption(
    "vsan",
    VSAN_RANGE[0],
    "--vsan",
    "Cisco zoning: the VSAN number, 1-4094 (default 1)",
    parse=int,
    default_note="note: VSAN 1 (the default VSAN); give --vsan N for another",
    question="VSAN number (1-4094)",
)


def _zoning_writer(vendor: str):
    def write(source: ExportSource, path: str, *, options: dict[str, Any], progress: Progress) -> list[Written]:
        """The zoning scripts of ``vendor``, one file per fabric (see :func:`write_zoning`)."""
        progress(0.0, "writing the zoning scripts")
        out = []
        for name, plan in write_zoning(source.topology, vendor, path, options.get("vsan", VSAN_RANGE[0])):
            skipped = f", {len(plan.skipped)} left out (see the comments)" if plan.skipped else ""
            out.append(
                Written(name, f": fabric {plan.name}, {len(plan.aliases)} aliases, {len(plan.zones)} zones{skipped}")
            )
        return out

    return write


register(
    ExportFormat(
        id="zoning-brocade",
        title="Zoning script: &Brocade...",
        file_filter="Text (*.txt)",
        extension=".txt",
        write=_zoning_writer("brocade"),
        check=lambda source: zoning_problem(source.topology),
        cli=ZONING_FLAG,
        cli_choice="brocade",
        group="files",
        order=20,
    )
)
register(
    ExportFormat(
        id="zoning-cisco",
        title="Zoning script: &Cisco MDS...",
        file_filter="Text (*.txt)",
        extension=".txt",
        write=_zoning_writer("cisco"),
        check=lambda source: zoning_problem(source.topology),
        cli=ZONING_FLAG,
        cli_choice="cisco",
        options=(VSAN_OPTION,),
        group="files",
        order=21,
    )
)
