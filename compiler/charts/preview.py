"""PNG previews of PDF pages (for the README), rasterised by PDFium through pypdfium2, so the preview
is the printed page itself and not a second layout."""
from __future__ import annotations

from pathlib import Path

from compiler.atomic import atomic_path


def render_preview(pdf: Path, page_index: int, dest: Path, dpi: int = 110) -> Path:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        page = doc[page_index]
        try:
            img = page.render(scale=dpi / 72.0).to_pil().convert("RGB")
        finally:
            page.close()
    finally:
        doc.close()
    with atomic_path(dest) as tmp:
        img.save(tmp, format="PNG", optimize=False, dpi=(dpi, dpi))
    return dest
