"""Write N-times copies of a bundled game (default Ardennes II) for the scaling benchmark.

    python bench/gen_synthetic.py [--game source/ardennes2] [--times 4 16] [--out /tmp/hexforge-synthetic]

Each copy k of the corrected game (errata applied, then dropped) adds its own boards (the original
boards renamed "A" -> "AK"..., stacked north of the others), its own formations and units (ids
suffixed "-xK"), its own scenarios (ids suffixed, set up on the copy's boards with the copy's units,
the copy's arrivals as each scenario's own reinforcements). Places, tables, the TEC and the turns are
shared. The result is `<out>/<game>-x<N>/`, a valid tree with N times the units, boards and scenarios.
"""
from __future__ import annotations

import argparse
import copy as copying
import re
import shutil
import string
from pathlib import Path

import yaml

from common import ROOT, largest_tree  # noqa: E402  (puts the repository on sys.path)

from validator.source.errata import apply_errata  # noqa: E402
from validator.source.loader import find_files  # noqa: E402
from validator.source.yamlsrc import load_text  # noqa: E402

HEX = re.compile(r"^([A-Z]+)(\d+\.\d+)$")
REFERENCES = ("unit", "formation")


def plain(v):
    """Located YAML (dict/list subclasses) as plain values for yaml.safe_dump."""
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [plain(x) for x in v]
    return v


class Copy:
    """How copy number k renames what belongs to it."""

    def __init__(self, k: int, boards: list[str]):
        self.k = k
        self.boards = {b: b + string.ascii_uppercase[(k - 1) % 26] * (1 + (k - 1) // 26) for b in boards}

    def unit(self, uid: str) -> str:
        return f"{uid}-x{self.k}"

    def board(self, b: str) -> str:
        return self.boards.get(b, b)

    def relabel(self, v, key: str | None = None):
        """Hexes onto this copy's boards, unit and formation references onto this copy's ids."""
        if isinstance(v, dict):
            return {k: self.relabel(x, k) for k, x in v.items()}
        if isinstance(v, list):
            return [self.relabel(x, key) for x in v]
        if not isinstance(v, str):
            return v
        if key in REFERENCES:
            return self.unit(v)
        if key in ("board", "boards"):
            return self.board(v)
        m = HEX.match(v)
        if m and m.group(1) in self.boards:
            return self.board(m.group(1)) + m.group(2)
        return v


def corrected_files(tree: Path) -> dict:
    files = {rel: plain(load_text((tree / rel).read_bytes(), rel)) for rel in find_files(tree)}
    errata = [(rel, d) for rel, d in files.items() if rel.startswith("errata/")]
    errata.sort(key=lambda rd: rd[1].get("kind", "official") != "editorial")
    data = {rel: d for rel, d in files.items() if not rel.startswith("errata/")}
    apply_errata(data, errata)
    return plain(data)


def multiply(data: dict, times: int) -> dict:
    out = copying.deepcopy(data)  # `data` stays the original that every copy is made from
    grid = out["map.yaml"]
    boards = [b["id"] for b in grid["boards"]]
    rows = max(b["rows"][1] for b in grid["boards"]) + 1
    counters = out["counters.yaml"]
    originals = {rel: d for rel, d in data.items() if rel.startswith("scenarios/")}
    for k in range(1, times):
        c = Copy(k, boards)
        grid["boards"] += [{**b, "id": c.board(b["id"]), "name": f"{b.get('name', b['id'])} (copy {k})",
                            "origin": [b.get("origin", [0, 0])[0], b.get("origin", [0, 0])[1] + rows * k]}
                           for b in data["map.yaml"]["boards"]]
        grid["joins"] = grid.get("joins", []) + [c.relabel(j) for j in data["map.yaml"].get("joins", [])]
        counters["formations"] += [{**f, "id": c.unit(f["id"])} for f in data["counters.yaml"]["formations"]]
        counters["units"] += [{**c.relabel(u), "id": c.unit(u["id"])} for u in data["counters.yaml"]["units"]]
        shared = (data.get("orders-of-arrival.yaml") or {}).get("orders_of_arrival") or []
        for rel, sc in originals.items():
            copy = c.relabel(sc)
            copy["id"], copy["name"] = f"{sc['id']}-x{k}", f"{sc['name']} (copy {k})"
            # the copy's own arrivals, as scenario reinforcements: a shared order of arrival would
            # give every scenario every copy's arrivals (cost growing with copies x scenarios)
            sides = set(sc.get("orders_of_arrival") or ())
            if sides:
                copy["reinforcements"] = (copy.get("reinforcements") or []) + \
                    [c.relabel(o) for o in shared if o["side"] in sides]
                copy["orders_of_arrival"] = []
            out[rel.replace(".yaml", f"-x{k}.yaml")] = copy
    return out


def write_tree(data: dict, dest: Path) -> None:
    if dest.exists():
        shutil.rmtree(dest)
    for rel, d in data.items():
        p = dest / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(yaml.dump(d, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), sort_keys=False,
                               allow_unicode=True, width=120), encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", type=Path, default=None)
    ap.add_argument("--times", type=int, nargs="+", default=[1, 4, 16])
    ap.add_argument("--out", type=Path, default=Path("/tmp/hexforge-synthetic"))
    a = ap.parse_args()
    tree = a.game or largest_tree()
    for n in a.times:
        data = corrected_files(tree)
        if n > 1:
            data = multiply(data, n)
        dest = a.out / f"{tree.name}-x{n}"
        write_tree(data, dest)
        c = data["counters.yaml"]
        print(f"{dest}: {len(c['units'])} units, {len(data['map.yaml']['boards'])} boards, "
              f"{sum(r.startswith('scenarios/') for r in data)} scenarios")


if __name__ == "__main__":
    main()
