"""The measured case of issue 30, replayed on a project of our own: one Makefile line switched to hipcc.

A CUDA project with a Makefile (a Windows branch and the branch Linux takes, as llm.c's) and a CMake build of the
same source, a CI job on an NVIDIA runner and a CUDA container. Switching `NVCC := nvcc` to `hipcc` in the
Windows branch changes no finding; switching it in the Linux branch changes no finding in C/C++/CUDA code except
on the lines whose guards evaluate differently for the AMD compile, and makes the NVIDIA side's build, CI and
container findings notes that name the HIP build covering them. A team that has not accepted that build sees
nothing change.
"""

from __future__ import annotations

from scanner import ScanOptions, Severity, plan, scan
from tests.scanner.helpers import write_tree

MAKEFILE = """\
ifeq ($(OS),Windows_NT)
  NVCC := nvcc
  OUT := train.exe
else
  NVCC := $(shell which nvcc 2>/dev/null)
  OUT := train
endif
FLAGS = -O3 -std=c++17
ifneq ($(findstring hipcc,$(NVCC)),)
  FLAGS += -DLANES_64
endif
all: train
train: train.cu
\t$(NVCC) $(FLAGS) $^ -o $(OUT)
"""
WINDOWS_LINE = "  NVCC := nvcc\n"
LINUX_LINE = "  NVCC := $(shell which nvcc 2>/dev/null)\n"

SOURCES = {
    "Makefile": MAKEFILE,
    "CMakeLists.txt": "project(train LANGUAGES CXX CUDA)\nadd_executable(train_cmake train.cu)\n",
    "train.cu": """\
__global__ void reduce(float* out, const float* in) {
  float v = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
#ifndef LANES_64
  int lane = threadIdx.x % 32;
#else
  int lane = threadIdx.x % warpSize;
#endif
  out[lane + blockDim.x] = v;
}
""",
    "reference/main.cu": "int main() { int lane = threadIdx.x % 32; return lane; }\n",
    ".github/workflows/gpu.yml": "jobs:\n  t:\n    runs-on: [self-hosted, nvidia-gpu]\n    steps:\n"
    "      - run: nvidia-smi\n",
    "Dockerfile": "FROM nvidia/cuda:12.4.0-devel-ubuntu22.04\nRUN make\n",
}


def _scan(root, **options) -> dict[tuple, tuple]:
    """Every finding by (path, rule, line): (severity, message)."""
    return {
        (f.path, f.rule, f.line): (f.severity, f.message)
        for result in scan(root, ScanOptions(**options))
        for f in result.findings
    }


def _switch(root, line: str) -> int:
    """Switch `line` of the Makefile to hipcc; its line number."""
    makefile = root / "Makefile"
    text = makefile.read_text()
    assert line in text
    makefile.write_text(text.replace(line, line.split(":=")[0] + ":= hipcc\n", 1))
    return text[: text.index(line)].count("\n") + 1


def _without_line(findings: dict, line: int) -> dict:
    """The findings but those on the switched line itself (fixed there: the line no longer names nvcc)."""
    return {key: value for key, value in findings.items() if key[:1] != ("Makefile",) or key[2] != line}


def test_a_switch_in_the_branch_linux_never_takes_changes_no_finding(tmp_path):
    root = write_tree(tmp_path, SOURCES)
    before = _scan(root)
    line = _switch(root, WINDOWS_LINE)
    assert plan(root, ScanOptions())[0].port.hip_builds == ()
    after = _scan(root)
    assert ("Makefile", "ROC211", line) in before and ("Makefile", "ROC211", line) not in after
    assert after == _without_line(before, line)


def test_a_switch_in_the_branch_linux_takes_changes_only_what_the_amd_compile_changes(tmp_path):
    root = write_tree(tmp_path, SOURCES)
    before = _scan(root)
    line = _switch(root, LINUX_LINE)
    port = plan(root, ScanOptions())[0].port
    assert [build_id for build_id, _, _ in port.hip_builds] == ["Makefile:train"]
    before, after = _without_line(before, line), _without_line(_scan(root), line)
    assert set(after) == set(before)
    changed = {key for key in before if before[key] != after[key]}
    code = {key for key in changed if key[0].endswith(".cu")}
    # Only the lines under `#ifndef LANES_64`, which the hipcc recipe now defines, and each says why.
    assert code and {line for _, _, line in code} == {6}
    for key in code:
        assert after[key][0] == Severity.INFO
        assert "HIP-Clang does not compile this line (`#ifndef LANES_64`, line 5)" in after[key][1]
    # The 32-lane reduction the AMD build compiles is judged as HIP code: as high as before.
    shuffle = [key for key in before if key[:2] == ("train.cu", "ROC103")]
    assert shuffle and all(after[key] == before[key] and before[key][0] == Severity.HIGH for key in shuffle)
    # The source no build compiles is low at most, before and after.
    reference = [key for key in before if key[0] == "reference/main.cu"]
    assert reference and all(after[key] == before[key] for key in reference)
    assert all(before[key][0].rank <= Severity.LOW.rank for key in reference)
    # The NVIDIA side (the CMake CUDA build, the NVIDIA CI job, the CUDA container) names the HIP build.
    nvidia_side = {key for key in changed if not key[0].endswith(".cu")}
    paths = {key[0] for key in nvidia_side}
    assert {"CMakeLists.txt", ".github/workflows/gpu.yml", "Dockerfile"} <= paths
    for key in nvidia_side:
        assert after[key][0] == Severity.INFO
        assert "The HIP build make target `train` in Makefile:14 (hipcc)" in after[key][1]


def test_a_hip_build_the_team_has_not_accepted_changes_nothing_but_the_guards(tmp_path):
    root = write_tree(tmp_path, SOURCES)
    before = _scan(root, hip_builds=())
    line = _switch(root, LINUX_LINE)
    before, after = _without_line(before, line), _without_line(_scan(root, hip_builds=()), line)
    changed = {key for key in before if before[key] != after[key]}
    assert {key[0] for key in changed} == {"train.cu"}


def test_an_image_for_another_architecture_is_not_migration_work(tmp_path):
    root = write_tree(
        tmp_path,
        {
            "docker/jetson.Dockerfile": "FROM nvcr.io/nvidia/l4t-pytorch:r35.2.1-pth2.0-py3\nRUN nvcc --version\n",
            "Dockerfile": "FROM nvidia/cuda:12.4.0-devel-ubuntu22.04\nRUN nvcc --version\n",
        },
    )
    findings = _scan(root)
    jetson = [value for key, value in findings.items() if key[0] == "docker/jetson.Dockerfile"]
    x86 = [value for key, value in findings.items() if key[0] == "Dockerfile"]
    assert jetson and all(severity == Severity.INFO and "another platform" in message for severity, message in jetson)
    assert x86 and any(severity != Severity.INFO for severity, _ in x86)


KERNEL = """\
__global__ void reduce(float* out, const float* in) {
  float v = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = v;
}
"""


def test_rocports_own_side_by_side_copy_changes_no_verdict_a_hand_port_does(tmp_path):
    from scanner.translate.builtin import BuiltinTranslator
    from scanner.translate.model import TranslateOptions

    root = write_tree(
        tmp_path, {"CMakeLists.txt": "project(k LANGUAGES CXX CUDA)\nadd_executable(k k.cu)\n", "k.cu": KERNEL}
    )
    before = {key: value for key, value in _scan(root).items() if key[0] == "k.cu"}
    assert before and any(severity == Severity.HIGH for severity, _ in before.values())
    # What the side-by-side merge request writes: the built-in translation beside it, the target switched to it.
    copy = BuiltinTranslator(TranslateOptions(backend="builtin")).translate("k.cu", KERNEL).text
    (root / "k.hip").write_text(copy)
    (root / "CMakeLists.txt").write_text("project(k LANGUAGES CXX HIP)\nadd_executable(k k.hip)\n")
    port = plan(root, ScanOptions())[0].port
    assert port.translated_twins == {"k.cu"} and port.hip_builds[0][0] == "CMakeLists.txt:k"
    assert {key: value for key, value in _scan(root).items() if key[0] == "k.cu"} == before
    # A twin someone ported by hand is the ROCm build's code: the source's findings become notes.
    (root / "k.hip").write_text(copy.replace("% 32", "% warpSize"))
    after = {key: value for key, value in _scan(root).items() if key[0] == "k.cu"}
    assert after.keys() == before.keys()
    assert all(severity == Severity.INFO and "HIP twin" in message for severity, message in after.values())
