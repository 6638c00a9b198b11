"""Sequence of play: units move only in their side's phases that let their movement class move."""
from __future__ import annotations

from ..record import Moved
from . import Finding, rule


def _move_to_judge(ctx, m) -> bool:
    """A unit's map move that no phase reading explains yet, in a game whose phases say who moves (where
    they do not, the replay reads every move as a move, judging its path but not its phase)."""
    return m.read_as == "unread"


def _where_phase(ctx) -> str:
    t = ctx.tracker
    if t.recorded_at:
        return f"in the {t.name(t.current())} the turn marker shows since step {t.recorded_at}"
    if t.announced_at:
        return f"in the {t.name(t.current())} announced at step {t.announced_at}"
    return f"after the {t.name(t.current())} had begun (step {t.forced_at})" if t.forced_at else \
        f"in the {t.name(t.current())}"


@rule("HF1101", "moved-outside-movement-phase", "error",
      "move a side's units only in that side's movement phases (the sequence of play)",
      events=(Moved,), read_as=("unread",))
def moved_outside_movement_phase(ctx, m):
    if not _move_to_judge(ctx, m):
        return
    c = m.event.counter
    side, cls = ctx.side_of(c), ctx.class_of(c)
    if ctx.tracker.earlier_phase_for(side, cls) is not None and not ctx.tracker.announced_at:
        return          # HF1103 says it: the side's phase has passed this turn
    if any(ctx.tracker.may_move(i, side, cls) for i in range(len(ctx.tracker.phases))) and \
            not _class_barred(ctx, side, cls):
        sname = ctx.game.side(side).name if ctx.game.side(side) else side
        p = ctx.tracker.phase()
        yield Finding(f"{sname} {ctx.label(c)} moves {m.event.src} -> {m.event.dst} {_where_phase(ctx)}",
                      hexes=(m.event.src.hex, m.event.dst.hex), units=(ctx.label(c),),
                      rule=p.rule if p else None, side=side)


def _class_barred(ctx, side, cls) -> bool:
    """The current phase lets this side move, but not this movement class (HF1102 reports it)."""
    p = ctx.tracker.phase()
    return p is not None and p.moves is not None and p.side in (None, side) and not ctx.tracker.may_move(
        ctx.tracker.current(), side, cls)


@rule("HF1102", "class-may-not-move-in-phase", "error",
      "only the movement classes the sequence of play names may move in this phase",
      events=(Moved,), read_as=("unread",))
def class_may_not_move_in_phase(ctx, m):
    if not _move_to_judge(ctx, m):
        return
    c = m.event.counter
    side, cls = ctx.side_of(c), ctx.class_of(c)
    if _class_barred(ctx, side, cls):
        p = ctx.tracker.phase()
        yield Finding(f"{ctx.label(c)} ({cls}) moves {m.event.src} -> {m.event.dst} {_where_phase(ctx)}, "
                      f"in which only {', '.join(p.moves)} units move",
                      hexes=(m.event.src.hex, m.event.dst.hex), units=(ctx.label(c),), rule=p.rule, side=side)


@rule("HF1103", "moved-after-own-turn", "error",
      "a player's units move in his own player turn; the other player's turn follows it",
      events=(Moved,), read_as=("unread",))
def moved_after_own_turn(ctx, m):
    if not _move_to_judge(ctx, m):
        return
    c = m.event.counter
    side, cls = ctx.side_of(c), ctx.class_of(c)
    passed = ctx.tracker.earlier_phase_for(side, cls)
    if passed is None or ctx.tracker.announced_at:
        return
    t = ctx.tracker
    sname = ctx.game.side(side).name if ctx.game.side(side) else side
    yield Finding(f"{sname} {ctx.label(c)} moves {m.event.src} -> {m.event.dst} in turn {ctx.turn} after the "
                  f"{t.name(t.current())} began (step {t.forced_at}): the {t.name(passed)} was over",
                  hexes=(m.event.src.hex, m.event.dst.hex), units=(ctx.label(c),),
                  rule=t.phase().rule, side=side)
