"""Downloads of a scan's findings: SARIF (valid against the official schema), CSV and JSON with the findings list's
filters, streamed in keyset chunks; tokens or the session; another team's scan is a 404."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import jsonschema
import pytest
from django.db import connection
from django.http import StreamingHttpResponse
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from portal.findings import queries
from portal.findings.actions import do_triage_findings
from portal.findings.models import SEVERITY_RANK, Finding
from portal.repositories.models import Repository
from portal.scans.exports import findings as exports
from portal.scans.models import Scan
from tests.portal.people import client_for
from tests.portal.uploads_data import bearer, file, finding, post, report, token

SCHEMA = json.loads((Path(__file__).parents[2] / "scanner" / "schemas" / "sarif-schema-2.1.0.json").read_text())


def url(scan: Scan | int, kind: str) -> str:
    return reverse("scans:export", args=[getattr(scan, "pk", scan), kind])


def body(response) -> str:
    assert isinstance(response, StreamingHttpResponse), response
    return b"".join(response.streaming_content).decode()


def uploaded(people, repository, *files, commit: str = "1" * 40) -> Scan:
    """A scan ingested through the upload path (the same tracking as a worker's scan, without libclang)."""
    response = post(
        bearer(token(people.bob)), repository, report(*files, tree=[f["path"] for f in files]), commit=commit
    )
    assert response.status_code == 201, response.content
    return Scan.objects.get(pk=response.json()["scan"])


@pytest.fixture
def repository(people) -> Repository:
    return Repository.objects.create(team=people.team, name="kernels", clone_url="https://example.com/gpu/kernels.git")


@pytest.mark.django_db
def test_sarif_validates_and_carries_fingerprints_rule_help_and_suppressions(people, repository):
    scan = uploaded(
        people,
        repository,
        file(
            "src/k.cu",
            finding(line=3),
            finding(line=9),
            finding(line=12, suppressed=True, suppression_reason="checked"),
        ),
        file("CMakeLists.txt", finding("ROC201", line=2, text="find_package(CUDA)"), language="cmake", mode="text"),
    )
    dismissed = Finding.objects.get(line=9)
    do_triage_findings(
        Finding.objects.filter(pk=dismissed.pk), "false_positive", "lane is warpSize-strided", acting_user=people.bob
    )
    sarif = json.loads(body(client_for(people.vera).get(url(scan, "sarif"))))

    jsonschema.Draft4Validator(SCHEMA).validate(sarif)
    [run] = sarif["runs"]
    rules = run["tool"]["driver"]["rules"]
    roc101 = next(r for r in rules if r["id"] == "ROC101")
    assert "Why it breaks on ROCm" in roc101["help"]["text"] and roc101["help"]["markdown"]
    assert roc101["fullDescription"]["text"] and roc101["shortDescription"]["text"]
    assert roc101["helpUri"] == "http://testserver" + reverse("catalogue:rule", args=["ROC101"])
    results = {
        (
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
        ): r
        for r in run["results"]
    }
    assert set(results) == {("src/k.cu", 3), ("src/k.cu", 9), ("src/k.cu", 12), ("CMakeLists.txt", 2)}
    for (path, line), result in results.items():
        row = Finding.objects.get(path=path, line=line)
        assert result["partialFingerprints"] == {
            "rocportContentHash/v1": row.fingerprint,
            "rocportIdentity/v1": f"{row.fingerprint}:{row.occurrence}",
        }
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"] == row.rule
        assert result["level"] == "error"  # severity high
        assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"] == "SRCROOT"
    assert results[("src/k.cu", 9)]["suppressions"] == [
        {"kind": "external", "status": "accepted", "justification": "lane is warpSize-strided"}
    ]
    assert results[("src/k.cu", 12)]["suppressions"] == [{"kind": "inSource"}]
    assert "suppressions" not in results[("src/k.cu", 3)]
    assert run["versionControlProvenance"] == [
        {"repositoryUri": "https://example.com/gpu/kernels.git", "revisionId": "1" * 40, "branch": "main"}
    ]


@pytest.mark.django_db
def test_an_older_scans_export_shows_the_findings_as_that_scan_left_them(people, repository):
    a, b, c = finding(line=3), finding(line=5), finding(line=7)
    first = uploaded(people, repository, file("src/k.cu", a, b))
    second = uploaded(people, repository, file("src/k.cu", a, c), commit="2" * 40)  # b fixed, c new

    def lines(scan, kind="sarif", **query):
        if kind == "sarif":
            return sorted(
                r["locations"][0]["physicalLocation"]["region"]["startLine"]
                for r in json.loads(body(client_for(people.bob).get(url(scan, kind))))["runs"][0]["results"]
            )
        rows = csv.DictReader(io.StringIO(body(client_for(people.bob).get(url(scan, kind), query))))
        return sorted((int(r["line"]), r["state"]) for r in rows)

    assert lines(first) == [3, 5]
    assert lines(second) == [3, 7]
    assert lines(second, "csv", state="fixed") == [(5, "fixed")]
    assert lines(second, "csv", state="all") == [(3, "open"), (5, "fixed"), (7, "open")]
    assert lines(first, "csv", state="all") == [(3, "open"), (5, "open")]  # 7 did not exist yet


@pytest.mark.django_db
def test_csv_and_json_follow_the_findings_list_filters(people, repository):
    scan = uploaded(
        people,
        repository,
        file(
            "src/a.cu",
            finding(line=1),
            finding("ROC120", line=2, severity="medium"),
            finding(line=3, risk="performance"),
        ),
        file("tools/b.cu", finding(line=4), finding("ROC120", line=5)),
    )
    do_triage_findings(Finding.objects.filter(line__in=(1, 4)), "confirmed", "", acting_user=people.bob)
    client = client_for(people.bob)
    cases = [
        {"rule": "ROC120"},
        {"severity": "medium"},
        {"path": "tools/"},
        {"triage": "confirmed"},
        {"risk": "performance"},
        {"path": "src/", "sort": "path"},
        {},
    ]
    for query in cases:
        filters = queries.Filters.from_query(query)
        expected = [
            f.pk for f in queries.ordered(queries.filtered([people.team.pk], filters, people.bob), filters.sort)
        ]
        rows = list(csv.DictReader(io.StringIO(body(client.get(url(scan, "csv"), query)))))
        assert [int(r["id"]) for r in rows] == expected, query
        data = json.loads(body(client.get(url(scan, "json"), query)))
        assert [f["id"] for f in data["findings"]] == expected, query
        assert data["filters"] == filters.as_query() and data["scan"]["id"] == scan.pk
    assert expected and rows[0]["path"] and rows[0]["url"].endswith(f"/findings/{rows[0]['id']}/")


@pytest.mark.django_db
def test_csv_cells_that_a_spreadsheet_would_run_are_quoted(people, repository):
    hostile = ['=HYPERLINK("http://evil.example","x")', "+1+2", "-arch=sm_80", "@SUM(A1:A2)", "\tTAB"]
    scan = uploaded(
        people,
        repository,
        file(
            "src/k.cu",
            *[finding(line=i + 1, text=f"code {i}", message=text, snippet=text) for i, text in enumerate(hostile)],
        ),
    )
    rows = list(csv.DictReader(io.StringIO(body(client_for(people.bob).get(url(scan, "csv"), {"sort": "path"})))))
    assert [r["message"] for r in rows] == ["'" + text for text in hostile]
    assert [r["snippet"] for r in rows] == ["'" + text for text in hostile]
    assert [r["line"] for r in rows] == ["1", "2", "3", "4", "5"]  # numbers are left alone


@pytest.mark.django_db
def test_downloads_stream_in_keyset_chunks(people, repository):
    scan = Scan.objects.create(repository=repository, branch="main", status="finished", commit_sha="a" * 40)
    count = exports.CHUNK * 2 + 17
    Finding.objects.bulk_create(
        [
            Finding(
                repository=repository,
                branch="main",
                path=f"src/f{i % 9}.cu",
                rule="ROC101",
                fingerprint=f"{i:032x}",
                name="rule",
                risk="performance",
                severity="low",
                severity_rank=SEVERITY_RANK["low"],
                line=i + 1,
                message=f"m{i}",
                first_seen=scan,
                last_seen=scan,
            )
            for i in range(count)
        ]
    )
    for kind in ("csv", "json", "sarif"):
        response = client_for(people.bob).get(url(scan, kind))
        assert isinstance(response, StreamingHttpResponse)
        with CaptureQueriesContext(connection) as queried:
            parts = list(response.streaming_content)
        chunk_queries = [
            q["sql"]
            for q in queried.captured_queries
            if 'FROM "findings_finding"' in q["sql"] and f"LIMIT {exports.CHUNK}" in q["sql"]
        ]
        assert len(chunk_queries) == 3, kind  # 1000 + 1000 + 17 rows: one keyset query each
        # The newest scan's open findings are the current open ones: no per-row look into the events.
        assert not any("findings_findingevent" in sql for sql in chunk_queries), kind
        assert len(parts) >= 4, kind  # the head, then one piece per chunk
        text = b"".join(parts).decode()
        if kind == "csv":
            ids = [int(r["id"]) for r in csv.DictReader(io.StringIO(text))]
        elif kind == "json":
            ids = [f["id"] for f in json.loads(text)["findings"]]
        else:
            ids = [
                int(r["properties"]["findingUri"].rstrip("/").rsplit("/", 1)[1])
                for r in json.loads(text)["runs"][0]["results"]
            ]
        assert len(ids) == count and len(set(ids)) == count, kind


@pytest.mark.django_db
def test_another_teams_scan_is_not_found_with_a_session_or_a_token(people, repository):
    scan = uploaded(people, repository, file("src/k.cu", finding()))
    for kind in ("sarif", "csv", "json"):
        assert client_for(people.charlie).get(url(scan, kind)).status_code == 404
        assert bearer(token(people.charlie)).get(url(scan, kind)).status_code == 404
        assert client_for(people.bob).get(url(scan.pk + 1000, kind)).status_code == 404
        assert bearer(token(people.vera, read_only=True)).get(url(scan, kind)).status_code == 200
    assert client_for(people.bob).get(url(scan, "xlsx")).status_code == 404
    assert client_for(people.bob).post(url(scan, "csv")).status_code == 405


@pytest.mark.django_db
def test_a_bad_token_is_refused_and_no_credentials_lead_to_the_login_page(people, repository):
    scan = uploaded(people, repository, file("src/k.cu", finding()))
    refused = bearer("rp_not-a-real-token").get(url(scan, "csv"))
    assert refused.status_code == 401 and refused["WWW-Authenticate"].startswith("Bearer")
    anonymous = Client().get(url(scan, "csv"))
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))


@pytest.mark.django_db
def test_an_unfinished_scan_has_nothing_to_download(people, repository):
    scan = Scan.objects.create(repository=repository, branch="main", status="scanning")
    response = client_for(people.bob).get(url(scan, "sarif"))
    assert response.status_code == 409 and b"not finished" in response.content


@pytest.mark.django_db
def test_the_download_name_is_a_safe_file_name(people):
    repository = Repository.objects.create(
        team=people.team, name='evil"; name=..\\..\\x\r\n.sh ü', clone_url="https://example.com/gpu/evil.git"
    )
    scan = uploaded(people, repository, file("src/k.cu", finding()))
    disposition = client_for(people.bob).get(url(scan, "csv"))["Content-Disposition"]
    assert disposition == f'attachment; filename="rocport-evil-name-..-..-x-.sh-scan-{scan.pk}.csv"'


@pytest.mark.django_db
def test_the_scan_page_links_to_the_downloads(people, repository):
    scan = uploaded(people, repository, file("src/k.cu", finding()))
    page = client_for(people.vera).get(reverse("scans:detail", args=[scan.pk])).content.decode()
    for kind in ("sarif", "csv", "json"):
        assert f'href="{url(scan, kind)}"' in page
    unfinished = Scan.objects.create(repository=repository, branch="main", status="queued")
    assert (
        url(unfinished, "csv")
        not in client_for(people.vera).get(reverse("scans:detail", args=[unfinished.pk])).content.decode()
    )
