"""Combat: each roll's battle against the combat table, as the replay read it (validator.referee.battles)."""
from __future__ import annotations

from typing import Optional

from ..record import DieRoll
from . import Finding, Verdict, found, partly, rule
from .combat import COMBAT_BATTLE_UNCLEAR, COMBAT_NO_TABLE_FOR_DICE, COMBAT_UNVERIFIED


def _names(v, unit_ids) -> tuple[str, ...]:
    """Units as every other finding names them: by their printed designation."""
    return tuple(v.game.unit(u).name if v.game.unit(u) else u for u in unit_ids)


def _judged(v, verdict: str, code: Optional[str] = None):
    """The judgement of the roll's battle, where it has this verdict (and code)."""
    b = v.battle
    j = b.judgement if b is not None else None
    if j is None or j.verdict != verdict or (code is not None and j.code != code):
        return None
    return j


@rule("HF1501", "combat-result-not-on-table", "error",
      "apply the result the combat table gives for this roll and odds (or correct the record)",
      events=(DieRoll,))
def combat_result_not_on_table(v) -> Optional[Verdict]:
    """What the log shows after a combat roll fits no cell the combat table gives for it.

    ## What it checks
    For a die roll in a combat phase, the battle is read from the log (who lost steps, retreated or
    advanced after the roll; who stood adjacent) and every reading the tree allows is tried: each
    subset of the adjacent attackers, each terrain the defender's hex may have, hexside features,
    modifiers, tables. An error only when no reading fits and every cell tried is printed with a
    known effect; it is located at the step that first shows the wrong result.
    ## Why
    The result of a battle is the table's cell for the modified roll and the column the odds and
    terrain give (Meuse 8.2-8.6).
    ## Reads
    `tables.yaml` (columns, rows, key effects, DRMs, clamp, `after_combat`), `rules.combat`, the units'
    factors, the map's terrain and hexsides, `tec.yaml` combat effects.
    ## Violation
    Meuse: Red 11th Rifle Regiment (4) attacks Blue 9th Infantry (5) in clear B1.17: 1:2, roll 5 = DR,
    but the defender is deleted.
    ## Near miss
    The same roll with the defender retreated two hexes, each farther away and not into an enemy ZOC.
    """
    j = _judged(v, "violation")
    if j is None:
        return None
    after = v.battle.following
    at = next((n for n, e in after if getattr(e, "counter", None) is not None and e.counter.piece in j.pieces),
              v.step.index)
    return found(Finding(message=j.message, hexes=tuple(j.hexes), units=_names(v, j.units), rule=j.rule,
                         side=v.battle.side, step=at))


def _unverified(v, code: str) -> Optional[Verdict]:
    j = _judged(v, "unverified", code)
    if j is None:
        return None
    return Verdict((Finding(message=j.message, hexes=tuple(j.hexes), units=_names(v, j.units), rule=j.rule,
                            side=v.battle.side),), (), (j.reason or j.message,), noted=True)


@rule("HF1590", "combat-unverified", "info",
      "the tree lacks what this judgement needs (a cell, a terrain, a strength or a result's effect); add it",
      events=(DieRoll,))
def combat_unverified(v) -> Optional[Verdict]:
    """A combat roll's battle could not be judged from what the tree holds.

    ## What it checks
    The readings of a battle (see HF1501) that could not be decided: a cell not printed or illegible,
    a hex's terrain or a unit's strength not in the tree, a result whose effect the table's key does
    not give, the attacking side not known. The note says what is missing.
    ## Why
    The first law: what the tree does not hold is not guessed; the step is reported as not verified.
    ## Reads
    as HF1501.
    ## Violation
    (a note) Aachen: an attack on a hex whose terrain the map does not print, where the column depends
    on it.
    ## Near miss
    The same attack in Meuse, whose every hex, strength and cell the tree holds.
    """
    return _unverified(v, COMBAT_UNVERIFIED)


@rule("HF1591", "combat-battle-unclear", "info",
      "no battle could be inferred from the record around this roll (no defender adjacent to an attacker)",
      events=(DieRoll,))
def combat_battle_unclear(v) -> Optional[Verdict]:
    """A roll in a combat phase that no battle on the map can be tied to.

    ## What it checks
    A die roll in a combat phase where no unit of the defending side stands next to a unit of the
    attacking side.
    ## Why
    A battle needs adjacent attackers and defenders (Meuse 8.1); the roll may be for something else.
    ## Reads
    the position, the sequence of play.
    ## Violation
    (a note) a roll in the Red Combat Phase with no Blue unit next to a Red one.
    ## Near miss
    A roll with a Blue unit adjacent to a Red one (judged as a battle).
    """
    return _unverified(v, COMBAT_BATTLE_UNCLEAR)


@rule("HF1592", "combat-roll-no-table", "info",
      "no combat table of the tree is rolled with these dice; check the die button or tables.yaml `dice`",
      events=(DieRoll,))
def combat_roll_no_table(v) -> Optional[Verdict]:
    """A roll in a combat phase with dice no combat table is rolled with.

    ## What it checks
    The dice a combat-phase roll names (`2d6`) against the `dice` of every combat table.
    ## Why
    A battle is resolved with the table's dice (Meuse 8.3: one die); another die button is for
    something else, or the wrong button was pressed.
    ## Reads
    `tables.yaml` `dice`, `game.yaml` dice.
    ## Violation
    (a note) a 2d6 roll in the Meuse Red Combat Phase.
    ## Near miss
    A 1d6 roll there.
    """
    return _unverified(v, COMBAT_NO_TABLE_FOR_DICE)


@rule("HF1904", "combat-not-judged", "info",
      "combat results are judged by the combat referee for rolls in a combat phase", events=(DieRoll,))
def combat_not_judged(v) -> Optional[Verdict]:
    """A die roll that is not judged as a battle's, and how the battle's cells were read.

    ## What it checks
    Adds to the step's coverage why a roll was not judged (it falls in no combat phase) and how a
    cell of the tree was read where no note of the tree explains it.
    ## Why
    Every step not fully verified says why (the first law: say what you could not judge).
    ## Reads
    the sequence of play (`combat`), the combat tables' notes.
    ## Violation
    (coverage only) a roll in a movement phase: "die roll 1d6 = 4 outside a combat phase: not judged".
    ## Near miss
    A roll in a combat phase (judged by HF1501 and its notes).
    """
    b = v.battle
    if b is None:
        return None
    if b.side is False:
        return partly(f"die roll {v.event.dice} = {v.event.total} outside a combat phase: not judged")
    return partly(*b.judgement.notes) if b.judgement and b.judgement.notes else None
