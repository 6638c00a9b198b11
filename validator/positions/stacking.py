"""What may share a hex, as functions of a `Position`: stacking, mixing, both sides, prohibited terrain.

Each function reads the rule's parameters from `game.rules` / `game.tec` and returns plain values
(hex, counters, …); the set-up checks (`validator.checks.stacking`) call them on each scenario's
position, the set-up placer asks `may_join` before it puts a counter in a hex, and the referee can
call them on any replayed position. Markers never count.
"""
from __future__ import annotations

from typing import Iterable, Iterator, Optional

from ..source.frozen import frozen
from ..source.model import Game, MixingRule, TerrainType
from .position import Counter, Position, Where

_TRIAL = Where(hex="trial")                    # where `may_join` stands a trial stack


@frozen
class Overstack:
    """One side's stack in `hex` over the stacking limit: `size` in the game's stacking measure."""
    hex: str
    side: Optional[str]
    size: int                                 # in the game's stacking measure (units or steps)
    limit: int
    counters: tuple[Counter, ...]


@frozen
class Mixed:
    """Counters that may not share `hex`: `what` are the sides, nationalities or formations involved."""
    hex: str
    what: tuple[str, ...]
    counters: tuple[Counter, ...]


@frozen
class Prohibited:
    """A counter standing in terrain the TEC prohibits to its movement class."""
    hex: str
    counter: Counter
    terrain: TerrainType
    movement_class: str


def _units(counters: Iterable[Counter]) -> list[Counter]:
    return [c for c in counters if c.kind == "unit"]


def side_of(game: Game, c: Counter) -> Optional[str]:
    """The side a counter is on: the piece's own where it says (a log's piece, a set-up's counter), else
    its unit's in the tree. The one reading of a counter's side, for the set-up checks and the referee."""
    if c.side:
        return c.side
    u = game.unit(c.unit)
    return u.side if u else None


def stack_size(game: Game, counters: Iterable[Counter]) -> int:
    """The stack's size as rules.stacking counts it: units, or steps (a reduced unit has one left); units with a
    flag of `uncounted` (non-combat units) count for nothing."""
    units = _counted(game, _units(counters))
    if game.rules.stacking.counts != "steps":
        return len(units)
    total = 0
    for c in units:
        u = game.unit(c.unit)
        total += 1 if "reduced" in c.state else (u.steps if u else 1)
    return total


def _counted(game: Game, units: list[Counter]) -> list[Counter]:
    skip = game.rules.stacking.uncounted
    if not skip:
        return units
    return [c for c in units if not ((u := game.unit(c.unit)) and u.flagged(skip))]


def _by_side(game: Game, counters: Iterable[Counter]) -> dict[Optional[str], list[Counter]]:
    out: dict[Optional[str], list[Counter]] = {}
    for c in _units(counters):
        out.setdefault(side_of(game, c), []).append(c)
    return out


def overstacked(game: Game, position: Position) -> list[Overstack]:
    """Each side's stack that is over the limit, hex by hex (sorted)."""
    limit = game.rules.stacking.limit
    if limit is None:
        return []
    out = []
    for h, stack in sorted(position.stacks().items()):
        for side, cs in sorted(_by_side(game, stack).items(), key=lambda kv: kv[0] or ""):
            n = stack_size(game, cs)
            if n > limit:
                out.append(Overstack(h, side, n, limit, tuple(cs)))
    return out


def sides_sharing(game: Game, position: Position) -> list[Mixed]:
    out = []
    for h, stack in sorted(position.stacks().items()):
        sides = sorted({side_of(game, c) or "" for c in _units(stack)})
        if len(sides) > 1:
            out.append(Mixed(h, tuple(sides), tuple(_units(stack))))
    return out


def nationalities_mixed(game: Game, position: Position, rule: MixingRule) -> list[Mixed]:
    """Hexes where nationalities that `rule` keeps apart share a hex."""
    apart = set(rule.nationalities)
    out = []
    for h, stack in sorted(position.stacks().items()):
        nats = {u.nationality for u in (game.unit(c.unit) for c in _units(stack)) if u and u.nationality in apart}
        if len(nats) > 1:
            out.append(Mixed(h, tuple(sorted(nats)), tuple(_units(stack))))
    return out


def formations_mixed(game: Game, position: Position, rule: MixingRule) -> list[Mixed]:
    """Hexes where units of several formations share a hex and not all of them carry the exempting state."""
    exempt = rule.except_state or rule.penalty
    out = []
    for h, stack in sorted(position.stacks().items()):
        placed = [(c, game.unit(c.unit)) for c in _units(stack)]
        formed = [(c, u) for c, u in placed if u and u.formation]
        forms = {u.formation for _, u in formed}
        if len(forms) < 2:
            continue
        if exempt and all(exempt in c.state for c, _ in formed):
            continue
        out.append(Mixed(h, tuple(sorted(forms)), tuple(c for c, _ in placed)))
    return out


def _prohibitions(game: Game, hex_id: str, counter: Counter) -> Iterator[tuple[TerrainType, str]]:
    """Each terrain of the hex whose TEC cost prohibits the counter's movement class."""
    u = game.unit(counter.unit)
    mc = u.movement_class if u else None
    if not mc:
        return
    for tid in game.hex_terrain(hex_id):
        t = game.terrain_type(tid)
        cost = t.costs.get(mc) if t else None
        if cost is not None and cost.prohibited:
            yield t, mc


def prohibited_terrain(game: Game, position: Position) -> list[Prohibited]:
    """Counters standing in terrain the TEC prohibits to their movement class, once per terrain."""
    if game.tec is None:
        return []
    return [Prohibited(h, c, t, mc) for h, stack in sorted(position.stacks().items())
            for c in _units(stack) for t, mc in _prohibitions(game, h, c)]


def may_join(game: Game, stack: tuple[Counter, ...], counter: Counter, hex_id: str) -> bool:
    """May `counter` be put into `hex_id` on top of `stack` without breaking a rule of this module?

    It may not when the hex holds the other side, when its side's stack would go over the limit,
    when it would mix nationalities kept apart, or when the hex's terrain is prohibited to it.
    (Divisional integrity only costs a penalty, so it does not bar a hex.)
    """
    if counter.kind != "unit":
        return True
    units = _units(stack)
    if any(side_of(game, c) != side_of(game, counter) for c in units):
        return False
    limit = game.rules.stacking.limit
    if limit is not None and stack_size(game, units + [counter]) > limit:
        return False
    trial = Position.of([(c, _TRIAL) for c in units + [counter]])
    for rule in game.rules.mixing_rules:
        if rule.kind == "nationalities-apart" and nationalities_mixed(game, trial, rule):
            return False
    return next(_prohibitions(game, hex_id, counter), None) is None

