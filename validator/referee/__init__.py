"""The referee: replays a game record from its scenario and reports each rule violation.

Its first law: accuse no one falsely. A finding is an error only where no legal reading of the log
exists under what the tree knows; where the tree does not print what a judgement needs (terrain,
which units exert a ZOC, ...), the cheapest reading for the player is taken and the step is reported
as partly verified (a note with its reason).

Rules are small named functions registered by `@rule(code, name, severity, help, on=...)`, each
declared once in `validator.codes` (kind "audit") and found by its code (`grep -rn HF1201
validator/referee`). Every rule has one signature, `(ctx, moment) -> Iterable[Finding]`, and says
which moments of the replay it judges: "start", "event", "phase-end", "end". An "event" rule names
the record's event types its code can act on (`events=(Moved,)`) and, where it judges only some of
them, how the replay must have read the event (`read_as=("move",)`, one of READINGS); the replay hands
it only those (every event where it names none). Rules read the game's data only; no game is named here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from ..codes import declare

MOMENTS = ("start", "event", "phase-end", "end")

# How the replay reads an event, once, before its rules run (validator.referee.replay.read_as).
READINGS = {
    "move": "a unit's map move read as made in a movement phase",
    "after-combat": "a unit's map move read as a retreat or an advance after a roll in a combat phase",
    "unread": "a unit's map move no phase left this turn explains",
    "entry": "a unit coming onto the map: from off it, or placed on it",
    "other": "any other event",
}


@dataclass(frozen=True, slots=True)
class Finding:
    """What a rule found; the replay adds the step, turn, phase and side it was found at."""
    message: str
    hexes: tuple[str, ...] = ()
    units: tuple[str, ...] = ()
    severity: Optional[str] = None            # overrides the rule's default (a note where unsure)
    help: Optional[str] = None
    rule: Optional[str] = None                # the rule number from the tree's data
    step: Optional[int] = None                # overrides the moment's step
    side: Optional[str] = None
    code: Optional[str] = None                # a code the combat judge declared, for its verdicts


@dataclass(frozen=True, slots=True)
class Rule:
    code: str
    name: str
    severity: str
    help: str
    on: str
    func: Callable
    events: Optional[tuple[type, ...]] = None  # the event types an "event" rule judges; None: every one
    read_as: Optional[tuple[str, ...]] = None  # the READINGS of those events it judges; None: every one


REGISTRY: dict[str, Rule] = {}


def rule(code: str, name: str, severity: str, help: str, on: str = "event",
         events: Optional[tuple[type, ...]] = None, read_as: Optional[tuple[str, ...]] = None):
    if on not in MOMENTS:
        raise ValueError(f"{code}: moment {on!r} is not one of {MOMENTS}")
    if events is not None and (on != "event" or not events):
        raise ValueError(f"{code}: only an \"event\" rule names event types, and at least one")
    if read_as is not None and (events is None or not read_as or not set(read_as) <= set(READINGS)):
        raise ValueError(f"{code}: read_as names event types' readings, some of {tuple(READINGS)}")

    def register(func):
        declare(code, name, severity, help, "audit", func.__doc__)
        REGISTRY[code] = Rule(code, name, severity, help, on, func, events, read_as)
        return func
    return register


def all_rules() -> dict[str, Rule]:
    from . import arrivals, coverage, movement, order, sequence, stacking, startpos  # noqa: F401  (registration)
    return dict(sorted(REGISTRY.items()))


_ON: dict[tuple[str, int], list[Rule]] = {}   # (moment, rules registered) -> its rules: asked every event


def rules_on(moment: str) -> list[Rule]:
    rules = _ON.get((moment, len(REGISTRY)))
    if rules is None:
        every = all_rules()                     # imports the rule modules (registering them) first
        rules = _ON[(moment, len(REGISTRY))] = [r for r in every.values() if r.on == moment]
    return rules


_ON_EVENT: dict[tuple, list[Rule]] = {}   # (event type, reading, rules registered) -> the rules judging it


def rules_on_event(kind: type, read_as: Optional[str] = None) -> list[Rule]:
    """The "event" rules that judge an event of this type read this way (None: read any way), in code
    order (built once per type and reading)."""
    key = (kind, read_as, len(REGISTRY))
    rules = _ON_EVENT.get(key)
    if rules is None:
        rules = _ON_EVENT[key] = [
            r for r in rules_on("event") if (r.events is None or issubclass(kind, r.events))
            and (read_as is None or r.read_as is None or read_as in r.read_as)]
    return rules
