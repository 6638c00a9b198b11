"""The battles of a combat phase: each combat roll tied to the battle it settled, kept in the ledger.

For a die roll the replay asks `read_battle`: in which side's combat phase it falls (none: a roll
outside combat), and which battle it settled, judged on the position at the roll and the events after
it up to the next roll or phase change (`combat.judge_battle`: every reading the tree allows). The
`Battle` kept in the ledger says which hexes defended, which units attacked, the result that fit and
how sure the tie of the roll to the battle is; later rolls of the phase are judged against it.
"""
from __future__ import annotations

from typing import NamedTuple, Optional

from ..record import Chat, DieRoll
from .combat import Judgement, judge_battle
from .ledger import Ledger


class Battle(NamedTuple):
    step: int                                  # the roll's step
    roll: DieRoll
    side: str                                  # the attacking side
    hexes: tuple[str, ...]                     # the defender hex(es) the judgement names
    verdict: str                               # legal | violation | unverified
    message: str


class BattleReading(NamedTuple):
    """What the replay read of a die roll: the attacking side (None: not known; False: the roll falls in
    no combat phase), the judgement of its battle, the events after it (with their steps)."""
    side: object
    judgement: Optional[Judgement]
    following: tuple
    battle: Optional[Battle]


def combat_side(tracker):
    """The attacking side of the combat phase a roll falls in; False when it can be in none."""
    i = tracker.current()
    if i is None:
        return None
    last = i + 1 if tracker.pinned() else len(tracker.phases)
    for j in range(i, last):
        if tracker.phases[j].combat:
            return tracker.phases[j].side
    return False


def following(v) -> tuple:
    """The events after a roll (with their steps), up to the next roll, turn change or phase announcement."""
    out = []
    for s in v.steps_after():
        for e in s.events:
            if isinstance(e, DieRoll) or (isinstance(e, Chat) and v.tracker.match_announcement(e.text) is not None):
                return tuple(out)
            out.append((s.index, e))
    return tuple(out)


def read_battle(v) -> Optional[BattleReading]:
    side = combat_side(v.tracker)
    if side is False:
        return BattleReading(False, None, (), None)
    after = following(v)
    j = judge_battle(v.game, v.position, side, v.event, tuple(e for _, e in after), v.step)
    battle = Battle(v.step.index, v.event, side, j.hexes, j.verdict, j.message) if side else None
    return BattleReading(side, j, after, battle)


def keep_battle(ledger: Ledger, tracker, reading: BattleReading) -> Ledger:
    """The ledger with the battle of this combat phase added (a new phase starts a new list)."""
    if reading.battle is None:
        return ledger
    phase = (ledger.turn, tracker.current())
    battles = ledger.battles if ledger.battles_phase == phase else ()
    return ledger.with_(battles=battles + (reading.battle,), battles_phase=phase)
