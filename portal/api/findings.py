"""API operations on findings: the list with the UI's filters and keyset pages (portal.findings.queries), one
finding, triage (one or many, through portal.findings.actions) and comments.

The list covers every team of the caller; a `repository` filter of another team is a 404. In bulk triage, ids of
another team are simply not found, exactly like ids that do not exist."""

from __future__ import annotations

import base64
import binascii

from django.core import signing
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from ninja import Query, Router
from ninja.responses import Status

from portal.accounts.access import membership_for
from portal.api import pages
from portal.api import schemas as s
from portal.api.access import memberships, need_engineer
from portal.findings import queries
from portal.findings.actions import do_comment_finding, do_triage_findings
from portal.findings.models import Finding, FindingEvent
from portal.repositories.models import Repository

router = Router(tags=["findings"])


def finding_out(finding: Finding) -> dict:
    return {
        "id": finding.pk,
        "repository_id": finding.repository_id,
        "branch": finding.branch,
        "path": finding.path,
        "line": finding.line,
        "column": finding.column,
        "end_line": finding.end_line,
        "end_column": finding.end_column,
        "rule": finding.rule,
        "name": finding.name,
        "risk": finding.risk,
        "severity": finding.severity,
        "message": finding.message,
        "snippet": finding.snippet,
        "suppressed": finding.suppressed,
        "state": finding.state,
        "triage": finding.triage,
        "triage_reason": finding.triage_reason,
        "assignee": finding.assignee.username if finding.assignee_id else None,
        "first_seen_scan_id": finding.first_seen_id,
        "last_seen_scan_id": finding.last_seen_id,
        "fixed_in_scan_id": finding.fixed_in_id,
    }


# The list's cursor is the UI's (portal.findings.queries.cursor_of: the last row's sort key), base64url-encoded so
# that it travels in a query string as is, and signed for its sort (django.core.signing, the SECRET_KEY): a cursor
# this API did not return for this sort is a 400, never a bad query nor another page. (A changed character of an
# unsigned one could still decode to a valid key: "Mx81OTcx" + "x" is another finding id.) Checked again after.
def _signer(sort: str) -> signing.Signer:
    return signing.Signer(salt=f"rocport.api.findings.cursor.{sort}", sep=".")


def _encode(cursor: str, sort: str) -> str | None:
    if not cursor:
        return None
    return _signer(sort).sign(base64.urlsafe_b64encode(cursor.encode()).decode().rstrip("="))


def _decode(token: str, sort: str) -> str:
    invalid = ValidationError(
        _(
            "The cursor is not one this API returned for this sort: pass `next` as `after` "
            "with the same filters and sort."
        )
    )
    try:
        token = _signer(sort).unsign(token)
        cursor = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode()
    except (signing.BadSignature, binascii.Error, UnicodeDecodeError, ValueError):
        raise invalid from None
    parts = cursor.split("\x1f")
    numbers = {"severity": parts, "newest": parts, "path": parts[1:]}[sort]
    expected = {"severity": 2, "newest": 1, "path": 3}[sort]
    if (
        len(parts) != expected
        or "\x00" in cursor
        or not all(n.isascii() and n.isdigit() and int(n) <= s.MAX_ID for n in numbers)
    ):
        raise invalid
    return cursor


@router.get(
    "/findings/",
    response={200: s.FindingPage, **s.ERRORS},
    summary="Findings with the findings list's filters, `limit` (50) per page (keyset: follow `next`)",
)
def list_findings(request, filters: Query[s.FindingFilters]):
    limit = pages.checked(filters.limit)
    team_ids = list(memberships(request.user))
    wanted = queries.Filters(
        repository=filters.repository,
        risk=filters.risk or "",
        severity=filters.severity or "",
        rule=filters.rule,
        state=filters.state,
        triage=filters.triage or "",
        path=filters.path,
        assignee=filters.assignee,
        new_since=filters.new_since,
        branch=filters.branch,
        owner=filters.owner,
        sort=filters.sort,
    )
    if wanted.repository:
        repository_team = _repository_team(wanted.repository)
        if repository_team not in team_ids:
            raise Http404
    cursor = _decode(filters.after, wanted.sort) if filters.after else ""
    scoped = queries.scopes(team_ids, wanted)
    base = queries.filtered(team_ids, wanted, request.user, scoped)
    # as the findings page: across several repositories, the page merges each one's own index range
    arms = queries.per_scope(team_ids, wanted, request.user, scoped) if len(scoped) > 1 else None
    rows, next_cursor = queries.page(base, wanted, cursor, arms, size=limit)
    return {"items": [finding_out(f) for f in rows], "next": _encode(next_cursor, wanted.sort)}


def _repository_team(pk: int) -> int | None:
    return Repository.objects.filter(pk=pk).values_list("team_id", flat=True).first()


# Declared before /findings/{finding_id}/..., whose pattern would otherwise take "triage" for an id.
@router.post(
    "/findings/triage/", response={200: s.BulkTriageOut, **s.ERRORS}, summary="Triage many findings at once (engineers)"
)
def bulk_triage(request, payload: s.BulkTriageIn):
    mine = memberships(request.user)
    wanted = set(payload.ids)
    found = dict(
        Finding.objects.filter(pk__in=wanted, repository__team_id__in=list(mine)).values_list(
            "pk", "repository__team_id"
        )
    )
    for team_id in set(found.values()):
        need_engineer(mine[team_id])  # all or nothing: a viewer's finding among them changes none
    triaged = (
        do_triage_findings(
            Finding.objects.filter(pk__in=list(found)), payload.decision, payload.reason, acting_user=request.user
        )
        if found
        else 0
    )
    return {"triaged": triaged, "not_found": sorted(wanted - set(found))}


def _finding_for(request, pk: int):
    finding = get_object_or_404(Finding.objects.select_related("repository", "assignee"), pk=pk)
    return finding, membership_for(request.user, finding.repository.team_id)  # 404 for another team's finding


@router.get("/findings/{finding_id}/", response={200: s.FindingOut, **s.ERRORS}, summary="One finding")
def get_finding(request, finding_id: int = s.path_id()):
    finding, _membership = _finding_for(request, finding_id)
    return finding_out(finding)


@router.post(
    "/findings/{finding_id}/triage/",
    response={200: s.FindingOut, **s.ERRORS},
    summary="Triage one finding (engineers); a decision that hides it needs a reason",
)
def triage(request, payload: s.TriageIn, finding_id: int = s.path_id()):
    finding, membership = _finding_for(request, finding_id)
    need_engineer(membership)
    do_triage_findings(
        Finding.objects.filter(pk=finding.pk), payload.decision, payload.reason, acting_user=request.user
    )
    finding.refresh_from_db()
    return finding_out(finding)


def _comment_out(event: FindingEvent) -> dict:
    data = event.data if isinstance(event.data, dict) else {}
    return {
        "id": event.pk,
        "author": event.actor.username if event.actor_id else None,
        "text": str(data.get("text", "")),
        "created": event.created,
    }


@router.get(
    "/findings/{finding_id}/comments/",
    response={200: list[s.CommentOut], **s.ERRORS},
    summary="A finding's comments, oldest first, `limit` (200) from `offset`",
)
def list_comments(request, response: HttpResponse, query: Query[s.WholeListQuery], finding_id: int = s.path_id()):
    limit = pages.checked(query.limit)
    finding, _membership = _finding_for(request, finding_id)
    events = finding.events.filter(kind=FindingEvent.Kind.COMMENTED).select_related("actor").order_by("created", "id")
    response[pages.TOTAL_HEADER] = str(events.count())
    return [_comment_out(e) for e in events[query.offset : query.offset + limit]]


@router.post(
    "/findings/{finding_id}/comments/",
    response={201: s.CommentOut, **s.ERRORS},
    summary="Comment on a finding (engineers)",
)
def add_comment(request, payload: s.CommentIn, finding_id: int = s.path_id()):
    finding, membership = _finding_for(request, finding_id)
    need_engineer(membership)
    event = do_comment_finding(finding, payload.text, acting_user=request.user)
    return Status(201, _comment_out(event))
