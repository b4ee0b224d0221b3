"""No code of the repository runs: submodules (file://, ext::), .gitattributes drivers, hooks, and git
configuration from the repository (core.fsmonitor, core.sshCommand, filters) never apply. A marker file that the
hostile command would create never appears."""

from __future__ import annotations

import os
import stat

import pytest

from tests.hostile.harness import FILE, GITLINK, fast_import, files_of, register, run_scan

KERNEL = "__global__ void k(float *x) { x[threadIdx.x % 32] = warpSize; }\n"


@pytest.mark.django_db
def test_a_local_submodule_is_only_read_and_an_ext_url_is_never_run(people, repo_factory, canary):
    inner = repo_factory("inner")
    inner_commit = fast_import(inner, [("inner.cu", FILE, KERNEL)])
    repo = repo_factory()
    command = canary.command().replace(" ", "% ")  # ext:: takes %-escaped spaces
    gitmodules = (
        f'[submodule "local"]\n\tpath = local\n\turl = file://{inner.path}\n'
        f'[submodule "evil"]\n\tpath = evil\n\turl = ext::sh -c {command}\n'
    )
    commit = fast_import(
        repo,
        [
            (".gitmodules", FILE, gitmodules),
            ("k.cu", FILE, KERNEL),
            ("local", GITLINK, inner_commit),
            ("evil", GITLINK, inner_commit),
        ],
    )
    result = run_scan(register(people, repo.url), commit)
    assert (result.status, result.error_code) == ("finished", ""), result.error_message
    # A local repository's local submodule is fetched as a read-only dependency: its inner.cu is no result of
    # the scan; the ext:: one is refused before git sees it (portal.repositories.submodules).
    assert set(files_of(result)) == {"k.cu"}
    outcomes = {entry["path"]: entry for entry in result.submodules}
    assert outcomes["local"]["fetched"] is True
    assert outcomes["evil"]["fetched"] is False and "remote helper" in outcomes["evil"]["reason"]
    assert not canary.marker.exists()


@pytest.mark.django_db
def test_a_submodule_update_command_is_refused_by_the_object_check(people, repo_factory, canary):
    repo = repo_factory()
    gitmodules = f'[submodule "evil"]\n\tpath = evil\n\turl = ./evil\n\tupdate = !{canary.command()}\n'
    commit = fast_import(
        repo, [(".gitmodules", FILE, gitmodules), ("k.cu", FILE, KERNEL), ("evil", GITLINK, "0" * 39 + "1")]
    )
    result = run_scan(register(people, repo.url), commit)
    # transfer.fsckObjects: git refuses the objects before anything is checked out.
    assert (result.status, result.error_code) == ("failed", "scan:user:clone-failed")
    assert "disallowed submodule update setting" in result.error_message
    assert not canary.marker.exists()


@pytest.mark.django_db
def test_attributes_drivers_hooks_and_the_repositorys_own_config_never_run(people, repo_factory, canary):
    repo = repo_factory()
    # What a repository can carry in its tree...
    attributes = "* filter=evil diff=evil merge=evil\n*.cu filter=evil\n*.cu text eol=crlf ident\n"
    bare_config = (
        f"[core]\n\tbare = true\n\tfsmonitor = {canary.command()}\n\tsshCommand = {canary.command()}\n"
        f'[filter "evil"]\n\tsmudge = {canary.command()}\n\tprocess = {canary.command()}\n'
    )
    commit = fast_import(
        repo,
        [
            (".gitattributes", FILE, attributes),
            ("k.cu", FILE, KERNEL),
            ("hooks/post-checkout", "100755", f"#!/bin/sh\n{canary.command()}\n"),
            # an embedded bare repository (CVE-2022-24765's shape): git run inside the checkout would read its config
            ("nested/HEAD", FILE, "ref: refs/heads/main\n"),
            ("nested/config", FILE, bare_config),
            ("nested/objects/info/.keep", FILE, ""),
            ("nested/refs/heads/.keep", FILE, ""),
        ],
    )
    # ...and what the served repository's own config and hooks say (a local repository is served by our git).
    repo.git("config", "core.fsmonitor", canary.command())
    repo.git("config", "core.sshCommand", canary.command())
    repo.git("config", "filter.evil.smudge", canary.command())
    repo.git("config", "filter.evil.process", canary.command())
    repo.git("config", "diff.evil.textconv", canary.command())
    repo.git("config", "uploadpack.packObjectsHook", canary.command())
    for hook in ("post-checkout", "pre-upload", "post-update", "reference-transaction", "fsmonitor-watchman"):
        path = repo.path / ".git" / "hooks" / hook
        path.write_text(f"#!/bin/sh\n{canary.command()}\n")
        path.chmod(path.stat().st_mode | stat.S_IEXEC)
    result = run_scan(register(people, repo.url), commit)
    assert (result.status, result.error_code) == ("finished", "")
    assert not canary.marker.exists()
    # The filter never ran on the file either: the kernel was scanned as committed.
    assert [f.rule for f in result.repository.findings.filter(path="k.cu")] == ["ROC101"]


@pytest.mark.django_db
def test_git_configuration_in_the_workers_environment_never_reaches_the_clone(
    people, repo_factory, canary, monkeypatch, tmp_path
):
    """The worker's own environment could carry git configuration (GIT_CONFIG_*, a ~/.gitconfig): git runs with a
    clean environment of ours, so none of it applies."""
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text(
        f'[core]\n\tfsmonitor = {canary.command()}\n[filter "evil"]\n\tsmudge = {canary.command()}\n'
    )
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_COUNT", "1")
    monkeypatch.setenv("GIT_CONFIG_KEY_0", "core.hooksPath")
    monkeypatch.setenv("GIT_CONFIG_VALUE_0", str(tmp_path))
    monkeypatch.setenv("GIT_CONFIG_PARAMETERS", f"'core.sshcommand'='{canary.command()}'")
    (tmp_path / "post-checkout").write_text(f"#!/bin/sh\n{canary.command()}\n")
    os.chmod(tmp_path / "post-checkout", 0o755)
    repo = repo_factory()
    commit = fast_import(repo, [(".gitattributes", FILE, "* filter=evil\n"), ("k.cu", FILE, KERNEL)])
    result = run_scan(register(people, repo.url), commit)
    assert (result.status, result.error_code) == ("finished", "")
    assert not canary.marker.exists()
