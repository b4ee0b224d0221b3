"""The writers of a finished scan's findings as downloads (SARIF 2.1.0, CSV, JSON), each a stream of text chunks
read in keyset-ordered chunks (portal.scans.exports.findings): memory stays flat at a million findings.

CSV and JSON take the findings list's filters (the same query string, portal.findings.queries), `state` being the
state as of the scan ("open" unless given, "all" for both); SARIF takes none: code-scanning tools read a missing
result as fixed, so it carries every finding open as of the scan, dismissed ones as suppressions.

The `*_download` functions are the registry's writers (portal.scans.exports.formats), one signature for all:
(scan, user, query parameters, links) -> the stream. Each parses the filters and builds the findings' query before
it returns; only the rows are read while the response streams.
"""

from __future__ import annotations

import csv
import io
import json
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass

from django.db.models import QuerySet

from portal.findings import queries
from portal.findings.models import DISMISSED_TRIAGE, Finding
from portal.scans.exports.findings import SARIF_FILTERS, chunks, findings_as_of
from scanner.fingerprint import identity
from scanner.report.sarif import SCHEMA_URI, level, region_of, rule_descriptor
from scanner.rules import catalogue
from scanner.target import TargetProfile
from scanner.version import TOOL_VERSION

# CSV and JSON keys: stable identifiers for scripts and spreadsheets, so they are not translated.
FIELDS = (
    "id",
    "repository",
    "branch",
    "path",
    "line",
    "column",
    "end_line",
    "end_column",
    "rule",
    "name",
    "risk",
    "severity",
    "state",
    "triage",
    "triage_reason",
    "assignee",
    "suppressed",
    "message",
    "snippet",
    "fingerprint",
    "occurrence",
    "first_seen_scan",
    "last_seen_scan",
    "url",
)
# A cell starting with one of these is a formula to Excel, LibreOffice and Google Sheets (OWASP "CSV Injection").
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


@dataclass
class Links:
    """Absolute addresses written into exports (built once per request by the view)."""

    rules: str  # the rule catalogue
    rule_template: str  # a rule's page, with "{code}" in it
    finding_template: str  # a finding's page, with "{pk}" in it

    def rule(self, code: str) -> str:
        return self.rule_template.replace("{code}", urllib.parse.quote(code))

    def finding(self, pk: int) -> str:
        return self.finding_template.replace("{pk}", str(pk))


def sarif_download(scan, user, params, links: Links) -> Iterator[str]:
    return sarif_stream(scan, findings_as_of(scan, SARIF_FILTERS, user), links)


def csv_download(scan, user, params, links: Links) -> Iterator[str]:
    filters = queries.Filters.from_query(params)
    return csv_stream(scan, findings_as_of(scan, filters, user), filters.sort, links)


def json_download(scan, user, params, links: Links) -> Iterator[str]:
    filters = queries.Filters.from_query(params)
    return json_stream(scan, findings_as_of(scan, filters, user), filters, links)


def row(finding: Finding, scan, links: Links) -> dict:
    return {
        "id": finding.pk,
        "repository": scan.repository.name,
        "branch": finding.branch,
        "path": finding.path,
        "line": finding.line,
        "column": finding.column,
        "end_line": finding.end_line,
        "end_column": finding.end_column,
        "rule": finding.rule,
        "name": finding.name,
        "risk": finding.risk,
        "severity": finding.severity,
        "state": finding.state_at_scan,
        "triage": finding.triage,
        "triage_reason": finding.triage_reason,
        "assignee": finding.assignee.get_username() if finding.assignee else "",
        "suppressed": finding.suppressed,
        "message": finding.message,
        "snippet": finding.snippet,
        "fingerprint": finding.fingerprint,
        "occurrence": finding.occurrence,
        "first_seen_scan": finding.first_seen_id,
        "last_seen_scan": finding.last_seen_id,
        "url": links.finding(finding.pk),
    }


def csv_stream(scan, query: QuerySet, sort: str, links: Links) -> Iterator[str]:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(FIELDS)
    yield _drain(buffer)
    for rows in chunks(query, sort):
        for finding in rows:
            data = row(finding, scan, links)
            writer.writerow([safe_cell(data[key]) for key in FIELDS])
        yield _drain(buffer)


def safe_cell(value):
    """A text cell that a spreadsheet would run as a formula gets a leading quote; numbers stay numbers."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def json_stream(scan, query: QuerySet, filters: queries.Filters, links: Links) -> Iterator[str]:
    head = {"schema": "rocport-findings/1", "scan": _scan_facts(scan), "filters": filters.as_query()}
    yield json.dumps(head)[:-1] + ', "findings": [\n'
    first = True
    for rows in chunks(query, filters.sort):
        parts = [json.dumps(row(finding, scan, links)) for finding in rows]
        yield ("" if first else ",\n") + ",\n".join(parts)
        first = False
    yield "\n]}\n"


def sarif_stream(scan, query: QuerySet, links: Links) -> Iterator[str]:
    """One SARIF 2.1.0 run: the whole rule catalogue (with each rule's documentation and page), one result per
    finding with its repository-relative location and ROCport's fingerprints; inline suppressions and dismissing
    triage decisions become `suppressions`."""
    rules = list(catalogue().values())
    index = {rule.code: i for i, rule in enumerate(rules)}
    target = TargetProfile()  # the default targets; a repository's .rocport.toml may name others for its results
    descriptors = [dict(rule_descriptor(rule, target), helpUri=links.rule(rule.code)) for rule in rules]
    run = {
        "tool": {
            "driver": {"name": "ROCport", "version": TOOL_VERSION, "informationUri": links.rules, "rules": descriptors}
        },
        "originalUriBaseIds": {"SRCROOT": {"description": {"text": "The root of the repository."}}},
        "automationDetails": {"id": f"rocport/{scan.repository_id}/{scan.branch}/{scan.pk}"},
        "properties": {"scan": _scan_facts(scan)},
    }
    provenance = _provenance(scan)
    if provenance:
        run["versionControlProvenance"] = [provenance]
    invocation = {"executionSuccessful": True}
    if scan.finished:
        invocation["endTimeUtc"] = scan.finished.strftime("%Y-%m-%dT%H:%M:%SZ")
    run["invocations"] = [invocation]
    head = json.dumps({"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]})
    yield head[: -len("}]}")] + ', "results": [\n'  # the run stays open: results are streamed into it
    first = True
    for rows in chunks(query, SARIF_FILTERS.sort):
        parts = [json.dumps(sarif_result(finding, index, links)) for finding in rows]
        yield ("" if first else ",\n") + ",\n".join(parts)
        first = False
    yield "\n]}]}\n"


def sarif_result(finding: Finding, index: dict[str, int], links: Links) -> dict:
    location: dict = {"artifactLocation": {"uri": urllib.parse.quote(finding.path, safe="/"), "uriBaseId": "SRCROOT"}}
    region = _region(finding)
    if region:
        location["region"] = region
    out = {
        "ruleId": finding.rule,
        "level": level(finding.severity),
        "message": {"text": finding.message},
        "locations": [{"physicalLocation": location}],
        "partialFingerprints": {"rocportContentHash/v1": finding.fingerprint, "rocportIdentity/v1": identity(finding)},
        "properties": {
            "risk": finding.risk,
            "severity": finding.severity,
            "triage": finding.triage,
            "findingUri": links.finding(finding.pk),
        },
    }
    if finding.rule in index:  # a rule retired since the scan keeps its id, without an index
        out["ruleIndex"] = index[finding.rule]
    suppressions = []
    if finding.suppressed:
        suppressions.append({"kind": "inSource"})
    if finding.triage in DISMISSED_TRIAGE:
        suppressions.append(
            {
                "kind": "external",
                "status": "accepted",
                "justification": finding.triage_reason or str(finding.get_triage_display()),
            }
        )
    if suppressions:
        out["suppressions"] = suppressions
    return out


def _region(finding: Finding) -> dict:
    # A repository-level finding (path ".") has its line in the file that locates it, which is not stored.
    if finding.path == "." or finding.line < 1:
        return {}
    return region_of(finding.line, finding.column, finding.end_line, finding.end_column, finding.snippet)


def _provenance(scan) -> dict:
    """The repository and commit, when the clone URL is a URI (not scp-like `git@host:path`); no credentials."""
    parts = urllib.parse.urlsplit(scan.repository.clone_url)
    if parts.scheme not in ("https", "http", "ssh", "git") or not parts.hostname or not scan.commit_sha:
        return {}
    host = f"{parts.hostname}:{parts.port}" if parts.port else parts.hostname
    return {
        "repositoryUri": urllib.parse.urlunsplit((parts.scheme, host, parts.path, "", "")),
        "revisionId": scan.commit_sha,
        "branch": scan.branch,
    }


def _scan_facts(scan) -> dict:
    return {
        "id": scan.pk,
        "repository": scan.repository.name,
        "repository_id": scan.repository_id,
        "branch": scan.branch,
        "commit": scan.commit_sha,
        "trigger": scan.trigger,
        "finished": scan.finished.isoformat() if scan.finished else None,
    }


def _drain(buffer: io.StringIO) -> str:
    text = buffer.getvalue()
    buffer.seek(0)
    buffer.truncate(0)
    return text
