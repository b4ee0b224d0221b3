"""Forms of the repository settings page: the repository itself (credentials write-only), team members, and
commit statuses on the git host (token write-only)."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from portal.accounts.models import Membership
from portal.hosts import registry
from portal.hosts import statuses as host_statuses
from portal.repositories.branchcheck import check_default_branch, field_for
from portal.repositories.models import Repository
from portal.repositories.refcheck import validate_branch_name
from portal.repositories.urlcheck import validate_clone_url
from portal.statuses.actions import check_api_url
from portal.statuses.models import SEVERITY_CHOICES


class RepositorySettingsForm(forms.ModelForm):
    tracked = forms.CharField(
        required=False,
        label=_("Other tracked branches"),
        help_text=_("Comma-separated; pushes to them are scanned too."),
    )
    credentials_secret = forms.CharField(
        required=False,
        widget=forms.PasswordInput(render_value=False),
        label=_("New token, password or SSH key"),
        help_text=_("Write-only: the stored one is never shown. Leave empty to keep it."),
    )
    clear_credentials = forms.BooleanField(required=False, label=_("Remove the stored credentials"))
    port_mode = forms.ChoiceField(
        required=False,  # a form that leaves it out keeps the stored mode
        choices=Repository.PortMode.choices,
        label=_("Merge requests carry the translations"),
        help_text=_(
            "In place: each file becomes its HIP translation. Side by side: each .cu source gets a .hip copy, the "
            "original stays, and the build files are switched to the copies. The default of the merge request form."
        ),
    )

    class Meta:
        model = Repository
        fields = ["clone_url", "default_branch", "credentials_username", "port_mode"]
        labels = {
            "clone_url": _("Clone URL"),
            "default_branch": _("Default branch"),
            "credentials_username": _("Username (for https)"),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tracked"].initial = ", ".join(self.instance.tracked_branches)
        self.fields["clone_url"].widget.attrs.update({"spellcheck": "false", "autocomplete": "off"})
        self.branch_warning = ""  # the remote could not be reached to check the branch (saved anyway)

    def clean(self):
        """A changed clone URL or default branch is checked on the remote, as at registration
        (portal.repositories.branchcheck)."""
        data = super().clean()
        changed = {"clone_url", "default_branch", "credentials_secret"} & set(self.changed_data)
        if changed and "clone_url" in data and "default_branch" in data:
            if data.get("credentials_secret"):
                credentials = (data.get("credentials_username", ""), data["credentials_secret"])
            elif data.get("clear_credentials"):
                credentials = None
            else:
                credentials = self.instance.credentials()
            try:
                self.branch_warning = check_default_branch(data["clone_url"], data["default_branch"], credentials)
            except forms.ValidationError as error:
                self.add_error(field_for(error), error)
        return data

    def clean_clone_url(self) -> str:
        return validate_clone_url(self.cleaned_data["clone_url"])

    def clean_default_branch(self) -> str:
        return validate_branch_name(self.cleaned_data["default_branch"])

    def clean_port_mode(self) -> str:
        return self.cleaned_data.get("port_mode") or self.instance.port_mode

    def clean_tracked(self) -> list[str]:
        return [validate_branch_name(b) for b in self.cleaned_data.get("tracked", "").split(",") if b.strip()]

    def save(self, commit: bool = True) -> Repository:
        repository = super().save(commit=False)
        repository.tracked_branches = self.cleaned_data["tracked"]
        if self.cleaned_data.get("clear_credentials"):
            repository.credentials_encrypted, repository.credentials_username = "", ""
        elif self.cleaned_data.get("credentials_secret"):
            repository.set_credentials(
                self.cleaned_data.get("credentials_username", ""), self.cleaned_data["credentials_secret"]
            )
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


class CommitStatusForm(forms.Form):
    """Commit statuses on the git host: the token is write-only (never rendered back); an empty API URL or project
    takes the default derived from the provider and the clone URL."""

    enabled = forms.BooleanField(required=False, label=_("Post commit statuses"))
    provider = forms.ChoiceField(label=_("Git host"), choices=registry.choices)
    api_url = forms.CharField(
        required=False,
        max_length=500,
        label=_("API base URL"),
        help_text=_(
            "GitHub: https://api.github.com; GitLab: https://gitlab.com/api/v4; "
            "Gitea and Forgejo: the instance's URL followed by /api/v1. Empty: "
            "derived from the clone URL."
        ),
    )
    project = forms.CharField(
        required=False,
        max_length=300,
        label=_("Project"),
        help_text=_(
            "owner/repository; on GitLab the project's numeric id or full path. Empty: derived from the clone URL."
        ),
    )
    token = forms.CharField(
        required=False,
        widget=forms.PasswordInput(render_value=False),
        label=_("New token"),
        help_text=_(
            "Write-only: the stored one is never shown. Leave empty to keep it. It "
            "needs permission to write commit statuses."
        ),
    )
    clear_token = forms.BooleanField(required=False, label=_("Remove the stored token"))
    threshold = forms.ChoiceField(
        label=_("Fail the status for new findings at or above"),
        choices=SEVERITY_CHOICES,
        initial="high",
    )

    def __init__(self, *args, repository: Repository, config=None, **kwargs):
        self.repository, self.config = repository, config
        if config is not None:
            initial = {
                "enabled": config.enabled,
                "provider": config.provider,
                "api_url": config.api_url,
                "project": config.project,
                "threshold": config.threshold,
            }
            # Empty means "derived from the clone URL" (the fields' help): a stored value equal to what would be
            # derived is shown empty, so it keeps following the clone URL's host when saved again.
            if config.api_url == host_statuses.default_api_url(config.provider, repository.clone_url):
                initial["api_url"] = ""
            if config.project == host_statuses.default_project(config.provider, repository.clone_url):
                initial["project"] = ""
        else:
            # Nothing prefilled but the guessed host: an empty API URL and project are derived when saved.
            initial = {"provider": host_statuses.guess_provider(repository.clone_url), "threshold": "high"}
        kwargs.setdefault("initial", initial)
        super().__init__(*args, **kwargs)

    def clean(self):
        data = super().clean()
        provider = data.get("provider")
        if not provider:
            return data
        clone_url = self.repository.clone_url
        api_url = data.get("api_url", "").strip() or host_statuses.default_api_url(provider, clone_url)
        if not api_url and not host_statuses.api_url_derivable(clone_url):
            self.add_error(
                "api_url",
                _(
                    "Enter the API base URL (for example https://git.example.com/api/v3 for GitHub Enterprise, "
                    "/api/v4 for GitLab, /api/v1 for Gitea and Forgejo): it is derived only from an https or ssh "
                    "clone URL, and this repository's is not one."
                ),
            )
        elif not api_url:
            self.add_error("api_url", _("Enter the instance's API URL (its address followed by /api/v1)."))
        else:
            try:
                data["api_url"] = check_api_url(api_url)
            except forms.ValidationError as exc:
                self.add_error("api_url", exc)
        project = data.get("project", "").strip().strip("/") or host_statuses.default_project(provider, clone_url)
        valid = host_statuses.valid_project(provider, project)
        if not valid or any(ch.isspace() for ch in project) or ".." in project:
            self.add_error("project", _("Enter owner/repository (on GitLab: the project's id or full path)."))
        data["project"] = project
        has_token = bool(data.get("token")) or (
            self.config is not None and bool(self.config.token_encrypted) and not data.get("clear_token")
        )
        if data.get("enabled") and not has_token:
            self.add_error("token", _("Commit statuses need a token: enter one, or leave statuses off."))
        return data
