"""Referee: stacking and mixing at phase ends, the starting position, reinforcements and removals."""
from dataclasses import replace

import pytest

from tests.referee_records import Log, piece_at, setup_position
from validator.source.loader import load_game
from validator.positions.position import Counter, Where
from validator.referee.audit import UnknownScenario, audit
from validator.referee.replay import replay
from validator.referee.start import match
from validator.referee.view import Facts


@pytest.fixture(scope="module")
def aachen():
    game, _ = load_game("source/aachen")
    pos, _ = setup_position(game, "aachen")
    return game, pos


@pytest.fixture(scope="module")
def ardennes():
    game, _ = load_game("source/ardennes2")
    pos, _ = setup_position(game, "7.1")
    return game, pos


def found(report, prefix):
    return [(f.step, f.code, f.severity, f.hexes, f.units) for f in report.findings if f.code.startswith(prefix)]


# -- stacking --

def test_two_units_in_a_hex_at_the_end_of_the_phase(aachen):
    game, pos = aachen
    log = Log(pos)
    log.move(piece_at(pos, "1232"), "1231")
    log.move(piece_at(pos, "1532"), "1431", "1331", "1231")
    log.next_turn("2")
    r = audit(game, log.record())
    assert found(r, "HF13") == [(5, "HF1301", "error", ("1231",), ("3-3-7 infantry", "3-3-7 infantry"))]
    assert next(f.rule for f in r.findings if f.code == "HF1301") == "5.3"


def test_passing_through_a_friendly_unit_is_legal(aachen):
    game, pos = aachen
    log = Log(pos)
    log.move(piece_at(pos, "1232"), "1231")
    log.move(piece_at(pos, "1532"), "1431", "1331", "1231", "1230")
    log.next_turn("2")
    assert found(audit(game, log.record()), "HF13") == []


def test_overstack_when_the_log_ends_is_a_warning(aachen):
    game, pos = aachen
    log = Log(pos)
    log.move(piece_at(pos, "1232"), "1231")
    log.move(piece_at(pos, "1532"), "1431", "1331", "1231")
    assert found(audit(game, log.record()), "HF13") == [
        (4, "HF1302", "warning", ("1231",), ("3-3-7 infantry", "3-3-7 infantry"))]


def test_setup_stack_left_where_it_is_is_not_the_players_doing(aachen):
    game, pos = aachen
    log = Log(pos)
    log.move(pos.at("1232")[0], "1231")
    log.next_turn("2")
    r = audit(game, log.record())
    assert found(r, "HF13") == []
    assert [(f.code, f.severity, f.hexes) for f in r.findings if f.code == "HF1005"] == [
        ("HF1005", "info", ("1934",)), ("HF1005", "info", ("2630",))]


def test_setup_stack_moved_whole_and_left_stacked_is(aachen):
    """5.3 "Only one unit can occupy a hex at the end of any phase": once a player drags the module's set-up
    pile (all of it at once, as VASSAL drags a stack), where it ends is theirs (the seeds' red team's miss)."""
    game, pos = aachen
    log = Log(pos)
    log.move_stack(pos.at("1934"), "1933")
    log.next_turn("2")
    assert [x[:4] for x in found(audit(game, log.record()), "HF13")] == [(2, "HF1301", "error", ("1933",))]


def test_two_units_of_a_setup_stack_joined_elsewhere_are(aachen):
    game, pos = aachen
    a, b = pos.at("2630")[:2]
    log = Log(pos)
    log.move(a, "2629")
    log.move(b, "2629")
    log.next_turn("2")
    assert [x[:4] for x in found(audit(game, log.record()), "HF13")] == [(3, "HF1301", "error", ("2629",))]


def test_overstack_the_rules_turn_into_dg(ardennes):
    game, pos = ardennes
    extra = Counter("x1", "us-9ad-27", "allied")
    start = pos.placed(extra, Where(hex="B14.24"))
    log = Log(start)
    log.move(extra, "B14.23")                          # a fourth unit: over the limit of 3
    log.next_turn("2")
    r = audit(game, log.record(), "7.1")
    assert [(f.step, f.code, f.severity, f.hexes) for f in r.findings if f.code == "HF1301"] == [
        (2, "HF1301", "warning", ("B14.23",))]
    assert "DG" in next(f.message for f in r.findings if f.code == "HF1301")


def test_overstack_marked_dg_is_legal(ardennes):
    game, pos = ardennes
    extra = Counter("x1", "us-9ad-27", "allied")
    start = pos.placed(extra, Where(hex="B14.24"))
    log = Log(start)
    log.move(extra, "B14.23")
    for c in log.pos.at("B14.23"):
        log.flip(c, {"dg"})
    log.next_turn("2")
    assert [f for f in audit(game, log.record(), "7.1").findings if f.code == "HF1301"] == []


def test_two_divisions_in_a_stack_without_dg(ardennes):
    game, pos = ardennes
    other = Counter("x2", "us-2id-a-23", "allied")
    start = pos.placed(other, Where(hex="B20.43"))
    log = Log(start)
    log.move(other, "B20.42")                          # joins two 9th Armored units
    log.next_turn("2")
    r = audit(game, log.record(), "7.1")
    assert [(f.step, f.code, f.severity, f.hexes) for f in r.findings if f.code == "HF1311"] == [
        (2, "HF1311", "warning", ("B20.42",))]


# -- starting position --

def test_setup_as_the_module_places_it(aachen):
    game, pos = aachen
    r = audit(game, Log(pos).record())
    codes = [f.code for f in r.findings if f.code.startswith("HF100")]
    assert codes == ["HF1005", "HF1005", "HF1006"]
    f = next(f for f in r.findings if f.code == "HF1006")
    assert r.scenario == "aachen" and r.scenario_score == 1.0 and "42 of 42" in f.message


def test_start_position_differences(aachen):
    game, pos = aachen
    moved = piece_at(pos, "0301")
    gone = piece_at(pos, "0332")
    start = pos.moved(moved.piece, Where(hex="0303")).removed(gone.piece)
    start = start.placed(Counter("x9", "us-29id-corps-eng-5-4-8", "us"), Where(hex="0505"))
    r = audit(game, Log(start).record(), "aachen")
    got = sorted((f.code, f.hexes, f.units) for f in r.findings if f.code in ("HF1001", "HF1002", "HF1003"))
    assert got == [("HF1001", ("0332",), ("3-3-8 engineer",)),
                   ("HF1002", ("0505",), ("5-4-8 engineer",)),
                   ("HF1003", ("0303",), ("2-2-7 infantry",))]


def test_unknown_scenario_is_refused(aachen):
    game, pos = aachen
    with pytest.raises(UnknownScenario, match="no-such"):
        audit(game, Log(pos).record(), "no-such")


# -- reinforcements and removals --

def _at_turn(pos, turn_steps):
    log = Log(pos)
    for t in turn_steps:
        log.next_turn(t)
    return log


def test_reinforcement_on_its_turn_at_its_entry(aachen):
    game, pos = aachen
    log = _at_turn(pos, ["2", "3", "4"])
    log.enter(Counter("r1", "de-inf-2-3-7", "german"), "2204")
    log.enter(Counter("r2", "de-inf-4-5-7", "german"), "2205")     # printed "2105 or 2205"
    assert found(audit(game, log.record()), "HF14") == []


def test_reinforcement_before_its_turn(aachen):
    game, pos = aachen
    log = _at_turn(pos, ["2", "3"])
    log.enter(Counter("r1", "de-inf-2-3-7", "german"), "2204")
    assert found(audit(game, log.record()), "HF14") == [(3, "HF1401", "error", ("2204",), ("2-3-7 infantry",))]


def test_reinforcement_at_another_hex_it_may_have_moved_to_is_a_note(aachen):
    """15.0: it arrives at 2204 paying that hex's MP, then moves: 2206, two hexes on, is a reading within
    its MA of 7. The tree says it arrives in its side's movement phases (`arrivals`), so the way in is costed:
    at the TEC's cheapest cost where the terrain is not printed (a note, no finding)."""
    game, pos = aachen
    log = _at_turn(pos, ["2", "3", "4"])
    log.enter(Counter("r1", "de-inf-2-3-7", "german"), "2206")
    r = audit(game, log.record())
    assert found(r, "HF14") == []
    (note,) = [f for f in r.findings if f.step == 4 and f.severity == "info"]
    assert note.message == ("partly verified: terrain not printed for every hex or hexside of the path: the TEC's "
                            "cheapest cost (1/2 MP per hex) assumed there")


def test_reinforcement_farther_than_its_allowance_takes_it_from_its_entry(aachen):
    """2220 is 16 hexes from 2204: more than 7 MP takes it even at the TEC's cheapest 1/2 MP a hex."""
    game, pos = aachen
    log = _at_turn(pos, ["2", "3", "4"])
    log.enter(Counter("r1", "de-inf-2-3-7", "german"), "2220")
    (f,) = [f for f in audit(game, log.record()).findings if f.code.startswith("HF14")]
    assert (f.step, f.code, f.severity, f.hexes, f.units) == (4, "HF1402", "error", ("2220", "2204"),
                                                               ("2-3-7 infantry",))
    assert f.message.endswith("brings it in at 2204, and no path from a hex of that area reaches 2220 within its "
                              "movement allowance of 7 (the cheapest way from it costs 17/2 MP, entering at 2204)")


def test_unit_in_no_list_is_a_note_where_a_gap_may_hide_it(aachen):
    game, pos = aachen
    log = Log(pos)
    log.enter(Counter("r1", "de-183-fus", "german"), "1010")
    r = audit(game, log.record())
    assert found(r, "HF14") == [(1, "HF1403", "info", ("1010",), ("183/Fus.",))]
    sc = game.scenario("aachen")
    no_gap = replace(sc, setup=tuple(g for g in sc.setup if not g.gap))
    rec = log.record()
    ctx = replay(game, rec, no_gap, Facts(game, no_gap, rec, match(game, no_gap, pos)))
    assert [(f.code, f.severity) for f in ctx.findings if f.code == "HF1403"] == [("HF1403", "error")]


def test_removed_unit_coming_back(aachen):
    game, pos = aachen
    log = Log(pos)
    gone = piece_at(pos, "0409")
    log.remove(gone)
    log.enter(gone, "0409", box="Dead pile")
    assert found(audit(game, log.record()), "HF14") == [(2, "HF1404", "warning", ("0409",), ("0-1-6 infantry",))]


def test_a_log_that_begins_later_is_not_compared_with_the_setup(aachen):
    game, pos = aachen
    start = pos.moved(piece_at(pos, "0301").piece, Where(hex="0303"))
    r = audit(game, Log(start, turn="5").record(), "aachen")
    assert [f.code for f in r.findings if f.code.startswith("HF100")] == ["HF1005", "HF1005", "HF1007"]


def test_nationalities_kept_apart_at_the_end_of_the_phase():
    game, _ = load_game("source/bulge")
    us, uk = Counter("a", "us-106-422", "allied"), Counter("b", "uk-33-tank-bde", "allied")
    from validator.positions.position import Position
    pos = Position.of([(us, Where(hex="W2")), (uk, Where(hex="X2"))])
    log = Log(pos, turn=game.turns[0].id)
    log.move(uk, "W2")
    log.next_turn(game.turns[1].id)
    r = audit(game, log.record(), "45")
    assert [(f.step, f.code, f.severity, f.hexes, f.rule) for f in r.findings if f.code == "HF1311"] == [
        (2, "HF1311", "error", ("W2",), "10.2")]


def test_same_nationality_stacked_is_not_mixing():
    game, _ = load_game("source/bulge")
    from validator.positions.position import Position
    a, b = Counter("a", "us-106-422", "allied"), Counter("b", "us-99-395", "allied")
    log = Log(Position.of([(a, Where(hex="W2")), (b, Where(hex="X2"))]), turn=game.turns[0].id)
    log.move(b, "W2")
    log.next_turn(game.turns[1].id)
    assert [f for f in audit(game, log.record(), "45").findings if f.code.startswith("HF13")] == []


def test_a_sequence_without_movement_data_still_judges_paths(aachen):
    game, pos = aachen
    bare = replace(game, phases=tuple(replace(p, moves=None) for p in game.phases))
    log = Log(pos)
    log.move(piece_at(pos, "0301"), "0316")
    r = audit(bare, log.record())
    assert [(f.step, f.code) for f in r.findings if f.severity == "error"] == [(1, "HF1201")]
    assert any("does not say in which phases" in x for x in r.coverage["steps"][0]["reasons"])


def test_more_reinforcements_than_printed(aachen):
    game, pos = aachen
    log = _at_turn(pos, ["2", "3", "4"])
    log.enter(Counter("r1", "de-inf-2-3-7", "german"), "2204")
    log.move(Counter("r1", "de-inf-2-3-7", "german"), "2304")
    log.enter(Counter("r2", "de-inf-2-3-7", "german"), "2204")     # GT 4 brings one 2-3-7 only
    assert found(audit(game, log.record()), "HF14") == [(6, "HF1405", "error", ("2204",), ("2-3-7 infantry",))]
