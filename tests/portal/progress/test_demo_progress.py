"""The demo as a manager first sees it (issue 22): right after its first scan nothing has been migrated, so
migration progress is 0% — while automatic translation coverage is already in the nineties — and it moves when
the team fixes findings and reviews a translation. The real pipeline on the demo's own repository."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse

from portal.files import actions as file_actions
from portal.files.queries import file_version
from portal.findings import actions
from portal.findings.models import BranchRollup, Finding
from portal.reporting import metrics, rollups
from portal.repositories.models import Repository
from portal.scans.management.commands.demo import build_repository
from tests.portal.findings.test_rollups import scan
from tests.portal.people import client_for

DEMO = Path(__file__).resolve().parents[3] / "demo" / "cuda-demo"


def figures_of(row):
    [portfolio_row] = [r for r in metrics.portfolio(row.team_id) if r.repository.pk == row.pk]
    return portfolio_row


def card(html: str, card_id: str) -> str:
    start = html.index(f'id="{card_id}"')
    return html[start : html.index("</div>\n</div>", start)]


def assert_ledger_is_the_rebuilt_one(row) -> None:
    """What triage and reviews moved by deltas equals a rebuild from the findings."""
    stored = BranchRollup.objects.get(repository=row, branch="main")
    rebuilt = rollups.rebuild([(row.pk, "main")], {(row.pk, "main"): stored.scan_id})[(row.pk, "main")]
    assert stored.progress == rebuilt.progress
    figures, again = stored.totals["progress"], rebuilt.totals["progress"]
    assert figures["files"] == again["files"]
    assert {k: figures[k] for k in ("done", "left", "descoped", "baseline")} == pytest.approx(
        {k: again[k] for k in ("done", "left", "descoped", "baseline")}
    )


@pytest.mark.django_db
def test_the_demo_is_at_zero_after_its_first_scan_and_moves_after_a_fix_and_a_review(people, tmp_path):
    commits = build_repository(DEMO, tmp_path / "demo-repo")
    row = Repository.objects.create(team=people.team, name="cuda-demo", clone_url=f"file://{tmp_path / 'demo-repo'}")
    scan(row, commits[0])
    first = figures_of(row)
    assert first.progress.percent > 90  # coverage: most CUDA names have a HIP equivalent from day one...
    assert first.migration.percent == 0 and first.migration.floor == 0  # ...but nothing is migrated yet
    assert first.migration.left > 100 and first.migration.not_started == first.migration.files > 5
    html = client_for(people.alice).get(reverse("dashboards:portfolio")).content.decode()
    assert ">0%<" in card(html, "migration-progress") and "0 h of the migration" in card(html, "migration-progress")
    assert f">{first.progress.floor}%<" in card(html, "translation-coverage")

    # the demo's second commit fixes two findings (and adds one): progress moves
    scan(row, commits[1])
    fixed = figures_of(row)
    assert 0 < fixed.migration.percent < 100 and fixed.migration.done > 0
    assert fixed.migration.discovered > 0  # the new finding: the page says why the total grew
    assert fixed.progress.percent == pytest.approx(first.progress.percent, abs=2)  # coverage barely moves
    dashboard = client_for(people.alice).get(reverse("dashboards:repository", args=[row.pk])).content.decode()
    assert f">{fixed.migration.shown}%<" in card(dashboard, "migration-progress")
    assert "work discovered since the baseline" in card(dashboard, "migration-progress")

    # an engineer reviews a translation: progress moves again, and the file leaves "not started"
    path = "src/gemm.cu"
    version = file_version(row, path)
    assert version is not None and version.has_translation
    file_actions.check_review_translation(
        row, path, version, "ok", version.scanned.blob_sha, version.translation_sha, acting_user=people.bob
    )
    reviewed = figures_of(row)
    assert reviewed.migration.done > fixed.migration.done and reviewed.migration.percent > fixed.migration.percent
    assert reviewed.migration.left < fixed.migration.left
    assert_ledger_is_the_rebuilt_one(row)

    # triage by deltas (open and fixed findings, each decision, and back) leaves the ledger a rebuild would make
    open_ids = list(Finding.objects.filter(repository=row, state="open").order_by("id").values_list("pk", flat=True))
    fixed_ids = list(Finding.objects.filter(repository=row, state="fixed").values_list("pk", flat=True))
    for ids, decision in (
        (open_ids[:3], "accepted_risk"),
        (open_ids[2:6], "false_positive"),
        (fixed_ids[:1], "false_positive"),
        (open_ids[5:8], "wont_fix"),
        (open_ids[:2], "untriaged"),
        (fixed_ids[:1], "confirmed"),
    ):
        actions.do_triage_findings(Finding.objects.filter(pk__in=ids), decision, "why", acting_user=people.bob)
        assert_ledger_is_the_rebuilt_one(row)
    triaged = figures_of(row)
    # the accepted risks went back to untriaged and the fixed finding is confirmed again: done as after the review
    assert triaged.migration.descoped > 0 and triaged.migration.done == pytest.approx(reviewed.migration.done)
