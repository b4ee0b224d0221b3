"""Loaded by Python at start-up in a process whose PYTHONPATH holds this directory (tests/faults/points.py's
`FaultPlan.env()`): installs the plan's fault hook. Test code only; production never puts this on a path."""

import sys
from pathlib import Path

_ROOT = str(Path(__file__).resolve().parents[3])
if _ROOT not in sys.path:
    sys.path.append(_ROOT)  # after everything else: `tests` comes from the checkout, nothing else is shadowed

from tests.faults.points import install_from_environment  # noqa: E402

install_from_environment()
