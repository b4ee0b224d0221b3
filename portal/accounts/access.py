"""Access helpers: the answer for "not yours" is the same as for "does not exist" (404)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404

from portal.accounts.models import Membership


def membership_for(user, team_id: int) -> Membership:
    if not user.is_authenticated:
        raise Http404
    membership = Membership.objects.filter(user=user, team_id=team_id).first()
    if membership is None:
        raise Http404
    return membership


def require_write(membership: Membership) -> None:
    if not membership.can_write:
        raise PermissionDenied("viewers cannot change anything")
