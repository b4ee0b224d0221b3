"""The one list of git hosts: every model's `choices`, every form and every caller asks here, by the id stored in
the rows. The four hosts ROCport ships are registered at import; `register` (or the `registered` context
manager, for tests) adds another without an edit anywhere else.

`choices` is passed to models as the callable itself: migrations then name `portal.hosts.registry.choices`
instead of copying the list, so adding a host needs no migration (and the function must keep its name)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from portal.hosts import forgejo, gitea, github, gitlab
from portal.hosts.base import GitHost

_HOSTS: dict[str, GitHost] = {}

DEFAULT = github.HOST.id  # CommitStatusConfig's default, and the guess when no host claims a clone URL


def register(host: GitHost) -> GitHost:
    """Add a host; its id must be new, short enough for the provider columns (20) and safe in a URL path."""
    if not host.id or len(host.id) > 20 or not host.id.replace("_", "").replace("-", "").isalnum():
        raise ValueError(f"not a usable host id: {host.id!r}")
    if host.id in _HOSTS:
        raise ValueError(f"a host {host.id!r} is registered already")
    _HOSTS[host.id] = host
    return host


def unregister(host_id: str) -> None:
    _HOSTS.pop(host_id, None)


@contextmanager
def registered(host: GitHost) -> Iterator[GitHost]:
    """A host known for the duration of the block (a test's host), then forgotten."""
    register(host)
    try:
        yield host
    finally:
        unregister(host.id)


def find(host_id: str) -> GitHost | None:
    return _HOSTS.get(host_id)


def get(host_id: str) -> GitHost:
    """The host stored as `host_id`; KeyError for one no longer (or never) registered."""
    return _HOSTS[host_id]


def hosts() -> list[GitHost]:
    """Every registered host, in registration order (the order of the choices)."""
    return list(_HOSTS.values())


def choices() -> list[tuple[str, str]]:
    """(id, product name) of every host: the `choices` of the provider fields and forms."""
    return [(host.id, host.label) for host in _HOSTS.values()]


def guess(hostname: str) -> GitHost:
    """The host a clone URL's host name probably is (the first by `guess_rank` to claim it), else the default."""
    for host in sorted(_HOSTS.values(), key=lambda host: host.guess_rank):
        if host.claims_clone_host(hostname):
            return host
    return _HOSTS[DEFAULT]


def public_api_hosts() -> set[str]:
    """The clone hosts whose API URL is fixed (github.com, gitlab.com)."""
    return {name for host in _HOSTS.values() for name in host.public_api}


for _host in (github.HOST, gitlab.HOST, gitea.HOST, forgejo.HOST):
    register(_host)
