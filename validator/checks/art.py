"""Checks on the author's art (art.yaml): the images, each board's registration to the grid, the counter sheets."""
from __future__ import annotations

from ..source.art import Registration, Unregistered, register
from . import Finding, check

_HELP_PREVIEW = "`hexforge art PATH` draws the hex grid and IDs over each board image: compare them with the print"


def _faulty(ctx, *faults: str):
    """(image, first mention) of each distinct image path with one of these faults."""
    seen = set()
    for im in ctx.game.art.images():
        if im.fault in faults and im.path not in seen:
            seen.add(im.path)
            yield im


def _registrations(ctx) -> dict:
    """Board id -> Registration or Unregistered, for each board with art (its first entry)."""
    if "registrations" not in ctx._memo:
        g = ctx.game
        out = {}
        for b in g.art.boards:
            board = g.grid.board(b.board)
            if board is not None and b.board not in out:
                out[b.board] = register(g.grid, board, g.rows_increase == "north", b)
        ctx._memo["registrations"] = out
    return ctx._memo["registrations"]


def _registered(ctx):
    """(board art, registration) of each board whose image is usable and whose registration gives a grid."""
    regs = _registrations(ctx)
    for b in ctx.game.art.boards:
        r = regs.get(b.board)
        if isinstance(r, Registration) and b.image.usable and ctx.game.board_art(b.board) is b:
            yield b, r


@check("HF2001", "art-image-missing", "error", "put the image at that path inside the game tree, or correct the path")
def art_image_missing(ctx):
    """An image art.yaml names is not there (or is a directory, a FIFO, a dangling link).

    ## What it checks
    Every `image`, `front` and `back` of art.yaml names a regular file under the game tree.
    ## Why
    The module and the printed charts are made from the author's files: a missing one cannot be built.
    ## Reads
    art.yaml `boards[].image`, `counters[].front|back`, `sheets[].image`; the files themselves.
    ## Violation
    `image: art/board-a.jpg` where the tree has `art/Board-A.jpg` (names are case-sensitive).
    ## Near miss
    `image: art/board-a.jpg` with the file present, or a link to it that stays inside the tree.
    """
    for im in _faulty(ctx, "missing", "not-a-file"):
        yield Finding(im.loc, f"{im.path} {im.detail}")


@check("HF2002", "art-image-outside-tree", "error",
       "keep the art inside the game tree and name it by its path from there (art/board-a.jpg)")
def art_image_outside_tree(ctx):
    """An image path leaves the game tree: absolute, climbing out with `..`, or a link leading out.

    ## What it checks
    Each image path is relative and resolves, links followed, to a file inside the tree.
    ## Why
    A tree is self-contained and a run reads nothing outside it (the same rule as for source files,
    HF006): a link out of the tree would put another user's file in the module.
    ## Reads
    art.yaml image paths; where they resolve on disk (the target of a link out is never opened).
    ## Violation
    `image: ../scans/board-a.jpg`, `image: /home/me/board-a.jpg`, or `art/board-a.jpg` a link to `/tmp/x.jpg`.
    ## Near miss
    `image: art/../art/board-a.jpg` (stays inside), or a link from `art/a.jpg` to `scans/a.jpg` in the tree.
    """
    for im in _faulty(ctx, "outside"):
        yield Finding(im.loc, f"{im.path} {im.detail}")


@check("HF2003", "art-image-unreadable", "error",
       "export the image again as PNG or JPEG and check it opens in an image viewer")
def art_image_unreadable(ctx):
    """An image is not a PNG or JPEG, or its data does not decode to the end.

    ## What it checks
    The file is a PNG or JPEG Pillow opens, and all of it decodes: a PNG's chunks and their checksums
    to IEND, a JPEG's entropy-coded data to its end (decoded at an eighth of its size).
    ## Why
    VASSAL shows only images its Java reader decodes; a truncated download shows as a grey box or fails
    the module's load.
    ## Reads
    The image files art.yaml names.
    ## Violation
    `art/board-a.png` cut short by an interrupted copy; a GIF or a WebP renamed `.png`.
    ## Near miss
    An interlaced PNG, a progressive JPEG or a palette PNG: all decode and are used as they are.
    """
    for im in _faulty(ctx, "unreadable"):
        yield Finding(im.loc, f"{im.path} {im.detail}")


@check("HF2004", "art-image-too-large", "error",
       "scale the scan down (a board rarely needs more than 150 px a hex), or split it into boards")
def art_image_too_large(ctx):
    """An image has more bytes than the bound, or more pixels than Pillow's decompression-bomb limit.

    ## What it checks
    An image's file size is at most 512 MiB and its width x height at most `PIL.Image.MAX_IMAGE_PIXELS`
    (about 89 million pixels; a 10 000 x 7 000 scan is 70 million). Pillow's limit is kept as Pillow sets it;
    above it the image is refused from its header, before any pixel is decoded.
    ## Why
    A small file can declare an enormous image (a decompression bomb); decoding it would exhaust memory.
    ## Reads
    The image files' sizes and their headers' dimensions.
    ## Violation
    A 12 000 x 9 000 PNG (108 million pixels).
    ## Near miss
    A 10 000 x 7 000 JPEG (70 million pixels).
    """
    for im in _faulty(ctx, "too-large"):
        yield Finding(im.loc, f"{im.path} {im.detail}")


@check("HF2005", "art-image-cmyk", "error", "save the image in RGB (sRGB); printers' CMYK files need converting")
def art_image_cmyk(ctx):
    """A JPEG is in CMYK (or YCCK), which VASSAL does not display.

    ## What it checks
    No JPEG of the art has Pillow's mode CMYK.
    ## Why
    VASSAL 3.7.9 loads images with Java's ImageIO (VASSAL.tools.image.ImageIOImageLoader), whose JPEG
    reader refuses CMYK; publishers' print files are often CMYK.
    ## Reads
    The JPEG files' colour space.
    ## Violation
    `art/board-a.jpg` exported from a print PDF in CMYK.
    ## Near miss
    The same scan saved as an RGB JPEG, or a greyscale one.
    """
    for im in _faulty(ctx, "cmyk"):
        yield Finding(im.loc, f"{im.path} {im.detail}")


@check("HF2006", "art-image-rotated", "error",
       "save the image with the rotation applied (`exiftran -ai`, `mogrify -auto-orient`), then measure again")
def art_image_rotated(ctx):
    """An image carries an EXIF orientation other than "as stored": VASSAL would show it turned.

    ## What it checks
    Each image's EXIF Orientation tag is absent or 1.
    ## Why
    Image viewers turn a photo by its EXIF tag, so the author measured the reference hexes on the turned
    image; VASSAL ignores the tag and shows the pixels as stored, so the grid would not match.
    ## Reads
    The images' EXIF Orientation (tag 0x0112).
    ## Violation
    A phone photo of a counter sheet, stored landscape with Orientation 6 (rotate 90°).
    ## Near miss
    The same photo after `exiftran -ai`: the pixels turned, the tag reset to 1.
    """
    for im in _faulty(ctx, "rotated"):
        yield Finding(im.loc, f"{im.path} {im.detail}")


@check("HF2007", "board-art-does-not-cover", "error",
       "check the reference hexes and the spacings; " + _HELP_PREVIEW)
def board_art_does_not_cover(ctx):
    """At its registration, a board's image does not hold every hex of the board.

    ## What it checks
    Every hex of the board has its centre inside the image, at the registration given; the finding says
    how many do not and how far past which edges they fall.
    ## Why
    VASSAL names a point and snaps a piece only on the board's image: a hex whose centre is off the image
    cannot hold a piece, and a registration that puts hexes off the image is usually mismeasured.
    ## Reads
    map.yaml boards (columns, rows, orientation, shift, `row_numbers_increase`); art.yaml
    `boards[].registration`, `spacing`; the image's size.
    ## Violation
    Board A (16 columns) registered at 85 px a column on a 1 200 px wide image: column 16's centres lie at
    x = 1 374, 175 px past the right edge.
    ## Near miss
    The same board on a 1 447 px wide image: the last centres at x = 1 374 are inside it.
    """
    for b, reg in _registered(ctx):
        w, h = b.image.size
        out = [(hid, x, y) for hid, x, y in reg.centres() if not (0 <= x < w and 0 <= y < h)]
        if not out:
            continue
        edges = [f"{max(d):.0f} px past its {side} edge" for side, d in (
            ("left", [-x for _, x, _ in out if x < 0]), ("right", [x - w for _, x, _ in out if x >= w]),
            ("top", [-y for _, _, y in out if y < 0]), ("bottom", [y - h for _, _, y in out if y >= h])) if d]
        n = sum(1 for _ in reg.centres())
        yield Finding(b.image.loc, f"board {b.board}: {len(out)} of {n} hexes have their centre outside {b.image.path} "
                                   f"({w} x {h} px) at this registration: up to {' and '.join(edges)}",
                      hexes=tuple(hid for hid, _, _ in out))


@check("HF2008", "board-registration-invalid", "error",
       "give one reference hex and `spacing: {columns, rows}`, or two reference hexes in different columns and rows")
def board_registration_invalid(ctx):
    """A board's registration does not fix where its hexes lie.

    ## What it checks
    Each reference hex is a hex of that board; one reference hex comes with `spacing`, two come without
    it and lie in different columns and at different heights, in the order the grid numbers them.
    ## Why
    The module's HexGrid is calibrated from the registration: without both spacings there is no grid,
    and a pair of hexes in the wrong order means a misread hex ID or a mirrored image.
    ## Reads
    art.yaml `boards[].registration`, `spacing`; map.yaml boards, orientation and shift.
    ## Violation
    `registration: [{hex: A1.01, at: [99, 132]}, {hex: A1.20, at: [99, 2006]}]`: both in column 1.
    ## Near miss
    `registration: [{hex: A1.01, at: [99, 132]}, {hex: A16.20, at: [1374, 2056]}]`.
    """
    for board, r in _registrations(ctx).items():
        if isinstance(r, Unregistered):
            b = ctx.game.board_art(board)
            yield Finding(b.loc, f"board {board}: {r.message}", hexes=r.hexes)


@check("HF2009", "board-registration-irregular", "warning",
       "measure the reference hexes again, far apart; " + _HELP_PREVIEW)
def board_registration_irregular(ctx):
    """A registration puts the hexes far from regular: usually a reference hex misread.

    ## What it checks
    Regular flat-topped hexes lie 2/√3 (1.155) times as far apart down a column as across columns; a
    registration more than 15 % off that is reported.
    ## Why
    Printed maps are regular to within a few per cent (a scan may stretch a little); a spacing that far
    off comes from a reference hex measured in the wrong hex or a typed-over coordinate.
    ## Reads
    art.yaml `boards[].registration`, `spacing`.
    ## Violation
    `spacing: {columns: 85, rows: 60}` (0.71 where 1.155 is regular).
    ## Near miss
    `spacing: {columns: 84.94, rows: 98.64}` (1.161).
    """
    for b, reg in _registered(ctx):
        if reg.irregularity() > 0.15:
            c, r = reg.spacing
            yield Finding(b.loc, f"board {b.board}: hexes {c:.4g} px apart from column to column and {r:.4g} px from "
                                 f"row to row ({max(c, r) / min(c, r):.2f} to 1); regular hexes are 1.15 to 1")


@check("HF2010", "counter-sheet-grid-does-not-fit", "error",
       "check the sheet's origin, pitch, size, columns and rows against the image")
def counter_sheet_grid_does_not_fit(ctx):
    """A counter sheet's grid reaches past its image, or its cells list more than its rows and columns.

    ## What it checks
    origin + (columns - 1) x pitch + size lies within the image across, and the same down; `cells` has
    at most `rows` lines of at most `columns` entries.
    ## Why
    Each counter is cut from the sheet at its cell: a cell past the image would be cut from nothing.
    ## Reads
    art.yaml `sheets[]` origin, pitch, size, columns, rows, cells; the image's size.
    ## Violation
    `origin: [18, 26], pitch: [94, 94], size: [88, 88], columns: 11` on a 976 px wide sheet: the last column
    ends at x = 1 046, 70 px past the edge.
    ## Near miss
    `columns: 10`: it ends at x = 952.
    """
    for s in ctx.game.art.sheets:
        for i, line in enumerate(_cell_lines(s)):
            if i >= s.rows or line > s.columns:
                yield Finding(s.loc, f"{s.image.path}: `cells` line {i + 1} lists {line} cells for a sheet of "
                                     f"{s.rows} rows of {s.columns}")
        if not s.image.usable:
            continue
        right = s.origin[0] + (s.columns - 1) * s.pitch[0] + s.size[0]
        bottom = s.origin[1] + (s.rows - 1) * s.pitch[1] + s.size[1]
        w, h = s.image.size
        over = [f"across to x = {right:g}, {right - w:g} px past its right edge" for _ in (1,) if right > w]
        over += [f"down to y = {bottom:g}, {bottom - h:g} px past its bottom edge" for _ in (1,) if bottom > h]
        if over:
            yield Finding(s.loc, f"{s.image.path} ({w} x {h} px): the grid of {s.rows} x {s.columns} cells reaches "
                                 + " and ".join(over))


def _cell_lines(sheet) -> list[int]:
    """How many cells each line of a sheet's `cells` lists (the empty ones counted)."""
    lines: dict[int, int] = {}
    for c in sheet.cells:
        lines[c.row] = max(lines.get(c.row, 0), c.column)
    return [lines.get(r, 0) for r in range(1, max(lines, default=0) + 1)]


@check("HF2011", "counter-art-not-square", "warning",
       "crop the counter image square (counters are square), or correct the sheet's `size`")
def counter_art_not_square(ctx):
    """A counter image (or a sheet's cell) is not square.

    ## What it checks
    Each `counters[]` image and each sheet's cell size is square to within 5 %.
    ## Why
    Counters are square; an image of another shape is scaled to fit the counter and centred, which shows
    the author's art smaller than printed (or a sheet's size mistyped).
    ## Reads
    art.yaml `counters[].front|back` images' sizes, `sheets[].size` (or pitch).
    ## Violation
    `front: art/1tk.png`, 120 x 80 px.
    ## Near miss
    A 120 x 118 px image (2 % off).
    """
    seen = set()
    for c in ctx.game.art.counters:
        for im in (c.front, c.back):
            if im is not None and im.usable and im.path not in seen and _off_square(*im.size):
                seen.add(im.path)
                yield Finding(im.loc, f"{im.path} is {im.width} x {im.height} px; counters are square, so it is "
                                      "scaled to fit and centred")
    for s in ctx.game.art.sheets:
        if _off_square(*s.size):
            yield Finding(s.loc, f"{s.image.path}: each cell is {s.size[0]:g} x {s.size[1]:g} px; counters are square")


def _off_square(w: float, h: float) -> bool:
    return w > 0 and h > 0 and abs(w / h - 1) > 0.05


@check("HF2012", "unit-art-missing", "warning",
       "give the unit its art (a sheet cell or a `counters` entry), or leave it to be drawn")
def unit_art_missing(ctx):
    """Some units have counter art and this one does not: it is drawn by hexforge among the author's counters.

    ## What it checks
    Where any unit has art for its front, every unit has one; where any two-step unit has art for its
    back, every two-step unit with front art has one too.
    ## Why
    A counter drawn by hexforge among scanned ones is usually a unit forgotten in the sheet's `cells`.
    ## Reads
    counters.yaml units (steps); art.yaml `counters`, `sheets[].cells`.
    ## Violation
    The sheet lists 18 of Crossing the Meuse's 19 units; blue-12id-31 is not in it.
    ## Near miss
    A tree with no counter art at all: every counter is drawn, nothing is reported.
    """
    g = ctx.game
    with_front = [u for u in g.units if g.face_art("unit", u.id, "front")]
    with_back = [u for u in g.units if u.steps >= 2 and g.face_art("unit", u.id, "back")]
    for u in g.units:
        if with_front and u not in with_front:
            yield Finding(u.loc, f"unit {u.id} has no counter art, though {len(with_front)} of {len(g.units)} units "
                                 "have; it is drawn", units=(u.id,))
        elif with_back and u.steps >= 2 and u in with_front and u not in with_back:
            yield Finding(u.loc, f"unit {u.id} has art for its front but not for its back, though {len(with_back)} "
                                 "units have; its back is drawn", units=(u.id,))


@check("HF2013", "board-art-missing", "warning", "give the board its image and registration in art.yaml")
def board_art_missing(ctx):
    """Some boards have art and this one does not: it is drawn beside the author's scans.

    ## What it checks
    Where any board has art, every board has.
    ## Why
    A drawn board beside a scanned one is usually a board forgotten in art.yaml `boards`.
    ## Reads
    map.yaml boards; art.yaml `boards[].board`.
    ## Violation
    Crossing the Meuse with art for board A only.
    ## Near miss
    Art for both boards, or for none.
    """
    g = ctx.game
    if not g.art.boards:
        return
    for b in g.grid.boards:
        if g.board_art(b.id) is None:
            yield Finding(g.art.loc, f"board {b.id} has no art, though {len(g.art.boards)} board(s) have; it is drawn")


@check("HF2014", "art-names-unknown", "error", "correct the id to one the tree declares")
def art_names_unknown(ctx):
    """art.yaml names a board, unit, formation, unit type or marker the tree does not have.

    ## What it checks
    `boards[].board` is a board of map.yaml; a `counters[]` entry's unit, formation or marker is declared
    in counters.yaml and its type is some unit's type; every id in a sheet's `cells` is a unit or marker.
    ## Why
    Art for nothing is a typo, and the counter it was meant for is drawn instead.
    ## Reads
    art.yaml; map.yaml boards; counters.yaml formations, units, markers.
    ## Violation
    A cell `red-1ad-1tnk` (for red-1ad-1tk).
    ## Near miss
    `{type: armor, back: art/armour-back.png}` where some unit has `type: armor`.
    """
    g = ctx.game
    for b in g.art.boards:
        if g.grid.board(b.board) is None:
            yield Finding(b.loc, f"board {b.board!r} is not a board of map.yaml")
    known = {"unit": {u.id for u in g.units}, "formation": {f.id for f in g.formations},
             "type": {u.type for u in g.units}, "marker": {m.id for m in g.markers}}
    for c in g.art.counters:
        if c.id not in known[c.kind]:
            yield Finding(c.loc, f"counter art for {c.kind} {c.id!r}, which counters.yaml does not have")
    for s in g.art.sheets:
        for cell in s.cells:
            if cell.id not in known[cell.kind]:
                yield Finding(cell.loc, f"{s.image.path}: cell row {cell.row}, column {cell.column} names {cell.id!r}, "
                                        f"which is no {cell.kind} of counters.yaml")


@check("HF2015", "art-named-twice", "error", "keep one image for each board and counter face; remove the other")
def art_named_twice(ctx):
    """A board, or a counter face, is given art twice.

    ## What it checks
    art.yaml names each board once; each face of a unit or marker comes from one `counters` entry or one
    sheet cell, not two (a formation's or a type's entry only fills in for units without their own).
    ## Why
    Two images for one thing leave one of them unused, and which is the author's intent is unknown.
    ## Reads
    art.yaml `boards`, `counters`, `sheets[].cells`.
    ## Violation
    red-1ad-1tk's front in a sheet cell and in `{unit: red-1ad-1tk, front: art/1tk.png}`.
    ## Near miss
    `{formation: red-1ad, back: ...}` beside sheet cells for some of its units' backs.
    """
    g = ctx.game
    seen_boards: set = set()
    for b in g.art.boards:
        if b.board in seen_boards:
            yield Finding(b.loc, f"board {b.board} is given art a second time; the first entry is used")
        seen_boards.add(b.board)
    named: dict = {}
    mentions = [((c.kind, c.id, face), c.loc) for c in g.art.counters for face, im in (("front", c.front),
                                                                                        ("back", c.back)) if im]
    mentions += [((cell.kind, cell.id, cell.face), cell.loc) for s in g.art.sheets for cell in s.cells]
    for key, loc in mentions:
        if key in named:
            kind, cid, face = key
            yield Finding(loc, f"the {face} of {kind} {cid} is given art again (first at {named[key]})",
                          units=(cid,) if kind == "unit" else ())
        else:
            named[key] = loc


@check("HF2016", "board-art-scales-differ", "warning",
       "scan or export every board at the same resolution, so one counter size fits them all")
def board_art_scales_differ(ctx):
    """The boards' images are at different scales: counters sized for one will not fit the other's hexes.

    ## What it checks
    Every board's registered hex size (across the flats) is within 2 % of the first board's.
    ## Why
    A module's pieces have one size, taken from the first board's hexes (the drawn module's counters
    are three quarters of a hex); on a board scanned at another resolution they are too large or too small.
    ## Reads
    art.yaml `boards[].registration`, `spacing`.
    ## Violation
    Board A at 98.6 px a hex, board B scanned at 150 dpi instead of 200: 74 px a hex.
    ## Near miss
    Board A at 98.6 px, board B at 98.3 px (0.3 % off).
    """
    regs = list(_registered(ctx))
    if len(regs) < 2:
        return
    first_b, first = regs[0]
    for b, r in regs[1:]:
        if abs(r.across_flats / first.across_flats - 1) > 0.02:
            yield Finding(b.loc, f"board {b.board}'s hexes are {r.across_flats:.4g} px across, board {first_b.board}'s "
                                 f"{first.across_flats:.4g} px: the pieces are sized for board {first_b.board}")
