"""Links that leave the portal (portal/links.py): the site's own address, SITE_URL (which `make run` sets from
its PORT), or ROCPORT_BASE_URL when set; never a port the portal does not serve on."""

from __future__ import annotations

import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
from django.urls import reverse

from portal.digests import content
from portal.links import site_url
from portal.ports import describe
from portal.repositories.models import Repository
from portal.scans.models import Scan
from portal.statuses import notifications
from portal.statuses.outcome import scan_url

ROOT = Path(__file__).resolve().parents[3]
SITE = "http://127.0.0.1:18300"


def settings_in_a_fresh_process(tmp_path, **env) -> str:
    """site_url("/x/") as a process started with `env` computes it (settings read once, at start)."""
    code = "import django; django.setup(); from portal.links import site_url; print(site_url('/x/'))"
    environment = {
        "DJANGO_SETTINGS_MODULE": "portal.settings",
        "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/postgres",
        "ROCPORT_VAR_DIR": str(tmp_path),
        "PATH": "/usr/bin:/bin",
        **env,
    }
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=environment, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_links_follow_site_url_and_base_url_wins_when_set(tmp_path):
    assert settings_in_a_fresh_process(tmp_path, SITE_URL=SITE + "/") == SITE + "/x/"
    assert settings_in_a_fresh_process(tmp_path) == "http://127.0.0.1:8000/x/"
    assert settings_in_a_fresh_process(tmp_path, SITE_URL="", ROCPORT_BASE_URL="") == "http://127.0.0.1:8000/x/"
    base = "https://rocport.example.com"
    assert settings_in_a_fresh_process(tmp_path, SITE_URL=SITE, ROCPORT_BASE_URL=base) == base + "/x/"


@pytest.mark.django_db
def test_emails_digests_merge_requests_and_commit_statuses_link_to_the_site(settings, people):
    settings.ROCPORT_BASE_URL = SITE + "/"
    repository = Repository.objects.create(team=people.team, name="kernels", clone_url="https://example.com/k.git")
    scan = Scan.objects.create(repository=repository, branch="main", status="finished", commit_sha="a" * 40)

    assert site_url("/scans/1/") == SITE + "/scans/1/"
    assert scan_url(scan) == SITE + reverse("scans:detail", args=[scan.pk])
    body = describe.description(repository, "a" * 40, ["src/k.cu"], [], [])
    assert f"({SITE}/repositories/{repository.pk}/files/src/k.cu)" in body
    assert SITE + reverse("dashboards:repository", args=[repository.pk]) in body
    _, email = notifications.render(scan, [], 0, "high")
    assert SITE + reverse("scans:detail", args=[scan.pk]) in email
    assert SITE + reverse("statuses:notifications", args=[people.team.pk]) in email
    digest = content.build(people.team, date(2025, 3, 3))
    assert digest.portfolio_url == SITE + reverse("dashboards:portfolio")
    assert digest.settings_url.startswith(SITE + reverse("accounts:profile"))
