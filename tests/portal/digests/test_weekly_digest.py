"""The weekly progress digest: its content (progress over the week, findings fixed/new/reopened, the forecast, the
files with the most work left, links), who gets it, and that a week is sent once, by a real worker running beat
and across a beat restart. Data are built relative to the real today: the worker runs at real time."""

from __future__ import annotations

import email
import email.policy
import socketserver
import threading
import time
from datetime import datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection
from django.utils import timezone, translation

from portal.accounts.models import Membership
from portal.digests import content, sending
from portal.digests.models import DigestSent, DigestSubscription
from portal.digests.tasks import send_weekly_digests
from portal.findings.models import Finding, FindingEvent
from portal.progress.models import ProgressSnapshot
from portal.repositories.models import Repository
from portal.scans.actions import do_create_scan
from portal.scans.pipeline import runner as pipeline
from tests.portal.worker import Worker, wait_until

BASE = "https://rocport.example.test"
KERNEL = "__global__ void {name}(float *x) {{\n  x[threadIdx.x % 32] = warpSize;\n}}\n"  # ROC101, one finding each


# -- a real SMTP server, small enough to read --------------------------------------------------------------------


class SmtpSink:
    """An SMTP server on a free port of 127.0.0.1 in a thread, keeping every message it accepts: the worker sends
    through Django's SMTP backend (EMAIL_HOST, EMAIL_PORT), as in production."""

    def __init__(self, delay: float = 0.0) -> None:
        """`delay`: seconds before accepting each message (a slow server, for overlapping senders)."""
        self.messages: list[email.message.EmailMessage] = []
        sink = self

        class Session(socketserver.StreamRequestHandler):
            def reply(self, text: str) -> None:
                self.wfile.write(text.encode() + b"\r\n")

            def handle(self) -> None:
                self.reply("220 sink ESMTP")
                while line := self.rfile.readline():
                    verb = line.strip().split(b" ")[0].upper()
                    if verb == b"DATA":
                        self.reply("354 go on")
                        data = []
                        while (row := self.rfile.readline()) not in (b".\r\n", b""):
                            data.append(row[1:] if row.startswith(b"..") else row)
                        time.sleep(delay)
                        sink.messages.append(email.message_from_bytes(b"".join(data), policy=email.policy.default))
                        self.reply("250 queued")
                    elif verb == b"QUIT":
                        self.reply("221 bye")
                        return
                    elif verb in (b"EHLO", b"HELO", b"MAIL", b"RCPT", b"RSET", b"NOOP"):
                        self.reply("250 ok")
                    else:
                        self.reply("502 not here")

        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Session)
        self.server.daemon_threads = True
        self.server.socket.settimeout(1.0)  # an accept never outwaits shutdown(): tests.portal.servers.serve_http
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @staticmethod
    def subject(message) -> str:
        return " ".join(str(message["Subject"]).split())  # unfolded: a long encoded header spans lines

    def to(self, address: str) -> list:
        return [m for m in self.messages if m["To"] == address]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def smtp():
    sink = SmtpSink()
    yield sink
    sink.close()


# -- the data of last week ---------------------------------------------------------------------------------------


def at(day, hour: int = 12) -> datetime:
    return timezone.make_aware(datetime.combine(day, datetime.min.time())) + timedelta(hours=hour)


def build_week(people, repo_factory) -> dict:
    """Two repositories of the GPU team with progress snapshots around the week the digest covers, findings events
    inside and outside it, on the default branch and off it; subscribers and non-subscribers. Returns what the
    digest must say."""
    week = sending.covered_week(timezone.localdate())
    User = get_user_model()
    for name in ("alice", "bob", "vera", "charlie"):
        User.objects.filter(username=name).update(email=f"{name}@example.test")
    dave = User.objects.create_user("dave", email="dave@example.test")  # subscribed, then left the team
    Membership.objects.create(user=dave, team=people.team, role="manager")
    nomail = User.objects.create_user("nomail")  # opted in, but has no address
    Membership.objects.create(user=nomail, team=people.team, role="viewer")
    for user, team, language in (
        (people.alice, people.team, "en"),
        (people.bob, people.team, "zh-hans"),
        (people.charlie, people.other_team, "en"),
        (people.charlie, people.team, "en"),  # forged: charlie is not a member of the GPU team
        (dave, people.team, "en"),
        (nomail, people.team, "en"),
    ):
        DigestSubscription.objects.create(user=user, team=team, language=language)
    Membership.objects.filter(user=dave).delete()

    repo = repo_factory("kernels")
    commit = repo.commit(
        "kernels",
        **{"src__big.cu": "".join(KERNEL.format(name=f"k{i}") for i in range(4)), "small.cu": KERNEL.format(name="s")},
    )
    kernels = Repository.objects.create(team=people.team, name="kernels", clone_url=repo.url)
    scan = do_create_scan(kernels, commit_sha=commit, enqueue=False)
    pipeline.run(scan.pk)
    scan.refresh_from_db()
    assert scan.status == "finished", scan.error_message
    tools = Repository.objects.create(team=people.team, name="tools", clone_url="https://example.test/tools.git")
    elsewhere = Repository.objects.create(team=people.other_team, name="secret", clone_url="https://example.test/s.git")

    def snapshot(repository, days: int, done: float, left: float) -> None:
        ProgressSnapshot.objects.update_or_create(
            repository=repository, day=week + timedelta(days=days), defaults={"done": done, "left": left}
        )

    for days, done, left in ((-24, 0, 100), (-17, 5, 95), (-10, 10, 90), (2, 25, 75)):
        snapshot(kernels, days, done, left)  # 10% -> 25%
    snapshot(tools, -24, 0, 50)
    snapshot(tools, 4, 10, 40)  # 0% -> 20%
    snapshot(elsewhere, 3, 99, 1)

    findings = list(Finding.objects.filter(repository=kernels, branch="main").order_by("pk"))
    assert len(findings) == 5
    created = FindingEvent.objects.filter(finding__in=findings, kind="created").order_by("pk")
    FindingEvent.objects.filter(pk__in=[e.pk for e in created[:2]]).update(created=at(week + timedelta(days=2)))
    # the other three "created" events stay at now: this week, not the digest's

    def event(finding, kind: str, when: datetime) -> None:
        FindingEvent.objects.filter(pk=FindingEvent.objects.create(finding=finding, kind=kind).pk).update(created=when)

    for i in range(3):
        event(findings[i], "fixed", at(week + timedelta(days=3), hour=i))
    event(findings[3], "reopened", at(week + timedelta(days=4)))
    event(findings[4], "triaged", at(week + timedelta(days=4)))  # not a kind the digest counts
    event(findings[4], "fixed", at(week, hour=0) - timedelta(seconds=1))  # the Sunday before
    event(findings[4], "fixed", at(week + timedelta(days=7), hour=0))  # this Monday, 00:00
    off_branch = Finding.objects.get(pk=findings[0].pk)
    off_branch.pk, off_branch.branch = None, "feature"
    off_branch.save()
    event(off_branch, "fixed", at(week + timedelta(days=3)))
    other = Finding.objects.get(pk=findings[1].pk)
    other.pk, other.repository = None, elsewhere
    other.save()
    event(other, "fixed", at(week + timedelta(days=3)))
    return {"week": week, "kernels": kernels, "tools": tools, "dave": dave}


SUBSCRIBERS = ["alice@example.test", "bob@example.test", "charlie@example.test"]


# -- in process ----------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_digest_says_how_the_week_went(people, repo_factory, settings):
    settings.ROCPORT_BASE_URL = BASE + "/"
    data = build_week(people, repo_factory)
    week = data["week"]
    digest = content.build(people.team, week)
    # team: 10 of 150 h done at the end of the previous Sunday (6.67%: below 10%, one decimal, floored), 35 of 150
    # at the end of this one (23.3%)
    assert (digest.before, digest.after) == ("6.6", "23")
    assert (digest.counts.fixed, digest.counts.created, digest.counts.reopened) == (3, 2, 1)
    rows = {r.name: r for r in digest.repositories}
    assert (rows["kernels"].before, rows["kernels"].after) == ("10", "25")
    assert (rows["tools"].before, rows["tools"].after) == ("0", "20")
    assert (rows["tools"].counts.fixed, rows["tools"].counts.created) == (0, 0)
    assert rows["kernels"].url == f"{BASE}/repositories/{data['kernels'].pk}/dashboard/"
    assert digest.forecast.status == "ok" and digest.forecast.likely > week
    assert [(f.repository, f.path) for f in digest.files][:2] == [("kernels", "src/big.cu"), ("kernels", "small.cu")]
    assert digest.files[0].hours > digest.files[1].hours
    assert digest.files[0].url == f"{BASE}/repositories/{data['kernels'].pk}/files/src/big.cu"
    assert len(digest.files) <= content.TOP_FILES

    subject, body = sending.render(digest, "en")
    assert subject == f"ROCport weekly digest: GPU team, week of {week:%Y-%m-%d}: 6.6% → 23%"
    for text in (
        "Migration progress: 6.6% → 23%",
        "Findings on the default branches: 3 fixed, 2 new, 1 reopened.",
        "- kernels: 10% → 25%; 3 fixed, 2 new, 1 reopened",
        "- tools: 0% → 20%; 0 fixed, 0 new, 0 reopened",
        "Forecast: finished around ",
        "- kernels: src/big.cu, ",
        f"{BASE}/repositories/{data['kernels'].pk}/files/src/big.cu",
        f"Portfolio: {BASE}/",
        f"{BASE}/accounts/profile/#digest",
    ):
        assert text in body, text
    assert "secret" not in body  # the other team's repository

    other = content.build(people.other_team, week)
    assert other.files == [] and [r.name for r in other.repositories] == ["secret"]
    assert (other.before, other.after, other.counts.fixed) == (None, "99", 1)


@pytest.mark.django_db
def test_a_team_without_figures_says_so_and_chinese_rendering_uses_the_language(people):
    week = sending.covered_week(timezone.localdate())
    digest = content.build(people.team, week)
    assert (digest.before, digest.after, digest.forecast.status, digest.files) == (None, None, "not_enough_history", [])
    subject, body = sending.render(digest, "en")
    assert subject == f"ROCport weekly digest: GPU team, week of {week:%Y-%m-%d}"
    assert "Migration progress: no figures yet" in body and "The team has no repository yet." in body
    assert "Not enough history for a forecast yet" in body

    seen = []

    class Spy(str):  # the team's name, as the template reads it: notes the active language
        def __str__(self) -> str:
            seen.append(translation.get_language())
            return str.__str__(self)

    digest.team_name = Spy("GPU team")
    before = translation.get_language()
    subject, body = sending.render(digest, "zh-hans")
    assert seen and set(seen) == {"zh-hans"} and "GPU team" in subject and "GPU team" in body
    assert translation.get_language() == before  # the override ends with the rendering


@pytest.mark.django_db
def test_sending_twice_for_one_week_sends_once_to_members_who_opted_in(people, repo_factory, settings):
    settings.ROCPORT_BASE_URL = BASE
    data = build_week(people, repo_factory)
    assert send_weekly_digests() == 3
    assert sorted(m.to[0] for m in mail.outbox) == SUBSCRIBERS
    assert all(len(m.to) == 1 for m in mail.outbox)
    by_address = {m.to[0]: m for m in mail.outbox}
    assert "6.6% → 23%" in by_address["alice@example.test"].subject
    assert "Other team" in by_address["charlie@example.test"].subject
    assert "kernels" not in by_address["charlie@example.test"].body  # team isolation
    assert send_weekly_digests() == 0 and len(mail.outbox) == 3
    sent = DigestSent.objects.filter(week=data["week"])
    assert sent.filter(sent_at__isnull=False).count() == 3 and not sent.filter(user=data["dave"]).exists()
    assert not DigestSent.objects.exclude(week=data["week"]).exists()  # no older week is sent late


@pytest.mark.django_db
def test_the_next_week_is_sent_again_and_a_late_subscriber_gets_the_current_week(
    people, repo_factory, settings, time_machine
):
    settings.ROCPORT_BASE_URL = BASE
    build_week(people, repo_factory)
    assert send_weekly_digests() == 3
    mail.outbox.clear()
    vera = people.vera
    get_user_model().objects.filter(pk=vera.pk).update(email="vera@example.test")
    DigestSubscription.objects.create(user=vera, team=people.team, language="en")
    assert send_weekly_digests() == 1 and [m.to for m in mail.outbox] == [["vera@example.test"]]
    time_machine.move_to(timezone.now() + timedelta(days=7))
    mail.outbox.clear()
    assert send_weekly_digests() == 4
    assert DigestSent.objects.values("week").distinct().count() == 2


@pytest.mark.django_db
def test_an_smtp_failure_is_retried_by_the_next_run_and_logs_no_address(people, repo_factory, settings, smtp, caplog):
    settings.ROCPORT_BASE_URL = BASE
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", smtp.port
    settings.EMAIL_HOST_PASSWORD = "smtp-pass-never-logged"
    build_week(people, repo_factory)
    closed = socketserver.TCPServer(("127.0.0.1", 0), socketserver.BaseRequestHandler)
    settings.EMAIL_PORT = closed.server_address[1]
    closed.server_close()  # nobody listens there now
    assert send_weekly_digests() == 0
    assert DigestSent.objects.filter(sent_at__isnull=True).count() == 3
    assert "ConnectionRefusedError" in caplog.text
    for secret in ("@example.test", "smtp-pass-never-logged"):
        assert secret not in caplog.text
    settings.EMAIL_PORT = smtp.port
    assert send_weekly_digests() == 3 and sorted(m["To"] for m in smtp.messages) == SUBSCRIBERS
    assert send_weekly_digests() == 0 and len(smtp.messages) == 3


@pytest.mark.django_db(transaction=True)
def test_four_runs_at_once_send_each_digest_once(people, repo_factory, settings):
    settings.ROCPORT_BASE_URL = BASE
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    sink = SmtpSink(delay=0.3)  # each run holds its row while the server takes its time
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", sink.port
    build_week(people, repo_factory)
    counts, start = [], threading.Barrier(4)

    def run() -> None:
        try:
            start.wait()
            counts.append(send_weekly_digests())
        finally:
            connection.close()  # each thread has its own database connection

    threads = [threading.Thread(target=run) for _ in range(4)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    finally:
        sink.close()
    assert len(counts) == 4 and sum(counts) == 3
    assert sorted(m["To"] for m in sink.messages) == SUBSCRIBERS


# -- on a real worker, sent by beat ------------------------------------------------------------------------------


def task_runs(log) -> int:
    lines = log.read_text(errors="replace").splitlines()
    return sum(1 for line in lines if "portal.digests.tasks.send_weekly_digests[" in line and "succeeded" in line)


@pytest.mark.django_db(transaction=True)
def test_beat_sends_the_week_once_per_member_even_across_a_beat_restart(people, repo_factory, tmp_path, smtp):
    data = build_week(people, repo_factory)
    log = tmp_path / "worker.log"
    worker = Worker(
        log,
        beat_schedule=tmp_path / "celerybeat-schedule",
        ROCPORT_DIGEST_INTERVAL="1",
        ROCPORT_BASE_URL=BASE,
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=str(smtp.port),
    )
    try:
        sent = DigestSent.objects.filter(week=data["week"], sent_at__isnull=False)
        wait_until(lambda: sent.count() == 3, timeout=60, what="three digests sent")
        runs = task_runs(log)
        wait_until(lambda: task_runs(log) >= runs + 3, timeout=30, what="three more beat ticks")
        assert sorted(m["To"] for m in smtp.messages) == SUBSCRIBERS

        alice = smtp.to("alice@example.test")[0]
        assert smtp.subject(alice) == f"ROCport weekly digest: GPU team, week of {data['week']:%Y-%m-%d}: 6.6% → 23%"
        body = alice.get_content()
        for text in (
            "3 fixed, 2 new, 1 reopened",
            "- kernels: 10% → 25%",
            "- kernels: src/big.cu, ",
            f"{BASE}/repositories/{data['kernels'].pk}/files/src/big.cu",
        ):
            assert text in body, text
        assert "Other team" in smtp.subject(smtp.to("charlie@example.test")[0])
        assert not smtp.to("vera@example.test") and not smtp.to("dave@example.test")

        worker.restart()  # beat starts again (killed: it may not even have saved its schedule)
        runs = task_runs(log)
        wait_until(lambda: task_runs(log) >= runs + 3, timeout=60, what="beat ticks after the restart")
        assert sorted(m["To"] for m in smtp.messages) == SUBSCRIBERS
        assert DigestSent.objects.count() == 3
    finally:
        worker.stop()
