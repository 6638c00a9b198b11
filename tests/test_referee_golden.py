"""The referee's verdict on every real log stays exactly what it was: `hexforge audit --format json`
(findings and coverage) of each VASSAL 3.7.9 log compared whole with a snapshot in
tests/fixtures/audit-golden/. A change to a finding is a decision: regenerate the snapshot with
`python tests/test_referee_golden.py` and say why in the commit.

Logs: shared/vassal-logs/*.vlog (not damaged_*) with the module beside them, and tests/fixtures/vlogs/
(meuse logs with meuse.vmod, ardennes2_violations with shared/vassal-logs/ardennes2.vmod)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from compiler.cli import main  # noqa: E402

SHARED = next((p for p in (ROOT.parent / "shared" / "vassal-logs", Path("/work/shared/vassal-logs"))
               if p.exists()), None)
FIXTURES = ROOT / "tests" / "fixtures" / "vlogs"
GOLDEN = ROOT / "tests" / "fixtures" / "audit-golden"


def cases() -> list[tuple[str, Path, Path]]:
    """(game, log, module) for every real log whose module is at hand."""
    out = []
    if SHARED is not None:
        for log in sorted(SHARED.glob("*.vlog")):
            if not log.name.startswith("damaged_"):
                game = log.name.split("_")[0]
                out.append((game, log, SHARED / f"{game}.vmod"))
    for log in sorted(FIXTURES.glob("*.vlog")):
        game = log.name.split("_")[0]
        vmod = FIXTURES / f"{game}.vmod" if (FIXTURES / f"{game}.vmod").exists() else \
            (SHARED / f"{game}.vmod" if SHARED else None)
        if vmod is not None and vmod.exists():
            out.append((game, log, vmod))
    return out


def audit_json(game: str, log: Path, vmod: Path) -> str:
    res = CliRunner().invoke(main, ["audit", str(ROOT / "source" / game), str(log), "--module", str(vmod),
                                    "--format", "json"])
    assert res.exit_code in (0, 1), res.output
    doc = json.loads(res.stdout)
    for entry in doc.get("logs", ()):               # where the log lies is not the verdict
        for k in ("file", "path", "log"):
            if isinstance(entry.get(k), str):
                entry[k] = Path(entry[k]).name
    return json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def golden_path(log: Path) -> Path:
    return GOLDEN / f"{log.stem}.json"


@pytest.mark.skipif(SHARED is None, reason="shared/vassal-logs not available")
@pytest.mark.parametrize("game,log,vmod", cases(), ids=lambda x: x.name if isinstance(x, Path) else x)
def test_audit_matches_golden(game, log, vmod):
    want = golden_path(log)
    assert want.exists(), f"no snapshot for {log.name}: run python tests/test_referee_golden.py"
    assert audit_json(game, log, vmod) == want.read_text(encoding="utf-8")


def test_every_real_log_has_a_case():
    """No log silently skipped: each shared log (not damaged) and each fixture log is audited."""
    if SHARED is None:
        pytest.skip("shared/vassal-logs not available")
    names = {log.name for _, log, _ in cases()}
    assert {p.name for p in SHARED.glob("*.vlog") if not p.name.startswith("damaged_")} <= names
    assert {p.name for p in FIXTURES.glob("*.vlog")} <= names
    assert len(names) >= 10


if __name__ == "__main__":                           # regenerate the snapshots from the current code
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for game, log, vmod in cases():
        golden_path(log).write_text(audit_json(game, log, vmod), encoding="utf-8")
        print(golden_path(log))
