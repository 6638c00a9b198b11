"""Game pieces for a `Game`: prototypes, palette pieces and the pieces a set-up places."""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Optional

from . import traits as T
from .encoding import add_piece

UNIT_PROTOTYPE = "Unit"
MARKER_PROTOTYPE = "Marker"


def safe_name(s: str) -> str:
    """A file-name-safe, stable form of an id, distinct for distinct ids.

    An id that is already safe is kept as it is; one whose characters had to be folded (`de/inf`,
    `de+inf`) gets a short digest of the id itself, so two such ids never share an archive entry.
    """
    out = re.sub(r"[^A-Za-z0-9._-]+", "_", s).strip("_")
    if out == s and s not in (".", ".."):
        return s
    return f"{out or 'x'}_{hashlib.sha256(s.encode('utf-8')).hexdigest()[:8]}"


def vassal_board_name(board) -> str:
    """The VASSAL Board name of a map board: its id (a single-board map may have an empty id)."""
    return board.id or board.name or "Map"


def side_prototype(side_id: str) -> str:
    return f"Side {side_id}"


def type_prototype(type_: str) -> str:
    return f"Type {type_}"


def unit_images(unit) -> tuple[str, Optional[str]]:
    base = "unit_" + safe_name(unit.id)
    return base + "_front.png", (base + "_back.png" if unit.steps >= 2 else None)


def marker_image_name(marker) -> str:
    return "marker_" + safe_name(marker.id) + ".png"


def prototype_traits(game) -> dict[str, tuple[str, list[T.Trait]]]:
    """name -> (description, the prototype's traits without its placeholder BasicPiece)."""
    out = {UNIT_PROTOTYPE: ("Every unit counter", [T.delete()]),
           MARKER_PROTOTYPE: ("Every game marker", [T.delete()])}
    for s in game.sides:
        out[side_prototype(s.id)] = (f"Units of side {s.name}", [T.marker("Side", s.id), T.marker("SideName", s.name)])
    for ty in sorted({u.type for u in game.units}):
        out[type_prototype(ty)] = (f"Units of type {ty}", [T.marker("Type", ty)])
    return out


def prototypes(game) -> list[tuple[str, str, str]]:
    """(name, description, definition AddPiece text) of every prototype."""
    return [(name, desc, _definition(traits + [T.basic_piece("", "")]))
            for name, (desc, traits) in prototype_traits(game).items()]


def expand_prototypes(game, traits: list[T.Trait]) -> list[T.Trait]:
    """The trait stack with each prototype reference replaced by the prototype's traits, as VASSAL's
    PieceCloner expands a palette piece: a placed piece in a saved game carries no UsePrototype, so its
    Side and Type properties answer at once."""
    protos = prototype_traits(game)
    out: list[T.Trait] = []
    for t in traits:
        name = T.prototype_name(t)
        out.extend(protos[name][1] if name is not None else [t])
    return out


def _definition(traits: list[T.Trait]) -> str:
    return add_piece(None, T.piece_type(traits), T.piece_state(traits))


def unit_traits(game, unit, reduced: bool = False, map_id: Optional[str] = None, x: int = 0, y: int = 0,
                gpid: str = "") -> list[T.Trait]:
    front, back = unit_images(unit)
    tr = [T.prototype(UNIT_PROTOTYPE), T.prototype(side_prototype(unit.side)),
          T.prototype(type_prototype(unit.type)),
          T.marker("UnitId", unit.id),
          T.marker("Formation", unit.formation or ""),
          T.marker("Nationality", unit.nationality or ""),
          T.marker("Factors", unit.factors.printed if unit.factors else "")]
    if unit.factors:
        for name in game.factor_names:
            v = unit.factors.get(name)
            if v is not None:
                tr.append(T.marker(name.capitalize(), str(v)))
    if unit.reduced:
        tr.append(T.marker("ReducedFactors", unit.reduced.printed))
    tr.append(T.marker("Steps", str(unit.steps)))
    if back:
        # level names: "+ (reduced)" makes VASSAL name the reduced side "<name> (reduced)"
        tr.append(T.layers([front, back], ["", "+ (reduced)"], "Step", "Flip", T.KEY_F,
                           "Reduced side", level=1 if reduced else 0))
    elif reduced:
        raise ValueError(f"unit {unit.id} is placed reduced but has one step")
    tr.append(T.basic_piece(front, unit.name, map_id, x, y, gpid))
    return expand_prototypes(game, tr) if map_id is not None else tr


def marker_traits(game, marker, map_id: Optional[str] = None, x: int = 0, y: int = 0,
                  gpid: str = "") -> list[T.Trait]:
    """A palette marker (map_id None) refers to its prototype; a placed one carries it expanded."""
    tr = [T.prototype(MARKER_PROTOTYPE), T.marker("MarkerId", marker.id),
          T.basic_piece(marker_image_name(marker), marker.name, map_id, x, y, gpid)]
    return expand_prototypes(game, tr) if map_id is not None else tr


@dataclass(frozen=True)
class Slot:
    """One palette entry."""
    name: str
    gpid: str
    kind: str          # unit | marker
    ref: str           # unit or marker id
    side: Optional[str]
    formation: Optional[str]


def slots(game) -> list[Slot]:
    out = []
    n = 0
    for u in game.units:
        n += 1
        out.append(Slot(u.name, str(n), "unit", u.id, u.side, u.formation))
    for m in game.markers:
        n += 1
        out.append(Slot(m.name, str(n), "marker", m.id, None, None))
    return out
