"""The commit status endpoints of GitHub, GitLab, Gitea and Forgejo, exactly as each documents them, and one POST
with the standard library (a timeout on every request, redirects not followed, the token only in a header).

- GitHub: POST {api}/repos/{owner}/{repo}/statuses/{sha}, `Authorization: Bearer`, state pending / success /
  failure / error, fields target_url, description, context;
- GitLab: POST {api}/projects/{id or url-encoded path}/statuses/{sha}, `PRIVATE-TOKEN`, state pending / running /
  success / failed / canceled, fields name, target_url, description;
- Gitea and Forgejo: POST {api}/repos/{owner}/{repo}/statuses/{sha}, `Authorization: token …`, state pending /
  success / error / failure / warning, fields target_url, description, context.
All three answer 201 Created.
"""

from __future__ import annotations

import http.client
import json
import re
import urllib.error
import urllib.request
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from portal.repositories.urlcheck import host_of

CONTEXT = "rocport"
# GitHub refuses longer descriptions; the others accept 255 but one short line reads best everywhere.
DESCRIPTION_MAX = 140
_ANSWER_MAX = 64 * 1024  # what we read of an answer: we only need its status


@dataclass(frozen=True)
class Endpoint:
    path: str  # after the API base URL
    states: dict[str, str]  # our state (GitHub's names) -> the provider's
    name_field: str  # where the "rocport" label goes


_GITHUB_LIKE = Endpoint(
    "/repos/{project}/statuses/{sha}",
    {"pending": "pending", "success": "success", "failure": "failure", "error": "error"},
    "context",
)
ENDPOINTS = {
    "github": _GITHUB_LIKE,
    # GitLab has no "error": a scan that failed is a failed status there too.
    "gitlab": Endpoint(
        "/projects/{project}/statuses/{sha}",
        {"pending": "pending", "success": "success", "failure": "failed", "error": "failed"},
        "name",
    ),
    "gitea": _GITHUB_LIKE,
    "forgejo": _GITHUB_LIKE,
}


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


def auth_header(provider: str, token: str) -> tuple[str, str]:
    if provider == "github":
        return "Authorization", f"Bearer {token}"
    if provider == "gitlab":
        return "PRIVATE-TOKEN", token
    return "Authorization", f"token {token}"  # Gitea and Forgejo


def project_path(provider: str, project: str) -> str:
    """The project as it goes into the URL: owner/repo segment by segment; GitLab's id or url-encoded full path."""
    project = project.strip().strip("/")
    if provider == "gitlab":
        return quote(project, safe="")
    return "/".join(quote(part, safe="") for part in project.split("/"))


def build(
    provider: str, *, api_url: str, project: str, sha: str, token: str, state: str, description: str, target_url: str
) -> StatusRequest:
    endpoint = ENDPOINTS[provider]
    if not re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", sha):
        raise PermanentError(f"not a commit id: {sha[:80]!r}")
    url = api_url.rstrip("/") + endpoint.path.format(project=project_path(provider, project), sha=sha)
    body = {
        "state": endpoint.states[state],
        "target_url": target_url,
        "description": _shorten(description),
        endpoint.name_field: CONTEXT,
    }
    name, value = auth_header(provider, token)
    headers = {"Content-Type": "application/json", "Accept": "application/json", "User-Agent": "ROCport", name: value}
    if provider == "github":
        headers["Accept"] = "application/vnd.github+json"
        headers["X-GitHub-Api-Version"] = "2022-11-28"
    return StatusRequest(url, headers, body)


def _shorten(text: str) -> str:
    return text if len(text) <= DESCRIPTION_MAX else text[: DESCRIPTION_MAX - 1] + "…"


class NoRedirect(urllib.request.HTTPRedirectHandler):
    """A status API never redirects a POST; following one would carry the token to wherever it points."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


_opener = urllib.request.build_opener(NoRedirect)


def send(request: StatusRequest, *, timeout: float, token: str = "") -> int:
    """POST the status; returns the HTTP status (2xx). Raises TransientError or PermanentError; their messages
    quote at most a short, token-free excerpt of the host's answer."""
    data = json.dumps(request.body).encode()
    http_request = urllib.request.Request(request.url, data=data, method="POST", headers=request.headers)
    host = request.host
    try:
        with _opener.open(http_request, timeout=timeout) as answer:
            answer.read(_ANSWER_MAX)
            return answer.status
    except urllib.error.HTTPError as exc:
        raise http_failure(exc, host, token, refused="the status") from None
    except NETWORK_ERRORS as exc:
        raise unreachable(exc, host, token) from None


NETWORK_ERRORS = (urllib.error.URLError, http.client.HTTPException, OSError)


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


# -- defaults from the clone URL ---------------------------------------------------------------------------

_PUBLIC_API = {"github.com": "https://api.github.com", "gitlab.com": "https://gitlab.com/api/v4"}


def guess_provider(clone_url: str) -> str:
    host = (host_of(clone_url) or "").lower()
    if host == "github.com" or host.startswith("github."):
        return "github"
    if "gitlab" in host:
        return "gitlab"
    if host == "codeberg.org" or "forgejo" in host:
        return "forgejo"
    if "gitea" in host:
        return "gitea"
    return "github"


def api_url_derivable(clone_url: str) -> bool:
    """Whether a self-hosted instance's API URL can be read from the clone URL: an https or ssh one names the
    host's web address; a git:// (git daemon) or plain http:// one does not say where an https API is."""
    url = clone_url.strip()
    if re.match(r"^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:", url):  # scp-like: ssh
        return True
    try:
        scheme = urlsplit(url).scheme.lower()
    except ValueError:
        return False
    return scheme in ("https", "ssh", "git+ssh", "ssh+git")


def default_api_url(provider: str, clone_url: str) -> str:
    """github.com and gitlab.com have fixed API hosts; a self-hosted instance serves its API under its own host
    (GitHub Enterprise /api/v3, GitLab /api/v4, Gitea and Forgejo /api/v1), derived from an https or ssh clone
    URL only (`api_url_derivable`): "" otherwise, and the settings form asks for it."""
    host = (host_of(clone_url) or "").lower()
    if host and host not in _PUBLIC_API and not api_url_derivable(clone_url):
        return ""
    if provider == "github":
        return _PUBLIC_API["github.com"] if host in ("", "github.com") else f"https://{host}/api/v3"
    if provider == "gitlab":
        return f"https://{host}/api/v4" if host else _PUBLIC_API["gitlab.com"]
    return f"https://{host}/api/v1" if host else ""


def default_project(provider: str, clone_url: str) -> str:
    """From an https, ssh or scp-like clone URL: GitLab's full path (group/subgroup/project); owner/repo elsewhere
    (the last two segments, so an instance served under a sub-path still works)."""
    url = clone_url.strip()
    scp = re.match(r"^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:(?P<path>[^\s]+)$", url)
    path = (scp.group("path") if scp else urlsplit(url).path).strip("/")
    if path.endswith(".git"):
        path = path[:-4]
    parts = [part for part in path.split("/") if part]
    if len(parts) < 2:
        return ""
    return "/".join(parts if provider == "gitlab" else parts[-2:])
