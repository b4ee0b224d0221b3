"""The reviewed translation's git blob on each review, so that a merged port (the file's content becoming that
translation) keeps the verdict: filled for the reviews made before, from the stored translation they approved."""

import hashlib

from django.db import migrations, models


def _git_blob(text: str) -> str:
    data = text.encode("utf-8")
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def fill(apps, schema_editor):
    TranslationReview = apps.get_model("files", "TranslationReview")
    BlobResult = apps.get_model("scans", "BlobResult")
    for review in TranslationReview.objects.exclude(state="not_reviewed").iterator():
        for translated in (
            BlobResult.objects.filter(blob_sha=review.blob_sha).order_by("-id").values_list("translated", flat=True)
        ):
            digest = hashlib.sha256(translated.encode("utf-8")).hexdigest() if translated else ""
            if translated and (not review.translation_sha or digest == review.translation_sha):
                review.translation_blob = _git_blob(translated)
                review.save(update_fields=["translation_blob"])
                break


class Migration(migrations.Migration):
    dependencies = [
        ("files", "0001_initial"),
        ("scans", "0007_scan_submodules"),
    ]

    operations = [
        migrations.AddField(
            model_name="translationreview",
            name="translation_blob",
            field=models.CharField(blank=True, default="", max_length=40),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
