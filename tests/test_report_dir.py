"""`--report DIR` never touches a file of the user's (compiler/report_dir.py): it writes only into a new folder,
an empty one or one an earlier report wrote (and there replaces only what it wrote and nobody changed since),
writes through a link to a folder, lets runs writing one folder at once all succeed, leaves nothing behind
when it cannot write, and prints the findings whatever happens to the report. After every attempt the user's
files are compared byte for byte with what they were."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.cli import main
from compiler.report_dir import MARKER

ROOT = Path(__file__).resolve().parents[1]
AACHEN = ROOT / "source" / "aachen"


@pytest.fixture
def record(aachen_record):
    def write(tmp_path: Path, name: str = "game.yaml") -> Path:
        p = tmp_path / name
        p.write_text(aachen_record, encoding="utf-8")
        return p
    return write


def findings(rec: Path) -> str:
    """What the audit prints without a report: what it must print whatever happens to one."""
    res = audit(rec)
    assert res.exit_code == 0 and "cannot audit" not in res.stdout, res.output
    return res.stdout


def audit(*args):
    return CliRunner().invoke(main, ["audit", str(AACHEN), *map(str, args), "-q"])


def snapshot(folder: Path) -> dict:
    """Every entry under `folder`: its kind, mode and bytes (a link's target)."""
    out = {}
    for p in sorted(folder.rglob("*")):
        st = os.lstat(p)
        if p.is_symlink():
            out[str(p.relative_to(folder))] = ("link", os.readlink(p))
        elif p.is_dir():
            out[str(p.relative_to(folder))] = ("dir", st.st_mode)
        else:
            out[str(p.relative_to(folder))] = ("file", st.st_mode, hashlib.sha256(p.read_bytes()).hexdigest())
    return out


def leftovers(folder: Path) -> list[str]:
    """Temporary or set-aside entries a run might leave (staging folders, `.old` folders, temp files)."""
    return [p.name for p in folder.rglob("*") if p.name.endswith((".tmp", ".old")) or ".hexforge-report-" in p.name]


REPORT = {"index.html", "game.html", "game-steps.html", "aachen-map.png"}   # the pages, the step page, the map


def the_report(folder: Path) -> set[str]:
    """The files the marker says the report is, each present with the bytes it lists."""
    listed = json.loads((folder / MARKER).read_text(encoding="utf-8"))["files"]
    for name, digest in listed.items():
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest, name
    return set(listed)


def test_a_folder_of_ones_own_pictures_and_pages_is_refused_untouched_and_the_findings_printed(tmp_path, record):
    """The issue's case: a folder holding only .html and .png files was replaced whole by the report."""
    mine = tmp_path / "pictures"
    mine.mkdir()
    (mine / "holiday.png").write_bytes(b"\x89PNG\r\n\x1a\n my picture")
    (mine / "index.html").write_text("<p>my own page</p>", encoding="utf-8")
    rec = record(tmp_path)
    before = snapshot(tmp_path)
    res = audit(rec, "--report", mine)
    assert res.exit_code == 2
    assert res.stdout == findings(rec)                                # the findings, all the same
    assert res.stderr == (f"hexforge: error: cannot write the report to {mine}: it holds files hexforge did not "
                          "write (holiday.png, index.html); give a new or empty folder, or one an earlier "
                          "--report wrote\n")
    assert snapshot(tmp_path) == before
    assert leftovers(tmp_path) == []


def test_an_empty_folder_is_written_into_and_stays_the_same_folder(tmp_path, record):
    out = tmp_path / "empty"
    out.mkdir()
    inode = out.stat().st_ino
    res = audit(record(tmp_path), "--report", out)
    assert res.exit_code == 0 and res.stderr == f"report: {out / 'index.html'}\n"
    assert out.stat().st_ino == inode
    assert the_report(out) == REPORT and set(os.listdir(out)) == {MARKER} | REPORT


def test_a_folder_the_report_wrote_is_rewritten_and_a_file_of_the_users_in_it_kept(tmp_path, record):
    out = tmp_path / "r"
    assert audit(record(tmp_path, "first.yaml"), "--report", out).exit_code == 0
    (out / "my-notes.txt").write_text("what I think of turn 3", encoding="utf-8")
    mine = snapshot(out)["my-notes.txt"]
    res = audit(record(tmp_path, "second.yaml"), "--report", out)
    assert res.exit_code == 0, res.output
    second = {"index.html", "second.html", "second-steps.html", "aachen-map.png"}
    assert the_report(out) == second                              # the first page, the report's own, is gone
    assert set(os.listdir(out)) == {MARKER, "my-notes.txt"} | second
    assert snapshot(out)["my-notes.txt"] == mine
    assert leftovers(tmp_path) == []


def test_a_report_page_the_user_changed_is_never_replaced(tmp_path, record):
    out = tmp_path / "r"
    rec = record(tmp_path)
    audit(rec, "--report", out)
    (out / "index.html").write_text("<p>annotated by hand</p>", encoding="utf-8")
    before = snapshot(out)
    res = audit(rec, "--report", out)
    assert res.exit_code == 2 and res.stdout == findings(rec)
    assert res.stderr == (f"hexforge: error: cannot write the report to {out}: index.html is not hexforge's "
                          "(written or changed by someone else); move it away, or give another folder\n")
    assert snapshot(out) == before and leftovers(tmp_path) == []
    # near miss: a page the user did not change is the report's, and is replaced
    (out / "index.html").unlink()
    assert audit(record(tmp_path), "--report", out).exit_code == 0


def test_a_link_to_a_folder_is_written_through(tmp_path, record):
    target = tmp_path / "real"
    target.mkdir()
    link = tmp_path / "link"
    link.symlink_to(target)
    res = audit(record(tmp_path), "--report", link)
    assert res.exit_code == 0, res.output
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert the_report(target) == REPORT
    assert audit(record(tmp_path), "--report", link).exit_code == 0           # and again, through the link
    assert leftovers(tmp_path) == []


def test_a_link_to_nothing_and_a_file_are_refused_untouched(tmp_path, record):
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "nowhere")
    a_file = tmp_path / "a-file"
    a_file.write_text("mine", encoding="utf-8")
    rec = record(tmp_path)
    before = snapshot(tmp_path)
    res = audit(rec, "--report", dangling)
    assert res.exit_code == 2 and res.stdout == findings(rec)
    assert res.stderr == (f"hexforge: error: cannot write the report to {dangling}: it is a link to "
                          f"{tmp_path / 'nowhere'}, which does not exist\n")
    res = audit(rec, "--report", a_file)
    assert res.stderr == f"hexforge: error: cannot write the report to {a_file}: it is a file, not a folder\n"
    assert snapshot(tmp_path) == before


def test_a_folder_that_cannot_be_written_leaves_nothing_behind(tmp_path, monkeypatch, record):
    """A read-only folder (made so by refusing the staging folder where the tests run as root)."""
    import tempfile
    out = tmp_path / "ro"
    rec = record(tmp_path)

    def refuse(*a, **k):
        raise PermissionError(13, "Permission denied")
    shown = findings(rec)
    monkeypatch.setattr(tempfile, "mkdtemp", refuse)
    res = audit(rec, "--report", out)
    assert res.exit_code == 2 and res.stdout == shown
    assert res.stderr == f"hexforge: error: cannot write the report to {out}: Permission denied\n"
    assert not out.exists() and leftovers(tmp_path) == []          # the folder it made for the report is gone
    monkeypatch.undo()
    if os.geteuid() != 0:                                           # and for real where permissions hold
        out.mkdir()
        out.chmod(0o555)
        try:
            res = audit(rec, "--report", out)
            assert res.exit_code == 2 and "Permission denied" in res.stderr and os.listdir(out) == []
        finally:
            out.chmod(0o755)


def test_ten_runs_writing_one_folder_at_once_all_succeed_and_one_report_stands(tmp_path, record):
    """The issue's case: 7 of 30 failed with "Directory not empty" or "No such file or directory", and
    .DIR.*.old folders were left. Each run audits a log of its own name, so the report that stands is one
    run's whole report, and nothing of the others' remains."""
    out = tmp_path / "shared"
    logs = [record(tmp_path, f"log{i}.yaml") for i in range(10)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    runs = [subprocess.Popen([sys.executable, "-m", "compiler.cli", "audit", str(AACHEN), str(log), "-q",
                              "--report", str(out)], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE) for log in logs]
    done = [(p.wait(timeout=120), p.stderr.read().decode()) for p in runs]
    assert [code for code, _ in done] == [0] * 10, done
    pages = the_report(out) - {"index.html", "aachen-map.png"}
    (page,) = [p for p in pages if not p.endswith("-steps.html")]          # one run's page and its step page
    assert pages == {page, page.removesuffix(".html") + "-steps.html"}
    assert set(os.listdir(out)) == {MARKER, "index.html", "aachen-map.png", *pages}
    assert f'href="{page}"' in (out / "index.html").read_text(encoding="utf-8")
    assert leftovers(tmp_path) == []
