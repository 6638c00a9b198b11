"""The referee on the logs recorded for it (tests/fixtures/vlogs/, README.md there lists what each step
does): the exact findings of each violation, nothing on the legal steps, and exact movement costs
where the tree gives the whole map (source/meuse)."""
from fractions import Fraction
from pathlib import Path

import pytest

from compiler.vassal.vlog import read_log
from validator.source.loader import load_game
from validator.referee.audit import audit
from validator.referee.costs import TerrainCosts, class_costs
from validator.records.record import Moved

VLOGS = Path(__file__).resolve().parent / "fixtures" / "vlogs"
SHARED = next((p for p in (Path(__file__).resolve().parents[2] / "shared" / "vassal-logs",
                           Path("/work/shared/vassal-logs")) if p.exists()), None)


@pytest.fixture(scope="module")
def meuse():
    return load_game("source/meuse")[0]


@pytest.fixture(scope="module")
def ardennes2():
    return load_game("source/ardennes2")[0]


def audited(game, name, module):
    record = read_log(VLOGS / f"{name}.vlog", module=module, game=game)
    return record, audit(game, record)


@pytest.fixture(scope="module")
def meuse_legal(meuse):
    return audited(meuse, "meuse_legal", VLOGS / "meuse.vmod")


@pytest.fixture(scope="module")
def meuse_violations(meuse):
    return audited(meuse, "meuse_violations", VLOGS / "meuse.vmod")


def _ardennes2_module() -> Path:
    shared = SHARED / "ardennes2.vmod" if SHARED else None
    if shared is None or not shared.is_file():
        pytest.skip("the shared Ardennes II module is not available")
    return shared


# -- exact costs from the map --

def test_meuse_costs_follow_the_map(meuse):
    mech = TerrainCosts(meuse, class_costs(meuse, "mechanized"))
    leg = TerrainCosts(meuse, class_costs(meuse, "leg"))
    assert mech.enter("B11.11", "B10.11").mp == Fraction(1, 2)          # along the N4 road
    assert mech.enter("B11.12", "B10.11").mp == 3                        # the same woods hex off the road
    assert mech.enter("B1.02", "A16.01").mp is None                     # the Meuse: P for mechanized
    assert leg.enter("B1.02", "A16.01").mp == 3                          # +2 for leg, into clear
    # the Hautrive bridge cancels the river it spans (and the track joins both hexes)
    assert mech.side_features("A16.02", "B1.03") == {"bridge"}
    assert mech.enter("B1.03", "A16.02") == mech.enter("B1.03", "A16.02")
    assert mech.enter("B1.03", "A16.02").mp == 1 and mech.enter("B1.03", "A16.02").known
    assert leg.enter("B1.09", "B1.08").mp == 2                           # the Lorne: stream +1 for leg
    assert mech.enter("A7.14", "A6.13").mp is None and mech.prohibited_hex("A6.13").id == "marsh"
    assert leg.enter("A7.14", "A6.13").mp == 3 and leg.prohibited_hex("A6.13") is None


def test_costs_stay_the_cheapest_where_the_map_is_not_given(ardennes2):
    cc = class_costs(ardennes2, ardennes2.tec.movement_classes[0])
    step = TerrainCosts(ardennes2, cc).enter("B27.53", "B27.52")
    assert step.mp == cc.cheapest and not step.known


# -- meuse_legal.vlog: a legal full turn --

def test_meuse_legal_log_has_no_error_and_no_warning(meuse_legal):
    record, r = meuse_legal
    assert [(f.step, f.code, f.message) for f in r.findings if f.severity in ("error", "warning")] == []


def test_meuse_legal_log_every_move_step_is_fully_verified(meuse_legal):
    record, r = meuse_legal
    status = {s["step"]: s for s in r.coverage["steps"]}
    # steps 10 and 11 (a retreat and an advance after the roll) too: the CRT's `after_combat` lets the
    # combat referee judge their length (tests/test_referee_combat_meuse.py has the wrong ones)
    for s in record.steps:
        if any(isinstance(e, Moved) and e.counter.kind == "unit" for e in s.events):
            assert status[s.index]["status"] == "full", (s.index, status[s.index]["reasons"])


# -- meuse_violations.vlog: one violation per step (README table) --

def _moved(record, step):
    return next(e for e in record.steps[step - 1].events if isinstance(e, Moved))


EXPECTED_VIOLATIONS = [
    # step, code, rule (the tree's), piece, unit, hexes
    (2, "HF1201", "4.1", "1012", "red-4rd-10", ("B8.16", "B5.12")),
    (6, "HF1401", "11.1", "1015", "red-4rd-eng", ("B16.10",)),
    (7, "HF1301", "5.1", None, None, ("B10.11",)),
    (10, "HF1501", "8.3, 8.6", None, None, ("B1.17",)),    # a removal, not a move: units checked below
    (13, "HF1204", "6.2", "1011", "red-1ad-rec", ("B1.03", "A16.02", "A16.01")),
    (14, "HF1102", "9.1", "1014", "red-4rd-12", ("B8.13", "B7.14")),
    (16, "HF1206", "7.2", "1005", "blue-2lm-tk", ("A9.09", "A6.13")),
    (23, "HF1402", "11.2", "1018", "blue-12id-30", ("A1.03", "A1.08", "A1.09")),
]


def test_meuse_violations_log_reports_exactly_the_violations(meuse, meuse_violations):
    record, r = meuse_violations
    errors = [f for f in r.findings if f.severity == "error"]
    assert [(f.step, f.code, f.rule, f.hexes) for f in errors] == [
        (s, code, rule, hexes) for s, code, rule, _, _, hexes in EXPECTED_VIOLATIONS]
    for f, (step, _, _, piece, uid, _) in zip(errors, EXPECTED_VIOLATIONS):
        if piece is None:
            continue
        ev = _moved(record, step)
        assert (ev.counter.piece, ev.counter.unit) == (piece, uid)
        assert f.units[0] == meuse.unit(uid).name
    assert [f for f in r.findings if f.severity == "warning"] == []


def test_meuse_violations_over_stack_is_one_finding_over_two_phase_ends(meuse, meuse_violations):
    record, r = meuse_violations
    stacks = [f for f in r.findings if f.code == "HF1301"]
    assert len(stacks) == 1
    f = stacks[0]
    assert f.step == 7 and f.hexes == ("B10.11",)
    assert sorted(f.units) == sorted(meuse.unit(u).name for u in ("red-1ad-1tk", "red-1ad-3mr", "red-1ad-2tk"))
    assert "Red Movement Phase of turn 1 and the Red Combat Phase of turn 1" in f.message
    assert "Exploitation" not in f.message       # back to two units at step 12


def test_meuse_violations_legal_steps_have_no_finding(meuse_violations):
    record, r = meuse_violations
    assert [(f.step, f.code) for f in r.findings if f.step in (3, 4, 12)] == []
    status = {s["step"]: s["status"] for s in r.coverage["steps"]}
    assert [status[i] for i in (3, 4, 12)] == ["full"] * 3


def test_meuse_violations_wrong_combat_result_is_the_combat_judge_s_only(meuse, meuse_violations):
    # step 10: a 1:2 attack rolled 5 at step 9 = DR, but the defender is deleted though it could retreat.
    # Only the combat judge speaks there (the removal is not a move, so no movement rule may accuse it).
    record, r = meuse_violations
    assert [(f.step, f.code, f.units) for f in r.findings if f.step in (9, 10)] == [
        (10, "HF1501", (meuse.unit("blue-3id-9").name,))]


# -- ardennes2_violations.vlog --

def test_ardennes2_violations_log(ardennes2):
    record, r = audited(ardennes2, "ardennes2_violations", _ardennes2_module())
    moves = [f for f in r.findings if f.step is not None and f.code != "HF1901"]
    by_step = {}
    for f in moves:
        by_step.setdefault(f.step, []).append(f)
    assert 2 not in by_step and 6 not in by_step
    (f3,) = by_step[3]
    assert (f3.code, f3.severity, f3.hexes) == ("HF1202", "error", ("B27.49",))
    assert f3.units[0] == ardennes2.unit("de-326vg-753").name and f3.units[1] == ardennes2.unit("us-2id-a-9").name
    (f4,) = by_step[4]
    assert (f4.code, f4.severity, f4.hexes) == ("HF1201", "error", ("B30.48", "B38.18"))
    assert "34 hexes cost at least 17 MP" in f4.message and "allowance of 8" in f4.message
    (f5,) = by_step[5]
    # the German phase is announced in the chat at step 1, so the wrong side is certain (side: the mover's)
    assert (f5.code, f5.severity, f5.side) == ("HF1101", "error", "allied")
    assert "announced at step 1" in f5.phase_label
    assert f5.units == (ardennes2.unit("us-2id-b-38").name,)


# -- states shown by marker pieces (a DG marker in the unit's hex) --

def _fragment(ardennes2):
    if SHARED is None or not (SHARED / "ardennes2_fragment.vlog").is_file():
        pytest.skip("shared/vassal-logs not available")
    return read_log(SHARED / "ardennes2_fragment.vlog", module=_ardennes2_module(), game=ardennes2)


def _printed_dg(ardennes2, record):
    """(piece, hex) of each unit the 7.1 set-up prints DG, as the fragment's start position holds it."""
    from validator.referee.start import match
    mt = match(ardennes2, ardennes2.scenario("7.1"), record.start)
    return [(c.piece, h) for c, h, s in mt.pairs if "dg" in s.state and "dg" not in c.state]


def test_dg_markers_show_the_setup_state(ardennes2):
    record = _fragment(ardennes2)
    dg = _printed_dg(ardennes2, record)
    assert len(dg) >= 15                       # the module shows them by DG marker pieces, not on the units
    assert all(any(c.kind == "marker" and c.unit == "dg" for c in record.start.at(h)) for _, h in dg)
    r = audit(ardennes2, record)
    assert [f for f in r.findings if f.code == "HF1004"] == []


def _without_markers(record, h, n):
    """The record with n of the DG markers in hex h taken off its start position."""
    from dataclasses import replace
    start = record.start
    for m in [c.piece for c in record.start.at(h) if c.kind == "marker" and c.unit == "dg"][:n]:
        start = start.removed(m)
    return replace(record, start=start)


def test_dg_unit_without_a_marker_in_its_hex_is_still_reported(ardennes2):
    record = _fragment(ardennes2)
    dg = _printed_dg(ardennes2, record)
    per_hex = {}
    for piece, h in dg:
        per_hex.setdefault(h, []).append(piece)
    h, (piece,) = next((h, ps) for h, ps in sorted(per_hex.items()) if len(ps) == 1)
    r = audit(ardennes2, _without_markers(record, h, 1))
    name = ardennes2.unit(record.start.counter(piece).unit).name
    assert [(f.code, f.severity, f.hexes, f.units) for f in r.findings if f.code == "HF1004"] == [
        ("HF1004", "warning", (h,), (name,))]


def test_fewer_markers_than_dg_units_leave_one_reported(ardennes2):
    record = _fragment(ardennes2)
    per_hex = {}
    for piece, h in _printed_dg(ardennes2, record):
        per_hex.setdefault(h, []).append(piece)
    h = next(h for h, ps in sorted(per_hex.items()) if len(ps) == 2)
    r = audit(ardennes2, _without_markers(record, h, 1))
    assert [f.hexes for f in r.findings if f.code == "HF1004"] == [(h,)]


def test_a_dg_marker_counts_for_the_dg_penalty_of_an_over_stack(ardennes2):
    """3.4: "Place DG markers on top of their stacks. It becomes a property of all units in it": one DG
    marker marks an over-stack of four DG (the thirteenth red team's false warning: one marker was counted
    for one unit). Violation: the same stack with no marker."""
    from tests.referee_records import Log, setup_position
    from validator.positions.position import Counter, Where
    pos, _ = setup_position(ardennes2, "7.1")
    extra = Counter("x1", "us-9ad-27", "allied")
    marked = Log(pos.placed(extra, Where(hex="B14.24")).placed(
        Counter("dg0", "dg", None, frozenset(), "marker"), Where(hex="B14.23")))
    marked.move(extra, "B14.23")               # a fourth unit: over the limit of 3, so all four are DG
    assert len([c for c in marked.pos.at("B14.23") if c.kind == "unit"]) == 4
    marked.next_turn("2")
    assert [f for f in audit(ardennes2, marked.record(), "7.1").findings if f.code == "HF1301"] == []
    bare = Log(pos.placed(extra, Where(hex="B14.24")))
    bare.move(extra, "B14.23")
    bare.next_turn("2")
    hits = [f for f in audit(ardennes2, bare.record(), "7.1").findings if f.code == "HF1301"]
    assert [(f.severity, f.hexes) for f in hits] == [("warning", ("B14.23",))]
    assert "4 of them are not marked so" in hits[0].message


# -- a module's own predefined set-ups (.vsav) audit clean --

def _setups(tmp_path_factory, gid: str):
    """(scenario id the file is named for, GameRecord) per predefined set-up of the tree's build. Each
    entry is written under a name of ours, never the path the archive names."""
    import zipfile
    from compiler.cli import main
    from click.testing import CliRunner
    out = tmp_path_factory.mktemp(f"build_{gid}")
    res = CliRunner().invoke(main, ["build", f"source/{gid}", "--out", str(out)])
    assert res.exit_code == 0, res.output
    vmod = out / f"{gid}.vmod"
    game = load_game(f"source/{gid}")[0]
    with zipfile.ZipFile(vmod) as z:
        names = sorted(n for n in z.namelist() if n.endswith(".vsav"))
        recs = []
        for i, n in enumerate(names):
            p = out / f"setup_{i}.vsav"
            p.write_bytes(z.read(n))
            recs.append((n[len("scenario_"):-len(".vsav")], read_log(p, module=vmod, game=game)))
    return game, recs


@pytest.mark.parametrize("gid", ["meuse", "aachen", "ardennes2"])
def test_predefined_setups_audit_clean(tmp_path_factory, gid):
    game, recs = _setups(tmp_path_factory, gid)
    assert recs and all(len(rec.steps) == 0 for _, rec in recs)
    for sid, rec in recs:
        r = audit(game, rec)
        assert r.scenario == sid                          # the set-up is recognised as its own scenario
        assert len(list(rec.start.units())) > 0
        assert [(f.code, f.hexes, f.message) for f in r.findings if f.severity in ("error", "warning")] == []
    # near miss: the same set-up with one unit taken off is a missing unit (error)
    from dataclasses import replace
    sid, rec = recs[0]
    c, w = next(iter(rec.start.units()))
    r = audit(game, replace(rec, start=rec.start.removed(c.piece)), sid)
    assert [(f.code, f.severity) for f in r.findings if f.severity == "error"] == [("HF1001", "error")]


# -- an over-stack that lasts: one finding; one that ends and forms again: two --

def test_an_over_stack_formed_again_later_is_a_second_finding(meuse):
    from tests.referee_records import Log, piece_at, setup_position
    pos, _ = setup_position(meuse, "1")
    tk = piece_at(pos, "B11.11", "red-1ad-2tk")
    log = Log(pos, "1", "red-movement")
    log.move(tk, "B10.11")                     # three in B10.11 (limit 2), along the N4 road
    log.next_turn("1", "red-combat")
    log.next_turn("1", "red-exploitation")
    log.move(tk, "B11.11")                     # back to two
    for p in ("blue-movement", "blue-combat", "blue-exploitation"):
        log.next_turn("1", p)
    log.next_turn("2", "red-movement")
    log.move(tk, "B10.11")
    log.next_turn("2", "red-combat")
    r = audit(meuse, log.record(), "1")
    assert [(f.step, f.code, f.severity, f.hexes) for f in r.findings if f.code.startswith("HF13")] == [
        (2, "HF1301", "error", ("B10.11",)), (10, "HF1301", "error", ("B10.11",))]
    first, second = [f.message for f in r.findings if f.code == "HF1301"]
    assert first.endswith("at the end of the Red Movement Phase of turn 1 and the Red Combat Phase of turn 1")
    assert second.endswith("at the end of the Red Movement Phase of turn 2, and still when the log ends")


def test_prohibited_terrain_on_entry_and_the_near_miss(meuse):
    # reinforcements brought straight into the A6.13 marsh (off their entry areas: HF1402 besides)
    from tests.referee_records import Log, setup_position
    from validator.positions.position import Counter
    pos, _ = setup_position(meuse, "1")
    log = Log(pos, "3", "red-movement")
    log.enter(Counter("x1", "red-4rd-eng", "red"), "A6.13", box="Red Turn 2")      # leg: marsh is 3 MP
    assert [f for f in audit(meuse, log.record(), "1").findings if f.code == "HF1206"] == []
    log = Log(pos, "3", "red-movement")
    log.enter(Counter("x2", "red-9ab-tk", "red"), "A6.13", box="Red Turn 3")       # mechanized: P
    r = audit(meuse, log.record(), "1")
    assert [(f.code, f.severity, f.hexes, f.rule) for f in r.findings if f.code == "HF1206"] == [
        ("HF1206", "error", ("A6.13",), "7.2")]
    assert meuse.unit("red-9ab-tk").movement_class == "mechanized"


def test_a_lasting_mix_of_divisions_is_one_finding(ardennes2):
    from tests.referee_records import Log, setup_position
    from validator.positions.position import Counter, Where
    pos, _ = setup_position(ardennes2, "7.1")
    other = Counter("x2", "us-2id-a-23", "allied")
    log = Log(pos.placed(other, Where(hex="B20.43")))
    log.move(other, "B20.42")                  # joins two 9th Armored units, none marked DG
    log.next_turn("2")
    log.next_turn("3")
    r = audit(ardennes2, log.record(), "7.1")
    hits = [(f.step, f.code, f.severity, f.hexes) for f in r.findings if f.code.startswith("HF131")]
    assert hits == [(2, "HF1311", "warning", ("B20.42",))]
    msg = next(f.message for f in r.findings if f.code == "HF1311")
    assert "of turn 1 and the" in msg and "of turn 2, and still when the log ends" in msg


# -- meuse_players.vlog: a player who took a side (VASSAL's PLAYER command) touching the other side's units --

@pytest.fixture(scope="module")
def meuse_players(meuse):
    return audited(meuse, "meuse_players", VLOGS / "meuse.vmod")


def test_meuse_players_a_player_moving_the_other_sides_unit_where_it_does_not_act(meuse_players):
    """Steps 4 and 16: each player drags a unit of the other side in his own movement phase (HF1106, with
    HF1101 for the unit moving outside its side's phases). Near misses: the Red player retreating a Blue unit
    in the Red Combat Phase (step 9), the Blue player dragging a Red unit in Red's own exploitation phase
    (step 13), and each player's own units (steps 3, 5, 10, 15)."""
    record, r = meuse_players
    assert [(f.step, f.code, f.severity, f.side, f.hexes, f.units, f.rule) for f in r.findings
            if f.code == "HF1106"] == [
        (4, "HF1106", "warning", "blue", ("A9.09", "A10.09"), ("2nd Light Mechanised Motorised Battalion",), "3.2"),
        (16, "HF1106", "warning", "red", ("B8.13", "B7.14"), ("12th Rifle Regiment",), "3.2")]
    assert "the Red player moves the Blue 2nd Light Mechanised Motorised Battalion in the Red Movement Phase" \
        in next(f.message for f in r.findings if f.code == "HF1106")
    assert [(f.step, f.code) for f in r.findings if f.severity in ("error", "warning")] == [
        (4, "HF1101"), (4, "HF1106"), (16, "HF1101"), (16, "HF1106")]
    assert r.coverage["fully"] == len(record.steps)


def test_meuse_players_password_is_never_printed(meuse_players):
    from click.testing import CliRunner

    from compiler.cli import main
    from tests.test_vlog_recorded import PLAYERS_PASSWORD
    log = VLOGS / "meuse_players.vlog"
    for args in (["audit", "source/meuse", str(log), "--module", str(VLOGS / "meuse.vmod"), "--format", fmt]
                 for fmt in ("text", "json", "sarif")):
        res = CliRunner().invoke(main, args)
        assert res.exit_code == 1 and "HF1106" in res.output and PLAYERS_PASSWORD not in res.output
    res = CliRunner().invoke(main, ["replay", str(log), "--module", str(VLOGS / "meuse.vmod"), "--format", "yaml"])
    # without the tree, the record names each side as the log does
    assert res.exit_code == 0 and "player: Red" in res.output and "player: Blue" in res.output
    assert PLAYERS_PASSWORD not in res.output


# -- aachen_phases.vlog: 5.5, the player turn over, and a roll undone and rolled again --

@pytest.fixture(scope="module")
def aachen_phases():
    if SHARED is None or not (SHARED / "aachen.vmod").is_file():
        pytest.skip("shared/vassal-logs/aachen.vmod is not available")
    return audited(load_game("source/aachen")[0], "aachen_phases", SHARED / "aachen.vmod")


def test_aachen_phases_reports_exactly_its_three_violations(aachen_phases):
    """Step 9: a tank destroyer that moved in the Movement Phase moves in the Mobile Movement Phase (5.5);
    step 13: a US unit moves after the German Movement Phase of turn 2 began; step 5: a roll undone and
    rolled again. Near misses: step 10 (the other tank destroyer, which had not moved), step 12 (the German
    move that opens the German player turn)."""
    record, r = aachen_phases
    assert [(f.step, f.code, f.severity, f.hexes, f.units, f.rule) for f in r.findings
            if f.severity in ("error", "warning")] == [
        (5, "HF1601", "warning", (), (), None),
        (9, "HF1105", "error", ("0108", "0109"), ("2-2-12 tank destroyer",), "5.5"),
        (13, "HF1103", "error", ("0203", "0204"), ("2-3-7 infantry",), "4.1")]
    assert "rolled again at step 7" in next(f.message for f in r.findings if f.code == "HF1601")
    assert [d["step"] for d in r.dice] == [7]                     # the undone roll is not kept
    [stat] = r.dice_stats
    assert (stat["dice"], stat["rolls"], list(stat["undone"])) == ("1d6", 2, [5])



# -- aachen_palette.vlog: units dragged from the counter palette --

def test_aachen_palette_units_from_the_palette_are_judged_as_arrivals():
    """Step 2: a Turn 4 reinforcement placed on turn 1 (HF1401), which also stands over the limit with the
    unit in its hex when the log ends (HF1302); step 3: a unit of no list, under a declared set-up gap, is a
    note, not an error (HF1403 as info); step 4: a move after them, nothing."""
    if SHARED is None or not (SHARED / "aachen.vmod").is_file():
        pytest.skip("shared/vassal-logs/aachen.vmod is not available")
    record, r = audited(load_game("source/aachen")[0], "aachen_palette", SHARED / "aachen.vmod")
    assert [(f.step, f.code, f.severity, f.hexes, f.units, f.rule) for f in r.findings
            if f.code in ("HF1401", "HF1403", "HF1302")] == [
        (2, "HF1401", "error", ("0301",), ("2-2-7 infantry",), "15.2"),
        (2, "HF1302", "warning", ("0301",), ("2-2-7 infantry", "2-2-7 infantry"), "5.3"),
        (3, "HF1403", "info", ("1921",), ("1-2-6 infantry",), None)]
    assert "gap german-setup-0411" in next(f.message for f in r.findings if f.code == "HF1403")
    assert [f for f in r.findings if f.step == 4 and f.severity != "info"] == []
