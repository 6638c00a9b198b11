"""The command line: schema export, check listing, JSON contract, layering."""
import ast
import json

import jsonschema
import yaml
from click.testing import CliRunner

from compiler.cli import main
from conftest import MINI, ROOT, SOURCE
from validator.source.schemas import kind_of

RUN = CliRunner()


def test_schema_export_gives_valid_2020_12_schemas_that_accept_the_bundled_trees(tmp_path):
    r = RUN.invoke(main, ["schema", str(tmp_path)])
    assert r.exit_code == 0
    schemas = {p.name.split(".")[0]: json.loads(p.read_text()) for p in tmp_path.glob("*.schema.json")}
    assert set(schemas) == {"game", "map", "terrain", "places", "tec", "tables", "counters",
                            "orders-of-arrival", "scenario", "errata", "art"}
    for s in schemas.values():
        jsonschema.Draft202012Validator.check_schema(s)
    checked = 0
    for tree in [MINI, ROOT / "tests" / "fixtures" / "meuse-art"] + sorted(p.parent for p in SOURCE.glob("*/game.yaml")):
        for f in sorted(tree.rglob("*.yaml")):
            kind = kind_of(f.relative_to(tree).as_posix())
            data = yaml.safe_load(f.read_text(encoding="utf-8"))
            errors = list(jsonschema.Draft202012Validator(schemas[kind]).iter_errors(data))
            assert errors == [], f"{f}: {errors[0].message}"
            checked += 1
    assert checked >= 10


def test_checks_listing_has_stable_unique_codes():
    r = RUN.invoke(main, ["checks", "--format", "json"])
    rows = json.loads(r.output)
    codes = [x["code"] for x in rows]
    assert len(codes) == len(set(codes)) >= 40
    assert all(x["help"] and x["severity"] in ("error", "warning", "note") for x in rows)


def test_json_output_contract(tmp_path):
    r = RUN.invoke(main, ["check", str(MINI), "--format", "json", "--as-printed"])
    out = json.loads(r.output)
    assert set(out) == {"diagnostics", "summary"}
    assert set(out["summary"]) >= {"errors", "warnings", "files", "units", "hexes"}
    (d,) = out["diagnostics"]
    assert set(d) == {"code", "severity", "message", "help", "file", "line", "column", "hexes", "units"}


def test_text_output_has_location_severity_code_and_help(mini):
    mini.edit("scenarios/s1.yaml", lambda d: d["setup"][0].update(hex="1111"))
    r = RUN.invoke(main, ["check", str(mini.path)])
    assert r.exit_code == 1
    first, help_line = r.output.splitlines()[:2]
    assert first.startswith("scenarios/s1.yaml:") and ": error[HF102] " in first
    assert help_line.startswith("  = help: ")
    assert "\x1b[" not in r.output  # no colour when not on a terminal


def test_validator_never_imports_compiler():
    for f in (ROOT / "validator").rglob("*.py"):
        tree = ast.parse(f.read_text())
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            assert not any(n.split(".")[0] == "compiler" for n in names), f


def test_build_and_charts_refuse_a_tree_with_errors_and_write_nothing(mini, tmp_path):
    mini.edit("scenarios/s1.yaml", lambda d: d["setup"][0].update(hex="1111"))
    for cmd in ("build", "charts"):
        out = tmp_path / cmd
        r = RUN.invoke(main, [cmd, str(mini.path), "--out", str(out)])
        assert r.exit_code == 1 and "error[HF102]" in r.output and "nothing built" in r.output
        assert not out.exists()


def test_build_and_charts_from_the_command_line(mini, tmp_path):
    r = RUN.invoke(main, ["build", str(mini.path), "--out", str(tmp_path / "m")])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "m" / "mini.vmod").is_file()
    r = RUN.invoke(main, ["charts", str(mini.path), "--out", str(tmp_path / "c"), "--paper", "letter"])
    assert r.exit_code == 0, r.output
    assert {"counter-sheets.pdf", "tables.pdf", "setup-s1.pdf"} <= {p.name for p in (tmp_path / "c").iterdir()}
    assert not [p for p in (tmp_path / "c").iterdir() if p.name.endswith(".tmp")]


def test_build_on_a_missing_path_exits_2(tmp_path):
    r = RUN.invoke(main, ["build", str(tmp_path / "nope")])
    assert r.exit_code == 2


def test_builders_report_progress_as_the_cli_shows_it(mini, tmp_path):
    """The CLI's progress display takes (stage, done, total) on a terminal; both builders must call it so."""
    from compiler.charts.build import build_charts
    from compiler.vassal.build import build_module
    from validator.source.loader import load_game
    game, _ = load_game(mini.path)
    for build, out in ((build_module, tmp_path / "m"), (build_charts, tmp_path / "c")):
        calls = []
        build(game, out, progress=lambda stage, done, total: calls.append((stage, done, total)))
        assert calls and all(isinstance(s, str) and 0 <= d <= t for s, d, t in calls)
        assert calls[-1][1] == calls[-1][2]          # the last call says it is done
