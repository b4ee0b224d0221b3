"""Opening a merge request and reading its state, on the four hosts, as each documents it:

- GitHub: POST {api}/repos/{owner}/{repo}/pulls {title, head, base, body} -> 201 {number, html_url, state};
  GET {api}/repos/{owner}/{repo}/pulls/{number} -> {state: open|closed, merged: bool};
- GitLab: POST {api}/projects/{id}/merge_requests {source_branch, target_branch, title, description, remove_source_branch}
  -> 201 {iid, web_url, state}; GET .../merge_requests/{iid} -> {state: opened|closed|locked|merged};
- Gitea and Forgejo: POST {api}/repos/{owner}/{repo}/pulls {head, base, title, body} -> 201 {number, html_url,
  state}; GET .../pulls/{number} -> {state: open|closed, merged: bool}.
A create refused as a duplicate (GitHub 422, GitLab/Gitea/Forgejo 409) is answered by looking up the open request
for our branch (GitHub GET .../pulls?head=owner:branch&state=open, GitLab GET .../merge_requests?source_branch=
&state=opened, Gitea/Forgejo GET .../pulls?state=open): the request an earlier attempt made, whose answer was lost.
The token goes in the header the commit statuses use (portal.statuses.providers.auth_header); redirects are never
followed (a redirected POST would carry the token elsewhere); answers are read up to a limit.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from django.conf import settings

from portal.statuses.providers import (
    NETWORK_ERRORS,
    NoRedirect,
    PermanentError,
    TransientError,
    auth_header,
    http_failure,
    project_path,
    unreachable,
)

_ANSWER_MAX = 256 * 1024
_SPECIFIC = {
    401: "{host} refused the token (HTTP {code}): it needs the right to open merge requests{excerpt}",
    403: "{host} refused the token (HTTP {code}): it needs the right to open merge requests{excerpt}",
}
_opener = urllib.request.build_opener(NoRedirect)


@dataclass(frozen=True)
class Host:
    provider: str  # github / gitlab / gitea / forgejo
    api_url: str
    project: str
    token: str


@dataclass
class Opened:
    number: int
    url: str


def _headers(host: Host) -> dict[str, str]:
    name, value = auth_header(host.provider, host.token)
    headers = {"Content-Type": "application/json", "Accept": "application/json", "User-Agent": "ROCport", name: value}
    if host.provider == "github":
        headers["Accept"] = "application/vnd.github+json"
        headers["X-GitHub-Api-Version"] = "2022-11-28"
    return headers


def _base(host: Host) -> str:
    project = project_path(host.provider, host.project)
    if host.provider == "gitlab":
        return f"{host.api_url.rstrip('/')}/projects/{project}/merge_requests"
    return f"{host.api_url.rstrip('/')}/repos/{project}/pulls"


def open_request(host: Host, *, branch: str, target: str, title: str, body: str) -> Opened:
    if host.provider == "gitlab":
        payload = {
            "source_branch": branch,
            "target_branch": target,
            "title": title,
            "description": body,
            "remove_source_branch": True,
        }
    else:
        payload = {"head": branch, "base": target, "title": title, "body": body}
    try:
        answer = _call(host, "POST", _base(host), payload)
    except PermanentError as error:
        duplicate = 422 if host.provider == "github" else 409
        found = find_open(host, branch) if error.status == duplicate else None
        if found is None:
            raise
        return found
    opened = _opened(host, answer)
    if opened is None:
        raise PermanentError(f"{_hostname(host)} answered without a merge request number")
    return opened


def find_open(host: Host, branch: str) -> Opened | None:
    """The open request whose source is `branch`, if the host has one."""
    if host.provider == "gitlab":
        query = f"?source_branch={quote(branch, safe='')}&state=opened"
    elif host.provider == "github":
        owner = host.project.strip().strip("/").split("/")[0]
        query = f"?head={quote(f'{owner}:{branch}', safe='')}&state=open"
    else:  # Gitea/Forgejo cannot filter by head: the newest open ones, ours among them (it was just made)
        query = "?state=open&sort=recentupdate&limit=50"
    answers = _call(host, "GET", _base(host) + query, None, listing=True)
    for answer in answers:
        if not isinstance(answer, dict):
            continue
        head = answer.get("source_branch") if host.provider == "gitlab" else (answer.get("head") or {}).get("ref")
        if head == branch:
            return _opened(host, answer)
    return None


def _opened(host: Host, answer: dict) -> Opened | None:
    number = answer.get("iid") if host.provider == "gitlab" else answer.get("number")
    url = answer.get("web_url") if host.provider == "gitlab" else answer.get("html_url")
    if not isinstance(number, int) or isinstance(number, bool) or number <= 0:
        return None
    return Opened(number, url if isinstance(url, str) and url.startswith(("https://", "http://")) else "")


def state_of(host: Host, number: int) -> str:
    """ "open", "merged" or "closed", as the host has it now."""
    answer = _call(host, "GET", f"{_base(host)}/{int(number)}", None)
    state = str(answer.get("state", ""))
    if host.provider == "gitlab":
        return {"opened": "open", "locked": "open", "merged": "merged"}.get(state, "closed")
    if answer.get("merged") or answer.get("merged_at"):
        return "merged"
    return "open" if state == "open" else "closed"


def _hostname(host: Host) -> str:
    return urlsplit(host.api_url).hostname or host.api_url


def _call(host: Host, method: str, url: str, payload: dict | None, *, listing: bool = False):
    """The answer's JSON object (a list when `listing`; anything else reads as empty)."""
    data = json.dumps(payload).encode() if payload is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers=_headers(host))
    name = _hostname(host)
    try:
        with _opener.open(request, timeout=settings.ROCPORT_STATUS_TIMEOUT) as answer:
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
