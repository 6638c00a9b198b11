"""The loaded tree `hexforge audit` keeps between runs (compiler/game_cache.py): a hit gives the model the
tree would load; any change to the tree, a damaged or foreign entry, or a tree with errors means loading it
again; a cache that cannot be written changes nothing."""
import shutil
from pathlib import Path

import pytest

from compiler import game_cache
from validator.source import loader
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture()
def cache(tmp_path, monkeypatch) -> Path:
    d = tmp_path / "cache"
    monkeypatch.setenv("HEXFORGE_CACHE_DIR", str(d))
    return d


@pytest.fixture()
def tree(tmp_path) -> Path:
    t = tmp_path / "meuse"
    shutil.copytree(ROOT / "source" / "meuse", t)
    return t


def _no_loading(monkeypatch):
    def refuse(*a, **k):
        raise AssertionError("the tree was read again")
    monkeypatch.setattr(loader, "load_game", refuse)


def test_a_kept_tree_is_the_tree_loaded(cache, tree, monkeypatch):
    fresh, diags = game_cache.load_game_kept(tree, apply_errata=True)
    assert fresh is not None and not [d for d in diags if d.severity == "error"]
    [entry] = (cache / "games").iterdir()
    _no_loading(monkeypatch)
    kept, kept_diags = game_cache.load_game_kept(tree, apply_errata=True)
    assert kept == fresh and kept is not fresh and kept_diags == []
    assert kept.unit("red-1ad-1tk").factors == fresh.unit("red-1ad-1tk").factors


def test_a_changed_tree_is_read_again(cache, tree, monkeypatch):
    game_cache.load_game_kept(tree, apply_errata=True)
    counters = tree / "counters.yaml"
    text = counters.read_text(encoding="utf-8")
    assert "1st Tank Regiment" in text
    counters.write_text(text.replace("1st Tank Regiment", "1st Heavy Tank Regiment"), encoding="utf-8")
    game, _ = game_cache.load_game_kept(tree, apply_errata=True)
    assert game.unit("red-1ad-1tk").name == "1st Heavy Tank Regiment"
    assert len(list((cache / "games").iterdir())) == 1     # one entry per tree: the new one replaced it
    _no_loading(monkeypatch)
    assert game_cache.load_game_kept(tree, apply_errata=True)[0] == game


def test_errata_applied_and_as_printed_are_kept_apart(cache, monkeypatch):
    tree = ROOT / "source" / "ardennes2"
    applied = game_cache.load_game_kept(tree, apply_errata=True)[0]
    printed = game_cache.load_game_kept(tree, apply_errata=False)[0]
    assert applied != printed and len(list((cache / "games").iterdir())) == 2
    _no_loading(monkeypatch)
    assert game_cache.load_game_kept(tree, apply_errata=False)[0] == printed
    assert game_cache.load_game_kept(tree, apply_errata=True)[0] == applied


@pytest.mark.parametrize("damage", [b"", b"hexforge-game 2\n", b"not a model at all",
                                    b"hexforge-game 2\n" + b"0" * 64 + b"\n\x80\x05garbage"])
def test_a_damaged_or_foreign_entry_is_no_entry(cache, tree, damage):
    fresh = game_cache.load_game_kept(tree, apply_errata=True)[0]
    [entry] = (cache / "games").iterdir()
    entry.write_bytes(damage)
    assert game_cache.load_game_kept(tree, apply_errata=True)[0] == fresh
    from validator.source.cache_dir import DIGEST_BYTES, SEAL
    written = entry.read_bytes()                              # written again, whole
    assert written.startswith(SEAL) and written[len(SEAL) + DIGEST_BYTES:].startswith(game_cache.FORMAT)


def test_a_tree_with_errors_is_not_kept(cache, tree):
    (tree / "game.yaml").write_text((tree / "game.yaml").read_text(encoding="utf-8") + "\nturns: 12\n",
                                    encoding="utf-8")
    game, diags = game_cache.load_game_kept(tree, apply_errata=True)
    assert any(d.severity == "error" for d in diags)
    assert not (cache / "games").exists() or not list((cache / "games").iterdir())


def test_a_cache_that_cannot_be_written_changes_nothing(tmp_path, tree, monkeypatch):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("HEXFORGE_CACHE_DIR", str(blocked))
    game, _ = game_cache.load_game_kept(tree, apply_errata=True)
    assert game is not None and game.id == "meuse"


def test_not_a_tree_is_the_loaders_error(cache, tmp_path):
    with pytest.raises(loader.NotAGameTree):
        game_cache.load_game_kept(tmp_path / "nowhere", apply_errata=True)


def test_at_most_so_many_trees_are_kept(cache, tmp_path, monkeypatch):
    monkeypatch.setattr(game_cache, "MAX_ENTRIES", 2)
    trees = []
    for i in range(3):
        t = tmp_path / f"copy{i}"
        shutil.copytree(ROOT / "source" / "meuse", t)
        game_cache.load_game_kept(t, apply_errata=True)
        trees.append(t)
    assert len(list((cache / "games").iterdir())) == 2
    _no_loading(monkeypatch)
    assert game_cache.load_game_kept(trees[-1], apply_errata=True)[0].id == "meuse"   # the latest is kept


def test_a_kept_model_says_where_its_values_were_written():
    """The raw mappings the model keeps (a rule the model has no field for) still name the line and column
    of each value once read back: positions are kept as (line, column) pairs, not as PyYAML's marks, and
    give the same Locs."""
    from compiler.model_data import from_bytes, to_bytes
    from validator.source.located import LocMap
    game = loader.load_game(ROOT / "source" / "bulge")[0]
    rule = game.rules.other["road_movement"]
    keys = list(rule)
    assert isinstance(rule, LocMap) and keys and not isinstance(rule.keylocs[keys[0]], tuple)  # a mark, as read
    back = from_bytes(to_bytes(game)).rules.other["road_movement"]
    assert all(isinstance(p, tuple) for p in back.keylocs.values())
    assert back.loc == rule.loc and [back.at(k) for k in keys] == [rule.at(k) for k in keys]
    assert rule.at(keys[0]).line > 1
