"""Referee: the order of moving (Bulge 6.3), phases barred to units that moved (Aachen 4.1/5.5), and a
player touching the other side's pieces; hand-built records on the real trees."""
from dataclasses import replace

import pytest

from tests.referee_records import Log, piece_at, setup_position
from validator.source.loader import load_game
from validator.referee.audit import audit


@pytest.fixture(scope="module")
def bulge():
    game, _ = load_game("source/bulge")
    pos, _ = setup_position(game, "45")
    return game, pos


@pytest.fixture(scope="module")
def aachen():
    game, _ = load_game("source/aachen")
    pos, _ = setup_position(game, "aachen")
    return game, pos


def found(report, code):
    return [(f.step, f.code, f.severity, f.hexes, f.units, f.rule) for f in report.findings if f.code == code]


def reasons(report, step):
    return [x for c in report.coverage["steps"] if c["step"] == step for x in c["reasons"]]


# -- 1. a unit's move is over once another unit starts moving (Bulge 6.3) --

def test_the_tree_transcribes_6_3(bulge):
    game, _ = bulge
    r = game.rules.one_at_a_time
    assert (r.rule, r.move_ends, r.stacks_together) == ("6.3", True, False)


def test_unit_moving_again_after_another_began_moving(bulge):
    game, pos = bulge
    log = Log(pos)
    a, b = piece_at(pos, "TT15"), piece_at(pos, "PP18")
    log.move(a, "TT14")
    log.move(b, "PP17")                                  # a's move is over
    log.move(a, "TT13")
    r = audit(game, log.record())
    assert found(r, "HF1104") == [(3, "HF1104", "error", ("TT14", "TT13"), ("106/422",), "6.3")]
    f = next(f for f in r.findings if f.code == "HF1104")
    assert f.phase == "allied-movement" and f.side == "allied"
    assert f.message == ("106/422 moves again TT14 -> TT13 in the Allied Movement Phase: its move was over "
                         "when 106/424 began moving at step 2")


def test_unit_moving_in_several_drags_before_the_next_is_legal(bulge):
    game, pos = bulge
    log = Log(pos)
    log.move(piece_at(pos, "TT15"), "TT14", "TT13")      # two drags, one move
    log.move(piece_at(pos, "PP18"), "PP17")
    assert found(audit(game, log.record()), "HF1104") == []


def test_next_turn_starts_new_moves(bulge):
    game, pos = bulge
    log = Log(pos)
    a = piece_at(pos, "TT15")
    log.move(a, "TT14")
    log.move(piece_at(pos, "PP18"), "PP17")
    log.next_turn("2")
    log.move(a, "TT13")
    assert found(audit(game, log.record()), "HF1104") == []


def test_stack_dragged_together_is_one_move_read_as_each_in_turn(bulge):
    game, pos = bulge
    log = Log(pos)
    a, b = piece_at(pos, "TT15"), piece_at(pos, "PP18")
    log.move(b, "PP17", "OO18")
    log.move_stack([a, log.pos.counter(b.piece)], "TT14")
    log.move_stack([log.pos.counter(a.piece), log.pos.counter(b.piece)], "TT13")
    r = audit(game, log.record())
    assert found(r, "HF1104") == []
    assert any("6.3 has each unit move individually" in x for x in reasons(r, 3))


def test_a_roll_between_makes_the_later_drag_unjudged(bulge):
    game, pos = bulge
    log = Log(pos)
    a = piece_at(pos, "TT15")
    log.move(a, "TT14")
    log.move(piece_at(pos, "PP18"), "PP17")
    log.roll(3)                                          # may be the combat phase: an advance after combat
    log.move(a, "TT13")
    r = audit(game, log.record())
    assert found(r, "HF1104") == []
    assert any("order of moving (6.3) is not judged" in x for x in reasons(r, 4))


def test_undo_of_the_other_units_move_keeps_the_first_move_open(bulge):
    game, pos = bulge
    log = Log(pos)
    a = piece_at(pos, "TT15")
    log.move(a, "TT14")
    log.move(piece_at(pos, "PP18"), "PP17")
    log.undo()
    log.move(a, "TT13")
    assert found(audit(game, log.record()), "HF1104") == []


def test_one_at_a_time_without_move_ends_judges_nothing(aachen):
    game, pos = aachen
    assert game.rules.one_at_a_time.rule == "5.1" and not game.rules.one_at_a_time.move_ends
    log = Log(pos)
    a = piece_at(pos, "1232")
    log.move(a, "1231")
    log.move(piece_at(pos, "1532"), "1531")
    log.move(a, "1230")
    assert found(audit(game, log.record()), "HF1104") == []


# -- 2. units that moved in the Movement Phase may not move in the Mobile Movement Phase (Aachen 4.1, 5.5) --

def test_mobile_unit_moving_in_both_movement_phases(aachen):
    game, pos = aachen
    log = Log(pos)
    td = piece_at(pos, "1333")
    log.chat("US movement phase")
    log.move(td, "1332")
    log.chat("US mobile movement phase")
    log.move(td, "1331")
    r = audit(game, log.record())
    assert found(r, "HF1105") == [(4, "HF1105", "error", ("1332", "1331"), ("2-2-12 tank destroyer",), "5.5")]
    f = next(f for f in r.findings if f.code == "HF1105")
    assert f.phase == "us-mobile-movement" and "(step 2)" in f.message


def test_another_mobile_unit_in_the_mobile_phase_is_legal(aachen):
    game, pos = aachen
    log = Log(pos)
    log.chat("US movement phase")
    log.move(piece_at(pos, "1333"), "1332")
    log.chat("US mobile movement phase")
    log.move(piece_at(pos, "0107"), "0108")
    assert found(audit(game, log.record()), "HF1105") == []


def test_moved_last_turn_may_move_in_this_turns_mobile_phase(aachen):
    game, pos = aachen
    log = Log(pos)
    td = piece_at(pos, "1333")
    log.chat("US movement phase")
    log.move(td, "1332")
    log.next_turn("2")
    log.chat("US mobile movement phase")
    log.move(td, "1331")
    assert found(audit(game, log.record()), "HF1105") == []


def test_two_drags_with_no_phase_named_are_one_movement_phase(aachen):
    game, pos = aachen
    log = Log(pos)
    td = piece_at(pos, "1333")
    log.move(td, "1332")
    log.move(td, "1331")
    assert found(audit(game, log.record()), "HF1105") == []


# -- 3. a player moving, flipping or removing the other side's pieces --

def _as_player(log: Log, side: str) -> None:
    log.steps = [replace(s, player=side) for s in log.steps]


def test_player_flips_the_other_sides_unit_in_his_movement_phase(aachen):
    game, pos = aachen
    log = Log(pos)
    log.chat("US movement phase")
    log.flip(piece_at(pos, "1226"), {"reduced"})
    _as_player(log, "us")
    r = audit(game, log.record())
    assert found(r, "HF1106") == [(2, "HF1106", "warning", ("1226",), ("1-1-7 infantry",), "4.1")]
    assert "the US player flips the German 1-1-7 infantry" in next(f.message for f in r.findings
                                                                    if f.code == "HF1106")


def test_player_removes_the_other_sides_loss_in_combat_is_legal(aachen):
    game, pos = aachen
    log = Log(pos)
    log.chat("US combat phase")
    log.roll(6)
    log.remove(piece_at(pos, "1226"))
    _as_player(log, "us")
    assert found(audit(game, log.record()), "HF1106") == []


def test_player_of_unknown_side_is_not_judged(aachen):
    game, pos = aachen
    log = Log(pos)
    log.chat("US movement phase")
    log.flip(piece_at(pos, "1226"), {"reduced"})
    _as_player(log, "player 1")
    assert found(audit(game, log.record()), "HF1106") == []


def test_player_flips_his_own_unit_is_legal(aachen):
    game, pos = aachen
    log = Log(pos)
    log.chat("US movement phase")
    log.flip(piece_at(pos, "1232"), {"reduced"})
    _as_player(log, "us")
    assert found(audit(game, log.record()), "HF1106") == []


# -- a phase's own order of moving, read from the tree --

def test_a_phases_own_one_at_a_time_overrides_the_games(tmp_path):
    from tests.conftest import copy_game
    tree = copy_game(tmp_path, "meuse")
    tree.edit("game.yaml", lambda d: d["sequence_of_play"][0].update(one_at_a_time={
        "rule": "9.9", "move_ends_when_another_starts": True, "stacks": "together"}))
    game, _ = load_game(str(tree.path))
    pos, _ = setup_position(game, "1")
    log = Log(pos)
    a = piece_at(pos, "B8.16")
    log.move(a, "B8.15")
    log.move(piece_at(pos, "B9.16"), "B9.15")
    log.move(a, "B8.14")
    r = audit(game, log.record())
    assert found(r, "HF1104") == [(3, "HF1104", "error", ("B8.15", "B8.14"), ("10th Rifle Regiment",), "9.9")]
    assert found(audit(load_game("source/meuse")[0], log.record()), "HF1104") == []   # 4.1 as printed: no


def test_hexforge_checks_lists_the_order_rules():
    import os
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-m", "compiler.cli", "checks"], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": os.getcwd()}, check=True).stdout
    listed = {line.split()[0]: line.split()[1] for line in out.splitlines() if line.startswith("HF11")}
    assert (listed.get("HF1104"), listed.get("HF1105"), listed.get("HF1106")) == ("error", "error", "warning")
