"""The combat phase's ledger on Crossing the Meuse (RULES.md 8.0-9.1): each battle kept with its roll, and
the rules judged across the phase (a unit attacking twice, a hex attacked twice, a roll made again after an
undo, odds below the lowest column, combat outside a combat phase, losses outside the battle, advances,
retreat drags). Each rule: a violation asserted to its code, step, hexes, units and message, and the legal
near miss beside it. Hand-built game records (tests/referee_records.Log) on positions set out in the open
ground around B14.14 (clear, no hexside feature within two hexes) or on the Meuse at B1.05 | A16.05."""
from __future__ import annotations

from pathlib import Path

import pytest

from compiler.vassal.vlog import read_log
from conftest import SOURCE
from tests.referee_records import Log
from validator.source.loader import load_game
from validator.positions.position import Counter, Position, Where
from validator.referee.audit import audit


@pytest.fixture(scope="module")
def game():
    g, diags = load_game(SOURCE / "meuse")
    assert g is not None, [str(d) for d in diags]
    return g


def position(*items, reduced=()) -> Position:
    """(piece, unit, side, hex) items; pieces named in `reduced` start on their reduced side."""
    return Position.of([(Counter(p, u, s, frozenset({"reduced"}) if p in reduced else frozenset()), Where(h))
                        for p, u, s, h in items])


def combat_log(pos: Position, phase: str = "red-combat") -> Log:
    """A record that begins with the turn marker naming the phase (step 1), as meuse's module records it."""
    log = Log(pos)
    log.next_turn("1", phase)
    return log


def after_dr(pos: Position, retreat=("B15.14", "B16.14")) -> Log:
    """The Red Combat Phase's roll 4 against d1 in B14.14 (1:1: DR), d1 retreating two hexes, a drag each."""
    log = combat_log(pos)
    log.roll(4)
    log.move(pos.counter("d1"), *retreat)
    return log


def combat(game, log: Log, prefix: str = "HF15") -> list[tuple]:
    r = audit(game, log.record(), "1")
    return [(f.step, f.code, f.hexes, f.units, f.message) for f in r.findings if f.code.startswith(prefix)]


VLOGS = Path(__file__).resolve().parent / "fixtures" / "vlogs"
A = ("A", "red-4rd-10", "red", "B13.14")          # 10th Rifle Regiment, 4-5-4
D1 = ("d1", "blue-3id-eng", "blue", "B14.14")     # 3rd Engineer Battalion, 2-3-4: 4 against 3 is 1:1
D2 = ("d2", "blue-3id-7", "blue", "B13.13")       # 7th Infantry Regiment, 3-5-4, also next to B13.14


# -- a unit attacks at most once per phase (8.1) --
def test_a_unit_attacking_twice(game):
    pos = position(A, D1, D2)
    log = combat_log(pos)
    log.roll(6)                                                   # 1:1, 6 = EX against B14.14
    log.flip(pos.counter("d1"), {"reduced"})
    log.flip(pos.counter("A"), {"reduced"})
    log.roll(1)                                                   # the reduced A (2) against d2 (5): 1:3, 1 = AE
    log.remove(log.pos.counter("A"))
    assert combat(game, log) == [(5, "HF1503", ("B14.14", "B13.13"), ("10th Rifle Regiment",),
                                  "10th Rifle Regiment attacked at step 2 against B14.14 and attacks again in the "
                                  "same combat phase, against B13.13 (roll 1 at step 5) (the roll is tied to the "
                                  "battle against B13.13: likely, of 2 hexes of defending units next to a unit of "
                                  "Red, B13.13 is the only one not attacked yet this phase)")]


def test_two_units_of_one_stack_attack_two_hexes(game):
    pos = position(A, ("B", "red-4rd-11", "red", "B13.14"), D1, D2)
    log = combat_log(pos)
    log.roll(4)                                                   # one of them against d1: 1:1, 4 = DR
    log.move(pos.counter("d1"), "B15.14", "B16.14")
    log.roll(5)                                                   # the other against d2: 4 against 5 = 1:2, 5 = DR
    log.move(pos.counter("d2"), "B13.12", "B13.11")
    assert combat(game, log) == []


def test_the_ledger_keeps_each_battle(game):
    from validator.referee.replay import replay
    pos = position(A, ("B", "red-4rd-11", "red", "B13.14"), D1, D2)
    log = after_dr(pos)
    log.move(pos.counter("A"), "B14.14")
    r = replay(game, log.record(), game.scenario("1"))
    (b,) = r.ledger.battles
    assert (b.step, b.side, b.hex, b.tie, b.verdict) == (2, "red", "B14.14", "certain", "legal")
    assert b.attackers == ("A",) and b.defenders == ("d1",) and b.reading() == "crt column 1:1, row 4 (DR)"
    assert (b.modifier, b.result) == (0, "DR")
    assert b.retreats == (("d1", (("B15.14", 3), ("B16.14", 4))),) and b.advances == (("A", (("B14.14", 5),)),)


# -- a hex is attacked at most once per phase (8.1): a second roll for one battle --
def test_a_hex_attacked_twice(game):
    pos = position(A, D1)
    log = combat_log(pos)
    log.roll(3)                                                   # 1:1, 3 = NE
    log.roll(4)                                                   # again: 4 = DR
    log.move(pos.counter("d1"), "B15.14", "B16.14")
    assert combat(game, log) == [(3, "HF1504", ("B14.14",), ("3rd Engineer Battalion",),
                                  "B14.14 is attacked again in the same combat phase: roll 4 at step 3 after the "
                                  "roll at step 2 (roll 3: crt column 1:1, row 3 (NE)) (the roll is tied to the "
                                  "battle against B14.14: certain, the log shows losses or a retreat in B14.14 "
                                  "after the roll)")]


def test_a_second_roll_for_the_only_hex_the_first_fits(game):
    # the first roll, nothing applied, may be against B14.14 (1:1, 3 = NE) but not B13.13 (1:2, 3 = AR)
    pos = position(A, D1, D2)
    log = combat_log(pos)
    log.roll(3)
    log.roll(4)                                                   # 1:1 DR against d1
    log.move(pos.counter("d1"), "B15.14", "B16.14")
    assert [f[:4] for f in combat(game, log)] == [(3, "HF1504", ("B14.14",), ("3rd Engineer Battalion",))]


def test_a_second_roll_that_may_be_for_another_hex(game):
    # near miss: the first roll may be for B13.13 as well (another engineer battalion: 1:1, 3 = NE there too)
    pos = position(A, D1, ("d2", "blue-3id-eng", "blue", "B13.13"))
    log = combat_log(pos)
    log.roll(3)
    log.roll(4)
    log.move(pos.counter("d1"), "B15.14", "B16.14")
    assert combat(game, log) == []


# -- a roll undone and made again --
def test_a_roll_undone_and_rolled_again(game):
    pos = position(A, D1)
    log = combat_log(pos)
    log.roll(3)
    log.undo()
    log.roll(4)
    log.move(pos.counter("d1"), "B15.14", "B16.14")
    assert combat(game, log, ("HF15", "HF16")) == [(4, "HF1505", ("B14.14",), ("3rd Engineer Battalion",),
                                         "the roll 3 at step 2 for the battle against B14.14 (at 1:1: NE) was undone "
                                         "at step 3 and rolled again at step 4 (4: DR)")]   # and no HF1601 besides


def test_an_undone_move_after_a_roll(game):
    pos = position(A, D1)
    log = combat_log(pos)
    log.roll(4)
    log.move(pos.counter("d1"), "B15.14")
    log.undo()
    log.move(pos.counter("d1"), "B15.14", "B16.14")
    assert combat(game, log, ("HF15", "HF16")) == []


# -- odds below 1:3 (8.2) --
def test_an_attack_below_the_lowest_odds(game):
    pos = position(("E", "red-4rd-eng", "red", "B13.14"), D1, ("d3", "blue-3id-7", "blue", "B14.14"))
    log = combat_log(pos)
    log.roll(3)
    assert combat(game, log) == [(2, "HF1506", ("B14.14",), ("4th Engineer Battalion", "3rd Engineer Battalion",
                                                             "7th Infantry Regiment"),
                                  "combat roll 3 against B14.14 at 2 against 8 (1:4), with every unit next to it "
                                  "attacking: below 1:3, no attack may be made (8.2)")]


def test_an_attack_at_exactly_the_lowest_odds(game):
    pos = position(("E", "red-9ab-mr", "red", "B13.14"), D1, ("d3", "blue-3id-7", "blue", "B14.14"))
    log = combat_log(pos)                                         # 3 against 8 rounds to 1:3
    log.roll(3)                                                   # 1:3, 3 = A1
    log.flip(pos.counter("E"), {"reduced"})
    assert combat(game, log) == []


# -- no combat in the exploitation phase (9.1) --
def test_combat_in_the_exploitation_phase(game):
    pos = position(("T", "red-1ad-1tk", "red", "B13.14"), D1)
    log = combat_log(pos, "red-exploitation")
    log.roll(5)
    log.flip(pos.counter("d1"), {"reduced"})
    assert combat(game, log) == [(2, "HF1507", ("B14.14",), ("3rd Engineer Battalion",),
                                  "roll 1d6 = 5 in the Red Exploitation Phase, which has no combat, then 3rd "
                                  "Engineer Battalion reduced at step 3")]


def test_a_roll_with_no_result_in_the_exploitation_phase(game):
    pos = position(("T", "red-1ad-1tk", "red", "B13.14"), D1)
    log = combat_log(pos, "red-exploitation")
    log.roll(5)
    assert combat(game, log) == []
    log = combat_log(pos)                                         # the same roll and loss in the combat phase
    log.roll(6)                                                   # 6 against 3, +1 armor in clear: 2:1, 7 = D1/DR
    log.flip(pos.counter("d1"), {"reduced"})
    log.move(pos.counter("d1"), "B15.14", "B16.14")
    assert combat(game, log) == []


def test_a_retreat_after_a_roll_outside_the_combat_phase_is_combat_and_a_move_out_of_sequence(game):
    # the turn marker records the phase: a roll in it is no battle's, so the Blue unit dragged after it as if
    # retreating moves in a Red phase (3.2), as it would without the roll; in the exploitation phase, after
    # Red's combat phase, the roll and retreat are also combat where there is none (9.1); in the movement phase
    # the marker may lag behind the combat phase: no HF1507 there
    pos = position(A, D1)
    for phase, name in (("red-movement", "Red Movement Phase"), ("red-exploitation", "Red Exploitation Phase")):
        log = combat_log(pos, phase)
        log.roll(4)                                               # 1:1, 4 would be DR in a combat phase
        log.move(pos.counter("d1"), "B15.14", "B16.14")
        assert combat(game, log, "HF11") + combat(game, log) == [
            (3, "HF1101", ("B14.14", "B15.14"), ("3rd Engineer Battalion",),
             f"Blue 3rd Engineer Battalion moves B14.14 -> B15.14 in the {name} the turn marker shows since step 1"),
            (4, "HF1101", ("B15.14", "B16.14"), ("3rd Engineer Battalion",),
             f"Blue 3rd Engineer Battalion moves B15.14 -> B16.14 in the {name} the turn marker shows since step 1"),
        ] + ([(2, "HF1507", ("B14.14",), ("3rd Engineer Battalion",),
               f"roll 1d6 = 4 in the {name}, which has no combat, then 3rd Engineer Battalion dragged B14.14 -> "
               "B15.14 (a retreat) at step 3")] if phase == "red-exploitation" else [])
    assert combat(game, after_dr(pos), "HF11") + combat(game, after_dr(pos)) == []   # in the combat phase: DR


def test_combat_in_the_exploitation_phase_in_a_real_log(game):
    # VASSAL 3.7.9's log (tests/fixtures/vlogs/meuse_exploit_combat.EXPECTED.txt): the roll at step 4, Blue's
    # Rec/2 dragged away at step 5; the roll at step 6 is followed only by Red's Tk 2/1 exploiting (no finding)
    rec = read_log(VLOGS / "meuse_exploit_combat.vlog", VLOGS / "meuse.vmod", game)
    r = audit(game, rec)
    assert [(f.step, f.code, f.rule, f.hexes, f.units) for f in r.findings if f.severity == "error"] == [
        (4, "HF1507", "9.1", ("B1.10",), ("2nd Light Mechanised Reconnaissance Squadron",)),
        (5, "HF1101", "9.1", ("B1.10", "A16.09"), ("2nd Light Mechanised Reconnaissance Squadron",))]
    assert [f.code for f in r.findings if f.severity == "warning"] == []


def test_the_phasing_sides_drags_after_a_roll_in_the_exploitation_phase_are_no_combat(game):
    # near miss of the above: Red's own unit dragged after the roll exploits (9.1), it does not retreat
    pos = position(A, D1)
    log = combat_log(pos, "red-exploitation")
    log.roll(4)
    log.move(pos.counter("A"), "B12.14")
    assert combat(game, log) == []


def test_a_retreat_after_a_roll_in_a_phase_a_chat_announced_is_noted_not_judged(game):
    # a chat names the phase: the players may have gone on to a combat phase they did not announce, so the
    # drag may be a retreat; but no battle was read for the roll, so the step says the move is not judged
    pos = position(A, D1)
    log = Log(pos)
    log.chat("Red exploitation phase")
    log.roll(4)
    log.move(pos.counter("d1"), "B15.14")
    r = audit(game, log.record(), "1")
    assert [f.code for f in r.findings if f.code.startswith(("HF11", "HF15"))] == []
    assert r.coverage["steps"][2] == {"step": 3, "status": "partly", "reasons": [
        "3rd Engineer Battalion B14.14 -> B15.14 is read as a retreat or an advance after the roll at step 2, for "
        "which no battle was read: the move is not judged"]}


# -- a result applies to the battle's units (8.6) --
def test_a_loss_outside_the_battle(game):
    pos = position(A, ("B", "red-4rd-11", "red", "B13.14"), D1, D2, reduced=("d1",))
    log = combat_log(pos)                                         # 8 against 2 (the reduced engineers): 4:1
    log.roll(6)                                                   # 6 = DE
    log.remove(log.pos.counter("d1"))
    log.flip(pos.counter("d2"), {"reduced"})
    assert combat(game, log) == [(4, "HF1508", ("B13.13", "B14.14"), ("7th Infantry Regiment",),
                                  "7th Infantry Regiment in B13.13 loses a step after the roll, though it was not in "
                                  "the battle against B14.14 (the roll is tied to the battle against B14.14: certain, "
                                  "the log shows losses or a retreat in B14.14 after the roll)")]


def test_an_exchange_loss_taken_by_a_unit_outside_the_battle_is_two_faults_each_said_once(game):
    # EX (1:1, roll 6): Eng/3 loses its step, and 11/4, far off in B10.14, instead of 10/4. The battle's
    # attackers took no loss (HF1501, naming the battle's units only) and a unit outside it lost a step (HF1508)
    pos = position(A, ("F", "red-4rd-11", "red", "B10.14"), D1)
    log = combat_log(pos)
    log.roll(6)
    log.flip(pos.counter("d1"), {"reduced"})
    log.flip(pos.counter("F"), {"reduced"})
    assert combat(game, log) == [
        (3, "HF1501", ("B14.14",), ("3rd Engineer Battalion",),
         "combat roll 6 against B14.14: the applied result fits no cell the table gives (1 possible: 1:1/6: EX); "
         "attacker: needs 1 step(s) lost, shows no loss"),
        (4, "HF1508", ("B10.14", "B14.14"), ("11th Rifle Regiment",),
         "11th Rifle Regiment in B10.14 loses a step after the roll, though it was not in the battle against "
         "B14.14 (the roll is tied to the battle against B14.14: certain, the log shows losses or a retreat in "
         "B14.14 after the roll)")]
    log.steps.pop()
    log.flip(pos.counter("A"), {"reduced"})                       # the attacker's step: EX applied
    assert combat(game, log) == []


def test_a_move_far_from_the_battle_in_the_combat_phase(game):
    # the turn marker shows the Red Combat Phase: after the DR in B14.14, Blue's 7/3, far off in A9.09 with no
    # Red unit next to it, is dragged: in Red's combat phase a Blue unit moves only by retreating (3.2, 8.6)
    pos = position(A, D1, ("f", "blue-3id-7", "blue", "A9.09"))
    log = after_dr(pos)                                           # steps 3, 4: a legal retreat
    log.move(pos.counter("f"), "A10.09")
    assert combat(game, log, "HF11") + combat(game, log) == [
        (5, "HF1508", ("A9.09", "A10.09", "B14.14"), ("7th Infantry Regiment",),
         "7th Infantry Regiment in A9.09 moves A9.09 -> A10.09 after the roll, though it was not in the battle "
         "against B14.14 (the roll is tied to the battle against B14.14: certain, the log shows losses or a "
         "retreat in B14.14 after the roll)")]
    log = Log(pos)                                                # no phase recorded: Blue's movement phase
    log.roll(4)                                                   # may have begun once B14.14's unit retreated
    log.move(pos.counter("d1"), "B15.14", "B16.14")
    log.move(pos.counter("f"), "A10.09")
    assert combat(game, log, "HF11") + combat(game, log) == []


def test_moves_a_later_phase_may_explain_are_not_the_battles_where_the_phase_is_inferred(game):
    # no phase recorded: after Red's roll, Red's exploitation and Blue's movement phase may have begun, so a
    # unit's drags after it are the battle's only as far as a reading needs them; each beside the same log
    # with the turn marker showing the Red Combat Phase, where every drag up to the next roll is the battle's
    rec, pinned = ("T", "red-1ad-rec", "red", "B10.05"), combat_log
    cases = [
        # a mechanized Red unit far off moves: an exploitation move, or no advance (HF1509)
        ((A, D1, rec), 4, [("d1", ("B15.14", "B16.14")), ("T", ("B10.06",))], "HF1509"),
        # NE, the defender then moves: Blue's own move, or a retreat no result gives (HF1501)
        ((A, D1), 3, [("d1", ("B15.14",))], "HF1501"),
        # 1/1 (6, armor in clear: +1) against Eng/3: 2:1, 3 + 1 = DR; it advances, then drags on: its
        # exploitation move, or an advance past the defender's hex (HF1512)
        ((("T", "red-1ad-1tk", "red", "B13.14"), D1), 3,
         [("d1", ("B15.14", "B16.14")), ("T", ("B14.14", "B15.15"))], "HF1512"),
        # DR retreated in two drags, then a third: Blue's own move, or a retreat's drag no farther (HF1513)
        ((A, D1), 4, [("d1", ("B15.14", "B16.14", "B16.13"))], "HF1513"),
    ]
    for units, total, drags, code in cases:
        pos = position(*units)
        for log, want in ((Log(pos), []), (pinned(pos), [code])):
            log.roll(total)
            for p, hexes in drags:
                log.move(pos.counter(p), *hexes)
            assert [f[1] for f in combat(game, log)] == want, (code, want)


def test_a_roll_after_the_other_sides_moves_may_be_its_attack_where_the_phase_is_inferred(game):
    # no phase recorded: Red's DR against B14.14, then Blue's 7/3 moves next to 10/4 (Blue's movement phase
    # may have begun) and a roll, after which 7/3 steps back a hex: Blue's attack, 3 against 5 (1:2), roll 2 =
    # AR, is a legal reading (a Red attack on 7/3 is not: AR would retreat 10/4)
    pos = position(A, D1, ("x", "blue-3id-7", "blue", "B11.13"))

    def game_log(log: Log) -> Log:
        log.roll(4)
        log.move(pos.counter("d1"), "B15.14", "B16.14")
        log.move(pos.counter("x"), "B12.13")
        log.roll(2)
        log.move(pos.counter("x"), "B11.13")
        return log
    assert combat(game, game_log(Log(pos))) == []
    # the turn marker showing the Red Combat Phase throughout: 7/3 moved outside the battle, and the second
    # roll, Red's, is 10/4's second attack (the only Red unit next to B14.14, it made the first for certain)
    # and fits no cell
    assert [f[:2] for f in combat(game, game_log(combat_log(pos)))] == [(5, "HF1508"), (6, "HF1503"),
                                                                         (7, "HF1501")]


# -- advances (8.7) --
def test_an_advance_by_a_unit_that_did_not_attack(game):
    pos = position(A, ("C", "red-4rd-11", "red", "B12.14"), D1)
    log = after_dr(pos)
    log.move(pos.counter("C"), "B13.15", "B14.14")
    assert combat(game, log) == [(5, "HF1509", ("B12.14", "B14.14"), ("11th Rifle Regiment",),
                                  "11th Rifle Regiment moves B12.14 -> B13.15 -> B14.14 after the battle against "
                                  "B14.14, in which it did not attack (it did not stand next to B14.14)")]


def test_an_advance_into_the_vacated_hex(game):
    pos = position(A, ("C", "red-4rd-11", "red", "B12.14"), D1)
    log = after_dr(pos)
    log.move(pos.counter("A"), "B14.14")
    assert combat(game, log) == []


def test_an_advance_across_the_river(game):
    tank, inf, eng = ("T", "red-1ad-1tk", "red", "B1.05"), ("I", "red-4rd-10", "red", "B1.05"), \
        ("d1", "blue-3id-eng", "blue", "A16.05")
    pos = position(tank, inf, eng, reduced=("d1",))
    log = combat_log(pos)                                         # 10 against 2: 5:1; armor +1, river -1
    log.roll(5)                                                   # 5 = DE
    log.remove(log.pos.counter("d1"))
    log.move(pos.counter("T"), "A16.05")                          # the Meuse, no bridge: P for mechanized units
    assert combat(game, log) == [(4, "HF1510", ("B1.05", "A16.05"), ("1st Tank Regiment",),
                                  "1st Tank Regiment advances B1.05 -> A16.05 across a river hexside, prohibited to "
                                  "its movement class")]
    log = combat_log(pos)
    log.roll(5)
    log.remove(log.pos.counter("d1"))
    log.move(pos.counter("I"), "A16.05")                          # a leg unit may cross it
    assert combat(game, log) == []


def test_an_advance_by_more_units_than_allowed(game):
    pos = position(A, ("B", "red-4rd-11", "red", "B13.14"), ("C", "red-4rd-12", "red", "B14.13"), D1, reduced=("d1",))
    log = combat_log(pos)                                         # 12 against 2: 6:1
    log.roll(4)                                                   # 4 = DE
    log.remove(log.pos.counter("d1"))
    for p in ("A", "B", "C"):
        log.move(pos.counter(p), "B14.14")
    assert combat(game, log) == [(6, "HF1511", ("B14.13", "B14.14"), ("12th Rifle Regiment",),
                                  "12th Rifle Regiment advances into B14.14 as unit 3 after one battle, where at most "
                                  "2 may advance")]
    log.steps.pop()                                               # two of them advance: no finding
    assert combat(game, log) == []


def test_an_advance_too_far_is_found_at_the_advance(game):
    pos = position(A, D1)
    log = after_dr(pos)                                           # steps 3, 4: a legal retreat
    log.move(pos.counter("A"), "B14.14", "B15.14")                # step 5 legal, step 6 one hex too far
    assert combat(game, log) == [(6, "HF1512", ("B13.14", "B14.14"), ("10th Rifle Regiment",),
                                  "10th Rifle Regiment advances B13.14 -> B14.14 -> B15.14: an advance of 1 hex(es) "
                                  "goes into the defender's hex B14.14 first and stops there")]


# -- retreats (8.6) --
def test_a_retreat_dragged_through_an_enemy_zoc(game):
    pos = position(A, ("R2", "red-4rd-11", "red", "B16.13"), D1)
    log = after_dr(pos, ("B15.14", "B16.15"))                     # B15.14 is next to R2; B16.15 is a legal end
    assert combat(game, log) == [(3, "HF1513", ("B14.14", "B15.14"), ("3rd Engineer Battalion",),
                                  "3rd Engineer Battalion retreats B14.14 -> B15.14 -> B16.15: its drag to B15.14 "
                                  "stops where a retreat never goes (B15.14 is in an enemy ZOC)")]


def test_a_retreat_whose_last_drag_goes_no_farther(game):
    # DR: two hexes, each farther from B14.14; the second drag, B15.14 -> B15.15, stays one hex away. The
    # result was applied (two hexes retreated), the way was not: HF1513 at that drag, no HF1501
    pos = position(A, D1)
    assert combat(game, after_dr(pos, ("B15.14", "B15.15"))) == [
        (4, "HF1513", ("B14.14", "B15.15"), ("3rd Engineer Battalion",),
         "3rd Engineer Battalion retreats B14.14 -> B15.14 -> B15.15: its drag to B15.15 ends the retreat where a "
         "retreat never goes (B15.15 is no farther from B14.14 than B15.14)")]
    (f,) = combat(game, after_dr(pos, ("B15.14",)))               # one hex only: the result's length, HF1501
    assert f[:4] == (3, "HF1501", ("B14.14",), ("3rd Engineer Battalion",))
    assert "blue-3id-eng retreated 1 hex(es) (B14.14 -> B15.14), DR needs exactly 2" in f[4]
    assert combat(game, after_dr(pos)) == []                      # B15.14 -> B16.14: two hexes, each farther


def test_a_retreat_ending_beside_two_units(game):
    # 8.6: a retreat may not "end in a hex holding two other units" (tables.yaml avoids: overstack)
    pos = position(A, D1, ("x", "blue-3id-7", "blue", "B16.13"), ("y", "blue-3id-8", "blue", "B16.13"))
    assert combat(game, after_dr(pos, ("B15.14", "B16.13"))) == [
        (4, "HF1513", ("B14.14", "B16.13"), ("3rd Engineer Battalion",),
         "3rd Engineer Battalion retreats B14.14 -> B15.14 -> B16.13: its drag to B16.13 ends the retreat where a "
         "retreat never goes (B16.13 already holds 2 other units (7th Infantry Regiment, 8th Infantry Regiment), "
         "the stacking limit)")]
    assert combat(game, after_dr(pos, ("B15.14", "B16.14"))) == []   # B16.14 is free


def test_the_second_unit_of_a_stack_retreating_into_a_hex_it_fills(game):
    # 10/4 + 11/4 (8) against Eng/3 + 7/3 (8): 1:1, roll 4 = DR. 7/3 ends beside 30/12 in B16.14 (legal: one
    # other unit), then Eng/3 ends there too: that retreat ends in a hex holding two other units
    pos = position(A, ("B", "red-4rd-11", "red", "B13.15"), D1, ("d2", "blue-3id-7", "blue", "B14.14"),
                   ("x", "blue-12id-30", "blue", "B16.14"))

    def log_ending(hex_id: str) -> Log:
        log = combat_log(pos)
        log.roll(4)
        log.move(pos.counter("d2"), "B15.14", "B16.14")
        log.move(pos.counter("d1"), "B15.15", hex_id)
        return log
    assert combat(game, log_ending("B16.14")) == [
        (6, "HF1513", ("B14.14", "B16.14"), ("3rd Engineer Battalion",),
         "3rd Engineer Battalion retreats B14.14 -> B15.15 -> B16.14: its drag to B16.14 ends the retreat where a "
         "retreat never goes (B16.14 already holds 2 other units (30th Infantry Regiment, 7th Infantry Regiment), "
         "the stacking limit)")]
    assert combat(game, log_ending("B16.15")) == []               # Eng/3 ends in B16.15 instead


def test_a_retreat_into_an_enemy_zoc_is_one_finding_at_its_drag(game):
    # AR: 10/4 (4) against 7/3 + 8/3 (10), 1:3, roll 4: 10/4 retreats one hex, into B14.13, next to the
    # defenders; and DR: Eng/3's first drag into B14.13, next to 10/4, then on to B14.12 (no retreat ends
    # there). Either way the result was applied and the way is wrong: HF1513 at the drag, no HF1501
    pos = position(A, ("x", "blue-3id-7", "blue", "B14.14"), ("y", "blue-3id-8", "blue", "B14.14"))

    def after_ar(to: str) -> Log:
        log = combat_log(pos)
        log.roll(4)
        log.move(pos.counter("A"), to)
        return log
    assert combat(game, after_ar("B14.13")) == [
        (3, "HF1513", ("B13.14", "B14.13"), ("10th Rifle Regiment",),
         "10th Rifle Regiment retreats B13.14 -> B14.13: its drag to B14.13 ends the retreat where a retreat "
         "never goes (B14.13 is in an enemy ZOC)")]
    assert combat(game, after_ar("B12.14")) == []                 # away from both defenders: legal
    assert combat(game, after_dr(position(A, D1), ("B14.13", "B14.12"))) == [
        (3, "HF1513", ("B14.14", "B14.13"), ("3rd Engineer Battalion",),
         "3rd Engineer Battalion retreats B14.14 -> B14.13 -> B14.12: its drag to B14.13 stops where a retreat "
         "never goes (B14.13 is in an enemy ZOC)")]


def test_a_retreat_through_a_full_friendly_hex(game):
    pos = position(A, ("R2", "red-4rd-11", "red", "B16.13"), D1, ("x", "blue-3id-7", "blue", "B15.15"),
                   ("y", "blue-3id-8", "blue", "B15.15"))
    log = after_dr(pos, ("B15.15", "B16.15"))                     # through two Blue units (5.1), ending legally
    assert combat(game, log) == []


# -- how sure the roll's tie to its battle is, said in the finding --
def test_a_violation_whose_battle_is_not_certain_says_so(game):
    pos = position(A, D1, D2)
    log = combat_log(pos)
    log.roll(2)                             # 1:1 against d1 and 1:2 against d2: AR either way; nobody moves
    log.next_turn("1", "red-exploitation")  # before the phase ends (a log ending at the roll may go on in the next)
    (f,) = combat(game, log)
    assert f[:3] == (2, "HF1501", ("B13.13", "B14.14"))
    assert f[4].endswith("(no unit lost or moved after the roll) (the roll is tied to the battle against B13.13: "
                         "possible, any of 2 hexes of defending units next to a unit of Red may be the battle's)")
