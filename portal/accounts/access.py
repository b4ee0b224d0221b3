"""Access helpers: the answer for "not yours" is the same as for "does not exist" (404)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404

from portal.accounts.models import Membership
from portal.repositories.models import Repository


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


def require_manage(membership: Membership) -> None:
    if not membership.can_manage:
        raise PermissionDenied("only managers and admins can do this")


def get_repository_for_user(request, pk: int):
    """(repository, membership); 404 when the user is not in the repository's team, as for a missing one."""
    repository = get_object_or_404(Repository.objects.select_related("team"), pk=pk)
    return repository, membership_for(request.user, repository.team_id)
