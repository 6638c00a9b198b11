"""Where hexforge keeps what it may work out again: compiled schema validators, loaded trees."""
from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """$HEXFORGE_CACHE_DIR, else $XDG_CACHE_HOME/hexforge, else ~/.cache/hexforge."""
    explicit = os.environ.get("HEXFORGE_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "hexforge"
