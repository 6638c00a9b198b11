"""The log reader on the real VASSAL 3.7.9 logs in shared/vassal-logs/: every step as its EXPECTED file
(written from the driver's own trace, not from this reader) says; the damaged logs give clean errors."""
import re
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.vassal.vlog import LogReadError, read_log
from validator.source.loader import load_game
from validator.records.record import Chat, DieRoll, Moved, Placed, Removed, StateChanged, TurnChanged

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
    # markers (MarkerId) are counters of kind "marker": Ardennes II's set-up has some, Aachen's none
    markers = [c for c, _ in record("ardennes2_fragment").start if c.kind == "marker"]
    assert markers and all(not c.unit.startswith(("us-", "de-")) for c in markers)
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


# -- crafted logs: a real log's savedGame edited and zipped again ---------------------------------

def saved_text(name: str) -> str:
    from compiler.vassal.encoding import deobfuscate
    with zipfile.ZipFile(LOGS / f"{name}.vlog") as z:
        return deobfuscate(z.read("savedGame")).decode("utf-8")


def write_log(dst: Path, text: str, like: str = "aachen_violations", **entries: bytes) -> Path:
    from compiler.vassal.encoding import obfuscate
    with zipfile.ZipFile(LOGS / f"{like}.vlog") as z:
        data = {n: z.read(n) for n in z.namelist()}
    data["savedGame"] = obfuscate(text.encode("utf-8"), 0x3c)
    data.update(entries)
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as z:
        for n, b in data.items():
            z.writestr(n, b)
    return dst


PASSWORD, OTHER_PASSWORD = "hunter2-s3cret", "0ther-pa55word"


def log_with_passwords(tmp_path: Path) -> Path:
    """aachen_violations with player ids in its moves (VASSAL writes the mover's password there) and a
    PLAYER command in the restore snapshot giving the first one the US side."""
    text = saved_text("aachen_violations")
    m2 = "M/1038/Main Map/155/1044/null/Main Map/155/36/null/"
    m3 = "M/1037/Main Map/1271/1692/1006/Main Map/1209/1800/null/"
    assert m2 in text and m3 in text
    text = text.replace(m2, m2 + PASSWORD).replace(m3, m3 + OTHER_PASSWORD)
    text = text.replace("\x1bend_save\x1b", f"\x1bPLAYER\t{PASSWORD}\tVLogGen\tUS\x1bend_save\x1b", 1)
    return write_log(tmp_path / "pw.vlog", text)


def test_passwords_become_labels(tmp_path):
    rec = read_log(log_with_passwords(tmp_path), LOGS / "aachen.vmod", game_of("aachen_legal")[1])
    assert rec.steps[1].player == "us"
    assert rec.steps[2].player == "player 2" and rec.steps[3].player is None
    assert set(rec.players) == {"us", "player 2"}
    assert PASSWORD not in repr(rec) and OTHER_PASSWORD not in repr(rec)
    # the moves themselves are read as before
    assert [e.dst.hex for e in of(rec.steps[1], Moved)] == ["0315"]


def test_real_piece_definitions_reencode_to_vassal_bytes():
    """Every AddPiece VASSAL wrote decodes into fields that encode back to the very same text,
    O'Hara's apostrophe included."""
    from compiler.vassal.encoding import add_piece, parse_add_piece
    from compiler.vassal.traits import split_nested
    from compiler.vassal.logstream import command_leaves, top_level_tokens
    seen_quote = 0
    for name in ("ardennes2_fragment", "aachen_legal"):
        for tok in top_level_tokens(iter([saved_text(name)])):
            for leaf in command_leaves(tok):
                cmd = leaf[4:] if leaf.startswith("LOG\t") else leaf
                if cmd.startswith("+/") and "/stack/" not in cmd:
                    pid, typ, state = parse_add_piece(cmd)
                    assert add_piece(pid, typ, state) == cmd
                    assert all(t.count("'") <= 1 for t in split_nested(typ))
                    seen_quote += "(O'Hara)" in typ
    assert seen_quote >= 1


def test_values_in_quotes_decode_as_vassal_wrote_them(tmp_path):
    """SequenceEncoder wraps a value that starts and ends with ' (or starts with \\) in one more pair
    of quotes; decoding takes exactly that pair off again."""
    from compiler.vassal import traits as T
    from compiler.vassal.encoding import add_piece
    tr = [T.marker("UnitId", "'47 Ford'"), T.marker("Side", "'us"),
          T.basic_piece("x.png", "'Tis a unit'", "Main Map", 155, 36)]
    cmd = add_piece("9001", T.piece_type(tr), T.piece_state(tr))
    assert "''47 Ford''" in cmd            # the extra pair VASSAL's encoder adds
    text = saved_text("aachen_violations") + "\x1bLOG\t" + cmd.replace("\x1b", "\\\x1b")
    rec = read_log(write_log(tmp_path / "q.vlog", text), LOGS / "aachen.vmod")
    [placed] = of(rec.steps[-1], Placed)
    assert (placed.counter.unit, placed.counter.side, placed.where.hex) == ("'47 Ford'", "'us", "0301")
    # with the game, a unit id the tree does not have is reported (the real logs' pieces never are)
    rec = read_log(tmp_path / "q.vlog", LOGS / "aachen.vmod", game_of("aachen_legal")[1])
    assert rec.warnings == ("step 7: piece 9001 shows unit \"'47 Ford'\", which the game does not have",)


def test_phase_level_of_a_built_module_is_decoded(tmp_path):
    """A module built now records the phase: its set-up starts on the first phase, a TURN command
    with the phase sub-level gives TurnChanged(turn, phase)."""
    from compiler.vassal.build import build_module
    from compiler.vassal.encoding import encode
    from compiler.vassal.savegame import turn_command
    _, game = game_of("aachen_legal")
    vmod = build_module(game, tmp_path / "build")
    with zipfile.ZipFile(vmod) as z:
        vsav = z.read("scenario_aachen.vsav")
    (tmp_path / "s.vsav").write_bytes(vsav)
    start = read_log(tmp_path / "s.vsav", vmod, game)
    assert (start.start_turn, start.start_phase) == ("1", "support-fire")
    from compiler.vassal.encoding import deobfuscate
    with zipfile.ZipFile(tmp_path / "s.vsav") as z:
        text = deobfuscate(z.read("savedGame")).decode()
    n, p = len(game.turns), len(game.phases)
    combat = encode(["TURNTurnTracker0", encode(["0", encode(["0", "0", "0", encode(["true"] * n, ","),
                                                                encode(["3", "0", "0", encode(["true"] * p, ",")], ";")],
                                                               ";")], "|")], "\t")
    steps = [combat, turn_command(1, n, p)]
    text += "".join("\x1b" + "LOG\t" + s for s in steps)
    rec = read_log(write_log(tmp_path / "p.vlog", text), vmod, game)
    assert [of(s, TurnChanged) for s in rec.steps] == [
        [TurnChanged("1", "us-combat", "Turn 1 - Combat Phase (US)")],
        [TurnChanged("2", "support-fire", "Turn 2 - Support Fire Marker Phase")]]


def test_commands_nested_too_deeply_are_a_located_error(tmp_path):
    from compiler.vassal.encoding import encode
    deep = "LOG\tnull"
    for _ in range(100):
        deep = encode(["LOG\tnull", deep], "\x1b")
    text = saved_text("aachen_violations") + "\x1b" + deep.replace("\x1b", "\\\x1b")
    with pytest.raises(LogReadError) as e:
        read_log(write_log(tmp_path / "deep.vlog", text), LOGS / "aachen.vmod")
    assert e.value.step == 7 and "nested more than" in str(e.value) and "deep.vlog: step 7:" in str(e.value)


def test_overlong_command_is_a_located_error(tmp_path, monkeypatch):
    from compiler.vassal import logstream
    monkeypatch.setattr(logstream, "MAX_TOKEN_CHARS", 100_000)
    text = saved_text("aachen_violations") + "\x1bLOG\tCHAT" + "x" * 3_000_000
    with pytest.raises(LogReadError) as e:
        read_log(write_log(tmp_path / "long.vlog", text), LOGS / "aachen.vmod")
    assert "long.vlog: step 7: a command longer than 100000 characters" in str(e.value)
    # the near miss: a long chat line under the bound reads
    text = saved_text("aachen_violations") + "\x1bLOG\tCHAT" + "x" * 90_000
    rec = read_log(write_log(tmp_path / "ok.vlog", text), LOGS / "aachen.vmod")
    assert of(rec.steps[-1], Chat)[0].text == "x" * 90_000


def test_zip_bomb_is_refused(tmp_path, monkeypatch):
    from compiler.vassal import archive
    monkeypatch.setattr(archive, "MAX_TEXT_BYTES", 1_000_000)     # savedGame is bounded as text
    bomb = write_log(tmp_path / "bomb.vlog", "begin_save\x1b" + "A" * 5_000_000 + "\x1bend_save")
    assert bomb.stat().st_size < 100_000
    with pytest.raises(LogReadError) as e:
        read_log(bomb)
    assert "bomb.vlog" in str(e.value) and "savedGame" in str(e.value) and "more than 1000000" in str(e.value)


def test_doctype_in_any_encoding_is_never_resolved(tmp_path):
    xml = ('<?xml version="1.0" encoding="UTF-16"?>\n<!DOCTYPE data [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n'
           '<data version="1"><version>1.0</version><extra1>&xxe;</extra1><VassalVersion>3.7.9</VassalVersion></data>')
    for enc in ("utf-16", "utf-16-be", "utf-8"):
        data = xml.replace("UTF-16", enc.upper()).encode(enc)
        log = write_log(tmp_path / f"x-{enc}.vlog", saved_text("aachen_violations"), savedata=data, moduledata=data)
        rec = read_log(log, LOGS / "aachen.vmod")
        assert len(rec.steps) == 6 and rec.engine is None and rec.module is None
        assert sum("ignored" in w and "DOCTYPE" in w for w in rec.warnings) == 2, rec.warnings
        assert "root:" not in repr(rec)


def test_not_a_log_at_all(tmp_path):
    (tmp_path / "x.vlog").write_bytes(b"hello")
    with pytest.raises(LogReadError) as e:
        read_log(tmp_path / "x.vlog")
    assert str(e.value).startswith(str(tmp_path / "x.vlog"))
    with pytest.raises(LogReadError) as e:
        read_log(tmp_path / "missing.vlog")
    assert "cannot read" in str(e.value)
    with zipfile.ZipFile(tmp_path / "other.zip", "w") as z:
        z.writestr("readme", "x")
    with pytest.raises(LogReadError) as e:
        read_log(tmp_path / "other.zip")
    assert "no 'savedGame' entry" in str(e.value)


# -- the fast splitting is VASSAL's SequenceEncoder.Decoder -----------------------------------------

def java_decoder(value: str, delim: str) -> list[str]:
    """SequenceEncoder.Decoder.nextToken, transcribed loop for loop (VASSAL 3.7.9), as the oracle."""
    out, start, stop, val = [], 0, len(value), value
    while val is not None:
        if start == stop:
            out.append("")
            break
        buf, tok, i = [], None, start
        while i < stop:
            if value[i] == delim:
                if i > 0 and value[i - 1] == "\\":
                    buf.append(value[start:i - 1])
                    start = i
                else:
                    if not "".join(buf):
                        tok = value[start:i]
                    else:
                        buf.append(value[start:i])
                    start = i + 1
                    break
            i += 1
        if start < i:
            if not "".join(buf):
                tok = value[start:]
            else:
                buf.append(value[start:stop])
            val = None
        s = tok if tok is not None else "".join(buf)
        out.append(s[1:-1] if len(s) > 1 and s[0] == "'" and s[-1] == "'" else s)
    return out


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="ab\\;'\x1b\x00/", max_size=24), st.sampled_from([";", "\x1b", "/"]))
def test_decode_is_vassals_decoder(value, delim):
    from compiler.vassal.encoding import decode
    assert decode(value, delim) == java_decoder(value, delim)


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="ab\\'\x1b\x00", max_size=30), st.integers(1, 7))
def test_streamed_top_level_split_is_vassals_decoder(value, chunk):
    """However the stream is cut into chunks (a backslash at a chunk's end included)."""
    from compiler.vassal.logstream import top_level_tokens
    chunks = [value[i:i + chunk] for i in range(0, len(value), chunk)] or [""]
    assert list(top_level_tokens(iter(chunks))) == java_decoder(value, "\x1b")
