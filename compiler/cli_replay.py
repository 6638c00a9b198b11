"""`hexforge replay LOG`: a VASSAL log's steps as the record reads them, one line each, no judging.

    step 3: move 3-3-7 infantry (us-1id-inf-3-3-7, piece 1037) 2025 -> 2124 onto 1006

Exit 0 when the log was read, 2 (with a located message, no traceback) when it, the module or the
game tree cannot be read. Warnings (pieces the reader could not map, metadata ignored) go to stderr.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Optional

import click

from compiler.vassal.vlog import LogReadError, read_log
from validator.record import Chat, DieRoll, Event, GameRecord, Moved, Placed, Removed, StateChanged, Step, TurnChanged


def _fail(msg: str) -> int:
    click.echo(f"hexforge: error: {msg}", err=True)
    return 2


def _load_tree(path: Path):
    from validator.loader import NotAGameTree, load_game
    try:
        game, diags = load_game(path)
    except NotAGameTree as e:
        return None, str(e)
    if game is None:
        errors = [d for d in diags if d.severity == "error"]
        first = f": {errors[0].loc}: {errors[0].message}" if errors else ""
        return None, f"{path} has errors{first} (run `hexforge check {path}`)"
    return game, None


def replay_command(log: Path, module: Optional[Path], game_path: Optional[Path], fmt: str) -> int:
    game = None
    if game_path is not None:
        game, err = _load_tree(game_path)
        if err:
            return _fail(err)
    if module is not None and not module.is_file():
        return _fail(f"{module}: no such module file")
    try:
        record = read_log(log, module, game)
    except LogReadError as e:
        return _fail(str(e))
    for w in record.warnings:
        click.echo(f"warning: {w}", err=True)
    if fmt == "yaml":
        from validator.record_yaml import record_to_yaml
        click.echo(record_to_yaml(record), nl=False)
    else:
        for line in text_lines(record, _namer(game)):
            click.echo(line)
    return 0


# -- text ------------------------------------------------------------------------------------------

def _namer(game) -> Callable[[str], Optional[str]]:
    """Unit (or marker) id -> its name as printed, when the game tree is known."""
    names: dict[str, str] = {}
    if game is not None:
        names.update({m.id: m.name for m in game.markers})
        names.update({u.id: u.name for u in game.units})
    return names.get


def _who(c, name_of) -> str:
    name = name_of(c.unit)
    return f"{name} ({c.unit}, piece {c.piece})" if name else f"{c.unit} (piece {c.piece})"


def _states(s) -> str:
    return ", ".join(sorted(s)) or "normal"


def _moves(moves: list[Moved], name_of) -> str:
    m = moves[0]
    onto = f" onto {m.onto}" if m.onto else ""
    if len(moves) == 1:
        return f"move {_who(m.counter, name_of)} {m.src} -> {m.dst}{onto}"
    who = ", ".join(_who(x.counter, name_of) for x in moves)
    return f"move stack of {len(moves)}: {who} {m.src} -> {m.dst}{onto}"


def _event(e: Event, name_of) -> str:
    if isinstance(e, Placed):
        return f"place {_who(e.counter, name_of)} at {e.where}"
    if isinstance(e, Removed):
        return f"remove {_who(e.counter, name_of)} from {e.where}"
    if isinstance(e, StateChanged):
        return f"state {_who(e.counter, name_of)} in {e.where}: {_states(e.counter.state)} (was {_states(e.old_state)})"
    if isinstance(e, DieRoll):
        return f"roll {e.dice}: {','.join(map(str, e.faces))} (total {e.total})"
    if isinstance(e, TurnChanged):
        ids = ", ".join(x for x in (f"turn {e.turn}" if e.turn else "", f"phase {e.phase}" if e.phase else "") if x)
        return f"turn {e.printed or e.turn} ({ids})" if ids else f"turn {e.printed}"
    if isinstance(e, Chat):
        return f"chat <{e.player}> {e.text}" if e.player else f"chat {e.text}"
    return repr(e)


def _step_text(s: Step, name_of) -> str:
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
    head = f"step {s.index}" + (f" [{s.player}]" if s.player else "") + (": undo" if s.undo else "")
    return f"{head}: {'; '.join(parts)}" if parts else f"{head}: (no change the record keeps)"


def text_lines(record: GameRecord, name_of: Callable[[str], Optional[str]] = lambda u: None):
    units = sum(1 for _ in record.start.units())
    turn = f", turn {record.start_turn}" if record.start_turn else ""
    phase = f", phase {record.start_phase}" if record.start_phase else ""
    yield (f"{record.source}: {record.module or 'unknown module'}, {record.engine or 'unknown engine'}; "
           f"start: {units} units, {len(record.start) - units} markers{turn}{phase}; {len(record.steps)} steps")
    for s in record.steps:
        yield _step_text(s, name_of)
