"""The author's art at the size authors have it: a 10 000 x 7 000 board scan, as JPEG and as PNG, whole
processes (`hexforge check`, `build`, `charts`) with their wall and CPU time and peak memory, beside the
same tree with the board drawn (no art.yaml) in the same run.

    python bench/bench_art.py [--runs 3] [--keep DIR]

The synthetic tree is tests/fixtures/mini with its one board made 60 columns x 36 rows, and an image of
10 000 x 7 000 px (70 million pixels, under Pillow's decompression-bomb limit) registered to it: a noise
texture under the hex grid, so the JPEG and the PNG are as large as real scans (about 19 and 140 MB).
Medians of --runs, interleaved round by round; peak RSS is the process's own (getrusage, KiB / 1024).
What it shows: the build copies the scan into the module a chunk at a time (its peak memory is the drawn
tree's, whatever the scan's size), a rebuild after a change the board does not show re-encodes nothing,
and the set-up cards decode a JPEG scan at a reduced DCT scale (a PNG has none: decoded whole).
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from common import ROOT
from bench_cli import Runner, edit_one_unit, fresh_dir, hexforge_cmd

WIDTH, HEIGHT = 10_000, 7_000
COLUMNS, ROWS = 60, 36
COL_SPACING = 162.0                    # 60 columns: 9 720 px of the 10 000
ROW_SPACING = COL_SPACING * 2 / 3 ** 0.5


def scan(path: Path, fmt: str) -> None:
    """A 10 000 x 7 000 map-like image: a colour noise texture under the hex grid of the registration."""
    from PIL import Image, ImageDraw
    noise = [Image.effect_noise((WIDTH, HEIGHT), s).point(lambda v, o=o: min(255, v // 3 + o))
             for s, o in ((18, 150), (14, 140), (10, 95))]
    img = Image.merge("RGB", noise)
    d = ImageDraw.Draw(img)
    for c in range(COLUMNS):
        for r in range(ROWS):
            x = 140 + c * COL_SPACING
            y = 140 + r * ROW_SPACING - (ROW_SPACING / 2 if c % 2 else 0)     # `shifted: odd`: column 1 lower
            hw, hh = COL_SPACING * 2 / 3, ROW_SPACING / 2
            pts = [(x + hw, y), (x + hw / 2, y + hh), (x - hw / 2, y + hh), (x - hw, y), (x - hw / 2, y - hh),
                   (x + hw / 2, y - hh)]
            d.line(pts + [pts[0]], fill=(40, 40, 40), width=3)
    if fmt == "JPEG":
        img.save(path, "JPEG", quality=90)
    else:
        img.save(path, "PNG", compress_level=6)


def tree(where: Path, image: Path | None) -> Path:
    """tests/fixtures/mini with one 60 x 36 board, and art.yaml registering `image` to it (none: drawn)."""
    t = where / ("drawn" if image is None else image.suffix[1:])
    shutil.copytree(ROOT / "tests" / "fixtures" / "mini", t)
    (t / "map.yaml").write_text("scheme: column-row\norientation: columns\nshifted: odd\n"
                                f"boards:\n  - {{id: main, columns: [1, {COLUMNS}], rows: [1, {ROWS}]}}\n")
    if image is not None:
        (t / "art").mkdir()
        shutil.copy(image, t / "art" / image.name)
        # hex 0101 at (140, 140); column 2 is the shifted one (shifted: odd counts from column 1 = index 0)
        (t / "art.yaml").write_text(f"boards:\n  - board: main\n    image: art/{image.name}\n"
                                    f"    registration: [{{hex: '0101', at: [140, 140]}}]\n"
                                    f"    spacing: {{columns: {COL_SPACING}, rows: {ROW_SPACING:.4f}}}\n")
    return t


def main() -> None:
    if sys.argv[1:2] == ["--scan"]:
        scan(Path(sys.argv[2]), sys.argv[3])
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--keep", type=Path, default=None, help="make the trees here and keep them")
    args = ap.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="hexforge-bench-art-"))
    work.mkdir(parents=True, exist_ok=True)
    images = {}
    for fmt, name in (("JPEG", "scan.jpg"), ("PNG", "scan.png")):
        images[fmt] = work / name
        if not images[fmt].exists():
            # in a process of its own: a child forked from a bench holding the 210 MB image would count
            # it in its own peak RSS (the pages it shares until it execs)
            subprocess.run([sys.executable, __file__, "--scan", str(images[fmt]), fmt], check=True)
    trees = {"drawn": tree(work, None), "jpeg": tree(work, images["JPEG"]), "png": tree(work, images["PNG"])}
    r = Runner(args.runs, work / "cache")
    hf = hexforge_cmd()
    steps = []
    for name, t in trees.items():
        steps += [(f"check {name}", hf + ["check", str(t)], None),
                  (f"build {name}", hf + ["build", str(t), "--out", str(t / "out")], fresh_dir(t)),
                  (f"build {name}, one unit changed", hf + ["build", str(t), "--out", str(t / "out")],
                   edit_one_unit(t))]
    steps += [("charts drawn", hf + ["charts", str(trees["drawn"]), "--out", str(trees["drawn"] / "charts")],
               lambda i: shutil.rmtree(trees["drawn"] / "charts", ignore_errors=True)),
              ("charts jpeg", hf + ["charts", str(trees["jpeg"]), "--out", str(trees["jpeg"] / "charts")],
               lambda i: shutil.rmtree(trees["jpeg"] / "charts", ignore_errors=True)),
              ("charts png", hf + ["charts", str(trees["png"]), "--out", str(trees["png"] / "charts")],
               lambda i: shutil.rmtree(trees["png"] / "charts", ignore_errors=True))]
    got = r.rounds(steps, ROOT)
    print(f"scan: {WIDTH} x {HEIGHT} px; JPEG {images['JPEG'].stat().st_size / 2**20:.1f} MiB, "
          f"PNG {images['PNG'].stat().st_size / 2**20:.1f} MiB; medians of {args.runs}")
    print("| command | wall s | CPU s | peak MB |")
    print("|---|---|---|---|")
    for name, (wall, cpu, mb) in got.items():
        print(f"| {name} | {wall:.2f} | {cpu:.2f} | {mb:.0f} |")
    for name, t in trees.items():
        vmod = t / "out" / "mini.vmod"
        if vmod.exists():
            print(f"module ({name}): {vmod.stat().st_size / 2**20:.1f} MiB")
    if args.keep is None:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
