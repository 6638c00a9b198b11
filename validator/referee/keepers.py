"""How the replay reads each event and keeps the ledger: a table of small steps per kind of event.

Each event is read (its phase; a move's drag joins its unit's leg; a reinforcement's entry starts one;
a roll is tied to a battle), judged by the rules that judge it (`replay.run`), then kept: the ledger
records what the event did (the leg condemned where a rule's reading found a certain fault, the hex
entered, the arrival line used, the unit removed, the victory hex taken, the battle fought) and the
position changes. Rules never keep anything; these functions are the only writers of the ledger.
"""
from __future__ import annotations

import re

from typing import Mapping, Optional

from ..records.record import (Chat, DieRoll, Moved, Placed, Removed, StateChanged, Step, TurnChanged, dropped_back,
                              is_map_move)
from .arrivals import consumed, entry_area, held_back
from .battles import keep_battle, read_battle
from .combat import tables_for_roll
from .crt import combat_tables
from . import rules_on, rules_on_event
from .ledger import Entry, Leg, Removal, Roll, drop, put
from .movement import MoveReading, in_state, splits_in_two
from .order import keep_order
from .lookahead import first_leaving, steps_after
from .paths import path_cost
from .scenario import at_setup, control_after, ends_at_once, game_over, is_play
from .stacking import still_open


def read_event(r: "Replay", step: Step, ev) -> None:
    if dropped_back(ev):
        r.note_step(step)
        _change_position(r, ev)                 # it may lie elsewhere in its stack now; nothing moved
        return
    removed = r.ledger.removed
    _READ.get(type(ev), _piece)(r, step, ev)
    if r.ledger.played_after_end is None and is_play(r.look.game, ev) and \
            game_over(r.look.game, r.facts.scenario, r.ledger) and \
            game_over(r.look.game, r.facts.scenario, r.ledger.with_(removed=removed)):
        r.ledger = r.ledger.with_(played_after_end=step.index)   # (not the elimination that ended it: Aachen 14.1)


# -- the turn, the chat, the dice --
def _turn(r: "Replay", step: Step, ev: TurnChanged) -> None:
    """The turn marker moved: the phase ends, the new turn (and phase) begin. Read as the turn it leaves.
    Where it names the turn and phase a chat line already announced, it catches up: nothing ends."""
    if _catches_up(r, ev):
        r.tracker.recorded_at = step.index
        r.note_step(step)
        return
    keep_phase_end(r, step)
    left, was = r.ledger.turn, r.tracker.current()
    turn = ev.turn or r.ledger.turn
    if _goes_round(r, turn):              # VASSAL's turn track wraps to its first turn after its last
        r.ledger = r.ledger.with_(game_over_at=step.index)
        r.partly(step.index, f"the turn marker goes round from turn {left}, the turn track's last, to turn {turn}: "
                             "read as the game's end")
    elif r.ledger.game_over_at is not None and ev.turn == left and r.game.turns and left == r.game.turns[-1].id:
        r.ledger = r.ledger.with_(game_over_at=None)      # the marker taken back to the last turn: play goes on
    if r.ledger.game_over_at is not None:
        turn = left                       # the game is over: the marker moving on starts no turn
    rolled = r.tracker.rolled_here
    r.tracker.reset(ev.phase, step.index, ev.turn)
    now = r.tracker.current()
    if rolled and turn == left and now == was:
        r.tracker.rolled()                # the marker shows the phase it was in: its rolls still stand
    back = turn == left and was is not None and now is not None and now < was and now in r.ledger.phase_legs
    if back:                              # the marker set back within the turn: that phase goes on
        r.partly(step.index, f"the turn marker goes back to the {r.tracker.name(now)} of turn {turn}: read as that "
                             "phase resumed (its moves so far count)")
    r.ledger = r.ledger.with_(turn=turn, legs=dict(r.ledger.phase_legs[now]) if back else {},
                              phase_legs=r.ledger.phase_legs if turn == left else {})
    r.note_step(step)
    if r.ledger.game_over_at == step.index:       # no phase of the next turn began: the game ended after this one
        r.at_step[step.index] = (left, None, GAME_END, None)
    run(r, "event", step, ev, reading=left)


def _goes_round(r: "Replay", turn: Optional[str]) -> bool:
    """The marker goes from the turn track's last turn to an earlier one (a module's track wraps round)."""
    ids = [t.id for t in r.game.turns]
    return r.ledger.game_over_at is None and bool(ids) and r.ledger.turn == ids[-1] and turn in ids \
        and ids.index(turn) < len(ids) - 1


def _catches_up(r: "Replay", ev: TurnChanged) -> bool:
    t, p = r.tracker, r.tracker.phase()
    return p is not None and ev.phase == p.id and (ev.turn or r.ledger.turn) == r.ledger.turn and \
        t.announced_at is not None and t.recorded_at is None


def _chat(r: "Replay", step: Step, ev: Chat) -> None:
    i = r.tracker.match_announcement(ev.text)
    if i is None:
        turn = _turn_alone(r, ev.text)
        if turn is None:
            _unread_announcement(r, step, ev)
            return
        i = 0                             # "Turn 2", "GT 2", "Day 1 PM": the turn begins with its first phase
    else:
        turn = _next_turn_named(r, ev.text, i)
    now, t = r.tracker.current(), r.tracker
    in_use = t.recorded_at is not None and t.recorded_at > 0      # the players move the marker in this log
    if in_use and (i != now or turn is not None) and not (turn is not None and now == len(t.phases) - 1):
        # the marker is the record of the phase; only where it stands at the turn's last phase may the chat
        # begin the next turn ahead of it (it catches up later)
        r.partly(step.index, f"the chat names the {t.name(i)}{f' of turn {turn}' if turn else ''}; the turn "
                             f"marker shows the {t.name(now)}: its phase holds")
        return
    if turn == GAME_END:
        keep_phase_end(r, step)
        r.ledger = r.ledger.with_(game_over_at=step.index)
        t.reset(t.phases[i].id, step.index)
        t.recorded_at = None
        r.partly(step.index, f"the chat names the {t.name(i)} after the last turn's last phase: read as the game's "
                             "end")
        r.at_step[step.index] = (r.ledger.turn, None, GAME_END, None)
        return
    if turn is not None:                  # the chat begins the next turn (3.2: the phases go round in order)
        _turn(r, step, TurnChanged(turn, r.tracker.phases[i].id))
        r.tracker.recorded_at = None      # announced, not recorded: the marker may catch up later
        r.partly(step.index, f"the chat begins turn {turn} ({r.tracker.name(i)}); the turn marker did not move")
        return
    if now is not None and i > now:
        keep_phase_end(r, step)
    if r.tracker.announce(i, step.index):
        r.note_step(step)
    else:
        r.partly(step.index, f"the chat names the {r.tracker.name(i)}, which the events had passed")


def _unread_announcement(r: "Replay", step: Step, ev: Chat) -> None:
    """A chat line that reads as naming a phase the sequence of play has no name for: the phase a chat pinned no
    longer holds for certain (the players may have gone on to it); the turn marker's does."""
    t = r.tracker
    if t.announced_at is None or t.recorded_at is not None or not t.reads_as_announcement(ev.text):
        return
    t.announced_at = None
    r.partly(step.index, f"the chat line {ev.text[:80]!r} reads as naming a phase, but none of the sequence of play "
                         f"by its words: the phase is inferred from here, not the {t.name(t.current())} announced "
                         "before")


GAME_END = "the game's end"               # what a chat begins after the track's last turn; that step's phase label
_TURN_WORDS = re.compile(r"\b(?:game\s+turn|turn|gt)\s*#?\s*(\d+(?:\s*[ap]\.?m\.?)?)", re.IGNORECASE)


def _next_turn_named(r: "Replay", text: str, i: int) -> Optional[str]:
    """The turn a phase-announcing chat line begins, where it begins a later one: the turn it names ("Turn 2",
    "GT 2"), where that is a later turn of the game and the phase no later than the current one; else, where it
    names none of the track's turns, the next turn, if the phase it names comes before the one the players last
    announced (or the marker recorded): the phases go round (past the track's last turn: the game's end)."""
    game, t, now = r.game, r.tracker, r.tracker.current()
    ids = [x.id for x in game.turns]
    here = ids.index(r.ledger.turn) if r.ledger.turn in ids else None
    m = _TURN_WORDS.search(text)
    hit = _label_named(game, text)
    if m and hit is None:
        named = re.sub(r"[\s.]", "", m.group(1)).upper()
        hit = next((k for k, x in enumerate(ids) if re.sub(r"\s", "", x).upper() == named), None)
    if hit is not None:
        # a later turn begins with a phase no later than the current one (turns may pass with nothing in
        # them); a later phase under a later turn's number is this turn's, the number a slip of the keyboard
        later = here is not None and hit > here and (now is None or i <= now)
        return ids[hit] if later else None
    # no turn, or a count that is no turn of the track ("Turn 2" where the turns are "16 AM", "16 PM"): the
    # phases go round
    if now is None or i >= now or t.announced_at is None or here is None:
        return None
    return ids[here + 1] if here + 1 < len(ids) else GAME_END


_ALONE = {"begins", "begin", "beginning", "start", "starts", "starting", "now", "new", "next", "is", "the", "of",
          "game", "on", "to", "and", "here", "we", "go", "ok", "okay", "so", "let", "s", "up", "round", "t"}


def _turn_alone(r: "Replay", text: str) -> Optional[str]:
    """A later turn that a chat line names and nothing else ("Turn 2", "GT 2", "Day 1 PM", "Turn 2 begins": it
    begins, with its first phase); None for a line with other words ("we finish turn 2 tomorrow": a remark)."""
    game, ids = r.game, [x.id for x in r.game.turns]
    here = ids.index(r.ledger.turn) if r.ledger.turn in ids else None
    if here is None or "?" in text:
        return None
    k, rest = _label_named(game, text), text.lower()
    if k is not None:
        for w in game.turns[k].label.lower().split():
            rest = rest.replace(w, " ", 1)
    else:
        m = _TURN_WORDS.search(text)
        if m is None:
            return None
        named = re.sub(r"[\s.]", "", m.group(1)).upper()
        k = next((n for n, x in enumerate(ids) if re.sub(r"\s", "", x).upper() == named), None)
        rest = rest[:m.start()] + " " + rest[m.end():]
    if k is None or k <= here or not set(re.findall(r"[a-z]+", rest)) <= _ALONE:
        return None
    return ids[k]


_LABELS: dict = {}


def _label_named(game, text: str) -> Optional[int]:
    """The turn whose printed label the line names ("Day 2 AM, Red Movement Phase": turn 3), the longest such."""
    hit = _LABELS.get(id(game))
    if hit is None or hit[0] is not game:      # the labels' words, once a game
        labels = tuple((k, tuple(re.findall(r"[a-z0-9]+", t.label.lower()))) for k, t in enumerate(game.turns)
                       if t.label)
        hit = _LABELS[id(game)] = (game, labels, {})
    if not hit[1]:
        return None
    named = hit[2]                             # chat text -> the turn it names
    if text not in named:                      # chat lines come back: each read once
        if len(named) >= 10_000:
            named.clear()
        named[text] = _label_in(hit[1], text)
    return named[text]


def _label_in(labels: tuple, text: str) -> Optional[int]:
    words = re.findall(r"[a-z0-9]+", text.lower())
    best: Optional[tuple[int, int]] = None
    for k, lw in labels:
        if lw and any(tuple(words[i:i + len(lw)]) == lw for i in range(len(words) - len(lw) + 1)) and \
                (best is None or len(lw) > best[0]):
            best = (len(lw), k)
    return best[1] if best else None


def _roll(r: "Replay", step: Step, ev: DieRoll) -> None:
    if _may_be_combat(r.game, ev):
        r.tracker.rolled()                # the drags after it may be a battle's retreats and advances
    r.ledger = r.ledger.with_(rolls=r.ledger.rolls + (roll_entry(r, step, ev),))
    r.note_step(step)
    v = r.view("event", step, ev, "other")
    battle = read_battle(v)
    run(r, "event", step, ev, "other", battle=battle)
    if battle is not None:
        r.ledger = keep_battle(r.ledger, r.tracker, battle)


def _may_be_combat(game, ev: DieRoll) -> bool:
    """Some combat table is rolled with these dice (a roll of others, a barrage's 1d6 where the table takes 2d6,
    settles no battle); where no table says its dice, any roll may."""
    tables = combat_tables(game)
    return not tables or any(t.table.dice is None for t in tables) or any(
        tables_for_roll(game, ev, side) for side in {None, *(s.id for s in game.sides)})


# -- a piece --
def _piece(r: "Replay", step: Step, ev) -> None:
    read_as, reading = _read_piece(r, step, ev)
    r.note_step(step)
    move = _move_reading(r, step, ev, read_as)
    v = run(r, "event", step, ev, read_as, reading, move=move)
    _keep_piece(r, v)


def _read_piece(r: "Replay", step: Step, ev) -> tuple[str, Optional[tuple[int, str]]]:
    """How the event is read, and (for a move) the phase it falls in and as what; the phase that reading
    forces begins (the one before it ends), and a move or an entry in a movement phase joins its leg."""
    if is_map_move(ev):
        why = next((w for read in _NOT_MOVES if (w := read(r, ev)) is not None), None)
        if why is not None:               # a placement, a move the phase's own terms allow: not judged as a move
            r.partly(step.index, f"{r.look.label(ev.counter)} {ev.src.hex} -> {ev.dst.hex}{why}")
            return "other", None
        reading = _phase_of(r, step, r.look.side_of(ev.counter), r.look.class_of(ev.counter), "move")
        if reading is None:
            why = _bugs_out(r, ev)
            if why is not None:                # not a move of a phase: the rules make it run
                r.partly(step.index, f"{r.look.label(ev.counter)} {ev.src.hex} -> {ev.dst.hex}{why}")
                return "other", None
            kind, refused = _before_combat(r, ev)
            if kind:
                return "before-combat", (r.tracker.current(), kind)
            return "unread", ((r.tracker.current(), *refused) if refused else None)
        if reading[1] == "move":
            _extend_leg(r, ev, reading[0], step)
            r.ledger = keep_order(r.view("event", step, ev, "move", reading))
            return "move", reading
        return "after-combat", reading
    if _entering(ev) is not None and ev.counter.kind == "unit":
        reading = _entry_phase(r, step, ev)
        if reading is not None:
            _start_entry_leg(r, step, ev, reading[0])
            r.ledger = keep_order(r.view("event", step, ev, "entry", reading))   # it moved in that phase (15.0)
        elif r.tracker.knows_arrivals():     # outside its arrival phase (HF1406): its way in is costed alike
            _start_entry_leg(r, step, ev, r.tracker.current())
        return "entry", reading
    return "other", None


def _set_up_within(r: "Replay", ev: Moved) -> Optional[str]:
    """A drag of a unit the log began with in a set-up pile (the start position's stack over the limit: a
    module piles a set-up area's units on one of its hexes, Aachen 14.0), from one hex of its set-up location
    to another, before it moved and before the log's first chat or marker names a phase, in a log that begins
    at the set-up: the players still setting up (placing it, or placing it again). How it is read, else None
    (a unit alone on its hex is set up: its drags move)."""
    mt, t = r.facts.start_match, r.tracker
    if mt is None or r.facts.previous is not None or t.announced_at not in (None, 0) or \
            ev.counter.piece in r.ledger.legs or r.facts.start_over.get(ev.counter.piece) is None:
        return None
    slot = next((s for c, _, s in mt.pairs if c.piece == ev.counter.piece), None)
    if slot is None or slot.exact or not slot.hexes or ev.src.hex not in slot.hexes or ev.dst.hex not in slot.hexes \
            or not at_setup(r.game, mt.scenario, r.record):
        return None
    return f", within its set-up location {slot.location} before the log names a phase: read as its set-up placement"


def _special_move(r: "Replay", ev: Moved) -> Optional[str]:
    """How the drag is read where the current phase's special move lets this unit move in it this turn, else
    None (Bulge 41.4, 43.4: Panzer Brigade 150 and KG Peiper advance after the German 16 AM and 16 PM Combat
    Phases)."""
    p = r.tracker.phase()
    for sm in p.special_moves if p is not None else ():
        if ev.counter.unit in sm.units and (not sm.turns or r.ledger.turn in sm.turns):
            judged = " and ".join(w for w, on in (("its roll", sm.roll), ("its length", sm.hexes)) if on)
            rest = f"{judged} judged, its other terms not" if judged else "its terms are not judged"
            return f" in the {r.tracker.name(r.tracker.current())} is read as its special move ({sm.rule}); {rest}"
    return None


def _placed_again(r: "Replay", ev: Moved) -> Optional[str]:
    """A unit that came onto the map in this phase, one in which no unit moves (a placement phase), dragged
    again: the player still placing it (a reinforcement, Ardennes II 2.2, or a unit the log began with off
    the map, set up from its box: Bulge 48.3; its stack dropped, then spread). How it is read, else None."""
    p, led, piece = r.tracker.phase(), r.ledger, ev.counter.piece
    if p is None or p.moves is not None or p.combat or led.entered.get(piece, -1) <= led.phase_end_step:
        return None
    w = r.record.start.where(piece)
    if piece in led.arrived_by or w is None or w.hex is None:
        what = "a reinforcement" if piece in led.arrived_by else "a unit the log began with off the map"
        return f": {what} placed on the map in this phase, in which no unit moves, dragged again: read as its " \
               "placement"
    return None


_NOT_MOVES = (_special_move, _placed_again, _set_up_within)   # drags read as no move of a movement phase (a special
#                                                              move first: its later drags are not a placement's)


def _bugs_out(r: "Replay", ev: Moved) -> Optional[str]:
    """A drag no phase lets the unit make, read as its bug out where the rules make such units run from an enemy
    next to them (`retreat_before_combat.bug_out`, Ardennes II 3.6): one of its types, not in a state barring it,
    an enemy of at least `min_attack` next to the hex it left. Its way and length are not judged."""
    rbc = r.game.rules.combat.retreat_before_combat
    bo = rbc.bug_out if rbc is not None else None
    u = r.game.unit(ev.counter.unit)
    if bo is None or u is None or u.type not in bo.types or ev.src.hex is None:
        return None
    if bo.not_in and in_state(r.look, r.position, ev.counter, bo.not_in, r.ledger.legs.get(ev.counter.piece),
                              r.ledger.entered):
        return None
    tables = combat_tables(r.game)               # the attack strength is the factor the combat table reads
    factor = tables[0].table.strengths.attack if tables and tables[0].table.strengths else None
    if factor is None:
        return None
    held = r.look.enemies(r.position, r.look.side_of(ev.counter))
    for h in r.look.grid.neighbours(ev.src.hex):
        for c in held.get(h, ()):
            e = r.game.unit(c.unit)
            attack = e.factors.get(factor) if e is not None and e.factors is not None else None
            if attack is not None and attack >= bo.min_attack:
                return (f": read as its bug out from {r.look.label(c)} in {h} ({bo.rule}: artillery must run from an "
                        f"enemy of attack {bo.min_attack} or more next to it); its way and length are not judged")
    return None


def _before_combat(r: "Replay", ev: Moved) -> tuple[Optional[str], Optional[tuple]]:
    """The drag may be a retreat before combat (the defender's choice instead of a roll, where the rules
    give it: `rules.combat.retreat_before_combat`), or the attacker's advance into the hex it left: in a
    combat phase (or a movement phase, where overruns give the same choice), a unit of the other side
    than the phase's dragged from next to its enemy or from a hex it shares with one (an overrun's attacker
    dragged into the defender's hex) (or on from such a retreat), or one of the phase's
    side dragged from a hex such a retreat left this phase, or next to one: "retreat" or "advance" (None:
    neither); and, where the rules refuse the unit a retreat before combat (it must Hold, `_holds`; in a
    movement phase no enemy may be overrunning it, `_may_overrun`), why and the rule that refuses it.
    The retreat is kept."""
    rbc = r.game.rules.combat.retreat_before_combat
    p = r.tracker.phase()
    if rbc is None or p is None or p.side is None or not (p.combat or (rbc.overrun and p.moves)):
        return None, None
    piece, src, side = ev.counter.piece, ev.src.hex, r.look.side_of(ev.counter)
    withdrawn = r.ledger.withdrawn
    if side is not None and side != p.side:
        held = r.look.enemies(r.position, side)
        if piece not in withdrawn and src not in held and not any(n in held for n in r.look.grid.neighbours(src)):
            return None, None                  # (an overrun's attacker may stand in the defender's hex)
        refused = _refused(r, rbc, p, ev.counter, src, held) if piece not in withdrawn else None
        if refused:
            return None, refused
        r.ledger = r.ledger.with_(withdrawn=put(withdrawn, piece, withdrawn.get(piece, src)))
        return "retreat", None
    left = set(withdrawn.values())
    near = src in left or any(n in left for n in r.look.grid.neighbours(src))
    return ("advance" if p.combat and side == p.side and near else None), None


def _refused(r: "Replay", rbc, p, c, src: str, held) -> Optional[tuple[str, Optional[str]]]:
    """Why a drag from next to the enemy is no retreat before combat, where the rules refuse it one, and the
    rule that refuses it."""
    if _holds(r, rbc, c, src):
        return (f"not a retreat before combat: a {'/'.join(rbc.hold_if).upper()} defender must Hold ({rbc.hold_rule})",
                rbc.hold_rule)
    if p.moves and rbc.overrun_from_apart is not None and not _may_overrun(r, rbc, src, held):
        dg = f" and not {'/'.join(rbc.overrun_not_in).upper()} ({rbc.overrun_not_in_rule})" if rbc.overrun_not_in else ""
        return (f"not a retreat before an overrun: no enemy next to it moved up this phase from a hex not next to it "
                f"({rbc.overrun_from_apart}){dg}", rbc.overrun_from_apart)
    return None


def _holds(r: "Replay", rbc, c, src: str) -> bool:
    """The unit must Hold: it is in a state `hold_if` names, on its piece or by a marker marking its whole stack
    that came to its hex no earlier than it (Ardennes II 3.2: "A Hold becomes mandatory ... if the Defender is:
    DG"; 3.4: DG units "do not give it to other units they later stack with")."""
    return bool(rbc.hold_if) and in_state(r.look, r.position, c, rbc.hold_if, r.ledger.legs.get(c.piece),
                                          r.ledger.entered)


def _may_overrun(r: "Replay", rbc, src: str, held) -> bool:
    """In a movement phase, an enemy in or next to `src` may be overrunning it, where an overrun's attacker may
    not begin the phase next to an enemy (`overrun_from_apart`, Ardennes II 3.3: "Not start the Phase in a hex
    adjacent to an enemy unit"): one that moved this phase from a hex not next to `src` (one that did not move
    stands where it began, next to this unit)."""
    near = (src, *r.look.grid.neighbours(src))
    for h in near:
        for c in held.get(h, ()):
            leg = r.ledger.legs.get(c.piece)
            if leg is None or (leg.start is not None and leg.start in near):
                continue
            if rbc.overrun_not_in and in_state(r.look, r.position, c, rbc.overrun_not_in, leg, r.ledger.entered):
                continue                       # a unit in a state that may not overrun (Ardennes II 3.3: DG)
            return True
    return False


def _phase_of(r: "Replay", step: Step, side, cls, as_what: str) -> Optional[tuple[int, str]]:
    t = r.tracker
    reading = t.reading(side, cls)
    if reading is None and _next_turn_for(r, step, side, lambda p: p.moves_class(cls)):
        reading = t.reading(side, cls)
    if not t.knows_moves():
        # no phase says who moves: judge the path, not the phase
        reading = (t.current(), "move")
        r.partly(step.index, "the sequence of play does not say in which phases units move; "
                             "the phase of this move is not judged")
    elif reading and reading[0] != t.current():
        keep_phase_end(r, step)
    if reading and reading[0] is not None:
        t.enter(reading[0], step.index)
    return reading


def _entry_phase(r: "Replay", step: Step, ev) -> Optional[tuple[int, str]]:
    """The phase a reinforcement's entry falls in, where the sequence of play says in which phases
    reinforcements arrive (`arrivals`): the earliest such phase of its side from here (the one before
    ends). None where the sequence does not say, or no such phase is left this turn (HF1406 judges it)."""
    t = r.tracker
    if not t.knows_arrivals():
        return None
    side, cls = r.look.side_of(ev.counter), r.look.class_of(ev.counter)
    i = t.arrival_phase(side, cls)
    if i is None and _next_turn_for(r, step, side, lambda p: bool(p.arrivals) and p.moves_class(cls)):
        i = t.arrival_phase(side, cls)
    if i is None:
        return None
    if i != t.current():
        keep_phase_end(r, step)
    t.enter(i, step.index)
    return i, "entry"


def _next_turn_for(r: "Replay", step: Step, side, fits) -> bool:
    """Where the chat told the turn's last phase (the players tell the phases there, not by the turn marker), or
    nothing tells a phase or a turn (no chat, no marker moved, a record with no start turn), and a unit of the
    side that plays first does what the next turn's first player turn lets it (`fits` a phase of that side),
    though no phase left this turn does: the next turn has begun untold (the sequence of play goes round). The
    next turn begins; False where that reading is not open (a turn marker showing the turn throughout is the
    players' record that it did not change)."""
    t, ids = r.tracker, [x.id for x in r.game.turns]
    moved = r.facts.first_turn_change
    told_last = t.current() == len(t.phases) - 1 and t.announced_at is not None and t.recorded_at is None
    untold = not t.pinned() and (moved is None or moved > step.index) and r.record.start_turn is None
    if not (told_last or untold) or r.ledger.turn not in ids or game_over(r.game, r.facts.scenario, r.ledger):
        return False
    here = ids.index(r.ledger.turn)
    first = t.phases[0].side
    j = next((k for k, p in enumerate(t.phases) if p.side in (None, side) and fits(p)), None)
    if here + 1 >= len(ids) or j is None or any(p.side not in (None, first) for p in t.phases[:j + 1]):
        return False
    left = r.ledger.turn
    _turn(r, step, TurnChanged(ids[here + 1], None))
    r.partly(step.index, f"nothing of turn {left} is left for it after its last phase: read as turn "
                         f"{ids[here + 1]} begun untold (the sequence of play goes round)")
    return True


def _entering(ev) -> Optional[str]:
    """The hex an event brings a piece onto the map at, from off it."""
    if isinstance(ev, Moved) and ev.src.hex is None and ev.dst.hex is not None:
        return ev.dst.hex
    if isinstance(ev, Placed) and ev.where.hex is not None:
        return ev.where.hex
    return None


def _extend_leg(r: "Replay", ev: Moved, phase: Optional[int], step: Step) -> None:
    """The unit's movement this phase gains a drag (a new leg if it had not moved in this phase)."""
    legs = r.ledger.legs
    leg = legs.get(ev.counter.piece)
    if leg is None or leg.phase != phase:
        start = _set_up_start(r, ev, step) or ev.src.hex
        leg = Leg(start, (ev.dst.hex,), phase, (step.index,), since=r.ledger.entered.get(ev.counter.piece, 0))
    else:
        leg = leg._replace(ends=leg.ends + (ev.dst.hex,), steps=leg.steps + (step.index,))
    r.ledger = r.ledger.with_(legs=put(legs, ev.counter.piece, leg))


def _set_up_start(r: "Replay", ev: Moved, step: Step) -> Optional[str]:
    """Where a unit the set-up places along a range of hexes, and the module piled on one of them, stood before its
    first drag of the log: the hex of that range from which the drag is cheapest (one drag may be its placement
    and its move: Aachen 14.0, the 3rd Armored "along map edge hexes ... 1934 to 2431"). None where the unit's
    start is its own."""
    mt, piece = r.facts.start_match, ev.counter.piece
    if mt is None or r.facts.previous is not None or r.facts.start_over.get(piece) is None or \
            r.ledger.entered.get(piece, 0) != 0 or any(piece in legs for legs in r.ledger.phase_legs.values()):
        return None
    slot = next((s for c, _, s in mt.pairs if c.piece == piece), None)
    if slot is None or slot.exact or not slot.hexes or len(slot.hexes) > MAX_SET_UP_HEXES or \
            ev.src.hex not in slot.hexes or not at_setup(r.game, mt.scenario, r.record):
        return None
    costs, ma = r.look.class_costs(ev.counter), r.look.allowance(ev.counter)
    cost = lambda h: _cost_or_inf(path_cost(r.look, r.facts.in_play, h, ev.dst.hex, costs))   # noqa: E731
    if ma is None or cost(ev.src.hex) <= ma:
        return None                       # within its allowance from where the module put it
    best = min(sorted(slot.hexes), key=cost)
    if best == ev.src.hex:
        return None
    r.partly(step.index, f"{r.look.label(ev.counter)} is read as set up at {best}, of its set-up location "
                         f"{slot.location} (the module put it at {ev.src.hex}), its move costed from there")
    return best


MAX_SET_UP_HEXES = 200                    # a set-up range searched for a unit's cheapest start (bounds the work)


def _cost_or_inf(seg) -> float:
    return float(seg[0]) if seg is not None and seg[0] is not None else float("inf")


def _start_entry_leg(r: "Replay", step: Step, ev, phase: int) -> None:
    """A reinforcement's leg: entered at a hex of its entry area (which one is read with its cost)."""
    h = _entering(ev)
    hexes = entry_area(r.view("event", step, ev, "entry"), ev.counter, h)
    box = ev.src.box if isinstance(ev, Moved) else None
    leg = Leg(None, (h,), phase, (step.index,), Entry(hexes, box, step.index))
    r.ledger = r.ledger.with_(legs=put(r.ledger.legs, ev.counter.piece, leg))


def _move_reading(r: "Replay", step: Step, ev, read_as: str) -> Optional[MoveReading]:
    leg = r.ledger.legs.get(ev.counter.piece) if read_as in ("move", "entry") else None
    if leg is None or (leg.start is None and leg.entry is not None and leg.entry.hexes is None):
        return None
    side, cls = r.look.side_of(ev.counter), r.look.class_of(ev.counter)
    return MoveReading(r.look, r.facts.in_play, r.position, ev.counter, leg, r.facts.zoc_reading[0],
                       splits_in_two(r.tracker, leg, side, cls), _leaves(r, step), _overruns(r, step),
                       r.ledger.entered)


def _overruns(r: "Replay", step: Step):
    """Where the phase's moves may be overruns (`retreat_before_combat.overrun`, a phase with moves and
    combat): (the rule, a look-up of the step at which one of some pieces leaves a hex before the phase
    ends); else None."""
    rbc, p = r.game.rules.combat.retreat_before_combat, r.tracker.phase()
    if rbc is None or rbc.overrun is None or p is None or not (p.moves and p.combat):
        return None
    ends = r.tracker.ends_phase               # a chat naming the phase again does not end it
    return rbc.overrun, lambda dst, pieces: first_leaving(steps_after(r.record, step), dst, pieces, ends)


def _leaves(r: "Replay", step: Step):
    """Where a piece leaves a hex after this step (`in_phase`: before the phase ends)."""
    tracker = r.tracker
    return lambda dst, pieces, in_phase=False: first_leaving(steps_after(r.record, step), dst, pieces,
                                                             tracker.ends_phase if in_phase else None)


def _keep_piece(r: "Replay", v) -> None:
    """What a piece event did, kept; then the position changes."""
    ev, step, led = v.event, v.step, r.ledger
    piece = ev.counter.piece
    kept: dict = {}                              # the ledger's changes, made at once
    if v.move is not None and v.move.condemns():
        kept["legs"] = put(led.legs, piece, led.legs[piece]._replace(faulted=step.index))
    h = _entering(ev)
    if isinstance(ev, (Moved, Placed)):
        kept["entered"] = put(led.entered, piece, step.index)
        after_combat = v.read_as in ("after-combat", "before-combat")
        if after_combat or piece in led.retreated:
            kept["retreated"] = put(led.retreated, piece, step.index) if after_combat else drop(led.retreated, piece)
        if h is not None and ev.counter.kind == "unit":
            kept["arrivals_used"], kept["arrived_by"] = consumed(v, ev.counter, h)
        elif (back := held_back(v)) is not None:
            kept["arrivals_used"], kept["arrived_by"] = back
            kept["legs"] = drop(led.legs, piece)
        to = ev.dst.hex if isinstance(ev, Moved) else ev.where.hex
        if to is not None and not game_over(r.game, r.facts.scenario, led):   # after the end nothing takes a hex
            kept["control"], kept["control_open"] = control_after(v, ev.counter, to)
    elif isinstance(ev, Removed):
        kept["removed"] = put(led.removed, piece, Removal(step.index, ev.counter, ev.where))
        kept["legs"] = drop(kept.get("legs", led.legs), piece)
        if led.shortened_at is None and ends_at_once(r.game, r.facts.scenario, led.with_(removed=kept["removed"])):
            kept["shortened_at"] = step.index
    if kept:
        r.ledger = led.with_(**kept)
    _change_position(r, ev)


def _change_position(r: "Replay", ev) -> None:
    before = r.position
    if isinstance(ev, Moved):
        r.position = before.placed(ev.counter, ev.dst)
    elif isinstance(ev, Placed):
        r.position = before.placed(ev.counter, ev.where)
    elif isinstance(ev, Removed):
        r.position = before.removed(ev.counter.piece)
    elif isinstance(ev, StateChanged):
        in_place = before.where(ev.counter.piece) is not None
        r.position = before.changed(ev.counter) if in_place else before.placed(ev.counter, ev.where)
        r.look.carry(before, r.position, ev.counter.piece, in_place)
        return
    r.look.carry(before, r.position, ev.counter.piece, False)


# -- a phase's end --
def keep_phase_end(r: "Replay", step: Optional[Step]) -> None:
    """The current phase is over (a later phase or turn begins; `step` None: the log ends): judge its
    end, keep the stacks still wrong, start new legs and battles."""
    if step is None:
        return
    v = run(r, "phase-end", step)
    stacks, mixes = still_open(v)
    done = r.tracker.current()
    kept = put(r.ledger.phase_legs, done, r.ledger.legs) if done is not None and r.ledger.legs else r.ledger.phase_legs
    r.ledger = r.ledger.with_(legs={}, open_stacks=stacks, open_mixes=mixes, phase_end_step=step.index,
                              phase_legs=kept, withdrawn={}, retreated=_still_retreated(r))
    if r.ledger.shortened_at is not None and r.ledger.game_over_at is None:
        r.ledger = r.ledger.with_(game_over_at=step.index)      # no further phases are conducted


def _still_retreated(r: "Replay") -> Mapping[str, int]:
    """The units a retreat or an advance brought to their hexes, less those of the side whose movement
    phase just ended (their first opportunity to part, as a mixing rule's `by_retreat` reads it)."""
    p, led = r.tracker.phase(), r.ledger
    if not led.retreated or p is None or not p.moves or p.side is None:
        return led.retreated
    gone = [piece for piece in led.retreated
            if (c := r.position.counter(piece)) is None or r.look.side_of(c) == p.side]
    return {k: s for k, s in led.retreated.items() if k not in gone} if gone else led.retreated


_READ = {TurnChanged: _turn, Chat: _chat, DieRoll: _roll}


# -- running a moment's rules --
def run(r: "Replay", kind: str, step: Optional[Step] = None, event=None, read_as: Optional[str] = None,
        reading=None, **readings) -> "View":
    """Show the rules of a moment its view, and record what they say; the view is returned."""
    v = r.view(kind, step, event, read_as, reading)
    for k, x in readings.items():
        setattr(v, k, x)
    rules = rules_on_event(type(event), read_as) if kind == "event" else rules_on(kind)
    r.judge(v, rules)
    return v


def roll_entry(r: "Replay", step: Step, ev: DieRoll) -> Roll:
    return Roll(step.index, ev, r.tracker.label())
