"""The turn tracker's labels, as the module shows them and its logs record them: what the module
writer prints and the log reader matches, without the writer's imports (the renderer)."""
from __future__ import annotations

from datetime import date as _date


def turn_label(t) -> str:
    if not t.date:
        return t.id
    try:
        d = _date.fromisoformat(t.date)
        ds = f"{d.day} {d.strftime('%b')} {d.year}"
    except ValueError:
        ds = t.date
    if t.time and t.time not in t.id:
        ds += f" {t.time}"
    return f"{t.id} ({ds})"


def phase_labels(game) -> list[str]:
    """The sequence of play as printed. A name printed for more than one phase gets its side's name
    ("Movement Phase (US)"), then, if still repeated, its turn of appearance ("(Allied 2)"), so the
    tracker never shows two phases alike."""
    side_name = {s.id: s.name for s in game.sides}
    names = [p.name for p in game.phases]
    sided = [f"{p.name} ({side_name.get(p.side, p.side)})" if names.count(p.name) > 1 and p.side else p.name
             for p in game.phases]
    seen: dict[str, int] = {}
    out = []
    for label in sided:
        seen[label] = seen.get(label, 0) + 1
        if sided.count(label) > 1:
            label = f"{label[:-1]} {seen[label]})" if label.endswith(")") else f"{label} ({seen[label]})"
        out.append(label)
    return out
