"""The order of moving: a unit's move is over once another starts (where the rules say so), units that
moved in one phase may not move in another, and a player touching the other side's pieces.

The ledger keeps, per phase, the pieces of the drag under way and those whose move is over, and per
turn the phase each piece moved in (`keep_order`, which the replay runs as it reads a move). A move is
judged only where its phase is certain: the phase is pinned (announced in the chat or recorded by
the turn marker), or no die was rolled in it (after a roll a move may be a retreat or an advance) and
no later phase lets the unit move. Elsewhere the step is partly verified.
"""
from __future__ import annotations

from typing import Optional

from ..source.model import OneAtATime
from ..records.record import Moved, Removed, StateChanged, is_map_move
from . import Finding, Verdict, found, partly, rule
from .ledger import Ledger, OrderState, put


def _certain(v, c, i: int) -> bool:
    t = v.tracker
    if t.announced_at is not None:
        return True
    return not t.rolled_here and not t.later_phase_for(i, v.side_of(c), v.class_of(c))


def one_at_a_time(v, i: Optional[int]) -> Optional[OneAtATime]:
    p = v.tracker.phases[i] if i is not None and i < len(v.tracker.phases) else None
    return (p.one_at_a_time if p else None) or v.game.rules.one_at_a_time


def keep_order(v) -> Ledger:
    """The ledger once a move (read as made in phase `v.reading[0]`) is in it: the drag under way and the
    moves it ends (once per step: a step may drag several units), and the phase the piece moved in."""
    led, i, c = v.ledger, v.reading[0], v.event.counter
    st = led.order
    if st.turn != v.turn or st.phase != i:
        st = OrderState(v.turn, i)
    rule_of = one_at_a_time(v, i)
    judged = rule_of is not None and rule_of.move_ends and _certain(v, c, i)
    if judged and v.step.index not in st.read:
        pieces = frozenset(e.counter.piece for e in v.step.events if is_map_move(e))
        again = frozenset(p for p in pieces if p in st.done)
        done, group = st.done, st.group
        # a drag of other units, or (where each unit moves individually) of some of the units dragged together
        # (read as the last of them to move: the others' moves were over when it began)
        if not pieces <= group or (pieces != group and not rule_of.stacks_together):
            ender = v.label(c)
            done = {**done, **{p: (v.step.index, ender) for p in group - pieces if p not in done}}
            group = pieces
        st = OrderState(st.turn, i, group, done, st.read | {v.step.index}, again)
    moved_in = led.moved_in if led.moved_turn == v.turn else {}
    mine = moved_in.get(c.piece, {})
    if i not in mine and _certain(v, c, i):
        moved_in = put(moved_in, c.piece, {**mine, i: v.step.index})
    return led.with_(order=st, moved_in=moved_in, moved_turn=v.turn)


@rule("HF1104", "moved-after-move-was-over", "error",
      "finish one unit's move before starting another's: a unit whose move is over may not move again",
      events=(Moved,), read_as=("move",))
def moved_after_move_was_over(v) -> Optional[Verdict]:
    """A unit moves again after another unit began moving, where the rules end a move then.

    ## What it checks
    Where the rules (`one_at_a_time` with `move_ends_when_another_starts`) say a unit's move is over
    once another unit starts moving, a drag of a unit whose move was over.
    ## Why
    Units move one at a time; a player may not go back to a unit once he has moved another (as the
    rules that say so print it, e.g. Aachen).
    ## Reads
    `rules.one_at_a_time` (or the phase's own), the phase's certainty; the ledger's order of moving.
    ## Violation
    A unit dragged, a second unit dragged, then the first dragged again, in one movement phase.
    Where each unit moves individually (`stacks: individually`), two units dragged together are read as
    moving that path one after the other, the one dragged on alone afterwards last: the Bulge's Panzer
    Brigade 150 and KG Peiper dragged UU8 -> UU9 together, Peiper on to UU10, then Pz Bde 150 on to UU11
    (6.3).
    ## Near miss
    The first unit dragged twice in a row (one move of several drags), or any order in a game whose
    rules do not end a move when another starts (Meuse 4.1); or the stack dragged on together.
    """
    i = v.reading[0] if v.reading else None
    rule_of = one_at_a_time(v, i)
    if i is None or rule_of is None or not rule_of.move_ends:
        return None
    c = v.event.counter
    if not _certain(v, c, i):
        return partly(f"the phase of this move is inferred after a roll or before a later movement phase; the order "
                      f"of moving ({rule_of.rule}) is not judged")
    many = len({e.counter.piece for e in v.step.events if is_map_move(e)}) > 1 and not rule_of.stacks_together
    notes = (f"several units dragged at once; {rule_of.rule} has each unit move individually: read as each moving "
             f"this path in turn",) if many else ()
    st = v.ledger.order
    if c.piece not in st.again:
        return partly(*notes) if notes else None
    step, ender = st.done[c.piece]
    return found(Finding(
        message=f"{v.label(c)} moves again {v.event.src} -> {v.event.dst} in the {v.tracker.name(i)}: its move was "
                f"over when {ender} began moving at step {step}",
        hexes=(v.event.src.hex, v.event.dst.hex), units=(v.label(c),), rule=rule_of.rule, side=v.side_of(c)),
        partly=notes)


@rule("HF1105", "moved-in-barred-phase", "error",
      "a unit that moved in the phase the rule names may not move in this one", events=(Moved,), read_as=("move",))
def moved_in_barred_phase(v) -> Optional[Verdict]:
    """A unit moves in a phase its earlier movement this turn bars it from.

    ## What it checks
    A phase with `not_if_moved_in` (units that moved in the phases it names may not move in it): a
    drag of a unit that moved in one of those phases this turn.
    ## Why
    Some sequences let only the units that stayed put move in a later phase (Aachen 5.5: a mobile unit
    that moved in the Movement Phase may not move in the Mobile Movement Phase).
    ## Reads
    `sequence_of_play[].not_if_moved_in`; the ledger's phases each unit moved in this turn.
    ## Violation
    Aachen: a US tank destroyer that moved in the Movement Phase (step 2) moves again in the Mobile
    Movement Phase (step 9).
    ## Near miss
    The other tank destroyer, which had not moved in the Movement Phase, moving in the Mobile Movement
    Phase.
    """
    i = v.reading[0] if v.reading else None
    if i is None:
        return None
    bar = v.tracker.phases[i].not_if_moved_in
    if bar is None:
        return None
    c = v.event.counter
    moved = v.ledger.moved_in.get(c.piece, {}) if v.ledger.moved_turn == v.turn else {}
    earlier = [(j, moved[j]) for j, p in enumerate(v.tracker.phases) if p.id in bar.phases and j in moved and j != i]
    if not earlier:
        return None
    if not _certain(v, c, i):
        return partly(f"this move may fall in a later phase; {bar.rule} is not judged")
    j, step = earlier[0]
    return found(Finding(
        message=f"{v.label(c)} moves {v.event.src} -> {v.event.dst} in the {v.tracker.name(i)} after moving in the "
                f"{v.tracker.name(j)} ({f'step {step}' if step else 'in the log before'})",
        hexes=(v.event.src.hex, v.event.dst.hex), units=(v.label(c),), rule=bar.rule, side=v.side_of(c)))


def _player_side(v) -> Optional[str]:
    p = v.step.player if v.step else None
    return p if p and v.game.side(p) is not None else None


def _side_acts(v, i: int, side: str) -> bool:
    p = v.tracker.phases[i]
    return p.side in (None, side) or p.combat


def _phases_possible(v) -> range:
    t = v.tracker
    return range(t.index, t.index + 1 if t.announced_at is not None else len(t.phases))


_TOUCH = (Moved, Removed, StateChanged)


@rule("HF1106", "moved-other-sides-piece", "warning",
      "a player moves, flips and removes his own side's pieces; the other side's only where it acts "
      "(its own phases, combat)", events=_TOUCH)
def moved_other_sides_piece(v) -> Optional[Verdict]:
    """A player drags a piece of the other side in a phase in which that side does not act.

    ## What it checks
    Where the log names the player's side (VASSAL's `PLAYER` command and the player id of each drag), a
    drag of a piece of another side in a phase in which that side neither moves nor fights.
    ## Why
    Each player moves his own units (Meuse 3.2); in a combat phase both sides act (losses, retreats).
    VASSAL puts no player id in flips and deletions, so only drags are attributed.
    ## Reads
    the record's player sides, the sequence of play (`side`, `combat`).
    ## Violation
    Meuse: the Red player drags Blue's 2nd Light Mechanised Motorised Battalion in the Red Movement
    Phase.
    ## Near miss
    The Red player retreating a Blue defender in the Red Combat Phase, where both sides act.
    """
    ev = v.event
    if not isinstance(ev, _TOUCH) or ev.counter.kind != "unit" or v.tracker.index is None:
        return None
    player, owner = _player_side(v), v.side_of(ev.counter)
    if player is None or owner is None or owner == player:
        return None
    if any(_side_acts(v, i, owner) for i in _phases_possible(v)):
        return None
    what = {Moved: "moves", Removed: "removes", StateChanged: "flips"}[type(ev)]
    hexes = (ev.src.hex, ev.dst.hex) if isinstance(ev, Moved) else (ev.where.hex,)
    return found(Finding(
        message=f"the {v.side_name(player)} player {what} the {v.side_name(owner)} {v.label(ev.counter)} in the "
                f"{v.tracker.name(v.tracker.index)}, in which the {v.side_name(owner)} side does not act",
        hexes=tuple(h for h in hexes if h), units=(v.label(ev.counter),), rule=v.tracker.phase().rule, side=owner))
