"""What every log of one audit run is audited with: the tree and the module, loaded once per process."""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Optional


@dataclass(frozen=True)
class AuditSetup:
    """What every log of one run is audited with; sent to each worker process."""
    tree: Path
    as_printed: bool
    module: Optional[Path]
    scenario: Optional[str]
    logs_need_module: bool
    report_dir: Optional[Path] = None


@dataclass
class LogResult:
    file: str
    audit: object = None                      # validator.referee.audit.LogAudit
    error: Optional[str] = None               # why the log could not be audited
    warnings: tuple = ()                      # what the reader could not map
    page: Optional[str] = None                # its report page's file name, with --report


class CannotRun(Exception):
    pass


_LOADED: dict[AuditSetup, tuple] = {}


def loaded(setup: AuditSetup) -> tuple:
    """(game, module) for `setup`, loaded once per process; CannotRun says why not."""
    key = replace(setup, report_dir=None)
    if key not in _LOADED:
        _LOADED[key] = _load(setup)
    return _LOADED[key]


def _load(setup: AuditSetup) -> tuple:
    from compiler.game_cache import load_game_kept
    try:
        game, diags = load_game_kept(setup.tree, apply_errata=not setup.as_printed)
    except Exception as e:
        from validator.source.loader import NotAGameTree   # imported where the tree was read: not from the cache
        if isinstance(e, NotAGameTree):
            raise CannotRun(str(e))
        raise
    if game is None:
        bad = next((d for d in diags if d.severity == "error"), None)
        raise CannotRun(f"{setup.tree}: the tree does not load ({bad.loc}: {bad.message}); run `hexforge check "
                        f"{setup.tree}`" if bad else f"{setup.tree}: the tree does not load")
    if setup.scenario is not None and game.scenario(setup.scenario) is None:
        raise CannotRun(f"scenario {setup.scenario!r} is not in {game.id} "
                        f"(known: {', '.join(s.id for s in game.scenarios)})")
    return game, _module(game, setup.module, setup.logs_need_module)


def _module(game, module: Optional[Path], needed: bool):
    """The module the logs were played with; needed for .vlog and .vsav files only."""
    if not needed:
        return None
    path = module or Path("build") / game.id / f"{game.id}.vmod"
    if not path.is_file():
        if module is None:
            raise CannotRun(f"no module: {path} does not exist; pass --module X.vmod or run "
                            f"`hexforge build {game.root}`")
        raise CannotRun(f"{path}: no such module file")
    from compiler.vassal.reader import ReadError, read_module
    try:
        return read_module(path, pieces=False)    # an audit reads the log's own pieces
    except (ReadError, OSError, KeyError, ValueError) as e:
        raise CannotRun(f"{path}: cannot read the module: {e}")


def module_name(mod) -> Optional[str]:
    if mod is None:
        return None
    name, version = mod.metadata.findtext("name"), mod.metadata.findtext("version")
    return f"{name} {version}".strip() if version else name
