"""Registration's check of the remote: `git ls-remote --heads` through GitSession (no shell, no config, no prompt,
the clone's transports, no redirects and the clone's time limit, capped), so a typo in the URL or the branch is
refused while the user is on the form instead of failing the first scan.

An answer from the remote refuses: there is no repository at that address (HTTP 404, "repository not found"), it
refused the credentials (or needs some), it redirects elsewhere (git never follows a redirect here: one could lead
to a private host), or it has no such branch. A remote that does not answer this web server (a name that does not
resolve, a refused connection, no route, no answer in time) saves with a warning that says which: a worker needs
access to the git hosts, the web server does not, and refusing there would block registering any repository on an
install whose web servers have no route to the git host. The first scan then says what is wrong."""

from __future__ import annotations

import re
import time

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from portal.repositories.git import CloneError, GitSession

# The form waits at most this long for the remote (the clone's own limit when it is lower).
CHECK_SECONDS = 20
_LISTED = 8

# The form field each refusal belongs to (the branch's otherwise).
FIELD_OF_CODE = {"auth_failed": "credentials_secret", "repo_not_found": "clone_url", "redirected": "clone_url"}

# What git prints (lower-cased, URLs masked: CloneError.detail) when the server answered that nothing is there: smart
# HTTP's 404, GitHub's and Bitbucket's ssh, GitLab's ssh, git daemon, a path that is no repository.
_NOT_FOUND = re.compile(
    r"repository '[^']*' not found|returned error: 404\b|does not appear to be a git repository"
    r"|repository not found|access denied or repository not exported|project you were looking for could not be found"
)
_REDIRECT = re.compile(r"returned error: (30[12378])\b")
# Why the remote did not answer, first match wins (curl says "couldn't connect to server" for a refused connection
# and for others alike; git:// and ssh name the refusal).
_NO_ANSWER = (
    (("timed out",), gettext_lazy("no answer in time")),  # the network's own time-out; ours is a CloneError code
    (
        ("could not resolve host", "could not resolve hostname", "name or service not known", "name resolution"),
        gettext_lazy("the host name could not be resolved"),
    ),
    (("connection refused",), gettext_lazy("the host refused the connection")),
    (("no route to host", "network is unreachable"), gettext_lazy("no route to the host")),
    (
        ("couldn't connect", "could not connect", "failed to connect", "unable to connect"),
        gettext_lazy("the connection to the host failed"),
    ),
)


def field_for(error: ValidationError) -> str:
    """The form field a refusal from check_default_branch is shown under."""
    return FIELD_OF_CODE.get(error.code or "", "default_branch")


def check_default_branch(url: str, branch: str, credentials: tuple[str, str] | None) -> str:
    """ "" when the remote has `branch`; a warning when the remote could not be checked. Raises ValidationError
    (code: FIELD_OF_CODE's or "branch_not_found") when the remote answered without a repository or that branch,
    redirected, or refused the credentials."""
    seconds = min(CHECK_SECONDS, settings.ROCPORT_CLONE_TIMEOUT)
    with GitSession(url, credentials) as git:
        git.deadline = time.monotonic() + seconds
        try:
            names = git.branches()
        except CloneError as error:
            return _warning_or_refusal(error, url, branch, seconds)
    if branch in names:
        return ""
    if not names:
        raise ValidationError(
            _("The branch %(branch)s does not exist: the repository has no branches yet.") % {"branch": branch},
            code="branch_not_found",
        )
    listed = ", ".join(sorted(names)[:_LISTED]) + (", …" if len(names) > _LISTED else "")
    raise ValidationError(
        _("The branch %(branch)s does not exist in the repository (its branches: %(branches)s).")
        % {"branch": branch, "branches": listed},
        code="branch_not_found",
    )


def _warning_or_refusal(error: CloneError, url: str, branch: str, seconds: int) -> str:
    if error.code == "auth_failed":
        raise ValidationError(
            _("The repository refused the credentials (or needs some): enter a token or password below."),
            code="auth_failed",
        )
    detail = error.detail
    if _NOT_FOUND.search(detail):
        raise ValidationError(
            _(
                "There is no repository at %(url)s: the server answered that it does not exist. Check the address "
                "(a private repository may also need its credentials)."
            )
            % {"url": url},
            code="repo_not_found",
        )
    if redirect := _REDIRECT.search(detail):
        raise ValidationError(
            _(
                "%(url)s answers with a redirect (HTTP %(status)s) to another address. ROCport never follows a "
                "redirect, which could lead to a private host: enter the address the repository is cloned from."
            )
            % {"url": url, "status": redirect.group(1)},
            code="redirected",
        )
    if error.code == "timeout":
        reason = _("no answer within %(seconds)s seconds") % {"seconds": seconds}
    else:
        reason = next((why for signs, why in _NO_ANSWER if any(sign in detail for sign in signs)), None)
    if reason is not None:
        return _(
            "%(url)s did not answer this server (%(reason)s), so neither the repository nor its branch %(branch)s "
            "could be checked. The workers may reach hosts this web server cannot: the first scan will tell."
        ) % {"url": url, "reason": reason, "branch": branch}
    return _("The branch %(branch)s could not be checked (%(reason)s); the first scan will tell.") % {
        "branch": branch,
        "reason": error.message,
    }
