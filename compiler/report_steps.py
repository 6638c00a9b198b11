"""The step-through page of `hexforge audit --report`: the game replayed in the browser, step by step.

`<log>-steps.html` is one static page (no server, no network: it opens from the folder) with the map
of the whole play surface (`<game>-map.png`, every board joined, shared by the logs of one game), each
unit on its hex at the step shown as a chip with its short printed designation (the ID its counter
shows), what the step moved drawn as arrows and its units outlined, the step's events as the timeline
reads them, the findings made at it (their hexes ringed), the stacks and the units off the map in a
panel, and the timeline of every step with the findings on it. The arrow keys step forward and back
(Home and End: the start and the last step; Page Up and Down: ten steps), as VASSAL's step button
does; the address keeps the step (`#step=13`), so a finding can link to its step.

The page carries the game as data: each hex's place on the map picture, each piece's designation
and colours, the start and, per step, only what changed (worked out here from the record, undo taken
back, as the referee reads it). All text from the log reaches the page as data and is set as text,
never as markup. At most MAX_STEPS steps are carried; a longer log's page says where it stops.
"""
from __future__ import annotations

import hashlib
import html
import json
from pathlib import Path
from typing import Callable, Optional, Sequence

from PIL import Image

from validator.diagnostics import SHOWN
from validator.source.model import Game
from validator.records.record import GameRecord, Moved
from validator.records.record_text import events_text, namer

from .atomic import write_atomic
from .render.boards import board_inputs, png_bytes
from .render.layout import DY, HALF_W
from .report_map import AREA_COLOURS, ARROW, CHIP_OFFSET, RING, BoardPicture, Surface, chip_colours, compose, \
    short_label, surface_of

MAX_STEPS = 5000                    # steps a page carries (a longer log: the first ones, and it says so)
MAP_MAX_PX = 5200                   # the map picture's width at most (Ardennes II's two boards: 4960, at
#                                     full size, so its hex numbers stay readable); a bigger one is scaled down
MAX_ARROWS = 20                     # moves drawn per step


def map_file(game: Game) -> str:
    """The map picture's file name, one per game (the logs of a game share it)."""
    return "".join(ch if ch.isalnum() or ch in "._-" else "_" for ch in game.id)[:60] + "-map.png"


_WRITTEN: set = set()               # (folder, game, its boards' inputs) whose map this process has written


def write_map(out: Path, game: Game, surface: Surface, board: BoardPicture) -> float:
    """Write the whole surface's picture (scaled to MAP_MAX_PX at most), once per folder and game in a
    process (a batch of logs of one game shares it); returns its scale."""
    w, h = surface.size
    scale = min(1.0, MAP_MAX_PX / w)
    key = (str(Path(out).resolve()), game.id, hashlib.sha256(json.dumps(board_inputs(game), sort_keys=True,
                                                                         default=str).encode()).hexdigest())
    if key in _WRITTEN and (out / map_file(game)).is_file():
        return scale
    img = compose(surface, board, (0, 0, w, h))
    if scale < 1.0:
        img = img.resize((round(w * scale), round(h * scale)), Image.LANCZOS)
    # the boards are flat colours: a palette of them keeps the file small, quickly
    flat = img.quantize(colors=128, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    write_atomic(out / map_file(game), png_bytes(flat))
    _WRITTEN.add(key)
    return scale


def _place(w) -> str:
    return w.hex if w.hex is not None else f"[{w.box or ''}]"


def page_data(game: Game, record: GameRecord, findings: Sequence, surface: Surface, scale: float,
              positions: dict) -> dict:
    """What the page replays: hexes (where each is on the map picture), pieces, the start, the steps."""
    name_of = namer(game)
    steps = record.steps[:MAX_STEPS]
    hexes: dict[str, list[float]] = {}
    pieces: dict[str, list] = {}

    def note(counter, where) -> None:
        if where.hex is not None and where.hex not in hexes and (c := surface.centre(where.hex)) is not None:
            hexes[where.hex] = [round(c[0] * scale, 1), round(c[1] * scale, 1)]
        if counter.piece not in pieces:
            bg, fg = chip_colours(game, counter.unit)
            pieces[counter.piece] = [short_label(game, counter.unit), name_of(counter.unit) or counter.unit,
                                     counter.side, "#%02x%02x%02x" % bg, "#%02x%02x%02x" % fg, counter.kind]

    before = {}
    for c, w in record.start:
        note(c, w)
        before[c.piece] = (_place(w), sorted(c.state))
    out_steps = []
    for s in steps:
        pos = positions[s.index]
        now = {}
        for c, w in pos:
            note(c, w)
            now[c.piece] = (_place(w), sorted(c.state))
        diff = [[p, now[p][0], now[p][1]] for p in now if before.get(p) != now[p]]
        diff += [[p, None, []] for p in before if p not in now]
        moves = [[e.src.hex, e.dst.hex] for e in s.events if isinstance(e, Moved) and e.src.hex and e.dst.hex
                 and e.src.hex != e.dst.hex and e.src.hex in hexes and e.dst.hex in hexes][:MAX_ARROWS]
        moved = sorted({e.counter.piece for e in s.events if isinstance(e, Moved)})
        out_steps.append({"i": s.index, "t": ("undo: " if s.undo else "") + (events_text(s, name_of) or "(nothing)"),
                          "p": s.player, "d": diff, "m": moves, "v": moved})
        before = now
    for f in findings:
        for h in f.hexes:
            if h not in hexes and (c := surface.centre(h)) is not None:
                hexes[h] = [round(c[0] * scale, 1), round(c[1] * scale, 1)]
    areas = []
    for a in game.places.areas:
        at = [[h, *[round(v * scale, 1) for v in c]] for h in a.hexes or () if (c := surface.centre(h)) is not None]
        if at:
            areas.append({"kind": a.kind, "name": a.name or a.id, "hexes": at})
    corners = [[round(x * scale, 1), round(y * scale, 1)] for x, y in surface.grid.corners(0, 0, HALF_W - 2, DY / 2 - 2)]
    return {
        "title": f"{Path(record.source).name}: {game.title}", "steps_total": len(record.steps),
        "hexes": hexes, "pieces": pieces, "dy": round(DY * scale, 1), "chip": CHIP_OFFSET, "corners": corners, "areas": areas,
        "start": [[c.piece, _place(w), sorted(c.state)] for c, w in record.start], "steps": out_steps,
        "findings": [{"code": f.code or "", "severity": SHOWN.get(f.severity, f.severity), "rule": f.rule or "", "step": f.step,
                      "message": f.message, "hexes": [h for h in f.hexes if h in hexes]} for f in findings],
    }


def _json_for_script(data: dict) -> str:
    """JSON that cannot end the script element it sits in."""
    return (json.dumps(data, ensure_ascii=False, separators=(",", ":"))
            .replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def write_steps_page(out: Path, stem: str, game: Game, record: GameRecord, findings: Sequence,
                     board: BoardPicture, positions_of: Callable[[GameRecord, list], dict],
                     findings_page: Optional[str] = None) -> Path:
    """Write `<stem>-steps.html` (and the game's map picture) into `out`; returns the page."""
    surface = surface_of(game)
    scale = write_map(out, game, surface, board)
    steps = [s.index for s in record.steps[:MAX_STEPS]]
    data = page_data(game, record, findings, surface, scale, positions_of(record, steps))
    w, h = round(surface.size[0] * scale), round(surface.size[1] * scale)
    title = html.escape(f"Step through {data['title']}", quote=True)
    back = (f'<a href="{html.escape(findings_page, quote=True)}">findings</a> \u00b7 ' if findings_page else "")
    page = (PAGE.replace("%TITLE%", title).replace("%BACK%", back).replace("%MAP%", html.escape(map_file(game)))
            .replace("%W%", str(w)).replace("%H%", str(h)).replace("%RING%", "rgb(%d,%d,%d)" % RING)
            .replace("%ARROW%", "rgb(%d,%d,%d)" % ARROW)
            .replace("%AREAS%", json.dumps({k: "rgb(%d,%d,%d)" % v for k, v in AREA_COLOURS.items()}))
            .replace("%DATA%", _json_for_script(data)))
    path = out / f"{stem}-steps.html"
    write_atomic(path, page.encode("utf-8"))
    return path


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>%TITLE%</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:sans-serif;margin:0;display:flex;flex-direction:column;height:100vh}
header{padding:6px 12px;border-bottom:1px solid #bbb;display:flex;gap:12px;align-items:center;flex-wrap:wrap}
header h1{font-size:16px;margin:0}
#where{font-weight:bold;min-width:9em}
main{display:flex;flex:1;min-height:0}
#mapwrap{flex:1;overflow:auto;position:relative;background:#eee}
#board{position:relative;width:%W%px;height:%H%px}
#board img{position:absolute;left:0;top:0;width:%W%px;height:%H%px}
#arrows{position:absolute;left:0;top:0;pointer-events:none}
.unit{position:absolute;transform:translate(-50%,-50%);font:bold 12px/14px sans-serif;padding:1px 4px;
 border:1px solid #000;border-radius:2px;white-space:nowrap;cursor:default}
.unit.moved{outline:3px solid #ffd400;z-index:2}
aside{width:360px;overflow:auto;border-left:1px solid #bbb;padding:6px 10px;font-size:13px}
aside h2{font-size:14px;margin:6px 0}
aside h3{font-size:13px;margin:10px 0 4px}
.error{color:#b00000}.warning{color:#8a5a00}.note{color:#555}
#timeline li{cursor:pointer;padding:1px 2px}
#timeline li.flagged{background:#fde8e8}
#timeline li.current{outline:2px solid #333}
kbd{border:1px solid #999;border-radius:3px;padding:0 3px;font-size:12px}
</style></head>
<body>
<header><h1>%TITLE%</h1>
<span>%BACK%<kbd>\u2190</kbd> <kbd>\u2192</kbd> step, <kbd>Home</kbd> <kbd>End</kbd>, <kbd>PgUp</kbd> <kbd>PgDn</kbd> ten</span>
<button id="prev" title="previous step (\u2190)">\u25c0</button><span id="where"></span>
<button id="next" title="next step (\u2192)">\u25b6</button>
<input id="slider" type="range" min="0" value="0" aria-label="step"></header>
<main><div id="mapwrap"><div id="board"><img src="%MAP%" alt="the map">
<svg id="arrows" width="%W%" height="%H%" xmlns="http://www.w3.org/2000/svg"><defs>
<marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse">
<path d="M0,0 L10,5 L0,10 z" fill="%ARROW%"/></marker></defs></svg>
<div id="units"></div></div></div>
<aside><h2 id="steptitle"></h2><p id="events"></p><div id="stepfindings"></div>
<h3>Stacks (bottom first)</h3><ul id="stacks"></ul>
<h3>Off the map</h3><ul id="offmap"></ul>
<h3>Areas (their rings on the map; click to show)</h3><ul id="areas"></ul>
<h3>Timeline</h3><p id="cut"></p><ol id="timeline" start="0"></ol></aside></main>
<script type="application/json" id="game">%DATA%</script>
<script>
"use strict";
const G = JSON.parse(document.getElementById("game").textContent);
const N = G.steps.length, EVERY = 100, SVG = "http://www.w3.org/2000/svg";
const $ = id => document.getElementById(id);
const el = (tag, text, cls) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls; return e; };
const start = new Map(G.start.map(([p, at, st]) => [p, [at, st]]));
const apply = (pos, k) => { for (const [p, at, st] of G.steps[k - 1].d) { if (at === null) pos.delete(p); else pos.set(p, [at, st]); } };
const checkpoints = [new Map(start)];
{ const pos = new Map(start); for (let k = 1; k <= N; k++) { apply(pos, k); if (k % EVERY === 0) checkpoints.push(new Map(pos)); } }
function positionAt(k) { const pos = new Map(checkpoints[Math.floor(k / EVERY)]);
  for (let j = Math.floor(k / EVERY) * EVERY + 1; j <= k; j++) apply(pos, j); return pos; }
const byStep = new Map();
G.findings.forEach(f => { const k = f.step || 0; if (!byStep.has(k)) byStep.set(k, []); byStep.get(k).push(f); });
const index = new Map(G.steps.map((s, k) => [s.i, k + 1]));
let current = 0;
function label(p) { return G.pieces[p] ? G.pieces[p][0] : p; }
function ring([x, y], colour, cls) {
  const g = document.createElementNS(SVG, "polygon");
  g.setAttribute("points", G.corners.map(([a, b]) => (x + a) + "," + (y + b)).join(" "));
  Object.entries({fill: "none", stroke: colour, "stroke-width": 4, class: cls}).forEach(([k, v]) => g.setAttribute(k, v));
  return g;
}
function focus(points) {
  const wrap = $("mapwrap"), m = 60;
  if (!points.length) return;
  const x = points.reduce((s, p) => s + p[0], 0) / points.length, y = points.reduce((s, p) => s + p[1], 0) / points.length;
  const seen = x > wrap.scrollLeft + m && x < wrap.scrollLeft + wrap.clientWidth - m &&
               y > wrap.scrollTop + m && y < wrap.scrollTop + wrap.clientHeight - m;
  if (!seen) { wrap.scrollLeft = x - wrap.clientWidth / 2; wrap.scrollTop = y - wrap.clientHeight / 2; }
}
function show(k) {
  current = Math.max(0, Math.min(N, k));
  const pos = positionAt(current), step = current ? G.steps[current - 1] : null;
  const moved = new Set(step ? step.v : []);
  const onMap = new Map(), off = new Map();
  for (const [p, [at, st]] of pos) {
    if (G.pieces[p] && G.pieces[p][5] !== "unit") continue;
    const group = G.hexes[at] ? onMap : off;
    if (!group.has(at)) group.set(at, []);
    group.get(at).push([p, st]);
  }
  const units = $("units"); units.replaceChildren();
  const stacks = $("stacks"); stacks.replaceChildren();
  for (const [hex, list] of onMap) {
    const [x, y] = G.hexes[hex], top = list[list.length - 1][0], meta = G.pieces[top] || [top, top, null, "#eee", "#000"];
    const chip = el("div", label(top) + (list.length > 1 ? " +" + (list.length - 1) : ""), "unit");
    chip.style.left = x + "px"; chip.style.top = (y + G.dy * G.chip) + "px";
    chip.style.background = meta[3]; chip.style.color = meta[4];
    chip.dataset.hex = hex; chip.dataset.pieces = list.map(e => e[0]).join(" ");
    chip.title = hex + ": " + list.map(([p, st]) => (G.pieces[p] ? G.pieces[p][1] : p) + (st.length ? " (" + st.join(", ") + ")" : "")).join("; ");
    if (list.some(e => moved.has(e[0]))) chip.classList.add("moved");
    units.appendChild(chip);
    if (list.length > 1) stacks.appendChild(el("li", hex + ": " + list.map(([p, st]) => label(p) + (st.length ? " (" + st.join(", ") + ")" : "")).join(", ")));
  }
  const offmap = $("offmap"); offmap.replaceChildren();
  for (const [box, list] of off) offmap.appendChild(el("li", box + ": " + list.map(e => label(e[0])).join(", ")));
  const svg = $("arrows"); [...svg.querySelectorAll("line,.ring")].forEach(e => e.remove());
  for (const [a, b] of (step ? step.m : [])) {
    const l = document.createElementNS(SVG, "line"), [x1, y1] = G.hexes[a], [x2, y2] = G.hexes[b];
    Object.entries({x1, y1, x2, y2, stroke: "%ARROW%", "stroke-width": 4, "marker-end": "url(#head)"}).forEach(([k, v]) => l.setAttribute(k, v));
    svg.appendChild(l);
  }
  const here = byStep.get(step ? step.i : 0) || [];
  for (const f of here) for (const h of f.hexes) svg.appendChild(ring(G.hexes[h], "%RING%", "ring"));
  $("where").textContent = current ? "step " + step.i + " of " + G.steps_total : "start";
  $("steptitle").textContent = current ? "Step " + step.i + (step.p ? " [" + step.p + "]" : "") : "The start";
  $("events").textContent = current ? step.t : G.start.length + " pieces where the log begins";
  const sf = $("stepfindings"); sf.replaceChildren();
  for (const f of here) sf.appendChild(el("p", f.severity + "[" + f.code + "]" + (f.rule ? " (rule " + f.rule + ")" : "") + " " + f.message, f.severity));
  $("slider").value = current;
  [...$("timeline").children].forEach((li, j) => li.classList.toggle("current", j === current));
  const ends = step ? step.m.map(m => m[1]) : [];            // where the step's moves ended, else its findings
  focus((ends.length ? ends : here.flatMap(f => f.hexes)).map(h => G.hexes[h]).filter(Boolean));
  history.replaceState(null, "", "#step=" + (current ? step.i : 0));
}
$("slider").max = N;
const COLOURS = %AREAS%;
for (const a of G.areas) {
  const li = el("li", a.kind + " area: " + a.name);
  li.style.color = COLOURS[a.kind] || "#000"; li.style.cursor = "pointer";
  li.addEventListener("click", () => { const svg = $("arrows"); [...svg.querySelectorAll(".area")].forEach(e => e.remove());
    for (const [h, x, y] of a.hexes) svg.appendChild(ring([x, y], "#ffd400", "area"));
    focus(a.hexes.map(([h, x, y]) => [x, y])); });
  $("areas").appendChild(li);
}
const tl = $("timeline");
tl.appendChild(el("li", "the start"));
G.steps.forEach((s, j) => { const li = el("li", (s.p ? "[" + s.p + "] " : "") + s.t); li.value = s.i;
  const fs = byStep.get(s.i) || [];
  if (fs.length) { li.classList.add("flagged"); li.appendChild(el("span", " \u2014 " + fs.map(f => f.code).join(", "), fs.some(f => f.severity === "error") ? "error" : "warning")); }
  li.addEventListener("click", () => show(j + 1)); tl.appendChild(li); });
if (G.steps_total > N) $("cut").textContent = "The first " + N + " of " + G.steps_total + " steps.";
$("prev").addEventListener("click", () => show(current - 1));
$("next").addEventListener("click", () => show(current + 1));
$("slider").addEventListener("input", e => show(+e.target.value));
document.addEventListener("keydown", e => {
  const go = {ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, PageDown: 10, PageUp: -10}[e.key];
  if (go !== undefined) { show(current + go); e.preventDefault(); }
  else if (e.key === "Home") { show(0); e.preventDefault(); }
  else if (e.key === "End") { show(N); e.preventDefault(); }
});
const asked = /^#step=(\\d+)$/.exec(location.hash);
show(asked ? (+asked[1] === 0 ? 0 : index.get(+asked[1]) || 0) : 0);
</script></body></html>
"""
