"""Changes people make on the file page: the review of a file's translation."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from portal.files.models import TranslationReview, git_blob
from portal.files.queries import FileVersion
from portal.reporting import figures


def check_review_translation(
    repository,
    path: str,
    version: FileVersion | None,
    state: str,
    seen_blob: str,
    seen_translation: str,
    *,
    acting_user,
) -> TranslationReview:
    """Record a verdict on the translation the reviewer saw. It must still be the current one: a review posted
    from a page opened before a rescan changed the file would otherwise vouch for text nobody read."""
    if state not in TranslationReview.State.values:
        raise ValidationError(_("Unknown review state."))
    if version is None or not version.has_translation:
        raise ValidationError(_("This file has no translation to review."))
    if (seen_blob, seen_translation) != (version.scanned.blob_sha, version.translation_sha):
        raise ValidationError(
            _(
                "The file or its translation changed since you opened the page. "
                "Look at the new translation, then review it again."
            )
        )
    with transaction.atomic():
        review, _created = TranslationReview.objects.update_or_create(
            repository=repository,
            path=path,
            defaults={
                "state": state,
                "blob_sha": seen_blob,
                "translation_sha": seen_translation,
                "translation_blob": git_blob(version.translated),
                "reviewer": acting_user,
            },
        )
        figures.after_review(repository)  # a review is migration work done (or undone): portal.progress
    return review
