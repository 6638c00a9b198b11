"""Real VASSAL 3.7.9 logs recorded on 3 December from the rulebooks, each with its SCRIPT and EXPECTED in
tests/fixtures/vlogs.

- Ardennes II 3.4, "All stacks (of both sides) remove their DG markers only in the Pre-Turn's Barrage & DG Marker
  Recovery Phase": a DG marker deleted off its stack in the German Movement & Barrage Phase is HF1109 (missed
  before). Near misses: the same markers deleted in turn 2's DG Marker Removal Phase, the chat naming it as the
  rulebook prints it before errata 3 renamed it (a note: the terms of DG Recovery are not judged); a marker deleted
  in the US Supply Phase just before the turn marker moves (it may be the next turn's removal, played before the
  marker moved: a note); a marker deleted with the unit it marks eliminated after it (nothing).
- Ardennes II 3.5, "Barrages do not inflict step losses directly": a unit flipped to reduced after a barrage roll in
  the US Barrage Phase is HF1514 (before: nothing said, the step counted fully verified). Near miss: an artillery
  unit removed after a roll in the DG Marker Removal Phase (the Air Supply for Artillery Table removes it on a 1):
  a note, as units leave play by other rules than combat.
- Bulge 41.3/43.3, 41.4/43.4: Panzer Brigade 150 and KG Peiper advance after the German 16 AM Combat Phase only on
  their roll (1; 1 or 2), each on a roll of its own, and at most 4 hexes ("Attacker Advances 4"): HF1110, HF1111
  (before: "its terms are not judged"). Near misses: a roll of 2; the roll made in the Combat Phase once its battles
  are done, before the marker moved on; two rolls for the two units; four hexes. 43.5: KG Peiper, having entered
  an Allied ZOC in the Movement Phase, may not advance (HF1112: a warning, the tree assuming no cliff hexside
  there); near miss: its move ended two hexes from every Allied unit.
- The fourteenth session's red team (Aachen, Meuse): chat lines that name a side as players do ("Germans", "Ger",
  "Second Player Turn", "Allied" for the US side, 10.2) are read (before: the German moves after them HF1101, false,
  and the US violations after "Allied ... Phase" missed); a unit the set-up places along a range, piled by the
  module on one hex of it, is costed from the range's best hex (14.0; HF1201 before, false); where no battle judges
  retreats (Aachen), a drag after a roll longer than any result's retreat (HF1518) or through an enemy-held hex
  (HF1519) is a violation (missed before); a unit dropped back into its own hex is no move (Meuse: HF1204, HF1101,
  HF1102, HF1501 before, false); a unit that attacked one hex and advances after another's battle is HF1509 alone
  (before: HF1503 too, its advance read as proof that it attacked twice).
- Ardennes II 3.3: an overrun's attacker dropped onto its defender attacks from the hex its drag came from: the
  roll is the overrun's (before: judged against every other front, a false HF1501); near miss: the same A1 with
  no step lost, HF1501 against B19.17.
- Ardennes II 1.2: a unit that began the phase next to an enemy pays +1 MP for each move from such a hex to another
  (rules.adjacent_move_cost): 751's six one-hex drags between them are HF1201 (missed before); Erz Bn's five are
  legal where its hexes are road (HF1205 warnings).
- Bulge: a chat line counting turns ("Turn 2 - German Movement Phase", where the track's turns are "16 AM", "16
  PM") after the Allied phases begins the next turn (a false HF1101 before); 40.2: the von der Heydte battalion's
  failed roll eliminates it, and left on the map it is HF1409 (before: "the arrival's roll is not judged"); near
  miss: deleted after the roll.
- Meuse, chat as players write it (the third red team): "Red combat phase done" ends that phase, it does not
  announce it; "second player turn", "Blue's turn" begin that side's player turn; "Blue exploit", "Red move" and
  typos a letter or two off ("Movemnet") name their phases; "Day 2 AM" names turn 3 by its label. Before, legal
  moves after each were HF1101 (or HF1401/HF1406 for the turn); near miss: a leg unit moving after "done", HF1103.
- Ardennes II 3.5 with errata 3-4, in hand-written game records (the module's Barrage markers are palette pieces):
  a Full marker comes off in a player turn's Barrage Marker Removal Phase (near miss), not in the US Barrage Phase
  (HF1109), and in the Pre-Turn only as printed; a Half marker comes off when reconciled, not in the next phase.
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from compiler.vassal.vlog import read_log
from tests.recorded_logs import ROOT, SHARED, VLOGS, audit_recorded, load_games, severe
from validator.records.record_yaml import record_from_yaml, record_to_yaml
from validator.referee.audit import audit
from validator.referee.phases import PhaseTracker
from validator.source.loader import load_game

I3, II3 = "5-3-12 Pz Bn (I/3)", "4-2-12 Pz Bn (II/3)"
ERZ, R751 = "1-2-8 Erz Bn (326)", "2-3-8 Inf Rgt (751)"

# (game, log) -> [(step, code, hexes, units)] of its errors and warnings
FOUND = {
    ("ardennes2", "ardennes2_dg_marker_removed"): [(2, "HF1109", ("B22.19",), (I3, II3))],
    ("ardennes2", "ardennes2_dg_marker_removed_near"): [],
    ("ardennes2", "ardennes2_dg_marker_removed_before_turn_marker"): [(11, "HF1109", ("B22.19",), (I3, II3))],
    ("ardennes2", "ardennes2_barrage_takes_no_step"): [(9, "HF1514", ("B22.19",), (I3,))],
    ("bulge", "bulge_peiper_failed_roll"): [(8, "HF1110", ("UU5", "TT5"), ("KG Peiper",))],
    ("bulge", "bulge_peiper_advance_too_far"): [(12, "HF1111", ("UU5", "RR7"), ("KG Peiper",))],
    ("bulge", "bulge_peiper_roll_in_combat_phase"): [],
    ("bulge", "bulge_peiper_special_advance"): [],
    ("bulge", "bulge_infiltrators_one_roll"): [(10, "HF1110", ("UU7", "TT7"), ("KG Peiper",))],
    ("bulge", "bulge_infiltrators_two_rolls"): [],
    ("bulge", "bulge_peiper_forfeit"): [(9, "HF1112", ("RR5", "QQ5", "RR6"), ("KG Peiper", "99/395"))],
    ("bulge", "bulge_peiper_forfeit_near"): [],
    ("aachen", "aachen_chat_second_player"): [],
    ("aachen", "aachen_chat_players_named"): [(4, "HF1105", ("1433", "1434"), ("2-2-12 tank destroyer",)),
                                              (8, "HF1102", ("1226", "1227"), ("1-1-7 infantry",))],
    ("aachen", "aachen_chat_allied"): [(7, "HF1105", ("1433", "1434"), ("2-2-12 tank destroyer",)),
                                       (9, "HF1102", ("1232", "1231"), ("3-3-7 infantry",)),
                                       (10, "HF1101", ("1420", "1421"), ("0-1-6 infantry",))],
    ("aachen", "aachen_setup_range_move"): [(4, "HF1205", ("2431", "2407"), ("2-2-12 mechanized infantry",)),
                                            (5, "HF1201", ("2431", "2507"), ("2-2-12 mechanized infantry",)),
                                            (10, "HF1301", ("1132",), ("3-3-7 infantry", "3-3-7 infantry"))],
    ("aachen", "aachen_retreat_through_enemy"): [
        (13, "HF1519", ("0409", "0309"), ("0-1-6 infantry", "2-3-7 infantry")),
                                                 (18, "HF1505", ("0208",), ("0-1-6 infantry",))],
    ("aachen", "aachen_retreat_too_long"): [(17, "HF1518", ("0317", "0817"), ("1-1-6 infantry",)),
                                            (22, "HF1509", ("0213", "0415"), ("2-3-7 infantry",))],
    ("meuse", "meuse_chat_phase_done"): [],
    ("meuse", "meuse_chat_phase_done_leg"): [(5, "HF1103", ("B8.13", "B6.13"), ("12th Rifle Regiment",))],
    ("meuse", "meuse_chat_player_turn"): [],
    ("meuse", "meuse_chat_sides_turn"): [],
    ("meuse", "meuse_chat_short_names"): [],
    ("meuse", "meuse_chat_typos"): [],
    ("meuse", "meuse_chat_turn_label"): [],
    ("meuse", "meuse_chat_first_player_turn_2"): [],
    ("meuse", "meuse_reroll_old_result_applied"): [
        (11, "HF1505", ("B1.10",), ("2nd Light Mechanised Reconnaissance Squadron",)),
        (12, "HF1501", ("B1.10", "B2.10"), ("2nd Light Mechanised Reconnaissance Squadron", "1st Tank Regiment"))],
    ("meuse", "meuse_last_phase_decides"): [],
    ("meuse", "meuse_dropped_back"): [],
    ("meuse", "meuse_dropped_back_in_combat"): [],
    ("ardennes2", "ardennes2_overrun_dropped_on_defender"): [],
    ("ardennes2", "ardennes2_overrun_dropped_on_defender_no_loss"): [  # any front the roll may be for, B19.17 first
        (6, "HF1501", ("B19.17", "B25.09", "B26.50", "B26.52", "B27.49", "B28.48", "B29.48", "B29.49", "B31.46",
                       "B33.34", "B35.04", "B20.17"), ("4-5-8 Inf Rgt (77)",))],
    ("ardennes2", "ardennes2_moves_between_enemy_adjacent_hexes"): [
        (4, "HF1205", ("B30.48", "B29.46"), (ERZ,)), (5, "HF1205", ("B30.48", "B30.45"), (ERZ,)),
        (6, "HF1205", ("B30.48", "B31.45"), (ERZ,)), (9, "HF1205", ("B28.49", "B26.48"), (R751,)),
        (10, "HF1205", ("B28.49", "B27.48"), (R751,)), (11, "HF1205", ("B28.49", "B28.47"), (R751,)),
        (12, "HF1201", ("B28.49", "B29.47"), (R751,))],
    ("ardennes2", "ardennes2_attacker_loss_names_its_battle"): [   # the moves up rest on roads (HF1205)
        (2, "HF1205", ("B39.47", "B27.52"), ("4-4-12 SS Inf Rgt(-) (26)",)),
        (3, "HF1205", ("B30.48", "B26.53"), (ERZ,)),
        (7, "HF1501", ("B26.52", "B27.52"), ("4-4-12 SS Inf Rgt(-) (26)",))],
    ("ardennes2", "ardennes2_73_play_area_and_end"): [
        (2, "HF1201", ("B35.44", "B35.34"), ("2-2-14 SS Pz Recon KG (Bremer)",)),
        (3, "HF1205", ("B36.44", "B36.36"), ("4-4-12 SS Inf Rgt(-) (26)",)),   # inside the area, legal by road
        (11, "HF1701", ("B34.47", "B34.45"), ("3-3-12 SS Inf Bn(+) (A/25)",))],
    ("bulge", "bulge_chat_turn_count"): [],
    ("bulge", "bulge_vdh_failed_roll_stays"): [(28, "HF1409", ("JJ6",), ("Von der Heydte parachute battalion",))],
    ("bulge", "bulge_vdh_failed_roll_deleted"): [],
    ("meuse", "meuse_advance_after_attacking_elsewhere"): [
        (29, "HF1509", ("A16.09", "A15.09"), ("1st Tank Regiment",))],
}


@pytest.fixture(scope="module")
def games():
    return load_games()


@pytest.mark.parametrize("game_name, log", sorted(FOUND))
def test_what_each_log_breaks(games, game_name, log):
    assert severe(games, game_name, log, units=True) == FOUND[(game_name, log)]


def test_the_violation_names_the_phase_and_the_rule(games):
    a = audit_recorded(games, "ardennes2", "ardennes2_dg_marker_removed")
    (f,) = [f for f in a.findings if f.code == "HF1109"]
    assert f.rule == "3.4" and f.turn == "1" and f.side == "axis"
    assert "in the German Movement & Barrage. [1] of turn 1: it is removed only in the DG Marker Removal" in f.message


def _notes(a, step):
    return [f.message for f in a.findings if f.step == step and f.severity == "info"]


def test_a_removal_in_its_phase_says_the_terms_are_not_judged(games):
    a = audit_recorded(games, "ardennes2", "ardennes2_dg_marker_removed_near")
    for step in (11, 12):
        (note,) = _notes(a, step)
        assert "taken off in the DG Marker Removal: whether its units meet 3.4's terms" in note
        assert "Out of Supply" in note


def test_a_removal_just_before_the_turn_marker_moves_may_be_the_next_turns(games):
    a = audit_recorded(games, "ardennes2", "ardennes2_dg_marker_removed_before_turn_marker")
    (note,) = _notes(a, 8)
    assert "before the turn marker moved to turn 2: read as in that turn's DG Marker Removal" in note


def test_a_marker_removed_with_its_eliminated_unit_is_not_judged_by_the_marker_rule(games):
    a = audit_recorded(games, "ardennes2", "ardennes2_dg_marker_removed_before_turn_marker")
    assert not [f for f in a.findings if f.step == 12]           # the marker of the Werfer Bde, removed at 13
    assert [f.code for f in a.findings if f.step == 13] == ["HF1901"]   # the removal of the unit: another rule's


def test_a_phase_is_named_as_printed_before_an_erratum_renamed_it(games):
    game = games["ardennes2"]
    t = PhaseTracker(game)
    removal = next(i for i, p in enumerate(game.phases) if p.id == "pre-marker-removal")
    assert game.phases[removal].name == "DG Marker Removal"               # errata 3
    assert t.match_announcement("Barrage & DG Marker Removal, Turn 2") == removal
    assert t.match_announcement("DG Marker Removal, Turn 2") == removal
    # near miss: a side's Barrage Marker Removal is not the Pre-Turn's
    assert game.phases[t.match_announcement("German Barrage Marker Removal")].id == "de-barrage-removal"


def test_a_barrage_takes_no_step(games):
    a = audit_recorded(games, "ardennes2", "ardennes2_barrage_takes_no_step")
    (f,) = [f for f in a.findings if f.code == "HF1514"]
    assert f.rule == "3.5" and f.side == "axis"
    assert "loses a step at B22.19 after a roll in the Allied US Barrage of turn 1, which has no combat" in f.message


def test_a_unit_removed_after_a_roll_outside_combat_is_a_note(games):
    a = audit_recorded(games, "ardennes2", "ardennes2_barrage_takes_no_step")
    (note,) = _notes(a, 3)
    assert "Werfer Bde (16) is eliminated at B35.33 after a roll in the DG Marker Removal, which has no combat: " \
           "whether a rule allows it is not judged" in note
    assert not _notes(a, 4)                    # its marker went with it


# -- Barrage markers (3.5, errata 3-4), in hand-written game records: the module's Barrage markers come from its
#    palette, which the recording driver cannot drag from, so these are records as a player writes them
#    (docs/record-format.md), starting from the 7.1 set-up as a real log of it begins.

def _record(game, steps: str):
    if SHARED is None:
        pytest.skip("the Ardennes II module is in shared/vassal-logs")
    base = read_log(VLOGS / "ardennes2_dg_exploit.vlog", SHARED / "ardennes2.vmod", game)
    text = record_to_yaml(replace(base, steps=())).replace("steps: []\n", "steps:\n" + steps)
    return record_from_yaml(text, "barrage.yaml")


_FULL_PLACED = """\
- events: [{chat: {text: 'German Movement & Barrage, Turn 1'}}]
- events: [{roll: {dice: 1d6, faces: [2]}}]
- events: [{place: {piece: bf1, unit: barrage-full, kind: marker, at: B28.49}}]
- events: [{chat: {text: 'German Half Reconciliation, Turn 1'}}]
- events: [{chat: {text: 'US Barrage, Turn 1'}}]
"""


def _barrage_findings(game, steps: str):
    a = audit(game, _record(game, _FULL_PLACED + steps), "7.1")
    return [(f.step, f.code, f.hexes, f.rule) for f in a.findings if f.code == "HF1109"], a


def test_a_full_barrage_marker_removed_outside_a_removal_phase(games):
    found, a = _barrage_findings(games["ardennes2"], "- events: [{remove: {piece: bf1}}]\n")
    assert found == [(6, "HF1109", ("B28.49",), "3.5")]
    (f,) = [f for f in a.findings if f.code == "HF1109"]
    assert "the Barrage (Full) marker in B28.49 taken off the map in the Allied US Barrage of turn 1: it is " \
           "removed only in the German Barrage Marker Removal or the Allied Barrage Marker Removal" in f.message


def test_a_full_barrage_marker_removed_in_the_next_player_turns_removal_phase(games):
    found, _ = _barrage_findings(games["ardennes2"], """\
- events: [{chat: {text: 'US Barrage Marker Removal, Turn 1'}}]
- events: [{remove: {piece: bf1}}]
""")
    assert found == []


def test_the_pre_turn_removes_barrage_markers_as_printed_but_not_after_errata_3(games):
    pre_turn = """\
- events: [{turn: {turn: '2'}}]
- events: [{chat: {text: 'Barrage & DG Marker Removal, Turn 2'}}]
- events: [{remove: {piece: bf1}}]
"""
    found, _ = _barrage_findings(games["ardennes2"], pre_turn)
    assert found == [(8, "HF1109", ("B28.49",), "3.5")]
    printed = load_game(ROOT / "source" / "ardennes2", apply_errata=False)[0]
    assert _barrage_findings(printed, pre_turn)[0] == []


def test_a_half_marker_comes_off_when_reconciled_not_after(games):
    game = games["ardennes2"]
    half = """\
- events: [{chat: {text: 'German Movement & Barrage, Turn 1'}}]
- events: [{place: {piece: bh1, unit: barrage-half, kind: marker, at: B28.49}}]
- events: [{chat: {text: 'German Half Reconciliation, Turn 1'}}]
"""
    ok = audit(game, _record(game, half + "- events: [{remove: {piece: bh1}}]\n"), "7.1")
    assert [f for f in ok.findings if f.code == "HF1109"] == []
    late = audit(game, _record(game, half + """\
- events: [{chat: {text: 'German Combat, Turn 1'}}]
- events: [{remove: {piece: bh1}}]
"""), "7.1")
    assert [(f.step, f.code, f.hexes) for f in late.findings if f.code == "HF1109"] == [(5, "HF1109", ("B28.49",))]


def test_a_special_move_without_its_roll_names_the_rule_and_the_rolls(games):
    a = audit_recorded(games, "bulge", "bulge_peiper_failed_roll")
    (f,) = [f for f in a.findings if f.code == "HF1110"]
    assert (f.rule, f.turn, f.phase, f.side) == ("43.3", "16 AM", "german-engineer", "german")
    assert f.message == ("KG Peiper makes its special move UU5 -> TT5 in the German Engineer Phase of turn 16 AM "
                         "with no 1d6 roll of 1 or 2 before it (rolls in the phase: 4)")


def test_a_special_move_too_far_is_found_at_the_drag_that_goes_over(games):
    a = audit_recorded(games, "bulge", "bulge_peiper_advance_too_far")
    (f,) = [f for f in a.findings if f.code == "HF1111"]
    assert f.rule == "43.4" and "goes at least 5 hexes in its special move from UU5 to RR7" in f.message
    # the drags before it, four hexes in all, are read as the special move (not as a placement's)
    assert all("is read as its special move (43.4)" in m for step in range(8, 12) for m in _notes(a, step))


def test_a_forfeited_special_move_rests_on_the_zoc_the_tree_assumes(games):
    a = audit_recorded(games, "bulge", "bulge_peiper_forfeit")
    (f,) = [f for f in a.findings if f.code == "HF1112"]
    assert f.severity == "warning" and f.rule == "43.5"
    assert f.message.startswith("KG Peiper makes its special move RR5 -> RR6 in the German Engineer Phase, having "
                                "entered at RR5 (step 5) the ZOC of 99/395 in QQ5: entering an enemy ZOC forfeits")
    assert "cliff" in f.message


def test_a_chat_line_naming_no_known_phase_unpins_the_announced_one(games):
    """A line that reads as an announcement the referee cannot match: the phase is inferred from there (the
    players may have gone on), and the step says so; near miss: a remark naming no phase keeps it pinned."""
    game = games["meuse"]
    module = VLOGS / "meuse.vmod"
    base = read_log(VLOGS / "meuse_legal.vlog", module, game)
    start = record_to_yaml(replace(base, steps=()))

    def blue_move_after(remark: str):
        steps = f"""\
- events: [{{chat: {{text: 'Turn 1 (Day 1 AM), Red Movement Phase'}}}}]
- events: [{{chat: {{text: '{remark}'}}}}]
- events: [{{move: {{piece: '1002', to: A14.10}}}}]
"""
        a = audit(game, record_from_yaml(start.replace("steps: []\n", "steps:\n" + steps), "x.yaml"), "1")
        return [f for f in a.findings if f.step in (2, 3)]
    unpinned = blue_move_after("Purple team: Movement Phase")
    assert [f.code for f in unpinned if f.severity == "error"] == []
    assert any("reads as naming a phase, but none of the sequence of play" in f.message for f in unpinned)
    kept = blue_move_after("good luck")
    assert [(f.step, f.code) for f in kept if f.severity == "error"] == [(3, "HF1101")]


def test_side_names_as_players_write_them(games):
    t = PhaseTracker(games["aachen"])
    ids = lambda text: games["aachen"].phases[t.match_announcement(text)].id   # noqa: E731
    assert ids("Second Player Turn: Movement Phase") == "german-movement"
    assert ids("GT 3 Ger movement") == "german-movement"
    assert ids("Allied Mobile Movement Phase") == "us-mobile-movement"
    assert ids("First Player Turn: Mobile Movement Phase") == "us-mobile-movement"
    assert t.match_announcement("all units ready") is None        # near miss: "all" is no side


def test_a_failed_arrival_roll_says_what_the_failure_does(games):
    a = audit_recorded(games, "bulge", "bulge_vdh_failed_roll_stays")
    (f,) = [f for f in a.findings if f.code == "HF1409"]
    assert f.rule == "40.2" and f.turn == "17 AM"
    assert f.message == ("Von der Heydte parachute battalion enters at JJ6 though no 1d6 roll of its phase came up 1 "
                         "(rolls: 3): on a failure it is eliminated, and it stays on the map")


def test_moves_between_enemy_adjacent_hexes_cost_more(games):
    a = audit_recorded(games, "ardennes2", "ardennes2_moves_between_enemy_adjacent_hexes")
    (f,) = [f for f in a.findings if f.code == "HF1201"]
    assert "(MA 2: 8 less 6 for 6 move(s) from a hex next to an enemy unit to another, 1.2)" in f.message


def test_a_move_out_of_the_play_area_says_so(games):
    a = audit_recorded(games, "ardennes2", "ardennes2_73_play_area_and_end")
    (f,) = [f for f in a.findings if f.code == "HF1201"]
    assert "B35.34 lies outside the play area of scenario 7.3 (7.3): no path in it joins them" in f.message


def test_chat_lines_as_players_write_them(games):
    game = games["meuse"]
    t = PhaseTracker(game)
    ids = lambda text: [game.phases[i].id for i in t._match_announcement(text)]   # noqa: E731
    assert ids("Blue exploit") == ["blue-exploitation"] and ids("Red move") == ["red-movement"]
    assert ids("Blue Movemnet phase") == ["blue-movement"] and ids("Blue Exploitaton phase") == ["blue-exploitation"]
    assert ids("second player turn") == ["blue-movement"] and ids("Blue's turn") == ["blue-movement"]
    assert ids("Red combat phase done") == [] and t.reads_as_announcement("Red combat phase done")
    assert ids("nice move") == [] and not t.reads_as_announcement("good luck")        # near misses: remarks


def test_the_last_phase_of_the_last_turn_can_decide_the_game(games):
    """Near miss: a log ending earlier in the game (meuse_legal, turn 2) stays "not decided"."""
    a = audit_recorded(games, "meuse", "meuse_last_phase_decides")
    assert a.result["winner"] == "blue" and a.result["decided"]
    assert a.result["text"].endswith("the log ends in the last turn's Blue Exploitation Phase, and no phase left "
                                     "lets Red move or fight")
    early = audit_recorded(games, "meuse", "meuse_legal")
    assert not early.result["decided"] and early.result["winner"] is None
