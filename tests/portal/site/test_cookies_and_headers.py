"""Production settings, as a deployment sets them from the environment, give secure cookies and the security
headers: the session and CSRF cookies are Secure, HttpOnly and SameSite=Lax, plain HTTP is redirected to HTTPS,
and every answer carries HSTS, nosniff, frame DENY, the referrer and opener policies, Permissions-Policy and
Cross-Origin-Resource-Policy. A separate process loads the settings module with that environment (as gunicorn
would) and signs in with Django's test client against the test database."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys

import pytest
from cryptography.fernet import Fernet
from django.test import Client

from tests.portal import worker
from tests.portal.people import PASSWORD

SIGN_IN = r"""
import json, sys
import django
django.setup()
from django.test import Client

def cookies(response):
    return {name: {"secure": bool(m["secure"]), "httponly": bool(m["httponly"]), "samesite": m["samesite"]}
            for name, m in response.cookies.items()}

client = Client(HTTP_HOST="rocport.example.com")
plain = client.get("/accounts/login/")
form = client.get("/accounts/login/", secure=True)
signed_in = client.post("/accounts/login/", {"username": "alice", "password": sys.argv[1]}, secure=True)
print(json.dumps({
    "plain": [plain.status_code, plain.headers.get("Location", "")],
    "form": [form.status_code, dict(form.headers), cookies(form)],
    "signed_in": [signed_in.status_code, cookies(signed_in)],
}))
"""


def production_env(tmp_path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("ROCPORT_", "DEBUG", "SECRET_KEY", "SESSION_", "SECURE_"))
    }
    env.update(
        DJANGO_SETTINGS_MODULE="portal.settings",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(60),
        ALLOWED_HOSTS="rocport.example.com",
        SESSION_COOKIE_SECURE="1",
        SECURE_SSL_REDIRECT="1",
        SECURE_HSTS_SECONDS="31536000",
        ROCPORT_VAR_DIR=str(tmp_path),
        ROCPORT_CREDENTIALS_KEYS=Fernet.generate_key().decode(),
        DATABASE_URL=worker.test_database_url(),
        CACHE_URL=os.environ["CELERY_BROKER_URL"],
    )  # this run's own Redis database
    return env


@pytest.mark.django_db(transaction=True)  # the other process must see alice
def test_production_cookies_are_secure_httponly_and_samesite_and_http_is_redirected(people, tmp_path):
    result = subprocess.run(
        [sys.executable, "-c", SIGN_IN, PASSWORD],
        cwd=worker.ROOT,
        env=production_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    answers = json.loads(result.stdout.strip().splitlines()[-1])
    assert answers["plain"] == [301, "https://rocport.example.com/accounts/login/"]
    status, headers, form_cookies = answers["form"]
    assert status == 200
    assert form_cookies["csrftoken"] == {"secure": True, "httponly": True, "samesite": "Lax"}
    assert headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"
    assert headers["X-Content-Type-Options"] == "nosniff" and headers["X-Frame-Options"] == "DENY"
    assert headers["Referrer-Policy"] == "same-origin" and headers["Cross-Origin-Opener-Policy"] == "same-origin"
    assert headers["Cross-Origin-Resource-Policy"] == "same-origin"
    assert "camera=()" in headers["Permissions-Policy"]
    assert headers["X-Permitted-Cross-Domain-Policies"] == "none"
    status, signed_in_cookies = answers["signed_in"]
    assert status == 302  # signed in
    assert signed_in_cookies["sessionid"] == {"secure": True, "httponly": True, "samesite": "Lax"}
    assert signed_in_cookies["csrftoken"]["secure"] and signed_in_cookies["csrftoken"]["httponly"]


@pytest.mark.django_db
def test_pages_still_send_the_csrf_token_in_the_markup_for_htmx(people):
    """The CSRF cookie is hidden from scripts, so the token must be in the page for htmx's header."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(people.alice)
    page = client.get("/findings/").content.decode()
    token = page.split('hx-headers=\'{"X-CSRFToken": "', 1)[1].split('"', 1)[0]
    assert len(token) == 64
    response = client.post("/accounts/tokens/", {"name": "from htmx"}, HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 200 and "rp_" in response.content.decode()


def test_static_files_carry_the_headers_too():
    response = Client().get("/static/rocport.js")
    assert response.status_code == 200
    assert response.headers["Cross-Origin-Resource-Policy"] == "same-origin"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
