"""`hexforge replay LOG`: a VASSAL log's steps as the record reads them, one line each, no judging.

    step 3: move 3-3-7 infantry (us-1id-inf-3-3-7, piece 1037) 2025 -> 2124 onto 1006

`--end` gives where the log ends instead: the position after its last step (VASSAL's undo taken back),
with the turn and phase; as YAML (`--format yaml`) it is a record whose start is that position and
which has no steps, the start of the next log of a game played one log per turn
(`hexforge audit --chain`), to which the next turn's steps can be added by hand.

Exit 0 when the log was read, 2 (with a located message, no traceback) when it, the module or the
game tree cannot be read. Warnings (pieces the reader could not map, metadata ignored) go to stderr.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Optional

import click

from compiler.vassal.vlog import LogReadError, read_log
from validator.records.record import GameRecord, Step
from validator.records.record_text import counter_text, events_text, namer


def _fail(msg: str) -> int:
    click.echo(f"hexforge: error: {msg}", err=True)
    return 2


def _load_tree(path: Path):
    from validator.source.loader import NotAGameTree, load_game
    try:
        game, diags = load_game(path)
    except NotAGameTree as e:
        return None, str(e)
    if game is None:
        errors = [d for d in diags if d.severity == "error"]
        first = f": {errors[0].loc}: {errors[0].message}" if errors else ""
        return None, f"{path} has errors{first} (run `hexforge check {path}`)"
    return game, None


def replay_command(log: Path, module: Optional[Path], game_path: Optional[Path], fmt: str,
                   end: bool = False) -> int:
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
        from validator.records.record_yaml import record_to_yaml
        click.echo(record_to_yaml(end_record(record) if end else record), nl=False)
    else:
        for line in (end_lines if end else text_lines)(record, namer(game)):
            click.echo(line)
    return 0


def end_record(record: GameRecord) -> GameRecord:
    """The record's end as a record of its own: the last position, turn and phase as its start, no steps."""
    from validator.referee.chain import ends
    e = ends(record)
    return GameRecord(f"the end of {record.source} (after step {record.steps[-1].index})" if record.steps
                      else record.source, record.module, record.engine, e.end, e.end_turn, e.end_phase, (),
                      record.players, record.warnings)


# -- text ------------------------------------------------------------------------------------------

def _step_text(s: Step, name_of) -> str:
    head = f"step {s.index}" + (f" [{s.player}]" if s.player else "") + (": undo" if s.undo else "")
    text = events_text(s, name_of)
    return f"{head}: {text}" if text else f"{head}: (no change the record keeps)"


def end_lines(record: GameRecord, name_of: Callable[[str], Optional[str]] = lambda u: None):
    """Where the log ends, as text: a head line, then each place with its counters, bottom first."""
    end = end_record(record)
    units = sum(1 for _ in end.start.units())
    after = f" after step {record.steps[-1].index}" if record.steps else ""
    turn = f", turn {end.start_turn}" if end.start_turn else ""
    phase = f", phase {end.start_phase}" if end.start_phase else ""
    yield (f"{record.source}: {record.module or 'unknown module'}, {record.engine or 'unknown engine'}; "
           f"end{after}: {units} units, {len(end.start) - units} markers{turn}{phase}")
    places: dict[str, list] = {}
    for c, w in end.start:
        places.setdefault(str(w), []).append(c)
    for place, counters in places.items():
        yield f"{place}: " + ", ".join(counter_text(c, name_of) for c in counters)


def text_lines(record: GameRecord, name_of: Callable[[str], Optional[str]] = lambda u: None):
    units = sum(1 for _ in record.start.units())
    turn = f", turn {record.start_turn}" if record.start_turn else ""
    phase = f", phase {record.start_phase}" if record.start_phase else ""
    yield (f"{record.source}: {record.module or 'unknown module'}, {record.engine or 'unknown engine'}; "
           f"start: {units} units, {len(record.start) - units} markers{turn}{phase}; {len(record.steps)} steps")
    for s in record.steps:
        yield _step_text(s, name_of)
