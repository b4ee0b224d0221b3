"""`python -m scanner translate` on the demo: .hip files, a stats CSV, a diff and a summary."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from scanner.translate import stats_csv

ROOT = Path(__file__).resolve().parents[3]
DEMO = ROOT / "demo" / "cuda-demo"


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "scanner", "translate", *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_translating_the_demo_writes_hip_files_stats_and_a_summary(tmp_path):
    out = tmp_path / "hip"
    proc = run(str(DEMO), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert (out / "src" / "softmax.hip").is_file() and (out / "include" / "common.cuh").is_file()
    assert not (out / "third_party").exists()  # excluded by the demo's .rocport.toml
    softmax = (out / "src" / "softmax.hip").read_text()
    assert "hipStream_t stream" in softmax and "<<<rows, 256, 0, stream>>>" in softmax
    blocks = stats_csv.parse((out / "rocport-stats.csv").read_text())
    assert {name for name, _, _ in blocks} == {
        "include/common.cuh",
        "include/ptx_utils.cuh",
        "src/comm.cu",
        "src/gemm.cu",
        "src/portable.cu",
        "src/softmax.cu",
    }
    assert "CUDA references:" in proc.stdout and "% converted" in proc.stdout
    assert "+  hipMalloc" in (out / "translation.diff").read_text() or "hip" in (out / "translation.diff").read_text()


def test_json_statistics_and_launch_syntax_option(tmp_path):
    out = tmp_path / "hip"
    proc = run(
        str(DEMO / "src" / "softmax.cu"), "-o", str(out), "--stats", "json", "--launch-syntax", "hipLaunchKernelGGL"
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads((out / "rocport-stats.json").read_text())
    assert data["schema"] == "rocport-translate/1"
    assert data["total"]["converted_by_type"]["kernel_launch"] == 1
    assert "hipLaunchKernelGGL(HIP_KERNEL_NAME(softmax_kernel<256>)" in (out / "softmax.hip").read_text()


def test_bad_paths_and_options_are_clear_errors(tmp_path):
    proc = run(str(tmp_path / "missing"))
    assert proc.returncode == 2 and "no such file or directory" in proc.stderr
    proc = run(str(DEMO), "-o", str(DEMO / "out"))
    assert proc.returncode == 2 and "outside" in proc.stderr
    proc = run(str(DEMO), "--backend", "hipify-clang", "--hipify-clang", str(tmp_path / "nope"))
    assert proc.returncode == 2 and "hipify-clang not found" in proc.stderr


def test_scan_with_translate_gives_findings_statistics_and_diffs_in_one_pass(tmp_path):
    (tmp_path / "k.cu").write_text(
        "#include <cuda_runtime.h>\n__global__ void k(float *x) {\n"
        "  x[threadIdx.x % 32] = warpSize;\n}\nvoid f(float **p) { cudaMalloc(p, 4); }\n"
    )
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "scanner",
            "scan",
            str(tmp_path),
            "--translate",
            "--format",
            "json",
            "--fail-on",
            "never",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    [file] = data["files"]
    assert [f["rule"] for f in file["findings"]] == ["ROC101"]
    translation = file["translation"]
    assert translation["backend"] in ("builtin", "hipify-clang")
    assert translation["stats"]["converted_by_name"]["cudaMalloc"] == 1
    assert "+void f(float **p) { hipMalloc(p, 4); }" in translation["diff"]
    assert data["summary"]["translation"]["converted"] == translation["stats"]["converted"]
