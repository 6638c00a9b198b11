"""`hexforge charts`: counter sheets measured in the PDF, player aids, set-up cards, reproducibility."""
from __future__ import annotations

import dataclasses
import os
import re
import sys
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader

sys.path.insert(0, os.path.dirname(__file__))
from test_charts_sample import sample_game  # noqa: E402

from compiler.charts import sheets  # noqa: E402
from compiler.charts.build import build_charts  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PT = 72.0
TAG = re.compile(r"hexforge:(unit|marker):(\S+?):(front|back):(\d+)")
EXPECTED = {"counter-sheets.pdf", "tables.pdf", "tec.pdf", "turn-track.pdf", "orders-of-arrival.pdf",
            "counter-sheet-1.png", "crt.png"}


@pytest.fixture(scope="module")
def sample_out(tmp_path_factory):
    g = sample_game(many_units=40)
    out = tmp_path_factory.mktemp("charts")
    paths = build_charts(g, out, "a4")
    return g, out, paths


def text_of(pdf: Path) -> str:
    """All text of a PDF, whitespace collapsed (table cells wrap wherever they like)."""
    return " ".join(" ".join(p.extract_text() or "" for p in PdfReader(str(pdf)).pages).split())


def image_draws(page) -> list[tuple[float, float, float, float]]:
    """(x, y, w, h) of every image drawn on a page, from the content stream's `cm ... Do` pairs."""
    out, cm = [], None
    for operands, op in page.get_contents().operations:
        if op == b"cm":
            cm = [float(v) for v in operands]
        elif op == b"Do" and cm is not None:
            a, b, c, d, e, f = cm
            out.append((e, f, a, d))
        elif op == b"Q":
            cm = None
    return out


def cut_rects(page) -> list[tuple[float, float, float, float]]:
    """Rectangles stroked on a page (a rectangle followed by W is a clipping path, not a line)."""
    ops = page.get_contents().operations
    return [tuple(float(v) for v in operands) for (operands, op), (_, nxt) in zip(ops, ops[1:] + [([], b"")])
            if op == b"re" and nxt not in (b"W", b"W*")]


def pdfium_texts(pdf: Path) -> list[str]:
    """The selectable text of every page, as PDFium (the renderer a reader's viewer uses) extracts it."""
    import pypdfium2 as pdfium
    doc = pdfium.PdfDocument(str(pdf))
    try:
        out = []
        for page in doc:
            tp = page.get_textpage()
            out.append(tp.get_text_range())
            tp.close()
            page.close()
        return out
    finally:
        doc.close()


def render(pdf: Path, index: int, dpi: float = 144):
    """One page rasterised by PDFium, as an RGB image, and its pixels per point."""
    import pypdfium2 as pdfium
    doc = pdfium.PdfDocument(str(pdf))
    try:
        page = doc[index]
        img = page.render(scale=dpi / PT).to_pil().convert("RGB")
        page.close()
        return img, dpi / PT
    finally:
        doc.close()


def tags_at(pdf: Path, index: int, rects: list) -> list[tuple[str, str, str, int]]:
    """The tag read from the text layer inside each counter's square (by position, as a reader selects)."""
    import pypdfium2 as pdfium
    doc = pdfium.PdfDocument(str(pdf))
    try:
        page = doc[index]
        tp = page.get_textpage()
        out = []
        for x, y, w, h in rects:
            found = tags(tp.get_text_bounded(x, y, x + w, y + h))
            assert len(found) == 1, (index, x, y, found)
            out.append(found[0])
        tp.close()
        page.close()
        return out
    finally:
        doc.close()


def tags(text: str) -> list[tuple[str, str, str, int]]:
    return [(m.group(1), m.group(2), m.group(3), int(m.group(4))) for m in TAG.finditer(text or "")]


def expected_pieces(game) -> Counter:
    want = Counter()
    for u in game.units:
        n = 1 if u.count is None else u.count
        for k in range(1, n + 1):
            want[("unit", u.id, k)] += 1
    for m in game.markers:
        n = 1 if m.count is None else m.count
        for k in range(1, n + 1):
            want[("marker", m.id, k)] += 1
    return want


def _is_paper(px) -> bool:
    return min(px) > 245


def check_rendered_sheet(pdf: Path, index: int, cells: list, page_h: float, size: float, bleed: float) -> None:
    """On the rendered page: no paper shows inside a counter or in the bleed past the grid's outer cut
    lines, and a crop mark continues each outer cut line beyond the bleed."""
    img, k = render(pdf, index)
    px = lambda x, y: img.getpixel((int(round(x * k)), int(round((page_h - y) * k))))  # noqa: E731
    occupied = {(round(x, 2), round(y, 2)) for x, y in cells}
    for x, y in cells:
        assert not _is_paper(px(x + size / 2, y + size * 0.03)), (index, x, y)
        if (round(x - size, 2), round(y, 2)) not in occupied:      # outer left edge: bleed
            assert not _is_paper(px(x - bleed / 2, y + size / 2)), (index, x, y)
    xs = sorted({round(x, 2) for x, _ in cells})
    top = max(y for _, y in cells) + size
    bottom = min(y for _, y in cells)
    off = bleed + sheets.MARK_GAP + sheets.MARK_LEN / 2
    for x in xs + [xs[-1] + size]:
        for y in (top + off, bottom - off):
            # a mark is 0.3 pt wide: look at the pixel column and its neighbours
            assert any(not _is_paper(img.getpixel((int(round(x * k)) + d, int(round((page_h - y) * k)))))
                       for d in (-1, 0, 1)), (index, "crop mark", x, y)
    # nothing but paper between two marks: the marks are marks, not a frame
    gap_x = (xs[0] + xs[1]) / 2 if len(xs) > 1 else xs[0] + size / 2
    assert _is_paper(px(gap_x, top + off))


def check_sheets(game, pdf: Path, paper: str) -> None:
    """Page size, abutting grid, cut size, resolution, mirroring, bleed and crop marks on the rendered
    page, dense rows, and every counter once per face in the text layer."""
    r = PdfReader(str(pdf))
    texts = pdfium_texts(pdf)
    pw, ph = {"a4": (595.2756, 841.8898), "letter": (612.0, 792.0)}[paper]
    size = float(game.counter_size_in) * PT
    bleed = sheets.BLEED_IN * PT
    geo = sheets.geometry(game, paper)
    assert len(r.pages) % 2 == 0
    assert r.metadata.title and r.metadata.subject
    fronts, backs = Counter(), Counter()
    units = {u.id: u for u in game.units}
    run_of = lambda t: units[t[1]].side if t[0] == "unit" else "markers"  # noqa: E731
    for i in range(0, len(r.pages), 2):
        front, back = r.pages[i], r.pages[i + 1]
        for p in (front, back):
            assert abs(float(p.mediabox.width) - pw) < 0.01 and abs(float(p.mediabox.height) - ph) < 0.01
        fi, bi = image_draws(front), image_draws(back)
        # cut rectangles: exactly the counter size, one per counter, abutting (pitch = size)
        rects = cut_rects(front)
        assert len(rects) == len(fi)
        ft = tags_at(pdf, i, rects)
        bt = tags_at(pdf, i + 1, [(pw - x - w, y, w, h) for x, y, w, h in rects])   # the same square, mirrored
        assert len(fi) == len(bi) == len(ft) == len(bt) > 0
        assert sorted(ft) == sorted(tags(texts[i])) and sorted(bt) == sorted(tags(texts[i + 1]))
        assert all(abs(w - size) < 0.01 and abs(h - size) < 0.01 for _, _, w, h in rects)
        xs = sorted({round(x, 3) for x, _, _, _ in rects})
        ys = sorted({round(y, 3) for _, y, _, _ in rects})
        for seq in (xs, ys):
            for a, b in zip(seq, seq[1:]):
                assert abs(b - a - size) < 0.01
        assert len(xs) <= geo.cols
        # the artwork covers the cut rectangle plus bleed on every side, at >= 300 dpi
        for (x, y, w, h), (rx, ry, rw, rh) in zip(fi, rects):
            assert w == h and w > size
            assert x < rx and y < ry and x + w > rx + rw and y + h > ry + rh
        for name, xo in front["/Resources"]["/XObject"].items():
            xo = xo.get_object()
            if xo.get("/Subtype") == "/Image":
                dpi = xo["/Width"] / (max(w for _, _, w, _ in fi) / PT)
                assert dpi >= 300
        # backs are mirrored about the page's vertical centre, on the same rows
        for (x, y, w, _), (xb, yb, wb, _) in zip(fi, bi):
            assert abs(x + xb + w - pw) < 0.01 and abs(y - yb) < 0.01 and w == wb
        for t1, t2 in zip(ft, bt):
            assert (t1[0], t1[1], t1[3]) == (t2[0], t2[1], t2[3]) and t1[2] == "front" and t2[2] == "back"
        # dense rows: a row is short only where the next row starts another side (or the markers)
        rows: dict = {}
        for (rx, ry, _, _), t in zip(rects, ft):
            rows.setdefault(round(ry, 2), []).append(t)
        ordered = [rows[y] for y in sorted(rows, reverse=True)]
        for row, nxt in zip(ordered, ordered[1:]):
            assert len(row) == geo.cols or run_of(row[-1]) != run_of(nxt[0]), (i, len(row))
        # the mix under the grid counts the counters drawn
        assert f"Counter mix of sheet {i // 2 + 1} ({len(ft)} counters)" in texts[i]
        for face_index, rr in ((i, rects), (i + 1, cut_rects(back))):
            check_rendered_sheet(pdf, face_index, [(x, y) for x, y, _, _ in rr], ph, size, bleed)
        for kind, uid, face, k in ft:
            fronts[(kind, uid, k)] += 1
        for kind, uid, face, k in bt:
            backs[(kind, uid, k)] += 1
    want = expected_pieces(game)
    assert fronts == want
    assert backs == want


def check_pdf_basics(pdf: Path) -> None:
    """Title and subject in the metadata, selectable text, and every font embedded."""
    r = PdfReader(str(pdf))
    assert r.metadata.title and r.metadata.subject, pdf.name
    assert any(t.strip() for t in pdfium_texts(pdf)), pdf.name
    for page in r.pages:
        fonts = (page.get("/Resources") or {}).get("/Font") or {}
        for name, ref in fonts.items():
            f = ref.get_object()
            desc = f.get("/FontDescriptor")
            if desc is None and "/DescendantFonts" in f:
                desc = f["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            desc = desc.get_object() if desc is not None else {}
            assert any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3")), (pdf.name, name, f.get("/BaseFont"))


def test_every_pdf_has_metadata_text_and_embedded_fonts(sample_out):
    g, out, paths = sample_out
    pdfs = [p for p in paths if p.suffix == ".pdf"]
    assert len(pdfs) == 7
    for p in pdfs:
        check_pdf_basics(p)
    assert "counter sheets" in PdfReader(str(out / "counter-sheets.pdf")).metadata.subject


def test_expected_files(sample_out):
    g, out, paths = sample_out
    names = {p.name for p in paths}
    assert EXPECTED <= names
    assert {"setup-7.1.pdf", "setup-7.2.pdf"} <= names
    for p in paths:
        assert p.parent == out and p.is_file() and p.stat().st_size > 0
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]  # atomic writes leave nothing behind


def test_counter_sheets_measure_right_a4(sample_out):
    g, out, _ = sample_out
    check_sheets(g, out / "counter-sheets.pdf", "a4")


@pytest.mark.parametrize("size_in", [0.5, 0.75])
def test_counter_sheets_measure_right_letter(tmp_path, size_in):
    g = sample_game(counter_size_in=size_in, many_units=25)
    pdf = sheets.build_counter_sheets(g, tmp_path / "c.pdf", "letter")
    check_sheets(g, pdf, "letter")


def test_generic_counters_repeat_and_mix_is_listed(sample_out):
    g, out, _ = sample_out
    all_tags = [t for p in pdfium_texts(out / "counter-sheets.pdf") for t in tags(p)]
    assert sorted(k for kind, uid, face, k in all_tags if uid == "de-inf-generic" and face == "front") == [1, 2, 3]
    text = text_of(out / "counter-sheets.pdf")
    assert "Counter mix of sheet 1" in text
    assert "1-1-7 infantry \u00d73" in text
    assert "Barrage Full (count not printed; 1 copy)" in text
    assert "DG \u00d710" in text
    assert "2 Inf Div \u00d742" in text                            # a formation: its counters counted


def test_sheet_order_is_side_then_formation(sample_out):
    g, out, _ = sample_out
    order = [uid for p in pdfium_texts(out / "counter-sheets.pdf")[0::2] for kind, uid, face, k in tags(p)
             if kind == "unit" and k == 1]
    units = {u.id: u for u in g.units}
    sides = [units[u].side for u in order]
    assert sides == sorted(sides, key=["allied", "axis"].index)
    forms = [units[u].formation for u in order if units[u].side == "axis"]
    assert forms[:2] == ["de-1ss", "de-1ss"] and forms[2] == "de-12vg" and set(forms[3:]) == {None}


def test_paper_sizes(tmp_path):
    g = sample_game()
    for paper, (w, h) in (("a4", (595.2756, 841.8898)), ("letter", (612.0, 792.0))):
        paths = build_charts(g, tmp_path / paper, paper)
        for p in paths:
            if p.suffix == ".pdf":
                for page in PdfReader(str(p)).pages:
                    assert abs(float(page.mediabox.width) - w) < 0.01
                    assert abs(float(page.mediabox.height) - h) < 0.01
    with pytest.raises(ValueError):
        build_charts(g, tmp_path / "x", "a3")


def test_byte_for_byte_reproducible(tmp_path):
    g = sample_game(many_units=5)
    a = build_charts(g, tmp_path / "a", "a4")
    b = build_charts(sample_game(many_units=5), tmp_path / "b", "a4")
    assert [p.name for p in a] == [p.name for p in b]
    for pa, pb in zip(a, b):
        assert pa.read_bytes() == pb.read_bytes(), pa.name


def test_crt_is_vector_text_with_every_column_roll_key_and_drm(sample_out):
    g, out, _ = sample_out
    text = text_of(out / "tables.pdf")
    t = g.tables[0]
    for c in t.columns:
        assert c in text
    for row in t.rows:
        assert row.roll in text
        for cell in row.results:
            assert cell in text
    for k in t.key:
        assert k.meaning in text
    assert "First Turn Surprise (16 AM only)" in text and "-1" in text
    assert "smudged" in text                                     # uncertain reading listed


def test_incomplete_table_shows_a_visible_marker(sample_out):
    g, out, _ = sample_out
    text = text_of(out / "tables.pdf")
    assert "INCOMPLETE" in text
    assert "no row for roll 6" in text
    assert "not transcribed" in text


def test_complete_table_has_no_incomplete_marker(tmp_path):
    g = sample_game()
    t = dataclasses.replace(g.tables[0], rolls=(2, 5), complete=True)
    g = dataclasses.replace(g, tables=(t,))
    from compiler.charts.aids import build_tables
    text = text_of(build_tables(g, tmp_path / "t.pdf", "a4"))
    assert "INCOMPLETE" not in text and "Combat Results Table" in text


def test_short_row_cells_are_marked_missing(tmp_path):
    g = sample_game()
    t = g.tables[0]
    rows = (dataclasses.replace(t.rows[0], results=t.rows[0].results[:2]),) + t.rows[1:]
    g = dataclasses.replace(g, tables=(dataclasses.replace(t, rows=rows, rolls=(2, 5), complete=True),))
    from compiler.charts.aids import build_tables
    text = text_of(build_tables(g, tmp_path / "t.pdf", "a4"))
    assert "INCOMPLETE" in text and "2 of 4 cells not transcribed" in text and "missing" in text


def test_tec_lists_movement_per_class_and_marks_missing_rows(sample_out, tmp_path):
    g, out, _ = sample_out
    text = text_of(out / "tec.pdf")
    assert "Move: leg" in text and "Move: mech" in text and "1 shift L" in text and "barrage" in text
    assert "INCOMPLETE" in text and "City, Ridge" in text
    g2 = dataclasses.replace(g, tec=dataclasses.replace(g.tec, complete=True, missing=()))
    from compiler.charts.aids import build_tec
    assert "INCOMPLETE" not in text_of(build_tec(g2, tmp_path / "tec.pdf", "a4"))


def test_turn_track_and_orders_of_arrival(sample_out):
    g, out, _ = sample_out
    text = text_of(out / "turn-track.pdf")
    for t in g.turns:
        assert t.id in text
    assert "16 Dec 1944" in text and "17 Dec 1944" in text
    assert "Reinf.: German: 2" in text                        # 16 PM: two SS counters
    assert "Allied: 2, German: 3" in text                     # 17 AM: UK + TD, three generic
    ooa = text_of(out / "orders-of-arrival.pdf")
    assert "Roll one die: arrives on 5-6" in ooa
    assert "0101 or 0110" in ooa and "3\u00d7 1-1-7 infantry" in ooa
    assert "removed" in ooa
    assert "Area A or Area B" in ooa                           # one of several areas
    assert "Area A (A)" not in ooa                             # the area's name shows its id already
    # by turn, then side, then entry, as the printed card reads
    i16, i17 = ooa.index("16 PM"), ooa.index("17 AM")
    assert i16 < i17 < ooa.index("Allied", i17) < ooa.index("German", i17)
    assert ooa.index("0101 or 0110", i17) < ooa.index("Area A or Area B", i17) < ooa.index("1205", i17)


def test_orders_of_arrival_group_identical_units(tmp_path):
    from compiler.charts.aids import build_ooa
    from validator.source.model import OrderOfArrival, TurnBlock, Arrival, Location
    from test_charts_sample import P
    g = sample_game(many_units=4)
    arrival = Arrival(Location(area="B"), "us-2id", tuple(P(f"us-extra-{i}") for i in range(3)) + (P("us-td"),),
                      None)
    g = dataclasses.replace(g, orders_of_arrival=(OrderOfArrival("allied", "OOA", (
        TurnBlock("16 PM", "16 PM", (arrival,), ()),), "orders-of-arrival"),))
    text = text_of(build_ooa(g, tmp_path / "o.pdf", "a4"))
    assert "3\u00d7 1-1-8 infantry (1/X, 2/X, 3/X)" in text
    assert "1-1-8 infantry (1/X)" not in text and "4/X" not in text   # once, and only what arrives
    assert "3-2-14 tank destroyer (612)" in text and "\u00d7 3-2-14" not in text


def test_setup_cards(sample_out):
    g, out, _ = sample_out
    text = text_of(out / "setup-7.1.pdf")
    for h in ("0405", "0303 to 0306", "0905", "w/i 1 0807"):
        assert h in text
    assert "3-5-10 infantry (A/9)" in text and "dg" in text and "reduced" in text
    assert "Axis wins holding Bastogne." in text
    assert "NOT PRINTED" in text_of(out / "setup-7.2.pdf")
    assert "NOT PRINTED" not in text


def _occurrences(pdf: Path, index: int, word: str) -> list[tuple[float, float]]:
    """(x, y) of each occurrence of `word` in a page's text layer (whole word, case-sensitive)."""
    import pypdfium2 as pdfium
    doc = pdfium.PdfDocument(str(pdf))
    try:
        tp = doc[index].get_textpage()
        found, search = [], tp.search(word, match_case=True, match_whole_word=True)
        while (hit := search.get_next()) is not None:
            l, b, r, t = tp.get_charbox(hit[0])
            found.append((l, b))
        search.close()
        tp.close()
        return found
    finally:
        doc.close()


def _pixels_near(img, rgb, tol=12) -> int:
    return sum(n for n, px in img.getcolors(1 << 20) if all(abs(a - b) <= tol for a, b in zip(px, rgb)))


def test_setup_card_draws_counters_terrain_places_victory_and_holding_boxes(sample_out):
    from compiler.render.boards import terrain_colour
    g, out, _ = sample_out
    pdf = out / "setup-7.1.pdf"
    heading = _occurrences(pdf, 0, "Stacks")          # the first text under the plot
    assert heading
    above_list = lambda hits: [p for p in hits if p[1] > heading[0][1]]  # noqa: E731  (the plot is above)
    # units at one hex stand on the plot as counters: their IDs and factors, not only the list's names
    assert len(above_list(_occurrences(pdf, 0, "A/9"))) == 1                # top of the 0405 stack
    assert len(above_list(_occurrences(pdf, 0, "27"))) == 1                 # de-12vg-inf in 0905
    assert not above_list(_occurrences(pdf, 0, "DIVARTY"))                 # under A/9: in the stack list
    assert not above_list(_occurrences(pdf, 0, "VDH"))                     # w/i 1 0807: several hexes, a number
    assert len(above_list(_occurrences(pdf, 0, "Bastogne"))) == 1           # the place, named on the plot
    page1 = " ".join(pdfium_texts(pdf)[0].split())
    assert "0405: A/9, DIVARTY [dg]" in page1 and "0905:" not in page1      # one unit: no stack entry
    img, _ = render(pdf, 0)
    assert _pixels_near(img, terrain_colour("woods")) > 50                  # 0605's woods
    assert _pixels_near(img, (217, 166, 0), tol=20) > 20                    # the victory hex's gold star
    text = " ".join(" ".join(pdfium_texts(pdf)).split())
    assert "Reinforcements: holding boxes" in text
    for box in ("16 PM \u2014 German", "17 AM \u2014 Allied", "17 AM \u2014 German"):
        assert box in text
    assert "16 AM \u2014" not in text                                       # no box for a turn without arrivals
    # the 7.2 card has no set-up and no orders of arrival: no boxes, no counters
    assert "holding boxes" not in " ".join(pdfium_texts(out / "setup-7.2.pdf"))


def test_previews_are_pngs(sample_out):
    from PIL import Image
    g, out, _ = sample_out
    for name in ("counter-sheet-1.png", "crt.png"):
        with Image.open(out / name) as im:
            assert im.format == "PNG" and im.width > 500


@pytest.mark.parametrize("name", ["bulge", "aachen", "ardennes2", "meuse"])
def test_charts_of_the_real_trees(name, tmp_path):
    root = ROOT / "source" / name
    if not (root / "game.yaml").is_file():
        pytest.skip(f"source/{name} is not there yet")
    from validator.source.loader import load_game
    game, diags = load_game(root)
    assert game is not None, [str(d) for d in diags][:5]
    paths = build_charts(game, tmp_path, "letter" if name == "aachen" else "a4")
    names = {p.name for p in paths}
    assert EXPECTED <= names
    assert len([n for n in names if n.startswith("setup-")]) == len(game.scenarios)
    if game.units or game.markers:
        paper = "letter" if name == "aachen" else "a4"
        check_sheets(game, tmp_path / "counter-sheets.pdf", paper)
        # close to the fewest sheets the mix can fill
        geo = sheets.geometry(game, paper)
        rows = int((geo.top - geo.bleed - sheets.MARK_GAP - sheets.MARK_LEN - geo.bottom_limit) // geo.pitch)
        fewest = -(-sum(expected_pieces(game).values()) // (geo.cols * rows))
        fronts = len(PdfReader(str(tmp_path / "counter-sheets.pdf")).pages) // 2
        assert fewest <= fronts <= fewest + 1
        if name == "ardennes2":
            assert fronts == 3                     # 486 counters at 9/16" on A4 (14 pages before: 7 fronts)
    if name == "ardennes2":  # the campaign's overview is too small for counters: a page per board has them
        card = " ".join(" ".join(pdfium_texts(tmp_path / "setup-7.1.pdf")).split())
        assert "Map A: the set-up on its hexes" in card and "Map B: the set-up on its hexes" in card
    tables_text = text_of(tmp_path / "tables.pdf")
    for t in game.tables:
        assert t.name in tables_text
    crt = next((t for t in game.tables if t.kind == "combat"), None)
    if crt is not None:  # the CRT, its last row, key and modifiers on one side of the paper
        page1 = " ".join(pdfium_texts(tmp_path / "tables.pdf")[0].split())
        assert crt.name in page1 and crt.rows[-1].roll in page1
        for k in list(crt.key)[-1:]:
            assert " ".join(k.meaning.split())[:30] in page1
        for m in list(crt.drm)[-1:]:
            assert " ".join(m.when.split())[:30] in page1
    for pdf in sorted(tmp_path.glob("*.pdf")):
        check_pdf_basics(pdf)
    if any(not t.complete for t in game.tables):
        assert "INCOMPLETE" in tables_text
    flat = " ".join(tables_text.split())
    for t in game.tables:
        for n in t.notes:  # printed footnotes reach the chart
            assert " ".join(n.split())[:40] in flat, n
    if game.tec is not None and not game.tec.complete:
        assert "INCOMPLETE" in text_of(tmp_path / "tec.pdf")


def test_reproducible_across_processes_and_hash_seeds(tmp_path):
    import subprocess
    code = ("import sys; sys.path[:0] = [%r, %r]\n"
            "from pathlib import Path\n"
            "from test_charts_sample import sample_game\n"
            "from compiler.charts.build import build_charts\n"
            "build_charts(sample_game(many_units=3), Path(sys.argv[1]), 'letter')\n") % (str(ROOT), os.path.dirname(__file__))
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        subprocess.run([sys.executable, "-c", code, str(tmp_path / seed)], check=True, env=env, cwd=ROOT)
    names = sorted(p.name for p in (tmp_path / "1").iterdir() if p.is_file())  # .cache: the face pack
    assert names == sorted(p.name for p in (tmp_path / "2").iterdir() if p.is_file()) and "counter-sheets.pdf" in names
    for n in names:
        assert (tmp_path / "1" / n).read_bytes() == (tmp_path / "2" / n).read_bytes(), n
