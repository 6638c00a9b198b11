"""What hexforge keeps between runs is trusted only where it is the user's own (validator/source/cache_dir.py): the
folder and the file the user's, writable by no one else, and sealed with the user's key. A planted compiled
validator is never run (it ran, and turned schema checking off), a planted kept tree is never read, and a
kept tree is data, not pickle (compiler/model_data.py), so reading one can run nothing whatever it holds.
Each passed-over entry is said once."""
from __future__ import annotations

import marshal
import os
import pickle
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler import game_cache, model_data
from compiler.cli import main
from validator.source import cache_dir, compiled, schemas
from validator.source.loader import load_game

ROOT = Path(__file__).resolve().parents[1]
MINI = ROOT / "tests" / "fixtures" / "mini"


@pytest.fixture(autouse=True)
def fresh(tmp_path, monkeypatch):
    """A cache and a key folder of the test's own; the once-per-run warning not yet said; the compiled
    validators the process keeps forgotten before and after (they would not be read from the cache)."""
    monkeypatch.setenv("HEXFORGE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setattr(cache_dir, "_warned", False)
    monkeypatch.setattr(cache_dir, "_key", None)
    schemas.fast_validator.cache_clear()
    yield
    schemas.fast_validator.cache_clear()


def _planted_code(marker: Path):
    """A 'validator' that leaves a file behind and accepts anything: what a planted entry did."""
    source = f"open({str(marker)!r}, 'w').write('ran')\ndef validate(data, *a, **k):\n    return data\n"
    return compile(source, "<planted>", "exec")


def _check_with_planted_validator(tmp_path, folder_mode: int | None = None, seal: bool = False):
    """Plant the game.yaml validator's entry, then check a tree whose game.yaml breaks its schema."""
    cache = tmp_path / "cache"
    cache.mkdir(exist_ok=True)
    if folder_mode is not None:
        cache.chmod(folder_mode)
    marker = tmp_path / "planted-code-ran"
    entry = compiled.entry_path(schemas.fast_schema("game"), "game")
    code = marshal.dumps(_planted_code(marker))
    if seal:
        assert cache_dir.write_entry(entry, code)
    else:
        entry.write_bytes(code)
    planted = entry.read_bytes()
    tree = tmp_path / "mini"
    shutil.copytree(MINI, tree)
    (tree / "game.yaml").write_text((tree / "game.yaml").read_text(encoding="utf-8") + "\nbogus_key: 1\n",
                                    encoding="utf-8")
    res = CliRunner().invoke(main, ["check", str(tree), "-q"])
    return res, marker, entry, planted


def test_a_validator_planted_in_a_shared_folder_is_never_run(tmp_path):
    """The issue's case: in a world-writable cache folder another user's file ran, and turned checking off."""
    res, marker, entry, planted = _check_with_planted_validator(tmp_path, folder_mode=0o777)
    assert not marker.exists(), "the planted code ran"
    assert res.exit_code == 1 and "HF004" in res.stdout            # the schema still checked
    cache = tmp_path / "cache"
    assert res.stderr == (f"hexforge: warning: not using the cache in {cache}: the cache folder {cache} is writable "
                          "by other users (mode 0777); it is worked out again instead\n")
    assert entry.read_bytes() == planted                           # and nothing is written there


def test_a_validator_planted_in_ones_own_folder_without_the_users_seal_is_never_run(tmp_path):
    res, marker, entry, _ = _check_with_planted_validator(tmp_path)
    assert not marker.exists() and res.exit_code == 1 and "HF004" in res.stdout
    assert res.stderr == (f"hexforge: warning: not using the cache entry {entry}: its seal does not match (damaged, "
                          "or not written by hexforge as this user); it is worked out again instead\n")


def test_near_miss_a_validator_hexforge_sealed_for_this_user_is_used(tmp_path, monkeypatch):
    """The same entry, sealed with the user's key (as hexforge writes it), is what the check runs."""
    res, marker, _, _ = _check_with_planted_validator(tmp_path, seal=True)
    assert marker.exists() and res.stderr == ""


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give a file to another user")
def test_an_entry_of_another_user_is_never_run(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    marker = tmp_path / "planted-code-ran"
    entry = compiled.entry_path(schemas.fast_schema("game"), "game")
    assert cache_dir.write_entry(entry, marshal.dumps(_planted_code(marker)))     # sealed, even
    os.chown(entry, 65534, 65534)
    res = CliRunner().invoke(main, ["check", str(MINI), "-q"])
    assert not marker.exists() and res.exit_code == 0
    assert res.stderr == (f"hexforge: warning: the cache entry {entry} belongs to another user (uid 65534); it is "
                          "worked out again instead\n")


def test_a_kept_tree_planted_as_a_pickle_is_never_unpickled(tmp_path):
    tree = tmp_path / "meuse"
    shutil.copytree(ROOT / "source" / "meuse", tree)
    fresh, _ = game_cache.load_game_kept(tree, apply_errata=True)
    [entry] = (tmp_path / "cache" / "games").iterdir()
    marker = tmp_path / "unpickled"

    class Evil:
        def __reduce__(self):
            return (open, (str(marker), "w"))
    key = game_cache._key(tree, True)
    entry.write_bytes(game_cache.FORMAT + key + b"\n" + pickle.dumps(Evil()))
    again, _ = game_cache.load_game_kept(tree, apply_errata=True)
    assert not marker.exists() and again == fresh


def test_a_kept_tree_is_plain_values_and_names_only_model_classes():
    """Even a sealed entry can only build the model's own dataclasses: a name outside them is no entry."""
    game = load_game(MINI)[0]
    fmt, names, root = marshal.loads(model_data.to_bytes(game))
    assert all(m in model_data.ALLOWED_MODULES for m, _ in names)
    for planted in [("os", "system"), ("builtins", "eval"), ("validator.source.loader", "NotAGameTree")]:
        with pytest.raises(ValueError, match="names a class it may not hold"):
            model_data.from_bytes(marshal.dumps((fmt, [planted, *names[1:]], root)))
    with pytest.raises(ValueError):
        model_data.from_bytes(marshal.dumps((fmt, names, [99, 1, 2])))            # an unknown tag
    with pytest.raises(ValueError):
        model_data.from_bytes(b"\x00not marshal")


@pytest.mark.parametrize("name", ["aachen", "ardennes2", "bulge", "meuse"])
def test_every_bundled_tree_comes_back_as_it_was_kept(name):
    """Equal models, and equal to the last detail their equality leaves out: the encoded forms (types,
    positions of every located value, the look-up tables) agree."""
    game = load_game(ROOT / "source" / name)[0]
    back = model_data.from_bytes(model_data.to_bytes(game))
    assert back == game and back is not game
    assert model_data._Encoder().value(back) == model_data._Encoder().value(game)
    assert back.unit(game.units[0].id) is next(u for u in back.units if u.id == game.units[0].id)   # shared


def test_the_key_is_the_users_alone_and_a_key_others_may_read_turns_the_cache_off(tmp_path):
    key = cache_dir.cache_key()
    path = tmp_path / "state" / "hexforge" / "cache-key"
    assert key is not None and len(key) == 32 and path.read_bytes() == key
    assert (path.stat().st_mode & 0o777) == 0o600 and (path.parent.stat().st_mode & 0o777) == 0o700
    cache_dir._key = None
    path.chmod(0o644)
    import io
    import sys
    err, sys.stderr = sys.stderr, io.StringIO()
    try:
        assert cache_dir.cache_key() is None
        said = sys.stderr.getvalue()
    finally:
        sys.stderr = err
    assert said == (f"hexforge: warning: nothing cached is used: the cache key {path} is readable or writable by "
                    "other users (mode 0644); it is worked out again instead\n")


def test_entries_passed_over_are_said_once(tmp_path, capsys):
    cache = tmp_path / "cache"
    cache.mkdir()
    for name in ("a", "b"):
        (cache / name).write_bytes(b"planted")
    assert cache_dir.read_entry(cache / "a", 1000) is None and cache_dir.read_entry(cache / "b", 1000) is None
    assert capsys.readouterr().err.count("hexforge: warning:") == 1
