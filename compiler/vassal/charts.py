"""Simple Pillow images of the game's tables (CRT and other die-roll tables, the TEC)."""
from __future__ import annotations

from PIL import Image, ImageDraw

from compiler.render.boards import font

CELL_H = 22
PAD = 6


def _grid_image(title: str, header: list[str], rows: list[list[str]], notes: list[str]) -> Image.Image:
    f, fb, ft = font(12), font(12, True), font(15, True)
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    ncol = max([len(header)] + [len(r) for r in rows]) if (header or rows) else 1
    widths = [40] * ncol
    for r in [header] + rows:
        for i, c in enumerate(r):
            widths[i] = max(widths[i], int(probe.textlength(str(c), font=fb)) + 2 * PAD)
    table_w = sum(widths)
    note_lines = []
    for n in notes:
        # wrap notes to the table width (at least 500 px)
        words, line = n.split(), ""
        maxw = max(table_w, 500)
        for wd in words:
            t = (line + " " + wd).strip()
            if probe.textlength(t, font=f) > maxw and line:
                note_lines.append(line)
                line = wd
            else:
                line = t
        if line:
            note_lines.append(line)
    w = max(table_w, 500 if note_lines else 0, int(probe.textlength(title, font=ft))) + 2 * PAD
    h = 30 + CELL_H * (len(rows) + 1) + (len(note_lines) * 16 + 10 if note_lines else 0) + PAD
    img = Image.new("RGB", (w, h), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.text((PAD, 6), title, fill=(0, 0, 0), font=ft)
    y = 30
    for ri, r in enumerate([header] + rows):
        x = PAD
        fill = (225, 225, 225) if ri == 0 else ((248, 248, 248) if ri % 2 else (255, 255, 255))
        d.rectangle([PAD, y, PAD + table_w, y + CELL_H], fill=fill)
        for i in range(ncol):
            c = str(r[i]) if i < len(r) else ""
            d.rectangle([x, y, x + widths[i], y + CELL_H], outline=(120, 120, 120))
            d.text((x + widths[i] / 2, y + CELL_H / 2), c, fill=(0, 0, 0), font=fb if ri == 0 or i == 0 else f,
                   anchor="mm")
            x += widths[i]
        y += CELL_H
    y += 8
    for line in note_lines:
        d.text((PAD, y), line, fill=(0, 0, 0), font=f)
        y += 16
    return img


def table_image(table) -> Image.Image:
    header = ["Roll"] + list(table.columns)
    rows = [[r.roll] + list(r.results) for r in table.rows]
    notes = [f"{k.code}: {k.meaning}" for k in table.key]
    notes += [f"DRM {d.value:+d}: {d.when}" + (f" ({d.rule})" if d.rule else "") for d in table.drm]
    if not table.complete:
        notes.append("This table is incomplete in the source (see the rulebook).")
    title = table.name + (f"  [{table.rule}]" if table.rule else "") + (f"  {table.dice}" if table.dice else "")
    return _grid_image(title, header, rows, notes)


def tec_image(tec) -> Image.Image:
    classes = list(tec.movement_classes)
    other_cols = tec.other_columns()
    header = ["Terrain"] + [f"Move ({c})" for c in classes] + ["Combat"] + other_cols
    rows = []
    for t in tec.terrain:
        rows.append([t.name] + [str(t.movement.get(c, "")) for c in classes] + [t.combat or ""]
                    + [str(t.other.get(k, "")) for k in other_cols])
    notes = [f"{k}: {v}" for k, v in tec.notes.items()]
    if not tec.complete:
        notes.append("Incomplete in the source; missing: " + ", ".join(tec.missing))
    return _grid_image("Terrain Effects", header, rows, notes)
