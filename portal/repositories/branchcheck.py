"""Registration's check that the default branch exists: `git ls-remote --heads` through GitSession (no shell, no
config, no prompt, the clone's transports and time limit), so a typo is refused while the user is on the form
instead of failing the first scan.

Only an answer from the remote refuses: the branch is not among its branches, or it refused the credentials. A
remote this web server cannot reach (network down, a host only the workers can reach: a worker needs access to the
git hosts, the web server does not) keeps the registration working with a warning; the first scan then says what is
wrong. Refusing there would block registering any repository on an install whose web servers have no route to the
git host."""

from __future__ import annotations

import time

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from portal.repositories.git import CloneError, GitSession

# The form waits at most this long for the remote (the clone's own limit when it is lower).
CHECK_SECONDS = 20
_LISTED = 8


def check_default_branch(url: str, branch: str, credentials: tuple[str, str] | None) -> str:
    """ "" when the remote has `branch`; a warning when the remote could not be reached. Raises ValidationError
    when the remote answered without that branch, or refused the credentials."""
    with GitSession(url, credentials) as git:
        git.deadline = time.monotonic() + min(CHECK_SECONDS, settings.ROCPORT_CLONE_TIMEOUT)
        try:
            names = git.branches()
        except CloneError as error:
            if error.code == "auth_failed":
                raise ValidationError(
                    _("The repository refused the credentials (or needs some): enter a token or password below."),
                    code="auth_failed",
                ) from None
            return _("The branch %(branch)s could not be checked (%(reason)s); the first scan will tell.") % {
                "branch": branch,
                "reason": error.message,
            }
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
