"""A review knows the git blob of the translation it approved (portal.files.models.TranslationReview): set when
the verdict is given, filled for the reviews made before by the migration, and enough for the verdict to hold
once the file's content is that translation (a merged port; end to end in tests/portal/ports/
test_merge_request_story.py)."""

from __future__ import annotations

import importlib
import subprocess

import pytest
from django.apps import apps

from portal.files.models import TranslationReview, git_blob
from portal.files.queries import file_version, translation_digest
from portal.repositories.models import Repository
from tests.portal.files.test_file_views import PATH, SOURCE, add_scan

migration = importlib.import_module("portal.files.migrations.0002_review_translation_blob")


def test_the_blob_is_gits_own(tmp_path):
    text = "#include <hip/hip_runtime.h>\n// é\n"
    (tmp_path / "f").write_text(text, encoding="utf-8")
    hashed = subprocess.run(["git", "hash-object", str(tmp_path / "f")], capture_output=True, text=True, check=True)
    assert git_blob(text) == hashed.stdout.strip()


@pytest.mark.django_db
def test_the_migration_fills_the_blob_of_the_translation_each_review_approved(people):
    repository = Repository.objects.create(team=people.team, name="r", clone_url="https://example.com/r.git")
    add_scan(repository, {PATH: SOURCE, "src/other.cu": SOURCE + "\n"})
    version, other = file_version(repository, PATH), file_version(repository, "src/other.cu")
    approved = TranslationReview.objects.create(
        repository=repository,
        path=PATH,
        blob_sha=version.scanned.blob_sha,
        translation_sha=version.translation_sha,
        state="ok",
    )
    changed = TranslationReview.objects.create(  # its translation changed since: nothing to vouch for
        repository=repository,
        path="src/other.cu",
        blob_sha=other.scanned.blob_sha,
        translation_sha=translation_digest("an older translation"),
        state="done",
    )
    migration.fill(apps, None)
    approved.refresh_from_db()
    changed.refresh_from_db()
    assert approved.translation_blob == git_blob(version.translated) and changed.translation_blob == ""
    assert approved.applies_to(git_blob(version.translated), "any translation of the HIP text")
    assert not changed.applies_to(git_blob(other.translated), "")
