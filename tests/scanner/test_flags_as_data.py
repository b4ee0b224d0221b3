"""nvcc flags a Python script only hands to something else (a web service building the README's Compiler Explorer
links) are data, not a build setting; the same flags in a script that builds, or outside CI and tooling, are."""

from __future__ import annotations

from scanner import ScanOptions, scan
from tests.scanner.helpers import write_tree

LINKS = """import base64
import json
import subprocess
import zlib

FLAGS = "-std=c++17 -arch=sm_80 --expt-extended-lambda"


def changed_examples():
    out = subprocess.run(["git", "diff", "--name-only", "HEAD~1"], capture_output=True, text=True)
    return [p for p in out.stdout.split() if p.endswith(".cu")]


def link(source: str) -> str:
    state = {"sessions": [{"source": source, "compilers": [{"id": "cuda-latest", "options": FLAGS}]}]}
    return "https://godbolt.org/clientstate/" + base64.b64encode(zlib.compress(json.dumps(state).encode())).decode()
"""
BUILDS = LINKS.replace('["git", "diff", "--name-only", "HEAD~1"]', '["nvcc", *FLAGS.split(), "-c", "k.cu"]')


def _severity(root, path: str) -> tuple[str, str]:
    found = [f for r in scan(str(root), ScanOptions(enable=("ROC212",))) for f in r.findings if f.path == path]
    assert len(found) == 1, found
    return found[0].severity.value, found[0].message


def test_flags_a_ci_tooling_script_sends_elsewhere_are_low(tmp_path):
    severity, message = _severity(
        write_tree(tmp_path, {"ci/pre-commit/example_links.py": LINKS}), "ci/pre-commit/example_links.py"
    )
    assert severity == "low" and "imports no build API and runs no compiler" in message


def test_the_same_flags_keep_the_rules_severity_in_a_script_that_builds_or_outside_ci(tmp_path):
    assert (
        _severity(write_tree(tmp_path / "a", {"ci/build_examples.py": BUILDS}), "ci/build_examples.py")[0] == "medium"
    )
    assert _severity(write_tree(tmp_path / "b", {"flags/links.py": LINKS}), "flags/links.py")[0] == "medium"
