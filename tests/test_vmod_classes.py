"""Every element of a generated buildFile.xml names a real VASSAL class, and every attribute is one
of the identifier strings of that class or of a superclass (shared/reference/vassal-classes.json beside
the checkout, generated from VASSAL's source)."""
import json
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from compiler.vassal.build import build_module
from tests.vmod_fixtures import make_game
from tests.vmod_games import real_games

# shared/ sits beside the checkout (CI lays a copy there); the list is generated from VASSAL's source
_REF = "reference/vassal-classes.json"
CLASSES = next((p for p in (Path(__file__).resolve().parents[2] / "shared" / _REF, Path("/work/shared") / _REF)
                if p.exists()), Path("/work/shared") / _REF)
# Child elements that are not classes, each read by its parent's build(): PlayerRoster.build takes
# the text of every child element as a side; BoardPicker.build takes a <setup> child as its default boards.
NON_CLASS_CHILDREN = {"entry": "VASSAL.build.module.PlayerRoster", "setup": "VASSAL.build.module.map.BoardPicker"}
# Attributes read through an interface constant: Configurable.NAME_PROPERTY ("name"), which
# AbstractConfigurable implements (the JSON lists interfaces as classes without superclass links).
INTERFACE_CLASSES = ("VASSAL.build.Configurable",)


def _load():
    if not CLASSES.exists():
        pytest.skip("vassal-classes.json not available")
    return json.loads(CLASSES.read_text())["classes"]


def allowed_attributes(classes: dict, cls: str) -> set:
    by_simple: dict = {}
    for full in classes:
        by_simple.setdefault(full.rsplit(".", 1)[-1], []).append(full)
    out, todo, seen = set(), [cls], set()
    while todo:
        c = todo.pop()
        if c in seen or c not in classes:
            continue
        seen.add(c)
        out.update(classes[c]["strings"])
        sup = classes[c]["extends"]
        if sup:
            todo.extend(by_simple.get(sup, []))
    if "VASSAL.build.AbstractConfigurable" in seen:
        for i in INTERFACE_CLASSES:
            out.update(classes.get(i, {}).get("strings", []))
    return out


def check_buildfile(xml: bytes) -> list[str]:
    classes = _load()
    root = etree.fromstring(xml, etree.XMLParser(resolve_entities=False, no_network=True))
    problems = []
    for el in root.iter():
        tag = el.tag
        if tag in NON_CLASS_CHILDREN:
            if el.getparent() is None or el.getparent().tag != NON_CLASS_CHILDREN[tag]:
                problems.append(f"<{tag}> outside {NON_CLASS_CHILDREN[tag]}")
            if len(el.attrib):
                problems.append(f"<{tag}> has attributes")
            continue
        if tag not in classes:
            problems.append(f"unknown class {tag}")
            continue
        if classes[tag]["abstract"]:
            problems.append(f"abstract class {tag}")
        ok = allowed_attributes(classes, tag)
        for a in el.attrib:
            if a not in ok:
                problems.append(f"{tag}@{a} is not an attribute string of the class or its superclasses")
    return problems


def test_checker_catches_mistakes():
    bad = (b'<VASSAL.build.GameModule name="x" bogusAttr="1"><VASSAL.build.module.NoSuchThing/>'
           b'<VASSAL.build.module.map.boardPicker.board.HexGrid dx="1" stagger="true"/>'
           b'<setup>x</setup></VASSAL.build.GameModule>')
    p = check_buildfile(bad)
    assert any("bogusAttr" in x for x in p)
    assert any("NoSuchThing" in x for x in p)
    assert any("HexGrid@stagger" in x for x in p)      # stagger belongs to HexGridNumbering
    assert any("<setup> outside" in x for x in p)


def _xml(path: Path) -> bytes:
    with zipfile.ZipFile(path) as z:
        return z.read("buildFile.xml")


def test_fixture_module_uses_only_real_classes(tmp_path):
    for scheme in ("letters", "column-row", "map-column.row"):
        p = build_module(make_game(scheme, gid=f"g-{scheme}"), tmp_path)
        assert check_buildfile(_xml(p)) == []


@pytest.mark.parametrize("name", sorted(real_games()))
def test_real_module_uses_only_real_classes(name, tmp_path):
    g = real_games()[name]
    if g is None:
        pytest.skip(f"source/{name} does not load yet")
    assert check_buildfile(_xml(build_module(g, tmp_path))) == []


# What a playable module needs beyond real class names: the components VASSAL's module validation
# (GameModule.validate / ValidationReport) and a player expect to find.
P = "VASSAL.build.module."
MODULE_NEEDS = [P + "PlayerRoster", P + "DiceButton", P + "turn.TurnTracker", P + "PieceWindow",
                P + "PrototypesContainer", P + "ChartWindow", P + "Map", P + "GlobalOptions"]
# a Map built from XML gets only BoardPicker, StackMetrics and a few others by itself: the helpers that
# let a player move, stack, zoom and inspect pieces must be listed
MAP_NEEDS = [P + "map." + c for c in ("BoardPicker", "PieceMover", "StackExpander", "KeyBufferer",
                                      "ForwardToKeyBuffer", "Scroller", "MenuDisplayer", "Zoomer",
                                      "CounterDetailViewer")]


@pytest.mark.parametrize("name", sorted(real_games()))
def test_real_module_has_the_components_vassal_expects(name, tmp_path):
    g = real_games()[name]
    if g is None:
        pytest.skip(f"source/{name} does not load yet")
    root = etree.fromstring(_xml(build_module(g, tmp_path)), etree.XMLParser(resolve_entities=False, no_network=True))
    tags = {el.tag for el in root}
    assert set(MODULE_NEEDS) <= tags, set(MODULE_NEEDS) - tags
    order = [el.tag for el in root]
    # VASSAL adds a missing GlobalOptions only after building the maps; a map built before it exists
    # never gets a window in single-window mode (seen with the engine), so it must come first
    assert order.index(P + "GlobalOptions") < order.index(P + "Map")
    maps = root.findall(P + "Map")
    names = [m.get("mapName") for m in maps]
    assert len(names) == len(set(names))                       # validation warns on two maps of one name
    for m in maps:
        assert set(MAP_NEEDS) <= {c.tag for c in m}, (m.get("mapName"), set(MAP_NEEDS) - {c.tag for c in m})
        boards = m.findall(f"{P}map.BoardPicker/{P}map.boardPicker.Board")
        assert boards, f"map {m.get('mapName')} has no board"     # validation warns on a map with no board
    setups = root.findall(".//" + P + "PredefinedSetup")
    files = {s.get("file") for s in setups if s.get("file")}
    assert len(files) == len(g.scenarios)
    sides = [e.text for e in root.find(P + "PlayerRoster").findall("entry")]
    assert sides == [s.name for s in g.sides]
