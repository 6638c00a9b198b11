"""Long VASSAL logs made from a bundled game's real logs, so that a benchmark meets the game's real mix of
moves, rolls, flips and removals (not one log's steps over and over).

    python bench/game_logs.py [--steps 1250 20000] [--out /tmp]     # writes and describes the four games' logs

A game's long log is the restore snapshot of its first real log, then the steps of all its real logs of
that set-up (VASSAL 3.7.9's own logs: tests/fixtures/vlogs, shared/vassal-logs), one log after another,
round and round until there are `steps` of them, each step exactly as VASSAL wrote it. One thing is added,
so that what a real log does can happen again in the next round: at the end of each log's last step, the
pieces that log removed are added back and the pieces it flipped are changed back, with VASSAL's own
commands (`+/id/type/state`, `D/id/state`) and the texts the restore snapshot holds for those pieces. Moves
carry their own start and end, so nothing is needed for them. `mix` counts a long log's events per kind,
to set beside the real logs' own.
"""
from __future__ import annotations

import argparse
import collections
import json
import re
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

from common import ROOT  # noqa: E402  (puts the repository on sys.path)

from compiler.vassal.encoding import ESC, deobfuscate, encode, obfuscate, parse_add_piece  # noqa: E402
from compiler.vassal.logstream import log_commands  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures" / "vlogs"
SHARED = next((p for p in (ROOT.parent / "shared" / "vassal-logs", Path("/work/shared/vassal-logs")) if p.exists()),
              None)


@dataclass(frozen=True)
class GameLogs:
    """A bundled game's real logs of one set-up, and the module they were written with."""
    game: str
    logs: tuple[Path, ...]
    module: Path


GAMES = ("meuse", "aachen", "ardennes2", "bulge")


def _logs(pattern: str, *leave_out: str) -> tuple[Path, ...]:
    where = [FIXTURES] + ([SHARED] if SHARED else [])
    found = sorted({p.name: p for d in where for p in d.glob(pattern)}.items())
    return tuple(p for name, p in found if name not in leave_out)


def games() -> dict[str, GameLogs]:
    """The four bundled games' logs. meuse_entries is left out: it starts from another set-up (scenario 2)."""
    if SHARED is None:
        raise SystemExit("shared/vassal-logs not found (the Aachen and Ardennes II modules and logs)")
    return {"meuse": GameLogs("meuse", _logs("meuse_*.vlog", "meuse_entries.vlog"), module_of("meuse")),
            "aachen": GameLogs("aachen", _logs("aachen_*.vlog"), module_of("aachen")),
            "ardennes2": GameLogs("ardennes2", _logs("ardennes2_*.vlog"), module_of("ardennes2")),
            "bulge": GameLogs("bulge", _logs("bulge_*.vlog"), module_of("bulge"))}


def module_of(game: str) -> Path:
    """The module a game's real logs were written with (Aachen's and Ardennes II's are not committed)."""
    return FIXTURES / f"{game}.vmod" if game in ("meuse", "bulge") else SHARED / f"{game}.vmod"


_TOP_ESC = re.compile(r"(?<!\\)\x1b")


def _entries(log: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(log) as z:
        return {n: z.read(n) for n in z.namelist()}


def _split(log: Path) -> tuple[str, list[str]]:
    """The saved game's text up to `end_save`, and each step's token exactly as written (still escaped)."""
    text = deobfuscate(_entries(log)["savedGame"]).decode("utf-8")
    head, tail = text.split(ESC + "end_save" + ESC, 1)
    return head + ESC + "end_save", [t for t in _TOP_ESC.split(tail) if t]


def _restore_commands(log: Path) -> dict[str, tuple[str, str]]:
    """Piece id -> its AddPiece command in the restore snapshot, and its state there."""
    out = {}
    for cmd in next(log_commands(log)):
        if cmd.startswith("+/"):
            pid, typ, state = parse_add_piece(cmd)
            if pid is not None and typ != "stack":
                out[pid] = (cmd, state)
    return out


def _undone_at_end(log: Path, module: Path, restore: dict) -> list[str]:
    """The commands that put back, at a log's end, the pieces it removed and the flips it made."""
    from compiler.vassal.vlog import read_log
    from validator.referee.chain import ends
    rec = read_log(log, module)
    start = {c.piece: c for c, _ in rec.start}
    end = {c.piece: c for c, _ in ends(rec).end}         # the position at its end, undos taken back
    out = []
    for pid, c in start.items():
        if pid not in restore:
            continue
        if pid not in end:
            out.append(restore[pid][0])
        elif end[pid].state != c.state:
            out.append("D/" + encode([pid, restore[pid][1]], "/"))
    return out


def write_long_log(g: GameLogs, steps: int, out: Path) -> Path:
    """`out`: the first log's restore snapshot, then `steps` steps of the game's logs in turn (see above)."""
    head, _ = _split(g.logs[0])
    restore = _restore_commands(g.logs[0])
    body: list[str] = []
    for log in g.logs:
        _, mine = _split(log)
        back = _undone_at_end(log, g.module, restore)
        if back:
            mine[-1] += "".join("\\" + ESC + "LOG\t" + c for c in back)
        body += mine
    picked = [body[i % len(body)] for i in range(steps)]
    entries = _entries(g.logs[0])
    entries["savedGame"] = obfuscate((head + ("".join(ESC + t for t in picked))).encode("utf-8"), 0x5a)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries.items():              # dated alike: the same log each time
            z.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
    return out


def mix(log: Path, module: Path) -> dict[str, int]:
    """Events per kind in a log as hexforge reads it, and its steps and undos."""
    from compiler.vassal.vlog import read_log
    rec = read_log(log, module)
    n: collections.Counter = collections.Counter(steps=len(rec.steps))
    for s in rec.steps:
        n["undos"] += s.undo
        for e in s.events:
            n[type(e).__name__] += 1
    n["warnings"] = len(rec.warnings)
    return dict(n)


def write_logs(names: list[str], sizes: list[int], out: Path) -> dict:
    """Each game's long log at each size, written to `out`: {game: {size: [path, its mix]}}."""
    return {name: {n: [str(p), mix(p, games()[name].module)]
                   for n in sizes for p in [write_long_log(games()[name], n, out / f"{name}_{n}.vlog")]}
            for name in names}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, nargs="+", default=[20_000])
    ap.add_argument("--out", type=Path, default=Path("/tmp"))
    ap.add_argument("--games", nargs="+", default=None)
    ap.add_argument("--json", action="store_true", help="print what was written as JSON (for bench_audit.py)")
    a = ap.parse_args()
    names = a.games or list(games())
    written = write_logs(names, a.steps, a.out)
    if a.json:
        print(json.dumps(written))
        return
    for name in names:
        g = games()[name]
        real: collections.Counter = collections.Counter()
        for log in g.logs:
            real.update(mix(log, g.module))
        print(f"{name}: {len(g.logs)} logs ({', '.join(p.stem for p in g.logs)})")
        rows = [("real logs", dict(real))] + [(Path(p).name, m) for p, m in written[name].values()]
        for what, counts in rows:
            per = {k: round(1000 * v / counts["steps"], 1) for k, v in sorted(counts.items())
                   if k != "steps" and counts["steps"]}
            print(f"  {what:<22} {counts['steps']:>6} steps; per 1000 steps: {per}")


if __name__ == "__main__":
    sys.exit(main())
