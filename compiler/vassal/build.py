"""`hexforge build`: a complete VASSAL 3.7 module (.vmod) from a loaded `Game`.

Entry point: ``build_module(game, out_dir, progress=None) -> Path`` writes ``out_dir/<game.id>.vmod``
(via a temporary file renamed into place) and keeps rendered images in ``out_dir/.cache``.
The archive is byte-for-byte reproducible: fixed entry order and timestamps, fixed ``dateSaved``,
deterministic PNGs, a fixed obfuscation key in the saves.
"""
from __future__ import annotations

import dataclasses
import functools
import io
import json
import os
import zipfile
from pathlib import Path
from typing import Callable, Optional

from lxml import etree

from compiler import cache as cache_mod
from compiler.atomic import atomic_path, write_atomic
from compiler.interrupts import held
from compiler.render import art as art_mod
from compiler.render import boards as boards_mod
from compiler.render import counters as counters_mod
from compiler.render import layout as layout_mod
from compiler.render.layout import ArtLayout, board_offsets, board_slots, piece_px, placed_layout, placed_layouts
from validator.source.images import open_image

from . import boxes, buildfile, charts as charts_mod, pieces, savegame, setup as setup_mod
from .buildfile import VASSAL_VERSION

MODULE_VERSION = "1.0"
ZIP_TIME = (2000, 1, 1, 0, 0, 0)


def _date_saved() -> str:
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.isdigit():
        return str(int(epoch) * 1000)
    return "946684800000"    # 2000-01-01T00:00:00Z: fixed, so rebuilds are identical


def metadata_xml(root_attrs: dict, elements: list[tuple[str, str]]) -> bytes:
    root = etree.Element("data", root_attrs)
    for tag, text in elements:
        e = etree.SubElement(root, tag)
        e.text = text
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=False, pretty_print=True)


def module_metadata(game) -> bytes:
    return metadata_xml({"version": "1"}, [
        ("version", MODULE_VERSION), ("VassalVersion", VASSAL_VERSION), ("dateSaved", _date_saved()),
        ("description", game.title), ("name", game.title)])


def save_metadata(game, scenario) -> bytes:
    return metadata_xml({"version": "1"}, [
        ("version", MODULE_VERSION), ("VassalVersion", VASSAL_VERSION), ("dateSaved", _date_saved()),
        ("description", f"{scenario.id} {scenario.name}")])


def zip_bytes(entries: list[tuple[str, bytes]]) -> bytes:
    buf = io.BytesIO()
    write_zip(buf, entries)
    return buf.getvalue()


STORED = (".png", ".jpg")      # compressed already: stored (faster, and VASSAL reads STORED entries)
COPY_CHUNK = 1 << 20


def write_zip(f, entries: list[tuple[str, "bytes | Callable"]]) -> None:
    """The entries in order; an entry given as a function opening a file (an author's image) is copied from
    it a chunk at a time, so a scan of any size costs the build no more memory than a chunk."""
    z = None
    try:
        with held():                           # an interrupt half-way through making it (or closing it, below)
            z = zipfile.ZipFile(f, "w")        # would leave an object whose clean-up at exit prints a traceback
        for name, data in entries:
            zi = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            zi.external_attr = 0o644 << 16
            zi.create_system = 3
            zi.compress_type = zipfile.ZIP_STORED if name.endswith(STORED) else zipfile.ZIP_DEFLATED
            if callable(data):
                _copy_into(z, zi, data)
            else:
                z.writestr(zi, data, compresslevel=6 if zi.compress_type == zipfile.ZIP_DEFLATED else None)
    except BaseException:
        # Interrupted mid-entry (Ctrl-C, SIGTERM): the archive is abandoned (its temporary file is removed by
        # the caller). Closing it would raise over the interrupt ("an open writing handle"), so it is let go.
        if z is not None:
            z.fp = None
        raise
    with held():
        z.close()


def _copy_into(z: zipfile.ZipFile, zi: zipfile.ZipInfo, opener: Callable) -> None:
    with opener() as src:
        zi.file_size = os.fstat(src.fileno()).st_size    # known before writing: zip64 only where needed
        with z.open(zi, "w") as dst:
            for block in iter(lambda: src.read(COPY_CHUNK), b""):
                dst.write(block)


def setup_file_name(scenario) -> str:
    return "scenario_" + pieces.safe_name(scenario.id) + ".vsav"


@functools.lru_cache(maxsize=1)
def _builder_fingerprint() -> str:
    """The source of every module that shapes the archive's bytes."""
    here = Path(__file__).resolve().parent
    # the set-up placer and the hex geometry live in validator/: their code shapes the set-ups too
    files = (sorted(here.glob("*.py")) + sorted((here.parent / "render").glob("*.py")) + [here.parent / "cache.py"]
             + sorted((here.parents[1] / "validator").glob("*.py")))
    return cache_mod.key([f.name for f in files], cache_mod.files_fingerprint(files))


def _module_key(game) -> str:
    # the whole model (its repr is deterministic) with the builder's own code: equal keys, equal bytes
    return cache_mod.key("module", _builder_fingerprint(), os.environ.get("SOURCE_DATE_EPOCH", ""),
                         repr(dataclasses.replace(game, root="")))


def _unchanged(stamp: Path, k: str, target: Path) -> Optional[tuple[list, list]]:
    """The recorded (warnings, notes) if `target` is the module built from key `k` and untouched since."""
    try:
        st = json.loads(stamp.read_text())
        info = target.stat()
    except (OSError, ValueError):
        return None
    if st.get("key") == k and st.get("size") == info.st_size and st.get("mtime_ns") == info.st_mtime_ns:
        return list(st.get("warnings") or []), list(st.get("notes") or [])
    return None


def _art(x):
    """A model value (or tuple of them) as artwork sees it: where it was written does not show."""
    if isinstance(x, tuple):
        return tuple(_art(v) for v in x)
    if dataclasses.is_dataclass(x) and any(f.name == "loc" for f in dataclasses.fields(x)):
        return dataclasses.replace(x, loc=None)
    return x


@dataclasses.dataclass
class _Build:
    """What the steps of one build share: the game, the image cache, and what each step adds."""
    game: object
    cache: cache_mod.Cache
    report: Callable[[str, int, int], None]
    entries: list = dataclasses.field(default_factory=list)        # (archive name, bytes) of the images
    board_images: dict = dataclasses.field(default_factory=dict)   # board id -> image file
    board_sizes: dict = dataclasses.field(default_factory=dict)
    grids: dict = dataclasses.field(default_factory=dict)          # board id -> (HexGrid, numbering) attributes
    chart_list: list = dataclasses.field(default_factory=list)     # (chart name, image file)
    plans: list = dataclasses.field(default_factory=list)
    reinf: Optional[dict] = None                                  # the Reinforcements board, if any
    box_centres: dict = dataclasses.field(default_factory=dict)
    setups: list = dataclasses.field(default_factory=list)         # (menu name, file)
    saves: list = dataclasses.field(default_factory=list)          # (file, .vsav bytes)
    problems: list = dataclasses.field(default_factory=list)       # what could not be placed faithfully
    chosen: list = dataclasses.field(default_factory=list)         # placements chosen for a location

    def image(self, name: str, k: str, draw: Callable[[], object]) -> None:
        """An image entry from the cache, drawn (and encoded as PNG) only when the key is new."""
        self.entries.append(("images/" + name, self.cache.get_or_make(k, lambda: boards_mod.png_bytes(draw()), ".png")))


def _boards(b: _Build) -> None:
    """Each board's image, the author's own (art.yaml) or drawn, and the HexGrid that names its hexes as printed."""
    game = b.game
    board_code = cache_mod.code_fingerprint([boards_mod, layout_mod])
    binputs = cache_mod.key(boards_mod.board_inputs(game))
    nb = len(game.grid.boards)
    for i, board in enumerate(game.grid.boards):
        b.report("boards", i, nb)
        lay = placed_layout(game, board)
        base = "board_" + pieces.safe_name(pieces.vassal_board_name(board))
        if isinstance(lay, ArtLayout):
            # the author's file as it is: never decoded or encoded again, copied into the archive
            image = game.board_art(board.id).image
            fn = base + (".jpg" if image.format == "JPEG" else ".png")
            b.entries.append(("images/" + fn, lambda image=image: open_image(game.root, image)))
        else:
            fn = base + ".png"
            b.image(fn, cache_mod.key("board", board_code, binputs, board.id),
                    lambda board=board: boards_mod.render_board(game, board.id))
        b.board_images[board.id], b.board_sizes[board.id], b.grids[board.id] = fn, lay.size, lay.vassal_grid()
    b.report("boards", nb, nb)


def _counters(b: _Build) -> None:
    """Every unit's faces and every marker, each keyed by its own piece: the author's art where art.yaml
    gives it (cut from its sheet and sized), else drawn."""
    game = b.game
    px = piece_px(game)
    counter_code = cache_mod.code_fingerprint([counters_mod, layout_mod])
    art_code = cache_mod.code_fingerprint([art_mod])
    # what every counter's artwork may read besides its own unit or marker (render/counters.py reads
    # game.sides, game.formations and game.rules), hashed once; each key adds its own piece, so a
    # change to one unit redraws that unit's faces only
    cdata = cache_mod.key(repr((_art(game.sides), _art(game.formations), game.factor_names, game.rules)))
    total = len(game.units) + len(game.markers)
    for i, u in enumerate(game.units):
        if i % 50 == 0:
            b.report("counters", i, total)
        front, back = pieces.unit_images(u)
        for face, fn in (("front", front), ("back", back)):
            if fn is None:
                continue
            art = game.face_art("unit", u.id, face)
            if art is not None:
                b.image(fn, _face_key(art_code, art, px), lambda art=art: art_mod.face_image(game.root, art, px))
                continue
            # the game-wide type scale: another unit's texts can move it (render/counters.py)
            scale = repr(counters_mod.counter_type_scale(game, face, px))
            b.image(fn, cache_mod.key("counter", counter_code, cdata, repr(_art(u)), face, scale, px),
                    lambda u=u, face=face: counters_mod.counter_image(game, u, face, px))
    for m in game.markers:
        art = game.face_art("marker", m.id, "front")
        if art is not None:
            b.image(pieces.marker_image_name(m), _face_key(art_code, art, px),
                    lambda art=art: art_mod.face_image(game.root, art, px))
            continue
        k = cache_mod.key("marker", counter_code, cdata, repr(_art(m)), counters_mod.marker_type_px(game, px), px)
        b.image(pieces.marker_image_name(m), k, lambda m=m: counters_mod.marker_image(game, m, px))
    b.report("counters", total, total)


def _face_key(code: str, art, px: int) -> str:
    """A face cut from the author's art: keyed by the image's bytes (its digest) and the cell, not its path."""
    return cache_mod.key("counter-art", code, art.image.digest, list(art.box or ()), px)


def _charts(b: _Build) -> None:
    """The tables, the TEC and the map key, for the module's Charts window."""
    game = b.game
    chart_code = cache_mod.code_fingerprint([charts_mod, boards_mod])
    for t in game.tables:
        fn = "chart_" + pieces.safe_name(t.id) + ".png"
        b.image(fn, cache_mod.key("chart", chart_code, repr(t)), lambda t=t: charts_mod.table_image(t))
        b.chart_list.append((t.name, fn))
    if game.tec is not None and game.tec.terrain:
        b.image("chart_tec.png", cache_mod.key("tec", chart_code, repr(game.tec)), lambda: charts_mod.tec_image(game.tec))
        b.chart_list.append(("Terrain Effects", "chart_tec.png"))
    board_code = cache_mod.code_fingerprint([boards_mod, layout_mod])
    k = cache_mod.key("legend", board_code, cache_mod.key(boards_mod.board_inputs(game)))
    b.image("chart_map_key.png", k, lambda: boards_mod.legend_image(game))
    b.chart_list.append(("Map key", "chart_map_key.png"))


def _holding_boxes(b: _Build) -> None:
    """The scenarios' placements, and the Reinforcements board with a box for each that needs one."""
    game = b.game
    b.plans = [setup_mod.plan(game, s) for s in game.scenarios]
    keys = setup_mod.all_boxes(game, b.plans)
    if not keys:
        return
    box_code = cache_mod.code_fingerprint([boxes, boards_mod])
    size, geoms = boxes.layout(game, keys)
    k = cache_mod.key("boxes", box_code, [[x.side, x.turn, x.label] for x in keys],
                      [[s.id, s.name] for s in game.sides], repr(game.turns))
    b.image("board_reinforcements.png", k, lambda: boxes.render(game, keys))
    b.reinf = {"image": "board_reinforcements.png", "size": size, "zones": [(g.name, g.path) for g in geoms]}
    b.box_centres = {g.key: g.centre for g in geoms}


def _hex_centres(game, in_play: list[str]) -> dict:
    """Each hex of the boards in play -> where VASSAL puts a piece on it, in main-map pixels (the boards,
    art or drawn, laid out as VASSAL does)."""
    layouts = placed_layouts(game)
    offs = board_offsets(game.grid, in_play, layouts)
    centres = {}
    for bid in in_play:
        lay = layouts[bid]
        ox, oy = offs[bid]
        for hid, c, r in lay.hexes():
            x, y = lay.centre(c, r)
            centres[hid] = (x + ox, y + oy)
    return centres


def _setups(b: _Build) -> None:
    """One predefined set-up (.vsav) per scenario, its pieces on their hexes."""
    game = b.game
    ns = len(game.scenarios)
    for i, (s, pl) in enumerate(zip(game.scenarios, b.plans)):
        b.report("scenarios", i, ns)
        in_play = [bd.id for bd in game.grid.boards if not s.boards or bd.id in s.boards]
        # set-up hexes on boards not in play (a source error) go to a holding box rather than vanish
        ft = game.turn(s.first_turn) if s.first_turn else None
        text = savegame.saved_game_text(game, pl, _hex_centres(game, in_play), b.box_centres, in_play,
                                        board_slots(game.grid, in_play), b.reinf is not None,
                                        first_turn_index=ft.index if ft else None, n_turns=len(game.turns),
                                        n_phases=len(game.phases))
        b.problems.extend(f"scenario {s.id}: {x}" for x in pl.problems)
        b.chosen.extend(f"scenario {s.id}: placed {x}" for x in pl.choices)
        fn = setup_file_name(s)
        b.saves.append((fn, zip_bytes([
            ("savedGame", savegame.saved_game_bytes(text)),
            ("savedata", save_metadata(game, s)),
            ("moduledata", module_metadata(game)),
        ])))
        b.setups.append((f"{s.id} {s.name}" if s.name and s.name != s.id else s.id, fn))
    b.report("scenarios", ns, ns)


# the module, step by step: each adds its entries (and what buildFile.xml names) to the build
STEPS = (_boards, _counters, _charts, _holding_boxes, _setups)


def _archive(b: _Build) -> list[tuple[str, bytes]]:
    """Every entry in archive order: buildFile.xml, moduledata, the images by name, the set-ups."""
    xml = buildfile.build_xml(b.game, b.board_images, b.board_sizes, b.grids, b.reinf, b.chart_list, b.setups,
                              MODULE_VERSION, piece_px(b.game))
    ordered = [("buildFile.xml", xml), ("moduledata", module_metadata(b.game))]
    ordered += sorted(b.entries, key=lambda e: e[0])
    ordered += b.saves
    names = [e[0] for e in ordered]
    if len(names) != len(set(names)):
        dup = sorted({n for n in names if names.count(n) > 1})
        raise ValueError(f"two archive entries share a name: {dup}")
    return ordered


def _write(target: Path, ordered: list) -> None:
    with atomic_path(target) as tmp:
        with open(tmp, "wb") as f:
            write_zip(f, ordered)
            f.flush()
            os.fsync(f.fileno())


def _tell(found: tuple[list, list], warnings: Optional[list], notes: Optional[list]) -> None:
    if warnings is not None:
        warnings.extend(found[0])
    if notes is not None:
        notes.extend(found[1])


def build_module(game, out_dir: Path, progress: Optional[Callable[[str, int, int], None]] = None,
                 warnings: Optional[list] = None, notes: Optional[list] = None) -> Path:
    """Build `out_dir/<game.id>.vmod`. `warnings`, if given, receives what could not be placed faithfully;
    `notes` every placement the set-ups chose for a location that is not a single hex.

    A rebuild of the same model with the same builder code finds the module it wrote last time (its
    stamp records the key, size and mtime) and returns at once.
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"{game.id}.vmod"
    stamp = out_dir / ".cache" / "module.stamp"
    module_key = _module_key(game)
    done = _unchanged(stamp, module_key, target)
    if done is not None:
        _tell(done, warnings, notes)
        return target
    b = _Build(game, cache_mod.Cache(out_dir / ".cache"), progress or (lambda *a: None))
    for step in STEPS:
        step(b)
    _write(target, _archive(b))
    b.cache.commit()
    info = target.stat()
    write_atomic(stamp, json.dumps({"key": module_key, "size": info.st_size, "mtime_ns": info.st_mtime_ns,
                                    "warnings": b.problems, "notes": b.chosen}).encode())
    _tell((b.problems, b.chosen), warnings, notes)
    return target


def plans_for(game):
    """The placement plan of every scenario (for reports and tests)."""
    return [setup_mod.plan(game, s) for s in game.scenarios]
