"""Benchmark `hexforge charts` on the largest game tree, against the bare cost of writing its pages.

    python3 bench/bench_charts.py [--runs 5] [--game source/ardennes2] [--paper a4]

Stages (medians of --runs runs in one process; the first, warm-up run is not counted):
  art            counter_image/marker_image for every distinct face (the bitmaps the sheets embed)
  sheets         the whole counter-sheet PDF (art + layout + mix + marks + compression)
  bare sheets    the same number of pages with the same (pre-rendered) images, one per counter,
                 at fixed positions: no layout, no text, no marks -- the floor for writing them
  aids           tables, TEC, turn track, orders of arrival
  setup cards    every scenario's card (hex plot + lists)
  previews       the two PNG previews
  build_charts   the public entry point end to end, into a new folder (a cold set)
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from common import ROOT, largest_tree  # noqa: E402  (puts the repository on sys.path)

from reportlab.pdfgen import canvas as rl_canvas  # noqa: E402

from compiler.charts import aids, setup, sheets  # noqa: E402
from compiler.charts.build import PREVIEW_DPI, build_charts  # noqa: E402
from compiler.charts.pdf import draw_flate_image  # noqa: E402
from compiler.charts.preview import render_preview  # noqa: E402
from validator.source.loader import load_game  # noqa: E402


def timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--game", type=Path, default=None)
    ap.add_argument("--paper", default="a4")
    a = ap.parse_args()
    root = a.game or largest_tree()
    game, diags = load_game(root)
    if game is None:
        raise SystemExit(f"{root}: does not load ({len(diags)} diagnostics)")
    geo = sheets.geometry(game, a.paper)
    layout = sheets.paginate(game, geo)
    n_pieces = sum(len(s.cells) for s in layout)
    faces = {(c[2].kind, c[2].id) for s in layout for c in s.cells}

    def art():
        r = sheets._Art(game, float(game.counter_size_in), sheets.BLEED_IN)
        for s in layout:
            for _, _, p in s.cells:
                r.get(p, "front")
                r.get(p, "back")

    # the bare floor: same pages, same images, fixed grid, nothing else
    pre = sheets._Art(game, float(game.counter_size_in), sheets.BLEED_IN)
    for s in layout:
        for _, _, p in s.cells:
            pre.get(p, "front")
            pre.get(p, "back")

    def bare(path: Path):
        c = rl_canvas.Canvas(str(path), pagesize=(geo.page_w, geo.page_h), invariant=1, pageCompression=1)
        for s in layout:
            for face in ("front", "back"):
                for i, (_, _, p) in enumerate(s.cells):
                    draw_flate_image(c, pre.get(p, face), 20 + (i % 10) * 50, 20 + (i // 10) * 50, 50, 50)
                c.showPage()
        c.save()

    results: dict[str, list[float]] = {k: [] for k in
                                       ("art", "sheets", "bare sheets", "aids", "setup cards", "previews",
                                        "build_charts")}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        for run in range(a.runs + 1):
            t = {
                "art": timed(art),
                "sheets": timed(lambda: sheets.build_counter_sheets(game, out / "counter-sheets.pdf", a.paper)),
                "bare sheets": timed(lambda: bare(out / "bare.pdf")),
                "aids": timed(lambda: (aids.build_tables(game, out / "tables.pdf", a.paper),
                                       aids.build_tec(game, out / "tec.pdf", a.paper),
                                       aids.build_turn_track(game, out / "turn-track.pdf", a.paper),
                                       aids.build_ooa(game, out / "orders-of-arrival.pdf", a.paper))),
                "setup cards": timed(lambda: [setup.build_setup_card(game, sc, out / f"setup-{i}.pdf", a.paper)
                                              for i, sc in enumerate(game.scenarios)]),
                "previews": timed(lambda: (render_preview(out / "counter-sheets.pdf", 0, out / "a.png", PREVIEW_DPI),
                                           render_preview(out / "tables.pdf", 0, out / "b.png", PREVIEW_DPI))),
                # a new folder each run: a cold set (into the same one, every file would be carried)
                "build_charts": timed(lambda: build_charts(game, out / f"all-{run}", a.paper)),
            }
            if run:  # run 0 warms caches (fonts, imports)
                for k, v in t.items():
                    results[k].append(v)
        pages = len(layout) * 2
        size = (out / "counter-sheets.pdf").stat().st_size
    print(f"game: {root.relative_to(ROOT) if root.is_relative_to(ROOT) else root}  paper: {a.paper}  "
          f"runs: {a.runs} (+1 warm-up)")
    print(f"counters printed: {n_pieces}  distinct counters: {len(faces)}  sheet pages: {pages}  "
          f"counter-sheets.pdf: {size / 1e6:.1f} MB  scenarios: {len(game.scenarios)}")
    print()
    print(f"{'stage':<14} {'median s':>9} {'min s':>8} {'max s':>8}")
    for k, v in results.items():
        print(f"{k:<14} {statistics.median(v):>9.3f} {min(v):>8.3f} {max(v):>8.3f}")
    med = {k: statistics.median(v) for k, v in results.items()}
    print()
    print(f"sheets vs bare sheets: layout/marks/text overhead = "
          f"{med['sheets'] - med['art'] - med['bare sheets']:.3f} s "
          f"(sheets {med['sheets']:.3f} = art {med['art']:.3f} + writing {med['sheets'] - med['art']:.3f}; "
          f"bare writing {med['bare sheets']:.3f})")


if __name__ == "__main__":
    main()
