"""Suite-wide hooks: the `needs_tool` marker (tests/tools.py)."""

from __future__ import annotations

from tests.tools import require


def pytest_runtest_setup(item):
    for marker in item.iter_markers("needs_tool"):
        require(marker.args[0])
