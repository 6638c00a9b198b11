"""The Reinforcements board: one labelled holding box per side, turn and entry (and set-up boxes).

Each box is a VASSAL Zone (``ZonedGrid`` > ``Zone``) so a piece in it reports the box's name as its
location. Pieces are stacked at the box centre.
"""
from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from compiler.render.boards import font
from validator.positions.scenario_position import HoldingBox, holding_box_name

from .setup import BoxKey

BOX_W, BOX_H = 170, 120
HEAD_W = 190
PAD = 10


@dataclass(frozen=True)
class BoxGeom:
    key: BoxKey
    name: str
    rect: tuple[int, int, int, int]   # x0, y0, x1, y1

    @property
    def centre(self) -> tuple[int, int]:
        x0, y0, x1, y1 = self.rect
        return (x0 + x1) // 2, (y0 + y1) // 2 + 10

    @property
    def path(self) -> str:
        x0, y0, x1, y1 = self.rect
        return f"{x0},{y0};{x1},{y0};{x1},{y1};{x0},{y1}"


def _side_name(game, sid: str) -> str:
    s = game.side(sid)
    return s.name if s else sid


def _turn_label(game, tid) -> str:
    if tid is None:
        return "Set-up"
    return f"Turn {tid}"


def box_name(game, key: BoxKey) -> str:
    """The box's zone name: the name the scenario's position gives the box (one naming for module and log)."""
    return holding_box_name(game, HoldingBox(key.side, key.turn, key.label))


def layout(game, keys: list[BoxKey]) -> tuple[tuple[int, int], list[BoxGeom]]:
    rows: list[tuple[str, object]] = []
    cols: dict[tuple[str, object], list[BoxKey]] = {}
    for k in keys:
        rk = (k.side, k.turn)
        if rk not in cols:
            rows.append(rk)
            cols[rk] = []
        cols[rk].append(k)
    out = []
    maxc = max((len(v) for v in cols.values()), default=1)
    for i, rk in enumerate(rows):
        y0 = PAD + i * (BOX_H + PAD)
        for j, k in enumerate(cols[rk]):
            x0 = HEAD_W + PAD + j * (BOX_W + PAD)
            out.append(BoxGeom(k, box_name(game, k), (x0, y0, x0 + BOX_W, y0 + BOX_H)))
    w = HEAD_W + PAD + maxc * (BOX_W + PAD)
    h = PAD + max(len(rows), 1) * (BOX_H + PAD)
    return (w, h), out


def render(game, keys: list[BoxKey]) -> Image.Image:
    (w, h), geoms = layout(game, keys)
    img = Image.new("RGB", (w, h), (245, 242, 232))
    d = ImageDraw.Draw(img)
    done_rows = set()
    for g in geoms:
        rk = (g.key.side, g.key.turn)
        x0, y0, x1, y1 = g.rect
        if rk not in done_rows:
            done_rows.add(rk)
            t = game.turn(g.key.turn) if g.key.turn else None
            head = _side_name(game, g.key.side) + "\n" + _turn_label(game, g.key.turn)
            if t is not None and t.date:
                head += f"\n{t.date}" + (f" {t.time}" if t.time else "")
            d.multiline_text((PAD, y0 + 8), head, fill=(0, 0, 0), font=font(14, True))
        d.rectangle([x0, y0, x1, y1], outline=(60, 60, 60), width=2, fill=(255, 255, 255))
        f = font(10, True)
        lines = _wrap(d, g.key.label, f, BOX_W - 8)
        if len(lines) > 3:
            lines = lines[:3]
            lines[2] = lines[2].rstrip() + "…"
        for i, line in enumerate(lines):
            d.text((x0 + BOX_W // 2, y0 + 10 + 12 * i), line, fill=(0, 0, 0), font=f, anchor="mm")
    return img


def _wrap(d, text: str, f, width: int) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        t = (line + " " + word).strip()
        if line and d.textlength(t, font=f) > width:
            lines.append(line)
            line = word
        else:
            line = t
    if line:
        lines.append(line)
    return lines
