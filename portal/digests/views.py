"""The weekly digest's views: "send me now" from the profile page (portal.accounts.profile, where the digest is
switched on and previewed), and the old opt-in address /digests/, which the emails already sent link to: it leads
to the profile page. Nobody can send a team's digest to themselves unless they are a member of it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from portal.accounts import language, throttle
from portal.accounts.access import membership_for
from portal.digests import on_demand


def _to_profile():
    return redirect(reverse("accounts:profile") + "#digest")  # the digest's part of the profile page


@require_GET
@login_required
def digest_settings(request):
    return _to_profile()


@require_POST
@login_required
def send_now(request):
    """The digest of the last completed week of one of the user's teams (POST `team`), to their own address, in
    their language. Another team's id is a 404, as for one that does not exist."""
    try:
        team_id = int(request.POST.get("team", ""))
    except ValueError:
        raise Http404 from None
    membership = membership_for(request.user, team_id)
    wait = throttle.hit(request, throttle.DIGEST_SEND)
    if wait:
        return throttle.too_many_requests(request, wait)
    if not request.user.email:
        messages.error(request, _("Your profile has no email address, so nothing can be sent: add one and save first."))
        return _to_profile()
    chosen = language.preferred(request.user) or language.of_page()
    if on_demand.do_send_digest_now(membership.team, chosen, acting_user=request.user):
        messages.success(
            request,
            _("The weekly digest of %(team)s is on its way to %(email)s.")
            % {"team": membership.team.name, "email": request.user.email},
        )
    else:
        messages.error(request, _("The mail server did not take the digest. Nothing was sent; try again later."))
    return _to_profile()
