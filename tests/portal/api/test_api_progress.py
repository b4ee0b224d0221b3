"""API: migration progress of a repository and of a team (figures, files by state, forecast, each file's state,
history), checked against what the dashboard and the printable reports show for the same data (the same
computation, so never another number), after real scans and a triage; another team's repository or team is a 404,
and a team's figures hold its own repositories only."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from portal.api import pages
from portal.findings.actions import do_triage_findings
from portal.findings.models import Finding
from portal.progress.models import ProgressSnapshot
from portal.reporting import history
from portal.repositories.models import Repository
from tests.portal.api_clients import clients
from tests.portal.people import client_for
from tests.portal.scans.test_scan_tracking import BAD, LANE, register, scan


@pytest.fixture
def api(people):
    return clients(people)


@pytest.fixture
def migrating(people, repo_factory):
    """A repository scanned once (three files with findings), one file's findings accepted as a risk, and three
    earlier weeks of snapshots with more work left, so that the forecast has a date."""
    repo = repo_factory()
    row = register(people, repo)
    scan(
        row,
        repo.commit(
            "baseline",
            **{
                "src__a.cu": LANE.format(body=BAD * 3),
                "src__b.cu": LANE.format(body=BAD),
                "src__c.cu": LANE.format(body=BAD * 2),
            },
        ),
    )
    do_triage_findings(
        Finding.objects.filter(repository=row, path="src/b.cu"), "accepted_risk", "measured", acting_user=people.bob
    )
    today = timezone.localdate()
    snapshot = ProgressSnapshot.objects.get(repository=row, day=today)
    for weeks, left in ((3, snapshot.left + 30), (2, snapshot.left + 20), (1, snapshot.left + 10)):
        ProgressSnapshot.objects.create(repository=row, day=today - timedelta(weeks=weeks), done=0, left=left)
    return row


def figures_of(migration) -> dict:
    return {
        "known": migration.known,
        "shown": migration.shown,
        "done": pytest.approx(migration.done),
        "left": pytest.approx(migration.left),
        "files": {
            "not_started": migration.not_started,
            "in_progress": migration.in_progress,
            "done": migration.files_done,
        },
    }


def forecast_of(forecast) -> dict:
    return {
        "status": forecast.status,
        "likely": forecast.likely and forecast.likely.isoformat(),
        "earliest": forecast.earliest and forecast.earliest.isoformat(),
        "latest": forecast.latest and forecast.latest.isoformat(),
    }


@pytest.mark.django_db
def test_a_repositorys_progress_is_the_dashboards_and_the_reports(people, api, migrating):
    response = api["vera"].get(f"/repositories/{migrating.pk}/progress/")  # a viewer reads it
    assert response.status_code == 200, response.content
    body = response.json()
    page = client_for(people.vera).get(reverse("dashboards:repository", args=[migrating.pk]))
    report = client_for(people.vera).get(reverse("progress:repository_report", args=[migrating.pk]))
    migration, forecast = page.context["migration"], page.context["outlook"].forecast

    assert {key: body["migration"][key] for key in ("known", "shown", "done", "left", "files")} == figures_of(migration)
    assert body["migration"]["percent"] == pytest.approx(migration.percent) and 0 < migration.percent < 100
    assert body["migration"]["files"] == {"not_started": 2, "in_progress": 0, "done": 1}  # b.cu: accepted risk
    assert {key: body["forecast"][key] for key in ("status", "likely", "earliest", "latest")} == forecast_of(forecast)
    assert body["forecast"]["status"] == "ok" and body["forecast"]["rate"] > 0
    assert (
        [f["path"] for f in body["most_left"]]
        == [f.path for f in report.context["files"]]
        == [
            "src/a.cu",
            "src/c.cu",
        ]
    )
    assert body["branch"] == "main" and body["scan_id"] == report.context["latest"]["pk"]


@pytest.mark.django_db
def test_each_files_state_comes_in_pages_by_path_and_filters_by_state(api, migrating):
    url = f"/repositories/{migrating.pk}/progress/files/"
    every = api["vera"].get(url).json()
    assert [(f["path"], f["state"]) for f in every["items"]] == [
        ("src/a.cu", "not_started"),
        ("src/b.cu", "done"),
        ("src/c.cu", "not_started"),
    ]
    assert every["next"] is None and every["items"][1]["touched"] and every["items"][1]["left"] == 0
    paths, cursor = [], ""
    while True:
        body = api["vera"].get(url, limit=1, **({"after": cursor} if cursor else {})).json()
        paths += [f["path"] for f in body["items"]]
        if body["next"] is None:
            break
        cursor = body["next"]
    assert paths == ["src/a.cu", "src/b.cu", "src/c.cu"]
    assert [f["path"] for f in api["vera"].get(url, state="done").json()["items"]] == ["src/b.cu"]
    assert api["vera"].get(url, limit=pages.MAX_LIMIT + 1).status_code == 400
    assert api["vera"].get(url, state="finished").status_code == 422


@pytest.mark.django_db
def test_the_history_is_the_burndowns_series_and_its_window_is_bounded(api, migrating):
    url = f"/repositories/{migrating.pk}/progress/history/"
    body = api["vera"].get(url).json()
    today = timezone.localdate()
    expected = history.series([migrating.pk], history.window_start(today), today)
    assert [(p["day"], p["left"]) for p in body["points"]] == [(p.day.isoformat(), p.left) for p in expected]
    assert len(body["points"]) == 4 and body["since"] == history.window_start(today).isoformat()
    assert len(api["vera"].get(url, weeks=2).json()["points"]) == 3  # the window's start carries one forward
    for weeks in (0, pages.MAX_WEEKS + 1):
        response = api["vera"].get(url, weeks=weeks)
        assert response.status_code == 400 and str(pages.MAX_WEEKS) in response.json()["detail"]


@pytest.mark.django_db
def test_a_teams_progress_is_the_team_reports_with_each_repository(people, api, migrating):
    never = Repository.objects.create(team=people.team, name="never", clone_url="https://example.com/n.git")
    response = api["vera"].get(f"/teams/{people.team.pk}/progress/")
    assert response.status_code == 200, response.content
    body = response.json()
    report = client_for(people.vera).get(reverse("progress:team_report", args=[people.team.pk]))
    assert {key: body["migration"][key] for key in ("known", "shown", "done", "left", "files")} == figures_of(
        report.context["migration"]
    )
    assert {key: body["forecast"][key] for key in ("status", "likely", "earliest", "latest")} == forecast_of(
        report.context["outlook"].forecast
    )
    by_name = {r["name"]: r for r in body["repositories"]}
    assert set(by_name) == {migrating.name, "never"} and body["team"] == {"id": people.team.pk, "name": "GPU team"}
    assert by_name["never"]["scanned"] is False and by_name["never"]["forecast"] is None
    assert by_name["never"]["migration"]["known"] is False and by_name["never"]["id"] == never.pk
    mine = api["vera"].get(f"/repositories/{migrating.pk}/progress/").json()
    assert by_name[migrating.name]["migration"] == mine["migration"]
    assert by_name[migrating.name]["forecast"] == mine["forecast"]
    team_history = api["vera"].get(f"/teams/{people.team.pk}/progress/history/").json()
    assert team_history["points"] == api["vera"].get(f"/repositories/{migrating.pk}/progress/history/").json()["points"]


@pytest.mark.django_db
def test_a_repository_never_scanned_has_no_figures_and_says_why_there_is_no_forecast(people, api):
    never = Repository.objects.create(team=people.team, name="never", clone_url="https://example.com/n.git")
    body = api["vera"].get(f"/repositories/{never.pk}/progress/").json()
    assert body["scan_id"] is None and body["migration"]["known"] is False and body["migration"]["percent"] is None
    assert body["forecast"]["status"] == "not_enough_history" and body["most_left"] == []
    assert api["vera"].get(f"/repositories/{never.pk}/progress/files/").json() == {"items": [], "next": None}


@pytest.mark.django_db
def test_another_team_sees_none_of_it(people, api, migrating):
    charlie = api["charlie"]
    for url in (
        f"/repositories/{migrating.pk}/progress/",
        f"/repositories/{migrating.pk}/progress/files/",
        f"/repositories/{migrating.pk}/progress/history/",
        f"/teams/{people.team.pk}/progress/",
        f"/teams/{people.team.pk}/progress/history/",
        "/teams/999999/progress/",
    ):
        response = charlie.get(url)
        assert (response.status_code, response.json()) == (404, {"detail": "Not found."}), url
    theirs = charlie.get(f"/teams/{people.other_team.pk}/progress/").json()
    assert theirs["repositories"] == [] and theirs["migration"]["known"] is False
    assert charlie.get(f"/teams/{people.other_team.pk}/progress/history/").json()["points"] == []
