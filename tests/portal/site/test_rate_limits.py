"""Rate limits (portal/accounts/throttle.py) against the real Redis cache: sign-in per address and per username,
API token creation per user, weekly digests sent now per user, failed bearer tokens per address, webhooks per
repository and per address.

Each test counts in Redis (the test run's broker database) under a key prefix of its own, so nothing left by
another test or another run is counted, and removes its keys afterwards. The requests come from made-up
addresses (REMOTE_ADDR), which is what django-ratelimit reads without ROCPORT_RATELIMIT_IP_HEADER.
"""

from __future__ import annotations

import importlib.util
import os
import time
import uuid
from pathlib import Path

import pytest
import redis
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.exceptions import ImproperlyConfigured
from django.test import Client
from django.urls import reverse

from portal import settings as settings_module
from portal.accounts import tokens
from portal.accounts.models import ApiToken
from portal.repositories.models import Repository
from tests.portal.people import PASSWORD, client_for

BROKER = os.environ["CELERY_BROKER_URL"]


@pytest.fixture
def redis_cache(settings):
    """Django's RedisCache on the test run's own Redis database, under a prefix used by this test only."""
    prefix = f"ratelimit-test-{uuid.uuid4().hex}"
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": BROKER, "KEY_PREFIX": prefix}
    }
    settings.RATELIMIT_ENABLE = True
    client = redis.Redis.from_url(BROKER)
    yield client, prefix
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)


def sign_in(username: str, password: str, address: str):
    return Client().post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address)


def assert_429(response, json: bool):
    assert response.status_code == 429
    retry_after = int(response["Retry-After"])
    assert 1 <= retry_after <= 3600
    if json:
        assert response["Content-Type"] == "application/json"
        assert "Too many requests" in response.json()["detail"] and response.json()["retry_after"] == retry_after
    else:
        assert response["Content-Type"].startswith("text/html")
        assert "<h1>Too many requests</h1>" in response.content.decode()
    return retry_after


@pytest.mark.django_db
def test_sign_in_attempts_are_limited_per_address_and_other_addresses_are_not(people, redis_cache, settings):
    settings.ROCPORT_RATE_SIGNIN_IP = "3/h"
    for name in ("alice", "bob", "vera"):  # a spray across accounts: three addresses' worth from one
        assert sign_in(name, "wrong", "10.1.0.1").status_code == 200
    assert_429(sign_in("charlie", PASSWORD, "10.1.0.1"), json=False)  # even the right password: refused
    assert sign_in("charlie", PASSWORD, "10.1.0.2").status_code == 302  # another address signs in


@pytest.mark.django_db
def test_failed_sign_ins_are_limited_per_username_and_successes_do_not_count(people, redis_cache, settings):
    settings.ROCPORT_RATE_SIGNIN_USERNAME = "3/h"
    for address in ("10.2.0.1", "10.2.0.2", "10.2.0.3"):  # guessing alice's password from three addresses
        response = sign_in("alice", "wrong", address)
        assert response.status_code == 200 and "did not match" in response.content.decode()
    assert_429(sign_in("alice", PASSWORD, "10.2.0.4"), json=False)
    for _ in range(5):  # bob signs in more often than the limit: successes are not failures
        assert sign_in("bob", PASSWORD, "10.2.0.1").status_code == 302


@pytest.mark.django_db
def test_a_sign_in_limit_lifts_once_its_window_is_over(people, redis_cache, settings, time_machine):
    settings.ROCPORT_RATE_SIGNIN_IP = "2/3s"
    # The clock stands still while the three tries are made (each checks a password: slow on a loaded machine, and
    # a window boundary between them would reset the count), then moves past the window the 429 names.
    time_machine.move_to(time.time(), tick=False)
    assert [sign_in("alice", "wrong", "10.3.0.1").status_code for _ in range(2)] == [200, 200]
    retry_after = assert_429(sign_in("alice", "wrong", "10.3.0.1"), json=False)
    assert 0 < retry_after <= 3
    assert sign_in("alice", PASSWORD, "10.3.0.1").status_code == 429  # still refused, even the right password
    time_machine.shift(retry_after + 0.5)
    assert sign_in("alice", PASSWORD, "10.3.0.1").status_code == 302


@pytest.mark.django_db
def test_token_creation_is_limited_per_user(people, redis_cache, settings):
    settings.ROCPORT_RATE_TOKEN_CREATE = "2/h"
    alice, bob = client_for(people.alice), client_for(people.bob)
    url = reverse("accounts:tokens")
    for n in range(2):
        assert "rp_" in alice.post(url, {"name": f"ci {n}"}).content.decode()
    assert_429(alice.post(url, {"name": "one more"}), json=False)
    assert ApiToken.objects.filter(user=people.alice).count() == 2  # the refused request created nothing
    assert alice.get(url).status_code == 200  # the list still opens
    assert "rp_" in bob.post(url, {"name": "bob's"}).content.decode()


@pytest.mark.django_db
def test_digests_sent_now_are_limited_per_user(people, redis_cache, settings):
    settings.ROCPORT_RATE_DIGEST_SEND = "2/h"
    get_user_model().objects.filter(username__in=["alice", "bob"]).update(email="someone@example.test")
    alice, bob = client_for(people.alice), client_for(people.bob)
    url, body = reverse("digests:send_now"), {"team": people.team.pk}
    for _ in range(2):
        assert alice.post(url, body).status_code == 302
    assert_429(alice.post(url, body), json=False)
    assert len(mail.outbox) == 2  # the refused request sent nothing
    assert bob.post(url, body).status_code == 302 and len(mail.outbox) == 3


@pytest.mark.django_db
def test_bad_bearer_tokens_are_limited_per_address_on_the_api_the_upload_and_exports(people, redis_cache, settings):
    settings.ROCPORT_RATE_TOKEN_FAILURES_IP = "3/h"
    _, good = tokens.issue(people.alice, "ci")
    api = "/api/v1/repositories/"

    def call(url, token, address, method="get"):
        return getattr(Client(), method)(url, HTTP_AUTHORIZATION=f"Bearer {token}", REMOTE_ADDR=address)

    for n in range(3):
        assert call(api, f"rp_guess{n}", "10.4.0.1").status_code == 401
    assert_429(call(api, good, "10.4.0.1"), json=True)  # blocked before any lookup, a good token too
    assert_429(call(reverse("upload") + "?repository=1", good, "10.4.0.1", "post"), json=True)
    assert_429(call(reverse("scans:export", args=[1, "json"]), good, "10.4.0.1"), json=True)  # a script's export
    assert call(api, good, "10.4.0.2").status_code == 200  # another address is not blocked
    assert call(api, "rp_guess", "10.4.0.2").status_code == 401


def deliver(repository_id: int, address: str):
    return Client().post(
        reverse("webhooks:receive", args=[repository_id, "github"]),
        b"{}",
        content_type="application/json",
        REMOTE_ADDR=address,
        HTTP_X_GITHUB_EVENT="push",
        HTTP_X_HUB_SIGNATURE_256="sha256=" + "0" * 64,
    )


@pytest.fixture
def repositories(people):
    return [
        Repository.objects.create(team=people.team, name=f"r{n}", clone_url=f"https://example.com/r{n}.git")
        for n in range(2)
    ]


@pytest.mark.django_db
def test_webhooks_are_limited_per_repository_and_per_address(repositories, redis_cache, settings):
    first, second = repositories
    settings.ROCPORT_RATE_WEBHOOK_REPOSITORY = "5/h"
    for n in range(5):
        assert deliver(first.pk, f"10.5.0.{n}").status_code in (401, 403)  # refused signature, but counted
    assert_429(deliver(first.pk, "10.5.1.1"), json=True)
    assert deliver(second.pk, "10.5.1.1").status_code in (401, 403)  # another repository is not limited
    settings.ROCPORT_RATE_WEBHOOK_REPOSITORY = "1000/h"
    settings.ROCPORT_RATE_WEBHOOK_IP = "4/h"
    for _ in range(4):
        assert deliver(second.pk, "10.5.2.1").status_code in (401, 403)
    assert_429(deliver(second.pk, "10.5.2.1"), json=True)
    assert deliver(second.pk, "10.5.2.2").status_code in (401, 403)


def fresh_settings(monkeypatch, **env: str):
    """portal/settings.py run again, as a process started with this environment would see it (tests/portal/
    conftest.py raises the rates for the suite: here they are the shipped defaults unless given)."""
    for name in list(os.environ):
        if name.startswith("ROCPORT_RATE_") or name == "CACHE_URL":
            monkeypatch.delenv(name)
    for name, value in env.items():
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    spec = importlib.util.spec_from_file_location("fresh_settings", Path(settings_module.__file__))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.django_db
def test_the_default_webhook_limits_let_a_burst_of_hundreds_of_deliveries_through(
    repositories, redis_cache, settings, monkeypatch
):
    defaults = fresh_settings(monkeypatch)
    settings.ROCPORT_RATE_WEBHOOK_REPOSITORY = defaults.ROCPORT_RATE_WEBHOOK_REPOSITORY
    settings.ROCPORT_RATE_WEBHOOK_IP = defaults.ROCPORT_RATE_WEBHOOK_IP
    statuses = {deliver(repositories[0].pk, "10.6.0.1").status_code for _ in range(400)}
    assert 429 not in statuses


@pytest.mark.django_db
def test_the_limits_fail_open_when_the_cache_is_down(people, repositories, settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 1},
        }
    }
    settings.ROCPORT_RATE_SIGNIN_IP = settings.ROCPORT_RATE_WEBHOOK_REPOSITORY = "1/h"
    for _ in range(3):
        assert sign_in("alice", PASSWORD, "10.7.0.1").status_code == 302
        assert deliver(repositories[0].pk, "10.7.0.1").status_code in (401, 403)


def test_the_cache_is_the_brokers_redis_with_the_next_database_unless_cache_url_says_otherwise(monkeypatch):
    derived = fresh_settings(monkeypatch, CELERY_BROKER_URL="redis://:pw@cache.example:6380/3")
    assert derived.CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    assert derived.CACHES["default"]["LOCATION"] == "redis://:pw@cache.example:6380/4"
    assert "django_ratelimit.E003" not in derived.SILENCED_SYSTEM_CHECKS  # Redis: the check stays on
    explicit = fresh_settings(monkeypatch, CELERY_BROKER_URL="redis://a:6379/0", CACHE_URL="redis://b:6379/5")
    assert explicit.CACHES["default"]["LOCATION"] == "redis://b:6379/5"
    embedded = fresh_settings(monkeypatch, CELERY_BROKER_URL=None)
    assert embedded.CACHES["default"]["BACKEND"] == "django.core.cache.backends.filebased.FileBasedCache"
    assert "django_ratelimit.E003" in embedded.SILENCED_SYSTEM_CHECKS
    with pytest.raises(ImproperlyConfigured, match="set CACHE_URL"):
        fresh_settings(monkeypatch, CELERY_BROKER_URL="redis://a:6379/15")
    with pytest.raises(ImproperlyConfigured, match="CACHE_URL must be a redis"):
        fresh_settings(monkeypatch, CACHE_URL="memcached://a:11211")


def test_a_malformed_rate_is_refused_with_the_setting_named(monkeypatch):
    with pytest.raises(ImproperlyConfigured, match="ROCPORT_RATE_WEBHOOK_IP must be a rate such as 30/m"):
        fresh_settings(monkeypatch, ROCPORT_RATE_WEBHOOK_IP="lots")
    with pytest.raises(ImproperlyConfigured, match="ROCPORT_RATE_SIGNIN_IP"):
        fresh_settings(monkeypatch, ROCPORT_RATE_SIGNIN_IP="5/0m")  # a zero-length window
    assert fresh_settings(monkeypatch, ROCPORT_RATE_WEBHOOK_IP="500/5m").ROCPORT_RATE_WEBHOOK_IP == "500/5m"


@pytest.mark.django_db
def test_the_embedded_file_cache_counts_too(people, settings, tmp_path):
    """`make run` without Redis: the limits count in files under var/cache (not atomically, see settings)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(tmp_path / "cache"),
        }
    }
    settings.ROCPORT_RATE_SIGNIN_IP = "2/h"
    assert [sign_in("alice", "wrong", "10.8.0.1").status_code for _ in range(2)] == [200, 200]
    assert_429(sign_in("alice", PASSWORD, "10.8.0.1"), json=False)
    assert sign_in("alice", PASSWORD, "10.8.0.2").status_code == 302
