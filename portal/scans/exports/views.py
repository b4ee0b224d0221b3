"""Downloads of a finished scan's findings (the formats of portal/scans/exports/formats.py), for the scan page's links
and for scripts: a personal token (`Authorization: Bearer`, read-only is enough) or the session. Another team's
scan is a 404, as a missing one is; the body is streamed."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from portal.accounts import tokens
from portal.accounts.access import membership_for
from portal.scans.constants import ScanStatus
from portal.scans.exports import formats, writers
from portal.scans.models import Scan


@require_GET
def export(request, pk: int, kind: str):
    entry = formats.get(kind)
    if entry is None:
        raise Http404
    user = _user(request)
    if isinstance(user, HttpResponse):
        return user
    scan = get_object_or_404(Scan.objects.select_related("repository__team"), pk=pk)
    membership_for(user, scan.repository.team_id)  # 404 for another team's scan
    if scan.status != ScanStatus.FINISHED:
        return HttpResponse(
            _("This scan has not finished; its findings can be downloaded once it has."),
            status=409,
            content_type="text/plain; charset=utf-8",
        )
    body = entry.write(scan, user, request.GET, _links(request))
    response = StreamingHttpResponse(body, content_type=entry.content_type)
    response["Content-Disposition"] = content_disposition_header(True, entry.file_name(scan))
    response["Cache-Control"] = "private, no-store"  # a team's findings: no shared cache keeps them
    return response


def _user(request):
    """The token's user when a bearer token is sent (401 when it is not a live token), else the session's."""
    if tokens.bearer(request):
        token = tokens.token_for_request(request)
        if token is None:
            response = HttpResponse(
                _("The token is not valid (unknown, revoked, or its user is inactive)."),
                status=401,
                content_type="text/plain; charset=utf-8",
            )
            response["WWW-Authenticate"] = 'Bearer realm="rocport"'
            return response
        return token.user
    if request.user.is_authenticated:
        return request.user
    return redirect_to_login(request.get_full_path())


def _links(request) -> writers.Links:
    def template(name: str, sample, placeholder: str) -> str:
        # reverse() once with a sample argument, then the sample (its last occurrence) becomes the placeholder.
        url = request.build_absolute_uri(reverse(name, args=[sample]))
        before, _sep, after = url.rpartition(f"/{sample}/")
        return f"{before}/{placeholder}/{after}"

    return writers.Links(
        rules=request.build_absolute_uri(reverse("catalogue:rules")),
        rule_template=template("catalogue:rule", "ROC000", "{code}"),
        finding_template=template("findings:detail", 0, "{pk}"),
    )
