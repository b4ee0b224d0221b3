"""Links that leave the portal (emails, pull-request bodies, commit statuses): built from the site's own address,
`ROCPORT_BASE_URL` or else `SITE_URL` (`make run` sets it from its PORT), since no request says where the portal
is when a worker writes them. A page builds its links from its request instead (request.build_absolute_uri)."""

from __future__ import annotations

from django.conf import settings


def site_url(path: str) -> str:
    """The absolute address of `path` (from reverse(), starting with "/") on the site's configured address."""
    return settings.ROCPORT_BASE_URL.rstrip("/") + path
