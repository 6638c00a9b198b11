"""The combat referee on the example game meuse, whose tree knows everything: every CRT cell, terrain
column shifts, the three DRMs (conditions as data), retreats, advances, blocked retreats, and the two
real VASSAL logs with a combat (tests/fixtures/vlogs)."""
from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest

from conftest import SOURCE
from compiler.vassal.vlog import read_log
from validator.source.loader import load_game
from validator.positions.position import Counter, Position, Where
from validator.records.record import DieRoll, Moved, Removed, StateChanged
from validator.referee.audit import audit
from validator.referee.combat import judge_battle
from validator.source.model import TerrainType
from validator.referee.combat_terrain import side_features, terrain_effect

FIX = Path(__file__).resolve().parent / "fixtures" / "vlogs"
COLUMNS = ["1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1"]
OPEN = "B14.14"                   # clear, and every hex within 2 of it clear, no hexside feature
RIVER_DEF, RIVER_ATT = "A16.05", ("B1.05", "A16.04")    # an unbridged Meuse hexside between them


@pytest.fixture(scope="module")
def game():
    g, diags = load_game(SOURCE / "meuse")
    assert g is not None, [str(d) for d in diags]
    return g


def roll(n):
    return DieRoll("1d6", (n,), n)


# attackers by attack factor: (unit, reduced); armor apart (it adds +1 against a clear hex)
NON_ARMOR = {1: ("red-1ad-rec", True), 2: ("red-1ad-rec", False), 3: ("red-9ab-mr", False), 4: ("red-4rd-10", False)}
ARMOR = {2: ("red-9ab-tk", True), 3: ("red-1ad-1tk", True), 5: ("red-9ab-tk", False), 6: ("red-1ad-1tk", False)}
DEFENDERS = {3: [("blue-3id-eng", 3)], 9: [("blue-3id-7", 5), ("blue-12id-30", 4)]}


def column_of(attack: int, defense: int) -> str:
    """8.2 worked by hand: rounded in the defender's favour, beyond 6:1 uses 6:1."""
    if attack >= defense:
        return f"{min(attack // defense, 6)}:1"
    return f"1:{math.ceil(defense / attack)}"


def attack_for(column: str, pieces: int, armor: bool) -> tuple[int, list[tuple[str, bool, bool]]]:
    """A defense and at least `pieces` attackers (one armor if asked, else none) that make the column."""
    for defense in (3, 9):
        for n in range(pieces, 7):
            for combo in itertools.combinations_with_replacement(sorted(NON_ARMOR), n - (1 if armor else 0)):
                for a in (sorted(ARMOR) if armor else [None]):
                    total = sum(combo) + (a or 0)
                    if column_of(total, defense) == column:
                        out = [(*NON_ARMOR[x], False) for x in combo] + ([(*ARMOR[a], True)] if a else [])
                        return defense, out
    raise AssertionError(f"no attack makes {column}")


def _clear_step(game, frm, avoid_near, dist_from, want):
    """A neighbour of `frm` at distance `want` from `dist_from`, not next to any hex of `avoid_near`."""
    for n in sorted(game.grid.neighbours(frm)):
        if game.grid.distance(dist_from, n) == want and not side_features(game, frm, n) and \
                all(game.grid.distance(n, h) >= 2 for h in avoid_near) and "water" not in game.hex_terrain(n):
            return n
    raise AssertionError(f"no retreat step from {frm}")


def retreat_two(game, defender_hex, attacker_hexes):
    mid = _clear_step(game, defender_hex, attacker_hexes, defender_hex, 1)
    return _clear_step(game, mid, attacker_hexes, defender_hex, 2)


class Battle:
    """A battle on the map: attackers spread over `hexes`, defenders in `at`; `apply` turns a result code
    into the events a player would make in VASSAL."""

    def __init__(self, game, at, hexes, attackers, defense):
        self.game, self.at = game, at
        self.att = [(Counter(f"a{i}", u, "red", frozenset({"reduced"}) if red else frozenset()), hexes[i % len(hexes)])
                    for i, (u, red, _) in enumerate(attackers)]
        self.dfn = [(Counter(f"d{i}", u, "blue"), at) for i, (u, _) in enumerate(DEFENDERS[defense])]
        self.position = Position.of([(c, Where(h)) for c, h in self.att + self.dfn])

    def apply(self, code: str) -> list:
        ev = []
        for part in code.split("/"):
            ev += getattr(self, f"_{part.lower()}")()
        return ev

    def _flip(self, c, h):
        return StateChanged(c.with_state({"reduced"}), c.state, Where(h))

    def _ae(self):
        return [Removed(c, Where(h)) for c, h in self.att]

    def _a1(self):
        full = [(c, h) for c, h in self.att if "reduced" not in c.state]
        c, h = (full or self.att)[0]
        return [self._flip(c, h)] if full else [Removed(c, Where(h))]

    def _ar(self):
        return [Moved(c, Where(h), Where(_clear_step(self.game, h, [self.at], self.at, 2))) for c, h in self.att]

    def _ne(self):
        return []

    def _ex(self):
        return self._d1() + self._a1()

    def _dr(self):
        to = retreat_two(self.game, self.at, [h for _, h in self.att])
        return [Moved(c, Where(h), Where(to)) for c, h in self.dfn]

    def _d1(self):
        c, h = self.dfn[0]
        return [self._flip(c, h)]

    def _de(self):
        return [Removed(c, Where(h)) for c, h in self.dfn]


def _setup(game, row: int):
    """The die, the attackers' hexes and whether one is armor for a modified roll: 0 = die 1 across the river
    (-1); 1-6 = the die, from one or two hexes; 7 = die 6 from three hexes (+1); 8 = die 6, three hexes and armor
    against a clear hex (+2)."""
    if row == 0:
        return 1, RIVER_DEF, list(RIVER_ATT), False
    near = sorted(game.grid.neighbours(OPEN))
    if row <= 6:
        return row, OPEN, near[:2], False
    return 6, OPEN, near[:3], row == 8


ORDER = ["AE", "A1", "AR", "NE", "DR", "EX", "D1", "D1/DR", "DE"]   # worse to better for the attacker


def _better(game, b, row, col):
    """A result better for the attacker than the printed one, whose events differ from it: no smaller attack
    (fewer attackers, fewer modifiers) reaches it, so applying it is a violation under every reading."""
    t = next(t for t in game.tables if t.id == "crt")
    printed = t.rows[row].results[col]
    later = [r for r in ORDER[ORDER.index(printed) + 1:] if repr(b.apply(r)) != repr(b.apply(printed))]
    return printed, (later[0] if later else "AE/DE")


@pytest.mark.parametrize("row", range(9))
@pytest.mark.parametrize("col", range(8))
def test_every_crt_cell(game, row, col):
    die, at, hexes, armor = _setup(game, row)
    defense, attackers = attack_for(COLUMNS[col], 3 if row >= 7 else 1, armor)
    b = Battle(game, at, hexes, attackers, defense)
    printed, wrong = _better(game, b, row, col)
    j = judge_battle(game, b.position, "red", roll(die), b.apply(printed))
    # legal: the full attack at this column and row gives it (a smaller attack may give it too, and is named
    # when it is the first reading tried)
    assert j.verdict == "legal" and j.message.endswith(f"({printed})"), j.message
    j = judge_battle(game, b.position, "red", roll(die), b.apply(wrong))
    assert (j.verdict, j.code) == ("violation", "HF1501"), j.message


# -- terrain column shifts (8.4) --
def _one_hex_battle(game, at, attack_units, defenders, attackers_at=None):
    hexes = attackers_at or [sorted(game.grid.neighbours(at))[0]]
    att = [(Counter(f"a{i}", u, "red"), hexes[0]) for i, u in enumerate(attack_units)]
    dfn = [(Counter(f"d{i}", u, "blue"), at) for i, u in enumerate(defenders)]
    return att, dfn, Position.of([(c, Where(h)) for c, h in att + dfn])


@pytest.mark.parametrize("at, terrain, column", [("B14.14", "clear", "4:1"), ("B9.10", "woods", "3:1"),
                                                 ("B2.17", "town", "3:1"), ("A15.10", "city", "2:1")])
def test_defender_terrain_shifts_the_column(game, at, terrain, column):
    # 4 x 4 (leg infantry, no armor) against 4 (30/12): 4:1, shifted 1L (woods, town) or 2L (city); roll 4
    assert game.hex_terrain(at) == (terrain,)
    hexes = [n for n in sorted(game.grid.neighbours(at)) if not side_features(game, at, n)][:1]
    att, dfn, pos = _one_hex_battle(game, at, ["red-4rd-10"] * 4, ["blue-12id-30"], hexes)
    t = next(t for t in game.tables if t.id == "crt")
    cell = t.rows[4].results[COLUMNS.index(column)]
    events = Battle.apply.__get__(_as_battle(game, at, att, dfn))(cell)
    j = judge_battle(game, pos, "red", roll(4), events)
    assert j.verdict == "legal" and j.message.endswith(f"({cell})"), j.message
    if terrain != "clear":
        assert ("shifted 1L" if terrain != "city" else "shifted 2L") in j.message
        # the unshifted column's result (4:1, roll 4 = D1/DR) fits no reading: a violation
        unshifted = Battle.apply.__get__(_as_battle(game, at, att, dfn))("D1/DR")
        assert judge_battle(game, pos, "red", roll(4), unshifted).verdict == "violation"


def _as_battle(game, at, att, dfn):
    b = Battle.__new__(Battle)
    b.game, b.at, b.att, b.dfn = game, at, att, dfn
    return b


def test_a_shift_stops_at_the_first_column(game):
    # 2 against 4 in the city is 1:2, shifted 2L: past 1:3, it stays at 1:3 (8.4); roll 2 at 1:3 = A1
    at = "A15.10"
    att, dfn, pos = _one_hex_battle(game, at, ["red-4rd-10"], ["blue-12id-30"],
                                    [n for n in sorted(game.grid.neighbours(at)) if not side_features(game, at, n)][:1])
    att = [(att[0][0].with_state({"reduced"}), att[0][1])]           # 2-3-4: attack 2
    pos = Position.of([(c, Where(h)) for c, h in att + dfn])
    j = judge_battle(game, pos, "red", roll(2), [StateChanged(att[0][0].with_state({"reduced"}), att[0][0].state,
                                                                Where(att[0][1]))])
    # a reduced unit losing a step is eliminated: the flip shows no step lost, so only removal fits A1
    assert j.verdict == "violation"
    j = judge_battle(game, pos, "red", roll(2), [Removed(att[0][0], Where(att[0][1]))])
    assert j.verdict == "legal" and "column 1:3 (1:2 shifted 2L)" in j.message, j.message


def test_tec_cells_read_from_the_notes_or_said_standard(game):
    notes = game.tec.notes
    city, river = game.terrain_type("city"), game.terrain_type("river")
    assert terrain_effect(city, notes).shift == -2 and terrain_effect(city, notes).assumption is None
    r = terrain_effect(river, notes)
    assert (r.drm, r.every_attacker, r.multiplier) == (-1, True, 1)
    bare = terrain_effect(city, {})
    assert bare.shift == -2 and "no TEC note explains '2L'" in bare.assumption
    odd = TerrainType("x", "X", "hex", {}, "1L", {})
    assert terrain_effect(odd, {"1L": "Shift one column to the right."}).shift == 1   # the note says so


def test_a_shift_no_note_explains_is_read_as_standard_and_said(game):
    import dataclasses
    bare = dataclasses.replace(game, tec=dataclasses.replace(game.tec, notes={}))
    at = "B2.17"                                                       # Pontis, a town: 1L
    hexes = [n for n in sorted(game.grid.neighbours(at)) if not side_features(game, at, n)][:1]
    att, dfn, pos = _one_hex_battle(game, at, ["red-4rd-10"] * 4, ["blue-12id-30"], hexes)
    events = Battle.apply.__get__(_as_battle(game, at, att, dfn))("EX")      # 4:1 -> 3:1, roll 4 = EX
    j = judge_battle(bare, pos, "red", roll(4), events)
    assert j.verdict == "legal" and j.notes == ("no TEC note explains '1L': read as the standard shift of 1 "
                                                "column(s) left",)
    assert judge_battle(game, pos, "red", roll(4), events).notes == ()


# -- die-roll modifiers (8.5) --
def test_armor_against_clear_terrain_adds_one(game):
    # 6 (a tank) against 5 (7/3) in clear: 1:1; roll 2 +1 = 3 at 1:1 is NE; without the DRM row 2 is AR
    at = OPEN
    h = sorted(game.grid.neighbours(at))[0]
    tank, inf = Counter("t", "red-1ad-1tk", "red"), Counter("d", "blue-3id-7", "blue")
    pos = Position.of([(tank, Where(h)), (inf, Where(at))])
    j = judge_battle(game, pos, "red", roll(2), [])
    assert j.verdict == "legal" and "row 3 (NE)" in j.message
    back = Moved(tank, Where(h), Where(_clear_step(game, h, [at], at, 2)))
    assert judge_battle(game, pos, "red", roll(2), [back]).verdict == "violation"     # AR is row 2
    # the same tank against woods (1L: 1:2, no armor DRM): roll 2 at 1:2 is AR
    woods = "B9.10"
    wh = next(n for n in sorted(game.grid.neighbours(woods)) if game.hex_terrain(n) == ("woods",))
    pos = Position.of([(tank, Where(wh)), (inf, Where(woods))])
    j = judge_battle(game, pos, "red", roll(2), [])
    assert j.verdict == "violation" and "1:2 (1:1 shifted 1L)/2: AR" in j.message


def test_three_hexes_add_one(game):
    # 3 rifle regiments (4 each) from three hexes against 5+4: 12:9 = 1:1; roll 2 +1 = 3: NE (row 2 is AR)
    hexes = sorted(game.grid.neighbours(OPEN))[:3]
    att = [(Counter(f"a{i}", "red-4rd-10", "red"), h) for i, h in enumerate(hexes)]
    dfn = [(Counter("d0", "blue-3id-7", "blue"), OPEN), (Counter("d1", "blue-12id-30", "blue"), OPEN)]
    pos = Position.of([(c, Where(h)) for c, h in att + dfn])
    j = judge_battle(game, pos, "red", roll(2), [])
    assert j.verdict == "legal" and "column 1:1, row 3 (NE)" in j.message
    # two of them in one hex: two hexes, no DRM: roll 2 is AR, and nobody retreated; one attacker alone (4
    # against 9 = 1:3, roll 2 = A1) does not fit either
    two = Position.of([(att[0][0], Where(hexes[0])), (att[1][0], Where(hexes[0])), (att[2][0], Where(hexes[1]))]
                      + [(c, Where(h)) for c, h in dfn])
    assert judge_battle(game, two, "red", roll(2), []).verdict == "violation"


def test_attacking_across_the_river_subtracts_one_and_a_bridge_cancels_it(game):
    # 4 against 5 across the Meuse: 1:2; roll 1 -1 = 0 at 1:2 is AE (row 1 would be A1)
    inf, dfn = Counter("a", "red-4rd-10", "red"), Counter("d", "blue-3id-7", "blue")
    pos = Position.of([(inf, Where(RIVER_ATT[0])), (dfn, Where(RIVER_DEF))])
    assert side_features(game, RIVER_ATT[0], RIVER_DEF) == {"river"}
    j = judge_battle(game, pos, "red", roll(1), [Removed(inf, Where(RIVER_ATT[0]))])
    assert j.verdict == "legal" and "row 0 (AE)" in j.message
    assert judge_battle(game, pos, "red", roll(1), [StateChanged(inf.with_state({"reduced"}), inf.state,
                                                                 Where(RIVER_ATT[0]))]).verdict == "violation"
    # near miss: a second attacker not across the river; 8 against 5 = 1:1 and no DRM: roll 1 is AR (both
    # retreat), which row 0 (A1 at 1:1) would not give
    other = "A15.05"
    assert side_features(game, other, RIVER_DEF) == frozenset()
    inf2 = Counter("b", "red-4rd-11", "red")
    pos2 = Position.of([(inf, Where(RIVER_ATT[0])), (inf2, Where(other)), (dfn, Where(RIVER_DEF))])
    back = [Moved(c, Where(h), Where(_clear_step(game, h, [RIVER_DEF], RIVER_DEF, 2)))
            for c, h in ((inf, RIVER_ATT[0]), (inf2, other))]
    j = judge_battle(game, pos2, "red", roll(1), back)
    assert j.verdict == "legal" and "column 1:1, row 1 (AR)" in j.message, j.message
    # across the Pontis bridge (B2.17 -> B1.17: river and bridge) there is no DRM: roll 1 at 1:2 is A1
    assert side_features(game, "B2.17", "B1.17") == frozenset({"bridge"})
    pos = Position.of([(inf, Where("B2.17")), (dfn, Where("B1.17"))])
    j = judge_battle(game, pos, "red", roll(1), [StateChanged(inf.with_state({"reduced"}), inf.state, Where("B2.17"))])
    assert j.verdict == "legal" and "row 1 (A1)" in j.message


# -- retreats and advances (8.6, 8.7) --
def _dr_battle(game):
    """4 x 4 (one hex) against 5 (7/3) in the open: 16:5 = 3:1, roll 2 = DR."""
    h = sorted(game.grid.neighbours(OPEN))[0]
    att = [(Counter(f"a{i}", "red-4rd-10", "red"), h) for i in range(4)]
    d = Counter("d", "blue-3id-7", "blue")
    return h, att, d, Position.of([(c, Where(x)) for c, x in att] + [(d, Where(OPEN))])


def test_retreat_of_two_hexes(game):
    h, att, d, pos = _dr_battle(game)
    to = retreat_two(game, OPEN, [h])
    assert judge_battle(game, pos, "red", roll(2), [Moved(d, Where(OPEN), Where(to))]).verdict == "legal"
    # one hex is short of DR's two
    one = _clear_step(game, OPEN, [h], OPEN, 1)
    j = judge_battle(game, pos, "red", roll(2), [Moved(d, Where(OPEN), Where(one))])
    assert j.verdict == "violation" and f"blue-3id-7 retreated 1 hex(es) ({OPEN} -> {one}), DR needs exactly 2" \
        in j.message
    # two hexes, but ending next to the attacker (in its ZOC): the result (DR) was applied, the retreat's
    # way is wrong: not the result's fault (HF1501) but the retreat's (its drag, HF1513)
    toward = next(n for n in game.grid.within(OPEN, 2) if game.grid.distance(OPEN, n) == 2
                  and game.grid.distance(h, n) == 1)
    j = judge_battle(game, pos, "red", roll(2), [Moved(d, Where(OPEN), Where(toward))])
    assert j.verdict == "legal" and "(DR)" in j.message
    assert j.drags == (("d", None, f"7th Infantry Regiment retreats {OPEN} -> {toward}: its drag to {toward} ends "
                                   f"the retreat where a retreat never goes ({toward} is in an enemy ZOC)"),)
    # roll 5 at 3:1 is D1/DR: flipped, but not retreating (a smaller attack gives EX or DR: no reading fits)
    j = judge_battle(game, pos, "red", roll(5), [StateChanged(d.with_state({"reduced"}), d.state, Where(OPEN))])
    assert j.verdict == "violation" and "blue-3id-7 did not retreat (D1/DR: 2 hex(es))" in j.message
    # nothing at all after roll 2 is legal: three of the four attacking (12:5 = 2:1) roll NE
    assert judge_battle(game, pos, "red", roll(2), []).verdict == "legal"


def test_eliminated_instead_of_retreating(game):
    h, att, d, pos = _dr_battle(game)
    # in the open it could retreat: its elimination is a violation, naming a hex it could reach
    j = judge_battle(game, pos, "red", roll(2), [Removed(d, Where(OPEN))])
    assert j.verdict == "violation" and "blue-3id-7 was eliminated though it could retreat to" in j.message
    # red units two hexes away put every neighbour in a red ZOC: every way is blocked, eliminated is legal
    ring, open_ = [], set(game.grid.neighbours(OPEN))
    for n in sorted(x for x in game.grid.within(OPEN, 2) if game.grid.distance(OPEN, x) == 2):
        covers = open_ & set(game.grid.neighbours(n))
        if len(covers) == 2:
            ring.append(n)
            open_ -= covers
    assert not open_ and len(ring) == 3
    red = [(Counter(f"r{i}", "red-4rd-11", "red"), n) for i, n in enumerate(ring)]
    boxed = Position.of([(c, Where(x)) for c, x in att + red] + [(d, Where(OPEN))])
    assert judge_battle(game, boxed, "red", roll(2), [Removed(d, Where(OPEN))]).verdict == "legal"
    # one of them gone: a way is open again
    part = Position.of([(c, Where(x)) for c, x in att + red[:2]] + [(d, Where(OPEN))])
    assert judge_battle(game, part, "red", roll(2), [Removed(d, Where(OPEN))]).verdict == "violation"


def test_advance_into_the_vacated_hex(game):
    h, att, d, pos = _dr_battle(game)
    to = retreat_two(game, OPEN, [h])
    retreat = Moved(d, Where(OPEN), Where(to))
    a = att[0][0]
    legal = judge_battle(game, pos, "red", roll(2), [retreat, Moved(a, Where(h), Where(OPEN))])
    assert legal.verdict == "legal", legal.message
    assert legal.faults == ()
    # past the defender's hex: an advance of 1 enters it and stops. The result (DR) fits: the advance is wrong
    # (HF1512), at its own step
    beyond = next(n for n in sorted(game.grid.neighbours(OPEN)) if game.grid.distance(h, n) == 2)
    j = judge_battle(game, pos, "red", roll(2), [retreat, Moved(a, Where(h), Where(beyond))], event_steps=(7, 8))
    assert j.verdict == "legal"
    assert j.faults == ((a.piece, "too-far", f"10th Rifle Regiment advances {h} -> {beyond}: an advance of 1 hex(es) "
                                             f"goes into the defender's hex {OPEN} first", 8),)
    # roll 4 at 3:1 is EX: the defender, flipped, stays; moving into its hex is an advance into a hex not vacated
    flips = [StateChanged(d.with_state({"reduced"}), d.state, Where(OPEN)),
             StateChanged(a.with_state({"reduced"}), a.state, Where(h))]
    j = judge_battle(game, pos, "red", roll(4), flips + [Moved(att[1][0], Where(h), Where(OPEN))])
    assert j.verdict == "legal" and [f[:2] for f in j.faults] == [(att[1][0].piece, "too-far")]
    assert f"but the defender's hex {OPEN} was not vacated" in j.faults[0][2]
    # a reduced defender eliminated by EX vacates its hex: any result then allows the advance (8.7)
    weak = d.with_state({"reduced"})
    pos2 = Position.of([(c, Where(x)) for c, x in att] + [(weak, Where(OPEN))])   # three of them: 12:3, EX
    j = judge_battle(game, pos2, "red", roll(3), [Removed(weak, Where(OPEN)), flips[1],
                                                  Moved(att[1][0], Where(h), Where(OPEN))])
    assert j.verdict == "legal" and j.message.endswith("(EX)"), j.message


# -- the real logs --
def _audited(game, name):
    return audit(game, read_log(FIX / f"{name}.vlog", module=FIX / "meuse.vmod", game=game))


def test_meuse_legal_combat_is_judged_legal(game):
    r = _audited(game, "meuse_legal")
    assert [f for f in r.findings if f.code.startswith("HF15")] == []
    assert r.coverage["steps"][7] == {"step": 8, "status": "full", "reasons": []}     # the roll


def test_meuse_violations_step_10_deletes_a_defender_that_should_retreat(game):
    r = _audited(game, "meuse_violations")
    combat = [(f.step, f.code, f.severity, f.hexes, f.units) for f in r.findings if f.code.startswith("HF15")]
    assert combat == [(10, "HF1501", "error", ("B1.17",), (game.unit("blue-3id-9").name,))]   # named as every finding names units
    f = next(f for f in r.findings if f.code == "HF1501")
    assert "1:2/5: DR" in f.message and "blue-3id-9 was eliminated though it could retreat to" in f.message
    assert (f.turn, f.phase, f.side, f.rule) == ("1", "red-combat", "red", "8.3, 8.6")


def test_meuse_combat_legal_three_battles_with_drags(game):
    # retreats in two drags each, advances into the vacated hexes, an attack at exactly 1:3: nothing to find
    r = _audited(game, "meuse_combat_legal")
    assert [f for f in r.findings if f.code.startswith(("HF15", "HF16"))] == []
    assert all(s["status"] == "full" for s in r.coverage["steps"])


def test_meuse_combat_violations_each_at_its_step(game):
    r = _audited(game, "meuse_combat_violations")
    got = [(f.step, f.code, f.severity, f.hexes, f.units, f.rule) for f in r.findings if f.code.startswith(("HF15", "HF16"))]
    assert got == [
        (10, "HF1505", "warning", ("B1.10",), (game.unit("blue-2lm-rec").name,), "8.3"),
        (12, "HF1513", "error", ("B1.10", "B1.11"), (game.unit("blue-2lm-rec").name,), "8.6"),
        (20, "HF1512", "error", ("B2.17", "B1.17"), (game.unit("red-4rd-11").name,), "8.7")]
    msg = {f.code: f.message for f in r.findings}
    assert msg["HF1505"] == ("the roll 5 at step 8 for the battle against B1.10 (at 5:1 (6:1 shifted 1L): DE) was "
                             "undone at step 9 and rolled again at step 10 (3: D1/DR)")
    assert msg["HF1513"].endswith("retreats B1.10 -> B1.11 -> A16.11: its drag to B1.11 stops where a retreat never "
                                  "goes (B1.11 is in an enemy ZOC)")
    assert msg["HF1512"].endswith("advances B2.17 -> B1.17 -> A16.17: an advance of 1 hex(es) goes into the "
                                  "defender's hex B1.17 first and stops there")


def test_drm_conditions_evaluate_yes_no_unknown(game):
    from validator.source.model import DrmCondition
    from validator.referee.combat_terrain import BattleFacts, condition_holds
    tanks = BattleFacts(("red-1ad-1tk", "red-4rd-10"), frozenset({"B14.13", "B13.14"}), OPEN, "clear")
    assert condition_holds(game, DrmCondition(attacker_class=("mechanized",)), tanks) == "yes"
    assert condition_holds(game, DrmCondition(attacker_type=("engineer",)), tanks) == "no"
    assert condition_holds(game, DrmCondition(attack_hexes=3), tanks) == "no"
    # the defender's terrain not known in this reading: may or may not hold; a unit the tree lacks likewise
    unknown = BattleFacts(("red-4rd-10", None), frozenset({"B14.13"}), OPEN, None)
    assert condition_holds(game, DrmCondition(defender_terrain=("clear",)), unknown) == "unknown"
    assert condition_holds(game, DrmCondition(attacker_type=("armor",)), unknown) == "unknown"
    # every part must hold: one "no" decides
    assert condition_holds(game, DrmCondition(attacker_type=("armor",), defender_terrain=("woods",)), tanks) == "no"
