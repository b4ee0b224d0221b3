"""A CI upload carries no blobs (issue 21, defect 1): the tracking must not take the missing text for a change. A
translation reviewed on a worker's scan stays reviewed after an upload of the same commit, or of a later commit
no worker scanned: the progress, the patch of reviewed translations and the file page all keep it."""

from __future__ import annotations

import json
import subprocess

import pytest
from django.urls import reverse

import scanner.upload
from portal.findings.models import BranchRollup
from portal.scans.models import Scan
from scanner.cli import main as scanner_main
from tests.portal.files.test_file_views import KERNEL, review_form, review_url
from tests.portal.people import client_for
from tests.portal.progress.test_migration_progress import figures_of
from tests.portal.scans.test_scan_tracking import register, scan
from tests.portal.uploads_data import bearer, post, token

PATH = "src/a.cu"


def upload_checkout(people, row, repo, tmp_path, monkeypatch) -> Scan:
    """The README's recipe (`python -m scanner scan . --format json --upload …`) on a clone of the repository's
    HEAD, its request sent through the test client instead of the network."""
    checkout = tmp_path / f"checkout-{Scan.objects.count()}"
    subprocess.run(["git", "clone", "--quiet", repo.url, str(checkout)], check=True, capture_output=True)
    plain = token(people.bob)
    answers = []

    def send(target, report_path):
        response = post(bearer(plain), row, report_path.read_bytes(), commit=target.commit, branch=target.branch)
        assert response.status_code == 201, response.content
        answers.append(response.json())
        return answers[-1]

    monkeypatch.setattr(scanner.upload, "send", send)
    args = [str(checkout), "--format", "json", "--upload", "http://testserver/", "--token", plain]
    code = scanner_main(["scan", *args, "--repository", str(row.pk), "--fail-on", "never"])
    assert code == 0 and answers
    uploaded = Scan.objects.get(pk=answers[-1]["scan"])
    assert uploaded.trigger == "upload" and uploaded.status == "finished"
    return uploaded


def reviewed_state(people, row) -> tuple[float, float, str, str]:
    progress = figures_of(row)
    patch = client_for(people.vera).get(reverse("files:patch", args=[row.pk])).content.decode()
    page = client_for(people.bob).get(reverse("files:file", args=[row.pk, PATH])).content.decode()
    return progress.done, progress.left, patch, page


@pytest.mark.django_db
@pytest.mark.parametrize("later_commit", [False, True], ids=["same-commit", "later-commit"])
def test_an_upload_keeps_the_reviews_of_files_it_did_not_change(
    people, repo_factory, tmp_path, monkeypatch, later_commit
):
    repo = repo_factory()
    repo.write(PATH, KERNEL.format(n=1))
    repo.write("src/b.cu", KERNEL.format(n=2))
    row = register(people, repo)
    scan(row, repo.commit("kernels"))
    assert client_for(people.bob).post(review_url(row, PATH), review_form("ok", PATH)).status_code == 302
    done, left, patch, page = reviewed_state(people, row)
    assert f"+++ b/{PATH}" in patch and 'data-outdated="1"' not in page and done > 0

    if later_commit:  # a commit no worker scanned, which does not touch the reviewed file
        repo.write("README.md", "kernels\n")
        repo.commit("docs")
    uploaded = upload_checkout(people, row, repo, tmp_path, monkeypatch)
    rollup = BranchRollup.objects.get(repository=row, branch="main")
    assert rollup.scan_id == uploaded.pk  # the figures are the upload's
    assert json.dumps(rollup.progress["cuda"]).count('""') == 0  # no file's blob is "unknown" in the ledger

    after_done, after_left, after_patch, after_page = reviewed_state(people, row)
    assert (after_done, after_left) == pytest.approx((done, left))  # progress done unchanged, nothing left added
    assert f"+++ b/{PATH}" in after_patch  # the patch still carries the reviewed file
    assert 'data-outdated="1"' not in after_page and "Outdated:" not in after_page
    assert f"Scan {uploaded.pk} was uploaded from CI" in after_page
