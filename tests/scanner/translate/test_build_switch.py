"""The merge request's build switch (scanner.translate.build_switch.switch_build), checked the way issue 30 asks:
port a CMake project with several targets, read the build model of the result, and compile every ported file with
the flags that model gives.

The fixture (tests/scanner/fixtures/ccl_tests) is code of our own shaped like nccl-tests: one `.cu` per collective
operation, a common library (common.cu + common.h) every test links, a verification library in its own directory,
sources named through set(), list(APPEND), a function and two foreach() loops, `CUDA::cudart CUDA::cuda_driver` in
one link list (the two CUDA targets with one HIP counterpart that made `hip::host hip::host`).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from scanner import build
from scanner.compile import compilers, toolchain
from scanner.formats.cmake import parse_commands
from scanner.translate import Translator
from scanner.translate.build_switch import BuildSwitch, switch_build
from scanner.translate.model import TranslateOptions
from scanner.translate.tree import output_name, translate_tree
from tests.tools import needs

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "ccl_tests"
OPERATIONS = ("all_reduce", "all_gather", "broadcast", "reduce", "reduce_scatter", "alltoall", "sendrecv")
PORTED = sorted([f"src/{op}.cu" for op in OPERATIONS] + ["src/common.cu", "verifiable/verifiable.cu"])
CONFIGURE = ["cmake -S . -B build -DCMAKE_HIP_ARCHITECTURES=gfx942", "cmake --build build"]


def _paths(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def _port(tmp_path: Path, *, side_by_side: bool = True, leave: tuple[str, ...] = ()) -> tuple[Path, BuildSwitch, dict]:
    """The port as the merge request makes it, on a copy of the fixture: each file translated (scanner.translate.tree),
    a `.cu` written beside as `.hip` (side by side) or over itself (in place), headers in place; then the build
    switch of the checkout, its texts written. `leave`: sources the port does not include. Returns the branch, the
    switch and the renames."""
    root, branch = tmp_path / "checkout", tmp_path / "branch"
    shutil.copytree(FIXTURE, root)
    shutil.copytree(FIXTURE, branch)
    ported = {}
    for item in translate_tree(root, Translator(TranslateOptions(backend="builtin"))):
        assert not item.result.error, (item.rel, item.result.error)
        if item.result.text == item.original or item.rel in leave:
            continue
        name = output_name(item.rel) if side_by_side else item.rel
        (branch / name).write_text(item.result.text)
        ported[item.rel] = name
    renames = {old: new for old, new in ported.items() if new != old}
    switch = switch_build(_paths(root), lambda rel: (root / rel).read_text(), renames=renames, ported=sorted(ported))
    for rel, text in switch.texts.items():
        (branch / rel).write_text(text)
    return branch, switch, renames


def _targets(model: build.BuildModel, path: str) -> set[str]:
    return {c.target for c in model.of(path).compilations}


def _link_lists(text: str) -> list[list[str]]:
    return [[a.value for a in cmd.args] for cmd in parse_commands(text) if cmd.name == "target_link_libraries"]


def test_side_by_side_every_target_of_a_ported_source_builds_its_hip_copy_as_hip(tmp_path):
    before = build.read(str(FIXTURE), _paths(FIXTURE))
    branch, switch, renames = _port(tmp_path)
    assert sorted(renames) == PORTED
    model = build.read(str(branch), _paths(branch))
    for source, copy in renames.items():
        # the same targets, now compiling the .hip copy as HIP for an AMD GPU; the .cu is no target's source
        assert _targets(model, copy) == _targets(before, source) and _targets(before, source), source
        assert all(c.language == "hip" and c.amd for c in model.of(copy).compilations), source
        assert model.of(source).compilations == (), source
    # every test target: its operation and the common library it links, all HIP
    for op in OPERATIONS:
        assert _targets(model, f"src/{op}.hip") == {f"{op}_perf"}
    assert _targets(model, "src/common.hip") == {"common"} and _targets(model, "src/timer.cc") == {"common"}
    # nothing builds CUDA any more: the project's language is HIP
    assert not [(path, c.target) for path, f in model.files.items() for c in f.compilations if c.nvidia]
    assert "HIP" in model.languages and "CUDA" not in model.languages
    assert [build_file for build_file in switch.texts] == [
        "CMakeLists.txt",
        "src/CMakeLists.txt",
        "verifiable/CMakeLists.txt",
    ]
    src = switch.texts["src/CMakeLists.txt"]
    assert "add_executable(${name}_perf ${name}.hip)" in src  # through the function's parameter
    assert "add_executable(${op}_perf ${CMAKE_CURRENT_SOURCE_DIR}/${op}.hip)" in src  # through the loop's variable
    assert "set(COMMON_SOURCES common.hip timer.cc)" in src  # where the set() that feeds the target names it
    assert "list(APPEND VERIFY_SOURCES verifiable.hip)" in switch.texts["verifiable/CMakeLists.txt"]
    assert "project(ccl_tests LANGUAGES CXX HIP)" in switch.texts["CMakeLists.txt"]
    # one HIP target per link list, however many CUDA targets it had; find_package(hip) once, at the top
    for text in switch.texts.values():
        for items in _link_lists(text):
            assert len(items) == len(set(items)), items
            assert not any(item.startswith("CUDA::") for item in items), items
    assert "target_link_libraries(common PUBLIC ccl_options verifiable hip::host)" in src
    assert sum(text.count("find_package(hip") for text in switch.texts.values()) == 1
    # what is left: the architectures, with the configure line that sets the HIP ones
    assert [(path, item.what) for path, item in switch.left] == [("CMakeLists.txt", "CMAKE_CUDA_ARCHITECTURES 80 90")]
    assert switch.configure == CONFIGURE
    # the switched branch switches no further
    again = switch_build(_paths(branch), lambda rel: (branch / rel).read_text(), renames=renames, ported=PORTED)
    assert again.texts == {} and again.changes == []


@needs("hip-clang")
def test_every_ported_file_compiles_for_gfx942_with_the_flags_the_branchs_model_gives(tmp_path):
    branch, _, renames = _port(tmp_path)
    model = build.read(str(branch), _paths(branch))
    tc = compilers.resolve("clang", "", ("gfx942",), "c++17", 120.0)
    for copy in sorted(renames.values()):
        flags = list(model.of(copy).judged().flags())
        # the model's flags carry what the sources need: common.h from -Isrc, verifiable.h from the library's
        # PUBLIC directory, CCL_TESTS_CHECK from the options target every target links (common.h errors without it)
        assert "-DCCL_TESTS_CHECK=1" in flags and "-Iverifiable" in flags and "-std=c++17" in flags, (copy, flags)
        out = tmp_path / (Path(copy).name + ".o")
        done = toolchain.run(tc.command(copy, str(out), flags), branch, tc.env, 300.0)
        assert not done.timed_out and done.returncode == 0, (copy, flags, done.stderr[-3000:])


def test_cmake_parses_every_switched_file(tmp_path):
    cmake = shutil.which("cmake")
    if cmake is None:
        pytest.skip("cmake is not installed (apt-get install cmake)")
    _, switch, _ = _port(tmp_path)
    for i, text in enumerate(switch.texts.values()):
        script = tmp_path / f"switched{i}.cmake"
        script.write_text("return()\n" + text)  # parsed whole, run not at all: no HIP toolchain needed
        run = subprocess.run([cmake, "-P", str(script)], capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, run.stderr


def test_a_spelling_shared_with_a_source_not_ported_is_left_with_every_target_it_names(tmp_path):
    # all_reduce.cu is not in the port: `${name}.cu` in the function also names it, so switching it would build a
    # .hip that does not exist; it stays, and each of the function's targets is named for a person.
    branch, switch, renames = _port(tmp_path, leave=("src/all_reduce.cu",))
    src = switch.texts["src/CMakeLists.txt"]
    assert "add_executable(${name}_perf ${name}.cu)" in src
    assert "${CMAKE_CURRENT_SOURCE_DIR}/${op}.hip" in src and "set(COMMON_SOURCES common.hip timer.cc)" in src
    model = build.read(str(branch), _paths(branch))
    for op in ("alltoall", "sendrecv"):
        assert _targets(model, f"src/{op}.hip") == {f"{op}_perf"}
    assert not [c for f in model.files.values() for c in f.compilations if c.nvidia]
    left = {(path, item.line, item.what): item.why for path, item in switch.left}
    assert "not ported" in left[("src/CMakeLists.txt", 8, "src/all_reduce.cu")]
    for op in ("all_gather", "broadcast", "reduce", "reduce_scatter"):
        why = left[("src/CMakeLists.txt", 8, f"src/{op}.cu")]
        assert f"`{op}_perf` still builds the CUDA source" in why and f"src/{op}.hip" in why
    assert set(renames) == set(PORTED) - {"src/all_reduce.cu"}


def test_in_place_the_targets_build_the_translated_cu_sources_as_hip(tmp_path):
    branch, switch, renames = _port(tmp_path, side_by_side=False)
    assert renames == {}
    model = build.read(str(branch), _paths(branch))
    for source in PORTED:
        assert model.of(source).compilations, source
        assert all(c.language == "hip" and c.amd for c in model.of(source).compilations), source
    assert "PROPERTIES LANGUAGE HIP)" in switch.texts["src/CMakeLists.txt"]
    assert (
        "set_source_files_properties(verifiable.cu PROPERTIES LANGUAGE HIP)"
        in switch.texts["verifiable/CMakeLists.txt"]
    )
    assert [item.what for _, item in switch.left] == ["CMAKE_CUDA_ARCHITECTURES 80 90"]
    assert switch.configure == CONFIGURE
    again = switch_build(_paths(branch), lambda rel: (branch / rel).read_text(), ported=PORTED)
    assert again.texts == {}


# -- small projects, from memory ------------------------------------------------------------------------------
def _switch(files: dict[str, str], **options) -> BuildSwitch:
    return switch_build(list(files), files.get, **options)


def _model(files: dict[str, str], switch: BuildSwitch, tmp_path: Path, extra: tuple[str, ...] = ()):
    for rel, text in {**files, **switch.texts, **{p: "" for p in extra}}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return build.read(str(tmp_path), _paths(tmp_path))


def test_a_findcuda_project_gets_the_hip_language_and_plain_targets(tmp_path):
    files = {
        "CMakeLists.txt": "cmake_minimum_required(VERSION 3.21)\nproject(old CXX)\nfind_package(CUDA REQUIRED)\n"
        "cuda_add_executable(app src/app.cu)\n",
        "src/app.cu": "",
    }
    switch = _switch(files, renames={"src/app.cu": "src/app.hip"})
    assert switch.texts["CMakeLists.txt"] == (
        "cmake_minimum_required(VERSION 3.21)\nproject(old CXX)\nenable_language(HIP)\nfind_package(hip REQUIRED)\n"
        "add_executable(app src/app.hip)\n"
    )
    model = _model(files, switch, tmp_path, ("src/app.hip",))
    assert [(c.target, c.language) for c in model.of("src/app.hip").compilations] == [("app", "hip")]
    assert "HIP" in model.languages and switch.left == [] and switch.configure == CONFIGURE


GLOB = (
    "cmake_minimum_required(VERSION 3.21)\nproject(g LANGUAGES CXX CUDA)\n"
    "file(GLOB KERNELS ${CMAKE_CURRENT_SOURCE_DIR}/kernels/*.cu)\nadd_library(kernels STATIC ${KERNELS})\n"
)


def test_a_glob_switches_to_the_hip_copies_only_when_every_match_is_ported(tmp_path):
    files = {"CMakeLists.txt": GLOB, "kernels/a.cu": "", "kernels/b.cu": ""}
    every = {"kernels/a.cu": "kernels/a.hip", "kernels/b.cu": "kernels/b.hip"}
    switch = _switch(files, renames=every)
    assert "file(GLOB KERNELS ${CMAKE_CURRENT_SOURCE_DIR}/kernels/*.hip)" in switch.texts["CMakeLists.txt"]
    model = _model(files, switch, tmp_path / "all", tuple(every.values()))
    assert {c.target for p in every.values() for c in model.of(p).compilations} == {"kernels"}
    assert not any(item.what.endswith("*.cu") for _, item in switch.left)
    # b.cu is not ported: the glob would drop it, so it stays, and the model says what each target still builds
    switch = _switch(files, renames={"kernels/a.cu": "kernels/a.hip"})
    assert "kernels/*.cu)" in switch.texts["CMakeLists.txt"]
    left = {item.what: item.why for _, item in switch.left}
    assert "still builds the CUDA source" in left["kernels/a.cu"] and "not ported" in left["kernels/b.cu"]


def test_a_dual_platform_build_is_left_as_it_is_without_a_report_per_target():
    files = {
        "CMakeLists.txt": "project(d LANGUAGES CXX CUDA HIP)\nadd_library(k k.cu)\n"
        "target_link_libraries(k CUDA::cudart)\n",
        "k.cu": "",
    }
    switch = _switch(files, renames={"k.cu": "k.hip"})
    assert switch.texts == {}
    assert [item.what for _, item in switch.left] == ["CUDA and HIP both configured"]


# -- Makefiles and setup.py (issue 35) ------------------------------------------------------------------------
LLM_C_SHAPE = """ifeq ($(OS),Windows_NT)
  NVCC := nvcc
else
  NVCC := $(shell which nvcc 2>/dev/null)
endif
FLAGS = -O3 -std=c++17 -Iinclude -DKERNELS=1
a.o: src/a.cu
\t$(NVCC) $(FLAGS) -c $< -o $@
b.o: src/b.cu
\t$(NVCC) $(FLAGS) -c $< -o $@
"""
TORCH_SETUP = """from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension
SOURCES = ["src/a.cu", 'src/b.cu']
setup(name="k", ext_modules=[CUDAExtension("k._C", sources=SOURCES + ["src/bind.cpp"])])
"""
PAIR = {"src/a.cu": "src/a.hip", "src/b.cu": "src/b.hip"}


@pytest.mark.parametrize("side_by_side", [True, False], ids=["side-by-side", "in-place"])
def test_a_makefile_switches_its_compiler_on_the_branch_linux_takes_never_the_windows_one(tmp_path, side_by_side):
    files = {"Makefile": LLM_C_SHAPE, "src/a.cu": "", "src/b.cu": ""}
    renames = PAIR if side_by_side else {}
    switch = _switch(files, renames=renames, ported=sorted(PAIR))
    text = switch.texts["Makefile"]
    assert "  NVCC := nvcc\n" in text  # the Windows-only branch is left as it is
    assert "  NVCC := $(shell which hipcc 2>/dev/null)\n" in text
    assert switch.left == []
    model = _model(files, switch, tmp_path, tuple(renames.values()))
    for source in PAIR:
        built = model.of(renames.get(source, source)).compilations
        assert [(c.compiler, c.language) for c in built] == [("hipcc", "hip")], source
    assert _switch({**files, **switch.texts}, renames=renames, ported=sorted(PAIR)).texts == {}


def test_a_compiler_shared_with_a_cuda_source_not_ported_is_left_for_a_person():
    text = LLM_C_SHAPE + "c.o: src/c.cu\n\t$(NVCC) $(FLAGS) -c $< -o $@\n"
    switch = _switch({"Makefile": text, "src/a.cu": "", "src/b.cu": "", "src/c.cu": ""}, ported=sorted(PAIR))
    assert "which nvcc" in switch.texts.get("Makefile", text)
    [(path, item)] = [(p, i) for p, i in switch.left if "does not translate" in i.why]
    assert (path, item.line) == ("Makefile", 4) and "`src/c.cu`" in item.why


def test_a_torch_extension_lists_the_hip_copies_side_by_side_and_builds_them_with_hipcc_in_place(tmp_path):
    files = {"setup.py": TORCH_SETUP, "src/a.cu": "", "src/b.cu": "", "src/bind.cpp": ""}
    switch = _switch(files, renames=PAIR, ported=sorted(PAIR))
    assert "SOURCES = [\"src/a.hip\", 'src/b.hip']" in switch.texts["setup.py"] and switch.left == []
    model = _model(files, switch, tmp_path / "side", tuple(PAIR.values()))
    for source, copy in PAIR.items():
        assert [(c.compiler, c.language) for c in model.of(copy).compilations] == [("hipcc", "hip")]
        assert model.of(source).compilations == ()
    # In place the sources hold HIP code on the branch: a ROCm PyTorch builds them, nothing is edited or left.
    in_place = _switch(files, ported=sorted(PAIR))
    assert in_place.texts == {} and in_place.left == []
    ported = {path: "#include <hip/hip_runtime.h>\n" for path in PAIR}
    model = _model({**files, **ported}, in_place, tmp_path / "in-place")
    for source in PAIR:
        assert [(c.compiler, c.language) for c in model.of(source).compilations] == [("hipcc", "hip")]


# A pattern rule builds the objects (`%.o: %.cu`), the objects listed or made from the sources.
WINDOWS_OR_LINUX = LLM_C_SHAPE.split("FLAGS")[0] + "FLAGS = -O3 -std=c++17 -Iinclude\n"
PATTERN = "%.o: %.cu\n\t$(NVCC) $(FLAGS) -c $< -o $@\n"
PATTERN_SHAPES = {
    "objects listed": ("OBJS = src/a.o src/b.o\n", PATTERN),
    "objects from the sources": ("SRCS = src/a.cu src/b.cu\nOBJS = $(SRCS:.cu=.o)\n", PATTERN),
    "objects from a wildcard": ("SRCS := $(wildcard src/*.cu)\nOBJS := $(SRCS:%.cu=%.o)\n", PATTERN),
    "an object directory": (
        "SRCS = src/a.cu src/b.cu\nOBJS = $(patsubst src/%.cu,build/%.o,$(SRCS))\n",
        "build/%.o: src/%.cu\n\t$(NVCC) $(FLAGS) -c $< -o $@\n",
    ),
}


def _pattern_makefile(lists: str, rule: str, extra: str = "") -> str:
    return WINDOWS_OR_LINUX + lists + extra + "train: $(OBJS)\n\t$(NVCC) $^ -o $@\n" + rule


@pytest.mark.parametrize("shape", sorted(PATTERN_SHAPES))
def test_a_pattern_rule_over_ported_sources_builds_their_hip_copies_with_hipcc(tmp_path, shape):
    lists, rule = PATTERN_SHAPES[shape]
    files = {"Makefile": _pattern_makefile(lists, rule), "src/a.cu": "", "src/b.cu": ""}
    switch = _switch(files, renames=PAIR, ported=sorted(PAIR))
    text = switch.texts["Makefile"]
    assert switch.left == [], switch.left
    assert rule.split("\n")[0].replace("%.cu", "%.hip") + "\n" in text
    assert "  NVCC := nvcc\n" in text and "  NVCC := $(shell which hipcc 2>/dev/null)\n" in text
    model = _model(files, switch, tmp_path, tuple(PAIR.values()))
    for source, copy in PAIR.items():
        assert [(c.compiler, c.language) for c in model.of(copy).compilations] == [("hipcc", "hip")], copy
        assert model.of(source).compilations == (), source
        assert "include" in model.of(copy).compilations[0].include_dirs
    assert _switch({**files, **switch.texts}, renames=PAIR, ported=sorted(PAIR)).texts == {}


@pytest.mark.parametrize("lists", ["OBJS = src/a.o src/b.o src/c.o\n", "SRCS := $(wildcard src/*.cu)\n"])
def test_a_pattern_that_also_builds_a_source_not_ported_is_left_for_a_person(lists):
    lists += "" if "OBJS" in lists else "OBJS := $(SRCS:.cu=.o)\n"
    text = _pattern_makefile(lists, PATTERN)
    switch = _switch(
        {"Makefile": text, "src/a.cu": "", "src/b.cu": "", "src/c.cu": ""}, renames=PAIR, ported=sorted(PAIR)
    )
    new = switch.texts.get("Makefile", text)
    assert "%.o: %.cu\n" in new and "%.hip" not in new and "which nvcc" in new  # nvcc still builds src/c.cu
    rule = text.split("\n").index("%.o: %.cu") + 1
    assert ("Makefile", rule, "%.o: %.cu") in {(p, i.line, i.what) for p, i in switch.left}


def test_a_pattern_shape_the_model_does_not_read_is_left_for_a_person():
    static = "$(OBJS): %.o: %.cu\n\t$(NVCC) $(FLAGS) -c $< -o $@\n"  # a static pattern rule
    text = _pattern_makefile("OBJS = src/a.o src/b.o\n", static)
    switch = _switch({"Makefile": text, "src/a.cu": "", "src/b.cu": ""}, renames=PAIR, ported=sorted(PAIR))
    assert "%.hip" not in switch.texts.get("Makefile", text)
    assert any(i.what == "$(OBJS): %.o: %.cu" for _, i in switch.left)
