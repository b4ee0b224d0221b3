"""Gitea, as its documentation and source have it:

- webhooks: `X-Gitea-Signature: <HMAC-SHA256 hex of the body>` (no prefix), `X-Gitea-Delivery`,
  `X-Gitea-Event`; it also sends GitHub's headers, which are not read here. A deleted branch is only a `delete`
  event (never a push), with the short ref name (tests/fixtures/webhooks/README.md, "Gitea");
- commit statuses: POST {api}/repos/{owner}/{repo}/statuses/{sha}, `Authorization: token …`, state pending /
  success / error / failure / warning, fields target_url, description, context; 201 Created;
- pull requests: POST {api}/repos/{owner}/{repo}/pulls {head, base, title, body} -> 201 {number, html_url,
  state}; GET .../pulls/{number} -> {state: open|closed, merged: bool}; a duplicate is a 409, and the list of
  open ones cannot be filtered by head; numbered #12;
- reviews and checks: `pull_request_approved` / `_rejected` / `_comment` in `X-Gitea-Event` (the
  `pull_request_review_*` names in `X-Gitea-Event-Type`), with review.type, sender.login, number and
  pull_request.head.ref; `status` (a commit status: sha, state pending / success / error / failure / warning,
  context, target_url), whose `X-Gitea-Event` is empty on versions that predate its name there, so the type
  header is read then (tests/fixtures/webhooks/README.md, "Reviews and checks").
Forgejo (portal.hosts.forgejo) is this with its own headers."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from portal.hosts.base import GitHost
from portal.hosts.payloads import Push, field, nested, request_number, short_branch, status_push

_REVIEWS = (("approved", "approved"), ("rejected", "changes_requested"), ("comment", "commented"))
_STATUSES = {
    "pending": "pending",
    "success": "passing",
    "warning": "passing",
    "skipped": "passing",
    "error": "failing",
    "failure": "failing",
}


class Gitea(GitHost):
    id = "gitea"
    label = "Gitea"
    setup_text = gettext_lazy(
        "`Settings → Webhooks → Add Webhook → Gitea`. `Target URL`: the URL above; `HTTP method`: `POST`; "
        "`POST content type`: `application/json`; `Secret`: the secret; `Trigger on`: `Push events` "
        "(add `Delete events` so that branch deletions are seen; to follow ROCport's merge requests on their page, "
        "choose `Custom events` with those and `Pull Request`, `Pull Request Reviewed` and the commit status event)."
    )

    signature_header = "X-Gitea-Signature"
    delivery_header = "X-Gitea-Delivery"
    event_header = "X-Gitea-Event"
    event_fallbacks = ("X-Gitea-Event-Type",)  # a `status` delivery's X-Gitea-Event is empty on older Gitea
    review_events = (
        "pull_request_approved",
        "pull_request_rejected",
        "pull_request_comment",
        "pull_request_review_approved",
        "pull_request_review_rejected",
        "pull_request_review_comment",
    )
    check_events = ("status",)
    guess_rank = 40

    def parse_own_event(self, event_lower: str, payload: dict) -> Push | None:
        """`create` and `delete`: a deleted branch is seen only here."""
        if event_lower not in ("create", "delete"):
            return None
        ref = field(payload, "ref")
        if payload.get("ref_type") == "branch" and event_lower == "delete":
            return Push("branch_deleted", branch=short_branch(ref), ref=ref)
        return Push("other", ref=ref)

    def review_push(self, event_lower: str, payload: dict) -> Push | None:
        """The review's kind from review.type, else from the event's name; the reviewer is the sender."""
        kind = str(nested(payload, "review").get("type") or event_lower)
        state = next((ours for theirs, ours in _REVIEWS if kind.endswith(theirs)), None)
        if state is None:
            return None
        pull = nested(payload, "pull_request")
        return Push(
            "review",
            branch=field(nested(pull, "head"), "ref"),
            number=request_number(payload.get("number", pull.get("number"))),
            state=state,
            actor=field(nested(payload, "sender"), "login"),
        )

    def check_push(self, event_lower: str, payload: dict) -> Push | None:
        return status_push(payload, _STATUSES)

    def claims_clone_host(self, hostname: str) -> bool:
        return "gitea" in hostname


HOST = Gitea()
