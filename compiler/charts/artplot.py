"""The author's art on a set-up card's plot: each board's image under the set-up, clipped to that board's
hexes, and the counters' own faces.

The plot (setup.HexMap) places hexes on its own grid; a board's image is laid under it by the straight
map between the two, taken from the board's hexes: their centres in the image (the registration,
validator/source/art.py) and on the page. The image is decoded at about PLOT_DPI for the size it is drawn
(compiler/render/art.py), so a large scan costs the card only what it shows.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Optional

from reportlab.lib.utils import ImageReader

from validator.source.art import Registration, registration

from ..render.art import face_image, on_white, scaled_board

PLOT_DPI = 150
FACE_PX = 96                   # a face on the card: a mini counter is at most 26 points (108 px at 300 dpi)
OUTSIDE_VEIL = 0.55            # white laid over the hexes outside the play area


def art_boards(game, hexes) -> dict[str, Registration]:
    """Board id -> registration, for the boards among `hexes` whose art can be shown."""
    out = {}
    for b in {game.grid.board_of(h) for h in hexes}:
        reg = registration(game, b) if b is not None else None
        if isinstance(reg, Registration) and game.board_art(b).image.usable:
            out[b] = reg
    return out


def _axis(pairs: list[tuple[float, float]]) -> Optional[tuple[float, float]]:
    """(scale, offset) of page = scale * image + offset along one axis, from points seen in both."""
    lo, hi = min(pairs), max(pairs)
    if hi[0] == lo[0]:
        return None
    k = (hi[1] - lo[1]) / (hi[0] - lo[0])
    return k, lo[1] - k * lo[0]


def _transform(hm, reg: Registration, hexes: list[str]):
    """((ax, bx), (ay, by)) mapping the board image's pixels onto the plot's page coordinates."""
    xs, ys = [], []
    for h in hexes:
        p = hm.game.grid.parse(h)
        ix, iy = reg.centre(p.column, p.row)
        px, py = hm._xy(h)
        xs.append((ix, px))
        ys.append((iy, py))
    ax, ay = _axis(xs), _axis(ys)
    if ax is None or ay is None:                 # one line of hexes: the other axis at the same scale
        k = (ax or ay)[0] if (ax or ay) else 1.0
        ax = ax or (k, xs[0][1] - k * xs[0][0])
        ay = ay or (-abs(k), ys[0][1] + abs(k) * ys[0][0])
    return ax, ay


@lru_cache(maxsize=4)
def _picture(root: str, image, scale: float):
    return ImageReader(on_white(scaled_board(root, image, scale)))


def draw_board_art(c, hm, R: float, regs: dict[str, Registration]) -> None:
    """Each board's image, clipped to its hexes on the plot; the hexes outside the play area veiled."""
    game = hm.game
    for board_id, reg in sorted(regs.items()):
        hexes = [h for h in hm.pos if game.grid.board_of(h) == board_id and game.grid.exists(h)]
        if not hexes:
            continue
        (ax, bx), (ay, by) = _transform(hm, reg, hexes)
        image = game.board_art(board_id).image
        scale = min(1.0, abs(ax) * PLOT_DPI / 72)
        c.saveState()
        c.clipPath(hm._path(c, hexes, R / 0.98), stroke=0, fill=0)
        w, h = image.width * ax, image.height * ay
        c.drawImage(_picture(game.root, image, round(scale, 4)), bx, by + h, w, -h)
        c.restoreState()
    outside = [h for h in hm.shown if h in hm.pos and h not in hm.play and game.grid.board_of(h) in regs]
    if outside:
        c.saveState()
        c.setFillColorRGB(1, 1, 1)
        c.setFillAlpha(OUTSIDE_VEIL)
        c.drawPath(hm._path(c, outside, R / 0.98), stroke=0, fill=1)
        c.restoreState()


@lru_cache(maxsize=512)
def _face(root: str, face):
    return ImageReader(on_white(face_image(root, face, FACE_PX)))


def draw_face(c, game, unit, state: tuple, x: float, y: float, cs: float) -> bool:
    """The unit's own face (its back where it is set up reduced) as a `cs`-point counter centred at (x, y);
    False where art.yaml gives it none."""
    face = game.face_art("unit", unit.id, "back" if "reduced" in state else "front")
    if face is None:
        return False
    c.drawImage(_face(game.root, face), x - cs / 2, y - cs / 2, cs, cs)
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(0.25)
    c.rect(x - cs / 2, y - cs / 2, cs, cs, stroke=1, fill=0)
    return True
