"""The Celery task that makes a merge request happen: build and push the port branch, then open the request on
the host. The row stays locked for the whole task (a few seconds of git and one API call, each with a time limit),
so a redelivered message or a second task for the same request waits and then finds it done. Each step is
recorded as it completes (PUSHED with the commit, then OPEN with the number), so a retry resumes where the last
attempt stopped; the host failing (network, 5xx) is retried with backoff, anything else fails the request with a
stable code and a message for people."""

from __future__ import annotations

import logging
from datetime import timedelta
from email.utils import parseaddr

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from portal.files import patch
from portal.hosts import pulls as hostapi  # the host API the tests patch here
from portal.hosts.transport import PermanentError, PostError, TransientError
from portal.ports import branch as port_branch
from portal.ports import compiling, describe, foresight, planning, story, tracking
from portal.ports.models import MergeRequest
from portal.repositories.git import CloneError, GitSession

log = logging.getLogger(__name__)

MAX_RETRIES = 5
STUCK_AFTER = timedelta(minutes=15)  # a request still queued or pushing this long lost its task: send it again
_BACKOFF = {"retry_backoff": 2, "retry_backoff_max": 300, "retry_jitter": True, "max_retries": MAX_RETRIES}


@shared_task(bind=True, autoretry_for=(TransientError,), **_BACKOFF)
def open_merge_request(self, merge_request_id: int) -> str:
    transient = None
    with transaction.atomic():
        request = (
            MergeRequest.objects.select_for_update(of=("self",))
            .select_related("repository", "created_by")
            .filter(pk=merge_request_id)
            .first()
        )
        if request is None or request.state not in MergeRequest.IN_FLIGHT:
            return request.state if request else "gone"
        request.attempts += 1
        request.error_code = request.error_message = ""
        try:
            _run(request)
        except port_branch.PortError as error:
            _fail(request, error.code, error.message)
        except CloneError as error:  # the workspace itself (GitSession) could not be made
            _fail(request, "git_failed", error.message)
        except PermanentError as error:
            _fail(request, "host_refused", str(error))
        except TransientError as error:
            if self.request.retries >= MAX_RETRIES:
                _fail(request, "host_unavailable", f"{error} (after {MAX_RETRIES + 1} attempts)")
            else:
                transient = error
                request.error_message = f"{error}; trying again shortly"
                request.save(update_fields=["attempts", "error_code", "error_message", "updated"])
    if transient is not None:
        raise transient  # outside the transaction: what was recorded stays, Celery sends the retry
    return request.state


def _run(request: MergeRequest) -> None:
    repository = request.repository
    config = getattr(repository, "commit_status", None)
    if config is None or not config.token_encrypted:
        raise port_branch.PortError("no_host", "the git host connection (Settings, commit statuses) is not set up")
    if not request.head_commit:
        request.state = MergeRequest.State.PUSHING
        request.save(update_fields=["state", "attempts", "error_code", "error_message", "updated"])
        _push(request)
    host = hostapi.Host(config.provider, config.api_url, config.project, config.token())
    told = story.Story.of_json(request.story) if request.story else None
    findings = told.left_rules if told else describe.open_findings(repository, request.files)
    opened = hostapi.open_request(
        host,
        branch=request.branch,
        target=request.target_branch,
        title=describe.title(request.files),
        body=describe.description(
            repository,
            request.base_commit,
            request.files,
            request.left_for_people,
            findings,
            story=told,
            compiled=request.compile_results,
            build_left=request.build_left,
        ),
    )
    request.number, request.url, request.state = opened.number, opened.url, MergeRequest.State.OPEN
    request.save(update_fields=["number", "url", "state", "attempts", "error_code", "error_message", "updated"])
    log.info("merge request %s of repository %s opened as number %s", request.pk, repository.pk, opened.number)


def _push(request: MergeRequest) -> None:
    repository = request.repository
    selection = patch.reviewed(repository, request.files)
    if selection.commit != request.base_commit or set(selection.blobs) != set(request.files):
        raise port_branch.PortError(
            "reviews_changed",
            "the newest scan or the reviews changed since the request was made: open a new merge request",
        )
    files = {path: blob.translated for path, blob in selection.blobs.items()}
    told = story.estimate(repository, selection.scan_id, selection.blobs, request.mode)
    findings = told.left_rules
    user = request.created_by
    author = port_branch.Author(
        (user.get_full_name() or user.username) if user else "ROCport",
        (user.email if user and user.email else f"{user.username if user else 'rocport'}@users.rocport.invalid"),
    )
    committer_name, committer_email = parseaddr(settings.DEFAULT_FROM_EMAIL)
    elsewhere: dict[str, set[int]] = {}  # the lines the build commit rewrites, for the story
    compiled: list[dict] = []  # the compile check of the ported files on the branch, before the push
    build_left: list[list] = []  # what the build switch left for a person
    still: dict = {}  # what the scan of the merged commit will still find in the files rewritten in place

    def foresee(root) -> None:
        if request.mode != planning.SIDE_BY_SIDE:
            still["found"] = foresight.still_found(repository, root, sorted(files))

    def check_build(session: GitSession, head: str) -> None:
        paths = compiling.branch_paths(request.files, request.mode)
        compiled[:] = compiling.check_branch(session, head, paths, on_tree=foresee)

    def plan(reader: port_branch.BaseReader) -> list[port_branch.CommitSpec]:
        specs = planning.commits(
            reader,
            files,
            mode=request.mode,
            reviewed={path: blob.blob_sha for path, blob in selection.blobs.items()},
            message=describe.commit_message(request.base_commit, request.files, request.left_for_people, findings),
            build_left=build_left,
        )
        elsewhere.update(story.build_rewrites(reader, specs, files))
        return specs

    with GitSession(repository.clone_url, repository.credentials()) as session:
        pushed = port_branch.push_port(
            session,
            base=request.base_commit,
            target_branch=request.target_branch,
            branch=request.branch,
            plan=plan,
            author=author,
            committer=port_branch.Author(committer_name or "ROCport", committer_email or "rocport@localhost"),
            when=request.created,
            before_push=check_build,
        )
    if elsewhere or still.get("found") is not None:  # the build commit's own fixes; what the scan will still see
        told = story.estimate(
            repository, selection.scan_id, selection.blobs, request.mode, elsewhere, still=still.get("found")
        )
    request.head_commit, request.state, request.story = pushed.commit, MergeRequest.State.PUSHED, told.as_json()
    request.compile_results, request.build_left = compiled, build_left
    request.save(update_fields=["head_commit", "state", "story", "compile_results", "build_left", "updated"])


def _fail(request: MergeRequest, code: str, message: str) -> None:
    request.state, request.error_code, request.error_message = MergeRequest.State.FAILED, code, message[:2000]
    request.save(update_fields=["state", "error_code", "error_message", "attempts", "updated"])
    log.warning("merge request %s of repository %s failed: %s", request.pk, request.repository_id, code)


@shared_task
def reconcile_merge_requests() -> int:
    """Ask the host about every open request, and send again the task of a request stuck before it opened;
    returns the number of requests whose state changed."""
    changed = 0
    for request in MergeRequest.objects.filter(state=MergeRequest.State.OPEN).select_related(
        "repository__commit_status"
    ):
        config = getattr(request.repository, "commit_status", None)
        if config is None or not config.token_encrypted or request.number is None:
            continue
        host = hostapi.Host(config.provider, config.api_url, config.project, config.token())
        try:
            state = hostapi.state_of(host, request.number)
        except PostError as error:
            log.info("reconcile merge request %s: %s", request.pk, type(error).__name__)
            continue
        if "->" in tracking.record_host_state(request.repository, request.number, request.branch, state):
            changed += 1
    stuck = MergeRequest.objects.filter(state__in=MergeRequest.IN_FLIGHT, updated__lt=timezone.now() - STUCK_AFTER)
    for pk in stuck.values_list("pk", flat=True)[:100]:
        open_merge_request.delay(pk)
    return changed
