"""Sequence of play: units move only in their side's phases that let their movement class move."""
from __future__ import annotations

from typing import Optional

from ..records.record import Moved
from . import Finding, Verdict, found, partly, rule
from .movement import in_state


def _where_phase(v) -> str:
    t = v.tracker
    if t.recorded_at is not None:
        since = "the log began" if t.recorded_at == 0 else f"step {t.recorded_at}"
        return f"in the {t.name(t.current())} the turn marker shows since {since}"
    if t.announced_at:
        return f"in the {t.name(t.current())} announced at step {t.announced_at}"
    return f"after the {t.name(t.current())} had begun (step {t.forced_at})" if t.forced_at else \
        f"in the {t.name(t.current())}"


def _class_barred(v, side, cls) -> bool:
    """The current phase lets this side move, but not this movement class (HF1102 reports it)."""
    p, t = v.tracker.phase(), v.tracker
    return p is not None and p.moves is not None and p.side in (None, side) and not t.left_out(t.current()) \
        and not t.may_move(t.current(), side, cls)


@rule("HF1101", "moved-outside-movement-phase", "error",
      "move a side's units only in that side's movement phases (the sequence of play)",
      events=(Moved,), read_as=("unread",))
def moved_outside_movement_phase(v) -> Optional[Verdict]:
    """A unit moves where no phase left this turn lets its side move.

    ## What it checks
    A unit's map move that no phase from the current one to the end of the turn explains: not a
    movement phase of its side for its class (nor one the sequence of play leaves out of this turn,
    `not_on_turns`, the turn as the log records it), not a retreat or advance after a roll in a combat phase,
    nor (where the rules let a defender retreat instead of a roll) a retreat before combat by a unit next
    to its enemy or the attacker's advance from next to the hex it left. Where the rules refuse that unit a
    retreat before combat (`hold_if`, `overrun_from_apart`, `overrun_not_in`), the finding says why and cites
    the rule that refuses it.
    ## Why
    Each side's units move in that side's movement phases (Meuse 3.2, 4.1).
    ## Reads
    `sequence_of_play` (`side`, `moves`, `combat`); the turn tracker's phase (recorded, announced in
    the chat, or inferred from the order of events); `rules.combat.retreat_before_combat`.
    ## Violation
    Meuse: the Blue 2nd Light Mechanised Motorised Battalion dragged in the Red Movement Phase; Ardennes II: a
    German unit dragged in the German Exploitation Phase of turn 1 (4.3: "There is NO German Exploitation
    Phase on Turn 1").
    ## Near miss
    A Blue defender retreated in the Red Combat Phase after a roll (a retreat).
    """
    c = v.event.counter
    side, cls = v.side_of(c), v.class_of(c)
    t = v.tracker
    if t.earlier_phase_for(side, cls) is not None and not t.pinned():
        return None            # HF1103 says it: the side's phase has passed this turn
    if not any(t.may_move(i, side, cls) for i in range(len(t.phases))) or _class_barred(v, side, cls):
        return None
    p = t.phase()
    out = t.left_out(t.current()) if p else False
    refused = v.reading[1:] if v.reading and len(v.reading) == 3 else None   # a retreat before combat refused
    why = f" ({refused[0]})" if refused else ""
    rule_no = (p.not_on_turns_rule if out else p.rule) if p else None
    return found(Finding(message=f"{v.side_name(side)} {v.label(c)} moves {v.event.src} -> {v.event.dst} {_where_phase(v)}"
                                 + (f", which the sequence of play leaves out on turn {t.turn}" if out else "") + why,
                         hexes=(v.event.src.hex, v.event.dst.hex), units=(v.label(c),),
                         rule=(refused[1] or rule_no) if refused else rule_no, side=side))


@rule("HF1102", "class-may-not-move-in-phase", "error",
      "only the movement classes the sequence of play names may move in this phase",
      events=(Moved,), read_as=("unread",))
def class_may_not_move_in_phase(v) -> Optional[Verdict]:
    """A unit of a movement class the phase does not let move, moves in it.

    ## What it checks
    In a phase whose `moves` names only some movement classes (an exploitation phase: mechanized
    only), a unit of another class moves.
    ## Why
    Only mechanized units may move in the exploitation phase; leg units may not (Meuse 9.1).
    ## Reads
    `sequence_of_play[].moves`, the unit's movement class (`counters.yaml`).
    ## Violation
    Meuse: Red 12th Rifle Regiment (leg) dragged B8.13 -> B7.14 in the Red Exploitation Phase.
    ## Near miss
    Red Tank Battalion 2/1 (mechanized) dragged B10.11 -> B9.11 in the same phase.
    """
    c = v.event.counter
    side, cls = v.side_of(c), v.class_of(c)
    if not _class_barred(v, side, cls):
        return None
    p = v.tracker.phase()
    return found(Finding(message=f"{v.label(c)} ({cls}) moves {v.event.src} -> {v.event.dst} {_where_phase(v)}, "
                                 f"in which only {', '.join(p.moves)} units move",
                         hexes=(v.event.src.hex, v.event.dst.hex), units=(v.label(c),), rule=p.rule, side=side))


@rule("HF1107", "state-may-not-move-in-phase", "error",
      "a unit in a state the phase bars (DG in an exploitation) stays put in it", events=(Moved,), read_as=("move",))
def state_may_not_move_in_phase(v) -> Optional[Verdict]:
    """A unit moves in a phase that bars units in its state from moving.

    ## What it checks
    In a phase with `not_in_states`, the first drag of a unit in one of those states when its move began:
    on its piece, or shown by a marker marking its whole stack (`markers[].whole_stack`) in the hex it left.
    Judged where the phase is certain (the marker or a chat names it); else a note.
    ## Why
    Ardennes II 3.4: "DG units CANNOT: Overrun, Exploit".
    ## Reads
    `sequence_of_play[].not_in_states`, the unit's state, `markers[].whole_stack` and `states`.
    ## Violation
    Ardennes II: I/3, its DG marker still on its stack, dragged in the German Exploitation Phase of turn 2.
    ## Near miss
    A unit with no DG marker in its hex moving in the same phase.
    """
    i = v.reading[0] if v.reading else None
    p = v.tracker.phases[i] if i is not None else None
    if p is None or not p.not_in_states:
        return None
    c = v.event.counter
    leg = v.ledger.legs.get(c.piece)
    if leg is not None and len(leg.steps) > 1:
        return None                            # judged at the move's first drag
    if not in_state(v.look, v.position, c, p.not_in_states, leg, v.ledger.entered):
        return None
    states = "/".join(p.not_in_states).upper()
    if not v.tracker.pinned():
        return partly(f"{v.label(c)} ({states}) may move in a later phase than the {v.tracker.name(i)}; "
                      f"{p.not_in_states_rule} is not judged")
    return found(Finding(message=f"{v.label(c)} ({states}) moves {v.event.src} -> {v.event.dst} {_where_phase(v)}, "
                                 f"in which {states} units may not move",
                         hexes=(v.event.src.hex, v.event.dst.hex), units=(v.label(c),), rule=p.not_in_states_rule,
                         side=v.side_of(c)))


@rule("HF1108", "moved-from-enemy-adjacent", "error",
      "a unit that began the phase next to an enemy unit stays put in it", events=(Moved,), read_as=("move",))
def moved_from_enemy_adjacent(v) -> Optional[Verdict]:
    """A unit moves in a phase it began next to an enemy unit, where the phase bars such units.

    ## What it checks
    In a phase with `not_from_enemy_adjacent`, the first drag of a unit that stood in the hex it leaves when
    the phase began (it entered that hex at or before the last phase end), with an enemy unit next to it that
    stood there since then too. Judged where the phase is certain (the marker or a chat names it); a unit the
    log began with, in a phase begun before the log, is a note (where it began the phase is not known).
    ## Why
    Ardennes II 1.2: "When starting a Phase adjacent to any enemy unit ... The unit cannot Exploit or Overrun."
    ## Reads
    `sequence_of_play[].not_from_enemy_adjacent`, the sides of the units, the grid's neighbours.
    ## Violation
    Ardennes II: A/9, next to 751 in B28.49 since the set-up, dragged B27.49 -> B26.48 in the US
    Exploitation Phase of turn 1.
    ## Near miss
    A unit with no enemy next to it when the phase began moving in the same phase; or A/9 moving in the US
    Movement & Barrage Phase, which does not bar it.
    """
    i = v.reading[0] if v.reading else None
    p = v.tracker.phases[i] if i is not None else None
    ev = v.event
    if p is None or not p.not_from_enemy_adjacent or ev.src.hex is None:
        return None
    c, led = ev.counter, v.ledger
    leg = led.legs.get(c.piece)
    if (leg is not None and len(leg.steps) > 1) or led.entered.get(c.piece, 0) > led.phase_end_step:
        return None                            # judged at the move's first drag; it came there in this phase
    held = v.enemies(v.side_of(c))
    near = [(h, e) for h in v.look.grid.neighbours(ev.src.hex) for e in held.get(h, ())
            if led.entered.get(e.piece, 0) <= led.phase_end_step]
    if not near:
        return None
    h, e = near[0]
    rule_ = p.not_from_enemy_adjacent
    if not v.tracker.pinned() or led.phase_end_step == 0:
        return partly(f"{v.label(c)} stands next to {v.label(e)} in {h}; whether it began the "
                      f"{v.tracker.name(i)} there is not known ({rule_} is not judged)")
    return found(Finding(message=f"{v.label(c)} moves {ev.src} -> {ev.dst} {_where_phase(v)}, which it began next "
                                 f"to {v.label(e)} in {h}: a unit that begins the phase next to an enemy unit may "
                                 f"not move in it",
                         hexes=(ev.src.hex, ev.dst.hex, h), units=(v.label(c), v.label(e)), rule=rule_,
                         side=v.side_of(c)))


@rule("HF1103", "moved-after-own-turn", "error",
      "a player's units move in his own player turn; the other player's turn follows it",
      events=(Moved,), read_as=("unread",))
def moved_after_own_turn(v) -> Optional[Verdict]:
    """A unit moves after its side's movement phases of the turn are over.

    ## What it checks
    A unit's map move that no phase left explains, after a phase in which it could have moved has
    passed this turn (the phase was inferred from the events: a later side's move or roll began).
    ## Why
    A player's units move in his own player turn; the other player's turn follows it (Meuse 3.2).
    ## Reads
    `sequence_of_play`; the order of events.
    ## Violation
    Aachen: a US infantry unit dragged after a German unit's move began the German Movement Phase.
    ## Near miss
    The German unit's move itself, the first move of the turn's German player turn.
    """
    c = v.event.counter
    side, cls = v.side_of(c), v.class_of(c)
    t = v.tracker
    passed = t.earlier_phase_for(side, cls)
    if passed is None or t.pinned():
        return None
    return found(Finding(
        message=f"{v.side_name(side)} {v.label(c)} moves {v.event.src} -> {v.event.dst} in turn {v.turn} after the "
                f"{t.name(t.current())} began (step {t.forced_at}): the {t.name(passed)} was over",
        hexes=(v.event.src.hex, v.event.dst.hex), units=(v.label(c),), rule=t.phase().rule, side=side))
