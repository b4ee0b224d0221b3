"""Personal API tokens: issue (the plain token is returned once), resolve a request's bearer token to its user,
revoke. Every API view and the CI upload authenticate through `user_for_request`."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.utils import timezone

from portal.accounts import throttle
from portal.accounts.models import ApiToken

PREFIX = "rp_"
_TOUCH_EVERY = timedelta(minutes=1)  # last_used is refreshed at most this often: no write per request


def digest_of(plain: str) -> str:
    return hashlib.sha256(plain.encode()).hexdigest()


def issue(user, name: str, read_only: bool = False) -> tuple[ApiToken, str]:
    """A new token for `user`; the plain text is returned here and never stored."""
    plain = PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, name=name.strip()[:100] or "token", prefix=plain[:10], digest=digest_of(plain), read_only=read_only
    )
    return token, plain


def token_for(plain: str) -> ApiToken | None:
    """The live token with this plain text, or None (unknown, revoked, inactive user)."""
    if not plain.startswith(PREFIX) or len(plain) > 200:
        return None
    token = ApiToken.objects.select_related("user").filter(digest=digest_of(plain), revoked__isnull=True).first()
    if token is None or not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used is None or now - token.last_used > _TOUCH_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used=now)
        token.last_used = now
    return token


def bearer(request) -> str:
    """The plain token of `Authorization: Bearer <token>`, or ""."""
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    return value.strip() if scheme.lower() == "bearer" else ""


def authenticate(request, plain: str) -> ApiToken | None:
    """token_for, behind a limit on failures per address: once an address has sent too many unknown or revoked
    tokens, it gets Throttled (a 429) before any lookup, so tokens cannot be guessed at speed."""
    wait = throttle.blocked(request, throttle.TOKEN_FAILURES_IP)
    if wait:
        raise throttle.Throttled(wait)
    token = token_for(plain)
    if token is None:
        throttle.record(request, throttle.TOKEN_FAILURES_IP)
    return token


def token_for_request(request) -> ApiToken | None:
    plain = bearer(request)
    return authenticate(request, plain) if plain else None


def revoke(token: ApiToken) -> None:
    ApiToken.objects.filter(pk=token.pk, revoked__isnull=True).update(revoked=timezone.now())
