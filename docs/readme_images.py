"""Regenerate the README's pictures from the bundled games (python docs/readme_images.py).

A board crop with one scenario's set-up placed the way the VASSAL module places it, the
chart previews that `hexforge charts` writes, and a map picture of `hexforge audit --report`. Uses only the project's public functions.
"""
from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from compiler.charts.build import build_charts  # noqa: E402
from compiler.render.boards import render_board  # noqa: E402
from compiler.render.counters import counter_image  # noqa: E402
from compiler.render.layout import COUNTER_PX, layout_for  # noqa: E402
from validator.source.loader import load_game  # noqa: E402

OUT = ROOT / "docs" / "images"


def board_with_setup(game_id: str, scenario_id: str, board_id: str, name: str) -> None:
    game, _ = load_game(ROOT / "source" / game_id)
    board = game.grid.board(board_id)
    lay = layout_for(game, board)
    img = render_board(game, board_id).convert("RGB")
    size = COUNTER_PX  # as the module draws them
    sc = game.scenario(scenario_id)
    placed = []
    for grp in sc.setup:
        h = grp.location.hex
        if not h or game.grid.board_of(h) != board_id:
            continue
        c = lay.centre_of(h)
        if c is None:
            continue
        for k, p in enumerate(grp.units):
            u = game.unit(p.unit)
            face = "back" if "reduced" in p.state else "front"
            art = counter_image(game, u, face, size).convert("RGB")
            x, y = int(c[0] - size / 2 + 4 * k), int(c[1] - size / 2 - 4 * k)
            img.paste(art, (x, y))
            placed.append((x, y))
    xs, ys = [p[0] for p in placed], [p[1] for p in placed]
    box = (max(0, min(xs) - size), max(0, min(ys) - size),
           min(img.width, max(xs) + 2 * size), min(img.height, max(ys) + 2 * size))
    crop = img.crop(box)
    crop.thumbnail((1200, 900))
    crop.save(OUT / name, optimize=True)


def joined_boards(game_id: str, name: str) -> None:
    """Every board of a game, side by side as their origins join them (columns joins only)."""
    game, _ = load_game(ROOT / "source" / game_id)
    boards = sorted(game.grid.boards, key=lambda b: b.origin)
    images = [render_board(game, b.id).convert("RGB") for b in boards]
    img = Image.new("RGB", (sum(i.width for i in images), max(i.height for i in images)), "white")
    x = 0
    for i in images:
        img.paste(i, (x, 0))
        x += i.width
    img.thumbnail((1400, 1000))
    img.quantize(colors=128).save(OUT / name, optimize=True)   # flat map colours: a palette keeps it small


def audit_report_picture(name: str) -> None:
    """The map picture `hexforge audit --report` draws for step 13 of the recorded Meuse log (a move across
    the seam of the two boards that goes on through an enemy ZOC): the report's own PNG, copied."""
    import contextlib
    import io

    from compiler.cli_audit import run_audit
    fixtures = ROOT / "tests" / "fixtures" / "vlogs"
    with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stdout(io.StringIO()):
        report = Path(tmp) / "audit"
        run_audit(ROOT / "source" / "meuse", (fixtures / "meuse_violations.vlog",), fixtures / "meuse.vmod",
                  None, False, "text", True, report=report)
        (png,) = report.glob("meuse_violations-finding*-step13.png")
        shutil.copyfile(png, OUT / name)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    audit_report_picture("audit-report-step13.png")
    board_with_setup("ardennes2", "7.3", "B", "ardennes2-7.3-board.png")
    joined_boards("meuse", "meuse-map.png")
    with tempfile.TemporaryDirectory() as tmp:
        for gid, src, dst in (("ardennes2", "counter-sheet-1.png", "ardennes2-counter-sheet.png"),
                              ("bulge", "crt.png", "bulge-crt.png")):
            g, _ = load_game(ROOT / "source" / gid)
            build_charts(g, Path(tmp) / gid)
            shutil.copyfile(Path(tmp) / gid / src, OUT / dst)
    print("wrote", ", ".join(sorted(p.name for p in OUT.glob("*.png"))))


if __name__ == "__main__":
    main()
