"""The battles of a combat phase: each combat roll tied to the battle it settled, kept in the ledger.

For a die roll the replay asks `read_battle`: in which side's combat phase it falls (none: a roll
outside combat; where the phase is inferred, each side's combat phase left this turn, the cheapest
reading kept: the events may not show that the other side's turn began), and which battle it settled,
judged on the position at the roll and the events after it up to the next roll or phase change (or,
where the players rolled on before applying it, its own units' events after the last roll of the run:
`results_after`) (`combat.judge_battle`: every reading the tree allows), the cheapest for the player first: readings that break no limit of the phase, given the battles the
ledger already holds (`Limits`: who attacked, which hexes were attacked). The `Battle` kept in the
ledger says which hexes may have defended and which one the cheapest reading names, how sure the tie
of the roll to it is, who attacked for certain and who may have, the reading that fits (table,
column, modifier, row, result), and what was done after it (losses, retreats along their drags,
advances); later rolls of the phase are judged against it. A roll made again after VASSAL's Undo is
tied to the roll the undo took back (`rerolls`).
"""
from __future__ import annotations

import bisect
from dataclasses import replace
from typing import NamedTuple, Optional

from ..records.record import Chat, DieRoll, Removed, StateChanged, is_map_move
from ..positions.position import Where
from .combat import COMBAT_UNVERIFIED, Judgement, Limits, judge_battle, side_effects, retreat_of
from .crt import combat_tables, read_cell
from .hex_stacks import HexStacks
from .lookahead import later_events
from .ledger import Ledger, put


class Battle(NamedTuple):
    step: int                                  # the roll's step
    roll: DieRoll
    side: str                                  # the attacking side
    hexes: tuple[str, ...]                     # the defender hex(es) the roll may be for
    verdict: str                               # legal | violation | unverified | unlikely | prohibited
    message: str
    phase: Optional[tuple] = None              # (turn, phase index) of the combat phase
    hex: Optional[str] = None                  # the defender hex of the cheapest reading
    tie: str = "possible"                      # certain | likely | possible: how sure the roll's tie to `hex` is
    tie_why: str = ""
    attackers: tuple[str, ...] = ()            # pieces that certainly attacked (they lost, retreated, advanced)
    possible: tuple[str, ...] = ()             # pieces the cheapest reading adds (their strength was needed)
    defenders: tuple[str, ...] = ()            # the pieces in `hex`
    table: Optional[str] = None                # the cheapest reading: table id, column (index and as reached),
    col: Optional[int] = None                  # die-roll modifier, modified roll, the cell
    column: Optional[str] = None
    modifier: Optional[int] = None
    row: Optional[int] = None
    result: Optional[str] = None
    losses: tuple = ()                         # (piece, removed | reduced, step)
    retreats: tuple = ()                       # (piece, ((hex, step), ...)): each drag of a retreat
    advances: tuple = ()                       # (piece, ((hex, step), ...)): each drag of an advance
    rerolls: Optional[int] = None              # the step of the roll an undo took back that this one makes again
    results_after: Optional[int] = None        # the step of the later roll after which its results are shown
    claimed: frozenset = frozenset()           # the pieces whose losses and drags after that roll are this battle's

    def reading(self) -> str:
        if self.result is None:
            return "no reading fits"
        return f"{self.table} column {self.column}, row {self.row} ({self.result})"


class BattleReading(NamedTuple):
    """What the replay read of a die roll: the attacking side (None: not known; False: the roll falls in
    no combat phase), the judgement of its battle, the events after it (with their steps), the battle kept,
    what the phase's earlier battles bind it to, and the roll an undo took back that it makes again."""
    side: object
    judgement: Optional[Judgement]
    following: tuple
    battle: Optional[Battle]
    limits: Limits = Limits()
    earlier: tuple = ()                        # the phase's battles before this roll
    rerolled: Optional[object] = None          # ledger.Discarded: the undone roll this one makes again


LOG_ENDS_AT_ROLL = "the log ends at the roll"


def combat_phases(tracker):
    """The combat phases a roll may fall in, earliest first, one per attacking side: the current phase only
    where the turn marker or a chat names it, else every combat phase left this turn (the events may not
    show that the other side's turn began); None where the sequence is not known."""
    i = tracker.current()
    if i is None:
        return None
    last = i + 1 if tracker.pinned() else len(tracker.phases)
    out: dict = {}
    for j in range(i, last):
        if tracker.phases[j].combat and not tracker.left_out(j):
            out.setdefault(tracker.phases[j].side, j)
    return list(out.values())


def later_mover(v, j: int):
    """Where the phase is inferred, whether a phase after combat phase j this turn lets a unit move (its drags
    after the roll may be that phase's: the other side's movement, an exploitation); None where the turn
    marker or a chat names the phase (every event up to the next is in it)."""
    t = v.tracker
    if t.pinned():
        return None
    return lambda c: t.later_phase_for(j, v.side_of(c), v.class_of(c))


def mover_now(v, j: int):
    """Whether combat phase j itself lets a unit move (Ardennes II's Movement & Barrage): its drags after a roll
    may be moves."""
    return lambda c: v.tracker.may_move(j, v.side_of(c), v.class_of(c))


def following(v) -> tuple:
    """The events after a roll (with their steps), up to the next roll, turn change or phase announcement."""
    out = []
    for s in v.steps_after():
        for e in s.events:
            if isinstance(e, DieRoll) or (isinstance(e, Chat) and (v.tracker.match_announcement(e.text) is not None
                                                                   or v.tracker.reads_as_announcement(e.text))):
                return tuple(out)                  # ("combat phase done": what follows may be the next phase's)
            out.append((s.index, e))
    return tuple(out)


def phase_battles(v) -> tuple:
    """The battles the ledger holds for the combat phase the game is in."""
    led = v.ledger
    return led.battles if led.battles_phase == (led.turn, v.tracker.current()) else ()


def limits_of(v, earlier: tuple) -> Limits:
    """What the phase's earlier battles leave, read cheapest for the player: the pieces that attacked in them
    for certain (they lost a step, retreated or advanced after the roll; a unit a reading only may have
    needed is not held to it), and the hexes attacked (where the tie was certain or likely: a roll that may
    have been for any of several hexes is taken to have been for one the log does not need)."""
    cb = v.game.rules.combat
    attackers, hexes = _attacked(earlier)
    return Limits(attackers, hexes, cb.attack_once, cb.defend_once, cb.one_hex)


_ATTACKED: list = [(), frozenset(), frozenset()]     # the latest battles read, and what `_attacked` gave


def _attacked(earlier: tuple) -> tuple[frozenset, frozenset]:
    """The pieces that attacked in these battles and the hexes attacked (tied certain or likely). A phase's
    battles grow one roll at a time: what the latest list gave is extended by the battles after it."""
    last, attackers, hexes = _ATTACKED
    if len(earlier) < len(last) or earlier[:len(last)] != last:
        last, attackers, hexes = (), frozenset(), frozenset()
    new = earlier[len(last):]
    if new:
        attackers = attackers | {p for b in new for p in b.attackers}
        hexes = hexes | {b.hex for b in new if b.hex and b.tie in ("certain", "likely")}
    _ATTACKED[:] = [earlier, attackers, hexes]
    return attackers, hexes


_CHEAPEST = {"legal": 0, "unverified": 1, "unlikely": 2, "prohibited": 3, "violation": 4}


def read_battle(v) -> Optional[BattleReading]:
    phases = combat_phases(v.tracker)
    if phases == []:                           # the events after it matter only where no combat may happen
        return BattleReading(False, None, following(v) if v.game.rules.combat.combat_phases_only else (), None)
    earlier = phase_battles(v)
    deferred = results_after(v)
    end = deferred[0] if deferred else v.step.index
    taken = frozenset().union(*(b.claimed for b in earlier if b.results_after == end))
    after = _untaken(deferred[1] if deferred else following(v), taken)
    limits = limits_of(v, earlier)
    position = overrunners_apart(v)
    stacks = HexStacks(v.look.counted_stacks(position), tuple(s.id for s in v.game.sides))
    side, j = _cheapest_side(v, phases, after, limits, stacks, position)
    claimed = frozenset()
    if deferred and side:                      # the results of later rolls follow too: this battle takes its own
        side, j, after, claimed = _own_results(v, phases, after, limits, stacks, j, position)
    elif side and j.verdict in ("violation", "unlikely") and (late := _finished_later(v, j)) is not None:
        side1, j1 = _cheapest_side(v, phases, after + late[1], limits, stacks, position)
        if _CHEAPEST[j1.verdict] < _CHEAPEST[j.verdict]:   # its result finished after the next roll
            side, j, after, claimed, deferred, end = side1, j1, after + late[1], _claims(v.game, j1), late, late[0]
    if j.verdict in ("violation", "unlikely") and not after and _log_ends_at_roll(v):   # an attack it forbids stands
        j = replace(j, verdict="unverified", code=COMBAT_UNVERIFIED, reason=LOG_ENDS_AT_ROLL,
                    message=f"combat roll {v.event.total}: the log ends at the roll, so its result is not in it (a "
                            "game played over several logs applies it in the next)")
    battle = _battle(v, side, j) if side else None
    if battle is not None and deferred:
        battle = battle._replace(results_after=end, claimed=claimed)
    rerolled = _rerolled(v, battle) if battle is not None else None
    if rerolled is not None:
        battle = battle._replace(rerolls=rerolled.step)
    return BattleReading(side, j, after, battle, limits, earlier, rerolled)


def overrunners_apart(v):
    """The position a roll is judged in: a unit dragged this phase into a hex an enemy holds (an overrun's attacker
    dropped onto its defender, Ardennes II 3.3) stands back in the hex its drag came from, from which it attacks;
    else the position as it is."""
    counted, led = v.look.counted_stacks(v.position), v.ledger
    sides: dict[str, set] = {}
    for h, side in counted:
        sides.setdefault(h, set()).add(side)
    position = v.position
    for h, held in sides.items():
        if len(held) < 2:
            continue
        for side in held:
            for c in counted[(h, side)]:
                leg = led.legs.get(c.piece)
                points = leg.points() if leg is not None else ()
                if led.entered.get(c.piece, 0) > led.phase_end_step and len(points) >= 2 and points[-1] == h:
                    position = position.placed(c, Where(hex=points[-2]))
    return position


def _cheapest_side(v, phases, after: tuple, limits: Limits, stacks: HexStacks, position) -> tuple:
    """(attacking side, judgement) of the cheapest reading over each side whose combat phase it may be."""
    side, j = None, None
    for i in phases or (None,):
        s = v.tracker.phases[i].side if i is not None else None
        here = judge_battle(v.game, position, s, v.event, tuple(e for _, e in after), v.step,
                            tuple(n for n, _ in after), _phase_limits(limits, v, i), stacks,
                            later_mover(v, i) if i is not None else None, mover_now(v, i) if i is not None else None)
        if j is None or _CHEAPEST[here.verdict] < _CHEAPEST[j.verdict]:
            side, j = s, here
        if j.verdict == "legal":
            break
    return side, j


def _own_results(v, phases, after: tuple, limits: Limits, stacks: HexStacks, j: Judgement, position) -> tuple:
    """(side, judgement, events, claimed pieces) of a roll whose result may be shown after later rolls: the
    losses and drags of its own battle's units where a reading fits them; else those of the other units
    (the rolls may have been made in another order than the battles' results were shown); else none (a
    result with no effect, the events the later rolls'), whichever is cheaper for the player (the first
    claim where all break)."""
    claimed = _claims(v.game, j)
    own = tuple((n, e) for n, e in after if _piece(e) in claimed)
    side, mine = _cheapest_side(v, phases, own, limits, stacks, position)
    if mine.verdict in ("legal", "unlikely"):
        return side, mine, own, claimed
    rest = tuple((n, e) for n, e in after if _piece(e) not in claimed)
    if rest:
        side1, other = _cheapest_side(v, phases, rest, limits, stacks, position)
        if other.verdict in ("legal", "unlikely") and (taken := _claims(v.game, other)):
            theirs = tuple((n, e) for n, e in after if _piece(e) in taken)
            side1, other = _cheapest_side(v, phases, theirs, limits, stacks, position)
            if other.verdict in ("legal", "unlikely"):
                return side1, other, theirs, taken
    side0, none = _cheapest_side(v, phases, (), limits, stacks, position)
    if _CHEAPEST[none.verdict] < _CHEAPEST[mine.verdict]:
        return side0, none, (), frozenset()
    return side, mine, own, claimed


def results_after(v) -> Optional[tuple]:
    """Where the players rolled on before showing this roll's result (only chat between it and the next
    roll, and something shown after a later one): (the step of the last roll before the results, the events
    after it up to the next roll or phase announcement). Rolling every battle first and applying the
    results after is legal play (the rules ask each battle's roll and result, not their order); each battle
    then takes its own units' losses and drags (`_claims`)."""
    end, out, shown = None, [], False
    for s in v.steps_after():
        for e in s.events:
            if isinstance(e, Chat):
                if v.tracker.match_announcement(e.text) is not None:
                    return (end, tuple(out)) if shown else None
                if end is not None:
                    out.append((s.index, e))
            elif isinstance(e, DieRoll):
                if shown:
                    return end, tuple(out)
                end, out = s.index, []
            elif end is None:
                return None                    # a result shown before the next roll: not deferred
            else:
                out.append((s.index, e))
                shown = True
    return (end, tuple(out)) if shown else None


def _finished_later(v, j: Judgement) -> Optional[tuple]:
    """Where a battle's result is shown in part before the next roll: (that roll's step, the drags and losses
    after it, this phase, of the battle's units, and the drags into its defender hex: an advance) - the rest of
    its result, finished after the next battle was rolled."""
    h, mine = _battle_hex(j), _claims(v.game, j)
    if h is None or not mine:
        return None
    nxt, out = None, []
    for s in v.steps_after():
        for e in s.events:
            if isinstance(e, Chat) and v.tracker.match_announcement(e.text) is not None:
                return (nxt, tuple(out)) if out else None
            if isinstance(e, DieRoll):
                nxt = nxt or s.index
            elif nxt is not None and (_piece(e) in mine or (is_map_move(e) and e.dst.hex == h)):
                out.append((s.index, e))
    return (nxt, tuple(out)) if out else None


def _piece(e) -> Optional[str]:
    c = getattr(e, "counter", None)
    return c.piece if c is not None else None


def _untaken(after: tuple, taken: frozenset) -> tuple:
    """The events after a roll less those of the pieces an earlier roll's battle took (its results shown late)."""
    return tuple((n, e) for n, e in after if _piece(e) not in taken) if taken else after


def _battle_hex(j: Judgement) -> Optional[str]:
    """The defender hex of a battle's cheapest reading, or the only hex the roll may be for."""
    return j.fit.defender_hex if j.fit is not None else (j.hexes[0] if len(j.hexes) == 1 else None)


def _claims(game, j: Judgement) -> frozenset:
    """The pieces a battle's reading takes of the events after a later roll: its defenders, and of its
    attackers those that lost a step, and those that moved into the hex (an advance) or, where the result
    retreats the attackers, away."""
    h = _battle_hex(j)
    if h is None:
        return frozenset()
    moved = dict(j.moves)
    lost = {p for p, _, _ in j.losses}
    back = j.fit is not None and bool(j.fit.cell) and j.fit.fit != "no" and _attackers_retreat(game, j.fit)
    mine = {p for p in (*j.attackers, *j.possible)
            if p in lost or (p in moved and (back or any(x == h for x, _ in moved[p])))}
    return frozenset(j.defenders) | frozenset(mine)


def _attacked_in(ledger: Ledger, i: Optional[int], battle: Battle):
    """The ledger's `attacked_in` with the battle's certain attackers added (phase i, this turn)."""
    out = ledger.attacked_in if ledger.attacked_turn == ledger.turn else {}
    for p in battle.attackers if i is not None else ():
        out = put(out, p, {**out.get(p, {}), i: battle.step})
    return out


def _phase_limits(limits: Limits, v, i: Optional[int]) -> Limits:
    """The limits of combat phase i: the movement classes that may attack in it (`attackers`), and the units
    that attacked in an earlier phase of the turn barring them from it (`not_if_attacked_in`), where the
    phase is certain (the marker or a chat names it: inferred, the roll may be another combat phase's)."""
    tracker = v.tracker
    p = tracker.phases[i] if i is not None else None
    if p is None or not (p.attackers or p.not_if_attacked_in) or not tracker.pinned():
        return limits
    if p.attackers:
        limits = replace(limits, classes=frozenset(p.attackers), classes_rule=p.attackers_rule)
    bar = p.not_if_attacked_in
    if bar is not None and v.ledger.attacked_turn == v.ledger.turn:
        idx = {k for k, q in enumerate(tracker.phases) if q.id in bar.phases and k < i}
        before = frozenset(piece for piece, m in v.ledger.attacked_in.items() if idx & set(m))
        if before:
            limits = replace(limits, before=before, before_rule=bar.rule)
    return limits


def _log_ends_at_roll(v) -> bool:
    """Nothing but chat that names no phase follows the roll: the log ends before its result is applied."""
    for e in later_events(v.facts.record, v.step):
        if not isinstance(e, Chat) or v.tracker.match_announcement(e.text) is not None:
            return False
    return True


def _battle(v, side: str, j: Judgement) -> Battle:
    f = j.fit
    fits = f is not None and f.cell and f.fit != "no"
    moved = dict(j.moves)
    retreating = _attackers_retreat(v.game, f) if fits else False
    mine = set(j.attackers) | set(j.possible)
    phasing = {p for p in moved if (c := v.position.counter(p)) is not None and v.look.side_of(c) == side}
    return Battle(
        v.step.index, v.event, side, j.hexes, j.verdict, j.message, (v.ledger.turn, v.tracker.current()),
        f.defender_hex if f is not None else (j.hexes[0] if len(j.hexes) == 1 else None), j.tie, j.tie_why,
        j.attackers, j.possible, j.defenders, f.table if fits else None, f.col if fits else None,
        f.column if fits else None, (f.roll - v.event.total) if fits and f.roll is not None else None,
        f.roll if fits else None, f.cell if fits else None, j.losses,
        tuple((p, path) for p, path in moved.items() if p not in phasing or (retreating and p in mine)),
        tuple((p, path) for p, path in moved.items() if p in phasing and not (retreating and p in mine)))


def _attackers_retreat(game, f) -> bool:
    """The reading's result retreats the attackers (their moves after it are retreats, not advances)."""
    ct = next((t for t in combat_tables(game) if t.id == f.table), None)
    by_side = side_effects(read_cell(f.cell, ct.table)) if ct is not None else None
    return bool(by_side) and retreat_of(by_side["attacker"]) is not None


def _rerolled(v, battle: Battle):
    """The roll an undo took back that this roll makes again: the latest roll taken back in this combat
    phase, after which no roll stands before this one, whose battle may be this one (a defender hex in
    common), and that no other roll made again already."""
    led = v.ledger
    for d in reversed(v.discarded):
        b = d.battle
        if d.undone_at >= battle.step or b is None or b.phase != battle.phase or b.side != battle.side:
            continue
        if d.step in led.rerolled or _rolled_between(led.rolls, d.undone_at, battle.step):
            return None
        return d if set(b.hexes) & set(battle.hexes) else None
    return None


def _rolled_between(rolls: tuple, after: int, before: int) -> bool:
    """A roll kept after step `after` and before step `before` (the ledger keeps its rolls in step order)."""
    i = bisect.bisect_right(rolls, after, key=lambda r: r.step)
    return i < len(rolls) and rolls[i].step < before


def discarded_result(game, battle: Battle, total: int) -> Optional[str]:
    """What an undone roll of `total` gave in this battle's reading: the cell(s) at the same column and
    modifier."""
    if battle.table is None or battle.col is None or battle.modifier is None:
        return None
    ct = next((t for t in combat_tables(game) if t.id == battle.table), None)
    if ct is None:
        return None
    cells = ct.cells_at(total + battle.modifier, battle.col)
    return " or ".join(dict.fromkeys(c.printed or "not printed" for c in cells))


def outside_losses(v, after: tuple) -> tuple:
    """(step, piece, what) for the units the events after a roll eliminate or reduce, and those of a side the
    phase is not for that it drags on the map (a retreat: in another side's phase, no unit of its moves;
    the phase recorded by the turn marker):
    what a roll outside the combat phases would have settled. A unit's first drag only."""
    out, moved = [], set()
    # a drag counts only where the turn marker records the phase, and the phase comes after its side's combat
    # phase (an exploitation): after a chat the game may have gone on to the other side's combat phase
    # unannounced, where its units advance; before the combat phase, the marker may lag behind it
    phase = v.tracker.phase() if v.tracker.recorded_at is not None and _after_own_combat(v.tracker) else None
    for n, e in after:
        if isinstance(e, Removed) and e.counter.kind == "unit":
            out.append((n, e.counter, "eliminated"))
        elif isinstance(e, StateChanged) and "reduced" in e.counter.state - e.old_state:
            out.append((n, e.counter, "reduced"))
        elif is_map_move(e) and phase is not None and phase.side is not None and e.counter.piece not in moved \
                and (s := v.side_of(e.counter)) is not None and s != phase.side:
            moved.add(e.counter.piece)
            out.append((n, e.counter, f"dragged {e.src.hex} -> {e.dst.hex} (a retreat)"))
    return tuple(out)


def _after_own_combat(tracker) -> bool:
    """A combat phase of the current phase's side comes before it in the turn."""
    i, p = tracker.current(), tracker.phase()
    return i is not None and p is not None and any(q.combat and q.side == p.side for q in tracker.phases[:i])


def keep_battle(ledger: Ledger, tracker, reading: BattleReading) -> Ledger:
    """The ledger with the battle of this combat phase added (a new phase starts a new list)."""
    if reading.battle is None:
        return ledger
    phase = (ledger.turn, tracker.current())
    battles = ledger.battles if ledger.battles_phase == phase else ()
    out = ledger.with_(battles=battles + (reading.battle,), battles_phase=phase,
                       attacked_in=_attacked_in(ledger, tracker.current(), reading.battle), attacked_turn=ledger.turn)
    if reading.battle.rerolls is not None:
        out = out.with_(rerolled=put(ledger.rerolled, reading.battle.rerolls, reading.battle.step))
    return out
