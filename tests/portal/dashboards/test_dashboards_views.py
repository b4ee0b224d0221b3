"""The portfolio and the repository dashboard: figures from scans, findings and parsed files, roles, team
isolation, htmx partials both ways, the scan form's CSRF, a constant number of queries, and one dashboard built
by the real scan pipeline."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from portal.accounts.models import Membership
from portal.files.models import TranslationReview
from portal.findings import ownership
from portal.findings.models import SEVERITY_RANK, Finding
from portal.reporting import charts, effort, figures, metrics, rollups
from portal.repositories.models import Repository
from portal.scans.models import Scan, ScannedFile
from scanner.translate.builtin import BuiltinTranslator
from tests.portal.htmx import HTMX, fragment, varies_on_htmx
from tests.portal.people import client_for

# 6 CUDA references with a HIP equivalent and one without (cuCtxGetExecAffinity), per the real translator
KERNEL = """#include <cuda_runtime.h>
#include <cusparse.h>
__global__ void k(float *x) { x[threadIdx.x % 32] = warpSize; }
int main() { float *d; cudaMalloc(&d, 4); cudaGraphInstantiateWithParams(0,0,0); cudaFree(d); cudaProfilerStart();
             cuCtxGetExecAffinity(0,0); }
"""
CLEAN = "#include <cuda_runtime.h>\nint main() { float *d; cudaMalloc(&d, 4); cudaFree(d); }\n"
CODEOWNERS = "*.cu @gpu-team\n/src/blas/ @blas-owners  # the later rule wins for these paths\n"


def add_scan(
    repository,
    files: dict[str, tuple[str, str, str]],
    *,
    age_days: int = 0,
    status: str = "finished",
    branch: str = "",
    tracking: dict | None = None,
) -> Scan:
    """A scan whose ScannedFiles carry the real translator's statistics, a summary written the way the
    pipeline's _summary writes it (open counts of the branch now, translation totals, parse modes), and the
    branch's rollup rebuilt as ingestion does.
    files: path -> (source, parse mode, error)."""
    branch = branch or repository.default_branch
    created = timezone.now() - timedelta(days=age_days)
    scan = Scan.objects.create(
        repository=repository,
        branch=branch,
        status=status,
        commit_sha=f"{age_days:040d}",
        created=created,
        finished=created if status == "finished" else None,
    )
    converted = unconverted = 0
    modes: dict[str, int] = {}
    for path, (source, mode, error) in files.items():
        stats = {"lines": source.count("\n")}
        if mode not in ("error", "text"):
            result = BuiltinTranslator().translate(path, source)
            stats["translation"] = {
                "converted": result.stats.converted,
                "unconverted": result.stats.unconverted,
                "changed_lines": 1,
            }
            converted += result.stats.converted
            unconverted += result.stats.unconverted
        modes[mode] = modes.get(mode, 0) + 1
        ScannedFile.objects.create(
            scan=scan, path=path, blob_sha="b" * 40, language="cuda", parse_mode=mode, error=error, stats=stats
        )
    if status == "finished":
        open_by_risk: dict[str, int] = {}
        for risk in Finding.objects.filter(repository=repository, branch=branch, state="open").values_list(
            "risk", flat=True
        ):
            open_by_risk[risk] = open_by_risk.get(risk, 0) + 1
        scan.summary = {
            "tracking": tracking or {"new": 0, "fixed": 0, "reopened": 0},
            "parse_modes": modes,
            "open_by_risk": open_by_risk,
            "files": len(files),
            "translation": {"converted": converted, "unconverted": unconverted},
        }
        scan.save(update_fields=["summary"])
        rollups.refresh_after_ingest(scan)  # as tracking.ingest leaves the branch: its rollup at this scan
    return scan


def add_findings(repository, scan, specs, branch: str = "") -> None:
    """specs: (path, rule, risk, severity, triage, state)."""
    Finding.objects.bulk_create(
        Finding(
            repository=repository,
            branch=branch or repository.default_branch,
            path=path,
            rule=rule,
            fingerprint=f"{repository.pk}-{i:030d}",
            name=f"name-{rule}",
            risk=risk,
            severity=severity,
            severity_rank=SEVERITY_RANK[severity],
            line=i + 1,
            message=f"message {i}",
            first_seen=scan,
            last_seen=scan,
            triage=triage,
            state=state,
        )
        for i, (path, rule, risk, severity, triage, state) in enumerate(specs)
    )


FINDINGS = [
    ("src/blas/gemm.cu", "ROC101", "silent-wrong-result", "critical", "untriaged", "open"),  # 8 × 1.5 = 12 h
    ("src/blas/gemm.cu", "ROC101", "silent-wrong-result", "high", "untriaged", "open"),  # 4 × 1.5 = 6 h
    ("src/blas/gemm.cu", "ROC150", "build-break", "low", "false_positive", "open"),  # dismissed: 0 h
    ("src/k.cu", "ROC150", "build-break", "medium", "untriaged", "open"),  # 2 h
    ("src/k.cu", "ROC120", "performance", "low", "untriaged", "fixed"),  # fixed: not open
]


@pytest.fixture
def repository(people):
    repository = Repository.objects.create(
        team=people.team,
        name="kernels",
        clone_url="https://example.com/k.git",
        tracked_branches=["develop"],
        codeowners=CODEOWNERS,
    )
    old = add_scan(repository, {"src/k.cu": (KERNEL, "ast", ""), "src/old.cu": (KERNEL, "ast", "")}, age_days=9)
    add_findings(repository, old, FINDINGS)
    # as it was written then: the performance finding was fixed by the newer scan
    old.summary["open_by_risk"] = {"silent-wrong-result": 2, "build-break": 2, "performance": 1}
    old.save(update_fields=["summary"])
    add_scan(
        repository,
        {
            "src/k.cu": (KERNEL, "ast", ""),
            "src/blas/gemm.cu": (KERNEL, "ast-stubbed", ""),
            "src/broken.cu": ("int x = ;\n", "tokens", "libclang: expected expression"),
            "src/huge.cu": ("", "error", "file larger than max_file_bytes"),
            "CMakeLists.txt": ("project(x CUDA)\n", "text", ""),
        },
        age_days=2,
        tracking={"new": 3, "fixed": 1, "reopened": 2},
    )
    return repository


# --- access ----------------------------------------------------------------------------------------------------


def urls(repository) -> list[str]:
    return [
        reverse("dashboards:portfolio"),
        reverse("dashboards:repository", args=[repository.pk]),
        reverse("dashboards:branches", args=[repository.pk]),
    ]


@pytest.mark.django_db
def test_every_view_needs_a_login(repository):
    for url in urls(repository):
        response = Client().get(url)
        assert response.status_code == 302 and reverse("login") in response["Location"], url


@pytest.mark.django_db
def test_wrong_methods_get_405(people, repository):
    alice = client_for(people.alice)
    for url in urls(repository):
        assert alice.post(url).status_code == 405, url


@pytest.mark.django_db
def test_another_team_and_unknown_ids_get_404(people, repository):
    charlie = client_for(people.charlie)
    assert charlie.get(reverse("dashboards:repository", args=[repository.pk])).status_code == 404
    assert charlie.get(reverse("dashboards:branches", args=[repository.pk]), headers=HTMX).status_code == 404
    alice = client_for(people.alice)
    assert alice.get(reverse("dashboards:repository", args=[99999])).status_code == 404
    assert alice.get(reverse("dashboards:branches", args=[99999]), headers=HTMX).status_code == 404
    portfolio = charlie.get(reverse("dashboards:portfolio"))
    assert portfolio.status_code == 200 and b"kernels" not in portfolio.content


@pytest.mark.django_db
@pytest.mark.parametrize("who, can_scan", [("vera", False), ("bob", True), ("alice", True)])
def test_every_member_reads_the_dashboard_and_engineers_get_the_scan_button(people, repository, who, can_scan):
    response = client_for(getattr(people, who)).get(reverse("dashboards:repository", args=[repository.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    scan_action = f'action="{reverse("repositories:scan", args=[repository.pk])}"'
    assert (scan_action in html) is can_scan
    assert f"{reverse('findings:list')}?repository={repository.pk}" in html
    assert reverse("repositories:settings", args=[repository.pk]) in html
    assert reverse("files:file", args=[repository.pk, "src/blas/gemm.cu"]) in html
    newest = Scan.objects.filter(repository=repository, status="finished").order_by("-created").first()
    assert reverse("scans:detail", args=[newest.pk]) in html


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["vera", "bob", "alice"])
def test_every_member_sees_the_portfolio_of_the_current_team(people, repository, who):
    response = client_for(getattr(people, who)).get(reverse("dashboards:portfolio"))
    assert response.status_code == 200
    assert reverse("dashboards:repository", args=[repository.pk]).encode() in response.content
    register = reverse("repositories:add", args=[people.team.pk]).encode()
    assert (register in response.content) is (who == "alice")


@pytest.mark.django_db
def test_the_portfolio_follows_the_team_switcher(people, repository):
    Membership.objects.create(user=people.bob, team=people.other_team, role="viewer")
    Repository.objects.create(team=people.other_team, name="other-repo", clone_url="https://example.com/o.git")
    bob = client_for(people.bob)
    session = bob.session
    session["team_id"] = people.other_team.pk
    session.save()
    html = bob.get(reverse("dashboards:portfolio")).content
    assert b"other-repo" in html and b"kernels" not in html


# --- the portfolio -----------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_portfolio_shows_progress_open_findings_and_the_newest_scan_of_the_default_branch(people, repository):
    # a newer failed scan does not replace the figures, but it is the newest scan shown; another branch is ignored
    failed = add_scan(repository, {}, status="failed")
    add_scan(repository, {"x.cu": (CLEAN, "ast", "")}, branch="develop")
    [row] = metrics.portfolio(people.team.pk)
    assert row.newest["pk"] == failed.pk and row.newest["status"] == "failed"
    # newest finished: k.cu and gemm.cu each 6 converted + 1 unconverted; broken.cu has no CUDA name
    assert (row.progress.converted, row.progress.unconverted) == (12, 2)
    assert row.open_by_risk == {"silent-wrong-result": 2, "build-break": 2}
    assert row.unparsed == 2
    html = client_for(people.vera).get(reverse("dashboards:portfolio")).content.decode()
    assert '<td class="num">85%</td>' in html  # translation coverage: 12 / 14, floored
    # migration progress is another figure: moved by the fixed and triaged findings of the fixture
    assert row.migration.known and 0 < row.migration.floor < 85 and row.migration.done > 0
    assert f'value="{row.migration.shown}" aria-label="Migration progress {repository.name}"' in html
    assert f"{reverse('findings:list')}?repository={repository.pk}&amp;risk=silent-wrong-result" in html
    assert reverse("scans:detail", args=[failed.pk]) in html and "status-failed" in html


@pytest.mark.django_db
def test_team_totals_add_up_every_repository(people, repository):
    second = Repository.objects.create(team=people.team, name="solver", clone_url="https://example.com/s.git")
    scan = add_scan(second, {"a.cu": (CLEAN, "ast", "")})
    add_findings(second, scan, [("a.cu", "ROC101", "runtime-failure", "high", "untriaged", "open")])
    add_scan(second, {"a.cu": (CLEAN, "ast", "")})
    Repository.objects.create(team=people.team, name="never-scanned", clone_url="https://example.com/n.git")
    totals = metrics.team_totals(metrics.portfolio(people.team.pk))
    assert totals["repositories"] == 3 and totals["scanned"] == 2
    assert totals["open_total"] == 5
    assert (totals["progress"].converted, totals["progress"].unconverted) == (15, 2)  # CLEAN: 3 converted
    assert dict((k, n) for k, _l, n in totals["parse_modes"])["tokens"] == 1
    assert totals["unparsed"] == 2


@pytest.mark.django_db
def test_the_portfolio_sorts_and_searches_from_the_query_string(people, repository):
    for name in ("alpha", "beta"):
        other = Repository.objects.create(team=people.team, name=name, clone_url=f"https://example.com/{name}.git")
        add_scan(other, {"a.cu": (CLEAN if name == "alpha" else KERNEL, "ast", "")})
    vera = client_for(people.vera)
    by_name = vera.get(reverse("dashboards:portfolio")).content.decode()
    assert by_name.index(">alpha<") < by_name.index(">beta<") < by_name.index(">kernels<")
    # alpha's one CUDA file has its translation approved: its migration is done; beta's has not started
    alpha = Repository.objects.get(name="alpha")
    TranslationReview.objects.create(repository=alpha, path="a.cu", blob_sha="b" * 40, state="ok")
    figures.after_review(alpha)
    by_progress = vera.get(reverse("dashboards:portfolio") + "?sort=progress").content.decode()
    assert by_progress.index(">beta<") < by_progress.index(">alpha<")  # 0% before 100%
    searched = vera.get(reverse("dashboards:portfolio") + "?q=ALP").content.decode()
    assert ">alpha<" in searched and ">beta<" not in searched
    nothing = vera.get(reverse("dashboards:portfolio") + "?q=zzz").content.decode()
    assert "Clear the search" in nothing
    assert vera.get(reverse("dashboards:portfolio") + "?sort=nonsense").status_code == 200


@pytest.mark.django_db
def test_the_portfolio_answers_htmx_with_the_results_partial_and_plain_requests_with_the_page(people, repository):
    vera = client_for(people.vera)
    partial = fragment(vera.get(reverse("dashboards:portfolio") + "?q=kern", headers=HTMX))
    assert partial.lstrip().startswith('<section id="results"') and "kernels" in partial
    page = vera.get(reverse("dashboards:portfolio") + "?q=kern")
    assert b"<html" in page.content and b'id="results"' in page.content
    assert varies_on_htmx(page)


@pytest.mark.django_db
def test_an_empty_team_gets_a_register_link_for_managers_only(people):
    register = reverse("repositories:add", args=[people.team.pk]).encode()
    manager = client_for(people.alice).get(reverse("dashboards:portfolio")).content
    assert b"has no repository yet" in manager and register in manager
    engineer = client_for(people.bob).get(reverse("dashboards:portfolio")).content
    assert b"has no repository yet" in engineer and register not in engineer
    loner = get_user_model().objects.create_user("loner", password="x")
    alone = client_for(loner).get(reverse("dashboards:portfolio"))
    assert alone.status_code == 200 and b"not a member of any team" in alone.content


# --- the repository dashboard ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_dashboard_shows_progress_tracking_and_the_breakdown_by_rule_and_risk(people, repository):
    response = client_for(people.vera).get(reverse("dashboards:repository", args=[repository.pk]))
    html = response.content.decode()
    assert "<title>kernels dashboard · ROCport</title>" in html
    assert "12 of 14 CUDA references have a HIP equivalent" in html and ">85%<" in html  # floor(85.7)
    newest = Scan.objects.filter(repository=repository, status="finished").order_by("-created").first()
    assert f"new_since={newest.pk}" in html
    assert re.search(r"<strong>3</strong> new", html) and re.search(r"<strong>2</strong> reopened", html)
    by_rule = {row["rule"]: row["n"] for row in response.context["found"].by_rule}
    assert by_rule == {"ROC101": 2, "ROC150": 2}
    assert f"{reverse('findings:list')}?repository={repository.pk}&amp;rule=ROC101" in html


@pytest.mark.django_db
def test_the_charts_are_svg_with_titles_patterns_and_a_table_to_read_instead(people, repository):
    html = client_for(people.vera).get(reverse("dashboards:repository", args=[repository.pk])).content.decode()
    assert html.count('role="img"') >= 4  # ring, burndown, unconverted, progress, parse bar
    assert 'aria-labelledby="burndown-title burndown-desc"' in html
    assert '<pattern id="pat-silent-wrong-result"' in html and 'fill="url(#pat-silent-wrong-result)"' in html
    assert "<details>" in html and "The trend as a table" in html
    table = html[html.index("The trend as a table") :]
    # oldest scan first: its open counts were written when every finding was open (2 silent, 2 build, 1 perf)
    assert re.search(
        r"<td class=\"num\">2</td><td class=\"num\">0</td><td class=\"num\">2</td>"
        r"<td class=\"num\">1</td><td class=\"num\">0</td><td class=\"num\">5</td>",
        table,
    )


@pytest.mark.django_db
def test_work_left_follows_the_formula_shown_on_the_page(people, repository):
    response = client_for(people.vera).get(reverse("dashboards:repository", args=[repository.pk]))
    files = {w.path: w for w in response.context["found"].files.values()}
    # findings: 12 + 6 (the false positive is dismissed); 1 unconverted reference × 0.5
    assert files["src/blas/gemm.cu"].hours == pytest.approx(12 + 6 + 0.5)
    assert files["src/k.cu"].hours == pytest.approx(2 + 0.5)
    assert files["src/broken.cu"].hours == pytest.approx(effort.PARSE_PENALTY["tokens"])
    assert files["src/huge.cu"].hours == pytest.approx(effort.PARSE_PENALTY["error"])
    estimate = response.context["estimate"]
    assert estimate["hours"] == pytest.approx(18.5 + 2.5 + 2 + 4)
    ordered = [w.path for w in response.context["files"]]
    assert ordered[:2] == ["src/blas/gemm.cu", "src/k.cu"] or ordered[0] == "src/blas/gemm.cu"
    html = response.content.decode()
    assert "Σ" in html and "risk factor" in html and "27 hours" in html


@pytest.mark.django_db
def test_owners_come_from_codeowners_and_link_to_the_filtered_findings_list(people, repository):
    response = client_for(people.vera).get(reverse("dashboards:repository", args=[repository.pk]))
    owners = {o["owner"]: o for o in response.context["owners"]["owners"]}
    assert owners["@blas-owners"]["open"] == 3 and owners["@gpu-team"]["open"] == 1  # last matching rule wins
    assert "@gpu-team" in owners and owners["@gpu-team"]["files"] == 3  # k.cu, broken.cu, huge.cu
    assert "owner=%40blas-owners" in response.content.decode()
    repository.codeowners = ""
    repository.save()
    html = client_for(people.vera).get(reverse("dashboards:repository", args=[repository.pk])).content
    assert b"No CODEOWNERS file" in html


@pytest.mark.django_db
def test_parse_health_lists_the_files_read_as_tokens_or_failed_with_their_error(people, repository):
    response = client_for(people.vera).get(reverse("dashboards:repository", args=[repository.pk]))
    health = response.context["health"]
    assert dict((m, n) for m, _l, n in health["modes"]) == {
        "ast": 1,
        "ast-stubbed": 1,
        "text": 1,
        "tokens": 1,
        "error": 1,
    }
    html = response.content.decode()
    assert "libclang: expected expression" in html and "file larger than max_file_bytes" in html
    assert "2 files were not parsed" in html


@pytest.mark.django_db
def test_a_repository_without_a_finished_scan_gets_an_empty_state(people):
    empty = Repository.objects.create(team=people.team, name="fresh", clone_url="https://example.com/f.git")
    add_scan(empty, {}, status="queued")
    bob = client_for(people.bob).get(reverse("dashboards:repository", args=[empty.pk])).content.decode()
    assert "No finished scan of main yet" in bob and "Scan now" in bob
    vera = client_for(people.vera).get(reverse("dashboards:repository", args=[empty.pk])).content.decode()
    assert "An engineer of the team can start one" in vera


@pytest.mark.django_db
def test_the_branches_partial_polls_while_a_scan_runs_then_reloads_the_page(people, repository):
    url = reverse("dashboards:branches", args=[repository.pk])
    vera = client_for(people.vera)
    idle = vera.get(url, headers=HTMX)
    assert idle.status_code == 200 and idle["HX-Refresh"] == "true"
    running = add_scan(repository, {}, status="scanning", branch="develop")
    page = vera.get(reverse("dashboards:repository", args=[repository.pk])).content.decode()
    assert f'hx-get="{url}"' in page
    partial = vera.get(url, headers=HTMX)
    assert partial.status_code == 200 and partial.content.lstrip().startswith(b'<section id="branches"')
    assert reverse("scans:detail", args=[running.pk]).encode() in partial.content
    plain = vera.get(url)
    assert plain.status_code == 302 and plain["Location"].endswith("/dashboard/#branches")


@pytest.mark.django_db
def test_the_scan_button_needs_a_csrf_token(people, repository):
    strict = client_for(people.bob, enforce_csrf_checks=True)
    page = strict.get(reverse("dashboards:repository", args=[repository.pk])).content.decode()
    url = reverse("repositories:scan", args=[repository.pk])
    assert strict.post(url, {"branch": "develop"}).status_code == 403
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    assert strict.post(url, {"branch": "develop", "csrfmiddlewaretoken": token}).status_code == 302
    assert Scan.objects.filter(repository=repository, branch="develop", status="queued").count() == 1


# --- cost ------------------------------------------------------------------------------------------------------


def count_queries(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


@pytest.mark.django_db
def test_the_query_count_does_not_grow_with_repositories_scans_or_findings(people, repository):
    vera = client_for(people.vera)
    dashboard = reverse("dashboards:repository", args=[repository.pk])
    portfolio_before = count_queries(vera, reverse("dashboards:portfolio"))
    dashboard_before = count_queries(vera, dashboard)
    for i in range(6):
        other = Repository.objects.create(team=people.team, name=f"more-{i}", clone_url=f"https://e.com/{i}.git")
        add_scan(other, {"a.cu": (KERNEL, "ast", "")})
        add_scan(other, {"a.cu": (KERNEL, "ast", "")}, status="failed")
    scan = add_scan(repository, {f"src/m{i}.cu": (CLEAN, "tokens", "bad") for i in range(5)})
    add_findings(
        repository,
        scan,
        [
            (
                f"src/m{i % 9}.cu",
                f"ROC1{i % 30:02d}",
                metrics.RISKS[i % 5][0],
                ("critical", "high", "medium", "low")[i % 4],
                "untriaged",
                "open",
            )
            for i in range(300)
        ],
        branch="main",
    )
    for _ in range(3):
        add_scan(repository, {"src/k.cu": (KERNEL, "ast", "")})
    assert count_queries(vera, reverse("dashboards:portfolio")) == portfolio_before
    assert count_queries(vera, dashboard) == dashboard_before
    # the portfolio: 5 + the team's progress history (2) and the scans that re-rated findings (1); the dashboard:
    # 13 + reviews, history (3) and where it is stuck (up to 4: assignees, the newest scan before the cutoff, the
    # old findings' count and rows)
    assert portfolio_before <= 8 and dashboard_before <= 21


# --- the pieces ------------------------------------------------------------------------------------------------


def test_the_owner_matcher_agrees_with_codeowners_last_match_wins():
    rules = ownership.parse("* @all\n*.cu @cuda\n/src/ @src\nsrc/blas/*.cu @blas\ndocs/ @docs\n")
    matcher = metrics._owner_matcher(rules)
    for path in ("README.md", "a.cu", "src/x.cpp", "src/blas/g.cu", "src/blas/sub/g.cu", "docs/a.cu", "x/src/a.h"):
        assert matcher(path) == ownership.owners_of(path, rules), path


def test_chart_geometry_stays_inside_the_plot_and_ticks_are_round():
    assert charts.nice_ticks(87) == [0, 25, 50, 75, 100] or charts.nice_ticks(87)[-1] >= 87
    assert charts.nice_ticks(0) == [0, 1]
    chart = charts.stacked_columns(
        [("a", {"x": 3, "y": 1}), ("b", {"x": 0, "y": 0}), ("c", {"y": 7})], [("x", "X"), ("y", "Y")]
    )
    tops = [s.y for c in chart.columns for s in c.segments]
    assert min(tops) >= charts.TOP and all(c.x + c.width <= charts.WIDTH - charts.RIGHT for c in chart.columns)
    assert [key for key, _d in chart.paths] == ["x", "y"]
    assert "7 open findings" in chart.columns[2].title
    assert charts.ring(99.97).text == "99%" and charts.ring(None).text == "–" and charts.ring(100).text == "100%"
    bar = charts.stacked_bar([("a", "A", 1), ("b", "B", 0), ("c", "C", 3)])
    assert [(p.key, p.x, p.width) for p in bar] == [("a", 0, 25), ("c", 25, 75)]
    line = charts.line_chart([("a", 0), ("b", 50)], percent=True)
    assert line.path.startswith("M") and line.points[1].text == "50%"


def test_the_effort_weights_rank_silent_wrong_results_above_deprecations():
    assert effort.weight("high", "silent-wrong-result") > effort.weight("high", "deprecation")
    assert effort.repository_hours([("build-break", "medium", 2)], 4, {"tokens": 1, "ast": 9}) == pytest.approx(
        2 * 2 + 4 * effort.UNCONVERTED_HOURS + effort.PARSE_PENALTY["tokens"]
    )


# --- the real pipeline ----------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_dashboard_built_by_the_real_scan_pipeline(people, repo_factory):
    from portal.scans.actions import do_create_scan
    from portal.scans.pipeline import runner as pipeline

    repo = repo_factory()
    commit = repo.commit("port", **{"src__k.cu": KERNEL, "CODEOWNERS": "*.cu @gpu-team\n"})
    row = Repository.objects.create(team=people.team, name="real", clone_url=repo.url)
    scan = do_create_scan(row, branch="main", commit_sha=commit, enqueue=False)
    pipeline.run(scan.pk)
    scan.refresh_from_db()
    assert scan.status == "finished", scan.error_message
    response = client_for(people.vera).get(reverse("dashboards:repository", args=[row.pk]))
    assert response.status_code == 200
    assert response.context["progress"].unconverted >= 1 and response.context["progress"].converted >= 1
    owners = {o["owner"]: o for o in response.context["owners"]["owners"]}
    assert owners["@gpu-team"]["open"] == Finding.objects.filter(repository=row, state="open").count() > 0
    [portfolio_row] = [r for r in metrics.portfolio(people.team.pk) if r.repository.pk == row.pk]
    assert portfolio_row.open_total == owners["@gpu-team"]["open"]
    assert portfolio_row.progress.percent == response.context["progress"].percent


@pytest.mark.django_db
def test_a_stubbed_file_with_findings_but_nothing_unconverted_shows_its_parse_mode(people, repository):
    newest = add_scan(repository, {"src/stubbed.cu": (CLEAN, "ast-stubbed", "")}, tracking={"new": 1})
    add_findings(repository, newest, [("src/stubbed.cu", "ROC150", "build-break", "medium", "untriaged", "open")])
    rollups.refresh_after_ingest(newest)
    response = client_for(people.vera).get(reverse("dashboards:repository", args=[repository.pk]))
    [work] = [w for w in response.context["files"] if w.path == "src/stubbed.cu"]
    assert work.parse_mode == "ast-stubbed"
    row = response.content.decode().split("src/stubbed.cu", 2)[-1].split("</tr>", 1)[0]
    assert 'class="badge mode-ast-stubbed"' in row


@pytest.mark.django_db
def test_the_trend_chart_shows_the_headline_percentage_floored_not_rounded(people, repository):
    # 947 of 1,000 references converted: 94.7%, which rounds to 95 and floors to 94
    scan = Scan.objects.filter(repository=repository, status="finished").order_by("-created").first()
    scan.summary["translation"] = {"converted": 947, "unconverted": 53}
    scan.save(update_fields=["summary"])
    html = client_for(people.vera).get(reverse("dashboards:repository", args=[repository.pk])).content.decode()
    coverage = html[html.index('id="translation-coverage"') :]
    assert ">94%<" in coverage  # the coverage ring
    chart = html[html.index('id="progress-title"') :] if 'id="progress-title"' in html else html
    assert "95%" not in chart and "94%" in chart


@pytest.mark.django_db
def test_the_portfolio_and_the_dashboard_give_the_same_age_for_the_same_scan(people, repository):
    newest = Scan.objects.filter(repository=repository, status="finished").order_by("-created").first()
    Scan.objects.filter(pk=newest.pk).update(
        created=timezone.now() - timedelta(hours=5), finished=timezone.now() - timedelta(minutes=20)
    )
    portfolio = client_for(people.vera).get(reverse("dashboards:portfolio")).content.decode()
    dashboard = client_for(people.vera).get(reverse("dashboards:repository", args=[repository.pk])).content.decode()
    assert "20\xa0minutes ago" in dashboard and "20\xa0minutes ago" in portfolio
    assert "5\xa0hours ago" not in portfolio
