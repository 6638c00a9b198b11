"""Dice statistics and integrity findings (validator.referee.dice)."""
from __future__ import annotations

import math

import pytest

from conftest import MINI
from validator.source.loader import load_game
from validator.positions.position import Counter, Position, Where
from validator.records.record import Chat, DieRoll, GameRecord, Moved, Step
from validator.referee.audit import audit
from validator.referee.dice import chi_square, chi_square_sf, dice_stats


def dice_findings(game, rec: GameRecord) -> list:
    """The dice rules' findings of a record's audit."""
    return [f for f in audit(game, rec).findings if f.code in ("HF1601", "HF1602", "HF1603")]


def record(steps) -> GameRecord:
    return GameRecord("test.vlog", None, None, Position.of([]), None, None, tuple(steps))


def rolls_of(faces, dice="1d6", player=None, start=1):
    return [Step(start + i, (DieRoll(dice, (f,), f),), player=player) for i, f in enumerate(faces)]


def test_sixty_rolls_exact_chi_square_and_p():
    # counts 5,10,10,10,10,15 of 60: expected 10 each, chi-square = (25 + 0 + 0 + 0 + 0 + 25) / 10 = 5.0.
    # df = 5: p = Q(5/2, 5/2) = erfc(sqrt 2.5) + e^-2.5 (2.5^0.5 / Γ(3/2) + 2.5^1.5 / Γ(5/2)) ≈ 0.415880
    faces = [1] * 5 + [2] * 10 + [3] * 10 + [4] * 10 + [5] * 10 + [6] * 15
    (s,) = dice_stats(record(rolls_of(faces)))
    assert (s.dice, s.side, s.sides, s.rolls, s.faces) == ("1d6", None, 6, 60, (5, 10, 10, 10, 10, 15))
    assert s.mean == pytest.approx((5 + 20 + 30 + 40 + 50 + 90) / 60)
    assert s.chi_square == pytest.approx(5.0, abs=1e-12)
    y = 2.5
    by_hand = math.erfc(math.sqrt(y)) + math.exp(-y) * (y ** 0.5 / math.gamma(1.5) + y ** 1.5 / math.gamma(2.5))
    assert by_hand == pytest.approx(0.415880, abs=1e-6)
    assert s.p_value == pytest.approx(by_hand, abs=1e-9)


def test_even_degrees_of_freedom_closed_form():
    # a five-sided die, 25 rolls, counts 4,5,7,5,4: chi-square (1 + 0 + 4 + 0 + 1) / 5 = 1.2, df 4:
    # p = Q(2, 0.6) = e^-0.6 (1 + 0.6) = 0.8780986
    faces = [1] * 4 + [2] * 5 + [3] * 7 + [4] * 5 + [5] * 4
    (s,) = dice_stats(record(rolls_of(faces, dice="1d5")))
    assert s.chi_square == pytest.approx(1.2)
    assert s.p_value == pytest.approx(1.6 * math.exp(-0.6), abs=1e-9)
    assert s.p_value == pytest.approx(0.8780986, abs=1e-6)


def test_no_p_value_below_five_rolls_per_face():
    (s,) = dice_stats(record(rolls_of([1, 2, 3, 4, 5, 6] * 4)))    # 24 rolls: 4 per face expected
    assert s.chi_square == 0.0 and s.p_value is None


def test_far_tail_uses_the_continued_fraction():
    # x = 20, df = 5: Q(2.5, 10) by the same closed form
    y = 10.0
    by_hand = math.erfc(math.sqrt(y)) + math.exp(-y) * (y ** 0.5 / math.gamma(1.5) + y ** 1.5 / math.gamma(2.5))
    assert chi_square_sf(20.0, 5) == pytest.approx(by_hand, rel=1e-9)
    stat, p = chi_square((0, 0, 0, 0, 0, 60))     # one face only: (5*100 + 2500) / 10 = 300
    assert stat == pytest.approx(300.0) and 0 < p < 1e-60


def test_two_dice_count_every_face_and_split_by_player():
    steps = [Step(1, (DieRoll("2d6", (1, 6), 7),), player="allied"),
             Step(2, (DieRoll("2d6", (6, 6), 12),), player="axis"),
             Step(3, (DieRoll("2d6", (3, 4), 7),), player="allied")]
    stats = dice_stats(record(steps))
    assert [(s.side, s.rolls, s.faces) for s in stats] == [
        (None, 3, (1, 0, 1, 1, 0, 3)), ("allied", 2, (1, 0, 1, 1, 0, 1)), ("axis", 1, (0, 0, 0, 0, 0, 2))]
    (axis,) = dice_stats(record(steps), player_side="axis")
    assert axis.mean == 6.0


def test_reroll_after_undo_is_a_warning_with_steps():
    g, _ = load_game(MINI)
    c = Counter("a", "b1-a", "blue")
    steps = [Step(1, (Moved(c, Where("0101"), Where("0102")),)),
             Step(2, (DieRoll("1d6", (2,), 2),)),
             Step(3, (), undo=True),                      # takes step 2 back
             Step(4, (DieRoll("1d6", (6,), 6),)),         # the re-roll
             Step(5, (DieRoll("1d6", (3,), 3),))]
    found = dice_findings(g, record(steps))
    assert [(f.code, f.severity, f.step) for f in found] == [("HF1601", "warning", 2)]
    assert found[0].message == "step 2: roll 1d6 = 2 was undone; rolled again at step 4"
    (s,) = dice_stats(record(steps))
    assert s.undone == (2,) and s.rolls == 3


def test_undo_of_a_move_is_not_a_roll_undone():
    g, _ = load_game(MINI)
    c = Counter("a", "b1-a", "blue")
    steps = [Step(1, (DieRoll("1d6", (2,), 2),)), Step(2, (Moved(c, Where("0101"), Where("0102")),)),
             Step(3, (), undo=True), Step(4, (DieRoll("1d6", (5,), 5),))]
    assert dice_findings(g, record(steps)) == []


def test_dice_no_table_uses_and_unlikely_dice():
    g, _ = load_game(MINI)                               # the mini tree's only table rolls 1d6
    steps = rolls_of([4, 4], dice="2d10") + rolls_of([6] * 40, start=3)
    found = dice_findings(g, record(steps))
    assert [(f.code, f.step) for f in found] == [("HF1602", 1), ("HF1603", None)]   # the whole log's last
    assert found[0].message == "2 roll(s) of 2d10: no table of the tree is rolled with 2d10"


def test_undo_past_chat_after_a_roll_then_a_reroll():
    g, _ = load_game(MINI)
    steps = [Step(1, (DieRoll("1d6", (1,), 1),)), Step(2, (Chat("oops"),)), Step(3, (), undo=True),
             Step(4, (DieRoll("1d6", (6,), 6),))]
    (f,) = dice_findings(g, record(steps))
    assert (f.code, f.step) == ("HF1601", 1)
    assert f.message == ("step 1: roll 1d6 = 1 may have been undone (an undo took back only chat after it); "
                         "rolled again at step 4")
