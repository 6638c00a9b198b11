"""Read a VASSAL module (.vmod) or saved game (.vsav) safely, for checks and tests.

Safety: the archive is read in memory by entry name (nothing is ever extracted to a path the
archive names); entry count, each entry's size and the total are bounded, and an entry's declared
size is checked against the bound for its kind (XML, text, image) before a byte is decompressed;
every read is capped at the declared size. XML is parsed with entity resolution, DTD loading and
network access off, and a document with a DOCTYPE is refused whatever its encoding.

Every failure is a `ReadError` that names the entry: a bad CRC, corrupt deflate data, XML that is not
XML, an odd or non-hex `!VCSK` stream, text that is not UTF-8, an unknown trait.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from lxml import etree

from validator.positions.position import Where

from . import gridrule
from .archive import (  # noqa: F401  (re-exported: the module and save readers' one archive)
    MAX_ARCHIVE_BYTES, MAX_ENTRIES, MAX_ENTRY_BYTES, MAX_IMAGE_ENTRY_BYTES, MAX_TEXT_BYTES, MAX_TOTAL_BYTES, MAX_XML_BYTES, XML_ENTRIES,
    Archive, _decoding, _limit_for,
)
from .encoding import ReadError, decode, decode_command, parse_add_piece
from .traits import decode_piece


def _parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
                           huge_tree=False, remove_blank_text=False)


def parse_xml(data: bytes, entry: str = "XML") -> etree._Element:
    """The root element of an XML document; ReadError (naming `entry`) for anything but plain XML.

    The DOCTYPE test is made on the parsed document, not by a byte search, so an internal subset is
    refused in any encoding (a UTF-16 file spells `<!DOCTYPE` with zero bytes between its letters).
    Entities are never resolved, so parsing one is harmless before it is refused.
    """
    if len(data) > MAX_XML_BYTES:
        raise ReadError(f"{entry}: XML of {len(data)} bytes is larger than {MAX_XML_BYTES}")
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as e:
        raise ReadError(f"{entry}: not well-formed XML: {e}") from None
    except (etree.LxmlError, ValueError) as e:
        raise ReadError(f"{entry}: cannot be read as XML: {e}") from None
    doc = root.getroottree().docinfo
    if doc.doctype or doc.internalDTD is not None or doc.externalDTD is not None:
        raise ReadError(f"{entry}: XML with a DOCTYPE (and so perhaps entities) is refused")
    return root


def read_xml(archive: Archive, name: str) -> etree._Element:
    """An entry of the archive, parsed as plain XML (`parse_xml`)."""
    return parse_xml(archive.read(name), name)


# -- saved games ----------------------------------------------------------------------------------

@dataclass
class SavedPiece:
    id: Optional[str]
    traits: list[dict]

    @property
    def basic(self) -> dict:
        return self.traits[-1]

    def prop(self, key: str) -> Optional[str]:
        for t in self.traits:
            if t["kind"] == "mark" and key in t["values"]:
                return t["values"][key]
        return None


@dataclass
class SavedGame:
    commands: list[str]
    pieces: list[SavedPiece]
    stacks: list[dict]
    others: list[str]          # commands that are neither pieces nor begin/end_save


def decode_saved_game(text: str, entry: str = "savedGame") -> SavedGame:
    with _decoding(entry, "command stream"):
        cmds = decode_command(text)
    if not cmds or cmds[0] != "begin_save" or cmds[-1] != "end_save":
        raise ReadError(f"{entry}: a saved game starts with begin_save and ends with end_save")
    pieces, stacks, others = [], [], []
    for n, c in enumerate(cmds[1:-1], 1):
        if c.startswith("+/"):
            with _decoding(entry, f"command {n}"):
                pid, typ, state = parse_add_piece(c)
                tr = decode_piece(typ, state)
            if tr[0]["kind"] == "stack":
                stacks.append(dict(tr[0], id=pid))
            else:
                pieces.append(SavedPiece(pid, tr))
        else:
            others.append(c)
    return SavedGame(cmds, pieces, stacks, others)


def board_layouts(saved: SavedGame) -> dict[str, list[tuple[str, int, int]]]:
    """Map name -> the boards (name, column, row) the saved game's BoardPicker commands lay out on it."""
    out = {}
    for c in saved.others:
        if "BoardPicker\t" in c:
            name, lay = parse_board_setup(c)
            out[name[: -len("BoardPicker")]] = lay
    return out


def read_save(source) -> tuple[SavedGame, etree._Element]:
    a = source if isinstance(source, Archive) else Archive(source)
    text = a.read_text("savedGame")
    meta = read_xml(a, "savedata") if a.has("savedata") else None
    return decode_saved_game(text), meta


# -- modules ----------------------------------------------------------------------------------------

@dataclass
class BoardInfo:
    map: str
    name: str
    image: str
    width: int
    height: int
    grid: Optional[dict]
    numbering: Optional[dict]
    zones: list[dict] = field(default_factory=list)

    def locate(self, x: int, y: int, map_name: str) -> Where:
        """A point of this board (board pixels): the first Zone holding it, else its hex, else the map."""
        if self.zones:
            name = gridrule.zone_location_name(self.zones, x, y)
            if name is not None:
                return Where(box=name)
        if self.grid is not None and self.numbering is not None:
            return Where(hex=gridrule.hex_location_name(self.grid, self.numbering, x, y, (self.width, self.height)))
        return Where(box=map_name)


@dataclass
class Module:
    archive: Archive
    root: etree._Element
    metadata: etree._Element
    boards: list[BoardInfo]
    board_setups: dict            # map name -> [(board, col, row)]
    board_images: set             # the boards' image files
    setups: list[dict]            # name, file
    _pieces: Optional[tuple] = field(default=None, repr=False)

    # The piece definitions are decoded when first asked for: an audit reads the pieces the log carries and
    # none of the module's (decoding Ardennes II's 640 definitions is a third of its start-up).
    @property
    def prototypes(self) -> dict:
        """Name -> traits of each PrototypeDefinition."""
        return self._decoded()[0]

    @property
    def slots(self) -> list[dict]:
        """entryName, gpid, traits, path (list of widget names) of each PieceSlot."""
        return self._decoded()[1]

    @property
    def images(self) -> set:
        """Every image file the module refers to."""
        return self._decoded()[2]

    def _decoded(self) -> tuple:
        if self._pieces is None:
            with _decoding("buildFile.xml"):
                self._pieces = _pieces(self.root, self.board_images)
        return self._pieces

    def board(self, map_name: str, name: str) -> BoardInfo:
        for b in self.boards:
            if b.map == map_name and b.name == name:
                return b
        raise KeyError(name)

    def board_positions(self, map_name: str, layout: list[tuple[str, int, int]]) -> dict:
        """Pixel offset of each board for a BoardPicker layout (Map.getLocation)."""
        widths, heights = {}, {}
        for bname, cx, cy in layout:
            b = self.board(map_name, bname)
            widths[(cx, cy)], heights[(cx, cy)] = b.width, b.height
        out = {}
        for bname, cx, cy in layout:
            x = sum(widths.get((i, cy), 0) for i in range(cx))
            y = sum(heights.get((cx, j), 0) for j in range(cy))
            out[bname] = (x, y)
        return out

    def locate(self, map_name: str, layout: list[tuple[str, int, int]], x: int, y: int,
               positions: Optional[dict] = None) -> Where:
        """Where a map point is, as VASSAL finds it (Map.findBoard, then the board's grid): a hex of a
        HexGrid, a Zone (a box named as the zone), or, on a board without a grid or on no board, the map
        itself (a box named as the map). `positions`: the boards' offsets, if already worked out."""
        pos = positions if positions is not None else self.board_positions(map_name, layout)
        for bname, _, _ in layout:
            b = self.board(map_name, bname)
            bx, by = pos[bname]
            if bx <= x < bx + b.width and by <= y < by + b.height:
                return b.locate(x - bx, y - by, map_name)
        return Where(box=map_name)

    def location_name(self, map_name: str, layout: list[tuple[str, int, int]], x: int, y: int) -> str:
        """The name of a map point: its hex, its zone, or the map's name (`locate`)."""
        w = self.locate(map_name, layout, x, y)
        return w.hex or w.box


def parse_board_setup(text: str) -> tuple[str, list[tuple[str, int, int]]]:
    toks = decode(text, "\t")
    out = []
    for i in range(1, len(toks) - 2, 3):
        out.append((decode(toks[i], "/")[0], int(toks[i + 1]), int(toks[i + 2])))
    return toks[0], out


def piece_images(traits: list[dict]) -> set:
    out = set()
    for t in traits:
        if t["kind"] == "piece" and t["image"]:
            out.add(t["image"])
        elif t["kind"] == "emb2":
            out.update(i for i in t["images"] if i)
    return out


def read_module(path, pieces: bool = True) -> Module:
    """The module at `path`; `pieces=False` leaves its piece definitions to be decoded when first asked for
    (a ReadError in them is raised then)."""
    a = Archive(path)
    if not a.has("buildFile.xml"):
        raise ReadError("no entry 'buildFile.xml': not a VASSAL module")
    root = read_xml(a, "buildFile.xml")
    meta = read_xml(a, "moduledata")
    with _decoding("buildFile.xml"):
        m = _module(a, root, meta)
    if pieces:
        m._decoded()
    return m


def _module(a: Archive, root: etree._Element, meta: etree._Element) -> Module:
    P = "VASSAL.build.module."
    boards, setups_by_map, images, setups = [], {}, set(), []
    for m in root.iter(P + "Map", P + "PrivateMap", P + "PlayerHand"):
        mname = m.get("mapName")
        for bp in m.findall(P + "map.BoardPicker"):
            s = bp.find("setup")
            if s is not None and s.text:
                _, lay = parse_board_setup(s.text)
                setups_by_map[mname] = lay
            for b in bp.findall(P + "map.boardPicker.Board"):
                g = b.find(P + "map.boardPicker.board.HexGrid")
                zg = b.find(P + "map.boardPicker.board.ZonedGrid")
                zones = []
                if zg is not None:
                    zones = [dict(z.attrib) for z in zg.findall(P + "map.boardPicker.board.mapgrid.Zone")]
                    g = zg.find(P + "map.boardPicker.board.HexGrid")
                num = g.find(P + "map.boardPicker.board.mapgrid.HexGridNumbering") if g is not None else None
                boards.append(BoardInfo(mname, b.get("name"), b.get("image", ""), int(b.get("width", "0")),
                                        int(b.get("height", "0")), dict(g.attrib) if g is not None else None,
                                        dict(num.attrib) if num is not None else None, zones))
                if b.get("image"):
                    images.add(b.get("image"))
    for ps in root.iter(P + "PredefinedSetup"):
        if ps.get("useFile") == "true" and ps.get("isMenu") != "true":
            setups.append({"name": ps.get("name"), "file": ps.get("file")})
    return Module(a, root, meta, boards, setups_by_map, images, setups)


def _pieces(root: etree._Element, board_images: set) -> tuple[dict, list[dict], set]:
    """(prototypes, slots, images) of a module's buildFile: each definition's traits decoded."""
    P = "VASSAL.build.module."
    protos, slots, images = {}, [], set(board_images)
    for pd in root.iter(P + "PrototypeDefinition"):
        _, typ, state = parse_add_piece(pd.text or "")
        tr = decode_piece(typ, state)
        protos[pd.get("name")] = tr
        images |= piece_images(tr)
    for ps in root.iter("VASSAL.build.widget.PieceSlot"):
        _, typ, state = parse_add_piece(ps.text or "")
        tr = decode_piece(typ, state)
        path = [anc.get("entryName") or anc.get("name") for anc in reversed(list(ps.iterancestors()))
                if anc.tag.startswith("VASSAL.build.widget.") or anc.tag == P + "PieceWindow"]
        slots.append({"entryName": ps.get("entryName"), "gpid": ps.get("gpid"), "traits": tr, "path": path})
        images |= piece_images(tr)
    for ch in root.iter("VASSAL.build.widget.Chart"):
        if ch.get("fileName"):
            images.add(ch.get("fileName"))
    return protos, slots, images


def expand_prototypes(traits: list[dict], protos: dict, depth: int = 0) -> list[dict]:
    """Replace each UsePrototype with the prototype's own traits (its placeholder BasicPiece dropped)."""
    if depth > 16:
        raise ReadError("prototype nesting too deep")
    out = []
    for t in traits:
        if t["kind"] == "prototype":
            if t["name"] not in protos:
                raise ReadError(f"unknown prototype {t['name']!r}")
            out.extend(expand_prototypes(protos[t["name"]][:-1], protos, depth + 1))
        else:
            out.append(t)
    return out
