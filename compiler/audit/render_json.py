"""`hexforge audit --format json`: `{"logs": [...], "summary": {...}}` (README, "Auditing a game log"; a
finding's severity is "error", "warning" or "note", and the summary counts `errors`, `warnings`, `notes`)."""
from __future__ import annotations

from json.encoder import encode_basestring
from typing import Iterator

from validator.diagnostics import SHOWN


def summary(results: list) -> dict:
    fs = [f for r in results if r.audit for f in r.audit.findings]
    return {"logs": len(results), "unreadable": sum(1 for r in results if r.error),
            "errors": sum(1 for f in fs if f.severity == "error"),
            "warnings": sum(1 for f in fs if f.severity == "warning"),
            "notes": sum(1 for f in fs if f.severity == "info")}


def render_json(results: list, quiet: bool = False) -> str:
    return "".join(json_pieces(results, quiet))


PIECE_CHARS = 1 << 16
INDENT = 2
BIG = 256                     # a list or object of more values, all told, is printed member by member


def json_pieces(results: list, quiet: bool = False) -> Iterator[str]:
    """The JSON text in pieces of about PIECE_CHARS, so that a long log's report is printed without the whole
    text, or every one of its small parts, held at once. The text is `json.dumps(doc, indent=2,
    ensure_ascii=False)`'s, to the character (`_members`, `_dump`: that encoder's layout, written without
    its generator per nested value)."""
    doc = {"logs": [_log(r) for r in results], "summary": summary(results)}
    parts, size = [], 0
    for part in _members(doc, 0):
        parts.append(part)
        size += len(part)
        if size >= PIECE_CHARS:
            yield "".join(parts)
            parts, size = [], 0
    yield "".join(parts) + "\n"


def _members(o, level: int) -> Iterator[str]:
    """The text of a value, a large list's or object's member by member (each small one made at once)."""
    if not isinstance(o, (list, tuple, dict)) or not o:
        yield _text(o, level)
        return
    is_dict = isinstance(o, dict)
    inner = "\n" + " " * (INDENT * (level + 1))
    yield "{" if is_dict else "["
    first = True
    for m in (o.items() if is_dict else o):
        head = inner if first else "," + inner
        first = False
        value = m[1] if is_dict else m
        if is_dict:
            head += _key(m[0]) + ": "
        if isinstance(value, (list, tuple, dict)) and not _small(value, BIG):
            yield head
            yield from _members(value, level + 1)
        else:
            yield head + _text(value, level + 1)
    yield "\n" + " " * (INDENT * level) + ("}" if is_dict else "]")


def _small(o, budget: int) -> bool:
    """The value holds at most `budget` values, all told (it is made at once; a larger one member by member,
    so that no large part of the report is held whole)."""
    todo = [o]
    while todo:
        x = todo.pop()
        if isinstance(x, dict):
            x = x.values()
        elif not isinstance(x, (list, tuple)):
            continue
        budget -= len(x)
        if budget < 0:
            return False
        todo.extend(y for y in x if isinstance(y, (list, tuple, dict)))
    return True


def _text(o, level: int) -> str:
    out: list[str] = []
    _dump(o, level, out)
    return "".join(out)


def _dump(o, level: int, out: list) -> None:
    """Append a value's text, laid out as json's encoder does with indent=2 at this nesting level."""
    t = type(o)
    scalar = _SCALARS.get(t)
    if scalar is not None:
        out.append(scalar(o))
    elif t is dict or (t is not list and t is not tuple and isinstance(o, dict)):
        if not o:
            out.append("{}")
            return
        inner = _INNER[level + 1] if level + 1 < len(_INNER) else ",\n" + " " * (INDENT * (level + 1))
        sep = "{" + inner[1:]
        for k, x in o.items():
            head = sep + (encode_basestring(k) if type(k) is str else _key(k)) + ": "
            sep = inner
            scalar = _SCALARS.get(type(x))
            if scalar is not None:                # most members: written here, without a call for each
                out.append(head + scalar(x))
            else:
                out.append(head)
                _dump(x, level + 1, out)
        out.append("\n" + " " * (INDENT * level) + "}")
    elif isinstance(o, (list, tuple)):
        if not o:
            out.append("[]")
            return
        inner = _INNER[level + 1] if level + 1 < len(_INNER) else ",\n" + " " * (INDENT * (level + 1))
        sep = "[" + inner[1:]
        for x in o:
            scalar = _SCALARS.get(type(x))
            if scalar is not None:
                out.append(sep + scalar(x))
            else:
                out.append(sep)
                _dump(x, level + 1, out)
            sep = inner
        out.append("\n" + " " * (INDENT * level) + "]")
    else:
        out.append(_scalar(o))


def _scalar(o) -> str:
    """A string, number or constant as json writes it (of a subclass too)."""
    if isinstance(o, str):
        return encode_basestring(o)
    if o is None:
        return "null"
    if o is True or o is False:
        return "true" if o else "false"
    if isinstance(o, int):
        return int.__repr__(o)
    if isinstance(o, float):
        return _float(o)
    raise TypeError(f"Object of type {o.__class__.__name__} is not JSON serializable")


_INNER = tuple(",\n" + " " * (INDENT * n) for n in range(16))   # the separator between members, per level


def _float(o: float) -> str:
    if o != o:
        return "NaN"
    if o in (float("inf"), float("-inf")):
        return "Infinity" if o > 0 else "-Infinity"
    return float.__repr__(o)


_SCALARS = {str: encode_basestring, int: int.__repr__, bool: lambda o: "true" if o else "false",
            type(None): lambda o: "null"}       # float: `_float`, put after it


def _key(k) -> str:
    """An object's key as json writes it: a string, or a number or constant as its text, quoted."""
    if isinstance(k, str):
        return encode_basestring(k)
    if k is True or k is False or k is None:
        return encode_basestring({True: "true", False: "false", None: "null"}[k])
    if isinstance(k, int):
        return encode_basestring(int.__repr__(k))
    if isinstance(k, float):
        return encode_basestring(_float(k))
    raise TypeError(f"keys must be str, int, float, bool or None, not {k.__class__.__name__}")


_SCALARS[float] = _float


def _log(r) -> dict:
    if r.error:
        return {"file": r.file, "error": r.error, "diagnostics": []}
    d = r.audit.as_json()
    for diagnostic in d["diagnostics"]:
        diagnostic["severity"] = SHOWN[diagnostic["severity"]]
    d["file"] = r.file
    d["warnings"] = list(r.warnings)
    return d
