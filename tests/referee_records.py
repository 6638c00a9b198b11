"""Hand-built game records on the real trees, for the referee's tests."""
from __future__ import annotations

from validator.positions.position import Counter, Position, Where
from validator.records.record import Chat, DieRoll, GameRecord, Moved, Removed, StateChanged, Step, TurnChanged
from validator.referee.start import slots


def setup_position(game, scenario_id: str, first_hex_of_ranges: bool = True) -> tuple[Position, dict]:
    """The scenario's set-up as the module places it (several hexes -> the first named); pieces named
    u1, u2, ... in set-up order. Returns (position, {(unit id, hex): [piece, ...]})."""
    sc = game.scenario(scenario_id)
    items, index = [], {}
    for i, s in enumerate(x for x in slots(game, sc) if x.unit):
        grp_hex = _first_hex(game, sc, s)
        if grp_hex is None:
            continue
        c = Counter(f"u{i + 1}", s.unit, s.side, s.state)
        items.append((c, Where(hex=grp_hex)))
        index.setdefault((s.unit, grp_hex), []).append(c.piece)
    return Position.of(items), index


def _first_hex(game, sc, slot):
    for grp in sc.setup:
        if str(grp.location) == slot.location:
            loc = grp.location
            return loc.hex or (loc.any_of[0] if loc.any_of else loc.range[0] if loc.range else None)
    return None


def piece_at(position: Position, hex_id: str, unit: str | None = None) -> Counter:
    for c in position.at(hex_id):
        if unit is None or c.unit == unit:
            return c
    raise KeyError((hex_id, unit))


class Log:
    """Builds steps: log.move(counter, 'B'), log.chat('...'), ... ; log.record() gives the GameRecord."""

    def __init__(self, start: Position, turn: str = "1", phase=None):
        self.start, self.turn, self.phase = start, turn, phase
        self.pos = start
        self.steps: list[Step] = []

    def _add(self, *events, undo: bool = False) -> int:
        self.steps.append(Step(len(self.steps) + 1, tuple(events), undo))
        return len(self.steps)

    def move(self, c: Counter | str, *hexes: str) -> int:
        """One step per hex given (one drag each); returns the last step number."""
        c = self.pos.counter(c) if isinstance(c, str) else self.pos.counter(c.piece)
        n = 0
        for h in hexes:
            src = self.pos.where(c.piece)
            self.pos = self.pos.moved(c.piece, Where(hex=h))
            n = self._add(Moved(c, src, Where(hex=h)))
        return n

    def move_stack(self, counters, hex_id: str) -> int:
        """A whole stack dragged in one step (one Moved per piece, as VASSAL logs a stack move)."""
        events = []
        for c in counters:
            src = self.pos.where(c.piece)
            self.pos = self.pos.moved(c.piece, Where(hex=hex_id))
            events.append(Moved(self.pos.counter(c.piece), src, Where(hex=hex_id)))
        return self._add(*events)

    def enter(self, c: Counter, hex_id: str, box: str = "Reinforcements") -> int:
        self.pos = self.pos.placed(c, Where(hex=hex_id))
        return self._add(Moved(c, Where(box=box), Where(hex=hex_id)))

    def remove(self, c: Counter) -> int:
        w = self.pos.where(c.piece)
        self.pos = self.pos.removed(c.piece)
        return self._add(Removed(c, w))

    def flip(self, c: Counter, state) -> int:
        old = self.pos.counter(c.piece)
        new = old.with_state(state)
        self.pos = self.pos.changed(new)
        return self._add(StateChanged(new, old.state, self.pos.where(c.piece)))

    def chat(self, text: str) -> int:
        return self._add(Chat(text))

    def roll(self, total: int = 4) -> int:
        return self._add(DieRoll("1d6", (total,), total, 1, 6))

    def next_turn(self, turn: str, phase=None) -> int:
        return self._add(TurnChanged(turn, phase))

    def undo(self) -> int:
        """VASSAL's Undo of the last step: its moves taken back (an undo of a roll or chat moves nothing)."""
        last = next(s for s in reversed(self.steps) if not s.undo)
        back = []
        for e in reversed(last.events):
            if isinstance(e, Moved):
                self.pos = self.pos.placed(e.counter, e.src)
                back.append(Moved(e.counter, e.dst, e.src))
        return self._add(*back, undo=True)

    def record(self, source: str = "hand-built") -> GameRecord:
        return GameRecord(source, None, None, self.start, self.turn, self.phase, tuple(self.steps))
