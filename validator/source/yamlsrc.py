"""YAML reading that remembers where every value came from and refuses duplicate keys.

PyYAML's C parser composes the node tree; we build plain values from it ourselves so that each
mapping and sequence carries its position (`LocMap.loc`, `LocMap.keylocs[key]`,
`LocList.itemlocs[i]`). Scalars keep YAML's safe meanings except timestamps, which stay strings:
dates and times in a rulebook are printed text.
"""
from __future__ import annotations

import re
from typing import Optional

import yaml

from .located import LocList, LocMap
from .model import Loc

try:  # the C parser is the fast path; the pure-Python one only where libyaml is missing
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover
    from yaml import SafeLoader as _Loader  # type: ignore

MAX_FILE_BYTES = 16 * 1024 * 1024

_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_SCALARS = yaml.constructor.SafeConstructor()


class SourceError(Exception):
    """A file that cannot be read as YAML: code, message, location and help."""

    def __init__(self, code: str, message: str, loc: Loc, help: Optional[str] = None):
        super().__init__(message)
        self.code, self.message, self.loc, self.help = code, message, loc, help


class _Composer(_Loader):
    """The parser with a quicker implicit-tag resolver (called for every scalar, a third of parsing).

    Safe YAML has no path resolvers, so a plain scalar's tag depends only on its text, and a quoted
    one is always a string: short plain texts repeat across a tree and are looked up once.
    """
    _tags: dict[str, str] = {}

    def resolve(self, kind, value, implicit):
        if kind is not yaml.ScalarNode:
            return super().resolve(kind, value, implicit)
        if not implicit[0]:
            return _STR
        tag = self._tags.get(value)
        if tag is None:
            tag = super().resolve(kind, value, implicit)
            if len(value) <= 64 and len(self._tags) < 50_000:
                self._tags[value] = tag
        return tag


def _loc(file: str, mark) -> Loc:
    return Loc(file, mark.line + 1, mark.column + 1) if mark is not None else Loc(file)


MAX_NODES = 2_000_000  # aliases can make a small file expand enormously ("billion laughs")

_ScalarNode, _SequenceNode, _MappingNode = yaml.ScalarNode, yaml.SequenceNode, yaml.MappingNode


# What an escape in a double-quoted string can produce but no printed text holds, and XML 1.0 (the
# VASSAL build file) cannot carry: C0/C1 controls but tab and newline, surrogates, non-characters.
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff"
                        "\U0001fffe\U0001ffff\U0010fffe\U0010ffff]")


class _ForbiddenCharacter(Exception):
    def __init__(self, node, char: str):
        super().__init__(char)
        self.mark, self.char = node.start_mark, char


def _text(node) -> str:
    v = node.value
    if node.style == '"':      # only an escape can bring such a character in: the reader refuses raw ones
        bad = _FORBIDDEN.search(v)
        if bad:
            raise _ForbiddenCharacter(node, bad.group())
    return v


class _NumberTooLong(Exception):
    def __init__(self, node):
        super().__init__(node.value[:20])
        self.mark, self.length = node.start_mark, len(node.value)


def _scalar(node):
    tag = node.tag
    if tag == _STR:
        return node.value if node.style != '"' else _text(node)  # most scalars: no call for plain text
    if tag == _INT:
        try:
            return _SCALARS.construct_yaml_int(node)
        except ValueError:                 # more digits than Python turns into an int (4300)
            raise _NumberTooLong(node) from None
    if tag == _FLOAT:
        return _SCALARS.construct_yaml_float(node)
    if tag == _BOOL:
        return _SCALARS.construct_yaml_bool(node)
    if tag == _NULL:
        return None
    return _text(node)  # timestamps and anything else: the text as written


def _build(node, file: str, budget: list):
    """Plain values from a composed node tree; positions kept as YAML marks (see LocMap)."""
    budget[0] -= 1
    if budget[0] < 0:
        raise SourceError("HF006", f"document expands to more than {MAX_NODES} values (alias bomb?)",
                          _loc(file, node.start_mark), "remove the recursive or repeated aliases")
    cls = type(node)
    if cls is _ScalarNode:
        return _scalar(node)
    if cls is _SequenceNode:
        out = LocList()
        marks = []
        for n in node.value:
            out.append(_scalar(n) if type(n) is _ScalarNode else _build(n, file, budget))
            marks.append(n.start_mark)
        budget[0] -= len(marks)
        out.file, out.pos, out.itemlocs = file, (node.start_mark.line + 1, node.start_mark.column + 1), marks
        return out
    if cls is _MappingNode:
        out = LocMap()
        keylocs = {}
        out.file, out.pos, out.keylocs = file, (node.start_mark.line + 1, node.start_mark.column + 1), keylocs
        for knode, vnode in node.value:
            if type(knode) is not _ScalarNode:
                raise SourceError("HF002", "mapping keys must be plain scalars", _loc(file, knode.start_mark))
            key = _scalar(knode)
            if key in keylocs:
                first = out.at(key)
                raise SourceError(
                    "HF002", f"duplicate key {key!r} (first at line {first.line})",
                    _loc(file, knode.start_mark),
                    "YAML would silently keep only the last value; remove or rename one of them")
            out[key] = _scalar(vnode) if type(vnode) is _ScalarNode else _build(vnode, file, budget)
            keylocs[key] = vnode.start_mark
        budget[0] -= len(keylocs)
        return out
    raise SourceError("HF001", f"unsupported YAML node {node.tag}", _loc(file, node.start_mark))


def _forbidden(file: str, loc: Loc, char: str) -> SourceError:
    return SourceError("HF007", f"text holds U+{ord(char[:1] or ' '):04X}, a control or non-character "
                       "code point that no printed text has", loc,
                       "remove the character (an escape such as \\x01 or \\u001b); write the text as printed")


def _syntax_error(e: yaml.YAMLError, text: str, file: str) -> SourceError:
    """What PyYAML's parser raised, located."""
    if isinstance(e, yaml.reader.ReaderError):     # a raw control character in the text
        line = text.count("\n", 0, e.position) + 1
        col = e.position - (text.rfind("\n", 0, e.position) + 1) + 1
        return _forbidden(file, Loc(file, line, col), chr(e.character) if isinstance(e.character, int)
                          else str(e.character))
    if isinstance(e, yaml.MarkedYAMLError):
        mark = e.problem_mark or e.context_mark
        msg = " ".join(x for x in (e.context, e.problem) if x) or "invalid YAML"
        return SourceError("HF001", f"YAML syntax: {msg}", _loc(file, mark), "fix the YAML syntax at this position")
    return SourceError("HF001", f"YAML syntax: {e}", Loc(file, 1, 1), "fix the YAML syntax")


def load_text(data: bytes, file: str):
    """Parse one YAML document from bytes; raise SourceError with a location on any problem."""
    if len(data) > MAX_FILE_BYTES:
        raise SourceError("HF006", f"file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB", Loc(file),
                          "source files are small YAML documents; is this the right file?")
    if b"\x00" in data:
        raise SourceError("HF006", "file contains NUL bytes: not a YAML text file", Loc(file, 1, 1),
                          "source files must be UTF-8 text")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise SourceError("HF006", "file is not valid UTF-8", Loc(file, line, col),
                          "save the file as UTF-8") from None
    try:
        loader = _Composer(text)
        try:
            node = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.YAMLError as e:
        raise _syntax_error(e, text, file) from None
    if node is None:
        raise SourceError("HF003", "file is empty", Loc(file, 1, 1),
                          "give the file its content or delete it")
    try:
        value = _build(node, file, [MAX_NODES])
    except _ForbiddenCharacter as e:
        raise _forbidden(file, _loc(file, e.mark), e.char) from None
    except _NumberTooLong as e:
        raise SourceError("HF006", f"a number of {e.length} characters, more digits than can be read",
                          _loc(file, e.mark), "no printed value has so many digits; is this the right file?") from None
    except RecursionError:
        raise SourceError("HF001", "YAML nested too deeply", Loc(file, 1, 1)) from None
    if value is None:  # `null` or `~` alone: no data, as good as empty (callers take None as unreadable)
        raise SourceError("HF003", "file holds only a null value", _loc(file, node.start_mark),
                          "give the file its content or delete it")
    return value


class EventReader:
    """One YAML document read event by event (PyYAML's C parser), so that a long file is never held as
    one node tree: a caller walks the top levels with `enter`, `keys` and `items` and builds each entry
    with `value` (the same values and positions `load_text` gives), within a budget of values per entry.
    Numbers longer than `max_number_chars` and nesting deeper than `max_depth` are located errors."""

    def __init__(self, text: str, file: str, max_number_chars: int = 18, max_depth: int = 32):
        self.file, self.max_number_chars, self.max_depth = file, max_number_chars, max_depth
        self._text = text
        self._parser = _Composer(text)
        self._anchors: dict = {}

    def close(self) -> None:
        self._parser.dispose()

    def _event(self, peek: bool = False):
        try:
            return self._parser.peek_event() if peek else self._parser.get_event()
        except yaml.YAMLError as e:
            raise _syntax_error(e, self._text, self.file) from None

    def syntax_error(self) -> Optional[SourceError]:
        """The first syntax error in the rest of the document, if any: a reader that stops at an error in the
        values reports a broken file as broken, as `load_text` (which parses the whole file first) does."""
        try:
            while not isinstance(self._parser.get_event(), yaml.StreamEndEvent):
                pass
        except yaml.YAMLError as e:
            return _syntax_error(e, self._text, self.file)
        return None

    def loc(self) -> Loc:
        """Where the next value starts."""
        return _loc(self.file, self._event(peek=True).start_mark)

    def start(self) -> Loc:
        """Past the stream's and the document's start; where the document's value starts."""
        self._event()
        if isinstance(self._event(peek=True), yaml.StreamEndEvent):
            raise SourceError("HF003", "file is empty", Loc(self.file, 1, 1), "give the file its content or delete it")
        self._event()
        if isinstance(self._event(peek=True), yaml.DocumentEndEvent):
            raise SourceError("HF003", "file is empty", Loc(self.file, 1, 1), "give the file its content or delete it")
        return self.loc()

    def kind(self) -> str:
        """What the next value is: "mapping", "sequence", "alias" or "scalar"."""
        ev = self._event(peek=True)
        return {yaml.MappingStartEvent: "mapping", yaml.SequenceStartEvent: "sequence",
                yaml.AliasEvent: "alias"}.get(type(ev), "scalar")

    def enter(self) -> None:
        """Into the mapping or sequence that comes next (it is walked, not built: no alias may name it)."""
        self._event()

    def keys(self):
        """The keys of the mapping entered, with where each one's value starts; the caller reads each value."""
        seen: dict = {}
        while not isinstance(self._event(peek=True), yaml.MappingEndEvent):
            yield self._key(seen), self.loc()
        self._event()

    def _key(self, seen: dict):
        """The next key of a mapping: a plain scalar its mapping has not had yet (`seen`: key -> its line)."""
        knode = self._event()
        if not isinstance(knode, yaml.ScalarEvent):
            raise SourceError("HF002", "mapping keys must be plain scalars", _loc(self.file, knode.start_mark))
        key = self._scalar(knode)
        if key in seen:
            raise SourceError("HF002", f"duplicate key {key!r} (first at line {seen[key]})",
                              _loc(self.file, knode.start_mark),
                              "YAML would silently keep only the last value; remove or rename one of them")
        seen[key] = knode.start_mark.line + 1
        return key

    def items(self):
        """Where each item of the sequence entered starts; the caller reads each item."""
        while not isinstance(self._event(peek=True), yaml.SequenceEndEvent):
            yield self.loc()
        self._event()

    def value(self, budget: int, what: str, help: Optional[str] = None):
        """The next value, built whole; more than `budget` values in it is a located error naming `what`."""
        left = [budget]
        at = self.loc()
        try:
            return self._value(left, 0)
        except _OverBudget:
            raise SourceError("HF006", f"{what} holds more than {budget} values (scalars, lists and mappings)",
                              at, help) from None
        except _ForbiddenCharacter as e:
            raise _forbidden(self.file, _loc(self.file, e.mark), e.char) from None

    def _value(self, left: list, depth: int):
        ev = self._event()
        if isinstance(ev, yaml.AliasEvent):
            if ev.anchor not in self._anchors:
                raise SourceError("HF001", f"YAML syntax: found undefined alias {ev.anchor!r}",
                                  _loc(self.file, ev.start_mark), "define the anchor (&name) before the alias")
            return self._anchors[ev.anchor]
        left[0] -= 1
        if left[0] < 0:
            raise _OverBudget()
        if depth > self.max_depth:
            raise SourceError("HF001", f"YAML nested more than {self.max_depth} deep", _loc(self.file, ev.start_mark))
        if isinstance(ev, yaml.ScalarEvent):
            out = self._scalar(ev)
        elif isinstance(ev, yaml.SequenceStartEvent):
            out = self._sequence(ev, left, depth)
        elif isinstance(ev, yaml.MappingStartEvent):
            out = self._mapping(ev, left, depth)
        else:
            raise SourceError("HF001", f"unexpected YAML {type(ev).__name__}", _loc(self.file, ev.start_mark))
        if ev.anchor:
            self._anchors[ev.anchor] = out
        return out

    def _sequence(self, ev, left: list, depth: int) -> LocList:
        out, marks = LocList(), []
        out.file, out.pos, out.itemlocs = self.file, (ev.start_mark.line + 1, ev.start_mark.column + 1), marks
        while not isinstance(self._event(peek=True), yaml.SequenceEndEvent):
            marks.append(self._event(peek=True).start_mark)
            out.append(self._value(left, depth + 1))
        self._event()
        return out

    def _mapping(self, ev, left: list, depth: int) -> LocMap:
        out, keylocs, seen = LocMap(), {}, {}
        out.file, out.pos, out.keylocs = self.file, (ev.start_mark.line + 1, ev.start_mark.column + 1), keylocs
        while not isinstance(self._event(peek=True), yaml.MappingEndEvent):
            key = self._key(seen)
            keylocs[key] = self._event(peek=True).start_mark
            out[key] = self._value(left, depth + 1)
        self._event()
        return out

    def _scalar(self, ev):
        tag = ev.tag
        if tag is None or tag == "!":
            tag = self._parser.resolve(yaml.ScalarNode, ev.value, ev.implicit)
        if tag == _INT and len(ev.value) > self.max_number_chars:
            raise SourceError("HF006", f"a number of {len(ev.value)} characters; a number here has at most "
                              f"{self.max_number_chars} digits", _loc(self.file, ev.start_mark),
                              "write the number as it was rolled or counted")
        return _scalar(yaml.ScalarNode(tag, ev.value, ev.start_mark, ev.end_mark, ev.style))


class _OverBudget(Exception):
    pass
