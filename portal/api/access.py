"""Roles in the API: the caller's memberships, and the role an operation needs. Object lookups go through
portal.accounts.access, so another team's object is a 404 here as on the pages; a role too low is a 403."""

from __future__ import annotations

from django.utils.translation import gettext as _
from ninja.errors import HttpError

from portal.accounts.models import Membership


def memberships(user) -> dict[int, Membership]:
    """The caller's memberships by team id (one query)."""
    return {m.team_id: m for m in Membership.objects.filter(user=user).select_related("team")}


def need_engineer(membership: Membership) -> None:
    if not membership.can_write:
        raise HttpError(403, _("Viewers read only: triage, comments, scans and merge requests need the engineer role."))


def need_manager(membership: Membership) -> None:
    if not membership.can_manage:
        raise HttpError(403, _("Only managers and admins of the team manage its repositories."))
