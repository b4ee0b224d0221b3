"""scripts/new_rule.py writes every file a rule needs: run in a copy of the tree for a CUDA family, a text family
and Python (whose example is found in string constants), the catalogue, fixture, docs and i18n tests pass there
with the new rules, and each rule finds its example on the positive fixture's `expect:` line."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# What the script and the tests it must satisfy read: the scanner, the portal (the i18n tests set up Django), the
# tests and their fixtures, docs/rules.md, and the demo project test_message_i18n scans.
COPIED = ("scanner", "portal", "tests", "docs", "demo", "scripts", "templates", "static", "locale")
NEW = (("warp", "foo_bar", ".cu"), ("container", "gpu_quota", ".Dockerfile"), ("python", "foo_bar", ".py"))


def _copy(tree: Path) -> Path:
    for name in COPIED:
        shutil.copytree(ROOT / name, tree / name, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
    shutil.copy(ROOT / "pyproject.toml", tree)
    return tree


def _environment() -> dict[str, str]:
    """This run's environment (the database, the services), without what pytest-xdist set for this process."""
    return {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "DJANGO_SETTINGS"))}


def test_the_scaffold_passes_the_catalogue_fixture_docs_and_i18n_tests(tmp_path):
    tree = _copy(tmp_path / "tree")
    made = []  # (family, module, the code the script chose, suffix)
    for family, module, suffix in NEW:
        run = subprocess.run(
            [sys.executable, "scripts/new_rule.py", family, module],
            cwd=tree,
            env=_environment(),
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert run.returncode == 0, run.stdout + run.stderr
        made.append((family, module, run.stdout.split()[0], suffix))

    codes = (tree / "scanner/rules/codes.py").read_text()
    zh = json.loads((tree / "portal/catalogue/i18n/zh_hans.json").read_text(encoding="utf-8"))
    messages = json.loads((tree / "portal/catalogue/i18n/zh_hans_messages.json").read_text(encoding="utf-8"))
    rules_md = (tree / "docs/rules.md").read_text()
    fixtures = tree / "tests/scanner/fixtures/rules"
    for family, module, code, suffix in made:
        name = f"{family}-{module.replace('_', '-')}"
        assert f'"{code}": "{family}.{module}",' in codes
        assert f'name="{name}"' in (tree / f"scanner/rules/{family}/{module}.py").read_text()
        assert f"| [{code}](#{code.lower()}) | `{name}` |" in rules_md
        assert set(zh[code]) == {"title", "summary"} and len(messages[code]) == 1
        positive = (fixtures / f"{code}_{module}{suffix}").read_text()
        found = (fixtures / f"snapshots/{code}_{module}{suffix}.snap").read_text().splitlines()[2:]
        line = next(n for n, text in enumerate(positive.splitlines(), 1) if f"expect: {code}" in text)
        assert [f.split(":")[0] for f in found] == [str(line)] and f" {code} " in found[0]
        assert (fixtures / f"snapshots/{code}_{module}_ok{suffix}.snap").read_text().count("\n") == 2  # header only
    # the row goes with its family's, before the next family's comment
    assert codes.index(f'"{made[0][2]}": "warp.foo_bar"') < codes.index("# PTX")

    codes_run = " or ".join(code for _, _, code, _ in made)
    tests = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-v",
            "-n",
            "0",
            "-p",
            "no:cacheprovider",
            "tests/scanner/test_catalogue.py",
            "tests/scanner/test_rule_fixtures.py",
            "tests/portal/catalogue/test_catalogue_i18n.py::test_every_rule_has_a_translated_title_and_summary",
            "tests/portal/catalogue/test_catalogue_i18n.py::test_translated_documentation_keeps_the_code_spans_of_the_english",
            "tests/portal/catalogue/test_message_i18n.py::test_every_snapshot_and_demo_message_translates",
            "tests/portal/catalogue/test_message_i18n.py::test_every_template_compiles_and_keeps_its_placeholders",
            "-k",
            f"not test_rule_ or {codes_run} or test_rule_name or test_rule_has",
        ],
        cwd=tree,
        env=_environment(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert tests.returncode == 0, tests.stdout[-5000:] + tests.stderr[-2000:]
    for _, module, code, suffix in made:  # the new rules' own fixture tests ran, on both fixtures
        for fixture in (f"{code}_{module}{suffix}", f"{code}_{module}_ok{suffix}"):
            assert f"test_rule_reports_exactly_its_snapshot[{fixture}] PASSED" in tests.stdout, fixture
        assert f"test_rule_fixture_has_positive_and_negative_cases[{code}] PASSED" in tests.stdout
