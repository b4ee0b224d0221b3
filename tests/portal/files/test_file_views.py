"""The file page (source, inline findings, side-by-side translation, parse health), the translation review and
the patch of reviewed translations, for each role; the patch is checked with `git apply` on a real scan."""

from __future__ import annotations

import subprocess

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from portal.files.models import TranslationReview
from portal.files.queries import translation_digest
from portal.findings.models import SEVERITY_RANK, Finding
from portal.repositories.models import Repository
from portal.scans.models import BlobResult, Scan, ScannedFile
from scanner.translate.builtin import BuiltinTranslator
from tests.portal.gitrepos import _ENV
from tests.portal.htmx import HTMX
from tests.portal.people import client_for

SOURCE = """#include <cuda_runtime.h>
__global__ void k(float *x) {
  x[threadIdx.x % 32] = warpSize;
}
int main() {
  float *d; cudaMalloc(&d, 4); // <script>alert(1)</script>
  cudaThreadSetLimit(cudaLimitStackSize, 0);
  k<<<1, 32>>>(d);
  cudaFree(d);
}
"""
PATH = "src/k.cu"


def add_scan(repository, files: dict[str, str], status: str = "finished", sha: str = "1") -> Scan:
    """A scan with ScannedFiles and BlobResults built by the real translator, as the pipeline stores them."""
    scan = Scan.objects.create(
        repository=repository,
        branch="main",
        status=status,
        commit_sha="c" * 40,
        finished=timezone.now() if status == "finished" else None,
    )
    for path, text in files.items():
        blob = f"{sha}{abs(hash(text)) % 10**12:012d}".ljust(40, "0")[:40]
        result = BuiltinTranslator().translate(path, text)
        translation = result.to_dict()
        BlobResult.objects.get_or_create(
            blob_sha=blob,
            cache_key="k",
            defaults={
                "result": {
                    "language": "cuda",
                    "parse": {
                        "mode": "ast-stubbed",
                        "stubbed_headers": ["thrust/sort.h"],
                        "error_count": 1,
                        "first_errors": ["unknown type 'Foo'"],
                        "fallback_reason": "",
                    },
                    "findings": [],
                    "error": "",
                },
                "translation": translation,
                "source": text,
                "translated": result.text,
            },
        )
        ScannedFile.objects.create(
            scan=scan,
            path=path,
            blob_sha=blob,
            language="cuda",
            parse_mode="ast-stubbed",
            stats={"translation": {"converted": result.stats.converted}},
        )
    return scan


def add_finding(repository, scan, line: int = 3, path: str = PATH, rule: str = "ROC101", n: int = 0) -> Finding:
    return Finding.objects.create(
        repository=repository,
        branch="main",
        path=path,
        rule=rule,
        fingerprint=f"{n:032d}",
        name="warp-size-lane-arithmetic",
        risk="silent-wrong-result",
        severity="high",
        severity_rank=SEVERITY_RANK["high"],
        line=line,
        message=f"assumes 32 lanes {n}",
        first_seen=scan,
        last_seen=scan,
    )


@pytest.fixture
def repository(people):
    return Repository.objects.create(team=people.team, name="kernels", clone_url="https://example.com/k.git")


@pytest.fixture
def scanned(repository):
    scan = add_scan(repository, {PATH: SOURCE})
    add_finding(repository, scan)
    return scan


def file_url(repository, path=PATH):
    return reverse("files:file", args=[repository.pk, path])


def review_url(repository, path=PATH):
    return reverse("files:review", args=[repository.pk, path])


def review_form(state: str, path=PATH) -> dict:
    blob = BlobResult.objects.get(blob_sha=ScannedFile.objects.filter(path=path).latest("id").blob_sha)
    return {"state": state, "blob": blob.blob_sha, "translation": translation_digest(blob.translated)}


# -- access -----------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_every_view_needs_a_login(repository, scanned):
    for response in (
        Client().get(file_url(repository)),
        Client().post(review_url(repository), {"state": "ok"}),
        Client().get(reverse("files:patch", args=[repository.pk])),
    ):
        assert response.status_code == 302 and reverse("login") in response["Location"]


@pytest.mark.django_db
def test_another_team_and_unknown_ids_get_404_everywhere(people, repository, scanned):
    charlie = client_for(people.charlie)
    assert charlie.get(file_url(repository)).status_code == 404
    assert charlie.post(review_url(repository), review_form("ok")).status_code == 404
    assert charlie.post(review_url(repository), review_form("ok"), headers=HTMX).status_code == 404
    assert charlie.get(reverse("files:patch", args=[repository.pk])).status_code == 404
    assert not TranslationReview.objects.exists()
    alice = client_for(people.alice)
    assert alice.get(reverse("files:file", args=[99999, PATH])).status_code == 404
    assert alice.post(reverse("files:review", args=[99999, PATH]), {"state": "ok"}).status_code == 404
    assert alice.get(reverse("files:patch", args=[99999])).status_code == 404


@pytest.mark.django_db
def test_wrong_methods_get_405(people, repository, scanned):
    bob = client_for(people.bob)
    assert bob.post(file_url(repository)).status_code == 405
    assert bob.get(review_url(repository)).status_code == 405
    assert bob.post(reverse("files:patch", args=[repository.pk])).status_code == 405


# -- the file page ----------------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["vera", "bob", "alice"])
def test_members_see_the_highlighted_source_with_findings_at_their_lines(people, repository, scanned, who):
    response = client_for(getattr(people, who)).get(file_url(repository))
    html = response.content.decode()
    assert response.status_code == 200 and "<title>src/k.cu · kernels · ROCport</title>" in html
    assert 'id="L1"' in html and 'id="L10"' in html and 'id="L11"' not in html
    assert '<span class="k">' in html or '<span class="kt">' in html  # Pygments tokens
    finding = Finding.objects.get()
    row = html.index('id="L3"')
    inline = html.index(reverse("findings:detail", args=[finding.pk]), row)
    assert inline < html.index('id="L4"')  # the finding sits right under its line
    assert reverse("catalogue:rule", args=["ROC101"]) in html and "assumes 32 lanes" in html


@pytest.mark.django_db
def test_the_source_is_escaped_never_trusted(people, repository, scanned):
    html = client_for(people.vera).get(file_url(repository)).content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


@pytest.mark.django_db
def test_the_translation_is_side_by_side_with_converted_and_unconverted_references_marked(people, repository, scanned):
    response = client_for(people.vera).get(file_url(repository))
    html = response.content.decode()
    assert "Translated by builtin" in html
    rows = response.context["diff"]
    replaced = [r for r in rows if r.kind == "replace"]
    assert any(s.mark == "changed" and s.text == "cudaMalloc" for r in replaced for s in r.left)
    assert any(s.mark == "changed" and s.text == "hipMalloc" for r in replaced for s in r.right)
    assert '<mark class="changed">hipMalloc</mark>' in html
    [limit] = [r for r in rows if r.left_no == 7]  # unchanged line, shown because of its unconverted reference
    assert [s.text for s in limit.left if s.mark == "unconverted"] == ["cudaThreadSetLimit"]
    assert '<mark class="unconverted"' in html and "cudaThreadSetLimit" in html
    assert "Stubbed headers" in html and "thrust/sort.h" in html and "unknown type" in html  # parse health


@pytest.mark.django_db
def test_a_file_in_no_scan_shows_an_empty_state(people, repository, scanned):
    response = client_for(people.vera).get(file_url(repository, "src/missing.cu"))
    assert response.status_code == 200 and response.context["version"] is None
    assert b'class="empty"' in response.content and b"start a scan" in response.content


@pytest.mark.django_db
def test_the_newest_finished_scan_that_has_the_file_is_shown(people, repository, scanned):
    newer_text = SOURCE.replace("cudaFree(d);", "cudaFree(d); cudaDeviceSynchronize();")
    newer = add_scan(repository, {PATH: newer_text}, sha="2")
    add_scan(repository, {PATH: "int unfinished;\n"}, status="scanning", sha="3")
    add_scan(repository, {"other.cu": "int x;\n"}, sha="4")  # newest, without the file
    response = client_for(people.vera).get(file_url(repository))
    assert response.context["version"].scan == newer and b"hipDeviceSynchronize" in response.content


@pytest.mark.django_db
def test_the_file_page_costs_the_same_queries_with_many_findings(people, repository, scanned):
    client = client_for(people.vera)
    client.get(file_url(repository))
    with CaptureQueriesContext(connection) as few:
        client.get(file_url(repository))
    for n in range(1, 40):
        add_finding(repository, scanned, line=n % 10 + 1, n=n)
    with CaptureQueriesContext(connection) as many:
        client.get(file_url(repository))
    assert len(many) == len(few) <= 10, [q["sql"] for q in many.captured_queries]


# -- the review -------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_engineers_review_with_htmx_and_get_the_widget_back(people, repository, scanned):
    response = client_for(people.bob).post(review_url(repository), review_form("ok"), headers=HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html and 'id="review"' in html
    assert 'data-review="ok"' in html
    review = TranslationReview.objects.get()
    assert (review.state, review.reviewer, review.path) == ("ok", people.bob, PATH)


@pytest.mark.django_db
def test_the_plain_form_reviews_and_redirects_to_the_file_page(people, repository, scanned):
    alice = client_for(people.alice)
    response = alice.post(review_url(repository), review_form("needs_work"))
    assert response.status_code == 302 and response["Location"] == file_url(repository)
    page = alice.get(file_url(repository)).content.decode()
    assert 'data-review="needs_work"' in page


@pytest.mark.django_db
def test_viewers_cannot_review_and_see_no_form(people, repository, scanned):
    vera = client_for(people.vera)
    assert vera.post(review_url(repository), review_form("ok")).status_code == 403
    assert vera.post(review_url(repository), review_form("ok"), headers=HTMX).status_code == 403
    assert b'name="state"' not in vera.get(file_url(repository)).content
    assert b'name="state"' in client_for(people.bob).get(file_url(repository)).content
    assert not TranslationReview.objects.exists()


@pytest.mark.django_db
def test_a_review_of_a_version_that_is_no_longer_current_is_refused(people, repository, scanned):
    form = review_form("ok")
    add_scan(repository, {PATH: SOURCE + "// changed\n"}, sha="2")
    response = client_for(people.bob).post(review_url(repository), form, headers=HTMX)
    assert b"changed since you opened the page" in response.content
    bad = client_for(people.bob).post(review_url(repository), dict(form, state="bogus"), headers=HTMX)
    assert b"Unknown review state" in bad.content
    assert not TranslationReview.objects.exists()


@pytest.mark.django_db
def test_a_review_is_outdated_once_the_file_changes(people, repository, scanned):
    client_for(people.bob).post(review_url(repository), review_form("done"))
    add_scan(repository, {PATH: SOURCE + "// changed\n"}, sha="2")
    response = client_for(people.vera).get(file_url(repository))
    assert response.context["review_outdated"] and response.context["review_state"] == "not_reviewed"
    assert b'data-outdated="1"' in response.content


@pytest.mark.django_db
def test_the_review_form_needs_a_csrf_token(people, repository, scanned):
    client = Client(enforce_csrf_checks=True)
    client.force_login(people.bob)
    assert client.post(review_url(repository), review_form("ok")).status_code == 403
    page = client.get(file_url(repository))
    token = page.cookies["csrftoken"].value
    assert client.post(review_url(repository), review_form("ok"), HTTP_X_CSRFTOKEN=token).status_code == 302
    assert TranslationReview.objects.get().state == "ok"


# -- the patch, for real ----------------------------------------------------------------------------------

KERNEL = (
    "#include <cuda_runtime.h>\n__global__ void k(float *x) {{ x[threadIdx.x] = {n}; }}\n"
    "void run(float *d) {{\n  cudaMalloc(&d, 4);\n  k<<<1, 64>>>(d);\n  cudaDeviceSynchronize();\n}}\n"
)


def git(cwd, *args) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=cwd, env=_ENV, capture_output=True, text=True)


@pytest.mark.django_db
def test_the_patch_of_reviewed_translations_applies_to_the_scanned_commit(people, repo_factory, tmp_path):
    from tests.portal.scans.test_scan_tracking import register, scan

    repo = repo_factory()
    files = {
        "src/a.cu": KERNEL.format(n=1),
        "src/b.cu": KERNEL.format(n=2).rstrip("\n"),  # no final newline
        "include/dir with space/c.cuh": "#pragma once\n#include <cuda_runtime.h>\ncudaStream_t s;\n",
        "src/d.cu": KERNEL.format(n=4),
        "src/e.cpp": "int plain() { return 0; }\n",
        "src/crlf.cu": KERNEL.format(n=5).replace("\n", "\r\n"),
    }
    for rel, text in files.items():
        repo.write(rel, text)
    commit = repo.commit("kernels")
    row = register(people, repo)
    first = scan(row, commit)
    bob = client_for(people.bob)
    for path, state in (
        ("src/a.cu", "ok"),
        ("src/b.cu", "done"),
        ("include/dir with space/c.cuh", "ok"),
        ("src/d.cu", "needs_work"),
        ("src/crlf.cu", "ok"),
    ):
        assert bob.post(review_url(row, path), review_form(state, path)).status_code == 302
    response = client_for(people.vera).get(reverse("files:patch", args=[row.pk]))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/x-diff")
    assert "attachment" in response["Content-Disposition"]
    patch = tmp_path / "hip.patch"
    patch.write_bytes(response.content)

    checkout = tmp_path / "checkout"
    assert git(tmp_path, "clone", "--quiet", repo.url, str(checkout)).returncode == 0
    git(checkout, "checkout", "--quiet", first.commit_sha)
    check = git(checkout, "apply", "--check", str(patch))
    assert check.returncode == 0, check.stderr
    assert git(checkout, "apply", str(patch)).returncode == 0
    translated = {
        f.path: BlobResult.objects.filter(blob_sha=f.blob_sha).latest("id").translated
        for f in ScannedFile.objects.filter(scan=first)
    }
    for path in ("src/a.cu", "src/b.cu", "include/dir with space/c.cuh"):
        assert (checkout / path).read_text() == translated[path] != files[path], path
    assert "hipMalloc" in (checkout / "src/a.cu").read_text()
    assert (checkout / "src/d.cu").read_text() == files["src/d.cu"]  # "needs manual work": left out
    assert (checkout / "src/e.cpp").read_text() == files["src/e.cpp"]
    # The pipeline stores sources read with universal newlines, so a CRLF file's stored source is not its exact
    # text: the patch leaves it out and says so rather than ship a hunk that cannot apply. Once sources are
    # stored byte for byte, it is patched like the others.
    crlf = (checkout / "src/crlf.cu").read_bytes().decode()
    assert (
        "left out, stored source not exact: src/crlf.cu" in response.content.decode() and crlf == files["src/crlf.cu"]
    ) or crlf == translated["src/crlf.cu"]

    # A push changes a.cu: its review no longer applies, so the next patch leaves it out.
    second = scan(row, repo.commit("change a", **{"src__a.cu": KERNEL.format(n=9)}))
    text = client_for(people.vera).get(reverse("files:patch", args=[row.pk])).content.decode()
    assert second.commit_sha in text and "left out, review outdated: src/a.cu" in text
    assert "diff --git a/src/a.cu" not in text and "diff --git a/src/b.cu b/src/b.cu" in text
    fresh = tmp_path / "fresh"
    git(tmp_path, "clone", "--quiet", repo.url, str(fresh))
    (tmp_path / "second.patch").write_text(text)
    assert git(fresh, "apply", "--check", str(tmp_path / "second.patch")).returncode == 0


@pytest.mark.django_db
def test_a_repository_without_reviews_gets_a_patch_that_says_so(people, repository, scanned):
    response = client_for(people.vera).get(reverse("files:patch", args=[repository.pk]))
    assert response.status_code == 200 and b"# files: 0" in response.content and b"diff --git" not in response.content


@pytest.mark.django_db
def test_inline_finding_messages_show_code_spans_and_stay_escaped(people, repository, scanned):
    finding = add_finding(repository, scanned, line=4, n=99)
    Finding.objects.filter(pk=finding.pk).update(message="`warp_max` has one slot per <b>lane</b>")
    html = client_for(people.vera).get(file_url(repository)).content.decode()
    assert "<code>warp_max</code> has one slot per &lt;b&gt;lane&lt;/b&gt;" in html
    assert "`warp_max`" not in html
