import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]

# The caches hexforge keeps (compiled schema validators, loaded trees: validator.source.compiled.cache_dir) go to a
# folder of the test run's own, so the tests' temporary trees never pile up in the user's cache.
if "HEXFORGE_CACHE_DIR" not in os.environ:
    os.environ["HEXFORGE_CACHE_DIR"] = tempfile.mkdtemp(prefix="hexforge-test-cache-")
    atexit.register(shutil.rmtree, os.environ["HEXFORGE_CACHE_DIR"], True)
# and the key that seals them (validator.source.cache_dir.key_dir) to one of its own, not the user's
if "XDG_STATE_HOME" not in os.environ:
    os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="hexforge-test-state-")
    atexit.register(shutil.rmtree, os.environ["XDG_STATE_HOME"], True)
MINI = ROOT / "tests" / "fixtures" / "mini"
SOURCE = ROOT / "source"
sys.path.insert(0, str(ROOT))


class Tree:
    """A copy of a game tree in a temp dir that a test may edit."""

    def __init__(self, path: Path):
        self.path = path

    def data(self, rel: str):
        return yaml.safe_load((self.path / rel).read_text(encoding="utf-8"))

    def write(self, rel: str, data) -> None:
        (self.path / rel).write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")

    def edit(self, rel: str, fn) -> None:
        d = self.data(rel)
        fn(d)  # mutates in place; whatever it returns is ignored
        self.write(rel, d)

    def text(self, rel: str, text) -> None:
        p = self.path / rel
        if isinstance(text, bytes):
            p.write_bytes(text)
        else:
            p.write_text(text, encoding="utf-8")


@pytest.fixture
def mini(tmp_path) -> Tree:
    dst = tmp_path / "mini"
    shutil.copytree(MINI, dst)
    return Tree(dst)


def copy_game(tmp_path, name: str) -> Tree:
    src = SOURCE / name
    if not (src / "game.yaml").exists():
        pytest.skip(f"source/{name} is not in this checkout")
    dst = tmp_path / name
    shutil.copytree(src, dst)
    return Tree(dst)


@pytest.fixture(scope="session")
def aachen_record() -> str:
    """A legal YAML game record of Aachen: the scenario's set-up and one chat line (audited in a moment)."""
    from tests.referee_records import Log, setup_position
    from validator.source.loader import load_game
    from validator.records.record_yaml import record_to_yaml
    game = load_game(SOURCE / "aachen")[0]
    pos, _ = setup_position(game, "aachen")
    log = Log(pos)
    log.chat("US movement phase, GT 1")
    return record_to_yaml(log.record("game.yaml"))
