"""Markers taken off the units they mark only in the phases the rules name (`markers[].removed_in`).

The phase a removal lies in is read as the tracker knows it, up to the next event that ends the phase: a
removal the log does not pin to one phase may lie in any phase from the tracker's (the earliest possible)
to the one the next chat or turn-marker move names. A removal just before the turn marker moves to a new
turn (nothing but chat and marker removals between) may be the new turn's: players often clear markers
before they move the turn marker. Nothing here names a game.
"""
from __future__ import annotations

from itertools import chain, islice
from typing import Optional

from ..records.record import Chat, Removed, TurnChanged
from . import Finding, Verdict, found, partly, rule
from .lookahead import later_events
from .markers import shown_states
from .movement import marks


def _marked_units(v, c, h: str) -> list:
    """The units of hex h the marker marks (a whole-stack marker: each that it came with or was put on;
    another: any unit of the hex, as it shows its state for one of them)."""
    m = v.game.marker(c.unit)
    units = [x for x in v.position.at(h) if x.kind == "unit"]
    if not m.whole_stack:
        return units
    entered = v.ledger.entered
    return [x for x in units if marks(v.position, entered, c, h, entered.get(x.piece, 0))]


LOOK_AHEAD = 20_000          # events read after a removal for its phase's end: bounds the work of one removal


def _after(v):
    """The events after this one: the rest of its step, then the later steps (at most LOOK_AHEAD)."""
    evs = v.step.events
    k = next((n for n, e in enumerate(evs) if e is v.event), len(evs))
    yield from islice(chain(evs[k + 1:], later_events(v.facts.record, v.step)), LOOK_AHEAD)


def _phase_end(v, marked: list):
    """Scan to the event that ends the phase: (that event or None at the log's end, the marked units still
    on the map then, whether only chat and marker removals came between)."""
    left, quiet = {x.piece for x in marked}, True
    for e in _after(v):
        if v.tracker.ends_phase(e):
            return e, left, quiet
        if isinstance(e, Removed):
            left.discard(e.counter.piece)          # eliminated with (or after) its marker: it went with them
        quiet = quiet and (isinstance(e, Chat) or (isinstance(e, Removed) and e.counter.kind == "marker"))
    return None, left, quiet


def _first_named(v, end) -> Optional[int]:
    """The first phase a chat line names after the turn marker moved (`end`): the phases of the new turn
    before it may have been played before the marker moved."""
    seen = False
    for e in _after(v):
        seen = seen or e is end
        if seen and isinstance(e, Chat) and (k := v.tracker.match_announcement(e.text)) is not None:
            return k
    return None


def _window(v, end, quiet: bool) -> tuple[set[int], set[int]]:
    """(phases of this turn, phases of the next) the removal may lie in."""
    t, n = v.tracker, len(v.tracker.phases)
    i = t.current()
    order = {p.id: k for k, p in enumerate(t.phases)}
    j = order.get(end.phase) if isinstance(end, TurnChanged) and end.phase else None
    if isinstance(end, TurnChanged) and end.turn != v.turn:
        this = {i} if t.pinned() else set(range(i, n))
        if not quiet and t.pinned():
            return this, set()
        j = j if j is not None else _first_named(v, end)
        return this, set(range(0, j + 1 if j is not None else n))
    if t.pinned():
        return {i}, set()
    if isinstance(end, Chat):
        j = t.match_announcement(end.text)
    return (set(range(i, j)) if j is not None and j > i else set(range(i, n))), set()


def _terms_note(v, m, h: str) -> Optional[Verdict]:
    """In its phase: the terms the rules set on the removal that the tree cannot judge, as a note."""
    if not m.removed_if:
        return None
    return partly(f"the {m.name} marker in {h} taken off in the {v.tracker.name(v.tracker.current())}: whether "
                  f"its units meet {m.removed_in_rule}'s terms ({m.removed_if}) is not judged")


@rule("HF1109", "marker-removed-outside-its-phase", "error",
      "take the marker off only in the phase the rules remove it in (undo the removal)", events=(Removed,))
def marker_removed_outside_its_phase(v) -> Optional[Verdict]:
    """A marker is taken off the units it marks in a phase the rules do not remove it in.

    ## What it checks
    A marker with `removed_in` deleted from a hex where it marks units (a whole-stack marker: the units it
    came with or was put on, `markers[].whole_stack`), that it was not put there in the same phase (a marker
    placed by mistake and taken back), and whose units are not eliminated with it before the phase ends; a
    marker that shows no state (a Barrage marker, which belongs to its hex) wherever it stands. The
    phases it may lie in: the tracker's where the phase is certain (a chat or the turn marker names it); else
    every phase from the tracker's to the one the next chat or turn change names; and, where it comes just
    before the turn marker moves to a new turn, the new turn's phases up to the one the marker shows. An error
    where none of those is a `removed_in` phase; a note where only a phase the log does not name is.
    ## Why
    Ardennes II 3.4: "All stacks (of both sides) remove their DG markers only in the Pre-Turn's Barrage & DG
    Marker Recovery Phase"; 3.5 and errata 3-4: Barrage markers are removed in each player turn's Barrage Marker
    Removal Phase, Half markers also when reconciled.
    ## Reads
    `markers[].removed_in` (`phases`, `rule`), `markers[].whole_stack`, `sequence_of_play`, the turn tracker's
    phase.
    ## Violation
    Ardennes II: the DG marker of the stack of I/3 and II/3 in B22.19 deleted in the German Movement & Barrage
    Phase of turn 1.
    ## Near miss
    The same marker deleted in the Barrage & DG Marker Removal Phase of turn 2, after the turn marker moved.
    """
    c, ev = v.event.counter, v.event
    m = v.game.marker(c.unit) if c.kind == "marker" else None
    i = v.tracker.current()
    if m is None or not m.removed_in or ev.where is None or ev.where.hex is None or i is None:
        return None
    h, led = ev.where.hex, v.ledger
    if led.entered.get(c.piece, 0) > led.phase_end_step:
        return None                                # put there in this phase: taken back, not removed
    marked = _marked_units(v, c, h) if c.unit in shown_states(v.game) else None
    if marked == []:
        return None
    if v.tracker.phases[i].id in m.removed_in:
        return _terms_note(v, m, h) if v.tracker.pinned() else None
    end, left, quiet = _phase_end(v, marked or [])
    if marked is not None and not left:
        return None                                # its units were eliminated with it
    this, nxt = _window(v, end, quiet)
    allowed = {k for k, p in enumerate(v.tracker.phases) if p.id in m.removed_in}
    names = " or ".join(f"the {v.tracker.name(k)}" for k in sorted(allowed))
    units = tuple(v.label(x) for x in marked or () if x.piece in left)
    of = f" off {', '.join(units)}" if units else " off the map"
    if this & allowed:
        return partly(f"the {m.name} marker in {h} taken{of} in a phase the log does not name: read as in "
                      f"{names} ({m.removed_in_rule})")
    if nxt & allowed:
        return partly(f"the {m.name} marker in {h} taken{of} before the turn marker moved to turn {end.turn}: "
                      f"read as in that turn's {names.removeprefix('the ')}, played before the marker moved "
                      f"({m.removed_in_rule})")
    t = v.tracker
    when = f"the {t.name(i)}" if len(this) == 1 else f"a phase from the {t.name(min(this))} to the {t.name(max(this))}"
    return found(Finding(message=f"the {m.name} marker in {h} taken{of} in {when} of turn {v.turn}: it is removed "
                                 f"only in {names}",
                         hexes=(h,), units=units, rule=m.removed_in_rule,
                         side=v.side_of(marked[0]) if marked else None))
