"""What the outputs call things: a finding of severity "info" is a note in every output (text, JSON, SARIF,
`hexforge checks`, the check's summary), and SARIF names each log by a real URI (RFC 3986: percent-encoded,
relative to %SRCROOT% under the working folder, else an absolute file:// URI)."""
from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

from click.testing import CliRunner

from compiler.cli import main

ROOT = Path(__file__).resolve().parents[1]
AACHEN = ROOT / "source" / "aachen"
URI_CHARS = re.compile(r"^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-F]{2})*$")      # RFC 3986, section 2


def audit(*args):
    return CliRunner().invoke(main, ["audit", str(AACHEN), *map(str, args)])


def test_a_note_is_a_note_in_every_output(tmp_path, aachen_record):
    rec = tmp_path / "game.yaml"
    rec.write_text(aachen_record, encoding="utf-8")
    text = audit(rec).stdout
    assert "game.yaml: start position: note[HF1006] (rule 14.0) scenario inferred from the start position" in text
    assert "info[" not in text and text.endswith("1 log(s): 0 error(s), 0 warning(s), 3 note(s)\n")
    doc = json.loads(audit(rec, "--format", "json").stdout)
    assert [d["severity"] for d in doc["logs"][0]["diagnostics"]] == ["note"] * 3
    assert doc["summary"] == {"logs": 1, "unreadable": 0, "errors": 0, "warnings": 0, "notes": 3}
    sarif = json.loads(audit(rec, "--format", "sarif").stdout)["runs"][0]
    assert [r["level"] for r in sarif["results"]] == ["note"] * 3
    assert sarif["tool"]["driver"]["rules"][0]["defaultConfiguration"]["level"] == "note"
    listed = json.loads(CliRunner().invoke(main, ["checks", "--format", "json"]).stdout)
    assert {x["severity"] for x in listed} == {"error", "warning", "note"}
    assert re.search(r"^HF1006  note     audit ", CliRunner().invoke(main, ["checks"]).stdout, re.M)


def test_a_check_says_note_as_the_audit_does():
    res = CliRunner().invoke(main, ["check", str(ROOT / "source" / "bulge"), "--format", "json"])
    doc = json.loads(res.stdout)
    assert set(doc["summary"]) == {"errors", "warnings", "notes", "files", "units", "hexes"}
    assert {d["severity"] for d in doc["diagnostics"]} == {"warning", "note"}
    assert doc["summary"]["notes"] == sum(d["severity"] == "note" for d in doc["diagnostics"]) > 0
    text = CliRunner().invoke(main, ["check", str(ROOT / "source" / "bulge")]).stdout
    assert ": note[HF" in text and ": info[" not in text


def test_sarif_names_each_log_by_a_uri(tmp_path, aachen_record, monkeypatch):
    """Spaces, '#' and non-ASCII percent-encoded, relative to %SRCROOT% under the working folder; a log
    elsewhere by an absolute file URI; a log that cannot be audited located the same way."""
    work = tmp_path / "work"
    (work / "my logs").mkdir(parents=True)
    inside = work / "my logs" / "turn #1 é.yaml"
    inside.write_text(aachen_record, encoding="utf-8")
    (tmp_path / "other place").mkdir()
    outside = tmp_path / "other place" / "50% #2.yaml"
    outside.write_text(aachen_record, encoding="utf-8")
    broken = work / "broken log.yaml"
    broken.write_text("steps: [\n", encoding="utf-8")
    monkeypatch.chdir(work)
    res = audit("my logs/turn #1 é.yaml", outside, "broken log.yaml", "--format", "sarif")
    run = json.loads(res.stdout)["runs"][0]
    base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    assert base == work.as_uri() + "/" and base.startswith("file:///")
    located = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in run["results"]]
    assert located[0] == {"uri": "my%20logs/turn%20%231%20%C3%A9.yaml", "uriBaseId": "%SRCROOT%"}
    assert located[-1] == {"uri": f"file://{tmp_path}/other%20place/50%25%20%232.yaml"}
    note = run["invocations"][0]["toolExecutionNotifications"][0]
    assert note["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": "broken%20log.yaml",
                                                                            "uriBaseId": "%SRCROOT%"}
    for loc in located + [note["locations"][0]["physicalLocation"]["artifactLocation"]]:
        assert URI_CHARS.match(loc["uri"]), loc
        path = unquote(urlsplit(loc["uri"]).path)
        back = Path(path) if "uriBaseId" not in loc else work / path
        assert back.is_file(), (loc, back)
