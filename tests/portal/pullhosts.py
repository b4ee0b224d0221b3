"""A stand-in for the pull request / merge request APIs of GitHub, GitLab, Gitea and Forgejo, on 127.0.0.1 (the
commit status APIs are tests/portal/githosts.py). Each endpoint is implemented as its host documents it and a
request is checked as the host would check it:

- GitHub: POST {prefix}/repos/{owner}/{repo}/pulls, `Authorization: Bearer <token>`, JSON with title, head, base
  (required), head_repo, body, maintainer_can_modify, draft, issue -> 201 {number, html_url, state: "open"};
  422 "A pull request already exists" for a second open one with the same head, 422 when head or base is not a
  branch of the repository; GET .../pulls/{number} -> {state: open|closed, merged, merged_at};
- GitLab (prefix /api/v4): POST /projects/{id or url-encoded path}/merge_requests, `PRIVATE-TOKEN: <token>`,
  source_branch, target_branch, title (required), description, remove_source_branch, squash, ... -> 201 {iid,
  web_url, state: "opened"}; 409 when an open one exists for the source branch; GET .../merge_requests/{iid}
  -> {state: opened|closed|merged};
- Gitea and Forgejo (prefix /api/v1): as GitHub, with `Authorization: token <token>`, the CreatePullRequestOption
  fields (head, base, title, body, assignee(s), labels, milestone, due_date, reviewers, team_reviewers), and 409
  for a duplicate.
All: 401 for a wrong token, 403 for a token in `read_only`, 404 for an unknown project, 422 (GitLab: 400) for a
field the host does not document or of the wrong type (stricter than GitLab, which ignores unknown parameters:
here a misspelt field fails the test). Every request is recorded; `fail_next("500", "drop")` makes the next
requests fail with a 500 answer or a connection closed without one, or ("lost") handled but the connection
closed before the answer; `set_state(number, "merged"|"closed")`. GET on the collection lists the open ones
(GitHub filtered by head=owner:branch, GitLab by source_branch; Gitea/Forgejo unfiltered).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import ThreadingHTTPServer
from urllib.parse import parse_qsl, unquote

from tests.portal.githosts import JsonHandler, Received
from tests.portal.servers import serve_http

_PREFIX = {"github": "", "gitlab": "/api/v4", "gitea": "/api/v1", "forgejo": "/api/v1"}
_STR, _BOOL, _INT, _LIST = str, bool, int, list
# The documented request fields and their JSON types; the first ones of each host are required.
_FIELDS = {
    "github": {
        "title": _STR,
        "head": _STR,
        "base": _STR,
        "head_repo": _STR,
        "body": _STR,
        "maintainer_can_modify": _BOOL,
        "draft": _BOOL,
        "issue": _INT,
    },
    "gitlab": {
        "source_branch": _STR,
        "target_branch": _STR,
        "title": _STR,
        "allow_collaboration": _BOOL,
        "allow_maintainer_to_push": _BOOL,
        "approvals_before_merge": _INT,
        "assignee_id": _INT,
        "assignee_ids": _LIST,
        "description": _STR,
        "labels": (_STR, _LIST),
        "merge_after": _STR,
        "milestone_id": _INT,
        "remove_source_branch": _BOOL,
        "reviewer_ids": _LIST,
        "squash": _BOOL,
        "target_project_id": _INT,
    },
    "gitea": {
        "head": _STR,
        "base": _STR,
        "title": _STR,
        "body": _STR,
        "assignee": _STR,
        "assignees": _LIST,
        "labels": _LIST,
        "milestone": _INT,
        "due_date": _STR,
        "reviewers": _LIST,
        "team_reviewers": _LIST,
    },
}
_FIELDS["forgejo"] = _FIELDS["gitea"]
_REQUIRED = {"github": ("head", "base"), "gitlab": ("source_branch", "target_branch", "title")}
_REQUIRED["gitea"] = _REQUIRED["forgejo"] = ("head", "base", "title")


@dataclass
class Pull:
    number: int
    head: str
    base: str
    title: str
    body: str
    state: str = "open"  # open / closed / merged


@dataclass
class PullHost:
    provider: str
    token: str
    project: str  # owner/repo; on GitLab the full path (the numeric `project_id` is accepted too)
    branch_exists: Callable[[str], bool] = lambda name: True
    read_only: set[str] = field(default_factory=set)  # tokens that may read but not open a pull request
    project_id: int = 42
    received: list[Received] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    pulls: dict[int, Pull] = field(default_factory=dict)
    server: ThreadingHTTPServer | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def start(cls, provider: str, token: str, project: str, **kwargs) -> PullHost:
        host = cls(provider, token, project, **kwargs)
        handler = type("Handler", (_Handler,), {"host": host})
        host.server = serve_http(handler)  # polls every 0.05 s: a quick stop()
        return host

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{_PREFIX[self.provider]}"

    @property
    def web(self) -> str:
        return f"https://{self.provider}.example.test/{self.project}"

    def fail_next(self, *modes: str) -> None:
        self.failures.extend(modes)

    def set_state(self, number: int, state: str) -> None:
        assert state in ("open", "merged", "closed")
        self.pulls[number].state = state

    def posts(self) -> list[Received]:
        return [r for r in self.received if r.method == "POST"]

    def opened(self) -> list[Received]:
        """The POSTs that opened a pull request (201), in arrival order."""
        return [r for r in self.posts() if r.answer == 201]

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    # -- the endpoints ---------------------------------------------------------------------------------------
    def route(self, method: str, path: str, headers: dict[str, str], body) -> tuple[int, dict]:
        prefix = re.escape(_PREFIX[self.provider])
        if self.provider == "gitlab":
            pattern = prefix + r"/projects/(?P<project>[^/]+)/merge_requests(?:/(?P<number>[0-9]+))?"
        else:
            pattern = prefix + r"/repos/(?P<owner>[^/]+)/(?P<repo>[^/]+)/pulls(?:/(?P<number>[0-9]+))?"
        match = re.fullmatch(pattern, path.partition("?")[0])
        if match is None:
            return 404, {"message": "Not Found"}
        name, value = {
            "github": ("authorization", f"Bearer {self.token}"),
            "gitlab": ("private-token", self.token),
        }.get(self.provider, ("authorization", f"token {self.token}"))
        given = headers.get(name, "")
        read_only = {value.replace(self.token, t) for t in self.read_only}
        if given != value and given not in read_only:
            return 401, {"message": "Bad credentials" if self.provider == "github" else "401 Unauthorized"}
        if self.provider == "gitlab":
            project = unquote(match.group("project"))
            known = project in (self.project, str(self.project_id))
        else:
            known = f"{unquote(match.group('owner'))}/{unquote(match.group('repo'))}" == self.project
        if not known:
            return 404, {"message": "404 Project Not Found" if self.provider == "gitlab" else "Not Found"}
        number = match.group("number")
        if method == "GET":
            return self._get(int(number)) if number else self._list(path.partition("?")[2])
        if method != "POST" or number:
            return 405, {"message": "Method Not Allowed"}
        if given in read_only:
            return 403, {"message": "Resource not accessible by personal access token"}
        return self._create(headers, body)

    def _create(self, headers: dict[str, str], body) -> tuple[int, dict]:
        provider = self.provider
        invalid = 400 if provider == "gitlab" else 422
        if not headers.get("content-type", "").startswith("application/json") or not isinstance(body, dict):
            return invalid, {"message": "Problems parsing JSON"}
        fields = _FIELDS[provider]
        unknown = sorted(set(body) - set(fields))
        if unknown:
            return invalid, {"message": "Validation Failed", "errors": [f"unknown field {n}" for n in unknown]}
        wrong = sorted(
            n for n, v in body.items() if not isinstance(v, fields[n]) or (fields[n] is _INT and isinstance(v, bool))
        )
        missing = [n for n in _REQUIRED[provider] if not body.get(n)]
        if provider == "github" and not body.get("title") and "issue" not in body:
            missing.append("title")
        if wrong or missing:
            errors = [f"{n} is missing" for n in missing] + [f"{n} is invalid" for n in wrong]
            return invalid, {"message": "Validation Failed", "errors": errors}
        head, base = (
            (body["source_branch"], body["target_branch"]) if provider == "gitlab" else (body["head"], body["base"])
        )
        for branch, name in ((head, "head"), (base, "base")):
            if not self.branch_exists(branch):
                return 422, {"message": "Validation Failed", "errors": [{"field": name, "code": "invalid"}]}
        with self.lock:
            duplicate = next((p for p in self.pulls.values() if p.head == head and p.state == "open"), None)
            if duplicate is not None:
                if provider == "github":
                    return 422, {
                        "message": "Validation Failed",
                        "errors": [
                            {
                                "resource": "PullRequest",
                                "code": "custom",
                                "message": f"A pull request already exists for {head}.",
                            }
                        ],
                    }
                if provider == "gitlab":
                    return 409, {
                        "message": [
                            f"Another open merge request already exists for this source branch: !{duplicate.number}"
                        ]
                    }
                return 409, {"message": f"pull request already exists for these targets [id: {duplicate.number}]"}
            pull = Pull(
                len(self.pulls) + 1,
                head,
                base,
                body.get("title", ""),
                body.get("body") or body.get("description") or "",
            )
            self.pulls[pull.number] = pull
        return 201, self._view(pull)

    def _list(self, query: str) -> tuple[int, list]:
        """The open ones, filtered as each host documents: GitHub by head=owner:branch, GitLab by source_branch;
        Gitea and Forgejo have no head filter (the caller filters)."""
        params = dict(parse_qsl(query))
        wanted_state = {"gitlab": "opened"}.get(self.provider, "open")
        if params.get("state") != wanted_state:
            return 422, {"message": f"this stand-in lists only state={wanted_state}"}
        pulls = [p for p in self.pulls.values() if p.state == "open"]
        if self.provider == "github" and "head" in params:
            owner, _, branch = params["head"].partition(":")
            pulls = [p for p in pulls if owner == self.project.split("/")[0] and p.head == branch]
        if self.provider == "gitlab" and "source_branch" in params:
            pulls = [p for p in pulls if p.head == params["source_branch"]]
        return 200, [self._view(p) for p in reversed(pulls)]

    def _get(self, number: int) -> tuple[int, dict]:
        pull = self.pulls.get(number)
        if pull is None:
            return 404, {"message": "404 Not found" if self.provider == "gitlab" else "Not Found"}
        return 200, self._view(pull)

    def _view(self, pull: Pull) -> dict:
        if self.provider == "gitlab":
            return {
                "id": 1000 + pull.number,
                "iid": pull.number,
                "project_id": self.project_id,
                "title": pull.title,
                "description": pull.body,
                "state": {"open": "opened"}.get(pull.state, pull.state),
                "source_branch": pull.head,
                "target_branch": pull.base,
                "web_url": f"{self.web}/-/merge_requests/{pull.number}",
            }
        merged = pull.state == "merged"
        return {
            "id": 1000 + pull.number,
            "number": pull.number,
            "state": "open" if pull.state == "open" else "closed",
            "title": pull.title,
            "body": pull.body,
            "head": {"ref": pull.head},
            "base": {"ref": pull.base},
            "merged": merged,
            "merged_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ") if merged else None,
            "html_url": f"{self.web}/{'pull' if self.provider == 'github' else 'pulls'}/{pull.number}",
        }


class _Handler(JsonHandler):
    host: PullHost

    def _serve(self) -> None:
        host = self.host
        headers, body = self.read_json()
        record = Received(self.command, self.path, headers, body, 0)
        with host.lock:
            host.received.append(record)
            mode = host.failures.pop(0) if host.failures else None
        if mode == "drop":
            record.answer = "drop"
            self.close_connection = True  # no status line at all: the client sees the connection close
            return
        if mode == "lost":  # the host does the work, the answer never arrives (a timeout, a proxy reset)
            record.answer = host.route(self.command, self.path, headers, body)[0]
            self.close_connection = True
            return
        if mode is not None:
            record.answer = int(mode)
            return self._answer(int(mode), {"message": "Server Error"})
        status, payload = host.route(self.command, self.path, headers, body)
        record.answer = status
        self._answer(status, payload)

    do_GET = do_POST = do_PUT = do_PATCH = _serve
