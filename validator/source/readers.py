"""One small reader per kind of source file, each returning its part of the `Game` model.

`validator.source.loader.READERS` is the table: `game.yaml` -> `read_game`, `map.yaml` -> `read_map`, ...
Each reader takes the file's located data (schema-checked, errata applied) and what the files read
before it hold (`Parts`: the factor names, the dice, the grid, the tree's root), and returns a mapping
of `Game` fields. The loader merges them into one `Game`. A reader raises `BuildError` for data the
schema cannot rule out (a board extent that is not a range, two boards sharing an id).
"""
from __future__ import annotations

import dataclasses
import re
from fractions import Fraction
from functools import lru_cache
from typing import Optional

from . import schemas
from ..geometry.hexgrid import Board, Grid
from .model import (
    DRM, TEC, AfterCombat, Area, Arrival, Box, EntryPrinted, CombatRule, Deployment, Dice, DrmCondition, Errata, ErratumItem,
    Factors, Formation, Gap, Hexside, HexTerrain, Loc, Location, MapFeature, Marker, MixingRule, Nationality,
    NotIfMovedIn, SpecialMove, SpecialRoll, OneAtATime, OrderOfArrival, Patch, Path, Phase, Place, Placement, Places, Removal,
    ResultCode, ResultEffect, RetreatBeforeCombat, BugOut, Rules, Scenario, SetupGroup, Side, SideEffect, StackingRule, SupplySource, Table,
    TableClamp, TableRow, TableStrengths, Terrain, TerrainType, Turn, TurnBlock, Unit, VictoryHex, ZocRule,
    ArrivalTerms, LastTurnReduction, VictoryTerms, ZocClass, ColumnShift, StrengthModifier, TextRule, UnitCondition, Unprinted,
)
from .art import board_arts, faces
from .images import inspect
from .model import Art, BoardArt, CounterArt, CounterSheet, ImageFile, ReferenceHex, SheetCell
from .tec import read_costs
from .yamlsrc import LocList, LocMap

MAX_BOARD_HEXES = 100_000  # the largest printed maps have a few thousand
DEFAULT_FACTORS = ("attack", "defense", "movement")


class BuildError(Exception):
    """Data the schema allows but the model cannot be built from: a located HF004."""

    def __init__(self, message: str, loc: Loc, help: Optional[str] = None):
        super().__init__(message)
        self.message, self.loc, self.help = message, loc, help


class Parts(dict):
    """The `Game` fields read so far, by name (what a later reader needs of an earlier file)."""


# -- small shared readers ---------------------------------------------------------------------------

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
    return tuple(Placement(unit=p["unit"], printed=p.get("printed"), state=_t(p.get("state")),
                           count=int(p.get("count") or 1), count_printed=not ("count" in p and p["count"] is None),
                           gap=p.get("gap"), loc=_loc(p))
                 for p in items or ())


def _removal(r) -> Removal:
    return Removal(units=_placements(r.get("units")), formation=r.get("formation"),
                   except_=_placements(r.get("except")), loc=_loc(r))


def _arrival(a) -> Arrival:
    return Arrival(entry=_location(a["entry"]), formation=a.get("formation"), units=_placements(a.get("units")),
                   condition=a.get("condition"), loc=_loc(a), gap=a.get("gap"), terms=_arrival_terms(a.get("terms")),
                   also_printed=tuple(EntryPrinted(entry=_location(x["entry"]), rule=_str(x.get("rule")), loc=_loc(x))
                                      for x in a.get("also_printed") or ()))


def _arrival_terms(m) -> Optional[ArrivalTerms]:
    """An arrival's condition as data (`terms`)."""
    if not m:
        return None
    turn, roll = m.get("turn") or {}, m.get("roll") or {}
    alt, after = m.get("alternative_entry") or {}, m.get("after_arrival") or {}
    return ArrivalTerms(
        kind=m["kind"], rule=m.get("rule"), optional=bool(m.get("optional")), turn_exactly=_str(turn.get("exactly")),
        turn_from=_str(turn.get("from")), earlier=m.get("earlier") or ("never" if turn.get("exactly") else None),
        phase=m.get("phase"), delay=m.get("delay"), roll_dice=roll.get("dice"),
        roll_success=tuple(roll.get("success") or ()), on_failure=roll.get("on_failure"), roll_rule=roll.get("rule"),
        alternative_within=alt.get("within"), no_move_turn=_str(after.get("no_move_turn")),
        no_move_rule=after.get("rule"), mandatory_when_met=bool(m.get("mandatory_when_met")),
        judged=m.get("judged", True), why=m.get("why"), loc=_loc(m))


def _str(x) -> Optional[str]:
    return None if x is None else str(x)


def _ooa(o, source: str) -> OrderOfArrival:
    blocks = tuple(TurnBlock(turn=str(b["turn"]), printed=b.get("printed"),
                             arrivals=tuple(_arrival(a) for a in b.get("arrivals") or ()),
                             removals=tuple(_removal(r) for r in b.get("removals") or ()), loc=_loc(b))
                   for b in o.get("turns") or ())
    return OrderOfArrival(side=o["side"], rule=o.get("rule"), turns=blocks, source=source, loc=_loc(o))


def _feature(x) -> MapFeature:
    return MapFeature(kind=x["kind"], hex=x["hex"], side=x.get("side"), unit=x.get("unit"), rule=x.get("rule"),
                      loc=_loc(x))


# -- game.yaml --------------------------------------------------------------------------------------

def _moves(v) -> Optional[tuple[str, ...]]:
    """A phase's `moves`: "all" or a list of movement classes; None when nothing moves in it."""
    if v is None:
        return None
    return ("all",) if v == "all" else tuple(str(x) for x in v)


def _one_at_a_time(v) -> Optional[OneAtATime]:
    if not v:
        return None
    return OneAtATime(rule=str(v["rule"]), move_ends=bool(v.get("move_ends_when_another_starts")),
                      stacks_together=v.get("stacks", "individually") == "together", loc=_loc(v))


def _not_if_moved_in(v) -> Optional[NotIfMovedIn]:
    if not v:
        return None
    return NotIfMovedIn(phases=tuple(str(x) for x in v["phases"]), rule=str(v["rule"]), loc=_loc(v))


def _side(s) -> Side:
    nats = tuple(Nationality(id=n["id"], name=n["name"], side=s["id"], colour=n.get("colour"),
                             text_colour=n.get("text_colour"), loc=_loc(n)) for n in s["nationalities"])
    return Side(id=s["id"], name=s["name"], nationalities=nats, loc=_loc(s), also_called=_t(s.get("also_called")))


def _phase(p) -> Phase:
    return Phase(id=p["id"], name=p["name"], side=p.get("side"), loc=_loc(p), rule=p.get("rule"),
                 moves=_moves(p.get("moves")), combat=bool(p.get("combat")),
                 one_at_a_time=_one_at_a_time(p.get("one_at_a_time")),
                 not_if_moved_in=_not_if_moved_in(p.get("not_if_moved_in")),
                 arrivals=p.get("arrivals") is not None, arrivals_rule=(p.get("arrivals") or {}).get("rule"),
                 retreats_rule=(p.get("retreats") or {}).get("rule"),
                 not_on_turns=_t((p.get("not_on_turns") or {}).get("turns")),
                 not_on_turns_rule=(p.get("not_on_turns") or {}).get("rule"),
                 attackers=_t((p.get("attackers") or {}).get("classes")),
                 not_if_attacked_in=_not_if_moved_in(p.get("not_if_attacked_in")),
                 special_moves=tuple(_special_move(m) for m in p.get("special_moves") or ()),
                 attackers_rule=(p.get("attackers") or {}).get("rule"),
                 not_in_states=_t((p.get("not_in_states") or {}).get("states")),
                 not_in_states_rule=(p.get("not_in_states") or {}).get("rule"),
                 not_from_enemy_adjacent=(p.get("not_from_enemy_adjacent") or {}).get("rule"))


def _special_move(m) -> SpecialMove:
    r = m.get("roll")
    roll = SpecialRoll(dice=r["dice"], rule=str(r["rule"]),
                       success=tuple((str(k), tuple(v)) for k, v in r["success"].items())) if r else None
    forfeit = m.get("forfeit_if_zoc_entered_in") or {}
    return SpecialMove(units=_t(m["units"]), rule=str(m["rule"]), turns=_t(m.get("turns")), roll=roll,
                       hexes=m.get("hexes"), forfeit_zoc_in=_t(forfeit.get("phases")), forfeit_rule=forfeit.get("rule"))


def _mixing_rule(m) -> MixingRule:
    return MixingRule(kind=m["kind"], nationalities=_t(m.get("nationalities")), penalty=m.get("penalty"),
                      except_state=m.get("except_state"), severity=m.get("severity"), rule=m.get("rule"), loc=_loc(m),
                      by_retreat=_limit(m.get("by_retreat")), not_in_entry_areas=_limit(m.get("not_in_entry_areas")))


def _retreat_before_combat(m) -> Optional[RetreatBeforeCombat]:
    if not m:
        return None
    hold = m.get("hold_if") or {}
    return RetreatBeforeCombat(rule=str(m.get("rule") or ""), hexes=m.get("hexes"),
                               overrun=str(m["overrun"]) if m.get("overrun") else None,
                               overrun_from_apart=_limit(m.get("overrun_from_apart")),
                               hold_if=_t(hold.get("states")), hold_rule=str(hold["rule"]) if hold.get("rule") else None,
                               overrun_not_in=_t((m.get("overrun_not_in") or {}).get("states")),
                               overrun_not_in_rule=(m.get("overrun_not_in") or {}).get("rule"),
                               bug_out=_bug_out(m.get("bug_out")))


def _bug_out(m) -> Optional[BugOut]:
    if not m:
        return None
    return BugOut(types=_t(m.get("types")), min_attack=int(m.get("min_attack") or 0), not_in=_t(m.get("not_in")),
                  rule=str(m["rule"]) if m.get("rule") else None)


def _limit(m) -> Optional[str]:
    """A combat limit's rule number ("" where the tree declares it without one); None where absent."""
    return None if not m else str(m.get("rule") or "")


def _zoc_rule(zoc) -> ZocRule:
    ex = zoc.get("exerted_by")
    assumed = None
    if isinstance(ex, dict):
        assumed = (ex.get("note") or "assumed") if ex.get("provenance") == "assumed" else None
        ex = ex.get("default")
    unprinted = zoc.get("blocked_by_unprinted") or {}
    return ZocRule(model=zoc.get("model"), rule=zoc.get("rule"), post_min_steps=zoc.get("post_min_steps"),
                   post_spacing=zoc.get("post_spacing"), max_bonds_per_post=zoc.get("max_bonds_per_post"),
                   loc=_loc(zoc), exerted_by=ex, blocked_by=_t(zoc.get("blocked_by")), exerted_assumed=assumed,
                   by_class=tuple(ZocClass(movement_class=cls, enter=m["enter"], cost=m.get("cost"), rule=m.get("rule"))
                                  for cls, m in (zoc.get("by_class") or {}).items()),
                   blockers_assumed_absent=(unprinted.get("note") or "assumed absent")
                   if unprinted.get("assume") == "absent" else None, ignored_by=_t(zoc.get("ignored_by")))


def _rules(r) -> Rules:
    """The rule parameters, typed: one `Rules`."""
    st, zoc, cb = r.get("stacking") or {}, r.get("zoc") or {}, r.get("combat") or {}
    return Rules(
        stacking=StackingRule(limit=st.get("limit"), counts=st.get("counts", "units"), rule=st.get("rule"),
                              loc=_loc(st), penalty=st.get("penalty"), uncounted=_t(st.get("uncounted"))),
        mixing_rules=tuple(_mixing_rule(mx) for mx in r.get("mixing") or ()),
        zoc=_zoc_rule(zoc),
        combat=CombatRule(method=cb.get("method"), table=cb.get("table"), rule=cb.get("rule"), loc=_loc(cb),
                          attack_once=_limit(cb.get("attack_once")), defend_once=_limit(cb.get("defend_once")),
                          combat_phases_only=_limit(cb.get("combat_phases_only")), one_hex=_limit(cb.get("one_hex")),
                          steps_by_combat_only=_limit(cb.get("steps_by_combat_only")),
                          step_losses_by_combat_only=_limit(cb.get("step_losses_by_combat_only")),
                          resolve_in_order=_limit(cb.get("resolve_in_order")),
                          retreat_before_combat=_retreat_before_combat(cb.get("retreat_before_combat")),
                          unjudged=tuple(TextRule(text=u["text"], rule=u.get("rule"), loc=_loc(u))
                                         for u in cb.get("unjudged") or ())),
        movement_classes=_t(r.get("movement_classes")),
        other=dict(r.get("other") or {}),
        loc=_loc(r),
        movement_rule=r.get("movement_rule"),
        enemy_hex_rule=r.get("enemy_hex_rule"),
        one_at_a_time=_one_at_a_time(r.get("one_at_a_time")),
        movement_modifiers=tuple(_strength_modifier({**m, "applies_to": ("movement",)})
                                 for m in r.get("movement_modifiers") or ()),
        adjacent_move_cost=(int(r["adjacent_move_cost"]["mp"]), str(r["adjacent_move_cost"]["rule"]))
        if r.get("adjacent_move_cost") else None,
    )


def read_game(g, parts: Parts) -> dict:
    """game.yaml: the title, sides, turn track, sequence of play, dice, rules and declared gaps."""
    return dict(
        id=g["id"], title=g["title"], publisher=g.get("publisher"), series=g.get("series"),
        counter_size_in=float(g.get("counter_size_in") or 0.5),
        factor_names=tuple(g.get("factors") or DEFAULT_FACTORS),
        sides=tuple(_side(s) for s in g["sides"]),
        turns=tuple(Turn(id=str(t["id"]), index=i, date=t.get("date"), time=t.get("time"), loc=_loc(t),
                         label=t.get("label"))
                    for i, t in enumerate(g["turns"])),
        phases=tuple(_phase(p) for p in g.get("sequence_of_play") or ()),
        dice=tuple(Dice(name=d["name"], count=d["count"], sides=d["sides"], note=d.get("note")) for d in g.get("dice") or ()),
        rules=_rules(g.get("rules") or LocMap()),
        gaps=tuple(Gap(id=x["id"], what=x["what"], rule=x.get("rule"), severity=x.get("severity", "warning"),
                       note=x.get("note"), loc=_loc(x)) for x in g.get("gaps") or ()),
        loc=_loc(g),
    )


# -- map.yaml ---------------------------------------------------------------------------------------

def _board(b, where: Loc, scheme: str, cd: int, rd: int) -> Board:
    (c0, c1), (r0, r1) = b["columns"], b["rows"]
    if c0 > c1 or r0 > r1 or c0 < 0 or r0 < 0:
        raise BuildError(f"board {b['id']}: columns {c0}-{c1}, rows {r0}-{r1} is not a range of numbers >= 0",
                         where, "write [first, last] with first <= last")
    if (c1 - c0 + 1) * (r1 - r0 + 1) > MAX_BOARD_HEXES:
        raise BuildError(f"board {b['id']}: {c1 - c0 + 1} x {r1 - r0 + 1} hexes is more than a board holds "
                         f"({MAX_BOARD_HEXES})", where)
    if scheme == "letters" and not (1 <= c0 and c1 <= 52):
        raise BuildError(f"board {b['id']}: letter columns run A (1) to ZZ (52), not {c0}-{c1}", where)
    if scheme == "column-row" and (c1 >= 10 ** cd or r1 >= 10 ** rd):
        raise BuildError(f"board {b['id']}: {c1}/{r1} does not fit {cd}+{rd} digits", where,
                         "raise id_format column_digits/row_digits")
    if scheme == "map-column.row" and r1 >= 10 ** rd:
        raise BuildError(f"board {b['id']}: row {r1} does not fit {rd} digits", where)
    return Board(str(b["id"]), tuple(b["columns"]), tuple(b["rows"]), tuple(b.get("origin") or (0, 0)),
                 b.get("name") or str(b["id"]))


def read_map(m, parts: Parts) -> dict:
    """map.yaml: the boards, their hex-ID scheme and orientation (the `Grid`), and how they join."""
    fmt = m.get("id_format") or {}
    scheme = m["scheme"]
    cd, rd = int(fmt.get("column_digits", 2)), int(fmt.get("row_digits", 2))
    boards = [_board(b, m["boards"].at(i), scheme, cd, rd) for i, b in enumerate(m["boards"])]
    if scheme != "map-column.row" and len(boards) != 1:
        raise BuildError(f"the {scheme} scheme names hexes without a board, so it takes exactly one board",
                         m.at("boards"), "use scheme map-column.row for games with several boards")
    if len({b.id for b in boards}) != len(boards):
        raise BuildError("two boards share an id", m.at("boards"))
    grid = Grid(scheme, m.get("orientation", "columns"), m.get("shifted", "odd"), tuple(boards), cd, rd)
    return dict(grid=grid, rows_increase=m.get("row_numbers_increase", "south"),
                joins=tuple({**j, "loc": _loc(j)} for j in m.get("joins") or ()))


# -- terrain.yaml, places.yaml, tec.yaml ---------------------------------------------------------------

def read_terrain(t, parts: Parts) -> dict:
    """terrain.yaml: the default terrain, each hex's, the hexside and path features."""
    hexes_map = t.get("hexes") or {}
    return dict(terrain=Terrain(
        default=t.get("default"),
        hexes=tuple(HexTerrain(hex=str(h), terrain=_t(v),
                               loc=hexes_map.at(h) if isinstance(hexes_map, LocMap) else Loc(""))
                    for h, v in hexes_map.items()),
        hexsides=tuple(Hexside(between=tuple(x["between"]), feature=x["feature"], rule=x.get("rule"), loc=_loc(x))
                       for x in t.get("hexsides") or ()),
        paths=tuple(Path(feature=x["feature"], hexes=_t(x["hexes"]), rule=x.get("rule"), loc=_loc(x))
                    for x in t.get("paths") or ()),
        loc=_loc(t),
    ))


def read_places(p, parts: Parts) -> dict:
    """places.yaml: named places, victory hexes, entry and deployment areas, map features, supply."""
    return dict(places=Places(
        places=tuple(Place(id=x["id"], name=x["name"], hexes=_t(x.get("hexes")), kind=x.get("kind"),
                           rule=x.get("rule"), loc=_loc(x)) for x in p.get("places") or ()),
        victory=tuple(VictoryHex(hex=x.get("hex"), place=x.get("place"), value=x.get("value"), side=x.get("side"),
                                 rule=x.get("rule"), loc=_loc(x)) for x in p.get("victory") or ()),
        areas=tuple(Area(id=str(x["id"]), kind=x["kind"], name=x.get("name"),
                         hexes=tuple(x["hexes"]) if x.get("hexes") else None, rule=x.get("rule"), loc=_loc(x))
                    for x in p.get("areas") or ()),
        features=tuple(_feature(x) for x in p.get("features") or ()),
        supply_sources=tuple(SupplySource(side=x["side"], hex=x.get("hex"), text=x.get("text"), rule=x.get("rule"),
                                          loc=_loc(x)) for x in p.get("supply_sources") or ()),
    ))


def _terrain_type(x, notes: dict) -> TerrainType:
    movement = dict(x.get("movement") or {})
    return TerrainType(id=x["id"], name=x["name"], kind=x.get("kind", "hex"), movement=movement,
                       combat=None if x.get("combat") is None else str(x.get("combat")),
                       other=dict(x.get("other") or {}), loc=_loc(x), costs=read_costs(movement, notes),
                       rule=x.get("rule"), cancels=_t(x.get("cancels")))


def read_tec(e, parts: Parts) -> dict:
    """tec.yaml: the terrain effects chart, each movement cell read into a cost."""
    notes = dict(e.get("notes") or {})
    return dict(tec=TEC(movement_classes=_t(e.get("movement_classes")),
                        terrain=tuple(_terrain_type(x, notes) for x in e["terrain"]),
                        notes=notes, complete=bool(e.get("complete", True)), missing=_t(e.get("missing")),
                        loc=_loc(e)))


# -- tables.yaml ------------------------------------------------------------------------------------

def _table_notes(notes) -> tuple[str, ...]:
    """Footnotes as printed: a list of strings, or a mapping of marker -> text ("*": "...")."""
    if not notes:
        return ()
    if isinstance(notes, dict):
        return tuple(f"{k} {v}" if k else str(v) for k, v in notes.items())
    return tuple(str(n) for n in notes)


def _count(v) -> Optional[str]:
    return None if v is None else str(v)


def _side_effect(m) -> Optional[SideEffect]:
    if m is None:
        return None
    return SideEffect(eliminated=bool(m.get("eliminated")), steps=_count(m.get("steps")), units=_count(m.get("units")),
                      retreat=_count(m.get("retreat")), advance=_count(m.get("advance")), blocked=m.get("blocked"),
                      or_steps=_count(m.get("or_steps")))


def _result_effect(m) -> Optional[ResultEffect]:
    """A key entry's structured `effect`; None when the tree gives only the meaning text."""
    if m is None:
        return None
    return ResultEffect(rule=m.get("rule"), attacker=_side_effect(m.get("attacker")),
                        defender=_side_effect(m.get("defender")), designated=_side_effect(m.get("designated")))


def _clamp(m) -> TableClamp:
    if not m:
        return TableClamp()
    return TableClamp(below=m.get("below", "unknown"), above=m.get("above", "unknown"), rule=m.get("rule"),
                      shift_below=m.get("shift_below", "unknown"), shift_above=m.get("shift_above", "unknown"),
                      shift_rule=m.get("shift_rule"))


def _drm_condition(m) -> Optional[DrmCondition]:
    if not m:
        return None
    return DrmCondition(attacker_type=_t(m.get("attacker_type")), attacker_class=_t(m.get("attacker_class")),
                        defender_terrain=_t(m.get("defender_terrain")), attack_hexes=m.get("attack_hexes"),
                        across=_t(m.get("across")))


def _after_combat(m) -> Optional[AfterCombat]:
    if not m:
        return None
    return AfterCombat(retreat=m.get("retreat"), avoids=_t(m.get("avoids")), advance=m.get("advance"),
                       rule=m.get("rule"), advance_hexes=m.get("advance_hexes"), advance_by=m.get("advance_by"),
                       advance_units=m.get("advance_units"), advance_rule=m.get("advance_rule"),
                       displaces=m.get("displaces"))


def _strength_modifier(m) -> StrengthModifier:
    cond = m.get("if")
    return StrengthModifier(
        id=m["id"], applies_to=_t(m.get("applies_to")),
        factor=Fraction(str(m["factor"])) if m.get("factor") else None, adds_unknown=m.get("adds") == "unknown",
        rounding=m.get("rounding", "unknown"), side=m.get("side"),
        condition=UnitCondition(state=_t(cond.get("state")), marker=_t(cond.get("marker")),
                                terrain=_t(cond.get("terrain"))) if cond else None,
        when=m.get("when"), rule=m.get("rule"))


def _shift(m) -> ColumnShift:
    cols = m["columns"]
    least, most = (sorted(cols["between"]) if isinstance(cols, dict) else (cols, cols))
    return ColumnShift(id=m["id"], least=least, most=most, per=m.get("per", "battle"),
                       condition=_drm_condition(m.get("if")), when=m.get("when"), rule=m.get("rule"))


def _unprinted(m) -> Unprinted:
    rows = tuple(r for x in m["rows"] for r in parse_rolls(x)) if m.get("rows") else None
    any_of = m.get("any_of")
    return Unprinted(rows=rows, columns=_t(m.get("columns")) or None,
                     any_of=() if any_of in (None, "key") else _t(any_of), key=any_of == "key",
                     likely=m.get("likely"), gap_likely=m.get("gap_likely"), note=m.get("note"), rule=m.get("rule"))


def _strengths(m) -> TableStrengths:
    if not m:
        return TableStrengths()
    return TableStrengths(attack=m.get("attack", "attack"), defense=m.get("defense", "defense"),
                          complete=bool(m.get("complete")), rule=m.get("rule"))


def _drm(d) -> DRM:
    return DRM(value=d["value"], when=d["when"], rule=d.get("rule"), side=d.get("side"),
               repeats=bool(d.get("repeats")), condition=_drm_condition(d.get("if")))


def _table(x, dice: tuple) -> Table:
    rows = tuple(TableRow(roll=str(rw["roll"]), rolls=parse_rolls(rw["roll"]),
                          results=tuple("" if c is None else str(c) for c in rw["results"]), loc=_loc(rw))
                 for rw in x["rows"])
    return Table(
        id=x["id"], name=x["name"], kind=x.get("kind", "combat"), rule=x.get("rule"), dice=x.get("dice"),
        method=x.get("method"), columns=_t(x["columns"]), rows=rows,
        rolls=tuple(x["rolls"]) if x.get("rolls") else None,
        key=tuple(ResultCode(code=k["code"], meaning=k["meaning"], loc=_loc(k), effect=_result_effect(k.get("effect")))
                  for k in x.get("key") or ()),
        separators=_t(x.get("separators")) or ("/", " "),
        drm=tuple(_drm(d) for d in x.get("drm") or ()),
        reconstruction=x.get("reconstruction"), uncertain=_t(x.get("uncertain")),
        complete=bool(x.get("complete", True)),
        extra={**dict(x.get("extra") or {}), **({"missing": list(x["missing"])} if x.get("missing") else {})},
        loc=_loc(x), notes=_table_notes(x.get("notes")), die=next((d for d in dice if d.name == x.get("dice")), None),
        clamp=_clamp(x.get("clamp")), sides=_t(x.get("sides")), drm_from=x.get("drm_from"),
        rounding=x.get("rounding"), rounding_rule=x.get("rounding_rule"), strengths=_strengths(x.get("strengths")),
        after_combat=_after_combat(x.get("after_combat")), requires=_drm_condition(x.get("requires")),
        strength_modifiers=tuple(_strength_modifier(m) for m in x.get("strength_modifiers") or ()),
        shifts=tuple(_shift(m) for m in x.get("shifts") or ()), terrain_shifts=x.get("terrain_shifts"),
        unprinted=tuple(_unprinted(m) for m in x.get("unprinted") or ()))


def read_tables(t, parts: Parts) -> dict:
    """tables.yaml: the combat results and other die-roll tables, each with the die it is read with."""
    return dict(tables=tuple(_table(x, parts["dice"]) for x in t.get("tables") or ()))


# -- counters.yaml ----------------------------------------------------------------------------------

def _unit(x, names: tuple[str, ...], default_steps: int, default_sure: bool) -> Unit:
    return Unit(id=x["id"], name=x["name"], label=x.get("label"), side=x["side"], nationality=x.get("nationality"),
                formation=x.get("formation"), type=x["type"], size=x.get("size"),
                factors=parse_factors(x.get("factors"), names), movement_class=x.get("movement_class"),
                range=x.get("range"), steps=int(x.get("steps") or default_steps),
                reduced=parse_factors(x.get("reduced"), names), flags=_t(x.get("flags")), count=x.get("count", 1),
                provenance=x.get("provenance", "printed"), loc=_loc(x),
                steps_sure=default_sure or x.get("steps") is not None or x.get("reduced") is not None)


def read_counters(c, parts: Parts) -> dict:
    """counters.yaml: formations, the unit counters (factors read by game.yaml's names) and markers."""
    default_steps = int(c.get("default_steps") or 1)
    default_sure = default_steps == 1 or not c.get("default_steps_unsure")
    names = parts["factor_names"]
    return dict(
        formations=tuple(Formation(id=x["id"], name=x["name"], side=x["side"], nationality=x.get("nationality"),
                                   loc=_loc(x)) for x in c.get("formations") or ()),
        units=tuple(_unit(x, names, default_steps, default_sure) for x in c.get("units") or ()),
        markers=tuple(Marker(id=x["id"], name=x["name"], count=x.get("count"), loc=_loc(x), side=x.get("side"),
                             states=_t(x.get("states")), whole_stack=bool(x.get("whole_stack")),
                             removed_in=_t((x.get("removed_in") or {}).get("phases")),
                             removed_in_rule=(x.get("removed_in") or {}).get("rule"),
                             removed_if=(x.get("removed_in") or {}).get("terms"))
                for x in c.get("markers") or ()),
    )


def read_orders_of_arrival(o, parts: Parts) -> dict:
    """orders-of-arrival.yaml: each side's reinforcements and withdrawals by turn."""
    return dict(orders_of_arrival=tuple(_ooa(x, "orders-of-arrival") for x in o.get("orders_of_arrival") or ()))


# -- scenarios/*.yaml, errata/*.yaml --------------------------------------------------------------------

def _setup_group(x) -> SetupGroup:
    return SetupGroup(side=x["side"], formation=x.get("formation"), location=_location(x),
                      units=_placements(x.get("units")), loc=_loc(x), gap=x.get("gap"))


def _deployment(d) -> Deployment:
    return Deployment(side=d["side"], group=d.get("group"), location=_location(d), on_map=bool(d.get("on_map", True)),
                      text=d.get("text"), rule=d.get("rule"), loc=_loc(d))


def _play_area(area) -> Optional[tuple[Box, ...]]:
    if area is None:
        return None
    return tuple(Box(board=b.get("board"), columns=tuple(b.get("columns") or (None, None)),
                     rows=tuple(b.get("rows") or (None, None)), loc=_loc(b)) for b in area)


def read_scenario(s, parts: Parts) -> Scenario:
    """One scenarios/*.yaml: its boards (all of them if it names none), set-up, arrivals and victory."""
    return Scenario(
        id=str(s["id"]), name=s["name"], rule=s.get("rule"),
        boards=_t(s.get("boards")) or tuple(b.id for b in parts["grid"].boards),
        play_area=_play_area(s.get("play_area")), first_turn=s.get("first_turn"), last_turn=s.get("last_turn"),
        setup=tuple(_setup_group(x) for x in s.get("setup") or ()),
        setup_printed=bool(s.get("setup_printed", True)),
        deployments=tuple(_deployment(d) for d in s.get("deployments") or ()),
        features=tuple(_feature(x) for x in s.get("features") or ()),
        orders_of_arrival=_t(s.get("orders_of_arrival")),
        reinforcements=tuple(_ooa(o, "scenario") for o in s.get("reinforcements") or ()),
        removals=tuple(_removal(rm) for rm in s.get("removals") or ()),
        supply_sources=tuple(dict(v) | {"loc": _loc(v)} for v in s.get("supply_sources") or ()),
        victory=dict(s.get("victory") or {}) | {"loc": _loc(s.get("victory"))} if s.get("victory") else {},
        special_rules=tuple(dict(v) for v in s.get("special_rules") or ()),
        loc=_loc(s), victory_terms=_victory_terms(s.get("victory")),
        last_turn_reduction=_last_turn_reduction(s.get("special_rules") or ()))


def _last_turn_reduction(rules) -> Optional[LastTurnReduction]:
    for r in rules:
        x = r.get("last_turn_reduction")
        if x:
            return LastTurnReduction(side=x["side"], turns=int(x["turns"]), at_once=bool(x.get("at_once")),
                                     rule=str(r["rule"]) if r.get("rule") is not None else None, per=x.get("per"))
    return None


def _victory_terms(v) -> Optional[VictoryTerms]:
    if not v or not (v.get("control") or v.get("wins")):
        return None
    ctl, wins = v.get("control") or {}, v.get("wins") or {}
    return VictoryTerms(control_start=ctl.get("start"), control_changes=ctl.get("changes"),
                        control_rule=ctl.get("rule"), winner=wins.get("side"), points=wins.get("points"),
                        rule=wins.get("rule") or v.get("rule"), loc=_loc(v))


def _erratum_item(it) -> ErratumItem:
    patches = tuple(Patch(op=pt["op"], file=pt["file"], path=tuple(pt["path"]), from_=pt.get("from"),
                          to=pt.get("to"), value=pt.get("value"), loc=_loc(pt)) for pt in it.get("patches") or ())
    return ErratumItem(id=str(it["id"]), section=it.get("section"), wording=it["wording"], patches=patches,
                       loc=_loc(it), acknowledged=it.get("acknowledged"))


def read_errata(d, parts: Parts) -> Errata:
    """One errata/*.yaml document: the publisher's (or the editors') corrections and their patches."""
    return Errata(id=d["id"], title=d["title"], source=d.get("source"), date=d.get("date"),
                  items=tuple(_erratum_item(it) for it in d["items"]), loc=_loc(d), kind=d.get("kind", "official"))


# -- art.yaml ---------------------------------------------------------------------------------------

class _Images:
    """Each image the art names, inspected once (`validator.source.images.inspect`); every mention keeps its own Loc."""

    def __init__(self, root):
        self.root = root
        self.seen: dict[str, ImageFile] = {}

    def at(self, m, key: str) -> Optional[ImageFile]:
        rel = m.get(key)
        if rel is None:
            return None
        loc = m.at(key) if isinstance(m, LocMap) else _loc(m)
        if rel not in self.seen:
            self.seen[rel] = inspect(self.root, rel, loc)
        return dataclasses.replace(self.seen[rel], loc=loc)


def _board_art(b, images: _Images) -> BoardArt:
    sp = b.get("spacing")
    return BoardArt(board=str(b["board"]), image=images.at(b, "image"),
                    registration=tuple(ReferenceHex(hex=r["hex"], at=(float(r["at"][0]), float(r["at"][1])), loc=_loc(r))
                                       for r in b["registration"]),
                    spacing=(float(sp["columns"]), float(sp["rows"])) if sp else None, loc=_loc(b))


def _counter_art(c, images: _Images) -> CounterArt:
    kind = next(k for k in ("unit", "formation", "type", "marker") if k in c)
    return CounterArt(kind=kind, id=str(c[kind]), front=images.at(c, "front"), back=images.at(c, "back"), loc=_loc(c))


def _cell(v, row: int, column: int, face: str, loc: Loc, markers: set) -> Optional[SheetCell]:
    """A sheet cell's entry: an id (a unit's, else a marker's), {unit|marker: id, face}, or null (empty)."""
    if v is None:
        return None
    if isinstance(v, str):
        return SheetCell(row=row, column=column, kind="marker" if v in markers else "unit", id=v, face=face, loc=loc)
    kind = "unit" if "unit" in v else "marker"
    return SheetCell(row=row, column=column, kind=kind, id=str(v[kind]), face=v.get("face", face), loc=loc)


def _sheet(s, images: _Images, markers: set) -> CounterSheet:
    face = s.get("face", "front")
    cells = []
    for r, line in enumerate(s["cells"], 1):
        for c, v in enumerate(line, 1):
            loc = line.at(c - 1) if isinstance(line, LocList) else _loc(s)
            cell = _cell(v, r, c, face, loc, markers)
            if cell is not None:
                cells.append(cell)
    pitch = (float(s["pitch"][0]), float(s["pitch"][1]))
    size = s.get("size")
    return CounterSheet(image=images.at(s, "image"), origin=(float(s["origin"][0]), float(s["origin"][1])),
                        pitch=pitch, size=(float(size[0]), float(size[1])) if size else pitch,
                        columns=int(s["columns"]), rows=int(s["rows"]), cells=tuple(cells), loc=_loc(s))


def read_art(a, parts: Parts) -> dict:
    """art.yaml: each board's image and registration, counter images, counter sheets sliced by a grid.
    Every image is inspected (`validator.source.images`); the checks judge what was found (HF20xx)."""
    images = _Images(parts["root"])
    markers = {m.id for m in parts["markers"]}
    return dict(art=Art(
        boards=tuple(_board_art(b, images) for b in a.get("boards") or ()),
        counters=tuple(_counter_art(c, images) for c in a.get("counters") or ()),
        sheets=tuple(_sheet(s, images, markers) for s in a.get("sheets") or ()),
        loc=_loc(a)))


def art_index(parts: Parts) -> dict:
    """The art look-ups `Game` answers: `board_art(id)` and `face_art(kind, id, face)`."""
    art = parts.get("art") or Art()
    return {"board_art": board_arts(art), "faces": faces(art, parts["units"], parts["markers"])}
