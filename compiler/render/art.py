"""Pictures made from the author's art (art.yaml): counter faces cut from their sheet and sized, and board
images scaled, for the module's pieces, the printed counter sheets, the set-up cards and the previews.

A board's own image goes into the module as the author's file, byte for byte (compiler/vassal/build.py):
nothing here re-encodes it. A picture of it at another scale is decoded at the smallest size that
serves (a JPEG at a DCT scale of 1/2, 1/4 or 1/8: `validator.source.images.open_scaled`).
"""
from __future__ import annotations

from functools import lru_cache

from PIL import Image

from validator.source.images import as_rgb, open_image
from validator.source.model import Face, ImageFile

TRANSPARENT = (0, 0, 0, 0)


def _open(root: str, image: ImageFile) -> Image.Image:
    return Image.open(open_image(root, image))


@lru_cache(maxsize=2)
def _sheet(root: str, image: ImageFile) -> Image.Image:
    """A counter sheet decoded once per process (a sheet is a few megapixels; its cells are many)."""
    with _open(root, image) as im:
        return as_rgb(im)


def face_image(root: str, face: Face, px: int) -> Image.Image:
    """A counter face from its art, `px` square: the cell (or the whole image) scaled to fit, centred on a
    transparent square where it is not square itself."""
    if face.box is not None:
        art = _sheet(root, face.image).crop(face.box)
    else:
        with _open(root, face.image) as im:
            art = as_rgb(im)
    w, h = art.size
    if w == h:
        return art.resize((px, px), Image.LANCZOS)
    k = px / max(w, h)
    fitted = art.resize((max(1, round(w * k)), max(1, round(h * k))), Image.LANCZOS).convert("RGBA")
    out = Image.new("RGBA", (px, px), TRANSPARENT)
    out.paste(fitted, ((px - fitted.width) // 2, (px - fitted.height) // 2))
    return out


def on_white(img: Image.Image) -> Image.Image:
    """An image as RGB, any transparency laid over white paper (for print)."""
    if img.mode != "RGBA":
        return img.convert("RGB")
    paper = Image.new("RGB", img.size, (255, 255, 255))
    paper.paste(img, mask=img.getchannel("A"))
    return paper


def scaled_board(root: str, image: ImageFile, scale: float) -> Image.Image:
    """A board's image at `scale` (1 = its own pixels), as RGB(A)."""
    from validator.source.images import open_scaled
    size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
    return open_scaled(root, image, None if scale == 1 else size)
