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


def test_links_sent_out_name_the_port_make_run_serves_on(shell):
    shell.setenv("PORT", "18300")
    assert stack._environment()["SITE_URL"] == "http://127.0.0.1:18300"
    shell.delenv("PORT")
    assert stack._environment()["SITE_URL"] == "http://127.0.0.1:8000"


def test_a_site_url_the_user_sets_is_kept(shell):
    shell.setenv("PORT", "18300")
    shell.setenv("SITE_URL", "https://rocport.example.com")
    assert stack._environment()["SITE_URL"] == "https://rocport.example.com"
