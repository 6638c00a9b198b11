"""The red teams' real VASSAL logs in tests/fixtures/vlogs, audited as the recorded-log tests read them."""
from __future__ import annotations

from pathlib import Path

import pytest

from compiler.vassal.vlog import read_log
from validator.referee.audit import audit
from validator.source.loader import load_game

ROOT = Path(__file__).resolve().parents[1]
VLOGS = ROOT / "tests" / "fixtures" / "vlogs"
SHARED = next((p for p in (ROOT.parent / "shared" / "vassal-logs", Path("/work/shared/vassal-logs"))
               if (p / "aachen.vmod").is_file()), None)
GAMES = ("aachen", "ardennes2", "bulge", "meuse")


def load_games() -> dict:
    return {g: load_game(ROOT / "source" / g)[0] for g in GAMES}


def audit_recorded(games, game_name: str, log: str, scenario=None):
    """One log audited with the module it was recorded on (Meuse's and the Bulge's are committed; Aachen's and
    Ardennes II's are in shared/vassal-logs: skipped without them). `scenario`: None infers it."""
    module = VLOGS / f"{game_name}.vmod" if game_name in ("meuse", "bulge") else \
        (SHARED / f"{game_name}.vmod" if SHARED else None)
    if module is None:
        pytest.skip("the Aachen and Ardennes II modules are in shared/vassal-logs")
    game = games[game_name]
    return audit(game, read_log(VLOGS / f"{log}.vlog", module, game), scenario)


def severe(games, game_name: str, log: str, units: bool = False) -> list:
    """(step, code, hexes[, units]) of the log's errors and warnings, as the recorded-log tables list them."""
    a = audit_recorded(games, game_name, log)
    return [(f.step, f.code, f.hexes) + ((f.units,) if units else ()) for f in a.findings
            if f.severity in ("error", "warning")]
