"""The interface every git host implements, with the behaviour most hosts share as defaults (GitHub's API shape,
which Gitea and Forgejo copy). A host is one subclass instance, registered in portal.hosts.registry under its
`id`, the value stored in WebhookDelivery.provider and CommitStatusConfig.provider.

What a host says:
- webhooks: which headers carry the signature (or token), the delivery id and the event; how a verified body
  reads as a `Push` (`parse`, with hooks for the events only some hosts send); which events carry a review of a
  pull request (`review_events`, read by `review_push`) and which a CI check (`check_events`, `check_push`): none
  by default, so a host that declares none simply records them as "other";
- commit statuses: the endpoint path, our states in the host's words, where the "rocport" label goes, the auth
  header;
- pull / merge requests: where they live, the create payload, the duplicate answer, how to find the open one for
  a branch, the number, the URL and the state in an answer, and how the host writes the number (`#12`, `!12`);
- the defaults read from a clone URL (API URL, project), whether a project is well formed, which clone hosts
  are probably this host;
- the setup steps shown on the repository settings page."""

from __future__ import annotations

import hashlib
import hmac
from urllib.parse import quote

from portal.hosts.payloads import ZERO, Push, VerificationFailed, field, load_object, request_number

# Event names as the hosts send them (lower-cased). Any host's endpoint classifies any of them: the endpoint, not
# the headers, names the host, and a host that sends another's names means the same thing by them.
PING_EVENTS = ("ping", "system hook")
MERGE_REQUEST_EVENTS = ("pull_request", "merge request hook")
PUSH_EVENTS = ("push", "push hook", "tag push hook")
TAG_PUSH_EVENT = "tag push hook"


class GitHost:
    id: str = ""  # stored in the database: never change a registered host's id
    label: str = ""  # the product name, the same in every language
    setup_text = ""  # how to add the webhook on the host (a lazy translation; `backticks` for its menu names)

    # -- webhooks ----------------------------------------------------------------------------------------------
    signature_header: str = ""
    signature_prefix: str = ""  # GitHub: "sha256="
    delivery_header: str = ""
    delivery_fallbacks: tuple[str, ...] = ()  # read in turn when `delivery_header` is absent
    event_header: str = ""
    event_fallbacks: tuple[str, ...] = ()
    ping_events: tuple[str, ...] = PING_EVENTS
    review_events: tuple[str, ...] = ()  # lower-cased event names read by `review_push`
    check_events: tuple[str, ...] = ()  # lower-cased event names read by `check_push`

    # -- commit statuses ---------------------------------------------------------------------------------------
    status_path = "/repos/{project}/statuses/{sha}"  # after the API base URL
    status_states = {"pending": "pending", "success": "success", "failure": "failure", "error": "error"}
    status_name_field = "context"  # where the "rocport" label goes

    # -- pull / merge requests ---------------------------------------------------------------------------------
    requests_path = "/repos/{project}/pulls"
    duplicate_status = 409  # the answer to a create that duplicates an open request
    number_field = "number"
    url_field = "html_url"
    number_sign = "#"

    # -- defaults from a clone URL -----------------------------------------------------------------------------
    public_api: dict[str, str] = {}  # clone host -> its fixed API URL (github.com, gitlab.com)
    api_without_host = ""  # the API URL when the clone URL names no host
    api_path = "/api/v1"  # a self-hosted instance's API, under its own host
    guess_rank = 100  # lower is asked first whether it claims a clone host

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id}>"

    # -- webhooks ----------------------------------------------------------------------------------------------

    def expected_signature(self, secret: str, body: bytes) -> str:
        return self.signature_prefix + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()

    def verify(self, headers, body: bytes, secrets: list[str]) -> None:
        """Raise VerificationFailed unless the body was signed (or the token sent) with one of `secrets`."""
        sent = headers.get(self.signature_header, "")
        if not sent:
            raise VerificationFailed(401, f"missing {self.signature_header}")
        for secret in secrets:
            if hmac.compare_digest(sent.encode(), self.expected_signature(secret, body).encode()):
                return
        raise VerificationFailed(403, f"bad {self.signature_header}")

    def delivery_id(self, headers, body: bytes) -> str:
        """The host's delivery id, else a hash of the body (a retry of the same bytes is the same delivery)."""
        value = headers.get(self.delivery_header, "")
        for fallback in self.delivery_fallbacks:
            value = value or headers.get(fallback, "")
        return value[:200] or "sha256:" + hashlib.sha256(body).hexdigest()

    def event_name(self, headers) -> str:
        value = headers.get(self.event_header, "")
        for fallback in self.event_fallbacks:
            value = value or headers.get(fallback, "")
        return value[:100]

    def parse(self, event: str, body: bytes, content_type: str) -> Push:
        """Classify a verified delivery. Raises ValueError for a body that is not the JSON it claims to be, or
        whose ref and commits are not text that can be stored (a NUL, a lone surrogate, a ref past MAX_REF)."""
        payload = load_object(body, content_type)
        event_lower = event.lower()
        if event_lower in self.ping_events:
            return Push("ping")
        own = self.parse_own_event(event_lower, payload)
        if own is not None:
            return own
        if event_lower in self.review_events:
            review = self.review_push(event_lower, payload)
            if review is not None:
                return review
        if event_lower in self.check_events:
            check = self.check_push(event_lower, payload)
            if check is not None:
                return check
        if event_lower in MERGE_REQUEST_EVENTS:
            number, branch, state = self.merge_request_fields(payload)
            reviews, at = self.reviewer_states(payload)
            return Push(
                "merge_request", branch=branch, number=request_number(number), state=state, reviews=reviews, at=at
            )
        if event_lower not in PUSH_EVENTS:
            return Push("other")
        ref = field(payload, "ref")
        before, after = field(payload, "before"), field(payload, "after")
        if ref.startswith("refs/tags/") or event_lower == TAG_PUSH_EVENT:
            return Push("tag", ref=ref, before=before, after=after)
        if not ref.startswith("refs/heads/"):
            return Push("other", ref=ref)
        branch = ref[len("refs/heads/") :]
        if after == ZERO or payload.get("deleted") is True:
            return Push("branch_deleted", branch=branch, ref=ref, before=before, after=after)
        return Push("push", branch=branch, ref=ref, before=before, after=self.commit_to_scan(payload, after))

    def parse_own_event(self, event_lower: str, payload: dict) -> Push | None:
        """A host's events the shared classification does not know (Gitea's `create` / `delete`); None: not one."""
        return None

    def review_push(self, event_lower: str, payload: dict) -> Push | None:
        """A review of a pull request (kind "review": number, source branch, reviewer, state, when) from one of
        `review_events`; None: this delivery is not one after all (it is then classified as any other)."""
        return None

    def check_push(self, event_lower: str, payload: dict) -> Push | None:
        """A CI check's state (kind "check": commit, name, state, link, when; the request's number and branch
        when the host names them) from one of `check_events`; None: not one after all."""
        return None

    def merge_request_fields(self, payload: dict) -> tuple[object, str, str]:
        """(number as sent, source branch, open | merged | closed | "") of a `pull_request` event: action,
        number, pull_request.state, .merged, .head.ref."""
        pull = payload.get("pull_request")
        if not isinstance(pull, dict):
            raise ValueError("'pull_request' is not an object")
        head = pull.get("head") if isinstance(pull.get("head"), dict) else {}
        number, branch = pull.get("number", payload.get("number")), field(head, "ref")
        if pull.get("merged") is True:
            return number, branch, "merged"
        return number, branch, {"open": "open", "closed": "closed"}.get(str(pull.get("state")), "")

    def reviewer_states(self, payload: dict) -> tuple[tuple[tuple[str, str], ...], str]:
        """Where each reviewer stands now, as (reviewer, STANDINGS word) pairs, and when, for a host whose merge
        request events list every reviewer's state (GitLab); none by default."""
        return (), ""

    def commit_to_scan(self, payload: dict, after: str) -> str:
        """The commit a branch push asks to scan."""
        return after

    # -- commit statuses and API requests ----------------------------------------------------------------------

    def auth_header(self, token: str) -> tuple[str, str]:
        return "Authorization", f"token {token}"

    def api_headers(self, token: str) -> dict[str, str]:
        """The headers of every API request, the token included: never log them."""
        name, value = self.auth_header(token)
        return {"Content-Type": "application/json", "Accept": "application/json", "User-Agent": "ROCport", name: value}

    def project_path(self, project: str) -> str:
        """The project as it goes into a URL: owner/repo, segment by segment."""
        project = project.strip().strip("/")
        return "/".join(quote(part, safe="") for part in project.split("/"))

    # -- pull / merge requests ---------------------------------------------------------------------------------

    def create_request_payload(self, *, branch: str, target: str, title: str, body: str) -> dict:
        return {"head": branch, "base": target, "title": title, "body": body}

    def open_requests_query(self, project: str, branch: str) -> str:
        """The query listing the open requests, ours among them. Gitea and Forgejo cannot filter by head: the
        newest open ones (ours was just made)."""
        return "?state=open&sort=recentupdate&limit=50"

    def source_branch(self, answer: dict) -> object:
        return (answer.get("head") or {}).get("ref")

    def request_state(self, answer: dict) -> str:
        """ "open", "merged" or "closed", from the host's answer about one request."""
        if answer.get("merged") or answer.get("merged_at"):
            return "merged"
        return "open" if str(answer.get("state", "")) == "open" else "closed"

    def request_label(self, number: int) -> str:
        """How the host writes a request's number."""
        return f"{self.number_sign}{number}"

    # -- defaults from a clone URL -----------------------------------------------------------------------------

    def claims_clone_host(self, hostname: str) -> bool:
        """Whether a clone URL's (lower-case) host is probably this host."""
        return False

    def default_api_url(self, hostname: str) -> str:
        if hostname in self.public_api:
            return self.public_api[hostname]
        return f"https://{hostname}{self.api_path}" if hostname else self.api_without_host

    def project_from_path(self, parts: list[str]) -> str:
        """The project from a clone URL's path segments: owner/repo, the last two (an instance served under a
        sub-path still works)."""
        return "/".join(parts[-2:])

    def valid_project(self, project: str) -> bool:
        return project.count("/") == 1 and all(project.split("/"))
