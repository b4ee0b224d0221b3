"""The REST API under /api/v1/ (Django Ninja): its routers, authentication, and errors as JSON with a `detail`.

The OpenAPI 3 schema is at /api/v1/openapi.json; the interactive docs at /api/v1/docs load Swagger UI from our
own static files (ninja is in INSTALLED_APPS for that): an air-gapped install reaches no CDN.
"""

from __future__ import annotations

import functools
import logging

from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponseNotAllowed, HttpResponsePermanentRedirect, JsonResponse
from django.urls import Resolver404, re_path, resolve
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe
from ninja import NinjaAPI, Swagger
from ninja.errors import AuthenticationError
from ninja.errors import ValidationError as SchemaError

from portal.accounts import throttle
from portal.api import findings, merge_requests, pages, progress, repositories, scans
from portal.api.auth import AUTH

logger = logging.getLogger(__name__)

api = NinjaAPI(
    title="ROCport API",
    version="1",
    urls_namespace="api",
    auth=AUTH,
    openapi_url="/openapi.json",
    docs=Swagger(settings={"persistAuthorization": False}),
    docs_url="/docs",
    description="CUDA → ROCm migration: repositories, scans, findings and their triage, migration progress and its "
    "forecast, merge requests. Authenticate with `Authorization: Bearer <personal token>`; create one on the "
    "portal's API tokens page (/accounts/tokens/, linked from the header). Paged lists take `limit` (1 to "
    f"{pages.MAX_LIMIT}, {pages.DEFAULT_LIMIT} by default) and follow `next`; every error is JSON with a `detail`.",
)
api.add_router("", repositories.router)
api.add_router("", scans.router)
api.add_router("", findings.router)
api.add_router("", progress.router)
api.add_router("", merge_requests.router)


def _error(request, detail: str, status: int, **extra):
    return api.create_response(request, {"detail": detail, **extra}, status=status)


@api.exception_handler(AuthenticationError)
def _unauthenticated(request, exc):
    detail = (
        exc.message
        if exc.message != "Unauthorized"
        else _("Authenticate with an Authorization: Bearer header carrying a personal API token, or sign in.")
    )
    response = _error(request, detail, 401)
    response["WWW-Authenticate"] = 'Bearer realm="rocport"'
    return response


@api.exception_handler(throttle.Throttled)
def _throttled(request, exc):
    return throttle.too_many_requests(request, exc.retry_after)  # JSON with a detail, and Retry-After


@api.exception_handler(Http404)
def _not_found(request, exc):
    return _error(request, _("Not found."), 404)  # also what another team's object gets


@api.exception_handler(PermissionDenied)
def _forbidden(request, exc):
    return _error(request, _("You are not allowed to do this."), 403)


@api.exception_handler(ValidationError)
def _invalid(request, exc):
    return _error(request, " ".join(exc.messages), 400)


@api.exception_handler(SchemaError)
def _schema_error(request, exc):
    """422 naming each field and what is wrong with it; the input itself is not echoed back."""
    errors = []
    for error in exc.errors:
        location = [part if isinstance(part, int) else str(part) for part in error.get("loc", ())]
        errors.append({"loc": location, "msg": str(error.get("msg", ""))})
    detail = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in errors)
    return _error(request, detail or _("The request is not valid."), 422, errors=errors)


@api.exception_handler(Exception)
def _internal(request, exc):
    logger.exception("API error on %s %s", request.method, request.path)
    return _error(request, _("Something went wrong on our side; the administrators have the logs."), 500)


def _json_405(view):
    """Ninja answers a method no operation takes with a plain-text 405; clients get JSON like every other error."""

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        if isinstance(response, HttpResponseNotAllowed):
            allowed = response["Allow"]
            response = JsonResponse(
                {
                    "detail": _("%(method)s is not allowed here (allowed: %(allowed)s).")
                    % {"method": request.method, "allowed": allowed}
                },
                status=405,
            )
            response["Allow"] = allowed
        return response

    wrapped.csrf_exempt = True  # as ninja's own views: authentication decides about CSRF (portal.api.auth)
    return wrapped


def json_405(view):
    """_json_405 for the API's plain Django views (the CI upload in portal/urls.py), keeping the view's own CSRF
    decision (only ninja's views are exempted wholesale)."""
    wrapped = _json_405(view)
    wrapped.csrf_exempt = getattr(view, "csrf_exempt", False)
    return wrapped


@csrf_exempt
def not_found(request, *args, **kwargs):
    """Any path under /api/ that no operation matches: a JSON 404 with a `detail`, like every API error (Django's
    would be an HTML page). A GET of a known path without its trailing slash is redirected to it, as APPEND_SLASH
    did before this catch-all existed (a POST cannot be redirected without losing its body: it gets the 404 with a
    hint)."""
    path = request.path_info
    if not path.endswith("/"):
        try:
            match = resolve(path + "/")
        except Resolver404:
            match = None
        if match is not None and match.func is not not_found:
            if request.method in ("GET", "HEAD"):
                query = request.META.get("QUERY_STRING", "")
                return HttpResponsePermanentRedirect(request.path + "/" + (f"?{query}" if query else ""))
            return JsonResponse(
                {
                    "detail": _("No API operation at %(path)s: did you mean %(slashed)s?")
                    % {"path": request.path, "slashed": request.path + "/"}
                },
                status=404,
            )
    return JsonResponse({"detail": _("No API operation at %(path)s.") % {"path": request.path}}, status=404)


def urls():
    """The API's URL patterns, for `path("api/v1/", urls())`; every path they do not match answers JSON too."""
    patterns, app_name, namespace = api.urls
    for pattern in patterns:
        # ninja's root ("api-root") raises Http404 outside DEBUG, which Django renders as HTML
        if pattern.name == "api-root":
            pattern.callback = not_found
            continue
        if pattern.name in ("openapi-json", "openapi-view"):
            # ninja serves the schema and its page to any method; reading them is all there is to do
            pattern.callback = require_safe(pattern.callback)
        pattern.callback = _json_405(pattern.callback)
    patterns = [*patterns, re_path(r"^", not_found, name="not_found")]
    return patterns, app_name, namespace
