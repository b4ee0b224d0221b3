"""Forms of the repository settings page: the repository itself (credentials write-only) and team members."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from portal.accounts.models import Membership
from portal.repositories.models import Repository
from portal.repositories.urlcheck import validate_clone_url


class RepositorySettingsForm(forms.ModelForm):
    tracked = forms.CharField(required=False, label=_("Other tracked branches"),
                              help_text=_("Comma-separated; pushes to them are scanned too."))
    credentials_secret = forms.CharField(
        required=False, widget=forms.PasswordInput(render_value=False), label=_("New token, password or SSH key"),
        help_text=_("Write-only: the stored one is never shown. Leave empty to keep it."))
    clear_credentials = forms.BooleanField(required=False, label=_("Remove the stored credentials"))

    class Meta:
        model = Repository
        fields = ["clone_url", "default_branch", "credentials_username"]
        labels = {"clone_url": _("Clone URL"), "default_branch": _("Default branch"),
                  "credentials_username": _("Username (for https)")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tracked"].initial = ", ".join(self.instance.tracked_branches)

    def clean_clone_url(self) -> str:
        return validate_clone_url(self.cleaned_data["clone_url"])

    def clean_tracked(self) -> list[str]:
        names = [b.strip() for b in self.cleaned_data.get("tracked", "").split(",") if b.strip()]
        for name in names:
            if name.startswith("-") or " " in name or ".." in name:
                raise forms.ValidationError(_("%(name)s is not a valid branch name.") % {"name": name})
        return names

    def save(self, commit: bool = True) -> Repository:
        repository = super().save(commit=False)
        repository.tracked_branches = self.cleaned_data["tracked"]
        if self.cleaned_data.get("clear_credentials"):
            repository.credentials_encrypted, repository.credentials_username = "", ""
        elif self.cleaned_data.get("credentials_secret"):
            repository.set_credentials(self.cleaned_data.get("credentials_username", ""),
                                       self.cleaned_data["credentials_secret"])
        if commit:
            repository.save()
        return repository


class MemberForm(forms.Form):
    username = forms.CharField(label=_("Username"))
    role = forms.ChoiceField(choices=Membership.Role.choices, label=_("Role"))

    def clean_username(self):
        user = get_user_model().objects.filter(username=self.cleaned_data["username"]).first()
        if user is None:
            raise forms.ValidationError(_("No user with that name: create the account first (manage.py adduser)."))
        return user
