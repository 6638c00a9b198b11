"""The `hexforge` command: check, checks, explain, schema, build, charts, art, replay, audit.

Exit status: 0 no error (warnings allowed), 1 errors found, 2 cannot run (bad path, not a game tree),
130 interrupted (Ctrl-C), 143 terminated (SIGTERM); either way nothing half-written is left. No Python
traceback reaches the user for bad input.
"""
from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import click

# Each command imports what it uses inside its body: `hexforge --help` and `check` start faster
# without the module writer, the chart renderer or the checks they do not run.


def _fail(msg: str) -> None:
    click.echo(f"hexforge: error: {msg}", err=True)
    sys.exit(2)


def check_tree(path, as_printed: bool = False):
    """(game or None, ordered diagnostics) for one tree: load, schema, errata, cross-checks."""
    from validator.checks import run_checks
    from validator.diagnostics import ordered
    from validator.source.loader import load_game
    game, diags = load_game(path, apply_errata=not as_printed)
    if game is not None:
        diags = diags + run_checks(game)
    return game, ordered(diags)


def _counts(game) -> tuple[int, int, int]:
    if game is None:
        return 0, 0, 0
    return len(game.files), len(game.units), game.grid.count()


class _Commands(click.Group):
    """The command group; Ctrl-C ends a command with the shell's status for SIGINT, 130 (click says 1), and
    SIGTERM with the status for SIGTERM, 143, both by the same clean-up path (compiler/interrupts.py)."""

    def invoke(self, ctx: click.Context):
        from compiler.interrupts import Terminated, stopped_by_signals
        try:
            with stopped_by_signals():
                return super().invoke(ctx)
        except Terminated:
            click.echo("\nhexforge: terminated; nothing half-written was left", err=True)
            sys.exit(143)
        except KeyboardInterrupt:
            click.echo("\nhexforge: interrupted; nothing half-written was left", err=True)
            sys.exit(130)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option("0.1.0", prog_name="hexforge")
def main() -> None:
    """hexforge: hex-and-counter wargames from declarative YAML source trees.

    \b
    check    check a game's tree like a compiler (code, file:line, help)
    build    compile it into a VASSAL module (.vmod)
    charts   print its counter sheets and player aids (PDF)
    replay   show what a VASSAL log holds, step by step (or its end position)
    audit    judge VASSAL logs of a game by its rules, with an HTML report
    explain  what a diagnostic code checks, why, and an example

    `hexforge COMMAND --help` for each; README.md is the guide.
    """


@main.command()
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--as-printed", is_flag=True, help="Check the data as the rulebook printed it, without errata.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--quiet", "-q", is_flag=True, help="Only errors and warnings (text output).")
def check(path: Path, as_printed: bool, fmt: str, quiet: bool) -> None:
    """Check one game's source tree (e.g. source/ardennes2)."""
    from validator.diagnostics import render_json, render_text, summarise
    from validator.source.loader import NotAGameTree
    try:
        game, diags = check_tree(path, as_printed)
    except NotAGameTree as e:
        _fail(str(e))
    files, units, hexes = _counts(game)
    if game is None:
        files = len({d.loc.file for d in diags if d.loc.file})
    summary = summarise(diags, files, units, hexes)
    if fmt == "json":
        click.echo(render_json(diags, summary), nl=False)
    else:
        shown = [d for d in diags if d.severity != "info"] if quiet else diags
        click.echo(render_text(shown, summary, colour=sys.stdout.isatty() and not os.environ.get("NO_COLOR")),
                   nl=False)
    sys.exit(1 if summary.errors else 0)


@main.command()
@click.argument("directory", type=click.Path(path_type=Path))
def schema(directory: Path) -> None:
    """Write the JSON Schemas of every source file kind into DIRECTORY."""
    from compiler.atomic import write_atomic
    from validator.source.schemas import dump_all
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for name, text in dump_all().items():
            write_atomic(directory / name, text.encode("utf-8"))
    except OSError as e:
        _fail(f"cannot write schemas to {directory}: {e.strerror}")
    click.echo(f"wrote {len(dump_all())} schemas to {directory}")


@main.command(name="checks")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def list_checks(fmt: str) -> None:
    """List every diagnostic code: reading, tree checks and the referee's rules."""
    from validator.catalog import all_codes
    from validator.diagnostics import SHOWN
    codes = all_codes()
    if fmt == "json":
        click.echo(json.dumps([{"code": c.code, "name": c.name, "severity": SHOWN[c.severity], "kind": c.kind,
                                "help": c.help} for c in codes.values()], indent=1))
        return
    for c in codes.values():
        click.echo(f"{c.code}  {SHOWN[c.severity]:<7}  {c.kind:<5}  {c.name:<32} {c.help}")


@main.command()
@click.argument("code")
def explain(code: str) -> None:
    """Explain a diagnostic code, such as HF401: what it checks and why.

    Prints what the code checks, why, the tree data it reads, an example of a violation and of a near
    miss, its help line, and a finding of it as --format json prints it (docs/codes.md has them all)."""
    from validator.code_docs import markdown, producer_of
    from validator.catalog import all_codes
    codes = all_codes()
    c = codes.get(code.strip().upper())
    if c is None:
        near = [k for k in codes if k.startswith(code.strip().upper()[:4])][:8]
        _fail(f"no diagnostic code {code!r}" + (f" (did you mean {', '.join(near)}?)" if near else "")
              + "; `hexforge checks` lists every code")
    click.echo(markdown(c, producer=producer_of(c.code)), nl=False)


def _checked_game(path: Path):
    """Load and check a tree for compiling; a tree with errors is not built."""
    from validator.diagnostics import render_text, summarise
    from validator.source.loader import NotAGameTree
    try:
        game, diags = check_tree(path)
    except NotAGameTree as e:
        _fail(str(e))
    errors = [d for d in diags if d.severity == "error"]
    if errors or game is None:
        click.echo(render_text(errors, summarise(diags, *_counts(game))), err=True, nl=False)
        click.echo(f"hexforge: {path} has errors; nothing built (run `hexforge check {path}`)", err=True)
        sys.exit(1)
    return game


def _printed_game(path: Path):
    """The tree as printed, for --as-printed charts: the print's own errors (those the errata correct)
    are what the charts show, so only a tree that cannot be read at all stops them."""
    from validator.source.loader import load_game
    game, diags = load_game(path, apply_errata=False)
    if game is None:
        _fail(f"{path} cannot be read as printed: " + "; ".join(f"{d.loc}: {d.message}" for d in diags[:3]))
    return game


def _progress():
    if not sys.stderr.isatty():
        return None

    def show(what: str, done: int, total: int) -> None:
        click.echo(f"\r{what}: {done}/{total}\033[K", err=True, nl=done >= total)
    return show


@main.command()
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--out", "out", type=click.Path(path_type=Path), default=None,
              help="Output directory (default build/<game>).")
def build(path: Path, out: Path | None) -> None:
    """Compile a checked source tree into a VASSAL module (.vmod)."""
    from compiler.stamp import default_out, stamp_for
    stamp = stamp_for("build", path, out)
    if stamp.replay(default_out(path, out), click.echo):
        return
    game = _checked_game(path)
    from compiler.vassal.build import build_module
    out_dir = out or Path("build") / game.id
    t0 = time.perf_counter()
    warnings: list[str] = []
    notes: list[str] = []
    try:
        result = build_module(game, out_dir, progress=_progress(), warnings=warnings, notes=notes)
    except OSError as e:
        _fail(f"cannot write {out_dir}: {e.strerror or e}")
    for n in notes:
        click.echo(f"note: {n}", err=True)
    for w in warnings:
        click.echo(f"warning: {w}", err=True)
    click.echo(f"built {result} in {time.perf_counter() - t0:.2f}s"
               + (f" ({len(warnings)} warning(s))" if warnings else ""))
    stamp.record(out_dir, [result], [(f"warning: {w}", True) for w in warnings] + [(f"built {result}", False)])


@main.command()
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--out", "out", type=click.Path(path_type=Path), default=None,
              help="Output directory (default build/<game>/charts).")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True)
@click.option("--as-printed", is_flag=True,
              help="Print the data as the rulebook printed it, without errata (each value an erratum "
                   "corrects marked with it); default folder build/<game>/charts-as-printed.")
def charts(path: Path, out: Path | None, paper: str, as_printed: bool) -> None:
    """Render printable counter sheets and player aids (PDF + PNG previews)."""
    from compiler.stamp import default_out, stamp_for
    folder = "charts-as-printed" if as_printed else "charts"
    stamp = stamp_for("charts", path, out, paper=paper, **({"as_printed": True} if as_printed else {}))
    if stamp.replay(default_out(path, out, folder), click.echo):
        return
    game = _checked_game(path)            # the corrected tree passes check, as for every chart set
    if as_printed:
        game = _printed_game(path)
    from compiler.charts.build import build_charts, last_run
    out_dir = out or Path("build") / game.id / folder
    t0 = time.perf_counter()
    try:
        files = build_charts(game, out_dir, paper=paper, progress=_progress())
    except OSError as e:
        _fail(f"cannot write {out_dir}: {e.strerror or e}")
    drawn = last_run(out_dir)
    lines = [(f"wrote {f}" if drawn.get(f.name, True) else f"kept {f} (what it shows is unchanged)", False)
             for f in files]
    for text, _ in lines:
        click.echo(text)
    kept = sum(not drawn.get(f.name, True) for f in files)
    click.echo(f"{len(files)} file(s) in {time.perf_counter() - t0:.2f}s"
               + (f", {kept} kept from the last set" if kept else ""))
    stamp.record(out_dir, files, lines)


@main.command()
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--out", "out", type=click.Path(path_type=Path), default=None,
              help="Output directory (default build/<game>/art).")
@click.option("--scale", type=click.FloatRange(min=0.01, max=4.0), default=None,
              help="Scale of the pictures (default: each image's own size, at most 4096 px a side).")
def art(path: Path, out: Path | None, scale: float | None) -> None:
    """Draw the hex grid and IDs over each board's art, and the cells over each counter sheet (art.yaml)."""
    from compiler.art_previews import write_previews
    from validator.diagnostics import render_text, summarise
    from validator.source.loader import NotAGameTree
    try:
        game, diags = check_tree(path)
    except NotAGameTree as e:
        _fail(str(e))
    shown = [d for d in diags if d.severity != "info"]
    if shown or game is None:
        click.echo(render_text(shown, summarise(diags, *_counts(game))), err=True, nl=False)
    if game is None:
        sys.exit(1)
    out_dir = out or Path("build") / game.id / "art"
    try:
        lines = write_previews(game, out_dir, scale)
    except OSError as e:
        _fail(f"cannot write {out_dir}: {e.strerror or e}")
    for line in lines:
        click.echo(line)
    if not lines:
        click.echo(f"{path}: no usable art to preview (art.yaml names no board or sheet image that can be read)")
    sys.exit(1 if any(d.severity == "error" for d in diags) else 0)


@main.command()
@click.argument("path", type=click.Path(path_type=Path))
@click.argument("logs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--module", "module", type=click.Path(path_type=Path), default=None,
              help="The .vmod the logs were played with (default build/<game>/<game>.vmod).")
@click.option("--scenario", default=None, help="Scenario id (default: inferred from the start position).")
@click.option("--as-printed", is_flag=True, help="Judge by the rules as printed, without errata.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif"]), default="text", show_default=True)
@click.option("--quiet", "-q", is_flag=True, help="Only errors and warnings (text output).")
@click.option("--report", "report", type=click.Path(path_type=Path), default=None,
              help="Write an HTML page per log (map pictures of the violations) and index.html into this folder.")
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=1, show_default=True,
              help="Audit this many logs at once, one process each (0: one per core).")
@click.option("--chain", is_flag=True, help="The logs are one game in order: check each starts where the last ended.")
def audit(path: Path, logs: tuple, module: Path | None, scenario: str | None, as_printed: bool, fmt: str,
          quiet: bool, report: Path | None, jobs: int, chain: bool) -> None:
    """Audit VASSAL game logs (.vlog), saved games (.vsav) or game records (.yaml) against a game's rules."""
    from compiler.cli_audit import run_audit
    sys.exit(run_audit(path, logs, module, scenario, as_printed, fmt, quiet, report, jobs, chain))


@main.command()
@click.argument("log", type=click.Path(path_type=Path))
@click.option("--module", type=click.Path(path_type=Path), default=None,
              help="The .vmod the log was played with (for hex ids).")
@click.option("--game", "game", type=click.Path(path_type=Path), default=None,
              help="The game's source tree, e.g. source/aachen (for turn ids and unit names).")
@click.option("--format", "fmt", type=click.Choice(["text", "yaml"]), default="text", show_default=True,
              help="yaml: the game record of docs/record-format.md.")
@click.option("--end", is_flag=True,
              help="Print where the log ends (the position after its last step) instead of its steps; with "
                   "--format yaml, a record starting there: the next log of an --chain audit.")
def replay(log: Path, module: Path | None, game: Path | None, fmt: str, end: bool) -> None:
    """Print a VASSAL log's (.vlog, .vsav) steps as decoded, one line each, without judging them."""
    from compiler.cli_replay import replay_command
    sys.exit(replay_command(log, module, game, fmt, end))


def run() -> None:
    """The `hexforge` command as a process: the command, then the process ends (compiler/process.py)."""
    from compiler.process import run as run_process
    run_process(main)


if __name__ == "__main__":
    run()
