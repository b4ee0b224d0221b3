"""Outside tools some tests need (Debian packages that scripts/ensure-test-tools.sh installs for `make test`).

A missing tool skips its tests on a developer's machine, with the command that installs it, and fails them under
CI=true: there `make test` has installed everything, so a missing tool means a broken install step, which must not
pass as a green run with tests quietly skipped.
"""

from __future__ import annotations

import os
import shutil

import pytest

HINT = "scripts/ensure-test-tools.sh installs it (sudo apt-get install -y {package})"


def _chromium() -> str | None:
    path = os.environ.get("ROCPORT_CHROMIUM", "/usr/bin/chromium")
    return path if os.path.exists(path) else None


def _hipcc() -> str | None:
    return os.environ.get("ROCPORT_HIPCC") or shutil.which("hipcc")


def _hip_clang(min_major: int = 17) -> str | None:
    """clang 17+ and lld: the compile check's default toolchain (scanner.compile.clang_hip); 22+ for HIP 7.14."""
    from scanner.compile import clang_hip

    found = clang_hip.find(min_major)
    if found is None:
        return None
    bindir = os.path.dirname(os.path.realpath(found[0]))
    lld = os.path.exists(os.path.join(bindir, "lld")) or shutil.which("ld.lld")
    bundler = os.path.exists(os.path.join(bindir, "clang-offload-bundler"))
    return found[0] if lld and bundler else None


TOOLS = {
    "chromium": (_chromium, "chromium"),
    "hip-clang": (_hip_clang, "clang-19 lld-19 clang-tools-19"),
    "hip-clang-22": (lambda: _hip_clang(22), "clang-22 lld-22"),
    "hipcc": (_hipcc, "hipcc libamdhip64-dev"),
    "msgfmt": (lambda: shutil.which("msgfmt"), "gettext"),
}


def available(tool: str) -> bool:
    return TOOLS[tool][0]() is not None


def require(tool: str) -> None:
    """Skip (or under CI=true fail) the running test when `tool` is missing."""
    if available(tool):
        return
    message = f"{tool} is not installed: " + HINT.format(package=TOOLS[tool][1])
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true: {message}", pytrace=False)
    pytest.skip(message)


def needs(tool: str) -> pytest.MarkDecorator:
    """`@needs("hipcc")` or in `pytestmark`: the test calls `require(tool)` before it runs (tests/conftest.py)."""
    assert tool in TOOLS, tool
    return pytest.mark.needs_tool(tool)
