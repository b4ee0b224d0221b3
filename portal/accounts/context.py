"""The user's teams and the current one (the team switcher in the header), for views and templates."""

from __future__ import annotations

from portal.accounts.models import Membership

SESSION_KEY = "team_id"


def _memberships(request) -> list[Membership]:
    cached = getattr(request, "_rocport_memberships", None)
    if cached is None:
        cached = list(Membership.objects.filter(user=request.user).select_related("team").order_by("team__name"))
        request._rocport_memberships = cached  # one query per request, shared by views and templates
    return cached


def current_membership(request) -> Membership | None:
    """The membership of the team chosen in the switcher, else the user's first team; None without a team."""
    if not request.user.is_authenticated:
        return None
    memberships = _memberships(request)
    chosen = request.session.get(SESSION_KEY)
    return next((m for m in memberships if m.team_id == chosen), memberships[0] if memberships else None)


def teams(request) -> dict:
    """Context processor."""
    if not getattr(request, "user", None) or not request.user.is_authenticated:
        return {}
    current = current_membership(request)
    return {
        "memberships": _memberships(request),
        "current_membership": current,
        "current_team": current.team if current else None,
    }
