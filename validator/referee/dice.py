"""Dice integrity: how each die button rolled, whether it looks fair, and rolls taken back by an undo.

`dice_stats` counts the faces per die button (and per player where the record knows who rolled)
and tests them against a fair die with a chi-square goodness-of-fit test; the survival function is
computed here from the regularized incomplete gamma function (no scipy). `dice_findings` reports
rolls undone (and re-rolled) and rolls of dice no table of the tree uses.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Optional

from ..source.model import Game
from ..records.record import Chat, DieRoll, GameRecord, Step
from ..records.record_limits import MAX_DIE_SIDES
from . import Finding, Verdict, found, rule

UNLIKELY_P = 0.001
MIN_EXPECTED = 5                          # rolls per face below which a chi-square p-value is not given
_DICE = re.compile(r"(\d*)\s*d\s*(\d+)", re.I)


@dataclass(frozen=True)
class DiceStat:
    dice: str                             # the button's name, as the record gives it
    side: Optional[str]                   # the rolling player's side/label; None = all rolls of the button
    sides: Optional[int]                  # faces per die; None = unknown
    rolls: int                            # presses of the button
    faces: tuple[int, ...]                # count per face 1..sides (all dice of all rolls)
    mean: Optional[float]                 # mean face
    chi_square: Optional[float]
    p_value: Optional[float]              # chance a fair die is at least this far off
    undone: tuple[int, ...]               # steps whose roll an undo took back


# -- the chi-square survival function --
def regularized_gamma_q(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a): the series for P below a + 1, the continued fraction (Lentz) above."""
    if a <= 0:
        raise ValueError("a must be positive")
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        for _ in range(10_000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-16:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
    return min(1.0, h * math.exp(log_front))


def chi_square_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square distributed with `df` degrees of freedom."""
    return regularized_gamma_q(df / 2, x / 2)


def chi_square(counts: tuple[int, ...]) -> Optional[tuple[float, Optional[float]]]:
    """Goodness of fit of face counts against equal chances: (statistic, p-value); None for no rolls. The
    p-value is None below MIN_EXPECTED rolls per face, where the chi-square distribution does not hold."""
    n, k = sum(counts), len(counts)
    if n == 0 or k < 2:
        return None
    expected = n / k
    stat = sum((c - expected) ** 2 / expected for c in counts)
    return stat, chi_square_sf(stat, k - 1) if expected >= MIN_EXPECTED else None


# -- reading the record --
def sides_of(roll: DieRoll) -> Optional[int]:
    if roll.sides:
        return roll.sides
    m = _DICE.search(roll.dice or "")
    return int(m.group(2)) if m else None


@dataclass(frozen=True)
class _Roll:
    step: int
    player: Optional[str]
    roll: DieRoll
    undone: bool                          # an undo took this roll's step back
    rerolled_at: Optional[int]            # the step of the next roll of the same button after the undo
    maybe: bool = False                   # the undo took back only chat after it: it may have meant the roll


def _chat_only(step: Step) -> bool:
    return bool(step.events) and all(isinstance(e, Chat) for e in step.events)


def _undone_steps(record: GameRecord) -> tuple[dict[int, int], dict[int, int]]:
    """Steps an undo took back (step -> the undo's step), and roll steps an undo may have meant: the undo
    took back chat typed after the roll (whether VASSAL counts a chat line as undoable varies)."""
    by_index = {s.index: s for s in record.steps}
    live: list[int] = []
    undone: dict[int, int] = {}
    maybe: dict[int, int] = {}
    for s in record.steps:
        if not s.undo:
            live.append(s.index)
            continue
        if not live:
            continue
        hit = live.pop()
        undone[hit] = s.index
        if _chat_only(by_index[hit]):
            before = next((i for i in reversed(live) if not _chat_only(by_index[i])), None)
            if before is not None and any(isinstance(e, DieRoll) for e in by_index[before].events):
                maybe[before] = s.index
    return undone, maybe


_LATEST: list = [None, ()]          # the record `_rolls` read last, and its rolls (the end's rules and the
                                    # dice statistics each ask for them)


def _rolls(record: GameRecord) -> tuple[_Roll, ...]:
    """Every roll with the step it is in, whether a later undo took it back, and the re-roll after it."""
    if _LATEST[0] is record:
        return _LATEST[1]
    undone, maybe = _undone_steps(record)
    flat = [(s.index, s.player, e) for s in record.steps for e in s.events if isinstance(e, DieRoll)]
    out = []
    for i, (idx, player, r) in enumerate(flat):
        undo_at = undone.get(idx, maybe.get(idx))
        later = None
        if undo_at is not None:
            later = next((flat[k][0] for k in range(i + 1, len(flat))
                          if flat[k][0] > undo_at and flat[k][2].dice == r.dice), None)
        out.append(_Roll(idx, player, r, idx in undone, later, idx not in undone and idx in maybe))
    _LATEST[:] = [record, tuple(out)]
    return _LATEST[1]


def forget_rolls() -> None:
    """The record `_rolls` read last let go (its audit is over: the record is not held past it)."""
    _LATEST[:] = [None, ()]


def _stat(dice: str, side: Optional[str], rolls: list[_Roll]) -> DiceStat:
    sides = sides_of(rolls[0].roll) if rolls else None
    faces_seen = [f for r in rolls for f in r.roll.faces]
    seen = Counter(faces_seen)               # one pass over the faces, and never more faces than a die has
    counts = tuple(seen[v] for v in range(1, sides + 1)) if sides and sides <= MAX_DIE_SIDES else ()
    fit = chi_square(counts) if counts else None
    mean = sum(faces_seen) / len(faces_seen) if faces_seen else None
    return DiceStat(dice, side, sides, len(rolls), counts, mean, fit[0] if fit else None,
                    fit[1] if fit else None, tuple(r.step for r in rolls if r.undone))


def dice_stats(record: GameRecord, player_side: Optional[str] = None) -> list[DiceStat]:
    """Per die button: all its rolls, then per player where the record knows who rolled.
    With `player_side`, only that player's rolls."""
    rolls = _rolls(record)
    if player_side is not None:
        rolls = [r for r in rolls if r.player == player_side]
    out: list[DiceStat] = []
    for dice in dict.fromkeys(r.roll.dice for r in rolls):
        mine = [r for r in rolls if r.roll.dice == dice]
        out.append(_stat(dice, player_side, mine))
        if player_side is None:
            for player in dict.fromkeys(r.player for r in mine if r.player):
                out.append(_stat(dice, player, [r for r in mine if r.player == player]))
    return out


def _dice_key(name: str) -> str:
    m = _DICE.search(name or "")
    return f"{m.group(1) or 1}d{m.group(2)}" if m else (name or "").strip().lower()


@rule("HF1601", "die-roll-undone", "warning",
      "a die roll was taken back by an undo (and rolled again): agree on re-rolls before playing, or replay",
      on="end")
def die_roll_undone(v) -> Optional[Verdict]:
    """A die roll taken back by VASSAL's Undo, and rolled again.

    ## What it checks
    Every roll whose step an undo took back (or, where the undo took back only chat typed after it, may
    have meant it), and the next roll of the same button after the undo.
    ## Why
    A roll taken back and made again changes what the dice decided; players agree on re-rolls before
    playing, and a referee reads them.
    ## Reads
    the record's rolls and undos.
    ## Violation
    Aachen: 1d6 = 3 at step 5, undone at step 6, rolled again at step 7 (= 6).
    ## Near miss
    An undo of a move (the roll stands); a combat roll undone and made again for the same battle is
    HF1505's, which names the battle.
    """
    out = []
    for r in _rolls(v.record):
        if r.step in v.ledger.rerolled:
            continue                          # a combat roll made again for its battle: HF1505 names it
        again = f"; rolled again at step {r.rerolled_at}" if r.rerolled_at else ""
        if r.undone:
            out.append(Finding(message=f"step {r.step}: roll {r.roll.dice} = {r.roll.total} was undone{again}",
                               step=r.step))
        elif r.maybe and r.rerolled_at:
            out.append(Finding(message=f"step {r.step}: roll {r.roll.dice} = {r.roll.total} may have been undone (an "
                                       f"undo took back only chat after it){again}", step=r.step))
    return found(*out)


@rule("HF1602", "die-roll-no-table", "info",
      "no table of the tree is rolled with these dice; check tables.yaml `dice` or the die button", on="end")
def die_roll_no_table(v) -> Optional[Verdict]:
    """Rolls of a die button no table of the tree is rolled with.

    ## What it checks
    Each die button the log rolls (`2d6`) against the `dice` of every table of the tree.
    ## Why
    A roll of dice no table uses decided nothing the referee can judge; a wrong button may have been
    pressed.
    ## Reads
    `tables.yaml` `dice`.
    ## Violation
    (a note) rolls of 1d10 in a Meuse log.
    ## Near miss
    Rolls of 1d6, the CRT's die.
    """
    rolls = _rolls(v.record)
    used = {_dice_key(t.dice) for t in v.game.tables if t.dice}
    out = []
    for dice in dict.fromkeys(r.roll.dice for r in rolls):
        if _dice_key(dice) not in used:
            steps = tuple(r.step for r in rolls if r.roll.dice == dice)
            out.append(Finding(message=f"{len(steps)} roll(s) of {dice}: no table of the tree is rolled with {dice}",
                               step=steps[0]))
    return found(*out)


@rule("HF1603", "dice-distribution-unlikely", "info",
      "the faces are far from what a fair die gives (chi-square p below 0.001); look at the die button", on="end")
def dice_distribution_unlikely(v) -> Optional[Verdict]:
    """A die button whose faces a fair die would rarely give.

    ## What it checks
    Per die button, a chi-square goodness-of-fit test of the faces rolled against a fair die (given only
    from five expected rolls per face); a note below p = 0.001.
    ## Why
    A module's die button with a wrong setting, or a log whose rolls were edited, shows in its faces.
    ## Reads
    the record's rolls.
    ## Violation
    (a note) 60 rolls of 1d6 that all show 6.
    ## Near miss
    60 rolls of 1d6 spread as a fair die spreads them.
    """
    return found(*(Finding(message=f"{s.dice}: {sum(s.faces)} faces, chi-square {s.chi_square:.2f}, p = {s.p_value:.2g}")
                   for s in dice_stats(v.record)
                   if s.side is None and s.p_value is not None and s.p_value < UNLIKELY_P))
