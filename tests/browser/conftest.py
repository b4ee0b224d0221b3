"""Browser tests: Debian's Chromium driven by Playwright (sync API) against the portal served by gunicorn over
HTTP on the test database. The server is another process, so every test is transactional.

Fixtures: `live` (this package: our own Redis + gunicorn), `chromium` (this package), `tab` (a fresh browser context and
page per test, signed out, collecting console errors: the test fails if a page logged one), `project` (a real
git repository of the demo's CUDA sources, scanned by the real pipeline).
"""

from __future__ import annotations

import os

import pytest

# First: the portal tests' environment (services, settings) and their fixtures `people` and `repo_factory`.
from tests.portal.conftest import people, repo_factory  # noqa: E402,F401

# isort: split
from tests.browser.data import build_project  # noqa: E402
from tests.browser.live import CHROMIUM, CHROMIUM_ARGS, LiveServer, artifacts_dir  # noqa: E402
from tests.browser.tab import Tab  # noqa: E402
from tests.tools import require  # noqa: E402

_SHOTS: list[int] = []  # screenshots per test, for the summary line


@pytest.fixture(scope="package")
def live(django_db_setup):
    require("chromium")
    server = LiveServer()
    yield server
    server.stop()


@pytest.fixture(scope="package")
def chromium(live):
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps a running asyncio loop in this thread; Django would then refuse the tests' ORM
    # calls (SynchronousOnlyOperation) although nothing here is async. Allowed while the browser lives (this
    # package's tests only; gunicorn does not inherit it).
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        yield from _browser(sync_playwright)
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


def _browser(sync_playwright):
    from playwright.sync_api import expect

    # The same patience for expect() as for actions: its own default (5 s) is short for an htmx swap that waits on
    # the test database while the other test process (or a loaded CI machine) holds both cores.
    expect.set_options(timeout=15_000)
    with sync_playwright() as playwright:
        # executable_path: Debian's Chromium; Playwright never downloads a browser here. launch() gives the
        # browser a fresh temporary profile (user-data dir) of its own and removes it at close.
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


def _tab(request, live, chromium, locale: str, suffix: str = ""):
    context = chromium.new_context(base_url=live.url(), locale=locale, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    page = context.new_page()
    tab = Tab(page, live, request.node.name + suffix, artifacts_dir())
    yield tab
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        tab.shoot("FAILED")  # the page as it was when the test failed
    _SHOTS.append(tab.shots)
    context.close()
    assert not tab.console_errors, f"console errors on {request.node.name}: {tab.console_errors}"


@pytest.fixture
def tab(request, live, chromium):
    yield from _tab(request, live, chromium, "en-US")


@pytest.fixture
def zh_tab(request, live, chromium):
    """A tab whose browser asks for Simplified Chinese (zh-CN: the portal answers in zh-Hans)."""
    yield from _tab(request, live, chromium, "zh-CN", "-zh")


@pytest.fixture
def project(people, repo_factory):
    return build_project(people, repo_factory("cuda-demo"))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"rep_{report.when}", report)  # the tab fixture's teardown screenshots failed tests
    return report


def pytest_terminal_summary(terminalreporter):
    if _SHOTS:
        terminalreporter.write_line(f"browser tests: {sum(_SHOTS)} screenshots in {artifacts_dir()}")
