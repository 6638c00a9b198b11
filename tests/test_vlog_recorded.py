"""The log reader on the logs recorded for the referee in tests/fixtures/vlogs/ (real VASSAL 3.7.9 logs, see
its README.md): every step's unit, hexes, dice, turn and phase as the log's EXPECTED file says. The EXPECTED
files were written from the recording driver's own trace (what VASSAL did), not from this reader."""
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import pytest

from compiler.vassal.vlog import read_log
from validator.source.loader import load_game
from validator.positions.position import Position
from validator.records.record import Chat, DieRoll, Moved, Placed, Removed, StateChanged, TurnChanged

ROOT = Path(__file__).resolve().parents[1]
FIX = ROOT / "tests" / "fixtures" / "vlogs"
SHARED_ARDENNES2 = next((p for p in (ROOT.parent / "shared" / "vassal-logs" / "ardennes2.vmod",
                                     Path("/work/shared/vassal-logs/ardennes2.vmod")) if p.exists()), None)
SHARED_AACHEN = next((p for p in (ROOT.parent / "shared" / "vassal-logs" / "aachen.vmod",
                                  Path("/work/shared/vassal-logs/aachen.vmod")) if p.exists()), None)
LOGS = {"meuse_legal": "meuse", "meuse_violations": "meuse", "meuse_players": "meuse", "meuse_entries": "meuse",
        "meuse_combat_legal": "meuse", "meuse_combat_violations": "meuse", "aachen_combat": "aachen",
        "ardennes2_combat": "ardennes2",
        "ardennes2_violations": "ardennes2", "aachen_phases": "aachen", "aachen_palette": "aachen",
        "aachen_zoc": "aachen", "bulge_paradrop_early": "bulge", "bulge_paradrop": "bulge"}
PLAYERS_PASSWORD = "tulip-7713"          # the password meuse_players was recorded with (its EXPECTED file says so)


# -- the games and the modules the logs were played with ------------------------------------------

@pytest.fixture(scope="module")
def games():
    return {g: load_game(ROOT / "source" / g)[0] for g in ("meuse", "ardennes2", "aachen", "bulge")}


@dataclass(frozen=True)
class LogModule:
    path: Path
    played: bool                        # the very module the logs were played with (else the tree's build)


@pytest.fixture(scope="module")
def modules(games, tmp_path_factory) -> dict[str, LogModule]:
    """meuse: the committed module the logs were played with. ardennes2: the module of shared/vassal-logs
    (4.3 MB, not committed); without it, the tree's build, whose board geometry is the same (only its turn
    tracker gained a phase level, which a log without phase states does not use)."""
    if SHARED_ARDENNES2 is not None:
        ard = LogModule(SHARED_ARDENNES2, True)
    else:
        from compiler.vassal.build import build_module
        ard = LogModule(build_module(games["ardennes2"], tmp_path_factory.mktemp("ardennes2")), False)
    out = {"meuse": LogModule(FIX / "meuse.vmod", True), "ardennes2": ard, "bulge": LogModule(FIX / "bulge.vmod", True)}
    if SHARED_AACHEN is not None:           # aachen_phases was played with it; the tree's build sets up otherwise
        out["aachen"] = LogModule(SHARED_AACHEN, True)
    return out


@pytest.fixture(scope="module")
def records(games, modules):
    return {name: read_log(FIX / f"{name}.vlog", modules[g].path, games[g]) for name, g in LOGS.items()
            if g in modules}


# -- the EXPECTED files, parsed -------------------------------------------------------------------

_BLOCK = re.compile(r"^\s*(\d+)\. script: (.*)$")
_MOVE = re.compile(r"^UnitId=(?P<unit>\S+) name='(?P<name>.*?)' id=(?P<id>\d+): (?P<src>.+?) -> (?P<dst>\S+) "
                   r"on (?P<map>.+?), (?:\d+ hex\(es\)|between maps) \[(?P<dest>.*)\]$")
_HELD_ID = re.compile(r"id=(\d+)")
_ROLL = re.compile(r"^DiceButton (?P<dice>\S+) rolled (?P<faces>[\d,]+) \(total (?P<total>\d+)\)$")
_TURN = re.compile(r"^turn tracker Turn: (?P<old>.+) -> (?P<new>.+)$")
_REMOVED = re.compile(r"^removed UnitId=(?P<unit>\S+) name='.*?' id=(?P<id>\d+) from (?P<hex>\S+)$")
_FLIP = re.compile(r"^menu command Flip on UnitId=(?P<unit>\S+) name='.*?' id=(?P<id>\d+) in (?P<hex>\S+)$")
_PLACED = re.compile(r"^placed UnitId=(?P<unit>\S+) name='.*?' id=(?P<id>\d+) at (?P<hex>\S+)$")
_LABEL = re.compile(r"^Turn (?P<turn>.+?)(?: \([^()]*\))?(?: - (?P<phase>.+))?$")   # turn ids may hold spaces ("16 AM")


@dataclass
class ExpectedStep:
    script: str
    lines: list[str] = field(default_factory=list)
    turn: Optional[str] = None          # the tracker's label while this step is played (after a turn step)


@dataclass
class Expected:
    start: str
    steps: dict[int, ExpectedStep]


def expected(name: str) -> Expected:
    start, steps, cur = None, {}, None
    for line in (FIX / f"{name}.EXPECTED.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith("Start: "):
            start = line[len("Start: "):]
        elif m := _BLOCK.match(line):
            cur = steps[int(m.group(1))] = ExpectedStep(m.group(2))
        elif line.startswith("Written by"):
            cur = None
        elif cur is not None and line.strip():
            cur.lines.append(line.strip())
    assert start and steps, f"{name}.EXPECTED.txt: no Start: line or no steps"
    label = start
    for n in sorted(steps):
        for line in steps[n].lines:
            if m := _TURN.match(line):
                assert m.group("old") == label, f"{name} step {n}: the tracker was at {label!r}"
                label = m.group("new")
        steps[n].turn = label
    return Expected(start, steps)


def tree_turn_phase(game, label: str) -> tuple[str, Optional[str]]:
    """'Turn 1 - Red Movement Phase' -> ('1', 'red-movement'); 'Turn 2 (17 Dec 1944)' -> ('2', None)."""
    m = _LABEL.match(label)
    assert m, label
    assert m.group("turn") in {t.id for t in game.turns}, label
    if m.group("phase") is None:
        return m.group("turn"), None
    [phase] = [p.id for p in game.phases if p.name == m.group("phase")]
    return m.group("turn"), phase


def of(step, cls):
    return [e for e in step.events if isinstance(e, cls)]


def check_line(step, line: str, played_module: bool) -> None:
    """One EXPECTED line against the decoded step. `played_module`: decoded with the very module the log was
    played with (else the tree's build, whose tracker labels may differ; turn ids and phases may not)."""
    if m := _MOVE.match(line):
        [mv] = of(step, Moved)
        assert (mv.counter.piece, mv.counter.unit, mv.dst.hex) == (m.group("id"), m.group("unit"), m.group("dst"))
        assert (mv.src.hex or mv.src.box) == m.group("src"), line    # a hex, or a box of the Reinforcements map
        held = _HELD_ID.findall(m.group("dest"))
        assert mv.onto == (held[-1] if held else None), line      # dropped onto the top piece there
    elif m := _ROLL.match(line):
        [roll] = of(step, DieRoll)
        assert (roll.dice, roll.faces, roll.total) == (
            m.group("dice"), tuple(int(x) for x in m.group("faces").split(",")), int(m.group("total")))
    elif m := _TURN.match(line):
        [turn] = of(step, TurnChanged)
        assert turn.printed == m.group("new") or not played_module
    elif m := _REMOVED.match(line):
        [rem] = of(step, Removed)
        assert (rem.counter.piece, rem.counter.unit, rem.where.hex) == (m.group("id"), m.group("unit"), m.group("hex"))
    elif m := _FLIP.match(line):
        [ch] = of(step, StateChanged)
        assert (ch.counter.piece, ch.counter.unit, ch.where.hex) == (m.group("id"), m.group("unit"), m.group("hex"))
        assert "reduced" in ch.counter.state and "reduced" not in ch.old_state
    elif line.startswith("chat line: "):
        assert [c.text for c in of(step, Chat)] == [line[len("chat line: "):]]
    elif line == "VASSAL Undo of the last undoable step":
        assert step.undo and of(step, DieRoll) == []         # an undo's restored die properties are no roll
    elif m := _PLACED.match(line):
        # a new piece from the palette: added where it was dropped, or (onto a stack) off the map and moved on
        [pl] = [e for e in of(step, Placed) if e.counter.piece == m.group("id")]
        assert pl.counter.unit == m.group("unit")
        moved = [e for e in of(step, Moved) if e.counter.piece == m.group("id")]
        assert (moved[-1].dst.hex if moved else pl.where.hex) == m.group("hex"), line
    elif line.startswith("side: "):
        assert step.events == () and step.player is None    # a side taken: no event, and no mover
    else:
        raise AssertionError(f"EXPECTED line not understood by the test: {line}")


def turn_phase_by_step(rec) -> dict[int, tuple[Optional[str], Optional[str]]]:
    """Step -> (turn, phase) in force once the step is played, from the record alone."""
    cur, out = (rec.start_turn, rec.start_phase), {}
    for s in rec.steps:
        for t in of(s, TurnChanged):
            cur = (t.turn, t.phase)
        out[s.index] = cur
    return out


def position_after(rec, index: int) -> Position:
    pos = rec.start
    for s in rec.steps[:index]:
        for e in s.events:
            if isinstance(e, Moved):
                pos = pos.moved(e.counter.piece, e.dst)
            elif isinstance(e, Removed):
                pos = pos.removed(e.counter.piece)
            elif isinstance(e, StateChanged):
                pos = pos.changed(e.counter)
            elif isinstance(e, Placed):
                pos = pos.placed(e.counter, e.where)
    return pos


# -- every step as EXPECTED says ------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(LOGS))
def test_every_step_as_expected(name, records, games, modules):
    if name not in records:
        pytest.skip(f"the module {name} was played with is not available")
    rec, exp, game = records[name], expected(name), games[LOGS[name]]
    assert [s.index for s in rec.steps] == sorted(exp.steps)
    assert rec.engine == "VASSAL 3.7.9" and rec.warnings == ()
    assert (rec.start_turn, rec.start_phase) == tree_turn_phase(game, exp.start)
    phases = turn_phase_by_step(rec)
    for s in rec.steps:
        e = exp.steps[s.index]
        assert e.lines, f"{name} step {s.index}: EXPECTED has no line for {e.script!r}"
        for line in e.lines:
            check_line(s, line, modules[LOGS[name]].played)
        if not s.undo:                       # an undo step holds the commands that take the step back
            placed = {e.counter.piece for e in of(s, Placed)}
            events = [e for e in s.events if not (isinstance(e, Moved) and e.counter.piece in placed)]
            assert len(events) == sum(not line.startswith("side: ") for line in e.lines), f"{name} {s.index}"
        assert phases[s.index] == tree_turn_phase(game, e.turn), f"{name} step {s.index}"
        assert s.undo == any(line.startswith("VASSAL Undo") for line in e.lines)


def test_the_expected_files_name_every_kind_of_step():
    """The EXPECTED files hold what the brief asked for: a real test input, not an empty list."""
    legal = expected("meuse_legal")
    kinds = [line.split(" ")[0] for st in legal.steps.values() for line in st.lines]
    assert {"UnitId=red-1ad-1tk", "DiceButton", "turn", "menu", "chat"} <= set(kinds)
    assert sum(k == "turn" for k in kinds) == 6          # six phases: one whole game turn
    assert any("DiceButton 1d6 rolled 5" in line for line in expected("meuse_violations").steps[9].lines)


# -- explicit facts, read off the logs ---------------------------------------------------------------

def test_meuse_legal_game_turn(records):
    rec = records["meuse_legal"]
    assert rec.module == "Crossing the Meuse 1.0"
    assert len(list(rec.start.units())) == 19 and len(rec.start.in_boxes()) == 4
    assert (rec.start_turn, rec.start_phase) == ("1", "red-movement")
    assert [(t.turn, t.phase) for s in rec.steps for t in of(s, TurnChanged)] == [
        ("1", "red-combat"), ("1", "red-exploitation"), ("1", "blue-movement"), ("1", "blue-combat"),
        ("1", "blue-exploitation"), ("2", "red-movement")]
    [mv] = of(rec.steps[3], Moved)                   # over the Hautrive track bridge
    assert (mv.counter.piece, mv.counter.side, mv.src.hex, mv.dst.hex) == ("1011", "red", "B10.05", "A16.02")
    [roll] = of(rec.steps[7], DieRoll)
    assert (roll.faces, roll.total) == ((3,), 3)
    [flip] = of(rec.steps[8], StateChanged)
    assert (flip.counter.piece, flip.counter.side, flip.where.hex) == ("1007", "blue", "B1.10")
    assert flip.counter.state == frozenset({"reduced"}) and flip.old_state == frozenset()
    [retreat] = of(rec.steps[9], Moved)
    assert (retreat.counter.piece, retreat.src.hex, retreat.dst.hex) == ("1007", "B1.10", "A15.09")
    assert "reduced" in retreat.counter.state
    [entry] = of(rec.steps[20], Moved)               # the Turn 2 reinforcement, on time
    assert (entry.counter.unit, entry.src.box, entry.dst.hex) == (
        "red-4rd-eng", "Red Turn 2: Red centre entry (B16.10-B16.11)", "B16.10")
    assert turn_phase_by_step(rec)[21] == ("2", "red-movement")


def test_meuse_violations_steps(records):
    rec = records["meuse_violations"]
    phase = turn_phase_by_step(rec)
    # step 5: a third unit into B10.11, which stays over the limit until step 12
    [mv] = of(rec.steps[4], Moved)
    assert (mv.counter.piece, mv.dst.hex, mv.onto) == ("1010", "B10.11", "1009")
    assert [c.piece for c in position_after(rec, 5).at("B10.11")] == ["1008", "1009", "1010"]
    assert [c.piece for c in position_after(rec, 11).at("B10.11")] == ["1008", "1009", "1010"]
    assert [c.piece for c in position_after(rec, 12).at("B10.11")] == ["1008", "1009"]
    # step 6: a Turn 2 reinforcement entering on Turn 1
    [mv] = of(rec.steps[5], Moved)
    assert (mv.counter.unit, mv.src.box, mv.dst.hex, phase[6]) == (
        "red-4rd-eng", "Red Turn 2: Red centre entry (B16.10-B16.11)", "B16.10", ("1", "red-movement"))
    # steps 9-10: a DR roll, then the defender deleted
    assert of(rec.steps[8], DieRoll)[0].total == 5
    [rem] = of(rec.steps[9], Removed)
    assert (rem.counter.piece, rem.counter.unit, rem.where.hex, phase[10]) == (
        "1004", "blue-3id-9", "B1.17", ("1", "red-combat"))
    # steps 13, 14: moves in the Red Exploitation Phase (a mechanized unit through a ZOC, a leg unit)
    assert [(of(rec.steps[i - 1], Moved)[0].counter.piece, phase[i]) for i in (13, 14)] == [
        ("1011", ("1", "red-exploitation")), ("1014", ("1", "red-exploitation"))]
    # step 16: Blue armor into the marsh A6.13; step 23: the Turn 2 Blue reinforcement at the wrong entry hex
    [mv] = of(rec.steps[15], Moved)
    assert (mv.counter.piece, mv.counter.side, mv.dst.hex, phase[16]) == ("1005", "blue", "A6.13", ("1", "blue-movement"))
    [mv] = of(rec.steps[22], Moved)
    assert (mv.counter.unit, mv.src.box, mv.dst.hex, phase[23]) == (
        "blue-12id-30", "Blue Turn 2: Blue centre entry (A1.08-A1.09)", "A1.03", ("2", "blue-movement"))


def test_ardennes2_violations_steps(records):
    rec = records["ardennes2_violations"]
    moves = {s.index: of(s, Moved)[0] for s in rec.steps if of(s, Moved)}
    assert {i: (m.counter.piece, m.counter.side, m.src.hex, m.dst.hex, m.onto) for i, m in moves.items()} == {
        2: ("1094", "axis", "B27.53", "B27.52", None),
        3: ("1095", "axis", "B27.51", "B27.49", "1010"),       # onto the US A/9
        4: ("1097", "axis", "B30.48", "B38.18", None),         # 34 hexes
        5: ("1013", "allied", "B29.48", "B29.47", None),       # a US move between German moves
        6: ("1096", "axis", "B28.49", "B29.50", None)}
    assert rec.start.counter("1010").side == "allied" and rec.start.where("1010").hex == "B27.49"
    assert [(t.turn, t.phase) for t in of(rec.steps[6], TurnChanged)] == [("2", None)]
    assert rec.start_turn == "1" and rec.start_phase is None


def test_meuse_logs_decode_the_same_with_the_trees_build(records, games, tmp_path):
    """The committed meuse.vmod is the tree's build (byte-reproducible): a fresh build reads the same hexes."""
    from compiler.vassal.build import build_module
    fresh = build_module(games["meuse"], tmp_path / "build")
    for name in ("meuse_legal", "meuse_violations"):
        again = read_log(FIX / f"{name}.vlog", fresh, games["meuse"])
        assert again.steps == records[name].steps and again.start == records[name].start


def test_meuse_players_moves_are_their_sides(records):
    """A player took a side (VASSAL's PLAYER command, step 1), then switched sides (step 12): each drag names
    the side its player held, by the tree's side id; the password VASSAL keeps as the player id is nowhere
    in the record."""
    rec = records["meuse_players"]
    movers = {s.index: s.player for s in rec.steps if of(s, Moved)}
    assert movers == {3: "red", 4: "red", 5: "red", 9: "red", 10: "red", 13: "blue", 15: "blue", 16: "blue"}
    assert rec.players == ("blue",)                  # the one player, on the side held last
    assert PLAYERS_PASSWORD in (FIX / "meuse_players.EXPECTED.txt").read_text(encoding="utf-8")
    assert PLAYERS_PASSWORD not in repr(rec)


def test_aachen_phases_undone_roll_is_no_roll(records):
    """VASSAL's Undo of a roll (step 6) sets the die button's properties back and echoes the report as
    "* UNDO: *** 1d6 = 3 ***": neither is a roll. The dice are the roll taken back (step 5) and the re-roll."""
    if "aachen_phases" not in records:
        pytest.skip("shared/vassal-logs/aachen.vmod is not available")
    rec = records["aachen_phases"]
    assert [(s.index, r.dice, r.faces) for s in rec.steps for r in of(s, DieRoll)] == [(5, "1d6", (3,)),
                                                                                       (7, "1d6", (6,))]
    assert rec.steps[5].undo and rec.steps[5].events == ()


def test_an_undone_roll_without_undo_group_is_read_as_an_undo(tmp_path, games, modules):
    """A log written before VASSAL 3.6.7 has no UNDO true/false group: the undo of a roll is only its
    commands taken back, the die properties set back and the report's "* UNDO: ..." echo. The echo says the
    step is an undo; the properties set back before it are no roll."""
    if "aachen" not in modules:
        pytest.skip("shared/vassal-logs/aachen.vmod is not available")
    import zipfile

    from compiler.vassal.encoding import deobfuscate, obfuscate
    src = FIX / "aachen_phases.vlog"
    with zipfile.ZipFile(src) as z:
        entries = {n: z.read(n) for n in z.namelist()}
    text = deobfuscate(entries["savedGame"]).decode("utf-8")
    group_start, group_end = "LOG\tUNDO\ttrue\\\x1b", "\\\x1bLOG\tUNDO\tfalse"
    assert text.count(group_start) == text.count(group_end) == 1
    entries["savedGame"] = obfuscate(text.replace(group_start, "").replace(group_end, "").encode("utf-8"), 0x3c)
    old = tmp_path / "old.vlog"
    with zipfile.ZipFile(old, "w", zipfile.ZIP_DEFLATED) as z:
        for n, b in entries.items():
            z.writestr(n, b)
    rec = read_log(old, modules["aachen"].path, games["aachen"])
    assert rec.steps[5].undo and of(rec.steps[5], DieRoll) == []
    assert [(s.index, r.faces) for s in rec.steps for r in of(s, DieRoll)] == [(5, (3,)), (7, (6,))]
