"""The combat table reading (validator.referee.crt) and battle judging (validator.referee.combat)."""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from pathlib import Path

import pytest

from conftest import MINI, SOURCE
from validator.source.loader import load_game
from validator.source.model import TableClamp
from validator.positions.position import Counter, Position, Where
from validator.records.record import DieRoll, Moved, Placed, Removed, StateChanged
from validator.referee.combat import judge_battle, modifier_sums
from validator.referee.crt import (ILLEGIBLE, NOT_PRINTED, Bounds, combat_tables, parse_differential, parse_odds,
                                   read_table, round_odds)


def _game(path):
    g, diags = load_game(path)
    assert g is not None, [str(d) for d in diags]
    return g


@pytest.fixture(scope="module")
def games():
    return {n: _game(SOURCE / n) for n in ("bulge", "aachen", "ardennes2")}


@pytest.fixture(scope="module")
def mini_game():
    return _game(MINI)


def _crt(game, tid="crt"):
    return next(ct for ct in combat_tables(game) if ct.id == tid)


def _bounds(line):
    return [(c.printed, c.bounds.lo if c.bounds else None, c.bounds.hi if c.bounds else None) for c in line.columns]


F = Fraction


# -- reading the three real tables --
def test_bulge_crt_columns_and_cells(games):
    ct = _crt(games["bulge"])
    assert ct.method == "odds" and ct.rounding == "defender"
    b = _bounds(ct.headings)
    assert b[0] == ("1-7", F(1, 7), F(1, 7))
    assert b[5] == ("1-2", F(1, 2), F(1, 2))
    assert b[6] == ("1-1", 1, 1)
    assert b[-1] == ("8-1+", 8, None)
    assert ct.headings.clamp == TableClamp("lowest", "highest", "17.1.4, 17.1.5")
    assert sorted(ct.rows) == list(range(-1, 9))
    (cell,) = ct.cells_at(3, 8)                                    # 8.2 example: 3-1, roll 3 = Exchange
    assert [r.code for r in cell.results] == ["Exch."]
    (cell,) = ct.cells_at(2, 9)                                    # 4-1, roll 2: "DR3 / AA2"
    assert [(r.code, r.number) for r in cell.results] == [("DR#", 3), ("AA#", 2)]
    assert cell.results[0].effect.defender.blocked == "eliminated"
    # the reconstructed "? / AA3": its upper result is one of those printed with an AA# lower one, DE likely
    cells = ct.cells_at(-1, 13)
    assert [c.printed for c in cells] == ["DE / AA3", "DR2 / AA3", "DR3 / AA3", "DR4 / AA3"]
    assert [c.unlikely is None for c in cells] == [True, False, False, False] and all(c.unprinted for c in cells)
    assert ct.rows[-1][13].state == ILLEGIBLE                      # as printed
    # below 1-7 uses 1-7, above 8-1 uses 8-1 (17.1.4, 17.1.5)
    assert ct.headings.lookup(round_odds(1, 9)).column == 0
    assert ct.headings.lookup(round_odds(40, 3)).column == 13


def test_odds_round_in_the_defenders_favour():
    # the 17.1.1 examples: 16 vs 9 -> 1-1, 14 vs 6 -> 2-1, 4 vs 15 -> 1-4
    assert round_odds(16, 9) == 1
    assert round_odds(14, 6) == 2
    assert round_odds(4, 15) == F(1, 4)
    assert round_odds(4, 15, "attacker") == F(1, 3)
    assert round_odds(5, 10) == F(1, 2)


def test_aachen_crt_terrain_lines(games):
    ct = _crt(games["aachen"])
    assert ct.method == "differential"
    assert all(c.bounds is None for c in ct.headings.columns)      # numbered columns: bounds are per line
    mountain = ct.line_for("mountain")
    city = ct.line_for("rough")
    assert city is ct.line_for("city") and city is not mountain
    assert _bounds(mountain)[:4] == [("−1", -1, -1), ("0", 0, 0), ("+1", 1, 1), ("+2, +3", 2, 3)]
    assert _bounds(mountain)[7] == ("+10", 10, 10) and _bounds(mountain)[8] == ("", None, None)
    assert mountain.lookup(14).column == 7                        # "greater than +10 as +10"
    assert mountain.lookup(-5).column == 0                        # "less than the lowest ... at the lowest"
    assert city.lookup(3).column is None and "does not say" in city.lookup(3).reason
    assert ct.line_for("clear") is None                           # no clear line is printed
    (cell,) = ct.cells_at(1, 0)
    assert [r.code for r in cell.results] == ["(A)"] and cell.results[0].effect.attacker.steps == "1"
    # rows 2-6 are not printed: each of their cells is read as any one code of the key (tables.yaml unprinted)
    assert [c.printed for c in ct.cells_at(2, 0)] == [k.code for k in ct.table.key]
    assert all(c.unprinted and c.unlikely is None for c in ct.cells_at(6, 11))


def test_ardennes_crt_rows_and_short_row(games):
    ct = _crt(games["ardennes2"])
    assert _bounds(ct.headings)[0] == ("1:4", F(1, 4), F(1, 4))
    assert _bounds(ct.headings)[-1] == ("7:1+", 7, None)
    assert sorted(ct.rows) == [2, 3, 4]
    (cell,) = ct.cells_at(2, 8)
    assert [(r.code, r.number) for r in cell.results] == [("A#", 1), ("D#", 1)]
    # row 4 prints 9 cells for 10 columns: column 6 (4:1) may be its own cell, the one before, or the missing one
    alts = ct.cells_at(4, 6)
    assert [c.printed for c in alts[:-1]] == ["A1", "A1D1"] and alts[-1].state == NOT_PRINTED
    assert ct.cells_at(7, 0)[0].state == NOT_PRINTED


def test_malformed_columns_read_with_a_reason(games):
    g = games["ardennes2"]
    t = next(t for t in g.tables if t.id == "crt")
    bad = dataclasses.replace(t, columns=("1:4", "x:2", "2:3", "3:1"), unprinted=())
    ct = read_table(g, bad)
    assert [c.reason for c in ct.headings.columns] == [
        None, "column 'x:2' is not an odds ratio (a:b)", "column '2:3' is neither n:1 nor 1:n", None]
    assert ct.problems == ("column 'x:2' is not an odds ratio (a:b)", "column '2:3' is neither n:1 nor 1:n")
    assert parse_differential("≤-2") == (Bounds(None, -2), None)
    assert parse_differential("11+") == (Bounds(11, None), None)
    assert parse_differential("+3") == (Bounds(3, 3), None)
    assert parse_differential("+2, +5")[1] == "column '+2, +5' lists differentials that are not consecutive"
    assert parse_differential("lots")[1] == "column 'lots' is not a differential"
    assert parse_odds("7:1+") == (Bounds(7, None), None)


def test_bulge_modifiers_capped_and_by_side(games):
    g = games["bulge"]
    assert modifier_sums(g, _crt(g), "allied") == ({-2, -1, 0, 1, 2}, None)
    assert modifier_sums(g, _crt(g, "blitz"), "german") == ({-2, -1, 0, 1, 2}, None)   # 34.4 via drm_from


# -- judging battles on the mini fixture (terrain and strengths known) --
A = Counter("a", "b1-a", "blue")          # 3-5-10, two steps
B = Counter("b", "b1-b", "blue")          # 3-5-10
C = Counter("c", "b1-c", "blue")          # 2-2-14
R = Counter("r", "r1-a", "red")           # 4-4-12
R2 = Counter("r2", "r-inf", "red")        # 1-1-7


def roll(n, dice="1d6"):
    return DieRoll(dice, (n,), n)


def reduced(c, hex_id):
    return StateChanged(c.with_state({"reduced"}), frozenset(), Where(hex_id))


def test_mini_legal_result(mini_game):
    # 3+3 attacking 4 in clear: 6:4 rounds to 1:1; roll 1 at 1:1 = A1
    pos = Position.of([(A, Where("0403")), (B, Where("0403")), (R, Where("0404"))])
    j = judge_battle(mini_game, pos, "blue", roll(1), [reduced(A, "0403")], step=7)
    assert (j.verdict, j.code, j.step) == ("legal", None, 7)
    assert "column 1:1, row 1 (A1)" in j.message


def test_mini_violation_names_code_hexes_units(mini_game):
    pos = Position.of([(A, Where("0403")), (B, Where("0403")), (R, Where("0404"))])
    j = judge_battle(mini_game, pos, "blue", roll(1), [Removed(R, Where("0404"))], step=9)
    assert (j.verdict, j.code) == ("violation", "HF1501")
    assert j.hexes == ("0404",) and j.units == ("r1-a",)
    assert "1:1/1: A1" in j.message and "attacker: needs 1 step(s) lost, shows no loss" in j.message


def test_mini_near_miss_same_result_at_another_possible_column(mini_game):
    # with C also adjacent, all three attacking make 8:4 = 2:1, where roll 1 is D1: the same record is legal
    pos = Position.of([(A, Where("0403")), (B, Where("0403")), (C, Where("0504")), (R, Where("0404"))])
    j = judge_battle(mini_game, pos, "blue", roll(1), [Removed(R, Where("0404"))])
    assert j.verdict == "legal" and "column 2:1, row 1 (D1)" in j.message
    without_c = Position.of([(A, Where("0403")), (B, Where("0403")), (R, Where("0404"))])
    j = judge_battle(mini_game, without_c, "blue", roll(1), [Removed(R, Where("0404"))])
    assert j.verdict == "violation"                       # 6:4 = 1:1 only: A1, not D1


def test_mini_terrain_doubles_defense(mini_game):
    # woods (x2): 8 against 8 is 1:1, roll 2 = A1; in clear 8 against 4 is 2:1, roll 2 = D1
    x = Counter("x", "r1-a", "red")
    woods = Position.of([(A, Where("0405")), (B, Where("0405")), (C, Where("0504")), (x, Where("0505"))])
    clear = Position.of([(A, Where("0403")), (B, Where("0403")), (C, Where("0504")), (x, Where("0404"))])
    assert judge_battle(mini_game, clear, "blue", roll(2), [Removed(x, Where("0404"))]).verdict == "legal"
    j = judge_battle(mini_game, woods, "blue", roll(2), [Removed(x, Where("0505"))])
    assert j.verdict == "violation" and {c.terrain for c in j.candidates} == {"woods"}


def test_mini_blocked_retreat_and_no_effect(mini_game):
    # 3:1 (3+3+2 against 1... rounds 8:1 beyond 3:1 -> highest column): roll 3 = D1r1, a blocked retreat eliminates
    pos = Position.of([(A, Where("0403")), (B, Where("0403")), (C, Where("0504")), (R2, Where("0404"))])
    assert judge_battle(mini_game, pos, "blue", roll(3), [Removed(R2, Where("0404"))]).verdict == "legal"
    # roll 5 at 3:1 is "-": nothing happens (legal); an attacker removed is a violation (A1 at 2:1 is one step)
    assert judge_battle(mini_game, pos, "blue", roll(5), [Moved(R2, Where("0404"), Where("0405"))]).verdict == "legal"
    j = judge_battle(mini_game, pos, "blue", roll(5), [Removed(A, Where("0403")), Removed(B, Where("0403"))])
    assert j.verdict == "violation"


def test_mini_unknown_effect_is_unverified(mini, mini_game):
    def drop_de_effect(d):
        for k in d["tables"][0]["key"]:
            if k["code"] == "DE":
                del k["effect"]
    mini.edit("tables.yaml", drop_de_effect)
    g = _game(mini.path)
    pos = Position.of([(A, Where("0403")), (B, Where("0403")), (C, Where("0504")), (R2, Where("0404"))])
    j = judge_battle(g, pos, "blue", roll(1), [])                      # 8:1 -> 3:1, roll 1 = DE
    assert (j.verdict, j.code) == ("unverified", "HF1590")
    assert "the effect of DE is not in the tree (effect unknown)" in j.reason
    assert judge_battle(mini_game, pos, "blue", roll(1), []).verdict == "violation"


def test_mini_several_possible_battles_without_losses(mini_game):
    # nothing follows the roll: two battles are possible; against R2 (8:1 -> 3:1) roll 5 is "-", which fits
    pos = Position.of([(A, Where("0403")), (B, Where("0403")), (C, Where("0504")), (R2, Where("0404")),
                       (R, Where("0402"))])
    j = judge_battle(mini_game, pos, "blue", roll(5), [])
    assert j.verdict == "legal" and "against 0404" in j.message


def test_mini_roll_with_dice_no_combat_table_uses(mini_game):
    pos = Position.of([(A, Where("0403")), (R, Where("0404"))])
    j = judge_battle(mini_game, pos, "blue", DieRoll("2d6", (3, 4), 7), [])
    assert (j.verdict, j.code) == ("unverified", "HF1592")


# -- judging on the real trees (strengths and terrain mostly unknown: every column may apply) --
def test_bulge_violation_and_near_miss(games):
    g = games["bulge"]
    a1, a2 = Counter("a1", "us-1-16", "allied"), Counter("a2", "us-9-47", "allied")
    d = Counter("d", "de-kg-peiper", "german")
    pos = Position.of([(a1, Where("Q8")), (a2, Where("O7")), (d, Where("P7"))])
    # roll 6, modifiers -2..+2: rows 4-8 hold no cell eliminating two attackers and the defender
    events = [Removed(a1, Where("Q8")), Removed(a2, Where("O7")), Removed(d, Where("P7"))]
    j = judge_battle(g, pos, "allied", roll(6), events, step=40)
    assert (j.verdict, j.code, j.step) == ("violation", "HF1501", 40)
    assert j.hexes == ("P7", "O7", "Q8") and j.units == ("us-1-16", "us-9-47", "de-kg-peiper")
    # one attacker and the defender eliminated is an exchange, printed in rows 4-8: legal
    j = judge_battle(g, pos, "allied", roll(6), [Removed(a1, Where("Q8")), Removed(d, Where("P7"))])
    assert j.verdict == "legal" and "(Exch.)" in j.message


def test_bulge_issue_case_roll_two_both_sides_removed(games):
    # issue 17: a roll of 2 after which both attackers and the defender are removed: no cell of rows 0-4 does it
    # (the "?" cell is row -1), on the CRT and, for a German attack with a mechanized unit, on the Blitzkrieg table
    g = games["bulge"]
    for side, att, dfn in (("allied", ("us-1-16", "us-9-47"), "de-kg-peiper"),
                           ("german", ("de-kg-peiper", "de-pz-bde-150"), "us-1-16")):
        a1, a2, d = Counter("a1", att[0], side), Counter("a2", att[1], side), Counter("d", dfn)
        pos = Position.of([(a1, Where("Q8")), (a2, Where("O7")), (d, Where("P7"))])
        events = [Removed(a1, Where("Q8")), Removed(a2, Where("O7")), Removed(d, Where("P7"))]
        j = judge_battle(g, pos, side, roll(2), events)
        assert (j.verdict, j.code, j.rule) == ("violation", "HF1501", "8.2, 17.0"), j.message
        assert "whatever the column (1-7 to 8-1+; the factors of" in j.message
        assert "a modified roll of 0 to 4 gives AE / DA1," in j.message
        assert ("on the Blitzkrieg Attack Table, whatever the column (2-1 to 4-1;" in j.message) == (side == "german")
        # near miss: one attacker and the defender removed is an exchange
        assert judge_battle(g, pos, side, roll(2), events[1:]).verdict == "legal"


def test_bulge_blitz_needs_a_mechanized_attacker(games):
    # 34.1: the blitz table is tried only where an attacker is mechanized (tables.yaml `requires`)
    g = games["bulge"]
    a, b, d = Counter("a", "de-79vgd-rgt", "german"), Counter("b", "de-9vgd-rgt", "german"), Counter("d", "us-1-16")
    pos = Position.of([(a, Where("Q8")), (b, Where("O7")), (d, Where("P7"))])
    j = judge_battle(g, pos, "german", roll(2), [Removed(a, Where("Q8")), Removed(b, Where("O7")),
                                                 Removed(d, Where("P7"))])
    assert j.verdict == "violation" and "Blitz" not in j.message


def test_bulge_defender_eliminated_by_a_blocked_retreat(games):
    g = games["bulge"]
    a1, d = Counter("a1", "us-1-16", "allied"), Counter("d", "de-kg-peiper", "german")
    pos = Position.of([(a1, Where("Q8")), (d, Where("P7"))])
    j = judge_battle(g, pos, "allied", roll(6), [Removed(d, Where("P7"))])
    assert j.verdict == "legal" and "DR" in j.message


def test_ardennes_unprinted_rows_and_below_the_table(games):
    g = games["ardennes2"]
    a = Counter("a", "us-4id-22", "allied")
    d = Counter("d", "de-3fj-8", "axis")
    pos = Position.of([(a, Where("A11.07")), (d, Where("A10.06"))])
    j = judge_battle(g, pos, "allied", DieRoll("2d6", (4, 4), 8), [])
    assert j.verdict == "unverified" and j.reason == "row 8 of Combat Results Tables (two dice) is not printed"
    # roll 3: 4 against 4 is 1:1, shifted only left by terrain (1.3): every column from 1:4 to 1:1 takes an
    # attacker loss on row "2 or 3"; below 1:4 the attack is either on 1:4 or one the rules forbid: a violation
    j = judge_battle(g, pos, "allied", DieRoll("2d6", (1, 2), 3), [])
    assert j.verdict == "violation" and "(1:4 to 1:1; printed 4 against 4 (1:1)" in j.message
    assert ", a roll of 3 gives A2; below 1:4, the attack may be one the rules forbid (the tree does not say)" \
        in j.message
    # roll 3 with the attacker reduced: A2 costs two steps, one shows; a unit of the tree's two steps reduced is one
    j = judge_battle(g, pos, "allied", DieRoll("2d6", (1, 2), 3), [reduced(a, "A11.07")])
    assert j.verdict == "violation" and "attacker: needs 2 step(s) lost, shows 1 reduced" in j.message
    j = judge_battle(g, pos, "allied", DieRoll("2d6", (1, 2), 3), [Removed(a, Where("A11.07"))])
    assert j.verdict == "legal" and j.message.endswith("row 3 (A2)")


def test_ardennes_issue_case_three_to_one_on_three(games):
    # issue 17: 3:1 on 2d6 = 3, the defender removed and the attacker whole; every printed cell of row
    # "2 or 3" costs the attacker a step; the factors are printed (no "strengths are not known")
    g = games["ardennes2"]
    att = [Counter(f"a{i}", "us-4id-22", "allied") for i in range(3)]          # 3 x 4 against 4: 3:1
    d = Counter("d", "de-3fj-8", "axis")
    pos = Position.of([(a, Where("A11.07")) for a in att] + [(d, Where("A10.06"))])
    j = judge_battle(g, pos, "allied", DieRoll("2d6", (1, 2), 3), [Removed(d, Where("A10.06"))])
    assert (j.verdict, j.code, j.hexes) == ("violation", "HF1501", ("A10.06",))
    assert "whatever the terrain of A10.06 and the column (1:4 to 3:1; printed 12 against 4 (3:1)" in j.message
    assert "a roll of 3 gives A2;" in j.message and "not known" not in j.message
    assert j.message.endswith("none fits what the log shows: attacker: needs 2 step(s) lost, shows no loss; "
                              "defender: needs no loss, shows 1 of 1 unit(s) removed")
    # near miss: the attacker loses two steps (A2)
    j = judge_battle(g, pos, "allied", DieRoll("2d6", (1, 2), 3), [Removed(att[0], Where("A11.07"))])
    assert j.verdict == "legal"


def test_ardennes_row_four_gap_is_a_warning(games):
    # row 4 prints 9 cells for 10 columns; the tree takes the missing one to be under 7:1+ (unprinted gap_likely):
    # at 1:1 the defender reduced and the attacker whole fits only the missing cell under 1:1, an unlikely reading
    g = games["ardennes2"]
    a, d = Counter("a", "us-4id-22", "allied"), Counter("d", "de-3fj-8", "axis")
    pos = Position.of([(a, Where("A11.07")), (d, Where("A10.06"))])
    j = judge_battle(g, pos, "allied", DieRoll("2d6", (2, 2), 4), [reduced(d, "A10.06")])
    assert (j.verdict, j.code, j.severity) == ("unlikely", "HF1502", "warning")
    assert "fits only if row 4's missing cell is not under 7:1+, where the tree takes it to be" in j.message
    # near miss: the attacker loses a step (A1 at 1:2, the likely cell)
    assert judge_battle(g, pos, "allied", DieRoll("2d6", (2, 2), 4), [reduced(a, "A11.07")]).verdict == "legal"


def test_aachen_only_row_one(games):
    g = games["aachen"]
    a = Counter("a", "us-30id-inf-2-3-7", "us")
    d = Counter("d", "de-inf-1-1-6", "german")
    pos = Position.of([(a, Where("1626")), (d, Where("1526"))])
    assert judge_battle(g, pos, "us", roll(1), [reduced(a, "1626")]).verdict == "legal"          # (A)
    # the defender eliminated: D2 with a retreat that could not be made (8.3) fits
    j = judge_battle(g, pos, "us", roll(1), [Removed(d, Where("1526"))])
    assert j.verdict == "legal" and "column 7 (+8, +9 on the Mountain line), row 1 (D2)" in j.message
    # issue 17: two attackers and the defender eliminated fits no cell of row 1 in any column, whatever the
    # terrain of the hex (a line the tree does not print may send the differential to any column)
    a2 = Counter("a2", "us-1id-inf-3-3-7", "us")
    pos2 = pos.placed(a2, Where("1625"))
    both = [Removed(a, Where("1626")), Removed(a2, Where("1625")), Removed(d, Where("1526"))]
    j = judge_battle(g, pos2, "us", roll(1), both)
    assert (j.verdict, j.code) == ("violation", "HF1501")
    assert j.message.startswith("combat roll 1 against 1526: whatever the terrain of 1526 and the column (1 to 12; "
                                "printed 5 against 1 (+4)")
    assert "a roll of 1 gives (A), A3, A2, •, Ex, D2, D3 or De; none fits what the log shows: attacker: needs 1 " \
           "step(s) lost, shows 2 of 2 unit(s) removed" in j.message
    # rows 2-6 are not printed but each cell holds one code of the key: no code removes both sides' units
    j = judge_battle(g, pos2, "us", roll(4), both)
    assert j.verdict == "violation" and "a roll of 4 gives De, D3, D2, Ex, A1, A2, A3, (A), Ae or • (some of them " \
                                        "readings of cells the print does not show" in j.message
    # near misses: one attacker and the defender removed (Ex); nothing at all on roll 4 (• may be there)
    assert judge_battle(g, pos2, "us", roll(1), both[1:]).verdict == "legal"
    assert judge_battle(g, pos, "us", roll(4), []).verdict == "legal"


def test_many_attackers(games, mini_game):
    # Bulge: strengths unknown, so twelve adjacent attackers are judged by how many join, not which
    g = games["bulge"]
    allied = [u.id for u in g.units if u.side == "allied"]
    d = Counter("d", "de-kg-peiper", "german")
    items = [(d, Where("P7"))] + [(Counter(f"a{i}", allied[i], "allied"), Where(h))
                                  for i, h in enumerate(g.grid.neighbours("P7") * 2)]
    j = judge_battle(g, Position.of(items), "allied", roll(6), [Removed(d, Where("P7"))])
    assert j.verdict == "legal"
    # the mini tree's strengths are complete: nine attackers without losses are 2^9 subsets, beyond the cap
    items = [(R, Where("0404"))] + [(Counter(f"m{i}", "b1-b", "blue"), Where(h))
                                    for i, h in enumerate(mini_game.grid.neighbours("0404") * 2)][:9]
    j = judge_battle(mini_game, Position.of(items), "blue", roll(4), [])
    assert j.verdict == "unverified" and "9 attackers adjacent to 0404: too many subsets to try" in j.reason


def test_repeating_modifier_without_cap_is_unverified(mini):
    mini.edit("tables.yaml", lambda d: d["tables"][0].update(
        drm=[{"value": -1, "when": "per artillery unit", "repeats": True}]))
    g = _game(mini.path)
    pos = Position.of([(A, Where("0403")), (B, Where("0403")), (R, Where("0404"))])
    # 1:1: rolls 1-3 are A1; the record shows the defender eliminated, which row 1 (roll 4 - 3) does not give
    j = judge_battle(g, pos, "blue", roll(4), [Removed(R, Where("0404"))])
    assert j.verdict == "unverified" and "'per artillery unit' may apply more than 3 times" in j.reason


def test_losses_are_net_of_the_events(mini_game):
    # flipped and flipped back, removed and put back: no loss until the last flip
    pos = Position.of([(A, Where("0403")), (B, Where("0403")), (R, Where("0404"))])
    events = [reduced(A, "0403"), StateChanged(A, frozenset({"reduced"}), Where("0403")),
              Removed(R, Where("0404")), Placed(R, Where("0404")), reduced(A, "0403")]
    assert judge_battle(mini_game, pos, "blue", roll(1), events).verdict == "legal"      # A1 at 1:1
    j = judge_battle(mini_game, pos, "blue", roll(1), events[:4])
    assert j.verdict == "violation" and "attacker: needs 1 step(s) lost, shows no loss" in j.message


def test_step_object_and_unknown_side(mini_game):
    from validator.records.record import Step
    pos = Position.of([(A, Where("0403")), (B, Where("0403")), (R, Where("0404"))])
    r = roll(1)
    j = judge_battle(mini_game, pos, "blue", r, [], step=Step(12, (r,)))
    assert (j.verdict, j.step) == ("violation", 12) and "(no unit lost or moved after the roll)" in j.message
    j = judge_battle(mini_game, pos, None, r, [], step=12)
    assert (j.verdict, j.code, j.reason) == ("unverified", "HF1590", "no phasing side")


def test_moves_in_several_hexes_are_several_possible_battles(mini_game):
    # no losses; two red units elsewhere move afterwards: either hex may be the battle (R2: roll 5 at 3:1 is "-")
    pos = Position.of([(A, Where("0403")), (B, Where("0403")), (C, Where("0504")), (R2, Where("0404")),
                       (R, Where("0402"))])
    events = [Moved(R2, Where("0404"), Where("0405")), Moved(R, Where("0402"), Where("0401"))]
    j = judge_battle(mini_game, pos, "blue", roll(5), events)
    assert j.verdict == "legal" and "against 0404" in j.message


def test_differential_headings_without_terrain_lines(games):
    g = games["aachen"]
    t = next(t for t in g.tables if t.id == "crt")
    flat = dataclasses.replace(t, columns=("≤-2", "-1", "0", "+1", "+2, +3", "4+"), extra={},
                               rows=t.rows, clamp=TableClamp())
    ct = read_table(g, flat)
    assert _bounds(ct.headings) == [("≤-2", None, -2), ("-1", -1, -1), ("0", 0, 0), ("+1", 1, 1),
                                    ("+2, +3", 2, 3), ("4+", 4, None)]
    assert [ct.headings.lookup(ct.value(a, d)).column for a, d in ((1, 9), (5, 5), (8, 5), (20, 1))] == [0, 2, 4, 5]
    assert ct.lines == () and ct.line_for("anything") is ct.headings


# -- the seeds' real VASSAL 3.7.9 logs of battles (tests/fixtures/vlogs; their modules in shared/vassal-logs) --
FIX = Path(__file__).resolve().parent / "fixtures" / "vlogs"
SHARED = next((p for p in (Path(__file__).resolve().parents[2] / "shared" / "vassal-logs",
                           Path("/work/shared/vassal-logs")) if p.exists()), None)


def _seed_log(games, name):
    from compiler.vassal.vlog import read_log
    from validator.referee.audit import audit
    gid = name.split("_")[0]
    if SHARED is None or not (SHARED / f"{gid}.vmod").exists():
        pytest.skip("the seed's module (shared/vassal-logs) is not here")
    game = games[gid]
    r = audit(game, read_log(FIX / f"{name}.vlog", module=SHARED / f"{gid}.vmod", game=game))
    return [(f.step, f.code, f.severity, f.hexes, f.units) for f in r.findings if f.code.startswith("HF15")], r


def test_aachen_combat_log_one_battle_legal_one_impossible(games):
    # battle 1 (steps 7-9): +5, roll 1, one attacker and the defender deleted (Ex): legal. Battle 2 (11-14): the
    # same, both attackers and the defender deleted: an error at the first deletion, the readings tried named
    got, r = _seed_log(games, "aachen_combat")
    assert got == [(12, "HF1501", "error", ("1330", "1230", "1430"),
                    ("1-1-7 infantry", "3-3-7 infantry"))]
    f = next(f for f in r.findings if f.code == "HF1501")
    assert "whatever the terrain of 1330 and the column (1 to 12; printed 6 against 1 (+5)" in f.message
    assert "a roll of 1 gives (A), A3, A2, •, Ex, D2, D3 or De; none fits" in f.message
    assert r.coverage["steps"][6]["status"] == "full"                     # battle 1's roll


def test_ardennes2_combat_log_one_battle_impossible_one_legal(games):
    # battle 1 (steps 4-5): 2:1 on 2d6 = 3, the defender deleted and the attackers whole: an error; battle 2
    # (7-8): 1:3 on 2d6 = 4, the attacker deleted (A2): legal
    got, r = _seed_log(games, "ardennes2_combat")
    assert got == [(5, "HF1501", "error", ("B26.52",), ("2-2-16 Arm Cav Bn (38)",))]
    f = next(f for f in r.findings if f.code == "HF1501")
    assert "(1:4 to 2:1; printed 4 against 2 (2:1)" in f.message and "a roll of 3 gives A2;" in f.message
    assert "not known" not in f.message


# -- what the trees declare for combat, and what check reports of it --
def test_check_lists_the_combat_rules_kept_as_text():
    from compiler.cli import check_tree
    _, diags = check_tree(SOURCE / "aachen")
    text = [(d.loc.file, d.message) for d in diags if d.code == "HF615"]
    assert len(text) == 5 and all(f == "game.yaml" for f, _ in text)     # 4.1/8.2 is data now (not_if_attacked_in)
    assert text[0][1] == ("combat rule kept as text, not judged: 8.5: After an advance after combat, an advancing unit "
                          "is not eligible to attack or perform any other activity during that player turn.")
    _, diags = check_tree(SOURCE / "meuse")                       # near miss: meuse keeps every combat rule as data
    assert [d for d in diags if d.code == "HF615"] == []


def test_the_seed_trees_declare_their_combat_data(games):
    ard = next(t for t in games["ardennes2"].tables if t.id == "crt")
    assert [(m.id, m.applies_to, str(m.factor), m.rounding) for m in ard.strength_modifiers] == [
        ("dg", ("attack", "defense"), "1/2", "unknown"), ("barrage", ("attack", "defense"), "1/4", "unknown")]
    assert ard.terrain_shifts == "left" and [(s.id, s.least, s.most, s.per) for s in ard.shifts] == [
        ("city", -2, -2, "battle"), ("stream", -1, -1, "attacking-stack"), ("woods", -2, 0, "battle")]
    assert games["ardennes2"].rules.combat.attack_once == "3.2" and games["ardennes2"].rules.combat.defend_once is None
    aachen = next(t for t in games["aachen"].tables if t.id == "crt")
    assert aachen.after_combat.advance_by == "attackers" and aachen.after_combat.retreat is None
    assert next(k for k in aachen.key if k.code == "D2").effect.defender.or_steps == "1"       # stiff resistance
    blitz = next(t for t in games["bulge"].tables if t.id == "blitz")
    assert blitz.requires.attacker_class == ("mechanized",)


def test_bulge_battle_of_two_hexes_is_no_loss_outside_the_battle(games):
    # 9.5: a battle may take in several defender hexes (no rules.combat.one_hex): an attacker next to the other
    # defender only, eliminated by an exchange, is in the battle; near miss of meuse's HF1508 (one_hex: 8.1)
    from validator.referee.combat import Limits
    g = games["bulge"]
    a1, a2 = Counter("a1", "us-1-16", "allied"), Counter("a2", "us-9-47", "allied")
    d1, d2 = Counter("d1", "de-79vgd-rgt", "german"), Counter("d2", "de-9vgd-rgt", "german")
    pos = Position.of([(a1, Where("Q8")), (d1, Where("P7")), (d2, Where("R9")), (a2, Where("S9"))])
    limits = Limits(attack_once=g.rules.combat.attack_once, defend_once=g.rules.combat.defend_once)
    j = judge_battle(g, pos, "allied", roll(3), [Removed(d1, Where("P7")), Removed(a2, Where("S9"))], limits=limits)
    assert j.outside == ()
