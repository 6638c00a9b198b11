"""Read a VASSAL game log (.vlog) or saved game (.vsav) into the neutral game record (validator.records.record).

The path, as VASSAL 3.7.9 writes and replays a log (read from its source: GameState, BasicLogger,
GameModule.decode, BasicCommandEncoder, TurnTracker, PlayerRoster, ChangePropertyCommandEncoder):

    zip entry `savedGame` -> `!VCSK` de-obfuscation (or plain text) -> UTF-8 -> top-level tokens
    split on unescaped ESC: `begin_save`, the restore snapshot, `end_save`, then one `LOG` token
    per step (what one press of VASSAL's step-forward button replays).

A step token is a command tree (GameModule.decode); its leaves are `LOG<TAB><command>`. Each
command kind has a handler (`_HANDLERS`) that updates the reader's view of the pieces and stacks and
appends record events. Pixels become hex ids with the module's own grid (`reader.Module.locate`) and the board
layout the log restores; a point in a Zone or on a map without a hex grid becomes a box.

Bounded: the savedGame is streamed (`logstream`: decompressed, de-obfuscated and split chunk by
chunk, each command and nesting depth bounded), and every number read from it that sizes later work
(steps, events, pieces, dice and their faces, pixel positions, board layouts) is held to the bounds
of `validator.records.record_limits` as it is read: past one, the log is refused at that step, naming the
bound (docs/limits.md). Player ids in `M/` and `PLAYER` commands are passwords: they are mapped to
opaque labels and never kept.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from lxml import etree

from validator.records import record_limits as limits
from validator.positions.position import Counter, Position, Where
from validator.records.record import (Chat, DieRoll, Event, GameRecord, Moved, Placed, Removed, StateChanged, Step,
                              TurnChanged)

from .encoding import decode
from .logstream import commands, saved_game_tokens
from .reader import Archive, Module, ReadError, parse_board_setup, parse_xml, read_module
from .traits import decode_piece



MAX_LAYOUT_CELL = 64                       # a board's column or row in a map's board layout
MAX_WARNINGS = 1000                        # what the reader could not map, kept per log (the rest are dropped)


class LogReadError(ReadError):
    """A log that cannot be read, located: the file and, where known, the step."""

    def __init__(self, file: str, message: str, step: Optional[int] = None):
        self.file, self.message, self.step = file, message, step
        where = f"{file}: step {step}" if step is not None else file
        super().__init__(f"{where}: {message}")


# -- where a pixel is ------------------------------------------------------------------------------

class Geometry:
    """Map pixels -> Where, with the module's boards and the board layout the log restores."""

    def __init__(self, module: Optional[Module]):
        self.module = module
        self.layouts: dict[str, list[tuple[str, int, int]]] = dict(module.board_setups) if module else {}
        self._cache: dict[tuple[str, int, int], Where] = {}
        self._origins: dict[str, dict] = {}

    def set_layout(self, map_name: str, layout: list[tuple[str, int, int]]) -> None:
        """The boards the log lays out on a map; each must be a board of the module's map."""
        if self.module is not None:
            _check_layout(self.module, map_name, layout)
        self.layouts[map_name] = layout
        self._cache.clear()
        self._origins.pop(map_name, None)

    def where(self, map_name: Optional[str], x: int, y: int) -> Where:
        if not map_name:
            return Where(box="off map")
        key = (map_name, x, y)
        w = self._cache.get(key)
        if w is None:
            w = self._cache[key] = self._locate(map_name, x, y)
        return w

    def _locate(self, map_name: str, x: int, y: int) -> Where:
        m = self.module
        if m is None or map_name not in self.layouts:
            return Where(box=f"{map_name} @{x},{y}")
        layout = self.layouts[map_name]
        if map_name not in self._origins:
            self._origins[map_name] = m.board_positions(map_name, layout)
        return m.locate(map_name, layout, x, y, self._origins[map_name])


def _check_layout(module: Module, map_name: str, layout: list[tuple[str, int, int]]) -> None:
    """A log played with another module names boards this one does not have (a ReadError saying which)."""
    known = [b.name for b in module.boards if b.map == map_name]
    for bname, cx, cy in layout:
        if bname not in known:
            where = f"its boards on {map_name!r}: {', '.join(known)}" if known else f"it has no map {map_name!r}"
            raise ReadError(f"the log lays out board {bname!r} on map {map_name!r}, which module "
                            f"{_module_title(module)!r} does not have ({where}); pass the module the log "
                            "was played with (--module)")
        if not (0 <= cx <= MAX_LAYOUT_CELL and 0 <= cy <= MAX_LAYOUT_CELL):
            raise ReadError(f"board {bname!r} is laid out at column {cx}, row {cy} of map {map_name!r}: "
                            f"a layout has at most {MAX_LAYOUT_CELL} boards each way")


def _module_title(module: Module) -> str:
    name, version = module.metadata.findtext("name"), module.metadata.findtext("version")
    return f"{name} {version}" if name and version else (name or "unnamed")


# -- the reader's view of pieces --------------------------------------------------------------------

@dataclass(slots=True)
class _Piece:
    id: str
    type: str
    counter: Counter
    map: Optional[str]
    x: int
    y: int
    stack: Optional[str] = None


@dataclass(slots=True)
class _Stack:
    id: str
    map: Optional[str]
    x: int
    y: int
    ids: list[str]


def _state_names(traits: list[dict]) -> frozenset[str]:
    """The shown side of each layer (Embellishment) past its first level, by the level's name:
    "+ (reduced)" -> "reduced"; an unnamed level -> "<layer>-<level>"."""
    out = set()
    for t in traits:
        if t["kind"] == "emb2" and t["active"] and t["level"] > 0:
            names = t["names"]
            raw = names[t["level"]] if t["level"] < len(names) else ""
            name = raw.lstrip("+").strip().strip("()").strip().lower()
            out.add(name or f"{(t['name'] or 'layer').lower()}-{t['level'] + 1}")
    return frozenset(out)


def _counter(pid: str, traits: list[dict]) -> Counter:
    marks: dict[str, str] = {}
    for t in traits:
        if t["kind"] == "mark":
            for k, v in t["values"].items():
                marks.setdefault(k, v)
    unit = marks.get("UnitId")
    kind = "unit"
    if not unit and marks.get("MarkerId"):
        unit, kind = marks["MarkerId"], "marker"
    return Counter(pid, unit or traits[-1]["name"] or pid, marks.get("Side") or None, _state_names(traits), kind)


def _check_unit(r: _Reader, c: Counter, traits: list[dict]) -> None:
    """Warn about a piece the tree does not know: no UnitId/MarkerId, or an id the game lacks."""
    if not any(t["kind"] == "mark" and ("UnitId" in t["values"] or "MarkerId" in t["values"]) for t in traits):
        r.warn(f"piece {c.piece} ({traits[-1]['name']!r}) has no UnitId or MarkerId: its unit is its name")
    elif r.game is not None and c.unit not in r.known_units():
        r.warn(f"piece {c.piece} shows {c.kind} {c.unit!r}, which the game does not have")


# -- reading state ------------------------------------------------------------------------------------

@dataclass
class _Reader:
    file: str
    geometry: Geometry
    game: object = None
    pieces: dict[str, _Piece] = field(default_factory=dict)
    stacks: dict[str, _Stack] = field(default_factory=dict)
    players: dict[str, str] = field(default_factory=dict)      # password -> label (never output)
    labels: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    turn_lists: dict = field(default_factory=dict)              # tracker id -> _TrackerLevels
    turn: Optional[TurnChanged] = None
    turn_start: Optional[TurnChanged] = None
    step: Optional[int] = None
    # per step
    events: list[Event] = field(default_factory=list)
    undo: bool = False
    mover: Optional[str] = None
    rolls: dict[str, int] = field(default_factory=dict)          # dice name -> index in events
    dice: dict[str, tuple[int, int]] = field(default_factory=dict)  # dice name -> (count, sides)
    _units: Optional[set[str]] = None

    def known_units(self) -> set[str]:
        if self._units is None:
            self._units = ({u.id for u in getattr(self.game, "units", ())}
                           | {m.id for m in getattr(self.game, "markers", ())})
        return self._units

    def warn(self, msg: str) -> None:
        if len(self.warnings) < MAX_WARNINGS:
            self.warnings.append(f"step {self.step}: {msg}" if self.step else msg)

    def where_of(self, p: _Piece) -> Where:
        return self.geometry.where(p.map, p.x, p.y)

    def label(self, password: Optional[str]) -> Optional[str]:
        if not password:
            return None
        lab = self.players.get(password)
        if lab is None:
            lab = self.players[password] = f"player {len(self.players) + 1}"
            self.labels.append(lab)
        return lab

    def detach(self, pid: str) -> None:
        p = self.pieces.get(pid)
        if p is not None and p.stack is not None:
            s = self.stacks.get(p.stack)
            if s is not None and pid in s.ids:
                s.ids.remove(pid)
            p.stack = None


# -- command handlers: one per kind ---------------------------------------------------------------

def _int(s: str) -> int:
    return int(s) if s.lstrip("-").isdigit() and len(s) <= limits.MAX_NUMBER_CHARS else 0


def _pixels(*values: int) -> None:
    for v in values:
        if abs(v) > limits.MAX_PIXEL:
            raise ReadError(f"a piece at pixel {v}: a position is at most {limits.MAX_PIXEL} pixels either way")


def _coordinates(fields: list[str]) -> Optional[tuple[int, ...]]:
    """Pixel positions as written; None if one is not a number (the command is skipped), a ReadError
    if one is out of bounds."""
    longest = limits.MAX_NUMBER_CHARS + 1
    for f in fields:
        if len(f) > longest and f.strip().lstrip("+-").isdigit():
            raise ReadError(f"a piece at a pixel position of {len(f)} digits; a position is at most "
                            f"{limits.MAX_PIXEL} pixels either way")
    try:
        out = tuple(map(int, fields))
    except ValueError:
        return None
    most = limits.MAX_PIXEL
    for v in out:
        if v > most or v < -most:
            _pixels(v)
    return out


def _new_piece(r: _Reader, pid: str) -> None:
    if pid not in r.pieces and len(r.pieces) >= limits.MAX_PIECES:
        raise ReadError(f"more than {limits.MAX_PIECES} pieces in play: a log puts at most {limits.MAX_PIECES} "
                        "in play")


def _add_piece(r: _Reader, cmd: str) -> None:
    toks = decode(cmd[2:], "/")
    if len(toks) < 3:
        r.warn("an AddPiece command without type or state is skipped")
        return
    pid, typ, state = toks[0], toks[1], toks[2]
    if pid in ("", "null"):
        r.warn("an AddPiece command without a piece id is skipped")
        return
    if typ == "stack":
        _add_stack(r, pid, state)
        return
    try:
        traits = decode_piece(typ, state, strict=False)
    except (ValueError, IndexError) as e:
        r.warn(f"piece {pid} cannot be decoded ({e}); skipped")
        return
    b = traits[-1]
    _pixels(b["x"], b["y"])
    _new_piece(r, pid)
    p = _Piece(pid, typ, _counter(pid, traits), None if b["map"] in ("", "null") else b["map"], b["x"], b["y"])
    _check_unit(r, p.counter, traits)
    r.detach(pid)
    r.pieces[pid] = p
    if r.step is not None:
        r.events.append(Placed(p.counter, r.where_of(p)))


def _add_stack(r: _Reader, pid: str, state: str) -> None:
    """Stack state: map;x;y;id...;@@layer. Its pieces leave whatever stack they were in."""
    st = decode(state, ";")
    xy = _coordinates(st[1:3]) if len(st) >= 3 else None
    if xy is None:
        r.warn(f"stack {pid} without a position is skipped")
        return
    x, y = xy
    s = r.stacks[pid] = _Stack(pid, st[0] or None, x, y, [])
    pieces = r.pieces
    for i in st[3:]:
        p = pieces.get(i)
        if p is not None:
            if p.stack is not None:
                r.detach(i)
            p.stack = pid
            s.ids.append(i)


def _remove_piece(r: _Reader, cmd: str) -> None:
    pid = cmd[2:]
    if pid in r.stacks:
        for i in r.stacks.pop(pid).ids:
            if i in r.pieces:
                r.pieces[i].stack = None
        return
    p = r.pieces.get(pid)
    if p is None:
        r.warn(f"RemovePiece of unknown piece {pid}")
        return
    r.detach(pid)
    del r.pieces[pid]
    r.events.append(Removed(p.counter, r.where_of(p)))


def _change_piece(r: _Reader, cmd: str) -> None:
    toks = decode(cmd[2:], "/")
    if len(toks) < 2:
        r.warn("a ChangePiece command without a state is skipped")
        return
    pid, new = toks[0], toks[1]
    if pid in r.stacks:
        return                              # a stack's expanded/layer state: nothing for the record
    p = r.pieces.get(pid)
    if p is None:
        r.warn(f"ChangePiece of unknown piece {pid}")
        return
    try:
        traits = decode_piece(p.type, new, strict=False)
    except (ValueError, IndexError) as e:
        r.warn(f"new state of piece {pid} cannot be decoded ({e}); skipped")
        return
    old = p.counter
    p.counter = _counter(pid, traits)
    if p.counter.state != old.state or p.counter.unit != old.unit:
        r.events.append(StateChanged(p.counter, old.state, r.where_of(p)))


def _move_piece(r: _Reader, cmd: str) -> None:
    """MovePiece: id/newMap/newX/newY/newUnderId/oldMap/oldX/oldY/oldUnderId/playerId. A Stack's id
    moves every piece in it; `newUnderId` is the piece it was dropped onto (it joins that stack)."""
    t = decode(cmd[2:], "/")
    if len(t) < 9:
        r.warn("a MovePiece command with fewer than 9 fields is skipped")
        return
    xy = _coordinates([t[2], t[3], t[6], t[7]])
    if xy is None:
        r.warn("a MovePiece command with a non-numeric position is skipped")
        return
    nx, ny, ox, oy = xy
    if len(t) > 9 and t[9]:
        mover = r.label(t[9])              # the password itself goes no further
        r.mover = r.mover or mover
    pid, new_map, under = t[0], t[1] if t[1] != "null" else None, t[4] if t[4] not in ("null", "") else None
    where = r.geometry.where
    src, dst = where(t[5] if t[5] != "null" else None, ox, oy), where(new_map, nx, ny)
    if pid in r.stacks:
        moving = _move_stack(r, r.stacks[pid], new_map, nx, ny, under)
    else:
        p = r.pieces.get(pid)
        if p is None:
            r.warn(f"MovePiece of unknown piece {pid}")
            return
        if p.stack is not None:
            r.detach(pid)
        if under is not None:
            _join_stack_of(r, p, under)
        moving = (p,)
    for p in moving:
        p.map, p.x, p.y = new_map, nx, ny
        r.events.append(Moved(p.counter, src, dst, under))


def _join_stack_of(r: _Reader, p: _Piece, under: str) -> None:
    """A piece dropped onto `under` goes right above it in under's stack."""
    u = r.pieces.get(under)
    s = r.stacks.get(u.stack) if u is not None and u.stack is not None else None
    if s is not None:
        s.ids.insert(s.ids.index(under) + 1 if under in s.ids else len(s.ids), p.id)
        p.stack = s.id


def _move_stack(r: _Reader, s: _Stack, new_map: Optional[str], x: int, y: int, under: Optional[str]) -> list[_Piece]:
    """The pieces of a moved Stack; dropped onto another stack, they join it and this one goes."""
    s.map, s.x, s.y = new_map, x, y
    moving = [r.pieces[i] for i in s.ids if i in r.pieces]
    u = r.pieces.get(under) if under is not None else None
    if u is not None and u.stack not in (None, s.id) and u.stack in r.stacks:
        target = r.stacks[u.stack]
        del r.stacks[s.id]
        for p in moving:
            p.stack = target.id
            target.ids.append(p.id)
    return moving


_DICE_REPORT = re.compile(r"^\*+ ?(?P<name>\S.*?) = (?P<result>-?\d+(?:\s*,\s*-?\d+)*) \*+ <(?P<player>[^>]*)>\s*$")
_PLAYER_CHAT = re.compile(r"^<(?P<player>[^>]*)> - (?P<text>.*)$", re.S)
_DICE_NAME = re.compile(r"^(\d+)d(\d+)$")
# the longest report a roll within the bounds gives ("*** <name> = <faces> *** <player>"); a longer
# line is chat that merely holds " = ", and is not matched against the report's pattern
_MAX_REPORT_CHARS = 3 * limits.MAX_NAME_CHARS + (limits.MAX_NUMBER_CHARS + 3) * limits.MAX_DICE


def _dice_shape(r: _Reader, name: str) -> tuple[int, int]:
    """(count, sides) of a dice button: the tree's dice of that name, else read from "NdS"."""
    shape = r.dice.get(name)
    if shape is None:
        shape = next(((d.count, d.sides) for d in getattr(r.game, "dice", ()) or () if d.name == name), None)
        problem = limits.dice_problem(name, *(shape or ()))
        if problem:
            raise ReadError(problem)
        if shape is None:
            m = _DICE_NAME.match(name)
            shape = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
        r.dice[name] = shape
    return shape


def _roll(r: _Reader, name: str, faces: tuple[int, ...], total: Optional[int]) -> None:
    """One DieRoll per button press and step: the chat report makes it, the button's properties
    (`<name>_result`, `_total`) confirm or refine it. In an undo the properties are set back to what
    they were before the roll: that is no roll."""
    if r.undo:
        return
    problem = limits.faces_problem(faces, total)
    if problem:
        raise ReadError(f"die button {name[:limits.MAX_NAME_CHARS]!r}: {problem}")
    at = r.rolls.get(name)
    if at is not None:
        prev = r.events[at]
        if prev.faces == faces and (total is None or prev.total == total):
            return
        if total is None and prev.faces == faces:
            total = prev.total
    n, sides = _dice_shape(r, name)
    ev = DieRoll(name, faces, sum(faces) if total is None else total, n, sides)
    if at is not None:
        r.events[at] = ev
    else:
        r.rolls[name] = len(r.events)
        r.events.append(ev)


def _faces(text: str) -> Optional[tuple[int, ...]]:
    """The faces a die report or a `_result` property lists; None if it lists no numbers. Bounded before
    it is split: a roll has at most MAX_DICE faces of at most MAX_NUMBER_CHARS digits each."""
    if text.count(",") >= limits.MAX_DICE or len(text) > (limits.MAX_NUMBER_CHARS + 2) * limits.MAX_DICE:
        raise ReadError(f"a roll of {text.count(',') + 1} faces in {len(text)} characters; a roll has at most "
                        f"{limits.MAX_DICE} dice, of at most {limits.MAX_NUMBER_CHARS} digits each")
    try:
        return tuple(int(x) for x in text.split(","))
    except ValueError:
        return None


def _chat(r: _Reader, cmd: str) -> None:
    if cmd.startswith("CHAT*"):
        # VASSAL's own reports ("* ... moves ... *", turn changes, undo) say what the commands say;
        # only a dice report ("*** 2d6 = 6,1 *** <name>") is read
        if cmd.startswith(_UNDO_ECHO):
            _undo_echo(r)
        elif " = " in cmd and len(cmd) <= _MAX_REPORT_CHARS:
            m = _DICE_REPORT.match(_unescape_html(cmd[4:]))
            faces = _faces(m.group("result")) if m else None
            if faces is not None:
                _roll(r, m.group("name"), faces, None)
        return
    if len(cmd) - 4 > limits.MAX_TEXT_CHARS:
        raise ReadError(f"a chat line of {len(cmd) - 4} characters; a chat line is at most {limits.MAX_TEXT_CHARS}")
    text = _unescape_html(cmd[4:])
    m = _PLAYER_CHAT.match(text)
    r.events.append(Chat(m.group("text"), m.group("player") or None) if m else Chat(text))


_UNDO_ECHO = "CHAT* UNDO: "                  # Chatter.DisplayText's undo: its message again, after this prefix


def _undo_echo(r: _Reader) -> None:
    """A report's undo echo ("* UNDO: *** 1d6 = 3 *** <name>"): the step undoes an earlier one. A log
    written before VASSAL 3.6.7 has no UNDO group to say so, and the die properties it set back before
    the echo were read as a roll: they are none."""
    if not r.undo:
        r.undo = True
        r.events = [e for e in r.events if not isinstance(e, DieRoll)]
        r.rolls = {}


def _unescape_html(text: str) -> str:
    if "&" not in text:
        return text
    import html                                # only chat lines with entities need it
    return html.unescape(text)


def _mutable_property(r: _Reader, cmd: str) -> None:
    """ChangePropertyCommand: MutableProperty TAB key TAB old TAB new TAB container."""
    t = decode(cmd[len("MutableProperty\t"):], "\t")
    if len(t) < 3:
        return
    key, value = t[0], t[2]
    if key.endswith("_result"):
        faces = _faces(value)
        if faces is not None:
            _roll(r, key[:-len("_result")], faces, None)
    elif (key.endswith("_total") and key[:-len("_total")] in r.rolls and value.lstrip("-").isdigit()
          and len(value) <= limits.MAX_NUMBER_CHARS):
        name = key[:-len("_total")]
        _roll(r, name, r.events[r.rolls[name]].faces, int(value))


def _turn(r: _Reader, cmd: str) -> None:
    t = decode(cmd, "\t")
    if len(t) < 2:
        return
    r.turn = _turn_of(r, t[0][len("TURN"):], t[1])
    if r.step is not None:
        r.events.append(r.turn)


def _turn_of(r: _Reader, tracker: str, state: str) -> TurnChanged:
    """TurnTracker.getState: currentLevel | level states; ListTurnLevel state: current;currentSubLevel;
    first;active...;sub-level states. Level 1 is the turn, its first sub-level (if any) the phase."""
    levels = decode(state, "|")
    if len(levels) < 2:
        return TurnChanged(None)
    turn_state = decode(levels[1], ";")
    ti = _int(turn_state[0]) if turn_state else 0
    pi = None
    if len(turn_state) > 4 and turn_state[4]:
        sub = decode(turn_state[4], ";")
        pi = _int(sub[0]) if sub else None
    tl = r.turn_lists.get(tracker)
    label = _at(tl.turns, ti) if tl else None
    phase_label = _at(tl.phases, pi) if tl and pi is not None else None
    turn = _tree_turn(r.game, label, ti)
    phase = None
    if pi is not None:
        phases = getattr(r.game, "phases", ()) or ()
        phase = phases[pi].id if 0 <= pi < len(phases) else phase_label
    printed = None
    if label is not None:
        printed = (tl.format.replace("$level1$", label).replace("$level2$", phase_label or "").strip())
    return TurnChanged(turn, phase, printed)


def _at(items: list[str], i: int) -> Optional[str]:
    return items[i] if 0 <= i < len(items) else None


def _tree_turn(game, label: Optional[str], index: int) -> Optional[str]:
    """The tree's turn id: the turn whose module label is `label`, else the turn at that position."""
    turns = getattr(game, "turns", ()) or ()
    if turns and label is not None:
        from .labels import turn_label           # the module's label for a turn
        for t in turns:
            if turn_label(t) == label:
                return t.id
    if 0 <= index < len(turns):
        return turns[index].id
    return label if label is not None else str(index + 1)


def _player(r: _Reader, cmd: str) -> None:
    t = decode(cmd[len("PLAYER\t"):], "\t")
    password, side = t[0] if t else "", t[2] if len(t) > 2 else ""
    if not password:
        return
    sid = None
    for s in getattr(r.game, "sides", ()) or ():
        if side in (s.id, s.name):
            sid = s.id
    if sid or side:
        old = r.players.get(password)
        r.players[password] = sid or side
        if old in r.labels:
            r.labels.remove(old)
        if r.players[password] not in r.labels:
            r.labels.append(r.players[password])
    else:
        r.label(password)


def _undo(r: _Reader, cmd: str) -> None:
    if cmd.endswith("true"):
        r.undo = True


def _board_picker(r: _Reader, cmd: str) -> None:
    try:
        head, layout = parse_board_setup(cmd)
    except (ValueError, IndexError):
        r.warn("a board layout that cannot be read is ignored")
        return
    r.geometry.set_layout(head[:-len("BoardPicker")], layout)


_HANDLERS: dict[str, tuple[str, Callable[[_Reader, str], None]]] = {
    # first two characters -> (the full prefix, handler): one dict look-up per command
    "M/": ("M/", _move_piece), "+/": ("+/", _add_piece), "-/": ("-/", _remove_piece),
    "D/": ("D/", _change_piece), "CH": ("CHAT", _chat), "Mu": ("MutableProperty\t", _mutable_property),
    "TU": ("TURN", _turn), "PL": ("PLAYER\t", _player), "UN": ("UNDO\t", _undo),
}
_BOARD_PICKER = re.compile(r"^[^\t]*BoardPicker\t")


def _run(r: _Reader, cmds: list[str]) -> None:
    handlers = _HANDLERS
    for cmd in cmds:
        h = handlers.get(cmd[:2])
        if h is not None and cmd.startswith(h[0]):
            h[1](r, cmd)
        elif _BOARD_PICKER.match(cmd):
            _board_picker(r, cmd)


# -- the record ---------------------------------------------------------------------------------------

def _metadata(archive: Archive, warnings: list[str]) -> tuple[Optional[str], Optional[str]]:
    """(module "name version" from moduledata, engine "VASSAL x.y.z" from savedata, else moduledata).
    XML with a DOCTYPE or entities is refused (never resolved) and reported as a warning."""
    found: dict[str, etree._Element] = {}
    for entry in ("moduledata", "savedata"):
        if not archive.has(entry):
            continue
        try:
            found[entry] = parse_xml(archive.read(entry))
        except ReadError as e:
            warnings.append(f"{entry} ignored: {e}")
        except (etree.XMLSyntaxError, ValueError) as e:
            warnings.append(f"{entry} ignored: not readable XML ({e})")
    module = engine = None
    if "moduledata" in found:
        name, version = found["moduledata"].findtext("name"), found["moduledata"].findtext("version")
        module = f"{name} {version}" if name and version else name
    for entry in ("savedata", "moduledata"):
        vv = found[entry].findtext("VassalVersion") if entry in found else None
        if vv:
            engine = f"VASSAL {vv}"
            break
    return module, engine


@dataclass(frozen=True)
class _TrackerLevels:
    format: str                              # the tracker's turnFormat ("Turn $level1$")
    turns: list[str]
    phases: list[str]


def _turn_lists(module: Optional[Module]) -> dict[str, _TrackerLevels]:
    """Tracker id -> its turn labels and phase labels (first sub-level), from the module's TurnTrackers
    (VASSAL ids them TurnTracker0, TurnTracker1, ... in build order)."""
    if module is None:
        return {}
    P = "VASSAL.build.module.turn."
    out = {}
    for i, tt in enumerate(module.root.iter(P + "TurnTracker")):
        level = tt.find(P + "ListTurnLevel")
        if level is None:
            continue
        sub = level.find(P + "ListTurnLevel")
        out[f"TurnTracker{i}"] = _TrackerLevels(
            tt.get("turnFormat", "$level1$ $level2$ $level3$ $level4$"), decode(level.get("list", ""), ","),
            decode(sub.get("list", ""), ",") if sub is not None else [])
    return out


def read_log(path, module=None, game=None) -> GameRecord:
    """A `.vlog` (or `.vsav`, no steps) as a GameRecord. `module`: the .vmod path (or a read Module) the
    log was played with, for hexes; `game`: the validator.source.model.Game, for turn/phase ids and dice.
    Raises LogReadError (located) for anything unreadable."""
    file = str(path)
    try:
        mod = module if isinstance(module, Module) or module is None else read_module(module)
    except (ReadError, OSError) as e:
        raise LogReadError(str(module), f"cannot read the module: {e}") from None
    except Exception as e:
        raise LogReadError(str(module), f"cannot read the module ({type(e).__name__}: {e})") from None
    try:
        archive = Archive(Path(path))
    except OSError as e:
        raise LogReadError(file, f"cannot read: {e.strerror or e}") from None
    except ReadError as e:
        if str(e).startswith("not a zip archive"):
            raise LogReadError(file, f"not a readable zip archive: truncated, or not a VASSAL log ({e})") from None
        raise LogReadError(file, f"refused: {e}") from None
    warnings: list[str] = []
    module_name, engine = _metadata(archive, warnings)
    if mod is None:
        warnings.append("no module given: places are map names and pixels, not hexes")
    r = _Reader(file, Geometry(mod), game, turn_lists=_turn_lists(mod), warnings=warnings)
    try:
        steps = _read_stream(r, archive)
    except LogReadError:
        raise
    except ReadError as e:
        raise LogReadError(file, str(e), r.step) from None
    except RecursionError:
        raise LogReadError(file, "commands nested too deeply", r.step) from None
    start, steps_ = steps
    return GameRecord(file, module_name, engine, start, r.turn_start.turn if r.turn_start else None,
                      r.turn_start.phase if r.turn_start else None, tuple(steps_), tuple(r.labels),
                      tuple(r.warnings))


def _read_stream(r: _Reader, archive: Archive) -> tuple[Position, list[Step]]:
    tokens = saved_game_tokens(archive)
    for tok in tokens:
        if tok == "end_save":
            break
        _run(r, commands(tok))
    r.turn_start = r.turn
    r.step = 1
    start = Position.of((p.counter, r.where_of(p)) for p in _stacking_order(r))
    steps: list[Step] = []
    handlers = _HANDLERS
    events = 0
    for tok in tokens:
        if not tok:
            continue                       # an empty token (NullCommand) is not a step VASSAL replays
        n = len(steps) + 1
        if n > limits.MAX_STEPS:
            raise ReadError(f"more than {limits.MAX_STEPS} steps: a log is at most {limits.MAX_STEPS} steps")
        r.step, r.events, r.undo, r.mover = n, [], False, None
        if r.rolls:
            r.rolls = {}
        for cmd in commands(tok):                # _run, inlined: this loop runs once per command
            h = handlers.get(cmd[:2])
            if h is not None and cmd.startswith(h[0]):
                h[1](r, cmd)
            elif _BOARD_PICKER.match(cmd):
                _board_picker(r, cmd)
        events += len(r.events)
        if events > limits.MAX_EVENTS:
            raise ReadError(f"more than {limits.MAX_EVENTS} events: a log holds at most {limits.MAX_EVENTS}")
        steps.append(Step(n, tuple(r.events), r.undo, r.mover))
        r.step = n + 1                       # an error reading the next token is in the next step
    return start, steps


def _stacking_order(r: _Reader) -> list[_Piece]:
    """Pieces bottom first within each stack, as the restored stacks list them."""
    seen: set[str] = set()
    out: list[_Piece] = []
    for s in r.stacks.values():
        for i in s.ids:
            if i in r.pieces and i not in seen:
                seen.add(i)
                out.append(r.pieces[i])
    out += [p for pid, p in r.pieces.items() if pid not in seen]
    return out
