"""Translation reviews: an engineer's verdict on one file's HIP translation, tied to the blob it was made on."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from portal.repositories.models import Repository


def git_blob(text: str) -> str:
    """The git blob sha of `text` committed as UTF-8 bytes (what a port commits: portal.ports.branch)."""
    data = text.encode("utf-8")
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


class TranslationReview(models.Model):
    """One row per (repository, path) of the default branch. The verdict holds for `blob_sha` (and the
    translation text whose digest is `translation_sha`) only: once the file or its translation changes, the
    review is shown as outdated and its translation leaves the patch until someone reviews it again. Except for
    one change: the file's content becoming the reviewed translation itself (a port merged, `translation_blob`):
    the verdict was on exactly that text, so it still holds."""

    class State(models.TextChoices):
        NOT_REVIEWED = "not_reviewed", _("not reviewed")
        OK = "ok", _("translation OK")
        NEEDS_WORK = "needs_work", _("needs manual work")
        DONE = "done", _("done")

    # the states whose translation goes into the repository's patch
    PATCHABLE = (State.OK, State.DONE)

    repository = models.ForeignKey(Repository, on_delete=models.CASCADE, related_name="translation_reviews")
    path = models.CharField(max_length=1000)
    blob_sha = models.CharField(max_length=40)
    translation_sha = models.CharField(max_length=64, blank=True, default="")  # sha256 of the reviewed text
    # the git blob of the reviewed text, committed as the file's content (what a merged port leaves on the branch)
    translation_blob = models.CharField(max_length=40, blank=True, default="")
    state = models.CharField(max_length=20, choices=State.choices, default=State.NOT_REVIEWED)
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            # also the index of the file page's lookup (repository, path) and of the patch's (repository, …)
            models.UniqueConstraint(fields=["repository", "path"], name="one_review_per_file"),
        ]

    def __str__(self) -> str:
        return f"{self.repository_id}:{self.path} {self.state}"

    def applies_to(self, blob_sha: str, translation_sha: str) -> bool:
        """Whether this verdict was made on exactly this version of the file and of its translation, or the file
        now is the reviewed translation (its own translation then has nothing left to approve)."""
        if self.translation_blob and blob_sha == self.translation_blob:
            return True
        return self.blob_sha == blob_sha and (not self.translation_sha or self.translation_sha == translation_sha)
