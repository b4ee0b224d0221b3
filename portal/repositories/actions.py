"""What changes a repository, written once for the pages and the API (as portal.findings.actions and
portal.scans.actions are for theirs). Callers check the user's role; these functions check the data."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from portal.accounts.models import Membership
from portal.repositories import hip_builds
from portal.repositories.forms import RepositoryForm
from portal.repositories.models import HipBuildDecision, Repository
from portal.repositories.settings_forms import RepositorySettingsForm
from portal.scans.actions import do_create_scan

DUPLICATE_NAME = _("This team already has a repository with that name.")


class DuplicateName(Exception):
    """The team already has a repository of that name."""


def do_create_repository(form: RepositoryForm, team_id: int) -> Repository:
    """Register a validated RepositoryForm as the team's repository. Raises DuplicateName when the team has one of
    that name, also when another request registers it between the check and the insert (the database's unique
    constraint decides)."""
    form.instance.team_id = team_id
    if Repository.objects.filter(team_id=team_id, name=form.cleaned_data["name"]).exists():
        raise DuplicateName
    try:
        with transaction.atomic():
            return form.save()
    except IntegrityError:
        raise DuplicateName from None


def do_save_repository_settings(form: RepositorySettingsForm) -> Repository:
    """Save a validated settings form: clone URL, branches and credentials (the form encrypts a new secret and
    clears the stored one when asked), for the settings page and the API alike."""
    return form.save()


def do_rotate_webhook_secret(repository: Repository) -> None:
    """A new webhook secret; the previous one keeps working for 24 hours (Repository.rotate_webhook_secret)."""
    repository.rotate_webhook_secret()
    repository.save(update_fields=["webhook_secret", "previous_webhook_secret", "previous_secret_expires"])


def do_save_member(team, user, role: str) -> None:
    """Add `user` to the team with `role`, or change the role of a member."""
    Membership.objects.update_or_create(team=team, user=user, defaults={"role": role})


def do_remove_member(team, user_id, acting_user) -> None:
    """Remove a member from the team; never the acting admin (a team keeps the admin who manages it)."""
    Membership.objects.filter(team=team, user_id=user_id).exclude(user=acting_user).delete()


def do_decide_hip_builds(
    repository: Repository, ids: list[str] | None, *, found: list[str], by_hand: bool, acting_user
):
    """A manager's decision on which HIP builds count (portal.repositories.hip_builds): `ids` accepted (every build
    found, or a choice among them; [] for none), or None to keep the current decision; `found`: the builds the page
    showed. When the accepted builds change, a scan of the default branch starts, so the findings follow the
    decision. Raises hip_builds.Stale or hip_builds.Declared. Returns the scan started, or None."""
    source = HipBuildDecision.Source.MANUAL if by_hand else HipBuildDecision.Source.ACCEPTED
    if not hip_builds.decide(repository, ids, source, acting_user, found):
        return None
    return do_create_scan(repository, branch=repository.default_branch)
