"""`hexforge art`: the author's art with the registration drawn over it, one PNG per board image and per
counter sheet (compiler/render/previews.py), so a misregistered grid shows at a glance.

Each picture is written atomically into the output folder; nothing else there is touched. A board whose
image cannot be read is skipped (check's findings say why); one whose registration gives no grid still
gets its picture, with the reference points marked.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from compiler.atomic import write_atomic
from compiler.render.boards import png_bytes
from compiler.render.previews import grid_preview, preview_scale, sheet_preview
from compiler.vassal.pieces import safe_name


def write_previews(game, out_dir: Path, scale: Optional[float] = None) -> list[str]:
    """Write the previews; one line of what was written per picture."""
    out_dir = Path(out_dir)
    lines = []
    for b in game.art.boards:
        if not b.image.usable or game.board_art(b.board) is not b or game.grid.board(b.board) is None:
            continue
        k = preview_scale(b.image, scale)
        dest = out_dir / f"board-{safe_name(b.board)}.png"
        _write(dest, png_bytes(grid_preview(game, b.board, scale)))
        lines.append(f"wrote {dest} (board {b.board}: {b.image.path}, {b.image.width} x {b.image.height} px, "
                     f"scale {k:.3g})")
    for i, s in enumerate(game.art.sheets, 1):
        if not s.image.usable:
            continue
        dest = out_dir / f"sheet-{i}.png"
        _write(dest, png_bytes(sheet_preview(game, s, scale)))
        lines.append(f"wrote {dest} (sheet {i}: {s.image.path}, {s.rows} x {s.columns} cells, {len(s.cells)} named)")
    return lines


def _write(dest: Path, data: bytes) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(dest, data)
