"""The author's registration drawn over the author's images (`hexforge art`): every hex's outline, centre
and ID over a board's scan, every cell's box and id over a counter sheet, so the author sees at a glance
whether the grid falls on the printed hexes and counters.
"""
from __future__ import annotations

from PIL import Image, ImageDraw

from validator.source.art import Registration, registration
from validator.source.model import ImageFile

from .art import scaled_board
from .boards import font

GRID_COLOUR = (220, 0, 40)
ID_COLOUR = (0, 40, 200)
REFERENCE_COLOUR = (0, 160, 60)
PREVIEW_MAX_PX = 4096


def preview_scale(image: ImageFile, scale=None) -> float:
    """The scale a preview is drawn at: `scale` if given, else the image's own size up to PREVIEW_MAX_PX."""
    if scale is not None:
        return float(scale)
    return min(1.0, PREVIEW_MAX_PX / max(image.width, image.height, 1))


def grid_preview(game, board_id: str, scale=None) -> Image.Image:
    """The board's image with every hex of its registration drawn over it: outline, centre and ID, and the
    reference hexes' points as art.yaml gives them (a green cross); where the registration gives no grid,
    only the reference points."""
    art = game.board_art(board_id)
    k = preview_scale(art.image, scale)
    img = scaled_board(game.root, art.image, k).convert("RGB")
    d = ImageDraw.Draw(img)
    reg = registration(game, board_id)
    if isinstance(reg, Registration):
        size = max(7, min(18, round(reg.s_minor * k * 0.16)))
        for hid, x, y in reg.centres():
            pts = game.grid.corners(x * k, y * k, reg.s_major * 2 / 3 * k, reg.s_minor / 2 * k)
            d.line(pts + [pts[0]], fill=GRID_COLOUR, width=max(1, round(k * 2)))
            d.ellipse([x * k - 2, y * k - 2, x * k + 2, y * k + 2], fill=GRID_COLOUR)
            d.text((x * k, y * k - reg.s_minor * k * 0.22), hid, fill=ID_COLOUR, font=font(size, True), anchor="mm")
    for ref in art.registration:
        x, y = ref.at[0] * k, ref.at[1] * k
        d.line([(x - 9, y), (x + 9, y)], fill=REFERENCE_COLOUR, width=3)
        d.line([(x, y - 9), (x, y + 9)], fill=REFERENCE_COLOUR, width=3)
        d.text((x + 11, y + 11), ref.hex, fill=REFERENCE_COLOUR, font=font(14, True), anchor="lt")
    return img


def sheet_preview(game, sheet, scale=None) -> Image.Image:
    """A counter sheet with its grid drawn over it: each cell's box and, in it, the id (and face) it shows."""
    k = preview_scale(sheet.image, scale)
    img = scaled_board(game.root, sheet.image, k).convert("RGB")
    d = ImageDraw.Draw(img)
    named = {(c.row, c.column): c for c in sheet.cells}
    size = max(7, min(14, round(sheet.size[0] * k * 0.11)))
    for r in range(1, sheet.rows + 1):
        for col in range(1, sheet.columns + 1):
            x = sheet.origin[0] + (col - 1) * sheet.pitch[0]
            y = sheet.origin[1] + (r - 1) * sheet.pitch[1]
            box = [x * k, y * k, (x + sheet.size[0]) * k, (y + sheet.size[1]) * k]
            cell = named.get((r, col))
            d.rectangle(box, outline=GRID_COLOUR if cell else (150, 150, 150), width=2)
            if cell is not None:
                label = cell.id + (" (back)" if cell.face == "back" else "")
                d.text(((box[0] + box[2]) / 2, box[3] - 3), label, fill=ID_COLOUR, font=font(size, True), anchor="mb")
    return img
