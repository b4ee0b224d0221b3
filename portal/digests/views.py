"""The weekly digest's opt-in page: every signed-in user chooses, for each of their teams, whether to get it and
in which language. Nobody can subscribe anyone else, nor to a team they are not a member of."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from portal.accounts.models import Team
from portal.digests.forms import DigestForm
from portal.digests.models import DigestSubscription


@require_http_methods(["GET", "POST"])
@login_required
def digest_settings(request):
    teams = Team.objects.filter(memberships__user=request.user).order_by("name")
    subscriptions = {s.team_id: s for s in DigestSubscription.objects.filter(user=request.user)}
    language = translation.get_language() or settings.LANGUAGE_CODE
    if language not in dict(settings.LANGUAGES):
        language = settings.LANGUAGE_CODE
    kwargs = {"teams": teams, "subscriptions": subscriptions, "language": language}
    form = DigestForm(request.POST if request.method == "POST" else None, **kwargs)
    if request.method == "POST" and form.is_valid():
        form.save(request.user)
        messages.success(request, _("Weekly digest settings saved."))
        return redirect("digests:settings")
    return render(request, "digests/settings.html", {"form": form, "has_email": bool(request.user.email)})
