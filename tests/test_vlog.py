"""The log reader on the real VASSAL 3.7.9 logs in shared/vassal-logs/: every step as its EXPECTED file
(written from the driver's own trace, not from this reader) says; the damaged logs give clean errors."""
import re
from pathlib import Path

import pytest

from compiler.vassal.vlog import LogReadError, read_log
from validator.loader import load_game
from validator.record import Chat, DieRoll, Moved, Placed, Removed, StateChanged, TurnChanged

ROOT = Path(__file__).resolve().parents[1]
LOGS = next((p for p in (Path(__file__).resolve().parents[2] / "shared" / "vassal-logs",
                         Path("/work/shared/vassal-logs")) if p.exists()), None)
pytestmark = pytest.mark.skipif(LOGS is None, reason="shared/vassal-logs not available")

REAL = ["aachen_legal", "aachen_violations", "aachen_stacks_undo", "ardennes2_fragment",
        "aachen_reinforcements_ok", "aachen_long_game", "ardennes2_seam_and_stack"]
_GAMES: dict = {}


def game_of(name: str):
    g = "ardennes2" if name.startswith("ardennes2") else "aachen"
    if g not in _GAMES:
        _GAMES[g] = load_game(ROOT / "source" / g)[0]
    return g, _GAMES[g]


def record(name: str):
    g, game = game_of(name)
    return read_log(LOGS / f"{name}.vlog", LOGS / f"{g}.vmod", game)


# -- the EXPECTED files, parsed -------------------------------------------------------------------

_BLOCK = re.compile(r"^\s*(\d+)\. script: (.*)$")
_MOVE = re.compile(r"(?:stack of \d+ \((?P<stack>[\d,]+)\) with )?UnitId=(?P<unit>\S+) name='(?P<name>.*?)' "
                   r"id=(?P<id>\d+): (?P<src>\S+) -> (?P<dst>\S+) on ")
_ROLL = re.compile(r"DiceButton (?P<dice>\S+) rolled (?P<faces>[\d,]+) \(total (?P<total>\d+)\)")
_TURN = re.compile(r"turn tracker Turn: (?P<old>.+) -> (?P<new>.+)$")
_REMOVED = re.compile(r"removed UnitId=(?P<unit>\S+) name='.*?' id=(?P<id>\d+) from (?P<hex>\S+)")
_FLIP = re.compile(r"menu command Flip on UnitId=(?P<unit>\S+) name='.*?' id=(?P<id>\d+) in (?P<hex>\S+)")
_SCRIPT_MOVE = re.compile(r"move id:(?P<id>\d+) (?P<dst>\S+)")


def expected(name: str) -> dict[int, dict]:
    """Step number -> {'script': ..., 'lines': [...]}, read from NAME.EXPECTED.txt."""
    steps: dict[int, dict] = {}
    cur = None
    for line in (LOGS / f"{name}.EXPECTED.txt").read_text().splitlines():
        m = _BLOCK.match(line)
        if m:
            cur = steps[int(m.group(1))] = {"script": m.group(2), "lines": []}
        elif line.startswith("Written by"):
            cur = None
        elif cur is not None and line.strip():
            cur["lines"].append(line.strip())
    assert steps, f"no steps parsed from {name}.EXPECTED.txt"
    return steps


def of(step, cls):
    return [e for e in step.events if isinstance(e, cls)]


def check_step(step, exp: dict) -> int:
    """Assert one decoded step against its EXPECTED block; the number of facts checked."""
    checked = 0
    for line in exp["lines"]:
        if m := _MOVE.search(line):
            ids = m.group("stack").split(",") if m.group("stack") else [m.group("id")]
            moves = of(step, Moved)
            assert sorted(e.counter.piece for e in moves) == sorted(ids), line
            mine = next(e for e in moves if e.counter.piece == m.group("id"))
            assert mine.counter.unit == m.group("unit"), line
            assert (mine.src.hex, mine.dst.hex) == (m.group("src"), m.group("dst")), line
            assert all((e.src, e.dst) == (mine.src, mine.dst) for e in moves), line
        elif m := _ROLL.search(line):
            [roll] = of(step, DieRoll)
            assert (roll.dice, roll.faces, roll.total) == (
                m.group("dice"), tuple(int(x) for x in m.group("faces").split(",")), int(m.group("total")))
        elif m := _TURN.search(line):
            [turn] = of(step, TurnChanged)
            assert turn.printed == m.group("new")
            assert turn.turn == re.match(r"Turn (\S+)", m.group("new")).group(1)
        elif m := _REMOVED.search(line):
            [rem] = of(step, Removed)
            assert (rem.counter.piece, rem.counter.unit, rem.where.hex) == (m.group("id"), m.group("unit"),
                                                                            m.group("hex"))
        elif m := _FLIP.search(line):
            [ch] = of(step, StateChanged)
            assert (ch.counter.piece, ch.counter.unit, ch.where.hex) == (m.group("id"), m.group("unit"), m.group("hex"))
            assert "reduced" in ch.counter.state and "reduced" not in ch.old_state
        elif line.startswith("chat line: "):
            assert [c.text for c in of(step, Chat)] == [line[len("chat line: "):]]
        elif line.startswith("VASSAL Undo"):
            assert step.undo
        else:
            raise AssertionError(f"EXPECTED line not understood by the test: {line}")
        checked += 1
    if not exp["lines"] and (m := _SCRIPT_MOVE.match(exp["script"])):
        # a move from the Reinforcements map: the EXPECTED quotes only the script line
        [mv] = of(step, Moved)
        assert (mv.counter.piece, mv.dst.hex) == (m.group("id"), m.group("dst"))
        assert mv.src.hex is None and mv.src.box
        checked += 1
    if not exp["lines"] or not exp["lines"][0].startswith("VASSAL Undo"):
        assert not step.undo
    return checked


@pytest.mark.parametrize("name", REAL)
def test_every_step_as_expected(name):
    rec = record(name)
    exp = expected(name)
    assert [s.index for s in rec.steps] == sorted(exp)
    assert sum(check_step(s, exp[s.index]) for s in rec.steps) >= len(exp)
    assert rec.engine == "VASSAL 3.7.9" and rec.module.endswith("1.0")
    assert rec.warnings == ()


def test_explicit_steps():
    rec = record("aachen_violations")
    [mv] = of(rec.steps[1], Moved)
    assert (mv.counter.piece, mv.counter.unit, mv.src.hex, mv.dst.hex, mv.onto) == (
        "1038", "us-29id-corps-inf-2-2-7", "0301", "0315", None)
    [mv] = of(rec.steps[2], Moved)
    assert (mv.counter.piece, mv.dst.hex, mv.onto) == ("1037", "2124", "1006")
    assert rec.start_turn == "1"

    frag = record("ardennes2_fragment")
    [mv] = of(frag.steps[8], Moved)
    assert (mv.counter.unit, mv.src.hex, mv.dst.hex) == ("us-mech-526", "A38.44", "B1.44")
    [flip] = of(frag.steps[6], StateChanged)
    assert flip.counter.state == frozenset({"reduced"}) and flip.old_state == frozenset()
    assert frag.steps[6].events == (flip,)


def test_start_snapshot():
    rec = record("aachen_legal")
    units = list(rec.start.units())
    assert len(units) == 57 and len(rec.start) == 57
    stacks = rec.start.stacks()
    assert [c.piece for c in stacks["2630"]] == ["1011", "1012", "1013", "1014"]
    assert len(stacks["1934"]) == 5
    assert all(c.side in ("us", "german") for c, _ in units)
    # every hex the reader names is a hex of the tree
    game = game_of("aachen_legal")[1]
    hexes = set(game.grid.hexes())
    assert all(w.hex is None or w.hex in hexes for _, w in rec.start)


def test_undo_and_stacks():
    rec = record("aachen_stacks_undo")
    undo = rec.steps[3]
    assert undo.undo and [(e.counter.piece, e.src.hex, e.dst.hex) for e in of(undo, Moved)] == [("1030", "1231", "1232")]
    assert not any(s.undo for s in rec.steps if s.index != 4)
    # the whole 1934 stack moved with one MovePiece of the stack
    assert {e.counter.piece for e in of(rec.steps[1], Moved)} == {"1015", "1016", "1017", "1018", "1019"}
    # no Removed event for the stack VASSAL deletes in the undo
    assert of(undo, Removed) == []
    assert of(rec.steps[5], Moved)[0].onto == "1011"


def test_stack_moved_twice_moves_its_pieces():
    rec = record("ardennes2_seam_and_stack")
    stack_steps = [s for s in rec.steps if len(of(s, Moved)) == 2]
    assert len(stack_steps) == 2


def test_reinforcements_from_the_reinforcements_map():
    rec = record("aachen_reinforcements_ok")
    [mv] = of(rec.steps[6], Moved)
    assert (mv.counter.piece, mv.counter.unit, mv.src, mv.dst.hex) == (
        "1055", "us-inf-2-2-7", mv.src, "0301")
    assert mv.src.hex is None and mv.src.box == "US Turn 4: 0301"
    assert rec.start.where("1055").box == "US Turn 4: 0301"


def test_vsav_is_a_record_without_steps(tmp_path):
    import zipfile
    with zipfile.ZipFile(LOGS / "aachen.vmod") as z:
        (tmp_path / "s.vsav").write_bytes(z.read("scenario_aachen.vsav"))
    rec = read_log(tmp_path / "s.vsav", LOGS / "aachen.vmod", game_of("aachen_legal")[1])
    assert rec.steps == () and len(rec.start) == 57


# -- damaged logs -------------------------------------------------------------------------------------

def test_truncated_log_is_a_clean_error():
    with pytest.raises(LogReadError) as e:
        read_log(LOGS / "damaged_truncated.vlog", LOGS / "aachen.vmod")
    assert "damaged_truncated.vlog" in str(e.value) and "not a readable zip" in str(e.value)


def test_bad_obfuscation_is_a_clean_error():
    with pytest.raises(LogReadError) as e:
        read_log(LOGS / "damaged_bad_vcsk.vlog", LOGS / "aachen.vmod")
    assert re.search(r"damaged_bad_vcsk\.vlog: corrupt savedGame obfuscation \(non-hex digit at offset \d+\)",
                     str(e.value))


def test_zip_slip_entry_is_ignored(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a" / "b").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "a" / "b")
    rec = read_log(LOGS / "damaged_zip_slip.vlog", LOGS / "aachen.vmod", game_of("aachen_legal")[1])
    assert len(rec.steps) == 13
    assert not (tmp_path / "evil").exists() and not list(tmp_path.rglob("evil"))
    ok = record("aachen_reinforcements_ok")
    assert rec.steps == ok.steps


def test_xxe_savedata_is_never_resolved():
    rec = read_log(LOGS / "damaged_xxe_savedata.vlog", LOGS / "aachen.vmod", game_of("aachen_legal")[1])
    assert len(rec.steps) == 13
    assert any("savedata ignored" in w and "DOCTYPE" in w for w in rec.warnings)
    assert "root:" not in repr(rec)
    assert rec.steps == record("aachen_reinforcements_ok").steps
