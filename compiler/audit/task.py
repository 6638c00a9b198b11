"""One log's audit, in whichever process runs it: read it, judge it, write its report page; any failure
is this log's error, never the batch's."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from .chain import previous_of
from .read import Unreadable, other_game, read_any
from .setup import AuditSetup, CannotRun, LogResult, loaded, module_name

_BOARDS: dict[tuple[int, str], tuple[object, object]] = {}


def audit_task(setup: AuditSetup, log: str, page: Optional[str], before: tuple[str, ...] = ()) -> LogResult:
    """Audit one log (and write its page); any failure is this log's error, never the batch's.
    `before`: with --chain, the logs played before it, in order (its start is judged against the last one's
    end; victory hexes taken in any of them are still held)."""
    try:
        return _audit_one(setup, Path(log), page, before)
    except CannotRun as e:
        return LogResult(log, error=str(e))
    except Exception as e:                     # a referee bug must not stop a league's batch
        return LogResult(log, error=f"internal error while auditing ({type(e).__name__}: {e}); please report it")


def _audit_one(setup: AuditSetup, log: Path, page: Optional[str], before: tuple[str, ...]) -> LogResult:
    from validator.referee.audit import UnknownScenario, audit
    game, mod = loaded(setup)
    if not log.is_file():
        return LogResult(str(log), error="no such file")
    try:
        record = read_any(game, log, mod)
    except Unreadable as e:
        return LogResult(str(log), error=str(e))
    other = other_game(game, record)
    if other:
        return LogResult(str(log), error=other)
    try:
        result = audit(game, record, setup.scenario, previous_of(game, mod, before), module_name(mod))
    except UnknownScenario as e:
        return LogResult(str(log), error=str(e))
    page_file = _write_page(setup, game, record, result, page) if setup.report_dir and page else None
    return LogResult(str(log), result, None, tuple(record.warnings), page_file)


def _write_page(setup: AuditSetup, game, record, result, name: str) -> str:
    from compiler.audit_report import write_report
    from validator.referee.dice import dice_stats
    return write_report(setup.report_dir, game, record, result.findings, dice_stats(record),
                        board_renderer=_cached_board, name=name, result=result.result).name


def _cached_board(game, board_id: str):
    """A board's picture (the author's art where it has one), made once per process however many pages show it."""
    from compiler.render.boards import report_board
    key = (id(game), board_id)            # this game's, not another tree's of the same id
    if key not in _BOARDS or _BOARDS[key][0] is not game:
        _BOARDS[key] = (game, report_board(game, board_id))   # the game kept: its id cannot be reused
    return _BOARDS[key][1]
