"""The documentation stays true: every `$ hexforge ...` sample in README.md and docs/*.md is what the
command prints (docs/samples.py runs each, in a fresh scratch folder, and compares), docs/codes.md and
validator/code_examples.py are what the registry and the recorded findings make now, and the README
is a guide a user reads through (under 15 KB, its two commands first).

After a change in behaviour: `python docs/update_samples.py`, then read the diff.
"""
from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs"))
samples = importlib.import_module("samples")
update = importlib.import_module("update_samples")

REFRESH = "run `python docs/update_samples.py` and read the diff"


@pytest.mark.parametrize("doc", samples.documents(ROOT), ids=lambda p: p.name)
def test_every_sample_is_what_its_command_prints(doc):
    drifted = list(samples.drift(doc, ROOT))
    assert not drifted, f"{len(drifted)} sample(s) drifted ({REFRESH}):\n\n" + "\n\n".join(drifted)


def test_the_code_pages_and_examples_are_current():
    found = update.examples()
    assert update.EXAMPLES_FILE.read_text(encoding="utf-8") == update.examples_source(found), REFRESH
    assert update.CODES_PAGE.read_text(encoding="utf-8") == update.codes_page(found), REFRESH


def test_the_readme_is_short_with_its_two_commands_first():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) < 15 * 1024
    blocks = [b for b in text.split("```")[1::2]]
    first, second = blocks[0], blocks[1]
    assert first.startswith("sh\n") and "pip install ." in first and "hexforge audit source/meuse" in first
    assert second.startswith("sh\n") and second.strip().endswith("python -m pytest")
    assert "python -m pytest" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    for job in ("## Check a tree", "## Build a VASSAL module", "## Print the charts", "## Replay a log",
                "## Audit logs", "## Layout"):
        assert job in text
    assert "--chain" in text and "--end --format yaml > turn2.yaml" in text


# -- the harness itself: strict where it must be, loose only where the sample says -----------------

def test_matching_is_exact_but_for_the_elisions():
    out = ["a", "b 1.23s", "c", "d"]
    assert samples.matches(["a", "b 1.23s", "c", "d"], out)
    assert samples.matches(["a", "…", "d"], out) and samples.matches(["…"], out)
    assert samples.matches(["a", "b …", "…"], out)
    assert not samples.matches(["a", "c", "d"], out)                       # a line left out without …
    assert not samples.matches(["a", "b 1.23s", "c", "d", "e"], out)
    assert not samples.matches(["a", "b 1.23s", "c", "D"], out)
    assert not samples.matches(["a", "b 1.23s", "c"], out)                 # the end must be shown or elided


def test_refreshing_keeps_the_samples_elisions():
    old = ["head", "…", "middle", "…", "tail 1"]
    new = ["head", "x", "middle", "y", "tail 2"]
    assert samples.refreshed(old, new) == ["head", "…", "middle", "…", "tail 2"]
    assert samples.refreshed(["a", "b"], ["a", "c"]) == ["a", "c"]
    assert samples.refreshed(["x …", "…"], ["x 1", "y", "z"]) == ["x …", "…"]   # still fits: unchanged


def test_a_drifted_sample_is_reported_with_both_outputs(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("```\n$ hexforge checks\nHF001  error    read   yaml-syntax  (not what it prints)\n…\n```\n"
                   "```\n$ hexforge checks\nHF001  error    read   yaml-syntax                      fix the YAML "
                   "syntax at the position shown\n…\n```\n", encoding="utf-8")
    (report,) = list(samples.drift(doc, ROOT))
    assert report.startswith("doc.md:2: $ hexforge checks") and "(not what it prints)" in report
    assert "--- the command prints\nHF001  error    read   yaml-syntax" in report
    refreshed = samples.refresh(doc, ROOT)
    assert "(not what it prints)" not in refreshed and refreshed.count("$ hexforge checks") == 2


def test_a_sample_runs_hexforge_only():
    with pytest.raises(ValueError, match="hexforge only"):
        samples.Sandbox(ROOT).run("rm -rf /tmp/x")


def test_durations_and_the_scratch_folder_are_all_that_is_normalised(tmp_path):
    box = samples.Sandbox(ROOT)
    try:
        lines = box.run(f"hexforge schema {box.path}/schemas")
        assert lines == ["wrote 11 schemas to <tmp>/schemas"]          # art.yaml has one too
    finally:
        box.close()
