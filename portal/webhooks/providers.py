"""What each git host sends: how to verify it, where its delivery id and event are, and what a push means.

The provider is the endpoint's, never guessed from the headers: Gitea and Forgejo also send GitHub's headers
(`X-GitHub-Event`, `X-Hub-Signature-256`), so the provider-specific ones decide.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from urllib.parse import parse_qs

ZERO = "0" * 40
MAX_REF = 500  # WebhookDelivery.ref


class VerificationFailed(Exception):
    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status = status  # 401: nothing to check; 403: checked and wrong
        self.reason = reason


@dataclass(frozen=True)
class ProviderSpec:
    signature_header: str
    delivery_header: str
    event_header: str
    token: bool = False  # GitLab: a shared token in clear, not a signature
    signature_prefix: str = ""


SPECS = {
    "github": ProviderSpec("X-Hub-Signature-256", "X-GitHub-Delivery", "X-GitHub-Event", signature_prefix="sha256="),
    "gitea": ProviderSpec("X-Gitea-Signature", "X-Gitea-Delivery", "X-Gitea-Event"),
    "forgejo": ProviderSpec("X-Forgejo-Signature", "X-Forgejo-Delivery", "X-Forgejo-Event"),
    "gitlab": ProviderSpec("X-Gitlab-Token", "Idempotency-Key", "X-Gitlab-Event", token=True),
}


def verify(provider: str, headers, body: bytes, secrets: list[str]) -> None:
    """Raise VerificationFailed unless the body was signed (or the token sent) with one of `secrets`."""
    spec = SPECS[provider]
    sent = headers.get(spec.signature_header, "")
    if not sent:
        raise VerificationFailed(401, f"missing {spec.signature_header}")
    for secret in secrets:
        if spec.token:
            expected = secret
        else:
            expected = spec.signature_prefix + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
        if hmac.compare_digest(sent.encode(), expected.encode()):
            return
    raise VerificationFailed(403, f"bad {spec.signature_header}")


def delivery_id(provider: str, headers, body: bytes) -> str:
    """The provider's delivery id; GitLab before 17.4 has no Idempotency-Key: fall back to its event UUID, and
    to a hash of the body as a last resort (a retry of the same bytes is then the same delivery)."""
    spec = SPECS[provider]
    value = headers.get(spec.delivery_header, "")
    if not value and provider == "gitlab":
        value = headers.get("X-Gitlab-Event-UUID", "")
    if not value and provider == "forgejo":
        value = headers.get("X-Gitea-Delivery", "")
    return value[:200] or "sha256:" + hashlib.sha256(body).hexdigest()


def event_name(provider: str, headers) -> str:
    spec = SPECS[provider]
    value = headers.get(spec.event_header, "")
    if not value and provider == "forgejo":
        value = headers.get("X-Gitea-Event", "")
    return value[:100]


@dataclass
class Push:
    """What a delivery asks for. kind: ping | push | branch_deleted | tag | merge_request | other."""

    kind: str
    branch: str = ""  # short name, for branch events; a merge request's source branch
    ref: str = ""
    before: str = ""
    after: str = ""  # the commit to scan
    number: int = 0  # a merge request's number on the host (GitLab's iid)
    state: str = ""  # a merge request's state: open | merged | closed


def parse(provider: str, event: str, body: bytes, content_type: str) -> Push:
    """Classify a verified delivery. Raises ValueError for a body that is not the JSON it claims to be, or whose
    ref and commits are not text that can be stored (a NUL, a lone surrogate, a ref past MAX_REF)."""
    text = body.decode("utf-8")
    if content_type.startswith("application/x-www-form-urlencoded"):
        text = parse_qs(text).get("payload", [""])[0]
    try:
        payload = json.loads(text)
    except RecursionError:  # the C decoder recurses per level: `[[[[...` a few thousand deep
        raise ValueError("the payload is nested too deeply") from None
    if not isinstance(payload, dict):
        raise ValueError("the payload is not a JSON object")
    event_lower = event.lower()
    if event_lower in ("ping", "system hook") or (provider == "gitlab" and event_lower == "test hook"):
        return Push("ping")
    if provider in ("gitea", "forgejo") and event_lower in ("create", "delete"):
        ref = _field(payload, "ref")
        if payload.get("ref_type") == "branch" and event_lower == "delete":
            return Push("branch_deleted", branch=_short(ref), ref=ref)
        return Push("other", ref=ref)
    if event_lower in ("pull_request", "merge request hook"):
        return _merge_request(provider, payload)
    is_push = event_lower in ("push", "push hook", "tag push hook")
    if not is_push:
        return Push("other")
    ref = _field(payload, "ref")
    before, after = _field(payload, "before"), _field(payload, "after")
    if ref.startswith("refs/tags/") or event_lower == "tag push hook":
        return Push("tag", ref=ref, before=before, after=after)
    if not ref.startswith("refs/heads/"):
        return Push("other", ref=ref)
    branch = ref[len("refs/heads/") :]
    if after == ZERO or payload.get("deleted") is True:
        return Push("branch_deleted", branch=branch, ref=ref, before=before, after=after)
    if provider == "gitlab" and payload.get("checkout_sha"):
        after = _field(payload, "checkout_sha")
    return Push("push", branch=branch, ref=ref, before=before, after=after)


def _merge_request(provider: str, payload: dict) -> Push:
    """A pull request event (GitHub, Gitea, Forgejo: `pull_request` with action, number, pull_request.state,
    .merged, .head.ref) or a GitLab "Merge Request Hook" (object_attributes.iid, .state, .source_branch)."""
    if provider == "gitlab":
        attributes = payload.get("object_attributes")
        if not isinstance(attributes, dict):
            raise ValueError("'object_attributes' is not an object")
        number, branch = attributes.get("iid"), _field(attributes, "source_branch")
        state = {"opened": "open", "locked": "open", "merged": "merged", "closed": "closed"}.get(
            str(attributes.get("state")), ""
        )
    else:
        pull = payload.get("pull_request")
        if not isinstance(pull, dict):
            raise ValueError("'pull_request' is not an object")
        head = pull.get("head") if isinstance(pull.get("head"), dict) else {}
        number, branch = pull.get("number", payload.get("number")), _field(head, "ref")
        if pull.get("merged") is True:
            state = "merged"
        else:
            state = {"open": "open", "closed": "closed"}.get(str(pull.get("state")), "")
    if not isinstance(number, int) or isinstance(number, bool) or not 0 < number < 2**31:
        raise ValueError("the merge request has no number")
    return Push("merge_request", branch=branch, number=number, state=state)


def _field(payload: dict, key: str) -> str:
    """A ref or commit of the payload as text PostgreSQL can store; absent or null is ""."""
    value = payload.get(key)
    if value is None or value == "":
        return ""
    if not isinstance(value, str):
        raise ValueError(f"'{key}' is not a string")
    if "\x00" in value:
        raise ValueError(f"'{key}' contains a NUL character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate, which json.loads lets through from a \ud800 escape
        raise ValueError(f"'{key}' is not valid Unicode") from None
    if len(value) > MAX_REF:
        raise ValueError(f"'{key}' is longer than {MAX_REF} characters")
    return value


def _short(ref: str) -> str:
    return ref[len("refs/heads/") :] if ref.startswith("refs/heads/") else ref
