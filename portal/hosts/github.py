"""GitHub (github.com and GitHub Enterprise), as its documentation has it:

- webhooks: `X-Hub-Signature-256: sha256=<HMAC-SHA256 hex of the body>`, `X-GitHub-Delivery`, `X-GitHub-Event`
  (tests/fixtures/webhooks/README.md, "GitHub");
- commit statuses: POST {api}/repos/{owner}/{repo}/statuses/{sha}, `Authorization: Bearer`, state pending /
  success / failure / error, fields target_url, description, context; 201 Created;
- pull requests: POST {api}/repos/{owner}/{repo}/pulls {title, head, base, body} -> 201 {number, html_url,
  state}; GET .../pulls/{number} -> {state: open|closed, merged: bool}; a duplicate is a 422, and the open one is
  GET .../pulls?head=owner:branch&state=open; numbered #12;
- reviews and checks: `pull_request_review` (review.state approved / changes_requested / commented, or action
  dismissed; review.user.login, review.submitted_at; pull_request.number and .head.ref), `check_suite` and
  `check_run` (status queued / in_progress / completed with a conclusion; head_sha, check_suite.head_branch, the
  pull_requests they belong to) and `status` (a commit status: sha, state, context, target_url)
  (tests/fixtures/webhooks/README.md, "Reviews and checks")."""

from __future__ import annotations

from urllib.parse import quote

from django.utils.translation import gettext_lazy

from portal.hosts.base import GitHost
from portal.hosts.payloads import REVIEW_STATES, Push, field, link, nested, request_number, status_push

# A completed check's conclusion; anything else (stale, none yet) is still pending.
_CONCLUSIONS = {
    "success": "passing",
    "neutral": "passing",
    "skipped": "passing",
    "failure": "failing",
    "timed_out": "failing",
    "cancelled": "failing",
    "action_required": "failing",
    "startup_failure": "failing",
}
_STATUSES = {"pending": "pending", "success": "passing", "failure": "failing", "error": "failing"}


class GitHub(GitHost):
    id = "github"
    label = "GitHub"
    setup_text = gettext_lazy(
        "`Settings → Webhooks → Add webhook`. `Payload URL`: the URL above; `Content type`: "
        "`application/json`; `Secret`: the secret; events: `Just the push event` (to follow ROCport's merge "
        "requests on their page: `Let me select individual events` with `Pushes`, `Pull requests`, `Pull request "
        "reviews`, `Check suites`, `Check runs` and `Statuses`)."
    )

    signature_header = "X-Hub-Signature-256"
    signature_prefix = "sha256="
    delivery_header = "X-GitHub-Delivery"
    event_header = "X-GitHub-Event"
    review_events = ("pull_request_review",)
    check_events = ("check_suite", "check_run", "status")

    duplicate_status = 422
    public_api = {"github.com": "https://api.github.com"}
    api_without_host = "https://api.github.com"
    api_path = "/api/v3"  # GitHub Enterprise
    guess_rank = 10

    def review_push(self, event_lower: str, payload: dict) -> Push | None:
        review, pull = nested(payload, "review"), nested(payload, "pull_request")
        state = "dismissed" if payload.get("action") == "dismissed" else str(review.get("state", "")).lower()
        if state not in REVIEW_STATES:
            return None
        return Push(
            "review",
            branch=field(nested(pull, "head"), "ref"),
            number=request_number(pull.get("number", payload.get("number"))),
            state=state,
            actor=field(nested(review, "user"), "login"),
            at=field(review, "submitted_at"),
        )

    def check_push(self, event_lower: str, payload: dict) -> Push | None:
        if event_lower == "status":
            return status_push(payload, _STATUSES)
        check = nested(payload, event_lower)  # check_suite / check_run
        run = event_lower == "check_run"
        branch = field(nested(check, "check_suite") if run else check, "head_branch")
        pulls = check.get("pull_requests") if isinstance(check.get("pull_requests"), list) else []
        numbers = [p.get("number") for p in pulls if isinstance(p, dict) and field(nested(p, "head"), "ref") == branch]
        completed = check.get("status") == "completed"
        name = field(check, "name") if run else field(nested(check, "app"), "name")  # the suite's: its app
        return Push(
            "check",
            branch=branch,
            number=request_number(numbers[0]) if numbers else 0,
            after=field(check, "head_sha"),
            state=_CONCLUSIONS.get(str(check.get("conclusion")), "pending") if completed else "pending",
            actor=name or event_lower.replace("_", " "),
            url=link(check, "html_url") if run else "",
            at=(field(check, "completed_at") or field(check, "started_at")) if run else field(check, "updated_at"),
        )

    def auth_header(self, token: str) -> tuple[str, str]:
        return "Authorization", f"Bearer {token}"

    def api_headers(self, token: str) -> dict[str, str]:
        headers = super().api_headers(token)
        headers["Accept"] = "application/vnd.github+json"
        headers["X-GitHub-Api-Version"] = "2022-11-28"
        return headers

    def open_requests_query(self, project: str, branch: str) -> str:
        owner = project.strip().strip("/").split("/")[0]
        return f"?head={quote(f'{owner}:{branch}', safe='')}&state=open"

    def claims_clone_host(self, hostname: str) -> bool:
        return hostname == "github.com" or hostname.startswith("github.")


HOST = GitHub()
