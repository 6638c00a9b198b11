"""The game record as YAML (docs/record-format.md): written by `hexforge replay --format yaml`, and
read back, or from a hand-written file, so a game can be audited without a VASSAL log.

Reading is strict and located: an unknown key, a value of the wrong type, a value past one of the bounds
of `validator.records.record_limits` or a move of a piece the record never placed is a `RecordError` naming
file:line:col. A place is a hex id as printed or `[box name]`; hex ids must be quoted strings (YAML reads
an unquoted 0301 as the octal number 193). A hand-written event may leave out what the record already
knows: a counter's unit, side and state come from where the piece was last seen, a move's `from` from
where it stands. The text is read as a stream of YAML events, one start counter and one step at a time
(`yamlsrc.EventReader`), so a long record is never held as one node tree.
"""
from __future__ import annotations

from typing import Any, Optional

import yaml

from . import record_limits as limits
from ..source.model import Loc
from ..positions.position import Counter, Position, Where
from .record import Chat, DieRoll, Event, GameRecord, Moved, Placed, Removed, StateChanged, Step, TurnChanged
from ..source.yamlsrc import EventReader, LocList, LocMap, SourceError

FORMAT_KEY = "hexforge-record"
FORMAT_VERSION = 1


class RecordError(ValueError):
    """A record file that cannot be read: where and what, and how to fix it."""

    def __init__(self, message: str, loc: Loc, help: Optional[str] = None):
        self.message, self.loc, self.help = message, loc, help
        super().__init__(f"{loc}: {message}" + (f" ({help})" if help else ""))


class RecordTooLong(RecordError):
    """A record past one of the bounds on its length (steps, events, pieces): nothing after it is read."""


# -- writing -------------------------------------------------------------------------------------

class _Line(dict):
    """A mapping written on one line (an event, a start counter)."""


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(_Line, lambda d, v: d.represent_mapping("tag:yaml.org,2002:map", v, flow_style=True))

def _place(w: Where) -> str:
    return w.hex if w.hex is not None else f"[{w.box or ''}]"


def _counter(c: Counter) -> dict:
    d: dict[str, Any] = {"piece": c.piece, "unit": c.unit}
    if c.side is not None:
        d["side"] = c.side
    if c.kind != "unit":
        d["kind"] = c.kind
    if c.state:
        d["state"] = sorted(c.state)
    return d


def _event(e: Event) -> dict:
    if isinstance(e, Moved):
        d = dict(_counter(e.counter), **{"from": _place(e.src), "to": _place(e.dst)})
        if e.onto is not None:
            d["onto"] = e.onto
        return {"move": _Line(d)}
    if isinstance(e, Placed):
        return {"place": _Line(_counter(e.counter), at=_place(e.where))}
    if isinstance(e, Removed):
        return {"remove": _Line(_counter(e.counter), at=_place(e.where))}
    if isinstance(e, StateChanged):
        return {"state": _Line(_counter(e.counter), at=_place(e.where), old=sorted(e.old_state))}
    if isinstance(e, DieRoll):
        d = {"dice": e.dice, "faces": list(e.faces), "total": e.total}
        if e.count or e.sides:
            d.update(count=e.count, sides=e.sides)
        return {"roll": _Line(d)}
    if isinstance(e, TurnChanged):
        return {"turn": _Line((k, v) for k, v in (("turn", e.turn), ("phase", e.phase), ("printed", e.printed))
                              if v is not None)}
    if isinstance(e, Chat):
        return {"chat": _Line(text=e.text, **({"player": e.player} if e.player is not None else {}))}
    raise TypeError(f"not a record event: {e!r}")


def _step(s: Step) -> dict:
    d: dict[str, Any] = {"step": s.index}
    if s.undo:
        d["undo"] = True
    if s.player is not None:
        d["player"] = s.player
    d["events"] = [_event(e) for e in s.events]
    return d


def record_to_yaml(record: GameRecord) -> str:
    data = {
        FORMAT_KEY: FORMAT_VERSION, "source": record.source, "module": record.module, "engine": record.engine,
        "start_turn": record.start_turn, "start_phase": record.start_phase, "players": list(record.players),
        "warnings": list(record.warnings),
        "start": [_Line(_counter(c), at=_place(w)) for c, w in record.start],
        "steps": [_step(s) for s in record.steps],
    }
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=10_000,
                     default_flow_style=False)


# -- reading -------------------------------------------------------------------------------------

_COUNTER_KEYS = {"piece", "unit", "side", "kind", "state"}
_EVENT_KEYS = {
    "place": _COUNTER_KEYS | {"at"},
    "move": _COUNTER_KEYS | {"from", "to", "onto"},
    "remove": _COUNTER_KEYS | {"at"},
    "state": _COUNTER_KEYS | {"at", "old"},
    "roll": {"dice", "faces", "total", "count", "sides"},
    "turn": {"turn", "phase", "printed"},
    "chat": {"text", "player"},
}
_TOP_KEYS = {FORMAT_KEY, "source", "module", "engine", "start_turn", "start_phase", "players", "warnings",
             "start", "steps"}
_TEXT_KEYS = {"text", "source", "module", "engine", "printed"}     # free text; every other string is a name
MAX_RECORD_BYTES = 16 * 1024 * 1024       # a record file (a 20 000-step log's record is about 2 MiB)
MAX_ITEM_VALUES = 100_000                 # YAML values in one step, one start counter or one other entry


def _mapping(v, loc: Loc, what: str) -> LocMap:
    if not isinstance(v, LocMap):
        raise RecordError(f"{what} must be a mapping", loc)
    return v


def _list(v, loc: Loc, what: str) -> LocList:
    if not isinstance(v, LocList):
        raise RecordError(f"{what} must be a list", loc)
    return v


def _keys(m: LocMap, allowed: set, what: str) -> None:
    for k in m:
        if k not in allowed:
            raise RecordError(f"unknown key {k!r} in {what}", m.at(k), "allowed: " + ", ".join(sorted(allowed)))


def _bounded(s: str, key: str, limit: int, loc: Loc) -> str:
    if len(s) > limit:
        raise RecordError(f"{key!r} is {len(s)} characters long; a record's {key!r} is at most {limit}", loc)
    return s


def _text(m: LocMap, key: str, required: bool = False, ids: bool = False, bounded: bool = True) -> Optional[str]:
    """A string value; `ids` also takes an integer (a piece id written unquoted). Free text is at most
    MAX_TEXT_CHARS long, a name MAX_NAME_CHARS (`bounded=False`: the caller bounds it)."""
    v = m.get(key)
    if v is None:
        if required:
            raise RecordError(f"{key!r} is required", m.loc)
        return None
    if ids and isinstance(v, int) and not isinstance(v, bool):
        return str(v)
    if not isinstance(v, str):
        raise RecordError(f"{key!r} must be a string, not {type(v).__name__} {v!r}", m.at(key),
                          "quote it: YAML reads 0301 as a number")
    if not bounded:
        return v
    return _bounded(v, key, limits.MAX_TEXT_CHARS if key in _TEXT_KEYS else limits.MAX_NAME_CHARS, m.at(key))


def _where(m: LocMap, key: str) -> Optional[Where]:
    s = _text(m, key, bounded=False)
    if s is None:
        return None
    if s.startswith("[") and s.endswith("]"):
        return Where(box=_bounded(s, key, limits.MAX_NAME_CHARS, m.at(key))[1:-1])
    if not s or s.startswith("["):
        raise RecordError(f"{key!r}: {s!r} is neither a hex id nor a [box]", m.at(key))
    if len(s) > limits.MAX_HEX_ID_CHARS:
        raise RecordError(f"{key!r}: a hex id of {len(s)} characters; a hex id is at most "
                          f"{limits.MAX_HEX_ID_CHARS}", m.at(key), "a place is a hex id as printed, or a [box]")
    return Where(hex=s)


def _names(m: LocMap, key: str) -> Optional[frozenset[str]]:
    v = m.get(key)
    if v is None:
        return None
    items = _list(v, m.at(key), repr(key))
    for i, x in enumerate(items):
        if not isinstance(x, str):
            raise RecordError(f"{key!r} lists names: item {x!r} is not a string", items.at(i))
        _bounded(x, key, limits.MAX_NAME_CHARS, items.at(i))
    return frozenset(items)


def _int(m: LocMap, key: str, default: Optional[int] = None, low: Optional[int] = None,
         high: Optional[int] = None) -> int:
    v = m.get(key, default)
    if not isinstance(v, int) or isinstance(v, bool):
        raise RecordError(f"{key!r} must be an integer", m.at(key))
    if (low is not None and v < low) or (high is not None and v > high):
        raise RecordError(f"{key!r} is {v}; it runs from {low} to {high}", m.at(key))
    return v


class _Reading:
    """What the record says so far: each piece's counter and place, for events that leave them out."""

    def __init__(self) -> None:
        self.counters: dict[str, Counter] = {}
        self.places: dict[str, Where] = {}
        self.events = 0

    def counter(self, m: LocMap) -> Counter:
        pid = _text(m, "piece", ids=True)
        unit = _text(m, "unit")
        if pid is None:
            if unit is None:
                raise RecordError("an event names its counter by 'piece' (or by 'unit')", m.loc)
            pid = unit
        known = self.counters.get(pid)
        if unit is None and known is None:
            raise RecordError(f"piece {pid!r} is not in the record yet: give its 'unit'", m.at("piece"))
        if known is None and len(self.counters) >= limits.MAX_PIECES:
            raise RecordTooLong(f"piece {pid!r} is one more than the {limits.MAX_PIECES} pieces a record may "
                              "put in play", m.loc)
        kind = _text(m, "kind") or (known.kind if known else "unit")
        if kind not in ("unit", "marker"):
            raise RecordError(f"'kind' is unit or marker, not {kind!r}", m.at("kind"))
        state = _names(m, "state")
        c = Counter(pid, unit or known.unit, _text(m, "side") or (known.side if known else None),
                    state if state is not None else (known.state if known else frozenset()), kind)
        self.counters[pid] = c
        return c

    def place(self, m: LocMap, key: str, piece: str) -> Where:
        w = _where(m, key) or self.places.get(piece)
        if w is None:
            raise RecordError(f"{key!r} is required: piece {piece!r} has no known place", m.loc)
        return w


def _read_event(r: _Reading, item, loc: Loc) -> Event:
    m = _mapping(item, loc, "an event")
    if len(m) != 1:
        raise RecordError("an event is a mapping with one key: " + ", ".join(_EVENT_KEYS), m.loc)
    [(kind, body)] = m.items()
    if kind not in _EVENT_KEYS:
        raise RecordError(f"unknown event {kind!r}", m.loc, "one of: " + ", ".join(_EVENT_KEYS))
    b = _mapping(body, m.at(kind), f"a {kind} event")
    _keys(b, _EVENT_KEYS[kind], f"a {kind} event")
    if kind in ("place", "move", "remove", "state"):
        return _piece_event(r, kind, b)
    if kind == "roll":
        return _roll(b)
    if kind == "turn":
        turn = b.get("turn")
        return TurnChanged(str(turn) if isinstance(turn, int) else _text(b, "turn"), _text(b, "phase"),
                           _text(b, "printed"))
    return Chat(_text(b, "text", required=True), _text(b, "player"))


def _piece_event(r: _Reading, kind: str, b: LocMap) -> Event:
    c = r.counter(b)
    if kind == "move":
        src, dst = r.place(b, "from", c.piece), _where(b, "to")
        if dst is None:
            raise RecordError("a move needs 'to'", b.loc)
        r.places[c.piece] = dst
        return Moved(c, src, dst, _text(b, "onto", ids=True))
    at = r.place(b, "at", c.piece)
    if kind == "place":
        r.places[c.piece] = at
        return Placed(c, at)
    if kind == "remove":
        r.places.pop(c.piece, None)
        return Removed(c, at)
    return StateChanged(c, _names(b, "old") or frozenset(), at)


def _roll(b: LocMap) -> DieRoll:
    """A roll within the bounds of `validator.records.record_limits`: the dice its name reads as, the faces."""
    faces = _list(b.get("faces"), b.at("faces"), "'faces'")
    if not faces or not all(isinstance(f, int) and not isinstance(f, bool) for f in faces):
        raise RecordError("'faces' lists each die's number", b.at("faces"))
    dice = _text(b, "dice", required=True)
    count = _int(b, "count", 0, 0, limits.MAX_DICE)
    sides = _int(b, "sides", 0, 0, limits.MAX_DIE_SIDES)
    problem = limits.dice_problem(dice, count, sides)
    if problem:
        raise RecordError(problem, b.at("dice"))
    problem = limits.faces_problem(faces)
    if problem:
        raise RecordError(problem, b.at("faces"))
    total = _int(b, "total", sum(faces))
    problem = limits.faces_problem((), total)
    if problem:
        raise RecordError(problem, b.at("total"))
    return DieRoll(dice, tuple(faces), total, count, sides)


def _read_step(r: _Reading, item, loc: Loc, default_index: int) -> Step:
    m = _mapping(item, loc, "a step")
    _keys(m, {"step", "undo", "player", "events"}, "a step")
    index = _int(m, "step", default_index, 1, limits.MAX_STEPS)
    undo = m.get("undo", False)
    if not isinstance(undo, bool):
        raise RecordError("'undo' is true or false", m.at("undo"))
    events = _list(m.get("events", LocList()), m.at("events"), "'events'") if "events" in m else []
    r.events += len(events)
    if r.events > limits.MAX_EVENTS:
        raise RecordTooLong(f"step {index} brings the record past {limits.MAX_EVENTS} events; a record holds at "
                          f"most {limits.MAX_EVENTS}", loc, "audit the VASSAL log itself, or split the record")
    return Step(index, tuple(_read_event(r, e, events.at(i)) for i, e in enumerate(events)), undo,
                _text(m, "player"))


def _start_counter(r: _Reading, item, loc: Loc) -> tuple[Counter, Where]:
    m = _mapping(item, loc, "a start counter")
    _keys(m, _COUNTER_KEYS | {"at"}, "a start counter")
    c = r.counter(m)
    at = _where(m, "at")
    if at is None:
        raise RecordError("a start counter needs 'at'", m.loc)
    r.places[c.piece] = at
    return c, at


def read_record(path) -> GameRecord:
    """The record in a YAML file: its size bounded before it is read (MAX_RECORD_BYTES)."""
    file = str(path)
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_RECORD_BYTES + 1)
    except OSError as e:
        raise RecordError(f"cannot read: {e.strerror or e}", Loc(file)) from None
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"the file is more than {MAX_RECORD_BYTES // (1024 * 1024)} MiB; a record is at most "
                          f"{MAX_RECORD_BYTES // (1024 * 1024)} MiB", Loc(file),
                          "audit the VASSAL log itself rather than its record")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise RecordError("the file is not UTF-8 text", Loc(file, line), "save the record as UTF-8") from None
    return record_from_yaml(text, file)


def record_from_yaml(text: str, source: str) -> GameRecord:
    """A GameRecord from YAML text; `source` names the file in errors and in the record. The text is read
    as a stream of YAML events, one start counter and one step at a time, so a long record is never held
    as one node tree, and every bound of `validator.records.record_limits` is checked where its value is read."""
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"the text is more than {MAX_RECORD_BYTES} characters; a record is at most "
                          f"{MAX_RECORD_BYTES // (1024 * 1024)} MiB", Loc(source))
    if "\x00" in text:
        raise RecordError("the text holds NUL characters: not a YAML record", Loc(source, 1, 1))
    doc = EventReader(text, source, max_number_chars=limits.MAX_NUMBER_CHARS)
    try:
        try:
            return _read_document(doc, source)
        except RecordTooLong:
            raise
        except RecordError:
            broken = doc.syntax_error()          # a file broken further on is reported as broken
            if broken is None:
                raise
            raise broken from None
    except SourceError as e:
        raise RecordError(e.message, e.loc, e.help) from None
    finally:
        doc.close()


class _Document:
    """The record's top-level values as they are read: small ones kept, `start` and `steps` read item by item."""

    def __init__(self, doc: EventReader, source: str):
        self.doc, self.source = doc, source
        self.values: dict = {}
        self.locs: dict = {}
        self.reading = _Reading()
        self.placed: list = []
        self.steps: list[Step] = []

    def read(self) -> None:
        doc = self.doc
        root = doc.start()
        if doc.kind() != "mapping":
            doc.value(MAX_ITEM_VALUES, "the record")
            raise RecordError("a record must be a mapping", root)
        doc.enter()
        for key, loc in doc.keys():
            if key not in _TOP_KEYS:
                raise RecordError(f"unknown key {key!r} in a record", loc, "allowed: " + ", ".join(sorted(_TOP_KEYS)))
            self.locs[key] = loc
            if key == "start":
                if self.steps:
                    raise RecordError("'start' comes after 'steps'", loc, "write the start position first, as "
                                      "`hexforge replay --format yaml` does")
                self._items(key, loc, self._start_item)
            elif key == "steps":
                self._items(key, loc, self._step_item)
            else:
                self.values[key] = doc.value(MAX_ITEM_VALUES, repr(key))

    def _items(self, key: str, loc: Loc, read_one) -> None:
        """Each item of `start` or `steps`, built and read one at a time."""
        doc = self.doc
        if doc.kind() == "sequence":
            doc.enter()
            for i, at in enumerate(doc.items()):
                read_one(i, doc.value(MAX_ITEM_VALUES, f"{'step' if key == 'steps' else 'start counter'} {i + 1}",
                                      "split what it holds into shorter steps"), at)
            return
        items = _list(doc.value(MAX_ITEM_VALUES, repr(key)), loc, repr(key))      # an alias, or not a list
        for i, item in enumerate(items):
            read_one(i, item, items.at(i))

    def _start_item(self, i: int, item, at: Loc) -> None:
        if i >= limits.MAX_PIECES:
            raise RecordTooLong(f"start counter {i + 1}: a record starts with at most {limits.MAX_PIECES} counters", at)
        self.placed.append(_start_counter(self.reading, item, at))

    def _step_item(self, i: int, item, at: Loc) -> None:
        if i >= limits.MAX_STEPS:
            raise RecordTooLong(f"step item {i + 1}: a record holds at most {limits.MAX_STEPS} steps", at,
                              "audit the VASSAL log itself, or split the record")
        steps = self.steps
        s = _read_step(self.reading, item, at, (steps[-1].index + 1) if steps else 1)
        if steps and s.index <= steps[-1].index:
            raise RecordError(f"step {s.index} does not come after step {steps[-1].index}", at)
        steps.append(s)

    def strings(self, key: str, limit: int) -> tuple[str, ...]:
        if key not in self.values:
            return ()
        items = _list(self.values[key], self.locs[key], repr(key))
        for i, x in enumerate(items):
            if not isinstance(x, str):
                raise RecordError(f"{key!r} lists strings", items.at(i))
            _bounded(x, key, limit, items.at(i))
        return tuple(items)


def _read_document(doc: EventReader, source: str) -> GameRecord:
    d = _Document(doc, source)
    d.read()
    top = LocMap(d.values)
    top.file, top.pos, top.keylocs = source, (1, 1), {k: (loc.line, loc.column) for k, loc in d.locs.items()}
    version = top.get(FORMAT_KEY, FORMAT_VERSION)
    if version != FORMAT_VERSION:
        raise RecordError(f"record format {version!r} is not {FORMAT_VERSION}", top.at(FORMAT_KEY))
    start_turn = top.get("start_turn")
    return GameRecord(_text(top, "source") or source, _text(top, "module"), _text(top, "engine"),
                      Position.of(d.placed),
                      str(start_turn) if isinstance(start_turn, int) else _text(top, "start_turn"),
                      _text(top, "start_phase"), tuple(d.steps), d.strings("players", limits.MAX_NAME_CHARS),
                      d.strings("warnings", limits.MAX_TEXT_CHARS))
