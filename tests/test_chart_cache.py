"""`hexforge charts` keeps its print-resolution counter faces in a content-hash pack (`<out>/.cache`):
after one unit's factors change only that unit's faces are drawn again, and never a stale one."""
from __future__ import annotations

import dataclasses
import os
import sys
from collections import Counter

import pypdfium2 as pdfium
import pytest

sys.path.insert(0, os.path.dirname(__file__))
from test_charts_sample import F, sample_game  # noqa: E402

from compiler.cache import INDEX, Cache  # noqa: E402
from compiler.charts import sheets  # noqa: E402
from compiler.charts.build import build_charts  # noqa: E402

UNIT = "us-2id-a-9"


@pytest.fixture
def draws(monkeypatch):
    """Every unit face and marker face drawn, counted by (id, face)."""
    seen: Counter = Counter()
    real_counter, real_marker = sheets.counter_image, sheets.marker_image

    def counter(game, unit, face, px):
        seen[(unit.id, face)] += 1
        return real_counter(game, unit, face, px)

    def marker(game, m, px, face="front"):
        seen[(m.id, face)] += 1
        return real_marker(game, m, px, face)

    monkeypatch.setattr(sheets, "counter_image", counter)
    monkeypatch.setattr(sheets, "marker_image", marker)
    return seen


def _with_factors(game, uid: str, front: str, back: str):
    units = tuple(dataclasses.replace(u, factors=F(front), reduced=F(back)) if u.id == uid else u
                  for u in game.units)
    return dataclasses.replace(game, units=units)


def _faces(game) -> int:
    return 2 * (len(game.units) + len(game.markers))


def _tags(pdf) -> str:
    doc = pdfium.PdfDocument(str(pdf))
    try:
        return " ".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    finally:
        doc.close()


def test_a_rerun_draws_nothing_and_writes_the_same_bytes(tmp_path, draws):
    g = sample_game(many_units=6)
    out = tmp_path / "charts"
    build_charts(g, out)
    assert sum(draws.values()) == _faces(g)
    first = (out / "counter-sheets.pdf").read_bytes()
    assert (out / ".cache" / INDEX).is_file()  # swapped in with the charts, not lost with the old set
    draws.clear()
    build_charts(g, out)
    assert sum(draws.values()) == 0
    assert (out / "counter-sheets.pdf").read_bytes() == first


def test_one_units_factors_change_redraws_exactly_its_faces_and_the_pdf_shows_them(tmp_path, draws):
    g = sample_game(many_units=6)
    out = tmp_path / "charts"
    build_charts(g, out)
    before = (out / "counter-sheets.pdf").read_bytes()
    changed = _with_factors(g, UNIT, "4-5-10", "2-4-10")
    draws.clear()
    build_charts(changed, out)
    assert draws == Counter({(UNIT, "front"): 1, (UNIT, "back"): 1})
    after = (out / "counter-sheets.pdf").read_bytes()
    assert after != before
    # the factors are artwork, not text: the sheet must be exactly what a run without any cache draws
    cold = tmp_path / "cold"
    build_charts(changed, cold)
    assert (cold / "counter-sheets.pdf").read_bytes() == after
    assert f"hexforge:unit:{UNIT}:front:1" in _tags(out / "counter-sheets.pdf")


def test_a_change_that_moves_the_game_wide_type_scale_redraws_every_unit(tmp_path, draws):
    from compiler.render.counters import counter_type_scale
    g = sample_game(many_units=2)
    short = dataclasses.replace(g, units=tuple(dataclasses.replace(u, factors=F("1-1-8"), reduced=F("1-0-8"))
                                               for u in g.units))
    out = tmp_path / "charts"
    build_charts(short, out)
    # one unit's longer factors set every counter's factor line smaller: no other face may come from the cache
    changed = _with_factors(short, UNIT, "[9]-1-16", "1-0-8")
    px = sheets._Art(short, float(short.counter_size_in), sheets.BLEED_IN).px
    assert counter_type_scale(changed, "front", px).factors < counter_type_scale(short, "front", px).factors
    draws.clear()
    build_charts(changed, out)
    assert {(u.id, "front") for u in g.units} <= set(draws)
    assert not {m.id for m in g.markers} & {i for i, _ in draws}  # markers do not use the units' type scale
    cold = tmp_path / "cold"
    build_charts(changed, cold)
    assert (cold / "counter-sheets.pdf").read_bytes() == (out / "counter-sheets.pdf").read_bytes()


def test_a_changed_renderer_fingerprint_redraws_everything(tmp_path, draws, monkeypatch):
    g = sample_game(many_units=6)
    out = tmp_path / "charts"
    build_charts(g, out)
    real = sheets._renderer_fingerprint()
    monkeypatch.setattr(sheets, "_renderer_fingerprint", lambda: real + "-edited")
    draws.clear()
    build_charts(g, out)
    assert sum(draws.values()) == _faces(g)


def test_the_counter_size_is_part_of_the_key(tmp_path, draws):
    g = sample_game(many_units=2)
    out = tmp_path / "charts"
    build_charts(g, out)
    draws.clear()
    build_charts(dataclasses.replace(g, counter_size_in=0.625), out)
    assert sum(draws.values()) == _faces(g)


def test_a_failed_run_keeps_the_previous_cache(tmp_path, draws, monkeypatch):
    g = sample_game(many_units=2)
    out = tmp_path / "charts"
    build_charts(g, out)
    keys = Cache(out / ".cache").keys()

    def broken(*a, **k):
        raise RuntimeError("disk full")
    # the tables do not show units (kept); the sheet's preview is made again, after its new faces
    monkeypatch.setattr("compiler.charts.build.render_preview", broken)
    with pytest.raises(RuntimeError):
        build_charts(_with_factors(g, UNIT, "4-5-10", "2-4-10"), out)
    assert Cache(out / ".cache").keys() == keys


def test_commit_into_a_new_folder_leaves_the_old_one_alone(tmp_path):
    old, new = tmp_path / "old", tmp_path / "new"
    c = Cache(old)
    c.put("a", b"A")
    c.commit()
    before = {p.name: p.read_bytes() for p in old.iterdir()}
    c = Cache(old)
    assert c.get("a") == b"A"
    c.commit(into=new)
    assert {p.name: p.read_bytes() for p in old.iterdir()} == before
    assert Cache(new).get("a") == b"A"


def test_build_redraws_every_counter_when_one_unit_moves_the_type_scale(mini, tmp_path):
    """The module's image pack keys the game-wide type scale too: r1-b's bracketed factors set every
    counter's factor line; without the brackets all of them are set larger, so none may come from the pack."""
    import zipfile
    from click.testing import CliRunner
    from compiler.cli import main

    def build(out):
        r = CliRunner().invoke(main, ["build", str(mini.path), "--out", str(out)])
        assert r.exit_code == 0, r.output
        with zipfile.ZipFile(out / "mini.vmod") as z:
            return {n: z.read(n) for n in z.namelist() if n.startswith("images/")}

    out = tmp_path / "m"
    before = build(out)
    text = (mini.path / "counters.yaml").read_text(encoding="utf-8")
    assert text.count('factors: "[6]-1-12"') == 1
    mini.text("counters.yaml", text.replace('factors: "[6]-1-12"', 'factors: "6-1-12"'))
    after = build(out)
    assert after == build(tmp_path / "cold")
    assert sum(after[n] != before[n] for n in before) > 2


def test_a_face_placed_from_its_stream_is_what_drawimage_places(tmp_path):
    """pdf.draw_flate_image (the faces kept as PDF image streams) against reportlab's own drawImage:
    the same pixels read back by PDFium and the same image by pypdf, the image stored once."""
    from PIL import Image, ImageDraw
    from pypdf import PdfReader
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas
    from compiler.charts.pdf import FlateImage, binary_streams, draw_flate_image

    img = Image.new("RGB", (60, 40), (200, 180, 40))
    ImageDraw.Draw(img).rectangle((5, 5, 30, 20), fill=(10, 20, 200))

    def pdf(name, place):
        with binary_streams():
            c = canvas.Canvas(str(tmp_path / name), pagesize=(200, 200), invariant=1)
            for x in (10, 100):     # placed twice: stored once
                place(c, x)
            c.showPage()
            c.save()
        return tmp_path / name
    ours = pdf("ours.pdf", lambda c, x: draw_flate_image(c, FlateImage.of(img), x, 50, 60, 40))
    theirs = pdf("theirs.pdf", lambda c, x: c.drawImage(ImageReader(img), x, 50, 60, 40))

    def pixels(path):
        doc = pdfium.PdfDocument(str(path))
        try:
            return doc[0].render(scale=2).to_pil().convert("RGB").tobytes()
        finally:
            doc.close()
    assert pixels(ours) == pixels(theirs)
    a, b = (list(PdfReader(p).pages[0].images) for p in (ours, theirs))
    assert len(a) == len(b) == 1 and a[0].image.tobytes() == b[0].image.tobytes() == img.tobytes()
    assert ours.read_bytes().count(b"/Subtype /Image") == 1


def test_each_distinct_face_is_stored_once_in_the_counter_sheets(tmp_path):
    g = sample_game(many_units=3)
    out = tmp_path / "charts"
    build_charts(g, out)
    art = sheets._Art(g, float(g.counter_size_in), sheets.BLEED_IN)
    pieces = [p for grp in sheets.groups(g) for p in grp.pieces]
    faces = {art.get(p, face).data for p in pieces for face in ("front", "back")}
    assert len(pieces) > len({(p.kind, p.id) for p in pieces}) and len(faces) < 2 * len(pieces)  # repeats
    assert (out / "counter-sheets.pdf").read_bytes().count(b"/Subtype /Image") == len(faces)
