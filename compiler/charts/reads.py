"""What a chart reads of the game model, recorded while it is drawn, so it can be keyed by exactly that.

A chart is drawn from a `Watched` view of the game: every attribute it reads (`game.tables`) and every
look-up it calls (`game.unit("us-1")`, `game.hex_terrain("0101")`) is noted, in order. The notes are
kept with the chart; the next run evaluates the same reads on the new game and hashes what they give
(`digest`). Equal digests mean the drawing would see equal data, take the same path and draw the same
file, so it is carried instead of drawn again. Nothing is listed by hand: a drawing that starts
reading something new records it the first time it runs.

Values are hashed whole and by value (`fingerprint`): dataclasses by their compared fields (a
loader's look-up index is not a value), sequences and mappings in order, sets sorted. A call whose
arguments are neither plain values nor the chart's own explicit inputs (the scenario of a set-up
card) is noted as a read of the whole game: wider, never stale.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
from typing import Any, Optional, Sequence

WHOLE_GAME = ["game"]
_PLAIN = (str, int, float, bool, type(None))


class Watched:
    """The game, as a drawing sees it, noting each read in `reads` (JSON-able, first-read order)."""

    __slots__ = ("_game", "_inputs", "_reads")

    def __init__(self, game, inputs: Sequence = ()):
        object.__setattr__(self, "_game", game)
        object.__setattr__(self, "_inputs", tuple(inputs))
        object.__setattr__(self, "_reads", {})

    @property
    def reads(self) -> list:
        return [json.loads(k) for k in self._reads]

    def _note(self, read: list) -> None:
        self._reads.setdefault(json.dumps(read, separators=(",", ":")), None)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        value = getattr(type(self._game), name, None)
        if callable(value) and not isinstance(value, type):   # a method: note each call and its arguments
            bound = getattr(self._game, name)

            def call(*args, **kwargs):
                self._note(self._call(name, args, kwargs))
                return bound(*args, **kwargs)
            return call
        self._note(["attr", name])
        return getattr(self._game, name)

    def __setattr__(self, name, value):
        raise AttributeError("the game model is read-only")

    def _call(self, name: str, args: tuple, kwargs: dict) -> list:
        enc = [self._arg(a) for a in args]
        kw = {k: self._arg(v) for k, v in sorted(kwargs.items())}
        if any(a is None for a in enc) or any(v is None for v in kw.values()):
            return WHOLE_GAME
        return ["call", name, enc, kw]

    def _arg(self, a) -> Optional[dict]:
        if isinstance(a, _PLAIN):
            return {"v": a}
        for i, x in enumerate(self._inputs):
            if a is x:
                return {"input": i}
        return None


def _value(game, read: list, inputs: Sequence) -> Any:
    if read == WHOLE_GAME:
        return game
    if read[0] == "attr":
        return getattr(game, read[1])
    _, name, args, kwargs = read

    def arg(a):
        return inputs[a["input"]] if "input" in a else a["v"]
    return getattr(game, name)(*[arg(a) for a in args], **{k: arg(v) for k, v in kwargs.items()})


def digest(game, reads: list, inputs: Sequence = (), memo: Optional[dict] = None) -> str:
    """A hash of what `reads` give on `game` (an error a read raises counts as what it gave)."""
    memo = {} if memo is None else memo
    h = hashlib.sha256()
    for read in reads:
        spec = json.dumps(read, separators=(",", ":"))
        uses_inputs = "input" in spec
        got = None if uses_inputs else memo.get(spec)
        if got is None:
            try:
                got = fingerprint(_value(game, read, inputs))
            except Exception as e:  # noqa: BLE001 - a read that fails now must not match one that worked
                got = f"raised {type(e).__name__}: {e}"
            if not uses_inputs:
                memo[spec] = got
        h.update(spec.encode() + b"\0" + got.encode() + b"\0")
    return h.hexdigest()


def fingerprint(value) -> str:
    parts: list[str] = []
    _walk(value, parts)
    return hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


_FIELDS: dict = {}


def _compared_fields(cls) -> tuple:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.compare)
    return names


def _walk(x, out: list) -> None:
    if isinstance(x, _PLAIN):
        out.append(f"{type(x).__name__}:{x!r}")
    elif dataclasses.is_dataclass(x) and not isinstance(x, type):
        cls = type(x)
        out.append(f"D:{cls.__module__}.{cls.__qualname__}")
        for name in _compared_fields(cls):
            out.append(name)
            _walk(getattr(x, name), out)
        out.append("/D")
    elif isinstance(x, (tuple, list)):
        out.append(f"{type(x).__name__}:{len(x)}")
        for v in x:
            _walk(v, out)
    elif isinstance(x, dict):       # in order: a drawing iterates it so
        out.append(f"dict:{len(x)}")
        for k, v in x.items():
            _walk(k, out)
            _walk(v, out)
    elif isinstance(x, (set, frozenset)):
        out.append(f"set:{len(x)}")
        out.extend(sorted(fingerprint(v) for v in x))
    else:  # anything else by its repr (one with an address differs every run: redrawn, never stale)
        out.append(f"{type(x).__qualname__}:{x!r}")
