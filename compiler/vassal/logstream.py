"""A VASSAL saved game's or log's command stream, streamed and bounded, with nothing interpreted.

    zip entry `savedGame` -> `!VCSK` de-obfuscation (ObfuscatingOutputStream undone; plain text
    passes) -> UTF-8 -> top-level tokens split on unescaped ESC (SequenceEncoder.Decoder):
    `begin_save`, the restore snapshot, `end_save`, then one token per logged step (BasicLogger)
    -> each token's commands (GameModule.decode's leaves, without the `LOG<TAB>` wrapper).

Every stage works chunk by chunk, so memory does not grow with the log; one top-level token is at
most `MAX_TOKEN_CHARS` and command trees at most `MAX_DEPTH` deep. The splits run at C speed:
`tests/test_vlog.py` checks them against a transcription of VASSAL's Java decoder.
"""
from __future__ import annotations

import codecs
import re
import zipfile
import zlib
from pathlib import Path
from typing import Iterator

from .encoding import ESC, OBFUSCATION_HEADER, decode
from .archive import Archive, ReadError

MAX_TOKEN_CHARS = 4 * 1024 * 1024         # one step (or the restore snapshot: 332 KB for Ardennes II's 486 pieces)
MAX_DEPTH = 64                            # command nesting
CHUNK_BYTES = 1 << 20
LOG_PREFIX = "LOG\t"
_NULL = frozenset((LOG_PREFIX + "null", "null"))   # commands no encoder writes: nothing to replay


# -- bytes -> text, streamed -----------------------------------------------------------------------

_NON_HEX = re.compile(rb"[^0-9a-fA-F]")


def _entry_chunks(archive: Archive, name: str) -> Iterator[bytes]:
    """The entry's bytes in chunks, never more than its declared size (a lying header is refused)."""
    info = archive.infos.get(name)
    if info is None:
        raise ReadError(f"no {name!r} entry: not a VASSAL saved game or log")
    left = info.file_size
    try:
        with archive.zip.open(info) as f:
            while True:
                chunk = f.read(min(CHUNK_BYTES, left + 1))
                if not chunk:
                    return
                left -= len(chunk)
                if left < 0:
                    raise ReadError(f"entry {name!r} is larger than declared")
                yield chunk
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as e:
        raise ReadError(f"entry {name!r} is damaged: {e}") from None


def _deobfuscated(chunks: Iterator[bytes]) -> Iterator[bytes]:
    """ObfuscatingOutputStream undone: `!VCSK`, key as 2 hex digits, then each byte XOR key as 2 hex
    digits. Plain content (no header) passes through, as DeobfuscatingInputStream reads it."""
    hdr = OBFUSCATION_HEADER.encode("ascii")
    head = b""
    for chunk in chunks:
        head += chunk
        if len(head) >= len(hdr) + 2:
            break
    if not head.startswith(hdr):
        if head:
            yield head
        yield from chunks
        return
    key_hex = head[len(hdr):len(hdr) + 2]
    if len(key_hex) < 2 or _NON_HEX.search(key_hex):
        raise ReadError("corrupt savedGame obfuscation (no key after !VCSK)")
    table = bytes(b ^ int(key_hex, 16) for b in range(256))
    offset = len(hdr) + 2                  # offset in the entry of rest's first digit
    rest = head[offset:]
    while True:
        even = len(rest) - len(rest) % 2     # a digit pair cut by the chunk boundary waits
        if even:
            yield _unhex(rest[:even], offset, table)
            offset += even
            rest = rest[even:]
        chunk = next(chunks, None)
        if chunk is None:
            break
        rest += chunk
    if rest:
        _unhex(rest, offset, table)         # a non-hex lone digit is reported as such
        raise ReadError(f"corrupt savedGame obfuscation (odd number of hex digits: a lone digit at offset {offset})")


_HEX_DIGITS = b"0123456789abcdefABCDEF"


def _unhex(data: bytes, at: int, table: bytes) -> bytes:
    if data.translate(None, _HEX_DIGITS):          # fast test; fromhex alone would skip whitespace
        bad = _NON_HEX.search(data)
        raise ReadError(f"corrupt savedGame obfuscation (non-hex digit at offset {at + bad.start()})")
    return bytes.fromhex(data.decode("ascii")).translate(table)


def _text(chunks: Iterator[bytes]) -> Iterator[str]:
    dec = codecs.getincrementaldecoder("utf-8")("strict")
    try:
        for c in chunks:
            s = dec.decode(c)
            if s:
                yield s
        s = dec.decode(b"", final=True)
    except UnicodeDecodeError as e:
        raise ReadError(f"savedGame is not UTF-8 text: {e.reason}") from None
    if s:
        yield s


def top_level_tokens(chunks: Iterator[str]) -> Iterator[str]:
    """The stream split on unescaped ESC, each token unescaped one level (SequenceEncoder.Decoder:
    an ESC right after a backslash stays in its token, without that backslash). All at C speed:
    escaped ESCs become a mark, the chunk splits on the others, the mark turns back into ESC. A
    token cut by chunk boundaries is joined once from its parts."""
    pending: list[str] = []
    size = 0
    carry = ""                               # a backslash ending the last chunk escapes the next ESC
    for chunk in chunks:
        chunk = carry + chunk
        carry = "\\" if chunk.endswith("\\") else ""
        if carry:
            chunk = chunk[:-1]
        parts = _split_top(chunk)
        pending.append(parts[0])
        size += len(parts[0])
        for p in parts[1:]:
            _bound(size)                     # each token is checked when it ends, in stream order
            yield _unquote("".join(pending))
            pending, size = [p], len(p)
        _bound(size)
    pending.append(carry)
    yield _unquote("".join(pending))


def _bound(size: int) -> None:
    if size > MAX_TOKEN_CHARS:
        raise ReadError(f"a command longer than {MAX_TOKEN_CHARS} characters")


def _split_top(text: str) -> list[str]:
    if "\\\x1b" not in text:
        return text.split(ESC)
    if "\x00" not in text:
        return [p.replace("\x00", ESC) for p in text.replace("\\\x1b", "\x00").split(ESC)]
    return [p.replace("\\\x1b", ESC) for p in _TOP_ESC.split(text)]   # text holding NULs


_TOP_ESC = re.compile(r"(?<!\\)\x1b")


def _unquote(tok: str) -> str:
    return tok[1:-1] if len(tok) > 1 and tok[0] == "'" and tok[-1] == "'" else tok


def commands(token: str) -> list[str]:
    """The commands of one top-level token, in order, without their `LOG<TAB>` wrapper and without
    the `null` ones (commands no encoder writes). A flat step (VASSAL's usual one) is split once."""
    if "\\\x1b" not in token and "'" not in token:
        parts = token.split(ESC)             # flat: every ESC separates two commands
        if (ESC + token).count(_LOG_SEP) == len(parts):     # and each one carries the LOG wrapper
            return [p[4:] for p in parts if p != _LOG_NULL]
        return [p[4:] if p.startswith(LOG_PREFIX) else p for p in parts if p and p not in _NULL]
    return [c[4:] if c.startswith(LOG_PREFIX) else c for c in command_leaves(token)]


_LOG_SEP = ESC + LOG_PREFIX
_LOG_NULL = LOG_PREFIX + "null"


def command_leaves(token: str) -> list[str]:
    """GameModule.decode's leaves in order: a token that decodes to itself is one command; otherwise
    every token it splits into (the first too) is decoded again. Most steps are one flat group (no
    escaped separator, no quotes): that is a plain split."""
    if "\\\x1b" not in token and "'" not in token:
        return [t for t in token.split(ESC) if t and t not in _NULL]
    out: list[str] = []
    _nested_leaves(token, 0, out)
    return out


def _nested_leaves(token: str, depth: int, out: list[str]) -> None:
    if depth > MAX_DEPTH:
        raise ReadError(f"commands nested more than {MAX_DEPTH} deep")
    toks = decode(token, ESC)
    if len(toks) == 1 and toks[0] == token:
        if token and token not in _NULL:
            out.append(token)
        return
    for t in toks:
        _nested_leaves(t, depth + 1, out)


def saved_game_tokens(archive: Archive) -> Iterator[str]:
    """savedGame's top-level tokens, streamed: the restore snapshot's up to `end_save` (checked),
    then one per logged step (empty ones included, as written)."""
    tokens = top_level_tokens(_text(_deobfuscated(_entry_chunks(archive, "savedGame"))))
    if next(tokens, None) != "begin_save":
        raise ReadError("savedGame does not start with begin_save: not a VASSAL saved game or log")
    yield "begin_save"
    for tok in tokens:
        yield tok
        if tok == "end_save":
            break
    else:
        raise ReadError("the restore snapshot has no end_save (truncated)")
    yield from tokens


def log_commands(path) -> Iterator[list[str]]:
    """The decoded command texts of a log without interpreting them: first the restore snapshot's,
    then each step's (step n = the n-th list after the first). For tools and the benchmark."""
    tokens = saved_game_tokens(Archive(Path(path)))
    restore: list[str] = []
    for tok in tokens:
        if tok == "end_save":
            break
        restore += commands(tok)
    yield restore
    for tok in tokens:
        if tok:
            yield commands(tok)
