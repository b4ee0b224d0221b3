"""GitLab (gitlab.com and self-managed), as its documentation has it:

- webhooks: the secret token in clear in `X-Gitlab-Token` (no signature), `Idempotency-Key` (17.4+; before it
  `X-Gitlab-Event-UUID`), `X-Gitlab-Event` ("Push Hook", "Tag Push Hook", "Merge Request Hook", "Test Hook");
  the commit to scan is `checkout_sha` (tests/fixtures/webhooks/README.md, "GitLab");
- commit statuses: POST {api}/projects/{id or url-encoded path}/statuses/{sha}, `PRIVATE-TOKEN`, state pending /
  running / success / failed / canceled (no "error": a failed scan is a failed status), fields name, target_url,
  description; 201 Created;
- merge requests: POST {api}/projects/{id}/merge_requests {source_branch, target_branch, title, description,
  remove_source_branch} -> 201 {iid, web_url, state}; GET .../merge_requests/{iid} -> {state: opened|closed|
  locked|merged}; a duplicate is a 409, and the open one is GET ...?source_branch=&state=opened; numbered !12;
- reviews and checks: a "Merge Request Hook" whose object_attributes.action is approved / approval (an approval
  by `user`) or unapproved / unapproval (withdrawn), a "Note Hook" on a merge request (a comment; system notes
  left out), and a "Pipeline Hook" (object_attributes.status, .sha, .ref, .url; merge_request.iid and
  .source_branch for a merge request's pipeline); and every Merge Request Hook's `reviewers[]`, each with its
  `state` (GitLab 18.6+, docs "Reviewer state tracking": unreviewed, review_started, reviewed,
  requested_changes, approved, unapproved), where a "Request changes" review shows, dated object_attributes
  .actioned_at (18.10+) or .updated_at (tests/fixtures/webhooks/README.md, "Reviews and checks")."""

from __future__ import annotations

from urllib.parse import quote

from django.utils.translation import gettext_lazy

from portal.hosts.base import PING_EVENTS, GitHost
from portal.hosts.payloads import Push, field, link, nested, request_number

_STATES = {"opened": "open", "locked": "open", "merged": "merged", "closed": "closed"}
_APPROVALS = {"approved": "approved", "approval": "approved", "unapproved": "dismissed", "unapproval": "dismissed"}
# A reviewer's `state` in our words (payloads.STANDINGS): "reviewed" is a review that neither approves nor asks for
# changes; "unapproved" an approval taken back; "review_started" a review not submitted yet.
_REVIEWERS = {
    "approved": "approved",
    "requested_changes": "changes_requested",
    "reviewed": "commented",
    "unapproved": "dismissed",
    "unreviewed": "unreviewed",
    "review_started": "unreviewed",
}
# A pipeline's status; the rest (created, waiting_for_resource, preparing, pending, running, manual, scheduled)
# is still pending.
_PIPELINES = {"success": "passing", "skipped": "passing", "failed": "failing", "canceled": "failing"}


class GitLab(GitHost):
    id = "gitlab"
    label = "GitLab"
    setup_text = gettext_lazy(
        "`Settings → Webhooks → Add new webhook`. `URL`: the URL above; `Secret token`: the secret; "
        "`Trigger`: `Push events` (and `Tag push events` if you like; to follow ROCport's merge requests on their "
        "page, also `Merge request events`, `Comments` and `Pipeline events`)."
    )

    signature_header = "X-Gitlab-Token"
    delivery_header = "Idempotency-Key"
    delivery_fallbacks = ("X-Gitlab-Event-UUID",)  # GitLab before 17.4
    event_header = "X-Gitlab-Event"
    ping_events = (*PING_EVENTS, "test hook")
    review_events = ("merge request hook", "note hook")
    check_events = ("pipeline hook",)

    status_path = "/projects/{project}/statuses/{sha}"
    status_states = {"pending": "pending", "success": "success", "failure": "failed", "error": "failed"}
    status_name_field = "name"

    requests_path = "/projects/{project}/merge_requests"
    number_field = "iid"
    url_field = "web_url"
    number_sign = "!"

    public_api = {"gitlab.com": "https://gitlab.com/api/v4"}
    api_without_host = "https://gitlab.com/api/v4"
    api_path = "/api/v4"
    guess_rank = 20

    def expected_signature(self, secret: str, body: bytes) -> str:
        return secret  # a shared token, not a signature

    def merge_request_fields(self, payload: dict) -> tuple[object, str, str]:
        """A "Merge Request Hook": object_attributes.iid, .state, .source_branch."""
        attributes = payload.get("object_attributes")
        if not isinstance(attributes, dict):
            raise ValueError("'object_attributes' is not an object")
        number, branch = attributes.get("iid"), field(attributes, "source_branch")
        return number, branch, _STATES.get(str(attributes.get("state")), "")

    def review_push(self, event_lower: str, payload: dict) -> Push | None:
        attributes, actor = nested(payload, "object_attributes"), field(nested(payload, "user"), "username")
        if event_lower == "note hook":
            if attributes.get("noteable_type") != "MergeRequest" or attributes.get("system") is True:
                return None
            request = nested(payload, "merge_request")
            return Push(
                "review",
                branch=field(request, "source_branch"),
                number=request_number(request.get("iid")),
                state="commented",
                actor=actor,
                at=field(attributes, "created_at"),
            )
        state = _APPROVALS.get(str(attributes.get("action")))
        if state is None:
            return None  # any other merge request event: its state, read by merge_request_fields
        reviews, at = self.reviewer_states(payload)
        return Push(
            "review",
            branch=field(attributes, "source_branch"),
            number=request_number(attributes.get("iid")),
            state=state,
            actor=actor,
            at=at or field(attributes, "updated_at"),
            reviews=reviews,
        )

    def reviewer_states(self, payload: dict) -> tuple[tuple[tuple[str, str], ...], str]:
        """`reviewers[]` with a `state` GitLab documents (an older GitLab sends none: nothing is read)."""
        reviewers = payload.get("reviewers")
        if not isinstance(reviewers, list):
            return (), ""
        pairs = []
        for reviewer in reviewers:
            standing = _REVIEWERS.get(str(reviewer.get("state"))) if isinstance(reviewer, dict) else None
            name = field(reviewer, "username") if standing else ""
            if name:
                pairs.append((name, standing))
        if not pairs:
            return (), ""
        attributes = nested(payload, "object_attributes")
        return tuple(pairs), field(attributes, "actioned_at") or field(attributes, "updated_at")

    def check_push(self, event_lower: str, payload: dict) -> Push | None:
        attributes, request = nested(payload, "object_attributes"), nested(payload, "merge_request")
        return Push(
            "check",
            branch=field(request, "source_branch") or field(attributes, "ref"),
            number=request_number(request.get("iid")) if request else 0,
            after=field(attributes, "sha"),
            state=_PIPELINES.get(str(attributes.get("status")), "pending"),
            actor=field(attributes, "name") or "pipeline",
            url=link(attributes, "url"),
            at=field(attributes, "finished_at") or field(attributes, "created_at"),
        )

    def commit_to_scan(self, payload: dict, after: str) -> str:
        return field(payload, "checkout_sha") if payload.get("checkout_sha") else after

    def auth_header(self, token: str) -> tuple[str, str]:
        return "PRIVATE-TOKEN", token

    def project_path(self, project: str) -> str:
        """A numeric id, or the full path url-encoded as one segment."""
        return quote(project.strip().strip("/"), safe="")

    def create_request_payload(self, *, branch: str, target: str, title: str, body: str) -> dict:
        return {
            "source_branch": branch,
            "target_branch": target,
            "title": title,
            "description": body,
            "remove_source_branch": True,
        }

    def open_requests_query(self, project: str, branch: str) -> str:
        return f"?source_branch={quote(branch, safe='')}&state=opened"

    def source_branch(self, answer: dict) -> object:
        return answer.get("source_branch")

    def request_state(self, answer: dict) -> str:
        return {"opened": "open", "locked": "open", "merged": "merged"}.get(str(answer.get("state", "")), "closed")

    def claims_clone_host(self, hostname: str) -> bool:
        return "gitlab" in hostname

    def project_from_path(self, parts: list[str]) -> str:
        return "/".join(parts)  # group/subgroup/project

    def valid_project(self, project: str) -> bool:
        return project.isdigit() or (project.count("/") >= 1 and "//" not in project)


HOST = GitLab()
