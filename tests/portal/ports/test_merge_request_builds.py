"""Merge requests that build (issue 35, items 1 and 2), end to end on real git over smart HTTP with the stand-ins of
the four hosts, taking turns (tests/portal/githttp.py, tests/portal/pullhosts.py): a Makefile project (a Windows-
only branch beside the one Linux takes; its objects by explicit rules, or by a pattern rule), a CMake project with several targets and a PyTorch `setup.py` extension,
each ported in place and side by side. For each branch: its build model (scanner.build, read on the pushed tree)
shows every ported file compiled for HIP, once, and nothing else compiled twice; the compile check ran on the branch
before the push with the model's flags (the sources need the build's include directory to compile), one file with
NVIDIA inline assembly fails with its first error, and the request's body and page say per file what the check
found. Where the check has no toolchain, only the compile assertion is skipped, as tests/scanner/compile skips.
"""

from __future__ import annotations

import re
import tarfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.urls import reverse

from portal.files.actions import check_review_translation
from portal.files.queries import file_version
from portal.ports import compiling, tasks
from portal.ports.actions import do_open_merge_request
from portal.ports.models import MergeRequest
from portal.repositories.models import Repository
from portal.scans.actions import do_create_scan
from portal.scans.pipeline import runner as pipeline
from portal.statuses.models import CommitStatusConfig
from scanner import build
from tests.portal.githttp import ServedRepo
from tests.portal.languages import in_both_languages
from tests.portal.people import client_for
from tests.portal.ports.test_merge_request_views import make_request
from tests.portal.pullhosts import PullHost
from tests.tools import available, require

TOKEN = "ghp_build-token-0123456789"
WRITER = ("porter", "w-s3cret-push")
HEADER = "#pragma once\n#define KSCALE 2.0f\n"
KERNEL = """#include <cuda_runtime.h>
#include "kernels.h"
__global__ void NAME(float *x) { x[threadIdx.x] *= KSCALE; }
int run_NAME(float *host, int n) {
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, host, n * sizeof(float), cudaMemcpyHostToDevice);
  NAME<<<1, n>>>(d);
  cudaDeviceSynchronize();
  cudaFree(d);
  return 0;
}
"""
LANES = """#include <cuda_runtime.h>
__global__ void lanes(unsigned *out) {
  unsigned lane;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(lane));
  out[threadIdx.x] = lane;
}
int run_lanes(unsigned *d) {
  lanes<<<1, 64>>>(d);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
"""
SOURCES = {"src/a.cu": KERNEL.replace("NAME", "scale"), "src/b.cu": KERNEL.replace("NAME", "shift")}
SOURCES |= {"src/lanes.cu": LANES, "include/kernels.h": HEADER, "tools/main.cpp": "int main() { return 0; }\n"}
PORTED = ["src/a.cu", "src/b.cu", "src/lanes.cu"]

MAKEFILE = """ifeq ($(OS),Windows_NT)
  NVCC := nvcc
else
  NVCC := $(shell which nvcc 2>/dev/null)
endif
FLAGS = -O3 -std=c++17 -Iinclude
all: kernels
a.o: src/a.cu
\t$(NVCC) $(FLAGS) -c $< -o $@
b.o: src/b.cu
\t$(NVCC) $(FLAGS) -c $< -o $@
lanes.o: src/lanes.cu
\t$(NVCC) $(FLAGS) -c $< -o $@
kernels: a.o b.o lanes.o
\t$(NVCC) $^ -o $@
"""
# The same project built by a pattern rule over the sources' object list.
PATTERN_MAKEFILE = (
    MAKEFILE.split("all:")[0]
    + """SRCS = src/a.cu src/b.cu src/lanes.cu
OBJS = $(SRCS:.cu=.o)
all: kernels
%.o: %.cu
\t$(NVCC) $(FLAGS) -c $< -o $@
kernels: $(OBJS)
\t$(NVCC) $^ -o $@
"""
)
CMAKE = """cmake_minimum_required(VERSION 3.21)
project(kernels LANGUAGES CXX CUDA)
add_library(scale STATIC src/a.cu)
target_include_directories(scale PUBLIC include)
add_library(lanes STATIC src/lanes.cu)
add_executable(shift src/b.cu tools/main.cpp)
target_include_directories(shift PRIVATE include)
target_link_libraries(shift PRIVATE scale lanes CUDA::cudart)
"""
SETUP = """from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

SOURCES = ["src/a.cu", "src/b.cu", "src/lanes.cu"]

setup(
    name="kernels",
    ext_modules=[
        CUDAExtension(
            "kernels._C",
            sources=SOURCES + ["tools/main.cpp"],
            include_dirs=["include"],
            extra_compile_args={"cxx": ["-O3"], "nvcc": ["-O3"]},
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
"""
# The four hosts' stand-ins take turns across the projects and modes (tests/portal/pullhosts.py).
HOST_PROJECTS = {
    "github": "acme/kernels",
    "gitlab": "acme/gpu/kernels",
    "gitea": "acme/kernels",
    "forgejo": "acme/kernels",
}
PROJECTS = {"make": {"Makefile": MAKEFILE}, "cmake": {"CMakeLists.txt": CMAKE}, "setup": {"setup.py": SETUP}}


@dataclass
class Ported:
    row: Repository
    served: ServedRepo
    host: PullHost
    request: MergeRequest
    tree: Path  # the pushed branch, checked out
    reader: object  # a member of the team

    @property
    def body(self) -> str:
        sent = self.host.received[-1].body
        return sent.get("body") or sent.get("description") or ""  # GitLab names it description


@pytest.fixture
def port(people, repo_factory, tmp_path, settings):
    """A repository with `files`, served, scanned, its PORTED files reviewed; the port made in `mode` by the
    task with the compile check on; the pushed branch extracted."""
    started = []

    def make(files: dict[str, str], mode: str, check: str = "auto", provider: str = "github") -> Ported:
        repo = repo_factory("work")
        base = repo.commit("kernels", **{path.replace("/", "__"): text for path, text in files.items()})
        served = ServedRepo(tmp_path / "srv", {WRITER[0]: (WRITER[1], True)})
        url = served.publish(repo.path)
        host = PullHost.start(provider, TOKEN, HOST_PROJECTS[provider], branch_exists=served.has_branch)
        started.extend([served, host])
        row = Repository.objects.create(team=people.team, name="kernels", clone_url=url)
        row.set_credentials(*WRITER)
        row.save()
        config = CommitStatusConfig(
            repository=row, provider=provider, api_url=host.api_url, project=HOST_PROJECTS[provider]
        )
        config.set_token(TOKEN)
        config.save()
        scan = do_create_scan(row, commit_sha=base, enqueue=False)
        pipeline.run(scan.pk)  # the scan itself runs with the check off (tests/portal/conftest.py)
        for path in PORTED:
            version = file_version(row, path)
            assert version.translated and version.translated != version.source, path
            check_review_translation(
                row, path, version, "ok", version.scanned.blob_sha, version.translation_sha, acting_user=people.bob
            )
        request, created = do_open_merge_request(row, None, acting_user=people.alice, mode=mode)
        assert created
        settings.ROCPORT_COMPILE_CHECK = check
        assert tasks.open_merge_request.apply(args=[request.pk]).get() == "open"
        request.refresh_from_db()
        tree = tmp_path / "branch"
        served.git("archive", "--format=tar", "-o", str(tmp_path / "branch.tar"), request.head_commit)
        with tarfile.open(tmp_path / "branch.tar") as tar:
            tar.extractall(tree, filter="data")
        return Ported(row, served, host, request, tree, people.alice)

    yield make
    for server in started:
        server.stop()


def _model(tree: Path) -> build.BuildModel:
    return build.read(str(tree), sorted(p.relative_to(tree).as_posix() for p in tree.rglob("*") if p.is_file()))


def _assert_built_for_hip_once(model: build.BuildModel, ported: list[str], originals: list[str]) -> None:
    for path in ported:
        compiled = model.of(path).compilations
        assert compiled and all(c.amd and not c.nvidia for c in compiled), (path, compiled)
        assert len({c.target for c in compiled}) == len(compiled), (path, compiled)  # once per target
    for original in set(originals) - set(ported):  # side by side: the `.cu` no target builds any more
        assert model.of(original).compilations == (), original
    for path, file_build in model.files.items():  # nothing compiled twice by one target
        targets = [c.build_id for c in file_build.compilations]
        assert len(targets) == len(set(targets)), (path, targets)
    for target in {c.build_id for f in model.files.values() for c in f.compilations}:
        sources = [p for p, f in model.files.items() if any(c.build_id == target for c in f.compilations)]
        stems = [re.sub(r"\.(cu|hip)$", "", p) for p in sources if p.endswith((".cu", ".hip"))]
        assert len(stems) == len(set(stems)), (target, sources)  # never a `.cu` and its `.hip` copy together


def _assert_compile_results_shown(ported: Ported, paths: list[str]) -> None:
    results = ported.request.compile_results
    assert [r["path"] for r in results] == paths
    body = ported.body
    assert "**Does it build?**" in body and len(body) < 20_000
    rows = {
        m.group(1): (m.group(2), m.group(3)) for m in re.finditer(r"^\| `([^`]+)` \| ([^|]+) \| (.*) \|$", body, re.M)
    }
    assert list(rows) == paths
    words = {"compiles": "builds", "compiles-with-stubs": "builds with stubs", "fails": "fails"}
    words["not-checked"] = "not checked"
    for result in results:
        word, detail = rows[result["path"]]
        assert word.strip() == words[result["status"]], (result, word)
        if result["status"] == "fails":
            assert result["error"].split(": ", 1)[1][:40].replace("`", "'") in detail
    page = client_for(ported.reader).get(reverse("ports:detail", args=[ported.row.pk, ported.request.pk]))
    html = page.content.decode()
    for result in results:
        assert f'data-compile-status="{result["status"]}"' in html
    assert html.count("data-compile-status=") == len(results)
    if not (available("hip-clang") or available("hipcc")):
        assert {r["status"] for r in results} == {"not-checked"}
        require("hip-clang")  # only the compile assertion is skipped, as tests/scanner/compile skips it
    status = {r["path"]: r["status"] for r in results}
    *builds, lanes = paths
    assert all(status[path] == "compiles" for path in builds), results  # needs the build's -Iinclude
    assert status[lanes] == "fails" and results[-1]["error"].startswith(f"{lanes}:"), results[-1]
    assert all(r["target"] and r["compiler"] for r in results)


def _ported_paths(mode: str) -> list[str]:
    return compiling.branch_paths(PORTED, mode)


@pytest.mark.django_db
@pytest.mark.parametrize(("mode", "provider"), [("in_place", "github"), ("side_by_side", "gitlab")])
def test_a_makefile_project_builds_the_ported_files_with_hipcc_on_the_branch_linux_takes(port, mode, provider):
    ported = port(SOURCES | PROJECTS["make"], mode, provider=provider)
    makefile = (ported.tree / "Makefile").read_text()
    assert "  NVCC := nvcc\n" in makefile  # the Windows-only branch: never the one edited
    assert "  NVCC := $(shell which hipcc 2>/dev/null)\n" in makefile
    model = _model(ported.tree)
    _assert_built_for_hip_once(model, _ported_paths(mode), PORTED)
    assert all(c.compiler == "hipcc" for p in _ported_paths(mode) for c in model.of(p).compilations)
    _assert_compile_results_shown(ported, _ported_paths(mode))


@pytest.mark.django_db
def test_a_makefiles_pattern_rule_builds_the_hip_copies_side_by_side(port):
    ported = port(SOURCES | {"Makefile": PATTERN_MAKEFILE}, "side_by_side", provider="gitlab")
    makefile = (ported.tree / "Makefile").read_text()
    assert "SRCS = src/a.hip src/b.hip src/lanes.hip\nOBJS = $(SRCS:.hip=.o)\n" in makefile
    assert "%.o: %.hip\n" in makefile and "  NVCC := $(shell which hipcc 2>/dev/null)\n" in makefile
    assert not ported.request.build_left and "**Build: left for a person**" not in ported.body
    model = _model(ported.tree)
    paths = _ported_paths("side_by_side")
    _assert_built_for_hip_once(model, paths, PORTED)
    assert [{(c.target, c.compiler) for c in model.of(p).compilations} for p in paths] == [
        {("src/a.o", "hipcc")},
        {("src/b.o", "hipcc")},
        {("src/lanes.o", "hipcc")},
    ]
    _assert_compile_results_shown(ported, paths)


@pytest.mark.django_db
@pytest.mark.parametrize(("mode", "provider"), [("in_place", "gitea"), ("side_by_side", "forgejo")])
def test_a_cmake_project_with_several_targets_builds_each_ported_file_as_hip_in_its_own_target(port, mode, provider):
    ported = port(SOURCES | PROJECTS["cmake"], mode, provider=provider)
    model = _model(ported.tree)
    paths = _ported_paths(mode)
    _assert_built_for_hip_once(model, paths, PORTED)
    targets = {path: {c.target for c in model.of(path).compilations} for path in paths}
    assert list(targets.values()) == [{"scale"}, {"shift"}, {"lanes"}]
    assert "HIP" in model.languages and "CUDA" not in model.languages
    assert [c.language for c in model.of("tools/main.cpp").compilations] == ["c++"]
    _assert_compile_results_shown(ported, paths)


@pytest.mark.django_db
def test_a_torch_extension_side_by_side_lists_the_hip_copies_and_builds_them_with_hipcc(port):
    ported = port(SOURCES | PROJECTS["setup"], "side_by_side", provider="gitlab")
    assert 'SOURCES = ["src/a.hip", "src/b.hip", "src/lanes.hip"]' in (ported.tree / "setup.py").read_text()
    model = _model(ported.tree)
    paths = _ported_paths("side_by_side")
    _assert_built_for_hip_once(model, paths, PORTED)
    assert all(
        c.compiler == "hipcc" and c.include_dirs == ("include",) for p in paths for c in model.of(p).compilations
    )
    _assert_compile_results_shown(ported, paths)


@pytest.mark.django_db
def test_a_torch_extension_in_place_builds_the_ported_files_with_hipcc_and_its_setup_py_unchanged(port):
    """In place the `.cu` keeps its name and holds HIP code: a ROCm PyTorch builds it with hipcc and nvcc no longer
    does, so the branch's model reads hipcc compilations with the extension's flags and the setup.py needs no edit
    (no build commit, nothing left for a person)."""
    ported = port(SOURCES | PROJECTS["setup"], "in_place", provider="gitea")
    assert (ported.tree / "setup.py").read_text() == SETUP
    served, head = ported.served, ported.request.head_commit
    assert served.changed(served.commit(head).parents[0], head) == sorted(PORTED)  # no build commit
    model = _model(ported.tree)
    _assert_built_for_hip_once(model, PORTED, PORTED)
    assert all(
        c.compiler == "hipcc" and c.include_dirs == ("include",) for p in PORTED for c in model.of(p).compilations
    )
    assert [c.compiler for c in model.of("tools/main.cpp").compilations] == ["host"]
    assert not ported.request.build_left and "**Build: left for a person**" not in ported.body
    _assert_compile_results_shown(ported, PORTED)


@pytest.mark.django_db
def test_without_a_compile_check_each_file_says_why_and_the_port_still_opens(port):
    ported = port(SOURCES | PROJECTS["make"], "in_place", check="off")
    assert ported.request.state == "open"
    assert [(r["path"], r["status"], r["reason"]) for r in ported.request.compile_results] == [
        (path, "not-checked", compiling.OFF) for path in PORTED
    ]
    assert ported.body.count(f"| not checked | {compiling.OFF} |") == len(PORTED)


@pytest.mark.django_db
def test_a_check_that_cannot_run_never_fails_the_port(port, monkeypatch):
    def broken(*args):
        raise RuntimeError("the toolchain crashed")

    monkeypatch.setattr(compiling, "CompileChecker", broken)  # the port module's name only: the scan is untouched
    ported = port(SOURCES | PROJECTS["make"], "side_by_side")
    assert ported.request.state == "open"
    reasons = {r["reason"] for r in ported.request.compile_results}
    assert reasons == {"the check could not run (RuntimeError)"}


@pytest.mark.django_db
def test_the_page_shows_each_files_result_in_both_languages_and_follows_the_state(people):
    row = Repository.objects.create(team=people.team, name="kernels", clone_url="https://example.com/k.git")
    request = make_request(row, files=PORTED, state="open", head_commit="d" * 40)
    request.compile_results = [
        {"path": "src/a.cu", "status": "compiles", "reason": "", "std": "c++17", "build": "make target `a.o`"},
        {"path": "src/b.cu", "status": "compiles-with-stubs", "reason": "", "stubbed": ["thrust/sort.h"]},
        {"path": "src/lanes.cu", "status": "fails", "reason": "", "error": "src/lanes.cu:4: invalid instruction"},
        {"path": "src/d.cu", "status": "not-checked", "reason": compiling.OFF},
    ]
    request.save()
    url = reverse("ports:detail", args=[row.pk, request.pk])
    pages = {language: page.content.decode() for language, page in in_both_languages(people.alice, url).items()}
    english, chinese = pages["en"], pages["zh-hans"]
    assert "Does it build?" in english and "能否构建？" in chinese
    for status in ("compiles", "compiles-with-stubs", "fails", "not-checked"):
        assert english.count(f'data-compile-status="{status}"') == 1 and f'data-compile-status="{status}"' in chinese
    assert "src/lanes.cu:4: invalid instruction" in english and "thrust/sort.h" in english
    assert compiling.OFF in english and "本门户已关闭编译检查" in chinese and "已用桩替代" in chinese
    # the table is in the part the page polls while the request is in flight: it appears once the branch is built
    polled = client_for(people.alice).get(url, headers={"HX-Request": "true"}).content.decode()
    assert polled.count("data-compile-status=") == 4
    request.compile_results = []
    request.save()
    assert "Does it build?" not in client_for(people.alice).get(url).content.decode()
