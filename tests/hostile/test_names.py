"""File names with control characters, newlines, markup and invalid UTF-8: stored and shown safely, or skipped
with a note; never a crashed scan."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.hostile.harness import FILE, fast_import, files_of, register, run_scan
from tests.portal.people import client_for

KERNEL = "__global__ void k(float *x) { x[threadIdx.x % 32] = warpSize; }\n"
MARKUP = "<img src=x onerror=alert(1)>.cu"
ODD = [
    "new\nline.cu",
    "carriage\rreturn.cu",
    "tab\there.cu",
    "bell\x07esc\x1b[31m.cu",
    "del\x7f.cu",
    MARKUP,
    "é-ünïcödé.cu",
]


@pytest.mark.django_db
def test_odd_names_are_stored_exactly_and_invalid_utf8_is_skipped_with_a_note(people, repo_factory):
    repo = repo_factory()
    entries = [(name, FILE, KERNEL) for name in ODD]
    entries += [(b"bad\xff.cu", FILE, KERNEL), (b"half\xc3(.cu", FILE, KERNEL)]
    commit = fast_import(repo, entries)
    result = run_scan(register(people, repo.url), commit)
    assert (result.status, result.error_code) == ("finished", ""), result.error_message
    files = files_of(result)
    for name in ODD:
        assert files[name].error == "" and files[name].blob_sha, repr(name)  # analysed, cached by blob
        assert [f.rule for f in result.repository.findings.filter(path=name)] == ["ROC101"]
    for shown in ("bad\\xff.cu", "half\\xc3(.cu"):
        assert files[shown].error == "file name is not valid UTF-8; not analysed"
        assert files[shown].blob_sha == ""


@pytest.mark.django_db
def test_odd_names_are_escaped_on_the_pages(people, repo_factory):
    repo = repo_factory()
    commit = fast_import(repo, [(MARKUP, FILE, KERNEL)])
    repository = register(people, repo.url)
    result = run_scan(repository, commit)
    client = client_for(people.alice)
    finding = result.repository.findings.get(path=MARKUP)
    pages = [
        reverse("scans:detail", args=[result.pk]),
        reverse("findings:list"),
        reverse("findings:detail", args=[finding.pk]),
        reverse("files:file", args=[repository.pk, MARKUP]),
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert "<img src=x" not in html, url
    assert "&lt;img src=x onerror=alert(1)&gt;.cu" in html  # the file page names it, escaped
