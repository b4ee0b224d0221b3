"""The opt-in form: for each of the user's teams, a checkbox and the language of the email. Its fields are built
from the user's memberships, so a team the user is not a member of has no field: a forged one is ignored."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from portal.digests.models import DigestSubscription


class DigestForm(forms.Form):
    def __init__(self, *args, teams, subscriptions: dict[int, DigestSubscription], language: str, **kwargs):
        """`teams`: the user's teams; `subscriptions`: team id -> the user's subscription; `language`: the one
        offered to a team not subscribed yet (the page's)."""
        super().__init__(*args, **kwargs)
        self.teams = list(teams)
        for team in self.teams:
            subscription = subscriptions.get(team.pk)
            self.fields[f"team_{team.pk}"] = forms.BooleanField(
                required=False, initial=subscription is not None, label=_("Send me the weekly digest")
            )
            self.fields[f"language_{team.pk}"] = forms.ChoiceField(
                choices=settings.LANGUAGES,
                initial=subscription.language if subscription else language,
                label=_("Language"),
            )

    def rows(self) -> list[tuple]:
        """(team, its checkbox, its language select) for the template."""
        return [(team, self[f"team_{team.pk}"], self[f"language_{team.pk}"]) for team in self.teams]

    def save(self, user) -> None:
        """Subscribe to the checked teams in their languages, unsubscribe from the others."""
        with transaction.atomic():
            for team in self.teams:
                if self.cleaned_data[f"team_{team.pk}"]:
                    DigestSubscription.objects.update_or_create(
                        user=user, team=team, defaults={"language": self.cleaned_data[f"language_{team.pk}"]}
                    )
                else:
                    DigestSubscription.objects.filter(user=user, team=team).delete()
