"""`hexforge charts`: every printable chart of a game, written into one directory.

    build_charts(game, out_dir, paper="a4", progress=None) -> [paths written]

The set is written into a temporary folder beside `out_dir` and renamed into place whole, so an
interrupted run leaves the previous set (or nothing), never part of one. Files:
    counter-sheets.pdf         fronts and mirrored backs on facing pages, true size
    tables.pdf                 CRT first, then the other die-roll tables
    tec.pdf                    terrain effects chart
    turn-track.pdf             turn record track (+ reinforcement counts, scenario lengths)
    orders-of-arrival.pdf      per side, by turn and entry area
    setup-<scenario>.pdf       one set-up card per scenario
    counter-sheet-1.png        preview of the first counter-sheet page (for the README)
    crt.png                    preview of the first page of tables.pdf
    .cache/                    the counter faces drawn (compiler/cache.py pack) and the run stamp

The face pack is read from the previous set and written into the new folder before it is swapped in,
so it always matches the set beside it, and a failed run keeps the old set and its pack; nothing is
written outside the output folder.

The PDFs are byte-for-byte reproducible for the same game, paper and library versions.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Optional

from compiler import cache as cache_mod
from compiler.atomic import atomic_dir

from . import aids, setup, sheets
from .pdf import paper_size
from .preview import render_preview

PREVIEW_DPI = 110
CACHE_DIR = ".cache"  # also holds the run stamp (compiler/stamp.py)


def build_charts(game, out_dir: Path, paper: str = "a4",
                 progress: Optional[Callable[[str, int, int], None]] = None) -> list[Path]:
    """`progress(stage, done, total)`, if given, is called as each file is written (as for build_module)."""
    paper = (paper or "a4").lower()
    paper_size(paper)  # validate before writing anything
    final = Path(out_dir)
    # the counter faces of the last run: read from the old set, written into the new one, so the
    # cache is swapped in (or kept, if the run fails) together with the charts it drew
    cache = cache_mod.Cache(final / CACHE_DIR)
    with atomic_dir(final, _is_chart_file) as tmp:
        written = _write_charts(game, tmp, paper, progress, cache)
        cache.commit(into=tmp / CACHE_DIR)
    return [final / p.name for p in written]


def _is_chart_file(name: str) -> bool:
    """A file a previous chart set may have left (what may be replaced with the new set); `.cache`
    holds the face pack (carried into the new set) and the run stamp (written again after it)."""
    return name == CACHE_DIR or (not name.startswith(".") and name.endswith((".pdf", ".png")))


def _write_charts(game, out: Path, paper: str, progress, cache: cache_mod.Cache) -> list[Path]:
    total = 6 + len(game.scenarios)
    step = 0

    def say(msg: str) -> None:
        nonlocal step
        if progress:
            progress(msg, step, total)
        step += 1

    written: list[Path] = []
    say("counter sheets")
    cs = sheets.build_counter_sheets(game, out / "counter-sheets.pdf", paper, progress, cache)
    written.append(cs)
    say("tables")
    tb = aids.build_tables(game, out / "tables.pdf", paper)
    written.append(tb)
    say("terrain effects chart")
    written.append(aids.build_tec(game, out / "tec.pdf", paper))
    say("turn record track")
    written.append(aids.build_turn_track(game, out / "turn-track.pdf", paper))
    say("orders of arrival")
    written.append(aids.build_ooa(game, out / "orders-of-arrival.pdf", paper))
    seen: set[str] = set()
    for sc in game.scenarios:
        name = setup.safe_name(sc.id)
        while name in seen:  # two ids that sanitise alike keep separate files
            name += "_"
        seen.add(name)
        say(f"set-up card {sc.id}")
        written.append(setup.build_setup_card(game, sc, out / f"setup-{name}.pdf", paper))
    say("previews")
    written.append(render_preview(cs, 0, out / "counter-sheet-1.png", PREVIEW_DPI))
    written.append(render_preview(tb, 0, out / "crt.png", PREVIEW_DPI))
    if progress:
        progress("charts", total, total)
    return written
