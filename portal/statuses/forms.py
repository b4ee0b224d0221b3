"""The team notifications form: on or off, to the team's managers and/or listed addresses, from which severity."""

from __future__ import annotations

from django import forms
from django.core.validators import validate_email
from django.utils.translation import gettext_lazy as _

from portal.statuses.models import SEVERITY_CHOICES

MAX_RECIPIENTS = 50


class NotificationForm(forms.Form):
    enabled = forms.BooleanField(required=False, label=_("Email when a scan adds new findings"))
    all_managers = forms.BooleanField(required=False, initial=True, label=_("Send to the team's managers and admins"))
    recipients = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        label=_("Further recipients"),
        help_text=_("Email addresses, separated by commas or new lines."),
    )
    threshold = forms.ChoiceField(choices=SEVERITY_CHOICES, initial="high", label=_("For new findings at or above"))

    def clean_recipients(self) -> list[str]:
        addresses = [
            a.strip() for a in self.cleaned_data.get("recipients", "").replace(",", "\n").splitlines() if a.strip()
        ]
        bad = []
        for address in addresses:
            try:
                validate_email(address)
            except forms.ValidationError:
                bad.append(address)
        if bad:
            raise forms.ValidationError(_("Not an email address: %(addresses)s") % {"addresses": ", ".join(bad)})
        if len(addresses) > MAX_RECIPIENTS:
            raise forms.ValidationError(_("At most %(n)d addresses.") % {"n": MAX_RECIPIENTS})
        return list(dict.fromkeys(addresses))

    def clean(self):
        data = super().clean()
        if data.get("enabled") and not data.get("all_managers") and not data.get("recipients"):
            raise forms.ValidationError(_("Name at least one recipient, or send to all managers."))
        return data
