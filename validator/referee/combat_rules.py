"""Combat: each roll's battle against the combat table and against the phase's ledger, as the replay read
it (validator.referee.battles). Every rule here judges a die roll's moment; a finding about something
done after the roll (a retreat's drag, an advance, a loss) is located at that thing's own step."""
from __future__ import annotations

from typing import Optional

from ..records.record import DieRoll
from . import Finding, Verdict, found, partly, rule
from .battles import LOG_ENDS_AT_ROLL, discarded_result, outside_losses
from .ledger import at_step
from .combat import (COMBAT_BATTLE_UNCLEAR, COMBAT_NO_TABLE_FOR_DICE, COMBAT_ODDS_PROHIBITED, COMBAT_RESULT_UNLIKELY,
                     COMBAT_UNVERIFIED)


def _names(v, unit_ids) -> tuple[str, ...]:
    """Units as every other finding names them: by their printed designation."""
    return tuple(v.game.unit(u).name if v.game.unit(u) else u for u in unit_ids)


def _label(v, piece: str) -> str:
    c = v.position.counter(piece)
    return v.label(c) if c is not None else piece


def _judged(v, verdict: str, code: Optional[str] = None):
    """The judgement of the roll's battle, where it has this verdict (and code)."""
    b = v.battle
    j = b.judgement if b is not None else None
    if j is None or j.verdict != verdict or (code is not None and j.code != code):
        return None
    return j


def _judgement(v):
    b = v.battle
    return b.judgement if b is not None else None


def _tie(v) -> str:
    """How sure the roll's tie to its battle is, said in a finding."""
    b = v.battle.battle
    return f" (the roll is tied to the battle against {b.hex}: {b.tie}, {b.tie_why})" if b and b.hex else ""


@rule("HF1501", "combat-result-not-on-table", "error",
      "apply the result the combat table gives for this roll and odds (or correct the record)",
      events=(DieRoll,))
def combat_result_not_on_table(v) -> Optional[Verdict]:
    """What the log shows after a combat roll fits no cell the combat table gives for it.

    ## What it checks
    For a die roll in a combat phase, the battle is read from the log (who lost steps, retreated or
    advanced after the roll; who stood adjacent) and every reading the tree allows is tried: each
    subset of the adjacent attackers, each terrain the defender's hex may have, hexside features,
    every column the printed strengths and the modifiers the table names may give (`strength_modifiers`,
    `shifts`, `terrain_shifts`: a range of columns where a datum is missing, and beyond the columns
    every reading the clamp allows), modifiers, tables, and each cell an unprinted one may hold
    (`unprinted`). Of a retreat, the result judges who retreated and how far (where its drags went is
    HF1513's). An error only when no reading fits; the finding says which readings were tried. It is
    located at the step that first shows the wrong result.
    ## Why
    The result of a battle is the table's cell for the modified roll and the column the odds and
    terrain give (Meuse 8.2-8.6; Aachen 8.2.4; Ardennes II 3.2; Bulge 17.0).
    ## Reads
    `tables.yaml` (columns, rows, key effects, DRMs, clamp, `after_combat`, `strength_modifiers`,
    `shifts`, `terrain_shifts`, `unprinted`), `rules.combat`, the units' factors, the map's terrain
    and hexsides, `tec.yaml` combat effects, marker pieces.
    ## Violation
    Meuse: Red 11th Rifle Regiment (4) attacks Blue 9th Infantry (5) in clear B1.17: 1:2, roll 5 = DR,
    but the defender is deleted. Aachen: roll 1 against a hex whose terrain is not printed, both
    attackers and the defender removed: whatever the column, row 1 gives (A), A3, A2, •, Ex, D2, D3 or De.
    ## Near miss
    The same Meuse roll with the defender retreated two hexes, each farther away and not into an enemy
    ZOC; the Aachen roll with one attacker and the defender removed (Ex).
    """
    j = _judged(v, "violation")
    if j is None:
        return None
    after = v.battle.following
    at = next((n for n, e in after if getattr(e, "counter", None) is not None and e.counter.piece in j.pieces),
              v.step.index)
    tie = _tie(v) if j.tie != "certain" else ""           # which battle the roll settled, where it is not sure
    return found(Finding(message=j.message + tie, hexes=tuple(j.hexes), units=_names(v, j.units), rule=j.rule,
                         side=v.battle.side, step=at))


@rule("HF1502", "combat-result-only-if-unlikely", "warning",
      "the result fits only a reading the tree declares unlikely (see the assumption named); check the "
      "printed table, or the result applied", events=(DieRoll,))
def combat_result_only_if_unlikely(v) -> Optional[Verdict]:
    """The result after a combat roll fits only readings resting on an assumption the tree declares unlikely.

    ## What it checks
    As HF1501, but some reading fits: only one that rests on what the tree takes as unlikely (an
    unprinted cell holding something other than its `likely` reading, a short row's missing cell under
    another column than `gap_likely`).
    ## Why
    The first law: where a legal reading exists the play is not condemned; where it rests on an
    unlikely assumption the player is warned which one (issue 17: judge by enumeration).
    ## Reads
    as HF1501, and `tables.yaml` `unprinted` (`likely`, `gap_likely`).
    ## Violation
    (a warning) Ardennes II: an attack at 4:1 on 2d6 = 4 with the defender reduced and the attacker
    whole: D1r1, printed ninth in row 4, stands under 4:1 only if the row's missing cell lies to its left,
    where the tree takes it to be under 7:1+.
    ## Near miss
    The same roll with the attacker losing a step (A1, the cell under 4:1 when the gap is under 7:1+).
    """
    j = _judged(v, "unlikely", COMBAT_RESULT_UNLIKELY)
    if j is None:
        return None
    return found(Finding(message=j.message, hexes=tuple(j.hexes), units=_names(v, j.units), rule=j.rule,
                         side=v.battle.side))


def _twice(v, limit: str) -> list:
    j = _judgement(v)
    return [what for name, what in (j.twice if j is not None else ()) if name == limit]


def _earlier(v, pieces=(), hex_id=None):
    """The phase's earlier battle a piece attacked in, or against a hex."""
    for b in reversed(v.battle.earlier):
        if (hex_id is not None and b.hex == hex_id and b.tie in ("certain", "likely")) or \
                (pieces and set(pieces) & set(b.attackers)):
            return b
    return None


@rule("HF1503", "unit-attacks-twice", "error",
      "a unit attacks at most once in a combat phase; take it out of one of its battles", events=(DieRoll,))
def unit_attacks_twice(v) -> Optional[Verdict]:
    """A unit attacks in two battles of one combat phase.

    ## What it checks
    A combat roll's battle whose attackers include a unit that attacked for certain in an earlier battle of
    the same combat phase (the ledger's battles: it lost a step, retreated or advanced after that roll, or
    it was the only unit of its side next to the hex that roll is tied to for certain): for certain in this
    one too, or because no reading of this battle without it fits. A unit that only may have attacked
    earlier (nothing the log shows needs it) is taken not to have.
    ## Why
    Each attacking unit attacks one hex (Meuse 8.1); where `rules.combat.attack_once` is set.
    ## Reads
    `rules.combat.attack_once`, the ledger's battles of the phase, as HF1501.
    ## Violation
    Meuse: Red 11th Rifle Regiment attacks B1.17 (roll at step 5) and, after Blue's defender there
    retreated, attacks A16.17 too and loses a step to its result; or Red 3rd Motor Rifle Regiment, the only
    Red unit next to A16.11, eliminates its defender, then takes the A1 of the battle on A15.10.
    ## Near miss
    Two units of one stack attack two hexes, one each; or a unit next to two defenders attacks one.
    """
    out = []
    here_again = _twice(v, "defend_once")
    for pieces in _twice(v, "attack_once"):
        b = _earlier(v, pieces=pieces)
        if b is not None and b.hex in here_again:
            continue                          # the same battle rolled again: the hex's finding (HF1504) says it
        names = ", ".join(_label(v, p) for p in pieces)
        here = v.battle.battle.hex if v.battle.battle else None
        before = f" {at_step(b.step)} against {b.hex}" if b else ""
        out.append(Finding(message=f"{names} attacked{before} and attacks again in the same combat phase, against "
                                   f"{here} (roll {v.event.total} at step {v.step.index}){_tie(v)}",
                           hexes=tuple(h for h in ((b.hex if b else None), here) if h),
                           units=tuple(_label(v, p) for p in pieces), rule=v.game.rules.combat.attack_once or None,
                           side=v.battle.side))
    return found(*out)


@rule("HF1515", "class-may-not-attack-in-phase", "error",
      "only the movement classes the phase names attack in it; take the unit out of the battle", events=(DieRoll,))
def class_may_not_attack_in_phase(v) -> Optional[Verdict]:
    """A unit of a movement class the combat phase does not let attack, attacks in it.

    ## What it checks
    In a combat phase whose `attackers` names only some movement classes, and which the turn marker or a
    chat names, a combat roll's battle whose attackers include a unit of another class: for certain (it
    lost a step or moved after the roll, or it was the only unit of its side next to the hex the roll is
    tied to for certain), or because no reading of the battle without it fits. A unit whose class the tree
    does not give may attack.
    ## Why
    Aachen 4.1: "Mobile Combat Phase: Only mobile units can attack this phase."
    ## Reads
    `sequence_of_play[].attackers` (`classes`, `rule`), the units' movement classes, as HF1501.
    ## Violation
    Aachen: in the US Mobile Combat Phase, the 3-3-7 infantry (leg) alone next to the German 1-1-7, which
    is eliminated after the roll.
    ## Near miss
    The same battle in the US Combat Phase; or a 2-2-12 mechanized infantry (mobile) attacking in the Mobile
    Combat Phase.
    """
    out = []
    for pieces in _twice(v, "attack_class"):
        here = v.battle.battle.hex if v.battle.battle else None
        names = ", ".join(f"{_label(v, p)} ({_class_of(v, p)})" for p in pieces)
        certain = v.battle.battle is not None and set(pieces) <= set(v.battle.battle.attackers)
        who = names if certain else f"a unit of a class that may not attack (no reading of the battle without one fits; the cheapest: {names})"
        out.append(Finding(message=f"{who} attacks {here} in the {v.tracker.name(v.tracker.current())} (roll "
                                   f"{v.event.total} at step {v.step.index}), in which only "
                                   f"{', '.join(sorted(_phase_classes(v)))} units attack{_tie(v)}",
                           hexes=tuple(h for h in (here,) if h), units=tuple(_label(v, p) for p in pieces),
                           rule=_phase_classes_rule(v), side=v.battle.side))
    return found(*out)


@rule("HF1516", "attacked-in-barring-phase", "error",
      "a unit that attacked in the phases this one names may not attack in it; take it out of the battle",
      events=(DieRoll,))
def attacked_in_barring_phase(v) -> Optional[Verdict]:
    """A unit attacks in a combat phase after attacking in an earlier phase of the turn that bars it.

    ## What it checks
    In a combat phase with `not_if_attacked_in` (units that attacked in the phases it names, earlier in the
    turn, may not attack in it), which the turn marker or a chat names, a roll's battle whose attackers
    include a unit that attacked for certain in such a phase (it lost a step, retreated or advanced after
    that roll, or was the only unit of its side next to the hex it was tied to for certain): for certain in
    this one too, or because no reading of this battle without it fits.
    ## Why
    Aachen 4.1: "Mobile units that participated in an attack during the preceding Combat Phase cannot
    conduct attacks this phase" (the Mobile Combat Phase); 8.2.
    ## Reads
    `sequence_of_play[].not_if_attacked_in` (`phases`, `rule`), the ledger's attacks of the turn, as HF1501.
    ## Violation
    Aachen: the US 2-2-12 mechanized infantry, alone next to a German unit, attacks it in the US Combat
    Phase and again in the US Mobile Combat Phase.
    ## Near miss
    The same unit attacking only in the Mobile Combat Phase, or in the Combat Phases of two turns.
    """
    out = []
    p = v.tracker.phase()
    bar = p.not_if_attacked_in if p is not None else None
    for pieces in _twice(v, "attacked_before"):
        here = v.battle.battle.hex if v.battle.battle else None
        names = ", ".join(_label(v, x) for x in pieces)
        before = sorted({(s, k) for x in pieces for k, s in v.ledger.attacked_in.get(x, {}).items()
                         if bar is not None and v.tracker.phases[k].id in bar.phases})
        when = "; ".join(f"at step {s} in the {v.tracker.name(k)}" for s, k in before) or "earlier this turn"
        out.append(Finding(message=f"{names} attacked {when} and attacks {here} in the "
                                   f"{v.tracker.name(v.tracker.current())} (roll {v.event.total} at step "
                                   f"{v.step.index}){_tie(v)}",
                           hexes=tuple(h for h in (here,) if h), units=tuple(_label(v, x) for x in pieces),
                           rule=bar.rule if bar else None, side=v.battle.side))
    return found(*out)


def _class_of(v, piece: str) -> Optional[str]:
    c = v.position.counter(piece)
    return v.class_of(c) if c is not None else None


def _phase_classes(v) -> tuple:
    p = v.tracker.phase()
    return p.attackers if p else ()


def _phase_classes_rule(v) -> Optional[str]:
    p = v.tracker.phase()
    return p.attackers_rule if p else None


@rule("HF1504", "hex-attacked-twice", "error",
      "a hex is attacked at most once in a combat phase; one roll per defending hex", events=(DieRoll,))
def hex_attacked_twice(v) -> Optional[Verdict]:
    """A defender hex attacked in two battles of one combat phase (a second roll for it).

    ## What it checks
    A combat roll tied for certain to a hex that an earlier roll of the same combat phase was tied to
    (for certain, or as the only hex not yet attacked); or a roll none of whose readings fits but one
    against such a hex. A second roll for one battle, with nothing applied after the first, is this.
    ## Why
    Each enemy hex is attacked at most once per phase (Meuse 8.1); where `rules.combat.defend_once` is set.
    ## Reads
    `rules.combat.defend_once`, the ledger's battles of the phase, as HF1501.
    ## Violation
    Meuse: two rolls against B1.17 in the Red Combat Phase, the defender retreating after the second.
    ## Near miss
    Two rolls against two hexes; or a second roll that may be for another hex next to a Red unit.
    """
    out = []
    for hex_id in _twice(v, "defend_once"):
        b = _earlier(v, hex_id=hex_id)
        before = (f"{at_step(b.step)} (roll {b.roll.total}: {b.reading()})" if b else "earlier in the phase")
        out.append(Finding(message=f"{hex_id} is attacked again in the same combat phase: roll {v.event.total} at "
                                   f"step {v.step.index} after the roll {before}{_tie(v)}",
                           hexes=(hex_id,), units=tuple(_label(v, p) for p in v.battle.battle.defenders),
                           rule=v.game.rules.combat.defend_once or None, side=v.battle.side))
    return found(*out)


@rule("HF1505", "combat-re-rolled", "warning",
      "a combat roll was undone and rolled again: agree on re-rolls before playing, or keep the first roll",
      events=(DieRoll,))
def combat_re_rolled(v) -> Optional[Verdict]:
    """A combat roll VASSAL's Undo took back, rolled again for the same battle.

    ## What it checks
    A combat roll that is the first roll after an undo took back a roll of the same combat phase and
    side whose battle may be this one (a defender hex in common). The finding names the battle, the
    roll taken back and the result it gave in this battle's reading.
    ## Why
    A battle is settled by one roll (Meuse 8.3); a roll undone and made again changes what the dice
    decided.
    ## Reads
    the record's undos (`View.discarded`), the ledger's rolls and battles, as HF1501.
    ## Violation
    Meuse: roll 3 at step 9 against B1.10 (5:1: D1/DR), undone at step 10, rolled again at step 11 (6: DE).
    ## Near miss
    An undo of a move; or a roll undone and the next roll made for a battle in another hex.
    """
    r = v.battle
    if r is None or r.rerolled is None or r.battle is None:
        return None
    d, b = r.rerolled, r.battle
    gave = discarded_result(v.game, b, d.roll.total)
    was = f" (at {b.column}: {gave})" if gave else ""
    return found(Finding(
        message=f"the roll {d.roll.total} at step {d.step} for the battle against {b.hex or ', '.join(b.hexes)}"
                f"{was} was undone at step {d.undone_at} and rolled again at step {b.step} ({v.event.total}"
                f"{': ' + b.result if b.result else ''})",
        hexes=(b.hex,) if b.hex else b.hexes, units=tuple(_label(v, p) for p in b.defenders),
        rule=_table_rule(v, b.table) or v.game.rules.combat.rule, side=r.side))


def _table_rule(v, table_id) -> Optional[str]:
    t = next((t for t in v.game.tables if t.id == table_id), None)
    return t.rule if t is not None else None


@rule("HF1506", "attack-below-lowest-odds", "error",
      "attack at the table's lowest column or better, or do not attack", events=(DieRoll,))
def attack_below_lowest_odds(v) -> Optional[Verdict]:
    """An attack at odds (or a differential) the combat table's clamp says may not be attacked at.

    ## What it checks
    A combat roll whose every reading, with every attacker next to the defender, falls below the
    table's lowest column (or past it by a terrain shift) where the clamp says such an attack may not
    be made (`clamp.below: prohibited`, `shift_below: prohibited`).
    ## Why
    Meuse 8.2: "an attack at worse than 1:3 may not be made".
    ## Reads
    `tables.yaml` `clamp`, the units' factors, `tec.yaml` column shifts.
    ## Violation
    Meuse: Red 4th Engineer Battalion (2) attacks Blue 7th Infantry (5) and Blue 3rd Engineer Battalion
    (3) in clear: 2 against 8, 1:4.
    ## Near miss
    The same defenders attacked with 3 factors: 3 against 8 rounds to 1:3, the lowest column.
    """
    j = _judged(v, "prohibited", COMBAT_ODDS_PROHIBITED)
    if j is None:
        return None
    return found(Finding(message=j.message, hexes=tuple(j.hexes), units=_names(v, j.units), rule=j.rule,
                         side=v.battle.side))


@rule("HF1507", "combat-outside-combat-phase", "error",
      "resolve combat only in a combat phase of the sequence of play", events=(DieRoll,))
def combat_outside_combat_phase(v) -> Optional[Verdict]:
    """A die roll and a combat result in a phase that has no combat.

    ## What it checks
    A die roll in a phase the sequence of play does not mark `combat`, the phase being certain (the turn
    marker or a chat names it), after which a unit is eliminated or reduced, or a unit of a side the phase
    is not for is dragged on the map (a retreat: no unit of that side moves in the phase; the turn marker
    recording the phase, which comes after its side's combat phase: after a chat the game may be in the
    other side's combat phase, and before the combat phase the marker may lag behind it), before the next
    roll or phase change, where `rules.combat.combat_phases_only` says no combat happens outside combat
    phases. The drag is also a move out of sequence (HF1101).
    ## Why
    Meuse 9.1: "There is no combat in the exploitation phase".
    ## Reads
    `rules.combat.combat_phases_only`, `sequence_of_play[].combat`.
    ## Violation
    Meuse: in the Red Exploitation Phase a roll, then Blue 9th Infantry Regiment flipped; or, after the
    roll, Blue 3rd Engineer Battalion dragged B14.14 -> B15.14 -> B16.14.
    ## Near miss
    A roll in the exploitation phase with nothing lost after it (a die rolled for nothing), or followed
    only by Red units' drags (exploitation moves); or the same roll and loss in the Red Combat Phase.
    """
    lost = _combat_outside(v)
    if not lost:
        return None
    rule_no = v.game.rules.combat.combat_phases_only
    what = ", ".join(f"{v.label(c)} {how} at step {n}" for n, c, how in lost)
    return found(Finding(message=f"roll {v.event.dice} = {v.event.total} in the {v.tracker.name(v.tracker.current())}"
                                 f", which has no combat, then {what}",
                         hexes=tuple(dict.fromkeys(_at(v, c) for _, c, _ in lost if _at(v, c))),
                         units=tuple(v.label(c) for _, c, _ in lost), rule=rule_no or None))


def _combat_outside(v) -> tuple:
    """The losses after a roll in a phase, certain, that has no combat, where the rules allow none there."""
    r = v.battle
    if r is None or r.side is not False or v.game.rules.combat.combat_phases_only is None \
            or not v.tracker.pinned():
        return ()
    return outside_losses(v, r.following)


def _at(v, c) -> Optional[str]:
    w = v.position.where(c.piece)
    return w.hex if w else None


@rule("HF1508", "loss-outside-battle", "error",
      "apply a battle's result to the units of that battle only", events=(DieRoll,))
def loss_outside_battle(v) -> Optional[Verdict]:
    """A unit that was not in the battle loses a step, is eliminated or moves after its roll.

    ## What it checks
    After a combat roll tied for certain (or as likely: the only hex a reading fits, or not attacked yet) to
    a hex, a unit of the defending side in another hex, or a unit of the attacking side not next to it,
    that the log shows losing a step, eliminated or (the defending side's) moving before the next roll;
    located at that unit's step. Where the roll may be for several hexes, or a battle may take in several
    (no `rules.combat.one_hex`: the Bulge, 9.5), only a unit no battle could take in (no enemy next to it). A
    move is judged only where no retreat displaces a friendly unit, the phase is certain (the turn marker or a
    chat names it: in a phase inferred from the events, it may be the other side's movement phase) and does not
    let the unit move; where the tables do not say how retreats go, only a unit no battle could take in, of
    either side (one next to an enemy may be retreating or advancing).
    ## Why
    A result applies to the units of its battle (Meuse 8.1, 8.6); in the Red Combat Phase Blue's units move
    only by retreating (3.2).
    ## Reads
    `rules.combat.one_hex`, `sequence_of_play`, the position, as HF1501.
    ## Violation
    Meuse: after the roll against B1.17, Blue 8th Infantry Regiment in A15.03 is flipped; or, the turn marker
    showing the Red Combat Phase, it is dragged A15.03 -> A14.03 after the defender of B1.17 retreated. Bulge:
    after KG Peiper's roll against QQ5, Panzer Brigade 150, no Allied unit next to it, moves UU9 -> UU8.
    ## Near miss
    The defender in B1.17 flipped (D1); or the same drag in a log whose phases are inferred (Blue's movement
    phase may have begun). Bulge: Panzer Brigade 150 next to another Allied unit (it may have attacked it too).
    """
    j = _judgement(v)
    if j is None or not j.outside:
        return None
    battle = j.fit.defender_hex if j.fit is not None else j.hexes[0]
    return found(*(Finding(message=why + _tie(v), hexes=(_at(v, v.position.counter(p)),) + _drag_hexes(j, p) +
                           (battle,), units=(_label(v, p),), rule=j.rule, side=v.battle.side, step=step)
                   for p, step, why in j.outside))


def _faults(v, kind, rule_no) -> Optional[Verdict]:
    kinds = (kind,) if isinstance(kind, str) else kind
    j = _judgement(v)
    if j is None or not j.faults:
        return None
    out = []
    for p, k, why, step in j.faults:
        if k in kinds:
            w = v.position.where(p)
            to = j.fit.defender_hex if k != "defender" else \
                next((path[-1][0] for q, path in (v.battle.battle.retreats if v.battle.battle else ()) if q == p and path),
                     None)                             # where the defender went
            out.append(Finding(message=why, hexes=tuple(x for x in ((w.hex if w else None), to) if x),
                               units=(_label(v, p),), rule=rule_no, side=v.battle.side, step=step))
    return found(*out)


def _after_combat(v):
    j = _judgement(v)
    ct = next((t for t in v.game.tables if j is not None and j.fit is not None and t.id == j.fit.table), None)
    return ct.after_combat if ct is not None else None


def _advance_rule(v) -> Optional[str]:
    ac = _after_combat(v)
    return (ac.advance_rule or ac.rule if ac else None) or v.game.rules.combat.rule


def _retreat_rule(v) -> Optional[str]:
    ac = _after_combat(v)
    return (ac.rule if ac else None) or v.game.rules.combat.rule


@rule("HF1509", "advance-by-non-attacker", "error",
      "only units that attacked in the battle advance after it", events=(DieRoll,))
def advance_by_non_attacker(v) -> Optional[Verdict]:
    """A unit advances after a battle it did not attack in.

    ## What it checks
    After a combat roll, a unit of the attacking side moves (an advance), though no reading that fits
    has it among the battle's attackers: it was not next to the defender, it attacked earlier in the
    phase (`attack_once`), or its strength makes the result impossible. Located at its move's step.
    ## Why
    Meuse 8.7: "up to two attacking units that took part in the attack ... may advance"
    (`after_combat.advance_by: attackers`).
    ## Reads
    `after_combat.advance_by`, `rules.combat.attack_once`, as HF1501.
    ## Violation
    Meuse: Blue's defender in B1.17 retreats after the roll; a Red unit two hexes away moves into B1.17.
    ## Near miss
    The attacker next to B1.17 moves into it.
    """
    return _faults(v, "not-attacker", _advance_rule(v))


@rule("HF1510", "advance-across-prohibited-hexside", "error",
      "an advance never crosses a hexside prohibited to the unit's movement class", events=(DieRoll,))
def advance_across_prohibited_hexside(v) -> Optional[Verdict]:
    """An advance after combat that crosses a hexside prohibited to the unit.

    ## What it checks
    An advance (a move of an attacking unit after a result that vacated the defender's hex) whose first
    hexside crossed, from its hex into the defender's, is prohibited to its movement class by the TEC
    (a river with no bridge for a mechanized unit). Located at the advance's step. The hex entered is
    judged as every move's end is (HF1206).
    ## Why
    Meuse 8.7: "An advance ... may not enter prohibited terrain nor cross a hexside prohibited to the unit".
    ## Reads
    `tec.yaml` (the class's `P` cells), `terrain.yaml` hexsides, the unit's movement class.
    ## Violation
    Meuse: a Red tank in B1.05 advances across the unbridged Meuse into A16.05.
    ## Near miss
    A Red rifle regiment (leg: the river costs it 2 MP, it is not prohibited) making the same advance.
    """
    return _faults(v, "hexside", _advance_rule(v))


@rule("HF1511", "advance-by-too-many-units", "error",
      "no more units advance after one battle than the rules allow", events=(DieRoll,))
def advance_by_too_many_units(v) -> Optional[Verdict]:
    """More units advance after one battle than `after_combat.advance_units` allows.

    ## What it checks
    The units that advance after one battle, in the order the log moves them: those beyond the limit,
    each at its own step.
    ## Why
    Meuse 8.7: "up to two attacking units ... may advance".
    ## Reads
    `after_combat.advance_units`.
    ## Violation
    Meuse: three Red units that attacked B14.14 together all advance into it after DE.
    ## Near miss
    Two of them advancing.
    """
    return _faults(v, "too-many", _advance_rule(v))


@rule("HF1512", "advance-not-allowed", "error",
      "advance only after a result that vacates the defender's hex, into it first, as far as the result allows",
      events=(DieRoll,))
def advance_not_allowed(v) -> Optional[Verdict]:
    """An attacking unit's advance that the result does not allow, or a defender's advance.

    ## What it checks
    Under the reading of the battle that fits, an attacking unit moves after the result into the
    defender's hex though it was not vacated, past it (beyond the hexes the result or `advance_hexes`
    allows), or not into it first. Located at the advance's step, not the retreat's. Where only
    attackers advance (`advance_by`) and retreats are not judged on the map, a defender moving after a
    result that retreats no defender (Aachen 8.5: "A defending unit may never advance after combat").
    ## Why
    Meuse 8.7: attackers advance "into the defender's hex" once "every defending unit has been
    eliminated or has retreated".
    ## Reads
    `after_combat` (`advance`, `advance_hexes`, `advance_by`), the key's `advance` and retreat effects.
    ## Violation
    Meuse: the defender retreats two hexes (DR) and the attacker follows it two hexes.
    ## Near miss
    The attacker advancing into the vacated defender hex only.
    """
    return _faults(v, ("too-far", "defender"), _advance_rule(v))


@rule("HF1513", "retreat-through-forbidden-hex", "error",
      "a retreat goes hex by hex away from the battle, never into an enemy unit's hex, an enemy ZOC or "
      "prohibited terrain, and never ends in a full hex", events=(DieRoll,))
def retreat_through_forbidden_hex(v) -> Optional[Verdict]:
    """A retreat whose drags go where no retreat may go.

    ## What it checks
    Each drag of a retreating unit, the last too (the result's own question, HF1501, is only how far it
    retreated): it must not end in a hex holding an enemy unit, in an enemy ZOC, or in a hex or across a
    hexside prohibited to the unit (what `after_combat.avoids` names, on what is certain: an assumed ZOC
    condemns nothing), must end farther from the hex retreated from than the drag before (a drag over
    several hexes: by some way each hex farther and clear of those), and the last must not end in a hex
    then holding as many other units as the stacking limit (`overstack`, where the limit counts units).
    Located at that drag's step. Where the phase is inferred, a retreat is only the first drags as long as
    the result's: the rest may be the unit's move in a later phase.
    ## Why
    Meuse 8.6: a retreat may not "enter a hex ... in an enemy ZOC, nor end in a hex holding two other
    units"; "each hex farther".
    ## Reads
    `after_combat.avoids` and `retreat`, `rules.stacking` (`limit`, `counts`), the position, `tec.yaml`,
    `terrain.yaml`.
    ## Violation
    Meuse: after DR the defender is dragged first into a hex next to a Red unit, then on to a hex two
    away from its own; or dragged one hex, then one more that is no farther from its hex; or its last drag
    ends beside two Blue units.
    ## Near miss
    The same retreat dragged through a hex holding two friendly units (a full hex may be passed through,
    5.1) to a hex where it ends legally.
    """
    j = _judgement(v)
    if j is None or not j.drags:
        return None
    rule_no = _retreat_rule(v)
    return found(*(Finding(message=why, hexes=(_at(v, v.position.counter(p)),) + _drag_hexes(j, p, step),
                           units=(_label(v, p),), rule=rule_no, side=v.battle.side, step=step)
                   for p, step, why in j.drags))


def _drag_hexes(j, piece: str, step=None) -> tuple:
    """The hexes a piece's drags after the roll ended in (those of one step, where given)."""
    path = dict(j.moves).get(piece) or ()
    return tuple(h for h, s in path if step is None or s == step)


@rule("HF1517", "result-after-next-roll", "error",
      "resolve each battle, its result applied, before rolling for the next", events=(DieRoll,))
def result_after_next_roll(v) -> Optional[Verdict]:
    """A battle's result applied only after the next battle's roll, where the rules say each is resolved first.

    ## What it checks
    Where `rules.combat.resolve_in_order` is set and each battle is fought against one hex (`one_hex`): a roll
    followed only by chat and another roll, after which the losses or drags of both battles' units show (the
    first roll's battle takes its own, `battles.results_after`): one of the results came after a later roll,
    whichever roll settled which battle. Located at the first of the earlier battle's results. Where the later
    roll shows nothing of its own, the first roll may have had no effect and the later one may be that battle's:
    no finding.
    ## Why
    Aachen 8.0: "Players must resolve each attack prior to conducting any other attacks"; the Bulge 5.2.4:
    "Combat results for each battle are applied immediately after the battle is resolved". Crossing the Meuse
    does not say so: there, rolling every battle first is legal.
    ## Reads
    `rules.combat.resolve_in_order`, `rules.combat.one_hex`, the ledger's battles of the phase, as HF1501.
    ## Violation
    Aachen: a roll against 1823, a roll against 1330, then the defender of 1823 deleted and that of 1330 deleted.
    ## Near miss
    The same with each deletion right after its own roll; or two rolls and only one battle's result after them.
    """
    cb = v.game.rules.combat
    r = v.battle
    if not (cb.resolve_in_order and cb.one_hex) or r is None or r.battle is None:
        return None
    late = [b for b in r.earlier if b.results_after == v.step.index and b.claimed]
    own = [n for n, e in r.following if getattr(e, "counter", None) is not None and e.counter.kind == "unit"]
    if not late or not own:
        return None
    out = []
    for b in late:
        shown = [x[2] for x in b.losses] + [s for _, path in b.retreats + b.advances for _, s in path]
        out.append(Finding(
            message=f"the result of the battle against {b.hex} (roll {b.roll.total} at step {b.step}"
                    f"{': ' + b.result if b.result else ''}) is applied after the roll at step {v.step.index} for "
                    f"another battle, whose result follows it too: each battle is resolved before the next is rolled",
            hexes=(b.hex,) if b.hex else b.hexes, units=_names_of_pieces(v, b.claimed), rule=cb.resolve_in_order,
            side=b.side, step=min(shown) if shown else v.step.index))
    return found(*out)


def _names_of_pieces(v, pieces) -> tuple[str, ...]:
    return tuple(sorted(_label(v, p) for p in pieces))


def _unverified(v, code: str) -> Optional[Verdict]:
    j = _judged(v, "unverified", code)
    if j is None:
        return None
    cut = j.reason == LOG_ENDS_AT_ROLL             # not the tree's gap: the log's end
    return Verdict((Finding(message=j.message, hexes=tuple(j.hexes), units=_names(v, j.units), rule=j.rule,
                            side=v.battle.side,
                            help="the result is in the next log of the game: audit the logs together with --chain"
                            if cut else None),), (), (j.reason or j.message,), noted=True)


@rule("HF1590", "combat-unverified", "info",
      "the tree lacks what this judgement needs (a cell, a terrain, a strength or a result's effect); add it",
      events=(DieRoll,))
def combat_unverified(v) -> Optional[Verdict]:
    """A combat roll's battle could not be judged from what the tree holds.

    ## What it checks
    The readings of a battle (see HF1501) where no reading fits for certain but one resting on what the
    tree does not hold may: a cell not printed nor bounded (`unprinted`), a hex's terrain or a unit's
    strength not in the tree, a result whose effect the table's key does not give, the attacking side
    not known. The note says what is missing: a legal reading may stand.
    ## Why
    The first law: what the tree does not hold is not guessed; the step is reported as not verified.
    ## Reads
    as HF1501.
    ## Violation
    (a note) Ardennes II: a roll of 8 (row 8 is not printed) with the defender reduced.
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
        if _combat_outside(v):
            return None                       # judged: combat where there is none (HF1507)
        return partly(f"die roll {v.event.dice} = {v.event.total} outside a combat phase: not judged")
    return partly(*b.judgement.notes) if b.judgement and b.judgement.notes else None
