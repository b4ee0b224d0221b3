"""A merge request (GitHub, Gitea and Forgejo call it a pull request) that ROCport made from reviewed translations:
the branch it created, the commits it pushed, the request it opened and that request's state on the host.

Safe by construction: the branch name is PREFIX + this row's id (never a name a person typed), so ROCport only
ever pushes to branches it named itself; one active request per (repository, files, base commit), so a second
click finds the first one instead of opening a second."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from portal.hosts import pulls, registry
from portal.repositories.models import Repository

PREFIX = "rocport/port-"


class MergeRequest(models.Model):
    class State(models.TextChoices):
        QUEUED = "queued", _("queued")  # recorded, waiting for a worker
        PUSHING = "pushing", _("pushing")  # a worker is building and pushing the branch
        PUSHED = "pushed", _("branch pushed")  # the branch is on the host; the request is not open yet
        OPEN = "open", _("open")
        MERGED = "merged", _("merged")
        CLOSED = "closed", _("closed")  # closed without merging
        FAILED = "failed", _("failed")  # a step failed; `error_code` says which, a retry resumes there

    ACTIVE = (State.QUEUED, State.PUSHING, State.PUSHED, State.OPEN)
    IN_FLIGHT = (State.QUEUED, State.PUSHING, State.PUSHED)

    repository = models.ForeignKey(Repository, on_delete=models.CASCADE, related_name="merge_requests")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED)
    # What goes in: the scanned commit the translations were made on, the branch it must still be on, the files.
    base_commit = models.CharField(max_length=64)
    target_branch = models.CharField(max_length=255)
    files = models.JSONField(default=list)  # the paths whose reviewed translation is committed
    # in place (a .cu file's text becomes its translation) or side by side (a .hip sibling): portal.ports.planning
    mode = models.CharField(max_length=20, default="in_place")
    left_for_people = models.JSONField(default=list)  # reviewed but not committed: [path, why]
    # The compile check of each ported file on the branch before the push (portal.ports.compiling): one dict per
    # file, {path, status, reason, error, ...}; empty until the branch is built.
    compile_results = models.JSONField(default=list, blank=True)
    # What the build switch left for a person (portal.ports.planning): [build file, line, what, why] each.
    build_left = models.JSONField(default=list, blank=True)
    # what the port brings, estimated when its branch is pushed (portal.ports.story): resolved findings per rule,
    # those left in its files, the migration progress before and after
    story = models.JSONField(default=dict, blank=True)
    key = models.CharField(max_length=64)  # sha256 of base commit + sorted files: what "the same request" means
    # What came out.
    branch = models.CharField(max_length=255, blank=True, default="")
    head_commit = models.CharField(max_length=64, blank=True, default="")
    number = models.PositiveIntegerField(null=True, blank=True)  # the host's number (GitLab's iid)
    url = models.URLField(max_length=500, blank=True, default="")
    error_code = models.CharField(max_length=40, blank=True, default="")
    error_message = models.TextField(blank=True, default="")  # for people; never a token
    attempts = models.PositiveSmallIntegerField(default=0)
    # What the host's webhooks say besides the state (portal.ports.host_state): each reviewer's latest review, each
    # CI check of the newest commit; and when the host last told us anything about reviews or checks.
    host_state = models.JSONField(default=dict, blank=True)
    host_heard = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            # two clicks, one request: the second insert of an active request for the same content fails
            models.UniqueConstraint(
                fields=["repository", "key"],
                condition=models.Q(state__in=["queued", "pushing", "pushed", "open"]),
                name="one_active_merge_request_per_content",
            ),
            models.UniqueConstraint(
                fields=["repository", "number"], condition=models.Q(number__isnull=False), name="one_row_per_host_mr"
            ),
        ]
        indexes = [models.Index(fields=["repository", "state"], name="merge_request_state")]

    def __str__(self) -> str:
        return f"{self.repository_id} {self.branch or self.pk} ({self.state})"

    @property
    def label(self) -> str:
        """How the host writes it (the host module's `request_label`: #12, GitLab's !12)."""
        if self.number is None:
            return ""
        provider = getattr(getattr(self.repository, "commit_status", None), "provider", registry.DEFAULT)
        return pulls.request_label(provider, self.number)
