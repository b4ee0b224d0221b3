"""What changes a repository, written once for the pages and the API (as portal.findings.actions and
portal.scans.actions are for theirs). Callers check the user's role; these functions check the data."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from portal.repositories.forms import RepositoryForm
from portal.repositories.models import Repository

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
