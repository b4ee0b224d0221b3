"""Repositories built to exhaust: each ends in a bounded, clear result (a user error or a per-file error)."""

from __future__ import annotations

import hashlib
import os
import zlib

import pytest
from django.test import override_settings

from portal.repositories.git import GitSession, remove_tree
from portal.scans.models import BlobResult
from scanner import ScanOptions, scan
from tests.faults.points import FaultPlan
from tests.hostile.harness import FILE, fast_import, files_of, register, run_scan

KERNEL = "__global__ void k(float *x) { x[threadIdx.x % 32] = warpSize; }\n"
TWO_GB = 2_000_000_000


@pytest.mark.django_db
def test_200000_tiny_files_are_refused_before_checkout_with_a_clear_error(people, repo_factory):
    repo = repo_factory()
    entries = [(f"d{i // 1000:03d}/f{i % 1000:03d}.cu", FILE, "int x;\n") for i in range(200_000)]
    commit = fast_import(repo, entries)
    result = run_scan(register(people, repo.url), commit)
    assert (result.status, result.error_code) == ("failed", "scan:user:repo-too-large")
    assert "200000 files" in result.error_message and "ROCPORT_CLONE_MAX_FILES" in result.error_message
    assert result.files_total == 0  # refused from the tree listing: nothing checked out, nothing scanned


@pytest.mark.django_db
@override_settings(ROCPORT_CLONE_MAX_FILES=50)
def test_the_file_limit_is_configurable_and_a_tree_under_it_scans(people, repo_factory):
    repo = repo_factory()
    small = fast_import(repo, [(f"f{i}.cu", FILE, KERNEL) for i in range(50)], branch="main")
    assert run_scan(register(people, repo.url), small).status == "finished"
    big = fast_import(repo, [(f"f{i}.cu", FILE, KERNEL) for i in range(51)], branch="main")
    assert run_scan(register(people, repo.url, name="again"), big).error_code == "scan:user:repo-too-large"


@pytest.mark.django_db
def test_a_1000_deep_tree_is_a_clear_user_error_not_a_crash(people, repo_factory):
    repo = repo_factory()
    commit = fast_import(repo, [("k.cu", FILE, KERNEL), ("d/" * 1000 + "deep.cu", FILE, KERNEL)])
    result = run_scan(register(people, repo.url), commit)
    # 2,004 characters: more than a stored path holds (and os.walk / shutil.rmtree recursed past Python's limit).
    assert (result.status, result.error_code) == ("failed", "scan:user:path-too-long")


@pytest.mark.django_db
def test_a_tree_deep_but_storable_is_scanned_to_the_bottom(people, repo_factory):
    repo = repo_factory()
    deep = "d/" * 490 + "deep.cu"  # 987 characters, 490 levels
    commit = fast_import(repo, [(deep, FILE, KERNEL)])
    result = run_scan(register(people, repo.url), commit)
    assert result.status == "finished"
    assert [f.rule for f in result.repository.findings.filter(path=deep)] == ["ROC101"]


def test_the_scanner_walks_a_1000_deep_tree_without_recursion(tmp_path):
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        for _ in range(1000):  # os.makedirs recurses per level too
            os.mkdir("d")
            os.chdir("d")
        with open("deep.cu", "w") as handle:
            handle.write(KERNEL)
    finally:
        os.chdir(here)
    try:
        results = list(scan(tmp_path, ScanOptions(jobs=1)))
    finally:
        remove_tree(tmp_path / "d")  # pytest's own clean-up of old temporary directories recurses per level
    assert [r.path for r in results] == ["d/" * 1000 + "deep.cu"]
    assert [f.rule for f in results[0].findings] == ["ROC101"]


@pytest.mark.django_db
def test_a_header_nested_thousands_of_templates_deep_is_parsed_not_a_crash(tmp_path):
    """clang's parser recurses per nesting level: 5,000 unclosed `template <typename T` overflowed libclang's
    8 MiB parsing thread and killed the worker (SIGSEGV). The analysis thread's stack is large enough now."""
    (tmp_path / "deep.cuh").write_text("#include <cuda.h>\n" + "template <typename T" * 5000 + "\n")
    (tmp_path / "k.cu").write_text(KERNEL)
    results = {r.path: r for r in scan(tmp_path, ScanOptions(jobs=1))}
    assert results["deep.cuh"].error == "", results["deep.cuh"].error
    assert [f.rule for f in results["k.cu"].findings] == ["ROC101"]


def test_a_clone_directory_of_any_depth_is_removed(repo_factory):
    repo = repo_factory()
    with GitSession(repo.url) as git:
        os.mkdir(git.work)
        here = os.getcwd()
        os.chdir(git.work)
        try:
            for _ in range(1000):
                os.mkdir("d")
                os.chdir("d")
        finally:
            os.chdir(here)
        root = git.root
    assert not root.exists()


def _write_zero_blob(repo, size: int) -> str:
    """A blob of `size` zero bytes written as a loose object directly (git hash-object would read it whole)."""
    header = b"blob %d\0" % size
    digest, packer = hashlib.sha1(header), zlib.compressobj(1)
    chunk = bytes(64 * 1024 * 1024)
    out = [packer.compress(header)]
    left = size
    while left:
        piece = chunk if left >= len(chunk) else bytes(left)
        digest.update(piece)
        out.append(packer.compress(piece))
        left -= len(piece)
    out.append(packer.flush())
    sha = digest.hexdigest()
    target = repo.path / ".git" / "objects" / sha[:2] / sha[2:]
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(b"".join(out))
    return sha


@pytest.mark.django_db
def test_a_2gb_file_is_skipped_with_a_per_file_note_never_read_whole(people, repo_factory):
    repo = repo_factory()
    repo.git("config", "pack.compression", "1")  # the served side packs 2 GB of zeros quickly
    sha = _write_zero_blob(repo, TWO_GB)
    repo.write("k.cu", KERNEL)
    repo.git("add", "k.cu")
    repo.git("update-index", "--add", "--cacheinfo", f"100644,{sha},huge.cu")
    repo.git("commit", "--quiet", "-m", "a 2 GB source file")  # not `add -A`: huge.cu is only in the index
    commit = repo.git("rev-parse", "HEAD")
    result = run_scan(register(people, repo.url), commit)
    assert (result.status, result.error_code) == ("finished", "")
    files = files_of(result)
    assert files["huge.cu"].error == "larger than the 2000000-byte cap (scan.max_file_bytes)"
    assert [f.rule for f in result.repository.findings.filter(path="k.cu")] == ["ROC101"]


@pytest.mark.django_db
@override_settings(ROCPORT_CLONE_MAX_BYTES=100_000)
def test_a_small_pack_that_expands_past_the_byte_limit_is_refused_before_checkout(people, repo_factory):
    repo = repo_factory()
    commit = fast_import(repo, [("k.cu", FILE, KERNEL), ("bomb.txt", FILE, b"x" * 5_000_000)])  # a ~5 KB pack
    result = run_scan(register(people, repo.url), commit)
    assert (result.status, result.error_code) == ("failed", "scan:user:repo-too-large")
    assert "files hold 5000" in result.error_message  # refused from the tree listing, before writing 5 MB


@pytest.mark.django_db
@override_settings(ROCPORT_CLONE_MAX_BYTES=2000)
def test_a_fetch_past_the_byte_limit_is_killed_with_a_clear_error(people, repo_factory):
    repo = repo_factory()
    commit = fast_import(repo, [("k.cu", FILE, KERNEL), ("noise.bin", FILE, os.urandom(200_000))])
    result = run_scan(register(people, repo.url), commit)
    assert (result.status, result.error_code) == ("failed", "scan:user:repo-too-large")


def test_a_2gb_sparse_file_in_a_tree_is_a_per_file_error_and_is_not_read(tmp_path):
    (tmp_path / "k.cu").write_text(KERNEL)
    with open(tmp_path / "sparse.cu", "wb") as handle:
        handle.truncate(TWO_GB)  # no disk used; reading it whole would take 2 GB of memory
    results = {r.path: r for r in scan(tmp_path, ScanOptions(jobs=1))}
    assert results["sparse.cu"].error == "larger than the 2000000-byte cap (scan.max_file_bytes)"
    assert [f.rule for f in results["k.cu"].findings] == ["ROC101"]


@pytest.mark.django_db
def test_binary_sources_are_per_file_errors_and_latin1_ones_are_read(people, repo_factory):
    repo = repo_factory()
    commit = fast_import(
        repo,
        [
            ("k.cu", FILE, KERNEL),
            ("elf.cu", FILE, b"\x7fELF\x02\x01\x01\0" + os.urandom(4096)),
            ("latin1.cuh", FILE, b"// caf\xe9\n__global__ void g() {}\n"),
        ],
    )
    result = run_scan(register(people, repo.url), commit)
    assert result.status == "finished"
    files = files_of(result)
    assert files["elf.cu"].error == "binary file (contains NUL bytes)"
    assert files["latin1.cuh"].error == "" and files["latin1.cuh"].parse_mode in ("ast", "ast-stubbed")
    # The file page's source and parse note: the text as the scanner read it, and the guess said.
    blob = BlobResult.objects.get(blob_sha=files["latin1.cuh"].blob_sha)
    assert blob.source.startswith("// caf\xe9\n") and blob.result["parse"]["encoding_guess"].startswith("latin-1")
    assert files["k.cu"].error == ""


@pytest.mark.django_db
@pytest.mark.parametrize("fault, expected", [("crash", "died"), ("hang", "timed out after 3s")])
def test_a_file_that_crashes_or_hangs_libclang_costs_that_file(
    people, repo_factory, monkeypatch, tmp_path, fault, expected
):
    faults = FaultPlan(tmp_path / "faults")
    faults.add("pool.file", fault, once=False, path="evil.cu")
    for key, value in faults.env().items():
        monkeypatch.setenv(key, value)  # the pipeline's scanner processes inherit it
    repo = repo_factory()
    commit = fast_import(
        repo,
        [("k.cu", FILE, KERNEL), ("evil.cu", FILE, KERNEL), (".rocport.toml", FILE, "[scan]\ntimeout_seconds = 3\n")],
    )
    result = run_scan(register(people, repo.url), commit)
    assert (result.status, result.error_code) == ("finished", "")
    files = files_of(result)
    assert expected in files["evil.cu"].error
    assert [f.rule for f in result.repository.findings.filter(path="k.cu")] == ["ROC101"]
