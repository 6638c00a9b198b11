"""JSON Schemas (2020-12) for every kind of source file, and located schema validation.

The schemas are data shipped with the package; `hexforge schema DIR` writes them out as
`<kind>.schema.json` so an editor (e.g. the YAML language server) validates while you type.
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Iterator

import fastjsonschema

from .compiled import load_validator
from .model import Loc
from .yamlsrc import LocList, LocMap

DRAFT = "https://json-schema.org/draft/2020-12/schema"
BASE = "https://hexforge.invalid/schema/"

_s = {"type": "string"}
_sn = {"type": ["string", "null"]}
_int = {"type": "integer"}
_intn = {"type": ["integer", "null"]}
_strs = {"type": "array", "items": _s}
_prov = {"enum": ["printed", "inferred", "assumed"]}
# Bounds no printed game comes near, so that a typo cannot make a build or a check run for hours.
MAX_COUNT = 999        # counters of one kind (the largest printed mix has a few dozen of a kind)
MAX_DISTANCE = 99      # hexes (the largest printed maps are under 100 hexes across)
_count = {"type": ["integer", "null"], "minimum": 1, "maximum": MAX_COUNT}
_id = {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_.+/-]*$",
       "description": "an id: letters, digits and _ . + / - (not starting with a punctuation mark)"}
_common = {"rule": _sn, "note": _sn, "provenance": _prov}


def _obj(required=(), extra_ok=False, **props):
    props = {**_common, **props}
    o = {"type": "object", "properties": props, "additionalProperties": bool(extra_ok)}
    if required:
        o["required"] = list(required)
    return o


LOCATION_KEYS = ("hex", "any_of", "range", "area", "any_area", "within")
_hex = {"type": "string", "minLength": 1, "description": "a hex ID exactly as printed (quote it)"}
_hexes = {"type": "array", "items": {"$ref": "#/$defs/hex"}}
_turn = {"type": "string", "minLength": 1, "description": "a turn id as printed on the turn track (quote it)"}

_DEFS = {
    "one_at_a_time": _obj(
        ["rule"], move_ends_when_another_starts={"type": "boolean"},
        stacks={"enum": ["together", "individually"]}),
    "hex": _hex,
    "turn": _turn,
    "placement": _obj(
        ["unit"],
        unit={"type": "string", "minLength": 1},
        printed=_sn,
        state={"type": "array", "items": _s},
        count=_count,
        gap=_sn,
    ),
    "placements": {"type": "array", "items": {"$ref": "#/$defs/placement"}},
    "location": {
        "type": "object",
        "properties": {
            "hex": {"$ref": "#/$defs/hex"},
            "any_of": {**_hexes, "minItems": 1},
            "range": {**_hexes, "minItems": 2, "maxItems": 2},
            "area": _s,
            "any_area": {**_strs, "minItems": 2},
            "within": _obj(["distance", "of"], distance={"type": "integer", "minimum": 0, "maximum": MAX_DISTANCE},
                           of={"$ref": "#/$defs/hex"}),
            "printed_location": _sn,
        },
        "additionalProperties": False,
        "oneOf": [{"required": [k]} for k in LOCATION_KEYS],
    },
    "arrival": _obj(
        ["entry"],
        entry={"$ref": "#/$defs/location"},
        formation=_sn,
        units={"$ref": "#/$defs/placements"},
        condition=_sn,
        gap=_sn,
        also_printed={"type": "array", "maxItems": 8, "items": _obj(["entry"], entry={"$ref": "#/$defs/location"}),
                      "description": "the entry as another rule prints it, where the rulebook disagrees with "
                                     "itself: the audit accepts any of them, check reports it (HF514)"},
        terms=_obj(
            ["kind"], kind={"enum": ["roll", "airdrop", "trigger", "choice", "delay", "prohibition", "placement"]},
            optional={"type": "boolean"},
            turn=_obj(exactly={"$ref": "#/$defs/turn"}, **{"from": {"$ref": "#/$defs/turn"}}),
            earlier={"enum": ["possible", "never"]}, phase=_s, delay={"enum": ["forbidden", "allowed"]},
            roll=_obj(["dice", "success"], dice=_s,
                      success={"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 999}},
                      on_failure={"enum": ["eliminated", "does-not-arrive"]}),
            alternative_entry=_obj(["within"], within={"type": "integer", "minimum": 1, "maximum": MAX_DISTANCE},
                                   when={"enum": ["entry-enemy-held"]}),
            after_arrival=_obj(no_move_turn={"$ref": "#/$defs/turn"}),    # `rule`: the rule that says so
            mandatory_when_met={"type": "boolean"}, judged={"type": "boolean"}, why=_sn),
    ),
    "removal": _obj(
        formation=_sn,
        units={"$ref": "#/$defs/placements"},
        **{"except": {"$ref": "#/$defs/placements"}},
        condition=_sn,
    ),
    "turn_block": _obj(
        ["turn"],
        turn={"$ref": "#/$defs/turn"},
        printed=_sn,
        arrivals={"type": "array", "items": {"$ref": "#/$defs/arrival"}},
        removals={"type": "array", "items": {"$ref": "#/$defs/removal"}},
    ),
    "ooa": _obj(
        ["side", "turns"],
        side=_s,
        turns={"type": "array", "items": {"$ref": "#/$defs/turn_block"}},
    ),
    "box": _obj(
        columns={"type": "array", "items": _intn, "minItems": 2, "maxItems": 2},
        rows={"type": "array", "items": _intn, "minItems": 2, "maxItems": 2},
        board=_sn,
    ),
}

_gap = _obj(["id", "what"], id=_s, what=_s, severity={"enum": ["info", "warning"]})

_UNIT_IF = _obj(
    state={**_strs, "description": "the unit is in one of these states (its own, or shown by a marker)"},
    marker={**_strs, "description": "a marker of one of these ids stands in the unit's hex"},
    terrain={**_strs, "description": "the unit's hex is of one of these terrains (TEC ids)"})
_FACTOR = {"type": "string", "pattern": r"^[1-9][0-9]?(/[1-9][0-9]?)?$",
           "description": "a multiplier as printed: \"2\", \"1/2\", \"1/4\""}

GAME = _obj(
    ["id", "title", "sides", "turns"],
    id={"type": "string", "pattern": "^[a-z0-9][a-z0-9_-]*$"},
    title=_s, publisher=_sn, series=_sn, rulebook=_sn, edition=_sn,
    counter_size_in={"type": "number", "exclusiveMinimum": 0, "maximum": 3},
    counter_size_provenance=_prov,
    factors={"type": "array", "items": {"enum": ["attack", "defense", "movement", "combat", "range"]},
             "minItems": 1},
    sides={"type": "array", "minItems": 2, "items": _obj(
        ["id", "name", "nationalities"], id=_s, name=_s,
        also_called={**_strs, "description": "other names the rules print for the side (\"the Allied player\"): "
                                             "a chat line naming the side by one is read as naming it"},
        nationalities={"type": "array", "minItems": 1, "items": _obj(
            ["id", "name"], id=_s, name=_s,
            colour={"type": "string", "pattern": "^#[0-9a-fA-F]{6}$"},
            text_colour={"type": "string", "pattern": "^#[0-9a-fA-F]{6}$"})})},
    turns={"type": "array", "minItems": 1, "items": _obj(
        ["id"], id={"$ref": "#/$defs/turn"}, date=_sn, time={"enum": ["AM", "PM", None]}, label=_sn)},
    sequence_of_play={"type": "array", "items": _obj(
        ["id", "name"], id=_s, name=_s, side=_sn,
        moves={"oneOf": [{"enum": ["all"]}, _strs]}, combat={"type": "boolean"},
        one_at_a_time={"$ref": "#/$defs/one_at_a_time"},
        not_if_moved_in=_obj(["phases", "rule"], phases={**_strs, "minItems": 1}),
        arrivals=_obj(),
        retreats={**_obj(["rule"]), "description": "after a roll in this phase, units of the other side may "
                                                   "retreat (a bombardment's result): their drags are read as "
                                                   "retreats"},
        not_on_turns={**_obj(["turns", "rule"], turns={**_strs, "minItems": 1}),
                      "description": "turns the phase is left out of: no unit moves or fights in it then"},
        not_in_states={**_obj(["states", "rule"], states={**_strs, "minItems": 1}),
                       "description": "units in these states (on the piece, or by a marker marking the stack) may "
                                      "not move in the phase"},
        not_from_enemy_adjacent={**_obj(["rule"]), "description": "a unit that began the phase next to an "
                                                                  "enemy unit may not move in it"},
        attackers={**_obj(["classes", "rule"], classes={**_strs, "minItems": 1}),
                   "description": "the movement classes that may attack in the phase (the others may not)"},
        not_if_attacked_in={**_obj(["phases", "rule"], phases={**_strs, "minItems": 1}),
                            "description": "units that attacked in these earlier phases of the turn may not attack "
                                           "in this one"},
        special_moves={"type": "array", "description": "units the phase lets move (on some turns), under terms the "
                                                       "referee judges where given (roll, hexes)",
                       "items": _obj(["units", "rule"], units={**_strs, "minItems": 1}, turns=_strs,
                                     hexes={"type": "integer", "minimum": 1, "maximum": MAX_DISTANCE,
                                            "description": "the most hexes the move goes"},
                                     roll={**_obj(["dice", "success", "rule"], dice=_s,
                                                  success={"type": "object", "additionalProperties": {
                                                      "type": "array", "minItems": 1,
                                                      "items": {"type": "integer", "minimum": 1, "maximum": 999}},
                                                      "description": "turn id -> the totals that let it move"}),
                                           "description": "the roll the move needs first"},
                                     forfeit_if_zoc_entered_in={
                                         **_obj(["phases", "rule"], phases={**_strs, "minItems": 1}),
                                         "description": "a unit that entered an enemy ZOC in these phases of the "
                                                        "turn may not make the move"})})},
    dice={"type": "array", "items": _obj(["name", "count", "sides"], name=_s,
                                         count={"type": "integer", "minimum": 1},
                                         sides={"type": "integer", "minimum": 2})},
    rules=_obj(
        # every parameter here is typed in validator.source.model (StackingRule, MixingRule, ZocRule, CombatRule):
        # anything else is rejected rather than read and dropped
        stacking=_obj(limit=_intn, counts={"enum": ["units", "steps"]}, penalty=_sn,
                      uncounted={**_strs, "description": "unit flags (counters.yaml `flags`) whose units do not "
                                                          "count toward the limit (non-combat units)"}),
        mixing={"type": "array", "items": _obj(
            ["kind"], kind={"enum": ["divisional-integrity", "nationalities-apart"]},
            nationalities=_strs, penalty=_sn, except_state=_sn, severity={"enum": ["error", "warning"]},
            by_retreat={**_obj(), "description": "a retreat may force them together; they must part at the first "
                                                 "opportunity (the end of their side's next movement phase)"},
            not_in_entry_areas={**_obj(), "description": "the rule does not apply to reinforcements in their "
                                                         "entry areas"})},
        zoc=_obj(model={"enum": ["standard", "none", "bonds", None]},
                 post_min_steps={"type": "integer", "minimum": 1}, post_spacing={"type": "integer", "minimum": 1},
                 max_bonds_per_post={"type": "integer", "minimum": 1},
                 exerted_by={"anyOf": [{"enum": ["all", "unknown"]},
                                       _obj(["default"], default={"enum": ["all", "unknown"]})],
                             "description": "which units exert a ZOC; as a mapping with provenance: assumed and "
                                            "a note where the rules do not print it"},
                 blocked_by=_strs,
                 blocked_by_unprinted=_obj(["assume"], assume={"enum": ["absent"]}),
                 by_class={"type": "object", "additionalProperties": _obj(
                     ["enter"], enter={"enum": ["stop", "cost"]}, cost={"enum": ["half-printed-ma"]})},
                 ignored_by={**_strs, "description": "unit flags (counters.yaml `flags`) of units an enemy ZOC "
                                                     "does not stop"}),
        combat=_obj(method={"enum": ["odds", "differential", None]}, table=_sn,
                    attack_once={**_obj(), "description": "each unit attacks at most once per combat phase"},
                    defend_once={**_obj(), "description": "each hex is attacked at most once per combat phase"},
                    combat_phases_only={**_obj(), "description": "no combat result is applied outside the "
                                                                 "phases marked `combat`"},
                    one_hex={**_obj(), "description": "each battle is fought against the units of one hex"},
                    steps_by_combat_only={**_obj(), "description": "units lose or regain steps, or leave play, only "
                                                                   "by combat results (no other rule does)"},
                    step_losses_by_combat_only={**_obj(), "description": "a unit loses a step (flips to its "
                                                                         "reduced side) only by a combat result; "
                                                                         "other rules may still remove units"},
                    resolve_in_order={**_obj(), "description": "each battle is resolved, its result applied, before "
                                                               "the next battle's roll"},
                    retreat_before_combat={**_obj(hexes={"type": "integer", "minimum": 0, "maximum": MAX_DISTANCE},
                                                  overrun=_s,
                                                  overrun_from_apart={**_obj(), "description": "an overrun's "
                                                                      "attacker may not begin the phase next to "
                                                                      "an enemy unit"},
                                                  hold_if={**_obj(["states"], states=_strs), "description":
                                                           "defender states in which a Hold is mandatory"},
                                                  overrun_not_in={**_obj(["states"], states=_strs), "description":
                                                                  "states in which a unit may not overrun"},
                                                  bug_out={**_obj(["types"], types=_strs,
                                                                  min_attack={"type": "integer", "minimum": 0,
                                                                              "maximum": 1000},
                                                                  not_in=_strs),
                                                           "description": "units of these types that run from an "
                                                                          "enemy next to them of at least this "
                                                                          "attack, except in these states"}),
                                           "description": "the defender may retreat instead of a roll (no CRT "
                                                          "roll; the attacker may advance); `overrun`: the rule "
                                                          "of attacks during movement with the same choice"},
                    unjudged={"type": "array", "items": _obj(["text"], text=_s),
                              "description": "combat rules the rulebook prints that the tree keeps only as text: "
                                             "the referee does not judge them (hexforge check lists them)"}),
        movement_classes=_strs,
        one_at_a_time={"$ref": "#/$defs/one_at_a_time"},
        movement_rule={**_sn, "description": "the rule of movement allowances and paths, cited by move findings"},
        enemy_hex_rule={**_sn, "description": "the rule that bars a move into or through a hex an enemy unit holds "
                                              "(HF1202, HF1203; else movement_rule)"},
        movement_modifiers={"type": "array", "items": _obj(
            ["id", "factor", "if"], id=_s, factor=_FACTOR, rounding={"enum": ["up", "down", "unknown"]}, when=_sn,
            **{"if": _UNIT_IF}), "description": "what changes a unit's movement allowance in a state (DG: 1/2)"},
        adjacent_move_cost={**_obj(["mp", "rule"], mp={"type": "integer", "minimum": 1, "maximum": 99}),
                            "description": "a unit that began the phase next to an enemy unit pays this many MP more "
                                           "for each move from a hex next to an enemy unit to another"},
        other={"type": "object", "properties": {"formation_radius": {"type": "integer", "minimum": 0,
                                                                       "maximum": MAX_DISTANCE}}},
    ),
    gaps={"type": "array", "items": _gap},
)

MAP = _obj(
    ["scheme", "boards"],
    row_numbers_increase={"enum": ["south", "north"]},
    scheme={"enum": ["letters", "column-row", "map-column.row"]},
    orientation={"enum": ["columns", "rows"]},
    shifted={"enum": ["odd", "even"]},
    boards={"type": "array", "minItems": 1, "items": _obj(
        ["id", "columns", "rows"], id=_s, name=_sn,
        columns={"type": "array", "items": _int, "minItems": 2, "maxItems": 2},
        rows={"type": "array", "items": _int, "minItems": 2, "maxItems": 2},
        origin={"type": "array", "items": _int, "minItems": 2, "maxItems": 2})},
    joins={"type": "array", "items": _obj(
        ["board", "column", "meets"], board=_s, column=_int,
        meets=_obj(["board", "column"], board=_s, column=_int))},
    id_format=_obj(column_digits={"type": "integer", "minimum": 1, "maximum": 4},
                   row_digits={"type": "integer", "minimum": 1, "maximum": 4}),
)

TERRAIN = _obj(
    default=_sn,
    hexes={"type": "object", "additionalProperties": _strs},
    hexsides={"type": "array", "items": _obj(
        ["between", "feature"], between={**_hexes, "minItems": 2, "maxItems": 2}, feature=_s)},
    paths={"type": "array", "items": _obj(["feature", "hexes"], feature=_s, hexes=_hexes, name=_sn)},
)

PLACES = _obj(
    places={"type": "array", "items": _obj(["id", "name"], id=_s, name=_s, hexes=_hexes, kind=_sn)},
    victory={"type": "array", "items": _obj(
        hex={"$ref": "#/$defs/hex"}, place=_sn, value={"type": ["integer", "null"]}, side=_sn,
        scenario=_sn, text=_sn)},
    areas={"type": "array", "items": _obj(
        ["id", "kind"], id=_s, kind={"enum": ["entry", "deployment", "exit", "other"]}, name=_sn,
        hexes={"type": ["array", "null"], "items": {"$ref": "#/$defs/hex"}}, side=_sn)},
    features={"type": "array", "items": _obj(
        ["kind", "hex"], kind=_s, hex={"$ref": "#/$defs/hex"}, side=_sn, unit=_sn, place=_sn)},
    supply_sources={"type": "array", "items": _obj(
        ["side"], side=_s, hex={"$ref": "#/$defs/hex"}, text=_sn)},
)

_cell = {"type": ["string", "number", "null"]}
TEC = _obj(
    ["terrain"],
    movement_classes=_strs,
    terrain={"type": "array", "items": _obj(
        ["id", "name"], id=_s, name=_s, kind={"enum": ["hex", "hexside", "path", "other"]},
        movement={"type": "object", "additionalProperties": _cell},
        combat=_cell, other={"type": "object", "additionalProperties": _cell},
        cancels=_strs)},   # terrain ids whose effects this feature removes where both are present (a bridge: river)
    notes={"type": "object", "additionalProperties": _s},
    complete={"type": "boolean"},
    missing=_strs,
    columns=_strs,
)

# A combat result's structured effect on one side: counts are integers or "#" (the number printed
# with the result, "DR2" -> 2).
_effect_count = {"oneOf": [{"type": "integer", "minimum": 0}, {"enum": ["#"]}]}
_SIDE_EFFECT = {
    "type": "object", "additionalProperties": False,
    "properties": {
        "eliminated": {"type": "boolean", "description": "every unit of the side in the battle is eliminated"},
        "steps": {**_effect_count, "description": "steps lost"},
        "units": {**_effect_count, "description": "whole units eliminated, of the owner's choice"},
        "retreat": {**_effect_count, "description": "hexes each unit retreats"},
        "advance": {**_effect_count, "description": "hexes the side may advance"},
        "blocked": {"enum": ["eliminated", "deplete", "unknown"],
                    "description": "what befalls a unit that cannot complete its retreat"},
        "or_steps": {**_effect_count, "description": "instead of retreating, the owner may have the side lose "
                                                     "this many steps (stiff resistance)"},
    },
}
_RESULT_EFFECT = _obj(attacker=_SIDE_EFFECT, defender=_SIDE_EFFECT, designated=_SIDE_EFFECT)
_CLAMP_END = {"enum": ["lowest", "highest", "prohibited", "unknown"],
              "description": "what a combat beyond the printed columns uses; prohibited = no such attack"}

_SHIFT_END = {"enum": ["lowest", "highest", "prohibited", "unknown"],
              "description": "where a terrain column shift past the printed columns lands"}
# A DRM's condition as data: every part given must hold (the referee evaluates it per reading of a battle)
_DRM_IF = _obj(
    attacker_type={**_strs, "description": "at least one attacking unit is of one of these types"},
    attacker_class={**_strs, "description": "at least one attacking unit is of one of these movement classes"},
    defender_terrain={**_strs, "description": "the defender's hex is of one of these terrains (tec ids)"},
    attack_hexes={"type": "integer", "minimum": 1, "description": "attacked from at least this many hexes"},
    across={**_strs, "description": "every attacking unit attacks across one of these hexside features"})
_AFTER_COMBAT = _obj(
    retreat={"enum": ["exactly", "at_most"], "description": "a unit retreating N hexes ends exactly / at most N "
                                                            "hexes from its hex, each hex farther from it"},
    avoids={"type": "array", "items": {"enum": ["enemy_units", "enemy_zoc", "prohibited_terrain", "overstack"]}},
    advance={"enum": ["defender_hex_first"], "description": "an advance enters the vacated defender hex first"},
    advance_hexes={"type": "integer", "minimum": 1,
                   "description": "whenever the defender's hex is vacated, attackers may advance this far "
                                  "(whatever the result); absent: only results with `advance` allow one"},
    advance_by={"enum": ["attackers"], "description": "only units that attacked in the battle and did not "
                                                      "retreat may advance"},
    advance_units={"type": "integer", "minimum": 1, "maximum": MAX_COUNT,
                   "description": "at most this many units advance after one battle"},
    advance_rule={**_sn, "description": "the rule of advances after combat (`rule` is the retreats')"},
    displaces={**_sn, "description": "the rule by which a retreat may move (displace) a friendly unit one hex"})

_STRENGTH_MODIFIER = _obj(
    ["id", "applies_to"], id=_s,
    applies_to={"type": "array", "minItems": 1, "items": {"enum": ["attack", "defense"]},
                "description": "the attack of attacking units, the defense of defending units"},
    factor=_FACTOR,
    adds={"enum": ["unknown"], "description": "adds a strength the log does not show (support fire)"},
    rounding={"enum": ["up", "down", "unknown"]}, side=_sn, when=_sn,
    **{"if": _UNIT_IF})
_SHIFT = _obj(
    ["id", "columns"], id=_s,
    columns={"oneOf": [{"type": "integer", "minimum": -20, "maximum": 20},
                       {"type": "object", "required": ["between"], "additionalProperties": False,
                        "properties": {"between": {"type": "array", "items": {"type": "integer", "minimum": -20,
                                                                                 "maximum": 20},
                                                   "minItems": 2, "maxItems": 2}}}],
             "description": "columns shifted (negative: left), or `between: [a, b]` where only a bound is printed"},
    per={"enum": ["battle", "attacking-stack"]}, when=_sn, **{"if": _DRM_IF})
_UNPRINTED = _obj(
    rows={**_strs, "description": "the rows (as printed) whose cells are meant; absent: every row"},
    columns={**_strs, "description": "the columns (as printed) meant; absent: every column"},
    any_of={"oneOf": [{"enum": ["key"]}, {**_strs, "minItems": 1}],
            "description": "what such a cell may hold: one code of the key, or one of these cells"},
    likely={**_sn, "description": "the reading the tree takes as likely; the others rest on an unlikely assumption"},
    gap_likely={**_sn, "description": "for a row printing fewer cells than columns: the column most likely "
                                      "without its cell"},
    printed_elsewhere=_sn)

TABLES = _obj(
    ["tables"],
    tables={"type": "array", "items": _obj(
        ["id", "name", "columns", "rows"], id=_s, name=_s,
        kind={"enum": ["combat", "other"]}, dice=_sn,
        method={"enum": ["odds", "differential", "none", None]},
        columns=_strs,
        rows={"type": "array", "items": _obj(
            ["roll", "results"], roll={"type": ["string", "integer"]},
            results={"type": "array", "items": {"type": ["string", "null"]}})},
        rolls={"type": "array", "items": _int, "minItems": 2, "maxItems": 2},
        key={"type": "array", "items": _obj(["code", "meaning"], code=_s, meaning=_s, effect=_RESULT_EFFECT)},
        separators=_strs,
        drm={"type": "array", "items": _obj(["value", "when"], value=_int, when=_s, side=_sn,
                                            repeats={"type": "boolean"}, **{"if": _DRM_IF})},
        clamp=_obj(below=_CLAMP_END, above=_CLAMP_END, shift_below=_SHIFT_END, shift_above=_SHIFT_END,
                   shift_rule=_sn),
        after_combat=_AFTER_COMBAT,
        requires={**_DRM_IF, "description": "when the table may be used at all (every part must hold)"},
        strength_modifiers={"type": "array", "items": _STRENGTH_MODIFIER},
        shifts={"type": "array", "items": _SHIFT},
        terrain_shifts={"enum": ["left", "right", "both"],
                        "description": "where the terrain is not printed, the way it may shift the column"},
        unprinted={"type": "array", "items": _UNPRINTED},
        sides={**_strs, "description": "the attacking sides that may use this table (default: every side)"},
        drm_from={**_sn, "description": "the id of the table whose die-roll modifiers apply to this one too"},
        rounding={"enum": ["defender", "attacker", "nearest"],
                  "description": "how an odds ratio rounds (default: in the defender's favour)"},
        rounding_rule=_sn,
        strengths=_obj(attack=_s, defense=_s, complete={"type": "boolean"}),
        reconstruction=_sn,
        uncertain={"type": "array", "items": {"type": "object"}},
        complete={"type": "boolean"},
        missing=_strs,
        extra={"type": "object"},
        notes={"type": ["array", "object", "null"]},
    )},
)

COUNTERS = _obj(
    ["units"],
    default_steps={"type": "integer", "minimum": 1, "maximum": 9},
    default_steps_unsure=_s,
    formations={"type": "array", "items": _obj(
        ["id", "name", "side"], id=_s, name=_s, side=_s, nationality=_sn, parent=_sn)},
    units={"type": "array", "items": _obj(
        ["id", "name", "side", "type"],
        id=_id,
        name=_s, label=_sn, side=_s, nationality=_sn, formation=_sn, type=_s, size=_sn,
        factors=_sn, movement_class=_sn, range=_intn,
        steps={"type": "integer", "minimum": 1, "maximum": 9},
        reduced=_sn, flags=_strs, count=_count,
        setup_code=_sn)},
    markers={"type": "array", "items": _obj(["id", "name"], id=_id, name=_s, count=_count, side=_sn, states=_strs,
                                            whole_stack={"type": "boolean", "description": "the marker shows its "
                                                         "states for every unit of its hex, not for one"},
                                            removed_in={**_obj(["phases", "rule"], phases={**_strs, "minItems": 1},
                                                             terms={**_s, "description": "the terms the rules set "
                                                                    "on the removal, as printed (not judged)"}),
                                                        "description": "the phases in which the marker may be "
                                                                       "taken off the units it marks"})},
)

OOA = _obj(["orders_of_arrival"], orders_of_arrival={"type": "array", "items": {"$ref": "#/$defs/ooa"}})

SCENARIO = _obj(
    ["id", "name"],
    id=_id, name=_s,
    boards=_strs,
    play_area={"type": ["array", "null"], "items": {"$ref": "#/$defs/box"}},
    first_turn={"anyOf": [{"$ref": "#/$defs/turn"}, {"type": "null"}]},
    last_turn={"anyOf": [{"$ref": "#/$defs/turn"}, {"type": "null"}]},
    orders_of_arrival=_strs,
    setup_printed={"type": "boolean"},
    setup={"type": "array", "items": {
        "type": "object",
        "properties": {
            **_common, "side": _s, "formation": _sn, "units": {"$ref": "#/$defs/placements"}, "gap": _sn,
            **{k: True for k in LOCATION_KEYS + ("printed_location",)},
        },
        "required": ["side", "units"],
        "additionalProperties": False,
        "allOf": [{"$ref": "#/$defs/location_fields"}],  # no siblings beside $ref: draft-07 would ignore them
    }},
    deployments={"type": "array", "items": _obj(
        ["side"], side=_s, group=_sn, text=_sn, on_map={"type": "boolean"},
        **{k: _DEFS["location"]["properties"][k] for k in LOCATION_KEYS + ("printed_location",)})},
    features={"type": "array", "items": _obj(
        ["kind", "hex"], kind=_s, hex={"$ref": "#/$defs/hex"}, side=_sn, unit=_sn, place=_sn, marker=_sn)},
    reinforcements={"type": "array", "items": {"$ref": "#/$defs/ooa"}},
    removals={"type": "array", "items": {"$ref": "#/$defs/removal"}},
    supply_sources={"type": "array", "items": _obj(
        ["side"], side=_s, text=_sn, name=_sn, hexes=_hexes, area=_sn, any_area=_strs)},
    victory=_obj(text=_sn, hexes=_hexes, extra_ok=True,
                 control=_obj(start={**_sn, "description": "the side controlling every victory hex at the start"},
                              changes={"enum": ["entered"], "description": "a hex changes control when a unit of "
                                                                           "another side enters it"}),
                 wins=_obj(["side", "points"], side=_s, points={"type": "integer", "minimum": 0, "maximum": 9999})),
    special_rules={"type": "array", "items": _obj(
        id={"type": ["string", "number"]}, text=_sn, name=_sn, units={"$ref": "#/$defs/placements"},
        last_turn_reduction=_obj(
            ["side", "turns"], per=_sn,
            side={**_s, "description": "the side whose units' elimination shortens the scenario"},
            turns={"type": "integer", "minimum": 1, "maximum": 99, "description": "turns taken off per unit"},
            at_once={"type": "boolean", "description": "an elimination that makes the current turn the last "
                                                       "ends the game at once"}),
        extra_ok=True)},
    game_length=_sn,
)

_patch = _obj(
    ["op", "file", "path"],
    op={"enum": ["set", "remove", "add"]},
    file=_s,
    path={"type": "array", "items": {"type": ["string", "integer", "object"]}},
    to=True, value=True, **{"from": True},
)
ERRATA = _obj(
    ["id", "title", "items"],
    id=_s, title=_s, source=_sn, date=_sn, url=_sn,
    kind={"enum": ["official", "editorial"]},
    items={"type": "array", "items": _obj(
        ["id", "wording", "patches"], id=_s, section=_sn, wording=_s,
        acknowledged=_sn,
        patches={"type": "array", "items": _patch})},
)

# art.yaml: bounds far beyond any scan (a 10 000 px board, 200 counters a row) so that a typo cannot size work
MAX_PIXELS_ALONG = 1_000_000
MAX_SHEET_CELLS_ALONG = 200
_image = {"type": "string", "minLength": 1, "maxLength": 1000,
          "description": "a PNG or JPEG file, by its path inside the game tree (art/map-a.jpg)"}
_px = {"type": "number", "minimum": -MAX_PIXELS_ALONG, "maximum": MAX_PIXELS_ALONG}
_px_pos = {"type": "number", "exclusiveMinimum": 0, "maximum": MAX_PIXELS_ALONG}
_point = {"type": "array", "items": _px, "minItems": 2, "maxItems": 2, "description": "[x, y] in image pixels"}
_extent = {"type": "array", "items": _px_pos, "minItems": 2, "maxItems": 2,
           "description": "[across, down] in image pixels"}
_face = {"enum": ["front", "back"]}
_cell = {"anyOf": [
    {"type": "null"},
    {"type": "string", "minLength": 1},
    _obj(["unit"], unit=_s, face=_face),
    _obj(["marker"], marker=_s, face=_face),
]}
ART = _obj(
    boards={"type": "array", "items": _obj(
        ["board", "image", "registration"], board=_s, image=_image,
        registration={"type": "array", "minItems": 1, "maxItems": 2,
                      "items": _obj(["hex", "at"], hex={"$ref": "#/$defs/hex"}, at=_point)},
        spacing=_obj(["columns", "rows"], columns=_px_pos, rows=_px_pos))},
    counters={"type": "array", "items": {**_obj(
        unit=_s, formation=_s, type=_s, marker=_s, front=_image, back=_image),
        "oneOf": [{"required": [k]} for k in ("unit", "formation", "type", "marker")],
        "anyOf": [{"required": ["front"]}, {"required": ["back"]}]}},
    sheets={"type": "array", "items": _obj(
        ["image", "origin", "pitch", "columns", "rows", "cells"], image=_image,
        origin={**_point, "items": {"type": "number", "minimum": 0, "maximum": MAX_PIXELS_ALONG}},
        pitch=_extent, size=_extent,
        columns={"type": "integer", "minimum": 1, "maximum": MAX_SHEET_CELLS_ALONG},
        rows={"type": "integer", "minimum": 1, "maximum": MAX_SHEET_CELLS_ALONG},
        face=_face,
        cells={"type": "array", "maxItems": MAX_SHEET_CELLS_ALONG,
               "items": {"type": "array", "maxItems": MAX_SHEET_CELLS_ALONG, "items": _cell}})},
)

KINDS = {
    "game": GAME, "map": MAP, "terrain": TERRAIN, "places": PLACES, "tec": TEC, "tables": TABLES,
    "counters": COUNTERS, "orders-of-arrival": OOA, "scenario": SCENARIO, "errata": ERRATA, "art": ART,
}

# A location inside a set-up group: the same one-of rule as a standalone location.
_DEFS["location_fields"] = {
    "oneOf": [{"required": [k]} for k in LOCATION_KEYS],
    "properties": _DEFS["location"]["properties"],
}


def schema(kind: str) -> dict:
    return {
        "$schema": DRAFT,
        "$id": f"{BASE}{kind}.schema.json",
        "title": f"hexforge {kind} file",
        **KINDS[kind],
        "$defs": _DEFS,
    }


def kind_of(relpath: str) -> str | None:
    """Which schema a file of the tree follows, from its path."""
    name = relpath.rsplit("/", 1)[-1]
    if relpath.startswith("scenarios/") and name.endswith(".yaml"):
        return "scenario"
    if relpath.startswith("errata/") and name.endswith(".yaml"):
        return "errata"
    if "/" not in relpath and name.endswith(".yaml"):
        k = name[:-5]
        return k if k in KINDS else None
    return None


@lru_cache(maxsize=None)
def validator(kind: str):
    import jsonschema  # only a file that fails needs it: its import costs more than a whole check
    s = schema(kind)
    cls = jsonschema.validators.validator_for(s)
    return cls(s)


def _locate(data, path) -> Loc:
    """The position of the value at a JSON path inside located YAML data."""
    node, loc = data, getattr(data, "loc", None)
    for step in path:
        if isinstance(node, LocMap) and step in node:
            loc, node = node.at(step), node[step]
        elif isinstance(node, LocList) and isinstance(step, int) and step < len(node):
            loc, node = node.at(step), node[step]
        else:
            break
    return loc


def _describe(err) -> str:
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err.absolute_path).lstrip(".")
    msg = err.message
    if err.validator == "oneOf" and isinstance(err.instance, dict):
        msg = "needs exactly one location: " + ", ".join(LOCATION_KEYS)
    if err.validator == "additionalProperties":
        msg = msg.replace("Additional properties are not allowed", "unknown field(s)")
    return f"{where}: {msg}" if where else msg


def _help(err) -> str:
    if err.validator == "type" and "string" in str(err.validator_value) and isinstance(err.instance, (int, float)):
        return "quote the value: YAML reads 0107 or 7.1 as a number, hexforge wants the text as printed"
    if err.validator == "additionalProperties":
        return "check the spelling against docs/source-format.md (or `hexforge schema DIR` for your editor)"
    if err.validator == "required":
        return "add the missing field"
    return "see docs/source-format.md for this file kind"


@lru_cache(maxsize=None)
def fast_validator(kind: str):
    """A compiled validator for the common case (valid data); it stops at the first error."""
    return load_validator(fast_schema(kind), kind)


def fast_schema(kind: str) -> dict:
    """The schema as fastjsonschema compiles it: the same documents pass it as pass `schema(kind)`."""
    s = dict(schema(kind))
    s["$schema"] = "http://json-schema.org/draft-07/schema#"  # the keywords used mean the same there
    del s["$id"]  # refs stay inside this document: nothing is ever fetched
    s["$defs"] = {name: _one_location_fast(d) if name in ("location", "location_fields") else d
                  for name, d in s["$defs"].items()}
    return s


_ONE_LOCATION = [{"required": [k]} for k in LOCATION_KEYS]


def _one_location_fast(d: dict) -> dict:
    """"Exactly one of LOCATION_KEYS" without `oneOf`, which fastjsonschema checks by raising and catching
    an exception for each key that is absent (five per location, a third of a scenario's validation):
    an object (`required` holds vacuously for anything else, so the oneOf fails there), at least one key
    (`anyOf` stops at the first present: hex, the most common, first) and, for the key present, none of
    the others (`dependencies`, no exception). tests/test_fast_schema.py compares the two on every key set."""
    if d.get("oneOf") != _ONE_LOCATION:
        return d
    rest = {k: v for k, v in d.items() if k != "oneOf"}
    return {**rest, "type": "object", "anyOf": _ONE_LOCATION,
            "dependencies": {k: {"properties": {o: False for o in LOCATION_KEYS if o != k}} for k in LOCATION_KEYS}}


def validate(kind: str, data, file: str) -> Iterator[tuple[str, Loc, str]]:
    """(message, location, help) for every schema violation, most specific first.

    Valid files (nearly all of them) pass the compiled validator at a fraction of jsonschema's cost;
    only a file that fails is walked again by jsonschema for every error with its location.
    """
    try:
        fast_validator(kind)(data)
        return
    except fastjsonschema.JsonSchemaException:
        pass
    import jsonschema
    v = validator(kind)
    for err in sorted(v.iter_errors(data), key=lambda e: (list(map(str, e.absolute_path)), e.message)):
        # descend into oneOf/anyOf to the most useful sub-error
        best = jsonschema.exceptions.best_match([err]) if err.context else err
        loc = _locate(data, list(best.absolute_path)) or Loc(file)
        yield _describe(best), loc, _help(best)


def dump_all() -> dict[str, str]:
    return {f"{k}.schema.json": json.dumps(schema(k), indent=2, sort_keys=True) + "\n" for k in KINDS}
