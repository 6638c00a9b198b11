"""The images a tree names (art.yaml), read safely: where they are, what they hold, whether they can be used.

`inspect(root, rel, loc)` gives an `ImageFile`: the path as written, the format, size and mode Pillow
reads from its header, its EXIF orientation, its byte count and SHA-256 (what keys every drawing made
from it), or the `fault` that keeps it out of the module:

- ``outside``: an absolute path, a `..` that climbs out of the tree, or a link that leads out of it
  (its target is never opened);
- ``missing`` / ``not-a-file``: nothing there, a dangling link, a directory, a FIFO or a device;
- ``too-large``: more bytes than MAX_IMAGE_BYTES, or more pixels than Pillow's decompression-bomb limit
  (`PIL.Image.MAX_IMAGE_PIXELS`, kept as Pillow sets it: above it, an image is refused, never decoded);
- ``unreadable``: not a PNG or JPEG, or data that does not decode to its end (a truncated file, a bad
  chunk checksum);
- ``cmyk``: a CMYK (or YCCK) JPEG, which VASSAL's Java image reader does not display;
- ``rotated``: an EXIF orientation other than 1 (VASSAL ignores it, so the image would show turned or
  mirrored against what the author sees and measured).

PNGs of any bit depth, palette PNGs and greyscale images are used as they are (VASSAL reads them; the
drawings made here go through `as_rgb`). Nothing is ever written: the module takes the file's own bytes.
"""
from __future__ import annotations

import hashlib
import os
import re
import stat
import warnings
from pathlib import Path, PurePosixPath
from typing import Optional

from .model import ImageFile, Loc

MAX_IMAGE_BYTES = 512 * 1024 * 1024        # a 10 000 x 7 000 scan is 20-200 MB as JPEG or PNG
FORMATS = ("PNG", "JPEG")
EXIF_ORIENTATION = 0x0112
_CHUNK = 1 << 20
# the resolved path is opened without following a link at its last step (one put there since it was resolved)
_OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_NOFOLLOW", 0)


class _Fault(Exception):
    def __init__(self, kind: str, detail: str):
        super().__init__(detail)
        self.kind, self.detail = kind, detail


def _inside(root: Path, rel: str) -> Path:
    """The real path of `rel` under `root`; a _Fault if it is written or leads outside the tree."""
    p = PurePosixPath(rel)
    if p.is_absolute() or rel.startswith("~") or (len(rel) > 1 and rel[1] == ":"):
        raise _Fault("outside", "is an absolute path; art is named by its path inside the game tree")
    root_real = os.path.realpath(root)
    real = os.path.realpath(os.path.join(root, *p.parts))
    if os.path.commonpath([root_real, real]) != root_real:
        how = "leads out of the game tree through a symbolic link" if ".." not in p.parts else \
            "climbs out of the game tree (`..`)"
        raise _Fault("outside", f"{how}; nothing outside the tree is read")
    if not os.path.lexists(os.path.join(root, *p.parts)):
        raise _Fault("missing", "does not exist")
    if not os.path.exists(real):
        raise _Fault("missing", "is a symbolic link to nothing (a dangling link)")
    return Path(real)


def _read_digest(f, size: int) -> str:
    h = hashlib.sha256()
    left = size
    while left > 0:
        block = f.read(min(_CHUNK, left))
        if not block:
            raise _Fault("unreadable", "ended before its own size was read (the file changed while read)")
        h.update(block)
        left -= len(block)
    return h.hexdigest()


def _open_image(f):
    """Pillow's image, its header read; a decompression bomb is refused before any pixel is decoded."""
    from PIL import Image, UnidentifiedImageError
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            return Image.open(f)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as e:
        n = re.search(r"\((\d+) pixels\)", str(e))
        raise _Fault("too-large", f"declares {n.group(1) if n else 'more'} pixels, more than Pillow's decompression-bomb "
                                  f"limit of {Image.MAX_IMAGE_PIXELS}: it is refused undecoded") from None
    except UnidentifiedImageError:
        raise _Fault("unreadable", "is not an image Pillow can read; art is PNG or JPEG") from None
    except (OSError, SyntaxError, ValueError) as e:
        raise _Fault("unreadable", f"cannot be read as an image: {e}") from None


def _decodes(f) -> None:
    """The whole of the data decodes: a PNG's chunks and their checksums to the end (without inflating the
    pixels), a JPEG's scans at an eighth of its size (every byte of entropy-coded data is read).
    Whatever a damaged file makes a decoder raise is the file's fault, never a traceback."""
    try:
        im = _open_image(f)
        with im:
            if im.format == "PNG":
                im.verify()
            else:
                im.draft("RGB", (max(1, im.width // 8), max(1, im.height // 8)))
                im.load()
    except _Fault:
        raise
    except Exception as e:  # noqa: BLE001 - a hostile file may make a decoder raise anything
        raise _Fault("unreadable", f"does not decode to its end ({e}): a truncated or damaged file") from None


def _orientation(im) -> int:
    """The EXIF orientation, read from the header: a JPEG's APP1, a PNG's eXIf chunk where it comes before the
    pixels (Pillow's PNG getexif() would decode the whole image to look after them)."""
    from PIL import Image
    if im.format == "PNG":
        raw = im.info.get("exif")
        if not raw:
            return 1
        exif = Image.Exif()
        exif.load(raw)
    else:
        exif = im.getexif()
    return int(exif.get(EXIF_ORIENTATION, 1) or 1)


def _facts(f) -> dict:
    im = _open_image(f)
    try:
        if im.format not in FORMATS:
            raise _Fault("unreadable", f"is a {im.format} image; art is PNG or JPEG")
        facts = dict(format=im.format, width=im.width, height=im.height, mode=im.mode)
        if im.mode == "CMYK":
            raise _Fault("cmyk", f"is a CMYK JPEG, {im.width} x {im.height} px: VASSAL's Java image reader does "
                                 "not display CMYK; save it in RGB (sRGB)")
        orientation = _orientation(im)
        if orientation != 1:
            raise _Fault("rotated", f"carries EXIF orientation {orientation} (shown turned or mirrored): VASSAL "
                                    "ignores it and would show the image as stored; save it with the rotation "
                                    "applied (e.g. `exiftran -ai`, `mogrify -auto-orient`)")
        return facts
    except _Fault:
        raise
    except Exception as e:  # noqa: BLE001 - reading a damaged header's EXIF may raise anything
        raise _Fault("unreadable", f"cannot be read as an image: {e}") from None
    finally:
        im.close()


def _pass(fd: int, read):
    """`read(f)` on the opened file from its start (a file object of its own: Pillow closes what it reads)."""
    os.lseek(fd, 0, os.SEEK_SET)
    with os.fdopen(os.dup(fd), "rb") as f:
        return read(f)


def inspect(root: Path, rel: str, loc: Loc) -> ImageFile:
    """What the image at `rel` (relative to the tree `root`) is, or why it cannot be used."""
    try:
        real = _inside(Path(root), rel)
        fd = os.open(real, _OPEN_FLAGS)
    except _Fault as e:
        return ImageFile(rel, loc, fault=e.kind, detail=e.detail)
    except OSError as e:
        return ImageFile(rel, loc, fault="missing", detail=f"cannot be opened: {e.strerror}")
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            what = "a directory" if stat.S_ISDIR(st.st_mode) else "not a regular file (a FIFO, socket or device)"
            return ImageFile(rel, loc, fault="not-a-file", detail=f"is {what}")
        if st.st_size > MAX_IMAGE_BYTES:
            return ImageFile(rel, loc, bytes=st.st_size, fault="too-large",
                             detail=f"is {st.st_size} bytes, more than an image may be ({MAX_IMAGE_BYTES})")
        digest = _pass(fd, lambda f: _read_digest(f, st.st_size))
        try:
            facts = _pass(fd, _facts)
            _pass(fd, _decodes)
        except _Fault as e:
            return ImageFile(rel, loc, bytes=st.st_size, digest=digest, fault=e.kind, detail=e.detail)
        return ImageFile(rel, loc, bytes=st.st_size, digest=digest, **facts)
    except OSError as e:
        return ImageFile(rel, loc, fault="unreadable", detail=f"cannot be read: {e.strerror or e}")
    finally:
        os.close(fd)


def open_image(root, image: ImageFile):
    """An image of the tree opened for reading, checked again as the loader checked it (inside the tree,
    no link followed out, a regular file): what is read is never a file swapped in from outside since.
    OSError (naming the image) where it no longer is."""
    try:
        fd = os.open(_inside(Path(root), image.path), _OPEN_FLAGS)
    except _Fault as e:
        raise OSError(f"{image.path} {e.detail}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(f"{image.path} is no longer a regular file")
    return os.fdopen(fd, "rb")


def open_scaled(root, image: ImageFile, size: Optional[tuple[int, int]] = None):
    """The image decoded as RGB(A) 8-bit (`as_rgb`), scaled to `size` if given; a JPEG is decoded at the
    smallest DCT scale that is still at least `size` (a scan's full size is never held for a small picture)."""
    from PIL import Image
    im = Image.open(open_image(root, image))
    if size is not None and im.format == "JPEG":
        im.draft("RGB", size)
    im = as_rgb(im)
    if size is not None and im.size != tuple(size):
        im = im.resize(tuple(size), Image.LANCZOS)
    return im


def as_rgb(im):
    """An image as 8-bit RGB, or RGBA where it has transparency: palettes expanded, greyscale made colour,
    16-bit samples scaled to 8 (Pillow's own conversion would clip them at 255). The pixels are read now:
    the result does not need its file open."""
    im.load()
    if im.mode.startswith("I;16") or im.mode == "I":
        im = im.convert("I").point(lambda v: v / 257).convert("L")
    if im.mode in ("RGBA", "LA", "PA") or (im.mode == "P" and "transparency" in im.info):
        return im.convert("RGBA")
    return im.convert("RGB") if im.mode != "RGB" else im
