"""VASSAL's text encodings, written from a reading of its source (3.7.9).

- ``SequenceEncoder`` (``VASSAL/tools/SequenceEncoder.java``): tokens joined by one delimiter; a delimiter
  inside a token is preceded by ``\\``; a token that starts with ``\\``, or starts and ends with ``'``, is
  wrapped in one more pair of ``'``; an empty (or null) token is written as nothing.
- Decorator nesting (``VASSAL/counters/Decorator.java``): type = ``outer-trait-type TAB inner-type``,
  state likewise, each level built with a SequenceEncoder on TAB, so deeper levels carry more escapes.
- Command streams (``VASSAL/build/GameModule.java``): a command and its sub-commands joined by ESC.
- Save obfuscation (``VASSAL/tools/io/ObfuscatingOutputStream.java``): ``!VCSK``, the key as two hex
  digits, then every byte XOR key as two lowercase hex digits.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Optional

ESC = "\x1b"
TAB = "\t"
OBFUSCATION_HEADER = "!VCSK"


class ReadError(ValueError):
    """A module, saved game or log that cannot be read; the message names the entry and the place."""


def encode(tokens: Iterable[Optional[str]], delim: str) -> str:
    """SequenceEncoder: join tokens with `delim`, escaping as VASSAL does."""
    out: list[str] = []
    for t in tokens:
        if t is None or t == "":
            out.append("")
            continue
        if not isinstance(t, str):
            t = str(t)
        if t.endswith("\\"):
            # VASSAL would write it, but its decoder would then swallow the next delimiter.
            raise ValueError(f"a token may not end with a backslash: {t!r}")
        body = t.replace(delim, "\\" + delim)
        if t[0] == "\\" or (t[0] == "'" and t[-1] == "'"):
            body = "'" + body + "'"
        out.append(body)
    return delim.join(out)


def _splitter(delim: str) -> "re.Pattern[str]":
    pat = _SPLITTERS.get(delim)
    if pat is None:
        pat = _SPLITTERS[delim] = re.compile(r"(?<!\\)" + re.escape(delim))
    return pat


_SPLITTERS: dict[str, "re.Pattern[str]"] = {}
_MARK = "\x00"


def decode(value: Optional[str], delim: str) -> list[str]:
    """SequenceEncoder.Decoder: every token of `value` (an empty value gives one empty token).

    Same result as the Java loop: a delimiter splits unless the character before it is a backslash
    (that backslash is dropped), and a token of two or more characters enclosed in single quotes
    loses one pair of them. Written with a C-level split because logs have many commands."""
    if value is None:
        return []
    esc = "\\" + delim
    if esc not in value:
        parts = value.split(delim)          # no escapes: every delimiter splits
    elif _MARK not in value:
        # each escaped delimiter becomes a mark no text holds, the rest splits, the mark is the delimiter
        parts = [p.replace(_MARK, delim) for p in value.replace(esc, _MARK).split(delim)]
    else:
        parts = [p.replace(esc, delim) for p in _splitter(delim).split(value)]
    if "'" in value:
        parts = [p[1:-1] if len(p) > 1 and p[0] == "'" and p[-1] == "'" else p for p in parts]
    return parts


# -- commands -------------------------------------------------------------------------------------

@dataclass
class Command:
    """A command as VASSAL's GameModule.encode sees it: its own text and sub-commands."""
    text: Optional[str]                       # None: a command no encoder writes (its token is empty)
    sub: list["Command"] = field(default_factory=list)

    def append(self, c: "Command") -> "Command":
        self.sub.append(c)
        return self


def encode_command(c: Command) -> str:
    if not c.sub:
        return c.text or ""
    return encode([c.text] + [encode_command(s) for s in c.sub], ESC)


def decode_command(s: str, depth: int = 0) -> list[str]:
    """Flatten a command stream into its leaf command texts, in order (empty tokens dropped)."""
    if depth > 64:
        raise ValueError("command nesting too deep")
    tokens = decode(s, ESC)
    if len(tokens) == 1 and tokens[0] == s:
        return [s] if s else []
    out: list[str] = []
    for t in tokens:
        out.extend(decode_command(t, depth + 1))
    return out


def add_piece(piece_id: Optional[str], type_: str, state: str) -> str:
    """BasicCommandEncoder's AddPiece: ``+/id/type/state`` ('/' inside escaped)."""
    return "+/" + encode([piece_id if piece_id is not None else "null", type_, state], "/")


def parse_add_piece(cmd: str) -> tuple[Optional[str], str, str]:
    if not cmd.startswith("+/"):
        raise ValueError("not an AddPiece command")
    toks = decode(cmd[2:], "/")
    while len(toks) < 3:
        toks.append("")
    pid = None if toks[0] == "null" else toks[0]
    return pid, toks[1], toks[2]


# -- obfuscation ----------------------------------------------------------------------------------

def obfuscate(data: bytes, key: int) -> bytes:
    if not 0 <= key <= 255:
        raise ValueError("key must be a byte")
    out = bytearray(OBFUSCATION_HEADER.encode("ascii"))
    out += b"%02x" % key
    out += bytes(data).translate(bytes(b ^ key for b in range(256))).hex().encode("ascii")
    return bytes(out)


_NOT_HEX = re.compile(rb"[^0-9a-fA-F]")


def deobfuscate(data: bytes) -> bytes:
    """Plain content (not starting with the header) is returned as is, as VASSAL reads it.

    Raises ReadError, with the offset in the entry, for a stream that is not the header, a key and
    hex digit pairs (`bytes.fromhex` alone would skip whitespace where VASSAL's reader would not).
    """
    h = OBFUSCATION_HEADER.encode("ascii")
    if not data.startswith(h):
        return data
    body = data[len(h):]
    bad = _NOT_HEX.search(body)
    if bad:
        raise ReadError(f"obfuscated data has a non-hex byte {bad.group()!r} at offset {len(h) + bad.start()}")
    if len(body) < 2:
        raise ReadError("obfuscated data has no key after !VCSK")
    if len(body) % 2:
        raise ReadError(f"obfuscated data has an odd number of hex digits (a lone digit at offset {len(data) - 1})")
    key = int(body[:2], 16)
    raw = bytes.fromhex(body[2:].decode("ascii"))
    return raw.translate(bytes(b ^ key for b in range(256)))
