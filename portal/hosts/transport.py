"""Talking to a host's API with the standard library, the same way for every host: a timeout on every request,
redirects never followed (a redirected POST would carry the token elsewhere), the token only in a header and
never in an error message, answers read up to a limit. Commit statuses (`send`) and pull requests
(portal.hosts.pulls) share the errors and their wording."""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from urllib.parse import urlsplit

_ANSWER_MAX = 64 * 1024  # what we read of a status answer: we only need its status


class PostError(Exception):
    """Posting failed; the message names the host and the cause, never the token."""

    def __init__(self, message: str, status: int | None = None):
        super().__init__(message)
        self.status = status


class TransientError(PostError):
    """Worth another attempt: the network, a timeout, a 5xx, 408 or 429."""


class PermanentError(PostError):
    """Another attempt would get the same answer: a refused token, an unknown project, a rejected field."""


@dataclass(frozen=True)
class StatusRequest:
    url: str
    headers: dict[str, str]  # includes the token: never log this
    body: dict

    @property
    def host(self) -> str:
        return urlsplit(self.url).hostname or ""


class NoRedirect(urllib.request.HTTPRedirectHandler):
    """A status API never redirects a POST; following one would carry the token to wherever it points."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


opener = urllib.request.build_opener(NoRedirect)
NETWORK_ERRORS = (urllib.error.URLError, http.client.HTTPException, OSError)


def send(request: StatusRequest, *, timeout: float, token: str = "") -> int:
    """POST the status; returns the HTTP status (2xx). Raises TransientError or PermanentError; their messages
    quote at most a short, token-free excerpt of the host's answer."""
    data = json.dumps(request.body).encode()
    http_request = urllib.request.Request(request.url, data=data, method="POST", headers=request.headers)
    host = request.host
    try:
        with opener.open(http_request, timeout=timeout) as answer:
            answer.read(_ANSWER_MAX)
            return answer.status
    except urllib.error.HTTPError as exc:
        raise http_failure(exc, host, token, refused="the status") from None
    except NETWORK_ERRORS as exc:
        raise unreachable(exc, host, token) from None


def http_failure(
    exc: urllib.error.HTTPError, host: str, token: str, *, refused: str, specific: dict[int, str] | None = None
) -> PostError:
    """The error for a host's HTTP error answer (statuses and merge requests share it): 5xx, 408 and 429 are worth
    another attempt, the rest not; `specific` gives a message per status ({host}, {code} and {excerpt} filled in).
    Messages quote at most a short, token-free excerpt of the answer."""
    excerpt = _excerpt(exc, token)
    if exc.code >= 500 or exc.code in (408, 429):
        return TransientError(f"{host} answered HTTP {exc.code}{excerpt}", exc.code)
    if 300 <= exc.code < 400:
        return PermanentError(f"{host} answered with a redirect (HTTP {exc.code}): check the API URL", exc.code)
    if specific and exc.code in specific:
        text = specific[exc.code]  # replace, not format: a project name may hold braces
        text = text.replace("{host}", host).replace("{code}", str(exc.code)).replace("{excerpt}", excerpt)
        return PermanentError(text, exc.code)
    return PermanentError(f"{host} refused {refused}: HTTP {exc.code}{excerpt}", exc.code)


def unreachable(exc: Exception, host: str, token: str) -> TransientError:
    reason = getattr(exc, "reason", None) or exc
    return TransientError(f"{host} could not be reached: {redact(str(reason), token)[:200]}")


def _excerpt(exc: urllib.error.HTTPError, token: str) -> str:
    try:
        raw = exc.read(2000).decode("utf-8", "replace")
    except (OSError, http.client.HTTPException):
        return ""
    try:
        parsed = json.loads(raw)
        message = parsed.get("message", "") if isinstance(parsed, dict) else ""
        errors = parsed.get("errors") if isinstance(parsed, dict) else None
        if errors:  # GitHub and Gitea put the reason of a 422 there ("A pull request already exists")
            message = f"{message}: {errors}"
    except ValueError:
        message = raw
    message = " ".join(str(message).split())[:300]
    return f" ({redact(message, token)})" if message else ""


def redact(text: str, token: str) -> str:
    return text.replace(token, "[token]") if token else text
