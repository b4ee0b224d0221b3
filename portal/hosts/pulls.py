"""Opening a pull / merge request on a host and reading its state, by the host's id. Where requests live, the
create payload, the duplicate answer, the number, URL and state in an answer are the host module's; the HTTP is
shared (portal.hosts.transport: the token in the host's auth header, no redirects, bounded answers).

A create refused as a duplicate is answered by looking up the open request for our branch: the request an
earlier attempt made, whose answer was lost."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

from portal.hosts import registry
from portal.hosts.base import GitHost
from portal.hosts.transport import (
    NETWORK_ERRORS,
    PermanentError,
    TransientError,
    http_failure,
    opener,
    unreachable,
)

_ANSWER_MAX = 256 * 1024
_SPECIFIC = {
    401: "{host} refused the token (HTTP {code}): it needs the right to open merge requests{excerpt}",
    403: "{host} refused the token (HTTP {code}): it needs the right to open merge requests{excerpt}",
}


@dataclass(frozen=True)
class Host:
    provider: str  # a registered host's id
    api_url: str
    project: str
    token: str

    @property
    def kind(self) -> GitHost:
        return registry.get(self.provider)


@dataclass
class Opened:
    number: int
    url: str


def request_label(provider: str, number: int) -> str:
    """How the host writes a request's number (#12, GitLab's !12); a host no longer registered reads as the
    default's."""
    return (registry.find(provider) or registry.get(registry.DEFAULT)).request_label(number)


def _base(host: Host) -> str:
    kind = host.kind
    return host.api_url.rstrip("/") + kind.requests_path.format(project=kind.project_path(host.project))


def open_request(host: Host, *, branch: str, target: str, title: str, body: str) -> Opened:
    payload = host.kind.create_request_payload(branch=branch, target=target, title=title, body=body)
    try:
        answer = _call(host, "POST", _base(host), payload)
    except PermanentError as error:
        found = find_open(host, branch) if error.status == host.kind.duplicate_status else None
        if found is None:
            raise
        return found
    opened = _opened(host, answer)
    if opened is None:
        raise PermanentError(f"{_hostname(host)} answered without a merge request number")
    return opened


def find_open(host: Host, branch: str) -> Opened | None:
    """The open request whose source is `branch`, if the host has one."""
    kind = host.kind
    answers = _call(host, "GET", _base(host) + kind.open_requests_query(host.project, branch), None, listing=True)
    for answer in answers:
        if isinstance(answer, dict) and kind.source_branch(answer) == branch:
            return _opened(host, answer)
    return None


def _opened(host: Host, answer: dict) -> Opened | None:
    number, url = answer.get(host.kind.number_field), answer.get(host.kind.url_field)
    if not isinstance(number, int) or isinstance(number, bool) or number <= 0:
        return None
    return Opened(number, url if isinstance(url, str) and url.startswith(("https://", "http://")) else "")


def state_of(host: Host, number: int) -> str:
    """ "open", "merged" or "closed", as the host has it now."""
    return host.kind.request_state(_call(host, "GET", f"{_base(host)}/{int(number)}", None))


def _hostname(host: Host) -> str:
    return urlsplit(host.api_url).hostname or host.api_url


def _call(host: Host, method: str, url: str, payload: dict | None, *, listing: bool = False):
    """The answer's JSON object (a list when `listing`; anything else reads as empty)."""
    data = json.dumps(payload).encode() if payload is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers=host.kind.api_headers(host.token))
    name = _hostname(host)
    try:
        with opener.open(request, timeout=settings.ROCPORT_STATUS_TIMEOUT) as answer:
            raw = answer.read(_ANSWER_MAX)
    except urllib.error.HTTPError as exc:
        specific = {
            **_SPECIFIC,
            404: f"{{host}} does not know the project {host.project!r} or the token cannot see it (HTTP 404)",
        }
        raise http_failure(exc, name, host.token, refused="the request", specific=specific) from None
    except NETWORK_ERRORS as exc:
        raise unreachable(exc, name, host.token) from None
    try:
        answer = json.loads(raw or b"{}")
    except ValueError:
        raise TransientError(f"{name} answered something that is not JSON") from None
    if listing:
        return answer if isinstance(answer, list) else []
    return answer if isinstance(answer, dict) else {}
