"""`hexforge replay LOG --end`: where a log ends, as text and as a record start an `--chain` audit takes.

The end is checked against the log itself walked independently here (each piece where its last drag
or placement put it: the recorded meuse logs have no undo), and the chain it makes is audited: the end
written as the next log's start chains without a finding; one piece moved in it is one HF1652."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from compiler.cli import main
from validator.records.record import Moved, Placed, Removed
from validator.records.record_yaml import record_from_yaml

ROOT = Path(__file__).resolve().parents[1]
VLOGS = ROOT / "tests" / "fixtures" / "vlogs"
MEUSE = str(ROOT / "source" / "meuse")
LOG, VMOD = VLOGS / "meuse_legal.vlog", VLOGS / "meuse.vmod"
RUN = CliRunner()


def _replay(*args) -> str:
    r = RUN.invoke(main, ["replay", str(LOG), "--module", str(VMOD), "--game", MEUSE, *args])
    assert r.exit_code == 0, r.output
    return r.stdout


def _walked() -> dict[str, str]:
    """Each piece's place at the log's end: its start, then every drag, placement and removal in order."""
    record = record_from_yaml(_replay("--format", "yaml"), "log.yaml")
    assert not any(s.undo for s in record.steps)
    at = {c.piece: str(w) for c, w in record.start}
    for s in record.steps:
        for e in s.events:
            if isinstance(e, Moved):
                at[e.counter.piece] = str(e.dst)
            elif isinstance(e, Placed):
                at[e.counter.piece] = str(e.where)
            elif isinstance(e, Removed):
                at.pop(e.counter.piece, None)
    return at


def test_end_as_yaml_is_a_record_starting_where_the_log_ends():
    end = record_from_yaml(_replay("--end", "--format", "yaml"), "turn2.yaml")
    assert end.steps == ()
    assert (end.start_turn, end.start_phase) == ("2", "red-movement")      # step 20 advanced to turn 2
    assert {c.piece: str(w) for c, w in end.start} == _walked()
    placed = {c.piece: (c.unit, w.hex) for c, w in end.start}
    assert placed["1015"] == ("red-4rd-eng", "B16.10")                     # step 21: the reinforcement entered
    assert end.source == f"the end of {LOG} (after step 21)" and end.module == "Crossing the Meuse 1.0"


def test_end_as_text_names_each_place():
    lines = _replay("--end").splitlines()
    assert lines[0] == (f"{LOG}: Crossing the Meuse 1.0, VASSAL 3.7.9; end after step 21: 19 units, 0 markers, "
                        "turn 2, phase red-movement")
    assert "B16.10: 4th Engineer Battalion (red-4rd-eng, piece 1015)" in lines
    assert len(lines) == 1 + len(set(_walked().values()))


def _chain(tmp_path, edit=None):
    text = _replay("--end", "--format", "yaml")
    if edit:
        text = edit(text)
    nxt = tmp_path / "turn2.yaml"
    nxt.write_text(text, encoding="utf-8")
    r = RUN.invoke(main, ["audit", MEUSE, str(LOG), str(nxt), "--module", str(VMOD), "--chain", "--format", "json"])
    assert r.exit_code in (0, 1), r.output
    import json
    return json.loads(r.stdout)["logs"][1]["diagnostics"]


def test_the_end_chains_without_a_finding(tmp_path):
    assert [d for d in _chain(tmp_path) if d["code"] in ("HF1651", "HF1652")] == []


def test_a_piece_moved_between_the_logs_is_one_hf1652(tmp_path):
    line = "- {piece: '1015', unit: red-4rd-eng, side: red, at: B16.10}"
    found = _chain(tmp_path, lambda t: t.replace(line, line.replace("B16.10", "B15.10")) if line in t else "")
    chain = [d for d in found if d["code"] in ("HF1651", "HF1652")]
    assert [(d["code"], d["hexes"]) for d in chain] == [("HF1652", ["B16.10", "B15.10"])]
    assert "4th Engineer Battalion (piece 1015) stood at B16.10" in chain[0]["message"]


def _audited_chain(*logs) -> list[dict]:
    import json
    r = RUN.invoke(main, ["audit", MEUSE, *map(str, logs), "--module", str(VMOD), "--chain", "--format", "json"])
    assert r.exit_code in (0, 1), r.output
    return json.loads(r.stdout)["logs"]


def test_a_victory_hex_taken_two_logs_back_is_still_held(tmp_path):
    """meuse_legal's Red tank enters Val-Saint-Omble (B1.10) and leaves it (10.1: a hex stays its taker's):
    in a chain of three logs, the third (nothing taken in the second) still counts it Red's, as the second does;
    the third audited after the second alone (the chain broken before it) takes it from who stands there."""
    second, third = tmp_path / "turn2.yaml", tmp_path / "turn3.yaml"
    text = _replay("--end", "--format", "yaml")
    second.write_text(text, encoding="utf-8")
    third.write_text(text, encoding="utf-8")
    logs = _audited_chain(LOG, second, third)
    assert [x["result"]["hexes"]["B1.10"] for x in logs] == ["red", "red", "red"]
    assert logs[2]["result"]["points"]["red"] == logs[1]["result"]["points"]["red"] == 1
    near = _audited_chain(second, third)                  # near miss: no log took it: who stands there holds it
    assert [x["result"]["hexes"]["B1.10"] for x in near] == ["blue", "blue"]
