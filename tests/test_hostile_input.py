"""Files made to exhaust the audit: every number a log or a record gives that sizes later work is bounded
where it is read (validator/records/record_limits.py), and such a file is refused at once with a located message
naming the bound. Each case runs `hexforge audit` as a whole process and is refused within 5 s of CPU time
and 200 MB of peak memory (and 10 s as the clock goes: tests/bounded.py); each has a near miss at the bound
that is read."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from bounded import hexforge
from validator.records import record_limits as limits
ROOT = Path(__file__).resolve().parents[1]
LOGS = next((p for p in (ROOT.parent / "shared" / "vassal-logs", Path("/work/shared/vassal-logs")) if p.exists()),
            None)
AACHEN = ROOT / "source" / "aachen"
CANNOT = "1 log(s): 0 error(s), 0 warning(s), 0 note(s); 1 log(s) could not be audited\n"
needs_logs = pytest.mark.skipif(LOGS is None, reason="shared/vassal-logs not available")


def refused(tmp_path: Path, name: str, message: str, *extra) -> None:
    """`hexforge audit` of `name` (in tmp_path) says exactly `message` and nothing else, exit 2, in bounds."""
    run = hexforge("audit", AACHEN, name, *extra, "-q", cwd=tmp_path)
    assert run.stdout == f"{name}: error: cannot audit: {message}\n" + CANNOT, run
    assert run.code == 2 and "Traceback" not in run.stderr, run
    assert run.within_bounds(), run


def audited(tmp_path: Path, name: str, *extra) -> str:
    run = hexforge("audit", AACHEN, name, *extra, "-q", cwd=tmp_path)
    assert run.code in (0, 1) and "cannot audit" not in run.stdout, run
    return run.stdout


# -- VASSAL logs: a real log's savedGame edited -------------------------------------------------------

def _log(tmp_path: Path, name: str, edit) -> str:
    from tests.test_vlog import saved_text, write_log
    text = saved_text("aachen_violations")
    changed = edit(text)
    assert changed != text
    write_log(tmp_path / name, changed)
    return name


def module() -> tuple[str, str]:
    return "--module", str(LOGS / "aachen.vmod")


@needs_logs
def test_a_dice_report_of_a_die_with_a_hundred_billion_faces_is_refused(tmp_path):
    """The issue's 3.6 KB log: the die's name is read from the chat report, and its faces were counted."""
    log = _log(tmp_path, "dice.vlog", lambda t: t.replace("CHAT*** 1d6 = 6 ***", "CHAT*** 1d100000000000 = 6 ***"))
    assert (tmp_path / log).stat().st_size < 4000
    refused(tmp_path, log, "step 5: dice '1d100000000000' have 100000000000 sides; a die has at most 1000 sides",
            *module())
    near = _log(tmp_path, "near.vlog", lambda t: t.replace("CHAT*** 1d6 = 6 ***", "CHAT*** 1d1000 = 6 ***"))
    audited(tmp_path, near, *module())


@needs_logs
def test_a_roll_of_more_dice_than_the_bound_is_refused(tmp_path):
    def faces(n):
        return lambda t: t + "\x1bLOG\tMutableProperty\t1d6_result\t1\t" + ",".join(["3"] * n) + "\tModule"
    log = _log(tmp_path, "faces.vlog", faces(limits.MAX_DICE + 1))
    refused(tmp_path, log, "step 7: a roll of 101 faces in 201 characters; a roll has at most 100 dice, of at most "
            "18 digits each", *module())
    audited(tmp_path, _log(tmp_path, "near.vlog", faces(limits.MAX_DICE)), *module())


@needs_logs
def test_a_log_of_more_steps_than_the_bound_is_refused(tmp_path):
    log = _log(tmp_path, "steps.vlog", lambda t: t + "\x1bLOG\tCHAT<a> - x" * (limits.MAX_STEPS + 1))
    refused(tmp_path, log, "step 100001: more than 100000 steps: a log is at most 100000 steps", *module())


@needs_logs
def test_a_piece_dragged_to_a_pixel_position_beyond_the_bound_is_refused(tmp_path):
    move = "M/1038/Main Map/155/1044/"
    log = _log(tmp_path, "pixel.vlog", lambda t: t.replace(move, "M/1038/Main Map/155" + "0" * 30 + "/1044/"))
    refused(tmp_path, log, "step 2: a piece at a pixel position of 33 digits; a position is at most 10000000 pixels "
            "either way", *module())
    log = _log(tmp_path, "far.vlog", lambda t: t.replace(move, "M/1038/Main Map/10000001/1044/"))
    refused(tmp_path, log, "step 2: a piece at pixel 10000001: a position is at most 10000000 pixels either way",
            *module())


@needs_logs
def test_a_board_layout_far_off_the_map_is_refused(tmp_path):
    """A map's layout places boards by column and row; the offsets were summed over every column before it."""
    log = _log(tmp_path, "layout.vlog", lambda t: t + "\x1bLOG\tMain MapBoardPicker\taachen\t1000000000000\t0")
    refused(tmp_path, log, "step 7: board 'aachen' is laid out at column 1000000000000, row 0 of map 'Main Map': "
            "a layout has at most 64 boards each way", *module())


@needs_logs
def test_a_log_played_with_another_module_names_the_board_it_lacks(tmp_path):
    """Was "does not fit the module 'Crossing the Meuse 1.0' (KeyError: 'aachen')"."""
    (tmp_path / "aachen_legal.vlog").write_bytes((LOGS / "aachen_legal.vlog").read_bytes())
    refused(tmp_path, "aachen_legal.vlog", "the log lays out board 'aachen' on map 'Main Map', which module "
            "'Crossing the Meuse 1.0' does not have (its boards on 'Main Map': A, B); pass the module the log was "
            "played with (--module)", "--module", ROOT / "tests" / "fixtures" / "vlogs" / "meuse.vmod")


@needs_logs
def test_a_chat_line_longer_than_the_bound_is_refused(tmp_path):
    def chat(n):
        return lambda t: t + "\x1bLOG\tCHAT" + "x" * n
    refused(tmp_path, _log(tmp_path, "chat.vlog", chat(limits.MAX_TEXT_CHARS + 1)),
            "step 7: a chat line of 100001 characters; a chat line is at most 100000", *module())
    audited(tmp_path, _log(tmp_path, "near.vlog", chat(limits.MAX_TEXT_CHARS)), *module())


# -- YAML records -------------------------------------------------------------------------------------

def _record(tmp_path: Path, name: str, text: str) -> str:
    (tmp_path / name).write_text(text, encoding="utf-8")
    return name


def test_the_issues_130_byte_record_of_a_huge_die_is_refused(tmp_path):
    rec = _record(tmp_path, "dice.yaml", "steps:\n- events:\n  - roll: {dice: 1d10000000000, faces: [1]}\n")
    refused(tmp_path, rec, "dice.yaml:3:18: dice '1d10000000000' have 10000000000 sides; a die has at most 1000 "
            "sides")
    audited(tmp_path, _record(tmp_path, "near.yaml", "steps:\n- events:\n  - roll: {dice: 1d1000, faces: [1]}\n"))


@pytest.mark.parametrize("field,value,message", [
    ("sides", 100_000_000_000, "'sides' is 100000000000; it runs from 0 to 1000"),
    ("count", 101, "'count' is 101; it runs from 0 to 100"),
    ("total", 1_000_001, "a roll of 1000001; a face or a total is at most 1000000 either way"),
])
def test_a_roll_whose_dice_or_total_pass_the_bound_is_refused(tmp_path, field, value, message):
    rec = _record(tmp_path, "r.yaml", f"steps:\n- events:\n  - roll: {{dice: 1d6, faces: [1], {field}: {value}}}\n")
    refused(tmp_path, rec, f"r.yaml:3:42: {message}")


def test_a_record_of_a_million_empty_steps_is_refused_by_its_step_count(tmp_path):
    """The issue's 13 MB record, refused as "alias bomb?" after 12 s and 1.74 GB."""
    rec = _record(tmp_path, "million.yaml", "steps:\n" + "- events: []\n" * 1_000_000)
    assert (tmp_path / rec).stat().st_size > 13_000_000
    refused(tmp_path, rec, "million.yaml:100002:3: step item 100001: a record holds at most 100000 steps (audit the "
            "VASSAL log itself, or split the record)")


def test_a_5000_digit_integer_is_a_located_error(tmp_path):
    """Was "internal error while auditing (ValueError: Exceeds the limit (4300 digits) ...); please report it"."""
    rec = _record(tmp_path, "big.yaml", "steps:\n- events:\n  - roll: {dice: 1d6, faces: [1], total: "
                  + "9" * 5000 + "}\n")
    refused(tmp_path, rec, "big.yaml:3:42: a number of 5000 characters; a number here has at most 18 digits "
            "(write the number as it was rolled or counted)")
    rec = _record(tmp_path, "step.yaml", "steps:\n- step: " + "9" * 5000 + "\n")
    refused(tmp_path, rec, "step.yaml:2:9: a number of 5000 characters; a number here has at most 18 digits "
            "(write the number as it was rolled or counted)")


def test_a_step_number_beyond_the_bound_is_refused(tmp_path):
    rec = _record(tmp_path, "s.yaml", "steps:\n- step: 1\n- step: 999999999999999\n")
    refused(tmp_path, rec, "s.yaml:3:9: 'step' is 999999999999999; it runs from 1 to 100000")


def test_a_hex_id_of_30000_characters_is_refused(tmp_path):
    """Hex ids are matched by a pattern whose time grows with the square of their length (3 s for this one)."""
    long = "A" + "1" * 30_000
    rec = _record(tmp_path, "h.yaml", f"start:\n- {{piece: p, unit: us-1id-inf-3-3-7, at: '{long}'}}\n")
    refused(tmp_path, rec, "h.yaml:2:42: 'at': a hex id of 30001 characters; a hex id is at most 32 (a place is a "
            "hex id as printed, or a [box])")
    near = "0" * 28 + "2025"
    out = audited(tmp_path, _record(tmp_path, "near.yaml", f"start:\n- {{piece: p, unit: us-1id-inf-3-3-7, "
                                                           f"at: '{near}'}}\n"))
    assert "near.yaml: scenario" in out


def test_aliases_repeating_one_event_stop_at_the_event_bound(tmp_path):
    """No alias is expanded in memory (a repeated value is one value), but each use is read: the events a
    record holds are bounded however they are written."""
    event = "{move: {piece: p1, to: '2026'}}"
    text = ("start:\n- {piece: p1, unit: us-1id-inf-3-3-7, side: us, at: '2025'}\nsteps:\n"
            "- events: &big [" + ", ".join(["&ev " + event] + ["*ev"] * 9_999) + "]\n" + "- events: *big\n" * 200)
    rec = _record(tmp_path, "alias.yaml", text)
    assert (tmp_path / rec).stat().st_size < 60_000
    refused(tmp_path, rec, "alias.yaml:29:3: step 26 brings the record past 250000 events; a record holds at most "
            "250000 (audit the VASSAL log itself, or split the record)")


def test_a_record_file_over_the_size_bound_is_not_read(tmp_path):
    rec = tmp_path / "huge.yaml"
    with rec.open("wb") as f:
        f.write(b"steps:\n")
        f.truncate(17 * 1024 * 1024)
    refused(tmp_path, rec.name, "huge.yaml: the file is more than 16 MiB; a record is at most 16 MiB (audit the VASSAL "
            "log itself rather than its record)")


def test_a_billion_laughs_record_is_refused_at_once(tmp_path):
    """Ten levels of ten aliases: 10^10 strings if expanded; a repeated value is one value here."""
    rec = _record(tmp_path, "laughs.yaml", "players:\n" + "".join(
        f"- &a{i} [" + ", ".join([f"*a{i - 1}" if i else "lol"] * 10) + "]\n" for i in range(10)))
    refused(tmp_path, rec, "laughs.yaml:2:3: 'players' lists strings")


def test_every_bound_is_listed_in_the_docs():
    """docs/limits.md names each bound with its value, as the code has it."""
    from compiler.vassal import archive, logstream, vlog
    from validator.records import record_yaml
    doc = (ROOT / "docs" / "limits.md").read_text(encoding="utf-8")
    bounds = {n: v for n, v in vars(limits).items() if n.startswith("MAX_")}
    bounds |= {n: getattr(m, n) for m in (archive, logstream, vlog, record_yaml) for n in dir(m)
               if n.startswith("MAX_") and isinstance(getattr(m, n), int)}
    for name, value in bounds.items():
        row = next((line for line in doc.splitlines() if f"`{name}`" in line), None)
        assert row is not None, f"docs/limits.md does not list {name}"
        assert re.search(rf"\b{value:,}\b|\b{value}\b".replace(",", "[ ,]"), row), (name, value, row)
