"""The profile page (/accounts/profile/): the user's address, language and weekly digests, saved for themselves only;
the digest's preview, rendered by the sender's own code for the user's team only; and "send me now" (one email,
through Django's locmem backend here), with its refusals."""

from __future__ import annotations

import html
import socketserver

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from portal.accounts.models import Profile
from portal.digests import content, sending
from portal.digests.models import DigestSent, DigestSubscription
from portal.repositories.models import Repository
from tests.portal.people import PASSWORD, client_for

URL = reverse("accounts:profile")
SEND = reverse("digests:send_now")
COOKIE = django_settings.LANGUAGE_COOKIE_NAME


def _set_email(user, address: str) -> None:
    get_user_model().objects.filter(pk=user.pk).update(email=address)
    user.refresh_from_db()


@pytest.fixture
def repositories(people):
    """A repository of each team, by names that say whose they are."""
    Repository.objects.create(team=people.team, name="kernels", clone_url="https://example.test/kernels.git")
    Repository.objects.create(team=people.other_team, name="secret-sauce", clone_url="https://example.test/s.git")


# -- saving -----------------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_profile_saves_the_address_the_language_and_the_digest_of_the_users_own_teams(people):
    alice = client_for(people.alice)
    page = alice.get(URL)
    assert page.status_code == 200
    text = page.content.decode()
    assert 'name="email"' in text and 'name="language"' in text and f'name="team_{people.team.pk}"' in text
    assert "GPU team" in text and "Other team" not in text
    assert f'href="{URL}" aria-current="page"' in text  # the header links to it

    team = f"team_{people.team.pk}"
    response = alice.post(URL, {"email": "alice@Example.TEST", "language": "zh-hans", team: "on"})
    assert response.status_code == 302 and response["Location"] == URL
    assert response.cookies[COOKIE].value == "zh-hans"  # the portal switches to the language chosen
    people.alice.refresh_from_db()
    assert people.alice.email == "alice@example.test"
    assert Profile.objects.get(user=people.alice).language == "zh-hans"
    subscription = DigestSubscription.objects.get(user=people.alice)
    assert (subscription.team, subscription.language) == (people.team, "zh-hans")
    text = alice.get(URL).content.decode()
    assert '<html lang="zh-hans">' in text and "个人资料已保存。" in text  # the message in the new language
    assert f'name="{team}" id="id_{team}" checked' in text and '<option value="zh-hans" selected>' in text

    alice.post(URL, {"email": "alice@example.test", "language": "en"})  # the digest unchecked
    assert not DigestSubscription.objects.filter(user=people.alice).exists()
    assert Profile.objects.get(user=people.alice).language == "en"
    alice.post(URL, {"email": "", "language": "en", team: "on"})  # the address removed
    people.alice.refresh_from_db()
    assert people.alice.email == "" and DigestSubscription.objects.get(user=people.alice).language == "en"


@pytest.mark.django_db
def test_a_new_language_is_given_to_every_digest_of_the_user(people):
    DigestSubscription.objects.create(user=people.charlie, team=people.other_team, language="en")
    DigestSubscription.objects.create(user=people.alice, team=people.team, language="en")
    client_for(people.alice).post(URL, {"language": "zh-hans", f"team_{people.team.pk}": "on"})
    assert DigestSubscription.objects.get(user=people.alice).language == "zh-hans"
    assert DigestSubscription.objects.get(user=people.charlie).language == "en"  # nobody else's


@pytest.mark.django_db
def test_a_forged_team_is_ignored_and_another_users_subscription_is_untouched(people):
    DigestSubscription.objects.create(user=people.charlie, team=people.other_team, language="en")
    response = client_for(people.bob).post(
        URL, {"language": "en", f"team_{people.other_team.pk}": "on", "team_99999": "on"}
    )
    assert response.status_code == 302
    assert not DigestSubscription.objects.filter(user=people.bob).exists()
    assert DigestSubscription.objects.filter(user=people.charlie, team=people.other_team).exists()


@pytest.mark.django_db
def test_a_bad_address_or_an_unknown_language_is_refused_and_saves_nothing(people):
    vera = client_for(people.vera)
    team = f"team_{people.team.pk}"
    response = vera.post(URL, {"email": "vera at example", "language": "en", team: "on"})
    assert response.status_code == 200 and "Enter a valid email address, such as" in response.content.decode()
    response = vera.post(URL, {"email": "vera@example.test", "language": "klingon", team: "on"})
    assert response.status_code == 200 and "klingon" in response.content.decode()
    assert COOKIE not in response.cookies
    # Valid for the email check, but longer than User.email's 254 characters: refused, not a database error.
    long = "v" * 64 + "@" + ".".join(["e" * 60] * 4) + ".test"
    response = vera.post(URL, {"email": long, "language": "en", team: "on"})
    assert response.status_code == 200 and "at most 254 characters" in response.content.decode()
    people.vera.refresh_from_db()
    assert people.vera.email == "" and not Profile.objects.exists() and not DigestSubscription.objects.exists()


@pytest.mark.django_db
def test_sign_in_and_csrf_are_required(people):
    for url in (URL, reverse("digests:settings")):
        response = Client().get(url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(people.alice)
    response = strict.post(URL, {"email": "alice@example.test", "language": "en"})
    assert response.status_code == 403
    _set_email(people.alice, "alice@example.test")
    assert strict.post(SEND, {"team": people.team.pk}).status_code == 403
    people.alice.refresh_from_db()
    assert not Profile.objects.exists() and mail.outbox == []


@pytest.mark.django_db
def test_signing_in_applies_the_language_of_the_profile(people):
    response = Client().post(reverse("login"), {"username": "bob", "password": PASSWORD})
    assert response.status_code == 302 and COOKIE not in response.cookies  # no profile: the browser's language
    Profile.objects.create(user=people.bob, language="zh-hans")
    response = Client().post(reverse("login"), {"username": "bob", "password": PASSWORD})
    assert response.status_code == 302 and response.cookies[COOKIE].value == "zh-hans"


@pytest.mark.django_db
def test_the_old_digest_address_leads_to_the_profile(people):
    response = client_for(people.bob).get(reverse("digests:settings"))
    assert response.status_code == 302 and response["Location"] == URL + "#digest"


@pytest.mark.django_db
def test_a_user_in_no_team_has_no_digest_and_no_preview(people):
    loner = get_user_model().objects.create_user("loner")
    text = client_for(loner).get(URL).content.decode()
    assert "not a member of any team" in text and 'id="digest-preview"' not in text
    assert client_for(loner).post(SEND, {"team": people.team.pk}).status_code == 404


# -- the preview ------------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_preview_is_the_email_of_the_users_own_team_as_the_sender_renders_it(people, repositories):
    week = sending.covered_week(timezone.localdate())
    alice = client_for(people.alice)
    text = alice.get(URL).content.decode()
    subject, body = sending.render(content.build(people.team, week), "en")
    assert html.escape(subject) in text and html.escape(body) in text  # the sender's own rendering, whole
    assert "- kernels: " in body and "secret-sauce" not in text and "Other team" not in text
    text = client_for(people.charlie).get(URL).content.decode()
    assert "- secret-sauce: " in text and "kernels" not in text and "GPU team" not in text

    Profile.objects.create(user=people.alice, language="zh-hans")  # the preview speaks the profile's language
    subject, body = sending.render(content.build(people.team, week), "zh-hans")
    text = alice.get(URL, headers={"accept-language": "en"}).content.decode()
    assert html.escape(body) in text and 'lang="zh-hans"' in text


@pytest.mark.django_db
def test_the_preview_follows_the_team_chosen_in_the_header_among_the_users_own(people, repositories):
    from portal.accounts.models import Membership

    Membership.objects.create(user=people.alice, team=people.other_team, role="viewer")
    alice = client_for(people.alice)
    assert "- kernels: " in alice.get(URL).content.decode()  # GPU team, first by name
    alice.post(reverse("accounts:switch_team"), {"team": people.other_team.pk})
    text = alice.get(URL).content.decode()
    assert "- secret-sauce: " in text and f'name="team" value="{people.other_team.pk}"' in text


# -- send me now ------------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_send_me_now_sends_the_previewed_digest_once_to_the_users_address(people, repositories):
    _set_email(people.alice, "alice@example.test")
    alice = client_for(people.alice)
    response = alice.post(SEND, {"team": people.team.pk}, follow=True)
    assert response.redirect_chain == [(URL + "#digest", 302)]
    assert "The weekly digest of GPU team is on its way to alice@example.test." in response.content.decode()
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    subject, body = sending.render(content.build(people.team, sending.covered_week(timezone.localdate())), "en")
    assert (message.to, message.subject, message.body) == (["alice@example.test"], subject, body)
    assert message.from_email == django_settings.DEFAULT_FROM_EMAIL
    assert not DigestSent.objects.exists()  # extra: the week's digest still comes on Monday


@pytest.mark.django_db
def test_send_me_now_refuses_without_an_address_and_for_another_team(people, repositories):
    bob = client_for(people.bob)
    response = bob.post(SEND, {"team": people.team.pk}, follow=True)
    assert response.status_code == 200
    assert "Your profile has no email address, so nothing can be sent" in response.content.decode()
    _set_email(people.bob, "bob@example.test")
    assert bob.post(SEND, {"team": people.other_team.pk}).status_code == 404  # not his team: as if none
    assert bob.post(SEND, {"team": "nonsense"}).status_code == 404
    assert bob.post(SEND, {}).status_code == 404
    assert bob.get(SEND).status_code == 405
    assert mail.outbox == []


@pytest.mark.django_db
def test_a_mail_server_that_refuses_is_said_and_the_address_is_not_logged(people, repositories, settings, caplog):
    _set_email(people.vera, "vera@example.test")
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    closed = socketserver.TCPServer(("127.0.0.1", 0), socketserver.BaseRequestHandler)
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", closed.server_address[1]
    closed.server_close()  # nobody listens there now
    response = client_for(people.vera).post(SEND, {"team": people.team.pk}, follow=True)
    assert "The mail server did not take the digest." in response.content.decode()
    assert "ConnectionRefusedError" in caplog.text and "vera@example.test" not in caplog.text
