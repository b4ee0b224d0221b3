"""The environment `make run` gives the portal's processes (portal/local/stack.py), as a newcomer's shell has it."""

from __future__ import annotations

import pytest

from portal.local import stack


@pytest.fixture
def shell(monkeypatch):
    """A newcomer's shell: none of the portal's settings set."""
    for name in ("DEBUG", "SITE_URL", "ROCPORT_BASE_URL", "PORT", "DATABASE_URL", "DJANGO_SETTINGS_MODULE"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_make_run_leaves_debug_off(shell):
    # DEBUG's 404 lists every URL pattern and its 500 shows settings and code: make run serves as production does.
    assert stack._environment().get("DEBUG", "0") == "0"


def test_a_debug_the_user_asks_for_is_kept(shell):
    shell.setenv("DEBUG", "1")
    assert stack._environment()["DEBUG"] == "1"
