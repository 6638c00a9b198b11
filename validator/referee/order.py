"""The order of moving: a unit's move is over once another starts (where the rules say so), units that
moved in one phase may not move in another, and a player touching the other side's pieces.

State lives in `ctx.order` (a dict whose values are replaced, never changed in place, so the replay's
undo snapshot restores it): the turn and phase the state is for, the pieces of the move under way
("group"), the pieces whose move is over (piece -> (step, unit that started moving)), the steps
already read, and the phase each piece moved in this turn (piece -> {phase index: step}).

A move is judged only where its phase is certain: the phase is pinned (announced in the chat or
recorded by the turn marker), or no die was rolled in it (after a roll a move may be a retreat or an
advance) and no later phase lets the unit move. Elsewhere the step is partly verified.
"""
from __future__ import annotations

from typing import Optional

from ..model import OneAtATime
from ..record import Moved, Removed, StateChanged, is_map_move
from . import Finding, rule


def _as_move(m) -> Optional[int]:
    """The phase index of a move read as a move in a movement phase (not a retreat or advance)."""
    return m.reading[0] if m.read_as == "move" else None


def _certain(ctx, c, i: int) -> bool:
    t = ctx.tracker
    if t.announced_at is not None:
        return True
    return not t.rolled_here and not t.later_phase_for(i, ctx.side_of(c), ctx.class_of(c))


def _state(ctx, i: int) -> dict:
    """The order state for this turn and phase (a fresh one when either changed)."""
    st = ctx.order
    if st.get("turn") != ctx.turn:
        st = {"turn": ctx.turn, "moved_in": {}}
    if st.get("phase") != i:
        st = {**st, "phase": i, "group": frozenset(), "done": {}, "read": frozenset(), "bad": frozenset()}
    return st


def _one_at_a_time(ctx, i: Optional[int]) -> Optional[OneAtATime]:
    p = ctx.tracker.phases[i] if i is not None and i < len(ctx.tracker.phases) else None
    return (p.one_at_a_time if p else None) or ctx.game.rules.one_at_a_time


def _read_step(ctx, st: dict, m, rule_of: OneAtATime) -> dict:
    """The step's drag, once per step: which of its pieces had finished their move, and what it ends."""
    if m.step.index in st["read"]:
        return st
    pieces = frozenset(e.counter.piece for e in m.step.events if is_map_move(e))
    done = st["done"]
    bad = frozenset(p for p in pieces if p in done)
    group = st["group"]
    if not pieces <= group:
        ender = ctx.label(m.event.counter)
        done = {**done, **{p: (m.step.index, ender) for p in group - pieces if p not in done}}
        group = pieces
    if len(pieces) > 1 and not rule_of.stacks_together:
        ctx.partly(m.step.index, f"several units dragged at once; {rule_of.rule} has each unit move individually: "
                                 f"read as each moving this path in turn")
    return {**st, "group": group, "done": done, "read": st["read"] | {m.step.index}, "bad": bad}


@rule("HF1104", "moved-after-move-was-over", "error",
      "finish one unit's move before starting another's: a unit whose move is over may not move again",
      events=(Moved,), read_as=("move",))
def moved_after_move_was_over(ctx, m):
    i = _as_move(m)
    rule_of = _one_at_a_time(ctx, i)
    if i is None or rule_of is None or not rule_of.move_ends:
        return
    c = m.event.counter
    if not _certain(ctx, c, i):
        ctx.partly(m.step.index, f"the phase of this move is inferred after a roll or before a later movement "
                                 f"phase; the order of moving ({rule_of.rule}) is not judged")
        return
    st = _read_step(ctx, _state(ctx, i), m, rule_of)
    ctx.order = st
    if c.piece in st["bad"]:
        step, ender = st["done"][c.piece]
        yield Finding(f"{ctx.label(c)} moves again {m.event.src} -> {m.event.dst} in the {ctx.tracker.name(i)}: its move was "
                      f"over when {ender} began moving at step {step}",
                      hexes=(m.event.src.hex, m.event.dst.hex), units=(ctx.label(c),), rule=rule_of.rule,
                      side=ctx.side_of(c))


@rule("HF1105", "moved-in-barred-phase", "error",
      "a unit that moved in the phase the rule names may not move in this one", events=(Moved,), read_as=("move",))
def moved_in_barred_phase(ctx, m):
    i = _as_move(m)
    if i is None:
        return
    c = m.event.counter
    certain = _certain(ctx, c, i)
    st = _state(ctx, i)
    moved = st["moved_in"].get(c.piece, {})
    if certain and i not in moved:
        st = {**st, "moved_in": {**st["moved_in"], c.piece: {**moved, i: m.step.index}}}
    ctx.order = st
    bar = ctx.tracker.phases[i].not_if_moved_in
    if bar is None:
        return
    earlier = [(j, moved[j]) for j, p in enumerate(ctx.tracker.phases) if p.id in bar.phases and j in moved]
    if not earlier:
        return
    if not certain:
        ctx.partly(m.step.index, f"this move may fall in a later phase; {bar.rule} is not judged")
        return
    j, step = earlier[0]
    yield Finding(f"{ctx.label(c)} moves {m.event.src} -> {m.event.dst} in the {ctx.tracker.name(i)} after moving "
                  f"in the {ctx.tracker.name(j)} (step {step})",
                  hexes=(m.event.src.hex, m.event.dst.hex), units=(ctx.label(c),), rule=bar.rule,
                  side=ctx.side_of(c))


def _player_side(ctx, m) -> Optional[str]:
    p = m.step.player if m.step else None
    return p if p and ctx.game.side(p) is not None else None


def _side_acts(ctx, i: int, side: str) -> bool:
    p = ctx.tracker.phases[i]
    return p.side in (None, side) or p.combat


def _phases_possible(ctx) -> range:
    t = ctx.tracker
    return range(t.index, t.index + 1 if t.announced_at is not None else len(t.phases))


_TOUCH = (Moved, Removed, StateChanged)


@rule("HF1106", "moved-other-sides-piece", "warning",
      "a player moves, flips and removes his own side's pieces; the other side's only where it acts "
      "(its own phases, combat)", events=_TOUCH)
def moved_other_sides_piece(ctx, m):
    ev = m.event
    if not isinstance(ev, _TOUCH) or ev.counter.kind != "unit" or ctx.tracker.index is None:
        return
    player = _player_side(ctx, m)
    owner = ctx.side_of(ev.counter)
    if player is None or owner is None or owner == player:
        return
    if any(_side_acts(ctx, i, owner) for i in _phases_possible(ctx)):
        return
    what = {Moved: "moves", Removed: "removes", StateChanged: "flips"}[type(ev)]
    hexes = (ev.src.hex, ev.dst.hex) if isinstance(ev, Moved) else (ev.where.hex,)
    pname = ctx.game.side(player).name
    oname = ctx.game.side(owner).name if ctx.game.side(owner) else owner
    yield Finding(f"the {pname} player {what} the {oname} {ctx.label(ev.counter)} in the "
                  f"{ctx.tracker.name(ctx.tracker.index)}, in which the {oname} side does not act",
                  hexes=tuple(h for h in hexes if h), units=(ctx.label(ev.counter),),
                  rule=ctx.tracker.phase().rule, side=owner)
