"""Findings built in code for view tests."""

from __future__ import annotations

from portal.findings.models import SEVERITY_RANK, Finding
from portal.repositories.models import Repository
from portal.scans.models import Scan

SEVERITIES = ("critical", "high", "medium", "low")
RISKS = ("silent-wrong-result", "build-break", "runtime-failure", "performance")


def make_findings(team, count: int, name: str = "kernels", path_prefix: str = "src/") -> tuple[Repository, Scan]:
    repository = Repository.objects.create(team=team, name=name, clone_url=f"https://example.com/{name}.git")
    scan = Scan.objects.create(repository=repository, branch="main", status="finished", commit_sha="a" * 40)
    rows = []
    for i in range(count):
        severity = SEVERITIES[i % 4]
        rows.append(
            Finding(
                repository=repository,
                branch="main",
                path=f"{path_prefix}f{i % 7}.cu",
                rule=f"ROC10{i % 3 + 1}",
                fingerprint=f"{i:032d}",
                occurrence=0,
                name="rule",
                risk=RISKS[i % 4],
                severity=severity,
                severity_rank=SEVERITY_RANK[severity],
                line=i + 1,
                message=f"message {i}",
                snippet=f"code {i};",
                first_seen=scan,
                last_seen=scan,
            )
        )
    Finding.objects.bulk_create(rows)
    return repository, scan
