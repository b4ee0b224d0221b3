"""What a failed scan's page and the API say to do about its error code: the advice, translated, and which codes are
fixed on the repository's settings page. Texts only; imported by the scan page and the API."""

from __future__ import annotations

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from portal.repositories import urlcheck

# error_code -> what to do about it (user errors name the fix; app errors say it is ours)
ADVICE = {
    "scan:user:clone-failed": _(
        "Git could not fetch the repository. Check the clone URL and that this server can reach the host."
    ),
    "scan:user:auth-failed": _(
        "The repository refused the credentials. Update the username and token on the repository's settings page."
    ),
    "scan:user:ref-not-found": _("The branch does not exist on the remote. Check the tracked branches."),
    "scan:user:commit-not-found": _(
        "The commit is no longer on the remote (a force push?). The next push or "
        "the periodic reconciliation scans the new head."
    ),
    "scan:user:repo-too-large": _(
        "The repository is larger than this server allows (ROCPORT_CLONE_MAX_BYTES, "
        "ROCPORT_CLONE_MAX_FILES). Remove large or generated files from the branch or "
        "ask an administrator to raise the limit."
    ),
    "scan:user:timeout": _(
        "The scan took longer than its time limit. Exclude vendored code in .rocport.toml or "
        "ask an administrator to raise ROCPORT_SCAN_SOFT_TIME_LIMIT."
    ),
    "scan:user:bad-config": _("The repository's .rocport.toml is invalid: the message names the key to fix."),
    "scan:user:path-too-long": _(
        "A path in the repository is longer than this server can store (1,000 "
        "characters). Shorten it, or scan the project with the command line."
    ),
    "scan:user:credentials-unreadable": _(
        "The stored credentials cannot be decrypted: the server's keys changed "
        "(ROCPORT_CREDENTIALS_KEYS). Enter the username and token again on the "
        "repository's settings page."
    ),
    "scan:app:worker-lost": _(
        "The scanning worker stopped several times. This is on our side; the "
        "administrators have the logs. Start the scan again later."
    ),
    "scan:app:shard-failed": _(
        "One part of the scan (a shard) failed on every attempt; the message names its "
        "files. This is on our side: the administrators have the logs. Start the scan "
        "again; if it fails the same way, report it."
    ),
    "scan:app:internal-error": _(
        "Something went wrong on our side; the administrators have the logs. Start "
        "the scan again; if it fails the same way, report it."
    ),
}


# The codes whose fix is made on the repository's settings page: the advice links to it.
SETTINGS_CODES = frozenset(
    {
        "scan:user:ref-not-found",
        "scan:user:auth-failed",
        "scan:user:credentials-unreadable",
        "scan:user:protocol-not-allowed",
    }
)


def advice(code: str) -> str:
    """What to do about a failed scan's `code`, translated; "" for a code without advice."""
    if code == "scan:user:protocol-not-allowed":  # names the schemes this server's settings allow
        return gettext("This URL's protocol is not allowed on this server. Use an %(schemes)s URL.") % {
            "schemes": urlcheck.allowed_schemes_text()
        }
    return str(ADVICE.get(code, ""))
