"""The team switcher."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from portal.accounts.context import SESSION_KEY
from portal.accounts.models import Membership


@require_POST
@login_required
def switch_team(request):
    try:
        team_id = int(request.POST.get("team", ""))
    except ValueError:
        raise Http404 from None
    if not Membership.objects.filter(user=request.user, team_id=team_id).exists():
        raise Http404
    request.session[SESSION_KEY] = team_id
    target = request.POST.get("next") or request.META.get("HTTP_REFERER") or "/"
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = "/"
    return redirect(target)
