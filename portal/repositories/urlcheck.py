"""Clone URL validation: which URLs may be cloned at all, with a message a user can act on."""

from __future__ import annotations

import ipaddress
import re
import socket
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

_ALWAYS = ("https", "ssh", "git")
_SCP_LIKE = re.compile(r"^(?P<user>[A-Za-z0-9._-]+)@(?P<host>[A-Za-z0-9.-]+):(?P<path>[^\s]+)$")


def transport_allowed(scheme: str) -> bool:
    """The one rule for git transports, used by the URL check below and by the clone's git config
    (portal.repositories.git): https, ssh and git always; plain http with ROCPORT_ALLOW_PRIVATE_HOSTS (a server on
    a private network, as .env.example says); file (and local paths) with ROCPORT_ALLOW_LOCAL_REPOS; nothing else."""
    scheme = scheme.lower()
    if scheme in _ALWAYS:
        return True
    if scheme == "http":
        return bool(settings.ROCPORT_ALLOW_PRIVATE_HOSTS)
    if scheme == "file":
        return bool(settings.ROCPORT_ALLOW_LOCAL_REPOS)
    return False


def allowed_schemes() -> list[str]:
    """The network schemes a clone URL may use on this server, in the order a message names them."""
    return [scheme for scheme in ("https", "http", "ssh", "git") if transport_allowed(scheme)]


def allowed_schemes_text() -> str:
    """The allowed schemes as a message names them: "https://, ssh:// or git://"."""
    names = [f"{name}://" for name in allowed_schemes()]
    return _(" or ").join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]


def host_of(url: str) -> str | None:
    match = _SCP_LIKE.match(url)
    if match:
        return match.group("host")
    return urlsplit(url).hostname


def _refused_scheme(scheme: str) -> str:
    """The refusal of a transport, naming the setting that would allow it when one does (only `transport_allowed`'s
    rule decides, so the message cannot promise what git would then refuse)."""
    refusal = _("Use an %(schemes)s URL (not %(scheme)s).") % {
        "schemes": allowed_schemes_text(),
        "scheme": scheme or _("a bare path"),
    }
    if scheme == "http":
        hint = _(
            "Plain http:// is allowed only when the server runs with ROCPORT_ALLOW_PRIVATE_HOSTS=1 (for a git server "
            "on a private network)."
        )
        return f"{refusal} {hint}"
    return refusal


def validate_clone_url(url: str) -> str:
    """The URL, stripped; raises ValidationError with a clear message when it may not be cloned."""
    url = url.strip()
    if not url:
        raise ValidationError("Enter the repository's clone URL.")
    if any(ch.isspace() for ch in url) or url.startswith("-"):
        raise ValidationError("A clone URL cannot contain spaces or start with '-'.")
    if "::" in url.split("/")[0]:
        raise ValidationError("Remote helper URLs (transport::address) are not allowed.")
    local = url.startswith("file://") or url.startswith("/") or url.startswith(".")
    if local:
        if not transport_allowed("file"):
            raise ValidationError(
                _(
                    "Local repositories (file:// or a path) are not allowed on this server (they are when it runs "
                    "with ROCPORT_ALLOW_LOCAL_REPOS=1)."
                )
            )
        path = Path(url[len("file://") :] if url.startswith("file://") else url)
        try:
            exists = path.exists()
        except OSError:  # a name too long for the file system: no repository there either
            exists = False
        if not exists:
            raise ValidationError(f"No repository at {path}.")
        return url
    try:
        if _SCP_LIKE.match(url):
            scheme = "ssh"
        else:
            scheme = urlsplit(url).scheme.lower()
            if scheme == "file" or not transport_allowed(scheme):
                raise ValidationError(_refused_scheme(scheme))
            if urlsplit(url).password:
                raise ValidationError(
                    "Do not put a password in the URL: use the credentials field, which is encrypted."
                )
        host = host_of(url)
        user = "" if _SCP_LIKE.match(url) else (urlsplit(url).username or "")
    except ValueError:  # urlsplit refuses some malformed URLs ("https://[abc/") outright
        raise ValidationError("This is not a valid URL.") from None
    if not host:
        raise ValidationError("The URL has no host name.")
    if host.startswith("-") or user.startswith("-"):
        # ssh would take `ssh://-oProxyCommand=...` as an option and run it (CVE-2017-1000117): refused even where
        # private hosts are allowed.
        raise ValidationError("A host or user name in a clone URL cannot start with '-'.")
    check_host_is_public(host)
    return url


def check_host_is_public(host: str) -> None:
    """Refuse loopback, private, link-local and reserved addresses unless the setting allows them."""
    if settings.ROCPORT_ALLOW_PRIVATE_HOSTS:
        return
    try:
        infos = socket.getaddrinfo(host, None)
    except (socket.gaierror, UnicodeError):  # UnicodeError: a label IDNA cannot encode (empty, over 63 chars)
        raise ValidationError(f"The host {host!r} cannot be resolved.") from None
    for info in infos:
        address = ipaddress.ip_address(info[4][0].split("%")[0])
        if not address.is_global:
            raise ValidationError(
                _(
                    "The host %(host)s resolves to a private or local address (%(address)s); cloning from it is not "
                    "allowed on this server (it is when the server runs with ROCPORT_ALLOW_PRIVATE_HOSTS=1)."
                )
                % {"host": repr(host), "address": address}
            )
