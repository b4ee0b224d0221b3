"""Deployment security: `check --deploy` is clean with production settings, and every page is served with a
Content-Security-Policy that its markup satisfies (no inline script, style attribute or event handler). The
browser tests add the proof a browser gives: a CSP violation is a console error, and they fail on any."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.fernet import Fernet
from django.test import Client
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[3]


def test_check_deploy_is_clean_with_production_settings(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ROCPORT_", "DEBUG", "SECRET_KEY"))}
    env.update(
        DJANGO_SETTINGS_MODULE="portal.settings",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(60),
        ALLOWED_HOSTS="rocport.example.com",
        SESSION_COOKIE_SECURE="1",
        SECURE_SSL_REDIRECT="1",
        SECURE_HSTS_SECONDS="31536000",
        ROCPORT_VAR_DIR=str(tmp_path),
        ROCPORT_CREDENTIALS_KEY=Fernet.generate_key().decode(),
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I), "inline <script>"),
    (re.compile(r"<style[\s>]", re.I), "<style> element"),
    (re.compile(r"\sstyle\s*=", re.I), "style attribute"),
    (re.compile(r"\son[a-z]+\s*=", re.I), "inline event handler"),
]


@pytest.mark.django_db
def test_pages_carry_a_strict_csp_and_contain_nothing_it_would_block(people):
    from tests.portal.findings_data import make_findings

    repository, scan = make_findings(people.team, 5)
    client = Client()
    client.force_login(people.alice)
    pages = [
        reverse("dashboards:portfolio"),
        reverse("dashboards:repository", args=[repository.pk]),
        reverse("findings:list"),
        reverse("catalogue:rules"),
        reverse("repositories:list"),
        reverse("repositories:detail", args=[repository.pk]),
        reverse("repositories:settings", args=[repository.pk]),
        reverse("scans:detail", args=[scan.pk]),
        reverse("login"),
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        policy = response.headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "style-src 'self'" in policy and "unsafe-inline" not in policy
        assert response.headers["X-Frame-Options"] == "DENY" and response.headers["X-Content-Type-Options"] == "nosniff"
        html = response.content.decode()
        for pattern, what in INLINE:
            match = pattern.search(html)
            assert match is None, f"{url}: {what}: {html[max(0, match.start() - 80) : match.end() + 80]}"
