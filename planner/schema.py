"""One description per component kind: the single table everything else reads.

For every kind of component a design holds, :data:`KINDS` gives a :class:`KindSpec`: its
attributes (validator, default, display label), its display name, the JSON collection that
holds it, the kinds it may sit inside, its place on the data path (``hop``) and in utilization
charts (``chart``), the diagram column it heads, whether it collapses on the canvas, whether a
catalog part attaches to it and which part figures the analysis reads from that part, whether it
is made together with its parent (``structural``), the fill colour of its canvas box and the
context that makes its label unambiguous (used by :mod:`planner.naming`).

The file format, the layout, the analysis, the rules, the canvas, the inspector, the palette, the
charts and the build sheet all read this table; none keeps a private kind table
(``tests/planner/test_schema.py`` checks it). Adding a kind means adding one entry here.
No Qt.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from planner.values import (  # noqa: F401  (re-exported: the schema's value types and checks)
    _INVISIBLE,
    _WWPN_RE,
    AIX_LEVELS,
    CABLE_MEDIA,
    FC_SPEEDS_GBPS,
    LTG_SIZES_KB,
    MAX_MESSAGE,
    MAX_NAME,
    MULTIPATH_DRIVERS,
    RAID_LEVELS,
    STRIPE_SIZES_KB,
    VG_TYPES,
    WORKLOAD_PURPOSES,
    Attr,
    ModelError,
    _bool,
    _choice,
    _number,
    _power_of_two,
    _ref,
    _ref_shape,
    _refs,
    _refs_shape,
    _text,
    _wwpn_or_empty,
    name_problem,
    normalize_wwpn,
    text_problem,
    wwpn_problem,
)


@dataclass(frozen=True)
class KindSpec:
    """Everything the program knows about one component kind (see the module docstring)."""

    kind: str
    name: str  # display name, singular: "RIO2 link"
    plural: str
    collection: str  # JSON collection: "rio_links"
    parents: tuple[str | None, ...]  # kinds it may sit inside; None: at the top level
    attrs: dict[str, Attr]
    hop: int | None = None  # position on the data path (host to disk); None: not a hop
    chart: int | None = None  # position in utilization charts (from the adapter outwards)
    column_width: float | None = None  # it heads a diagram column this wide on screen (points)
    pdf_width: float | None = None  # ... and this wide in the build sheet's diagrams
    collapses: bool = False  # shown as one box when collapsed
    part_kind: bool = False  # a catalog part attaches to it
    figures_read: tuple[str, ...] = ()  # part figures the analysis reads from that part
    duplex: bool = False  # Fibre Channel: reads and writes have separate capacities [P690 step 1]
    structural: bool = False  # made together with its parent; not added or deleted alone
    on_path: bool = False  # lies on a data path (path highlighting, the inspector's path view)
    port: bool = False  # a Fibre Channel port a cable ends at
    counted: bool = False  # counted in a design's size summary ("7 drawers, 112 HBAs, ...")
    fill: str | None = None  # canvas box fill
    context: tuple[str, tuple[str, ...]] | None = None  # (joiner, ancestor kinds) for labels
    prefix: str | None = None  # the ancestor kind whose name is shown before its own: "sw1 port 3"

    @property
    def root(self) -> bool:
        return None in self.parents


def _k(
    kind: str, name: str, parents: tuple[str | None, ...], attrs: dict[str, Attr], plural: str = "", **more: Any
) -> KindSpec:
    return KindSpec(
        kind, name, plural or name + "s", kind + ("es" if kind.endswith("h") else "s"), parents, attrs, **more
    )


_INDEX = "Index"
_WWPN = Attr(_wwpn_or_empty, "", label="WWPN")
# Owned by the component: a placed part seeds these, then they are the unit's own configured
# values (a 2 Gbps port set to 1 Gbps, the cache a subsystem was ordered with). The analysis reads
# capacities from the part's figures (``Topology.parts``); a port's configured speed is used only
# when its part gives no figure (an estimate: 1 Gbps ~ 100 MB/s).
_OWNED = "set from the part when placed; afterwards the component's own configured value"
_SPEED = Attr(_choice(*FC_SPEEDS_GBPS), 2, label="Speed (Gbps)", doc="configured port speed; " + _OWNED)
_PH = Attr(_bool, False, label="WWPN is a placeholder", doc="made up by SANplan; cleared when the user enters one")
_FC_PORT = {"wwpn": _WWPN, "speed_gbps": _SPEED, "wwpn_placeholder": _PH}  # build sheet, zoning mark placeholders
# Where a rackable unit sits (issue 12; heights and the rules in planner/placement.py)
RACK_FACES = ("front", "rear")
_PLACED = {
    "rack": _ref("rack", label="Rack", doc="the rack (or server frame) it is mounted in; empty = not placed"),
    "u": Attr(_number(0, 60, True), 0, label="Rack unit (U)", doc="lowest rack unit it occupies; 0 = not placed"),
    "face": Attr(_choice(*RACK_FACES), "front", label="Face", doc="the rack face it is mounted from"),
}
_SITE = {"description": Attr(_text(), "", label="Description"), "address": Attr(_text(), "", label="Address")}
_RACK = {
    "height_u": Attr(_number(1, 60, True), 42, label="Height (U)"),
    "row": Attr(_text(40), "", label="Row"),
    "position": Attr(_number(0, 999, True), 1, label="Position in row"),
    "width_mm": Attr(_number(100, 2000), 600, label="Width (mm)"),
    "frame_of": _ref("server", "subsystem", label="Frame of", doc="the unit whose own frame this rack is"),
    "frame": Attr(_number(0, 9, True), 0, label="Frame number", doc="U1, U2 in location codes; 0 = not a frame"),
}

#: kind -> its description, in the order of the JSON document and of every listing
KINDS: dict[str, KindSpec] = {
    s.kind: s
    for s in (
        _k(
            "server",
            "server",
            (None,),
            {"model": Attr(_text(), "", label="Model", doc="machine type as ordered; " + _OWNED), **_PLACED},
            hop=0,
            chart=5,
            column_width=110,
            pdf_width=58,
            part_kind=True,
            figures_read=("system",),
            on_path=True,
            fill="#e1e8f5",
        ),
        _k(
            "lpar",
            "LPAR",
            ("server",),
            {
                "multipath": Attr(
                    _choice(*MULTIPATH_DRIVERS), "RDAC", doc="host multipath driver", label="Multipath driver"
                ),
                "aix_level": Attr(_choice(*AIX_LEVELS), "5.2", label="AIX level"),
                "cpus": Attr(_number(1, 1024, integer=True), 32, label="CPUs"),
                "memory_gb": Attr(_number(0, 65536), 256, label="Memory (GB)"),
            },
        ),
        _k(
            "drawer",
            "drawer",
            ("server",),
            {
                "location": Attr(_text(40), "", label="Location"),
                "index": Attr(_number(0, 64, True), 1, label=_INDEX),
                **_PLACED,
            },
            hop=1,
            chart=4,
            column_width=90,
            pdf_width=72,
            collapses=True,
            part_kind=True,
            figures_read=("drawer", "planar", "rio_link0", "rio_link1", "phb"),
            on_path=True,
            fill="#e8eefa",
            counted=True,
        ),
        _k(
            "planar",
            "planar",
            ("drawer",),
            {"index": Attr(_number(0, 8, integer=True), 0, label=_INDEX)},
            hop=2,
            chart=3,
            column_width=70,
            pdf_width=52,
            structural=True,
            on_path=True,
            fill="#eef2fc",
            context=(" of ", ("drawer",)),
        ),
        _k(
            "rio_link",
            "RIO2 link",
            ("planar",),
            {"index": Attr(_number(0, 8, integer=True), 0, label=_INDEX)},
            hop=3,
            chart=2,
            column_width=60,
            pdf_width=44,
            structural=True,
            on_path=True,
            fill="#f0f4fc",
            context=(" of ", ("planar", "drawer")),
        ),
        _k(
            "phb",
            "PHB",
            ("rio_link",),
            {
                "index": Attr(_number(1, 8, integer=True), 1, doc="PHB number within the planar", label=_INDEX),
                "drawer_phb": Attr(
                    _number(1, 16, integer=True), 1, doc="PHB number across the drawer", label="Drawer-wide PHB"
                ),
            },
            hop=4,
            chart=1,
            column_width=118,
            pdf_width=84,
            structural=True,
            on_path=True,
            fill="#f3f6fd",
            context=(" of ", ("drawer",)),
        ),
        _k(
            "slot",
            "slot",
            ("phb",),
            {"number": Attr(_number(1, 64, integer=True), 1, label="Number")},
            column_width=150,
            pdf_width=96,
            structural=True,
            on_path=True,
            fill="#fafbff",
            context=(" of ", ("drawer",)),
        ),
        _k(
            "hba",
            "HBA",
            ("slot",),
            {"lpar": _ref("lpar", doc="the partition that owns the adapter", label="LPAR")},
            hop=5,
            duplex=True,
            chart=0,
            part_kind=True,
            figures_read=("hba",),
            on_path=True,
            context=(" in ", ("slot", "drawer")),
            counted=True,
        ),
        _k(
            "hba_port",
            "HBA port",
            ("hba",),
            {"index": Attr(_number(0, 8, True), 0, label=_INDEX), **_FC_PORT},
            structural=True,
            on_path=True,
            port=True,
            context=(" in ", ("slot", "drawer")),
            prefix="hba",
        ),
        _k("fabric", "fabric", (None,), {}),
        _k(
            "switch",
            "switch",
            (None,),
            {
                "fabric": _ref("fabric", label="Fabric"),
                "domain_id": Attr(_number(1, 239, True), 1, label="Domain ID"),
                **_PLACED,
            },
            column_width=150,
            pdf_width=122,
            collapses=True,
            part_kind=True,
            figures_read=("switch_port", "asic", "backplane"),
            fill="#ecf6ee",
            plural="switches",
            counted=True,
        ),
        _k(
            "asic",
            "ASIC",
            ("switch",),
            {"index": Attr(_number(0, 64, integer=True), 0, label=_INDEX)},
            hop=7,
            duplex=True,
            chart=7,
            structural=True,
            on_path=True,
            fill="#f4faf5",
            context=(" of ", ("switch",)),
        ),
        _k(
            "backplane",
            "backplane",
            ("switch",),
            {},
            hop=8,
            duplex=True,
            chart=8,
            structural=True,
            on_path=True,
            context=(" of ", ("switch",)),
            prefix="switch",
        ),
        _k(
            "switch_port",
            "switch port",
            ("asic",),
            {"index": Attr(_number(0, 511, integer=True), 0, label=_INDEX), "speed_gbps": _SPEED},
            hop=6,
            duplex=True,
            chart=6,
            structural=True,
            on_path=True,
            port=True,
            fill="#fcfffc",
            context=(" of ", ("switch",)),
            prefix="switch",
        ),
        _k(
            "subsystem",
            "subsystem",
            (None,),
            {"cache_mb": Attr(_number(0, 1 << 20), 0, label="Cache (MB)", doc="installed cache; " + _OWNED), **_PLACED},
            hop=11,
            chart=10,
            column_width=150,
            pdf_width=104,
            collapses=True,
            part_kind=True,
            figures_read=("subsystem", "subsystem_cache", "controller", "host_port"),
            on_path=True,
            fill="#faf2e6",
            counted=True,
        ),
        _k(
            "controller",
            "controller",
            ("subsystem",),
            {"slot_name": Attr(_choice("A", "B", "C", "D"), "A", label="Controller slot")},
            hop=10,
            structural=True,
            on_path=True,
            fill="#fcf7ee",
            context=(" of ", ("subsystem",)),
            prefix="subsystem",
        ),
        _k(
            "host_port",
            "host port",
            ("controller",),
            {"index": Attr(_number(0, 32, True), 1, label=_INDEX), **_FC_PORT},
            hop=9,
            duplex=True,
            chart=9,
            structural=True,
            on_path=True,
            port=True,
            fill="#fffcf6",
            context=(" of ", ("subsystem",)),
            prefix="subsystem",
        ),
        _k(
            "enclosure",
            "enclosure",
            ("subsystem",),
            {"index": Attr(_number(0, 64, integer=True), 0, label=_INDEX), **_PLACED},
            part_kind=True,
            context=(" of ", ("subsystem",)),
            prefix="subsystem",
        ),
        _k(
            "drive",
            "drive",
            ("enclosure",),
            {"bay": Attr(_number(1, 64, integer=True), 1, label="Bay")},
            part_kind=True,
            context=(" of ", ("enclosure", "subsystem")),
        ),
        _k(
            "array",
            "array",
            ("subsystem",),
            {
                "raid_level": Attr(_choice(*RAID_LEVELS), 5, label="RAID level"),
                "drives": _refs("drive", label="Drives"),
                "segment_kb": Attr(_number(1, 4096, integer=True), 128, label="Segment size (KB)"),
            },
            hop=12,
            chart=11,
            column_width=150,
            pdf_width=184,
            on_path=True,
            fill="#f6eefa",
            context=(" on ", ("subsystem",)),
            counted=True,
        ),
        _k(
            "logical_drive",
            "logical drive",
            ("array",),
            {
                "size_gb": Attr(_number(0, 1 << 24), 0, label="Size (GB)"),
                "owner": _ref("controller", doc="preferred owning controller", label="Owner (preferred controller)"),
                "lun": Attr(_number(0, 255, integer=True), 0, label="LUN"),
            },
            on_path=True,
            fill="#fbf7fd",
            context=(" on ", ("subsystem",)),
        ),
        _k(
            "host_mapping",
            "host mapping",
            ("subsystem",),
            {
                "hba_ports": _refs("hba_port", label="HBA ports"),
                "logical_drives": _refs("logical_drive", label="Logical drives"),
            },
            context=(" on ", ("subsystem",)),
        ),
        _k(
            "hdisk",
            "hdisk",
            ("lpar",),
            {
                "logical_drive": _ref("logical_drive", label="Logical drive"),
                "max_transfer_kb": Attr(_number(4, 65536, True), 256, label="max_transfer (KB)"),
            },
            context=(" on ", ("lpar",)),
        ),
        _k(
            "volume_group",
            "volume group",
            ("lpar",),
            {
                "vg_type": Attr(_choice(*VG_TYPES), "normal", label="VG type"),
                "ltg_kb": Attr(_choice(*LTG_SIZES_KB), 128, label="LTG (KB)"),
                "pp_mb": Attr(_power_of_two(1, 131072), 64, label="PP size (MB)"),
                "pvs": _refs("hdisk", label="Physical volumes"),
            },
            column_width=170,
            pdf_width=168,
            collapses=True,
            fill="#eef6fa",
            context=(" on ", ("lpar",)),
        ),
        _k(
            "logical_volume",
            "logical volume",
            ("volume_group",),
            {
                "stripe_kb": Attr(_choice(0, *STRIPE_SIZES_KB), 0, doc="0 = not striped", label="Stripe size (KB)"),
                "width": Attr(_number(0, 1024, integer=True), 0, label="Width"),
                "size_gb": Attr(_number(0, 1 << 24), 0, label="Size (GB)"),
            },
            fill="#f6fbfd",
            context=(" in ", ("volume_group",)),
        ),
        _k(
            "workload",
            "workload",
            ("logical_volume",),
            {
                "purpose": Attr(_choice(*WORKLOAD_PURPOSES), "data", label="Purpose"),
                "request_kb": Attr(_number(0.5, 1 << 20), 1024, label="Request size (KB)"),
                "read_pct": Attr(_number(0, 100), 100, label="Reads (%)"),
                "direct_io": Attr(_bool, False, label="Direct I/O"),
                "platform": Attr(_choice("aix", "windows", "solaris"), "aix", label="Platform"),
                "bufsize_kb": Attr(_number(0, 1 << 20), 0, doc="SAS BUFSIZE; 0 = unknown", label="SAS BUFSIZE (KB)"),
                "bufno": Attr(_number(0, 100000, integer=True), 0, doc="SAS BUFNO; 0 = unknown", label="SAS BUFNO"),
                "target_mbps": Attr(
                    _number(0, 1 << 20),
                    0,
                    doc="throughput the workload needs, reads and writes together (MB/s); 0 = no target",
                    label="Target (MB/s)",
                ),
            },
            context=(" on ", ("logical_volume",)),
        ),
        _k(
            "cable",
            "cable",
            (None,),
            {
                "a": _ref("hba_port", "switch_port", "host_port", label="End A"),
                "b": _ref("hba_port", "switch_port", "host_port", label="End B"),
                "label": Attr(_text(64), "", label="Label"),
                "length_m": Attr(_number(0, 100000), 0, label="Length (m)"),
                "media": Attr(_choice(*CABLE_MEDIA), "LC-LC OM2", label="Media"),
            },
            on_path=True,
            counted=True,
        ),
        _k(
            "zone",
            "zone",
            ("fabric",),
            {"members": _refs("hba_port", "host_port", label="Members")},
            context=(" in ", ("fabric",)),
            counted=True,
        ),
        _k("site", "site", (None,), _SITE),
        _k("rack", "rack", ("site",), _RACK, context=(" in ", ("site",))),
    )
}

# -- questions about kinds ---------------------------------------------------------------------


def spec(kind: str) -> KindSpec:
    """The description of ``kind``; raises ModelError for an unknown kind."""
    try:
        return KINDS[kind]
    except KeyError:
        raise ModelError(f"unknown component kind {kind!r}") from None


def kind_name(kind: str) -> str:
    """How the user reads the kind: 'RIO2 link', 'PHB', 'logical drive'."""
    got = KINDS.get(kind)
    return got.name if got else kind.replace("_", " ")


def count_label(n: int, kind: str) -> str:
    """'1 HBA', '3 HBAs', '2 switches'."""
    got = KINDS.get(kind)
    if got is None:
        return f"{n} {kind_name(kind)}" + ("" if n == 1 else "s")
    return f"{n} {got.name if n == 1 else got.plural}"


_ATTR_LABELS = {key: a.label for s in reversed(KINDS.values()) for key, a in s.attrs.items() if a.label}


def attr_label(key: str) -> str:
    """How forms and tables name an attribute: 'Segment size (KB)'."""
    return _ATTR_LABELS.get(key) or key.replace("_", " ").capitalize()


def collection(kind: str) -> str:
    """The JSON collection that holds ``kind``."""
    return spec(kind).collection


_BY_COLLECTION = {s.collection: s.kind for s in KINDS.values()}


def kind_of_collection(name: str) -> str | None:
    """The kind a JSON collection holds, or None for an unknown collection."""
    return _BY_COLLECTION.get(name)


def _ordered(field: str) -> tuple[str, ...]:
    ranked = [(getattr(s, field), s.kind) for s in KINDS.values() if getattr(s, field) is not None]
    return tuple(k for _, k in sorted(ranked))


def _where(flag: str) -> tuple[str, ...]:
    return tuple(s.kind for s in KINDS.values() if getattr(s, flag))


def hop_kinds() -> tuple[str, ...]:
    """Kinds that are hops of a data path, from the host to the disks."""
    return _HOPS


def chart_kinds() -> tuple[str, ...]:
    """Kinds charted by utilization, from the adapter outwards."""
    return _CHARTS


def diagram_columns() -> tuple[str, ...]:
    """Kinds that head a diagram column, left to right."""
    return _COLUMNS


def part_kinds() -> tuple[str, ...]:
    return _PART_KINDS


def collapsible_kinds() -> tuple[str, ...]:
    return _COLLAPSIBLE


def structural_kinds() -> frozenset[str]:
    return _STRUCTURAL


def on_path_kinds() -> frozenset[str]:
    return _ON_PATH


def counted_kinds() -> tuple[str, ...]:
    """Kinds a design's size summary counts ("7 drawers, 112 HBAs, ...")."""
    return _where("counted")


_HOPS = _ordered("hop")
_CHARTS = _ordered("chart")
_COLUMNS = tuple(s.kind for s in KINDS.values() if s.column_width is not None)
_PART_KINDS = _where("part_kind")
_COLLAPSIBLE = _where("collapses")
_STRUCTURAL = frozenset(_where("structural"))
_ON_PATH = frozenset(_where("on_path"))
#: Fibre Channel ports, the kinds a cable ends at
PORT_KINDS = _where("port")


def default_attrs(kind: str) -> dict[str, Any]:
    return {name: a.default for name, a in spec(kind).attrs.items()}


def check_attr(kind: str, name: str, value: Any) -> Any:
    """Validate one attribute value for a kind; return it normalised or raise ModelError."""
    attrs = spec(kind).attrs
    if name not in attrs:
        raise ModelError(f"a {kind_name(kind)} has no attribute {name!r} (it has: {', '.join(attrs) or 'none'})")
    try:
        return attrs[name].check(value)
    except ModelError as err:
        raise ModelError(f"{kind} {name}: {err}") from None
