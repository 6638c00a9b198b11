"""buildFile.xml for a module, written with lxml. Class and attribute names as in VASSAL 3.7.9."""
from __future__ import annotations

from typing import Optional

from lxml import etree

from compiler.render.layout import COUNTER_PX, board_slots

from . import traits as T
from .encoding import add_piece, encode
from .labels import phase_labels, turn_label
from .pieces import marker_traits, prototypes, slots, unit_traits, vassal_board_name
from .setup import MAIN_MAP, REINF_MAP

VASSAL_VERSION = "3.7.9"
P = "VASSAL.build.module."
MAPP = P + "map."


def _el(parent, cls: str, attrs: Optional[dict] = None, text: Optional[str] = None):
    e = etree.SubElement(parent, cls)
    for k, v in (attrs or {}).items():
        e.set(k, str(v))
    if text is not None:
        e.text = text
    return e


def _map_helpers(m, name: str) -> None:
    """The helpers a Map needs (a Map built from XML creates only a few of them itself)."""
    _el(m, MAPP + "StackMetrics", {"bottom": "40", "disabled": "false", "down": "83", "exSepX": "12",
                                   "exSepY": "12", "top": "38", "unexSepX": "3", "unexSepY": "3",
                                   "up": "87"})
    for cls in ("ForwardToKeyBuffer", "Scroller", "ForwardToChatter", "MenuDisplayer", "MapCenterer",
                "StackExpander", "PieceMover", "KeyBufferer", "SelectionHighlighters",
                "HighlightLastMoved"):
        _el(m, MAPP + cls)
    _el(m, MAPP + "Zoomer")     # VASSAL's default zoom levels
    _el(m, MAPP + "CounterDetailViewer", {"delay": "700", "showgraph": "true", "showtext": "true",
                                          "summaryReportFormat": "$LocationName$",
                                          "counterReportFormat": "$PieceName$"})


_REPORTS = {"moveWithinFormat": "$pieceName$ moves $previousLocation$ -> $location$ *",
            "moveToFormat": "$pieceName$ moves $previousLocation$ -> $location$ *",
            "createFormat": "$pieceName$ created in $location$ *", "changeFormat": "$message$"}


def _module_root(game, n_slots: int, module_version: str):
    """The GameModule and the components before the maps (GlobalOptions among them)."""
    root = etree.Element("VASSAL.build.GameModule", {
        "name": game.title, "version": module_version,
        "description": " ".join(x for x in (game.publisher, game.series) if x) or game.title,
        "VassalVersion": VASSAL_VERSION, "nextPieceSlotId": str(n_slots + 1)})
    _el(root, P + "BasicCommandEncoder")
    _el(root, P + "Documentation")
    roster = _el(root, P + "PlayerRoster", {"buttonText": "Retire", "buttonToolTip": "Switch sides"})
    for s in game.sides:
        _el(roster, "entry", text=s.name)
    _el(root, P + "Chatter")
    _el(root, P + "KeyNamer")
    # GlobalOptions must come before the maps: VASSAL adds one itself when it is missing, but only
    # after the maps are built, and a map built while "single window" reads false is never shown
    # (seen with the engine: the Main Map got no window at all)
    _el(root, P + "GlobalOptions")
    protos = _el(root, P + "PrototypesContainer")
    for name, desc, definition in prototypes(game):
        _el(protos, P + "PrototypeDefinition", {"name": name, "description": desc}, definition)
    return root


def _board_picker(m):
    return _el(m, MAPP + "BoardPicker", {"title": "Choose Boards", "slotWidth": "350", "slotHeight": "125",
                                         "slotScale": "0.2", "boardPrompt": "Select board"})


def _main_map(root, game, board_images: dict, board_sizes: dict, grids: dict) -> None:
    """The main map: every board, joined as the origins say, each with its HexGrid and numbering."""
    m = _el(root, P + "Map", {"mapName": MAIN_MAP, "allowMultiple": "false", "backgroundcolor": "255,255,255",
                              "buttonName": "", "icon": "", "launch": "false", "markMoved": "Always",
                              "markUnmovedIcon": "", "markUnmovedText": "", "markUnmovedTooltip": "",
                              "edgeWidth": "0", "edgeHeight": "0", "hotkey": "",
                              "moveWithinFormat": _REPORTS["moveWithinFormat"], "moveToFormat": _REPORTS["moveToFormat"],
                              "createFormat": _REPORTS["createFormat"], "changeFormat": _REPORTS["changeFormat"],
                              "showKey": "", "hideKey": ""})
    bp = _board_picker(m)
    cells = board_slots(game.grid)
    setup_tokens = [MAIN_MAP + "BoardPicker"]
    for b in game.grid.boards:
        cx, cy = cells[b.id]
        setup_tokens += [vassal_board_name(b), str(cx), str(cy)]
    _el(bp, "setup", text=encode(setup_tokens, "\t"))
    for b in game.grid.boards:
        w, h = board_sizes[b.id]
        be = _el(bp, MAPP + "boardPicker.Board", {"name": vassal_board_name(b), "image": board_images[b.id],
                                                   "reversible": "false", "width": str(w), "height": str(h)})
        g_attrs, n_attrs = grids[b.id]
        ge = _el(be, MAPP + "boardPicker.board.HexGrid", g_attrs)
        _el(ge, MAPP + "boardPicker.board.mapgrid.HexGridNumbering", n_attrs)
    _map_helpers(m, MAIN_MAP)


def _reinforcements_map(root, reinf: dict) -> None:
    """The Reinforcements map: one board whose zones are the holding boxes."""
    rm = _el(root, P + "Map", {"mapName": REINF_MAP, "allowMultiple": "false",
                               "backgroundcolor": "255,255,255", "buttonName": "Reinforcements",
                               "launch": "true", "markMoved": "Never", "edgeWidth": "0", "edgeHeight": "0",
                               **_REPORTS, "tooltip": "Reinforcements and holding boxes"})
    rbp = _board_picker(rm)
    _el(rbp, "setup", text=encode([REINF_MAP + "BoardPicker", REINF_MAP, "0", "0"], "\t"))
    w, h = reinf["size"]
    rb = _el(rbp, MAPP + "boardPicker.Board", {"name": REINF_MAP, "image": reinf["image"],
                                                "reversible": "false", "width": str(w), "height": str(h)})
    zg = _el(rb, MAPP + "boardPicker.board.ZonedGrid")
    for zname, path in reinf["zones"]:
        _el(zg, MAPP + "boardPicker.board.mapgrid.Zone",
            {"name": zname, "path": path, "locationFormat": "$name$", "useParentGrid": "false",
             "useHighlight": "false", "highlightProperty": ""})
    _map_helpers(rm, REINF_MAP)


def _piece_slot(panel, x, traits, piece_px: int) -> None:
    _el(panel, "VASSAL.build.widget.PieceSlot",
        {"entryName": x.name, "gpid": x.gpid, "width": str(piece_px), "height": str(piece_px)},
        add_piece(None, T.piece_type(traits), T.piece_state(traits)))


def _palettes(root, game, sl: list, piece_px: int) -> None:
    """The Counters window: a tab per side, a panel per formation (independents last), then the markers."""
    pw = _el(root, P + "PieceWindow", {"name": "Counters", "entryName": "Counters", "hidden": "false",
                                       "scale": "1.0", "text": "Counters", "tooltip": "Counter palette",
                                       "icon": "", "hotkey": ""})
    tabs = _el(pw, "VASSAL.build.widget.TabWidget", {"entryName": "Counters"})
    form_name = {f.id: f.name for f in game.formations}
    for s in game.sides:
        side_list = _el(tabs, "VASSAL.build.widget.ListWidget", {"entryName": s.name, "divider": "150",
                                                                 "scale": "1.0"})
        groups: dict = {}
        for x in sl:
            if x.kind == "unit" and x.side == s.id:
                groups.setdefault(x.formation, []).append(x)
        for fid, items in groups.items():
            panel = _el(side_list, "VASSAL.build.widget.PanelWidget",
                        {"entryName": form_name.get(fid, fid) if fid else "Independent",
                         "fixed": "false", "nColumns": "6", "scale": "1.0", "vert": "false"})
            for x in items:
                _piece_slot(panel, x, unit_traits(game, game.unit(x.ref), gpid=x.gpid), piece_px)
    mk = [x for x in sl if x.kind == "marker"]
    if mk:
        panel = _el(tabs, "VASSAL.build.widget.PanelWidget", {"entryName": "Markers", "fixed": "false",
                                                              "nColumns": "6", "scale": "1.0", "vert": "false"})
        mby = {mm.id: mm for mm in game.markers}
        for x in mk:
            _piece_slot(panel, x, marker_traits(game, mby[x.ref], gpid=x.gpid), piece_px)


def _dice(root, game) -> None:
    for dd in game.dice:
        _el(root, P + "DiceButton", {
            "name": dd.name, "text": dd.name, "tooltip": f"Roll {dd.name}", "icon": "", "hotkey": "",
            "nDice": str(dd.count), "nSides": str(dd.sides), "plus": "0",
            "addToTotal": "0", "reportTotal": "false", "prompt": "false", "sortDice": "false",
            "keepDice": "false", "reportFormat": "** $name$ = $result$ *** <$PlayerName$>"})


def _turn_tracker(root, game) -> None:
    """Two levels when the tree has a sequence of play: the phase is the turn level's sub-level, so Next
    steps through the phases and rolls over into the next turn (ListTurnLevel.advance), and every TURN
    command a log records names the phase."""
    if not game.turns:
        return
    tt = _el(root, P + "turn.TurnTracker", {
        "name": "Turn", "buttonText": "Turn", "tooltip": "Turn track", "icon": "", "hotkey": "",
        "turnFormat": "Turn $level1$ - $level2$" if game.phases else "Turn $level1$",
        "reportFormat": "<$PlayerId$> Turn Updated from $oldTurn$ to $newTurn$"})
    level = _el(tt, P + "turn.ListTurnLevel", {
        "property": "Turn", "turnFormat": "$value$", "configList": "false", "configFirst": "false",
        "prompt": "", "list": encode([turn_label(t) for t in game.turns], ",")})
    if game.phases:
        _el(level, P + "turn.ListTurnLevel", {
            "name": "Phase", "property": "Phase", "turnFormat": "$value$", "configList": "false",
            "configFirst": "false", "prompt": "", "list": encode(phase_labels(game), ",")})


def _charts_window(root, charts: list[tuple[str, str]]) -> None:
    if not charts:
        return
    cw = _el(root, P + "ChartWindow", {"name": "Charts", "text": "Charts", "tooltip": "Charts and tables",
                                       "hotkey": "", "icon": "", "description": "Charts and tables"})
    tw = _el(cw, "VASSAL.build.widget.TabWidget", {"entryName": "Charts"})
    for name, fn in charts:
        _el(tw, "VASSAL.build.widget.Chart", {"chartName": name, "fileName": fn, "description": name})


def _setups_menu(root, setups: list[tuple[str, str]]) -> None:
    if not setups:
        return
    menu = _el(root, P + "PredefinedSetup", {"name": "Scenarios", "isMenu": "true", "useFile": "false",
                                             "file": "", "description": "Scenario set-ups"})
    for name, fn in setups:
        _el(menu, P + "PredefinedSetup", {"name": name, "file": fn, "useFile": "true", "isMenu": "false",
                                          "description": name})


def build_xml(game, board_images: dict, board_sizes: dict, grids: dict, reinf: Optional[dict],
              charts: list[tuple[str, str]], setups: list[tuple[str, str]], module_version: str,
              piece_px: int = COUNTER_PX) -> bytes:
    """board_images/sizes/grids: by board id (grid = (HexGrid attrs, numbering attrs)).
    reinf: {'image', 'size', 'zones': [(name, path)]} or None. charts: (name, image file).
    setups: (menu name, file). piece_px: the counters' size in the palette."""
    sl = slots(game)
    root = _module_root(game, len(sl), module_version)
    _main_map(root, game, board_images, board_sizes, grids)
    if reinf is not None:
        _reinforcements_map(root, reinf)
    _palettes(root, game, sl, piece_px)
    _dice(root, game)
    _turn_tracker(root, game)
    _charts_window(root, charts)
    _setups_menu(root, setups)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=False, pretty_print=True)
