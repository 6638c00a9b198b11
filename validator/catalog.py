"""Every code hexforge reports, gathered: the reading codes (validator.codes), the tree checks
(validator.checks) and the referee's rules (validator.referee). A module of its own so that the registry,
which the checks and rules import to declare their codes, imports neither of them."""
from __future__ import annotations

from .checks import all_checks
from .codes import CODES, Code
from .referee import all_rules


def all_codes() -> dict[str, Code]:
    """Every declared code, in code order."""
    all_checks()                                # the modules that declare codes, each listed once there
    all_rules()
    return dict(sorted(CODES.items()))
