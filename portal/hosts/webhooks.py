"""A delivery to the webhook endpoint of a host, by the host's id (the endpoint's, never guessed from the
headers: Gitea and Forgejo also send GitHub's `X-GitHub-Event` and `X-Hub-Signature-256`, so the host's own
headers decide). What each host sends is its module's; this only looks the host up."""

from __future__ import annotations

from portal.hosts import registry
from portal.hosts.payloads import MAX_REF, ZERO, Push, VerificationFailed

__all__ = ["MAX_REF", "ZERO", "Push", "VerificationFailed", "delivery_id", "event_name", "known", "parse", "verify"]


def known(provider: str) -> bool:
    return registry.find(provider) is not None


def verify(provider: str, headers, body: bytes, secrets: list[str]) -> None:
    """Raise VerificationFailed unless the body was signed (or the token sent) with one of `secrets`."""
    registry.get(provider).verify(headers, body, secrets)


def delivery_id(provider: str, headers, body: bytes) -> str:
    return registry.get(provider).delivery_id(headers, body)


def event_name(provider: str, headers) -> str:
    return registry.get(provider).event_name(headers)


def parse(provider: str, event: str, body: bytes, content_type: str) -> Push:
    """Classify a verified delivery; ValueError for a body that is not the JSON it claims to be or holds text
    that cannot be stored."""
    return registry.get(provider).parse(event, body, content_type)
