"""Bad input gives a located error and exit 1 or 2, never a traceback; a check never writes to the tree."""
import hashlib
import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st

from compiler.cli import main

RUN = CliRunner()


def run(*args):
    r = RUN.invoke(main, list(map(str, args)))
    assert r.exception is None or isinstance(r.exception, SystemExit), r.output
    return r


def test_missing_path_exits_2(tmp_path):
    r = run("check", tmp_path / "nope")
    assert r.exit_code == 2 and "no such file" in r.output


def test_directory_without_game_exits_2(tmp_path):
    (tmp_path / "x.yaml").write_text("a: 1\n")
    r = run("check", tmp_path)
    assert r.exit_code == 2 and "not a game source tree" in r.output


def test_file_instead_of_directory_exits_2(tmp_path):
    f = tmp_path / "game.yaml"
    f.write_text("id: x\n")
    assert run("check", f).exit_code == 2


def test_broken_yaml_is_located(mini):
    mini.text("map.yaml", "scheme: letters\nboards: [\n")
    r = run("check", mini.path, "--format", "json")
    assert r.exit_code == 1
    (d,) = json.loads(r.output)["diagnostics"]
    assert d["code"] == "HF001" and d["file"] == "map.yaml" and d["line"] >= 2


def test_wrong_type_is_located_with_help(mini):
    mini.text("map.yaml", "scheme: column-row\nboards:\n  - {id: main, columns: [1, ten], rows: [1, 10]}\n")
    r = run("check", mini.path, "--format", "json")
    (d,) = json.loads(r.output)["diagnostics"]
    assert (d["code"], d["file"], d["line"]) == ("HF004", "map.yaml", 3) and d["help"]


def test_unquoted_hex_id_gets_quote_help(mini):
    mini.edit("places.yaml", lambda d: d["victory"][0].update(hex=505))
    r = run("check", mini.path, "--format", "json")
    d = json.loads(r.output)["diagnostics"][0]
    assert d["code"] == "HF004" and "quote" in d["help"]


def test_empty_and_binary_files(mini):
    mini.text("tec.yaml", "")
    mini.text("tables.yaml", bytes(range(256)))
    r = run("check", mini.path, "--format", "json")
    got = {(d["file"], d["code"]) for d in json.loads(r.output)["diagnostics"]}
    assert got == {("tec.yaml", "HF003"), ("tables.yaml", "HF006")} and r.exit_code == 1


@pytest.mark.parametrize("text", ["null", "~\n", "--- null\n"])
def test_a_file_of_only_null_is_reported_not_a_crash(mini, text):
    mini.text("game.yaml", text)
    r = run("check", mini.path, "--format", "json")
    got = [(d["file"], d["code"], d["line"]) for d in json.loads(r.output)["diagnostics"]]
    assert got == [("game.yaml", "HF003", 1)] and r.exit_code == 1


def test_duplicate_key_is_an_error(mini):
    mini.text("map.yaml", "scheme: column-row\nscheme: letters\nboards: [{id: m, columns: [1, 2], rows: [1, 2]}]\n")
    r = run("check", mini.path)
    assert r.exit_code == 1 and "map.yaml:2:1: error[HF002] duplicate key 'scheme'" in r.output


def test_alias_bomb_is_refused(mini):
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
    for i in range(1, 8):
        bomb += f"a{i}: &a{i} [" + ", ".join([f"*a{i-1}" if i > 1 else "*a"] * 10) + "]\n"
    mini.text("terrain.yaml", bomb)
    r = run("check", mini.path)
    assert r.exit_code == 1 and "HF006" in r.output


def test_a_number_of_5000_digits_is_located(mini):
    """Was a traceback (Python reads at most 4300 digits as an int)."""
    mini.text("game.yaml", (mini.path / "game.yaml").read_text(encoding="utf-8") + "\nextra: " + "9" * 5000 + "\n")
    r = run("check", mini.path)
    line = (mini.path / "game.yaml").read_text(encoding="utf-8").count("\n")
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert (f"game.yaml:{line}:8: error[HF006] a number of 5000 characters, more digits than can be read\n"
            "  = help: no printed value has so many digits; is this the right file?") in r.output


def _digest(root):
    h = hashlib.sha256()
    for dp, _, fs in sorted(os.walk(root)):
        for f in sorted(fs):
            p = os.path.join(dp, f)
            h.update(p.encode() + open(p, "rb").read())
    return h.hexdigest()


def test_check_never_modifies_the_tree(mini):
    before = _digest(mini.path)
    run("check", mini.path)
    run("check", mini.path, "--as-printed", "--format", "json")
    assert _digest(mini.path) == before


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(target=st.sampled_from(["game.yaml", "map.yaml", "counters.yaml", "scenarios/s1.yaml", "tables.yaml",
                               "errata/mini-errata.yaml"]),
       junk=st.one_of(st.binary(max_size=300), st.text(max_size=300),
                      st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                                   lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=6), c, max_size=4),
                                   max_leaves=20).map(lambda v: json.dumps(v))))
def test_generated_junk_never_crashes(mini, target, junk):
    mini.text(target, junk)
    r = run("check", mini.path, "--format", "json")
    assert r.exit_code in (0, 1)
    out = json.loads(r.output)
    for d in out["diagnostics"]:
        if d["severity"] == "error":
            assert d["file"] and d["message"]


def test_cli_entry_point_runs_as_a_program(tmp_path):
    r = subprocess.run([sys.executable, "-m", "compiler.cli", "check", str(tmp_path / "none")],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr


def test_compiled_and_full_schema_validators_agree(mini):
    """The fast path must refuse exactly what jsonschema refuses (it is only a shortcut)."""
    import fastjsonschema
    from validator.source import schemas
    bad = [
        ("scenario", {"id": "x", "name": "y", "setup": [{"side": "a", "units": []}]}),          # no location
        ("scenario", {"id": "x", "name": "y", "setup": [{"side": "a", "hex": "1", "any_of": ["2"], "units": []}]}),
        ("scenario", {"id": "x", "name": "y", "setup": [{"side": "a", "hex": "1", "units": [], "bogus": 1}]}),
        ("counters", {"units": [{"id": "a", "name": "b", "side": "c", "type": "d", "steps": "two"}]}),
        ("map", {"scheme": "letters", "boards": [{"id": "a", "columns": [1], "rows": [1, 2]}]}),
    ]
    for kind, data in bad:
        assert list(schemas.validator(kind).iter_errors(data)), (kind, data)
        try:
            schemas.fast_validator(kind)(data)
        except fastjsonschema.JsonSchemaException:
            continue
        raise AssertionError(f"fast validator accepted invalid {kind}: {data}")


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scheme=st.sampled_from(["letters", "column-row", "map-column.row"]),
       cols=st.lists(st.integers(-5, 10**7), min_size=2, max_size=2),
       rows=st.lists(st.integers(-5, 10**7), min_size=2, max_size=2),
       n_boards=st.integers(1, 3), origin=st.lists(st.integers(-50, 50), min_size=2, max_size=2))
def test_any_schema_valid_map_is_checked_without_crashing(mini, scheme, cols, rows, n_boards, origin):
    boards = [{"id": chr(65 + i), "columns": cols, "rows": rows, "origin": origin if i else [0, 0]}
              for i in range(n_boards)]
    mini.write("map.yaml", {"scheme": scheme, "boards": boards})
    r = run("check", mini.path, "--format", "json")
    assert r.exit_code in (0, 1)
    json.loads(r.output)
