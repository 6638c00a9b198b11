"""`hexforge charts`: every printable chart of a game, written into one directory.

    build_charts(game, out_dir, paper="a4", progress=None) -> [paths of the set]

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
    .cache/                    the counter faces drawn (compiler/cache.py pack), the charts' manifest
                               (MANIFEST) and the run stamp

Only what changed is drawn again. Each chart is drawn from a watched view of the game
(compiler/charts/reads.py) that notes what it reads; the manifest keeps, per file, those reads, a
key of everything else it depends on (`fixed_key`: hexforge's source and the libraries' versions,
the fonts, reportlab's settings, the paper, SOURCE_DATE_EPOCH, the chart's own inputs such as the
scenario of a set-up card) and the hash of the file's bytes. A later run evaluates the same reads on
the new game: if they give what they gave, the key is the same and the previous file still has the
recorded bytes, the file is carried (hard-linked) into the new set instead of drawn. A preview is
carried when the page it shows comes from the same bytes. So after one unit's factors change the
tables, TEC and turn track are kept, and so is every set-up card and order of arrival not showing it.

The face pack is read from the previous set and written into the new folder before it is swapped in,
so it always matches the set beside it, and a failed run keeps the old set and its pack; nothing is
written outside the output folder.

The PDFs are byte-for-byte reproducible for the same game, paper and library versions, carried or drawn.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from compiler import cache as cache_mod
from compiler.atomic import atomic_dir, write_atomic

from . import aids, reads, setup, sheets
from .pdf import paper_size
from .preview import render_preview

PREVIEW_DPI = 110
CACHE_DIR = ".cache"  # also holds the run stamp (compiler/stamp.py)
MANIFEST = "charts.json"
MANIFEST_FORMAT = 1
MANIFEST_MAX_BYTES = 256 * 1024 * 1024   # a bigger one is not read: everything is drawn again
COUNTER_SHEETS = "counter-sheets.pdf"


@dataclass(frozen=True)
class Chart:
    """One PDF of the set: `draw(game, dest, *inputs)` writes it from the game (a watched view)."""
    name: str
    stage: str
    draw: Callable[..., Path]
    inputs: tuple = ()
    code: Callable[[], str] = str   # a fingerprint of its drawing code finer than hexforge's whole source


def _sheet_code() -> str:
    """The counter sheets' key holds what their faces' keys hold (compiler/charts/sheets.py)."""
    return sheets._renderer_fingerprint()


@dataclass(frozen=True)
class Preview:
    """A PNG of one page of a chart of the set."""
    name: str
    source: str
    page: int


def charts(game, paper: str, progress, cache: cache_mod.Cache) -> list[Chart]:
    """The set, in the order it is written. The drawing functions are looked up when called (tests
    replace them)."""
    out = [
        Chart(COUNTER_SHEETS, "counter sheets",
              lambda g, dest: sheets.build_counter_sheets(g, dest, paper, progress, cache), code=_sheet_code),
        Chart("tables.pdf", "tables", lambda g, dest: aids.build_tables(g, dest, paper)),
        Chart("tec.pdf", "terrain effects chart", lambda g, dest: aids.build_tec(g, dest, paper)),
        Chart("turn-track.pdf", "turn record track", lambda g, dest: aids.build_turn_track(g, dest, paper)),
        Chart("orders-of-arrival.pdf", "orders of arrival", lambda g, dest: aids.build_ooa(g, dest, paper)),
    ]
    seen: set[str] = set()
    for sc in game.scenarios:
        name = setup.safe_name(sc.id)
        while name in seen:  # two ids that sanitise alike keep separate files
            name += "_"
        seen.add(name)
        out.append(Chart(f"setup-{name}.pdf", f"set-up card {sc.id}",
                         lambda g, dest, sc: setup.build_setup_card(g, sc, dest, paper), (sc,)))
    return out


PREVIEWS = (Preview("counter-sheet-1.png", COUNTER_SHEETS, 0), Preview("crt.png", "tables.pdf", 0))


def build_charts(game, out_dir: Path, paper: str = "a4",
                 progress: Optional[Callable[[str, int, int], None]] = None) -> list[Path]:
    """`progress(stage, done, total)`, if given, is called as each file is written (as for build_module).
    Which files were drawn and which carried from the previous set: `last_run(out_dir)`."""
    paper = (paper or "a4").lower()
    paper_size(paper)  # validate before writing anything
    final = Path(out_dir)
    # the counter faces of the last run: read from the old set, written into the new one, so the
    # cache is swapped in (or kept, if the run fails) together with the charts it drew
    cache = cache_mod.Cache(final / CACHE_DIR)
    previous = _read_manifest(final / CACHE_DIR / MANIFEST)
    with atomic_dir(final, _is_chart_file) as tmp:
        written, manifest = _write_charts(game, tmp, paper, progress, cache, final, previous)
        cache.commit(into=tmp / CACHE_DIR)
        write_atomic(tmp / CACHE_DIR / MANIFEST,
                     json.dumps({"format": MANIFEST_FORMAT, "files": manifest}, sort_keys=True,
                                separators=(",", ":")).encode("utf-8"))
    return [final / p.name for p in written]


def last_run(out_dir: Path) -> dict[str, bool]:
    """{file name: True if the last run drew it, False if it carried it from the set before}."""
    return {name: bool(e.get("drawn")) for name, e in _read_manifest(Path(out_dir) / CACHE_DIR / MANIFEST).items()}


def _is_chart_file(name: str) -> bool:
    """A file a previous chart set may have left (what may be replaced with the new set); `.cache`
    holds the face pack and the manifest (carried into the new set) and the run stamp (written again after it)."""
    return name == CACHE_DIR or (not name.startswith(".") and name.endswith((".pdf", ".png")))


def _write_charts(game, out: Path, paper: str, progress, cache: cache_mod.Cache, old_dir: Path,
                  previous: dict) -> tuple[list[Path], dict]:
    todo = charts(game, paper, progress, cache)
    total = len(todo) + 1
    fixed = fixed_key(paper)
    memo: dict = {}
    manifest: dict = {}
    written: list[Path] = []
    for step, chart in enumerate(todo):
        if progress:
            progress(chart.stage, step, total)
        key = cache_mod.key(fixed, chart.name, chart.code(), [reads.fingerprint(x) for x in chart.inputs])
        entry = _carried(previous.get(chart.name), key, old_dir / chart.name, out / chart.name,
                         lambda e: isinstance(e.get("reads"), list)
                         and reads.digest(game, e["reads"], chart.inputs, memo) == e.get("reads_digest"))
        if entry is None:
            view = reads.Watched(game, chart.inputs)
            chart.draw(view, out / chart.name, *chart.inputs)
            seen = view.reads
            entry = {"key": key, "reads": seen, "reads_digest": reads.digest(game, seen, chart.inputs, memo),
                     "sha256": _sha256(out / chart.name), "drawn": True}
        elif chart.name == COUNTER_SHEETS:
            cache.keep_all()  # the faces of the sheet carried: kept for the next run that draws one
        manifest[chart.name] = entry
        written.append(out / chart.name)
    if progress:
        progress("previews", len(todo), total)
    for pv in PREVIEWS:
        key = cache_mod.key(fixed, pv.name, manifest[pv.source]["sha256"], pv.page, PREVIEW_DPI)
        entry = _carried(previous.get(pv.name), key, old_dir / pv.name, out / pv.name, lambda e: True)
        if entry is None:
            render_preview(out / pv.source, pv.page, out / pv.name, PREVIEW_DPI)
            entry = {"key": key, "sha256": _sha256(out / pv.name), "drawn": True}
        manifest[pv.name] = entry
        written.append(out / pv.name)
    if progress:
        progress("charts", total, total)
    return written, manifest


def _carried(entry: Optional[dict], key: str, old: Path, new: Path, same_reads) -> Optional[dict]:
    """The previous run's entry, marked carried, once its file is in the new set; None: draw it."""
    if not entry or entry.get("key") != key or not same_reads(entry):
        return None
    try:
        if _sha256(old) != entry.get("sha256"):  # edited or damaged since: never carry it
            return None
        try:
            os.link(old, new)
        except OSError:
            shutil.copyfile(old, new)
    except OSError:
        return None
    return {**entry, "drawn": False}


@functools.lru_cache(maxsize=4)
def fixed_key(paper: str) -> str:
    """What every chart depends on besides the game: hexforge's own source and the versions of the
    libraries that shape the bytes (as the run stamp has them), the font files, reportlab's settings,
    the zlib that compresses the streams, the paper and SOURCE_DATE_EPOCH."""
    from reportlab import rl_config
    from compiler.render.counters import FONT_DIR
    from compiler.stamp import toolchain_digest
    settings = sorted((k, v) for k, v in vars(rl_config).items()
                      if not k.startswith("_") and isinstance(v, (str, int, float, bool, type(None))))
    fonts = sorted(Path(FONT_DIR).glob("*.ttf")) if FONT_DIR else []
    return cache_mod.key(MANIFEST_FORMAT, toolchain_digest(), cache_mod.files_fingerprint(fonts), settings,
                         zlib.ZLIB_RUNTIME_VERSION, paper, os.environ.get("SOURCE_DATE_EPOCH", ""))


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _read_manifest(path: Path) -> dict:
    """The previous run's manifest's files; {} if there is none or it is not one this code wrote."""
    try:
        if path.stat().st_size > MANIFEST_MAX_BYTES:
            return {}
        data = json.loads(path.read_text(encoding="utf-8"))
        files = data["files"] if data.get("format") == MANIFEST_FORMAT else {}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}
    if not isinstance(files, dict):
        return {}
    return {k: v for k, v in files.items() if isinstance(k, str) and isinstance(v, dict)
            and isinstance(v.get("key"), str) and isinstance(v.get("sha256"), str)
            and (isinstance(v.get("reads"), list) or "reads" not in v)}
