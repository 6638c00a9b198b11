"""`hexforge replay`: one line per decoded step, YAML that reads back to the same record, exit 2 with
a located message for unreadable input, and never a player's password in its output."""
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.cli import main
from tests.test_vlog import LOGS, OTHER_PASSWORD, PASSWORD, REAL, log_with_passwords, record
from validator.records.record_yaml import record_from_yaml

pytestmark = pytest.mark.skipif(LOGS is None, reason="shared/vassal-logs not available")
RUN = CliRunner()
SOURCE = str(Path(__file__).resolve().parents[1] / "source")


def replay(*args):
    return RUN.invoke(main, ["replay", *map(str, args)])


def test_text_lines_for_the_violations_log():
    r = replay(LOGS / "aachen_violations.vlog", "--module", LOGS / "aachen.vmod", "--game", f"{SOURCE}/aachen")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0].endswith("Aachen: First to Fall 1.0, VASSAL 3.7.9; start: 57 units, 0 markers, turn 1; 6 steps")
    assert lines[1:] == [
        "step 1: chat <VLogGen> US movement phase, GT 1",
        "step 2: move 2-2-7 infantry (us-29id-corps-inf-2-2-7, piece 1038) 0301 -> 0315",
        "step 3: move 3-3-7 infantry (us-1id-inf-3-3-7, piece 1037) 2025 -> 2124 onto 1006",
        "step 4: move 1-1-7 infantry (de-inf-1-1-7, piece 1009) 1226 -> 1227",
        "step 5: roll 1d6: 6 (total 6)",
        "step 6: turn Turn 2 (turn 2)",
    ]
    assert r.stderr == ""


def test_stack_undo_and_flip_lines():
    r = replay(LOGS / "aachen_stacks_undo.vlog", "--module", LOGS / "aachen.vmod")
    lines = r.stdout.splitlines()
    assert lines[2].startswith("step 2: move stack of 5: us-3ad-mech-2-2-12 (piece 1015), ")
    assert lines[2].endswith("us-3ad-td-2-2-12 (piece 1019) 1934 -> 1933")
    assert lines[4] == "step 4: undo: move us-1id-inf-3-3-7 (piece 1030) 1231 -> 1232"
    r = replay(LOGS / "ardennes2_fragment.vlog", "--module", LOGS / "ardennes2.vmod", "--game", f"{SOURCE}/ardennes2")
    assert ("step 7: state 3-5-10 Inf Bn(+) (A/9) (us-2id-a-9, piece 1010) in B27.49: reduced (was normal)"
            in r.stdout.splitlines())


def test_yaml_reads_back_to_the_record():
    for name in REAL[:3]:
        r = replay(LOGS / f"{name}.vlog", "--module", LOGS / "aachen.vmod", "--game", f"{SOURCE}/aachen",
                   "--format", "yaml")
        assert r.exit_code == 0
        assert record_from_yaml(r.stdout, "x") == record(name)


@pytest.mark.parametrize("name, message", [
    ("damaged_truncated", "damaged_truncated.vlog: not a readable zip archive"),
    ("damaged_bad_vcsk", "damaged_bad_vcsk.vlog: corrupt savedGame obfuscation (non-hex digit at offset"),
])
def test_unreadable_log_exits_2_with_a_located_message(name, message):
    r = replay(LOGS / f"{name}.vlog", "--module", LOGS / "aachen.vmod")
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.startswith("hexforge: error: ") and message in r.stderr
    assert "Traceback" not in r.output


def test_bad_module_or_tree_exits_2(tmp_path):
    r = replay(LOGS / "aachen_legal.vlog", "--module", tmp_path / "none.vmod")
    assert r.exit_code == 2 and "none.vmod: no such module file" in r.stderr
    (tmp_path / "junk.vmod").write_bytes(b"junk")
    r = replay(LOGS / "aachen_legal.vlog", "--module", tmp_path / "junk.vmod")
    assert r.exit_code == 2 and "junk.vmod: cannot read the module" in r.stderr
    r = replay(LOGS / "aachen_legal.vlog", "--game", tmp_path)
    assert r.exit_code == 2 and "not a game source tree" in r.stderr


def test_password_never_printed(tmp_path):
    log = log_with_passwords(tmp_path)
    for fmt in ("text", "yaml"):
        r = replay(log, "--module", LOGS / "aachen.vmod", "--game", f"{SOURCE}/aachen", "--format", fmt)
        assert r.exit_code == 0
        assert PASSWORD not in r.output and OTHER_PASSWORD not in r.output
    assert "step 2 [us]: move 2-2-7 infantry" in replay(log, "--module", LOGS / "aachen.vmod", "--game",
                                                         f"{SOURCE}/aachen").stdout
