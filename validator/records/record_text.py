"""The game record as text, one line a step: what `hexforge replay` prints and the audit report's timeline shows.

    move 3-3-7 infantry (us-1id-inf-3-3-7, piece 1037) 2025 -> 2124 onto 1006
"""
from __future__ import annotations

from typing import Callable, Optional

from .record import Chat, DieRoll, Event, Moved, Placed, Removed, StateChanged, Step, TurnChanged

def namer(game) -> Callable[[str], Optional[str]]:
    """Unit (or marker) id -> its name as printed, when the game tree is known."""
    names: dict[str, str] = {}
    if game is not None:
        names.update({m.id: m.name for m in game.markers})
        names.update({u.id: u.name for u in game.units})
    return names.get


def counter_text(c, name_of) -> str:
    """A counter as a line names it: its printed name (where the tree is known), unit id and piece."""
    name = name_of(c.unit)
    return f"{name} ({c.unit}, piece {c.piece})" if name else f"{c.unit} (piece {c.piece})"


def _states(s) -> str:
    return ", ".join(sorted(s)) or "normal"


def _moves(moves: list[Moved], name_of) -> str:
    m = moves[0]
    onto = f" onto {m.onto}" if m.onto else ""
    if len(moves) == 1:
        return f"move {counter_text(m.counter, name_of)} {m.src} -> {m.dst}{onto}"
    who = ", ".join(counter_text(x.counter, name_of) for x in moves)
    return f"move stack of {len(moves)}: {who} {m.src} -> {m.dst}{onto}"


def _event(e: Event, name_of) -> str:
    if isinstance(e, Placed):
        return f"place {counter_text(e.counter, name_of)} at {e.where}"
    if isinstance(e, Removed):
        return f"remove {counter_text(e.counter, name_of)} from {e.where}"
    if isinstance(e, StateChanged):
        return f"state {counter_text(e.counter, name_of)} in {e.where}: {_states(e.counter.state)} (was {_states(e.old_state)})"
    if isinstance(e, DieRoll):
        return f"roll {e.dice}: {','.join(map(str, e.faces))} (total {e.total})"
    if isinstance(e, TurnChanged):
        ids = ", ".join(x for x in (f"turn {e.turn}" if e.turn else "", f"phase {e.phase}" if e.phase else "") if x)
        return f"turn {e.printed or e.turn} ({ids})" if ids else f"turn {e.printed}"
    if isinstance(e, Chat):
        return f"chat <{e.player}> {e.text}" if e.player else f"chat {e.text}"
    return repr(e)


def events_text(s: Step, name_of: Callable[[str], Optional[str]] = lambda u: None) -> str:
    """One step's events, consecutive moves between the same places (a stack move) joined."""
    parts: list[str] = []
    group: list[Moved] = []
    for e in s.events:
        if isinstance(e, Moved) and group and (e.src, e.dst, e.onto) == (group[0].src, group[0].dst, group[0].onto):
            group.append(e)
            continue
        if group:
            parts.append(_moves(group, name_of))
            group = []
        if isinstance(e, Moved):
            group = [e]
        else:
            parts.append(_event(e, name_of))
    if group:
        parts.append(_moves(group, name_of))
    return "; ".join(parts)
