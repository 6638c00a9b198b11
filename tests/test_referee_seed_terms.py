"""The seed games judged by what they print (issue 17), outside combat: a ZOC that rests on an assumption the
tree declares is a warning naming it; a class the ZOC costs instead of stopping (Aachen mobile units, 6.1) is
costed; arrival conditions given as data (Bulge 40.1-40.6, the paradrop) are judged; what stays text is
reported by `hexforge check`. Each: a violation and a legal near miss, on hand-built records."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_referee_ledger_entries import Record
from validator.source.loader import load_game
from validator.positions.scenario_position import starting_position
from validator.positions.position import Counter, Position, Where

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def aachen():
    return load_game(ROOT / "source" / "aachen")[0]


@pytest.fixture(scope="module")
def bulge():
    return load_game(ROOT / "source" / "bulge")[0]


def _found(a, *codes) -> list[tuple]:
    return [(f.step, f.code, f.severity, f.hexes) for f in a.findings if f.code in codes]


# -- Aachen 6.0, 6.1: every unit assumed to exert a ZOC; leg units stop, mobile units pay half their MA --

def _aachen_two(aachen, mover: str, at: str, enemy_at: str) -> Record:
    """A US unit and one German 1-1-6 infantry, nothing else on the map (GT 1, US Movement Phase)."""
    start = Position.of([(Counter("us", mover, "us"), Where(hex=at)),
                         (Counter("de", "de-inf-1-1-6", "german"), Where(hex=enemy_at))])
    return Record(aachen, "aachen", phase="us-movement", start=start)


def test_a_leg_unit_dragged_on_through_a_zoc_is_a_warning_naming_the_assumption(aachen):
    r = _aachen_two(aachen, "us-30id-inf-2-3-7", "1010", "1012")   # 1011 lies between them
    step = r.move("us-30id-inf-2-3-7", "1011", "1110")             # enters the ZOC at 1011, dragged on
    (f,) = [f for f in r.audit(first_phase="us-movement").findings if f.code == "HF1204"]
    assert (f.step, f.severity, f.hexes) == (step, "warning", ("1011", "1110"))
    assert "every unit is assumed to exert a ZOC (6.0: only units marked with a black hexagon exert no ZOC" \
        in f.message


def test_a_leg_unit_that_stops_in_the_zoc_is_legal(aachen):
    r = _aachen_two(aachen, "us-30id-inf-2-3-7", "1010", "1012")
    r.move("us-30id-inf-2-3-7", "1011")
    assert _found(r.audit(first_phase="us-movement"), "HF1204") == []


def test_a_mobile_unit_pays_half_its_ma_to_enter_a_zoc_and_goes_on(aachen):
    """A 6-4-12 panzer (MA 12): entering the ZOC costs 6 more; 1011 then two more hexes is within 12 at the
    TEC's cheapest: no stop (6.1), no finding but the cheapest-cost note."""
    r = _aachen_two(aachen, "de-pz-6-4-12", "1010", "1012")
    r.start = Position.of([(Counter("pz", "de-pz-6-4-12", "german"), Where(hex="1010")),
                           (Counter("us", "us-30id-inf-2-3-7", "us"), Where(hex="1012"))])
    r.pos, r.phase = r.start, "german-movement"
    r.move("de-pz-6-4-12", "1011", "1110")
    assert _found(r.audit(first_phase="german-movement"), "HF1204", "HF1201") == []


def test_a_mobile_unit_the_zoc_cost_puts_over_its_allowance(aachen):
    """The same panzer dragged 1010 -> 1011 -> on eight hexes: 1/2 MP a hex at the cheapest is 4.5 MP, and
    the 6 MP the ZOC costs makes 10.5 of 12 ... so go further: 14 hexes (7 MP) + 6 = 13 > 12."""
    start = Position.of([(Counter("pz", "de-pz-6-4-12", "german"), Where(hex="1010")),
                         (Counter("us", "us-30id-inf-2-3-7", "us"), Where(hex="1012"))])
    r = Record(aachen, "aachen", phase="german-movement", start=start)
    step = r.move("de-pz-6-4-12", "1011", "2511")
    found = _found(r.audit(first_phase="german-movement"), "HF1204")
    assert found == [(step, "HF1204", "warning", ("1010", "2511"))] or \
        [x[:3] for x in found] == [(step, "HF1204", "warning")]


# -- Bulge 40.1-40.6: the paradrop, its arrival's terms as data --

def _drop(bulge, turn: str, phase: str = "german-movement") -> Record:
    return Record(bulge, "45", turn=turn, phase=phase)


def _enter(r: Record, unit: str, h: str) -> int:
    return r.drag(unit, Where(hex=h))


def test_the_paradrop_on_16_am_is_an_error(bulge):
    r = _drop(bulge, "16 AM")
    step = _enter(r, "de-vdh", "JJ6")
    (f,) = [f for f in r.audit("16 AM", "german-movement").findings if f.code == "HF1401"]
    assert (f.step, f.severity, f.rule, f.hexes) == (step, "error", "40.1", ("JJ6",))
    assert f.message == ("Von der Heydte parachute battalion enters at JJ6 on turn 16 AM; its order of arrival brings "
                         "it on turn 17 AM (its condition, 40.1, brings it on that turn and no earlier)")


def test_the_paradrop_on_17_am_is_legal(bulge):
    r = _drop(bulge, "17 AM")
    _enter(r, "de-vdh", "JJ6")
    a = r.audit("17 AM", "german-movement")
    assert [f.code for f in a.findings if f.severity in ("error", "warning")] == []
    step = next(s for s in a.coverage["steps"] if s["step"] == 1)
    assert ("Von der Heydte parachute battalion arrives by a roll (1d6: 1, 40.2); no such roll is in its phase, so "
            "whether it came up is not judged") in step["reasons"]


def test_the_paradrop_may_not_be_delayed(bulge):
    r = _drop(bulge, "17 PM")
    step = _enter(r, "de-vdh", "JJ6")
    (f,) = [f for f in r.audit("17 PM", "german-movement").findings if f.code == "HF1407"]
    assert (f.step, f.rule) == (step, "40.1")
    assert f.message == ("Von der Heydte parachute battalion enters at JJ6 on turn 17 PM: its arrival (40.1) is on "
                         "turn 17 AM and may not be delayed")


def test_the_battalion_may_not_move_on_the_turn_of_its_drop(bulge):
    r = _drop(bulge, "17 AM")
    _enter(r, "de-vdh", "JJ6")
    step = r.move("de-vdh", "JJ7")
    (f,) = [f for f in r.audit("17 AM", "german-movement").findings if f.code == "HF1408"]
    assert (f.step, f.rule, f.hexes) == (step, "40.3", ("JJ6", "JJ7"))


def test_it_drops_next_to_baraque_michel_only_where_an_allied_unit_holds_it(bulge):
    base = starting_position(bulge, bulge.scenario("45"))
    held = base.placed(Counter("al", "us-1-16", "allied"), Where(hex="JJ6"))
    r = Record(bulge, "45", turn="17 AM", phase="german-movement", start=held)
    _enter(r, "de-vdh", "JJ7")
    assert _found(r.audit("17 AM", "german-movement"), "HF1402") == []   # 40.6
    r = _drop(bulge, "17 AM")
    step = _enter(r, "de-vdh", "JJ7")
    assert [x[:2] for x in _found(r.audit("17 AM", "german-movement"), "HF1402")] == [(step, "HF1402")]


def test_the_paradrop_in_another_phase_is_an_error(bulge):
    """40.1: the drop is made during the German movement phase; a drop once the German Combat Phase has
    begun is outside it."""
    r = _drop(bulge, "17 AM", phase="german-combat")
    step = _enter(r, "de-vdh", "JJ6")
    from validator.records.record import Step, TurnChanged
    a = r.audit("17 AM", "german-combat")
    found = [(f.step, f.code, f.rule) for f in a.findings if f.code == "HF1406"]
    assert found == [(step, "HF1406", "40.1")]


# -- what stays text is reported by check --

def test_check_reports_conditions_that_stay_text(mini):
    mini.edit("orders-of-arrival.yaml", lambda d: d["orders_of_arrival"][0]["turns"][0]["arrivals"][0].update(
        condition="Roll one die, it arrives on a 5 or more."))
    from validator.checks import run_checks
    game, findings = load_game(mini.path)
    found = [(f.loc.file, f.loc.line, f.message) for f in run_checks(game) if f.code == "HF511"]
    assert found == [("orders-of-arrival.yaml", 7, "red arrival on turn 2: its condition is text only (Roll one die, "
                                                   "it arrives on a 5 or more.)"),
]


def test_every_seed_condition_is_data():
    """The seed trees give every printed arrival condition as terms (HF511 finds none); Aachen 15.3's trigger
    is declared not judged (HF512)."""
    from validator.checks import run_checks
    for game in ("aachen", "ardennes2", "bulge"):
        g = load_game(ROOT / "source" / game)[0]
        codes = [f.code for f in run_checks(g)]
        assert "HF511" not in codes and "HF513" not in codes, game
        assert ("HF512" in codes) == (game == "aachen"), game


# -- the same on real VASSAL 3.7.9 logs (tests/fixtures/vlogs) --

VLOGS = ROOT / "tests" / "fixtures" / "vlogs"
SHARED_AACHEN = next((p for p in (ROOT.parent / "shared" / "vassal-logs" / "aachen.vmod",
                                  Path("/work/shared/vassal-logs/aachen.vmod")) if p.exists()), None)


def _real(game, name: str, vmod: Path):
    from compiler.vassal.vlog import read_log
    from validator.referee.audit import audit
    return audit(game, read_log(VLOGS / f"{name}.vlog", vmod, game))


@pytest.mark.skipif(SHARED_AACHEN is None, reason="shared/vassal-logs/aachen.vmod not available")
def test_aachen_zoc_on_a_real_log(aachen):
    a = _real(aachen, "aachen_zoc", SHARED_AACHEN)
    assert [(f.step, f.code, f.severity, f.hexes, f.rule) for f in a.findings if f.severity != "info"] == [
        (3, "HF1204", "warning", ("0309", "0310"), "6.1")]     # the mobile tank destroyer (steps 4-5): nothing


def test_the_paradrop_on_real_logs(bulge):
    early = _real(bulge, "bulge_paradrop_early", VLOGS / "bulge.vmod")
    assert early.scenario == "45"                         # inferred from the holding boxes (no set-up printed)
    assert [(f.step, f.code, f.rule, f.hexes) for f in early.findings if f.severity == "error"] == [
        (4, "HF1401", "40.1", ("JJ6",))]
    drop = _real(bulge, "bulge_paradrop", VLOGS / "bulge.vmod")
    assert [(f.step, f.code, f.rule, f.hexes) for f in drop.findings if f.severity == "error"] == [
        (28, "HF1409", "40.2", ("JJ6",)),                 # its roll (step 29) a 3, and it stays on the map
        (30, "HF1408", "40.3", ("JJ6", "JJ7"))]
