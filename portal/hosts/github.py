"""GitHub (github.com and GitHub Enterprise), as its documentation has it:

- webhooks: `X-Hub-Signature-256: sha256=<HMAC-SHA256 hex of the body>`, `X-GitHub-Delivery`, `X-GitHub-Event`
  (tests/fixtures/webhooks/README.md, "GitHub");
- commit statuses: POST {api}/repos/{owner}/{repo}/statuses/{sha}, `Authorization: Bearer`, state pending /
  success / failure / error, fields target_url, description, context; 201 Created;
- pull requests: POST {api}/repos/{owner}/{repo}/pulls {title, head, base, body} -> 201 {number, html_url,
  state}; GET .../pulls/{number} -> {state: open|closed, merged: bool}; a duplicate is a 422, and the open one is
  GET .../pulls?head=owner:branch&state=open; numbered #12."""

from __future__ import annotations

from urllib.parse import quote

from django.utils.translation import gettext_lazy

from portal.hosts.base import GitHost


class GitHub(GitHost):
    id = "github"
    label = "GitHub"
    setup_text = gettext_lazy(
        "`Settings → Webhooks → Add webhook`. `Payload URL`: the URL above; `Content type`: "
        "`application/json`; `Secret`: the secret; events: `Just the push event`."
    )

    signature_header = "X-Hub-Signature-256"
    signature_prefix = "sha256="
    delivery_header = "X-GitHub-Delivery"
    event_header = "X-GitHub-Event"

    duplicate_status = 422
    public_api = {"github.com": "https://api.github.com"}
    api_without_host = "https://api.github.com"
    api_path = "/api/v3"  # GitHub Enterprise
    guess_rank = 10

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
