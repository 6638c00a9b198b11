"""Every chart shows the data it claims: each chart's text layer, read back with pypdf, holds each turn,
hex and value of the model it was drawn from, in the chart's order.

The expectations are worked out here from the model, not from the chart code: the orders of arrival
run by turn (the corrected turn, with the errata applied), each block under its printed heading unless
an erratum moved its turn, in which case the heading names the corrected turn and the erratum; with
`--as-printed` every heading and value is the print's, and the erratum is named beside it. What an
erratum corrected is found by comparing the tree loaded with and without errata.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from compiler.charts import aids, setup
from compiler.cli import main
from validator.source.loader import load_game

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("ardennes2", "bulge", "aachen", "meuse")
MARK = " \u2014 erratum "


@dataclass(frozen=True)
class Frag:
    page: int
    x: float
    y: float
    text: str


def fragments(pdf: Path) -> list[Frag]:
    """Every line of text a PDF draws, in the order its content streams draw them, with where."""
    out: list[Frag] = []
    for i, page in enumerate(PdfReader(str(pdf)).pages):
        def visit(text, cm, tm, font, size, i=i):
            if text.strip():
                x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
                y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
                out.append(Frag(i, round(x, 1), round(y, 1), " ".join(text.split())))
        page.extract_text(visitor_text=visit)
    return out


def joined(frags: list[Frag]) -> str:
    """The fragments' text as one line: a line broken after a hyphen ("improved-" / "position") rejoined."""
    return re.sub(r"-\n", "-", "\n".join(f.text for f in frags)).replace("\n", " ")


def missing_in_order(frags: list[Frag], wanted: list[str]) -> list[str]:
    """The wanted texts that do not appear in drawing order (each after the one before), with context."""
    text = joined(frags)
    pos, lost = 0, []
    for w in wanted:
        i = text.find(w, pos)
        if i < 0:
            lost.append(f"{w!r} (after {text[max(0, pos - 60):pos]!r})")
        else:
            pos = i + len(w)
    return lost


@pytest.fixture(scope="module")
def trees():
    out = {}
    for name in GAMES:
        corrected, _ = load_game(ROOT / "source" / name)
        printed, _ = load_game(ROOT / "source" / name, apply_errata=False)
        out[name] = (corrected, printed)
    return out


def _draw(tmp_path, game, build, name) -> list[Frag]:
    return fragments(build(game, tmp_path / name, "a4"))


# -- orders of arrival ----------------------------------------------------------------------------

def _rows(frags: list[Frag]) -> list[dict]:
    """The order-of-arrival table read back: one entry per heading in the Turn column, with the text
    of each column under it until the next heading (across pages)."""
    header = {f.page: f.y for f in frags if f.text == "Turn"}
    assert header, "no table header"
    first = min(header)
    body = [f for f in frags if f.page >= first and f.y < header.get(f.page, 1e9) - 1 and f.y > 30]
    columns = ["Turn", "Side", "Entry", "Formation", "Units", "Notes"]
    col_x = sorted({f.x for f in body})[-len(columns):]   # each column's cells start at one x; the notes
    #                                                       under the table at the frame's edge, left of them
    rows: list[dict] = []
    last_turn_y = None
    for f in body:
        if f.x < col_x[0] - 1:               # a paragraph under the table (the errata's notes): the end
            break
        col = columns[col_x.index(f.x)] if f.x in col_x else None
        if col is None:
            continue
        if col == "Turn":
            if rows and last_turn_y is not None and 0 < last_turn_y[1] - f.y < 11 and last_turn_y[0] == f.page:
                rows[-1]["Turn"] += " " + f.text          # the heading's next line
            else:
                rows.append({c: "" for c in columns})
                rows[-1]["Turn"] = f.text
            last_turn_y = (f.page, f.y)
        elif rows:
            rows[-1][col] += " " + f.text
    return rows


def _designation_id(game, p) -> tuple[str, str]:
    """(factors, ID) a unit line shows: the factors its printed text starts with, the unit's own ID."""
    u = game.unit(p.unit)
    name = p.printed or (u.name if u else p.unit)
    ident = (u.label if u and u.label else None) or (re.findall(r"\(([^()]*)\)\s*$", u.name if u else "") or [""])[0]
    return name.split()[0], ident


def _expected_ooa(game, other) -> list[tuple[str, list]]:
    """(heading, the blocks under it) in chart order, from the model: the heading as printed, unless an
    erratum changed the block's turn (the block's turn differs in `other`, the tree loaded the other way):
    then the corrected turn where the errata are applied, the print where not, and the erratum beside it."""
    turn_ix = {t.id: i for i, t in enumerate(game.turns)}
    side_ix = {s.id: i for i, s in enumerate(game.sides)}
    keyed = []
    for o, oo in zip(game.orders_of_arrival, other.orders_of_arrival):
        for tb, ob in zip(o.turns, oo.turns):
            moved = tb.turn != ob.turn
            label = (f"Turn {tb.turn}" if moved and game.errata_applied else tb.printed or tb.turn)
            keyed.append(((turn_ix.get(tb.turn, len(turn_ix)), label + (MARK if moved else ""), side_ix[o.side]),
                          label, moved, tb, ob))
    keyed.sort(key=lambda k: k[0][:2] + (k[0][2],))
    out: list[tuple[str, list]] = []
    for key, label, moved, tb, ob in keyed:
        head = label + (MARK if moved else "")
        if out and out[-1][0] == head:
            out[-1][1].append((tb, ob))
        else:
            out.append((head, [(tb, ob)]))
    return out


def _check_ooa(game, other, frags) -> list[str]:
    rows, expected = _rows(frags), _expected_ooa(game, other)
    problems = []
    shown = [r["Turn"] for r in rows]
    heads = [h for h, _ in expected if any(b.arrivals or b.removals for b, _ in _)]
    if [s.split(MARK)[0] + (MARK if MARK in s else "") for s in shown] != heads:
        return [f"headings {shown} != {heads}"]
    for row, (head, blocks) in zip(rows, [e for e in expected if e[0] in heads]):
        for tb, ob in blocks:
            for a, oa in zip(tb.arrivals, ob.arrivals):
                for h in a.entry.hex_refs():
                    if h not in row["Entry"]:
                        problems.append(f"{head}: entry hex {h} not under it")
                for p, op in zip(a.units, oa.units):
                    factors, ident = _designation_id(game, p)
                    if factors not in row["Units"] or ident not in row["Units"]:
                        problems.append(f"{head}: {factors} ({ident}) not under it")
                    if p.printed != op.printed and f"{p.printed}{MARK}" not in row["Units"]:
                        problems.append(f"{head}: {p.printed!r} not marked with its erratum")
    return problems


@pytest.mark.parametrize("name", GAMES)
def test_orders_of_arrival_rows_hold_each_turn_entry_and_unit(trees, tmp_path, name):
    corrected, printed = trees[name]
    if not corrected.orders_of_arrival:
        pytest.skip(f"{name} has no orders of arrival")
    assert _check_ooa(corrected, printed, _draw(tmp_path, corrected, aids.build_ooa, "ooa.pdf")) == []
    assert _check_ooa(printed, corrected, _draw(tmp_path, printed, aids.build_ooa, "ooa-printed.pdf")) == []


def test_ardennes2_german_block_moved_by_ooa_1_is_turn_3(trees, tmp_path):
    """The block erratum ooa-1 moves to turn 3 is read as turn 3 (between turns 3 and 4, not under "Turn 6"),
    its heading and its JgTg Bn line marked, the notes naming what was printed; as printed, the print."""
    corrected, printed = trees["ardennes2"]
    rows = _rows(_draw(tmp_path, corrected, aids.build_ooa, "ooa.pdf"))
    heads = [r["Turn"] for r in rows]
    assert heads[:4] == ["Turn 2", "Turn 3", "Turn 3 \u2014 erratum ooa-1", "Turn 4"]
    german3 = rows[2]
    assert german3["Side"].strip() == "German" and "2 SS Pz Div" in german3["Formation"]
    assert "6-8-6 JgTg Bn (653) \u2014 erratum counters-1" in german3["Units"]
    assert heads.count("Turn 6") == 1                       # the print's second "Turn 6" is gone
    text = " ".join(f.text for f in fragments(tmp_path / "ooa.pdf"))
    assert ("Erratum ooa-1 (Ardennes II Official Errata, 2024-12-16): the turn of the German block headed "
            "\u201cTurn 6\u201d (block 2 of the German list) was printed \u201c6\u201d; it is \u201c3\u201d.") in text
    assert "was printed \u201c6-8-8 JgTg Bn (653)\u201d; it is \u201c6-8-6 JgTg Bn (653)\u201d" in text
    rows = _rows(_draw(tmp_path, printed, aids.build_ooa, "ooa-printed.pdf"))
    heads = [r["Turn"] for r in rows]
    assert "Turn 3 \u2014 erratum ooa-1" not in heads and heads.count("Turn 6 \u2014 erratum ooa-1") == 1
    assert "6-8-8 JgTg Bn (653) \u2014 erratum counters-1" in rows[heads.index("Turn 6 \u2014 erratum ooa-1")]["Units"]
    text = " ".join(f.text for f in fragments(tmp_path / "ooa-printed.pdf"))
    assert "As printed: the errata are not applied" in text and "(shown as printed); the erratum makes it \u201c3\u201d" in text


# -- the other charts -----------------------------------------------------------------------------

@pytest.mark.parametrize("name", GAMES)
def test_turn_track_holds_each_turn_date_and_reinforcement_count(trees, tmp_path, name):
    game, _ = trees[name]
    wanted = []
    for t in game.turns:
        wanted.append(t.id)
        if t.date:
            wanted.append(aids.fmt_date(t.date))
        if game.orders_of_arrival:
            n = {s.id: sum(p.count for o in game.orders_of_arrival if o.side == s.id for b in o.turns
                           if b.turn == t.id for a in b.arrivals for p in a.units) for s in game.sides}
            shown = [f"{s.name}: {n[s.id]}" for s in game.sides if n[s.id]]
            wanted.append("Reinf.: " + (", ".join(shown) if shown else "none"))
    frags = _draw(tmp_path, game, aids.build_turn_track, "turn-track.pdf")
    flat = [Frag(0, 0, 0, joined(frags))]   # a cell's lines wrap where they like
    assert missing_in_order(flat, wanted) == []


@pytest.mark.parametrize("name", GAMES)
def test_tables_hold_each_roll_and_result_in_order(trees, tmp_path, name):
    game, _ = trees[name]
    frags = _draw(tmp_path, game, aids.build_tables, "tables.pdf")
    flat = [Frag(0, 0, 0, joined(frags))]
    for t in game.tables:
        wanted = [t.name] + [c for c in t.columns]
        for row in t.rows:
            wanted += [row.roll] + [" ".join(c.split()) for c in row.results if c.strip()]
        assert missing_in_order(flat, wanted) == [], t.name


@pytest.mark.parametrize("name", GAMES)
def test_tec_holds_each_terrain_and_its_costs_in_order(trees, tmp_path, name):
    game, _ = trees[name]
    if game.tec is None:
        pytest.skip(f"{name} has no TEC")
    frags = _draw(tmp_path, game, aids.build_tec, "tec.pdf")
    flat = [Frag(0, 0, 0, joined(frags))]
    classes = list(game.tec.movement_classes)
    for t in game.tec.terrain:
        cells = [t.movement.get(mc) for mc in classes]
        wanted = [t.name] + [" ".join(c.split()) for c in cells if c and len(c) <= aids.LONG_CELL]
        assert missing_in_order(flat, wanted) == [], t.name


@pytest.mark.parametrize("name", GAMES)
def test_setup_cards_list_each_line_hex_unit_and_state(trees, tmp_path, name):
    game, _ = trees[name]
    for sc in game.scenarios:
        frags = fragments(setup.build_setup_card(game, sc, tmp_path / f"setup-{setup.safe_name(sc.id)}.pdf", "a4"))
        start = next((i for i, f in enumerate(frags) if f.text == "Set-up"), None)
        if not sc.setup:
            continue
        assert start is not None, sc.id
        flat = [Frag(0, 0, 0, joined(frags[start:]))]
        wanted = []
        for i, grp in enumerate(sc.setup, 1):
            wanted += [str(i), aids.location_text(game, grp.location)]
            for p in grp.units:
                u = game.unit(p.unit)
                wanted.append(p.printed or (u.name if u else p.unit))
                wanted += list(p.state)
        assert missing_in_order(flat, wanted) == [], sc.id


def test_charts_as_printed_from_the_command_line(tmp_path):
    """`hexforge charts --as-printed` writes the print's set (its own default folder, its footer says so)."""
    out = tmp_path / "printed"
    r = CliRunner().invoke(main, ["charts", str(ROOT / "source" / "ardennes2"), "--as-printed", "--out", str(out)])
    assert r.exit_code == 0, r.output
    text = " ".join(f.text for f in fragments(out / "orders-of-arrival.pdf"))
    assert "Turn 6 \u2014 erratum ooa-1" in text and "as printed: the errata are not applied" in text
    assert "Turn 3 \u2014 erratum ooa-1" not in text
