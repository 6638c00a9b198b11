"""What the errata correct on the orders-of-arrival chart: each patch of orders-of-arrival.yaml found
on the row, unit line or arrival it changes, so the chart can show the erratum beside the value.

A patch names its place by a path over the file's data (`[orders_of_arrival, {side: axis}, turns, 1,
turn]`, validator/source/errata.py). The same path is followed here over the model's orders of arrival, which
hold the file's lists in the file's order: an index picks the same entry, a selector (`{side: axis}`)
the one entry whose fields are equal. With the errata applied the model holds the corrected values;
`--as-printed` it holds the print, and the corrections are shown as not applied. A patch whose path
this cannot follow onto the chart (a selector on a value the patch itself changed) is still listed,
with its path, under the table: a correction is never shown without its erratum.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

OOA_FILE = "orders-of-arrival.yaml"
_FIELDS = {"printed_location": "printed"}     # a file key that the model names otherwise


@dataclass(frozen=True)
class Correction:
    """One erratum's change to a value the chart shows."""
    item: str                 # the erratum item's id, as the errata document numbers it ("ooa-1")
    errata: str               # the errata document's title and date
    wording: str
    path: tuple
    printed: object           # what the rulebook printed (the patch's `from`)
    corrected: object         # what the erratum makes it (`to`)
    applied: bool             # False for an --as-printed chart


def ooa_corrections(game) -> tuple[dict[tuple, Correction], list[Correction]]:
    """({target: correction}, corrections with no target on the chart) for the patches of the game's
    orders of arrival. Targets: ("block", side index, block index, field) for a turn heading's `turn` or
    `printed`; ("unit", side index, block index, arrival index, unit id) for a unit line; ("arrival",
    side index, block index, arrival index) for anything else of an arrival."""
    placed: dict[tuple, Correction] = {}
    loose: list[Correction] = []
    for errata in game.errata:
        title = errata.title + (f", {errata.date}" if errata.date else "")
        for item in errata.items:
            if item.acknowledged:
                continue                      # the tree knows it does not apply: it was never applied
            for p in item.patches:
                if p.op != "set" or p.file != OOA_FILE:
                    continue
                c = Correction(item.id, title, item.wording, tuple(p.path), p.from_, p.to, game.errata_applied)
                target = _target(game.orders_of_arrival, tuple(p.path))
                if target is None or target in placed:
                    loose.append(c)
                else:
                    placed[target] = c
    return placed, loose


def _target(ooas, path: tuple) -> Optional[tuple]:
    if len(path) < 5 or path[0] != "orders_of_arrival" or path[2] != "turns":
        return None
    oi, bi = _pick(ooas, path[1]), None
    if oi is not None:
        bi = _pick(ooas[oi].turns, path[3])
    if bi is None:
        return None
    rest = path[4:]
    if rest in (("turn",), ("printed",)):
        return ("block", oi, bi, rest[0])
    if rest[0] != "arrivals" or len(rest) < 3:
        return None
    arrivals = ooas[oi].turns[bi].arrivals
    ai = _pick(arrivals, rest[1])
    if ai is None:
        return None
    if rest[2] == "units" and len(rest) >= 4:
        ui = _pick(arrivals[ai].units, rest[3])
        return None if ui is None else ("unit", oi, bi, ai, arrivals[ai].units[ui].unit)
    return ("arrival", oi, bi, ai)


def _pick(items, step) -> Optional[int]:
    """The index a path step picks in a list of model objects: an index, or the one entry a selector matches."""
    if isinstance(step, int) and not isinstance(step, bool):
        return step % len(items) if -len(items) <= step < len(items) else None
    if isinstance(step, dict):
        hits = [i for i, x in enumerate(items) if _matches(x, step)]
        return hits[0] if len(hits) == 1 else None
    return None


def _matches(obj, selector: dict) -> bool:
    for key, want in selector.items():
        have = getattr(obj, _FIELDS.get(key, key), _MISSING)
        if isinstance(want, dict):
            if have is _MISSING or have is None or not _matches(have, want):
                return False
        elif have != want:
            return False
    return True


_MISSING = object()


def corrected_heading(printed_heading: Optional[str], turn: str, fix: Correction) -> str:
    """A turn heading whose turn an erratum corrected names the corrected turn: the printed heading with
    the printed turn replaced ("Turn 6" -> "Turn 3"), else "Turn 3"."""
    old = str(fix.printed)
    if printed_heading and re.search(rf"(?<!\w){re.escape(old)}(?!\w)", printed_heading):
        return re.sub(rf"(?<!\w){re.escape(old)}(?!\w)", turn, printed_heading, count=1)
    return f"Turn {turn}"


def mark(c: Correction) -> str:
    """What a corrected value carries on the chart: the erratum's id."""
    return f" \u2014 erratum {c.item}"


def note(c: Correction, what: str = "the value") -> str:
    """The footnote of a correction: the erratum, what was printed and what it is now (or would be)."""
    was, now = _show(c.printed), _show(c.corrected)
    head = f"Erratum {c.item} ({c.errata}): {what} was printed {was}"
    tail = f"; it is {now}." if c.applied else f" (shown as printed); the erratum makes it {now}."
    return head + tail + (f" \u201c{c.wording}\u201d" if c.wording else "")


def loose_note(c: Correction) -> str:
    where = " > ".join("{" + ", ".join(f"{k}: {v}" for k, v in s.items()) + "}" if isinstance(s, dict) else str(s)
                       for s in c.path)
    return note(c, f"the value at {where} of {OOA_FILE}")


def _show(v) -> str:
    return f"\u201c{v}\u201d" if isinstance(v, str) else str(v)
