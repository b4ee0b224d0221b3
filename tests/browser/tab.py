"""One browser tab of a test: navigation, signing in, screenshots, console errors, and the no-reload check."""

from __future__ import annotations

import re
from contextlib import contextmanager
from pathlib import Path

from tests.portal.people import PASSWORD


class Tab:
    def __init__(self, page, live, test_name: str, artifacts: Path):
        self.page = page
        self.live = live
        self.name = re.sub(r"[^A-Za-z0-9_.-]+", "_", test_name)
        self.artifacts = artifacts
        self.shots = 0
        self.console_errors: list[str] = []
        self._allowed: list[re.Pattern] = []
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.console_errors.append(f"pageerror: {error}"))

    def _console(self, message) -> None:
        if message.type != "error":
            return
        source = (message.location or {}).get("url", "")
        text = f"{message.text} [{source or self.page.url}]"
        # Chromium asks for /favicon.ico when a page names no icon; that 404 is one defect of the layout, tested
        # once by test_sign_in.py::test_pages_name_an_icon, not a console error of every page.
        if source.endswith("/favicon.ico"):
            return
        if not any(p.search(text) for p in self._allowed):
            self.console_errors.append(text)

    @contextmanager
    def allow_console_errors(self, pattern: str):
        """For requests a test makes to be refused: Chromium logs every 4xx fetch as a console error."""
        self._allowed.append(re.compile(pattern))
        try:
            yield
        finally:
            self._allowed.pop()

    def go(self, path: str):
        response = self.page.goto(self.live.url(path))
        assert response is not None and response.status < 400, (path, response and response.status)
        return response

    def sign_in(self, user, password: str = PASSWORD) -> None:
        self.go("/accounts/login/")
        # by field name: the labels are in the page's language
        form = self.page.locator("main form").filter(has=self.page.locator("input[name=password]"))
        form.locator("input[name=username]").fill(user.username)
        form.locator("input[name=password]").fill(password)
        with self.page.expect_navigation():
            form.locator("button[type=submit]").click()
        assert "/accounts/login/" not in self.page.url, "sign-in failed"

    def shoot(self, label: str, full_page: bool = True) -> Path:
        """A screenshot of the whole page, or with full_page=False of what the window shows (a long page)."""
        self.shots += 1
        path = self.artifacts / f"{self.name}-{self.shots:02d}-{label}.png"
        self.page.screenshot(path=str(path), full_page=full_page)
        return path

    def mark(self) -> None:
        """Set a flag in the page's JS state: it survives htmx swaps and disappears with a full reload."""
        self.page.evaluate("window.__rocportNoReload = true")

    def not_reloaded(self) -> bool:
        return self.page.evaluate("window.__rocportNoReload === true")

    def csrf_token(self) -> str:
        """The token htmx sends, from <body hx-headers>."""
        return self.page.evaluate("JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRFToken']")

    def post_from_page(self, path: str, body: dict, token: str | None) -> int:
        """A POST made by the page's own JS (same origin, the session's cookies); returns the status."""
        return self.page.evaluate(
            """async ([url, body, token]) => {
                 const headers = {'Content-Type': 'application/x-www-form-urlencoded'};
                 if (token) headers['X-CSRFToken'] = token;
                 const response = await fetch(url, {method: 'POST', headers, body: new URLSearchParams(body),
                                                    redirect: 'manual'});
                 return response.status;
               }""",
            [path, body, token],
        )
