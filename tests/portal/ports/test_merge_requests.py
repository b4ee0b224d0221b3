"""From reviewed translations to a merge request, end to end: a real repository served over smart HTTP on
127.0.0.1 (tests/portal/githttp.py) is scanned by the real pipeline, two files' translations are reviewed, and
`do_open_merge_request` pushes the port branch there and opens the request on a stand-in of each host's pull
request API (tests/portal/pullhosts.py). The branch is checked with git (commit, parent, author, committer,
trailer, diff), the request's body against the documented fields. Then the hostile cases: credentials that
cannot push, a branch of that name already there, a moved target branch, a host that answers 500 or refuses
the token, a second click and two concurrent clicks, a retry after a failure. The task runs in-process
(`apply`, or `run` to see the state a failed attempt leaves) except in the one test with a real worker."""

from __future__ import annotations

import logging
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from email.utils import parseaddr
from unittest.mock import Mock

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from portal.files.actions import check_review_translation
from portal.files.queries import file_version
from portal.findings.models import BranchRollup, Finding
from portal.hosts import pulls as hostapi
from portal.hosts.transport import PermanentError, TransientError
from portal.ports import branch as port_branch
from portal.ports import planning, tasks
from portal.ports.actions import do_open_merge_request, do_retry_merge_request
from portal.ports.models import MergeRequest
from portal.repositories.git import GitSession, classify
from portal.repositories.models import Repository
from portal.scans.actions import do_create_scan
from portal.scans.models import Scan
from portal.scans.pipeline import runner as pipeline
from portal.statuses.models import CommitStatusConfig
from tests.portal.githttp import ServedRepo
from tests.portal.ports.test_merge_request_tracking import deliver
from tests.portal.ports.test_merge_request_tracking import payload as pull_request_event
from tests.portal.pullhosts import PullHost
from tests.portal.webhook_stack import push_body, signed
from tests.portal.worker import Worker, wait_until

TOKEN = "glpat-s3cret-pull-token-0123456789"
WRITER, READER = ("porter", "w-s3cret-push"), ("viewer", "r-s3cret-read")
PROJECTS = {"github": "acme/kernels", "gitlab": "acme/gpu/kernels", "gitea": "acme/kernels", "forgejo": "acme/kernels"}
PROVIDERS = ["github", "gitlab", "gitea", "forgejo"]
A_CU = """#include <cuda_runtime.h>
__global__ void scale(float *x, float f) { x[threadIdx.x] *= f; }
int run_a(float *host, int n) {
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, host, n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<1, n>>>(d, 2.0f);
  cudaDeviceSynchronize();
  cudaFree(d);
  return 0;
}
"""
B_CU = A_CU.replace("run_a", "run_b").replace("scale", "shift").replace("*= f", "+= f")
C_CU = A_CU.replace("run_a", "run_c").replace("scale", "clamp")
FILES = {"src/a.cu": A_CU, "src/b.cu": B_CU, "src/c.cu": C_CU, "README.md": "# kernels\n"}
REVIEWED = ["src/a.cu", "src/b.cu"]


@dataclass
class Stage:
    row: Repository
    served: ServedRepo
    host: PullHost
    base: str  # the scanned commit
    user: object
    capture: object  # django_capture_on_commit_callbacks

    def click(self, **options) -> tuple[MergeRequest, bool, list]:
        """The user's click; the task it queues after commit is captured, not sent: the test runs it."""
        with self.capture(execute=False) as callbacks:
            request, created = do_open_merge_request(self.row, None, acting_user=self.user, **options)
        return request, created, callbacks


def run_task(pk: int) -> str:
    return tasks.open_merge_request.apply(args=[pk]).get()


def run(request: MergeRequest) -> str:
    """The task in this process; `request` read again after it."""
    answer = run_task(request.pk)
    request.refresh_from_db()
    return answer


def at_once(work, n: int = 2) -> list:
    """`work` in n threads released together (each with its own database connection); their results."""
    barrier = threading.Barrier(n)

    def run_one():
        try:
            barrier.wait()
            return work()
        finally:
            connection.close()

    with ThreadPoolExecutor(n) as pool:
        return [future.result() for future in [pool.submit(run_one) for _ in range(n)]]


@pytest.fixture
def stage(people, repo_factory, tmp_path, django_capture_on_commit_callbacks):
    """Build the repository, serve it, register it with its host connection, scan it and review two files."""
    started = []

    def make(
        provider: str = "github", *, token: str = TOKEN, credentials=WRITER, extra: dict | None = None, **host_options
    ) -> Stage:
        repo = repo_factory(f"work-{len(started)}")
        files = FILES | (extra or {})
        base = repo.commit("kernels", **{path.replace("/", "__"): text for path, text in files.items()})
        served = ServedRepo(
            tmp_path / f"srv-{len(started)}", {WRITER[0]: (WRITER[1], True), READER[0]: (READER[1], False)}
        )
        url = served.publish(repo.path)
        host = PullHost.start(provider, TOKEN, PROJECTS[provider], branch_exists=served.has_branch, **host_options)
        started.extend([served, host])
        row = Repository.objects.create(team=people.team, name=f"kernels-{len(started)}", clone_url=url)
        row.set_credentials(*credentials)
        row.save()
        config = CommitStatusConfig(repository=row, provider=provider, api_url=host.api_url, project=PROJECTS[provider])
        config.set_token(token)  # statuses stay off: the stand-in answers pull requests only
        config.save()
        scan = do_create_scan(row, commit_sha=base, enqueue=False)
        pipeline.run(scan.pk)
        scan.refresh_from_db()
        assert scan.status == "finished", (scan.error_code, scan.error_message)
        for path in REVIEWED:
            version = file_version(row, path)
            assert version.translated and version.translated != version.source
            check_review_translation(
                row, path, version, "ok", version.scanned.blob_sha, version.translation_sha, acting_user=people.bob
            )
        alice = people.alice
        alice.first_name, alice.last_name, alice.email = "Alice", "Liddell", "alice@example.test"
        alice.save()
        served.seen.clear()  # what the scan's clone did is not the port's
        return Stage(Repository.objects.get(pk=row.pk), served, host, base, alice, django_capture_on_commit_callbacks)

    yield make
    for server in started:
        server.stop()


def assert_port_branch(stage: Stage, request: MergeRequest) -> None:
    """The branch on the served repository, checked with git: one commit on the scanned commit, by the user,
    committed by ROCport, with the trailer, changing exactly the reviewed files to their stored translations."""
    assert request.branch == f"rocport/port-{request.pk}"
    assert stage.served.heads() == {"main": stage.base, request.branch: request.head_commit}  # main untouched
    name, email = parseaddr(settings.DEFAULT_FROM_EMAIL)
    stage.served.assert_one_new_commit(
        request.branch,
        stage.base,
        {path: file_version(stage.row, path).blob.translated.encode() for path in REVIEWED},
        author="Alice Liddell <alice@example.test>",
        committer=f"{name or 'ROCport'} <{email or 'rocport@localhost'}>",
        generated_by="ROCport",
    )
    message = stage.served.commit(request.head_commit).message
    assert all(f"- {path}" in message for path in REVIEWED) and "src/c.cu" not in message


def nothing_pushed(stage: Stage) -> None:
    assert stage.served.heads() == {"main": stage.base} and stage.served.pushed() == []


PULLS = "/repos/acme/kernels/pulls"
EXPECTED_PATH = {"github": PULLS, "gitlab": "/api/v4/projects/acme%2Fgpu%2Fkernels/merge_requests"}
EXPECTED_PATH |= {"gitea": f"/api/v1{PULLS}", "forgejo": f"/api/v1{PULLS}"}
WEB_PATH = {"github": "pull", "gitlab": "-/merge_requests", "gitea": "pulls", "forgejo": "pulls"}
AUTH = {"github": ("authorization", f"Bearer {TOKEN}"), "gitlab": ("private-token", TOKEN)}


@pytest.mark.django_db
@pytest.mark.parametrize("provider", PROVIDERS)
def test_reviewed_translations_become_a_branch_and_a_merge_request(provider, stage):
    stage = stage(provider)
    request, created, callbacks = stage.click()
    assert created and len(callbacks) == 1 and request.state == "queued"
    assert (request.files, request.base_commit, request.target_branch) == (REVIEWED, stage.base, "main")
    assert run(request) == "open"
    assert (request.state, request.error_code, request.attempts) == ("open", "", 1)
    assert_port_branch(stage, request)
    assert [s.user for s in stage.served.push_attempts()] == [WRITER[0]] * 2  # ref discovery, then the pack

    [post] = stage.host.received
    assert (post.method, post.path, post.answer) == ("POST", EXPECTED_PATH[provider], 201)
    header, value = AUTH.get(provider, ("authorization", f"token {TOKEN}"))
    assert post.headers[header] == value
    assert post.headers["content-type"] == "application/json"
    body = post.body
    if provider == "gitlab":
        assert set(body) == {"source_branch", "target_branch", "title", "description", "remove_source_branch"}
        assert (body["source_branch"], body["target_branch"]) == (request.branch, "main")
        assert body["remove_source_branch"] is True
        text = body["description"]
    else:
        assert set(body) == {"head", "base", "title", "body"}
        assert (body["head"], body["base"]) == (request.branch, "main")
        text = body["body"]
    assert body["title"] == "Port 2 files from CUDA to HIP (ROCport)"
    assert all(f"[`{path}`](" in text for path in REVIEWED) and "src/c.cu" not in text
    assert text.rstrip().endswith("Generated-by: ROCport")
    [pull] = stage.host.pulls.values()
    assert (request.number, request.url) == (pull.number, f"{stage.host.web}/{WEB_PATH[provider]}/{pull.number}")
    assert request.label == ("!1" if provider == "gitlab" else "#1")

    # The host merges it; the reconciliation reads that from the documented GET endpoint.
    stage.host.set_state(pull.number, "merged")
    assert tasks.reconcile_merge_requests() == 1
    request.refresh_from_db()
    assert request.state == "merged"
    get = stage.host.received[-1]
    assert (get.method, get.path, get.answer) == ("GET", f"{EXPECTED_PATH[provider]}/{pull.number}", 200)


@pytest.mark.django_db
def test_credentials_that_cannot_push_fail_clearly_and_a_retry_with_better_ones_resumes(stage):
    stage = stage("gitea", credentials=READER)
    request, _, _ = stage.click()
    assert run(request) == "failed"
    assert (request.state, request.error_code, request.head_commit) == ("failed", "no_write_access", "")
    assert "can read but not push" in request.error_message and READER[1] not in request.error_message
    nothing_pushed(stage)
    assert [(s.user, s.status) for s in stage.served.push_attempts()] == [(READER[0], 403)]
    assert stage.host.received == []  # no request without a branch

    stage.row.set_credentials(*WRITER)
    stage.row.save()
    with stage.capture(execute=False) as callbacks:
        do_retry_merge_request(request, acting_user=stage.user)
    assert len(callbacks) == 1
    assert run(request) == "open"
    assert (request.state, request.error_code, request.error_message, request.attempts) == ("open", "", "", 2)
    assert_port_branch(stage, request)
    assert len(stage.host.opened()) == 1


@pytest.mark.django_db
def test_a_branch_of_that_name_on_the_remote_is_never_touched(stage):
    stage = stage("github")
    request, _, _ = stage.click()
    # Someone (or something) made rocport/port-<id> before the worker got to it, with a commit of its own.
    served = stage.served
    other = served.new_commit(stage.base, "not ROCport's", parent=stage.base)
    served.git("update-ref", f"refs/heads/{request.branch}", other)
    assert run(request) == "failed"
    assert (request.state, request.error_code) == ("failed", "branch_exists")
    assert request.branch in request.error_message and "never overwrites" in request.error_message
    assert served.heads() == {"main": stage.base, request.branch: other}
    assert served.pushed() == [] and served.push_attempts() == []  # ls-remote saw it: no push was even tried
    assert stage.host.received == []


@pytest.mark.django_db
def test_a_target_branch_that_no_longer_holds_the_scanned_commit_asks_for_a_rescan(stage):
    stage = stage("gitlab")
    request, _, _ = stage.click()
    # main is rewritten (a force-push to a new root) before the worker runs: the scanned commit is gone from it.
    served = stage.served
    root = served.new_commit(stage.base, "history rewritten")
    served.git("update-ref", "refs/heads/main", root)
    assert run(request) == "failed"
    assert (request.state, request.error_code) == ("failed", "target_moved"), request.error_message
    assert "scan main again" in request.error_message and stage.base[:10] in request.error_message
    assert served.heads() == {"main": root} and served.pushed() == [] and served.push_attempts() == []
    assert stage.host.received == []


@pytest.mark.django_db
def test_a_host_answering_500_keeps_the_pushed_branch_and_a_retry_opens_the_request_without_pushing_again(stage):
    stage = stage("forgejo")
    stage.host.fail_next("500")
    request, _, _ = stage.click()
    with pytest.raises(TransientError):
        tasks.open_merge_request.run(request.pk)  # one attempt, as a worker makes it before Celery's retry
    request.refresh_from_db()
    assert (request.state, request.error_code, request.number) == ("pushed", "", None)
    assert "HTTP 500" in request.error_message and "trying again shortly" in request.error_message
    assert request.head_commit and stage.served.heads()[request.branch] == request.head_commit

    # Celery's retries (apply() runs them at once): a connection closed without an answer, then 500s to the end.
    stage.host.fail_next("drop", *["500"] * tasks.MAX_RETRIES)
    assert run(request) == "failed"
    assert (request.state, request.error_code) == ("failed", "host_unavailable")
    assert f"after {tasks.MAX_RETRIES + 1} attempts" in request.error_message

    with stage.capture(execute=False) as callbacks:
        do_retry_merge_request(request, acting_user=stage.user)  # the button on the page
    assert len(callbacks) == 1 and run(request) == "open"
    assert (request.state, request.error_code, request.error_message) == ("open", "", "")
    assert_port_branch(stage, request)  # still exactly one push
    assert [r.answer for r in stage.host.posts()] == [500, "drop", *[500] * tasks.MAX_RETRIES, 201]
    assert len(stage.host.pulls) == 1 and request.attempts == tasks.MAX_RETRIES + 3


@pytest.mark.django_db
@pytest.mark.parametrize(
    "provider, token, read_only, project, status",
    [
        ("github", "ghp_wrong-token-0123456789", set(), None, 401),
        ("gitlab", "glpat-wrong-token-0123456789", set(), None, 401),
        ("gitea", "read-only-token-0123456789", {"read-only-token-0123456789"}, None, 403),
        ("forgejo", TOKEN, set(), "acme/elsewhere", 404),
    ],
)
def test_a_host_refusing_the_request_fails_it_without_showing_the_token(
    provider, token, read_only, project, status, stage, caplog
):
    caplog.set_level(logging.DEBUG)
    stage = stage(provider, token=token, read_only=read_only)
    if project:
        CommitStatusConfig.objects.filter(repository=stage.row).update(project=project)
    request, _, _ = stage.click()
    assert run(request) == "failed"
    assert (request.state, request.error_code) == ("failed", "host_refused")
    assert f"HTTP {status}" in request.error_message
    assert token not in request.error_message and token not in caplog.text and TOKEN not in caplog.text
    assert [r.answer for r in stage.host.received] == [status] and stage.host.pulls == {}
    assert request.head_commit and stage.served.heads()[request.branch] == request.head_commit  # pushed once


@pytest.mark.django_db
def test_a_second_click_during_the_first_finds_the_same_request(stage):
    stage = stage("gitlab")
    first, created, callbacks = stage.click()
    second, again, more = stage.click()
    assert created and not again and second.pk == first.pk and (len(callbacks), len(more)) == (1, 0)
    MergeRequest.objects.filter(pk=first.pk).update(state="pushing")  # the worker is at it
    third, again, more = stage.click()
    assert (third.pk, again, more) == (first.pk, False, [])
    MergeRequest.objects.filter(pk=first.pk).update(state="queued")
    assert run_task(first.pk) == "open"
    assert run_task(first.pk) == "open"  # a redelivered message finds it done
    fourth, again, _ = stage.click()  # a click after it opened
    assert (fourth.pk, again) == (first.pk, False)
    assert MergeRequest.objects.filter(repository=stage.row).count() == 1
    first.refresh_from_db()
    assert (first.state, first.attempts) == ("open", 1)
    assert_port_branch(stage, first)
    assert len(stage.host.received) == 1 and len(stage.host.pulls) == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_clicks_on_a_real_worker_make_one_request_through_a_500(stage, tmp_path):
    """Two users click at once; the worker's first call to the host gets a 500 and Celery's retry opens it."""
    stage = stage("github")
    stage.host.fail_next("500")
    worker = Worker(tmp_path / "worker.log")
    try:
        results = at_once(lambda: do_open_merge_request(stage.row, None, acting_user=stage.user))
        assert sorted(created for _, created in results) == [False, True]
        assert len({request.pk for request, _ in results}) == 1
        request = results[0][0]
        wait_until(lambda: MergeRequest.objects.get(pk=request.pk).state not in MergeRequest.IN_FLIGHT, 60, "the task")
    finally:
        worker.stop()
    request.refresh_from_db()
    assert (request.state, request.error_code, request.attempts) == ("open", "", 2)
    assert MergeRequest.objects.count() == 1
    assert_port_branch(stage, request)
    assert [r.answer for r in stage.host.posts()] == [500, 201] and len(stage.host.pulls) == 1


@pytest.mark.django_db(transaction=True)
def test_two_tasks_for_one_request_at_once_push_and_open_once(stage, monkeypatch):
    """A redelivered message while the first task still runs: the row lock makes the second wait, then it finds
    the request open."""
    stage = stage("gitea")
    monkeypatch.setattr(tasks.open_merge_request, "delay", lambda pk: None)  # no broker: the threads run it
    request, _ = do_open_merge_request(stage.row, None, acting_user=stage.user)
    assert at_once(lambda: run_task(request.pk)) == ["open", "open"]
    request.refresh_from_db()
    assert (request.state, request.attempts) == ("open", 1)
    assert_port_branch(stage, request)
    assert len(stage.host.received) == 1


@pytest.mark.django_db
def test_a_branch_made_between_the_check_and_the_push_is_a_branch_collision(stage):
    stage = stage("github")
    request, _, _ = stage.click()
    served = stage.served
    other = served.new_commit(stage.base, "made during the port", parent=stage.base)
    served.before_push.append(lambda: served.git("update-ref", f"refs/heads/{request.branch}", other))
    assert run(request) == "failed"
    assert served.heads() == {"main": stage.base, request.branch: other}  # holds whatever the code says
    assert served.pushed() == [] and stage.host.received == []
    assert (request.error_code, request.state) == ("branch_exists", "failed")


@pytest.mark.django_db
@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_request_opened_whose_answer_was_lost_is_found_on_the_retry(provider, stage):
    stage = stage(provider)
    stage.host.fail_next("lost")
    request, _, _ = stage.click()
    run_task(request.pk)
    request.refresh_from_db()
    assert stage.host.posts(), (request.state, request.error_code, request.error_message)
    assert [r.answer for r in stage.host.posts()][0] == 201 and len(stage.host.pulls) == 1  # holds
    assert (request.state, request.error_code, request.number) == ("open", "", 1)


@pytest.mark.django_db
def test_a_worker_lost_after_the_push_makes_the_same_commit_again_and_does_not_push_it_twice(stage, monkeypatch):
    stage = stage("gitea")
    request, _, _ = stage.click()
    with monkeypatch.context() as patched:  # the worker dies after the push: the task's transaction rolls back
        patched.setattr(tasks.hostapi, "open_request", Mock(side_effect=RuntimeError("the worker died here")))
        assert tasks.open_merge_request.apply(args=[request.pk]).failed()
    request.refresh_from_db()
    assert (request.state, request.head_commit, request.attempts) == ("queued", "", 0)  # nothing recorded
    pushed = stage.served.heads()[request.branch]
    assert run(request) == "open"  # the redelivered message
    assert request.head_commit == pushed  # the same commit (dates from the request), found on the remote
    assert_port_branch(stage, request)  # pushed once
    assert len(stage.host.received) == 1


@pytest.mark.django_db
def test_a_retry_while_a_newer_request_for_the_same_files_is_active_is_refused(stage):
    stage = stage("github", credentials=READER)
    first, _, _ = stage.click()
    assert run_task(first.pk) == "failed"
    second, created, _ = stage.click()
    assert created and second.pk != first.pk and second.branch == f"rocport/port-{second.pk}"
    with pytest.raises(ValidationError), stage.capture(execute=False) as callbacks:
        do_retry_merge_request(MergeRequest.objects.get(pk=first.pk), acting_user=stage.user)
    assert callbacks == [] and MergeRequest.objects.get(pk=first.pk).state == "failed"
    with pytest.raises(ValidationError):
        do_retry_merge_request(second, acting_user=stage.user)  # only a failed request is retried


@pytest.mark.django_db
def test_the_branch_plumbing_never_pushes_to_a_branch_it_did_not_name(stage):
    stage = stage("github")
    for branch, target in (("main", "main"), ("feature", "main"), ("rocport/x", "rocport/x")):
        with GitSession(stage.row.clone_url, stage.row.credentials()) as session:
            with pytest.raises(port_branch.PortError) as error:
                port_branch.push_port(
                    session,
                    base=stage.base,
                    target_branch=target,
                    branch=branch,
                    plan=lambda reader: [port_branch.CommitSpec("x", {"src/a.cu": "changed\n"})],
                    author=port_branch.Author("A", "a@example.test"),
                    committer=port_branch.Author("ROCport", "rocport@localhost"),
                    when=timezone.now(),
                )
        assert error.value.code == "bad_branch"
    nothing_pushed(stage)
    assert stage.served.seen == []  # not even a fetch


@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_stand_in_checks_requests_as_the_host_documents(provider):
    """The stand-in is only as good as its refusals: a field the host does not know, a branch the repository does
    not have, a duplicate; and its GET answers map to the states ROCport records."""
    host = PullHost.start(provider, TOKEN, PROJECTS[provider], branch_exists=lambda name: name in ("main", "p", "q"))
    api = hostapi.Host(provider, host.api_url, PROJECTS[provider], TOKEN)
    try:
        with pytest.raises(PermanentError, match="HTTP 422"):
            hostapi.open_request(api, branch="missing", target="main", title="t", body="b")
        assert hostapi.open_request(api, branch="p", target="main", title="t", body="b").number == 1
        names = ("source_branch", "target_branch") if provider == "gitlab" else ("head", "base")
        refused, duplicate = (400 if provider == "gitlab" else 422), (422 if provider == "github" else 409)
        with pytest.raises(PermanentError, match=f"HTTP {duplicate}"):
            hostapi._call(api, "POST", hostapi._base(api), {names[0]: "p", names[1]: "main", "title": "t"})
        # ROCport's own call adopts the open request of its branch (an earlier attempt whose answer was lost)
        assert hostapi.open_request(api, branch="p", target="main", title="t", body="b").number == 1
        assert hostapi.find_open(api, "q") is None
        assert hostapi.state_of(api, 1) == "open"
        for state in ("closed", "merged"):
            host.set_state(1, state)
            assert hostapi.state_of(api, 1) == state
        with pytest.raises(PermanentError, match=f"HTTP {refused}"):  # a misspelt field
            hostapi._call(api, "POST", hostapi._base(api), {names[0]: "q", names[1]: "main", "title": "t", "drafts": 1})
        adopted = [duplicate, 200]  # the refused POST, then the listing that finds it
        # GitHub's 422 also means a duplicate: the missing branch's refusal is followed by a listing that finds none
        missing = [422, 200] if provider == "github" else [422]
        assert [r.answer for r in host.received] == [*missing, 201, duplicate, *adopted, 200, 200, 200, 200, refused]
    finally:
        host.stop()


@pytest.mark.django_db
def test_the_remote_failing_between_the_fetch_and_the_push_leaves_a_clear_state(stage):
    stage = stage("gitea")
    request, _, _ = stage.click()
    discoveries = []  # the fetch's ref discovery is served; the next one (ls-remote's) gets a 500

    def second_discovery(seen) -> bool:
        discoveries.extend([seen] if seen.method == "GET" and "service=git-upload-pack" in seen.path else [])
        return len(discoveries) > 1

    stage.served.fail_when = second_discovery
    tasks.open_merge_request.apply(args=[request.pk])
    request.refresh_from_db()
    nothing_pushed(stage)
    assert stage.host.received == [] and len(discoveries) == 3  # the fetch, then ls-remote and its one retry
    assert request.state == "failed" and request.error_code and request.error_message


CMAKE = """cmake_minimum_required(VERSION 3.21)
project(kernels LANGUAGES CXX CUDA)
# src/a.cu is the reference kernel
add_library(kernels src/a.cu src/b.cu src/c.cu)
target_link_libraries(kernels PRIVATE CUDA::cudart)
set_target_properties(kernels PROPERTIES CUDA_ARCHITECTURES 80)
"""


@pytest.mark.django_db
def test_side_by_side_keeps_the_sources_and_switches_the_build_in_a_second_commit(stage):
    stage = stage("gitea", extra={"CMakeLists.txt": CMAKE})
    request, created, _ = stage.click(mode="side_by_side")
    assert created and request.mode == "side_by_side"
    assert run(request) == "open", (request.error_code, request.error_message)
    served, head = stage.served, request.head_commit
    build = served.commit(head)
    [translations] = build.parents
    assert served.commit(translations).parents == [stage.base]
    # first commit: each reviewed source gets a .hip sibling holding its translation; the .cu files stay as they were
    assert served.changed(stage.base, translations) == ["src/a.hip", "src/b.hip"]
    for path in REVIEWED:
        assert (
            served.blob(translations, path.replace(".cu", ".hip"))
            == file_version(stage.row, path).blob.translated.encode()
        )
        assert served.blob(head, path) == FILES[path].encode()
    # second commit: the build file only, switched to HIP where the meaning is certain, the rest listed for a person
    assert served.changed(translations, head) == ["CMakeLists.txt"]
    cmake = served.blob(head, "CMakeLists.txt").decode()
    assert "project(kernels LANGUAGES CXX HIP)" in cmake
    assert "add_library(kernels src/a.hip src/b.hip src/c.cu)" in cmake
    assert "# src/a.cu is the reference kernel" in cmake  # a comment is never edited
    assert "hip::host" in cmake and "find_package(hip REQUIRED)" in cmake
    assert "CUDA_ARCHITECTURES 80" in cmake  # no mechanical gfx equivalent: left, and said so
    left = build.message.split("Left for a person:")[1]
    assert "CUDA_ARCHITECTURES" in left and "src/c.cu" in left
    # how to configure the branch for an AMD GPU: the HIP architectures the CUDA ones could not become
    assert "    cmake -S . -B build -DCMAKE_HIP_ARCHITECTURES=gfx942\n" in build.message
    assert build.generated_by == "ROCport"
    assert len(stage.host.received) == 1 and stage.host.pulls[1].head == request.branch


def merge_and_scan(staged, request, provider: str) -> Scan:
    """The host merges (main fast-forwards to the port's head) and says so; the push's scan runs."""
    row = staged.row
    staged.served.git("update-ref", "refs/heads/main", request.head_commit, staged.base)
    staged.host.set_state(request.number, "merged")
    status, text = deliver(row, provider, pull_request_event(provider, request.number, request.branch, "merged"))
    assert status == 202, text
    raw = push_body(provider, "main", staged.base, request.head_commit)
    with staged.capture(execute=False):
        response = Client().post(
            reverse("webhooks:receive", args=[row.pk, provider]),
            data=raw,
            content_type="application/json",
            headers=signed(provider, row.webhook_secret, raw),
        )
    assert response.status_code == 202, response.content
    scan = Scan.objects.filter(repository=row, trigger="push").get()
    assert scan.commit_sha == request.head_commit
    pipeline.run(scan.pk)
    scan.refresh_from_db()
    assert scan.status == "finished", (scan.error_code, scan.error_message)
    return scan


@pytest.mark.django_db
@pytest.mark.parametrize("provider", ["github", "gitlab"])
def test_once_merged_the_push_scan_closes_the_ports_findings_and_progress_moves(provider, stage):
    stage = stage(provider, extra={"CMakeLists.txt": CMAKE})
    request, _, _ = stage.click()
    assert run(request) == "open"
    row = stage.row
    # the build commit switches the language and the runtime target; the architectures are left for a person
    ported = Finding.objects.filter(repository=row, branch="main", path="CMakeLists.txt", state="open")
    ported_ids = set(ported.filter(rule__in=["ROC201", "ROC206"]).values_list("pk", flat=True))
    untouched = set(ported.filter(rule="ROC204").values_list("pk", flat=True))
    assert len(ported_ids) == 2 and len(untouched) == 1
    before = BranchRollup.objects.get(repository=row, branch="main").totals["progress"]

    # the host merges (a fast-forward of main to the port's head) and says so, then the push arrives
    merge_and_scan(stage, request, provider)
    request.refresh_from_db()
    assert request.state == "merged"

    closed = Finding.objects.filter(pk__in=ported_ids)
    assert set(closed.values_list("state", flat=True)) == {"fixed"}  # closed: the CUDA they flagged is gone
    assert set(Finding.objects.filter(pk__in=untouched).values_list("state", flat=True)) == {"open"}
    after = BranchRollup.objects.get(repository=row, branch="main").totals["progress"]
    assert after["left"] < before["left"] and after["done"] > before["done"]


@pytest.mark.django_db
def test_a_file_whose_blob_is_not_the_reviewed_one_is_never_committed(stage):
    """A review matched through a CI upload's stand-in may be of an earlier blob: the port refuses the file."""
    stage = stage("github")
    reviewed_blob = file_version(stage.row, "src/a.cu").scanned.blob_sha
    with GitSession(stage.row.clone_url, stage.row.credentials()) as session:
        session.work.mkdir(exist_ok=True)
        session.git("init", "--quiet", "--bare", ".")
        session.git("remote", "add", "origin", "--", session.url)
        session.git("fetch", "--quiet", "origin", "main")
        reader = port_branch.BaseReader(session, stage.base)
        files = {"src/a.cu": "translated\n"}
        assert planning.commits(reader, files, mode="in_place", message="m", reviewed={"src/a.cu": reviewed_blob})
        with pytest.raises(port_branch.PortError) as refused:
            planning.commits(reader, files, mode="in_place", message="m", reviewed={"src/a.cu": "1" * 40})
    assert refused.value.code == "reviews_changed" and "src/a.cu" in refused.value.message


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("refused", "statuses"),
    [
        (1, [500, 200, 200]),  # the target branch's fetch refused, the fetch again, ls-remote
        (2, [200, 500, 200]),  # the fetch, the branch check (ls-remote) refused, ls-remote again
    ],
    ids=["fetch-of-the-target", "check-of-the-pushed-branch"],
)
def test_one_dropped_git_request_is_tried_again(stage, refused, statuses):
    stage = stage("gitea")
    request, _, _ = stage.click()
    discoveries = []  # the ref discoveries of git-upload-pack, in order: the `refused`-th gets a 500

    def only_that_one(seen) -> bool:
        discoveries.extend([seen] if seen.method == "GET" and "service=git-upload-pack" in seen.path else [])
        return len(discoveries) == refused and seen is discoveries[-1]

    stage.served.fail_when = only_that_one
    assert run(request) == "open", (request.error_code, request.error_message)
    served = [s.status for s in stage.served.seen if s.user and s.method == "GET" and "git-upload-pack" in s.path]
    assert served == statuses
    assert_port_branch(stage, request)


def test_a_refused_push_of_a_commit_whose_hex_holds_403_is_a_branch_collision_not_a_permission_error(tmp_path):
    # CI once failed 1 run in ~100 here: git's "[rejected]" line names the pushed commit, and a bare "403" in the
    # text was taken for an HTTP status.
    env = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}

    def git(cwd, *args, check=True):
        done = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=False)
        assert not check or done.returncode == 0, done.stderr
        return done

    remote, work = tmp_path / "remote.git", tmp_path / "work"
    git(tmp_path, "init", "--quiet", "--bare", str(remote))
    git(tmp_path, "init", "--quiet", str(work))
    identity = ("-c", "user.name=t", "-c", "user.email=t@example.test")
    git(work, *identity, "commit", "--quiet", "--allow-empty", "-m", "base")
    git(work, "push", "--quiet", str(remote), "HEAD:refs/heads/rocport/port")
    tree = git(work, "rev-parse", "HEAD^{tree}").stdout.strip()
    head = ""
    for n in range(5000):  # about 1 commit in 110 has "403" in its hex
        head = git(work, *identity, "commit-tree", tree, "-m", f"port {n}").stdout.strip()  # not on the branch
        if "403" in head:
            break
    assert "403" in head
    pushed = git(work, "push", "--quiet", str(remote), f"{head}:refs/heads/rocport/port", check=False)
    assert pushed.returncode != 0
    error = port_branch._push_error(classify(pushed.stderr, str(remote)), "rocport/port")
    assert error.code == "branch_exists", pushed.stderr
