"""The typed, immutable game model built by `validator.source.loader.load_game`.

Everything downstream (checks, module, charts, the log audit) is a function of a `Game`.
Every record keeps the `Loc` it was read from so findings point at `file:line:col`.
Values stay as printed (strings) where the rulebook prints them; parsed numbers sit beside them.
"""
from __future__ import annotations

from dataclasses import field
from fractions import Fraction
from typing import Optional

from .frozen import frozen
from ..geometry.hexgrid import Grid


@frozen
class Loc:
    """Where a value was read: file relative to the game tree, 1-based line and column."""
    file: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}" if self.line else self.file


NOWHERE = Loc("")


@frozen
class Nationality:
    """A nationality of a side (game.yaml sides[].nationalities[]): its counters' colours."""
    id: str
    name: str
    side: str
    colour: Optional[str]                     # "#rrggbb"; None where the rulebook prints no colour
    text_colour: Optional[str]
    loc: Loc = NOWHERE


@frozen
class Side:
    """One side of the game and its nationalities (game.yaml sides[])."""
    id: str
    name: str
    nationalities: tuple[Nationality, ...]
    loc: Loc = NOWHERE
    also_called: tuple[str, ...] = ()         # other names the rules print for it (Aachen 10.2: "the Allied player")


@frozen
class Turn:
    """One box of the turn track (game.yaml turns[]), in track order."""
    id: str                 # as printed: "16 AM", "1"
    index: int              # 0-based position on the track
    date: Optional[str]     # ISO date where printed
    time: Optional[str]     # AM | PM where printed
    loc: Loc = NOWHERE
    label: Optional[str] = None   # the turn's name as the track prints it ("Day 2 AM")


@frozen
class OneAtATime:
    """Units move one at a time (`rule`); `move_ends`: the rules say a unit's move is over once another
    unit starts moving; `stacks_together`: a stack may move as one (else each unit moves individually)."""
    rule: str
    move_ends: bool = False
    stacks_together: bool = False
    loc: Loc = NOWHERE


@frozen
class NotIfMovedIn:
    """Units that moved in any of `phases` (ids, earlier in the same turn) may not move in this phase."""
    phases: tuple[str, ...]
    rule: str
    loc: Loc = NOWHERE


@frozen
class SpecialRoll:
    """The roll a special move needs first (Bulge 43.3: "the unit may advance on a roll of 1 or 2"): with `dice`,
    one of `success` (turn id -> the totals that let the unit move), by `rule`."""
    dice: str
    success: tuple[tuple[str, tuple[int, ...]], ...]
    rule: str

    def totals(self, turn: Optional[str]) -> tuple[int, ...]:
        return next((t for k, t in self.success if k == turn), ())


@frozen
class SpecialMove:
    """Units a phase lets move though its side moves no units in it (game.yaml sequence_of_play[].special_moves):
    on `turns` (all where empty), under the terms of `rule`: the roll it needs first (`roll`), how many hexes
    it goes at most (`hexes`, "Attacker Advances 4") and the phases entering an enemy ZOC in forfeits it
    (`forfeit_zoc_in`) are judged; its other terms are not."""
    units: tuple[str, ...]
    rule: str
    turns: tuple[str, ...] = ()
    roll: Optional[SpecialRoll] = None
    hexes: Optional[int] = None
    forfeit_zoc_in: tuple[str, ...] = ()      # a unit that entered an enemy ZOC in these phases of the turn may not
    forfeit_rule: Optional[str] = None        # make it (Bulge 43.5)


@frozen
class Phase:
    """One phase of the sequence of play (game.yaml sequence_of_play[]): whose, what moves, whether combat happens."""
    id: str
    name: str
    side: Optional[str]
    loc: Loc = NOWHERE
    rule: Optional[str] = None
    moves: Optional[tuple[str, ...]] = None   # movement classes that may move ("all"); None = no movement
    combat: bool = False                      # combat happens in this phase (retreats, advances, overruns)
    one_at_a_time: Optional[OneAtATime] = None          # this phase's own order of moving (else the game's)
    not_if_moved_in: Optional[NotIfMovedIn] = None
    arrivals: bool = False                    # reinforcements arrive in this phase
    arrivals_rule: Optional[str] = None
    retreats_rule: Optional[str] = None       # after a roll in this (non-combat) phase the other side's units may
                                              # retreat (a bombardment's): the rule that says so
    not_on_turns: tuple[str, ...] = ()        # turns the phase is left out of (nothing moves or fights in it)
    not_on_turns_rule: Optional[str] = None
    attackers: tuple[str, ...] = ()           # the movement classes that may attack in it (): every class)
    attackers_rule: Optional[str] = None
    not_if_attacked_in: Optional[NotIfMovedIn] = None   # units that attacked in these earlier phases may not here
    special_moves: tuple[SpecialMove, ...] = ()
    not_in_states: tuple[str, ...] = ()       # units in these states may not move in it (Ardennes II 3.4: DG, exploit)
    not_in_states_rule: Optional[str] = None
    not_from_enemy_adjacent: Optional[str] = None   # the rule that a unit which began the phase next to an enemy
                                                     # may not move in it (Ardennes II 1.2, exploitation)

    def moves_class(self, cls: Optional[str]) -> bool:
        """Units of this movement class move in the phase (`moves` names it, or "all"; a class not known may)."""
        return self.moves is not None and ("all" in self.moves or cls is None or cls in self.moves)


@frozen
class Dice:
    """A die the rules roll (game.yaml dice[]): `count` dice of `sides` sides, summed."""
    name: str
    count: int
    sides: int
    note: Optional[str] = None                # what the rules roll it for, as the tree says


@frozen
class Gap:
    """Data the rulebook refers to but does not print."""
    id: str
    what: str
    rule: Optional[str]
    severity: str           # info | warning
    note: Optional[str]
    loc: Loc = NOWHERE


@frozen
class Assumption:
    """A value marked `provenance: inferred|assumed` somewhere in the tree."""
    what: str
    provenance: str
    note: Optional[str]
    loc: Loc = NOWHERE


@frozen
class StackingRule:
    """How many counters a hex holds (game.yaml rules.stacking)."""
    limit: Optional[int]                      # None = not printed
    counts: str                               # units | steps
    rule: Optional[str]
    loc: Loc = NOWHERE
    penalty: Optional[str] = None             # a state an over-stack takes instead of being illegal (dg)
    uncounted: tuple[str, ...] = ()           # unit flags (counters.yaml) whose units do not count to the limit


@frozen
class MixingRule:
    """Who may stack with whom (game.yaml rules.mixing[])."""
    kind: str                                 # nationalities-apart | divisional-integrity
    nationalities: tuple[str, ...]            # nationalities-apart: those that never share a hex
    penalty: Optional[str]                    # divisional-integrity: the state a mixed stack takes (dg)
    except_state: Optional[str]               # a stack already in this state is exempt
    severity: Optional[str]                   # error | warning: how the set-up check reports it
    rule: Optional[str]
    loc: Loc = NOWHERE
    by_retreat: Optional[str] = None          # the rule letting a retreat force them together until they can part
    not_in_entry_areas: Optional[str] = None  # the rule exempting reinforcements in their entry areas


@frozen
class ZocRule:
    """Zones of control (game.yaml rules.zoc). The bond fields apply to model `bonds` only."""
    model: Optional[str]                      # standard | bonds | none; None = not printed
    rule: Optional[str]
    post_min_steps: Optional[int] = None      # steps a ZOC post holds at least
    post_spacing: Optional[int] = None        # hexes between two posts a bond joins
    max_bonds_per_post: Optional[int] = None
    loc: Loc = NOWHERE
    exerted_by: Optional[str] = None          # "all" | "unknown": which units exert one (None: not said)
    blocked_by: tuple[str, ...] = ()          # hexside features a ZOC does not extend across
    exerted_assumed: Optional[str] = None     # why `exerted_by` is assumed (provenance: assumed), else None
    by_class: tuple["ZocClass", ...] = ()     # movement classes a ZOC treats otherwise than by stopping them
    blockers_assumed_absent: Optional[str] = None  # why an unprinted `blocked_by` hexside is assumed absent
    ignored_by: tuple[str, ...] = ()          # unit flags of units an enemy ZOC does not stop


@frozen
class ZocClass:
    """How an enemy ZOC treats units of one movement class (game.yaml rules.zoc.by_class): `stop` on
    entering it (the standard model), or `cost`: entering a ZOC hex costs `cost` more and the unit goes on."""
    movement_class: str
    enter: str                                # stop | cost
    cost: Optional[str] = None                # half-printed-ma: half the unit's printed movement factor, down
    rule: Optional[str] = None


@frozen
class TextRule:
    """A rule the tree keeps as printed text only (no data the referee can read)."""
    text: str
    rule: Optional[str]
    loc: Loc = NOWHERE


@frozen
class RetreatBeforeCombat:
    """The defender may retreat instead of a roll (game.yaml rules.combat.retreat_before_combat): `hexes`
    it retreats; `overrun` the rule number of attacks made during movement with the same choice, if any;
    `overrun_from_apart`: the rule that an overrun's attacker may not begin the phase next to an enemy;
    `hold_if`: defender states in which no retreat before combat is allowed (a Hold is mandatory), its rule."""
    rule: Optional[str]
    hexes: Optional[int] = None
    overrun: Optional[str] = None
    overrun_from_apart: Optional[str] = None
    hold_if: tuple[str, ...] = ()
    hold_rule: Optional[str] = None
    overrun_not_in: tuple[str, ...] = ()      # states in which a unit may not overrun (Ardennes II 3.3: DG)
    overrun_not_in_rule: Optional[str] = None
    bug_out: Optional["BugOut"] = None         # units that must run from an enemy next to them (Ardennes II 3.6)


@frozen
class BugOut:
    """Units of these types that run from an enemy next to them with at least `min_attack` (rules.combat.
    retreat_before_combat.bug_out, Ardennes II 3.6 "Artillery MUST Bug Out"), except in the states `not_in`."""
    types: tuple[str, ...]
    min_attack: int
    not_in: tuple[str, ...] = ()
    rule: Optional[str] = None


@frozen
class CombatRule:
    """How combat is resolved (game.yaml rules.combat), and the limits the rules put on it. Each limit
    is the number of the rule that prints it; None where the rules do not say so."""
    method: Optional[str]                     # odds | differential
    table: Optional[str]                      # id of the table in tables.yaml
    rule: Optional[str]
    loc: Loc = NOWHERE
    attack_once: Optional[str] = None         # each unit attacks at most once per combat phase
    defend_once: Optional[str] = None         # each hex is attacked at most once per combat phase
    combat_phases_only: Optional[str] = None  # no combat (no combat roll applied) outside the combat phases
    one_hex: Optional[str] = None             # each battle is fought against the units of one hex
    steps_by_combat_only: Optional[str] = None  # units lose or regain steps, or leave play, only by combat results
    step_losses_by_combat_only: Optional[str] = None  # a unit loses a step (flips) only by a combat result; other
                                                      # rules may remove units (Ardennes II 3.5: barrages take none)
    resolve_in_order: Optional[str] = None    # each battle's result is applied before the next battle's roll
    retreat_before_combat: Optional[RetreatBeforeCombat] = None  # a defender may retreat before the odds, no roll
    unjudged: tuple["TextRule", ...] = ()     # combat rules kept as text only: the referee does not judge them


@frozen
class Rules:
    """The game's rule parameters (game.yaml rules), typed, each with the rule number it comes from."""
    stacking: StackingRule
    mixing_rules: tuple[MixingRule, ...]
    zoc: ZocRule
    combat: CombatRule
    movement_classes: tuple[str, ...]
    other: dict                               # free mapping of further parameters (rules.other)
    loc: Loc = NOWHERE
    movement_rule: Optional[str] = None       # the rule of movement allowances and paths (what a move finding cites)
    enemy_hex_rule: Optional[str] = None      # the rule barring a hex an enemy holds (else movement_rule)
    one_at_a_time: Optional[OneAtATime] = None  # units move one at a time in every movement phase
    movement_modifiers: tuple = ()            # StrengthModifier (applies_to movement): a state's allowance factor
    adjacent_move_cost: Optional[tuple[int, str]] = None  # (MP, rule): a unit that began the phase next to an enemy
                                                          # pays this more for each move from such a hex to another


@frozen
class HexTerrain:
    """The terrain of one hex (terrain.yaml hexes)."""
    hex: str
    terrain: tuple[str, ...]
    loc: Loc = NOWHERE


@frozen
class Hexside:
    """A hexside feature between two hexes (terrain.yaml hexsides[]): a river, a bridge ..."""
    between: tuple[str, str]
    feature: str
    rule: Optional[str]
    loc: Loc = NOWHERE


@frozen
class Path:
    """A path feature along a chain of hexes (terrain.yaml paths[]): a road, a railway ..."""
    feature: str
    hexes: tuple[str, ...]
    rule: Optional[str]
    loc: Loc = NOWHERE


@frozen
class Terrain:
    """The map's terrain (terrain.yaml): the default, each hex's, the hexside and path features."""
    default: Optional[str]                    # None = unknown (not printed)
    hexes: tuple[HexTerrain, ...]
    hexsides: tuple[Hexside, ...]
    paths: tuple[Path, ...]
    loc: Loc = NOWHERE


@frozen
class Place:
    """A named place on the map (places.yaml places[]): a town, a city, with its hexes."""
    id: str
    name: str
    hexes: tuple[str, ...]
    kind: Optional[str]
    rule: Optional[str]
    loc: Loc = NOWHERE


@frozen
class VictoryHex:
    """A hex or place worth victory points (places.yaml victory[])."""
    hex: Optional[str]
    place: Optional[str]
    value: Optional[int]
    side: Optional[str]
    rule: Optional[str]
    loc: Loc = NOWHERE


@frozen
class Area:
    """A named group of hexes where units enter or deploy (places.yaml areas[])."""
    id: str
    kind: str                                 # entry | deployment
    name: Optional[str]
    hexes: Optional[tuple[str, ...]]          # None = not printed
    rule: Optional[str]
    loc: Loc = NOWHERE


@frozen
class MapFeature:
    """A marker printed on the map (places.yaml features[], or a scenario's): a fort, a blown bridge ..."""
    kind: str                                 # fort | blown-bridge | fuel-dump | improved-position ...
    hex: str
    side: Optional[str]
    unit: Optional[str]
    rule: Optional[str]
    loc: Loc = NOWHERE


@frozen
class SupplySource:
    """A supply source of one side (places.yaml supply_sources[]): a hex, or the rules' text."""
    side: str
    hex: Optional[str]
    text: Optional[str]
    rule: Optional[str]
    loc: Loc = NOWHERE


@frozen
class Places:
    """Everything places.yaml names on the map."""
    places: tuple[Place, ...]
    victory: tuple[VictoryHex, ...]
    areas: tuple[Area, ...]
    features: tuple[MapFeature, ...]
    supply_sources: tuple[SupplySource, ...]


COST_KINDS = ("mp", "added", "prohibited", "code")


@frozen
class Cost:
    """One TEC movement cell, read: a number of MP, or a code the TEC's notes explain.

    - ``mp``: entering costs `mp` movement points ("2 MP", "1/2", "½");
    - ``added``: `mp` is added to the cost of the hex's other terrain ("+2 MP");
    - ``prohibited``: the class may not enter; `code` is the printed code ("P", "Prohibited") and
      `meaning` what the notes say it means ("Prohibited.", "Not Allowed.");
    - ``code``: another code, e.g. "ot" = "Use Other Terrain in the hex", or a footnote alone ("(b)");
      `meaning` is None when the TEC's notes do not explain the code.
    `notes` are the footnote markers printed in the cell ("1 MP (b)" -> ("b",)).
    """
    printed: str
    kind: str                                 # one of COST_KINDS
    mp: Optional[Fraction] = None
    code: Optional[str] = None
    meaning: Optional[str] = None
    notes: tuple[str, ...] = ()

    @property
    def prohibited(self) -> bool:
        return self.kind == "prohibited"


@frozen
class TerrainType:
    """One row of the terrain effects chart (tec.yaml terrain[]): its movement cells as printed and read."""
    id: str
    name: str
    kind: str                                 # hex | hexside | path | other
    movement: dict                            # movement class -> printed cell
    combat: Optional[str]
    other: dict
    loc: Loc = NOWHERE
    costs: dict = field(default_factory=dict)  # movement class -> Cost (the `movement` cells, read)
    rule: Optional[str] = None
    cancels: tuple[str, ...] = ()             # terrain ids this feature removes where both are present (bridge: river)


@frozen
class TEC:
    """The terrain effects chart (tec.yaml): its movement classes, rows and notes."""
    movement_classes: tuple[str, ...]
    terrain: tuple[TerrainType, ...]
    notes: dict
    complete: bool
    missing: tuple[str, ...]
    loc: Loc = NOWHERE

    def other_columns(self) -> list[str]:
        """The chart's extra printed columns (e.g. Ardennes II's barrage roll), in first-seen order."""
        return list(dict.fromkeys(k for t in self.terrain for k in t.other))


@frozen
class TableRow:
    """One row of a table (tables.yaml rows[]): the roll as printed and read, one result per column."""
    roll: str                                 # as printed: "2 or 3", "-1", "1-3"
    rolls: tuple[int, ...]                    # parsed; () if unreadable
    results: tuple[str, ...]
    loc: Loc = NOWHERE


@frozen
class SideEffect:
    """What a combat result does to one side, as the key prints it. Numbers are a count or "#" (the
    number printed with the result, as in "DR2")."""
    eliminated: bool = False                  # every unit of the side in the battle
    steps: Optional[str] = None               # steps lost (a one-step unit losing a step is eliminated)
    units: Optional[str] = None               # whole units eliminated, of the owner's choice
    retreat: Optional[str] = None             # hexes every unit of the side retreats
    advance: Optional[str] = None             # hexes the side may advance
    blocked: Optional[str] = None             # a retreat that cannot be made: eliminated | deplete | unknown
    or_steps: Optional[str] = None            # instead of retreating the side may lose this many steps


@frozen
class ResultEffect:
    """The structured effect of a result code; `designated` is the side the code before it names ("D1r1")."""
    rule: Optional[str]
    attacker: Optional[SideEffect] = None
    defender: Optional[SideEffect] = None
    designated: Optional[SideEffect] = None


@frozen
class ResultCode:
    """A result code of a table's key (tables.yaml key[]): what it means, as text and as data."""
    code: str
    meaning: str
    loc: Loc = NOWHERE
    effect: Optional[ResultEffect] = None     # None = effect unknown (only the meaning text is in the tree)


@frozen
class DrmCondition:
    """A DRM's condition as data (tables.yaml `if:`): every part given must hold; () / None = not part of it."""
    attacker_type: tuple[str, ...] = ()       # at least one attacking unit is of one of these types
    attacker_class: tuple[str, ...] = ()      # at least one attacking unit is of one of these movement classes
    defender_terrain: tuple[str, ...] = ()    # the defender's hex is of one of these terrains
    attack_hexes: Optional[int] = None        # the defender is attacked from at least this many hexes
    across: tuple[str, ...] = ()              # every attacking unit attacks across one of these hexside features


@frozen
class DRM:
    """A die-roll modifier of a table (tables.yaml drm[]): its value and when it applies."""
    value: int
    when: str
    rule: Optional[str]
    side: Optional[str] = None                # the attacking side it applies to; None = either
    repeats: bool = False                     # may apply several times ("per 20 points", "for each air unit")
    condition: Optional[DrmCondition] = None  # `if:` as data; None = only the `when` text (may or may not apply)


@frozen
class UnitCondition:
    """When a strength modifier applies to a unit (tables.yaml strength_modifiers[].if): every part given
    must hold; () = not part of it."""
    state: tuple[str, ...] = ()               # the unit is in one of these states (its own, or a marker's)
    marker: tuple[str, ...] = ()              # a marker of one of these ids stands in the unit's hex
    terrain: tuple[str, ...] = ()             # the unit's hex is of one of these terrains (TEC ids)


@frozen
class StrengthModifier:
    """What changes a unit's printed strength before the odds or differential (tables.yaml
    strength_modifiers[]): a multiplier (`factor`: 2, 1/2) or an addition of a size the log cannot show
    (`adds_unknown`: support fire), to the attack of attacking units and/or the defense of defending ones."""
    id: str
    applies_to: tuple[str, ...]               # attack | defense
    factor: Optional[Fraction] = None
    adds_unknown: bool = False
    rounding: str = "unknown"                 # up | down | unknown (both tried)
    side: Optional[str] = None                # only units of this side
    condition: Optional[UnitCondition] = None  # None: it may or may not apply to any unit (both tried)
    when: Optional[str] = None
    rule: Optional[str] = None


@frozen
class ColumnShift:
    """A column shift a rulebook prints outside its TEC (tables.yaml shifts[]): `columns` (negative: left),
    or any number between `least` and `most` where only its bound is printed; per battle or per attacking
    stack that meets the condition."""
    id: str
    least: int
    most: int
    per: str = "battle"                       # battle | attacking-stack
    condition: Optional["DrmCondition"] = None
    when: Optional[str] = None
    rule: Optional[str] = None


@frozen
class Unprinted:
    """Where cells a table does not print (or prints uncertainly) could lie (tables.yaml unprinted[]): the
    cells of `rows` x `columns` (None: every one) may hold any of `any_of` (cells as they would be printed;
    () with `key`: any one code of the table's key). `likely`: the reading the tree takes as likely (the
    others rest on an assumption the tree declares unlikely). `gap_likely`: for a row printing fewer cells
    than columns, the column whose cell is most likely the missing one."""
    rows: Optional[tuple[int, ...]]
    columns: Optional[tuple[str, ...]]
    any_of: tuple[str, ...] = ()
    key: bool = False
    likely: Optional[str] = None
    gap_likely: Optional[str] = None
    note: Optional[str] = None
    rule: Optional[str] = None


@frozen
class TableStrengths:
    """How a combat table's column is entered: the factor names summed for attack and defense, and whether
    those printed factors fix it (`complete`: no support fire, halving or other modifier the tree lacks)."""
    attack: str = "attack"
    defense: str = "defense"
    complete: bool = False
    rule: Optional[str] = None


@frozen
class TableClamp:
    """What a combat outside the printed columns uses: the "lowest"/"highest" column, "prohibited" (no such
    attack may be made) or "unknown" (the tree does not say)."""
    below: str = "unknown"
    above: str = "unknown"
    rule: Optional[str] = None
    shift_below: str = "unknown"              # a terrain shift past the first column: lowest | prohibited | unknown
    shift_above: str = "unknown"              # a shift past the last column: highest | prohibited | unknown
    shift_rule: Optional[str] = None


@frozen
class AfterCombat:
    """How the referee may judge retreats and advances after a battle (tables.yaml `after_combat`)."""
    retreat: Optional[str] = None             # exactly | at_most: a unit retreating N ends that far from its hex
    avoids: tuple[str, ...] = ()              # what a retreat never enters: enemy_units | enemy_zoc |
                                              # prohibited_terrain | overstack (ends over the stacking limit)
    advance: Optional[str] = None             # defender_hex_first: an advance enters the vacated defender hex first
    rule: Optional[str] = None
    advance_hexes: Optional[int] = None       # an advance into a vacated hex after any result, this far at most
    advance_by: Optional[str] = None          # who may advance: "attackers" (units that attacked and did not retreat)
    advance_units: Optional[int] = None       # how many units may advance at most
    advance_rule: Optional[str] = None        # the rule of advances (`rule`: of retreats)
    displaces: Optional[str] = None           # a retreat may displace a friendly unit one hex (its rule)


@frozen
class Table:
    """A printed table (tables.yaml tables[]): a combat results table or another roll table."""
    id: str
    name: str
    kind: str                                 # combat | other
    rule: Optional[str]
    dice: Optional[str]
    method: Optional[str]
    columns: tuple[str, ...]
    rows: tuple[TableRow, ...]
    rolls: Optional[tuple[int, int]]          # inclusive range the table must cover
    key: tuple[ResultCode, ...]
    separators: tuple[str, ...]
    drm: tuple[DRM, ...]
    reconstruction: Optional[str]
    uncertain: tuple[dict, ...]
    complete: bool
    extra: dict                               # other printed header rows (e.g. terrain rows of Aachen's CRT)
    loc: Loc = NOWHERE
    notes: tuple[str, ...] = ()               # footnotes printed with the table
    die: Optional[Dice] = None                # the declared die `dice` names (game.yaml dice); None if none
    clamp: TableClamp = TableClamp()
    sides: tuple[str, ...] = ()               # attacking sides that may use the table; () = every side
    drm_from: Optional[str] = None            # another table whose modifiers apply to this one too
    rounding: Optional[str] = None            # how an odds ratio rounds: defender | attacker | nearest
    rounding_rule: Optional[str] = None
    strengths: TableStrengths = TableStrengths()
    after_combat: Optional[AfterCombat] = None  # None: retreats and advances are not judged
    requires: Optional[DrmCondition] = None   # when the table may be used at all (a special attack's table)
    strength_modifiers: tuple[StrengthModifier, ...] = ()
    shifts: tuple[ColumnShift, ...] = ()
    terrain_shifts: Optional[str] = None      # left | right | both: the way unprinted terrain may shift the column
    unprinted: tuple[Unprinted, ...] = ()

    def roll_range(self) -> Optional[tuple[int, int]]:
        """The rolls the table must cover (inclusive): as printed, else every total of its declared die."""
        if self.rolls:
            return self.rolls
        if self.die is None:
            return None
        return self.die.count, self.die.count * self.die.sides


@frozen
class Factors:
    """A factor string as printed ("3-5-10", "[9]-1-16") and what it reads as."""
    printed: str
    values: dict                              # name (from game.factors) -> int | None
    bracketed: bool                           # first value printed in brackets (artillery)

    def get(self, name: str) -> Optional[int]:
        return self.values.get(name)


@frozen
class Formation:
    """A formation of units (counters.yaml formations[]): a division, a corps ..."""
    id: str
    name: str
    side: str
    nationality: Optional[str]
    loc: Loc = NOWHERE


@frozen
class Unit:
    """A kind of unit counter (counters.yaml units[]): its designation, type, size and factors as printed."""
    id: str
    name: str                                 # designation as printed
    label: Optional[str]
    side: str
    nationality: Optional[str]
    formation: Optional[str]
    type: str
    size: Optional[str]
    factors: Optional[Factors]
    movement_class: Optional[str]
    range: Optional[int]
    steps: int
    reduced: Optional[Factors]
    flags: tuple[str, ...]
    count: Optional[int]                      # counters of this kind; None = unknown
    provenance: str
    loc: Loc = NOWHERE
    steps_sure: bool = True                   # False: `steps` is counters.yaml's default, which some units break

    def flagged(self, flags: tuple[str, ...]) -> bool:
        """The unit has one of these flags (counters.yaml `flags`)."""
        return not set(self.flags).isdisjoint(flags)


@frozen
class Marker:
    """A kind of marker counter (counters.yaml markers[])."""
    id: str
    name: str
    count: Optional[int]
    loc: Loc = NOWHERE
    side: Optional[str] = None
    states: tuple[str, ...] = ()              # unit states this marker shows ("improved-position" -> fort)
    whole_stack: bool = False                 # it shows them for every unit of its hex (Ardennes II 3.4)
    removed_in: tuple[str, ...] = ()          # the phases it may be taken off the units it marks in (): any
    removed_in_rule: Optional[str] = None
    removed_if: Optional[str] = None          # terms the rules set on that removal, as printed (not judged)


@frozen
class Location:
    """Where a set-up or arrival goes: exactly one of the fields is set."""
    hex: Optional[str] = None
    any_of: Optional[tuple[str, ...]] = None
    range: Optional[tuple[str, str]] = None
    area: Optional[str] = None
    any_area: Optional[tuple[str, ...]] = None  # "N or O": one of these areas
    within: Optional[tuple[int, str]] = None  # (distance, hex)
    printed: Optional[str] = None
    loc: Loc = NOWHERE                        # where the location value was written (or patched)

    def hex_refs(self) -> tuple[str, ...]:
        """Every hex ID this location writes (what the hex-ID checks validate). The hexes it covers,
        in placing order, are `validator.geometry.locations.location_hexes`."""
        if self.hex:
            return (self.hex,)
        if self.any_of:
            return self.any_of
        if self.range:
            return self.range
        if self.within:
            return (self.within[1],)
        return ()

    def __str__(self) -> str:
        if self.printed:
            return self.printed
        if self.hex:
            return self.hex
        if self.any_of:
            return " or ".join(self.any_of)
        if self.range:
            return f"{self.range[0]} to {self.range[1]}"
        if self.area:
            return f"area {self.area}"
        if self.any_area:
            return "area " + " or ".join(self.any_area)
        if self.within:
            return f"w/i {self.within[0]} {self.within[1]}"
        return "?"


@frozen
class Placement:
    """One unit line in a set-up, arrival or removal."""
    unit: str                                 # unit id
    printed: Optional[str]                    # the designation as printed in this list
    state: tuple[str, ...]                    # dg | reduced | ...
    count: int                                # 1 when the list prints no count (see count_printed)
    count_printed: bool = True
    gap: Optional[str] = None                 # id of a declared gap this line stands for
    loc: Loc = NOWHERE


@frozen
class Deployment:
    """A group the rules place by area or hexes without listing its units (Bulge 47.3: 'Units A ...')."""
    side: str
    group: Optional[str]
    location: Location                        # may name an area and hexes together ("A or in hex UU4")
    on_map: bool
    text: Optional[str]
    rule: Optional[str]
    loc: Loc = NOWHERE


@frozen
class SetupGroup:
    """One line of a scenario's set-up: a side's units placed at one location."""
    side: str
    formation: Optional[str]
    location: Location
    units: tuple[Placement, ...]
    loc: Loc = NOWHERE
    gap: Optional[str] = None                 # a declared gap: the line's units are not printed


@frozen
class ArrivalTerms:
    """An arrival's condition as data (an arrival's `terms`; its printed wording stays `condition`): when it
    may arrive, in which phase, whether it may be held back, what a roll decides, where else it may enter,
    what it may not do on arriving. `judged` False where a part rests on data the tree does not print
    (`why` names it)."""
    kind: str                                 # roll | airdrop | trigger | choice | delay | prohibition | placement
    rule: Optional[str] = None
    optional: bool = False                    # the owner may decline the arrival altogether
    turn_exactly: Optional[str] = None        # only on this turn (no earlier, no later)
    turn_from: Optional[str] = None           # not before this turn
    earlier: Optional[str] = None             # possible | never: may a condition bring it before its turn
    phase: Optional[str] = None               # the phase id it arrives in
    delay: Optional[str] = None               # forbidden | allowed
    roll_dice: Optional[str] = None           # the roll that decides it ("1d6") ...
    roll_success: tuple[int, ...] = ()        # ... and the faces on which it succeeds
    on_failure: Optional[str] = None          # eliminated | does-not-arrive
    roll_rule: Optional[str] = None
    alternative_within: Optional[int] = None  # where its entry hex is enemy-held: any hex this near it
    no_move_turn: Optional[str] = None        # it may not move on this turn
    no_move_rule: Optional[str] = None
    mandatory_when_met: bool = False
    judged: bool = True
    why: Optional[str] = None
    loc: Loc = NOWHERE


@frozen
class Arrival:
    """Units arriving as reinforcements in one turn, where they enter."""
    entry: Location
    formation: Optional[str]
    units: tuple[Placement, ...]
    condition: Optional[str]                  # the condition's printed wording
    loc: Loc = NOWHERE
    gap: Optional[str] = None
    terms: Optional[ArrivalTerms] = None      # the condition as data
    also_printed: tuple["EntryPrinted", ...] = ()   # the entry as another rule prints it, where the print disagrees


@frozen
class EntryPrinted:
    """An arrival's entry as another rule of the rulebook prints it (the print disagrees with itself)."""
    entry: Location
    rule: Optional[str]
    loc: Loc = NOWHERE


@frozen
class Removal:
    """Units withdrawn from play in one turn (all of a formation but `except_`, or those listed)."""
    units: tuple[Placement, ...]
    formation: Optional[str]
    except_: tuple[Placement, ...]
    loc: Loc = NOWHERE


@frozen
class TurnBlock:
    """One turn of an order of arrival: the arrivals and removals printed under its heading."""
    turn: str                                 # turn id as printed in the heading
    printed: Optional[str]
    arrivals: tuple[Arrival, ...]
    removals: tuple[Removal, ...]
    loc: Loc = NOWHERE


@frozen
class OrderOfArrival:
    """One side's reinforcements and withdrawals by turn (orders-of-arrival.yaml, or a scenario's)."""
    side: str
    rule: Optional[str]
    turns: tuple[TurnBlock, ...]
    source: str                               # "orders-of-arrival" or "scenario"
    loc: Loc = NOWHERE


@frozen
class Box:
    """A rectangle of hexes of one board (or of any board) that a scenario plays on."""
    board: Optional[str]
    columns: tuple[Optional[int], Optional[int]]
    rows: tuple[Optional[int], Optional[int]]
    loc: Loc = NOWHERE

    def contains(self, board: str, column: int, row: int) -> bool:
        """Inclusive bounds; None leaves that side (or the board) open."""
        return ((self.board is None or self.board == board)
                and (self.columns[0] is None or column >= self.columns[0])
                and (self.columns[1] is None or column <= self.columns[1])
                and (self.rows[0] is None or row >= self.rows[0])
                and (self.rows[1] is None or row <= self.rows[1]))


@frozen
class VictoryTerms:
    """How a scenario is won, where the tree gives it as data (scenarios/*.yaml `victory`: `control`,
    `wins`): who controls the victory hexes at the start, how control changes, who wins with how many
    points (else the other side)."""
    control_start: Optional[str]              # the side controlling every victory hex at the start
    control_changes: Optional[str]            # "entered": a hex changes control when a unit of another side enters it
    control_rule: Optional[str]
    winner: Optional[str]
    points: Optional[int]
    rule: Optional[str]
    loc: Loc = NOWHERE


@frozen
class LastTurnReduction:
    """A scenario shortened by its losses (special_rules[].last_turn_reduction): `turns` fewer for each unit
    of `side` eliminated; `at_once`: an elimination making the current turn the last ends the game there."""
    side: str
    turns: int
    at_once: bool
    rule: Optional[str]
    per: Optional[str] = None                 # the rule's words for what counts


@frozen
class Scenario:
    """One scenario (scenarios/*.yaml): its boards, turns, set-up, reinforcements and victory conditions."""
    id: str
    name: str
    rule: Optional[str]
    boards: tuple[str, ...]
    play_area: Optional[tuple[Box, ...]]      # None = whole boards
    first_turn: Optional[str]
    last_turn: Optional[str]
    setup: tuple[SetupGroup, ...]
    setup_printed: bool                       # False when the set-up is declared not printed
    deployments: tuple[Deployment, ...]
    features: tuple["MapFeature", ...]        # markers this scenario puts on the map (blown bridges ...)
    orders_of_arrival: tuple[str, ...]        # sides using the game's orders of arrival
    reinforcements: tuple[OrderOfArrival, ...]
    removals: tuple[Removal, ...]
    supply_sources: tuple[dict, ...]
    victory: dict
    special_rules: tuple[dict, ...]
    loc: Loc = NOWHERE
    victory_terms: Optional[VictoryTerms] = None
    last_turn_reduction: Optional[LastTurnReduction] = None


@frozen
class Patch:
    """One change an erratum makes to the data (errata/*.yaml items[].patches[])."""
    op: str
    file: str
    path: tuple
    from_: object
    to: object
    value: object
    loc: Loc = NOWHERE


@frozen
class ErratumItem:
    """One erratum: the published wording and the patches that apply it to the data."""
    id: str
    section: Optional[str]
    wording: str
    patches: tuple[Patch, ...]
    loc: Loc = NOWHERE
    acknowledged: Optional[str] = None        # why the tree knows this erratum does not apply


@frozen
class Errata:
    """One errata document (errata/*.yaml): the publisher's, or the tree's editorial corrections."""
    id: str
    title: str
    source: Optional[str]
    date: Optional[str]
    items: tuple[ErratumItem, ...]
    loc: Loc = NOWHERE
    kind: str = "official"                    # official (the publisher's) | editorial (the tree's editors')


# -- the author's art (art.yaml) --------------------------------------------------------------------

IMAGE_FAULTS = ("outside", "missing", "not-a-file", "too-large", "unreadable", "cmyk", "rotated")


@frozen
class ImageFile:
    """An image the tree names, as the loader found it (`validator.source.images.inspect`): its facts, or the
    fault that keeps it out (one of IMAGE_FAULTS, `detail` in words)."""
    path: str                                 # as written, relative to the tree
    loc: Loc = NOWHERE
    format: Optional[str] = None              # PNG | JPEG
    width: int = 0
    height: int = 0
    mode: Optional[str] = None                # Pillow's mode: RGB, RGBA, P, L, LA, I;16 ...
    bytes: int = 0
    digest: Optional[str] = None              # SHA-256 of the file: what keys every drawing made from it
    fault: Optional[str] = None
    detail: Optional[str] = None

    @property
    def usable(self) -> bool:
        return self.fault is None

    @property
    def size(self) -> tuple[int, int]:
        return self.width, self.height


@frozen
class ReferenceHex:
    """A hex whose centre the author measured in a board's image (art.yaml boards[].registration[])."""
    hex: str
    at: tuple[float, float]                   # image pixels: x right, y down
    loc: Loc = NOWHERE


@frozen
class BoardArt:
    """A board's own image and where its hexes lie in it: one reference hex and the spacings, or two
    reference hexes (the spacings follow)."""
    board: str
    image: ImageFile
    registration: tuple[ReferenceHex, ...]
    spacing: Optional[tuple[float, float]]    # px from one column to the next, from one row to the next
    loc: Loc = NOWHERE


@frozen
class SheetCell:
    """One cell of a counter sheet that shows a counter face (art.yaml sheets[].cells, 1-based)."""
    row: int
    column: int
    kind: str                                 # unit | marker
    id: str
    face: str                                 # front | back
    loc: Loc = NOWHERE


@frozen
class CounterSheet:
    """A counter-sheet image sliced by a grid: cell (row, column) spans `size` pixels from
    origin + ((column - 1) * pitch x, (row - 1) * pitch y)."""
    image: ImageFile
    origin: tuple[float, float]
    pitch: tuple[float, float]
    size: tuple[float, float]                 # the counter within its cell (the pitch unless given)
    columns: int
    rows: int
    cells: tuple[SheetCell, ...]
    loc: Loc = NOWHERE

    def box(self, cell: SheetCell) -> tuple[int, int, int, int]:
        """The cell's pixels in the sheet image: (left, top, right, bottom), right and bottom excluded."""
        x = self.origin[0] + (cell.column - 1) * self.pitch[0]
        y = self.origin[1] + (cell.row - 1) * self.pitch[1]
        return round(x), round(y), round(x + self.size[0]), round(y + self.size[1])


COUNTER_ART_KINDS = ("unit", "formation", "type", "marker")


@frozen
class CounterArt:
    """Front and back images for a unit, every unit of a formation or of a type, or a marker (art.yaml counters[])."""
    kind: str                                 # one of COUNTER_ART_KINDS
    id: str
    front: Optional[ImageFile]
    back: Optional[ImageFile]
    loc: Loc = NOWHERE


@frozen
class Face:
    """The art of one counter face: an image, whole or one cell's box of a sheet, and where the tree names it."""
    image: ImageFile
    box: Optional[tuple[int, int, int, int]]  # None = the whole image
    loc: Loc = NOWHERE


@frozen
class Art:
    """The author's own art (art.yaml); empty where the tree has none, and hexforge draws everything."""
    boards: tuple[BoardArt, ...] = ()
    counters: tuple[CounterArt, ...] = ()
    sheets: tuple[CounterSheet, ...] = ()
    loc: Loc = NOWHERE

    def images(self) -> tuple[ImageFile, ...]:
        """Every image named, in the file's order (an image named twice, twice)."""
        out = [b.image for b in self.boards] + [s.image for s in self.sheets]
        out += [i for c in self.counters for i in (c.front, c.back) if i is not None]
        return tuple(out)


NO_ART = Art()


@frozen
class Game:
    """A whole game tree, read and checked: everything downstream (checks, module, charts, audit) reads this."""
    id: str
    title: str
    publisher: Optional[str]
    series: Optional[str]
    root: str                                 # the tree's directory
    counter_size_in: float
    factor_names: tuple[str, ...]
    sides: tuple[Side, ...]
    turns: tuple[Turn, ...]
    phases: tuple[Phase, ...]
    dice: tuple[Dice, ...]
    rules: Rules
    gaps: tuple[Gap, ...]
    grid: Grid
    rows_increase: str                        # "south" (row 1 at the top) or "north": how boards are drawn
    joins: tuple[dict, ...]
    terrain: Terrain
    places: Places
    tec: Optional[TEC]
    tables: tuple[Table, ...]
    formations: tuple[Formation, ...]
    units: tuple[Unit, ...]
    markers: tuple[Marker, ...]
    orders_of_arrival: tuple[OrderOfArrival, ...]
    scenarios: tuple[Scenario, ...]
    errata: tuple[Errata, ...]
    errata_applied: bool
    assumptions: tuple[Assumption, ...]
    files: tuple[str, ...]                    # files read, relative to root
    loc: Loc = NOWHERE
    art: Art = NO_ART                         # the author's map and counter art (art.yaml)
    _index: dict = field(default_factory=dict, compare=False, repr=False)

    # -- look-ups (built once by the loader) --
    def unit(self, uid: str) -> Optional[Unit]:
        return self._index["units"].get(uid)

    def formation(self, fid: str) -> Optional[Formation]:
        return self._index["formations"].get(fid)

    def marker(self, mid: str) -> Optional[Marker]:
        return self._index["markers"].get(mid)

    def side(self, sid: str) -> Optional[Side]:
        return self._index["sides"].get(sid)

    def turn(self, tid: str) -> Optional[Turn]:
        return self._index["turns"].get(tid)

    def phase(self, pid: Optional[str]) -> Optional[Phase]:
        """A phase of the sequence of play by its id (None for an id it does not have, or None)."""
        return self._index["phases"].get(pid)

    def area(self, aid: str) -> Optional[Area]:
        return self._index["areas"].get(aid)

    def terrain_type(self, tid: str) -> Optional[TerrainType]:
        return self._index["terrain_types"].get(tid)

    def nationality(self, nid: str) -> Optional[Nationality]:
        return self._index["nationalities"].get(nid)

    def scenario(self, sid: str) -> Optional[Scenario]:
        return self._index["scenarios"].get(sid)

    def hex_terrain(self, hex_id: str) -> tuple[str, ...]:
        """Terrain ids of a hex; () when unknown (not printed)."""
        t = self._index["hex_terrain"].get(hex_id)
        if t is not None:
            return t
        return (self.terrain.default,) if self.terrain.default else ()

    def board_art(self, board_id: str) -> Optional[BoardArt]:
        """The board's own image and registration, if art.yaml gives one (the first, if it gives two)."""
        return self._index.get("board_art", {}).get(board_id)

    def face_art(self, kind: str, cid: str, face: str) -> Optional[Face]:
        """The art of a unit's or marker's face ("front" | "back"): for a unit its own counters[] entry,
        else a sheet cell, else its formation's, else its type's; None: hexforge draws it."""
        return self._index.get("faces", {}).get((kind, cid, face))

    def scenario_arrivals(self, scenario: Scenario) -> tuple[OrderOfArrival, ...]:
        """The orders of arrival that apply to a scenario: the game's (for the sides it names) and its own."""
        shared = tuple(o for o in self.orders_of_arrival if o.side in scenario.orders_of_arrival)
        return shared + scenario.reinforcements
