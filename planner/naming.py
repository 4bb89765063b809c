"""How a component is named to the user: one function for every view (no Qt).

:func:`label` is the one label with context that the findings, the paths table, the inspector,
the CLI and the build sheet show: the component's own name followed by the names of the ancestors
that make it unambiguous ("slot 3 of drawer 1", "LUN 0 on fastt1"). Which ancestors, and the
joining word, come from :attr:`planner.schema.KindSpec.context`. In a design of several servers
(or sites) the label also names the top-level component it belongs to when its context does not
already ("Drawer 1 of p690-b", "lpar1 of p690-b"): every server has a drawer 1. Names are derived
when shown, so a rename of a drawer shows at once in the label of every slot inside it.
"""

from __future__ import annotations

import re

from planner.model import Component, Topology
from planner.schema import KINDS


def short_label(comp: Component) -> str:
    """The component's own name, or its id when it has none. An array whose name is empty or
    one made from its attributes ("Array 2", "fastt1 RAID5 8+P #1") shows the name its
    attributes give now (:func:`array_name`), so it follows a change of its drives."""
    if comp.kind == "array" and (not comp.name or _AUTO_ARRAY.match(comp.name)):
        return array_name(comp)
    return comp.name or comp.id


#: array names SANplan made itself: "Array 2" (planner.edit.add_array) and names built from the
#: attributes, with or without the subsystem in front ("fastt1 RAID5 8+P #1", older files)
_AUTO_ARRAY = re.compile(r"^(?:\S+ )?(?:Array \d+|RAID ?\d+ (?:\d+\+\d*P?\d*|\d+ drives?)(?: #\d+)?)$")


def array_shape(raid_level: int, drives: int) -> str:
    """Data and parity drives of an array: '8+P' (RAID 3/5), '4+4' (RAID 1/10), '6 drives' (RAID 0)."""
    if raid_level in (3, 5) and drives > 1:
        return f"{drives - 1}+P"
    if raid_level in (1, 10) and drives > 1:
        return f"{drives // 2}+{drives - drives // 2}"
    return f"{drives} drive{'s' if drives != 1 else ''}"


def array_name(arr: Component) -> str:
    """The name an array's attributes give it: 'RAID5 8+P #1' (the number from its id, 'arr1')."""
    text = f"RAID{arr.get('raid_level', '')} {array_shape(arr.get('raid_level', 0), len(arr.get('drives', ())))}"
    number = re.search(r"(\d+)$", arr.id)
    return f"{text} #{number.group(1)}" if number else text


def qualified_name(topo: Topology, comp: Component) -> str:
    """The component's name as a device knows it: its own name, after the name of the device it
    belongs to where the schema says so (``KindSpec.prefix``): a switch port named 'port 3' is
    'sw1 port 3'. Derived when shown, so it follows a rename of the switch."""
    text = short_label(comp)
    spec = KINDS.get(comp.kind)
    if spec is None or spec.prefix is None or comp.parent is None:
        return text
    owner = topo.ancestor(comp.parent, spec.prefix)
    if owner is None:
        return text
    owner_name = short_label(owner)
    return text if _mentions(text, owner_name) else f"{owner_name} {text}"


def label(topo: Topology, comp: Component | str | None) -> str:
    """The component's name with enough context to find it: 'PHB1 of drawer 1'.

    Takes a component or an id; an id not in the design is returned as it is, None as "".
    An ancestor whose name the component's own name already contains ('sw1 port 3') is not
    repeated. Cost: O(depth).
    """
    if comp is None:
        return ""
    if isinstance(comp, str):
        found = topo.get(comp)
        if found is None:
            return comp
        comp = found
    text = qualified_name(topo, comp)
    spec = KINDS.get(comp.kind)
    if spec is None or comp.parent is None:
        return text
    joiner, kinds = spec.context or (" of ", ())
    for kind in kinds:
        anc = topo.ancestor(comp.parent, kind)
        if anc is None:
            continue
        name = short_label(anc)
        if _mentions(text, name):
            continue
        text += joiner + name
        joiner = " of "
    return _with_root(topo, comp, text, joiner)


def _with_root(topo: Topology, comp: Component, text: str, joiner: str) -> str:
    """``text`` followed by the name of the top-level component ``comp`` sits in, when the design
    holds more than one of that kind and ``text`` does not name it yet."""
    comps = topo._components
    root = comps.get(comp.parent)  # type: ignore[arg-type]
    while root is not None and root.parent is not None:
        root = comps.get(root.parent)
    if root is None or root.kind not in KINDS or topo.count_of(root.kind) < 2:
        return text
    name = short_label(root)
    return text if _mentions(text, name) else f"{text}{joiner}{name}"


def free_name(topo: Topology, kind: str, name: str, parent: str | None = None, suffix: bool = False) -> str:
    """``name``, or the next name counting on from its number ('sw3' -> 'sw4', 'p690' ->
    'p691', 'rack' -> 'rack2'), that no component of ``kind`` inside ``parent`` (None: at the top
    level) carries, ignoring case (what the NAME_DUPLICATE rule checks). ``suffix``: count in a
    suffix instead, 'D1-S1-SW1P00 (2)', for a name whose number means something (a port in a
    cable label, a server model). Cost O(siblings)."""
    taken = {c.name.casefold() for c in topo.children(parent) if c.kind == kind}
    if name.casefold() not in taken:
        return name
    m = None if suffix else re.match(r"(.*?)(\d+)$", name)
    base, n = (m.group(1), int(m.group(2))) if m else (name, 1)
    form = "{} ({})" if suffix else "{}{}"
    while form.format(base, n + 1).casefold() in taken:
        n += 1
    return form.format(base, n + 1)


def _mentions(text: str, name: str) -> bool:
    r"""Whether ``text`` holds ``name`` as a whole word (not inside a longer word): what
    ``re.search(r"(^|\W)NAME($|\W)", text)`` says, without compiling a pattern per name (a
    site's thousands of names overflowed re's cache: 50 us a label)."""
    if not name:
        return re.search(r"(^|[^\w])($|[^\w])", text) is not None
    start = text.find(name)
    while start >= 0:
        end = start + len(name)
        if (start == 0 or not _word(text[start - 1])) and (end == len(text) or not _word(text[end])):
            return True
        start = text.find(name, start + 1)
    return False


def _word(ch: str) -> bool:
    r"""A character ``\w`` matches (str patterns: alphanumeric or the underscore)."""
    return ch.isalnum() or ch == "_"


def label_list(topo: Topology, ids, limit: int = 4, short: bool = True) -> str:
    """'a, b, c and 5 more': labels (qualified names, see :func:`qualified_name`, when ``short``,
    with their server when the design has several) of the first ``limit`` ids."""
    ids = list(dict.fromkeys(ids))

    def one(cid: str) -> str:
        comp = topo.get(cid)
        if comp is None:
            return cid
        if not short:
            return label(topo, comp)
        spec = KINDS.get(comp.kind)
        return _with_root(topo, comp, qualified_name(topo, comp), spec.context[0] if spec and spec.context else " of ")

    shown = [one(c) for c in ids[:limit]]
    if len(ids) > limit:
        return ", ".join(shown) + f" and {len(ids) - limit} more"
    if len(shown) > 1:
        return ", ".join(shown[:-1]) + " and " + shown[-1]
    return shown[0] if shown else "none"


def counted(n: int, words: str) -> str:
    """'1 path', '3 paths', '2 switches', '4 free slots': ``n`` and ``words`` with the last word
    made plural unless ``n`` is 1 (a kind's display name takes the kind's own plural)."""
    if n == 1:
        return f"{n} {words}"
    spec = next((k for k in KINDS.values() if k.name == words), None)
    if spec is not None:
        return f"{n} {spec.plural}"
    head, _, last = words.rpartition(" ")
    plural = last + ("es" if last.endswith(("s", "sh", "ch", "x")) else "s")
    return f"{n} {head + ' ' if head else ''}{plural}"
