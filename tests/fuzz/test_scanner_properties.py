"""Property tests of the scanner on random and mutated sources (hypothesis): a hostile file yields findings or
its own error result, never an exception out of `scan()`, and the other files of the same scan keep exactly the
results they have alone (per-file isolation through the real worker pool). The translator never raises and
always gives text."""

from __future__ import annotations

import random
import tempfile
from functools import cache
from pathlib import Path

import pytest
from hypothesis import event as label
from hypothesis import given
from hypothesis import strategies as st

from scanner import ScanOptions, scan
from scanner.discovery import language_of
from scanner.model import ParseMode
from scanner.translate import TranslateOptions, Translator, unified_diff
from tests.faults.points import FaultPlan
from tests.fuzz.budget import fuzz_settings
from tests.fuzz.mutations import (
    CXX_SUFFIXES,
    DEMO,
    MUTATIONS,
    RULE_FIXTURES,
    cxx_corpus,
    mutate,
    random_cuda,
    text_corpus,
)

# A file that hangs libclang costs the per-file timeout: short here, so a hang found by the fuzzer is a
# bounded per-file error rather than a stalled suite.
OPTIONS = ScanOptions(jobs=2, timeout_seconds=20)
# Kept apart from the fuzzed files: a CUDA fixture with findings and a text file with findings.
CONTROLS = {
    "control/warp.cu": (RULE_FIXTURES / "ROC101_warp_size_lane_arithmetic.cu").read_bytes(),
    "control/Dockerfile": (DEMO / "Dockerfile").read_bytes(),
}
# Errors that mean the scanner itself broke (the pool contained it, but it is a bug to fix), not the file.
SCANNER_BUGS = ("internal error", "the analysing process died", "worker did not start")

steps = st.lists(st.tuples(st.integers(0, len(MUTATIONS) - 1), st.integers(0, 2**32)), min_size=1, max_size=4)


@st.composite
def hostile_cxx(draw) -> tuple[str, bytes]:
    suffix = draw(st.sampled_from(CXX_SUFFIXES))
    if draw(st.integers(0, 4)) == 0:  # one in five: random tokens rather than a mutated real file
        return suffix, random_cuda(random.Random(draw(st.integers(0, 2**32))), draw(st.integers(0, 400)))
    corpus = cxx_corpus()
    return suffix, mutate(draw(st.sampled_from(corpus)), draw(steps), corpus)


@st.composite
def hostile_text(draw) -> tuple[str, bytes]:
    name, data = draw(st.sampled_from([s for s in text_corpus() if language_of(s[0])]))
    return name, mutate(data, draw(steps), tuple(d for _, d in text_corpus()))


# Whole files that are one deep construct, in the syntax of each language's parser: the parsers recurse (Python's
# ast, tomllib, libyaml's composer in C), so a few thousand levels must be a per-file fallback, not a crash.
NESTING = {
    "k.cu": ("int x = ", "(", ")", ";\n"),
    "k.cuh": ("void f() ", "{", "}", "\n"),
    "k.cpp": ("#if 1\n", "#if 1\n", "#endif\n", ""),
    "k.hpp": ("#if A\n", "#elif B\n", "", "#endif\n"),
    "run.py": ("x = ", "-", "", "1\n"),
    "setup.py": ("x = a", ".b", "", "\n"),
    "check.py": ("x = 1", "+1", "", "\n"),
    "pyproject.toml": ("[project]\ndependencies = ", "[", "]", "\n"),
    "compose.yml": ("a: ", "[", "]", "\n"),
    "inference.yaml": ("", "- ", "", "x\n"),
    "environment.yml": ("a: ", "{b: ", "}", "\n"),
    "CMakeLists.txt": ("set(A ", "(", ")", ")\n"),
    "run.sh": ("echo ", "$(", ")", "\n"),
}


@st.composite
def nested_file(draw) -> tuple[str, bytes]:
    name = draw(st.sampled_from(sorted(NESTING)))
    prefix, opening, closing, suffix = NESTING[name]
    depth = draw(st.sampled_from([3_000, 20_000]))  # shallow: the mutations; 60,000: the test below
    label(f"{name} nested {depth} deep")  # --hypothesis-show-statistics
    return name, (prefix + opening * depth + closing * depth + suffix).encode()


# YAML aliases: each naming the previous twice (2**40 nodes expanded), or inside their own collection.
ALIAS_BOMB = ("l0: &l0 [x, x]\n" + "".join(f"l{i}: &l{i} [*l{i - 1}, *l{i - 1}]\n" for i in range(1, 40))).encode()
ALIAS_CYCLE = b"a: &a [1, *a]\nb: &b {x: *b}\n"
alias_file = st.sampled_from([("compose.yml", ALIAS_BOMB), ("k8s.yaml", ALIAS_CYCLE)])

hostile_file = st.one_of(hostile_cxx(), hostile_cxx(), hostile_text(), nested_file(), alias_file)


def _key(result) -> tuple:
    """A result as the property compares it: which findings, where, and their identity. Not their messages: a
    message may rightly change with the repository's own ROCm path (scanner.port; a fuzzed neighbour may well be a
    ROCm sign, `FROM rocm/...`, `enable_language(HIP)`, and then the controls' findings say it is the NVIDIA side)."""
    return (
        result.path,
        result.error,
        [(f.rule, f.line, f.column, f.fingerprint, f.suppressed) for f in result.findings],
    )


@cache
def baseline() -> dict[str, tuple]:
    """The controls' results when scanned alone."""
    with tempfile.TemporaryDirectory(prefix="rocport-fuzz-") as tmp:
        _write(Path(tmp), CONTROLS)
        return {r.path: _key(r) for r in scan(tmp, OPTIONS)}


def _write(root: Path, files: dict[str, bytes]) -> None:
    for rel, data in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)


def _check_result(result, data: bytes) -> None:
    if result.error:
        assert result.health.mode == ParseMode.ERROR
        assert not any(bug in result.error for bug in SCANNER_BUGS), (result.path, result.error)
        return
    # lines as clang, the text parsers and editors count them: \r\n, \r and \n each end one
    lines = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").count(b"\n") + 1
    for finding in result.findings:
        assert 1 <= finding.line <= lines, (result.path, finding)
        assert finding.rule.startswith("ROC") and finding.fingerprint, finding


@fuzz_settings(examples=15)
@given(
    some=st.tuples(hostile_cxx(), hostile_text(), nested_file()),
    more=st.lists(hostile_file, max_size=2),
    crash_one=st.booleans(),
)
def test_a_hostile_file_costs_itself_and_never_the_scan(some, more, crash_one):
    files = [*some, *more]
    expected = baseline()
    with tempfile.TemporaryDirectory(prefix="rocport-fuzz-") as tmp:
        root = Path(tmp)
        fuzzed = {
            f"fuzz/{i}/{name if not name.startswith('.') else 'f' + name}": data for i, (name, data) in enumerate(files)
        }
        _write(root, {**CONTROLS, **fuzzed})
        crashed = ""
        with tempfile.TemporaryDirectory(prefix="rocport-faults-") as plan_dir:
            faults = FaultPlan(Path(plan_dir))
            if crash_one:
                # The pool's kill-and-replace path with the fuzzed files around it: the worker dies (SIGSEGV, as a
                # libclang crash would) on the first fuzzed file, and every other file still gets its result.
                crashed = next(iter(fuzzed))
                faults.add("pool.file", "crash", once=False, path=crashed)
            with faults.in_children():
                results = list(scan(root, OPTIONS))  # no exception, whatever the files hold
    by_path = {r.path: r for r in results}
    assert len(by_path) == len(results), "one result per file"
    paths = [r.path for r in results if r.path != "."]
    assert paths == sorted(paths), "results stream in path order"
    for rel, key in expected.items():
        assert _key(by_path[rel]) == key, f"{rel} changed because of the files next to it"
    for rel, data in fuzzed.items():
        result = by_path[rel]
        if rel == crashed:
            assert result.error.startswith("the analysing process died"), result.error
            continue
        _check_result(result, data)


@cache
def translator() -> Translator:
    return Translator(TranslateOptions(backend="builtin"))


@fuzz_settings(examples=150)
@given(source=hostile_cxx())
def test_the_translator_never_raises_and_gives_text(source):
    suffix, data = source
    text = data.decode("utf-8", "replace")  # what the engine hands over: only text that decoded
    result = translator().translate(f"fuzz{suffix}", text)
    assert isinstance(result.text, str)
    data = result.to_dict(include_text=True)
    assert data["text"] == result.text
    diff = unified_diff(f"fuzz{suffix}", text, result.text)
    assert isinstance(diff, str) and (diff == "") == (result.text == text)


def test_every_parser_survives_the_deepest_nesting_and_alias_bombs_in_one_scan(tmp_path):
    files = {
        f"{i}/{name}": data
        for i, (name, data) in enumerate(
            [(name, (p + o * 60_000 + c * 60_000 + s).encode()) for name, (p, o, c, s) in NESTING.items()]
            + [("compose.yml", ALIAS_BOMB), ("k8s.yaml", ALIAS_CYCLE)]
        )
    }
    _write(tmp_path, files)
    results = {r.path: r for r in scan(tmp_path, OPTIONS)}
    for rel, data in files.items():
        _check_result(results[rel], data)


@pytest.mark.parametrize(
    "name, data",
    [
        # found by probing the nesting above: each was a crash of the scanner, contained by the pool
        ("compose.yml", b"a: " + b"[" * 50_000 + b"]" * 50_000 + b"\n"),  # libyaml's composer: SIGSEGV
        ("run.py", b"x = " + b"-" * 5_000 + b"1\n"),  # ast.parse: RecursionError
        ("setup.py", b"x = a" + b".b" * 100_000 + b"\n"),
        ("pyproject.toml", b"[project]\ndependencies = " + b"[" * 3_000 + b"]" * 3_000 + b"\n"),  # tomllib
        ("pyproject.toml", b"[project]\nversion = " + b"9" * 5_000 + b"\n"),  # int(): ValueError
        ("compose.yml", ALIAS_BOMB),  # held the worker until the per-file timeout
        ("k8s.yaml", ALIAS_CYCLE),  # an endless walk: RecursionError
    ],
)
def test_files_that_broke_a_parser_are_analysed_by_lines_and_say_why(tmp_path, name, data):
    (tmp_path / name).write_bytes(data)
    (result,) = [r for r in scan(tmp_path, OPTIONS) if r.path == name]
    assert not result.error, result.error
    assert result.health.mode == ParseMode.TOKENS and result.health.fallback_reason, result.health
    assert "timed out" not in result.health.fallback_reason  # bounded by the parser's limits, not the timeout


def test_a_chain_of_thousands_of_elif_is_analysed_in_bounded_time_and_memory(tmp_path):
    # The #else/#elif descriptions named every earlier branch: quadratic text (8,000 branches: 3.6 s and 330 MB;
    # 20,000 ran past the per-file timeout). Now the first few are named and the rest counted.
    (tmp_path / "k.cpp").write_text("#if A\n" + "#elif B\nint x;\n" * 20_000 + "#endif\n")
    (result,) = list(scan(tmp_path, OPTIONS))
    assert not result.error, result.error  # the per-file timeout would have ended it with an error
    assert "timed out" not in (result.health.fallback_reason or "")
