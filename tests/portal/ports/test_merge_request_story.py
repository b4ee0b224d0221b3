"""What a port says and what its merge does, end to end: the reviewed translations of two files are pushed and
opened as a merge request (tests/portal/ports/test_merge_requests.py's stage: real git over smart HTTP, a host
stand-in), the body names the findings the port resolves and the progress it brings; then the host merges (the
port branch's commit becomes the default branch's head) and the scan of that commit runs through the real
pipeline. The merge must keep the reviews (the files' content now is the reviewed translation), fix the findings
the body said it resolves, re-rate nothing, and move progress by those fixes only: to the figure the body
estimated."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.urls import reverse

from portal.files.models import TranslationReview
from portal.files.queries import file_version
from portal.findings.models import BranchRollup, Finding, FindingEvent
from portal.ports import describe, story
from portal.reporting import figures, rollups
from tests.portal.people import client_for
from tests.portal.ports import test_merge_requests as ports_flow
from tests.portal.ports.test_merge_requests import A_CU, REVIEWED, merge_and_scan, run

stage = ports_flow.stage  # the fixture: a served repository, scanned, two files' translations reviewed

# src/a.cu with a deprecated call the translation rewrites (ROC151: resolved), a warp-size assumption on a line
# it leaves as it was (ROC101: left for a person, the same finding after the merge) and a ballot whose 32-bit mask
# it widens (ROC106: resolved) on a line where the result is still kept in 32 bits (ROC107: left for a person, and
# the same finding after the merge although its line's text, and so its fingerprint, changed)
SHUFFLE = "__global__ void red(float *o, float v) {\n  unsigned m = __ballot_sync(0xffffffff, v > 0);\n  o[0] = m;\n}\n"
A_PORTED = (
    A_CU.replace("int run_a(", "__global__ void lanes(int *o) { o[threadIdx.x] = threadIdx.x % 32; }\nint run_a(")
    .replace("cudaDeviceSynchronize();", "cudaThreadSynchronize();")
    .replace("int run_a(", SHUFFLE + "int run_a(")
)


def progress(row) -> figures.MigrationProgress:
    return figures.MigrationProgress.of_totals(BranchRollup.objects.get(repository=row, branch="main").totals)


def file_states(row) -> dict[str, str]:
    rollup = BranchRollup.objects.get(repository=row, branch="main")
    return {path: item.state for path, item in figures.per_file(rollup, figures.reviews_of([row.pk])[row.pk]).items()}


@pytest.mark.django_db
@pytest.mark.parametrize(("provider", "cmake"), [("github", False), ("gitlab", True)], ids=["sources", "with-cmake"])
def test_a_merged_port_keeps_its_reviews_fixes_what_it_said_and_moves_progress_as_estimated(
    provider, cmake, stage, people
):
    stage = stage(provider, extra={"src/a.cu": A_PORTED} | ({"CMakeLists.txt": ports_flow.CMAKE} if cmake else {}))
    row = stage.row
    request, _, _ = stage.click()
    assert run(request) == "open", (request.error_code, request.error_message)
    opened = Finding.objects.filter(repository=row, branch="main", state="open")
    resolved = set(opened.filter(path="src/a.cu", rule__in=["ROC151", "ROC106"]).values_list("pk", flat=True))
    left = set(opened.filter(path="src/a.cu", rule__in=["ROC101", "ROC107"]).values_list("pk", flat=True))
    assert len(resolved) == len(left) == 2, list(opened.values_list("path", "line", "rule"))
    shuffle = opened.get(path="src/a.cu", rule="ROC107")
    # the build commit switches the language and the runtime's target (ROC201, ROC206), not the architectures
    build = set(opened.filter(path="CMakeLists.txt", rule__in=["ROC201", "ROC206"]).values_list("pk", flat=True))
    assert len(build) == (2 if cmake else 0)
    resolved |= build
    others = set(
        Finding.objects.filter(repository=row, branch="main", state="open")
        .exclude(pk__in=resolved)
        .values_list("pk", flat=True)
    )
    assert left <= others
    before = progress(row)
    states_before = file_states(row)
    told = story.of_request(request)

    # The body says what the port resolves (rule and count, linked), the progress before and after, and how.
    [pull] = stage.host.pulls.values()
    body = stage.host.received[0].body
    text = body["description"] if provider == "gitlab" else body["body"]
    assert f"**Resolves**: {len(resolved)} open finding" in text and "**Migration progress**" in text
    resolves, rest = text.split("**Resolves**")[1].split("**Left for a person**")
    assert "× [`ROC151`](" in resolves and "rule=ROC151" in resolves and "ROC101" not in resolves
    assert "× [`ROC106`](" in resolves and "ROC107" not in resolves
    assert ("× [`ROC201`](" in resolves and "ROC204" not in resolves) == cmake
    assert "× [`ROC101`](" in rest and "× [`ROC107`](" in rest and "ROC151" not in rest
    assert f"{told.before.shown}% → {told.after.shown}%" in text and told.before.shown != told.after.shown
    assert "estimated" in text and len(text) < describe.BODY_LIMIT
    assert (told.resolved, told.left) == (len(resolved), 2)
    decision = (row.hip_decision.accepted, row.hip_decision.source)

    merge_and_scan(stage, request, provider)

    # Reviews kept: the files' content is the reviewed translation; nothing is left to convert in them.
    viewer = client_for(people.alice)
    for path in REVIEWED:
        review = TranslationReview.objects.get(repository=row, path=path)
        version = file_version(row, path)
        assert version.scan.commit_sha == request.head_commit
        assert version.source == file_version(row, path).source  # the HIP text, as committed
        assert review.applies_to(*version.review_key), path
        page = viewer.get(reverse("files:file", args=[row.pk, path]))
        assert page.status_code == 200 and b'data-outdated="1"' not in page.content, path
        assert (version.scanned.stats.get("translation") or {}).get("unconverted", 0) == 0, path

    # The findings the port resolved are fixed, the others stay open, none was re-rated by the merge's scan.
    assert set(Finding.objects.filter(pk__in=resolved).values_list("state", flat=True)) == {"fixed"}
    assert set(Finding.objects.filter(pk__in=others).values_list("state", flat=True)) == {"open"}
    assert not FindingEvent.objects.filter(finding__repository=row, kind=FindingEvent.Kind.RERATED).exists()
    row.hip_decision.refresh_from_db()
    assert (row.hip_decision.accepted, row.hip_decision.source) == decision  # the port flips no build decision
    assert not Finding.objects.filter(repository=row, branch="main", state="open").exclude(pk__in=others).exists()
    # The ballot's line was rewritten (its mask widened) and ROC107 still fires there: the same finding, carried
    # to the line the port made, with an event that says so; nothing on that line is new.
    carried = Finding.objects.get(pk=shuffle.pk)
    assert carried.state == "open" and "0xffffffffffffffff" in carried.snippet, carried.snippet
    [event] = FindingEvent.objects.filter(finding=carried, kind=FindingEvent.Kind.PORTED)
    assert event.data == {"line": [shuffle.line, carried.line]} and carried.line != shuffle.line
    assert not Finding.objects.filter(repository=row, branch="main", path="src/a.cu", first_seen__trigger="push")
    scan = Finding.objects.get(pk=shuffle.pk).last_seen
    assert scan.summary["tracking"]["carried"] == 1 and scan.summary["tracking"]["new"] == 0
    page = viewer.get(reverse("findings:detail", args=[carried.pk]))
    assert f"line {shuffle.line} → line {carried.line}, rewritten by the port" in page.content.decode()

    # Progress moved by the fixes only, to the figure the body estimated: the ported files keep their reviews'
    # hours, src/b.cu stays done and src/a.cu holds only the finding left for a person.
    after = progress(row)
    hours = sum(rollups.finding_hours(f.severity_rank, f.risk) for f in Finding.objects.filter(pk__in=resolved))
    assert (round(after.done - before.done, 4), round(before.left - after.left, 4)) == (hours, hours)
    assert after.baseline == before.baseline and after.files_done == before.files_done
    assert {p: file_states(row)[p] for p in REVIEWED} == {"src/a.cu": "in_progress", "src/b.cu": "done"}
    assert {p: states_before[p] for p in REVIEWED} == {"src/a.cu": "in_progress", "src/b.cu": "done"}
    assert (round(after.done, 3), round(after.left, 3)) == (round(told.after.done, 3), round(told.after.left, 3))
    assert after.shown == told.after.shown


def test_the_body_stays_under_the_hosts_limits_whatever_the_port():
    """Thousands of files, rules and left-out files: lists end with "and N more", the body under BODY_LIMIT
    (GitHub and Gitea take 65,536 characters), the trailer always last."""
    repository = SimpleNamespace(pk=7, default_branch="main")
    files = [f"src/{'deep/' * 30}kernel_{n}.cu" for n in range(5000)]
    rules = [{"rule": f"ROC{n}", "name": "x" * 300, "n": 1} for n in range(400)]
    told = story.Story(rules, rules, figures.MigrationProgress(1, 9, 0, 10, known=True))
    told.after = figures.MigrationProgress(5, 5, 0, 10, known=True)
    body = describe.description(repository, "c" * 40, files, [[path, "why"] for path in files], rules, story=told)
    assert len(body) < describe.BODY_LIMIT < 65_536
    assert "- and 4950 more" in body and "- and 380 more rules" in body
    assert "(estimated): 10% → 50%" in body and body.endswith("Generated-by: ROCport")
    # a body that does not fit is cut at a line, said so, and keeps its footer
    rules = [{"rule": f"ROC{n}", "name": "y" * 5000, "n": 1} for n in range(20)]
    body = describe.description(repository, "c" * 40, files[:10], [], rules, story=story.Story(rules, rules))
    assert len(body) < describe.BODY_LIMIT and "more lines: see the merge request's page" in body
    assert "[migration dashboard](" in body and body.endswith("Generated-by: ROCport")
