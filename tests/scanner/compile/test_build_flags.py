"""The compile check builds each unit with the standard, include directories and defines its build gives it
(scanner.compile.unit_build, from the build model of scanner.build), and `[compile] std` only when the user set it.

The fixture tests/scanner/compile/fixtures/cxx20 is a C++20 CUDA project of our own: its CMakeLists.txt sets
`CMAKE_CUDA_STANDARD 20`, an include directory and a define, and its kernel's header declares a concept, so it
builds only with all three. The tests that compile need clang 17+ with lld (the default toolchain,
scanner.compile.clang_hip); the others need no compiler.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from scanner import ScanOptions, plan, scan
from scanner.build.model import Compilation, FileBuild
from scanner.compile import check as check_module
from scanner.compile import key_material, unit_build
from scanner.compile.check import CompileChecker, settings_from
from scanner.translate import TranslateOptions, Translator
from tests.tools import needs

CXX20 = Path(__file__).parent / "fixtures" / "cxx20"
CONCEPT_ERROR = "unknown type name 'concept'"


def _copy(tmp_path: Path, drop: str = "", config: str = "") -> Path:
    """The fixture, without the CMakeLists.txt lines containing `drop`, with `config` as its .rocport.toml."""
    root = tmp_path / "cxx20"
    shutil.copytree(CXX20, root)
    cmake = root / "CMakeLists.txt"
    if drop:
        cmake.write_text("".join(line for line in cmake.read_text().splitlines(True) if drop not in line))
    if config:
        (root / ".rocport.toml").write_text(config)
    return root


def _compiled(root: Path, options: ScanOptions | None = None) -> dict:
    return {r.path: r for r in scan(root, options or ScanOptions(compile_check=True)) if r.compile is not None}


@needs("hip-clang")
def test_a_cxx20_cuda_project_is_checked_as_cxx20_because_its_build_says_so():
    results = _compiled(CXX20)
    for rel in ("src/small.cu", "include/small/traits.cuh"):
        check = results[rel].compile
        assert check["status"] == "compiles", check
        assert check["std"] == "c++20" and check["unit"] == "src/small.cu"
        assert check["build"] == "cmake target `small` in CMakeLists.txt:6 (nvcc)"
        assert check["note"] == "" and check["stubbed"] == []
        assert not [f for f in results[rel].findings if f.rule.startswith("ROC9")]


@pytest.mark.parametrize(
    "compiler",
    [pytest.param("clang", marks=needs("hip-clang")), pytest.param("hipcc", marks=needs("hipcc"))],
)
def test_the_commands_carry_the_builds_standard_include_directory_and_define(monkeypatch, compiler):
    """Both toolchains' own `-std=` (clang's c++17, hipcc's c++11 and c++17) give way to the unit's."""
    options, jobs = plan(CXX20, ScanOptions(compile_check=True, hip_compiler=compiler))
    job = next(j for j in jobs if j.rel == "src/small.cu")
    assert job.compile_build == unit_build.UnitBuild(
        "c++20", ("include",), ("SMALL_LIMIT=8",), "cmake target `small` in CMakeLists.txt:6 (nvcc)"
    )
    commands = []
    real_run = check_module.run

    def recording_run(argv, *args, **kwargs):
        commands.append(list(argv))
        return real_run(argv, *args, **kwargs)

    monkeypatch.setattr(check_module, "run", recording_run)
    translator = Translator(TranslateOptions(backend="builtin"))
    checker = CompileChecker(settings_from(options), lambda rel, text, path: translator.translate(rel, text).text)
    try:
        text = (CXX20 / job.rel).read_text()
        result = checker.check(job, text, translator.translate(job.rel, text).text)
    finally:
        checker.close()
    assert result.status == "compiles", result.to_dict()
    assert len(commands) == 2  # `-M -MG`, then `-c`
    for argv in commands:
        assert [a for a in argv if a.startswith("-std=")] == ["-std=c++20"]  # the toolchain's own is replaced
        assert "-Iinclude" in argv and "-DSMALL_LIMIT=8" in argv


@needs("hip-clang")
@pytest.mark.parametrize(
    "drop, config, note",
    [
        ("CMAKE_CUDA_STANDARD", "", ""),  # no standard in the build: the default, c++17
        ("", '[compile]\nstd = "c++17"\n', "[compile] std = c++17 overrides the build's c++20"),
    ],
    ids=["without-the-standard-line", "explicit-override"],
)
def test_the_same_project_as_cxx17_fails_on_the_concept(tmp_path, drop, config, note):
    """What makes the test above able to fail: the project really needs C++20."""
    results = _compiled(_copy(tmp_path, drop, config))
    header = results["include/small/traits.cuh"].compile
    assert header["status"] == "fails" and header["std"] == "c++17"
    assert [(d["line"], d["message"]) for d in header["diagnostics"]] == [(8, CONCEPT_ERROR)]
    assert note in header["note"]
    assert results["src/small.cu"].compile["status"] == "fails"


def test_an_explicit_standard_wins_else_the_builds_else_the_default():
    built = unit_build.UnitBuild("c++20")
    assert unit_build.standard("", built) == ("c++20", "")
    assert unit_build.standard("gnu++17", built) == ("gnu++17", "[compile] std = gnu++17 overrides the build's c++20")
    assert unit_build.standard("c++20", built) == ("c++20", "")
    assert unit_build.standard("", None) == ("c++17", "")
    assert unit_build.standard("", unit_build.UnitBuild()) == ("c++17", "")
    assert unit_build.standard("", unit_build.UnitBuild("gnu++1z")) == ("gnu++17", "")
    std, note = unit_build.standard("", unit_build.UnitBuild("c++03"))
    assert std == "c++11" and "HIP needs C++11" in note  # not the code's error
    std, note = unit_build.standard("", unit_build.UnitBuild("c++17 -fplugin=x.so"))
    assert std == "c++17" and "not a C++ dialect" in note


def test_only_safe_values_of_the_build_reach_the_compiler():
    compilation = Compilation(
        "app",
        "CMakeLists.txt",
        3,
        "cmake",
        "nvcc",
        "cuda",
        "c++20",
        ("include", "/usr/local/cuda/include", "../outside", "${GEN_DIR}", "src/../third_party"),
        ("A", "B=1", "F(x)=x", "-fplugin=x.so", "C=$(shell id)"),
    )
    built = unit_build.of(FileBuild("src/a.cu", (compilation,)))
    assert built.include_dirs == ("include", "third_party")
    assert built.defines == ("A", "B=1", "F(x)=x", "C=$(shell id)")  # a macro's value is only text to clang
    assert unit_build.of(FileBuild("src/a.cu")) is None  # the model knows nothing: the options' flags


def test_the_unit_carries_its_builds_flags_and_its_headers_are_found_through_them(tmp_path):
    root = _copy(tmp_path)
    _, jobs = plan(root, ScanOptions(compile_check=True))
    by_rel = {j.rel: j for j in jobs}
    # <small/traits.cuh> resolves only through the build's include directory: it is in the unit's tree
    assert by_rel["src/small.cu"].compile_deps == ("include/small/traits.cuh",)
    # the header is checked in its includer, with the includer's flags
    assert by_rel["include/small/traits.cuh"].compile_unit == "src/small.cu"
    assert by_rel["include/small/traits.cuh"].compile_build == by_rel["src/small.cu"].compile_build


def test_a_changed_build_changes_the_compile_key(tmp_path):
    def key(root: Path) -> str:
        _, jobs = plan(root, ScanOptions(compile_check=True))
        job = next(j for j in jobs if j.rel == "src/small.cu")
        return key_material({"available": True}, job, lambda rel: "blob")

    same = key(_copy(tmp_path / "a"))
    assert key(_copy(tmp_path / "b")) == same
    assert key(_copy(tmp_path / "c", drop="CMAKE_CUDA_STANDARD")) != same
    assert key(_copy(tmp_path / "d", drop="target_compile_definitions")) != same
