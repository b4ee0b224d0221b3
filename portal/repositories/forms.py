"""The repository form: a bad clone URL is refused here with a message the user can act on."""

from __future__ import annotations

from django import forms

from portal.repositories.models import Repository
from portal.repositories.refcheck import validate_branch_name
from portal.repositories.urlcheck import validate_clone_url


class RepositoryForm(forms.ModelForm):
    credentials_secret = forms.CharField(
        required=False,
        widget=forms.PasswordInput(render_value=False),
        label="Token, password or SSH private key",
        help_text="Stored encrypted; never shown again. Leave empty for a public repository.",
    )

    class Meta:
        model = Repository
        fields = ["name", "clone_url", "default_branch", "credentials_username"]
        labels = {"credentials_username": "Username (for https)"}

    def clean_clone_url(self) -> str:
        return validate_clone_url(self.cleaned_data["clone_url"])

    def clean_default_branch(self) -> str:
        return validate_branch_name(self.cleaned_data["default_branch"])

    def save(self, commit: bool = True) -> Repository:
        repository = super().save(commit=False)
        secret = self.cleaned_data.get("credentials_secret")
        if secret:
            repository.set_credentials(self.cleaned_data.get("credentials_username", ""), secret)
        if commit:
            repository.save()
        return repository
