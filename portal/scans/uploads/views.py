"""POST /api/v1/uploads/: a scan made in CI (`python -m scanner scan . --format json --upload URL`), ingested
as a worker's scan is. A plain Django view beside the REST API (portal/api), registered before its include.

- authenticated by a personal token (`Authorization: Bearer`) only, never a session cookie: no CSRF surface;
- the repository (`?repository=ID`, or the one registered with `?remote=URL`), `?commit=` and `?branch=` are
  checked before the body is read: another team's repository is a 404, a viewer or a read-only token a 403;
- the body is capped (ROCPORT_UPLOAD_MAX_BYTES, 413) and checked whole (400 naming the key) before anything
  is written.

    curl --fail-with-body -H "Authorization: Bearer $ROCPORT_TOKEN" -H "Content-Type: application/json" \\
         --data-binary @scan.json "https://rocport.example.com/api/v1/uploads/?repository=3&commit=$SHA&branch=main"
"""

from __future__ import annotations

import re
import urllib.parse

from django.conf import settings
from django.db import IntegrityError
from django.http import JsonResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from portal.accounts.models import Membership
from portal.accounts.tokens import token_for_request
from portal.repositories.models import Repository
from portal.scans.uploads import parsing
from portal.scans.uploads.actions import do_ingest_upload

_SHA = re.compile(r"^[0-9a-f]{40}$")
_BAD_BRANCH = re.compile(r"[\x00-\x20\x7f~^:?*\[\\]|\.\.|@\{|^/|/$|\.lock$|^-")  # git check-ref-format's rules


class _Refused(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


@csrf_exempt  # a bearer token, not a cookie, authenticates this view: there is no session to forge
@require_POST
def upload(request):
    try:
        user = _user(request)
        repository = _repository(request, user)
        commit, branch = _commit_and_branch(request)
        body = _body(request)
        try:
            parsed = parsing.parse(body)
        except parsing.UploadRejected as exc:
            raise _Refused(400, str(exc)) from None
        try:
            scan = do_ingest_upload(repository, parsed, commit_sha=commit, branch=branch, acting_user=user)
        except IntegrityError:
            raise _Refused(
                409,
                _(
                    "Another scan of this branch was being recorded at the same moment; nothing "
                    "was written. Upload again."
                ),
            ) from None
    except _Refused as refused:
        response = JsonResponse({"detail": refused.message}, status=refused.status)  # as every API error
        if refused.status == 401:
            response["WWW-Authenticate"] = 'Bearer realm="rocport"'
        return response
    return JsonResponse(
        {
            "scan": scan.pk,
            "url": request.build_absolute_uri(reverse("scans:detail", args=[scan.pk])),
            "status": scan.status,
            "tracking": scan.summary.get("tracking", {}),
        },
        status=201,
    )


def _user(request):
    token = token_for_request(request)
    if token is None:
        raise _Refused(401, _('A valid personal API token is required: send "Authorization: Bearer <token>".'))
    if token.read_only:
        raise _Refused(403, _("This token is read-only; uploading a scan needs a token that can write."))
    return token.user


def _repository(request, user) -> Repository:
    """The repository, if the user is in its team and may write there; another team's is "not found"."""
    raw = request.GET.get("repository", "").strip()
    teams = Membership.objects.filter(user=user).values_list("team_id", flat=True)
    if raw:
        if not raw.isdigit():
            raise _Refused(400, _("repository: expected a repository id (a number)."))
        repository = Repository.objects.filter(pk=int(raw), team_id__in=teams).first()
    else:
        remote = request.GET.get("remote", "").strip()
        if not remote:
            raise _Refused(400, _("Name the repository: ?repository=ID (or ?remote=<clone URL>)."))
        wanted = remote_key(remote)
        matches = [r for r in Repository.objects.filter(team_id__in=teams) if remote_key(r.clone_url) == wanted]
        if len(matches) > 1:
            raise _Refused(
                400,
                _("Several of your repositories have this clone URL; choose one with ?repository=ID (--repository)."),
            )
        repository = matches[0] if matches else None
    if repository is None:
        raise _Refused(404, _("No such repository among your teams' repositories."))
    membership = Membership.objects.get(user=user, team_id=repository.team_id)
    if not membership.can_write:
        raise _Refused(403, _("Viewers cannot upload scans; an engineer, manager or admin of the team can."))
    return repository


def _commit_and_branch(request) -> tuple[str, str]:
    commit = request.GET.get("commit", "").strip().lower()
    if not _SHA.match(commit):
        raise _Refused(400, _("commit: expected the scanned commit's 40-character sha."))
    branch = request.GET.get("branch", "").strip()
    if branch.startswith("refs/heads/"):
        branch = branch[len("refs/heads/") :]
    if not branch or len(branch) > 255 or _BAD_BRANCH.search(branch):
        raise _Refused(400, _("branch: expected a branch name, got %(branch)r.") % {"branch": branch[:100]})
    return commit, branch


def _body(request) -> bytes:
    cap = settings.ROCPORT_UPLOAD_MAX_BYTES
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    too_big = _(
        "The scan is larger than this server accepts (%(cap)d bytes, ROCPORT_UPLOAD_MAX_BYTES); nothing was written."
    )
    if length > cap:
        raise _Refused(413, too_big % {"cap": cap})
    # The raw stream, read up to the cap: request.body stops at DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB), far below a
    # big repository's report. Django's stream ends at Content-Length, so the second check guards only servers
    # that hand over more.
    body = request.read(cap + 1)
    if len(body) > cap:
        raise _Refused(413, too_big % {"cap": cap})
    if not body:
        raise _Refused(400, _("The body is empty: send the JSON report of `python -m scanner scan --format json`."))
    return body


def remote_key(url: str) -> tuple[str, str]:
    """(host, path) of a clone URL, so that https://host/team/x.git, ssh://git@host/team/x and git@host:team/x
    name the same repository; user, password, port and scheme do not count."""
    url = url.strip()
    if "://" in url:
        parts = urllib.parse.urlsplit(url)
        host, path = parts.hostname or "", parts.path
    elif re.match(r"^[^/]*@?[^/:]+:", url) and not url.startswith("/"):  # scp-like: [user@]host:path
        host, _sep, path = url.split("@", 1)[-1].partition(":")
    else:
        host, path = "", url
    path = path.strip("/")
    if path.endswith(".git"):
        path = path[: -len(".git")]
    return host.lower(), path.lower()
