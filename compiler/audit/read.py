"""Reading a log of any kind for the audit: a VASSAL log or saved game (.vlog, .vsav) with the module's
boards, or a YAML game record (.yaml, .yml); each failure is the log's own located error."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from .setup import module_name


class Unreadable(Exception):
    """Why a log cannot be read (the message the output shows after "cannot audit:")."""


def read_any(game, log: Path, mod):
    """The game record in `log`, by its kind."""
    if log.suffix.lower() in (".yaml", ".yml"):
        return _read_record(log)
    return _read_vassal(game, log, mod)


def _read_record(log: Path):
    from validator.records.record_yaml import RecordError, read_record
    try:
        return read_record(log)
    except RecordError as e:
        raise Unreadable(f"{e.loc}: {e.message}" + (f" ({e.help})" if e.help else ""))


def _read_vassal(game, log: Path, mod):
    from compiler.vassal.vlog import LogReadError, read_log
    try:
        return read_log(log, module=mod, game=game)
    except LogReadError as e:
        raise Unreadable(e.message if e.step is None else f"step {e.step}: {e.message}")
    except (KeyError, ValueError, IndexError) as e:   # e.g. a log played with another module's boards
        raise Unreadable(f"does not fit the module {module_name(mod)!r} ({type(e).__name__}: {e}); "
                         "pass the module the log was played with (--module)")


def other_game(game, record) -> Optional[str]:
    """Why the log cannot be of this game: it holds units, and none of them is one of the tree's."""
    units = [c.unit for c, _ in record.start.units()]
    if units and not any(game.unit(u) for u in units):
        return (f"none of the log's {len(units)} units is a unit of {game.title} (the log names module "
                f"{record.module or 'unknown'!r}): audit it with its own game's tree")
    return None
