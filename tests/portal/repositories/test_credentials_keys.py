"""Secrets at rest under an ordered key list (portal/repositories/crypto.py) and `manage.py rotate_credentials_key`:
old data reads once a new key is added in front, rotation moves every stored secret onto the newest key (and a
second run changes nothing), a value no key reads stops the rotation before anything is written, and the
settings refuse a malformed key list clearly."""

from __future__ import annotations

import io

import pytest
from cryptography.fernet import Fernet
from django.apps import apps
from django.core.exceptions import ImproperlyConfigured
from django.core.management import CommandError, call_command

from portal.repositories import crypto
from portal.repositories.models import Repository
from portal.statuses.models import CommitStatusConfig

OLD, NEW, STRANGER = (Fernet.generate_key().decode() for _ in range(3))


@pytest.fixture
def stored(people, settings):
    """Two repositories with clone credentials and one commit-status token, all written under OLD."""
    settings.ROCPORT_CREDENTIALS_KEYS = [OLD]
    repos = []
    for n, secret in enumerate(("hunter2-clone-password", "ghp_clonetoken0123456789")):
        repo = Repository(team=people.team, name=f"private{n}", clone_url=f"https://git.example.com/p{n}.git")
        repo.set_credentials(f"user{n}", secret)
        repo.save()
        repos.append(repo)
    config = CommitStatusConfig(repository=repos[0], api_url="https://api.github.com", project="o/p")
    config.set_token("ghp_statustoken9876543210")
    config.save()
    return repos, config


def rotate(*args) -> str:
    out = io.StringIO()
    call_command("rotate_credentials_key", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def secrets_now(repos, config) -> list[str]:
    return [Repository.objects.get(pk=r.pk).credentials()[1] for r in repos] + [
        CommitStatusConfig.objects.get(pk=config.pk).token()
    ]


def ciphertexts(repos, config) -> list[str]:
    return [Repository.objects.get(pk=r.pk).credentials_encrypted for r in repos] + [
        CommitStatusConfig.objects.get(pk=config.pk).token_encrypted
    ]


EXPECTED = ["hunter2-clone-password", "ghp_clonetoken0123456789", "ghp_statustoken9876543210"]


@pytest.mark.django_db
def test_secrets_written_under_the_old_key_read_once_a_new_key_is_added_in_front(stored, settings):
    settings.ROCPORT_CREDENTIALS_KEYS = [NEW, OLD]
    assert secrets_now(*stored) == EXPECTED
    repo = Repository.objects.get(pk=stored[0][1].pk)
    repo.set_credentials("user1", "a-new-password")  # new writes use the newest key
    repo.save()
    settings.ROCPORT_CREDENTIALS_KEYS = [NEW]
    assert repo.credentials() == ("user1", "a-new-password")


@pytest.mark.django_db
def test_rotation_moves_every_secret_to_the_newest_key_and_a_second_run_changes_nothing(stored, settings):
    settings.ROCPORT_CREDENTIALS_KEYS = [NEW, OLD]
    before = ciphertexts(*stored)
    assert rotate().startswith("re-encrypted 3, already under the newest key 0, changed meanwhile 0")
    after = ciphertexts(*stored)
    assert all(a != b for a, b in zip(before, after))
    assert rotate().startswith("re-encrypted 0, already under the newest key 3,")
    assert ciphertexts(*stored) == after  # idempotent: nothing rewritten
    settings.ROCPORT_CREDENTIALS_KEYS = [NEW]  # the old key can go now
    assert secrets_now(*stored) == EXPECTED
    settings.ROCPORT_CREDENTIALS_KEYS = [OLD]  # and it no longer reads them
    with pytest.raises(crypto.CredentialsUnreadable):
        Repository.objects.get(pk=stored[0][0].pk).credentials()


@pytest.mark.django_db
def test_a_wrong_key_is_a_clear_error_that_names_the_setting_and_no_secret(stored, settings):
    settings.ROCPORT_CREDENTIALS_KEYS = [STRANGER]
    with pytest.raises(crypto.CredentialsUnreadable) as raised:
        Repository.objects.get(pk=stored[0][0].pk).credentials()
    message = str(raised.value)
    assert "ROCPORT_CREDENTIALS_KEYS" in message and "hunter2" not in message and STRANGER not in message
    with pytest.raises(ValueError):  # what the commit-status task catches
        CommitStatusConfig.objects.get(pk=stored[1].pk).token()


@pytest.mark.django_db
def test_a_secret_no_key_reads_stops_the_rotation_before_anything_is_written(stored, people, settings):
    settings.ROCPORT_CREDENTIALS_KEYS = [STRANGER]
    lost = Repository(team=people.team, name="lost", clone_url="https://git.example.com/lost.git")
    lost.set_credentials("u", "written-under-a-key-now-gone")
    lost.save()
    settings.ROCPORT_CREDENTIALS_KEYS = [NEW, OLD]
    before = ciphertexts(*stored)
    with pytest.raises(CommandError) as raised:
        rotate()
    assert f"repositories.Repository id {lost.pk} (credentials_encrypted)" in str(raised.value)
    assert "nothing was changed" in str(raised.value)
    assert ciphertexts(*stored) == before
    assert rotate("--skip-unreadable").startswith(
        "re-encrypted 3, already under the newest key 0, changed meanwhile 0, unreadable and left as they were 1"
    )
    assert Repository.objects.get(pk=lost.pk).credentials_encrypted == lost.credentials_encrypted  # kept as is
    settings.ROCPORT_CREDENTIALS_KEYS = [STRANGER]
    assert Repository.objects.get(pk=lost.pk).credentials() == ("u", "written-under-a-key-now-gone")


def test_every_encrypted_column_is_known_to_the_rotation():
    columns = {
        (model._meta.label, field.name)
        for model in apps.get_models()
        for field in model._meta.get_fields()
        if field.name.endswith("_encrypted")
    }
    assert columns == set(crypto.ENCRYPTED_FIELDS)


def test_the_key_settings_take_a_list_newest_first_or_the_single_key(monkeypatch):
    from portal import settings as portal_settings

    monkeypatch.delenv("ROCPORT_CREDENTIALS_KEY", raising=False)
    monkeypatch.setenv("ROCPORT_CREDENTIALS_KEYS", f" {NEW} , {OLD} ")
    assert portal_settings._credential_keys() == [NEW, OLD]
    monkeypatch.setenv("ROCPORT_CREDENTIALS_KEY", OLD)  # the single key, still in the list: fine
    assert portal_settings._credential_keys() == [NEW, OLD]
    monkeypatch.delenv("ROCPORT_CREDENTIALS_KEYS")
    assert portal_settings._credential_keys() == [OLD]
    monkeypatch.setenv("ROCPORT_CREDENTIALS_KEYS", NEW)
    with pytest.raises(ImproperlyConfigured, match="ROCPORT_CREDENTIALS_KEY is not in ROCPORT_CREDENTIALS_KEYS"):
        portal_settings._credential_keys()
    monkeypatch.delenv("ROCPORT_CREDENTIALS_KEY")
    monkeypatch.setenv("ROCPORT_CREDENTIALS_KEYS", f"{NEW},not-a-key-at-all")
    with pytest.raises(ImproperlyConfigured, match="credentials key number 2 is not a Fernet key") as raised:
        portal_settings._credential_keys()
    assert "not-a-key-at-all" not in str(raised.value)


def test_the_keys_can_come_from_a_file_one_per_line(monkeypatch, tmp_path):
    from portal import settings as portal_settings

    path = tmp_path / "keys"
    path.write_text(f"{NEW}\n{OLD}\n")
    monkeypatch.delenv("ROCPORT_CREDENTIALS_KEY", raising=False)
    monkeypatch.delenv("ROCPORT_CREDENTIALS_KEYS", raising=False)
    monkeypatch.setenv("ROCPORT_CREDENTIALS_KEYS_FILE", str(path))
    assert portal_settings._credential_keys() == [NEW, OLD]


@pytest.mark.django_db
def test_a_scan_whose_credentials_no_key_reads_fails_as_a_user_error_that_says_what_to_do(
    people, repo_factory, settings
):
    from portal.scans.actions import do_create_scan
    from portal.scans.pipeline import runner as pipeline

    settings.ROCPORT_CREDENTIALS_KEYS = [OLD]
    repo = repo_factory()
    commit = repo.commit("kernel", **{"k.cu": "__global__ void k() {}\n"})
    row = Repository(team=people.team, name="private", clone_url=repo.url)
    row.set_credentials("user", "hunter2-clone-password")
    row.save()
    settings.ROCPORT_CREDENTIALS_KEYS = [STRANGER]  # OLD was dropped before a rotation
    scan = do_create_scan(row, commit_sha=commit, enqueue=False)
    pipeline.run(scan.pk)
    scan.refresh_from_db()
    assert (scan.status, scan.error_code) == ("failed", "scan:user:credentials-unreadable")
    assert "settings page" in scan.error_message and "hunter2" not in scan.error_message
