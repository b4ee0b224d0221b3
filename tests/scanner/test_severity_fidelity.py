"""Severities and messages that say what really happens on ROCm: each case is a shape measured on real CUDA
projects whose finding overstated (or misnamed) the risk. The fixtures check where findings are; these tests
check how they are judged."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scanner.engine import Analyzer, FileJob
from scanner.model import Risk, Severity
from scanner.port import Port
from scanner.rules import catalogue, select
from scanner.target import TargetProfile
from tests.scanner.helpers import RULE_FIXTURES, analyze_repository, parser

PORTED = Port(evidence=("a HIP build in CMakeLists.txt (`enable_language(HIP)`)",))


def findings(path: Path, codes, *, port: Port = Port(), target: TargetProfile = TargetProfile(), root=None):
    from scanner.discovery import language_of

    root = root or path.parent
    rel = path.relative_to(root).as_posix()
    job = FileJob(str(path), rel, language_of(path.name, path.parent.relative_to(root).as_posix()) or "cuda")
    result = Analyzer(parser(), select(list(codes)), target, 2_000_000, port=port).analyze(job)
    assert result.error == "", result.error
    return result.findings


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def by_line(found) -> dict[int, object]:
    return {f.line: f for f in found}


# -- 1. rules about the ROCm side keep their severity in a ported repository -------------------------------
@pytest.mark.parametrize("code", ["ROC225", "ROC232", "ROC262"])
def test_rocm_side_rules_keep_their_severity_where_the_repository_builds_for_rocm(code):
    rule = catalogue()[code]
    assert rule.rocm_side
    for fixture in sorted(RULE_FIXTURES.glob(f"{code}_*")):
        found = findings(fixture, [code], port=PORTED)
        assert found, fixture.name
        assert all(f.severity == rule.severity and "NVIDIA side" not in f.message for f in found), fixture.name


def test_a_nvidia_side_rule_still_drops_to_info_in_a_ported_repository():
    found = findings(RULE_FIXTURES / "ROC231_nvidia_smi.sh", ["ROC231"], port=PORTED)
    assert found and all(f.severity == Severity.INFO and "NVIDIA side" in f.message for f in found)


def test_numa_balancing_is_a_rocm_side_rule():
    assert catalogue()["ROC261"].rocm_side


# -- 2. NVML behind __has_include(<nvml.h>) breaks no build -------------------------------------------------
def test_nvml_behind_has_include_is_info_and_says_why():
    found = findings(RULE_FIXTURES / "ROC140_nvml_usage_has_include.cu", ["ROC140"])
    assert found
    for f in found:
        assert f.severity == Severity.INFO and f.risk == Risk.RUNTIME_FAILURE, (f.line, f.severity)
        assert "__has_include(<nvml.h>)" in f.message and "does not break" in f.message


def test_nvml_without_a_guard_keeps_the_rule_severity():
    found = findings(RULE_FIXTURES / "ROC140_nvml_usage.cu", ["ROC140"])
    assert found and all(f.severity == Severity.MEDIUM and f.risk == Risk.BUILD_BREAK for f in found)


@pytest.mark.parametrize(
    "text",
    [
        "#if !__has_include(<amd_smi/amdsmi.h>)\n#include <nvml.h>\n#endif\n",
        "#if !__has_include(<nvml.h>)\nvoid f() { nvmlInit(); }\n#endif\n",
    ],
)
def test_nvml_behind_a_negated_or_other_has_include_is_not_lowered(tmp_path, text):
    found = findings(write(tmp_path, "mon.cu", text), ["ROC140"])
    assert [f.severity for f in found] == [Severity.MEDIUM]


# -- 10. a library is reported once per file, with its uses counted ---------------------------------------
FOLDED = re.compile(r"One finding for the file: (\d+) uses on (\d+) lines? \(([^)]*)\)")
LIBRARY_CODES = [f"ROC{n}" for n in range(130, 141)]


def folded_lines(path: Path, code: str) -> set[int]:
    """The lines a fixture marks as uses of `code`: its `expect:` line and its `folded:` lines."""
    marked = set()
    for number, text in enumerate(path.read_text().splitlines(), start=1):
        if re.search(rf"(expect|folded):[^/]*\b{code}\b", text):
            marked.add(number)
    return marked


@pytest.mark.parametrize("code", LIBRARY_CODES)
def test_a_library_is_one_finding_per_file_counting_its_uses(code):
    for fixture in sorted(RULE_FIXTURES.glob(f"{code}_*")):
        found = [f for f in findings(fixture, [code]) if f.rule == code]
        marked = folded_lines(fixture, code)
        if not marked:
            assert not found, fixture.name
            continue
        assert len(found) == 1 and found[0].line == min(marked), (fixture.name, [(f.line, f.message) for f in found])
        match = FOLDED.search(found[0].message)
        if len(marked) == 1:
            assert match is None or match.group(2) == "1", found[0].message
            continue
        assert match, found[0].message
        shown = [int(n) for n in re.findall(r"\d+", match.group(3))]
        lines = sorted(marked)
        expected = lines if "..." not in match.group(3) else lines[: len(shown) - 1] + lines[-1:]
        assert int(match.group(2)) == len(marked) and shown == expected, (fixture.name, lines, found[0].message)


# -- 3. an #if __CUDA_ARCH__ >= N with a computing #else is a slower path, not a silent wrong result ---------
def test_cuda_arch_check_with_a_computing_else_is_low_performance_and_says_which_branch_hip_takes():
    fixture = RULE_FIXTURES / "ROC158_cuda_arch_numeric_check.cu"
    found = by_line(findings(fixture, ["ROC158"]))
    text = fixture.read_text().splitlines()
    fast_exp = next(i for i, t in enumerate(text, start=1) if "__CUDA_ARCH__ >= 750" in t)
    lowered = found[fast_exp]
    assert (lowered.severity, lowered.risk) == (Severity.LOW, Risk.PERFORMANCE)
    assert f"`#else` branch at line {fast_exp + 2}" in lowered.message and "slower" in lowered.message
    for line, finding in found.items():
        if line != fast_exp:  # a trapping #else, an empty #else, no #else, a #define, a feature macro
            assert (finding.severity, finding.risk) == (Severity.MEDIUM, Risk.SILENT_WRONG_RESULT), line


def test_cuda_arch_less_than_check_whose_own_branch_computes_is_low(tmp_path):
    path = write(
        tmp_path,
        "k.cu",
        "__device__ float f(float x) {\n#if __CUDA_ARCH__ < 700\n  return x * 2.0f;\n"
        "#else\n  return __fmul_rn(x, 2.0f);\n#endif\n}\n",
    )
    [finding] = findings(path, ["ROC158"])
    assert finding.severity == Severity.LOW and "`#if` branch at line 2" in finding.message


# -- 5. TORCH_CUDA_ARCH_LIST is ignored by ROCm's PyTorch: a note, not a build break -------------------------
def test_torch_cuda_arch_list_is_info_and_says_pytorch_rocm_arch():
    found = findings(RULE_FIXTURES / "ROC212_sm_arch_flag.sh", ["ROC212"])
    torch = [f for f in found if "TORCH_CUDA_ARCH_LIST" in f.snippet]
    assert len(torch) == 1
    assert (torch[0].severity, torch[0].risk) == (Severity.INFO, Risk.PERFORMANCE)
    assert "ignored" in torch[0].message and "PYTORCH_ROCM_ARCH" in torch[0].message
    others = [f for f in found if f not in torch]
    assert others and all((f.severity, f.risk) == (Severity.MEDIUM, Risk.BUILD_BREAK) for f in others)


def test_torch_cuda_arch_list_in_a_setup_script_is_info(tmp_path):
    path = write(tmp_path, "setup.py", 'import os\nos.environ["TORCH_CUDA_ARCH_LIST"] = "8.0;9.0"\n')
    [finding] = findings(path, ["ROC212"])
    assert finding.severity == Severity.INFO


# -- 6. HIP honours CUDA_VISIBLE_DEVICES: setting it is info, reading it to count GPUs is low ----------------
def test_setting_cuda_visible_devices_is_info_and_reading_it_is_low():
    expected = {
        "ROC233_cuda_visible_devices.sh": {3: Severity.INFO, 4: Severity.INFO, 5: Severity.LOW},
        "ROC233_cuda_visible_devices.py": {
            7: Severity.INFO,
            8: Severity.LOW,
            9: Severity.LOW,
            10: Severity.INFO,
            14: Severity.INFO,
        },
    }
    for name, severities in expected.items():
        found = findings(RULE_FIXTURES / name, ["ROC233"])
        assert {f.line: f.severity for f in found} == severities, name
        for f in found:
            assert ("honours it" in f.message) == (f.severity == Severity.INFO), f.message


# -- 7. in a repository that already builds for ROCm, CI and install findings do not claim it never does ------
NEVER = re.compile(r"never (built|compiled|tested)|ROCm machines do not have|is_available\(\) is False")


@pytest.mark.parametrize("code", ["ROC234", "ROC235", "ROC236", "ROC242"])
def test_ci_and_install_messages_are_true_with_and_without_a_rocm_port(code):
    fixtures = sorted(RULE_FIXTURES.glob(f"{code}_*"))
    plain = [f for fixture in fixtures for f in findings(fixture, [code])]
    ported = [f for fixture in fixtures for f in findings(fixture, [code], port=PORTED)]
    assert plain and len(plain) == len(ported)
    assert any(NEVER.search(f.message) for f in plain)
    for f in ported:
        assert not NEVER.search(f.message), f.message
        assert f.severity == Severity.INFO and "NVIDIA side" in f.message


# -- 8. a benchmark script that touches host settings is not host setup -------------------------------------
def repository_findings(tmp_path, files: dict[str, str], code: str = "ROC261"):
    paths = [write(tmp_path, rel, text) for rel, text in files.items()]
    result = analyze_repository(paths, tmp_path, codes=[code])
    return result.findings if result is not None else []


def test_numa_balancing_for_a_benchmark_script_only_is_low_and_softened(tmp_path):
    [finding] = repository_findings(
        tmp_path, {"benchmarks/run_all.sh": "#!/bin/bash\nsync\necho 3 | sudo tee /proc/sys/vm/drop_caches\n./bench\n"}
    )
    assert finding.severity == Severity.LOW and finding.path == "benchmarks/run_all.sh"
    assert "not host setup" in finding.message and "hangs" not in finding.message


def test_numa_balancing_for_real_host_setup_stays_high_and_is_located_there(tmp_path):
    [finding] = repository_findings(
        tmp_path,
        {
            "examples/bench_llm.sh": "#!/bin/bash\nsudo sysctl -w vm.drop_caches=3\n",
            "deploy/setup_host.sh": "#!/bin/bash\nsudo amdgpu-install -y --usecase=rocm\n",
        },
    )
    assert finding.severity == Severity.HIGH and finding.path == "deploy/setup_host.sh"
    assert "expect GPU hangs" not in finding.message and "linked to GPU hangs" in finding.message


# -- 9. cooperative groups: judged by the target's ROCm release ----------------------------------------------
def cg_findings(rocm: str) -> dict[str, object]:
    fixture = RULE_FIXTURES / "ROC155_cooperative_groups_gap.cu"
    lines = fixture.read_text().splitlines()
    found = findings(fixture, ["ROC155"], target=TargetProfile.parse(None, rocm))
    return {lines[f.line - 1].strip(): f for f in found}


def test_cg_reduce_and_scans_are_gaps_before_the_release_that_added_them():
    found = cg_findings("7.2")
    reduce = next(f for text, f in found.items() if "cg::reduce(" in text)
    # An undeclared name: the file does not compile, a high build break.
    assert (reduce.severity, reduce.risk) == (Severity.HIGH, Risk.BUILD_BREAK)
    assert "before ROCm 7.13 (the target is 7.2)" in reduce.message
    scan = next(f for text, f in found.items() if "cg::exclusive_scan(" in text)
    assert scan.severity == Severity.HIGH and "before ROCm 10.0" in scan.message


def test_cg_reduce_is_info_from_rocm_7_13_and_gone_from_10_0():
    found = cg_findings("7.13")
    reduce = next(f for text, f in found.items() if "cg::reduce(" in text)
    assert reduce.severity == Severity.INFO and "y or z dimension" in reduce.message
    header = next(f for text, f in found.items() if "reduce.h" in text)
    assert header.severity == Severity.INFO and "hip_reduce.h" in header.message
    assert next(f for text, f in found.items() if "cg::exclusive_scan(" in text).severity == Severity.HIGH
    later = cg_findings("10.0")
    assert not [text for text in later if "cg::reduce(" in text or "_scan(" in text]
    assert all(later[text].severity == Severity.HIGH for text in later if "memcpy_async(" in text)


# -- 11. CUDA environment variables set from Python that ROCm ignores --------------------------------------
def test_cuda_env_variables_set_from_python_are_judged_per_variable():
    found = by_line(findings(RULE_FIXTURES / "ROC245_cuda_env_variable.py", ["ROC245"]))
    assert (found[6].severity, found[6].risk) == (Severity.LOW, Risk.RUNTIME_FAILURE)
    assert "HIP_LAUNCH_BLOCKING" in found[6].message
    assert (found[7].severity, found[7].risk) == (Severity.LOW, Risk.PERFORMANCE)
    assert "GPU_MAX_HW_QUEUES" in found[7].message
    assert found[8].severity == Severity.INFO and found[9].severity == Severity.INFO
    assert found[10].severity == Severity.LOW and "HSA_CU_MASK" in found[10].message
    assert found[11].severity == Severity.LOW


def test_cuda_env_variables_set_in_a_shell_script_are_judged_as_from_python(tmp_path):
    text = 'export CUDA_LAUNCH_BLOCKING=1\nexport CUDA_DEVICE_ORDER=PCI_BUS_ID\necho "$CUDA_LAUNCH_BLOCKING"\n'
    found = by_line(findings(write(tmp_path, "run.sh", text), ["ROC245"]))
    assert sorted(found) == [1, 2]
    assert (found[1].severity, found[1].risk) == (Severity.LOW, Risk.RUNTIME_FAILURE)
    assert "HIP_LAUNCH_BLOCKING" in found[1].message
    assert found[2].severity == Severity.INFO


# -- 12. false-positive shapes -----------------------------------------------------------------------------
def test_a_loaders_declarations_are_info_and_its_calls_are_not():
    found = by_line(findings(RULE_FIXTURES / "ROC161_driver_api_usage_loader.cu", ["ROC161"]))
    assert {line: f.severity for line, f in found.items()} == {
        5: Severity.INFO,
        6: Severity.INFO,
        10: Severity.INFO,
        11: Severity.INFO,
        15: Severity.MEDIUM,
        16: Severity.MEDIUM,
    }
    assert "function pointer" in found[6].message and "symbol lookup" in found[11].message


VENDORED_CUDA_H = "".join(
    f"CUresult CUDAAPI cu{name}(void);\n"
    for name in (
        "Init",
        "CtxCreate",
        "CtxDestroy",
        "ModuleLoad",
        "ModuleGetFunction",
        "LaunchKernel",
        "MemAlloc",
        "MemFree",
    )
)


@pytest.mark.parametrize("rel", ["third_party/cuda/cuda.h", "include/nv/driver_api.h"])
def test_a_vendored_copy_of_cuda_h_is_info(tmp_path, rel):
    path = write(
        tmp_path, rel, "#define CUDAAPI\ntypedef int CUresult;\ntypedef struct CUctx_st *CUcontext;\n" + VENDORED_CUDA_H
    )
    codes = ["ROC150", "ROC151", "ROC152", "ROC153", "ROC161", "ROC162", "ROC163"]
    found = findings(path, codes, root=tmp_path)
    assert found and all(f.severity == Severity.INFO and "declares" in f.message for f in found)


def test_a_file_that_calls_the_driver_api_is_not_a_declaration(tmp_path):
    calls = "".join(f"  cu{name}(0);\n" for name in ("Init", "CtxSynchronize", "MemFree", "ModuleUnload", "CtxDestroy"))
    path = write(
        tmp_path, "driver.cpp", "#include <cuda.h>\nCUresult CUDAAPI cuInit(unsigned);\nvoid f() {\n" + calls + "}\n"
    )
    assert any(f.severity == Severity.MEDIUM for f in findings(path, ["ROC161"]))


@pytest.mark.parametrize(
    "rel",
    [
        "src/ggml-sycl/common.cpp",
        "backends/xpu/ops.cu",
        "ggml-musa/CMakeLists.txt",
        "src/metal/setup.sh",
        "csrc/torch_hpu/run.py",
    ],
)
def test_other_vendors_backends_are_not_cuda_code_to_migrate(tmp_path, rel):
    texts = {
        ".cpp": "void f() { cudaMemAdvise(0, 0, cudaMemAdviseSetReadMostly, 0); nvmlInit(); }\n",
        ".cu": "#include <nccl.h>\nvoid f() { cudaGraphLaunch(0, 0); }\n",
        ".txt": "enable_language(CUDA)\nfind_package(CUDAToolkit)\n",
        ".sh": "nvidia-smi -L\nexport CUDA_VISIBLE_DEVICES=0\n",
        ".py": 'import os\nos.environ["CUDA_LAUNCH_BLOCKING"] = "1"\nimport pynvml\n',
    }
    path = write(tmp_path, rel, texts[Path(rel).suffix])
    codes = [code for code in catalogue() if "130" <= code[3:] <= "169" or code.startswith("ROC2")]
    assert not findings(path, codes, root=tmp_path)
    control = write(tmp_path, "cuda/" + Path(rel).name, texts[Path(rel).suffix])
    assert findings(control, codes, root=tmp_path), "the same file elsewhere is reported"


def test_a_diagnostic_nvidia_smi_is_info_and_one_whose_output_decides_something_is_not():
    expected = {
        "ROC231_nvidia_smi.sh": {
            3: Severity.INFO,
            4: Severity.MEDIUM,
            5: Severity.MEDIUM,
            6: Severity.INFO,
            7: Severity.MEDIUM,
        },
        "ROC231_nvidia_smi_errexit.sh": {5: Severity.LOW, 6: Severity.INFO, 7: Severity.MEDIUM, 8: Severity.LOW},
        "ROC231_nvidia_smi.py": {6: Severity.MEDIUM, 7: Severity.MEDIUM, 8: Severity.INFO, 9: Severity.INFO},
        "ROC231_nvidia_smi_job_script.sh": {
            10: Severity.LOW,
            11: Severity.LOW,
            13: Severity.INFO,
            14: Severity.INFO,
            16: Severity.MEDIUM,
        },
    }
    for name, severities in expected.items():
        found = findings(RULE_FIXTURES / name, ["ROC231"])
        assert {f.line: f.severity for f in found} == severities, name
        assert all(
            ("only prints" in f.message or "only sets" in f.message) == (f.severity != Severity.MEDIUM) for f in found
        ), name


def test_nvidia_smi_that_sets_the_gpus_state_is_tuning_unless_it_stops_the_script():
    found = {f.line: f for f in findings(RULE_FIXTURES / "ROC231_nvidia_smi_job_script.sh", ["ROC231"])}
    assert found[10].risk == Risk.PERFORMANCE and "`-lgc`" in found[10].message
    stops = {f.line: f for f in findings(RULE_FIXTURES / "ROC231_nvidia_smi_errexit.sh", ["ROC231"])}[7]
    assert stops.risk == Risk.RUNTIME_FAILURE and "`set -e`" in stops.message


@pytest.mark.parametrize(
    "code, text",
    [
        ("ROC231", 'print("run nvidia-smi to see the GPUs")\n'),
        ("ROC232", 'logging.info("rocm-smi reported %s", x)\n'),
        ("ROC234", 'raise RuntimeError("nvcc --version failed: install the CUDA toolkit")\n'),
        ("ROC212", 'parser.add_argument("--arch", help="passed as -arch=sm_80 to nvcc")\n'),
        ("ROC253", 'warnings.warn("NCCL_ALGO=Tree is slow here")\n'),
    ],
)
def test_python_messages_that_name_a_command_or_setting_are_not_findings(tmp_path, code, text):
    assert not findings(write(tmp_path, "tool.py", "import logging, warnings\n" + text), [code])


def test_nccl_settings_rccl_honours_alike_are_not_reported_and_cumem_follows_the_target(tmp_path):
    path = write(
        tmp_path,
        "run.sh",
        "export NCCL_NET_GDR_LEVEL=2\nexport NCCL_P2P_LEVEL=PXB\n"
        "export NCCL_MAX_NCHANNELS=16\nexport NCCL_ALGO=Tree\nexport NCCL_PROTO=Simple\n"
        "export NCCL_CUMEM_ENABLE=0\n",
    )
    assert [f.line for f in findings(path, ["ROC253"])] == [6]
    assert not findings(path, ["ROC253"], target=TargetProfile.parse(None, "10.0"))


# -- the catalogue (and SARIF's rule descriptor) states the most a rule reports ----------------------------
MINE = [code for code in sorted(catalogue()) if "130" <= code[3:] <= "169" or code.startswith("ROC2")]


@pytest.mark.parametrize("code", MINE)
def test_no_finding_is_above_its_rules_catalogue_severity_at_the_default_target(code):
    rule = catalogue()[code]
    assert rule.severity_for(TargetProfile())[0] == rule.severity  # SARIF's defaultConfiguration agrees
    for fixture in sorted(RULE_FIXTURES.glob(f"{code}_*")):
        found = list(findings(fixture, [code]))
        if "repository" in rule.on:
            extra = analyze_repository([fixture], fixture.parent, codes=[code])
            found += extra.findings if extra is not None else []
        for f in found:
            assert f.severity.rank <= rule.severity.rank, (fixture.name, f.line, f.severity)


def test_a_hint_printed_by_make_or_echo_is_not_an_install(tmp_path):
    makefile = write(
        tmp_path,
        "Makefile",
        (
            "ifeq ($(NCCL), )\n"
            "  $(info NCCL is not found: try `sudo apt install libnccl2 libnccl-dev`)\n"
            "endif\n"
            "setup:\n"
            "\techo 'run: sudo apt-get install -y libnccl2'\n"
            "\tsudo apt-get install -y libnccl2\n"
        ),
    )
    assert set(by_line(findings(makefile, ["ROC223"]))) == {6}


# -- a CUDA API behind a CUDA-version #if: HIP does not define CUDART_VERSION, so the branch is not compiled ---
def test_a_name_behind_a_cuda_version_guard_is_info_and_says_why():
    found = by_line(findings(RULE_FIXTURES / "ROC150_cuda_api_without_hip_equivalent_version_guard.cu", ["ROC150"]))
    for line in (10, 16, 22):
        assert found[line].severity == Severity.INFO, line
        assert "HIP-Clang does not compile this line" in found[line].message, line
    for line in (24, 30):  # `CUDART_VERSION < N` is true on ROCm: compiled there
        assert found[line].severity != Severity.INFO, line


# -- __launch_bounds__: an occupancy hint is tuning; only what HIP-Clang rejects is a build break --------------
def test_launch_bounds_hints_are_tuning_and_only_what_does_not_compile_is_high():
    found = by_line(findings(RULE_FIXTURES / "ROC156_launch_bounds_second_argument.cu", ["ROC156"]))
    for line in (5, 10, 16):
        assert (found[line].severity, found[line].risk) == (Severity.LOW, Risk.PERFORMANCE), line
    assert (found[36].severity, found[36].risk) == (Severity.MEDIUM, Risk.PERFORMANCE)
    for line in (20, 37):
        assert (found[line].severity, found[line].risk) == (Severity.HIGH, Risk.BUILD_BREAK), line


def test_an_error_code_hip_lacks_is_a_high_build_break_and_other_names_medium():
    found = by_line(findings(RULE_FIXTURES / "ROC150_cuda_api_without_hip_equivalent.cu", ["ROC150"]))
    for line in (56, 65):
        assert (found[line].severity, found[line].risk) == (Severity.HIGH, Risk.BUILD_BREAK), line
    assert found[7].severity == Severity.MEDIUM  # cudaMemcpyArrayToArray


# -- a unified-memory hint gated on the device's page-migration capability: HIP has the same check ------------
def test_a_hint_under_a_capability_check_is_info_and_says_why():
    found = by_line(findings(RULE_FIXTURES / "ROC163_unified_memory_hint.cu", ["ROC163"]))
    for line in (37, 38, 41, 48, 58, 70, 82):
        assert found[line].severity == Severity.INFO, line
        assert "hipDeviceAttributeConcurrentManagedAccess" in found[line].message, line
    for line in (9, 66, 72):  # ungated, under an unrelated if, and the #else of the capability check
        assert found[line].severity == Severity.MEDIUM, line


# -- __CUDA_ARCH__: the branch HIP compiles is the intended, safe one -------------------------------------------
def test_an_arch_check_whose_hip_side_is_safe_is_info_and_says_why():
    found = by_line(findings(RULE_FIXTURES / "ROC158_cuda_arch_numeric_check_safe_side.cu", ["ROC158"]))
    notes = {
        8: "deliberate stop",
        17: "deliberate stop",
        27: "only by barriers",
        36: "only by barriers",
        43: "PTX",
        52: "PTX",
        61: "PTX hint",
        67: "PTX hint",
        101: "deliberate stop",
    }
    for line, note in notes.items():
        assert found[line].severity == Severity.INFO and note in found[line].message, line
    for line in (76, 84, 90):  # dropped PTX that computes, a dropped barrier, a stop after half a fallback
        assert found[line].severity == Severity.MEDIUM, line


# -- CMake: a CUDA library linked only where CMake found the CUDA toolkit -------------------------------------
def test_a_cuda_library_under_a_cuda_presence_test_is_info_and_says_why():
    found = by_line(findings(RULE_FIXTURES / "ROC206_cuda_library_targets_presence_guard.cmake", ["ROC206"]))
    for line in (7, 11, 18, 25):
        assert found[line].severity == Severity.INFO and "false on a ROCm machine" in found[line].message, line
    for line in (13, 29, 31, 34):  # another elseif, no guard, an OR, a negated test
        # The runtime (CUDA::cudart, ${CUDA_LIBRARIES}) is one name from hip::host: medium; libraries stay high.
        expected = Severity.MEDIUM if line in (29, 34) else Severity.HIGH
        assert found[line].severity == expected, line
