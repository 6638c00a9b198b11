"""Property: for any tree, check never raises; a tree that passes check builds and renders its charts.

Hypothesis mutates single values deep inside real trees (the mini fixture, Aachen), not only whole
files: a string becomes a control character, a number 10^30, a list a string, a key disappears...
Then check -> build -> charts must end without a traceback and within a time bound. Deterministic
(derandomized, no example database), and sized to about a minute on a 2-core machine.
"""
from __future__ import annotations

import os
import shutil
import signal
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compiler.charts.build import build_charts
from compiler.cli import check_tree
from compiler.vassal.build import build_module
from conftest import MINI, SOURCE

SECONDS_PER_STAGE = 60     # a stage taking longer than this is a hang, reported as a failure

# Values that have broken a stage before, or that sit on a bound.
NASTY = [
    None, True, False, 0, -1, 1, 999, 1000, 10 ** 30, -(10 ** 30), 0.5, float("inf"), float("nan"),
    "", " ", "abc", "inf\x01antry", "\x1b[31m", "\ufffe", "\x85", "\u202e", "../../../tmp/x", "de/inf",
    "de+inf", "a" * 5000, "1-2", "[6]-1-12", "?", "0101", "B27.49", "Z99", "1e309", "null", "*", "&a",
    [], [1], ["x"], [None], {}, {"x": 1}, {"distance": 4000, "of": "0101"},
]
# Values of a leaf's own type are more likely to pass the schema and so to reach build and charts.
ALIKE = {str: [v for v in NASTY if isinstance(v, str)],
         int: [v for v in NASTY if type(v) is int], bool: [True, False]}


def _paths(node, prefix=()):
    """Every (path, value) inside a loaded YAML document, containers included."""
    yield prefix, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, prefix + (i,))


def _load_tree(root: Path) -> dict[str, object]:
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.yaml"))
    return {rel: yaml.safe_load((root / rel).read_text(encoding="utf-8")) for rel in files}


TREES = {name: _load_tree(root) for name, root in (("mini", MINI), ("aachen", SOURCE / "aachen"))
         if (root / "game.yaml").is_file()}
PLACES = {name: [(rel, path) for rel, doc in docs.items() for path, _ in _paths(doc) if path]
          for name, docs in TREES.items()}


def _mutate(doc, path, how: str, value):
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    key = path[-1]
    if how == "delete":
        del parent[key]
    elif how == "duplicate" and isinstance(parent, list):
        parent.insert(key, parent[key])
    elif how == "alike":
        old = parent[key]
        pool = ALIKE.get(type(old))
        if pool:
            new = pool[value % len(pool)]
            parent[key] = old[:1] + new if isinstance(old, str) and value % 2 else new
    else:
        parent[key] = value


@st.composite
def mutations(draw, name: str):
    """1-3 mutations of one tree: (file, path, how, value)."""
    out = []
    for _ in range(draw(st.integers(1, 3))):
        rel, path = draw(st.sampled_from(PLACES[name]))
        how = draw(st.sampled_from(["alike", "alike", "alike", "set", "delete", "duplicate"]))
        value = draw(st.integers(0, 10 ** 6)) if how == "alike" else draw(st.sampled_from(NASTY))
        out.append((rel, path, how, value))
    return out


class Hang(Exception):
    pass


@contextmanager
def time_bound(what: str):
    def ring(*_):
        raise Hang(f"{what} ran for more than {SECONDS_PER_STAGE}s")
    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(SECONDS_PER_STAGE)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _write_tree(name: str, muts, where: Path) -> Path:
    docs = yaml.safe_load(yaml.safe_dump(TREES[name]))  # a deep copy
    for rel, path, how, value in muts:
        try:
            _mutate(docs[rel], path, how, value)
        except (KeyError, IndexError, TypeError):
            pass                        # an earlier mutation removed or replaced the place
    root = where / name
    for rel, doc in docs.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return root


def _drive(name: str, muts) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        root = _write_tree(name, muts, tmp)
        with time_bound("check"):
            game, diags = check_tree(root)
        if game is None or any(d.severity == "error" for d in diags):
            for d in diags:                       # every finding located and explained
                assert d.code and d.message and d.loc is not None
            return
        with time_bound("build"):
            build_module(game, tmp / "out")
        with time_bound("charts"):
            build_charts(game, tmp / "charts")
        shutil.rmtree(tmp / "out", ignore_errors=True)


# HEXFORGE_PROPERTY_SCALE=20 runs twenty times as many examples, at random, for a longer hunt by hand.
SCALE = int(os.environ.get("HEXFORGE_PROPERTY_SCALE", "1"))
PROFILE = dict(derandomize=SCALE == 1, database=None, deadline=None, print_blob=True,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.mark.skipif("mini" not in TREES, reason="mini fixture missing")
@settings(max_examples=40 * SCALE, **PROFILE)
@given(muts=mutations("mini"))
def test_mutated_mini_tree_never_tracebacks(muts):
    _drive("mini", muts)


@pytest.mark.skipif("aachen" not in TREES, reason="source/aachen missing")
@settings(max_examples=25 * SCALE, **PROFILE)
@given(muts=mutations("aachen") if "aachen" in TREES else st.just([]))
def test_mutated_aachen_tree_never_tracebacks(muts):
    _drive("aachen", muts)
