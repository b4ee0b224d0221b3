"""A file page after a CI upload (issue: an upload emptied the file pages). An upload carries findings and
counts, never the file's text: the page takes the text, translation and compile check from a worker's scan of the
same commit when there is one, and otherwise says what an upload does not carry and offers a worker's scan."""

from __future__ import annotations

import pytest
from django.urls import reverse

from portal.repositories.models import Repository
from portal.scans.models import Scan
from tests.portal.files.test_file_views import SOURCE, add_scan
from tests.portal.people import client_for
from tests.portal.uploads_data import COMMIT, bearer, file, finding, post, report, token

PATH = "src/k.cu"


@pytest.fixture
def repository(people) -> Repository:
    return Repository.objects.create(team=people.team, name="kernels", clone_url="https://example.com/gpu/kernels.git")


def upload(people, repository, commit: str = COMMIT) -> Scan:
    response = post(
        bearer(token(people.bob)),
        repository,
        report(file(PATH, finding(line=3), converted=5), tree=[PATH]),
        commit=commit,
    )
    assert response.status_code == 201, response.content
    return Scan.objects.get(pk=response.json()["scan"])


def page(people, repository, who="bob") -> str:
    response = client_for(getattr(people, who)).get(reverse("files:file", args=[repository.pk, PATH]))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
def test_after_an_upload_the_page_shows_the_text_of_a_workers_scan_of_the_same_commit(people, repository):
    worker = add_scan(repository, {PATH: SOURCE})  # commit COMMIT, as the upload's
    uploaded = upload(people, repository)
    html = page(people, repository)
    assert f"As of scan {uploaded.pk} of main" in html  # the newest scan is the upload …
    assert f"come from scan {worker.pk}" in html  # … and the text is the worker's, said so
    assert "cudaThreadSetLimit" in html and "hipMalloc" in html  # the source and its translation
    assert "could not be read as UTF-8" not in html
    # the compile box speaks for the worker's scan (the tests run it with the check off), not of the upload
    assert "An upload carries no compile check." not in html and "The scan did not compile this file" in html


@pytest.mark.django_db
def test_an_upload_alone_says_what_it_does_not_carry_and_offers_a_workers_scan(people, repository):
    add_scan(repository, {PATH: SOURCE.replace("cudaFree", "cudaFreeHost")})
    Scan.objects.update(commit_sha="a" * 40)  # a worker's scan of another commit: not this file's text
    uploaded = upload(people, repository)
    html = page(people, repository)
    assert f"Scan {uploaded.pk} was uploaded from CI" in html
    assert "cudaFreeHost" not in html  # never another commit's text
    # none of the three wrong explanations the page gave before
    assert "could not be read as UTF-8" not in html and "compile check is off" not in html
    assert "An upload carries no compile check" in html and "does not carry the file's text" in html
    # the counts it did carry: 5 references converted, not 0
    assert '<div class="value">5</div><div class="label">references converted' in html
    assert f'action="{reverse("repositories:scan", args=[repository.pk])}"' in html  # engineers get the button
    assert 'name="branch" value="main"' in html
    assert "on a worker</button>" not in page(people, repository, who="vera")  # viewers do not
