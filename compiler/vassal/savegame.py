"""Saved games (.vsav) for predefined set-ups, in the form VASSAL's GameState writes them.

savedGame = obfuscated command stream: ``begin_save`` ESC (pieces: AddPiece commands, then a
Stack for every occupied position) ESC (BoardPicker restore command per map)
ESC ``end_save`` (GameState.getRestoreCommand; BoardPicker.encode; BasicCommandEncoder).
"""
from __future__ import annotations

from typing import Optional

from . import traits as T
from .encoding import Command, add_piece, encode, encode_command, obfuscate
from .pieces import marker_traits, slots, unit_traits, vassal_board_name
from .setup import MAIN_MAP, REINF_MAP

OBFUSCATION_KEY = 0x5a   # fixed, so builds are reproducible (VASSAL picks a random one)


def saved_game_text(game, plan, centres: dict, box_centres: dict, boards_in_play: list[str],
                    board_cells: dict, has_reinf: bool, first_id: int = 1000,
                    first_turn_index: Optional[int] = None, n_turns: int = 0, n_phases: int = 0) -> str:
    """centres: hex -> (x, y) in main-map pixels for the boards in play; box_centres: BoxKey -> (x, y)."""
    pieces = Command(None)          # NullCommand: encodes as an empty token
    stacks: dict[tuple[str, int, int], list[str]] = {}
    next_id = first_id
    mby = {m.id: m for m in game.markers}
    # placed pieces carry their palette slot's id, as pieces dragged from the palette do (GpIdSupport)
    gpids = {(x.kind, x.ref): x.gpid for x in slots(game)}

    def new_id() -> str:
        nonlocal next_id
        next_id += 1
        return str(next_id)

    for pl in plan.placements:
        if pl.hex is not None:
            if pl.hex not in centres:
                raise ValueError(f"hex {pl.hex} is not on a board in play")
            map_id, (x, y) = MAIN_MAP, centres[pl.hex]
        else:
            map_id, (x, y) = REINF_MAP, box_centres[pl.box]
        u = game.unit(pl.unit)
        pid = new_id()
        tr = unit_traits(game, u, reduced=pl.reduced, map_id=map_id, x=x, y=y, gpid=gpids[("unit", u.id)])
        pieces.append(Command(add_piece(pid, T.piece_type(tr), T.piece_state(tr))))
        ids = stacks.setdefault((map_id, x, y), [])
        ids.append(pid)
        for mid in pl.markers:
            mid_ = new_id()
            tr = marker_traits(game, mby[mid], map_id=map_id, x=x, y=y, gpid=gpids[("marker", mid)])
            pieces.append(Command(add_piece(mid_, T.piece_type(tr), T.piece_state(tr))))
            ids.append(mid_)
    for mid, hex_id in plan.features:
        if hex_id not in centres:
            raise ValueError(f"hex {hex_id} is not on a board in play")
        x, y = centres[hex_id]
        pid = new_id()
        tr = marker_traits(game, mby[mid], map_id=MAIN_MAP, x=x, y=y, gpid=gpids[("marker", mid)])
        pieces.append(Command(add_piece(pid, T.piece_type(tr), T.piece_state(tr))))
        stacks.setdefault((MAIN_MAP, x, y), []).append(pid)
    for (map_id, x, y), ids in stacks.items():
        # a Stack lists its pieces bottom first
        pieces.append(Command(add_piece(new_id(), "stack", T.stack_state(map_id, x, y, ids))))

    top = Command("begin_save")
    top.append(pieces)
    tokens = [MAIN_MAP + "BoardPicker"]
    for b in boards_in_play:
        cx, cy = board_cells[b]
        tokens += [vassal_board_name(game.grid.board(b)), str(cx), str(cy)]
    top.append(Command(encode(tokens, "\t")))
    if has_reinf:
        top.append(Command(encode([REINF_MAP + "BoardPicker", REINF_MAP, "0", "0"], "\t")))
    if first_turn_index is not None and n_turns:
        top.append(Command(turn_command(first_turn_index, n_turns, n_phases)))
    top.append(Command("end_save"))
    return encode_command(top)


def turn_command(index: int, n_turns: int, n_phases: int = 0) -> str:
    """TurnTracker's restore command setting the scenario's first turn: ``TURN<id> TAB <state>``,
    state = currentLevel|level-state, ListTurnLevel state = current;currentSubLevel;first;active...
    then each sub-level's state (TurnTracker.getState/encode, ListTurnLevel.getState): with phases,
    the phase level starts on the first phase. The module's only tracker is TurnTracker0."""
    fields = [str(index), "0", "0", encode(["true"] * n_turns, ",")]
    if n_phases:
        fields.append(encode(["0", "0", "0", encode(["true"] * n_phases, ",")], ";"))
    level = encode(fields, ";")
    return encode([TURN_TRACKER_ID_COMMAND, encode(["0", level], "|")], "\t")


TURN_TRACKER_ID_COMMAND = "TURNTurnTracker0"


def saved_game_bytes(text: str) -> bytes:
    return obfuscate(text.encode("utf-8"), OBFUSCATION_KEY)
