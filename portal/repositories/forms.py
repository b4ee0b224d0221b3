"""The repository form: a bad clone URL, a remote with no repository there, or a default branch the remote does not
have, is refused here with a message the user can act on."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from portal.repositories.branchcheck import check_default_branch, field_for
from portal.repositories.models import Repository
from portal.repositories.refcheck import validate_branch_name
from portal.repositories.urlcheck import validate_clone_url


class RepositoryForm(forms.ModelForm):
    credentials_secret = forms.CharField(
        required=False,
        widget=forms.PasswordInput(render_value=False),
        label=_("Token, password or SSH private key"),
        help_text=_("Stored encrypted; never shown again. Leave empty for a public repository."),
    )

    class Meta:
        model = Repository
        fields = ["name", "clone_url", "default_branch", "credentials_username"]
        labels = {
            "name": _("Name"),
            "clone_url": _("Clone URL"),
            "default_branch": _("Default branch"),
            "credentials_username": _("Username (for https)"),
        }
        help_texts = {
            "clone_url": _("The address git clones it from; the default branch is checked there."),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.branch_warning = ""  # the remote did not answer, so nothing could be checked (registered anyway)
        self.fields["clone_url"].widget.attrs.update({"spellcheck": "false", "autocomplete": "off"})

    def clean_clone_url(self) -> str:
        return validate_clone_url(self.cleaned_data["clone_url"])

    def clean_default_branch(self) -> str:
        return validate_branch_name(self.cleaned_data["default_branch"])

    def clean(self):
        data = super().clean()
        if "clone_url" in data and "default_branch" in data:
            secret = data.get("credentials_secret")
            credentials = (data.get("credentials_username", ""), secret) if secret else None
            try:
                self.branch_warning = check_default_branch(data["clone_url"], data["default_branch"], credentials)
            except forms.ValidationError as error:
                self.add_error(field_for(error), error)
        return data

    def save(self, commit: bool = True) -> Repository:
        repository = super().save(commit=False)
        secret = self.cleaned_data.get("credentials_secret")
        if secret:
            repository.set_credentials(self.cleaned_data.get("credentials_username", ""), secret)
        if commit:
            repository.save()
        return repository
