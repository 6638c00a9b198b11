"""Independent reader: open a built module with pywargame (run with Python 3.12) and print JSON facts.

usage: pyw_check.py MODULE.vmod [NAMES.json]
NAMES.json: {"<map>/<board>": ["<location name>", ...]} -> "locations": pywargame's centre point for
each name (board coordinates), via its HexGridNumbering.getLocation port.

The interpreter (git-ignored, made once; CI does the same):
    ~/.pyenv/versions/3.12.1/bin/python -m venv .venv312     # any Python >= 3.12
    .venv312/bin/pip install pywargame==0.8.0
tests/test_vmod_pywargame.py runs this with .venv312/bin/python (or $HEXFORGE_PY312).
"""
import io
import json
import re
import sys
import zipfile

from pywargame.vassal import BuildFile, SaveIO, VMod, WithTraits


def _attrs(el):
    a = el.getAttributes()          # pywargame element -> its DOM attribute map
    return {a.item(i).name: a.item(i).value for i in range(a.length)}


def _trait_facts(traits):
    out = {"traits": [], "props": {}, "images": [], "layer": None}
    for t in traits:
        name = type(t).__name__
        out["traits"].append(t.ID)
        if name == "MarkTrait":
            out["props"][t._type[0]] = t._state[0] if t._state else ""
        elif name == "BasicTrait":
            if len(t._type) > 2 and t._type[2]:
                out["images"].append(t._type[2])
            if len(t._state) >= 3:
                out["map"], out["x"], out["y"] = t._state[0], int(t._state[1]), int(t._state[2])
        elif name == "LayerTrait":
            out["images"] += [i for i in t._type[15].split(",") if i]
            out["layer"] = int(t._state[0]) if t._state and t._state[0] else None
    return out


class _BoardAsZone:
    """pywargame's HexNumbering._getCenter assumes the grid sits in a Zone; a grid placed directly on a
    board has no zone offset and the board's size."""

    def __init__(self, board):
        self.board = board

    def getXOffset(self):
        return 0

    def getYOffset(self):
        return 0

    def getWidth(self):
        return int(self.board["width"])

    def getHeight(self):
        return int(self.board["height"])


def _patch_grid_zone():
    from pywargame.vassal import Board, HexGrid
    orig = HexGrid.getZone

    def get_zone(self):
        z = orig(self)
        return z if z is not None else _BoardAsZone(self.getParent(Board))
    HexGrid.getZone = get_zone


def main():
    _patch_grid_zone()
    path = sys.argv[1]
    wanted = json.load(open(sys.argv[2])) if len(sys.argv) > 2 else {}
    with VMod(path, "r") as vm:
        bf = BuildFile(vm.getBuildFile())
        files = list(vm.getFileNames())
    game = bf.getGame()
    facts = {"maps": {}, "images": sorted(f for f in files if f.startswith("images/")), "slots": [],
             "prototypes": [], "setups": {}, "saves": {}, "locations": {}}
    grids = {}
    for mname, m in game.getMaps().items():
        boards = {}
        for bp in m.getBoardPicker():
            for bname, b in bp.getBoards().items():
                info = {"image": b["image"], "width": b["width"], "height": b["height"], "hexgrids": [], "zones": []}
                for g in b.getHexGrids(single=False) or []:
                    nums = g.getNumbering()
                    info["hexgrids"].append({"grid": _attrs(g),
                                             "numbering": _attrs(nums[0]) if nums else None})
                    grids[f"{mname}/{bname}"] = g
                for zg in b.getZonedGrids(single=False) or []:
                    for z in zg.getZones().values() if isinstance(zg.getZones(), dict) else zg.getZones():
                        info["zones"].append(z["name"])
                boards[bname] = info
        facts["maps"][mname] = boards
    facts["palettes"] = sorted(game.getPieceWindows().keys())
    for slot in game.getPieces(asdict=False) or []:
        f = _trait_facts(slot.getTraits())
        facts["slots"].append({"entryName": slot["entryName"], "gpid": slot["gpid"], **f})
    for pc in game.getPrototypes(single=False) or []:
        facts["prototypes"] += sorted(pc.getPrototypes().keys())
    facts["setups"] = {n: s["file"] for n, s in game.getPredefinedSetups().items() if s["useFile"] == "true"}
    facts["turns"] = list(game.getTurnTracks().keys())
    facts["dice"] = sorted(game.getDiceButtons().keys())
    facts["charts"] = sorted(game.getChartWindows().keys())
    z = zipfile.ZipFile(path)
    for name, fn in facts["setups"].items():
        b = io.BytesIO(z.read(fn))
        b.name = fn
        key, lines = SaveIO.readSave(b)
        pieces, stacks, other = [], [], []
        for line in lines:
            line = line.rstrip("\\")
            if line.startswith("+/"):
                if "/stack/" in line:
                    st = re.split(r"(?<!\\)/", line, maxsplit=3)[3].split(";")
                    stacks.append({"map": st[0], "x": int(st[1]), "y": int(st[2]),
                                   "ids": [i for i in st[3:] if not i.startswith("@@")]})
                    continue
                iden, traits = WithTraits.decodeAdd2(line)
                pieces.append({"id": iden, **_trait_facts(traits)})
            elif line:
                other.append(line)
        facts["saves"][fn] = {"key": key, "pieces": pieces, "stacks": stacks, "other": other}
    for gname, names in wanted.items():
        g = grids.get(gname)
        if g is None:
            continue
        nums = g.getNumbering()
        fmt = nums[0]["locationFormat"]
        pre, _, post = fmt.partition("$gridLocation$")
        out = {}
        for n in names:
            core = n[len(pre):len(n) - len(post) if post else None] if n.startswith(pre) and n.endswith(post) else n
            p = nums[0].getLocation(core)
            out[n] = None if p is None else [int(p[0]), int(p[1])] if not hasattr(p, "x") else [p.x, p.y]
        facts["locations"][gname] = out
    json.dump(facts, sys.stdout, indent=None, sort_keys=True)


if __name__ == "__main__":
    main()
