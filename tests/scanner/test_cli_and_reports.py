"""`python -m scanner` as CI runs it: exit codes, JSON and SARIF (validated against the official schema)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "demo" / "cuda-demo"
SCHEMA = json.loads((Path(__file__).parent / "schemas" / "sarif-schema-2.1.0.json").read_text())


def run(*args, cwd=ROOT, env=None):
    return subprocess.run(
        [sys.executable, "-m", "scanner", *args], cwd=cwd, capture_output=True, text=True, timeout=300, env=env
    )


@pytest.fixture(scope="module")
def demo_json():
    proc = run("scan", str(DEMO), "--format", "json", "--fail-on", "never", "--jobs", "2")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def demo_sarif():
    proc = run("scan", str(DEMO), "--format", "sarif", "--fail-on", "never")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_demo_scan_reports_at_least_eight_different_rules(demo_json):
    rules = {f["rule"] for file in demo_json["files"] for f in file["findings"]}
    assert len(rules) >= 8, sorted(rules)


def test_json_report_is_versioned_and_carries_parse_health(demo_json):
    assert demo_json["schema"] == "rocport-scan/1"
    assert demo_json["target"] == {"targets": ["gfx942"], "rocm": "7.2"}
    paths = [f["path"] for f in demo_json["files"]]
    assert paths[-1] == "."  # the repository-level result (scanner.repository) comes after every file
    assert paths[:-1] == sorted(paths[:-1])
    assert not any(p.startswith("third_party/") for p in paths)  # excluded by the demo's .rocport.toml
    for file in demo_json["files"]:
        assert file["parse"]["mode"] in {"ast", "ast-stubbed", "tokens", "text", "error"}
    assert sum(demo_json["summary"]["parse_modes"].values()) == len(paths)


def test_demo_shows_the_repository_level_finding_and_the_non_cxx_families(demo_json):
    repository = demo_json["files"][-1]
    assert repository["language"] == "repository" and repository["parse"]["mode"] == "text"
    [numa] = repository["findings"]
    assert numa["rule"] == "ROC261" and numa["path"] == "deploy/setup_host.sh"
    rules = {f["rule"] for file in demo_json["files"] for f in file["findings"]}
    for family in ("ROC20", "ROC21", "ROC22", "ROC23", "ROC24", "ROC25", "ROC26"):
        assert any(code.startswith(family) for code in rules), family
    languages = {f["path"]: f["language"] for f in demo_json["files"]}
    assert languages["CMakeLists.txt"] == "cmake" and languages["Dockerfile"] == "dockerfile"
    assert languages["requirements.txt"] == "requirements" and languages[".github/workflows/ci.yml"] == "yaml"


def test_suppressed_findings_are_reported_as_suppressed(demo_json):
    portable = next(f for f in demo_json["files"] if f["path"] == "src/portable.cu")
    suppressed = [f for f in portable["findings"] if f["suppressed"]]
    assert [f["rule"] for f in suppressed] == ["ROC101"]
    assert "NVIDIA builds" in suppressed[0]["suppression_reason"]
    assert demo_json["summary"]["suppressed"] >= 1


def test_sarif_validates_against_the_official_schema(demo_sarif):
    jsonschema.Draft4Validator(SCHEMA).validate(demo_sarif)


def test_sarif_locations_are_relative_to_the_scanned_root(demo_sarif):
    run_ = demo_sarif["runs"][0]
    assert run_["originalUriBaseIds"]["SRCROOT"]["uri"] == DEMO.resolve().as_uri() + "/"
    for result in run_["results"]:
        location = result["locations"][0]["physicalLocation"]["artifactLocation"]
        assert location["uriBaseId"] == "SRCROOT"
        assert not location["uri"].startswith("/")
        assert (DEMO / location["uri"]).is_file()


def test_sarif_results_have_fingerprints_rule_metadata_and_suppressions(demo_sarif):
    run_ = demo_sarif["runs"][0]
    rules = run_["tool"]["driver"]["rules"]
    for result in run_["results"]:
        assert result["partialFingerprints"]["rocportContentHash/v1"]
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    for rule in rules:
        assert "Why it breaks on ROCm" in rule["help"]["text"]
    suppressed = [r for r in run_["results"] if r.get("suppressions")]
    assert suppressed and suppressed[0]["suppressions"][0]["kind"] == "inSource"


def test_exit_code_follows_fail_on(tmp_path):
    (tmp_path / "k.cu").write_text(
        "__global__ void k(int *o) { o[threadIdx.x % 32] = __shfl_sync(0xffffffff, 1, 0); }\n"
    )
    assert run("scan", str(tmp_path), "--fail-on", "high").returncode == 1
    assert run("scan", str(tmp_path), "--fail-on", "critical").returncode == 0
    assert run("scan", str(tmp_path), "--fail-on", "never").returncode == 0


def test_a_bad_config_key_is_a_clear_error_naming_it(tmp_path):
    (tmp_path / ".rocport.toml").write_text('[scan]\nexlude = ["x"]\n')
    proc = run("scan", str(tmp_path))
    assert proc.returncode == 2
    assert "scan.exlude" in proc.stderr


def test_a_missing_directory_is_a_clear_error(tmp_path):
    proc = run("scan", str(tmp_path / "nope"))
    assert proc.returncode == 2 and "not a directory" in proc.stderr


def test_explain_prints_the_rule_documentation():
    proc = run("explain", "ROC101")
    assert proc.returncode == 0
    for section in ("What it finds:", "Why it breaks on ROCm:", "Example:", "Use instead:", "References:"):
        assert section in proc.stdout
    assert run("explain", "ROC999").returncode == 2


def test_explain_accepts_a_former_rule_name():
    proc = run("explain", "ci-nvidia-runner")
    assert proc.returncode == 0
    assert proc.stdout.startswith("ROC235 shell-ci-nvidia-runner:") and "formerly: ci-nvidia-runner" in proc.stdout


def test_wave32_target_lowers_warp_size_findings(tmp_path):
    (tmp_path / "k.cu").write_text(
        "__global__ void k(int *o) { o[threadIdx.x % 32] = __shfl_sync(0xffffffff, 1, 0); }\n"
    )
    proc = run("scan", str(tmp_path), "--format", "json", "--target", "gfx1100", "--fail-on", "never")
    finding = json.loads(proc.stdout)["files"][0]["findings"][0]
    assert finding["severity"] == "low"
    assert "32-lane wavefronts" in finding["message"]


def test_a_rules_sarif_level_is_the_level_of_its_results_for_the_scan_targets():
    """ROC109 is medium in the abstract and high from ROCm 7.0: SARIF and the catalogue said medium while every
    result said high. The descriptor follows the scan's target profile; the catalogue names both."""
    from scanner.report.sarif import rule_descriptor
    from scanner.rules import catalogue, docs
    from scanner.target import TargetProfile

    rule = catalogue()["ROC109"]
    for rocm, level in (("7.2", "error"), ("6.2", "warning")):
        target = TargetProfile.parse(None, rocm)
        descriptor = rule_descriptor(rule, target)
        severity = rule.severity_for(target)[0]
        assert descriptor["defaultConfiguration"]["level"] == level
        assert descriptor["properties"]["severity"] == severity.value
    assert "| high for the default targets (medium otherwise) |" in docs.markdown([rule])
