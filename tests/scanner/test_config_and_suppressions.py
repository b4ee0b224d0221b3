"""`.rocport.toml` and inline suppressions."""

from __future__ import annotations

import pytest

from scanner import ConfigError, ScanOptions, scan
from scanner.config import from_mapping
from tests.scanner.helpers import analyze_text

KERNEL = "__global__ void k(int *o) {{\n  o[threadIdx.x % 32] = warpSize;{comment}\n}}\n"


@pytest.mark.parametrize(
    "data, key",
    [
        ({"scan": {"exlude": []}}, "scan.exlude"),
        ({"scann": {}}, "[scann]"),
        ({"scan": {"max_file_bytes": "big"}}, "scan.max_file_bytes"),
        ({"scan": {"max_file_bytes": -1}}, "scan.max_file_bytes"),
        ({"rules": {"disable": ["ROC999"]}}, "rules.disable"),
        ({"target": {"targets": ["sm_80"]}}, "sm_80"),
        ({"target": {"rocm": "seven"}}, "seven"),
        ({"parse": {"defines": [1]}}, "parse.defines"),
    ],
)
def test_bad_config_is_an_error_naming_the_key(data, key):
    with pytest.raises(ConfigError, match=key.replace("[", r"\[").replace("]", r"\]")):
        from_mapping(data, ScanOptions())


def test_config_excludes_paths_and_disables_rules(tmp_path):
    (tmp_path / ".rocport.toml").write_text('[scan]\nexclude = ["vendor/**"]\n[rules]\ndisable = ["ROC101"]\n')
    (tmp_path / "vendor").mkdir()
    (tmp_path / "vendor" / "v.cu").write_text(KERNEL.format(comment=""))
    (tmp_path / "mine.cu").write_text(KERNEL.format(comment="") + "int w = __AMDGCN_WAVEFRONT_SIZE;\n")
    results = list(scan(tmp_path))
    assert [r.path for r in results] == ["mine.cu"]
    assert [f.rule for f in results[0].findings] == ["ROC109"]


def test_config_defines_select_the_analysed_branch(tmp_path):
    (tmp_path / ".rocport.toml").write_text('[parse]\ndefines = ["USE_WARP_TRICKS=1"]\n')
    (tmp_path / "k.cu").write_text("#if USE_WARP_TRICKS\n" + KERNEL.format(comment="") + "#endif\n")
    [result] = list(scan(tmp_path))
    assert [f.rule for f in result.findings] == ["ROC101"]


def test_an_inline_comment_suppresses_one_rule_on_one_line_and_keeps_it_reported(tmp_path):
    text = KERNEL.format(comment="  // rocport: ignore[ROC101] NVIDIA-only kernel")
    result = analyze_text(tmp_path, text, codes=["ROC101"])
    [finding] = result.findings
    assert finding.suppressed and finding.suppression_reason == "NVIDIA-only kernel"


def test_a_comment_alone_on_its_line_suppresses_the_next_line(tmp_path):
    text = (
        "__global__ void k(int *o) {\n  // rocport: ignore[warp-size-lane-arithmetic] checked\n"
        "  o[threadIdx.x % 32] = warpSize;\n  o[threadIdx.x % 32] = warpSize;\n}\n"
    )
    result = analyze_text(tmp_path, text, codes=["ROC101"])
    assert [(f.line, f.suppressed) for f in result.findings] == [(3, True), (4, False)]


def test_a_suppression_for_another_rule_does_not_apply(tmp_path):
    text = KERNEL.format(comment="  // rocport: ignore[ROC106] wrong rule")
    result = analyze_text(tmp_path, text, codes=["ROC101"])
    assert not result.findings[0].suppressed


# ROC109 was `amdgcn-wavefront-size-macro` before names took their family (`warp-`): the old name still works.
WAVEFRONT = "int w = __AMDGCN_WAVEFRONT_SIZE;{comment}\n"


@pytest.mark.parametrize("written", ["ROC109", "warp-amdgcn-wavefront-size-macro", "amdgcn-wavefront-size-macro"])
def test_a_suppression_comment_accepts_the_code_the_name_and_a_former_name(tmp_path, written):
    text = WAVEFRONT.format(comment=f"  // rocport: ignore[{written}] NVIDIA-only")
    [finding] = analyze_text(tmp_path, text, codes=["ROC109"]).findings
    assert finding.suppressed and finding.suppression_reason == "NVIDIA-only"


def test_a_former_name_in_a_hash_comment_suppresses_in_a_text_file(tmp_path):
    text = "# rocport: ignore[container-nvidia-runtime-env] NVIDIA job\nENV NVIDIA_VISIBLE_DEVICES=all\n"
    [finding] = analyze_text(tmp_path, text, name="Dockerfile", codes=["ROC222"]).findings
    assert finding.suppressed


@pytest.mark.parametrize("key", ["disable", "enable"])
def test_rocport_toml_accepts_a_former_rule_name(tmp_path, key):
    (tmp_path / ".rocport.toml").write_text(f'[rules]\n{key} = ["amdgcn-wavefront-size-macro"]\n')
    (tmp_path / "mine.cu").write_text(KERNEL.format(comment="") + WAVEFRONT.format(comment=""))
    [result] = list(scan(tmp_path))
    expected = ["ROC101"] if key == "disable" else ["ROC109"]
    assert [f.rule for f in result.findings] == expected


def test_an_unknown_rule_name_in_rocport_toml_is_still_an_error():
    with pytest.raises(ConfigError, match="amdgcn-wavefront-size"):
        from_mapping({"rules": {"disable": ["amdgcn-wavefront-size"]}}, ScanOptions())
