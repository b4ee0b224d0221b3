"""Branch names a user may register: git's ref-name rules (check-ref-format), and never something git would read as
an option (`--upload-pack=...`) when it reaches a command line."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

_FORBIDDEN = ("..", "@{", "//", "/.", ".lock/")


def validate_branch_name(name: str) -> str:
    """The name, stripped; raises ValidationError when git would refuse it as a branch or could take it for an
    option."""
    name = name.strip()
    bad = (
        not name
        or name.startswith(("-", "/", "."))
        or name.endswith(("/", ".", ".lock"))
        or name == "@"
        or any(part in name for part in _FORBIDDEN)
        or any(ord(ch) < 0x20 or ch in " ~^:?*[\\\x7f" for ch in name)
    )
    if bad:
        raise ValidationError(_("%(name)s is not a valid branch name.") % {"name": name[:100]})
    return name
