"""URL map of the portal."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpResponse
from django.urls import include, path, re_path

from portal.accounts import views as account_views
from portal.api.main import json_405
from portal.api.main import not_found as api_not_found
from portal.api.main import urls as api_urls
from portal.scans.uploads import views as upload_views


def healthz(request):
    """A trivial 200 (load balancers; the webhook benchmark's baseline)."""
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("", include("portal.dashboards.urls")),
    path("accounts/", include("portal.accounts.urls")),
    path("findings/", include("portal.findings.urls")),
    path("scans/", include("portal.scans.urls")),
    path("rules/", include("portal.catalogue.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/login/", account_views.SignInView.as_view(), name="login"),  # rate-limited LoginView
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("repositories/", include("portal.repositories.urls")),
    path("repositories/", include("portal.files.urls")),
    path("hooks/", include("portal.webhooks.urls")),
    path("notifications/", include("portal.statuses.urls")),
    path("digests/", include("portal.digests.urls")),
    path("progress/", include("portal.progress.urls")),
    path("repositories/", include("portal.ports.urls")),
    # A plain view, before the API's include: the scanner's CI upload (portal/scans/uploads/views.py).
    path("api/v1/uploads/", json_405(upload_views.upload), name="upload"),
    path("api/v1/", api_urls()),  # the REST API (portal/api); it defines no /api/v1/uploads/
    re_path(r"^api(?:/|$)", api_not_found),  # any other path under /api/: a JSON 404, never an HTML page
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
]
