"""Data as printed, marked where not printed (issue 8, item 10), checked against the rulebook texts."""
from pathlib import Path

import pytest

from compiler.cli import check_tree
from conftest import SOURCE
from validator.source.loader import load_game

SEEDS = Path(__file__).resolve().parents[1] / ".." / "shared" / "seeds"
BULGE_TEXT = SEEDS / "000_d3ec185ee1c283ca.txt"

US_FORMATIONS = {"us-1id", "us-9id", "us-28id", "us-99id", "us-106id"}
UNTYPED_US_UNITS = {"us-106-422", "us-99-395", "us-106-424", "us-28-112", "us-28-109"}


def _game(name):
    if not (SOURCE / name / "game.yaml").is_file():
        pytest.skip(f"source/{name} is not in this checkout")
    game, diags = load_game(SOURCE / name)
    assert game is not None
    return game


def _inferred(game) -> set[str]:
    return {a.what.split(": ", 1)[1] for a in game.assumptions
            if a.provenance == "inferred" and a.loc.file == "counters.yaml"}


def test_bulge_values_the_rulebook_does_not_print_are_marked_inferred():
    game = _game("bulge")
    assert US_FORMATIONS | UNTYPED_US_UNITS | {"de-vdh"} <= _inferred(game)


@pytest.mark.skipif(not BULGE_TEXT.is_file(), reason="the rulebook text is not here")
def test_the_rulebook_indeed_does_not_print_them():
    text = BULGE_TEXT.read_text(encoding="utf-8")
    game = _game("bulge")
    for fid in US_FORMATIONS:
        assert game.formation(fid).name not in text             # "1st Infantry Division" is never printed
    for line in ("99/395 (QQ5), 106/424 (PP18), 28/112 (NN20), and 28/109 (OO29)", "Allied unit 106/422"):
        assert line in text                                      # named by designation only, no type
    assert "Blue and White: German Luftwaffe (air and ground units)" in text
    assert "VDH" in text and "VDH battalion" in text and "Luftwaffe VDH" not in text


def test_printed_values_stay_unmarked():
    game = _game("bulge")
    inferred = _inferred(game)
    assert not {"uk-51hd", "de-1ss", "us-1-16", "de-kg-peiper"} & inferred   # names printed in the rules


def test_bulge_inferred_values_are_reported_as_one_note():
    _, diags = check_tree(SOURCE / "bulge")
    (d,) = [d for d in diags if d.code == "HF902" and d.loc.file == "counters.yaml"]
    assert d.severity == "info" and d.message.startswith("inferred: 11 entries of counters.yaml (")


def test_ardennes2_crt_row_4_does_not_say_which_cell_is_missing():
    _, diags = check_tree(SOURCE / "ardennes2")
    (d,) = [d for d in diags if d.code == "HF602"]
    assert d.message == ("table Combat Results Tables (two dice), roll 4: 9 cells for 10 columns "
                         "(1 missing; a short row does not show under which column)")
    assert (d.loc.file, d.loc.line, d.severity) == ("tables.yaml", 12, "warning")
    (gap,) = [g for g in _game("ardennes2").gaps if g.id == "crt-rows"]
    assert "7:1+" not in gap.what and "does not show which column" in gap.what


def test_a_table_with_an_illegible_cell_is_not_complete():
    game = _game("bulge")
    crt = next(t for t in game.tables if t.id == "crt")
    assert not crt.complete and any("8-1+" in m for m in crt.extra.get("missing", ()))
    _, diags = check_tree(SOURCE / "bulge")
    assert [d for d in diags if d.code == "HF614"] == []
