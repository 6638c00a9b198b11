"""Game-piece trait definitions (type and state strings) as VASSAL 3.7 reads them.

Every format here was read from the trait's Java class (``VASSAL/counters/*.java``, 3.7.9):
``BasicPiece`` (``piece;cloneKey;deleteKey;image;name`` / ``mapId;x;y;gpid;propCount[;key;value]*``),
``Marker`` (``mark;key1,key2`` / ``value1,value2``), ``Embellishment`` (``emb2;...`` / level value),
``UsePrototype`` (``prototype;Name`` / empty), ``Delete`` (``delete;name;keystroke;desc``), and ``Stack``
(type ``stack``, state ``mapId;x;y;id1;...;@@layer``). A piece = a list of traits, outermost first.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from .encoding import TAB, decode, encode

# java.awt.event.InputEvent.CTRL_DOWN_MASK | CTRL_MASK, as KeyStroke.getModifiers() reports it
CTRL = 130
KEY_F = 70       # java.awt.event.KeyEvent.VK_F
KEY_DELETE = 127


@dataclass(frozen=True)
class Trait:
    type: str
    state: str = ""


def basic_piece(image: str, name: str, map_id: Optional[str] = None, x: int = 0, y: int = 0,
                gpid: str = "", props: Sequence[tuple[str, str]] = ()) -> Trait:
    t = "piece;" + encode(["", "", image, name], ";")
    s = [map_id if map_id else "null", str(x), str(y), gpid, str(len(props))]
    for k, v in props:
        s += [k, v]
    return Trait(t, encode(s, ";"))


def marker(key: str, value: str) -> Trait:
    return Trait("mark;" + encode([key], ","), encode([value], ","))


def prototype(name: str) -> Trait:
    return Trait("prototype;" + encode([name], ";"), "")


def prototype_name(t: Trait) -> Optional[str]:
    """The prototype a UsePrototype trait names, None for any other trait."""
    if not t.type.startswith("prototype;"):
        return None
    return decode(t.type[len("prototype;"):], ";")[0]


def delete(name: str = "Delete") -> Trait:
    # Delete.java: ID "delete;", then name ; keystroke ; description
    return Trait("delete;" + encode([name, f"{KEY_DELETE},{CTRL}", ""], ";"), "")


def layers(images: Sequence[str], level_names: Sequence[str], name: str, command: str,
           keycode: int, description: str, level: int = 0) -> Trait:
    """An always-active Embellishment (``emb2``) cycling through `images` with one key command.

    State: the level value, 1-based and positive (active); level `level` (0-based) is shown."""
    if len(images) != len(level_names) or not images:
        raise ValueError("one level name per image")
    fields = [
        "",                      # activateCommand
        str(CTRL),               # activateModifiers
        "",                      # activateKey
        command,                 # upCommand
        str(CTRL),               # upModifiers
        "",                      # upKey (version-0 field; version 1 uses increaseKeyStroke)
        "",                      # downCommand
        str(CTRL),               # downModifiers
        "",                      # downKey
        "",                      # resetCommand
        "",                      # resetKey
        "1",                     # resetLevel
        "false",                 # drawUnderneathWhenSelected
        "0", "0",                # xOff, yOff
        encode(list(images), ","),
        encode(list(level_names), ","),
        "true",                  # loopLevels
        name,
        "",                      # rndKey
        "",                      # rndText
        "false",                 # followProperty
        "",                      # propertyName
        "1",                     # firstLevelValue
        "1",                     # version (CURRENT_VERSION)
        "true",                  # alwaysActive
        "",                      # activateKeyStroke
        f"{keycode},{CTRL}",     # increaseKeyStroke
        "",                      # decreaseKeyStroke
        description,
        "1.0",                   # scale
        "",                      # onlyPropertyName
        "true",                  # onlyPropertyState
    ]
    if not 0 <= level < len(images):
        raise ValueError("level out of range")
    return Trait("emb2;" + encode(fields, ";"), str(level + 1))


def piece_type(traits: Sequence[Trait]) -> str:
    """Nest trait types outermost first, as Decorator.getType does (innermost = BasicPiece)."""
    t = traits[-1].type
    for tr in reversed(traits[:-1]):
        t = encode([tr.type, t], TAB)
    return t


def piece_state(traits: Sequence[Trait]) -> str:
    s = traits[-1].state
    for tr in reversed(traits[:-1]):
        s = encode([tr.state, s], TAB)
    return s


def stack_state(map_id: str, x: int, y: int, ids: Sequence[str], layer: int = 0) -> str:
    return encode([map_id, str(x), str(y), *ids, f"@@{layer}"], ";")


# -- decoding ---------------------------------------------------------------------------------------

def split_nested(value: str, limit: int = 256) -> list[str]:
    """Undo Decorator nesting: outermost first."""
    out: list[str] = []
    rest: Optional[str] = value
    while rest is not None:
        if len(out) > limit:
            raise ValueError("trait nesting too deep")
        toks = decode(rest, TAB)
        out.append(toks[0])
        rest = toks[1] if len(toks) > 1 else None
    return out


MAX_TYPE_TEXTS = 4096          # type texts kept decoded (a piece's, and its traits': a few per kind of piece)
MAX_TYPE_CHARS = 4096          # a longer text is decoded each time (what is kept stays bounded)
_TYPE_TEXTS: dict = {}         # (text, delimiter) -> its tokens


def _type_tokens(value: str, delim: str = "") -> list[str]:
    """The tokens of a type text (`decode`; delimiter "": the traits of a piece's type, `split_nested`),
    decoded once: a piece's type never changes, and each change of its state (a flip, a step lost) and each
    piece of that kind placed carries it again."""
    if len(value) > MAX_TYPE_CHARS:
        return decode(value, delim) if delim else split_nested(value)
    hit = _TYPE_TEXTS.get((value, delim))
    if hit is None:
        if len(_TYPE_TEXTS) >= MAX_TYPE_TEXTS:
            _TYPE_TEXTS.clear()
        hit = _TYPE_TEXTS[(value, delim)] = tuple(decode(value, delim) if delim else split_nested(value))
    return list(hit)


def decode_piece(type_: str, state: str, strict: bool = True) -> list[dict]:
    """Each trait of a piece as a dict (kind, fields), outermost first. Raises on anything malformed;
    a trait this module does not write raises too unless `strict` is False (then kind "other")."""
    types = _type_tokens(type_)
    states = split_nested(state) if state else [""]
    if types == ["stack"]:
        toks = decode(state, ";")
        return [{"kind": "stack", "map": toks[0], "x": int(toks[1]), "y": int(toks[2]),
                 "ids": [t for t in toks[3:] if not t.startswith("@@")]}]
    if len(states) < len(types):
        states += [""] * (len(types) - len(states))
    out = []
    for t, s in zip(types, states):
        if t.startswith("piece;"):
            f = _type_tokens(t[len("piece;"):], ";")
            st = decode(s, ";")
            n = int(st[4]) if len(st) > 4 and st[4] else 0
            props = {st[5 + 2 * i]: st[6 + 2 * i] for i in range(n)}
            out.append({"kind": "piece", "image": f[2], "name": f[3], "map": st[0],
                        "x": int(st[1]), "y": int(st[2]), "gpid": st[3] if len(st) > 3 else "",
                        "props": props})
        elif t.startswith("mark;"):
            keys = _type_tokens(t[len("mark;"):], ",")
            vals = decode(s, ",") if s else [""] * len(keys)
            out.append({"kind": "mark", "values": dict(zip(keys, vals + [""] * (len(keys) - len(vals))))})
        elif t.startswith("emb2;"):
            f = _type_tokens(t[len("emb2;"):], ";")
            images = _type_tokens(f[15], ",")
            level = int(s or "-1")
            out.append({"kind": "emb2", "images": images, "names": _type_tokens(f[16], ","),
                        "name": f[18], "value": level, "active": level > 0,
                        "level": abs(level) - 1})
        elif t.startswith("prototype;"):
            out.append({"kind": "prototype", "name": _type_tokens(t[len("prototype;"):], ";")[0]})
        elif t.startswith("delete;"):
            out.append({"kind": "delete"})
        elif not strict:
            out.append({"kind": "other", "id": t.split(";", 1)[0], "type": t, "state": s})
        else:
            raise ValueError(f"unknown trait {t[:20]!r}")
    if not out or out[-1]["kind"] != "piece":
        raise ValueError("a piece's innermost trait must be a BasicPiece")
    return out
