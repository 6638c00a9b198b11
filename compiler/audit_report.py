"""`hexforge audit --report DIR`: one self-contained HTML page per log, with a map picture per violation,
and a page to step through the log (compiler/report_steps.py).

The page holds the findings (code, rule, step, hexes, units), a timeline of the log's steps, and a
histogram of every die button (inline SVG). Each violation that names hexes gets a PNG of the map
around them (compiler/report_map.py): across joined boards, every hex it names ringed, its step's
moves drawn whole, the units standing there at that step on chips with their short designation, the
stacks and areas named beside the map. All text from the log is escaped; every file is written
atomically, the pictures and the step page first, so a page never points at a file that is not there.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Optional, Protocol, Sequence

from PIL import Image

from validator.diagnostics import SHOWN
from validator.source.model import Game
from validator.positions.position import Position
from validator.records.record import GameRecord, Moved
from validator.records.record_text import events_text, namer
from validator.referee.chain import positions_at

from .atomic import write_atomic
from .render.boards import png_bytes, report_board
from .report_map import finding_picture, surface_of
from .report_steps import write_steps_page

MAX_TIMELINE_STEPS = 5000             # a longer log shows its first steps and says how many are left out
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


# -- the page --
def _e(s: object) -> str:
    return html.escape(str(s), quote=True)


def _findings_html(findings: Sequence[ReportFinding], pictures: dict[int, str], steps_page: str) -> str:
    if not findings:
        return "<p>No findings.</p>"
    rows = []
    for i, f in enumerate(findings):
        pic = f'<br><img src="{_e(pictures[i])}" alt="map around {_e(", ".join(f.hexes))}">' if i in pictures else ""
        step = (f'<a href="{_e(steps_page)}#step={f.step}">{f.step}</a>' if f.step is not None else "")
        rows.append(
            f'<tr class="{_e(SHOWN.get(f.severity, f.severity))}" id="finding-{i}"><td>{_e(f.code or "")}</td>'
            f'<td>{_e(f.rule or "")}</td><td>{step}</td>'
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
                 board_renderer: Optional[BoardRenderer] = None, name: Optional[str] = None,
                 result: Optional[dict] = None) -> Path:
    """Write `<name>.html` (default: the log's file name), its pictures and its step-through page
    (`<name>-steps.html`, with the game's map picture) into `out_dir`; returns the page. `result`: the
    victory standing when the log ends (the audit's `result`), shown under the title."""
    out = Path(out_dir)
    stem = name or _stem(record)
    renderer = board_renderer or report_board
    boards: dict[str, Image.Image] = {}

    def board(bid: str) -> Image.Image:
        if bid not in boards:
            boards[bid] = renderer(game, bid)
        return boards[bid]

    surface = surface_of(game)
    pictured = [(i, f) for i, f in enumerate(findings) if f.severity == "error" and f.hexes]
    positions = positions_at(record, (f.step for _, f in pictured if f.step))
    pictures: dict[int, str] = {}
    for i, f in pictured:                              # step 0 (or none): the log's start
        title = f"step {f.step}: {f.code}" if f.step else f"start: {f.code}"
        img = finding_picture(game, surface, board, f.hexes, step_moves(record, f.step, f.hexes) if f.step else [],
                              positions.get(f.step) if f.step else record.start, title)
        if img is None:
            continue
        file = f"{stem}-finding{i + 1}-step{f.step or 0}.png"
        write_atomic(out / file, png_bytes(img))
        pictures[i] = file
    steps_page = write_steps_page(out, stem, game, record, findings, board, positions_at, f"{stem}.html").name
    flagged = {f.step for f in findings if f.step is not None}
    title = f"Audit of {Path(record.source).name}: {game.title}"
    page = (f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{_e(title)}</title>"
            f"<style>{STYLE}</style></head><body><h1>{_e(title)}</h1>"
            f"<p>{_e(record.module or 'module not named')} · {_e(record.engine or 'engine not named')} · "
            f"{len(record.steps)} steps · {len(findings)} findings · "
            f"<a href=\"{_e(steps_page)}\">step through the game</a></p>"
            + (f"<h2>Result</h2><p class=\"result\">{_e(result['text'])}</p>" if result else "") +
            f"<h2>Findings</h2>{_findings_html(findings, pictures, steps_page)}"
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
