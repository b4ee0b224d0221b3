"""A stand-in for the commit status APIs of GitHub, GitLab, Gitea and Forgejo, on 127.0.0.1: the real hosts
cannot be reached from here. It implements each endpoint as its host documents it, and checks a request as the
host would:

- GitHub: POST {prefix}/repos/{owner}/{repo}/statuses/{sha}, `Authorization: Bearer <token>`, JSON with state
  (error / failure / pending / success), target_url, description, context; 401 without the token, 422 on a bad
  field or state;
- GitLab: POST {prefix}/projects/{id or url-encoded path}/statuses/{sha}, `PRIVATE-TOKEN: <token>`, state
  (pending / running / success / failed / canceled), name, target_url, description; 401, 400;
- Gitea and Forgejo: POST {prefix}/repos/{owner}/{repo}/statuses/{sha}, `Authorization: token <token>`, state
  (pending / success / error / failure / warning), target_url, description, context; 401, 422.
A status that is accepted gets 201 Created with the status as JSON. Every request is recorded (path, headers,
JSON body, the answer given). `fail_next("500", "drop", ...)` makes the next requests fail: a 500 answer, or the
connection closed without an answer.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tests.portal.servers import serve_http

_STATES = {
    "github": {"error", "failure", "pending", "success"},
    "gitlab": {"pending", "running", "success", "failed", "canceled"},
    "gitea": {"pending", "success", "error", "failure", "warning"},
}
_STATES["forgejo"] = _STATES["gitea"]
_FIELDS = {
    "github": {"state", "target_url", "description", "context"},
    "gitlab": {"state", "ref", "name", "context", "target_url", "description", "coverage", "pipeline_id"},
    "gitea": {"state", "target_url", "description", "context"},
}
_FIELDS["forgejo"] = _FIELDS["gitea"]
_PREFIX = {"github": "", "gitlab": "/api/v4", "gitea": "/api/v1", "forgejo": "/api/v1"}


@dataclass
class Received:
    method: str
    path: str
    headers: dict[str, str]
    body: dict | None
    answer: int | str  # the status sent back, or "drop"


@dataclass
class GitHost:
    provider: str
    token: str
    received: list[Received] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    server: ThreadingHTTPServer | None = None

    @classmethod
    def start(cls, provider: str, token: str) -> GitHost:
        host = cls(provider, token)
        handler = type("Handler", (_Handler,), {"host": host})
        host.server = serve_http(handler)
        return host

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{_PREFIX[self.provider]}"

    def fail_next(self, *modes: str) -> None:
        self.failures.extend(modes)

    def statuses(self) -> list[dict]:
        """The bodies of the statuses accepted (201), in arrival order."""
        return [r.body for r in self.received if r.answer == 201]

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class JsonHandler(BaseHTTPRequestHandler):
    """A JSON API's handler: the request's headers (lower-cased) and JSON body (None when it is not JSON), and
    JSON answers with a length (keep-alive, as the hosts answer)."""

    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:
        pass

    def read_json(self) -> tuple[dict[str, str], object]:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        headers = {name.lower(): value for name, value in self.headers.items()}
        try:
            return headers, (json.loads(raw) if raw else None)
        except ValueError:
            return headers, None

    def _answer(self, status: int, payload) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class _Handler(JsonHandler):
    host: GitHost

    def do_POST(self) -> None:
        host = self.host
        headers, body = self.read_json()
        record = Received("POST", self.path, headers, body, 0)
        host.received.append(record)
        if host.failures:
            mode = host.failures.pop(0)
            if mode == "drop":
                record.answer = "drop"
                self.close_connection = True  # no status line at all: the client sees the connection close
                return
            record.answer = int(mode)
            return self._answer(int(mode), {"message": "Server Error"})
        status, payload = self._handle(headers, body)
        record.answer = status
        self._answer(status, payload)

    def do_GET(self) -> None:
        self._answer(405, {"message": "Method Not Allowed"})

    def _handle(self, headers: dict[str, str], body) -> tuple[int, dict]:
        provider = self.host.provider
        prefix = re.escape(_PREFIX[provider])
        if provider == "gitlab":
            match = re.fullmatch(prefix + r"/projects/(?P<project>[^/]+)/statuses/(?P<sha>[0-9a-f]{40})", self.path)
        else:
            match = re.fullmatch(
                prefix + r"/repos/(?P<owner>[^/]+)/(?P<repo>[^/]+)/statuses/(?P<sha>[0-9a-f]{40})", self.path
            )
        if match is None:
            return 404, {"message": "Not Found"}
        expected = {
            "github": ("authorization", f"Bearer {self.host.token}"),
            "gitlab": ("private-token", self.host.token),
        }.get(provider, ("authorization", f"token {self.host.token}"))
        if headers.get(expected[0]) != expected[1]:
            return 401, {"message": "Bad credentials" if provider == "github" else "401 Unauthorized"}
        invalid = 400 if provider == "gitlab" else 422
        if not headers.get("content-type", "").startswith("application/json") or not isinstance(body, dict):
            return invalid, {"message": "Problems parsing JSON"}
        if set(body) - _FIELDS[provider] or body.get("state") not in _STATES[provider]:
            return invalid, {"message": "Validation Failed"}
        status = {"id": len(self.host.received), "sha": match.group("sha"), **body}
        if provider == "gitlab":
            status["status"] = status.pop("state")
        return 201, status
