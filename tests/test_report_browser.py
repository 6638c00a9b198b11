"""The step-through page in a real headless Chromium: what a player sees at a step is the position the
record gives, the arrow keys step as VASSAL's step button does, the findings sit on the timeline.

The page is opened from the report folder as a file (no server); the browser is driven over its
DevTools pipe (tests/browser.py). At the chosen step every unit of the record's position must have one
chip, on the hex the record puts it: the chip's rendered box lies inside that hex of the map picture,
and the screenshot shows the chip's counter colour there. Skipped, saying why, where there is no chromium.
"""
from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from browser import Browser, chromium
from compiler import report_map as rm
from compiler.cli import main
from compiler.render.layout import DX, DY
from compiler.vassal.vlog import read_log
from validator.source.loader import load_game
from validator.referee.chain import positions_at

pytestmark = pytest.mark.skipif(chromium() is None, reason="no chromium (apt-get install -y chromium): "
                                                         "the step-through page is tested in a real browser")
ROOT = Path(__file__).resolve().parents[1]
VLOGS = ROOT / "tests" / "fixtures" / "vlogs"


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "audit"
    r = CliRunner().invoke(main, ["audit", str(ROOT / "source" / "meuse"), str(VLOGS / "meuse_violations.vlog"),
                                  "--module", str(VLOGS / "meuse.vmod"), "--report", str(out)])
    assert r.exit_code == 1, r.output
    game, _ = load_game(ROOT / "source" / "meuse")
    record = read_log(VLOGS / "meuse_violations.vlog", VLOGS / "meuse.vmod", game)
    return out, game, record


@pytest.fixture(scope="module")
def browser():
    b = Browser(1400, 900)
    yield b
    b.close()


CHIPS = """[...document.querySelectorAll('#units .unit')].map(c => { const r = c.getBoundingClientRect();
  return {hex: c.dataset.hex, pieces: c.dataset.pieces.split(' '), text: c.textContent,
          x: r.left + r.width / 2, y: r.top + r.height / 2, left: r.left, w: r.width, h: r.height,
          moved: c.classList.contains('moved')}; })"""
MAP = "(() => { const r = document.querySelector('#board img').getBoundingClientRect(); return [r.left, r.top]; })()"


def _shown(b: Browser) -> tuple[list[dict], tuple[float, float]]:
    return b.js(CHIPS), tuple(b.js(MAP))


def test_at_step_13_each_unit_is_on_the_hex_the_record_puts_it(report, browser):
    out, game, record = report
    browser.open((out / "meuse_violations-steps.html").as_uri() + "#step=13")
    assert browser.js("document.getElementById('where').textContent") == "step 13 of 23"
    chips, (mx, my) = _shown(browser)
    position = positions_at(record, [13])[13]
    surface = rm.surface_of(game)
    on_map = {c.piece: w.hex for c, w in position if c.kind == "unit" and surface.centre(w.hex)}
    assert len(on_map) == 14
    shown = {p: chip["hex"] for chip in chips for p in chip["pieces"]}
    assert shown == on_map                                   # every unit, once, on its hex; nothing else
    png = Image.open(io.BytesIO(browser.screenshot())).convert("RGB")
    wl, wt, wr, wb = browser.js("(() => { const r = document.getElementById('mapwrap').getBoundingClientRect();"
                                " return [r.left, r.top, r.right, r.bottom]; })()")
    seen = 0
    for chip in chips:
        cx, cy = surface.centre(chip["hex"])                  # the hex on the page: the picture at scale 1
        hx, hy = mx + cx, my + cy
        assert abs(chip["x"] - hx) < DX / 2 and abs(chip["y"] - hy) < DY / 2, chip   # inside its hex
        assert chip["y"] - chip["h"] / 2 > hy - DY * 0.36 + 6, chip                 # below the hex number
        top = [c for c, w in position if w.hex == chip["hex"] and c.kind == "unit"][-1]
        assert chip["text"].split(" +")[0] == rm.short_label(game, top.unit)
        x, y = int(chip["left"] + 2), int(chip["y"])
        if wl <= x < min(wr, png.width) and wt <= y < min(wb, png.height):   # in view: the counter's colour
            bg, _ = rm.chip_colours(game, top.unit)
            assert max(abs(a - b) for a, b in zip(png.getpixel((x, y)), bg)) <= 12, chip
            seen += 1
    assert seen >= 5
    moved = [c for c in chips if c["moved"]]
    assert [(c["hex"], c["pieces"]) for c in moved] == [("A16.01", ["1011"])]   # Rec/1: B1.03 -> A16.01
    panel = browser.js("document.getElementById('stepfindings').textContent")
    assert "error[HF1204] (rule 6.2)" in panel


def test_arrow_keys_step_through_the_log(report, browser):
    out, game, record = report
    browser.open((out / "meuse_violations-steps.html").as_uri() + "#step=13")
    browser.key("ArrowRight")
    assert browser.js("location.hash") == "#step=14"
    chips, _ = _shown(browser)
    assert [(c["hex"], c["pieces"]) for c in chips if c["moved"]] == [("B7.14", ["1014"])]   # 12/4 B8.13 -> B7.14
    assert {p: c["hex"] for c in chips for p in c["pieces"]}["1014"] == "B7.14"
    browser.key("ArrowLeft")
    browser.key("ArrowLeft")
    assert browser.js("location.hash") == "#step=12"
    assert {p: c["hex"] for c in _shown(browser)[0] for p in c["pieces"]}["1014"] == "B8.13"
    browser.key("Home")
    assert browser.js("document.getElementById('where').textContent") == "start"
    start = {c.piece: w.hex for c, w in record.start if c.kind == "unit" and w.hex}
    assert {p: c["hex"] for c in _shown(browser)[0] for p in c["pieces"]} == start
    browser.key("End")
    assert browser.js("location.hash") == "#step=23"
    last = positions_at(record, [23])[23]
    assert {p: c["hex"] for c in _shown(browser)[0] for p in c["pieces"]} == \
        {c.piece: w.hex for c, w in last if c.kind == "unit" and w.hex}


def test_the_findings_are_on_the_timeline(report, browser):
    out, _, _ = report
    browser.open((out / "meuse_violations-steps.html").as_uri())
    flagged = browser.js("[...document.querySelectorAll('#timeline li.flagged')].map(li => [li.value, li.textContent])")
    steps = {v: t for v, t in flagged}
    assert set(steps) == {2, 6, 7, 10, 13, 14, 16, 23}
    assert steps[13].endswith("\u2014 HF1204") and "B1.03 -> A16.01" in steps[13]
    browser.js("document.querySelectorAll('#timeline li')[14].click()")       # item 0 is the start
    assert browser.js("location.hash") == "#step=14"


def test_the_page_needs_no_server_and_shows_log_text_as_text(report):
    out, _, _ = report
    text = (out / "meuse_violations-steps.html").read_text(encoding="utf-8")
    assert not re.search(r"<(link|iframe)|<script[^>]+src=|https?://(?!www\.w3\.org/2000/svg)", text)
    assert "innerHTML" not in text and 'src="meuse-map.png"' in text
    findings = (out / "meuse_violations.html").read_text(encoding="utf-8")
    assert 'href="meuse_violations-steps.html#step=13">13</a>' in findings
