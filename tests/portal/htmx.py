"""htmx requests, the base shared by the page tests: the header htmx sends, and what every partial answer must be
(a fragment, not a page, and cached apart from the page at the same URL)."""

from __future__ import annotations

HTMX = {"HX-Request": "true"}


def fragment(response) -> str:
    """The HTML of an htmx answer, checked to be a fragment: no document around it (htmx would nest a whole page
    inside the one the user is on)."""
    assert response.status_code == 200, response.status_code
    html = response.content.decode()
    assert "<html" not in html.lower() and "<body" not in html.lower(), html[:200]
    return html


def varies_on_htmx(response) -> bool:
    """Whether a cache keeps the partial and the page at one URL apart."""
    return "HX-Request" in response.get("Vary", "")
