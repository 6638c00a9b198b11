"""A phase's special moves (`sequence_of_play[].special_moves`): the roll a unit needs before it moves, and how far
it goes. The replay reads such a drag as the special move (not a move of a movement phase); these rules judge the
terms the tree gives as data. Nothing here names a game.
"""
from __future__ import annotations

from itertools import permutations
from typing import Optional

from ..records.record import Chat, Moved, dropped_back
from . import Finding, Verdict, found, partly, rule
from .ledger import phase_rolls
from .lookahead import steps_between
from .movement import ASSUMED, CERTAIN

ROLLS_READ = 12              # the latest rolls a special move's roll is looked for among (bounds the matching)


def special_move(v, c) -> Optional[object]:
    """The current phase's special move for this unit on this turn, else None."""
    p = v.tracker.phase()
    return next((sm for sm in (p.special_moves if p is not None else ())
                 if c.unit in sm.units and (not sm.turns or v.turn in sm.turns)), None)


def _drags(v, piece: str) -> list:
    """(step, drag) of this piece's drags in this phase before this step."""
    return [(s.index, e) for s in steps_between(v.record, v.ledger.phase_end_step, v.step.index)
            for e in s.events if isinstance(e, Moved) and not dropped_back(e) and e.counter.piece == piece]


def _rolls(v, dice: str) -> list:
    """(step, total) of the rolls with these dice the special move's roll may be: this phase's before this step,
    and the last roll of the phase before if nothing but chat came after it (rolled once the battles were done,
    before the next phase was named)."""
    led = v.ledger
    phase = phase_rolls(led)
    here = [(r.step, r.roll.total) for r in phase if r.step < v.step.index and r.roll.dice == dice]
    last = led.rolls[-len(phase) - 1] if len(led.rolls) > len(phase) else None   # the phase before's last
    if last is not None and last.roll.dice == dice and last.step > 0:
        quiet = all(isinstance(e, Chat) or v.tracker.ends_phase(e)
                    for s in steps_between(v.record, last.step, led.phase_end_step + 1) for e in s.events)
        if quiet:
            here.insert(0, (last.step, last.roll.total))
    return here[-ROLLS_READ:]


def _first_drags(v) -> dict[str, int]:
    """Piece -> the step of its first drag in this phase before this step."""
    firsts: dict[str, int] = {}
    for s in steps_between(v.record, v.ledger.phase_end_step, v.step.index):
        for e in s.events:
            if isinstance(e, Moved) and not dropped_back(e) and e.counter.piece not in firsts:
                firsts[e.counter.piece] = s.index
    return firsts


def _movers(v, firsts: dict[str, int]) -> list:
    """(first drag step, totals that let it move) of each unit this phase's special moves with a roll let move,
    that has moved in it (`firsts`; this one included, at this step)."""
    out = []
    firsts = {**firsts, v.event.counter.piece: firsts.get(v.event.counter.piece, v.step.index)}
    for piece, first in firsts.items():
        c = v.position.counter(piece) or (v.event.counter if piece == v.event.counter.piece else None)
        sm = special_move(v, c) if c is not None else None
        if sm is not None and sm.roll is not None:
            out.append((first, sm.roll.totals(v.turn)))
    return out


def _either(totals) -> str:
    """1, 2, 3 or 4."""
    words = [str(t) for t in totals]
    return " or ".join([", ".join(words[:-1]), words[-1]]) if len(words) > 1 else "".join(words)


def _matched(movers: list, rolls: list) -> bool:
    """Each mover may be given a roll of its own, made before its first drag, with one of its totals."""
    if len(movers) > len(rolls):
        return False
    for pick in permutations(rolls, len(movers)):
        if all(r[0] < first and r[1] in totals for (first, totals), r in zip(movers, pick)):
            return True
    return False


@rule("HF1110", "special-move-without-its-roll", "error",
      "the unit makes its special move only after the roll the rules require comes up",
      events=(Moved,), read_as=("other",))
def special_move_without_its_roll(v) -> Optional[Verdict]:
    """A unit makes a phase's special move with no roll before it that lets it.

    ## What it checks
    The first drag of a unit in a phase whose `special_moves` lets it move on this turn under a `roll`: a roll of
    those dice made in the phase before the drag (or the last roll of the phase before, with nothing but chat
    after it), with one of the turn's `success` totals, that no other unit's special move of the phase needs.
    Judged where the phase is certain (a chat or the turn marker names it); else a note.
    ## Why
    Bulge 43.3: "the German player rolls a die to see if KG Peiper can advance. On turn 16 AM the unit may advance
    on a roll of 1 or 2" (41.3: Panzer Brigade 150, on a 1).
    ## Reads
    `sequence_of_play[].special_moves[]` (`units`, `turns`, `roll`: `dice`, `success`, `rule`), the log's rolls.
    ## Violation
    Bulge: KG Peiper advances in the German Engineer Phase of 16 AM after a roll of 4.
    ## Near miss
    The same advance after a roll of 2.
    """
    c = v.event.counter
    sm = special_move(v, c)
    if sm is None or sm.roll is None:
        return None
    firsts = _first_drags(v)
    if c.piece in firsts:
        return None                                # judged at its first drag
    rolls = _rolls(v, sm.roll.dice)
    movers = _movers(v, firsts)
    if _matched(movers, rolls):
        return None
    totals = sm.roll.totals(v.turn)
    seen = ", ".join(str(t) for _, t in rolls) or "none"
    what = f"{v.label(c)} makes its special move {v.event.src} -> {v.event.dst} in the " \
           f"{v.tracker.name(v.tracker.current())} of turn {v.turn} with no {sm.roll.dice} roll of " \
           f"{_either(totals)} before it (rolls in the phase: {seen})"
    if not v.tracker.pinned():
        return partly(f"{what}; the phase is inferred, so its roll may lie in another ({sm.roll.rule} not judged)")
    return found(Finding(message=what, hexes=(v.event.src.hex, v.event.dst.hex), units=(v.label(c),),
                         rule=sm.roll.rule, side=v.side_of(c)))


@rule("HF1111", "special-move-too-far", "error",
      "the special move goes no farther than the hexes the rules give it", events=(Moved,), read_as=("other",))
def special_move_too_far(v) -> Optional[Verdict]:
    """A unit's special move goes farther than the rules let it go.

    ## What it checks
    A drag of a phase's special move with `hexes`: the hexes its drags of the phase went, each at least the
    distance from where it began to where it ended, over `hexes`, with no roll since its first drag (a battle it
    fought may let it advance again); reported at the drag that goes over.
    ## Why
    Bulge 43.4: KG Peiper advances "executing an 'Attacker Advances 4' combat result".
    ## Reads
    `sequence_of_play[].special_moves[]` (`units`, `turns`, `hexes`, `rule`), the grid.
    ## Violation
    Bulge: KG Peiper dragged five hexes, one at a time, in the German Engineer Phase of 16 AM.
    ## Near miss
    The same advance of four hexes, in two drags.
    """
    c, ev = v.event.counter, v.event
    sm = special_move(v, c)
    if sm is None or sm.hexes is None or ev.dst.hex is None or ev.src.hex is None:
        return None
    drags = _drags(v, c.piece)
    if drags and v.ledger.rolls and v.ledger.rolls[-1].step > drags[0][0]:
        return None                                # it fought since: it may advance again (43.4.2)
    grid = v.look.grid
    before = sum(grid.distance(e.src.hex, e.dst.hex) or 0 for _, e in drags if e.src.hex and e.dst.hex)
    total = before + (grid.distance(ev.src.hex, ev.dst.hex) or 0)
    if total <= sm.hexes or before > sm.hexes:
        return None                                # within its hexes, or reported at the drag that went over
    start = drags[0][1].src.hex if drags else ev.src.hex
    return found(Finding(message=f"{v.label(c)} goes at least {total} hexes in its special move from {start} to "
                                 f"{ev.dst.hex} in the {v.tracker.name(v.tracker.current())}: it goes at most "
                                 f"{sm.hexes}",
                         hexes=(start, ev.dst.hex), units=(v.label(c),), rule=sm.rule, side=v.side_of(c)))


def _zoc_entered(v, c, phases: tuple) -> Optional[tuple]:
    """(drag step, the hex it ended in, the enemy's label, its hex) where a drag of the unit in one of these phases
    of this turn ended next to an enemy unit that exerts a ZOC and stood there then and since (a unit that came
    later was not there to be entered into), else None."""
    led = v.ledger
    idx = {k for k, p in enumerate(v.tracker.phases) if p.id in phases}
    held = v.enemies(v.side_of(c))
    for k in sorted(idx & set(led.phase_legs)):
        leg = led.phase_legs[k].get(c.piece)
        for step, end in zip(leg.steps, leg.ends) if leg is not None else ():
            for n in v.look.grid.neighbours(end):
                for e in held.get(n, ()):
                    if led.entered.get(e.piece, 0) <= step and v.look.exerts(e):
                        return step, end, v.label(e), n
    return None


@rule("HF1112", "special-move-forfeited", "error",
      "a unit that entered an enemy ZOC in the phases the rules name forfeits its special move; take the move back",
      events=(Moved,), read_as=("other",))
def special_move_forfeited(v) -> Optional[Verdict]:
    """A unit makes a special move it forfeited by entering an enemy ZOC earlier in the turn.

    ## What it checks
    The first drag of a phase's special move with `forfeit_if_zoc_entered_in`: a drag of the unit in one of those
    phases of this turn ended next to an enemy unit that exerts a ZOC and stood there since before that drag. A
    warning where the ZOC rests on what the tree assumes, a note where it does not say enough.
    ## Why
    Bulge 43.5: "If the unit enters an enemy ZOC during the German 16 AM or 16 PM Movement Phases, it must take part
    in that turn's combat and forfeit the chance to infiltrate after the Combat Phase" (41.5 alike).
    ## Reads
    `sequence_of_play[].special_moves[].forfeit_if_zoc_entered_in` (`phases`, `rule`), `rules.zoc`, the legs of
    the turn's phases.
    ## Violation
    Bulge: KG Peiper ends its German Movement Phase move of 16 AM in RR5, next to 99/395 in QQ5, and advances in
    the German Engineer Phase after a roll of 2.
    ## Near miss
    The same advance after a movement that ended two hexes from every Allied unit.
    """
    c = v.event.counter
    sm = special_move(v, c)
    if sm is None or not sm.forfeit_zoc_in or _drags(v, c.piece):
        return None
    hit = _zoc_entered(v, c, sm.forfeit_zoc_in)
    if hit is None:
        return None
    step, end, enemy, n = hit
    level, why = v.facts.zoc_reading
    what = f"{v.label(c)} makes its special move {v.event.src} -> {v.event.dst} in the " \
           f"{v.tracker.name(v.tracker.current())}, having entered at {end} (step {step}) the ZOC of {enemy} in {n}"
    if level not in (CERTAIN, ASSUMED):
        return partly(f"{what}: whether that forfeits it is not judged ({why})")
    doubt = {} if level == CERTAIN else dict(severity="warning", help="check the map: the tree assumes what this "
                                                                         "ZOC rests on")
    return found(Finding(message=what + ": entering an enemy ZOC forfeits the special move"
                         + ("" if level == CERTAIN else f" (legal only if {enemy} exerts no ZOC there: {why})"),
                         hexes=(end, n, v.event.dst.hex), units=(v.label(c), enemy), rule=sm.forfeit_rule,
                         side=v.side_of(c), **doubt))
