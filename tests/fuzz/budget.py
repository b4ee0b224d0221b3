"""How much the fuzz suite runs: a small, reproducible amount by default (CI), more on request.

- ROCPORT_FUZZ_SCALE=N multiplies every hypothesis example count and every atheris run budget (default 1);
- ROCPORT_FUZZ_RANDOM=1 lets hypothesis pick new random examples instead of the derandomized, repeatable ones
  (a failure then prints the seed to reproduce it with `--hypothesis-seed`).

    ROCPORT_FUZZ_SCALE=20 ROCPORT_FUZZ_RANDOM=1 .venv/bin/python -m pytest tests/fuzz -x -q
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings


def scale() -> int:
    try:
        return max(1, int(os.environ.get("ROCPORT_FUZZ_SCALE", "1")))
    except ValueError:
        return 1


def fuzz_settings(examples: int) -> settings:
    """`examples` per run (times the scale), no per-example deadline (a libclang parse of a hostile file may
    legitimately take seconds; time budgets belong to bench/), repeatable unless ROCPORT_FUZZ_RANDOM is set."""
    return settings(
        max_examples=examples * scale(),
        deadline=None,
        derandomize=os.environ.get("ROCPORT_FUZZ_RANDOM") != "1",
        database=None,  # nothing written under .hypothesis/: a failure is reproduced from its printed example
        print_blob=True,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.function_scoped_fixture,
            HealthCheck.large_base_example,
        ],
    )
