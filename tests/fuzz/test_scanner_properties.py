"""Property tests of the scanner on random and mutated sources (hypothesis): a hostile file yields findings or
its own error result, never an exception out of `scan()`, and the other files of the same scan keep exactly the
results they have alone (per-file isolation through the real worker pool). The translator never raises and
always gives text."""

from __future__ import annotations

import os
import random
import tempfile
from functools import cache
from pathlib import Path

from hypothesis import given, strategies as st

from scanner import ScanOptions, scan
from scanner.discovery import language_of
from scanner.model import ParseMode
from scanner.translate import TranslateOptions, Translator, unified_diff
from tests.fuzz.budget import fuzz_settings
from tests.fuzz.mutations import (CXX_SUFFIXES, DEMO, MUTATIONS, RULE_FIXTURES, cxx_corpus, mutate, random_cuda,
                                  text_corpus)

# A file that hangs libclang costs the per-file timeout: short here, so a hang found by the fuzzer is a
# bounded per-file error rather than a stalled suite.
OPTIONS = ScanOptions(jobs=2, timeout_seconds=20)
# Kept apart from the fuzzed files: a CUDA fixture with findings and a text file with findings.
CONTROLS = {"control/warp.cu": (RULE_FIXTURES / "ROC101_warp_size_lane_arithmetic.cu").read_bytes(),
            "control/Dockerfile": (DEMO / "Dockerfile").read_bytes()}
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


hostile_file = st.one_of(hostile_cxx(), hostile_cxx(), hostile_text())


def _key(result) -> tuple:
    return (result.path, result.error, [(f.rule, f.line, f.column, f.fingerprint, f.message, f.suppressed)
                                        for f in result.findings])


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
    lines = data.count(b"\n") + 1
    for finding in result.findings:
        assert 1 <= finding.line <= lines, (result.path, finding)
        assert finding.rule.startswith("ROC") and finding.fingerprint, finding


@fuzz_settings(examples=12)
@given(files=st.lists(hostile_file, min_size=1, max_size=4), crash_one=st.booleans())
def test_a_hostile_file_costs_itself_and_never_the_scan(files, crash_one):
    expected = baseline()
    with tempfile.TemporaryDirectory(prefix="rocport-fuzz-") as tmp:
        root = Path(tmp)
        fuzzed = {f"fuzz/{i}-{name if not name.startswith('.') else 'f' + name}": data
                  for i, (name, data) in enumerate(files)}
        _write(root, {**CONTROLS, **fuzzed})
        previous = os.environ.get("ROCPORT_FAULT")
        crashed = ""
        if crash_one:
            # The pool's kill-and-replace path with the fuzzed files around it: the worker dies (SIGSEGV, as a
            # libclang crash would) on the first fuzzed file, and every other file still gets its result.
            crashed = next(iter(fuzzed))
            os.environ["ROCPORT_FAULT"] = f"crash:{crashed}"
        try:
            results = list(scan(root, OPTIONS))  # no exception, whatever the files hold
        finally:
            if previous is None:
                os.environ.pop("ROCPORT_FAULT", None)
            else:
                os.environ["ROCPORT_FAULT"] = previous
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
