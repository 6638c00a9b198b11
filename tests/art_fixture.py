"""Makes tests/fixtures/meuse-art: source/meuse with its own art, as an author would have it.

    python tests/art_fixture.py        # (re)writes the tree's YAML copies, art.yaml and art/*

The boards are hexforge's drawings of Crossing the Meuse scaled by 1.37 (hexes 84.94 px apart across
columns, 98.64 px down a column, not the drawn 62 x 72) onto a paper margin of a different width on every
side, as a scan is: board A as a JPEG, board B as a palette PNG. Every unit's two faces are cells of one
counter-sheet image (88 px counters at a 94 px pitch, from an origin of (18, 26)), the turn marker its own
PNG. art.yaml registers board A by two reference hexes and board B by one hex and the spacings, the
centres measured to the half pixel as an author reads them off an image viewer. The committed files are
what this wrote; tests compare what hexforge makes of them, not their bytes.
"""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from compiler.render.boards import font, render_board  # noqa: E402
from compiler.render.counters import counter_image, marker_image  # noqa: E402
from compiler.render.layout import layout_for  # noqa: E402
from validator.source.loader import load_game  # noqa: E402

SOURCE = ROOT / "source" / "meuse"
TREE = ROOT / "tests" / "fixtures" / "meuse-art"
SCALE = 1.37
PAPER = (236, 229, 208)
# board -> (left, top, right, bottom) margin in px, and how it is saved
BOARDS = {"A": ((57, 83, 31, 45), "board-a.jpg"), "B": ((24, 40, 66, 71), "board-b.png")}
COUNTER, PITCH, ORIGIN, COLUMNS = 88, 94, (18, 26), 10
GOLD = (212, 175, 55)         # every counter of the sheet has a gold frame: art, not hexforge's drawing


def _scan(game, board_id: str) -> Image.Image:
    drawn = render_board(game, board_id)
    w, h = drawn.size
    scaled = drawn.resize((round(w * SCALE), round(h * SCALE)), Image.LANCZOS)
    (left, top, right, bottom), _ = BOARDS[board_id]
    out = Image.new("RGB", (scaled.width + left + right, scaled.height + top + bottom), PAPER)
    out.paste(scaled, (left, top))
    ImageDraw.Draw(out).text((left + 8, max(2, top // 2 - 8)), f"Crossing the Meuse - Board {board_id}",
                             fill=(70, 50, 30), font=font(14, True))
    return out


def measured(game, board_id: str, hex_id: str) -> tuple[float, float]:
    """A drawn hex centre where it lands in the scan (pixel centres: i + 0.5 -> (i + 0.5) * SCALE), to the
    half pixel as an author measures it."""
    x, y = layout_for(game, game.grid.board(board_id)).centre_of(hex_id)
    (left, top, _, _), _ = BOARDS[board_id]
    return (round(2 * (left + (x + 0.5) * SCALE - 0.5)) / 2, round(2 * (top + (y + 0.5) * SCALE - 0.5)) / 2)


def _sheet(game) -> tuple[Image.Image, list[list[str]]]:
    units = list(game.units)
    per_row = COLUMNS
    rows_front = -(-len(units) // per_row)
    rows = 2 * rows_front
    img = Image.new("RGB", (ORIGIN[0] * 2 + PITCH * per_row, ORIGIN[1] + 30 + PITCH * rows), (214, 205, 180))
    cells: list[list[str]] = [[] for _ in range(rows)]
    for i, u in enumerate(units):
        r, c = divmod(i, per_row)
        for face, row in (("front", r), ("back", r + rows_front)):
            x, y = ORIGIN[0] + c * PITCH, ORIGIN[1] + row * PITCH
            img.paste(counter_image(game, u, face, COUNTER), (x, y))
            ImageDraw.Draw(img).rectangle([x, y, x + COUNTER - 1, y + COUNTER - 1], outline=GOLD, width=4)
            cells[row].append(u.id)
    return img, cells


def _art_yaml(game, cells: list[list[str]], rows_front: int) -> str:
    a1, a2 = measured(game, "A", "A1.01"), measured(game, "A", "A16.20")
    b1 = measured(game, "B", "B1.01")

    def row(ids):
        return "[" + ", ".join(ids) + "]"
    fronts = "\n".join(f"      - {row(r)}" for r in cells[:rows_front])
    backs = "\n".join(f"      - {row('{unit: %s, face: back}' % i for i in r)}" for r in cells[rows_front:])
    return f"""# The author's own art (docs/source-format.md, art.yaml): two board scans and one counter sheet.
boards:
  - board: A
    image: art/board-a.jpg
    registration:                       # two hexes far apart: the spacings follow
      - {{hex: A1.01, at: [{a1[0]:g}, {a1[1]:g}]}}
      - {{hex: A16.20, at: [{a2[0]:g}, {a2[1]:g}]}}
  - board: B
    image: art/board-b.png
    registration:
      - {{hex: B1.01, at: [{b1[0]:g}, {b1[1]:g}]}}
    spacing: {{columns: {62 * SCALE:g}, rows: {72 * SCALE:g}}}   # px from one column to the next, one row to the next
counters:
  - {{marker: turn, front: art/turn-marker.png}}
sheets:
  - image: art/counters.png
    origin: [{ORIGIN[0]}, {ORIGIN[1]}]                 # the first cell's top-left corner
    pitch: [{PITCH}, {PITCH}]                   # from one cell to the next, across and down
    size: [{COUNTER}, {COUNTER}]                    # the counter within its cell
    columns: {COLUMNS}
    rows: {2 * rows_front}
    cells:                              # fronts, then the backs in the same order
{fronts}
{backs}
"""


def main() -> None:
    game, _ = load_game(SOURCE)
    if TREE.exists():
        shutil.rmtree(TREE)
    shutil.copytree(SOURCE, TREE, ignore=shutil.ignore_patterns("*.md"))
    art = TREE / "art"
    art.mkdir()
    for bid, (_, name) in BOARDS.items():
        scan = _scan(game, bid)
        if name.endswith(".jpg"):
            scan.save(art / name, "JPEG", quality=82, optimize=True)
        else:
            scan.quantize(colors=96, method=Image.Quantize.MEDIANCUT).save(art / name, "PNG", optimize=True)
    sheet, cells = _sheet(game)
    sheet.save(art / "counters.png", "PNG", optimize=True)
    marker_image(game, game.markers[0], COUNTER).save(art / "turn-marker.png", "PNG", optimize=True)
    (TREE / "art.yaml").write_text(_art_yaml(game, cells, len(cells) // 2), encoding="utf-8")


if __name__ == "__main__":
    main()
