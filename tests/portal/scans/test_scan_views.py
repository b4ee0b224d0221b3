"""The scan page: live progress that stops polling at a final state, and failure advice."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from portal.repositories.models import Repository
from portal.scans.models import Scan
from tests.portal.htmx import HTMX
from tests.portal.people import client_for
from tests.portal.uploads_data import bearer, token


@pytest.fixture
def repository(people):
    return Repository.objects.create(team=people.team, name="kernels", clone_url="https://example.com/k.git")


@pytest.mark.django_db
def test_a_running_scan_polls_and_a_finished_one_stops_polling(people, repository):
    scan = Scan.objects.create(repository=repository, branch="main", status="scanning", files_total=10, files_done=4)
    client = client_for(people.vera)
    page = client.get(reverse("scans:detail", args=[scan.pk]))
    assert (
        page.status_code == 200
        and b'hx-trigger="every 2s"' in page.content
        and b'<progress class="progress" max="100" value="40"' in page.content
    )
    partial = client.get(reverse("scans:progress", args=[scan.pk]), headers=HTMX)
    assert partial.status_code == 200 and b"<html" not in partial.content
    Scan.objects.filter(pk=scan.pk).update(
        status="finished", files_done=10, summary={"tracking": {"new": 3, "fixed": 1, "reopened": 0}}
    )
    final = client.get(reverse("scans:progress", args=[scan.pk]), headers=HTMX)
    assert final.status_code == 286 and b"hx-trigger" not in final.content and b"finished" in final.content


@pytest.mark.django_db
def test_a_failed_scan_says_what_to_do_never_a_traceback(people, repository):
    scan = Scan.objects.create(
        repository=repository,
        branch="main",
        status="failed",
        error_code="scan:user:auth-failed",
        error_message="the repository refused the credentials",
    )
    content = client_for(people.vera).get(reverse("scans:detail", args=[scan.pk])).content
    assert b"Update the username and token" in content and b"Traceback" not in content


@pytest.mark.django_db
def test_another_teams_scan_is_404_and_methods_are_checked(people, repository):
    scan = Scan.objects.create(repository=repository, branch="main")
    assert client_for(people.charlie).get(reverse("scans:detail", args=[scan.pk])).status_code == 404
    assert client_for(people.charlie).get(reverse("scans:progress", args=[scan.pk])).status_code == 404
    assert client_for(people.alice).post(reverse("scans:detail", args=[scan.pk])).status_code == 405
    assert client_for(people.alice).get(reverse("scans:detail", args=[99999])).status_code == 404
    assert Client().get(reverse("scans:detail", args=[scan.pk])).status_code == 302


@pytest.mark.django_db
def test_the_heading_follows_the_scan_from_queued_to_resolved(people, repository):
    scan = Scan.objects.create(repository=repository, branch="main", status="queued")
    client = client_for(people.vera)
    queued = client.get(reverse("scans:progress", args=[scan.pk]), headers=HTMX).content.decode()
    assert "<h1>Scan of main</h1>" in queued and "waiting for a worker" in queued
    started = timezone.now() - timedelta(seconds=75)
    Scan.objects.filter(pk=scan.pk).update(status="scanning", commit_sha="ab" * 20, started=started)
    running = client.get(reverse("scans:progress", args=[scan.pk]), headers=HTMX).content.decode()
    # the polled partial carries the heading, so the resolved commit replaces "queued" without a reload
    assert "<h1>Scan of main at ababababab</h1>" in running and "waiting for a worker" not in running
    assert "running for" in running and "1 min 1" in running  # 75 s and counting


@pytest.mark.django_db
def test_a_finished_scan_says_when_how_long_how_big_and_how_its_files_were_read(people, repository):
    started = timezone.now() - timedelta(minutes=3)
    scan = Scan.objects.create(
        repository=repository,
        branch="main",
        status="finished",
        commit_sha="cd" * 20,
        started=started,
        finished=started + timedelta(minutes=2, seconds=5),
        files_total=12,
        files_done=12,
        files_reused=4,
        summary={
            "tracking": {"new": 1, "fixed": 0, "reopened": 0},
            "files": 12,
            "lines": 3456,
            "parse_modes": {"ast": 7, "ast-stubbed": 2, "tokens": 1, "text": 2},
        },
    )
    html = client_for(people.vera).get(reverse("scans:detail", args=[scan.pk])).content.decode()
    assert "took" in html and "2 min 5 s" in html
    assert html.count("<time datetime=") == 3  # queued, started, finished
    assert "12 files, 3456 lines" in html and "(4 unchanged since an earlier scan)" in html
    modes = html[html.index('id="scan-parse-modes"') :]
    for mode, n in (("ast", 7), ("ast-stubbed", 2), ("tokens", 1), ("text", 2)):
        assert f'mode-{mode}">{mode}</span></td><td class="num">{n}</td>' in modes
    assert "tokens only: syntax-tree rules did not run" in modes


@pytest.mark.django_db
def test_shards_are_counted_by_worker_process_and_by_worker(people, repository):
    from portal.scans.models import ScanShard
    from portal.scans.pipeline.shards import process_identity

    scan = Scan.objects.create(repository=repository, branch="main", status="scanning", attempts=1)
    # one worker (Celery's hostname is the same in both of its pool processes), two processes
    ran_by = ["worker@box pid 11", "worker@box pid 12", "worker@box pid 11", "worker@box pid 12"]
    for n, identity in enumerate(ran_by):
        ScanShard.objects.create(scan=scan, scan_attempt=1, number=n + 1, worker=identity)
    html = client_for(people.vera).get(reverse("scans:detail", args=[scan.pk])).content.decode()
    assert "4 shards on 2 processes of 1 worker" in html
    ScanShard.objects.filter(worker="worker@box pid 12").update(worker="other@box pid 12")
    html = client_for(people.vera).get(reverse("scans:detail", args=[scan.pk])).content.decode()
    assert "4 shards on 2 workers" in html
    assert process_identity("w0@host").startswith("w0@host pid ")


def failed_page(people, repository, code: str) -> str:
    scan = Scan.objects.create(repository=repository, branch="main", status="failed", error_code=code)
    return client_for(people.vera).get(reverse("scans:detail", args=[scan.pk])).content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "private, schemes",
    [(False, "https://, ssh:// or git://"), (True, "https://, http://, ssh:// or git://")],
    ids=["http-refused", "http-allowed"],
)
def test_a_refused_protocol_names_the_schemes_this_server_allows(people, repository, settings, private, schemes):
    settings.ROCPORT_ALLOW_PRIVATE_HOSTS = private
    html = failed_page(people, repository, "scan:user:protocol-not-allowed")
    assert f"Use an {schemes} URL." in html and "Use https or ssh" not in html
    scan = Scan.objects.get(repository=repository)
    api = bearer(token(people.vera, read_only=True)).get(f"/api/v1/scans/{scan.pk}/")
    assert api.status_code == 200 and schemes in api.json()["advice"]  # the API gives the same advice


@pytest.mark.django_db
def test_a_missing_branch_links_to_the_repository_settings(people, repository):
    html = failed_page(people, repository, "scan:user:ref-not-found")
    settings_url = reverse("repositories:settings", args=[repository.pk])
    assert "The branch does not exist on the remote" in html
    assert f'<a href="{settings_url}" data-advice="settings">' in html
    # advice that is not fixed on the settings page does not link there
    assert 'data-advice="settings"' not in failed_page(people, repository, "scan:user:timeout")
