"""Referee: sequence of play and movement, on hand-built records over the real Aachen tree."""
from dataclasses import replace

import pytest

from tests.referee_records import Log, piece_at, setup_position
from validator.source.loader import load_game
from validator.positions.position import Counter, Where
from validator.referee.audit import audit


@pytest.fixture(scope="module")
def aachen():
    game, _ = load_game("source/aachen")
    pos, _ = setup_position(game, "aachen")
    return game, pos


def found(report, prefix):
    return [(f.step, f.code, f.severity, f.hexes, f.units) for f in report.findings if f.code.startswith(prefix)]


def errors(report):
    return [(f.step, f.code) for f in report.findings if f.severity == "error"]


# -- sequence --

def test_other_side_moving_in_announced_movement_phase(aachen):
    game, pos = aachen
    log = Log(pos)
    log.chat("US movement phase, GT 1")
    log.move(piece_at(pos, "1226"), "1227")
    r = audit(game, log.record())
    assert found(r, "HF11") == [(2, "HF1101", "error", ("1226", "1227"), ("1-1-7 infantry",))]
    f = next(f for f in r.findings if f.code == "HF1101")
    assert (f.turn, f.phase, f.side, f.rule) == ("1", "us-movement", "german", "4.1")
    assert "announced at step 1" in f.phase_label


def test_own_side_moving_in_its_announced_phase_is_legal(aachen):
    game, pos = aachen
    log = Log(pos)
    log.chat("GT 1 German movement")
    log.move(piece_at(pos, "1226"), "1227")
    assert found(audit(game, log.record()), "HF11") == []


def test_first_player_moving_after_second_players_turn_began(aachen):
    game, pos = aachen
    log = Log(pos)
    log.move(piece_at(pos, "1232"), "1231")
    log.move(piece_at(pos, "1226"), "1227")          # the German movement phase begins (inferred)
    log.move(piece_at(pos, "1532"), "1531")
    r = audit(game, log.record())
    assert found(r, "HF11") == [(3, "HF1103", "error", ("1532", "1531"), ("3-3-7 infantry",))]
    f = next(f for f in r.findings if f.code == "HF1103")
    assert f.phase == "german-movement" and "inferred" in f.phase_label and "step 2" in f.message


def test_first_player_then_second_player_then_next_turn_is_legal(aachen):
    game, pos = aachen
    log = Log(pos)
    log.move(piece_at(pos, "1232"), "1231")
    log.move(piece_at(pos, "1532"), "1531")
    log.move(piece_at(pos, "1226"), "1227")
    log.next_turn("2")
    log.move(piece_at(pos, "1629"), "1628")
    assert found(audit(game, log.record()), "HF11") == []


def test_retreat_after_a_roll_in_a_combat_phase_is_not_a_sequence_error(aachen):
    game, pos = aachen
    log = Log(pos)
    us = piece_at(pos, "1232")
    log.move(us, "1231")
    log.roll(5)                                        # may be the US combat phase
    log.move(piece_at(pos, "1226"), "1227")            # a German retreat, or the German movement phase
    log.move(us, "1131")                               # a US advance after combat
    r = audit(game, log.record())
    assert errors(r) == []
    assert any("retreat or an advance" in x for c in r.coverage["steps"] if c["step"] == 4 for x in c["reasons"])


def test_leg_unit_in_mobile_movement_phase(aachen):
    game, pos = aachen
    log = Log(pos)
    log.chat("US mobile movement phase")
    log.move(piece_at(pos, "1232"), "1231")
    r = audit(game, log.record())
    assert found(r, "HF11") == [(2, "HF1102", "error", ("1232", "1231"), ("3-3-7 infantry",))]


def test_mobile_unit_in_mobile_movement_phase_is_legal(aachen):
    game, pos = aachen
    log = Log(pos)
    log.chat("US mobile movement phase")
    log.move(piece_at(pos, "2630"), "2629")
    assert found(audit(game, log.record()), "HF11") == []


# -- movement allowance --

def test_move_beyond_allowance_even_at_the_cheapest_cost(aachen):
    game, pos = aachen
    log = Log(pos)
    log.move(piece_at(pos, "0301"), "0316")            # 15 hexes x 1/2 MP = 7.5 > MA 7
    r = audit(game, log.record())
    assert found(r, "HF1201") == [(1, "HF1201", "error", ("0301", "0316"), ("2-2-7 infantry",))]
    assert "15 hexes cost at least 15/2 MP" in next(f.message for f in r.findings if f.code == "HF1201")


def test_fourteen_hexes_with_ma_seven_is_legal_only_by_road(aachen):
    game, pos = aachen
    log = Log(pos)
    log.move(piece_at(pos, "0301"), "0315")            # 14 x 1/2 = 7 MP: legal only if all of it is road
    r = audit(game, log.record())
    assert errors(r) == []
    assert found(r, "HF1205") == [(1, "HF1205", "warning", ("0301", "0315"), ("2-2-7 infantry",))]
    assert "at least 14 of them" in next(f.message for f in r.findings if f.code == "HF1205")


def test_several_drags_add_up_in_one_phase(aachen):
    game, pos = aachen
    log = Log(pos)
    u = piece_at(pos, "0301")
    log.move(u, "0308", "0316")
    r = audit(game, log.record())
    assert found(r, "HF1201") == [(2, "HF1201", "error", ("0301", "0316"), ("2-2-7 infantry",))]


def test_several_short_drags_within_allowance(aachen):
    game, pos = aachen
    log = Log(pos)
    log.move(piece_at(pos, "1532"), "1531", "1530", "1529")
    r = audit(game, log.record())
    assert found(r, "HF12") == []


def test_new_turn_gives_a_new_allowance(aachen):
    game, pos = aachen
    log = Log(pos)
    u = piece_at(pos, "0301")
    log.move(u, "0308")
    log.next_turn("2")
    log.move(u, "0315")
    assert found(audit(game, log.record()), "HF1201") == []


# -- enemy hexes --

def test_move_onto_enemy_held_hex(aachen):
    game, pos = aachen
    log = Log(pos)
    log.move(piece_at(pos, "2025"), "2124")
    r = audit(game, log.record())
    assert found(r, "HF12") == [(1, "HF1202", "error", ("2124",), ("3-3-7 infantry", "1-1-7 infantry"))]


def test_move_next_to_enemy_is_legal(aachen):
    game, pos = aachen
    log = Log(pos)
    log.move(piece_at(pos, "2025"), "2026")
    assert [f for f in audit(game, log.record()).findings if f.severity != "info"] == []


def test_enemy_leaving_the_hex_afterwards_makes_it_a_warning(aachen):
    game, pos = aachen
    log = Log(pos)
    log.move(piece_at(pos, "2025"), "2124")
    log.remove(piece_at(pos, "2124", "de-inf-1-1-7"))
    assert found(audit(game, log.record()), "HF1202") == [
        (1, "HF1202", "warning", ("2124",), ("3-3-7 infantry", "1-1-7 infantry"))]


def test_path_through_enemy_hex(aachen):
    game, pos = aachen
    blocker = Counter("x1", "de-inf-1-1-7", "german")
    start = pos.placed(blocker, Where(hex="0308"))     # on the only 14-hex path 0301 -> 0315
    log = Log(start)
    log.move(piece_at(start, "0301"), "0315")
    r = audit(game, log.record())
    assert found(r, "HF1203") == [(1, "HF1203", "error", ("0301", "0315"), ("2-2-7 infantry",))]


def test_path_beside_enemy_hex_is_not_through_it(aachen):
    game, pos = aachen
    start = pos.placed(Counter("x1", "de-inf-1-1-7", "german"), Where(hex="0608"))
    log = Log(start)
    log.move(piece_at(start, "0301"), "0315")
    assert found(audit(game, log.record()), "HF1203") == []


# -- zones of control --

def certain_zoc(game):
    return replace(game, rules=replace(game.rules, zoc=replace(game.rules.zoc, exerted_by="all", exerted_assumed=None)))


def test_dragged_on_after_entering_enemy_zoc(aachen):
    game, pos = aachen
    log = Log(pos)
    log.move(piece_at(pos, "0209"), "0309", "0310")   # 0309 and 0310 are next to the German in 0409
    r = audit(certain_zoc(game), log.record())
    assert found(r, "HF1204") == [(2, "HF1204", "error", ("0309", "0310"), ("2-3-7 infantry",))]
    # the real tree assumes every unit exerts a ZOC (6.0 prints no counter): the same log is a warning there
    assert found(audit(game, log.record()), "HF1204") == [
        (2, "HF1204", "warning", ("0309", "0310"), ("2-3-7 infantry",))]


def test_stopping_in_enemy_zoc_is_legal(aachen):
    game, pos = aachen
    log = Log(pos)
    log.move(piece_at(pos, "0209"), "0309")
    assert found(audit(certain_zoc(game), log.record()), "HF12") == []



# -- undo --

def test_an_undone_illegal_move_is_not_judged(aachen):
    game, pos = aachen
    log = Log(pos)
    u = piece_at(pos, "2025")
    log.move(u, "2124")                                # onto an enemy: would be HF1202
    log.undo()
    log.move(u, "2026")
    r = audit(game, log.record())
    assert errors(r) == []
    assert [(f.step, f.code) for f in r.findings if f.code == "HF1903"] == [(1, "HF1903")]
    assert r.coverage["steps"][0]["status"] == "undone"


def test_undo_of_a_roll_leaves_the_moves_alone(aachen):
    game, pos = aachen
    log = Log(pos)
    log.move(piece_at(pos, "2025"), "2124")
    log.roll(3)
    log.undo()                                         # takes back the roll only
    r = audit(game, log.record())
    assert errors(r) == [(1, "HF1202")]
    assert r.dice == []


def test_other_side_moving_after_a_roll_in_an_announced_movement_phase_may_be_a_retreat(aachen):
    game, pos = aachen
    log = Log(pos)
    log.chat("US movement phase, GT 1")
    log.move(piece_at(pos, "1232"), "1231")
    log.roll(2)                                        # the players may have gone on to combat unannounced
    log.move(piece_at(pos, "1226"), "1227")
    r = audit(game, log.record())
    assert errors(r) == []
    f = [x for x in r.coverage["steps"] if x["step"] == 4][0]
    assert f["status"] == "partly" and "retreat or an advance" in f["reasons"][0]


def test_phase_recorded_by_the_turn_marker(aachen):
    game, pos = aachen
    log = Log(pos)
    log.next_turn("1", "german-movement")              # a module whose turn tracker has a phase level
    log.move(piece_at(pos, "1232"), "1231")
    r = audit(game, log.record())
    f = next(f for f in r.findings if f.code == "HF1101")
    assert (f.step, f.phase, f.side) == (2, "german-movement", "us")
    assert "recorded at step 1" in f.phase_label and "turn marker" in f.message


def test_phase_recorded_by_the_turn_marker_legal_move(aachen):
    game, pos = aachen
    log = Log(pos)
    log.next_turn("1", "us-movement")
    log.move(piece_at(pos, "1232"), "1231")
    log.next_turn("1", "us-bombardment")
    log.next_turn("1", "german-movement")
    log.move(piece_at(pos, "1226"), "1227")
    assert errors(audit(game, log.record())) == []
