"""Email notifications of new high-severity findings: real scans through the pipeline, the email task run eagerly,
Django's locmem email backend (pytest-django's test setting) as the outbox; the team notifications page."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from portal.accounts.models import Membership
from portal.celery import app as celery_app
from portal.repositories.models import Repository
from portal.scans.actions import do_create_scan
from portal.scans.models import Scan
from portal.scans.pipeline import runner as pipeline
from portal.scans.signals import scan_ended
from portal.statuses.actions import do_save_notification_setting
from portal.statuses.models import NotificationSetting, ScanNotification
from tests.portal.people import client_for

BASE = "https://rocport.example.test"
KERNEL = "__global__ void {name}(float *x) {{\n  x[threadIdx.x % 32] = warpSize;\n}}\n"  # ROC101, high
DOCKERFILE = "FROM ubuntu:22.04\nRUN nvidia-smi\n"  # ROC231, medium
SCRIPT = "#!/bin/sh\nexport CUDA_VISIBLE_DEVICES=0\n"  # ROC233, low


@pytest.fixture
def eager(settings):
    settings.ROCPORT_BASE_URL = BASE
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = False


@pytest.fixture
def team_setup(people):
    """Alice (manager) has an address; Bob (engineer) has one too but is not a manager."""
    get_user_model().objects.filter(pk=people.alice.pk).update(email="alice@example.test")
    get_user_model().objects.filter(pk=people.bob.pk).update(email="bob@example.test")
    do_save_notification_setting(
        people.team,
        enabled=True,
        all_managers=True,
        recipients=["gpu-leads@example.test"],
        threshold="high",
        acting_user=people.alice,
    )
    return people


def run_scan(row, commit: str, capture) -> Scan:
    scan = do_create_scan(row, commit_sha=commit, enqueue=False)
    with capture(execute=True):
        pipeline.run(scan.pk)
    scan.refresh_from_db()
    assert scan.status == "finished", scan.error_message
    return scan


def register(people, repo) -> Repository:
    return Repository.objects.create(team=people.team, name="kernels", clone_url=repo.url)


@pytest.mark.django_db
def test_a_scan_with_new_high_findings_sends_one_email_to_each_recipient(
    team_setup, repo_factory, eager, django_capture_on_commit_callbacks
):
    repo = repo_factory()
    row = register(team_setup, repo)
    files = {f"src__k{i}.cu": KERNEL.format(name=f"k{i}") for i in range(12)}
    commit = repo.commit("kernels", Dockerfile=DOCKERFILE, **files)
    scan = run_scan(row, commit, django_capture_on_commit_callbacks)

    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.test", "gpu-leads@example.test"]
    assert all(len(m.to) == 1 for m in mail.outbox)  # recipients do not see each other
    message = mail.outbox[0]
    assert message.subject == "[ROCport] kernels (main): 12 new high+ findings"
    body = message.body
    for text in (
        "Repository: kernels",
        "Branch: main",
        f"Commit: {commit}",
        f"{BASE}/scans/{scan.pk}/",
        "[high] ROC101 src/k0.cu:2",
        f"{BASE}/notifications/{team_setup.team.pk}/",
    ):
        assert text in body, text
    assert body.count("ROC101") == 10 and "… and 2 more" in body  # the top ten, then the link
    assert "ROC231" not in body  # medium: below the threshold
    notification = ScanNotification.objects.get(scan=scan)
    assert (notification.outcome, notification.count) == ("sent", 12)


@pytest.mark.django_db
def test_no_email_without_new_findings_at_or_above_the_threshold(
    team_setup, repo_factory, eager, django_capture_on_commit_callbacks
):
    repo = repo_factory()
    row = register(team_setup, repo)
    run_scan(
        row,
        repo.commit("medium and low", Dockerfile=DOCKERFILE, **{"run.sh": SCRIPT}),
        django_capture_on_commit_callbacks,
    )
    assert mail.outbox == []
    run_scan(row, repo.commit("kernel", **{"k.cu": KERNEL.format(name="k")}), django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 2
    mail.outbox.clear()
    again = run_scan(row, repo.commit("nothing new", **{"README.md": "docs\n"}), django_capture_on_commit_callbacks)
    assert again.summary["tracking"]["new"] == 0 and mail.outbox == []
    assert not ScanNotification.objects.filter(scan=again).exists()  # nothing new: not even a claim


@pytest.mark.django_db
def test_the_signal_arriving_twice_sends_once(team_setup, repo_factory, eager, django_capture_on_commit_callbacks):
    repo = repo_factory()
    row = register(team_setup, repo)
    scan = run_scan(row, repo.commit("kernel", **{"k.cu": KERNEL.format(name="k")}), django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 2
    with django_capture_on_commit_callbacks(execute=True):
        scan_ended.send_robust(sender=Scan, scan=scan)
        scan_ended.send_robust(sender=Scan, scan=scan)
    assert len(mail.outbox) == 2 and ScanNotification.objects.filter(scan=scan).count() == 1


@pytest.mark.django_db
def test_a_team_that_turned_notifications_off_or_a_failed_scan_gets_nothing(
    team_setup, repo_factory, tmp_path, eager, django_capture_on_commit_callbacks
):
    repo = repo_factory()
    row = register(team_setup, repo)
    NotificationSetting.objects.filter(team=team_setup.team).update(enabled=False)
    run_scan(row, repo.commit("kernel", **{"k.cu": KERNEL.format(name="k")}), django_capture_on_commit_callbacks)
    assert mail.outbox == []
    NotificationSetting.objects.filter(team=team_setup.team).update(enabled=True)
    broken = Repository.objects.create(team=team_setup.team, name="gone", clone_url=f"file://{tmp_path}/missing")
    failed = do_create_scan(broken, commit_sha="a" * 40, enqueue=False)
    with django_capture_on_commit_callbacks(execute=True):
        pipeline.run(failed.pk)
    assert mail.outbox == []


@pytest.mark.django_db
def test_only_listed_addresses_when_managers_are_left_out_and_critical_only(
    team_setup, repo_factory, eager, django_capture_on_commit_callbacks
):
    do_save_notification_setting(
        team_setup.team,
        enabled=True,
        all_managers=False,
        recipients=["ops@example.test"],
        threshold="critical",
        acting_user=team_setup.alice,
    )
    repo = repo_factory()
    row = register(team_setup, repo)
    scan = run_scan(row, repo.commit("kernel", **{"k.cu": KERNEL.format(name="k")}), django_capture_on_commit_callbacks)
    assert mail.outbox == []  # high is below critical
    assert ScanNotification.objects.get(scan=scan).outcome == "nothing"
    NotificationSetting.objects.filter(team=team_setup.team).update(threshold="high")
    run_scan(row, repo.commit("kernel 2", **{"k2.cu": KERNEL.format(name="k2")}), django_capture_on_commit_callbacks)
    assert [m.to for m in mail.outbox] == [["ops@example.test"]]


# -- the team notifications page ------------------------------------------------------------------------------


def page_url(team) -> str:
    return reverse("statuses:notifications", args=[team.pk])


FORM = {
    "enabled": "on",
    "all_managers": "on",
    "recipients": "a@example.test, b@example.test\nc@example.test",
    "threshold": "high",
}


@pytest.mark.django_db
def test_a_manager_saves_the_notification_settings(people):
    alice = client_for(people.alice)
    assert alice.get(page_url(people.team)).status_code == 200
    assert alice.post(page_url(people.team), FORM).status_code == 302
    setting = NotificationSetting.objects.get(team=people.team)
    assert (setting.enabled, setting.all_managers, setting.recipients, setting.threshold) == (
        True,
        True,
        ["a@example.test", "b@example.test", "c@example.test"],
        "high",
    )
    page = alice.get(page_url(people.team))
    assert b"c@example.test" in page.content


@pytest.mark.django_db
def test_bad_notification_settings_get_a_clear_error_and_change_nothing(people):
    alice = client_for(people.alice)
    alice.post(page_url(people.team), FORM)
    bad = alice.post(page_url(people.team), {**FORM, "recipients": "a@example.test, not-an-address"})
    assert bad.status_code == 200 and b"Not an email address: not-an-address" in bad.content
    nobody = alice.post(page_url(people.team), {**FORM, "all_managers": "", "recipients": ""})
    assert nobody.status_code == 200 and b"at least one recipient" in nobody.content
    assert NotificationSetting.objects.get(team=people.team).recipients == [
        "a@example.test",
        "b@example.test",
        "c@example.test",
    ]


@pytest.mark.django_db
def test_another_team_gets_404_and_members_who_do_not_manage_get_403(people):
    charlie = client_for(people.charlie)
    assert charlie.get(page_url(people.team)).status_code == 404
    assert charlie.post(page_url(people.team), FORM).status_code == 404
    for member in (people.bob, people.vera):
        client = client_for(member)
        page = client.get(page_url(people.team))
        assert page.status_code == 200 and b'name="recipients"' not in page.content
        assert client.post(page_url(people.team), FORM).status_code == 403
    assert not NotificationSetting.objects.exists()
    assert client_for(people.alice).put(page_url(people.team)).status_code == 405
    assert Client().get(page_url(people.team)).status_code == 302  # to the login page
    assert client_for(people.alice).get(reverse("statuses:notifications", args=[99999])).status_code == 404


@pytest.mark.django_db
def test_the_notification_form_needs_a_csrf_token(people):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(people.alice)
    assert strict.post(page_url(people.team), FORM).status_code == 403
    assert not NotificationSetting.objects.exists()


@pytest.mark.django_db
def test_an_admin_is_a_manager_here_too(people):
    ada = get_user_model().objects.create_user("ada", password="x" * 12)
    Membership.objects.create(user=ada, team=people.team, role="admin")
    assert client_for(ada).post(page_url(people.team), FORM).status_code == 302


@pytest.mark.django_db
def test_an_smtp_server_that_is_down_is_retried_then_recorded_and_the_scan_is_untouched(
    team_setup, repo_factory, eager, settings, django_capture_on_commit_callbacks, caplog
):
    from portal.statuses.tasks import MAX_RETRIES
    from tests.portal.servers import free_port

    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", free_port()  # nothing listens there
    settings.EMAIL_HOST_PASSWORD = "smtp-pass-never-logged"
    repo = repo_factory()
    row = register(team_setup, repo)
    scan = run_scan(row, repo.commit("kernel", **{"k.cu": KERNEL.format(name="k")}), django_capture_on_commit_callbacks)
    notification = ScanNotification.objects.get(scan=scan)
    assert (notification.outcome, notification.count) == ("failed", 1)
    assert "ConnectionRefusedError" in notification.detail
    assert caplog.text.count("will retry") == MAX_RETRIES and "giving up" in caplog.text
    assert "smtp-pass-never-logged" not in caplog.text
    assert scan.status == "finished" and scan.summary["tracking"]["new"] == 1
