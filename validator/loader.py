"""One loader: a source tree -> located YAML -> schema check -> errata -> the typed `Game` model.

`load_game` never raises for bad input: every problem becomes a located Diagnostic. A tree with
parse or schema errors yields no model (cross-checks on half-read data would only add noise).
The loader only reads; it never writes to the tree.
"""
from __future__ import annotations

import os
import re
import stat
from fractions import Fraction
from functools import lru_cache
from pathlib import Path as FsPath
from typing import Optional

from . import schemas
from .diagnostics import Diagnostic
from .errata import apply_errata as apply_patches
from .hexgrid import Board, Grid
from .model import (
    DRM, TEC, Area, CombatRule, MixingRule, StackingRule, ZocRule, Arrival, Deployment, Assumption, Box, Dice, Errata, ErratumItem, Factors, Formation, Game,
    Gap, Hexside, HexTerrain, Loc, Location, MapFeature, Marker, Nationality, OrderOfArrival, Patch,
    NotIfMovedIn, OneAtATime, Path, Phase, Place, Places, Placement, Removal, ResultCode, ResultEffect, Rules, Scenario, SetupGroup, Side,
    SideEffect, TableClamp, TableStrengths, DrmCondition, AfterCombat, ColumnShift, StrengthModifier,
    TextRule, UnitCondition, Unprinted,
    SupplySource, Table, TableRow, Terrain, TerrainType, Turn, TurnBlock, Unit, VictoryHex, VictoryTerms,
)
from .tec import read_costs
from .yamlsrc import MAX_FILE_BYTES, LocMap, SourceError, load_text

REQUIRED = ("game.yaml", "map.yaml")
OPTIONAL = ("terrain.yaml", "places.yaml", "tec.yaml", "tables.yaml", "counters.yaml", "orders-of-arrival.yaml")
MAX_FILES = 2000
MAX_BOARD_HEXES = 100_000  # the largest printed maps have a few thousand


class NotAGameTree(Exception):
    """The path is missing or holds no game: the CLI exits 2."""


def find_files(root: FsPath) -> list[str]:
    """The tree's source file names, relative, in a stable order.

    Every name is listed whatever it is (a directory, a FIFO, a dangling link): `_read` refuses
    what is not a regular file inside the tree, with a located error, rather than skipping it.
    """
    found = [f for f in REQUIRED + OPTIONAL if os.path.lexists(root / f)]
    for sub in ("scenarios", "errata"):
        d = root / sub
        if d.is_dir():
            found += [f"{sub}/{n}" for n in sorted(os.listdir(d)) if n.endswith((".yaml", ".yml"))]
    return found[:MAX_FILES]


class _NotASourceFile(Exception):
    """A name in the tree that is not a regular file inside it."""


def _read_bytes(root: FsPath, rel: str) -> bytes:
    """A source file's bytes, at most MAX_FILE_BYTES + 1 of them.

    Links are followed only within the tree (a link out of it is refused, so its target's content is
    never read or echoed); the file is opened without blocking and checked to be a regular file, so
    a FIFO or a device can neither hang the run nor be read.
    """
    path = root / rel
    real = os.path.realpath(path)
    root_real = os.path.realpath(root)
    if os.path.islink(path) and not os.path.exists(real):
        raise _NotASourceFile("is a symbolic link to nothing (a dangling link)")
    if os.path.commonpath([root_real, real]) != root_real:
        raise _NotASourceFile("is a symbolic link to a file outside the game tree; it is not read")
    fd = os.open(real, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise _NotASourceFile("is a directory, not a YAML file")
        if not stat.S_ISREG(st.st_mode):
            raise _NotASourceFile("is not a regular file (a FIFO, socket or device); it is not read")
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read(MAX_FILE_BYTES + 1)
    finally:
        os.close(fd)


def _read(root: FsPath, rel: str, diags: list[Diagnostic]):
    try:
        data = _read_bytes(root, rel)
    except _NotASourceFile as e:
        diags.append(Diagnostic("HF006", "error", f"{rel} {e}", Loc(rel),
                                "a source file is a regular YAML file inside the game tree; "
                                "replace the link, directory or special file with one"))
        return None
    except OSError as e:
        diags.append(Diagnostic("HF006", "error", f"cannot read file: {e.strerror}", Loc(rel),
                                "make the file readable (its permissions, or the link that leads to it)"))
        return None
    try:
        return load_text(data, rel)
    except SourceError as e:
        diags.append(Diagnostic(e.code, "error", e.message, e.loc, e.help))
        return None


def _schema_check(kind: str, data, rel: str, diags: list[Diagnostic]) -> bool:
    ok = True
    for msg, loc, help_ in schemas.validate(kind, data, rel):
        diags.append(Diagnostic("HF004", "error", msg, loc or Loc(rel), help_))
        ok = False
    return ok


def load_game(path, apply_errata: bool = True) -> tuple[Optional[Game], list[Diagnostic]]:
    root = FsPath(path)
    if not root.exists():
        raise NotAGameTree(f"{path}: no such file or directory")
    if not root.is_dir():
        raise NotAGameTree(f"{path}: not a directory (give the game's source directory, e.g. source/bulge)")
    if not os.path.lexists(root / "game.yaml"):
        raise NotAGameTree(f"{path}: no game.yaml here, so this is not a game source tree")
    diags: list[Diagnostic] = []
    rels = find_files(root)
    raw: dict[str, object] = {}
    for rel in rels:
        data = _read(root, rel, diags)
        if data is None:
            continue
        kind = schemas.kind_of(rel)
        if kind is None:
            continue
        if _schema_check(kind, data, rel, diags):
            raw[rel] = data
    for req in REQUIRED:
        if not os.path.lexists(root / req):
            diags.append(Diagnostic("HF005", "error", f"required file {req} is missing", Loc(req),
                                    "every game tree has game.yaml and map.yaml (see docs/source-format.md)"))
    if any(d.severity == "error" for d in diags):
        return None, diags

    # editorial corrections first: they mend misprints so that the publisher's errata find what they expect
    errata_docs = sorted(((rel, raw[rel]) for rel in rels if rel.startswith("errata/")),
                         key=lambda rd: rd[1].get("kind", "official") != "editorial")
    data_files = {rel: v for rel, v in raw.items() if not rel.startswith("errata/")}
    if apply_errata and errata_docs:
        patched = {pt.get("file") for _, doc in errata_docs for it in doc.get("items") or ()
                   for pt in it.get("patches") or ()}
        for p in apply_patches(data_files, errata_docs):
            if p.acknowledged:
                diags.append(Diagnostic(
                    "HF801", "warning", f"erratum {p.erratum} does not apply to the printed data: {p.message} "
                    f"(acknowledged: {p.acknowledged})", p.loc,
                    "the publisher's erratum names data the rulebook does not print; it stays unapplied"))
                continue
            diags.append(Diagnostic(
                "HF801", "error", f"erratum {p.erratum} no longer applies: {p.message}", p.loc,
                "the data no longer holds what this erratum corrects: update the patch's path/from, "
                "or remove the erratum if the data already carries the correction"))
        for rel in sorted(patched & data_files.keys()):  # a patch must leave valid data behind
            if not _schema_check(schemas.kind_of(rel), data_files[rel], rel, diags):
                return None, diags
    try:
        game = build_game(root, data_files, errata_docs, apply_errata, tuple(rels))
    except _BuildError as e:
        diags.append(Diagnostic("HF004", "error", e.message, e.loc, e.help))
        return None, diags
    return game, diags


class _BuildError(Exception):
    def __init__(self, message: str, loc: Loc, help: Optional[str] = None):
        super().__init__(message)
        self.message, self.loc, self.help = message, loc, help


# -- model builders -------------------------------------------------------------------------------

def _loc(m) -> Loc:
    return getattr(m, "loc", None) or Loc("")


def _t(v) -> tuple:
    return tuple(v) if v else ()


_FACTOR_TOKEN = re.compile(r"\[(\d+)\]|\((\d+)\)|(\d+)|([A-Za-z*]+)")


def parse_factors(printed: Optional[str], names: tuple[str, ...]) -> Optional[Factors]:
    """Read "3-5-10" / "[9]-1-16" / "2-7" by the game's factor names; unreadable parts stay None."""
    if printed is None:
        return None
    values, bracketed = _read_factors(str(printed), tuple(names))
    return Factors(str(printed), dict(values), bracketed)  # each unit its own dict


@lru_cache(maxsize=1024)  # a game prints a few dozen factor strings over hundreds of counters
def _read_factors(printed: str, names: tuple[str, ...]) -> tuple[tuple[tuple[str, Optional[int]], ...], bool]:
    values: dict = {}
    bracketed = False
    for i, part in enumerate(printed.split("-")):
        m = _FACTOR_TOKEN.fullmatch(part.strip())
        val = None
        if m:
            if m.group(1):
                bracketed = bracketed or i == 0
                val = int(m.group(1))
            elif m.group(2) or m.group(3):
                val = int(m.group(2) or m.group(3))
        if i < len(names):
            values[names[i]] = val
    return tuple(values.items()), bracketed


_ROLL_SPLIT = re.compile(r"\s*(?:,|\bor\b|&)\s*")
_ROLL_RANGE = re.compile(r"([+-−]?\d+)\s*(?:-|–|to)\s*([+-−]?\d+)")


def parse_rolls(roll) -> tuple[int, ...]:
    """"2 or 3" -> (2, 3); "1-3" -> (1, 2, 3); "-1" -> (-1,); "7+" -> (7,) ; unreadable -> ()."""
    if isinstance(roll, int):
        return (roll,)
    out: list[int] = []
    for part in _ROLL_SPLIT.split(str(roll).strip()):
        part = part.replace("−", "-").rstrip("+").strip()
        if not part:
            continue
        m = _ROLL_RANGE.fullmatch(part)
        try:
            if m and not re.fullmatch(r"-\d+", part):
                a, b = int(m.group(1)), int(m.group(2))
                out.extend(range(a, b + 1))
            else:
                out.append(int(part))
        except ValueError:
            return ()
    return tuple(out)


def _table_notes(notes) -> tuple[str, ...]:
    """Footnotes as printed: a list of strings, or a mapping of marker -> text ("*": "...")."""
    if not notes:
        return ()
    if isinstance(notes, dict):
        return tuple(f"{k} {v}" if k else str(v) for k, v in notes.items())
    return tuple(str(n) for n in notes)


def _mixing_rule(m) -> MixingRule:
    return MixingRule(m["kind"], _t(m.get("nationalities")), m.get("penalty"), m.get("except_state"),
                      m.get("severity"), m.get("rule"), _loc(m))


def _count(v) -> Optional[str]:
    return None if v is None else str(v)


def _side_effect(m) -> Optional[SideEffect]:
    if m is None:
        return None
    return SideEffect(bool(m.get("eliminated")), _count(m.get("steps")), _count(m.get("units")),
                      _count(m.get("retreat")), _count(m.get("advance")), m.get("blocked"), _count(m.get("or_steps")))


def _result_effect(m) -> Optional[ResultEffect]:
    """A key entry's structured `effect`; None when the tree gives only the meaning text."""
    if m is None:
        return None
    return ResultEffect(m.get("rule"), _side_effect(m.get("attacker")), _side_effect(m.get("defender")),
                        _side_effect(m.get("designated")))


def _clamp(m) -> TableClamp:
    if not m:
        return TableClamp()
    return TableClamp(m.get("below", "unknown"), m.get("above", "unknown"), m.get("rule"),
                      m.get("shift_below", "unknown"), m.get("shift_above", "unknown"), m.get("shift_rule"))


def _drm_condition(m) -> Optional[DrmCondition]:
    if not m:
        return None
    return DrmCondition(_t(m.get("attacker_type")), _t(m.get("attacker_class")), _t(m.get("defender_terrain")),
                        m.get("attack_hexes"), _t(m.get("across")))


def _after_combat(m) -> Optional[AfterCombat]:
    if not m:
        return None
    return AfterCombat(m.get("retreat"), _t(m.get("avoids")), m.get("advance"), m.get("rule"), m.get("advance_hexes"),
                       m.get("advance_by"), m.get("advance_units"), m.get("advance_rule"),
                       m.get("displaces"))


def _strength_modifier(m) -> StrengthModifier:
    cond = m.get("if")
    factor = Fraction(str(m["factor"])) if m.get("factor") else None
    return StrengthModifier(m["id"], _t(m.get("applies_to")), factor, m.get("adds") == "unknown",
                            m.get("rounding", "unknown"), m.get("side"),
                            UnitCondition(_t(cond.get("state")), _t(cond.get("marker")), _t(cond.get("terrain")))
                            if cond else None, m.get("when"), m.get("rule"))


def _shift(m) -> ColumnShift:
    cols = m["columns"]
    least, most = (sorted(cols["between"]) if isinstance(cols, dict) else (cols, cols))
    return ColumnShift(m["id"], least, most, m.get("per", "battle"), _drm_condition(m.get("if")), m.get("when"),
                       m.get("rule"))


def _unprinted(m) -> Unprinted:
    rows = tuple(r for x in m["rows"] for r in parse_rolls(x)) if m.get("rows") else None
    any_of = m.get("any_of")
    return Unprinted(rows, _t(m.get("columns")) or None, () if any_of in (None, "key") else _t(any_of),
                     any_of == "key", m.get("likely"), m.get("gap_likely"), m.get("note"), m.get("rule"))


def _strengths(m) -> TableStrengths:
    if not m:
        return TableStrengths()
    return TableStrengths(m.get("attack", "attack"), m.get("defense", "defense"), bool(m.get("complete")),
                          m.get("rule"))


def _location(m) -> Location:
    w = m.get("within")
    key = next((k for k in schemas.LOCATION_KEYS if k in m), None)
    return Location(
        loc=m.at(key) if key and isinstance(m, LocMap) else _loc(m),
        hex=m.get("hex"),
        any_of=_t(m.get("any_of")) or None,
        range=tuple(m["range"]) if m.get("range") else None,
        area=m.get("area"),
        any_area=_t(m.get("any_area")) or None,
        within=(w["distance"], w["of"]) if w else None,
        printed=m.get("printed_location"),
    )


def _placements(items) -> tuple[Placement, ...]:
    out = []
    for p in items or ():
        out.append(Placement(p["unit"], p.get("printed"), _t(p.get("state")), int(p.get("count") or 1),
                             not ("count" in p and p["count"] is None), p.get("gap"), _loc(p)))
    return tuple(out)


def _removal(r) -> Removal:
    return Removal(_placements(r.get("units")), r.get("formation"), _placements(r.get("except")), _loc(r))


def _ooa(o, source: str) -> OrderOfArrival:
    blocks = []
    for b in o.get("turns") or ():
        arrivals = tuple(
            Arrival(_location(a["entry"]), a.get("formation"), _placements(a.get("units")), a.get("condition"), _loc(a),
                    a.get("gap"))
            for a in b.get("arrivals") or ())
        blocks.append(TurnBlock(str(b["turn"]), b.get("printed"), arrivals,
                                tuple(_removal(r) for r in b.get("removals") or ()), _loc(b)))
    return OrderOfArrival(o["side"], o.get("rule"), tuple(blocks), source, _loc(o))


def _grid(m) -> tuple[Grid, tuple]:
    fmt = m.get("id_format") or {}
    boards = []
    scheme = m["scheme"]
    cd, rd = int(fmt.get("column_digits", 2)), int(fmt.get("row_digits", 2))
    for i, b in enumerate(m["boards"]):
        where = m["boards"].at(i)
        (c0, c1), (r0, r1) = b["columns"], b["rows"]
        if c0 > c1 or r0 > r1 or c0 < 0 or r0 < 0:
            raise _BuildError(f"board {b['id']}: columns {c0}-{c1}, rows {r0}-{r1} is not a range of numbers >= 0",
                              where, "write [first, last] with first <= last")
        if (c1 - c0 + 1) * (r1 - r0 + 1) > MAX_BOARD_HEXES:
            raise _BuildError(f"board {b['id']}: {c1 - c0 + 1} x {r1 - r0 + 1} hexes is more than a board holds "
                              f"({MAX_BOARD_HEXES})", where)
        if scheme == "letters" and not (1 <= c0 and c1 <= 52):
            raise _BuildError(f"board {b['id']}: letter columns run A (1) to ZZ (52), not {c0}-{c1}", where)
        if scheme == "column-row" and (c1 >= 10 ** cd or r1 >= 10 ** rd):
            raise _BuildError(f"board {b['id']}: {c1}/{r1} does not fit {cd}+{rd} digits", where,
                              "raise id_format column_digits/row_digits")
        if scheme == "map-column.row" and r1 >= 10 ** rd:
            raise _BuildError(f"board {b['id']}: row {r1} does not fit {rd} digits", where)
        boards.append(Board(str(b["id"]), tuple(b["columns"]), tuple(b["rows"]),
                            tuple(b.get("origin") or (0, 0)), b.get("name") or str(b["id"])))
    if scheme != "map-column.row" and len(boards) != 1:
        raise _BuildError(f"the {scheme} scheme names hexes without a board, so it takes exactly one board",
                          m.at("boards"), "use scheme map-column.row for games with several boards")
    if len({b.id for b in boards}) != len(boards):
        raise _BuildError("two boards share an id", m.at("boards"))
    grid = Grid(scheme, m.get("orientation", "columns"), m.get("shifted", "odd"), tuple(boards), cd, rd)
    joins = tuple({**j, "loc": _loc(j)} for j in m.get("joins") or ())
    return grid, joins


def _assumptions(data, out: list, rel: str) -> None:
    """Every mapping marked inferred/assumed, wherever it sits."""
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            prov = node.get("provenance")
            if prov in ("inferred", "assumed"):
                what = node.get("id") or node.get("name") or node.get("title") or rel
                out.append(Assumption(f"{rel}: {what}", prov, node.get("note"), node.at("provenance")
                                      if isinstance(node, LocMap) else Loc(rel)))
            stack.extend(v for v in node.values() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            stack.extend(v for v in node if isinstance(v, (dict, list)))


def _moves(v) -> Optional[tuple[str, ...]]:
    """A phase's `moves`: "all" or a list of movement classes; None when nothing moves in it."""
    if v is None:
        return None
    return ("all",) if v == "all" else tuple(str(x) for x in v)


def _one_at_a_time(v) -> Optional[OneAtATime]:
    if not v:
        return None
    return OneAtATime(str(v["rule"]), bool(v.get("move_ends_when_another_starts")),
                      v.get("stacks", "individually") == "together", _loc(v))


def _not_if_moved_in(v) -> Optional[NotIfMovedIn]:
    if not v:
        return None
    return NotIfMovedIn(tuple(str(x) for x in v["phases"]), str(v["rule"]), _loc(v))


def _limit(m) -> Optional[str]:
    """A combat limit's rule number ("" where the tree declares it without one); None where absent."""
    return None if not m else str(m.get("rule") or "")


def _rules(r) -> Rules:
    st = r.get("stacking") or {}
    zoc = r.get("zoc") or {}
    cb = r.get("combat") or {}
    return Rules(
        stacking=StackingRule(st.get("limit"), st.get("counts", "units"), st.get("rule"), _loc(st), st.get("penalty")),
        mixing_rules=tuple(_mixing_rule(mx) for mx in r.get("mixing") or ()),
        zoc=ZocRule(zoc.get("model"), zoc.get("rule"), zoc.get("post_min_steps"), zoc.get("post_spacing"),
                    zoc.get("max_bonds_per_post"), _loc(zoc), zoc.get("exerted_by"), _t(zoc.get("blocked_by"))),
        combat=CombatRule(cb.get("method"), cb.get("table"), cb.get("rule"), _loc(cb), _limit(cb.get("attack_once")),
                          _limit(cb.get("defend_once")), _limit(cb.get("combat_phases_only")),
                          _limit(cb.get("one_hex")),
                          tuple(TextRule(u["text"], u.get("rule"), _loc(u)) for u in cb.get("unjudged") or ())),
        movement_classes=_t(r.get("movement_classes")), other=dict(r.get("other") or {}), loc=_loc(r),
        movement_rule=r.get("movement_rule"), one_at_a_time=_one_at_a_time(r.get("one_at_a_time")))


def _victory_terms(v) -> Optional[VictoryTerms]:
    if not v or not (v.get("control") or v.get("wins")):
        return None
    ctl, wins = v.get("control") or {}, v.get("wins") or {}
    return VictoryTerms(ctl.get("start"), ctl.get("changes"), ctl.get("rule"), wins.get("side"), wins.get("points"),
                        wins.get("rule") or v.get("rule"), _loc(v))


def build_game(root: FsPath, files: dict, errata_docs, errata_applied: bool, rels: tuple) -> Game:
    g = files["game.yaml"]
    factor_names = tuple(g.get("factors") or ("attack", "defense", "movement"))
    sides = []
    for s in g["sides"]:
        nats = tuple(Nationality(n["id"], n["name"], s["id"], n.get("colour"), n.get("text_colour"), _loc(n))
                     for n in s["nationalities"])
        sides.append(Side(s["id"], s["name"], nats, _loc(s)))
    turns = tuple(Turn(str(t["id"]), i, t.get("date"), t.get("time"), _loc(t)) for i, t in enumerate(g["turns"]))
    phases = tuple(Phase(p["id"], p["name"], p.get("side"), _loc(p), p.get("rule"), _moves(p.get("moves")),
                         bool(p.get("combat")), _one_at_a_time(p.get("one_at_a_time")),
                         _not_if_moved_in(p.get("not_if_moved_in")), p.get("arrivals") is not None,
                         (p.get("arrivals") or {}).get("rule")) for p in g.get("sequence_of_play") or ())
    dice = tuple(Dice(d["name"], d["count"], d["sides"]) for d in g.get("dice") or ())
    r = g.get("rules") or LocMap()
    rules = _rules(r)
    gaps = tuple(Gap(x["id"], x["what"], x.get("rule"), x.get("severity", "warning"), x.get("note"), _loc(x))
                 for x in g.get("gaps") or ())

    grid, joins = _grid(files["map.yaml"])

    t = files.get("terrain.yaml") or {}
    hexes_map = t.get("hexes") or {}
    terrain = Terrain(
        t.get("default"),
        tuple(HexTerrain(str(h), _t(v), hexes_map.at(h) if isinstance(hexes_map, LocMap) else Loc(""))
              for h, v in hexes_map.items()),
        tuple(Hexside(tuple(x["between"]), x["feature"], x.get("rule"), _loc(x)) for x in t.get("hexsides") or ()),
        tuple(Path(x["feature"], _t(x["hexes"]), x.get("rule"), _loc(x)) for x in t.get("paths") or ()),
        _loc(t),
    )

    p = files.get("places.yaml") or {}
    places = Places(
        tuple(Place(x["id"], x["name"], _t(x.get("hexes")), x.get("kind"), x.get("rule"), _loc(x))
              for x in p.get("places") or ()),
        tuple(VictoryHex(x.get("hex"), x.get("place"), x.get("value"), x.get("side"), x.get("rule"), _loc(x))
              for x in p.get("victory") or ()),
        tuple(Area(str(x["id"]), x["kind"], x.get("name"),
                   tuple(x["hexes"]) if x.get("hexes") else None, x.get("rule"), _loc(x))
              for x in p.get("areas") or ()),
        tuple(MapFeature(x["kind"], x["hex"], x.get("side"), x.get("unit"), x.get("rule"), _loc(x))
              for x in p.get("features") or ()),
        tuple(SupplySource(x["side"], x.get("hex"), x.get("text"), x.get("rule"), _loc(x))
              for x in p.get("supply_sources") or ()),
    )

    tec = None
    if "tec.yaml" in files:
        e = files["tec.yaml"]
        tec = TEC(
            _t(e.get("movement_classes")),
            tuple(TerrainType(x["id"], x["name"], x.get("kind", "hex"), dict(x.get("movement") or {}),
                              None if x.get("combat") is None else str(x.get("combat")),
                              dict(x.get("other") or {}), _loc(x),
                              read_costs(dict(x.get("movement") or {}), dict(e.get("notes") or {})), x.get("rule"),
                              _t(x.get("cancels")))
                  for x in e["terrain"]),
            dict(e.get("notes") or {}), bool(e.get("complete", True)), _t(e.get("missing")), _loc(e))

    tables = []
    for x in (files.get("tables.yaml") or {}).get("tables") or ():
        rows = tuple(TableRow(str(rw["roll"]), parse_rolls(rw["roll"]),
                              tuple("" if c is None else str(c) for c in rw["results"]), _loc(rw))
                     for rw in x["rows"])
        tables.append(Table(
            x["id"], x["name"], x.get("kind", "combat"), x.get("rule"), x.get("dice"), x.get("method"),
            _t(x["columns"]), rows, tuple(x["rolls"]) if x.get("rolls") else None,
            tuple(ResultCode(k["code"], k["meaning"], _loc(k), _result_effect(k.get("effect")))
                  for k in x.get("key") or ()),
            _t(x.get("separators")) or ("/", " "),
            tuple(DRM(d["value"], d["when"], d.get("rule"), d.get("side"), bool(d.get("repeats")),
                      _drm_condition(d.get("if")))
                  for d in x.get("drm") or ()),
            x.get("reconstruction"), _t(x.get("uncertain")), bool(x.get("complete", True)),
            {**dict(x.get("extra") or {}), **({"missing": list(x["missing"])} if x.get("missing") else {})},
            _loc(x), _table_notes(x.get("notes")), next((d for d in dice if d.name == x.get("dice")), None),
            clamp=_clamp(x.get("clamp")), sides=_t(x.get("sides")), drm_from=x.get("drm_from"),
            rounding=x.get("rounding"), rounding_rule=x.get("rounding_rule"), strengths=_strengths(x.get("strengths")),
            after_combat=_after_combat(x.get("after_combat")), requires=_drm_condition(x.get("requires")),
            strength_modifiers=tuple(_strength_modifier(m) for m in x.get("strength_modifiers") or ()),
            shifts=tuple(_shift(m) for m in x.get("shifts") or ()), terrain_shifts=x.get("terrain_shifts"),
            unprinted=tuple(_unprinted(m) for m in x.get("unprinted") or ())))

    c = files.get("counters.yaml") or {}
    default_steps = int(c.get("default_steps") or 1)
    formations = tuple(Formation(x["id"], x["name"], x["side"], x.get("nationality"), _loc(x))
                       for x in c.get("formations") or ())
    units = tuple(
        Unit(x["id"], x["name"], x.get("label"), x["side"], x.get("nationality"), x.get("formation"),
             x["type"], x.get("size"), parse_factors(x.get("factors"), factor_names), x.get("movement_class"),
             x.get("range"), int(x.get("steps") or default_steps), parse_factors(x.get("reduced"), factor_names),
             _t(x.get("flags")), x.get("count", 1), x.get("provenance", "printed"), _loc(x))
        for x in c.get("units") or ())
    markers = tuple(Marker(x["id"], x["name"], x.get("count"), _loc(x), x.get("side"), _t(x.get("states")))
                    for x in c.get("markers") or ())

    ooas = tuple(_ooa(o, "orders-of-arrival")
                 for o in (files.get("orders-of-arrival.yaml") or {}).get("orders_of_arrival") or ())

    scenarios = []
    for rel in sorted(k for k in files if k.startswith("scenarios/")):
        s = files[rel]
        setup = tuple(SetupGroup(x["side"], x.get("formation"), _location(x), _placements(x.get("units")), _loc(x),
                                 x.get("gap"))
                      for x in s.get("setup") or ())
        area = s.get("play_area")
        boxes = None if area is None else tuple(
            Box(b.get("board"), tuple(b.get("columns") or (None, None)), tuple(b.get("rows") or (None, None)), _loc(b))
            for b in area)
        scenarios.append(Scenario(
            str(s["id"]), s["name"], s.get("rule"), _t(s.get("boards")) or tuple(b.id for b in grid.boards),
            boxes, s.get("first_turn"), s.get("last_turn"), setup, bool(s.get("setup_printed", True)),
            tuple(Deployment(d["side"], d.get("group"), _location(d), bool(d.get("on_map", True)), d.get("text"),
                             d.get("rule"), _loc(d)) for d in s.get("deployments") or ()),
            tuple(MapFeature(x["kind"], x["hex"], x.get("side"), x.get("unit"), x.get("rule"), _loc(x))
                  for x in s.get("features") or ()),
            _t(s.get("orders_of_arrival")),
            tuple(_ooa(o, "scenario") for o in s.get("reinforcements") or ()),
            tuple(_removal(rm) for rm in s.get("removals") or ()),
            tuple(dict(v) | {"loc": _loc(v)} for v in s.get("supply_sources") or ()),
            dict(s.get("victory") or {}) | {"loc": _loc(s.get("victory"))} if s.get("victory") else {},
            tuple(dict(v) for v in s.get("special_rules") or ()),
            _loc(s), _victory_terms(s.get("victory"))))

    errata = []
    for rel, d in errata_docs:
        items = []
        for it in d["items"]:
            patches = tuple(Patch(pt["op"], pt["file"], tuple(pt["path"]), pt.get("from"), pt.get("to"),
                                  pt.get("value"), _loc(pt)) for pt in it.get("patches") or ())
            items.append(ErratumItem(str(it["id"]), it.get("section"), it["wording"], patches, _loc(it),
                                     it.get("acknowledged")))
        errata.append(Errata(d["id"], d["title"], d.get("source"), d.get("date"), tuple(items), _loc(d),
                             d.get("kind", "official")))

    assumptions: list[Assumption] = []
    for rel, data in files.items():
        _assumptions(data, assumptions, rel)

    index = {
        "units": {u.id: u for u in units},
        "formations": {f.id: f for f in formations},
        "sides": {s.id: s for s in sides},
        "nationalities": {n.id: n for s in sides for n in s.nationalities},
        "turns": {tt.id: tt for tt in turns},
        "areas": {a.id: a for a in places.areas},
        "terrain_types": {x.id: x for x in tec.terrain} if tec else {},
        "scenarios": {x.id: x for x in scenarios},
        "hex_terrain": {h.hex: h.terrain for h in terrain.hexes},
    }
    return Game(
        id=g["id"], title=g["title"], publisher=g.get("publisher"), series=g.get("series"), root=str(root),
        counter_size_in=float(g.get("counter_size_in") or 0.5), factor_names=factor_names,
        sides=tuple(sides), turns=turns, phases=phases, dice=dice, rules=rules, gaps=gaps,
        grid=grid, rows_increase=files["map.yaml"].get("row_numbers_increase", "south"), joins=joins, terrain=terrain, places=places, tec=tec, tables=tuple(tables),
        formations=formations, units=units, markers=markers, orders_of_arrival=ooas,
        scenarios=tuple(scenarios), errata=tuple(errata), errata_applied=errata_applied,
        assumptions=tuple(assumptions), files=rels, loc=_loc(g), _index=index)
