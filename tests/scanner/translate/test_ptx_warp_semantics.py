"""ldmatrix and mma.sync as the translation emulates them compute what the PTX ISA says, shown without a GPU: the
translation of fixtures/translate/ptx/warp_ops.cu (one device function per instruction, the emulating helpers
written into it) is compiled for the host inside warp_sim.cpp, a SIMT simulator of 64 std::threads (two 32-lane
warps of a wavefront, `__shfl(v, src, 32)` a slot per lane and a barrier), and every lane's registers are compared
with a reference computed from the ISA's fragment tables on random matrices whose sums are exact in any order.
A swapped fragment index in the helpers must make it fail (the mutants below). Skipped when no host C++20 compiler
with `_Float16` is found."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from scanner.translate import ptx_warp_helpers
from tests.scanner.translate.helpers import hipify

FIXTURES = Path(__file__).parents[1] / "fixtures" / "translate" / "ptx"
_PROBE = "#include <barrier>\nint main() { _Float16 h = (_Float16)1.5f; return (int)(float)h - 1; }\n"


def _host_compiler(tmp: Path) -> str | None:
    probe = tmp / "probe.cpp"
    probe.write_text(_PROBE)
    for name in ("clang++-22", "clang++", "g++"):
        path = shutil.which(name)
        if path is None:
            continue
        built = subprocess.run(
            [path, "-std=c++20", "-pthread", str(probe), "-o", str(tmp / "probe")], capture_output=True, timeout=120
        )
        if built.returncode == 0:
            return path
    return None


@pytest.fixture(scope="module")
def compiler(tmp_path_factory) -> str:
    found = _host_compiler(tmp_path_factory.mktemp("probe"))
    if found is None:
        pytest.skip("no host C++20 compiler with _Float16 and <barrier> (clang++-22, clang++ or g++ 13+)")
    return found


def _simulate(compiler: str, tmp_path: Path, helpers: str) -> subprocess.CompletedProcess:
    """Translate warp_ops.cu with these helpers, build it into the simulator, run it."""
    original = ptx_warp_helpers.HELPERS
    ptx_warp_helpers.HELPERS = helpers
    try:
        result = hipify((FIXTURES / "warp_ops.cu").read_text(), name="warp_ops.cu", insert_runtime_header=False)
    finally:
        ptx_warp_helpers.HELPERS = original
    assert (
        result.unconverted == [] and "asm volatile" not in result.text.split("#endif  // ROCPORT_PTX_WARP_EMULATION")[1]
    )
    (tmp_path / "translated.cpp").write_text(result.text)
    shutil.copy(FIXTURES / "warp_sim.cpp", tmp_path / "warp_sim.cpp")
    build = [compiler, "-std=c++20", "-O1", "-pthread", "-I", str(tmp_path), str(tmp_path / "warp_sim.cpp")]
    built = subprocess.run([*build, "-o", str(tmp_path / "sim")], capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr[-3000:]
    return subprocess.run([str(tmp_path / "sim")], capture_output=True, text=True, timeout=120)


def test_every_emulated_instruction_gives_the_isa_result_in_every_lane(compiler, tmp_path):
    run = _simulate(compiler, tmp_path, ptx_warp_helpers.HELPERS)
    assert run.returncode == 0 and run.stdout.strip() == "ALL EXACT", run.stdout


@pytest.mark.parametrize(
    "original, mutant",
    [
        # A's upper K half of m16n8k16 from the wrong elements
        ("t * 2 + (i & 1) + (i >= 4 ? 8 : 0)", "t * 2 + (i & 1) + (i >= 2 ? 8 : 0)"),
        # ldmatrix.trans: the second row of the pair read twice
        ("8u * j + 2u * in_group + 1u", "8u * j + 2u * in_group"),
        # int8 B: the upper K half from the wrong register
        ("return t * 4 + (i & 3) + (i >= 4 ? 16 : 0)", "return t * 4 + (i & 3) + (i >= 8 ? 16 : 0)"),
        # A's rows fetched from the lanes of the transposed group
        ("from(a[r], 4u * group + t)", "from(a[r], 4u * t + group)"),
    ],
)
def test_a_swapped_fragment_index_is_caught(compiler, tmp_path, original, mutant):
    assert ptx_warp_helpers.HELPERS.count(original) == 1
    run = _simulate(compiler, tmp_path, ptx_warp_helpers.HELPERS.replace(original, mutant))
    assert run.returncode == 1 and "MISMATCH" in run.stdout, run.stdout
