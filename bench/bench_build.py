"""Benchmark: a full module build and a no-change rebuild of the largest game, beside the bare cost
of encoding the same images and zipping them, all in one run (medians of N runs).

    python bench/bench_build.py [source/<game>] [--runs N]

"bare" renders every board, counter and chart image once (untimed), then times only what any
builder must do with them: PNG-encode each image and write the zip. A cold build's peak memory is
measured in a child process (ru_maxrss).
"""
from __future__ import annotations

import argparse
import io
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from common import ROOT, largest_tree  # noqa: E402  (puts the repository on sys.path)

from compiler.render import boards, counters  # noqa: E402
from compiler.render.layout import COUNTER_PX  # noqa: E402
from compiler.vassal import charts as vcharts  # noqa: E402
from compiler.vassal.build import build_module  # noqa: E402
from validator.source.loader import load_game  # noqa: E402



def rendered_images(game) -> list:
    imgs = [boards.render_board(game, b.id) for b in game.grid.boards]
    for u in game.units:
        imgs.append(counters.counter_image(game, u, "front", COUNTER_PX))
        if u.steps > 1:
            imgs.append(counters.counter_image(game, u, "back", COUNTER_PX))
    imgs += [counters.marker_image(game, m, COUNTER_PX) for m in game.markers]
    imgs += [vcharts.table_image(t) for t in game.tables]
    return imgs


def bare(imgs) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for i, im in enumerate(imgs):
            z.writestr(zipfile.ZipInfo(f"images/{i}.png"), boards.png_bytes(im))


def peak_rss_mb(tree: Path) -> float:
    code = ("import resource, sys, tempfile; sys.path.insert(0, %r)\n"
            "from validator.source.loader import load_game\nfrom compiler.vassal.build import build_module\n"
            "g, _ = load_game(%r)\nbuild_module(g, tempfile.mkdtemp())\n"
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)") % (str(ROOT), str(tree))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return int(out.split()[-1]) / 1024


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("tree", nargs="?", type=Path)
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    tree = a.tree or largest_tree()
    game, _ = load_game(tree)
    imgs = rendered_images(game)
    times = {"bare encode+zip": [], "full build": [], "no-change rebuild": []}
    for _ in range(a.runs):
        t0 = time.perf_counter()
        bare(imgs)
        times["bare encode+zip"].append(time.perf_counter() - t0)
        out = Path(tempfile.mkdtemp())
        t0 = time.perf_counter()
        build_module(game, out)
        times["full build"].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        build_module(game, out)
        times["no-change rebuild"].append(time.perf_counter() - t0)
        shutil.rmtree(out)
    base = statistics.median(times["bare encode+zip"])
    full = statistics.median(times["full build"])
    print(f"tree: {tree.relative_to(ROOT) if tree.is_relative_to(ROOT) else tree} ({len(imgs)} images), "
          f"{a.runs} runs, medians")
    for name, ts in times.items():
        m = statistics.median(ts)
        print(f"  {name:<18} {m:7.3f} s   {m / base:5.2f}x bare   {100 * m / full:6.1f}% of full build")
    print(f"  peak memory of a cold build: {peak_rss_mb(tree):.0f} MB "
          f"(one board image is {imgs[0].width}x{imgs[0].height})")


if __name__ == "__main__":
    main()
