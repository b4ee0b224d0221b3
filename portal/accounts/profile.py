"""The profile page: the user's email address and language, which of their teams' weekly digests they get, and a
preview of the digest of the team chosen in the header, as the email would read, with "send me now"
(portal.digests.views.send_now). Everything on it is the user's own: their teams only, nobody else's settings."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from portal.accounts import context, language
from portal.accounts.forms import ProfileForm
from portal.accounts.models import Profile, Team
from portal.digests import on_demand
from portal.digests.forms import DigestForm
from portal.digests.models import DigestSubscription


@require_http_methods(["GET", "POST"])
@login_required
def profile(request):
    user = request.user
    teams = Team.objects.filter(memberships__user=user).order_by("name")
    chosen = language.preferred(user) or language.of_page()
    subscribed = set(DigestSubscription.objects.filter(user=user).values_list("team_id", flat=True))
    data = request.POST if request.method == "POST" else None
    form = ProfileForm(data, initial={"email": user.email, "language": chosen})
    digest_form = DigestForm(data, teams=teams, subscribed=subscribed)
    if request.method == "POST" and form.is_valid() and digest_form.is_valid():
        chosen = form.cleaned_data["language"]
        with transaction.atomic():
            user.email = get_user_model().objects.normalize_email(form.cleaned_data["email"])
            user.save(update_fields=["email"])
            Profile.objects.update_or_create(user=user, defaults={"language": chosen})
            digest_form.save(user, chosen)
        with translation.override(chosen):  # the next page is in the language just chosen: so is its message
            messages.success(request, _("Profile saved."))
        return language.remember(redirect("accounts:profile"), chosen)
    membership = context.current_membership(request)
    return render(
        request,
        "accounts/profile.html",
        {
            "form": form,
            "digest_form": digest_form,
            "preview_team": membership.team if membership else None,
            "preview": on_demand.preview(membership.team, chosen) if membership else None,
            "preview_language": chosen,
            "has_email": bool(user.email),
        },
    )
