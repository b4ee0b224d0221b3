"""The weekly digest's opt-in page: each user chooses for their own teams only, in a language of their choice."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from portal.digests.models import DigestSubscription
from tests.portal.people import client_for

URL = reverse("digests:settings")


@pytest.mark.django_db
def test_a_member_opts_in_for_a_team_in_a_language_and_out_again(people):
    alice = client_for(people.alice)
    page = alice.get(URL)
    assert page.status_code == 200
    html = page.content.decode()
    assert "GPU team" in html and "Other team" not in html
    assert f'name="team_{people.team.pk}"' in html and f'name="language_{people.team.pk}"' in html
    assert "the five files with the most work left" in html  # what it contains, and when it is sent
    assert alice.post(URL, {f"team_{people.team.pk}": "on", f"language_{people.team.pk}": "zh-hans"}).status_code == 302
    subscription = DigestSubscription.objects.get(user=people.alice)
    assert (subscription.team, subscription.language) == (people.team, "zh-hans")
    html = alice.get(URL).content.decode()
    assert f'name="team_{people.team.pk}" id="id_team_{people.team.pk}" checked' in html
    assert '<option value="zh-hans" selected>' in html
    alice.post(URL, {f"team_{people.team.pk}": "on", f"language_{people.team.pk}": "en"})
    assert DigestSubscription.objects.get(user=people.alice).language == "en"
    alice.post(URL, {f"language_{people.team.pk}": "en"})  # unchecked
    assert not DigestSubscription.objects.filter(user=people.alice).exists()


@pytest.mark.django_db
def test_a_forged_team_is_ignored_and_another_users_subscription_is_untouched(people):
    DigestSubscription.objects.create(user=people.charlie, team=people.other_team, language="en")
    bob = client_for(people.bob)
    response = bob.post(
        URL,
        {
            f"team_{people.other_team.pk}": "on",
            f"language_{people.other_team.pk}": "en",
            "team_99999": "on",
            f"language_{people.team.pk}": "en",
        },
    )
    assert response.status_code == 302
    assert not DigestSubscription.objects.filter(user=people.bob).exists()
    assert DigestSubscription.objects.filter(user=people.charlie, team=people.other_team).exists()


@pytest.mark.django_db
def test_an_unknown_language_is_refused_and_saves_nothing(people):
    vera = client_for(people.vera)
    response = vera.post(URL, {f"team_{people.team.pk}": "on", f"language_{people.team.pk}": "klingon"})
    assert response.status_code == 200 and "klingon" in response.content.decode()
    assert not DigestSubscription.objects.exists()


@pytest.mark.django_db
def test_sign_in_and_csrf_are_required(people):
    response = Client().get(URL)
    assert response.status_code == 302 and reverse("login") in response["Location"]
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(people.alice)
    response = strict.post(URL, {f"team_{people.team.pk}": "on", f"language_{people.team.pk}": "en"})
    assert response.status_code == 403 and not DigestSubscription.objects.exists()


@pytest.mark.django_db
def test_a_user_in_no_team_sees_an_empty_state_and_a_user_without_address_a_note(people):
    loner = get_user_model().objects.create_user("loner")
    html = client_for(loner).get(URL).content.decode()
    assert "not a member of any team" in html and '<form method="post" action="/digests/"' not in html
    assert "no email address" in html
    get_user_model().objects.filter(pk=people.alice.pk).update(email="alice@example.test")
    assert "no email address" not in client_for(people.alice).get(URL).content.decode()


@pytest.mark.django_db
def test_the_page_renders_in_chinese(people):
    alice = client_for(people.alice, headers={"accept-language": "zh-hans"})
    page = alice.get(URL)
    assert page.status_code == 200
    html = page.content.decode()
    assert '<option value="zh-hans" selected>' in html  # a team not subscribed yet offers the page's language
