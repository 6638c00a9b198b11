"""The audit report page (compiler.audit_report) for a hand-made record with one combat violation."""
from __future__ import annotations

import io
import re

from PIL import Image

from conftest import MINI
from compiler.audit_report import positions_by_step, write_report
from compiler.report_map import MAX_PICTURE_PX, PANEL_PX
from validator.source.loader import load_game
from validator.positions.position import Counter, Position, Where
from validator.records.record import Chat, DieRoll, GameRecord, Removed, Step
from validator.referee.combat import judge_battle
from validator.referee.dice import dice_stats

A = Counter("a", "b1-a", "blue")
B = Counter("b", "b1-b", "blue")
R = Counter("r", "r1-a", "red")


def _record():
    start = Position.of([(A, Where("0403")), (B, Where("0403")), (R, Where("0404"))])
    steps = (Step(1, (Chat("<script>alert('x')</script> & good luck"),), player="blue"),
             Step(2, (DieRoll("1d6", (1,), 1),), player="blue"),
             Step(3, (Removed(R, Where("0404")),), player="blue"))
    return GameRecord("logs/game one.vlog", "Mini 1.0", "VASSAL 3.7.9", start, "1", None, steps, ("blue",))


def test_report_page_and_picture(tmp_path):
    game, _ = load_game(MINI)
    rec = _record()
    j = judge_battle(game, rec.start, "blue", rec.steps[1].events[0], rec.steps[2].events, step=2)
    assert (j.verdict, j.code, j.hexes) == ("violation", "HF1501", ("0404",))
    page = write_report(tmp_path / "out", game, rec, [j], dice_stats(rec))
    assert page == tmp_path / "out" / "game_one.html"
    text = page.read_text(encoding="utf-8")
    row = re.search(r'<tr class="error" id="finding-0">(.*?)</tr>', text, re.S).group(1)
    assert "<td>HF1501</td>" in row and "<td>0404</td>" in row and "r1-a" in row
    assert '<td><a href="game_one-steps.html#step=2">2</a></td>' in row           # the step, in the step page
    # log text is escaped, never raw
    assert "<script>" not in text and "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; good luck" in text
    assert "<svg" in text and "1 rolls" in text
    (png,) = sorted((tmp_path / "out").glob("*-finding*.png"))
    assert png.name == "game_one-finding1-step2.png" and f'src="{png.name}"' in text
    img = Image.open(io.BytesIO(png.read_bytes()))
    img.verify()
    assert img.format == "PNG" and 0 < img.size[0] <= MAX_PICTURE_PX + PANEL_PX and 0 < img.size[1] <= MAX_PICTURE_PX
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "game_one-finding1-step2.png", "game_one-steps.html", "game_one.html", "mini-map.png"]
    assert not list((tmp_path / "out").glob(".*.tmp"))


def test_no_picture_for_notes_and_positions_follow_undo(tmp_path):
    game, _ = load_game(MINI)
    rec = _record()
    j = judge_battle(game, rec.start, "blue", DieRoll("2d6", (1, 1), 2), (), step=2)   # a note, not a violation
    write_report(tmp_path, game, rec, [j], [])
    assert not list(tmp_path.glob("*-finding*.png"))
    undo = GameRecord("u.vlog", None, None, rec.start, None, None,
                      (Step(1, (Removed(R, Where("0404")),)), Step(2, (), undo=True)))
    pos = positions_by_step(undo)
    assert pos[1].where("r") is None and pos[2].where("r") == Where("0404")
