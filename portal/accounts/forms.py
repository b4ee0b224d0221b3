"""The personal API token form (name and read-only flag); the token itself is made by portal.accounts.tokens."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class TokenForm(forms.Form):
    name = forms.CharField(
        max_length=100,
        label=_("Name"),
        help_text=_("What it is for, so that you know which one to revoke: “CI of kernels”."),
    )
    read_only = forms.BooleanField(
        required=False,
        label=_("Read-only"),
        help_text=_("It can read through the API but never change anything: no triage, comments, scans or uploads."),
    )

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(_("Give the token a name."))
        return name
