"""Which findings a merged port carries (portal.scans.pipeline.ported): only in a default-branch file whose content
is exactly a review's translation of the blob its findings were last seen on, and only a finding whose rule fires
on the line its line became. The end-to-end case (a real merge, a real scan): tests/portal/ports/
test_merge_request_story.py."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from portal.files.models import TranslationReview, git_blob
from portal.findings.models import Finding
from portal.findings.tracking import FileOutcome
from portal.repositories.models import Repository
from portal.scans.models import BlobResult
from portal.scans.pipeline.ported import Carry, carried, line_map

OLD = "#include <cuda_runtime.h>\n__global__ void k(unsigned *o, float v) {\n  unsigned m = __ballot_sync(0xffffffff, v);\n  o[0] = m;\n}\n"
NEW = (
    OLD.replace("cuda_runtime.h", "hip/hip_runtime.h")
    .replace("0xffffffff", "0xffffffffffffffffull")
    .replace("#include <hip/hip_runtime.h>\n", "#include <hip/hip_runtime.h>\n#include <math.h>\n")
)
OLD_BLOB = git_blob(OLD)


def test_a_line_rewritten_one_for_one_maps_to_its_new_place_and_an_inserted_line_to_nothing():
    # line 1 became two lines (no one-for-one place), line 3 was rewritten in place, the others shifted by one
    assert line_map(OLD, NEW) == {2: 3, 3: 4, 4: 5, 5: 6, 6: 7}


@pytest.fixture
def merged(people):
    """A repository whose src/k.cu was reviewed and its translation merged; the ballot's ROC107 open on line 3."""
    row = Repository.objects.create(team=people.team, name="r", clone_url="https://example.com/r.git")
    TranslationReview.objects.create(
        repository=row, path="src/k.cu", blob_sha=OLD_BLOB, translation_blob=git_blob(NEW), state="ok"
    )
    BlobResult.objects.create(blob_sha=OLD_BLOB, cache_key="k", result={}, source=OLD)
    BlobResult.objects.create(blob_sha=git_blob(NEW), cache_key="k", result={}, source=NEW)
    finding = Finding.objects.create(
        repository=row,
        branch="main",
        path="src/k.cu",
        rule="ROC107",
        fingerprint="old-fp",
        name="ballot",
        risk="correctness",
        severity="high",
        line=3,
        message="m",
        snippet="unsigned m = __ballot_sync(0xffffffff, v);",
    )
    return SimpleNamespace(row=row, finding=finding)


def _seen(rule: str = "ROC107", line: int = 4) -> list[FileOutcome]:
    data = {"rule": rule, "fingerprint": "new-fp", "occurrence": 0, "line": line, "column": 16}
    return [FileOutcome("src/k.cu", frozenset({rule}), [data])]


def _scan(row, branch: str = "main"):
    return SimpleNamespace(repository=row, branch=branch)


@pytest.mark.django_db
def test_the_reviewed_translation_merged_carries_the_finding_its_rule_still_sees(merged):
    files = [SimpleNamespace(path="src/k.cu", blob_sha=git_blob(NEW))]
    assert carried(_scan(merged.row), _seen(), files) == [Carry(merged.finding.pk, "new-fp", 0, 3, 4)]


@pytest.mark.django_db
def test_anything_else_keeps_fixed_and_new(merged):
    files = [SimpleNamespace(path="src/k.cu", blob_sha=git_blob(NEW))]
    assert carried(_scan(merged.row), _seen(rule="ROC106"), files) == []  # another rule
    assert carried(_scan(merged.row), _seen(line=5), files) == []  # another line than the one line 3 became
    assert carried(_scan(merged.row, branch="dev"), _seen(), files) == []  # reviews are the default branch's
    edited = [SimpleNamespace(path="src/k.cu", blob_sha=git_blob(NEW + "// a person's edit\n"))]
    assert carried(_scan(merged.row), _seen(), edited) == []  # not the reviewed translation
    Finding.objects.filter(pk=merged.finding.pk).update(snippet="something else")
    assert carried(_scan(merged.row), _seen(), files) == []  # not last seen on the reviewed blob's text
