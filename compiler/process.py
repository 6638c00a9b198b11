"""`hexforge` as a process of its own (the console script, `python -m compiler.cli`): the command runs, its
output is flushed, and the process ends at once (`os._exit`), leaving what the run made to the end of the
process instead of freeing it object by object and collecting it first. A long log's audit leaves millions of
objects: collecting and freeing them took a tenth of a second and more of a 4-second audit. Called in-process
(tests, click's runner), the command returns as any function does: nothing here is switched on."""
from __future__ import annotations

import atexit
import os
import sys

ENDS_WITH_COMMAND = False         # set by `run`: the process ends when the command does


def run(command) -> None:
    """Run the click command `command`, then end the process with its exit status."""
    global ENDS_WITH_COMMAND
    ENDS_WITH_COMMAND = True
    try:
        command()
        status = 0
    except SystemExit as e:               # click ends every command with one
        status = _status(e.code)
    atexit._run_exitfuncs()               # what is registered for the process's end still runs (coverage, a harness)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (BrokenPipeError, OSError):    # the reader went away (`| head`): nothing more can be said
        status = status or 1
    os._exit(status)


def _status(code) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)          # sys.exit("message"), as Python itself would print it
    return 1
