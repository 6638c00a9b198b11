"""Counter artwork: determinism, colours, symbols, sizes, and the honest backs."""
from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from test_charts_sample import F, build_index, sample_game  # noqa: E402

from compiler.render import counters as C  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SIZE = 96


def _unit(g, uid):
    return next(u for u in g.units if u.id == uid)


def _close(a, b, tol=3):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def test_every_face_is_deterministic_and_square():
    g = sample_game()
    for u in g.units:
        for face in ("front", "back"):
            a = C.counter_image(g, u, face, SIZE)
            b = C.counter_image(g, u, face, SIZE)
            assert a.size == (SIZE, SIZE) and a.mode == "RGB"
            assert a.tobytes() == b.tobytes(), (u.id, face)
    for m in g.markers:
        a, b = C.marker_image(g, m, SIZE), C.marker_image(g, m, SIZE)
        assert a.size == (SIZE, SIZE) and a.tobytes() == b.tobytes()


def test_fonts_come_from_the_reportlab_wheel():
    assert C.FONT_DIR is not None and os.path.isfile(os.path.join(C.FONT_DIR, "VeraBd.ttf"))


def test_background_is_the_nationality_colour():
    g = sample_game()
    ss = C.counter_image(g, _unit(g, "de-1ss-pz"), "front", SIZE)
    us = C.counter_image(g, _unit(g, "us-2id-a-9"), "front", SIZE)
    assert _close(ss.getpixel((2, SIZE // 2)), (0x11, 0x11, 0x11))
    assert _close(us.getpixel((2, SIZE // 2)), (0x5b, 0x7f, 0x3a))


def test_indistinguishable_side_colours_get_per_side_fallback_tints():
    g = sample_game()
    grey = lambda s: dataclasses.replace(s, nationalities=tuple(dataclasses.replace(n, colour="#cccccc")
                                                                   for n in s.nationalities))
    g2 = build_index(dataclasses.replace(g, sides=tuple(grey(s) for s in g.sides), _index={}))
    a = C.unit_colours(g2, _unit(g2, "us-2id-a-9"))[0]
    b = C.unit_colours(g2, _unit(g2, "de-1ss-pz"))[0]
    assert a != b
    # printed, distinct colours are used as they are
    assert C.unit_colours(g, _unit(g, "uk-29"))[0] == (0xa0, 0x7a, 0x4a)


def test_reduced_side_has_a_lighter_border_and_shows_the_reduced_factors():
    g = sample_game()
    u = _unit(g, "us-td")
    front = C.counter_image(g, u, "front", SIZE)
    back = C.counter_image(g, u, "back", SIZE)
    assert sum(back.getpixel((1, SIZE // 2))) > sum(front.getpixel((1, SIZE // 2))) + 60
    # the factors drawn depend on unit.reduced: change it and the back changes
    other = dataclasses.replace(u, reduced=F("2-1-14"))
    assert C.counter_image(g, other, "back", SIZE).tobytes() != back.tobytes()
    assert C.counter_image(g, u, "reduced", SIZE).tobytes() == back.tobytes()


def test_unknown_reduced_side_is_marked_not_invented():
    g = sample_game()
    u = _unit(g, "us-14cav")                      # two steps, reduced side not printed
    assert u.reduced is None and u.steps == 2
    unknown = C.counter_image(g, u, "back", SIZE)
    for guess in ("2-2-16", "1-1-16", "1-2-16"):
        assert C.counter_image(g, dataclasses.replace(u, reduced=F(guess)), "back", SIZE).tobytes() \
            != unknown.tobytes()
    assert unknown.tobytes() != C.counter_image(g, u, "front", SIZE).tobytes()


def test_one_step_back_blank_when_the_game_says_so_else_marked():
    g = sample_game()
    u = _unit(g, "us-eng")
    marked = C.counter_image(g, u, "back", SIZE)
    assert len(marked.getcolors(1 << 16)) > 1          # "1 step" drawn
    rules = dataclasses.replace(g.rules, other={"one_step_back": "blank"})
    g2 = dataclasses.replace(g, rules=rules)
    blank = C.counter_image(g2, u, "back", SIZE)
    assert [c for _, c in blank.getcolors(1 << 16)] == [(0x5b, 0x7f, 0x3a)]


def test_symbol_and_size_change_the_picture():
    g = sample_game()
    u = _unit(g, "de-12vg-inf")
    base = C.counter_image(g, u, "front", SIZE).tobytes()
    assert C.counter_image(g, dataclasses.replace(u, type="panzer"), "front", SIZE).tobytes() != base
    assert C.counter_image(g, dataclasses.replace(u, size="bn"), "front", SIZE).tobytes() != base
    assert C.counter_image(g, dataclasses.replace(u, factors=F("3-4-7")), "front", SIZE).tobytes() != base


def test_exploit_banner_is_yellow():
    g = sample_game()
    img = C.counter_image(g, _unit(g, "us-2id-a-9"), "front", SIZE)
    r, gg, b = img.getpixel((SIZE // 2, SIZE - 2))
    assert r > 200 and gg > 170 and b < 80


@pytest.mark.parametrize("type_,comps,code", [
    ("infantry", {"inf"}, None),
    ("Volksgrenadier", {"inf"}, None),
    ("armor", {"armor"}, None),
    ("panzer", {"armor"}, None),
    ("tank", {"armor"}, None),
    ("panzergrenadier", {"inf", "armor"}, None),
    ("mechanized infantry", {"inf", "armor"}, None),
    ("armored infantry", {"inf", "armor"}, None),
    ("armored cavalry", {"cav", "armor"}, None),
    ("armored recon", {"cav", "armor"}, None),
    ("cavalry", {"cav"}, None),
    ("recon", {"cav"}, None),
    ("artillery", {"art"}, None),
    ("Arty", {"art"}, None),
    ("nebelwerfer", {"art", "rocket"}, None),
    ("engineer", {"eng"}, None),
    ("pioneer", {"eng"}, None),
    ("airborne", {"inf", "para"}, None),
    ("parachute infantry", {"inf", "para"}, None),
    ("glider infantry", {"inf", "glider"}, None),
    ("tank destroyer", {"at", "armor"}, None),
    ("JgPz", {"at", "armor"}, None),
    ("anti-tank", {"at"}, None),
    ("flak", {"aa"}, None),
    ("motorized infantry", {"inf", "wheeled"}, None),
    ("wunderwaffe", set(), "WUND"),
    ("", set(), "?"),
])
def test_classify_type(type_, comps, code):
    got, got_code = C.classify_type(type_)
    assert set(got) == comps and got_code == code


@pytest.mark.parametrize("size,expected", [
    ("team", (1, "")), ("co", (0, "I")), ("bn", (0, "II")), ("Bn(+)", (0, "II+")), ("bn+", (0, "II+")),
    ("rgt", (0, "III")), ("grp", (0, "III")), ("bde", (0, "X")), ("div", (0, "XX")), ("rgt(-)", (0, "III-")),
    ("kg", (0, "KG")), (None, (0, "")),
])
def test_size_marker(size, expected):
    assert C.size_marker(size) == expected


def test_bad_face_is_rejected():
    g = sample_game()
    with pytest.raises(ValueError):
        C.counter_image(g, g.units[0], "side", SIZE)


@pytest.mark.parametrize("name", ["bulge", "aachen", "ardennes2", "meuse"])
def test_every_counter_of_the_real_trees_renders(name):
    root = ROOT / "source" / name
    if not (root / "game.yaml").is_file():
        pytest.skip(f"source/{name} is not there yet")
    from validator.source.loader import load_game
    game, diags = load_game(root)
    assert game is not None, [str(d) for d in diags if getattr(d, "severity", "") == "error"][:5]
    for u in game.units:
        for face in ("front", "back"):
            img = C.counter_image(game, u, face, 64)
            assert img.size == (64, 64)
    for m in game.markers:
        assert C.marker_image(game, m, 64).size == (64, 64)


def _ink_box(img, box, rgb, tol=40):
    """Bounding box (x0, y0, x1, y1) of the pixels close to `rgb` inside box, or None."""
    x0, y0, x1, y1 = box
    pts = [(x, y) for y in range(y0, y1) for x in range(x0, x1)
           if all(abs(a - b) <= tol for a, b in zip(img.getpixel((x, y)), rgb))]
    if not pts:
        return None
    return min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts)


def test_identifications_share_one_type_size():
    g = sample_game()
    short = dataclasses.replace(_unit(g, "us-td"), label="EH", formation=None)
    long_ = dataclasses.replace(_unit(g, "us-td"), label="HEKTIWLNXZHE", formation=None)
    g2 = build_index(dataclasses.replace(g, units=g.units + (dataclasses.replace(short, id="s"),
                                                             dataclasses.replace(long_, id="l")), _index={}))
    size = 192
    box = (0, int(size * 0.45), size, int(size * 0.57))
    fg = C.unit_colours(g2, short)[1]
    a = _ink_box(C.counter_image(g2, short, "front", size), box, fg)
    b = _ink_box(C.counter_image(g2, long_, "front", size), box, fg)
    assert a and b
    assert abs((a[3] - a[1]) - (b[3] - b[1])) <= 1          # the same cap height (flat letters): one scale
    assert (b[2] - b[0]) > 2 * (a[2] - a[0])                # the long one is long, not smaller
    s1, s2 = C.type_scale(g2, 100), C.type_scale(g2, 100)
    assert s1 == s2 and s1.ident > 0


def test_back_not_printed_keeps_the_identity_and_says_so_quietly():
    g = sample_game()
    u = _unit(g, "us-14cav")                      # two steps, reduced side not printed
    size = 192
    back = C.counter_image(g, u, "back", size)
    bg, fg = C.unit_colours(g, u)
    ident_box = (0, int(size * 0.45), size, int(size * 0.57))
    factor_box = (int(size * 0.1), int(size * 0.69), int(size * 0.9), int(size * 0.9))
    assert _ink_box(back, ident_box, fg, tol=20) is not None            # "14" is on the back
    assert _ink_box(back, factor_box, fg, tol=20) is None               # no loud black warning ...
    assert _ink_box(back, factor_box, C._blend(fg, bg, 0.45), tol=25) is not None   # ... a quiet note
