"""The typed game model as plain values (marshal: lists, strings, numbers), and back: how a loaded tree is kept
between runs (compiler/game_cache.py) without pickle, so that reading a kept tree can never run code.

Each object becomes a list whose first item says what it is: a tuple, list, dict or frozenset of values, a
model object (the index of its class in a table of names, then its fields in order), one of the loader's
located containers (`LocMap`, `LocList`: their file and positions, then their items), a Fraction, a compiled
pattern. An object met twice is one list met twice, which marshal writes once, so the model's sharing (the
game's look-up tables point into its tuples) comes back as it was. Reading it back builds only the classes
of `ALLOWED_MODULES` that are dataclasses, by name: a name outside that table makes the entry no entry.
Reading is about as fast as unpickling (Aachen's model: 1.5 ms against 1.2 ms).
"""
from __future__ import annotations

import dataclasses
import marshal
import re
import types
from fractions import Fraction
from typing import Callable

from validator.source.located import LocList, LocMap, _positions

ALLOWED_MODULES = ("validator.source.model", "validator.geometry.hexgrid")
FORMAT = 1

_TUPLE, _LIST, _DICT, _FROZENSET, _OBJECT, _LOCMAP, _LOCLIST, _FRACTION, _PATTERN = range(9)
_SCALARS = (str, int, float, bool, type(None))


class _Encoder:
    def __init__(self) -> None:
        self.memo: dict[int, list] = {}
        self.classes: dict[type, int] = {}
        self.alive: list = []                   # what is encoded stays alive, so no id() is reused

    def value(self, v):
        if type(v) in _SCALARS:
            return v
        out = self.memo.get(id(v))
        if out is None:
            out = self.memo[id(v)] = self._node(v)
            self.alive.append(v)
        return out

    def _node(self, v) -> list:
        t, enc = type(v), self.value
        if t is tuple or t is list or t is frozenset:
            return [{tuple: _TUPLE, list: _LIST, frozenset: _FROZENSET}[t], *map(enc, v)]
        if t is dict:
            return [_DICT, *(x for k, item in v.items() for x in (enc(k), enc(item)))]
        if t is LocMap:
            return [_LOCMAP, v.file, enc(v.pos), enc(_positions(v.keylocs)),
                    *(x for k, item in v.items() for x in (enc(k), enc(item)))]
        if t is LocList:
            return [_LOCLIST, v.file, enc(v.pos), enc(_positions(v.itemlocs)), *map(enc, v)]
        if t is Fraction:
            return [_FRACTION, v.numerator, v.denominator]
        if t is re.Pattern:
            return [_PATTERN, v.pattern, v.flags]
        if dataclasses.is_dataclass(v) and t.__module__ in ALLOWED_MODULES:
            index = self.classes.setdefault(t, len(self.classes))
            return [_OBJECT, index, *(enc(getattr(v, f.name)) for f in dataclasses.fields(v))]
        raise TypeError(f"a kept model holds no {t.__module__}.{t.__qualname__}")


def to_bytes(game) -> bytes:
    """The model as marshal bytes of plain values; TypeError if it holds what cannot be kept so."""
    enc = _Encoder()
    root = enc.value(game)
    names = [(c.__module__, c.__qualname__) for c in enc.classes]
    return marshal.dumps((FORMAT, names, root))


def _setters(cls) -> tuple[Callable, ...]:
    """How each field is set on an object made without __init__ (frozen: through the slot, or object's)."""
    out = []
    for f in dataclasses.fields(cls):
        slot = cls.__dict__.get(f.name)
        if isinstance(slot, types.MemberDescriptorType):
            out.append(slot.__set__)
        else:
            out.append(lambda obj, value, name=f.name: object.__setattr__(obj, name, value))
    return tuple(out)


def _allowed() -> dict[tuple[str, str], type]:
    import importlib
    out = {}
    for name in ALLOWED_MODULES:
        for v in vars(importlib.import_module(name)).values():
            if isinstance(v, type) and dataclasses.is_dataclass(v) and v.__module__ == name:
                out[(name, v.__qualname__)] = v
    return out


def from_bytes(data: bytes):
    """The model back from `to_bytes`'s bytes; ValueError if they are not such bytes."""
    try:
        fmt, names, root = marshal.loads(data)
    except (ValueError, EOFError, TypeError) as e:
        raise ValueError(f"not a kept model: {e}") from None
    if fmt != FORMAT:
        raise ValueError(f"kept model format {fmt!r}")
    allowed = _allowed()
    try:
        classes = [(allowed[(m, q)], _setters(allowed[(m, q)])) for m, q in names]
    except (KeyError, TypeError, ValueError):
        raise ValueError("a kept model names a class it may not hold") from None
    try:
        return _Decoder(classes).value(root)
    except (IndexError, KeyError, TypeError, ValueError, AttributeError, RecursionError) as e:
        raise ValueError(f"a damaged kept model ({type(e).__name__})") from None


class _Decoder:
    def __init__(self, classes: list) -> None:
        self.classes = classes
        self.memo: dict[int, object] = {}

    def value(self, node):
        if type(node) is not list:
            return node
        out = self.memo.get(id(node))
        if out is None:
            out = self.memo[id(node)] = self._object(node)
        return out

    def _object(self, node: list):
        tag, dec = node[0], self.value
        if tag == _OBJECT:
            cls, setters = self.classes[node[1]]
            obj = object.__new__(cls)
            for put, item in zip(setters, node[2:], strict=True):
                put(obj, dec(item))
            return obj
        if tag in (_TUPLE, _LIST, _FROZENSET):
            items = [dec(x) for x in node[1:]]
            return tuple(items) if tag == _TUPLE else (items if tag == _LIST else frozenset(items))
        if tag == _DICT:
            pairs = iter(node[1:])
            return {dec(k): dec(v) for k, v in zip(pairs, pairs)}
        if tag in (_LOCMAP, _LOCLIST):
            return self._located(node)
        if tag == _FRACTION:
            return Fraction(node[1], node[2])
        if tag == _PATTERN:
            return re.compile(node[1], node[2])
        raise ValueError(f"unknown tag {tag!r}")

    def _located(self, node: list):
        dec = self.value
        if node[0] == _LOCMAP:
            out = LocMap()
            pairs = iter(node[4:])
            for k, v in zip(pairs, pairs):
                out[dec(k)] = dec(v)
            out.file, out.pos, out.keylocs = node[1], dec(node[2]), dec(node[3])
            return out
        out = LocList(dec(x) for x in node[4:])
        out.file, out.pos, out.itemlocs = node[1], dec(node[2]), dec(node[3])
        return out
