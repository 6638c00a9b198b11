"""The game record as YAML: every real log's record survives the round trip, the documented example
reads as a user would expect, and bad input is a located RecordError."""
import re
from pathlib import Path

import pytest

from validator.positions.position import Where
from validator.records.record import Chat, DieRoll, Moved, Removed, TurnChanged
from validator.records.record_yaml import RecordError, record_from_yaml, record_to_yaml

ROOT = Path(__file__).resolve().parents[1]


def doc_example() -> str:
    text = (ROOT / "docs" / "record-format.md").read_text()
    return re.search(r"## Example\n\n```yaml\n(.*?)```", text, re.S).group(1)


def test_real_logs_round_trip():
    from tests.test_vlog import LOGS, REAL, record
    if LOGS is None:
        pytest.skip("shared/vassal-logs not available")
    for name in REAL:
        rec = record(name)
        assert record_from_yaml(record_to_yaml(rec), "x.yaml") == rec, name


def test_documented_example_fills_in_what_the_record_knows():
    rec = record_from_yaml(doc_example(), "game.yaml")
    assert rec.source == "game.yaml" and rec.start_turn == "1"
    assert rec.start.where("us-r") == Where(box="US Turn 4: 0301")
    assert [s.index for s in rec.steps] == [1, 2, 3, 4]
    [mv] = rec.steps[1].events
    assert isinstance(mv, Moved) and rec.steps[1].player == "us"
    assert (mv.counter.unit, mv.counter.side, mv.src, mv.dst, mv.onto) == (
        "us-1id-inf-3-3-7", "us", Where(hex="2025"), Where(hex="2124"), "de-a")
    assert rec.steps[2].events == (DieRoll("1d6", (4,), 4),)
    rem, turn = rec.steps[3].events
    assert isinstance(rem, Removed) and rem.where == Where(hex="2124") and rem.counter.unit == "de-inf-1-1-7"
    assert turn == TurnChanged("2")
    assert rec.steps[0].events == (Chat("US movement phase, GT 1", "us"),)


def error_of(text: str) -> RecordError:
    with pytest.raises(RecordError) as e:
        record_from_yaml(text, "game.yaml")
    return e.value


def test_unquoted_hex_is_located():
    e = error_of("start:\n- {piece: a, unit: u, at: 0301}\n")
    assert (e.loc.file, e.loc.line, e.loc.column) == ("game.yaml", 2, 27)
    assert "'at' must be a string" in e.message and "quote" in e.help
    assert str(e).startswith("game.yaml:2:27: ")


def test_unknown_key_and_event_are_located():
    e = error_of("steps:\n- events:\n  - move: {piece: a, unit: u, from: '1', to: '2', speed: 3}\n")
    assert e.loc.line == 3 and "unknown key 'speed'" in e.message
    e = error_of("steps:\n- events:\n  - teleport: {piece: a}\n")
    assert e.loc.line == 3 and "unknown event 'teleport'" in e.message


def test_move_of_a_piece_never_placed_needs_its_unit():
    e = error_of("steps:\n- events:\n  - move: {piece: ghost, to: '0101'}\n")
    assert e.loc.line == 3 and "piece 'ghost' is not in the record yet" in e.message
    # the near miss: with its unit and from-hex the same event is fine
    rec = record_from_yaml("steps:\n- events:\n  - move: {piece: ghost, unit: u, from: '0102', to: '0101'}\n", "g")
    assert rec.steps[0].events[0].src == Where(hex="0102")


def test_syntax_error_and_step_order_are_located():
    e = error_of("steps:\n- events: [\n")
    assert e.loc.line >= 2 and "YAML syntax" in e.message
    e = error_of("steps:\n- {step: 2}\n- {step: 1}\n")
    assert e.loc.line == 3 and "step 1 does not come after step 2" in e.message
    e = error_of("hexforge-record: 2\n")
    assert e.loc.line == 1 and "format" in e.message
