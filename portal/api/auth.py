"""Who calls the API: a personal token (`Authorization: Bearer`, portal.accounts.tokens) or the browser's session.

- a bearer header is decisive: an unknown or revoked token is a 401 even with a session cookie beside it;
- a read-only token never writes: any unsafe method is a 403 before the operation runs;
- the session needs CSRF on unsafe methods (a token does not: no browser sends it on its own);
- per-object access is the operations' business (portal.accounts.access: another team's object is a 404).
"""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _
from ninja.errors import AuthenticationError, HttpError
from ninja.security import APIKeyCookie, HttpBearer
from ninja.utils import check_csrf

from portal.accounts import tokens

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


class PersonalToken(HttpBearer):
    """`Authorization: Bearer rp_…`; the request then acts as the token's user."""

    def __call__(self, request):
        # Not HttpBearer.__call__: in DEBUG it logs the whole header of an unexpected scheme, a secret.
        plain = tokens.bearer(request)
        if not plain:
            return None  # no bearer token: the session may still authenticate
        return self.authenticate(request, plain)

    def authenticate(self, request, token):
        found = tokens.authenticate(request, token)  # Throttled (429) after too many bad tokens from one address
        if found is None:
            raise AuthenticationError(401, _("The token is unknown or revoked."))
        if found.read_only and request.method not in SAFE_METHODS:
            raise HttpError(403, _("This token is read-only: it cannot change anything."))
        request.user = found.user
        request.api_token = found
        return found


class Session(APIKeyCookie):
    """The signed-in browser (the same session as the pages), with Django's CSRF check on unsafe methods."""

    param_name = settings.SESSION_COOKIE_NAME

    def _get_key(self, request):
        # APIKeyCookie checks CSRF before it knows whether anyone is signed in, which turns a request without
        # credentials into a 403; here it is a 401, and CSRF is checked in authenticate for a signed-in user.
        return request.COOKIES.get(self.param_name)

    def authenticate(self, request, key):
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return None
        if request.method not in SAFE_METHODS and check_csrf(request) is not None:
            raise HttpError(
                403,
                _(
                    "CSRF check failed: send the X-CSRFToken header with the csrftoken cookie's "
                    "value, or use a personal token."
                ),
            )
        request.api_token = None
        return user


AUTH = [PersonalToken(), Session()]  # csrf=True on Session (the default) makes the docs page send the token
