"""Real VASSAL 3.7.9 logs of the Bulge and of Crossing the Meuse recorded by the seventh and eighth red teams
(2 December) from the rulebooks and RULES.md, each with its SCRIPT and EXPECTED in tests/fixtures/vlogs.

- A chat line that names a phase in passing ("worried about what the Allied movement phase will bring") is a
  remark, not an announcement: an announcement leads with the phase (after a turn's name, a side's, "Now:").
  Before, the remark moved the phase and the German move after it was HF1101; near miss: the same remark,
  then a German move in the Allied Movement Phase the marker shows (HF1101, 24.3).
- Bulge 41.3/41.4, 43.3/43.4: Panzer Brigade 150 and KG Peiper advance after the German 16 AM Combat Phase, in
  the Engineer Phase (`special_moves`); before, 4 x HF1101 each. Near miss: a regiment moved in that phase.
- Bulge 48.3: units set up from their boxes in the first phase, dropped on one hex and spread (a placement).
- Meuse 8.6: a defender eliminated by dragging it into a box (the module has no dead pile): before, "shows no
  loss" (HF1501)."""
from __future__ import annotations

from pathlib import Path

import pytest

from compiler.vassal.vlog import read_log
from validator.referee.audit import audit
from validator.referee.phases import PhaseTracker
from validator.source.loader import load_game

ROOT = Path(__file__).resolve().parents[1]
VLOGS = ROOT / "tests" / "fixtures" / "vlogs"
FOUND = {                                   # log -> (scenario, its errors and warnings: (step, code, rule))
    ("bulge", "bulge_chat_remark"): [],
    ("bulge", "bulge_chat_remark_then_move"): [(11, "HF1101", "24.3")],
    ("bulge", "bulge_pz_bde_150_special_advance"): [],
    ("bulge", "bulge_peiper_special_advance"): [],
    ("bulge", "bulge_engineer_phase_move"): [(7, "HF1101", "24.2.5")],
    ("bulge", "bulge_setup_from_boxes"): [],
    # 6.7 "may not move into or through a hex containing enemy combat units"; 40.6 gives the adjacent hexes:
    # the drop (its way in not costed) onto the Allied unit holding JJ6 (missed before); near miss: bulge_paradrop
    ("bulge", "bulge_paradrop_onto_enemy"): [(29, "HF1202", "6.7")],
    ("bulge", "bulge_paradrop"): [(28, "HF1409", "40.2"), (30, "HF1408", "40.3")],
    ("meuse", "meuse_eliminated_to_box"): [],
}


@pytest.fixture(scope="module")
def games():
    return {g: load_game(ROOT / "source" / g)[0] for g in ("bulge", "meuse")}


@pytest.mark.parametrize("game_name, log", sorted(FOUND))
def test_what_each_log_breaks(games, game_name, log):
    game = games[game_name]
    a = audit(game, read_log(VLOGS / f"{log}.vlog", VLOGS / f"{game_name}.vmod", game))
    assert [(f.step, f.code, f.rule) for f in a.findings if f.severity in ("error", "warning")] == \
        FOUND[(game_name, log)]


@pytest.mark.parametrize("text, phase", [
    ("German Movement Phase", "german-movement"), ("16 AM German combat phase", "german-combat"),
    ("Now: Allied movement", "allied-movement"), ("Turn 17 AM, German Engineer Phase", "german-engineer"),
    ("worried about what the Allied movement phase will bring", None),
    ("after your combat phase I will use my Allied Reinforcement Phase", None),
    ("that German movement phase went well for you", None)])
def test_an_announcement_leads_with_its_phase(games, text, phase):
    t = PhaseTracker(games["bulge"])
    i = t.match_announcement(text)
    assert (t.phases[i].id if i is not None else None) == phase


def test_the_special_advance_is_said_as_read(games):
    game = games["bulge"]
    a = audit(game, read_log(VLOGS / "bulge_pz_bde_150_special_advance.vlog", VLOGS / "bulge.vmod", game))
    reasons = [x for c in a.coverage["steps"] for x in c["reasons"]]
    assert any("Panzer Brigade 150" in x and "read as its special move (41.4); its roll and its length judged" in x
               for x in reasons)
