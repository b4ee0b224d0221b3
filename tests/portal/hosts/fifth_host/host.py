"""TinyForge, a made-up git host unlike the four real ones in every detail a host module decides:

- webhooks: `X-Tinyforge-Signature: hmac-sha256=<hex>` over the body, `X-Tinyforge-Delivery`,
  `X-Tinyforge-Event` (`push`, `hello` for the ping);
- commit statuses: POST {api}/projects/{owner}/{repo}/commits/{sha}/checks, `X-Tinyforge-Key: <token>`, states
  running / passed / failed / broken, the label in `check`;
- change requests: POST {api}/projects/{owner}/{repo}/changes {from, into, title, text} -> 201 {id, web}, written
  ~12; a duplicate is a 409 and GET ...?from=<branch> finds the open one.
This module is all a fifth host needs; tests/portal/hosts/test_host_plugins.py registers it for a test's duration."""

from __future__ import annotations

from urllib.parse import quote

from portal.hosts.base import PING_EVENTS, GitHost


class TinyForge(GitHost):
    id = "tinyforge"
    label = "TinyForge"
    setup_text = "`Project → Hooks → New hook`. `Endpoint`: the URL above; `Signing key`: the secret."

    signature_header = "X-Tinyforge-Signature"
    signature_prefix = "hmac-sha256="
    delivery_header = "X-Tinyforge-Delivery"
    event_header = "X-Tinyforge-Event"
    ping_events = (*PING_EVENTS, "hello")

    status_path = "/projects/{project}/commits/{sha}/checks"
    status_states = {"pending": "running", "success": "passed", "failure": "failed", "error": "broken"}
    status_name_field = "check"

    requests_path = "/projects/{project}/changes"
    number_field = "id"
    url_field = "web"
    number_sign = "~"

    api_path = "/api/tiny"
    guess_rank = 50

    def auth_header(self, token: str) -> tuple[str, str]:
        return "X-Tinyforge-Key", token

    def create_request_payload(self, *, branch: str, target: str, title: str, body: str) -> dict:
        return {"from": branch, "into": target, "title": title, "text": body}

    def open_requests_query(self, project: str, branch: str) -> str:
        return f"?from={quote(branch, safe='')}"

    def source_branch(self, answer: dict) -> object:
        return answer.get("from")

    def request_state(self, answer: dict) -> str:
        return {"landed": "merged", "open": "open"}.get(str(answer.get("status")), "closed")

    def claims_clone_host(self, hostname: str) -> bool:
        return "tinyforge" in hostname
