"""`hexforge` as a process of its own ends as soon as its command has printed (compiler/process.py): the same
output and exit status as the command run in-process, nothing lost in a pipe, no traceback when the reader
goes away, and the collector left paused only where the process ends with the log."""
from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler import process
from compiler.audit.running import run_task
from compiler.audit.setup import AuditSetup
from compiler.cli import main

ROOT = Path(__file__).resolve().parents[1]
VLOGS = ROOT / "tests" / "fixtures" / "vlogs"
LOG = VLOGS / "meuse_combat_violations.vlog"


def _cli(*args: str, **kw) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "compiler.cli", *args], cwd=ROOT, env=env, capture_output=True,
                          **kw)


def test_a_process_prints_what_the_command_prints_and_ends_with_its_status():
    args = ["audit", "source/meuse", str(LOG), "--module", str(VLOGS / "meuse.vmod"), "--format", "json"]
    inside = CliRunner().invoke(main, args)
    out = _cli(*args)
    assert inside.exit_code == 1                       # the log breaks rules: status 1 either way
    assert out.returncode == 1
    assert out.stdout.decode() == inside.output        # every byte printed before the process ended
    assert out.stderr == b""


def test_a_clean_check_ends_with_status_0_and_a_bad_command_with_click_s_2():
    ok = _cli("check", "source/meuse")
    assert ok.returncode == 0 and ok.stdout.startswith(b"0 error(s), 0 warning(s), 0 note(s) in 9 file(s)")
    bad = _cli("no-such-command")
    assert bad.returncode == 2 and b"No such command 'no-such-command'" in bad.stderr


def test_a_reader_that_goes_away_gets_no_traceback():
    args = ["audit", "source/meuse", str(LOG), "--module", str(VLOGS / "meuse.vmod"), "--format", "json"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.Popen([sys.executable, "-m", "compiler.cli", *args], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    p.stdout.read(5)
    p.stdout.close()                                   # as `| head -c 5` does
    err = p.stderr.read()
    assert p.wait() in (1, 120)                        # its status; never a crash
    assert b"Traceback" not in err


def test_sys_exit_with_a_message_is_status_1_with_the_message(capsys):
    assert process._status("hexforge: gone") == 1
    assert "hexforge: gone" in capsys.readouterr().err
    assert process._status(None) == 0 and process._status(3) == 3


@pytest.mark.parametrize("last", [False, True])
def test_the_collector_is_paused_after_a_log_only_where_the_process_ends_with_it(last):
    setup = AuditSetup(ROOT / "source" / "meuse", False, VLOGS / "meuse.vmod", None, True)
    assert gc.isenabled()
    try:
        result = run_task(setup, str(LOG), None, (), last=last)
        assert result.error is None and result.audit.errors()
        assert gc.isenabled() is not last
    finally:
        gc.enable()


def test_what_is_registered_for_the_process_s_end_still_runs(tmp_path):
    """A harness's or coverage's atexit hook runs though the process ends at once (tests/bounded.py reads the
    peak memory so)."""
    mark = tmp_path / "ran"
    code = (f"import atexit, runpy, sys; atexit.register(lambda: open({str(mark)!r}, 'w').write('yes')); "
            "sys.argv = ['hexforge', '--version']; runpy.run_module('compiler.cli', run_name='__main__')")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                         capture_output=True)
    assert out.returncode == 0 and b"hexforge, version" in out.stdout
    assert mark.read_text() == "yes"
