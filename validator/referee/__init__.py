"""The referee: replays a game record from its scenario and reports each rule violation.

Its first law: accuse no one falsely. A finding is an error only where no legal reading of the log
exists under what the tree knows; where the tree does not print what a judgement needs (terrain,
which units exert a ZOC, ...), the cheapest reading for the player is taken and the step is reported
as partly verified (a note with its reason).

Rules are small named functions registered by `@rule(code, name, severity, help, on=...)`, each
declared once in `validator.codes` (kind "audit") and found by its code (`grep -rn HF1201
validator/referee`). Every rule has one signature, `(view) -> Verdict | None`: it reads a read-only
`View` (validator.referee.view: the game, the position, the replay's ledger and its reading of the
event) and returns what it found and what it could verify only partly; it changes nothing. Each says
which moments of the replay it judges: "start", "event", "phase-end", "end". An "event" rule names
the record's event types its code can act on (`events=(Moved,)`) and, where it judges only some of
them, how the replay must have read the event (`read_as=("move",)`, one of READINGS); the replay hands
it only those (every event where it names none). Rules read the game's data only; no game is named here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, NamedTuple, Optional

from ..codes import declare

MOMENTS = ("start", "event", "phase-end", "end")

# How the replay reads an event, once, before its rules run (validator.referee.replay).
READINGS = {
    "move": "a unit's map move read as made in a movement phase",
    "after-combat": "a unit's map move read as a retreat or an advance after a roll in a combat phase",
    "before-combat": "a unit's map move read as a retreat before combat (the defender's choice instead of a "
                     "roll) or the attacker's advance into the hex it left",
    "unread": "a unit's map move no phase left this turn explains",
    "entry": "a unit coming onto the map: from off it, or placed on it",
    "other": "any other event",
}


class Finding(NamedTuple):
    """One finding, the one type every part of the audit reports with. A rule fills what it knows, by
    keyword (`Finding(message=..., hexes=..., units=...)`); the replay completes the rest: the code and
    the declared severity and help where the rule leaves them, the step (step 0 is the log's start,
    before any step), turn, phase and side. A NamedTuple: made once or more per event, cheaply."""
    message: str
    hexes: tuple[str, ...] = ()
    units: tuple[str, ...] = ()
    severity: Optional[str] = None            # overrides the rule's declared one (a note where unsure)
    help: Optional[str] = None
    rule: Optional[str] = None                # the rule number, from the tree's data
    step: Optional[int] = None                # where it is located, if not at the moment's step
    side: Optional[str] = None
    code: Optional[str] = None
    turn: Optional[str] = None
    phase: Optional[str] = None               # phase id
    phase_label: Optional[str] = None         # "US Movement Phase, inferred"

    def as_json(self) -> dict:
        return {"code": self.code, "severity": self.severity, "message": self.message, "help": self.help,
                "rule": self.rule, "step": self.step, "turn": self.turn, "phase": self.phase,
                "side": self.side, "hexes": list(self.hexes), "units": list(self.units)}


class Verdict(NamedTuple):
    """What one rule says of one moment: its findings, and why the step could be verified only partly
    (a reading was assumed) or not at all (`unjudged`; `noted`: a finding of its own says so already)."""
    findings: tuple[Finding, ...] = ()
    partly: tuple[str, ...] = ()
    unjudged: tuple[str, ...] = ()
    noted: bool = False


NOTHING = Verdict()


def found(*findings: Finding, partly: tuple[str, ...] = ()) -> Verdict:
    return Verdict(tuple(findings), partly)


def partly(*reasons: str) -> Verdict:
    return Verdict((), reasons)


def unjudged(*reasons: str) -> Verdict:
    return Verdict((), (), reasons)


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


# The modules whose import registers the referee's rules (validator.codes imports them too).
RULE_MODULES = ("after_combat", "arrival_rolls", "arrivals", "chain", "combat_rules", "coverage", "dice",
                "losses", "marker_removal", "movement", "order", "provenance", "scenario", "sequence",
                "special_moves", "stacking", "startpos")


def all_rules() -> dict[str, Rule]:
    import importlib
    for name in RULE_MODULES:
        importlib.import_module(f"{__name__}.{name}")
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
