"""Real VASSAL 3.7.9 logs recorded in 2 December's third session from the rulebooks, each with its SCRIPT and
EXPECTED in tests/fixtures/vlogs.

- Ardennes II 3.2 and 3.4: a unit that joined a DG stack is not DG ("do not give it to other units they later stack
  with"), so it may retreat before combat while the DG units Hold (HF1101 before: the Hold check read the stack's
  marker as the unit's). Near miss: a DG unit of the same stack retreating before combat (HF1101, 3.2).
"""
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

# (game, log) -> [(step, code, hexes)] of its errors and warnings
FOUND = {
    ("ardennes2", "ardennes2_joined_dg_stack_retreats"): [],
    ("ardennes2", "ardennes2_joined_dg_stack_dg_retreats"): [(10, "HF1101", ("B34.39", "B39.40"))],
}


@pytest.fixture(scope="module")
def games():
    return {g: load_game(ROOT / "source" / g)[0] for g in ("aachen", "ardennes2", "bulge", "meuse")}


def _audit(games, game_name, log):
    module = VLOGS / f"{game_name}.vmod" if game_name in ("meuse", "bulge") else \
        (SHARED / f"{game_name}.vmod" if SHARED else None)
    if module is None:
        pytest.skip("the Aachen and Ardennes II modules are in shared/vassal-logs")
    game = games[game_name]
    return audit(game, read_log(VLOGS / f"{log}.vlog", module, game), "1" if game_name == "meuse" else None)


@pytest.mark.parametrize("game_name, log", sorted(FOUND))
def test_what_each_log_breaks(games, game_name, log):
    a = _audit(games, game_name, log)
    assert [(f.step, f.code, f.hexes) for f in a.findings if f.severity in ("error", "warning")] == \
        FOUND[(game_name, log)]


def test_a_unit_that_joined_a_dg_stack_may_retreat_before_combat(games):
    a = _audit(games, "ardennes2", "ardennes2_joined_dg_stack_retreats")
    assert not [f for f in a.findings if f.step == 10 and f.severity in ("error", "warning")]
    assert any(f.step == 10 and "read as a retreat before combat" in f.message for f in a.findings)
    b = _audit(games, "ardennes2", "ardennes2_joined_dg_stack_dg_retreats")
    (f,) = [f for f in b.findings if f.code == "HF1101"]
    assert f.rule == "3.2" and "(27)" in f.message and f.message.endswith("a DG defender must Hold (3.2))")
