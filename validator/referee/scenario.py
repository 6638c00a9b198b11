"""The scenario as a whole: its length, and who is ahead when the log ends.

Where a scenario gives its victory terms as data (`victory.control`: who holds the victory hexes at
the start and how control changes; `victory.wins`: who wins with how many points), the ledger keeps
who controls each victory hex (`control`, kept by `control_after` as units enter hexes) and the
standing at the end of the log is computed (`standing`): the points each side holds, and the winner
where the log reaches the end of the scenario's last turn.
"""
from __future__ import annotations

from typing import Mapping, NamedTuple, Optional

from ..records.record import DieRoll, Moved, Placed, Removed, StateChanged
from ..positions.stacking import side_of
from . import Finding, Verdict, found, rule
from .ledger import put
from .paths import path_cost, total


class VictoryHex(NamedTuple):
    value: int
    scores_for: Optional[str]                  # the side that scores it (places.yaml victory[].side)
    start: Optional[str]                       # the side controlling it at the start


def victory_values(game, scenario) -> dict[str, VictoryHex]:
    """The scenario's victory hexes with their values, where its victory terms are data."""
    terms = scenario.victory_terms if scenario else None
    if terms is None:
        return {}
    listed = set((scenario.victory or {}).get("hexes") or ())
    out = {}
    for vh in game.places.victory:
        hexes = (vh.hex,) if vh.hex else tuple(next((p.hexes for p in game.places.places if p.id == vh.place), ()))
        for h in hexes:
            if (not listed or h in listed) and vh.value is not None:
                out[h] = VictoryHex(vh.value, vh.side, terms.control_start)
    return out


def start_control(game, scenario, record, previous=None) -> dict:
    """Who controls each victory hex when the log begins: the scenario's side at its start; for a log that
    begins later on its own, the side whose units stand on the hex, else the scenario's side (control
    before the log began is then assumed from occupation: the standing says so). A chained log's is the
    replay's of the logs before it (replay.control_at_end)."""
    hexes = victory_values(game, scenario)
    if not hexes:
        return {}
    out = {h: vh.start for h, vh in hexes.items()}
    if not begins_later(game, scenario, record, previous):
        return out
    for c, w in record.start.units():
        if w.hex in out:
            side = side_of(game, c)
            if side is not None:
                out[w.hex] = side
    return out


def begins_later(game, scenario, record, previous=None) -> bool:
    return previous is not None or not at_setup(game, scenario, record)


def at_setup(game, scenario, record) -> bool:
    """The record begins at the scenario's set-up: in its first turn (or no turn recorded), before any phase
    in which a unit could have moved (a later phase of the first turn follows play: 12.1, the set-up is
    where the units stood before it)."""
    first = scenario.first_turn or (game.turns[0].id if game.turns else None)
    if record.start_turn is None or first is None:
        return True
    if record.start_turn != first:
        return False
    start = game.phase(record.start_phase)
    for p in game.phases if start is not None else ():
        if p is start:
            break
        if p.moves or p.combat:
            return False
    return True


def control_after(v, c, h: str) -> tuple[Mapping, Mapping]:
    """The ledger's victory-hex control once this unit has entered h, and every victory hex its drag must
    have passed through on the way (10.1: a hex changes control when a unit enters it); and the hexes a legal
    way of the drag may have passed through, not every one (`Ledger.control_open`: hex -> ((side, step, unit), ...),
    the readings under which that side took it): the log does not show which way a drag went."""
    terms = v.scenario.victory_terms if v.scenario else None
    led = v.ledger
    if terms is None or terms.control_changes != "entered" or c.kind != "unit":
        return led.control, led.control_open
    side = v.side_of(c)
    if side is None:
        return led.control, led.control_open
    control, open_, vhs = led.control, led.control_open, v.facts.victory_hexes
    way = _drag_way(v)
    surely = surely_passed(v, side, way) + (h,)
    for x in surely:
        if x in vhs:
            if control.get(x, vhs[x].start) != side:
                control = put(control, x, side)
            if x in open_:
                open_ = {k: w for k, w in open_.items() if k != x}
    for x in maybe_passed(v, side, surely, way):
        if control.get(x, vhs[x].start) != side:
            open_ = put(open_, x, open_.get(x, ()) + ((side, v.step.index, v.label(c)),))
    return control, open_


def surely_passed(v, side: str, way: Optional[tuple]) -> tuple[str, ...]:
    """The victory hexes of another side's (or no one's) that every legal way of the drag just made goes
    through: no way avoiding one is within what the unit had left (a later phase's whole allowance, where
    the drag may have been one). Only for a drag with a legal reading (`way`: `_drag_way`), and not a
    reinforcement's first."""
    if way is None:
        return ()
    mv, a, b, budget, reach, enemy, stops = way
    out = []
    for x in _within_reach(v, side, a, b, reach, enemy):
        around = path_cost(v.look, v.facts.in_play, a, b, mv.costs, enemy | {x}, stops, extra=mv.zoc_extra())
        if around is None or around[0] > budget:
            out.append(x)
    return tuple(sorted(out))


def maybe_passed(v, side: str, surely: tuple, way: Optional[tuple]) -> tuple[str, ...]:
    """The victory hexes of another side's (or no one's) that some legal way of the drag just made may go
    through, not every one: a way a -> x -> b within what the unit had left, x no hex it must stop in. For a
    drag no move reading costs (a retreat, an advance), a hex on a shortest way between its ends."""
    if way is None:
        return _on_a_shortest_way(v, side, surely)
    mv, a, b, budget, reach, enemy, stops = way
    out = []
    for x in _within_reach(v, side, a, b, reach, enemy):
        if x in surely or x in stops:
            continue
        there = path_cost(v.look, v.facts.in_play, a, x, mv.costs, enemy, stops, extra=mv.zoc_extra())
        on = path_cost(v.look, v.facts.in_play, x, b, mv.costs, enemy, stops, extra=mv.zoc_extra()) \
            if there is not None else None
        if on is not None and there[0] + on[0] <= budget:
            out.append(x)
    return tuple(sorted(out))


def _drag_way(v) -> Optional[tuple]:
    """(move, its last drag's ends a and b, the MP it had for it, the hexes that reaches, enemy hexes, ZOC
    stops) for a drag with a legal move reading; else None."""
    mv = v.move
    if mv is None or not mv.judgeable or mv.fault() is not None or mv.leg.start is None or mv.cost.total is None:
        return None
    points, segs = mv.leg.points(), mv.cost.segs
    a, b = points[-2], points[-1]
    budget = mv.ma - total(segs[:-1])
    if len(segs) > 1 and mv.splittable(segs, mv.ma, len(segs) - 2):
        budget = mv.ma                         # the drag may be a later phase's whole move
    reach = int(budget / mv.costs.cheapest) if mv.costs.cheapest else 0
    stops = mv.zoc() if mv.zoc_cost is None and mv.zoc_certain else frozenset()
    return mv, a, b, budget, reach, mv.enemy(), stops


def _within_reach(v, side: str, a: str, b: str, reach: int, enemy) -> list[str]:
    """The victory hexes not yet the side's, no enemy's and not the drag's ends, that a way a -> x -> b of at
    most `reach` hexes could enter."""
    grid, out = v.grid, []
    for x, vh in v.facts.victory_hexes.items():
        if x in (a, b) or x in enemy or v.ledger.control.get(x, vh.start) == side:
            continue
        da, db = grid.distance(a, x), grid.distance(x, b)
        if da is not None and db is not None and da + db <= reach:
            out.append(x)
    return out


def _on_a_shortest_way(v, side: str, surely: tuple) -> tuple[str, ...]:
    ev = v.event
    if not isinstance(ev, Moved) or ev.src.hex is None or ev.dst.hex is None:
        return ()
    a, b, grid = ev.src.hex, ev.dst.hex, v.grid
    d = grid.distance(a, b)
    if d is None or d < 2:
        return ()
    enemy = v.look.enemies(v.position, side)
    return tuple(sorted(x for x in _within_reach(v, side, a, b, d, enemy) if x not in surely
                        and grid.distance(a, x) + grid.distance(x, b) == d))


class Standing(NamedTuple):
    """Who is ahead when the log ends: points per side, whether the log reaches the scenario's end,
    the winner then (None: not decided by the log), and what the scenario's terms say; `uncertain`: the
    victory hexes a drag may have passed through (hex -> the sides that may hold it instead), `low` and
    `high`: each side's points under the readings least and most in its favour."""
    points: dict
    hexes: dict                                # victory hex -> the side controlling it
    decided: bool
    winner: Optional[str]
    text: str
    rule: Optional[str]
    uncertain: dict = {}
    low: dict = {}
    high: dict = {}

    def as_json(self) -> dict:
        return {"points": self.points, "hexes": self.hexes, "decided": self.decided, "winner": self.winner,
                "text": self.text, "rule": self.rule, "uncertain": self.uncertain,
                "points_range": {s: [self.low[s], self.high[s]] for s in self.points}}


def _turn_index(game, turn: Optional[str]) -> Optional[int]:
    t = game.turn(turn) if turn else None
    return t.index if t else None


def past_last_turn(game, scenario, turn: Optional[str], ledger=None) -> bool:
    """A turn after the scenario's last (shortened by the units the ledger has seen eliminated, where the
    scenario is shortened by its losses) has begun."""
    last = _turn_index(game, scenario.last_turn) if scenario and scenario.last_turn else None
    now = _turn_index(game, turn)
    if last is not None and ledger is not None:
        last -= shortened_by(scenario, ledger)
    return last is not None and now is not None and now > last


def shortened_by(scenario, ledger) -> int:
    """The turns the scenario has lost to its side's eliminated units (`last_turn_reduction`, Aachen 14.1)."""
    cut = scenario.last_turn_reduction if scenario is not None else None
    if cut is None:
        return 0
    return cut.turns * sum(1 for x in ledger.removed.values() if x.counter.kind == "unit" and x.counter.side == cut.side)


def ends_at_once(game, scenario, ledger) -> bool:
    """The elimination just kept makes the current turn the last, or one before it, where the scenario ends
    at once then (Aachen 14.1: "the game ends immediately and no further phases are conducted")."""
    cut = scenario.last_turn_reduction if scenario is not None else None
    last = _turn_index(game, scenario.last_turn) if scenario is not None and scenario.last_turn else None
    now = _turn_index(game, ledger.turn)
    return bool(cut and cut.at_once) and last is not None and now is not None and \
        last - shortened_by(scenario, ledger) <= now


def game_over(game, scenario, ledger) -> bool:
    """The game has ended: a turn after the scenario's last began, or the turn track went round from its last
    turn, or a phase after one in which the scenario ended at once (`Ledger.game_over_at`)."""
    return ledger.game_over_at is not None or past_last_turn(game, scenario, ledger.turn, ledger)


def standing(v) -> Optional[Standing]:
    """The victory standing when the log ends, where the scenario's terms are data."""
    sc = v.scenario
    terms = sc.victory_terms if sc else None
    if terms is None or not v.facts.victory_hexes:
        return None
    vhs = v.facts.victory_hexes
    control = {h: v.ledger.control.get(h, vh.start) for h, vh in vhs.items()}
    uncertain = {h: sides for h, w in v.ledger.control_open.items() if h in control
                 and (sides := list(dict.fromkeys(x[0] for x in w if x[0] != control[h])))}
    points = _points(v, control)
    low, high = dict(points), dict(points)
    for h, sides in uncertain.items():
        if _scores(vhs[h], control[h]):
            low[control[h]] -= vhs[h].value
        for side in sides:
            if _scores(vhs[h], side):
                high[side] = high.get(side, 0) + vhs[h].value
    reaches_end, scorer = _log_reaches_end(v), terms.winner
    others = [s.id for s in v.game.sides if s.id != scorer]
    winner, settled = None, ""
    if scorer is not None and terms.points is not None:
        if low.get(scorer, 0) >= terms.points and (reaches_end or not _may_still_act(v, others)):
            winner = scorer
        elif high.get(scorer, 0) < terms.points and (reaches_end or not _may_still_act(v, [scorer])):
            winner = others[0] if len(others) == 1 else None
        if winner is not None and not reaches_end:
            loser = " or ".join(v.side_name(x) for x in ([scorer] if winner != scorer else others))
            settled = (f"; the log ends in the last turn's {v.tracker.name(v.tracker.current())}, and no phase left "
                       f"lets {loser} move or fight")
    decided = (reaches_end or bool(settled)) and (winner is not None or not uncertain)
    text = _standing_text(v, terms, points, decided, winner) + settled + _uncertain_text(v, uncertain, low, high)
    prev = v.facts.previous
    if begins_later(v.game, sc, prev.record if prev is not None and prev.record is not None else v.record):
        text += " (control of the victory hexes before the log began is taken from who stood on them)"
    return Standing(points, control, decided, winner, text, terms.rule, uncertain, low, high)


def _scores(vh, side: Optional[str]) -> bool:
    return side is not None and (vh.scores_for is None or vh.scores_for == side)


def _points(v, control: dict) -> dict:
    points = {s.id: 0 for s in v.game.sides}
    for h, vh in v.facts.victory_hexes.items():
        if _scores(vh, control[h]):
            points[control[h]] = points.get(control[h], 0) + vh.value
    return points


def _uncertain_text(v, uncertain: dict, low: dict, high: dict) -> str:
    """What the log does not show: which way a drag went past a victory hex, and the points that leaves open."""
    if not uncertain:
        return ""
    ways = []
    for h, sides in sorted(uncertain.items()):
        steps: dict = {}
        for side, step, unit in v.ledger.control_open[h]:
            if side in sides:
                steps.setdefault((side, unit), []).append(str(step))
        for (side, unit), at in steps.items():
            ways.append(f"{h} is {v.side_name(side)}'s if {unit}'s drag at step {_steps_named(at)} went through it")
    ranges = ", ".join(f"{v.side_name(s)} {low[s]}-{high[s]} VP" for s in low if low[s] != high[s])
    return f"; the log does not show which way a drag went: {'; '.join(ways)} ({ranges})"


def _steps_named(at: list[str]) -> str:
    """"1 or 17", "1 or 17 of a.vlog" (steps of an earlier log of a chain: replay.control_at_end)."""
    logs = {a.partition(" of ")[2] for a in at}
    if len(logs) == 1:
        return " or ".join(a.partition(" of ")[0] for a in at) + (f" of {logs.pop()}" if "" not in logs else "")
    return " or ".join(at)


def _may_still_act(v, sides: list) -> bool:
    """Where the log ends in the scenario's last turn, some phase from the current one to the turn's end lets one
    of these sides move or fight (and so take a victory hex); True elsewhere (more turns may follow)."""
    sc, t = v.scenario, v.tracker
    last = _turn_index(v.game, sc.last_turn) if sc is not None and sc.last_turn else None
    now = _turn_index(v.game, v.ledger.turn)
    if last is None or now is None or now < last - shortened_by(sc, v.ledger) or t.current() is None:
        return True
    return any(p.side in (None, *sides) and (p.moves or p.combat) for p in t.phases[t.current():])


def _log_reaches_end(v) -> bool:
    """The log goes past the end of the scenario's last turn (a later turn began, or the marker went round
    from the track's last turn, the scenario's)."""
    return game_over(v.game, v.scenario, v.ledger)


def _standing_text(v, terms, points: dict, decided: bool, winner: Optional[str]) -> str:
    scorer = terms.winner
    held = ", ".join(f"{v.side_name(s)} {n} VP" for s, n in points.items() if n or s == scorer)
    need = f"{v.side_name(scorer)} needs {terms.points}" if scorer and terms.points is not None else ""
    if decided:
        return f"{v.side_name(winner) if winner else 'no side'} wins: {held}" + (f" ({need})" if need else "")
    if _log_reaches_end(v):
        return f"not decided by the log: {held} under the readings it shows" + (f" ({need})" if need else "")
    last = v.scenario.last_turn
    return (f"not decided by the log (it ends in turn {v.ledger.turn}; the scenario ends with turn {last}): "
            f"{held}" + (f"; {need} at the end" if need else ""))


def is_play(game, ev) -> bool:
    """A move, an entry, a removal or a flip of a unit, or a roll of the dice: what playing on does (the
    turn marker, a chat line, a marker tidied away are not play)."""
    if isinstance(ev, DieRoll):
        return True
    c = getattr(ev, "counter", None)
    return c is not None and c.kind == "unit"


@rule("HF1701", "play-after-last-turn", "error",
      "the scenario ends with its last turn: stop the game there and count victory",
      events=(Moved, Placed, Removed, StateChanged, DieRoll))
def play_after_last_turn(v) -> Optional[Verdict]:
    """A unit moved, entered, removed or flipped, or the dice rolled, after the scenario's last turn.

    ## What it checks
    The log's first play (a unit's move, entry, removal or change of state, or a die roll) after the turn
    marker has gone past the scenario's `last_turn`. The marker moving on is how a game is closed and is
    no fault; only what is played after it.
    ## Why
    A scenario lasts the turns it names (Meuse 12.1: turns 1 to 6); victory is counted at the end of
    its last turn, and what is played after it does not count.
    ## Reads
    the scenario's `first_turn` and `last_turn`, the turn track.
    ## Violation
    Meuse scenario 1: the turn marker advanced from turn 6 to turn 7 and Red moves a unit.
    ## Near miss
    The marker advanced from turn 6 to turn 7 and nothing played after it (the game closed); scenario 2
    (turns 1 to 8) playing turn 7.
    """
    if v.scenario is None or v.ledger.played_after_end is not None or not is_play(v.game, v.event):
        return None
    if not game_over(v.game, v.scenario, v.ledger):
        return None
    ev = v.event
    c = getattr(ev, "counter", None)
    name = v.look.label(c) if c is not None else ""
    what = {Moved: f"{name} moves", Placed: f"{name} enters", Removed: f"{name} is removed",
            StateChanged: f"{name} changes state"}.get(type(ev), "the dice are rolled")
    return found(Finding(message=f"{what} {_when_over(v)}: play after it does not count",
                         rule=_over_rule(v), units=(name,) if name else (), hexes=_hexes_of(ev)))


def _when_over(v) -> str:
    led, sc = v.ledger, v.scenario
    cut = shortened_by(sc, led)
    if led.shortened_at is not None:
        return (f"after the phase in which the scenario ended at once, at the elimination of step {led.shortened_at} "
                f"({cut} {_side_name(v, sc.last_turn_reduction.side)} unit(s) eliminated: the last turn would be turn "
                f"{_turn_id(v.game, sc.last_turn, cut)})")
    if led.game_over_at is not None:
        return (f"after the turn marker went round at step {led.game_over_at} (the end of the turn track), after "
                f"scenario {sc.id}'s last turn {sc.last_turn}")
    if cut:
        return (f"in turn {led.turn}, after scenario {sc.id}'s last turn {_turn_id(v.game, sc.last_turn, cut)} "
                f"(turn {sc.last_turn} less {cut} for the {_side_name(v, sc.last_turn_reduction.side)} units eliminated)")
    return f"in turn {led.turn}, after scenario {sc.id}'s last turn {sc.last_turn}"


def _side_name(v, side: str) -> str:
    s = v.game.side(side)
    return s.name if s else side


def _turn_id(game, last: str, cut: int) -> str:
    i = _turn_index(game, last) - cut
    return game.turns[i].id if 0 <= i < len(game.turns) else str(i)


def _over_rule(v) -> Optional[str]:
    cut = v.scenario.last_turn_reduction
    return cut.rule if cut is not None and shortened_by(v.scenario, v.ledger) else v.scenario.rule


def _hexes_of(ev) -> tuple[str, ...]:
    if isinstance(ev, Moved):
        return tuple(h for h in (ev.src.hex, ev.dst.hex) if h)
    where = getattr(ev, "where", None)
    return (where.hex,) if where is not None and where.hex else ()


@rule("HF1702", "victory-standing", "info",
      "the standing the scenario's victory conditions give when the log ends", on="end")
def victory_standing(v) -> Optional[Verdict]:
    """Who is ahead when the log ends, by the scenario's victory conditions.

    ## What it checks
    Where the scenario gives its victory terms as data, the victory hexes each side controls when the
    log ends (control changing as units enter them, a hex every legal way of a drag goes through
    included), the points they are worth, and the winner where
    the log goes past the scenario's last turn; otherwise "not decided by the log". A hex that some legal
    way of a drag goes through, not every one, is open: the standing names it, gives each side's points
    under the readings least and most in its favour, and no winner where the threshold lies between.
    ## Why
    Players ask "who won?" first (Meuse 10.1: at the end of the last turn Red scores every victory hex
    it controls; 12.1: Red wins with 7 or more).
    ## Reads
    `places.yaml` victory hexes and values, the scenario's `victory` (`hexes`, `control`, `wins`).
    ## Violation
    (a note) any Meuse log: "not decided by the log ...: Red 1 VP; Red needs 7 at the end".
    ## Near miss
    A scenario whose victory conditions are text only (the seeds): no standing is given.
    """
    s = standing(v)
    if s is None:
        return None
    return found(Finding(message=f"victory standing: {s.text}", rule=s.rule,
                         hexes=tuple(sorted(h for h, side in s.hexes.items() if side != v.facts.victory_hexes[h].start))))
