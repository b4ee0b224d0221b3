"""No file outside the checkout is read, through symlinks or includes: its content never reaches a stored row."""

from __future__ import annotations

import pytest

from scanner import ScanOptions, scan
from tests.hostile.harness import FILE, SYMLINK, fast_import, files_of, register, run_scan, stored_text

KERNEL = "__global__ void k(float *x) { x[threadIdx.x % 32] = warpSize; }\n"


@pytest.mark.django_db
def test_symlinks_out_of_the_checkout_are_never_followed(people, repo_factory, canary):
    repo = repo_factory()
    commit = fast_import(
        repo,
        [
            ("k.cu", FILE, KERNEL),
            ("passwd.cu", SYMLINK, "/etc/passwd"),  # a source file that is really /etc/passwd
            ("secret.cu", SYMLINK, str(canary.secret)),
            ("up.cuh", SYMLINK, "../../../../../../../../" + str(canary.secret)),
            ("etc", SYMLINK, "/etc"),  # a directory
            ("outside", SYMLINK, str(canary.root)),
            ("inc.cu", FILE, '#include "secret.cu"\n#include "outside/secret.h"\n#include "etc/passwd"\n' + KERNEL),
        ],
    )
    result = run_scan(register(people, repo.url), commit)
    assert (result.status, result.error_code) == ("finished", "")
    files = files_of(result)
    # The links are checked out as small files holding their target (core.symlinks off), never as the target.
    assert files["passwd.cu"].blob_sha == ""  # not a regular file in git: never cached by blob
    assert [f.rule for f in result.repository.findings.filter(path="k.cu")] == ["ROC101"]
    text = stored_text(result)
    assert canary.token not in text
    assert "root:x:0:0" not in text  # /etc/passwd's first line
    assert files["inc.cu"].parse_mode in ("ast", "ast-stubbed", "tokens")


@pytest.mark.django_db
def test_a_symlinked_rocport_toml_is_a_clear_config_error_not_the_target(people, repo_factory, canary):
    (canary.root / "rocport.toml").write_text(f'[scan]\nexclude = ["{canary.token}"]\n')
    repo = repo_factory()
    commit = fast_import(repo, [("k.cu", FILE, KERNEL), (".rocport.toml", SYMLINK, str(canary.root / "rocport.toml"))])
    result = run_scan(register(people, repo.url), commit)
    # The checkout holds a file whose text is the link's target path: not TOML, so a bad configuration.
    assert (result.status, result.error_code) == ("failed", "scan:user:bad-config")
    assert canary.token not in stored_text(result)


@pytest.mark.django_db
def test_includes_of_absolute_and_parent_paths_never_leak_the_included_file(people, repo_factory, canary):
    repo = repo_factory()
    source = (
        f'#include "{canary.secret}"\n#include "../../../../../../../../{canary.secret}"\n'
        f"#include </etc/passwd>\n" + KERNEL
    )
    commit = fast_import(repo, [("k.cu", FILE, source)])
    result = run_scan(register(people, repo.url), commit)
    assert (result.status, result.error_code) == ("finished", "")
    text = stored_text(result)
    assert canary.token not in text and "root:x:0:0" not in text
    # Read as empty, not parsed: /etc/passwd's hundreds of clang errors would have stopped the parse before the
    # kernel (scanner.parsing.include_walk.blanked_includes).
    assert [f.rule for f in result.repository.findings.all()] == ["ROC101"]


@pytest.mark.django_db
def test_includes_of_devices_and_proc_files_are_read_as_empty_not_waited_for(people, repo_factory, canary):
    repo = repo_factory()
    header = '#include "/dev/zero"\n'  # a header of the tree may not do what the main file may not
    commit = fast_import(
        repo,
        [
            ("zero.cu", FILE, '#include "/dev/zero"\n#include </dev/urandom>\n' + KERNEL),
            ("stdin.cu", FILE, '#include "/dev/stdin"\n' + KERNEL),  # the worker's job pipe
            ("sub/environ.cu", FILE, '#include "../../../../../../../../proc/self/environ"\n' + KERNEL),
            ("sub/h.h", FILE, header),
            ("sub/nested.cu", FILE, '#include "h.h"\n' + KERNEL),
            (".rocport.toml", FILE, "[scan]\ntimeout_seconds = 20\n"),
        ],
    )
    result = run_scan(register(people, repo.url), commit)
    assert (result.status, result.error_code) == ("finished", "")
    files = files_of(result)
    for name in ("zero.cu", "stdin.cu", "sub/environ.cu", "sub/nested.cu"):
        assert files[name].error == "", (name, files[name].error)  # before: "timed out after 60s" each
        assert [f.rule for f in result.repository.findings.filter(path=name)] == ["ROC101"], name
    assert "DATABASE_URL" not in stored_text(result)


def test_the_scanner_on_a_real_tree_reports_links_out_of_it_and_never_reads_them(tmp_path, canary):
    """The command line scans a directory as it is (real symlinks, no git in between)."""
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "k.cu").write_text(KERNEL)
    (tree / "passwd.cu").symlink_to("/etc/passwd")
    (tree / "secret.cuh").symlink_to(canary.secret)
    (tree / "outside").symlink_to(canary.root)  # a directory out of the tree: not walked
    (canary.root / "in_outside.cu").write_text(KERNEL)
    (tree / "inc.cu").write_text('#include "secret.cuh"\n#include "outside/secret.h"\n' + KERNEL)
    results = {r.path: r for r in scan(tree, ScanOptions(jobs=1, translate=True))}
    assert "outside/in_outside.cu" not in results
    for link in ("passwd.cu", "secret.cuh"):
        assert results[link].error == "symlink leaving the scanned tree; not analysed"
    dumped = repr([r.to_dict() for r in results.values()])
    assert canary.token not in dumped and "root:x:0:0" not in dumped


@pytest.mark.django_db
def test_include_directories_the_repository_configures_out_of_the_checkout_leak_nothing(people, repo_factory, canary):
    """.rocport.toml may name include directories outside the tree (the command line needs it for a toolkit):
    a device there is still read as empty, and clang's errors in a header outside are never kept."""
    repo = repo_factory()
    config = f'[parse]\ninclude_dirs = ["/dev", "{canary.root}"]\n[scan]\ntimeout_seconds = 20\n'
    commit = fast_import(
        repo, [(".rocport.toml", FILE, config), ("k.cu", FILE, "#include <zero>\n#include <secret.h>\n" + KERNEL)]
    )
    result = run_scan(register(people, repo.url), commit)
    assert (result.status, result.error_code) == ("finished", "")
    assert files_of(result)["k.cu"].error == ""  # not "timed out": /dev/zero was never read
    assert canary.token not in stored_text(result)
