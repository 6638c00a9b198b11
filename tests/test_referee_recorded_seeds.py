"""Real VASSAL 3.7.9 logs of Ardennes II and Aachen recorded by the seeds' red team (2 December) from the
rulebooks, each with its SCRIPT and EXPECTED in tests/fixtures/vlogs: the false accusations they found, now
legal, and the violations beside them, still found.

- Ardennes II 3.3 "Follow a contiguous road into the Defender's hex. (Exception to SCS 6.1d.)": an overrun's
  attacker dragged onto the defender, which then retreats before combat (3.2) or holds (the attacker goes on
  from the hex next to it); a unit dropped onto an enemy and left there is still HF1202.
- Ardennes II 2.2 "Reinforcement Placement: In this Phase, place Reinforcements of both sides": a box dropped
  on a hex, then its units spread, in the placement phase; 3.1 "Divisional Integrity does not apply to
  Reinforcements in their Entry Areas".
- Aachen 14.0 (the 3rd Armored units "may set up along map edge hexes in the range given"): a unit placed in
  its range before the log names a phase, then moved its full allowance; and 5.3 "Only one unit can occupy a
  hex at the end of any phase": a set-up stack the player dragged whole and left stacked is the player's."""
from __future__ import annotations

from pathlib import Path

import pytest

from compiler.vassal.vlog import read_log
from validator.referee.audit import audit
from validator.source.loader import load_game

ROOT = Path(__file__).resolve().parents[1]
VLOGS = ROOT / "tests" / "fixtures" / "vlogs"
SHARED = next((p for p in (ROOT.parent / "shared" / "vassal-logs", Path("/work/shared/vassal-logs"))
               if (p / "ardennes2.vmod").is_file()), None)

# vCoch, DG in the 7.1 set-up with its marker (dragged away from it), moves at half its MA (3.4 "Move 1/2": 12 -> 6):
# its overrun's path fits only along roads the tree does not print (HF1205, a warning); and a DG unit may not
# overrun (3.3 "Not be DG", 3.4), so K/110's retreat before it is no retreat before combat (HF1101): the seeds' red
# team took this overrun as legal; the thirteenth red team read the set-up's "(DG)"
FOUND = {                                # log -> its errors and warnings: (step, code, hexes)
    ("ardennes2", "ardennes2_overrun_retreat"): [(5, "HF1101", ("B19.17", "B14.15")),
                                                 (6, "HF1205", ("B21.19", "B18.16")), (7, "HF1202", ("B20.12",))],
    ("ardennes2", "ardennes2_overrun_hold"): [(6, "HF1205", ("B21.19", "B20.17")), (7, "HF1205", ("B21.19", "B21.16"))],
    ("ardennes2", "ardennes2_overrun_adjacent_placement"): [(4, "HF1101", ("B19.17", "B14.15")),
                                                            (6, "HF1205", ("B21.19", "B18.16"))],
    ("aachen", "aachen_setup_placement"): [(6, "HF1205", ("2929", "2905")), (16, "HF1301", ("1933",))],
    ("aachen", "aachen_setup_stack_dragged"): [(5, "HF1301", ("0304",)), (5, "HF1301", ("2629",))],
}


@pytest.fixture(scope="module")
def games():
    return {g: load_game(ROOT / "source" / g)[0] for g in ("ardennes2", "aachen")}


@pytest.mark.skipif(SHARED is None, reason="the Ardennes II and Aachen modules are in shared/vassal-logs")
@pytest.mark.parametrize("game_name, log", sorted(FOUND))
def test_what_each_log_breaks(games, game_name, log):
    game = games[game_name]
    rec = read_log(VLOGS / f"{log}.vlog", SHARED / f"{game_name}.vmod", game)
    a = audit(game, rec)
    assert [(f.step, f.code, f.hexes) for f in a.findings if f.severity in ("error", "warning")] == \
        FOUND[(game_name, log)]


@pytest.mark.skipif(SHARED is None, reason="the Ardennes II module is in shared/vassal-logs")
def test_the_overrun_and_the_placement_are_said_as_read(games):
    game = games["ardennes2"]
    a = audit(game, read_log(VLOGS / "ardennes2_overrun_retreat.vlog", SHARED / "ardennes2.vmod", game))
    reasons = {c["step"]: c["reasons"] for c in a.coverage["steps"]}
    assert any("read as an overrun (3.3)" in x for x in reasons[3])
    assert any("read as a retreat before combat" in x for x in reasons[9])      # A/9 before 751's attack
    b = audit(game, read_log(VLOGS / "ardennes2_overrun_adjacent_placement.vlog", SHARED / "ardennes2.vmod", game))
    reasons = {c["step"]: c["reasons"] for c in b.coverage["steps"]}
    assert all(any("read as its placement" in x for x in reasons[s]) for s in range(11, 16))


def test_a_unit_alone_on_its_set_up_hex_is_set_up_its_drags_move(games):
    """Near miss of aachen_setup_placement: the 3rd Armored 2-2-12 not in the module's pile but alone in 2630
    (in its range 2630-3028): its drag to 2929 is a move, and the two drags, 27 hexes, are over its 12 MP (5.2)."""
    from validator.positions.position import Counter, Position, Where
    from validator.records.record import GameRecord, Moved, Step
    game = games["aachen"]
    m = Counter("m", "us-3ad-mech-2-2-12", "us")
    steps = (Step(1, (Moved(m, Where(hex="2630"), Where(hex="2929")),)),
             Step(2, (Moved(m, Where(hex="2929"), Where(hex="2905")),)))
    a = audit(game, GameRecord("hand-built", None, None, Position.of([(m, Where(hex="2630"))]), "1", "us-movement",
                               steps), "aachen")
    assert [(f.step, f.code) for f in a.findings if f.severity == "error" and f.step] == [(2, "HF1201")]   # (step 0: the set-up lacks the other units)
