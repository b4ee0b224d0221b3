"""The personal API token form (name and read-only flag; the token itself is made by portal.accounts.tokens) and
the profile form (email address and language)."""

from __future__ import annotations

from django import forms
from django.conf import settings
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


# User.email's column (Django's EmailField, varchar(254)): a longer address passes the email check but not the
# database, which would answer a 500.
EMAIL_MAX_LENGTH = 254


class ProfileForm(forms.Form):
    """The user's address and language. The address may be left empty (no email is then sent to them)."""

    email = forms.EmailField(
        required=False,
        max_length=EMAIL_MAX_LENGTH,
        label=_("Email address"),
        help_text=_("Where the weekly digest and the notifications go. Leave it empty to get no email."),
        # Django's own Chinese says "Email" in Latin letters; ours is the page's word for it.
        error_messages={"invalid": _("Enter a valid email address, such as ana@example.com.")},
    )
    language = forms.ChoiceField(
        choices=settings.LANGUAGES,
        label=_("Language"),
        help_text=_("Of the portal each time you sign in, and of the emails sent to you."),
    )
