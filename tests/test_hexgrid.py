"""Hex geometry: the three printed ID schemes, neighbours, distance, seams — with property tests."""
from hypothesis import given, settings, strategies as st

from validator.geometry.hexgrid import Board, Grid, column_letters, letters_column

BULGE = Grid("letters", "columns", "odd", (Board("", (1, 50), (1, 35)),))
AACHEN = Grid("column-row", "columns", "even", (Board("", (1, 30), (1, 34)),))
ARD2 = Grid("map-column.row", "columns", "even",
            (Board("A", (1, 40), (0, 52), (0, 0)), Board("B", (1, 40), (0, 52), (40, 0))))
ROWS = Grid("column-row", "rows", "odd", (Board("", (1, 20), (1, 20)),))
GRIDS = [BULGE, AACHEN, ARD2, ROWS]


def test_printed_ids_parse_and_format_back():
    for g, ids in ((BULGE, ["TT15", "UU1", "W2", "A1", "XX16", "ZZ3"]), (AACHEN, ["0409", "3028", "0102"]),
                   (ARD2, ["B27.49", "A29.00", "B1.11", "A40.10"])):
        for i in ids:
            h = g.parse(i)
            assert h is not None and g.format(h) == i


def test_non_canonical_ids_are_refused():
    assert BULGE.parse("UU01") is None      # rows are unpadded on the Bulge map
    assert BULGE.parse("AB3") is None       # doubled letters only
    assert AACHEN.parse("409") is None
    assert ARD2.parse("B27.4") is None and ARD2.parse("B027.49") is None


def test_letter_columns():
    assert [column_letters(n) for n in (1, 26, 27, 46, 50)] == ["A", "Z", "AA", "TT", "XX"]
    assert all(letters_column(column_letters(n)) == n for n in range(1, 53))


def test_ardennes_seam_b1_meets_a40():
    # Errata 2: the track in B1.11 connects with the road in A40.10
    assert ARD2.adjacent("A40.10", "B1.11")
    assert "B1.11" in ARD2.neighbours("A40.10") and "A40.10" in ARD2.neighbours("B1.11")
    assert ARD2.distance("A39.10", "B2.10") == 3


def test_edges_have_fewer_neighbours():
    assert len(BULGE.neighbours("A1")) == 2 or len(BULGE.neighbours("A1")) == 3
    assert len(BULGE.neighbours("TT15")) == 6


def test_range_on_a_column_is_every_hex_between():
    assert AACHEN.line("0102", "0109") == [f"01{r:02d}" for r in range(2, 10)]


def _hexes(g):
    return st.sampled_from(sorted(g.hexes()))


@st.composite
def grid_and_hexes(draw, n=3):
    g = draw(st.sampled_from(GRIDS))
    return (g,) + tuple(draw(_hexes(g)) for _ in range(n))


@settings(max_examples=300, deadline=None)
@given(grid_and_hexes(1))
def test_round_trip(gh):
    g, h = gh
    assert g.format(g.parse(h)) == h and g.exists(h)


@settings(max_examples=300, deadline=None)
@given(grid_and_hexes(2))
def test_distance_symmetric_and_zero_only_on_itself(gh):
    g, a, b = gh
    assert g.distance(a, b) == g.distance(b, a)
    assert (g.distance(a, b) == 0) == (a == b)


@settings(max_examples=300, deadline=None)
@given(grid_and_hexes(3))
def test_triangle_inequality(gh):
    g, a, b, c = gh
    assert g.distance(a, c) <= g.distance(a, b) + g.distance(b, c)


@settings(max_examples=200, deadline=None)
@given(grid_and_hexes(1))
def test_neighbours_are_mutual_and_at_distance_one(gh):
    g, a = gh
    ns = g.neighbours(a)
    assert 2 <= len(ns) <= 6 and len(set(ns)) == len(ns)
    for n in ns:
        assert g.distance(a, n) == 1 and a in g.neighbours(n)
        assert g.hexside(a, n) == g.hexside(n, a)
        assert (g.direction(a, n) + 3) % 6 == g.direction(n, a)


@settings(max_examples=100, deadline=None)
@given(grid_and_hexes(1), st.integers(0, 3))
def test_within_is_exactly_the_hexes_at_distance_n(gh, n):
    g, a = gh
    got = set(g.within(a, n))
    assert all(g.distance(a, x) <= n for x in got)
    assert set(g.neighbours(a)) <= got or n == 0
    if n == 1:
        assert got == set(g.neighbours(a)) | {a}


@settings(max_examples=200, deadline=None)
@given(grid_and_hexes(2))
def test_line_is_connected_and_shortest(gh):
    g, a, b = gh
    ln = g.line(a, b)
    assert ln[0] == a and ln[-1] == b
    assert len(ln) == g.distance(a, b) + 1 or not all(g.exists(x) for x in ln)
    assert all(g.adjacent(x, y) for x, y in zip(ln, ln[1:]))


# -- drawing geometry: one owner for parity, centres, corners, board enumeration (issue 8 item 5) --

def test_shift_parity_is_the_grids():
    assert [BULGE.is_shifted(c) for c in (1, 2, 3)] == [True, False, True]      # odd columns sit lower
    assert [AACHEN.is_shifted(c) for c in (1, 2, 3)] == [False, True, False]    # even ones do
    # adjacency follows the same parity: column 2 sits lower in Aachen, so 0102 touches 0201 and 0202 ...
    assert AACHEN.adjacent("0102", "0201") and not AACHEN.adjacent("0102", "0203")
    # ... and with odd columns lower it touches 0202 and 0203 instead
    odd = Grid("column-row", "columns", "odd", AACHEN.boards)
    assert odd.adjacent("0102", "0203") and not odd.adjacent("0102", "0201")
    assert AACHEN.centre_steps(2, 2) == (2.0, 2.5) and odd.centre_steps(2, 2) == (2.0, 2.0)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(GRIDS), st.data())
def test_neighbours_are_one_hex_apart_on_paper(g, data):
    """Regular hexes of circumradius 1: adjacent centres are sqrt(3) apart, any others further."""
    h = data.draw(st.sampled_from(list(g.hexes())))
    x, y = g.centre(*g.surface(g.parse(h)))
    for n in g.within(h, 2):
        nx, ny = g.centre(*g.surface(g.parse(n)))
        d = ((nx - x) ** 2 + (ny - y) ** 2) ** 0.5
        if g.adjacent(h, n):
            assert abs(d - 3 ** 0.5) < 1e-9
        elif n != h:
            assert d > 3 ** 0.5 + 0.5


def test_corners_of_a_regular_hex():
    for g in (BULGE, ROWS):
        pts = g.corners(10.0, 20.0, 2.0, 3 ** 0.5)
        assert len(pts) == 6
        assert all(abs(((px - 10) ** 2 + (py - 20) ** 2) ** 0.5 - 2.0) < 1e-9 for px, py in pts)
    assert BULGE.corners(0, 0, 2, 1)[0] == (2, 0)          # flat-topped: a corner east
    assert ROWS.corners(0, 0, 2, 1)[0] == (0, 2)           # pointy-topped: a corner south


def test_board_enumeration():
    b = ARD2.boards[1]
    hexes = list(ARD2.board_hexes(b))
    assert hexes[0] == ("B1.00", 1, 0) and hexes[-1] == ("B40.52", 40, 52) and len(hexes) == 40 * 53
    assert list(ARD2.hexes()) == [h for bb in ARD2.boards for h, _, _ in ARD2.board_hexes(bb)]


def test_renderers_take_their_geometry_from_the_grid():
    from compiler.render.boards import path_segments
    from compiler.render.layout import DY, HALF_W, BoardLayout
    lay = BoardLayout(ARD2, ARD2.boards[1])
    # board B starts at surface column 40: its column 1 is surface column 41, shifted as the grid says
    assert lay.shifted(1) == ARD2.is_shifted(41) and lay.shifted(2) == ARD2.is_shifted(42)
    x, y = lay.centre(5, 5)
    assert lay.polygon(5, 5) == ARD2.corners(x, y, HALF_W, DY / 2)
    assert [h for h, _, _ in lay.hexes()] == [h for h, _, _ in ARD2.board_hexes(ARD2.boards[1])]
    # roads join hexes that touch, across the A/B seam too; a gap in the list draws nothing
    assert path_segments(ARD2, ("A39.10", "A40.10", "B1.11", "B3.11")) == [("A39.10", "A40.10"), ("A40.10", "B1.11")]


def test_within_a_huge_distance_is_the_whole_map_and_returns_at_once():
    import time
    t = time.perf_counter()
    assert sorted(AACHEN.within("1010", 10 ** 9)) == sorted(AACHEN.hexes())
    assert time.perf_counter() - t < 5
    assert len(AACHEN.within("1010", 1)) == 7                    # near miss: a small n is untouched


def test_a_line_along_a_map_edge_stays_on_the_map():
    # along row 00 the straight line runs exactly between hexes; the tie once went off the map (row -1)
    ln = ARD2.line("A1.00", "A9.00")
    assert ln == [f"A{c}.00" for c in range(1, 10)]
    assert ARD2.line("A1.05", "A3.04") == ["A1.05", "A2.04", "A3.04"]   # near miss: inside, ties as before
