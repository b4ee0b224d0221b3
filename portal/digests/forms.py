"""The weekly digest's part of the profile page: for each of the user's teams, a checkbox. Its fields are built
from the user's memberships, so a team the user is not a member of has no field: a forged one is ignored. The
language is the profile's (portal.accounts.forms.ProfileForm), the same for every team."""

from __future__ import annotations

from django import forms
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from portal.digests.models import DigestSubscription


class DigestForm(forms.Form):
    def __init__(self, *args, teams, subscribed: set[int], **kwargs):
        """`teams`: the user's teams; `subscribed`: the ids of those whose digest the user gets."""
        super().__init__(*args, **kwargs)
        self.teams = list(teams)
        for team in self.teams:
            self.fields[f"team_{team.pk}"] = forms.BooleanField(
                required=False, initial=team.pk in subscribed, label=_("Send me the weekly digest")
            )

    def rows(self) -> list[tuple]:
        """(team, its checkbox) for the template."""
        return [(team, self[f"team_{team.pk}"]) for team in self.teams]

    def save(self, user, language: str) -> None:
        """Subscribe to the checked teams, unsubscribe from the others; every digest of the user in `language`."""
        with transaction.atomic():
            for team in self.teams:
                if self.cleaned_data[f"team_{team.pk}"]:
                    DigestSubscription.objects.update_or_create(user=user, team=team, defaults={"language": language})
                else:
                    DigestSubscription.objects.filter(user=user, team=team).delete()
            DigestSubscription.objects.filter(user=user).exclude(language=language).update(language=language)
