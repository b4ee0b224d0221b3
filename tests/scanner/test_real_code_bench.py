"""bench/real_code.py and bench/real_code/derive_truth.py on small trees built here (no timings): the parse-mode
shares and the scoring, and the two readings of a port (a hand-written HIP twin; HIP guards)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _module(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


derive = _module(ROOT / "bench" / "real_code" / "derive_truth.py")

KERNEL = """#include <cuda_runtime.h>
__global__ void k(float *x) {
  int lane = threadIdx.x % 32;
  x[lane] = 0.f;
}
"""


def test_the_bench_prints_modes_and_scores_recall_and_guarded_lines(tmp_path):
    project = tmp_path / "proj"
    (project / "src").mkdir(parents=True)
    (project / "src" / "k.cu").write_text(KERNEL + "#ifndef USE_HIP\n__device__ int w = threadIdx.x / 32;\n#endif\n")
    truth = {"proj": {"slack": 0, "expected": [{"path": "src/k.cu", "line": 3, "rules": ["ROC101"]},
                                               {"path": "src/k.cu", "line": 4, "rules": ["ROC101"]}],
                      "guarded": [{"path": "src/k.cu", "line": 7}]}}
    (tmp_path / "truth.json").write_text(json.dumps(truth))
    out = subprocess.run([sys.executable, "bench/real_code.py", str(project), "--truth", str(tmp_path / "truth.json"),
                          "--json", str(tmp_path / "out.json")], cwd=ROOT, capture_output=True, text=True,
                         timeout=300, check=True).stdout
    assert "recall: 1 of 2 expected lines" in out
    run = json.loads((tmp_path / "out.json").read_text())["runs"][0]
    assert run["files"] == 1 and run["tokens_share"] == 0.0 and run["modes"] == {"ast-stubbed": 1}
    assert run["score"]["recall"] == 0.5
    assert run["score"]["guarded"] == 1 and run["score"]["guarded_high"] == 0  # a HIP-named guard is respected


def test_the_hip_side_of_a_condition_is_three_valued():
    macros = ["USE_HIP", "__HIP_PLATFORM_AMD__"]
    side = derive._hip_side
    assert side("if", "defined(USE_HIP)", macros) is True
    assert side("if", "!defined(USE_HIP) && CUDART_VERSION >= 12000", macros) is False
    assert side("if", "(defined(USE_HIP) && defined(__HIP_PLATFORM_AMD__)) || __CUDA_ARCH__ >= 800", macros) is True
    assert side("if", "__CUDA_ARCH__ >= 800", macros) is None
    assert (side("ifdef", "USE_HIP", macros), side("ifndef", "USE_HIP", macros)) == (True, False)


def test_guards_list_the_cuda_only_branch_of_a_hip_switch(tmp_path):
    (tmp_path / "a.cuh").write_text(
        "#if defined(USE_HIP)\n#define WARP 64\n#else\nint lane = threadIdx.x % 32;\n#endif\n"
        "#ifdef OTHER\nint x = threadIdx.x % 32;\n#endif\n")
    assert derive.guards(tmp_path, ["USE_HIP"]) == [{"path": "a.cuh", "line": 4}]


def test_twins_list_the_cuda_lines_the_hip_copy_changed_not_the_renames(tmp_path):
    (tmp_path / "k.cu").write_text("cudaMalloc(&p, n);\nint lane = threadIdx.x % 32;\nint n = 32 * sizeof(float);\n")
    (tmp_path / "k.hip").write_text("hipMalloc(&p, n);\nint lane = threadIdx.x % warpSize;\n"
                                    "int n = 64 * sizeof(float);\n")
    expected = derive.twins(tmp_path, {"k.cu": "k.hip"})
    assert [(e["path"], e["line"]) for e in expected] == [("k.cu", 2)]  # line 3 changed, but is no warp code
