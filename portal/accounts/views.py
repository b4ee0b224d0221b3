"""Signing in (rate-limited; it applies the language of the user's profile), the team switcher, and the user's
personal API tokens (create, list, revoke). The profile page is portal.accounts.profile."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from portal.accounts import language, throttle, tokens
from portal.accounts.context import SESSION_KEY
from portal.accounts.forms import TokenForm
from portal.accounts.models import ApiToken, Membership


class SignInView(LoginView):
    """Django's login view behind two limits: sign-in attempts per address (password spraying across many
    accounts), and failed attempts per username (guessing one account's password from many addresses)."""

    def post(self, request, *args, **kwargs):
        wait = throttle.hit(request, throttle.SIGNIN_IP) or throttle.blocked(request, throttle.SIGNIN_USERNAME)
        if wait:
            return throttle.too_many_requests(request, wait)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        throttle.record(self.request, throttle.SIGNIN_USERNAME)
        return super().form_invalid(form)

    def form_valid(self, form):
        """Signed in: the browser takes the language of the user's profile, if they chose one there."""
        response = super().form_valid(form)
        chosen = language.preferred(form.get_user())
        return language.remember(response, chosen) if chosen else response


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


@require_http_methods(["GET", "POST"])
@login_required
@never_cache  # the answer to a POST holds a plain token: no cache, no back-button copy
def api_tokens(request):
    """The token list and form. A new token's plain text is in the answer to the POST that made it, and nowhere
    else: it is not stored (only its digest is), and reloading the list never shows it again."""
    form = TokenForm(request.POST or None)
    created = None
    if request.method == "POST":
        wait = throttle.hit(request, throttle.TOKEN_CREATE)
        if wait:
            return throttle.too_many_requests(request, wait)
    if request.method == "POST" and form.is_valid():
        token, plain = tokens.issue(request.user, form.cleaned_data["name"], form.cleaned_data["read_only"])
        created = {"token": token, "plain": plain}
        form = TokenForm()
    live = ApiToken.objects.filter(user=request.user, revoked__isnull=True).order_by("-created", "-id")
    return render(request, "accounts/tokens.html", {"form": form, "created": created, "tokens": live})


@require_POST
@login_required
def revoke_token(request, pk: int):
    token = get_object_or_404(ApiToken, pk=pk, user=request.user, revoked__isnull=True)  # someone else's: 404
    tokens.revoke(token)
    messages.success(request, _("Token %(name)s revoked: it no longer works.") % {"name": token.name})
    return redirect("accounts:tokens")
