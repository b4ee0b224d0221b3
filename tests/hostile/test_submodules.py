"""Hostile submodules: a `.gitmodules` that points out of the tree, a URL that would run a command, a submodule too
large to fetch, more entries than anyone needs. Each is refused with a reason the scan records (Scan.submodules),
the scan itself finishes, nothing runs, and a well-behaved submodule beside them is still fetched."""

from __future__ import annotations

import pytest
from django.test import override_settings

from portal.findings.models import Finding
from portal.scans.models import BlobResult
from scanner.submodules import url_problem
from tests.hostile.harness import FILE, GITLINK, fast_import, files_of, register, run_scan

KERNEL = "__global__ void k(float *x) { x[threadIdx.x % 32] = warpSize; }\n"
HEADER = "#pragma once\nnamespace vendor { inline int answer() { return 42; } }\n"


def _by_path(scan) -> dict[str, dict]:
    return {entry["path"]: entry for entry in scan.submodules}


@pytest.mark.django_db
def test_escaping_paths_and_command_urls_are_refused_and_named(people, repo_factory, canary):
    good = repo_factory("good")
    good_commit = fast_import(good, [("include/vendor/api.h", FILE, HEADER)])
    hostile = repo_factory("hostile")
    pinned = good_commit
    gitmodules = "\n".join(
        [
            '[submodule "good"]',
            "\tpath = third_party/good",
            f"\turl = {good.url}",
            '[submodule "escape"]',
            "\tpath = ../../escape",
            f"\turl = {good.url}",
            '[submodule "absolute"]',
            f"\tpath = {canary.root}",
            f"\turl = {good.url}",
            '[submodule "dotgit"]',
            "\tpath = .git/hooks",
            f"\turl = {good.url}",
            '[submodule "ext"]',
            "\tpath = third_party/ext",
            f"\turl = ext::sh -c {canary.command().replace(' ', '% ')}",
            "",
        ]
    )
    commit = fast_import(
        hostile,
        [
            (".gitmodules", FILE, gitmodules),
            ("k.cu", FILE, "#include <vendor/api.h>\n#include <ext/api.h>\n" + KERNEL),
            ("third_party/good", GITLINK, pinned),
            ("third_party/ext", GITLINK, pinned),
        ],
    )
    scan = run_scan(register(people, hostile.url), commit=commit)
    assert scan.status == "finished", scan.error_message
    outcomes = _by_path(scan)
    assert outcomes["third_party/good"]["fetched"] is True
    assert "leaves the repository" in outcomes["../../escape"]["reason"]
    assert "is absolute" in outcomes[str(canary.root)]["reason"]
    assert ".git folder" in outcomes[".git/hooks"]["reason"]
    assert "remote helper" in outcomes["third_party/ext"]["reason"]
    assert not canary.marker.exists()
    files = files_of(scan)
    assert set(files) == {"k.cu"}  # the fetched submodules' files are read as headers, never reported
    parse = BlobResult.objects.get(blob_sha=files["k.cu"].blob_sha).result["parse"]
    assert "vendor/api.h" not in parse["stubbed_headers"]  # found in the fetched submodule
    assert "submodule third_party/ext was not fetched: " in parse["fallback_reason"]
    assert not Finding.objects.filter(repository=scan.repository, path__startswith="third_party/").exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "line,refusal",
    [("url = --upload-pack={}", "disallowed submodule url"), ("update = !{}", "disallowed submodule update")],
)
def test_an_option_url_or_update_command_fails_the_clone_itself_clearly(people, repo_factory, canary, line, refusal):
    """git's own object checks (transfer.fsckObjects) refuse a commit whose .gitmodules holds an option for a URL
    or a command to run on update: the scan fails naming .gitmodules, and nothing runs."""
    project = repo_factory("project")
    gitmodules = f'[submodule "x"]\n\tpath = third_party/x\n\turl = ../x.git\n\t{line.format(canary.command())}\n'
    commit = fast_import(project, [(".gitmodules", FILE, gitmodules), ("k.cu", FILE, KERNEL)])
    scan = run_scan(register(people, project.url), commit=commit)
    assert scan.status == "failed"
    assert "its .gitmodules is unsafe" in scan.error_message and refusal in scan.error_message
    assert not canary.marker.exists()
    # The scanner's own reader refuses an option URL too (the CLI, and a git without the check)
    assert "starts with '-'" in url_problem(f"--upload-pack={canary.command()}")


@pytest.mark.django_db
@override_settings(ROCPORT_SUBMODULE_MAX_BYTES=64 * 1024)
def test_a_huge_submodule_is_refused_before_checkout_and_the_scan_goes_on(people, repo_factory):
    huge = repo_factory("huge")
    huge_commit = fast_import(huge, [("blob.h", FILE, "// " + "x" * 200_000 + "\n")])
    project = repo_factory("project")
    gitmodules = f'[submodule "huge"]\n\tpath = third_party/huge\n\turl = {huge.url}\n'
    commit = fast_import(
        project,
        [(".gitmodules", FILE, gitmodules), ("k.cu", FILE, KERNEL), ("third_party/huge", GITLINK, huge_commit)],
    )
    scan = run_scan(register(people, project.url), commit=commit)
    assert scan.status == "finished", scan.error_message
    outcome = _by_path(scan)["third_party/huge"]
    assert outcome["fetched"] is False
    assert "ROCPORT_SUBMODULE_MAX_BYTES" in outcome["reason"], outcome


@pytest.mark.django_db
@override_settings(ROCPORT_SUBMODULES_MAX=2)
def test_more_submodules_than_the_limit_are_named_not_fetched(people, repo_factory):
    dep = repo_factory("dep")
    dep_commit = fast_import(dep, [("a.h", FILE, HEADER)])
    project = repo_factory("project")
    entries = [("k.cu", FILE, KERNEL)]
    sections = []
    for n in range(5):
        sections.append(f'[submodule "d{n}"]\n\tpath = deps/d{n}\n\turl = {dep.url}\n')
        entries.append((f"deps/d{n}", GITLINK, dep_commit))
    commit = fast_import(project, [(".gitmodules", FILE, "".join(sections)), *entries])
    scan = run_scan(register(people, project.url), commit=commit)
    assert scan.status == "finished", scan.error_message
    fetched = [entry["fetched"] for entry in scan.submodules]
    assert fetched.count(True) == 2 and fetched.count(False) == 3
    assert all("ROCPORT_SUBMODULES_MAX" in e["reason"] for e in scan.submodules if not e["fetched"])


@pytest.mark.django_db
def test_nested_submodules_are_fetched_to_a_bounded_depth(people, repo_factory):
    """A library that vendors another as its own submodule: the nested one is fetched too, its relative URL
    resolved against the submodule's own URL, its files never reported. A chain deeper than MAX_DEPTH (here a
    repository that pins older commits of itself) stops at the limit with a reason instead of going on."""
    from portal.repositories.submodules import MAX_DEPTH

    inner = repo_factory("inner")
    inner_commit = fast_import(inner, [("include/inner/tile.h", FILE, HEADER)])
    middle = repo_factory("middle")
    middle_commit = fast_import(
        middle,
        [
            (".gitmodules", FILE, '[submodule "inner"]\n\tpath = deps/inner\n\turl = ../inner\n'),
            ("include/middle/api.h", FILE, "#pragma once\n#include <inner/tile.h>\n"),
            ("deps/inner", GITLINK, inner_commit),
        ],
    )
    project = repo_factory("project")
    commit = fast_import(
        project,
        [
            (".gitmodules", FILE, f'[submodule "middle"]\n\tpath = third_party/middle\n\turl = {middle.url}\n'),
            ("k.cu", FILE, KERNEL),
            ("third_party/middle", GITLINK, middle_commit),
        ],
    )
    scan = run_scan(register(people, project.url), commit=commit)
    assert scan.status == "finished", scan.error_message
    outcomes = _by_path(scan)
    assert outcomes["third_party/middle"]["fetched"] is True, outcomes
    nested = outcomes["third_party/middle/deps/inner"]
    assert nested["fetched"] is True and nested["url"] == inner.url, nested
    assert set(files_of(scan)) == {"k.cu"}
    assert not Finding.objects.filter(repository=scan.repository, path__startswith="third_party/").exists()

    chain = repo_factory("chain")
    pinned = fast_import(chain, [("include/chain/a.h", FILE, HEADER)], branch="level0")
    for level in range(1, MAX_DEPTH + 1):
        pinned = fast_import(
            chain,
            [
                (".gitmodules", FILE, f'[submodule "self"]\n\tpath = self\n\turl = {chain.url}\n'),
                ("include/chain/a.h", FILE, HEADER),
                ("self", GITLINK, pinned),
            ],
            branch=f"level{level}",
        )
    host = repo_factory("host")
    commit = fast_import(
        host,
        [
            (".gitmodules", FILE, f'[submodule "chain"]\n\tpath = chain\n\turl = {chain.url}\n'),
            ("k.cu", FILE, KERNEL),
            ("chain", GITLINK, pinned),
        ],
    )
    scan = run_scan(register(people, host.url, name="chain-host"), commit=commit)
    assert scan.status == "finished", scan.error_message
    outcomes = _by_path(scan)
    paths = ["chain" + "/self" * depth for depth in range(MAX_DEPTH + 1)]
    assert [outcomes[p]["fetched"] for p in paths] == [True] * MAX_DEPTH + [False], outcomes
    assert f"nested more than {MAX_DEPTH} submodules deep" in outcomes[paths[-1]]["reason"]
