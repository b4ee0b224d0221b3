"""Gitea, as its documentation and source have it:

- webhooks: `X-Gitea-Signature: <HMAC-SHA256 hex of the body>` (no prefix), `X-Gitea-Delivery`,
  `X-Gitea-Event`; it also sends GitHub's headers, which are not read here. A deleted branch is only a `delete`
  event (never a push), with the short ref name (tests/fixtures/webhooks/README.md, "Gitea");
- commit statuses: POST {api}/repos/{owner}/{repo}/statuses/{sha}, `Authorization: token …`, state pending /
  success / error / failure / warning, fields target_url, description, context; 201 Created;
- pull requests: POST {api}/repos/{owner}/{repo}/pulls {head, base, title, body} -> 201 {number, html_url,
  state}; GET .../pulls/{number} -> {state: open|closed, merged: bool}; a duplicate is a 409, and the list of
  open ones cannot be filtered by head; numbered #12. Forgejo (portal.hosts.forgejo) is this with its own
  headers."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from portal.hosts.base import GitHost
from portal.hosts.payloads import Push, field, short_branch


class Gitea(GitHost):
    id = "gitea"
    label = "Gitea"
    setup_text = gettext_lazy(
        "`Settings → Webhooks → Add Webhook → Gitea`. `Target URL`: the URL above; `HTTP method`: `POST`; "
        "`POST content type`: `application/json`; `Secret`: the secret; `Trigger on`: `Push events` "
        "(add `Delete events` so that branch deletions are seen)."
    )

    signature_header = "X-Gitea-Signature"
    delivery_header = "X-Gitea-Delivery"
    event_header = "X-Gitea-Event"
    guess_rank = 40

    def parse_own_event(self, event_lower: str, payload: dict) -> Push | None:
        """`create` and `delete`: a deleted branch is seen only here."""
        if event_lower not in ("create", "delete"):
            return None
        ref = field(payload, "ref")
        if payload.get("ref_type") == "branch" and event_lower == "delete":
            return Push("branch_deleted", branch=short_branch(ref), ref=ref)
        return Push("other", ref=ref)

    def claims_clone_host(self, hostname: str) -> bool:
        return "gitea" in hostname


HOST = Gitea()
