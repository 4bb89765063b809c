"""Zoning scripts: the zones of a design as ready-to-paste Brocade Fabric OS or Cisco MDS NX-OS
commands, one script per fabric (syntax: DOMAIN.md §5). Registers the export formats
``zoning-brocade`` and ``zoning-cisco`` (``sanplan export --zoning VENDOR OUT``).

Safety: a zoning script is pasted into a switch shell (the FOS CLI is a restricted bash shell, so
``$(...)``, backticks and ``;`` would be interpreted even inside double quotes). No user text
reaches a script raw: every generated name is mapped by :func:`safe_name` to
``[A-Za-z][A-Za-z0-9_]{0,63}`` (valid for both vendors), every WWPN is checked with
:func:`planner.model.wwpn_problem`, and comment lines hold only such names and fixed words.
A zone member without a valid WWPN is left out with a comment saying so, and a zone left with
fewer than two members is left out (never a one-member zone enabled); ``sanplan check`` reports
those ports with the rules WWPN_INVALID and WWPN_DUPLICATE.

Paste-safety: the only command that asks for confirmation (Fabric OS cfgenable, or cfgsave in a
back-out of mode replace: ``(yes, y, no, n): [no]``) is the script's last line, so no pasted line
can answer it; the header says to type y. Mode add (default) adds to the configuration in effect;
mode replace (a loud warning in the header) replaces it. Command forms: Fabric OS and MDS NX-OS
CLI references (as used by OpenStack Cinder's Brocade and Cisco zone drivers).
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from planner.exports.output import ExportError, write_texts
from planner.exports.registry import CliFlag, ExportFormat, ExportOption, ExportSource, Progress, Written, register
from planner.model import Component, Topology, wwpn_problem
from planner.naming import short_label

VENDORS = ("brocade", "cisco")
NAME_MAX = 64
NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}")


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


def zone_name_text(aliases: list[str]) -> str:
    """``Z_LPAR1_FCS0_FASTT1_A1``: the one scheme for zone names, ``Z_`` and the aliases of the
    members joined by ``_`` (pass through :func:`safe_name` for the 64-character limit)."""
    return "_".join(["Z", *aliases])


# -- zoning ----------------------------------------------------------------------------------------


@dataclass
class Alias:
    name: str
    wwpn: str
    port: str  # component id of the HBA or host port
    placeholder: bool = False  # the WWPN is one SANplan made up (the port's wwpn_placeholder)


@dataclass
class ZoneEntry:
    name: str  # the name used in the scripts (:func:`zone_name_text` of the members)
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
    with a valid WWPN, zones named from their member aliases (:func:`zone_name_text`), the
    configuration name, and notes on what was left out (members without a valid WWPN, WWPNs used
    twice, zones left with fewer than two members: never a one-member zone).
    Names are unique within a fabric across aliases, zones and the configuration.
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
    plan = FabricZoning(fabric.id, name, short_label(fabric), "")
    candidates = _alias_candidates(topo, zones, taken)
    used: dict[str, Alias] = {}
    for zone in zones:
        members: list[Alias] = []
        shown = safe_name(short_label(zone), "Z")
        notes: list[tuple[str, str]] = []
        for mid in dict.fromkeys(zone["members"]):
            alias = candidates.get(mid, _NOT_A_PORT)
            if isinstance(alias, Alias):
                members.append(alias)
            else:
                notes.append(alias)
        if len(members) < 2:
            plan.skipped += [f"{who} left out of zone {shown}: {why}" for who, why in notes]
            rest = f"only {members[0].name} has" if members else "no member has"
            plan.skipped.append(f"zone {shown} left out: {rest} a valid WWPN (a zone needs two members)")
            continue
        zname = safe_name(zone_name_text([a.name for a in members]), "Z", taken)
        plan.skipped += [f"{who} left out of zone {zname}: {why}" for who, why in notes]
        plan.zones.append(ZoneEntry(zname, short_label(zone), zone.id, [a.name for a in members]))
        for a in members:
            used.setdefault(a.port, a)
    plan.aliases = list(used.values())
    plan.config = safe_name(f"CFG_{name}", "CFG", taken)
    return plan


_NOT_A_PORT = ("a member", "it is not an HBA or storage port of the design")


def _alias_candidates(topo: Topology, zones: list[Component], taken: set[str]) -> dict[str, Alias | tuple[str, str]]:
    """{member id: its Alias, or (its name, why it is left out)}, in first-use order."""
    out: dict[str, Alias | tuple[str, str]] = {}
    by_wwpn: dict[str, Alias] = {}
    for zone in zones:
        for mid in zone["members"]:
            if mid in out:
                continue
            port = topo.get(mid)
            if port is None or port.kind not in ("hba_port", "host_port"):
                out[mid] = _NOT_A_PORT
                continue
            shown = safe_name(alias_text(topo, port), "A")
            wwpn = port["wwpn"] or ""
            if not wwpn or wwpn_problem(wwpn):
                out[mid] = (shown, "it has no WWPN" if not wwpn else "its WWPN is not valid")
            elif wwpn in by_wwpn:
                out[mid] = (shown, f"it has the same WWPN as {by_wwpn[wwpn].name}")
            else:
                out[mid] = by_wwpn[wwpn] = Alias(
                    safe_name(alias_text(topo, port), "A", taken), wwpn, port.id, bool(port.get("wwpn_placeholder"))
                )
    return out


# -- script options and the switches of a fabric -------------------------------------------------------

MODES = ("add", "replace")
VSAN_RANGE = (1, 4093)  # Cisco MDS: VSAN 1 is the default VSAN (warned), 4094 the isolated one (refused)
ISOLATED_VSAN = 4094
OS_NAMES = {"fabric-os": "Brocade Fabric OS", "nx-os": "Cisco MDS NX-OS"}
VENDOR_OS = {"brocade": "fabric-os", "cisco": "nx-os"}


@dataclass(frozen=True)
class ScriptOptions:
    """How the scripts change the fabric: ``mode`` add (to the configuration in effect, named
    ``config``) or replace (a new configuration), the VSAN (Cisco), and the Cisco ``vsan database``
    block for the switch ports of the zoned devices (``vsan_ports``)."""

    vsan: int = 1
    mode: str = "add"
    config: str = ""  # '' = each fabric's generated name (CFG_<fabric>)
    vsan_ports: bool = False

    def check(self) -> None:
        """Raise ExportError naming the bad option and the fix."""
        vsan = self.vsan
        if isinstance(vsan, bool) or not isinstance(vsan, int) or not 1 <= vsan <= ISOLATED_VSAN:
            raise ExportError(
                f"VSAN must be a whole number from 2 to {VSAN_RANGE[1]} (1 is the default VSAN), not {vsan!r}"
            )
        if vsan == ISOLATED_VSAN:
            raise ExportError(
                f"VSAN {ISOLATED_VSAN} is the isolated VSAN of Cisco MDS switches: its ports carry no traffic. "
                f"Give the fabric's VSAN, 2-{VSAN_RANGE[1]} (--vsan N)"
            )
        if self.mode not in MODES:
            raise ExportError(f"zoning mode must be {' or '.join(MODES)}, not {self.mode!r}")
        if self.config and not NAME_RE.fullmatch(self.config):
            raise ExportError(
                f"configuration name {self.config!r} must be 1-64 letters, digits or _, starting with a letter "
                "(the name cfgactvshow or show zoneset active shows)"
            )


def switch_os(part: dict[str, Any] | None) -> str:
    """'fabric-os', 'nx-os' or '' (unknown): the part's ``switch_os``, else guessed from its vendor."""
    if not part:
        return ""
    if part.get("switch_os") in OS_NAMES:
        return str(part["switch_os"])
    vendor = f"{part.get('vendor', '')} {part.get('name', '')}".lower()
    return "fabric-os" if "brocade" in vendor else "nx-os" if "cisco" in vendor else ""


def fabric_switches(topo: Topology, fabric: str) -> list[Component]:
    return [s for s in topo.of_kind("switch") if s["fabric"] == fabric]


def port_name(topo: Topology, port: Component) -> str | None:
    """The switch port's name on the switch: ``fc1/N`` (N = index + 1) when the switch part says
    ``port_names = "fc1/N"``; None when the part names ports otherwise (Fabric OS port numbers)."""
    switch = topo.ancestor(port.id, "switch")
    part = topo.part_of(switch) if switch is not None else None
    if part and part.get("port_names") == "fc1/N":
        return f"fc1/{int(port['index']) + 1}"
    return None


def _vendor_notes(topo: Topology, plan: FabricZoning, vendor: str, mark: str) -> list[str]:
    """A NOTE when the fabric's switches run another switch OS than the script's."""
    want = VENDOR_OS[vendor]
    other: dict[str, list[str]] = {}
    for sw in fabric_switches(topo, plan.fabric):
        os_name = switch_os(topo.part_of(sw))
        if os_name and os_name != want:
            other.setdefault(os_name, []).append(safe_name(short_label(sw), "SW"))
    lines = []
    for os_name, names in other.items():
        flag = next(v for v, o in VENDOR_OS.items() if o == os_name)
        lines += [
            f"{mark} NOTE: the switches of this fabric ({', '.join(names)}) run {OS_NAMES[os_name]}, not",
            f"{mark}   {OS_NAMES[want]}: this script does not run on them. Export with --zoning {flag}.",
        ]
    return lines


@dataclass
class _Script:
    topo: Topology
    plan: FabricZoning
    design: str
    opts: ScriptOptions

    @property
    def config(self) -> str:
        return self.opts.config or self.plan.config

    def head(self, mark: str, what: str, config_word: str, backout: bool) -> list[str]:
        p = self.plan
        kind = "BACK-OUT script" if backout else "zoning"
        return [
            f"{mark} SANplan {kind} for fabric {p.name} of design {self.design} ({what})",
            f"{mark} {len(p.aliases)} aliases, {len(p.zones)} zones, {config_word} {self.config}, mode {self.opts.mode}",
            *_placeholder_note(p, mark),
            *_vendor_notes(self.topo, p, "brocade" if mark == "#" else "cisco", mark),
            *[f"{mark} skipped: {note}" for note in p.skipped],
        ]


def _placeholder_note(p: FabricZoning, mark: str) -> list[str]:
    """The header line counting the aliases whose WWPN is a placeholder (none: no line)."""
    n = sum(1 for a in p.aliases if a.placeholder)
    if not n:
        return []
    return [
        f"{mark} PLACEHOLDER WWPNs: {n} of the {len(p.aliases)} aliases {'has a WWPN' if n == 1 else 'have WWPNs'} "
        "made up by SANplan (marked below); replace with the real WWPNs before pasting"
    ]


def _alias_lines(aliases: list[Alias], command: Callable[[Alias], str], comment: str) -> list[str]:
    """One command per alias, each alias with a placeholder WWPN followed by ``comment``."""
    out = []
    for a in aliases:
        out.append(command(a))
        if a.placeholder:
            out.append(comment)
    return out


# -- Brocade Fabric OS -------------------------------------------------------------------------------


_FOS_PROMPT = "(yes, y, no, n): [no]"
PLACEHOLDER_COMMENT = "%s placeholder WWPN above: made up by SANplan, replace it with the real one"


def _brocade_mode_text(s: _Script) -> list[str]:
    cfg = s.config
    if s.opts.mode == "replace":
        return [
            "# WARNING - REPLACE MODE: cfgenable makes the new configuration " + cfg + " the ONLY one in",
            "#   effect. EVERY ZONE NOT IN THIS SCRIPT STOPS WORKING: hosts lose their disks. Use mode add",
            "#   to keep the zones in effect. cfgcreate fails if " + cfg + " already exists.",
        ]
    return [
        f"# MODE add: adds the aliases and zones below to the configuration {cfg} and enables it; the",
        "#   zones already in it keep working. " + cfg + " must be the configuration in effect: check",
        "#   with cfgactvshow (Effective configuration: cfg: NAME). If NAME differs, export again with",
        "#   --config NAME. If it does not exist, cfgadd fails and nothing is enabled.",
    ]


def _brocade_paste_text(last: str) -> list[str]:
    return [
        f"# HOW TO PASTE: paste the whole script at once. Only the last command, {last}, asks for",
        f"#   confirmation: it prints {_FOS_PROMPT} and waits. Type y and press Enter.",
        "#   Nothing is pasted after it, so no pasted line can answer the question.",
    ]


def _brocade(s: _Script) -> list[str]:
    p, cfg = s.plan, s.config
    lines = s.head("#", "Brocade Fabric OS", "configuration", False) + _brocade_mode_text(s)
    if not p.zones:
        return lines + ["# no zone has two members with a valid WWPN: nothing to enable"]
    lines += _brocade_paste_text("cfgenable")
    lines.append("#   cfgenable also saves the configuration to flash: no cfgsave is needed.")
    lines += _alias_lines(p.aliases, lambda a: f'alicreate "{a.name}", "{a.wwpn}"', PLACEHOLDER_COMMENT % "#")
    lines += [f'zonecreate "{z.name}", "{";".join(z.members)}"' for z in p.zones]
    zones = [z.name for z in p.zones]
    if s.opts.mode == "replace":
        lines.append(f'cfgcreate "{cfg}", "{zones.pop(0)}"')
    lines += [f'cfgadd "{cfg}", "{z}"' for z in zones]
    return lines + [f'cfgenable "{cfg}"']


def _brocade_backout(s: _Script) -> list[str]:
    p, cfg = s.plan, s.config
    lines = s.head("#", "Brocade Fabric OS", "configuration", True)
    lines.append("# Undoes exactly what the zoning script of the same options adds: its zones, its aliases.")
    if not p.zones:
        return lines + ["# the zoning script adds nothing: nothing to undo"]
    if s.opts.mode == "replace":
        lines += [
            f"# FIRST enable the configuration that was in effect before (cfgenable NAME, type y): {cfg}",
            "#   is deleted here and cannot stay in effect.",
        ]
        lines += _brocade_paste_text("cfgsave")
        body = [f'cfgdelete "{cfg}"']
    else:
        lines += _brocade_paste_text("cfgenable")
        body = [f'cfgremove "{cfg}", "{z.name}"' for z in p.zones]
    body += [f'zonedelete "{z.name}"' for z in p.zones]
    body += [f'alidelete "{a.name}"' for a in p.aliases]
    return lines + body + (["cfgsave"] if s.opts.mode == "replace" else [f'cfgenable "{cfg}"'])


# -- Cisco MDS NX-OS --------------------------------------------------------------------------------


def _cisco_head(s: _Script, backout: bool) -> list[str]:
    vsan, cfg = s.opts.vsan, s.config
    lines = s.head("!", f"Cisco MDS NX-OS, VSAN {vsan}", "zone set", backout)
    if vsan == 1:
        lines.append("! VSAN 1 is the default VSAN; export with --vsan N if the fabric uses another VSAN")
    if s.opts.mode == "replace":
        lines += [
            f"! WARNING - REPLACE MODE: zoneset activate makes the new zone set {cfg} the ONLY one active in",
            f"!   VSAN {vsan}. EVERY ZONE NOT IN THIS SCRIPT STOPS WORKING: hosts lose their disks.",
        ]
    elif backout:
        lines += [
            f"! MODE add: removes the zones the script added from the zone set {cfg} and activates it",
            "!   again; the other zones keep working.",
        ]
    else:
        lines += [
            f"! MODE add: adds the zones below to the zone set {cfg} and activates it again; the zones",
            f"!   already in it keep working. CHECK FIRST: show zoneset active vsan {vsan} must name zoneset {cfg}.",
            f"!   If it names another, export again with --config NAME: activating {cfg} would otherwise",
            "!   replace the zones in effect.",
        ]
    return lines + [
        "! Paste in EXEC mode on one switch of the fabric; no command asks for confirmation.",
        f"! zone commit vsan {vsan} ends the change in enhanced zoning mode (it releases the fabric lock);",
        "!   in basic zoning mode the switch refuses that line, which is harmless.",
    ]


def _vsan_ports(s: _Script) -> list[str]:
    """The ``vsan database`` block: the switch ports cabled to the zoned devices, per switch."""
    by_switch: dict[str, list[str]] = {}
    for a in s.plan.aliases:
        peer = s.topo.peer_port(a.port)
        port = s.topo.get(peer) if peer else None
        sw = s.topo.ancestor(port.id, "switch") if port is not None else None
        if port is not None and sw is not None:
            by_switch.setdefault(sw.id, []).append(port_name(s.topo, port) or "")
    lines: list[str] = []
    for sw_id, names in by_switch.items():
        sw_name = safe_name(short_label(s.topo[sw_id]), "SW")
        if not all(names):
            lines.append(
                f"! switch {sw_name}: its part does not name ports fc1/N; put its ports in VSAN {s.opts.vsan} by hand"
            )
            continue
        lines += [
            f"! ports of switch {sw_name}: paste this block on {sw_name}",
            "vsan database",
            f"  vsan {s.opts.vsan}",
        ]
        lines += [f"  vsan {s.opts.vsan} interface {n}" for n in dict.fromkeys(names)]
        lines.append("exit")
    return lines


def _cisco(s: _Script) -> list[str]:
    p, vsan, cfg = s.plan, s.opts.vsan, s.config
    lines = _cisco_head(s, False)
    if not p.zones:
        return lines + ["! no zone has two members with a valid WWPN: nothing to activate"]
    lines += ["configure terminal"] + (_vsan_ports(s) if s.opts.vsan_ports else [])
    lines.append("device-alias database")
    lines += _alias_lines(p.aliases, lambda a: f"  device-alias name {a.name} pwwn {a.wwpn}", PLACEHOLDER_COMMENT % "!")
    lines += ["exit", "device-alias commit"]
    for z in p.zones:
        lines.append(f"zone name {z.name} vsan {vsan}")
        lines += [f"  member device-alias {m}" for m in z.members]
        lines.append("exit")
    lines.append(f"zoneset name {cfg} vsan {vsan}")
    lines += [f"  member {z.name}" for z in p.zones]
    lines += ["exit", f"zoneset activate name {cfg} vsan {vsan}", f"zone commit vsan {vsan}"]
    return lines + ["end", "copy running-config startup-config"]


def _cisco_backout(s: _Script) -> list[str]:
    p, vsan, cfg = s.plan, s.opts.vsan, s.config
    lines = _cisco_head(s, True)
    lines.append("! Undoes exactly what the zoning script of the same options adds: its zones, its device aliases.")
    if not p.zones:
        return lines + ["! the zoning script adds nothing: nothing to undo"]
    lines.append("configure terminal")
    if s.opts.mode == "replace":
        lines.insert(-1, f"! FIRST activate the zone set that was in effect before: {cfg} is deleted here.")
        lines.append(f"no zoneset name {cfg} vsan {vsan}")
    else:
        lines.append(f"zoneset name {cfg} vsan {vsan}")
        lines += [f"  no member {z.name}" for z in p.zones]
        lines.append("exit")
    lines += [f"no zone name {z.name} vsan {vsan}" for z in p.zones]
    if s.opts.mode == "add":
        lines.append(f"zoneset activate name {cfg} vsan {vsan}")
    lines += [f"zone commit vsan {vsan}", "device-alias database"]
    lines += [f"  no device-alias name {a.name}" for a in p.aliases]
    lines += ["exit", "device-alias commit", "end", "copy running-config startup-config"]
    return lines


# -- scripts and files ---------------------------------------------------------------------------------


def zoning_script(
    topo: Topology,
    vendor: str,
    vsan: int = 1,
    *,
    mode: str = "add",
    config: str = "",
    vsan_ports: bool = False,
    backout: bool = False,
) -> dict[str, str]:
    """Zoning scripts, one per fabric with zones: {fabric's safe name: script text}.

    ``vendor`` is ``"brocade"`` (Fabric OS: alicreate, zonecreate, cfgadd (mode add) or
    cfgcreate (mode replace), and cfgenable last, which saves; ``#`` comment lines) or ``"cisco"``
    (MDS NX-OS: device aliases, zones and the zone set in ``vsan``, activated, ``zone commit``,
    saved; ``!`` comments). With ``backout`` the script that undoes exactly what the zoning
    script of the same options adds. Output is deterministic (design order). Raises ExportError
    for an unknown vendor or mode, a bad configuration name or a VSAN outside 1-4093.
    """
    if vendor not in VENDORS:
        raise ExportError(f"zoning vendor must be {' or '.join(VENDORS)}, not {vendor!r}")
    opts = ScriptOptions(vsan, mode, config, vsan_ports)
    opts.check()
    design = safe_name(topo.meta.get("name", ""), "D")
    make = {
        ("brocade", False): _brocade,
        ("brocade", True): _brocade_backout,
        ("cisco", False): _cisco,
        ("cisco", True): _cisco_backout,
    }[vendor, backout]
    out: dict[str, str] = {}
    for plan in zoning_plan(topo):
        lines = make(_Script(topo, plan, design, opts))
        _check_script(lines)
        out[plan.name] = "\n".join(lines) + "\n"
    return out


_SAFE_LINE = re.compile(r'[#!A-Za-z0-9_ :;,.()\[\]"/-]*')


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
    topo: Topology, vendor: str, out: str | os.PathLike[str], vsan: int = 1, *, backout: bool = False, **options: Any
) -> list[tuple[str, FabricZoning]]:
    """Write one zoning script per fabric (``out`` itself when there is one fabric, else with the
    fabric name before the extension), and with ``backout`` the back-out scripts (``.backout``
    before the extension); ``options``: mode, config, vsan_ports of :func:`zoning_script`.
    Returns (path, plan) per file written. Raises ExportError when the design has no zones or a
    file cannot be written."""
    scripts = zoning_script(topo, vendor, vsan, **options)
    if not scripts:
        raise ExportError(zoning_problem(topo) or "no zones")
    plans = {p.name: p for p in zoning_plan(topo)}
    paths = {fabric: os.fspath(out) if len(scripts) == 1 else fabric_file_name(out, fabric) for fabric in scripts}
    texts = {paths[fabric]: text for fabric, text in scripts.items()}
    written = [(paths[fabric], plans[fabric]) for fabric in scripts]
    if backout:
        for fabric, text in zoning_script(topo, vendor, vsan, backout=True, **options).items():
            path = fabric_file_name(paths[fabric], "backout")
            texts[path] = text
            written.append((path, plans[fabric]))
    write_texts(texts)  # all fabrics or none
    return written


# -- the export formats --------------------------------------------------------------------------------

ZONING_FLAG = CliFlag(
    "--zoning",
    "write zoning scripts, brocade or cisco, one per fabric (OUT gets the fabric name when there are several)",
    choice_metavar="VENDOR",
    order=30,
)
MODE_OPTION = ExportOption(
    "mode",
    "add",
    "--mode",
    "zoning: add (default: cfgadd / zoneset member into the configuration in effect, named by --config) "
    "or replace (a new configuration replaces the one in effect: every other zone stops working)",
    choices=MODES,
    setting="zoning_mode",
    setting_title="Zoning script &mode",
    choice_titles={"add": "&Add to the configuration in effect", "replace": "&Replace the configuration in effect"},
)
CONFIG_OPTION = ExportOption(
    "config",
    "",
    "--config",
    "zoning: the name of the configuration / zone set in effect (cfgactvshow, show zoneset active); "
    "default CFG_<fabric>",
)
BACKOUT_OPTION = ExportOption(
    "backout",
    False,
    "--backout",
    "zoning: also write the back-out script that undoes exactly what the script adds (OUT with .backout)",
    setting="zoning_backout",
    setting_title="Zoning: also write a &back-out script",
)
VSAN_OPTION = ExportOption(
    "vsan",
    VSAN_RANGE[0],
    "--vsan",
    "Cisco zoning: the VSAN number, 2-4093 (default 1, the default VSAN; 4094 is refused)",
    parse=int,
    default_note="note: VSAN 1 (the default VSAN); give --vsan N for another",
    question="VSAN number (2-4093; 1 is the default VSAN)",
)
VSAN_PORTS_OPTION = ExportOption(
    "vsan_ports",
    False,
    "--vsan-ports",
    "Cisco zoning: also put the switch ports of the zoned devices in the VSAN (vsan database)",
    setting="zoning_vsan_ports",
    setting_title="Zoning (Cisco): also assign the &ports to the VSAN",
)


def _zoning_writer(vendor: str):
    def write(source: ExportSource, path: str, *, options: dict[str, Any], progress: Progress) -> list[Written]:
        """The zoning scripts of ``vendor``, one file per fabric (see :func:`write_zoning`)."""
        progress(0.0, "writing the zoning scripts")
        known = {k: v for k, v in options.items() if k in ("vsan", "mode", "config", "backout", "vsan_ports")}
        out = []
        for name, plan in write_zoning(source.topology, vendor, path, **known):
            if name.endswith(f".backout{os.path.splitext(name)[1]}"):
                out.append(Written(name, f": back-out script of fabric {plan.name}"))
                continue
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
        options=(MODE_OPTION, CONFIG_OPTION, BACKOUT_OPTION),
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
        options=(VSAN_OPTION, MODE_OPTION, CONFIG_OPTION, BACKOUT_OPTION, VSAN_PORTS_OPTION),
        group="files",
        order=21,
    )
)
