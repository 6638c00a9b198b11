"""After a roll, what the red teams found unjudged.

HF1313/HF1314: no retreat or advance ends in a hex an enemy unit holds (Meuse 4.4; Aachen 8.3: "Under no
circumstances may a unit retreat into or through a hex occupied by an enemy unit"). Judged at the phase's end,
whatever the order of the drags: the seeds' red team found a retreat into an enemy's hex unjudged where the
map is not printed (Aachen). Near misses: an attacker dragged into its defender's hex before the defender's
retreat is dragged out, and a retreat into an empty hex. And HF1509 after a battle whose reading breaks a
limit (a hex attacked twice): its advance faults were dropped."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.referee_records import Log
from validator.positions.position import Counter, Position, Where
from validator.records.record_yaml import record_from_yaml
from validator.referee.audit import audit
from validator.source.loader import load_game

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "tests" / "fixtures" / "records"


@pytest.fixture(scope="module")
def games():
    return {g: load_game(ROOT / "source" / g)[0] for g in ("aachen", "meuse")}


def _record(name: str):
    p = RECORDS / f"{name}.yaml"
    return record_from_yaml(p.read_text(encoding="utf-8"), str(p))


def _found(a, *codes) -> list[tuple]:
    return [(f.step, f.code, f.severity, f.hexes, f.rule) for f in a.findings if f.code in codes]


def test_a_retreat_into_an_enemy_hex_when_the_phase_ends(games):
    a = audit(games["aachen"], _record("aachen_retreat_into_enemy_hex"), "aachen")
    ((step, code, severity, hexes, rule),) = _found(a, "HF1313", "HF1314")
    assert (step, code, severity, hexes, rule) == (10, "HF1313", "error", ("2124",), "8.3")
    (f,) = [f for f in a.findings if f.code == "HF1313"]
    assert f.message == ("units of German and US share 2124 at the end of the US Combat Phase of turn 1: a retreat "
                         "or an advance ended there")


def test_the_same_retreat_when_the_log_ends_is_a_warning(games):
    rec = _record("aachen_retreat_into_enemy_hex")
    rec = type(rec)(rec.source, rec.module, rec.engine, rec.start, rec.start_turn, rec.start_phase, rec.steps[:-1])
    assert _found(audit(games["aachen"], rec, "aachen"), "HF1313", "HF1314") == [
        (10, "HF1314", "warning", ("2124",), "8.3")]


def test_an_advance_dragged_before_the_defender_leaves_is_legal(games):
    """Near miss (Meuse): Red 1st Tank Regiment (B13.14) attacks Blue 7th Infantry (B14.14) at 1:1 (roll 4: DR);
    the tank is dragged into B14.14 first, then the defender retreats two hexes; the phase ends."""
    tank, inf = Counter("t", "red-1ad-1tk", "red"), Counter("i", "blue-3id-7", "blue")
    log = Log(Position.of([(tank, Where(hex="B13.14")), (inf, Where(hex="B14.14"))]))
    log.next_turn("1", "red-combat")
    log.roll(4)
    log.move(tank, "B14.14")
    log.move(inf, "B15.14", "B16.14")
    log.next_turn("1", "red-exploitation")
    assert _found(audit(games["meuse"], log.record(), "1"), "HF1313", "HF1314") == []


def test_an_advance_after_a_battle_that_breaks_a_limit_is_still_judged(games):
    """The second red team's case: B1.10 attacked twice (8.1: HF1504 at the second roll), and after it Rec/1,
    which retreated in the first battle and stood two hexes away, dragged into B1.10 (8.7: HF1509). The
    battle's reading breaks a limit, and its advance faults were dropped. Near miss: the two tanks of the
    second battle advancing into B1.10 (step 8) are legal."""
    a = audit(games["meuse"], _record("meuse_advance_after_second_battle"), "1")
    assert [(f.step, f.code) for f in a.findings if f.severity == "error"] == [(4, "HF1504"), (9, "HF1509")]
