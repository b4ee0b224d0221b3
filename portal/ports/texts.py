"""What the merge-request pages and the API say to people about a request: the advice per error code, the progress
steps, why a reviewed file was left out. Texts only (lazy translations); imported by the views and the API, never by
the worker."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from portal.ports import host_state
from portal.ports.compiling import OFF as COMPILE_OFF
from portal.ports.models import MergeRequest
from portal.scans.compile_status import STATUS_LABELS

# error_code (portal.ports.branch, portal.ports.tasks) -> what to do about it. The recorded error_message is the
# worker's English detail; the page shows this advice first and the detail after it.
ADVICE = {
    "no_write_access": gettext_lazy(
        "The repository's credentials can read but not push. Give them write access (in Settings, the repository's "
        "username and token) and try again, or download the patch and apply it yourself."
    ),
    "auth_failed": gettext_lazy(
        "The repository refused its credentials. Update the username and token in Settings, then try again."
    ),
    "target_moved": gettext_lazy(
        "The target branch no longer contains the scanned commit. Scan the branch again, review the new "
        "translations, then open a new merge request."
    ),
    "branch_exists": gettext_lazy(
        "A branch of this name already exists on the host with other commits, and ROCport never overwrites a "
        "branch. Delete that branch on the host, then try again."
    ),
    "host_refused": gettext_lazy(
        "The git host refused to open the merge request (the details say why). Check the commit statuses "
        "connection in Settings: its token needs the right to open merge requests. Then try again."
    ),
    "host_unavailable": gettext_lazy(
        "The git host could not be reached, even after several attempts. Try again later: the branch that was "
        "already pushed is not pushed twice."
    ),
    "reviews_changed": gettext_lazy(
        "A newer scan or a change of review happened after this merge request was asked for. Open a new merge "
        "request from the reviewed translations as they are now."
    ),
    "no_host": gettext_lazy(
        "The git host connection is not set up. Fill in the commit statuses section in Settings (provider, API "
        "URL, project, token), then try again."
    ),
    "fetch_failed": gettext_lazy(
        "Git could not read the target branch. Check the clone URL and the credentials in Settings, then try again."
    ),
    "push_failed": gettext_lazy(
        "The push failed (the details say why). Try again; if it fails the same way, report it."
    ),
    "git_failed": gettext_lazy(
        "Git failed while preparing the branch (the details say why): often the host was briefly unavailable. "
        "Try again; nothing was pushed."
    ),
    "timeout": gettext_lazy(
        "Git took longer than the time allowed (ROCPORT_CLONE_TIMEOUT). Try again when the host is less busy."
    ),
    "nothing_to_commit": gettext_lazy(
        "The reviewed translations change no file, so there is nothing to commit. Nothing needs to be done."
    ),
    "bad_branch": gettext_lazy("ROCport refused to push to this branch. This is on our side: report it."),
}
# The codes whose advice links to the repository's settings, to a new scan, or offers the patch.
SETTINGS_CODES = {"no_write_access", "auth_failed", "host_refused", "no_host", "fetch_failed"}
RESCAN_CODES = {"target_moved"}
NEW_REQUEST_CODES = {"reviews_changed", "target_moved"}
PATCH_CODES = {"no_write_access", "auth_failed", "host_refused", "no_host", "push_failed", "branch_exists"}

# The steps a request goes through, for the progress line of its page.
STEPS = (
    (MergeRequest.State.QUEUED, gettext_lazy("queued")),
    (MergeRequest.State.PUSHING, gettext_lazy("pushing the branch")),
    (MergeRequest.State.PUSHED, gettext_lazy("branch pushed")),
    (MergeRequest.State.OPEN, gettext_lazy("merge request open")),
)


# Why a reviewed file was left out, as portal.ports.actions records it (English) -> for people.
OUTDATED = "reviewed on an older version of the file: review it again"
UNUSABLE = "the stored text is not the file's exact bytes: edit it by hand"
WHY_LEFT = {
    OUTDATED: gettext_lazy("reviewed on an older version of the file: review it again"),
    UNUSABLE: gettext_lazy("the stored text is not the file's exact bytes: edit it by hand"),
}


def left_for_people(merge_request: MergeRequest) -> list[tuple[str, str, bool]]:
    """(path, why, whether `why` is the recorded English text rather than a translation)."""
    out = []
    for item in merge_request.left_for_people or []:
        path, why = (list(item) + ["", ""])[:2]
        out.append((path, WHY_LEFT.get(why, why), why not in WHY_LEFT))
    return out


# What the host says about an open request (portal.ports.host_state), for its page.
REVIEW_WORDS = {
    "approved": gettext_lazy("approved by %(who)s"),
    "changes_requested": gettext_lazy("changes requested by %(who)s"),
    "commented": gettext_lazy("commented by %(who)s"),
}
CHECK_WORDS = {
    "passing": gettext_lazy("passing"),
    "failing": gettext_lazy("failing"),
    "pending": gettext_lazy("pending"),
}


def host_lines(merge_request: MergeRequest) -> dict:
    """The reviews and checks of the request's page: host_state.summary with each state in words."""
    summary = host_state.summary(merge_request.host_state)
    review = summary["review"]
    summary["review_text"] = (
        REVIEW_WORDS[review] % {"who": ", ".join(name or "?" for name in summary["reviewers"])} if review else ""
    )
    summary["checks_text"] = CHECK_WORDS.get(summary["checks_state"], "")
    for check in summary["checks"]:
        check["text"] = CHECK_WORDS.get(check["state"], check["state"])
    return summary


# The compile check of the ported files on the branch (portal.ports.compiling), as the page says it: the file
# page's labels (portal.scans.compile_status), and the reasons the port's check records.
WHY_NOT_CHECKED = {
    COMPILE_OFF: gettext_lazy("the compile check is off on this portal (ROCPORT_COMPILE_CHECK=off)"),
    "not on the branch": gettext_lazy("not on the branch"),
}


def compile_rows(merge_request: MergeRequest) -> list[tuple[str, str, str, str, bool]]:
    """(path, status, its label, the detail: the first error, the stubbed headers or why not checked, whether the
    detail is the recorded English text) for each ported file the check saw."""
    out = []
    for row in merge_request.compile_results or []:
        status = row.get("status", "")
        if status == "fails":
            detail, english = row.get("error") or row.get("reason", ""), True
        elif status == "compiles-with-stubs":
            detail, english = ", ".join(row.get("stubbed", [])), False
        elif status == "not-checked":
            reason = row.get("reason", "")
            detail, english = WHY_NOT_CHECKED.get(reason, reason), reason not in WHY_NOT_CHECKED
        else:
            detail, english = row.get("std", ""), False
        out.append((row.get("path", ""), status, STATUS_LABELS.get(status, status), detail, english))
    return out
