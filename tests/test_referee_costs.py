"""The referee's reading of TEC movement costs: the cheapest a hex can cost, and plain terrain's."""
from fractions import Fraction

import pytest

from validator.source.loader import load_game
from validator.referee.costs import costs_by_class


@pytest.mark.parametrize("game_id, cls, cheapest, plain", [
    ("aachen", "leg", Fraction(1, 2), Fraction(1)),           # road 1/2 (5.4.1), clear 1 (5.4)
    ("ardennes2", "mech", Fraction(1, 2), Fraction(3)),       # road 1/2, open 3
    ("ardennes2", "leg", Fraction(1, 2), Fraction(2)),
    ("bulge", "other", Fraction(1, 4), Fraction(1)),          # the road table is printed by unit type
])
def test_cheapest_and_plain_costs(game_id, cls, cheapest, plain):
    game, _ = load_game(f"source/{game_id}")
    c = costs_by_class(game)[cls]
    assert (c.cheapest, c.plain) == (cheapest, plain)


def test_prohibited_terrain_is_read_from_the_tec():
    game, _ = load_game("source/bulge")
    assert "cliff" in costs_by_class(game)["mechanized"].prohibited
    game, _ = load_game("source/aachen")
    assert costs_by_class(game)["leg"].prohibited == frozenset()


def test_the_road_rule_is_cited():
    game, _ = load_game("source/aachen")
    assert costs_by_class(game)["leg"].cheapest_rule == "5.4.1"


def test_terrain_costs_are_made_once_per_game():
    """A batch of logs of one game costs each hexside once: the TerrainCosts of a class is kept per game
    object (another load of the same tree is another game, with its own)."""
    from validator.source.loader import load_game
    from validator.referee.costs import class_costs, terrain_costs
    g1, g2 = load_game("source/meuse")[0], load_game("source/meuse")[0]
    mech, leg = class_costs(g1, "mechanized"), class_costs(g1, "leg")
    kept = terrain_costs(g1, mech)
    assert terrain_costs(g1, mech) is kept and terrain_costs(g1, leg) is not kept
    assert terrain_costs(g1, leg).costs == leg
    other = terrain_costs(g2, class_costs(g2, "mechanized"))
    assert other is not kept and other.game is g2
    assert other.enter("B11.11", "B10.11") == kept.enter("B11.11", "B10.11")   # the same tree, the same costs
