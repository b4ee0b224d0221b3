"""What every host's webhook parsing shares: the Push a delivery comes down to, the verification failure, and
the checks that keep a payload's refs and commits storable. No host id here: hosts subclass `base.GitHost`."""

from __future__ import annotations

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


# What a review or a CI check comes down to, in every host's words (the hosts' modules translate theirs).
REVIEW_STATES = ("approved", "changes_requested", "commented", "dismissed")  # dismissed: withdrawn, forget it
# Where a reviewer stands now, for a host that reports every reviewer's state at once (GitLab): REVIEW_STATES, and
# "unreviewed" (no review given yet, or one asked for again). portal.ports.host_state.apply_standing reads them.
STANDINGS = (*REVIEW_STATES, "unreviewed")
CHECK_STATES = ("passing", "failing", "pending")


@dataclass
class Push:
    """What a delivery asks for. kind: ping | push | branch_deleted | tag | merge_request | review | check | other.
    A review names its reviewer in `actor` and its REVIEW_STATES word in `state`; a check names itself in `actor`,
    its CHECK_STATES word in `state`, the commit in `after`, and `number` when the host says which request it is
    for (0 otherwise: a commit status knows only its commit)."""

    kind: str
    branch: str = ""  # short name, for branch events; a merge request's source branch
    ref: str = ""
    before: str = ""
    after: str = ""  # the commit to scan
    number: int = 0  # a merge request's number on the host (GitLab's iid)
    state: str = ""  # a merge request's state: open | merged | closed; a review's or a check's (see above)
    actor: str = ""  # a review's reviewer, a check's name
    url: str = ""  # a check's page on the host, when it has one
    at: str = ""  # when the host says it happened (ISO 8601 as sent); "" when it does not say
    # (reviewer, STANDINGS word) for every reviewer a merge request or review event lists with a state (GitLab's
    # `reviewers[].state`), besides what `kind` itself says
    reviews: tuple[tuple[str, str], ...] = ()


def load_object(body: bytes, content_type: str) -> dict:
    """The delivery's JSON object (a form-encoded delivery carries it in `payload`). Raises ValueError (or
    UnicodeDecodeError) for a body that is not the JSON object it claims to be."""
    text = body.decode("utf-8")
    if content_type.startswith("application/x-www-form-urlencoded"):
        text = parse_qs(text).get("payload", [""])[0]
    try:
        payload = json.loads(text)
    except RecursionError:  # the C decoder recurses per level: `[[[[...` a few thousand deep
        raise ValueError("the payload is nested too deeply") from None
    if not isinstance(payload, dict):
        raise ValueError("the payload is not a JSON object")
    return payload


def field(payload: dict, key: str) -> str:
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


def nested(payload: dict, *keys: str) -> dict:
    """payload[k1][k2]... as an object; {} where a level is absent or not an object."""
    for key in keys:
        value = payload.get(key)
        payload = value if isinstance(value, dict) else {}
    return payload


def link(payload: dict, key: str) -> str:
    """A URL of the payload, kept only when it is http(s) (it becomes a link on the page)."""
    value = field(payload, key)
    return value if value.startswith(("https://", "http://")) else ""


def status_push(payload: dict, states: dict[str, str]) -> Push | None:
    """A commit status event (GitHub's `status`, Gitea's): sha, state, context, target_url, updated_at. It names
    no pull request: the commit alone says which request it is for. None for a state `states` does not know."""
    state = states.get(str(payload.get("state")))
    if state is None:
        return None
    return Push(
        "check",
        after=field(payload, "sha"),
        state=state,
        actor=field(payload, "context") or "status",
        url=link(payload, "target_url"),
        at=field(payload, "updated_at"),
    )


def short_branch(ref: str) -> str:
    return ref[len("refs/heads/") :] if ref.startswith("refs/heads/") else ref


def request_number(number: object) -> int:
    """A merge request's number as the host sent it, checked: a positive int that fits PostgreSQL's integer."""
    if not isinstance(number, int) or isinstance(number, bool) or not 0 < number < 2**31:
        raise ValueError("the merge request has no number")
    return number
