"""`hexforge audit --report DIR`: one self-contained HTML page per log, with a map picture per violation.

The page holds the findings (code, rule, step, hexes, units), a timeline of the log's steps, and a
histogram of every die button (inline SVG). Each violation that names hexes gets a PNG of the map
around them, cropped from the board renderer's picture, the hexes ringed and the units standing
there at that step labelled. All text from the log is escaped; every file is written atomically,
the page last, so a page never points at a picture that is not there.
"""
from __future__ import annotations

import html
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Optional, Protocol, Sequence

from PIL import Image, ImageDraw

from validator.model import Game
from validator.position import Position
from validator.record import GameRecord, Moved
from validator.record_text import events_text, namer
from validator.referee.chain import positions_at

from .atomic import write_atomic
from .render.boards import png_bytes, render_board
from .render.layout import DX, DY, layout_for

CROP_MARGIN_HEXES = 2                 # hexes of map shown around the ringed ones
MAX_CROP_PX = 1200                    # a crop never grows past this (far-apart hexes: the first ones win)
MAX_TIMELINE_STEPS = 5000             # a longer log shows its first steps and says how many are left out
RING = (230, 0, 200)                  # magenta: apart from the red victory-hex rings
ARROW = (20, 60, 220)                 # the move drawn: blue, from where it started to where it ended
MAX_MOVES_DRAWN = 6

BoardRenderer = Callable[[Game, str], Image.Image]


class ReportFinding(Protocol):
    """A referee finding or a combat judgement: what the page shows of it."""
    code: Optional[str]
    severity: str
    rule: Optional[str]
    message: str
    hexes: tuple[str, ...]
    units: tuple[str, ...]
    step: Optional[int]


# -- positions by step --
def positions_by_step(record: GameRecord) -> dict[int, Position]:
    """The position after each step; an undo step restores the position before the step it undoes."""
    return positions_at(record, (s.index for s in record.steps))


def step_moves(record: GameRecord, step: Optional[int], hexes: Sequence[str]) -> list[tuple[str, str]]:
    """The drags of `step` (hex to hex) that touch `hexes`, or all of that step's drags if none does."""
    if step is None or not 1 <= step <= len(record.steps):
        return []
    s = record.steps[step - 1]
    moves = list(dict.fromkeys((e.src.hex, e.dst.hex) for e in s.events
                               if isinstance(e, Moved) and e.src.hex and e.dst.hex and e.src.hex != e.dst.hex))
    touching = [m for m in moves if m[0] in hexes or m[1] in hexes]
    return (touching or moves)[:MAX_MOVES_DRAWN]


# -- pictures --
def map_picture(game: Game, hexes: Sequence[str], position: Optional[Position],
                board: Callable[[str], Image.Image],
                moves: Sequence[tuple[str, str]] = ()) -> Optional[Image.Image]:
    """The map around `hexes` (on the first one's board), the hexes ringed and `moves` drawn as arrows;
    None if no hex is on a board."""
    grid = game.grid
    first = next((h for h in hexes if grid.board_of(h)), None)
    if first is None:
        return None
    board_id = grid.board_of(first)
    lay = layout_for(game, next(b for b in grid.boards if b.id == board_id))
    centres = [(h, c) for h in hexes if (c := lay.centre_of(h)) is not None]
    arrows = [(a, b) for s, d in moves if (a := lay.centre_of(s)) is not None and (b := lay.centre_of(d)) is not None]
    points = [c for _, c in centres] + [p for a in arrows for p in a]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    x0 = max(0, min(xs) - CROP_MARGIN_HEXES * DX)
    y0 = max(0, min(ys) - CROP_MARGIN_HEXES * DY)
    w, h = lay.size
    x1 = min(w, max(xs) + CROP_MARGIN_HEXES * DX, x0 + MAX_CROP_PX)
    y1 = min(h, max(ys) + CROP_MARGIN_HEXES * DY, y0 + MAX_CROP_PX)
    img = board(board_id).crop((x0, y0, x1, y1)).convert("RGB")
    d = ImageDraw.Draw(img)
    if position is not None:
        _label_units(d, lay, position, (x0, y0, x1, y1))
    r = DY * 0.45
    for _, (cx, cy) in centres:
        x, y = cx - x0, cy - y0
        d.ellipse([x - r, y - r, x + r, y + r], outline=RING, width=5)
    for (ax, ay), (bx, by) in arrows:
        _arrow(d, (ax - x0, ay - y0), (bx - x0, by - y0))
    return img


def _arrow(d: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float]) -> None:
    """A line from a to b with a filled head at b."""
    d.line([a, b], fill=ARROW, width=4)
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    head = min(DY * 0.35, length)
    base = (b[0] - ux * head, b[1] - uy * head)
    d.polygon([b, (base[0] - uy * head * 0.5, base[1] + ux * head * 0.5),
               (base[0] + uy * head * 0.5, base[1] - ux * head * 0.5)], fill=ARROW)


def _label_units(d: ImageDraw.ImageDraw, lay, position: Position, box: tuple[int, int, int, int]) -> None:
    """The units standing in each hex of the crop at that step, up to three per hex, by unit id."""
    x0, y0, x1, y1 = box
    for hid, stack in position.stacks().items():
        c = lay.centre_of(hid)
        if c is None or not (x0 <= c[0] < x1 and y0 <= c[1] < y1):
            continue
        units = [u.unit for u in stack if u.kind == "unit"]
        for i, u in enumerate(units[:3]):
            d.text((c[0] - x0 - DX * 0.45, c[1] - y0 - DY * 0.12 + i * 11), u[:14], fill=(0, 0, 0))


# -- the page --
def _e(s: object) -> str:
    return html.escape(str(s), quote=True)


def _findings_html(findings: Sequence[ReportFinding], pictures: dict[int, str]) -> str:
    if not findings:
        return "<p>No findings.</p>"
    rows = []
    for i, f in enumerate(findings):
        pic = f'<br><img src="{_e(pictures[i])}" alt="map around {_e(", ".join(f.hexes))}">' if i in pictures else ""
        rows.append(
            f'<tr class="{_e(f.severity)}" id="finding-{i}"><td>{_e(f.code or "")}</td>'
            f'<td>{_e(f.rule or "")}</td><td>{_e(f.step if f.step is not None else "")}</td>'
            f'<td>{_e(", ".join(f.hexes))}</td><td>{_e(", ".join(f.units))}</td>'
            f'<td>{_e(f.message)}{pic}</td></tr>')
    return ("<table><tr><th>code</th><th>rule</th><th>step</th><th>hexes</th><th>units</th><th>finding</th></tr>"
            + "".join(rows) + "</table>")


def _timeline_html(record: GameRecord, flagged: set[int], name_of) -> str:
    items = []
    for s in record.steps[:MAX_TIMELINE_STEPS]:
        text = ("undo: " if s.undo else "") + (events_text(s, name_of) or "(nothing)")
        who = f" [{_e(s.player)}]" if s.player else ""
        cls = ' class="flagged"' if s.index in flagged else ""
        items.append(f"<li{cls} value=\"{s.index}\">{who} {_e(text)}</li>")
    more = len(record.steps) - MAX_TIMELINE_STEPS
    tail = f"<p>… {more} more steps not shown.</p>" if more > 0 else ""
    return "<ol>" + "".join(items) + "</ol>" + tail


def histogram_svg(stat) -> str:
    """One bar per face, with its count; a flat line at the fair expectation."""
    faces = stat.faces
    if not faces:
        return ""
    top = max(max(faces), 1)
    bw, hgt, pad = 28, 100, 18
    width = pad * 2 + bw * len(faces)
    expected = sum(faces) / len(faces)
    bars = []
    for i, n in enumerate(faces):
        bh = hgt * n / top
        x = pad + i * bw
        bars.append(f'<rect x="{x + 3}" y="{pad + hgt - bh:.1f}" width="{bw - 6}" height="{bh:.1f}" fill="#4a78c0"/>'
                    f'<text x="{x + bw / 2}" y="{pad + hgt + 14}" text-anchor="middle" font-size="11">{i + 1}</text>'
                    f'<text x="{x + bw / 2}" y="{pad + hgt - bh - 3:.1f}" text-anchor="middle" '
                    f'font-size="10">{n}</text>')
    ey = pad + hgt - hgt * expected / top
    line = f'<line x1="{pad}" x2="{width - pad}" y1="{ey:.1f}" y2="{ey:.1f}" stroke="#c03030" stroke-dasharray="4"/>'
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{hgt + pad * 2 + 6}" '
            f'role="img">{"".join(bars)}{line}</svg>')


def _dice_html(stats: Iterable) -> str:
    parts = []
    for s in stats:
        p = f"{s.p_value:.3g}" if s.p_value is not None else "n/a"
        mean = f"{s.mean:.2f}" if s.mean is not None else "n/a"
        who = f" ({_e(s.side)})" if s.side else ""
        undone = f"; undone at steps {_e(', '.join(map(str, s.undone)))}" if s.undone else ""
        parts.append(f"<figure><figcaption>{_e(s.dice)}{who}: {s.rolls} rolls, mean {mean}, "
                     f"chi-square p = {p}{undone}</figcaption>{histogram_svg(s)}</figure>")
    return "".join(parts) or "<p>No die rolls.</p>"


STYLE = ("body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
         "padding:3px 6px;vertical-align:top}tr.error td{background:#fde8e8}tr.warning td{background:#fff4d6}"
         "li.flagged{background:#fde8e8}figure{display:inline-block;margin:0 1em 1em 0}img{max-width:100%}")


def _stem(record: GameRecord) -> str:
    name = Path(record.source).stem or "log"
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name)[:80] or "log"


def write_report(out_dir, game: Game, record: GameRecord, findings: Sequence[ReportFinding], dice_stats: Sequence,
                 board_renderer: Optional[BoardRenderer] = None, name: Optional[str] = None) -> Path:
    """Write `<name>.html` (default: the log's file name) and its pictures into `out_dir`; returns the page."""
    out = Path(out_dir)
    stem = name or _stem(record)
    renderer = board_renderer or render_board
    boards: dict[str, Image.Image] = {}

    def board(bid: str) -> Image.Image:
        if bid not in boards:
            boards[bid] = renderer(game, bid)
        return boards[bid]

    pictured = [(i, f) for i, f in enumerate(findings) if f.severity == "error" and f.hexes]
    positions = positions_at(record, (f.step for _, f in pictured if f.step is not None))
    pictures: dict[int, str] = {}
    for i, f in pictured:
        img = map_picture(game, f.hexes, positions.get(f.step) if f.step is not None else record.start, board,
                          step_moves(record, f.step, f.hexes))
        if img is None:
            continue
        file = f"{stem}-finding{i + 1}-step{f.step if f.step is not None else 0}.png"
        write_atomic(out / file, png_bytes(img))
        pictures[i] = file
    flagged = {f.step for f in findings if f.step is not None}
    title = f"Audit of {Path(record.source).name}: {game.title}"
    page = (f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{_e(title)}</title>"
            f"<style>{STYLE}</style></head><body><h1>{_e(title)}</h1>"
            f"<p>{_e(record.module or 'module not named')} · {_e(record.engine or 'engine not named')} · "
            f"{len(record.steps)} steps · {len(findings)} findings</p>"
            f"<h2>Findings</h2>{_findings_html(findings, pictures)}"
            f"<h2>Dice</h2>{_dice_html(dice_stats)}"
            f"<h2>Timeline</h2>{_timeline_html(record, flagged, namer(game))}</body></html>\n")
    path = out / f"{stem}.html"
    write_atomic(path, page.encode("utf-8"))
    return path


@dataclass(frozen=True, slots=True)
class IndexEntry:
    """One audited log as the index lists it; `page` is None for a log that could not be audited."""
    log: str
    page: Optional[str]
    scenario: Optional[str] = None
    steps: int = 0
    errors: int = 0
    warnings: int = 0
    notes: int = 0
    error: Optional[str] = None              # why the log could not be audited


def write_index(out_dir, title: str, entries: Sequence[IndexEntry]) -> Path:
    """`index.html`: every log in the order given, with its counts and a link to its page."""
    rows = []
    for e in entries:
        name = f'<a href="{_e(e.page)}">{_e(e.log)}</a>' if e.page else _e(e.log)
        if e.error is not None:
            rows.append(f'<tr class="error"><td>{name}</td><td colspan="5">cannot audit: {_e(e.error)}</td></tr>')
            continue
        cls = ' class="error"' if e.errors else (' class="warning"' if e.warnings else "")
        rows.append(f"<tr{cls}><td>{name}</td><td>{_e(e.scenario or '?')}</td><td>{e.steps}</td>"
                    f"<td>{e.errors}</td><td>{e.warnings}</td><td>{e.notes}</td></tr>")
    page = (f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{_e(title)}</title>"
            f"<style>{STYLE}</style></head><body><h1>{_e(title)}</h1>"
            "<table><tr><th>log</th><th>scenario</th><th>steps</th><th>errors</th><th>warnings</th>"
            f"<th>notes</th></tr>{''.join(rows)}</table></body></html>\n")
    path = Path(out_dir) / "index.html"
    write_atomic(path, page.encode("utf-8"))
    return path
