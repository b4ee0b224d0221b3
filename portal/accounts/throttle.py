"""Rate limits: django-ratelimit counters in the shared cache, and the 429 answer (a page, or JSON for machines).

- `hit(request, limit)` counts one request and says how long to wait once the limit is passed;
- `blocked(request, limit)` only looks (for limits that count failures: a caller is refused once it has failed
  `count` times), and `record(request, limit)` counts a failure;
- `Throttled` is raised where a view cannot answer itself (token authentication); ThrottledMiddleware and the
  API's exception handler turn it into the 429.
The rates are settings (ROCPORT_RATE_*). A cache that cannot be reached fails open with a warning: refusing
every sign-in or webhook while Redis is down would turn an outage into a lockout.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django_ratelimit.core import get_usage
from django_ratelimit.exceptions import Ratelimited

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limit:
    group: str  # names the counter; one counter per group and key value
    key: str | Callable  # django-ratelimit key: "ip", "user", or a callable (group, request) -> value
    rate_setting: str  # the setting holding the rate, read at each request (tests change it)

    @property
    def rate(self) -> str:
        return getattr(settings, self.rate_setting)


def _signin_username(group, request) -> str:
    return request.POST.get("username", "").strip()[:150]


SIGNIN_IP = Limit("signin-ip", "ip", "ROCPORT_RATE_SIGNIN_IP")
SIGNIN_USERNAME = Limit("signin-username", _signin_username, "ROCPORT_RATE_SIGNIN_USERNAME")
TOKEN_CREATE = Limit("token-create", "user", "ROCPORT_RATE_TOKEN_CREATE")
DIGEST_SEND = Limit("digest-send", "user", "ROCPORT_RATE_DIGEST_SEND")  # "send me now": mail on demand
TOKEN_FAILURES_IP = Limit("token-failures-ip", "ip", "ROCPORT_RATE_TOKEN_FAILURES_IP")
WEBHOOK_IP = Limit("webhook-ip", "ip", "ROCPORT_RATE_WEBHOOK_IP")


def webhook_repository(repository_id: int) -> Limit:
    return Limit("webhook-repository", lambda group, request: str(repository_id), "ROCPORT_RATE_WEBHOOK_REPOSITORY")


class Throttled(Ratelimited):
    def __init__(self, retry_after: int):
        super().__init__()
        self.retry_after = retry_after


def _usage(request: HttpRequest, limit: Limit, increment: bool) -> dict | None:
    try:
        return get_usage(request, group=limit.group, key=limit.key, rate=limit.rate, increment=increment)
    except Exception as exc:  # the cache is down or stalled (redis.ConnectionError, TimeoutError, OSError)
        log.warning("rate limit %s not applied: the cache failed (%s)", limit.group, type(exc).__name__)
        return None


def _wait(usage: dict) -> int:
    # time_left counts to the last whole second of the window, which still belongs to it: the counter lifts
    # one second later.
    return max(0, int(usage["time_left"])) + 1


def hit(request: HttpRequest, *limits: Limit) -> int | None:
    """Count this request against each limit; the seconds to wait when one is passed, else None."""
    waits = []
    for limit in limits:
        usage = _usage(request, limit, increment=True)
        if usage is not None and usage["count"] > usage["limit"]:
            waits.append(_wait(usage))
    return max(waits) if waits else None


def blocked(request: HttpRequest, limit: Limit) -> int | None:
    """Without counting: the seconds to wait when `limit` already holds as many failures as it allows."""
    usage = _usage(request, limit, increment=False)
    if usage is not None and usage["count"] >= usage["limit"]:
        return _wait(usage)
    return None


def record(request: HttpRequest, limit: Limit) -> None:
    """Count one failure."""
    _usage(request, limit, increment=True)


def wants_json(request: HttpRequest) -> bool:
    """Machines get JSON: the API, webhooks, any request with a bearer token (a script's export), or asking for it."""
    return (
        request.path.startswith(("/api/", "/hooks/"))
        or "Authorization" in request.headers
        or "application/json" in request.headers.get("Accept", "")
    )


def too_many_requests(request: HttpRequest, retry_after: int) -> HttpResponse:
    minutes = max(1, -(-retry_after // 60))
    message = _("Too many requests. Try again in %(seconds)s seconds.") % {"seconds": retry_after}
    if wants_json(request):
        response = JsonResponse({"detail": message, "retry_after": retry_after}, status=429)
    else:
        response = render(
            request, "accounts/too_many_requests.html", {"retry_after": retry_after, "minutes": minutes}, status=429
        )
    response["Retry-After"] = str(retry_after)
    response["Cache-Control"] = "no-store"
    return response


class ThrottledMiddleware:
    """A Throttled raised by a view (or by the authentication it calls) becomes the 429 answer."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, Throttled):
            return too_many_requests(request, exception.retry_after)
        return None
