"""Property tests of webhook parsing (hypothesis): mutated real deliveries (tests/fixtures/webhooks/) and random
JSON, correctly signed, posted through the Django test client to the real endpoints on PostgreSQL. Every answer
is 2xx or 4xx with a reason, never a 500 (the test client re-raises a view's exception); a scan starts only for
a well-formed push of a tracked branch naming a full commit sha, and never for a refused delivery."""

from __future__ import annotations

import itertools
import json
import re
from urllib.parse import quote_from_bytes

import pytest

# First: the portal tests' environment (services, settings, django.setup()) and their users and team.
from tests.portal.conftest import people  # noqa: F401

# isort: split
from django.db import transaction
from django.test import Client, override_settings
from hypothesis import event as label
from hypothesis import given
from hypothesis import strategies as st

from portal.repositories.models import Repository
from portal.scans.models import Scan
from portal.webhooks.models import WebhookDelivery
from tests.fuzz.budget import fuzz_settings
from tests.fuzz.mutations import MUTATIONS, WEBHOOK_FIXTURES, mutate, webhook_corpus
from tests.portal.webhook_stack import signed

PROVIDERS = ("github", "gitlab", "gitea", "forgejo")
TRACKED = ["main", "feature/x", "r" * 200]
SHA = re.compile(r"[0-9a-f]{40}")
EVENTS = ("push", "Push Hook", "Tag Push Hook", "ping", "create", "delete", "System Hook", "Test Hook", "issues", "")
_deliveries = itertools.count()

hostile_text = st.sampled_from(
    [
        "refs/heads/main",
        "refs/heads/feature/x",
        "refs/heads/" + "r" * 200,
        "refs/heads/" + "x" * 2000,
        "refs/heads/main\x00",
        "refs/heads/\ud800",
        "refs/tags/v1",
        "main",
        "",
        "a" * 40,
        "a" * 40 + "\n",
        "A" * 40,
        "0" * 40,
        "f" * 64,
        "f" * 41,
        "\x00" * 40,
        "\ud83d",
        "x" * 100_000,
        "<script>",
        "../../etc",
    ]
) | st.text(max_size=50)
json_value = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | hostile_text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
PUSH_KEYS = ("ref", "before", "after", "checkout_sha", "deleted", "ref_type", "created", "head_commit", "commits")


@st.composite
def payloads(draw) -> tuple[str, bytes]:
    """(provider, body bytes) for one delivery."""
    corpus = webhook_corpus()
    provider, original = draw(st.sampled_from(corpus))
    kind = draw(st.integers(0, 4))
    if kind == 0:  # the real bytes, mutated
        steps = draw(
            st.lists(st.tuples(st.integers(0, len(MUTATIONS) - 1), st.integers(0, 2**32)), min_size=1, max_size=3)
        )
        return provider, mutate(original, steps, tuple(body for _, body in corpus))
    if kind == 1:  # random JSON of any shape
        return provider, json.dumps(draw(json_value)).encode()
    if kind == 2:  # very deep nesting
        depth = draw(st.sampled_from([100, 1_000, 10_000, 100_000]))
        opening = draw(st.sampled_from(["[", '{"a":']))
        return provider, (opening * depth).encode() + b"1" + (b"]" if opening == "[" else b"}") * depth
    payload = json.loads(original)  # a real delivery with its push fields replaced
    for key in draw(st.lists(st.sampled_from(PUSH_KEYS), min_size=1, max_size=4)):
        payload[key] = draw(json_value)
    if draw(st.booleans()):
        payload["ref"] = draw(st.sampled_from(["refs/heads/main", "refs/heads/feature/x", "refs/heads/" + "r" * 200]))
        payload["after"] = draw(st.sampled_from(["a" * 40, "b" * 40 + "\n", "c" * 39, "0" * 40, "d" * 40]))
    ascii_only = draw(st.booleans())  # lone surrogates only survive as \\u escapes
    return provider, json.dumps(payload, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")


def _expected_commit(provider: str, event: str, body: bytes, content_type: str) -> str | None:
    """The commit a scan may be started for, decided here without the portal's parser: a JSON object posted as
    a push event, naming a tracked branch and a full lower-case sha that is not all zeros."""
    try:
        text = body.decode("utf-8")
        if content_type.startswith("application/x-www-form-urlencoded"):
            from urllib.parse import parse_qs

            text = parse_qs(text).get("payload", [""])[0]
        payload = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(payload, dict) or event.lower() not in ("push", "push hook"):
        return None
    ref = payload.get("ref")
    if not isinstance(ref, str) or ref[len("refs/heads/") :] not in TRACKED or not ref.startswith("refs/heads/"):
        return None
    after = payload.get("after")
    if provider == "gitlab" and payload.get("checkout_sha"):
        after = payload["checkout_sha"]
    if payload.get("deleted") is True or not isinstance(after, str) or after == "0" * 40:
        return None
    return after if SHA.fullmatch(after) else None


@pytest.fixture
def repository(people):  # noqa: F811
    return Repository.objects.create(
        team=people.team, name="fuzzed", clone_url="https://example.invalid/x.git", tracked_branches=TRACKED[1:]
    )


@override_settings(RATELIMIT_ENABLE=False)  # the property is about parsing; rate limits have their own tests
@fuzz_settings(examples=250)
@given(
    delivery=payloads(),
    provider=st.sampled_from(PROVIDERS),
    event=st.sampled_from(EVENTS) | st.text(max_size=20),
    form=st.integers(0, 4),
    delivery_id=st.none() | st.text(max_size=300),
)
def test_a_signed_hostile_delivery_is_answered_2xx_or_4xx_and_only_a_real_push_scans(
    repository, delivery, provider, event, form, delivery_id
):
    _, body = delivery
    content_type = "application/json"
    if form == 0 and provider != "gitlab":  # GitHub, Gitea and Forgejo may post `payload=<json>` instead
        content_type = "application/x-www-form-urlencoded"
        body = b"payload=" + quote_from_bytes(body).encode()
    event = event.replace("\x00", "")  # a header cannot carry NUL: gunicorn refuses it before Django
    headers = signed(
        provider,
        repository.webhook_secret,
        body,
        event,
        delivery=(delivery_id or "").replace("\x00", "") or f"fuzz-{next(_deliveries)}",
    )
    headers = {name: value.encode("utf-8", "surrogatepass").decode("latin-1") for name, value in headers.items()}
    with transaction.atomic():  # each example on a clean slate: rolled back below
        scans_before = Scan.objects.count()
        response = Client().generic(
            "POST", f"/hooks/{repository.pk}/{provider}/", body, content_type=content_type, headers=headers
        )
        assert 200 <= response.status_code < 500, response.status_code
        answer = response.json()
        reason = answer.get("result") or answer.get("error")
        assert isinstance(reason, str) and reason, answer
        new_scans = list(Scan.objects.order_by("pk")[scans_before:])
        label(f"{response.status_code}, {len(new_scans)} scan(s)")  # --hypothesis-show-statistics
        if response.status_code >= 400:
            assert not new_scans, (response.status_code, reason)
            assert not WebhookDelivery.objects.exclude(scan=None).exists()
        expected = _expected_commit(
            provider, headers[_event_header(provider)].encode("latin-1").decode("utf-8", "replace"), body, content_type
        )
        for scan in new_scans:
            assert scan.commit_sha == expected and scan.branch in TRACKED, (scan.commit_sha, scan.branch, reason)
        transaction.set_rollback(True)


def _event_header(provider: str) -> str:
    return {
        "github": "X-GitHub-Event",
        "gitlab": "X-Gitlab-Event",
        "gitea": "X-Gitea-Event",
        "forgejo": "X-Forgejo-Event",
    }[provider]


def _push(**fields) -> bytes:
    payload = json.loads((WEBHOOK_FIXTURES / "github" / "push.json").read_bytes())
    payload.update(fields)
    return json.dumps(payload).encode()


@pytest.mark.parametrize(
    "body, reason",
    [
        # found by the test above; each used to be a 500 (PostgreSQL refusing the value, or json's recursion)
        (_push(ref="refs/heads/" + "x" * 600), "longer than 500"),
        (_push(ref="refs/heads/main", after="a" * 40 + "\n"), "names no commit"),  # `$` matched before the newline
        (_push(ref="refs/heads/main\u0000"), "NUL"),
        (json.dumps({"ref": "refs/heads/\ud800", "after": "a" * 40}).encode(), "not valid Unicode"),
        (_push(ref=["refs/heads/main"]), "not a string"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    ],
)
def test_payloads_that_were_a_server_error_are_refused_with_a_reason_and_start_nothing(repository, body, reason):
    response = Client().generic(
        "POST",
        f"/hooks/{repository.pk}/github/",
        body,
        content_type="application/json",
        headers=signed("github", repository.webhook_secret, body),
    )
    assert response.status_code == 400 and reason in response.json()["result"], response.content[:300]
    assert not Scan.objects.exists()
