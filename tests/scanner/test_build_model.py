"""The build model (scanner.build): what each build of a checkout compiles, read without running it."""

from __future__ import annotations

import json

from scanner import ScanOptions, build, scan
from scanner.port_builds import model_cuda_only
from tests.scanner.helpers import write_tree


def _model(root):
    paths = [p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()]
    return build.read(str(root), paths)


def _targets(model, path) -> list[tuple[str, str]]:
    return sorted((c.target, c.compiler) for c in model.of(path).compilations)


COLLECTIVES = """
cmake_minimum_required(VERSION 3.21)
project(coll LANGUAGES CXX CUDA)
set(CMAKE_CUDA_STANDARD 20)
add_library(common STATIC src/common.cu)
target_include_directories(common PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)
target_compile_definitions(common PUBLIC COLL_API=1)
target_compile_options(common PRIVATE $<$<COMPILE_LANG_AND_ID:CUDA,NVIDIA>:-DNV_ONLY> $<$<CXX_COMPILER_ID:MSVC>:-DWIN>)
function(add_perf name)
  add_executable(${name}_perf src/${name}.cu)
  target_link_libraries(${name}_perf PRIVATE common)
endfunction()
foreach(op all_reduce all_gather)
  add_perf(${op})
endforeach()
if(WIN32)
  add_executable(win_tool src/win_tool.cu)
endif()
option(WITH_EXTRA "extra tests" OFF)
if(WITH_EXTRA)
  add_executable(extra src/extra.cu)
endif()
find_package(MPI)
if(MPI_FOUND)
  add_executable(mpi_perf src/mpi.cu)
endif()
"""


def _collectives(tmp_path):
    files = {"CMakeLists.txt": COLLECTIVES, "include/common.h": "int x;\n", "vendor/ref.cu": "int main() {}\n"}
    for name in ("common", "all_reduce", "all_gather", "win_tool", "extra", "mpi"):
        files[f"src/{name}.cu"] = '#include "common.h"\n'
    return write_tree(tmp_path, files)


def test_cmake_targets_from_functions_and_loops_with_their_usage_requirements(tmp_path):
    model = _model(_collectives(tmp_path))
    assert _targets(model, "src/all_reduce.cu") == [("all_reduce_perf", "nvcc")]
    assert _targets(model, "src/all_gather.cu") == [("all_gather_perf", "nvcc")]
    perf = model.of("src/all_reduce.cu").compilations[0]
    # The common library's PUBLIC includes and defines reach the tests that link it; its PRIVATE option does not.
    assert perf.include_dirs == ("include",) and perf.defines == ("COLL_API=1",) and perf.standard == "c++20"
    common = model.of("src/common.cu").compilations[0]
    assert "NV_ONLY" in common.defines and "WIN" not in common.defines  # generator expressions on the compiler id


def test_what_cmake_cannot_decide_is_said_per_file(tmp_path):
    model = _model(_collectives(tmp_path))
    assert model.of("src/mpi.cu").verdict() == "unknown"  # find_package(MPI) without REQUIRED
    assert "if(MPI_FOUND)" in model.of("src/mpi.cu").compilations[0].condition
    extra = model.of("src/extra.cu")  # a build the project offers behind an option off by default
    assert extra.verdict() == "unknown"
    assert extra.compilations[0].condition == "if(WITH_EXTRA) at CMakeLists.txt:20, an option off by default"
    win = model.of("src/win_tool.cu")  # only under if(WIN32): a build for another platform
    assert win.verdict() == "none" and "if(WIN32)" in win.note
    assert model.platform_lines["CMakeLists.txt"] == {17: "if(WIN32)"}
    assert model.of("vendor/ref.cu").verdict() == "none" and not model.of("vendor/ref.cu").note
    header = model.of("include/common.h")
    assert header.verdict() == "compiled" and "src/all_reduce.cu" in header.via


MAKEFILE = """\
ifeq ($(OS),Windows_NT)
  CC := cl
  NVCC := nvcc
else
  NVCC := $(shell which nvcc 2>/dev/null)
  ARCH := $(shell uname -m)
endif
ifeq ($(ARCH),aarch64)
  EXTRA := -DARM
endif
SRCS := $(wildcard kernels/*.cu)
OBJS := $(patsubst %.cu,%.o,$(SRCS))
FLAGS = -O3 -std=c++17 -Iinclude $(EXTRA)
all: app tool
app: main.cu $(OBJS)
\t$(NVCC) $(FLAGS) $< $(OBJS) -o $@
%.o: %.cu
\t$(NVCC) $(FLAGS) -DKERNEL -c $< -o $@
tool: tool.cpp
\t$(CXX) -std=c++20 $^ -o $@
"""


def test_a_target_name_made_again_by_another_project_keeps_the_first_ones_sources(tmp_path):
    """Two top-level projects of one checkout (a CPU build and an experimental one) both make `ops_aten`: the first
    keeps its sources and its defines, set through a function, and the second its own."""
    cpu = """
cmake_minimum_required(VERSION 3.19)
project(cpu_ops)
function(link_parallel_backend target)
  target_compile_definitions(${target} PRIVATE PARALLEL_OPENMP=1)
endfunction()
option(BUILD_ATEN_OPS "ATen ops" ON)
if(BUILD_ATEN_OPS)
  set(_srcs)
  list(APPEND _srcs ops/op_aten.cpp)
  add_library(ops_aten SHARED ${_srcs})
  link_parallel_backend(ops_aten)
  target_compile_definitions(ops_aten PRIVATE OPS_BUILD_ATEN=1)
endif()
"""
    experimental = """
cmake_minimum_required(VERSION 3.19)
project(experimental_ops)
add_library(ops_aten SHARED gpu/op_mps.cpp)
target_compile_definitions(ops_aten PRIVATE OPS_MPS=1)
"""
    root = write_tree(
        tmp_path,
        {
            "cpu/CMakeLists.txt": cpu,
            "cpu/ops/op_aten.cpp": "int op();\n",
            "experimental/CMakeLists.txt": experimental,
            "experimental/gpu/op_mps.cpp": "int mps();\n",
        },
    )
    model = _model(root)
    cpu_op = model.of("cpu/ops/op_aten.cpp")
    assert cpu_op.verdict() == "compiled" and [c.target for c in cpu_op.compilations] == ["ops_aten"]
    assert set(cpu_op.compilations[0].defines) == {"PARALLEL_OPENMP=1", "OPS_BUILD_ATEN=1"}
    assert model.of("experimental/gpu/op_mps.cpp").compilations[0].defines == ("OPS_MPS=1",)


def test_include_directories_are_relative_to_the_folder_that_says_them(tmp_path):
    """A sample's `include_directories(../../Common)` names the checkout's Common/, for the targets of that folder
    and of its subfolders alike (cuda-samples), never a Common/ under the target's own folder."""
    root = write_tree(
        tmp_path,
        {
            "CMakeLists.txt": "cmake_minimum_required(VERSION 3.20)\nproject(s LANGUAGES CXX CUDA)\n"
            "add_subdirectory(Samples/intro)\n",
            "Samples/intro/CMakeLists.txt": "include_directories(../../Common inc)\nadd_executable(a a.cu)\n"
            "add_subdirectory(deep)\n",
            "Samples/intro/deep/CMakeLists.txt": "add_executable(b b.cu)\n",
            "Samples/intro/a.cu": "int main() {}\n",
            "Samples/intro/deep/b.cu": "int main() {}\n",
            "Common/helper.h": "\n",
        },
    )
    model = _model(root)
    for source in ("Samples/intro/a.cu", "Samples/intro/deep/b.cu"):
        assert model.of(source).compilations[0].include_dirs == ("Common", "Samples/intro/inc")


def test_makefile_takes_the_linux_branch_and_its_rules(tmp_path):
    root = write_tree(
        tmp_path,
        {
            "Makefile": MAKEFILE,
            "main.cu": "",
            "kernels/a.cu": "",
            "kernels/b.cu": "",
            "tool.cpp": "",
            "old/unused.cu": "",
        },
    )
    model = _model(root)
    main = model.of("main.cu").compilations[0]
    assert (main.target, main.compiler, main.standard, main.include_dirs, main.defines) == (
        "app",
        "nvcc",
        "c++17",
        ("include",),
        (),
    )
    kernel = model.of("kernels/b.cu").compilations[0]
    assert (kernel.target, kernel.defines) == ("kernels/b.o", ("KERNEL",))
    tool = model.of("tool.cpp").compilations[0]
    assert (tool.compiler, tool.standard) == ("host", "c++20")
    assert model.of("old/unused.cu").verdict() == "none"
    assert set(model.platform_lines["Makefile"]) == {2, 3, 9}


def test_a_substitution_reference_with_a_pattern_is_make_s_patsubst(tmp_path):
    rules = "%.o: k/%.cu\n\tnvcc -c $< -o $@\n"
    lists = "SRCS := k/a.cu k/b.cu\nOBJS := $(SRCS:k/%.cu=obj/%.o)\n"
    makefile = lists + "all: $(OBJS)\n" + rules.replace("%.o:", "obj/%.o:")
    root = write_tree(tmp_path, {"Makefile": makefile, "k/a.cu": "", "k/b.cu": ""})
    model = _model(root)
    assert [c.target for c in model.of("k/a.cu").compilations] == ["obj/a.o"]  # the objects `all` asks for


def test_a_hipcc_recipe_is_an_amd_build(tmp_path):
    root = write_tree(tmp_path, {"Makefile": "HIPCC ?= hipcc\nk: k.cu\n\t$(HIPCC) --offload-arch=gfx942 $^ -o $@\n"})
    (root / "k.cu").write_text("")
    model = _model(root)
    assert [c.build_id for c in model.hip_builds()] == ["Makefile:k"]
    assert model.of("k.cu").amd[0].language == "hip"


SETUP = """
import glob, os
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension, IS_HIP_EXTENSION
sources = ["csrc/bind.cpp"] + glob.glob("csrc/kernels/*.cu")
setup(
    name="ext",
    ext_modules=[
        CUDAExtension(
            name="ext._C",
            sources=sources,
            include_dirs=[os.path.join("csrc", "include")],
            define_macros=[("EXT_FAST", None), ("EXT_LEVEL", "2")],
            extra_compile_args={"cxx": ["-O3"], "nvcc": ["-O3", "-std=c++17"]},
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
"""


def test_a_pytorch_extension_builds_with_nvcc_and_with_hipcc_when_it_branches_on_rocm(tmp_path):
    root = write_tree(tmp_path, {"setup.py": SETUP, "csrc/bind.cpp": "", "csrc/kernels/k.cu": ""})
    model = _model(root)
    kernel = model.of("csrc/kernels/k.cu")
    assert sorted(c.compiler for c in kernel.compilations) == ["hipcc", "nvcc"]
    nvcc = kernel.nvidia[0]
    assert nvcc.include_dirs == ("csrc/include",) and nvcc.defines == ("EXT_FAST", "EXT_LEVEL=2")
    assert nvcc.standard == "c++17"
    assert model.of("csrc/bind.cpp").compilations[0].compiler == "host"


def test_a_cu_source_holding_hip_code_is_built_by_a_rocm_pytorch_only(tmp_path):
    """A port in place: the `.cu` includes a `hip/` header and no CUDA runtime header, so nvcc no longer builds it."""
    setup = 'from torch.utils.cpp_extension import CUDAExtension\nCUDAExtension("k", ["a.cu", "b.cu", "c.cu"])\n'
    files = {"setup.py": setup, "a.cu": "#include <hip/hip_runtime.h>\n__global__ void k() {}\n"}
    files["b.cu"] = "#include <cuda_runtime.h>\n#include <hip/hip_runtime.h>\n"  # both: still CUDA's to build
    files["c.cu"] = "// #include <hip/hip_runtime.h> in a comment is not an include\n"
    model = _model(write_tree(tmp_path, files))
    assert [(c.compiler, c.language) for c in model.of("a.cu").compilations] == [("hipcc", "hip")]
    assert [c.compiler for c in model.of("b.cu").compilations] == ["nvcc"]
    assert [c.compiler for c in model.of("c.cu").compilations] == ["nvcc"]


def test_compile_commands_wins_for_the_files_it_lists(tmp_path):
    root = _collectives(tmp_path)
    entry = {
        "directory": str(root),
        "file": "src/all_reduce.cu",
        "arguments": ["/opt/rocm/bin/hipcc", "-Iinclude", "-DFROM_DB", "-std=c++17", "-c", "src/all_reduce.cu"],
    }
    (root / "compile_commands.json").write_text(json.dumps([entry]))
    model = _model(root)
    compiled = model.of("src/all_reduce.cu").compilations
    assert [(c.system, c.compiler, c.defines) for c in compiled] == [("compile_commands", "hipcc", ("FROM_DB",))]
    assert _targets(model, "src/all_gather.cu") == [("all_gather_perf", "nvcc")]  # the rest from CMake


def test_no_build_file_means_nothing_is_known(tmp_path):
    root = write_tree(tmp_path, {"k.cu": ""})
    file_build = _model(root).of("k.cu")
    assert file_build.verdict() == "unknown" and "no build file" in file_build.unknowns[0]


def test_a_hostile_cmake_stops_and_says_so(tmp_path):
    root = write_tree(
        tmp_path,
        {
            "CMakeLists.txt": "function(f)\n  f()\nendfunction()\nf()\nadd_executable(k k.cu)\n",
            "k.cu": "",
        },
    )
    model = _model(root)
    assert any("stopped after" in note or "RecursionError" in note for note in model.notes)
    assert model.of("k.cu").verdict() != "none"  # never "no build" when the reading stopped


def test_a_hip_build_behind_an_option_is_one_the_project_offers(tmp_path):
    root = write_tree(
        tmp_path,
        {
            "CMakeLists.txt": "project(p LANGUAGES CXX CUDA)\noption(P_HIP OFF)\nset(SRC k.cu)\n"
            "if(P_HIP)\n  enable_language(HIP)\n  set_source_files_properties(${SRC} PROPERTIES LANGUAGE HIP)\n"
            "  add_library(p_hip ${SRC})\n  set(SRC other.cu)\nelse()\n  add_library(p_cuda ${SRC})\nendif()\n",
            "k.cu": "",
            "other.cu": "",
        },
    )
    model = _model(root)
    assert [c.describe() for c in model.hip_builds()] == [
        "cmake target `p_hip` in CMakeLists.txt:7 (hipcc), under if(P_HIP), an option off by default"
    ]
    # The default configuration keeps its own values: the offered branch's set() does not leak into the else.
    assert _targets(model, "k.cu") == [("p_cuda", "nvcc"), ("p_hip", "hipcc")]
    assert model.of("k.cu").verdict() == "compiled" and model.of("other.cu").verdict() == "unknown"


def test_a_header_under_a_build_switch_goes_only_to_the_compilations_that_define_it(tmp_path):
    root = write_tree(
        tmp_path,
        {
            "CMakeLists.txt": "project(p LANGUAGES CXX CUDA)\nadd_library(cpu bind.cpp)\n"
            "add_library(gpu bind.cpp)\ntarget_compile_definitions(gpu PRIVATE BUILD_CUDA)\n",
            "bind.cpp": '#include "common.h"\n#if BUILD_CUDA\n#include "ops.cuh"\n#else\n#include "cpu_ops.h"\n'
            '#endif\n#ifdef __CUDACC__\n#include "device.h"\n#endif\n',
            "common.h": "",
            "ops.cuh": "",
            "cpu_ops.h": "",
            "device.h": "",
        },
    )
    model = _model(root)
    assert _targets(model, "common.h") == [("cpu", "host"), ("gpu", "host")]
    assert _targets(model, "ops.cuh") == [("gpu", "host")]
    assert _targets(model, "cpu_ops.h") == [("cpu", "host")]
    # A compiler's own macro is no build switch: the include is taken by both.
    assert _targets(model, "device.h") == [("cpu", "host"), ("gpu", "host")]


def test_an_option_off_by_default_changes_no_target_made_outside_it(tmp_path):
    root = write_tree(
        tmp_path,
        {
            "CMakeLists.txt": "project(p LANGUAGES C CXX CUDA)\noption(WITH_RAFT OFF)\nset(CMAKE_C_STANDARD 11)\n"
            "set(CMAKE_CXX_STANDARD 17)\nadd_library(gpu k.cu util.c)\n"
            "if(WITH_RAFT)\n  target_compile_definitions(gpu PUBLIC USE_RAFT=1)\n  target_sources(gpu PRIVATE raft.cu)\n"
            "endif()\nfind_package(Extra)\nif(${Extra_FOUND})\n  add_executable(extra extra.cu)\nendif()\n",
            "k.cu": "",
            "util.c": "",
            "raft.cu": "",
            "extra.cu": "",
        },
    )
    model = _model(root)
    assert model.of("k.cu").compilations[0].defines == () and model.of("k.cu").verdict() == "compiled"
    raft = model.of("raft.cu")
    assert raft.verdict() == "unknown" and "an option off by default" in raft.compilations[0].condition
    # A C source takes the C standard, never a C++ one.
    assert model.of("util.c").compilations[0].standard == "c11"
    # `if(${Extra_FOUND})` after a find_package without REQUIRED: unknown, not false.
    assert model.of("extra.cu").verdict() == "unknown" and model.of("extra.cu").compilations


def test_an_extension_built_only_on_request_is_unknown(tmp_path):
    root = write_tree(
        tmp_path,
        {
            "setup.py": "import sys\nfrom torch.utils.cpp_extension import CUDAExtension\nexts = []\n"
            'if "--cuda_ext" in sys.argv:\n    exts.append(CUDAExtension("fused", ["csrc/fused.cu"]))\n'
            'exts.append(CUDAExtension("core", ["csrc/core.cu"]))\n',
            "csrc/fused.cu": "",
            "csrc/core.cu": "",
        },
    )
    model = _model(root)
    assert model.of("csrc/core.cu").verdict() == "compiled"
    fused = model.of("csrc/fused.cu")
    assert fused.verdict() == "unknown" and "'--cuda_ext' in sys.argv" in fused.compilations[0].condition


def test_sources_a_project_filter_may_drop_are_conditional_and_the_rest_unlisted(tmp_path):
    # nunchaku's `*ncond("src/FluxModel.cpp")` among literal sources: the filter decides those, and a `.cu` that no
    # entry names (src/kernels/gemm_w8a8.cu beside the listed zgemm/gemm_w8a8.cu) is compiled by no build.
    root = write_tree(
        tmp_path,
        {
            "setup.py": "from torch.utils.cpp_extension import CUDAExtension\n"
            "def ncond(*s):\n    return list(s) if FULL else []\n"
            'CUDAExtension("k", sources=["src/zgemm/w8a8.cu", *ncond("src/model.cpp")])\n',
            "src/zgemm/w8a8.cu": "",
            "src/model.cpp": "",
            "src/w8a8.cu": "",
        },
    )
    model = _model(root)
    assert model.of("src/zgemm/w8a8.cu").verdict() == "compiled"
    model_cpp = model.of("src/model.cpp")
    assert model_cpp.verdict() == "unknown" and "ncond(...)" in model_cpp.compilations[0].condition
    assert model.of("src/w8a8.cu").verdict() == "none"


def test_a_system_header_name_is_not_a_repository_file_unless_a_build_says_so(tmp_path):
    root = write_tree(
        tmp_path,
        {
            "Makefile": "app: main.cu\n\tnvcc -Iinclude $< -o $@\n",
            "main.cu": "#include <unistd.h>\n#include <lib/api.h>\n#include <config.h>\n",
            "dev/unistd.h": "",  # a Windows shim: only a Windows build puts dev/ on the path
            "include/config.h": "",
            "third/lib/api.h": "",
        },
    )
    model = _model(root)
    assert model.of("dev/unistd.h").verdict() != "compiled"
    assert model.of("include/config.h").verdict() == "compiled"
    assert model.of("third/lib/api.h").verdict() == "compiled"  # the one file whose path ends so


LANE_KERNEL = "__global__ void k(float *x) { x[threadIdx.x % 32] = __shfl_down_sync(0xffffffff, x[0], 16); }\n"
FA_SETUP = """
import torch
from torch.utils.cpp_extension import CUDAExtension
IS_ROCM = torch.version.hip is not None
ext_modules = []
if not SKIP and not IS_ROCM:
    ext_modules.append(CUDAExtension("fa2_cuda", ["csrc/fa2/fwd.cu"]))
elif BUILD_TARGET == "rocm":
    ext_modules.append(CUDAExtension("fa_ck", ["csrc/ck/fwd_ck.cu"]))
ext_modules.append(CUDAExtension("shared_ops", ["csrc/ops.cu"]))
"""


def test_an_extension_in_a_branch_the_rocm_build_never_takes_is_the_nvidia_side(tmp_path):
    """flash-attention's shape: FA2 under `if not IS_ROCM:`, a CK build for ROCm beside it."""
    root = write_tree(
        tmp_path,
        {
            "setup.py": FA_SETUP,
            "csrc/fa2/fwd.cu": '#include "fa2.cuh"\n',
            "csrc/fa2/fa2.cuh": "",
            "csrc/ck/fwd_ck.cu": "",
            "csrc/ops.cu": "",
        },
    )
    model = _model(root)
    fa2 = model.of("csrc/fa2/fwd.cu")
    assert [c.compiler for c in fa2.compilations] == ["nvcc"] and fa2.compilations[0].cuda_only
    assert [c.compiler for c in model.of("csrc/ck/fwd_ck.cu").compilations] == ["hipcc"]
    assert sorted(c.compiler for c in model.of("csrc/ops.cu").compilations) == ["hipcc", "nvcc"]
    assert model_cuda_only(model) == {"csrc/fa2/fwd.cu", "csrc/fa2/fa2.cuh"}
    (root / "csrc/fa2/fwd.cu").write_text(LANE_KERNEL)
    (root / "csrc/ops.cu").write_text(LANE_KERNEL)
    found = {r.path: [f for f in r.findings if f.rule == "ROC106"] for r in scan(str(root), ScanOptions())}
    assert [(f.severity.value, "never takes" in f.message) for f in found["csrc/fa2/fwd.cu"]] == [("info", True)]
    assert [f.severity.value for f in found["csrc/ops.cu"]] == ["high"]  # both builds compile it
