"""Changes people make to findings: triage (one or many), assignment, comments. Each writes FindingEvents in the
same transaction (triage also moves the branch's rollup); a decision that hides a finding needs a reason."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from portal.findings.models import Finding, FindingEvent
from portal.reporting import rollups

HIDING = frozenset({Finding.Triage.FALSE_POSITIVE, Finding.Triage.ACCEPTED_RISK, Finding.Triage.WONT_FIX})


def check_triage(decision: str, reason: str) -> tuple[str, str]:
    if decision not in Finding.Triage.values:
        raise ValidationError(_("Unknown triage decision."))
    reason = reason.strip()
    if decision in HIDING and not reason:
        raise ValidationError(_("Say why: this decision hides the finding from the open work."))
    return decision, reason[:2000]


def do_triage_findings(findings, decision: str, reason: str, *, acting_user) -> int:
    """Triage a queryset of findings in bulk: one UPDATE, one INSERT of events per batch."""
    decision, reason = check_triage(decision, reason)
    with transaction.atomic():
        # Locked as read: the rollups move by what these rows were, so no ingestion may change them in between.
        rows = list(
            findings.exclude(triage=decision, triage_reason=reason)
            .order_by("pk")
            .select_for_update(of=("self",))
            .values_list(*rollups.TRIAGE_FIELDS)
        )
        if not rows:
            return 0
        ids = [row[0] for row in rows]
        for start in range(0, len(ids), 10000):
            Finding.objects.filter(pk__in=ids[start : start + 10000]).update(triage=decision, triage_reason=reason)
        FindingEvent.objects.bulk_create(
            [
                FindingEvent(
                    finding_id=row[0],
                    kind=FindingEvent.Kind.TRIAGED,
                    actor=acting_user,
                    data={"from": row[1], "to": decision, "reason": reason},
                )
                for row in rows
            ],
            batch_size=5000,
        )
        rollups.record_triage(rows, decision)
    return len(rows)


def do_assign_finding(finding: Finding, assignee, *, acting_user) -> None:
    with transaction.atomic():
        previous = finding.assignee.username if finding.assignee else None
        finding.assignee = assignee
        finding.save(update_fields=["assignee"])
        FindingEvent.objects.create(
            finding=finding,
            kind=FindingEvent.Kind.ASSIGNED,
            actor=acting_user,
            data={"from": previous, "to": assignee.username if assignee else None},
        )


def do_comment_finding(finding: Finding, text: str, *, acting_user) -> FindingEvent:
    text = text.strip()
    if not text:
        raise ValidationError(_("Write a comment first."))
    return FindingEvent.objects.create(
        finding=finding, kind=FindingEvent.Kind.COMMENTED, actor=acting_user, data={"text": text[:5000]}
    )
