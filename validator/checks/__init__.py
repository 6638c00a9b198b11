"""The check registry: small named functions, one concern each, found from their code.

A check is `@check("HF301", "unit-placed-twice", "error", "…")` on a function taking the
`Context` and yielding `Finding`s; the decorator declares the code in `validator.codes`, once, with
the function's docstring as the code's documentation.
`run_checks` turns findings into Diagnostics with the check's code, default severity and help.
Codes are stable: never reuse a retired one.
"""
from __future__ import annotations

from typing import Callable, Iterable, Iterator, Optional

from ..codes import SEVERITIES, Severity, declare
from ..diagnostics import Diagnostic
from ..source.frozen import frozen
from ..geometry.locations import in_play
from ..source.model import Game, Loc
from ..positions.scenario_position import ScenarioPosition, position_of_scenario


@frozen
class Finding:
    """What a check found: where, what, the hexes and units involved; `help` and `severity` override the check's."""
    loc: Loc
    message: str
    hexes: tuple[str, ...] = ()
    units: tuple[str, ...] = ()
    help: Optional[str] = None
    severity: Optional[Severity] = None  # overrides the check's default (e.g. a declared-incomplete table)

    def __post_init__(self) -> None:
        if self.severity is not None and self.severity not in SEVERITIES:
            raise ValueError(f"severity {self.severity!r} is not one of {SEVERITIES}")


@frozen
class Check:
    """A registered tree check (`@check`): its code, name, default severity, help line and function."""
    code: str
    name: str
    severity: Severity
    help: str
    func: Callable[["Context"], Iterable[Finding]]


REGISTRY: dict[str, Check] = {}


def check(code: str, name: str, severity: Severity, help: str):
    """Register the decorated function as the check of `code`; its docstring is the code's documentation
    (the sections `validator.code_docs` reads: `hexforge explain`, docs/codes.md)."""
    def register(func):
        declared = declare(code, name, severity, help, "check", func.__doc__)   # raises if declared twice
        REGISTRY[code] = Check(code, name, declared.severity, help, func)
        return func
    return register


class Context:
    """The game plus look-ups several checks share, computed once."""

    def __init__(self, game: Game):
        self.game = game
        self.grid = game.grid
        self._memo: dict = {}

    def hex_refs(self) -> list[tuple[str, Loc, str, object]]:
        """Every hex ID the tree names: (hex, where, what names it, scenario or None)."""
        if "hex_refs" in self._memo:
            return self._memo["hex_refs"]
        g = self.game
        out: list[tuple[str, Loc, str, object]] = []
        for h in g.terrain.hexes:
            out.append((h.hex, h.loc, "terrain", None))
        for hs in g.terrain.hexsides:
            out += [(x, hs.loc, f"{hs.feature} hexside", None) for x in hs.between]
        for p in g.terrain.paths:
            out += [(x, p.loc, f"{p.feature}", None) for x in p.hexes]
        for pl in g.places.places:
            out += [(x, pl.loc, f"place {pl.name}", None) for x in pl.hexes]
        for v in g.places.victory:
            if v.hex:
                out.append((v.hex, v.loc, "victory hex", None))
        for a in g.places.areas:
            out += [(x, a.loc, f"area {a.id}", None) for x in a.hexes or ()]
        for f in g.places.features:
            out.append((f.hex, f.loc, f.kind, None))
        for s in g.places.supply_sources:
            if s.hex:
                out.append((s.hex, s.loc, "supply source", None))
        for o in g.orders_of_arrival:
            for _, _, a in self.arrivals_of(o):
                out += [(x, a.entry.loc, "arrival", None) for x in a.entry.hex_refs()]
        for sc in g.scenarios:
            for grp in sc.setup:
                out += [(x, grp.location.loc, "set-up", sc) for x in grp.location.hex_refs()]
            for d in sc.deployments:
                out += [(x, d.location.loc, "deployment", sc) for x in d.location.hex_refs()]
            for o in sc.reinforcements:
                for _, _, a in self.arrivals_of(o):
                    out += [(x, a.entry.loc, "arrival", sc) for x in a.entry.hex_refs()]
            for f in sc.features:
                out.append((f.hex, f.loc, f.kind, sc))
            for sup in sc.supply_sources:
                out += [(x, sup.get("loc", sc.loc), "supply source", sc) for x in sup.get("hexes") or ()]
            for x in (sc.victory or {}).get("hexes") or ():
                out.append((x, sc.victory.get("loc", sc.loc), "victory hex", sc))
        self._memo["hex_refs"] = out
        return out

    def locations(self) -> list:
        """(location, where its line is) for every set-up line, arrival and deployment in the tree."""
        g = self.game
        out = [(a.entry, a.loc) for o in g.orders_of_arrival for _, _, a in self.arrivals_of(o)]
        for sc in g.scenarios:
            out += [(grp.location, grp.loc) for grp in sc.setup]
            out += [(a.entry, a.loc) for o in sc.reinforcements for _, _, a in self.arrivals_of(o)]
            out += [(d.location, d.loc) for d in sc.deployments]
        return out

    @staticmethod
    def arrivals_of(ooa) -> Iterator:
        """(order of arrival, turn block, arrival) for every arrival of one order of arrival."""
        for b in ooa.turns:
            for a in b.arrivals:
                yield ooa, b, a

    def setup_units(self, sc) -> list:
        """(set-up group, placement) for every unit line of a scenario's set-up."""
        return [(grp, p) for grp in sc.setup for p in grp.units]

    def in_play(self, sc):
        """A predicate: is a hex in the scenario's play area? (None when every hex of every board is.)"""
        key = ("area", sc.id)
        if key not in self._memo:
            self._memo[key] = in_play(self.game, sc)
        return self._memo[key]

    def scenario_position(self, sc) -> ScenarioPosition:
        """The scenario's starting position (`validator.positions.scenario_position`), placed once."""
        key = ("position", sc.id)
        if key not in self._memo:
            self._memo[key] = position_of_scenario(self.game, sc)
        return self._memo[key]

    def unit_label(self, uid: str, printed: Optional[str] = None) -> str:
        """A unit named as the rulebook names it."""
        if printed:
            return printed
        u = self.game.unit(uid)
        return u.name if u else uid


def run_checks(game: Game, select: Optional[set[str]] = None) -> list[Diagnostic]:
    all_checks()
    ctx = Context(game)
    out: list[Diagnostic] = []
    for code in sorted(REGISTRY):
        if select and code not in select:
            continue
        c = REGISTRY[code]
        for f in c.func(ctx):
            out.append(Diagnostic(c.code, f.severity or c.severity, f.message, f.loc, f.help or c.help,
                                  tuple(f.hexes), tuple(f.units)))
    return out


# The modules whose import registers the checks (validator.codes lists every code through them).
CHECK_MODULES = ("art", "errata", "hexes", "stacking", "tables", "turns", "units")


def all_checks() -> dict[str, Check]:
    import importlib
    for name in CHECK_MODULES:
        importlib.import_module(f"{__name__}.{name}")
    return dict(sorted(REGISTRY.items()))
