"""`hexforge audit` on batches: --report pages, --jobs order and failures, --chain, .vsav, module names,
and never a player's password in any output. Real VASSAL 3.7.9 logs from shared/vassal-logs/."""
from __future__ import annotations

import io
import json
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from lxml import html as lhtml
from PIL import Image

from compiler.cli import main
from compiler.vassal.vlog import read_log
from tests.test_vlog import OTHER_PASSWORD, PASSWORD, log_with_passwords, write_log, saved_text
from validator.source.loader import load_game
from validator.positions.position import Where
from validator.records.record import Moved, Step
from validator.records.record_yaml import record_to_yaml
from validator.referee.chain import ends

LOGS = next((p for p in (Path(__file__).resolve().parents[2] / "shared" / "vassal-logs",
                         Path("/work/shared/vassal-logs")) if p.exists()), None)
pytestmark = pytest.mark.skipif(LOGS is None, reason="shared/vassal-logs not available")


def run(*args):
    return CliRunner().invoke(main, ["audit", *map(str, args)])


def aachen(*logs, extra=()):
    return run("source/aachen", *logs, "--module", LOGS / "aachen.vmod", *extra)


@pytest.fixture(scope="module")
def game():
    return load_game("source/aachen")[0]


# -- --report --

def test_report_pages_show_each_violation_with_a_map_picture(tmp_path):
    out = tmp_path / "report"
    res = aachen(LOGS / "aachen_violations.vlog", LOGS / "aachen_legal.vlog", LOGS / "damaged_truncated.vlog",
                 extra=("--report", out, "--format", "json"))
    assert res.exit_code == 2, res.output
    doc = json.loads(res.stdout)
    assert res.stderr.strip() == f"report: {out / 'index.html'}"
    index = lhtml.fromstring((out / "index.html").read_bytes())
    links = {a.text_content(): a.get("href") for a in index.iter("a")}
    assert links == {str(LOGS / "aachen_violations.vlog"): "aachen_violations.html",
                     str(LOGS / "aachen_legal.vlog"): "aachen_legal.html"}
    assert "cannot audit: not a readable zip archive" in index.text_content()

    page = lhtml.fromstring((out / "aachen_violations.html").read_bytes())
    rows = {r.get("id"): [td.text_content() for td in r.findall("td")] for r in page.iter("tr") if r.get("id")}
    errors = [d for d in doc["logs"][0]["diagnostics"] if d["severity"] == "error"]
    assert [(d["code"], d["step"], d["hexes"]) for d in errors] == [("HF1202", 3, ["2124"]),
                                                                    ("HF1101", 4, ["1226", "1227"])]
    for d in errors:
        (cells,) = [c for c in rows.values() if c[0] == d["code"]]
        assert cells[2] == str(d["step"]) and cells[3] == ", ".join(d["hexes"]) and cells[1] == d["rule"]
    pictures = [img.get("src") for img in page.iter("img")]
    assert len(pictures) == 2 and all(f"-step{d['step']}.png" in p for d, p in zip(errors, pictures))
    for src in pictures:
        im = Image.open(io.BytesIO((out / src).read_bytes()))
        im.verify()
        assert im.format == "PNG" and im.size[0] > 100 and im.size[1] > 100
    assert "<svg" in (out / "aachen_violations.html").read_text(encoding="utf-8")          # dice histogram
    timeline = [li.get("value") for li in page.iter("li") if li.get("class") == "flagged"]
    assert {"3", "4"} <= set(timeline)
    assert sorted(p.name for p in out.iterdir()) == sorted(
        [".hexforge-report", "index.html", "aachen_violations.html", "aachen_legal.html", *pictures,
         "aachen_violations-steps.html", "aachen_legal-steps.html", "aachen-map.png"])


def test_report_picture_draws_the_move_and_rings_the_hex(tmp_path):
    aachen(LOGS / "aachen_violations.vlog", extra=("--report", tmp_path / "r"))
    (png,) = [p for p in (tmp_path / "r").glob("*step3.png")]
    px = Image.open(png).convert("RGB")
    colours = {px.getpixel((x, y)) for x in range(px.width) for y in range(px.height)}
    assert (230, 0, 200) in colours          # the ring round 2124
    assert (20, 60, 220) in colours          # the arrow 2025 -> 2124


def test_report_folder_with_other_files_is_refused_untouched(tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me", encoding="utf-8")
    res = aachen(LOGS / "aachen_legal.vlog", extra=("--report", out))
    assert res.exit_code == 2 and "cannot write the report to" in res.stderr
    assert [p.name for p in out.iterdir()] == ["notes.txt"]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_report_rewritten_whole_and_two_logs_of_one_name_get_two_pages(tmp_path):
    other = tmp_path / "b"
    other.mkdir()
    (other / "aachen_legal.vlog").write_bytes((LOGS / "aachen_violations.vlog").read_bytes())
    out = tmp_path / "r"
    aachen(LOGS / "aachen_violations.vlog", extra=("--report", out))
    res = aachen(LOGS / "aachen_legal.vlog", other / "aachen_legal.vlog", extra=("--report", out))
    assert res.exit_code == 1
    names = sorted(p.name for p in out.iterdir())
    assert "aachen_violations.html" not in names          # the previous report is replaced, not merged
    assert {"aachen_legal.html", "aachen_legal-2.html", "index.html"} <= set(names)
    assert "HF1202" in (out / "aachen_legal-2.html").read_text(encoding="utf-8")


# -- --jobs --

BATCH = ["aachen_violations", "damaged_truncated", "aachen_legal", "damaged_bad_vcsk", "aachen_stacks_undo",
         "damaged_xxe_savedata", "aachen_long_game", "damaged_zip_slip", "aachen_reinforcements_ok"]


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_jobs_keep_the_input_order_and_equal_one_job(fmt):
    logs = [LOGS / f"{n}.vlog" for n in BATCH]
    one = aachen(*logs, extra=("--format", fmt, "--jobs", "1"))
    two = aachen(*logs, extra=("--format", fmt, "--jobs", "2"))
    assert two.exit_code == one.exit_code == 2
    assert two.stdout == one.stdout
    if fmt == "json":
        doc = json.loads(two.stdout)
        assert [Path(x["file"]).stem for x in doc["logs"]] == BATCH
        bad = {Path(x["file"]).stem: x["error"] for x in doc["logs"] if "error" in x}
        assert set(bad) == {"damaged_truncated", "damaged_bad_vcsk"}
        assert "corrupt savedGame obfuscation" in bad["damaged_bad_vcsk"]
        # the two damaged logs that still read are audited: the entity-laden savedata refused, not resolved
        xxe = next(x for x in doc["logs"] if x["file"].endswith("damaged_xxe_savedata.vlog"))
        assert xxe["steps"] == 13 and any("DOCTYPE" in w for w in xxe["warnings"])
        assert doc["summary"]["unreadable"] == 2 and doc["summary"]["errors"] == 2


def test_exit_status_is_the_worst_over_the_logs():
    assert aachen(LOGS / "aachen_legal.vlog", LOGS / "aachen_long_game.vlog", extra=("-j", "2")).exit_code == 0
    assert aachen(LOGS / "aachen_legal.vlog", LOGS / "aachen_violations.vlog", extra=("-j", "2")).exit_code == 1
    assert aachen(LOGS / "damaged_truncated.vlog", LOGS / "aachen_violations.vlog",
                  extra=("-j", "2")).exit_code == 2


def test_a_log_that_crashes_the_referee_fails_alone(monkeypatch):
    import validator.referee.audit as referee

    real = referee.audit

    def crash_on_legal(game, record, *args):
        if record.source.endswith("aachen_legal.vlog"):
            raise ZeroDivisionError("boom")
        return real(game, record, *args)
    monkeypatch.setattr(referee, "audit", crash_on_legal)
    res = aachen(LOGS / "aachen_legal.vlog", LOGS / "aachen_violations.vlog", extra=("-q",))
    assert res.exit_code == 2
    assert ("aachen_legal.vlog: error: cannot audit: internal error while auditing (ZeroDivisionError: boom)"
            in res.stdout)
    assert "aachen_violations.vlog: scenario aachen" in res.stdout and "Traceback" not in res.stdout


# -- --chain --

def _continuation(game, first: Path, out: Path, *, move=None, turn=None) -> Path:
    """A YAML record of the game going on from where `first` ended: one US move 1231 -> 1230.
    `move=(piece, hex)` puts one piece elsewhere at the start (a change no log records); `turn`
    starts it at another turn."""
    rec = read_log(first, LOGS / "aachen.vmod", game)
    e = ends(rec)
    start = e.end
    if move is not None:
        start = start.moved(move[0], Where(hex=move[1]))
    c = start.counter("1030")
    step = Step(1, (Moved(c, Where(hex="1231"), Where(hex="1230")),))
    nxt = replace(rec, source=str(out), start=start, start_turn=turn or e.end_turn, start_phase=e.end_phase,
                  steps=(step,), warnings=())
    out.write_text(record_to_yaml(nxt), encoding="utf-8")
    return out


def chain_findings(res, i: int) -> list:
    doc = json.loads(res.stdout)
    return [(d["code"], d["severity"], d["hexes"], d["units"], d["message"]) for d in doc["logs"][i]["diagnostics"]
            if d["code"] in ("HF1651", "HF1652")]


def test_chain_of_two_logs_that_follow_on_has_no_chain_finding(game, tmp_path):
    second = _continuation(game, LOGS / "aachen_legal.vlog", tmp_path / "part2.yaml")
    res = aachen(LOGS / "aachen_legal.vlog", second, extra=("--chain", "--format", "json"))
    assert chain_findings(res, 0) == [] and chain_findings(res, 1) == []
    assert res.exit_code == 0, res.stdout


def test_chain_reports_a_piece_moved_between_the_logs(game, tmp_path):
    second = _continuation(game, LOGS / "aachen_legal.vlog", tmp_path / "part2.yaml", move=("1031", "1529"))
    res = aachen(LOGS / "aachen_legal.vlog", second, extra=("--chain", "--format", "json"))
    assert chain_findings(res, 1) == [(
        "HF1652", "error", ["1530", "1529"], ["3-3-7 infantry"],
        "3-3-7 infantry (piece 1031) stood at 1530 when aachen_legal.vlog ended and stands at 1529 at this "
        "log's start")]
    assert res.exit_code == 1
    # without --chain the same two logs are judged apart
    assert chain_findings(aachen(LOGS / "aachen_legal.vlog", second, extra=("--format", "json")), 1) == []


def test_chain_reports_a_turn_gap_and_a_piece_missing(game, tmp_path):
    # the German unit eliminated at step 7 of aachen_legal is back; the next log starts at turn 3, not 2
    rec = read_log(LOGS / "aachen_legal.vlog", LOGS / "aachen.vmod", game)
    second = _continuation(game, LOGS / "aachen_legal.vlog", tmp_path / "part2.yaml", turn="3")
    res = aachen(LOGS / "aachen_legal.vlog", second, LOGS / "aachen_legal.vlog",
                 extra=("--chain", "--format", "json"))
    assert chain_findings(res, 1) == [
        ("HF1651", "error", [], [], "starts at turn 3, but aachen_legal.vlog ended at turn 2")]
    third = chain_findings(res, 2)
    assert third[0][:2] == ("HF1651", "error") and "starts at turn 1, but part2.yaml ended at turn 3" in third[0][4]
    moved_back = [f for f in third[1:] if "piece 1001" in f[4]]
    assert moved_back == [("HF1652", "error", ["0409"], ["0-1-6 infantry"],
                           "0-1-6 infantry (piece 1001) stands at 0409 at this log's start but was not in play when "
                           "part2.yaml ended")]
    assert rec.start.where("1001") == Where(hex="0409")


def test_a_chained_log_that_starts_mid_turn_is_judged_by_the_chain_not_the_setup(game, tmp_path):
    """aachen_stacks_undo ends in turn 1 with units off their set-up hexes: the next log starts there.
    Alone it is judged against the set-up (HF1003 for each unit moved); chained, against the previous end."""
    rec = read_log(LOGS / "aachen_stacks_undo.vlog", LOGS / "aachen.vmod", game)
    e = ends(rec)
    second = tmp_path / "later.yaml"
    second.write_text(record_to_yaml(replace(rec, source=str(second), start=e.end, start_turn=e.end_turn, steps=(),
                                             warnings=())), encoding="utf-8")
    alone = json.loads(aachen(LOGS / "aachen_stacks_undo.vlog", second, extra=("--format", "json")).stdout)
    assert {d["code"] for d in alone["logs"][1]["diagnostics"] if d["severity"] == "error"} == {"HF1003"}
    res = aachen(LOGS / "aachen_stacks_undo.vlog", second, extra=("--format", "json", "--chain"))
    chained = json.loads(res.stdout)["logs"][1]["diagnostics"]
    assert [d for d in chained if d["code"] in ("HF1001", "HF1002", "HF1003", "HF1004", "HF1005")] == []
    assert [d for d in chained if d["severity"] == "error"] == [] and res.exit_code == 0
    # the same with a report: the page shows what the text shows
    out = tmp_path / "r"
    assert aachen(LOGS / "aachen_stacks_undo.vlog", second, extra=("--chain", "--report", out)).exit_code == 0
    assert "HF1003" not in (out / "later.html").read_text(encoding="utf-8")
    # the first log of a chain is still judged against the set-up: a unit moved before the log began
    moved = replace(rec, source=str(tmp_path / "first.yaml"), start=rec.start.moved("1030", Where(hex="1231")))
    (tmp_path / "first.yaml").write_text(record_to_yaml(moved), encoding="utf-8")
    first = json.loads(aachen(tmp_path / "first.yaml", second, extra=("--format", "json", "--chain")).stdout)
    assert [(d["code"], d["hexes"]) for d in first["logs"][0]["diagnostics"] if d["code"] == "HF1003"] == [
        ("HF1003", ["1231"])]


def test_chain_is_not_broken_by_order_of_jobs(game, tmp_path):
    second = _continuation(game, LOGS / "aachen_legal.vlog", tmp_path / "part2.yaml", move=("1031", "1529"))
    args = (LOGS / "aachen_legal.vlog", LOGS / "damaged_truncated.vlog", second, LOGS / "aachen_legal.vlog")
    one = aachen(*args, extra=("--chain", "--format", "json"))
    two = aachen(*args, extra=("--chain", "--format", "json", "-j", "2"))
    assert one.stdout == two.stdout and one.exit_code == 2
    # the damaged log breaks the chain: part2 is not compared with anything
    assert chain_findings(one, 2) == []
    assert [f[0] for f in chain_findings(one, 3)][:1] == ["HF1651"]


def test_chain_findings_are_on_the_report_page(game, tmp_path):
    second = _continuation(game, LOGS / "aachen_legal.vlog", tmp_path / "part2.yaml", move=("1031", "1529"))
    out = tmp_path / "r"
    res = aachen(LOGS / "aachen_legal.vlog", second, extra=("--chain", "--report", out))
    assert res.exit_code == 1
    page = lhtml.fromstring((out / "part2.html").read_bytes())
    (row,) = [[td.text_content() for td in r.findall("td")] for r in page.iter("tr")
              if r.get("id") and r.findall("td")[0].text_content() == "HF1652"]
    assert row[3] == "1530, 1529" and "piece 1031" in row[5]
    assert list(out.glob("part2-finding*-step0.png"))


# -- .vsav, module names, passwords --

def test_a_saved_game_is_audited_as_a_log_without_steps(tmp_path):
    with zipfile.ZipFile(LOGS / "aachen.vmod") as z:
        (tmp_path / "scenario_aachen.vsav").write_bytes(z.read("scenario_aachen.vsav"))
    res = aachen(tmp_path / "scenario_aachen.vsav", extra=("--format", "json"))
    assert res.exit_code == 0, res.stdout
    (log,) = json.loads(res.stdout)["logs"]
    assert (log["scenario"], log["steps"], log["scenario_score"]) == ("aachen", 0, 1.0)
    assert [d["code"] for d in log["diagnostics"] if d["severity"] != "note"] == []


def test_a_log_of_another_module_version_is_warned_about(tmp_path):
    moduledata = (b"<?xml version='1.0' encoding='UTF-8' standalone='no'?><data version=\"1\">"
                  b"<version>0.9</version><VassalVersion>3.7.9</VassalVersion>"
                  b"<name>Aachen: First to Fall</name></data>")
    log = write_log(tmp_path / "old.vlog", saved_text("aachen_legal"), like="aachen_legal", moduledata=moduledata)
    res = aachen(log, extra=("--format", "json"))
    assert res.exit_code == 0
    (d,) = [d for d in json.loads(res.stdout)["logs"][0]["diagnostics"] if d["code"] == "HF1653"]
    assert (d["severity"], d["step"], d["message"]) == (
        "warning", 0, "the log was written with module 'Aachen: First to Fall 0.9', audited with "
                         "'Aachen: First to Fall 1.0'")
    # the same module: no warning
    same = aachen(LOGS / "aachen_legal.vlog", extra=("--format", "json"))
    assert not [d for d in json.loads(same.stdout)["logs"][0]["diagnostics"] if d["code"] == "HF1653"]


@pytest.mark.parametrize("fmt", ["text", "json", "sarif"])
def test_a_players_password_is_never_printed(tmp_path, fmt):
    log = log_with_passwords(tmp_path)
    out = tmp_path / "report"
    res = aachen(log, log, extra=("--format", fmt, "--report", out, "--chain", "-j", "2"))
    assert res.exit_code == 1
    if fmt == "json":                          # the players are there, as labels
        assert json.loads(res.stdout)["logs"][0]["players"] == ["us", "player 2"]
    for text in [res.stdout, res.stderr] + [p.read_bytes().decode("latin-1") for p in out.iterdir()]:
        assert PASSWORD not in text and OTHER_PASSWORD not in text


# -- a log of another game --

def test_a_log_of_another_game_cannot_be_audited():
    res = run("source/ardennes2", LOGS / "aachen_legal.vlog", "--module", LOGS / "aachen.vmod", "--format", "json")
    assert res.exit_code == 2, res.output
    (log,) = json.loads(res.stdout)["logs"]
    assert log["diagnostics"] == []
    assert "none of the log's 57 units is a unit of Ardennes II" in res.output
    assert "Aachen: First to Fall 1.0" in res.output
    # near miss: the same log with its own game's tree is audited
    assert aachen(LOGS / "aachen_legal.vlog").exit_code == 0


def test_the_report_page_shows_the_victory_standing(tmp_path):
    """The audit's result (who is ahead when the log ends) is on the log's page as in the text and JSON."""
    from compiler.cli import main as cli
    fix = Path(__file__).resolve().parent / "fixtures" / "vlogs"
    out = tmp_path / "r"
    res = CliRunner().invoke(cli, ["audit", str(Path(__file__).resolve().parents[1] / "source" / "meuse"),
                                   str(fix / "meuse_violations.vlog"), "--module", str(fix / "meuse.vmod"),
                                   "-q", "--report", str(out)])
    assert res.exit_code == 1
    text = "not decided by the log (it ends in turn 2; the scenario ends with turn 6): Red 1 VP; Red needs 7 at the end"
    assert f"meuse_violations.vlog: result: {text}" in res.stdout
    assert f'<h2>Result</h2><p class="result">{text}</p>' in (out / "meuse_violations.html").read_text(encoding="utf-8")
