"""Coverage-guided fuzzing (atheris 3.0.0, libFuzzer) of the scanner's per-file analysis and translator, of
`.rocport.toml` and of webhook parsing: a bounded run of each target (tests/fuzz/atheris_targets.py) in a
subprocess, seeded with the real fixtures. A crash, hang (-timeout) or memory blow-up (-rss_limit_mb) fails the
test and the input is kept under var/test-artifacts/fuzz/ to replay:

    .venv/bin/python -m tests.fuzz.atheris_targets TARGET var/test-artifacts/fuzz/TARGET-crash-<sha1>

Budget: ROCPORT_FUZZ_SECONDS per target (default 12), times ROCPORT_FUZZ_SCALE.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.fuzz.atheris_targets import EVENTS, LANGUAGES, PROVIDERS
from tests.fuzz.budget import scale
from tests.fuzz.mutations import CUDA_VOCABULARY, ROOT, cxx_corpus, text_corpus, webhook_corpus
from tests.fuzz.test_config_properties import EXAMPLE
from tests.fuzz.test_scanner_properties import ALIAS_BOMB, ALIAS_CYCLE, NESTING

ARTIFACTS = ROOT / "var" / "test-artifacts" / "fuzz"
CXX_INDEX = {suffix: i for i, (_, suffix) in enumerate(LANGUAGES)}
TOML_WORDS = (
    "[scan]",
    "[rules]",
    "[parse]",
    "[target]",
    "[compile]",
    "exclude",
    "max_file_bytes",
    "timeout_seconds",
    "enable",
    "disable",
    "include_dirs",
    "defines",
    "compile_commands",
    "cuda_path",
    "targets",
    "rocm",
    "offload_arch",
    "std",
    "=",
    "[",
    "]",
    "{",
    "}",
    '"',
    "'''",
    "inf",
    "nan",
    "1e999",
    "9223372036854775808",
    '"gfx942"',
    '"7.0"',
    '"c++17"',
    '"ROC101"',
    "true",
    "\\u0000",
)
JSON_WORDS = (
    '"ref"',
    '"before"',
    '"after"',
    '"checkout_sha"',
    '"deleted"',
    '"ref_type"',
    '"refs/heads/"',
    '"refs/tags/"',
    '"branch"',
    '"0000000000000000000000000000000000000000"',
    "null",
    "true",
    "\\u0000",
    "\\ud800",
    "[",
    "{",
    "payload=",
    "%7B",
)


def seeds(target: str) -> list[bytes]:
    """Real inputs, with the first byte choosing what atheris_targets makes of them."""
    if target == "analyze":
        out = [bytes([CXX_INDEX[".cu"]]) + data for data in cxx_corpus()]
        nested = [(name, (p + o * 3_000 + c * 3_000 + s).encode()) for name, (p, o, c, s) in NESTING.items()]
        for name, data in [*text_corpus(), *nested, ("compose.yml", ALIAS_BOMB), ("k8s.yaml", ALIAS_CYCLE)]:
            index = next((i for i, (_, suffix) in enumerate(LANGUAGES) if name.endswith(suffix)), None)
            if index is not None:
                out.append(bytes([index]) + data)
        return out
    if target == "config":
        return [EXAMPLE.encode(), b"[scan]\ntimeout_seconds = 1.5\n", b'[target]\nrocm = "6.4"\n']
    return [
        bytes([PROVIDERS.index(provider) | (EVENTS.index("push") << 2)]) + body for provider, body in webhook_corpus()
    ]


def dictionary(target: str) -> str:
    words = {"analyze": CUDA_VOCABULARY, "config": TOML_WORDS, "webhook": JSON_WORDS}[target]

    def quoted(word: str) -> str:
        return (
            '"'
            + "".join(
                c if c.isprintable() and c not in '"\\' and ord(c) < 128 else f"\\x{b:02x}"
                for c in word
                for b in c.encode()
            )
            + '"'
        )

    return "\n".join(quoted(word) for word in words if word) + "\n"


@pytest.mark.parametrize("target, max_len", [("analyze", 65_536), ("config", 8_192), ("webhook", 16_384)])
def test_coverage_guided_fuzzing_finds_no_crash(tmp_path, target, max_len):
    corpus = tmp_path / "corpus"  # libFuzzer adds what it finds to the first corpus directory: a copy
    corpus.mkdir()
    for i, data in enumerate(seeds(target)):
        (corpus / f"seed-{i:03d}").write_bytes(data[:max_len])
    (tmp_path / "words.dict").write_text(dictionary(target))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    before = set(ARTIFACTS.iterdir())
    seconds = int(os.environ.get("ROCPORT_FUZZ_SECONDS", "12")) * scale()
    command = [
        sys.executable,
        "-m",
        "tests.fuzz.atheris_targets",
        target,
        str(corpus),
        f"-max_total_time={seconds}",
        f"-max_len={max_len}",
        "-timeout=30",
        "-rss_limit_mb=3072",
        f"-dict={tmp_path / 'words.dict'}",
        f"-artifact_prefix={ARTIFACTS}/{target}-",
        "-print_final_stats=1",
    ]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, errors="replace", timeout=seconds + 120)
    log = run.stdout + run.stderr
    (ARTIFACTS / f"{target}-last-run.log").write_text(log)
    # This target's files only: under pytest-xdist another target may be fuzzed at the same time (its own test
    # fails on its own finds).
    found = sorted(
        str(p)
        for p in set(ARTIFACTS.iterdir()) - before
        if p.name.startswith(f"{target}-") and not p.name.endswith(".log")
    )
    assert run.returncode == 0 and not found, f"{target}: atheris found {found or 'a failure'}:\n{log[-4000:]}"
    executed = int(re.search(r"stat::number_of_executed_units:\s*(\d+)", log).group(1))
    coverage = int(re.findall(r"cov: (\d+)", log)[-1])
    print(f"atheris {target}: {executed} executions in {seconds}s, {coverage} coverage points")
    # It really ran the target, instrumented: more than the seeds, with Python coverage to steer by.
    assert executed > len(seeds(target)) and coverage > 30, log[-2000:]
