"""The printable reports: a repository's and a team's, their empty states, and another team's answered 404."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from portal.progress.models import ProgressSnapshot
from portal.repositories.models import Repository
from tests.portal.people import client_for
from tests.portal.scans.test_scan_tracking import BAD, LANE, register, scan


@pytest.mark.django_db
def test_the_reports_show_the_figures_the_forecast_and_each_repository(people, repo_factory):
    repo = repo_factory()
    row = register(people, repo)
    scan(row, repo.commit("baseline", **{"src__a.cu": LANE.format(body=BAD * 3)}))
    never = Repository.objects.create(team=people.team, name="never", clone_url="https://example.com/n.git")
    today = timezone.localdate()
    snapshot = ProgressSnapshot.objects.get(repository=row, day=today)
    for weeks, left in ((3, snapshot.left + 30), (2, snapshot.left + 20), (1, snapshot.left + 10)):
        ProgressSnapshot.objects.create(repository=row, day=today - timedelta(weeks=weeks), done=0, left=left)
    vera = client_for(people.vera)  # a viewer reads reports

    page = vera.get(reverse("progress:repository_report", args=[row.pk]))
    html = page.content.decode()
    assert (
        page.status_code == 200 and 'id="forecast" data-status="ok"' in html and 'figure class="chart burndown' in html
    )
    assert "src/a.cu" in html and "not started" in html
    team = vera.get(reverse("progress:team_report", args=[people.team.pk])).content.decode()
    assert row.name in team and "never" in team and "not scanned yet" in team
    assert team.count('id="forecast"') == 1  # the team's; each repository's forecast is a table cell

    empty = vera.get(reverse("progress:repository_report", args=[never.pk])).content.decode()
    assert "No finished scan of main yet" in empty


@pytest.mark.django_db
def test_another_teams_reports_are_not_found(people, repo_factory):
    repo = repo_factory()
    row = register(people, repo)
    charlie = client_for(people.charlie)
    assert charlie.get(reverse("progress:repository_report", args=[row.pk])).status_code == 404
    assert charlie.get(reverse("progress:team_report", args=[people.team.pk])).status_code == 404
