"""A commit status for a host, by the host's id: the request (`build`, the endpoint and states the host's module
names) and its POST (portal.hosts.transport.send); and the settings' defaults read from a clone URL."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from portal.hosts import registry
from portal.hosts.transport import (
    NETWORK_ERRORS,
    PermanentError,
    PostError,
    StatusRequest,
    TransientError,
    send,
)
from portal.repositories.urlcheck import host_of

__all__ = [
    "CONTEXT",
    "DESCRIPTION_MAX",
    "NETWORK_ERRORS",
    "PermanentError",
    "PostError",
    "StatusRequest",
    "TransientError",
    "api_url_derivable",
    "auth_header",
    "build",
    "default_api_url",
    "default_project",
    "guess_provider",
    "project_path",
    "send",
    "valid_project",
]

CONTEXT = "rocport"
# GitHub refuses longer descriptions; the others accept 255 but one short line reads best everywhere.
DESCRIPTION_MAX = 140


def auth_header(provider: str, token: str) -> tuple[str, str]:
    return registry.get(provider).auth_header(token)


def project_path(provider: str, project: str) -> str:
    return registry.get(provider).project_path(project)


def build(
    provider: str, *, api_url: str, project: str, sha: str, token: str, state: str, description: str, target_url: str
) -> StatusRequest:
    host = registry.get(provider)
    if not re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", sha):
        raise PermanentError(f"not a commit id: {sha[:80]!r}")
    url = api_url.rstrip("/") + host.status_path.format(project=host.project_path(project), sha=sha)
    body = {
        "state": host.status_states[state],
        "target_url": target_url,
        "description": _shorten(description),
        host.status_name_field: CONTEXT,
    }
    return StatusRequest(url, host.api_headers(token), body)


def _shorten(text: str) -> str:
    return text if len(text) <= DESCRIPTION_MAX else text[: DESCRIPTION_MAX - 1] + "…"


# -- defaults from the clone URL ---------------------------------------------------------------------------


def guess_provider(clone_url: str) -> str:
    return registry.guess((host_of(clone_url) or "").lower()).id


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
    (the host's `api_path`), derived from an https or ssh clone URL only (`api_url_derivable`): "" otherwise,
    and the settings form asks for it."""
    hostname = (host_of(clone_url) or "").lower()
    if hostname and hostname not in registry.public_api_hosts() and not api_url_derivable(clone_url):
        return ""
    return registry.get(provider).default_api_url(hostname)


def default_project(provider: str, clone_url: str) -> str:
    """From an https, ssh or scp-like clone URL, as the host names projects (GitLab: the full path; elsewhere
    owner/repo)."""
    url = clone_url.strip()
    scp = re.match(r"^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:(?P<path>[^\s]+)$", url)
    path = (scp.group("path") if scp else urlsplit(url).path).strip("/")
    if path.endswith(".git"):
        path = path[:-4]
    parts = [part for part in path.split("/") if part]
    if len(parts) < 2:
        return ""
    return registry.get(provider).project_from_path(parts)


def valid_project(provider: str, project: str) -> bool:
    return registry.get(provider).valid_project(project)
