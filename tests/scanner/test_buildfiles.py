"""The build-file rewriter for the HIP port (scanner.translate.buildfiles): safe rewrites only, the rest left."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from scanner.translate.build_edits import Rewrite
from scanner.translate.buildfiles import rewrite_cmake, rewrite_makefile

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "demo" / "cuda-demo"
FIXTURES = ROOT / "tests" / "scanner" / "fixtures" / "rules"
DEMO_RENAMES = {f"src/{n}.cu": f"src/{n}.hip" for n in ("softmax", "gemm", "comm", "portable")}


def _left(result: Rewrite) -> dict[str, str]:
    return {item.what: item.why for item in result.left}


def _unchanged(result: Rewrite, text: str) -> None:
    assert result.text == text and result.changes == [] and not result.changed


# -- CMake: the demo project ---------------------------------------------------------------------------------
def test_demo_cmake_side_by_side():
    text = (DEMO / "CMakeLists.txt").read_text()
    result = rewrite_cmake(text, DEMO_RENAMES)
    assert result.text == text.replace("LANGUAGES CXX CUDA", "LANGUAGES CXX HIP").replace(
        "find_package(CUDAToolkit REQUIRED)\n", "find_package(hip REQUIRED)\nfind_package(hipblas REQUIRED)\n"
    ).replace(".cu", ".hip").replace("CUDA::cudart CUDA::cublas nccl", "hip::host roc::hipblas rccl::rccl").replace(
        "find_package(NCCL REQUIRED)", "find_package(rccl REQUIRED)"
    )
    assert [(c.line, c.before, c.after) for c in result.changes] == [
        (2, "CUDA", "HIP"),
        (4, "find_package(CUDAToolkit REQUIRED)", "find_package(hip REQUIRED)"),
        (5, "find_package(NCCL REQUIRED)", "find_package(rccl REQUIRED)"),
        (5, "", "find_package(hipblas REQUIRED)"),
        *[(12, f"src/{n}.cu", f"src/{n}.hip") for n in ("softmax", "gemm", "comm", "portable")],
        (15, "CUDA::cudart", "hip::host"),
        (15, "CUDA::cublas", "roc::hipblas"),
        (15, "nccl", "rccl::rccl"),  # RCCL: NCCL's API under ROCm, its package found above
    ]
    assert all(c.why for c in result.changes)
    left = _left(result)
    assert (
        "gfx" in left["CMAKE_CUDA_ARCHITECTURES 80 90"]
        and "no mechanical gfx equivalent" in left["CMAKE_CUDA_ARCHITECTURES 80 90"]
    )
    assert "-ffast-math" in left["--use_fast_math"] and "__launch_bounds__" in left["-maxregcount"]
    assert "nccl" not in left and "find_package(NCCL)" not in left  # rewritten to RCCL's
    assert "3.21" in left["cmake_minimum_required(VERSION 3.18)"]
    assert "COMPILE_LANGUAGE:HIP" in left["$<COMPILE_LANGUAGE:CUDA>"]
    assert not any(".cu" in what or "CUDA::" in what for what in left)  # the renamed and rewritten are not left


def test_demo_cmake_in_place_leaves_the_cu_sources_for_a_language_property():
    text = (DEMO / "CMakeLists.txt").read_text()
    result = rewrite_cmake(text)
    assert "src/softmax.cu src/gemm.cu" in result.text and "LANGUAGES CXX HIP" in result.text
    assert "LANGUAGE HIP" in _left(result)["src/portable.cu"]


def test_demo_makefile():
    text = (DEMO / "Makefile").read_text()
    result = rewrite_makefile(text, DEMO_RENAMES)
    assert "NVCC ?= hipcc\n" in result.text
    assert "bench: src/softmax.hip src/gemm.hip src/comm.hip\n" in result.text
    assert "\t$(NVCC) -O3 $(ARCH) -Iinclude $^ -o $@ $(LDLIBS)\n" in result.text  # the recipe follows the variable
    assert "-gencode arch=compute_80,code=sm_80" in result.text  # left, not guessed
    left = _left(result)
    assert "--offload-arch" in left["-gencode arch=compute_80,code=sm_80"]
    assert "-lamdhip64" in left["-lcudart"] and "-lhipblas" in left["-lcublas"]
    assert "ROCM_PATH" in left["/usr/local/cuda"]
    assert [item.line for item in result.left if item.what == "CUDA_HOME"] == [2, 5]  # not line 3: rewritten


# -- CMake: each safe rewrite ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "before, after",
    [
        ("project(demo LANGUAGES CXX CUDA)\n", "project(demo LANGUAGES CXX HIP)\n"),
        ("project(demo CXX CUDA)\n", "project(demo CXX HIP)\n"),
        ("PROJECT(other\n        VERSION 1.0\n        LANGUAGES C\n                  CUDA)\n", None),
        ("enable_language(CUDA)\n", "enable_language(HIP)\n"),
        ("ENABLE_LANGUAGE(CUDA OPTIONAL)\n", "ENABLE_LANGUAGE(HIP OPTIONAL)\n"),
        ("find_package(CUDA 11.0 REQUIRED)\n", "find_package(hip REQUIRED)\n"),
        ("Find_Package(CUDAToolkit 12.1...12.4 REQUIRED)\n", "Find_Package(hip REQUIRED)\n"),
        ("find_package(CUDAToolkit QUIET)\n", "find_package(hip QUIET)\n"),
        ("find_package(CUDAToolkit)\n", "find_package(hip)\n"),
        ("find_package(CUDA\n  10.2 EXACT\n  REQUIRED)\n", "find_package(hip REQUIRED)\n"),
        (
            "set_source_files_properties(k.cu PROPERTIES LANGUAGE CUDA)\n",
            "set_source_files_properties(k.cu PROPERTIES LANGUAGE HIP)\n",
        ),
        (
            "set_property(SOURCE a.cu b.cu PROPERTY LANGUAGE CUDA)\n",
            "set_property(SOURCE a.cu b.cu PROPERTY LANGUAGE HIP)\n",
        ),
        (
            "set_target_properties(k PROPERTIES LINKER_LANGUAGE CUDA)\n",
            "set_target_properties(k PROPERTIES LINKER_LANGUAGE HIP)\n",
        ),
        (
            "set(CMAKE_CUDA_STANDARD 17)\nset(CMAKE_CUDA_STANDARD_REQUIRED ON)\n",
            "set(CMAKE_HIP_STANDARD 17)\nset(CMAKE_HIP_STANDARD_REQUIRED ON)\n",
        ),
        (
            "set_target_properties(k PROPERTIES CUDA_STANDARD 17 CUDA_EXTENSIONS OFF)\n",
            "set_target_properties(k PROPERTIES HIP_STANDARD 17 HIP_EXTENSIONS OFF)\n",
        ),
        (
            "include(CheckLanguage)\ncheck_language(CUDA)\nif(CMAKE_CUDA_COMPILER)\n  enable_language(CUDA)\nendif()\n",
            "include(CheckLanguage)\ncheck_language(HIP)\nif(CMAKE_HIP_COMPILER)\n  enable_language(HIP)\nendif()\n",
        ),
        (
            "find_package(CUDAToolkit)\nif(NOT CUDAToolkit_FOUND)\n  return()\nendif()\n",
            "find_package(hip)\nif(NOT hip_FOUND)\n  return()\nendif()\n",
        ),
    ],
)
def test_safe_cmake_rewrites(before, after):
    after = after or before.replace("CUDA)", "HIP)")
    result = rewrite_cmake(before)
    assert result.text == after
    assert result.changes and all(c.why for c in result.changes)
    assert rewrite_cmake(result.text).text == after


def test_library_targets_bring_their_package_after_find_package_hip_with_its_requiredness():
    text = (
        "find_package(CUDAToolkit QUIET)\n"
        "if(CUDAToolkit_FOUND)\n"
        "  target_link_libraries(app PRIVATE\n"
        "      CUDA::cudart   # the runtime\n"
        "      CUDA::cublas CUDA::curand\n"
        "      CUDA::cusparse)\n"
        "endif()\n"
    )
    result = rewrite_cmake(text)
    assert result.text == (
        "find_package(hip QUIET)\n"
        "find_package(hipblas)\n"
        "find_package(hiprand)\n"
        "find_package(hipsparse)\n"
        "if(hip_FOUND)\n"
        "  target_link_libraries(app PRIVATE\n"
        "      hip::host   # the runtime\n"
        "      roc::hipblas hip::hiprand\n"
        "      roc::hipsparse)\n"
        "endif()\n"
    )
    assert rewrite_cmake(result.text).text == result.text


def test_library_target_without_a_find_gets_one_before_its_use_indented_and_not_twice():
    text = "if(WITH_GPU)\n    target_link_libraries(app PRIVATE CUDA::cudart_static CUDA::cuda_driver CUDA::cublas)\nendif()\n"
    result = rewrite_cmake(text)
    assert result.text == (
        "if(WITH_GPU)\n    find_package(hip REQUIRED)\n    find_package(hipblas REQUIRED)\n"
        "    target_link_libraries(app PRIVATE hip::host roc::hipblas)\nendif()\n"
    )
    already = "find_package(hipblas REQUIRED)\nfind_package(hip REQUIRED)\ntarget_link_libraries(a CUDA::cublas)\n"
    assert rewrite_cmake(already).text == already.replace("CUDA::cublas", "roc::hipblas")


@pytest.mark.parametrize(
    "before, after",
    [
        # the runtime and the driver have one HIP target (issue 30: `hip::host hip::host`)
        (
            "target_link_libraries(t PUBLIC ccl CUDA::cudart CUDA::cuda_driver verifiable)\n",
            "target_link_libraries(t PUBLIC ccl hip::host verifiable)\n",
        ),
        # the HIP target already there
        ("target_link_libraries(t PRIVATE hip::host CUDA::cudart)\n", "target_link_libraries(t PRIVATE hip::host)\n"),
        # one item a line: its line goes, a comment stays
        (
            "target_link_libraries(t\n  PRIVATE\n    CUDA::cudart\n    CUDA::cuda_driver\n    m  # libm\n)\n",
            "target_link_libraries(t\n  PRIVATE\n    hip::host\n    m  # libm\n)\n",
        ),
        ("set(GPU_LIBS CUDA::cudart_static;CUDA::cuda_driver)\n", "set(GPU_LIBS hip::host)\n"),
        ('set(GPU_LIBS "CUDA::cuda_driver;CUDA::cudart")\n', None),  # quoted: not edited, as before
    ],
)
def test_a_link_list_never_names_one_hip_target_twice(before, after):
    result = rewrite_cmake("find_package(hip REQUIRED)\n" + before)
    assert result.text == "find_package(hip REQUIRED)\n" + (after or before)
    if after:
        assert any(c.after == "" and "already in this list" in c.why for c in result.changes)
        assert rewrite_cmake(result.text).text == result.text


@pytest.mark.parametrize(
    "target", ["CUDA::cufft", "CUDA::cusolver", "CUDA::cublasLt", "CUDA::nvToolsExt", "CUDA::cublas_static"]
)
def test_library_targets_without_a_sure_mapping_are_left(target):
    text = f"find_package(hip REQUIRED)\ntarget_link_libraries(app PRIVATE {target})\n"
    result = rewrite_cmake(text)
    _unchanged(result, text)
    assert "no sure HIP target" in _left(result)[target]


def test_cufft_left_with_its_likely_counterpart_and_roc_translation_leaves_hipblas():
    assert "hip::hipfft" in _left(rewrite_cmake("target_link_libraries(a CUDA::cufft)\n"))["CUDA::cufft"]
    text = "target_link_libraries(a CUDA::cublas CUDA::cudart)\n"
    result = rewrite_cmake(text, roc=True)  # rocBLAS calls need roc::rocblas, not hipBLAS
    assert "CUDA::cublas hip::host" in result.text and "CUDA::cublas" in _left(result)


def test_cuda_add_library_becomes_add_library_only_when_plain_renamed_and_hip():
    text = "project(p LANGUAGES CXX CUDA)\ncuda_add_library(k STATIC src/k.cu src/host.cpp)\n"
    result = rewrite_cmake(text, {"src/k.cu": "src/k.hip"})
    assert result.text == "project(p LANGUAGES CXX HIP)\nadd_library(k STATIC src/k.hip src/host.cpp)\n"
    for other in (
        text.replace("host.cpp", "host.cpp OPTIONS -arch=sm_80"),  # CUDA-only options
        text.replace("CXX CUDA", "CXX"),  # the HIP language is not enabled here
    ):
        result = rewrite_cmake(other, {"src/k.cu": "src/k.hip"})
        assert "cuda_add_library(k" in result.text and "cuda_add_library(...)" in _left(result)
    assert "cuda_add_library(...)" in _left(rewrite_cmake(text))  # in place: k.cu is still a CUDA source


# -- CMake: what is left, and never made worse -------------------------------------------------------------
def test_architectures_and_flags_are_left_with_their_hip_equivalent():
    text = (FIXTURES / "ROC205_nvcc_flags.cmake").read_text() + (
        FIXTURES / "ROC204_cuda_architectures.cmake"
    ).read_text()
    result = rewrite_cmake(text)
    _unchanged(result, text)
    left = _left(result)
    assert "CMAKE_HIP_ARCHITECTURES" in left["CMAKE_CUDA_ARCHITECTURES 80 90"]
    assert "-fgpu-rdc" in left["-rdc=true"] and "drop it" in left["--expt-relaxed-constexpr"]
    assert "--offload-arch" in left["-arch=sm_90a"] and "ptxas" in left["-Xptxas"]
    assert {"CMAKE_CUDA_FLAGS", "CUDA_NVCC_FLAGS", "CMAKE_CUDA_FLAGS_RELEASE", "TORCH_CUDA_ARCH_LIST 8.0;9.0"} <= set(
        left
    )
    assert not any("offload-arch=gfx942" in what or "-ffast-math" in what for what in left)  # HIP flags are fine


def test_separable_compilation_has_no_hip_property_and_is_left():
    text = "set_target_properties(k PROPERTIES CUDA_SEPARABLE_COMPILATION ON CUDA_STANDARD 17)\n"
    result = rewrite_cmake(text)
    assert result.text == text.replace("CUDA_STANDARD", "HIP_STANDARD")
    assert "-fgpu-rdc" in _left(result)["CUDA_SEPARABLE_COMPILATION"]


def test_findcuda_commands_and_variables_are_left():
    text = (FIXTURES / "ROC203_cuda_add_target.cmake").read_text() + (
        FIXTURES / "ROC206_cuda_library_targets.cmake"
    ).read_text()
    left = _left(rewrite_cmake(text))
    assert {
        "cuda_add_library(...)",
        "cuda_add_executable(...)",
        "cuda_compile_ptx(...)",
        "cuda_include_directories(...)",
    } <= set(left)
    assert {"CUDA_LIBRARIES", "CUDA_CUBLAS_LIBRARIES", "CUDA::cufft_static", "cudnn"} <= set(left)


@pytest.mark.parametrize(
    "text",
    [
        # comments and strings: a `# CUDA` comment stays, message prose stays
        "# enable_language(CUDA) was here\n#[[ project(x LANGUAGES CUDA) ]]\n"
        'message(STATUS "CUDA::cudart and find_package(CUDA) are gone")\nset(NOTE "LANGUAGE CUDA, CUDA_STANDARD")\n',
        # CUDA as a word that is not the language: a project named CUDA, variables, user targets
        "project(CUDA)\nset(USE_CUDA OFF)\ntarget_link_libraries(app PRIVATE cuda_helpers Threads::Threads)\n",
        # find_package forms with no sure hip meaning
        "find_package(CUDAToolkit REQUIRED COMPONENTS cublas)\n",
        "find_package(CUDA REQUIRED # the toolkit\n  )\n",
        # a variable also used inside a string: all or nothing
        'set(CMAKE_CUDA_STANDARD 17)\nmessage(STATUS "standard ${CMAKE_CUDA_STANDARD}")\n',
        # CUDAToolkit_FOUND used outside a condition
        "find_package(CUDAToolkit QUIET)\nset(HAVE_GPU ${CUDAToolkit_FOUND})\n",
        # a library target inside a string
        'set(LIBS "CUDA::cublas;CUDA::cudart")\n',
    ],
)
def test_comments_strings_and_ambiguity_are_not_touched(text):
    result = rewrite_cmake(text)
    if "CUDAToolkit QUIET" in text:
        assert result.text == text.replace("CUDAToolkit QUIET", "hip QUIET")  # the find is still safe
        assert "CUDAToolkit_FOUND" in _left(result)
        return
    _unchanged(result, text)


def test_a_hip_project_already_ported_comes_back_unchanged():
    text = (
        "cmake_minimum_required(VERSION 3.21)\nproject(ported LANGUAGES CXX HIP)\n"
        "find_package(hip REQUIRED)\nfind_package(hipblas REQUIRED)\nset(CMAKE_HIP_ARCHITECTURES gfx942)\n"
        'set(CMAKE_HIP_FLAGS "${CMAKE_HIP_FLAGS} --offload-arch=gfx942 -ffast-math -fgpu-rdc")\n'
        "add_library(k STATIC src/gemm.hip)\nset_source_files_properties(src/k.cu PROPERTIES LANGUAGE HIP)\n"
        "target_link_libraries(k PRIVATE hip::device roc::hipblas rccl::rccl)\n"
    )
    result = rewrite_cmake(text, {"src/other.cu": "src/other.hip"})
    _unchanged(result, text)
    assert result.left == []


def test_a_dual_platform_build_is_reported_not_rewritten():
    text = (FIXTURES / "ROC201_enable_language_cuda.cmake").read_text()
    result = rewrite_cmake(text)
    _unchanged(result, text)
    assert "dual-platform" in _left(result)["CUDA and HIP both configured"]
    text = (
        "if(GPU STREQUAL cuda)\n  find_package(CUDAToolkit REQUIRED)\nelse()\n  find_package(hip REQUIRED)\nendif()\n"
    )
    _unchanged(rewrite_cmake(text), text)


def test_renames_match_whole_path_tokens_only():
    text = (
        "add_library(k src/k.cu ${CMAKE_CURRENT_SOURCE_DIR}/src/k.cu ./src/k.cu\n"
        "  src/k.cuh other/src/k.cu src/k.cu.bak mysrc/k.cu)\n"
        'target_sources(k PRIVATE "src/k.cu")\nset(SRCS "a.cpp;src/k.cu")\n'
        'message(STATUS "building src/k.cu")  # src/k.cu\n'
        "cutlass_example_add_executable(\n  00_basic_gemm\n  src/k.cu\n  )\n"
    )
    result = rewrite_cmake(text, {"src/k.cu": "src/k.hip"})
    assert result.text == (
        "add_library(k src/k.hip ${CMAKE_CURRENT_SOURCE_DIR}/src/k.hip ./src/k.hip\n"
        "  src/k.cuh other/src/k.cu src/k.cu.bak mysrc/k.cu)\n"
        'target_sources(k PRIVATE "src/k.hip")\nset(SRCS "a.cpp;src/k.hip")\n'
        'message(STATUS "building src/k.cu")  # src/k.cu\n'
        "cutlass_example_add_executable(\n  00_basic_gemm\n  src/k.hip\n  )\n"
    )
    assert "other/src/k.cu" in _left(result)  # a .cu source with no rename given


# -- Makefiles ------------------------------------------------------------------------------------------------
LLM_C_MAKEFILE = (
    "# shape of llm.c's Makefile\n"
    "NVCC := $(shell which nvcc 2>/dev/null)\n"
    "NVCC_FLAGS = -O3 -t=0 --use_fast_math -std=c++17\n"
    "NVCC_LDFLAGS = -lcublas -lcublasLt\n"
    "train_gpt2cu: train_gpt2.cu\n"
    "\t$(NVCC) $(NVCC_FLAGS) $^ $(NVCC_LDFLAGS) -o $@\n"
)


def test_makefile_compiler_variable_and_flags():
    text = (
        "CUDA_CC := /usr/local/cuda/bin/nvcc -O3\n"
        "export NVCC=nvcc\n"
        "FLAGS = -O3 -std=c++17 -arch=sm_80 --expt-relaxed-constexpr -Xcompiler -fopenmp\n"
        "%.o: %.cu\n"
        "\t$(NVCC) $(FLAGS) -c $< -o $@\n"
    )
    result = rewrite_makefile(text)
    assert result.text == text.replace("/usr/local/cuda/bin/nvcc", "hipcc").replace("NVCC=nvcc", "NVCC=hipcc")
    left = _left(result)
    assert "--offload-arch" in left["-arch=sm_80"] and "drop it" in left["--expt-relaxed-constexpr"]
    assert "directly" in left["-Xcompiler"]
    assert not any(flag in left for flag in ("-O3", "-std=c++17", "-fopenmp", "/usr/local/cuda"))
    assert rewrite_makefile(result.text).text == result.text


def test_llm_c_style_makefile_leaves_a_probed_compiler():
    result = rewrite_makefile(LLM_C_MAKEFILE, {"train_gpt2.cu": "train_gpt2.hip"})
    assert "NVCC := $(shell which nvcc 2>/dev/null)" in result.text  # a probe, not a plain compiler: left
    assert "train_gpt2cu: train_gpt2.hip\n" in result.text
    left = _left(result)
    assert "hipcc" in left["nvcc"] and "-ffast-math" in left["--use_fast_math"] and "-lhipblaslt" in left["-lcublasLt"]


@pytest.mark.parametrize(
    "text",
    [
        # comments, strings, look-alikes and probes (ROC211's ok lines)
        "# nvcc -c old.cu\nNVCC_FLAGS_NOTE = see docs\nlibnvcc_stub.a: stub.o\ncheck:\n\tnvcc --version\n\twhich nvcc\n"
        '\techo "compile with nvcc -arch=sm_80"\n',
        # a comment continued onto the next line by a backslash
        "# old setup \\\nNVCC = nvcc\nall:\n",
        # a dual-platform Makefile
        "ifeq ($(GPU),amd)\nCC := hipcc\nelse\nCC := nvcc\nendif\n",
        # already HIP
        "HIPCC ?= $(ROCM_PATH)/bin/hipcc\n%.o: %.hip\n\t$(HIPCC) --offload-arch=gfx942 -c $< -o $@\n",
    ],
)
def test_makefile_comments_strings_and_hip_are_not_touched(text):
    _unchanged(rewrite_makefile(text, {"old.cu": "old.hip"}), text)


def test_makefile_renames_whole_tokens_and_leaves_patterns():
    text = "OBJS = k.o\nk.o: src/k.cu src/k.cuh\n\t$(CC) -c ./src/k.cu,src/k.cu.bak\nSRCS = $(wildcard src/*.cu)\n"
    result = rewrite_makefile(text, {"src/k.cu": "src/k.hip"})
    assert result.text == text.replace("src/k.cu ", "src/k.hip ").replace("./src/k.cu,", "./src/k.hip,")
    assert any(item.line == 4 and ".hip" in item.why for item in result.left)


# -- idempotence and CMake itself ---------------------------------------------------------------------------
CMAKE_SAMPLES = [(DEMO / "CMakeLists.txt").read_text()] + [p.read_text() for p in sorted(FIXTURES.glob("ROC20*.cmake"))]
MAKE_SAMPLES = [(DEMO / "Makefile").read_text(), LLM_C_MAKEFILE] + [
    p.read_text() for p in sorted(FIXTURES.glob("*.mk"))
]


@pytest.mark.parametrize("renames", [None, DEMO_RENAMES])
def test_rewriting_a_rewritten_file_changes_nothing(renames):
    for text in CMAKE_SAMPLES:
        once = rewrite_cmake(text, renames)
        assert rewrite_cmake(once.text, renames).changes == []
    for text in MAKE_SAMPLES:
        once = rewrite_makefile(text, renames)
        assert rewrite_makefile(once.text, renames).changes == []


def _cmake() -> str:
    found = shutil.which("cmake")
    if found is None:
        pytest.skip("cmake is not installed (apt-get install cmake)")
    return found


def test_cmake_parses_every_rewritten_file(tmp_path):
    # `return()` first: CMake parses the whole file (syntax) before running anything, and then runs nothing, so no
    # CUDA or HIP toolchain is needed.
    cmake = _cmake()
    for i, text in enumerate(CMAKE_SAMPLES):
        script = tmp_path / f"rewritten{i}.cmake"
        script.write_text("return()\n" + rewrite_cmake(text, DEMO_RENAMES).text)
        run = subprocess.run([cmake, "-P", str(script)], capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, run.stderr


def test_cmake_configures_a_rewritten_optional_gpu_project_without_a_toolchain(tmp_path):
    # The GPU part is optional: with hip not found (disabled here, so a ROCm install changes nothing) the rewritten
    # file configures, and hip_FOUND is the test that replaced CUDAToolkit_FOUND.
    cmake = _cmake()
    text = (
        "cmake_minimum_required(VERSION 3.21)\nproject(optional_gpu LANGUAGES NONE)\n"
        "set(CMAKE_CUDA_STANDARD 17)\nfind_package(CUDAToolkit QUIET)\n"
        "if(CUDAToolkit_FOUND)\n  enable_language(CUDA)\n  add_library(k STATIC src/k.cu)\n"
        "  target_link_libraries(k PRIVATE CUDA::cudart)\nendif()\n"
        'message(STATUS "gpu=${CMAKE_CUDA_STANDARD}")\n'
    )
    result = rewrite_cmake(text, {"src/k.cu": "src/k.hip"})
    assert "if(hip_FOUND)\n  enable_language(HIP)\n  add_library(k STATIC src/k.hip)" in result.text
    assert "CMAKE_CUDA_STANDARD" in result.text  # used inside a string: left alone everywhere
    (tmp_path / "CMakeLists.txt").write_text(result.text)
    run = subprocess.run(
        [cmake, "-S", str(tmp_path), "-B", str(tmp_path / "build"), "-DCMAKE_DISABLE_FIND_PACKAGE_hip=ON"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "gpu=17" in run.stdout


# -- NCCL -> RCCL (the translator includes rccl/rccl.h and keeps the nccl* names) ------------------------------
def test_nccl_linked_by_name_becomes_rccl():
    result = rewrite_cmake("add_executable(t t.cu)\ntarget_link_libraries(t PRIVATE nccl pthread)\n")
    assert "target_link_libraries(t PRIVATE rccl pthread)" in result.text
    assert [(c.before, c.after) for c in result.changes] == [("nccl", "rccl")] and "RCCL" in result.changes[0].why


def test_find_package_nccl_stays_where_the_file_reads_what_its_find_module_sets():
    text = "find_package(NCCL REQUIRED)\ntarget_include_directories(t PRIVATE ${NCCL_INCLUDE_DIRS})\n"
    result = rewrite_cmake(text)
    assert "find_package(NCCL REQUIRED)" in result.text  # rccl's package sets no NCCL_INCLUDE_DIRS
    assert "RCCL" in _left(result)["find_package(NCCL)"]


def test_a_makefile_links_rccl_for_nccl():
    result = rewrite_makefile("LDLIBS = -lcudart -lnccl -lnccl_static_helper\n")
    assert result.text == "LDLIBS = -lcudart -lrccl -lnccl_static_helper\n"
    assert "-lnccl" not in _left(result) and "-lamdhip64" in _left(result)["-lcudart"]
