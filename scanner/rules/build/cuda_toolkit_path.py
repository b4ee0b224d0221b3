"""The CUDA toolkit's location assumed (CUDA_HOME, CUDA_PATH, CUDA_TOOLKIT_ROOT_DIR, /usr/local/cuda).

What it finds:
    `CUDA_HOME`, `CUDA_PATH`, `CUDA_ROOT`, `CUDA_TOOLKIT_ROOT_DIR`, `CUDACXX` and paths under
    `/usr/local/cuda` (`/usr/local/cuda-12.4/bin`), in Makefiles, shell scripts, Dockerfiles, CMake, CI YAML
    and Python build scripts (`os.environ["CUDA_HOME"]`, `cpp_extension.CUDA_HOME`).

    A location only added to a search path is low: `-I/usr/local/cuda/include`, `-isystem`,
    `include_directories(/usr/local/cuda/include)`, `CPATH`, `PATH` or `LD_LIBRARY_PATH` entries, an
    `.../cuda/include` directory, a hint of a CMake find command
    (`find_library(LIB cusolver HINTS ${CUDAToolkit_ROOT})`): compilers, shells and CMake skip a directory that
    does not exist, and what a find looks for is reported where it is named (ROC206, ROC211). A library
    linked from under it (`-L/usr/local/cuda/lib64 -lcudart`), `/usr/local/cuda/bin/nvcc` or a Python
    build script reading `CUDA_HOME` keep the rule's severity; one that reads it only behind
    `if CUDA_HOME is not None:` is a note (info): on a ROCm PyTorch it is `None` and the branch is skipped.
    So is a location in a shell script that installs the CUDA toolkit itself (NVIDIA's runfile with `--toolkit`,
    or `apt-get install cuda-toolkit-*`): the path is the one it creates, and a ROCm image never runs it.
    Help text a script prints to the terminal (`echo "  --cuda-home: defaults to /usr/local/cuda"`) is not
    reported; the same `echo` redirected into `$GITHUB_ENV` or a file sets the location, and is.
    Low in CI and packaging automation (a workflow, a script under `ci/`, `.github/`, `packaging/` or a wheel
    `builder/`): it prepares its own CUDA runner or builder image, and a ROCm port adds a job of its own.

Why it breaks on ROCm:
    ROCm lives under `/opt/rocm` (or `/opt/rocm-X.Y`) and is located through `ROCM_PATH`; the CUDA variables
    are unset and the paths do not exist, so include and library paths silently point nowhere and the build
    fails later with missing headers or libraries.

Example:
    CUDA_HOME ?= /usr/local/cuda
    CXXFLAGS += -I$(CUDA_HOME)/include

Use instead:
    `ROCM_PATH ?= /opt/rocm` and `$(ROCM_PATH)/include`, `$(ROCM_PATH)/lib`; in Python,
    `torch.utils.cpp_extension.ROCM_HOME`; in CMake, `CMAKE_PREFIX_PATH=/opt/rocm`.

References:
    https://rocm.docs.amd.com/en/latest/reference/env-variables.html
    https://rocm.docs.amd.com/projects/install-on-linux/en/latest/install/post-install.html
"""

import ast
import os
import re

from scanner.analysis.context import Context
from scanner.formats import python_src
from scanner.model import Risk, Severity
from scanner.port import is_ci_file
from scanner.rules.build._common import build_matches
from scanner.rules.cmake._common import commands
from scanner.rules.libraries._judgement import cuda_code_only, judged
from scanner.rules.textual import SCRIPT_LANGUAGES, once, text_rule

# The variables that locate the toolkit (CMake's FindCUDAToolkit hint `CUDAToolkit_ROOT` among them).
_VARIABLES = ("CUDA_HOME", "CUDA_PATH", "CUDA_ROOT", "CUDA_TOOLKIT_ROOT_DIR", "CUDAToolkit_ROOT", "CUDACXX")
_LOCATION = re.compile(
    r"(?:(?<=-D)|(?<!\w))(?P<variable>" + "|".join(_VARIABLES) + r")(?!\w)"
    # The toolkit's default install paths (`/usr/local/cuda`, `/usr/local/cuda-12.4`; `/opt/cuda` on Arch);
    # not `/usr/local/cudatools`.
    r"|(?P<path>/(?:usr/local|opt)/cuda(?:-\d+(?:\.\d+)*)?)(?![\w.+-])"
)


def check(ctx: Context) -> None:
    for line, col, match in build_matches(ctx, _LOCATION):
        _report(ctx, line, col, match.group(0), match.group("variable"))
    if ctx.language == "python":
        # `cpp_extension.CUDA_HOME`, `from torch.utils.cpp_extension import CUDA_HOME`
        guarded = _none_checked(python_src.tree(ctx.source))
        for ref in python_src.imports(ctx.source) + python_src.dotted_names(ctx.source):
            name = ref.text.rsplit(".", 1)[-1]
            if "." in ref.text and name in _VARIABLES:
                if name in guarded:
                    with judged(ctx, Severity.INFO):
                        once(
                            ctx,
                            ref.line,
                            ref.col,
                            f"`{ref.text}` is read only behind a check that it is set (`if {name} is not None:`): "
                            f"on a ROCm PyTorch `{name}` is `None` and the branch is skipped, so nothing breaks; "
                            "what the branch does for CUDA (an nvcc version probe, say) has no ROCm side yet.",
                            length=len(ref.text),
                        )
                    continue
                _report(ctx, ref.line, ref.col, ref.text, name)


def _none_checked(module: ast.Module | None) -> set[str]:
    """The toolkit variables a Python build script reads only inside `if NAME is not None:` (or `if NAME:`):
    PyTorch's `cpp_extension.CUDA_HOME` is None on a ROCm build, so that code never runs there."""
    if module is None:
        return set()
    loads: dict[str, set[int]] = {}
    guarded: set[int] = set()
    for node in python_src.walk_ast(module):
        if isinstance(node, ast.Name) and node.id in _VARIABLES and isinstance(node.ctx, ast.Load):
            loads.setdefault(node.id, set()).add(id(node))
        if isinstance(node, ast.If) and _set_test(node.test):
            name = _set_test(node.test)
            guarded |= {
                id(sub)
                for child in [node.test, *node.body]
                for sub in ast.walk(child)
                if isinstance(sub, ast.Name) and sub.id == name
            }
    return {name for name, ids in loads.items() if ids <= guarded}


def _set_test(test: ast.expr) -> str:
    """`NAME is not None` or a bare `NAME`: the variable the test checks is set, else ""."""
    if isinstance(test, ast.Name) and test.id in _VARIABLES:
        return test.id
    if (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id in _VARIABLES
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.IsNot)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    ):
        return test.left.id
    return ""


# Where the location is only a search path: a compiler or the shell skips a directory that does not exist.
_SEARCH_PATH = re.compile(
    r"(?:^|[\s\"'(=])-(?:I|isystem|idirafter|iquote)\s*[\"']?(?:\$[({]?)?$"  # -I/usr/local/cuda/include, -I$(CUDA_HOME)
    r"|\b(?:target_)?include_directories\s*\([^)]*$"  # CMake's include_directories(... /usr/local/cuda/include
    r"|\b(?:CPATH|C_INCLUDE_PATH|CPLUS_INCLUDE_PATH|PATH|LD_LIBRARY_PATH)(?:\s*[+:?]?=\s*|\s+)[^;&|]*$"
)
_INCLUDE_DIR = re.compile(r"^/include(?![\w.+-])")


# The CUDA toolkit installed by the script itself: NVIDIA's runfile (`./cuda_12.6.3_560.35.05_linux.run --toolkit`)
# or its packages (`apt-get install -y cuda-toolkit-12-6`), as a wheel-builder image's install_cuda.sh does.
_TOOLKIT_INSTALL = re.compile(
    r"cuda_\d[\w.]*_linux\.run\s+[^\n]*--toolkit"
    r"|\b(?:apt-get|apt|yum|dnf)\s+(?:-\S+\s+)*install\b[^\n]*\scuda-(?:toolkit|compiler|nvcc|\d+-\d+)"
)


def _installs_toolkit(ctx) -> int:
    """The line where a shell script installs the CUDA toolkit itself, or 0: its CUDA paths are the ones it
    creates (lmdeploy's manywheel `install_cuda.sh`)."""
    if ctx.language != "shell":
        return 0
    key = "rocport:installs-cuda-toolkit"
    if key not in ctx.memo:
        text = ctx.text
        found = _TOOLKIT_INSTALL.search(text)
        ctx.memo[key] = text.count("\n", 0, found.start()) + 1 if found else 0
    return ctx.memo[key]


def _search_path(ctx, line: int, col: int, spelled: str) -> str:
    """How the location is used when the line only adds it to a search path (`-I`, `include_directories`,
    `CPATH`, `PATH`), "" otherwise: a missing directory there is no error, unlike `-L` beside `-lcudart` or
    `/usr/local/cuda/bin/nvcc`."""
    if ctx.language == "python":
        return ""  # `os.path.join(CUDA_HOME, "include")` with CUDA_HOME None raises
    if ctx.language == "cmake":
        hint = _find_hint(ctx, line, col)
        if hint:
            return hint
    text = ctx.line_text(line)
    before, after = text[: col - 1], text[col - 1 + len(spelled) :]
    found = _SEARCH_PATH.search(before)
    if found is not None:
        return re.search(r"-?\w+", found.group(0)).group(0)
    if spelled.startswith("/") and _INCLUDE_DIR.match(after) and not re.search(r"-L\s*[\"']?$", before):
        return "an include directory"
    return ""


# CMake's find commands: every argument after the result variable and the names (PATHS, HINTS, PATH_SUFFIXES)
# only says where to look; a directory that does not exist is skipped.
_FINDS = frozenset({"find_library", "find_path", "find_file", "find_program", "find_package"})
_FIND_HINTS = frozenset({"PATHS", "HINTS"})


def _find_hint(ctx, line: int, col: int) -> str:
    """The name of the CMake find command (`find_library`) when the match at (line, col) is an argument after its
    `PATHS` or `HINTS`, "" otherwise: CMake skips a hint that does not exist, and what the command looks for
    (cudart, nvcc) is what decides whether a ROCm configure finds it (ROC206, ROC211 report that)."""
    for command in commands(ctx):
        if command.name not in _FINDS or not command.args or command.line > line:
            continue
        hinted = False
        for arg in command.args:
            if arg.value in _FIND_HINTS:
                hinted = True
            elif arg.value.isupper() and arg.value.isalpha():
                hinted = False  # the next keyword (PATH_SUFFIXES, NO_DEFAULT_PATH, REQUIRED)
            elif hinted and arg.line == line and arg.col <= col <= arg.col + len(arg.value) + 1:
                return command.name
    return ""


# Folders of release and wheel-building automation (`packaging/linux_wheels/`, `dev/packaging/`, a manywheel
# `builder/`), beside the CI definitions scanner.port.is_ci_file knows.
_PACKAGING = re.compile(r"(?i)(?:^|/)(?:packaging|builder|wheels?|release)/")


def _automation(path: str) -> bool:
    """A CI definition or a CI, packaging or release script: judged on open halves, a toolkit location there
    was false 9 times in 11 (Windows runners, CUDA wheel matrices, an installer's own paths), where build files
    broke the port about half the time."""
    rel = path.replace(os.sep, "/").removeprefix("./")
    return is_ci_file(rel) or bool(_PACKAGING.search(rel))


def _report(ctx, line: int, col: int, spelled: str, variable: str | None) -> None:
    if variable == "CUDACXX":
        advice = "CMake's HIP language reads `HIPCXX` / `CMAKE_HIP_COMPILER` (ROCm's clang, under `$ROCM_PATH/llvm`)"
    elif variable and ctx.language == "python":
        advice = "locate ROCm with `ROCM_PATH` (default `/opt/rocm`), or `torch.utils.cpp_extension.ROCM_HOME`"
    elif variable and ctx.language == "cmake":
        advice = "find ROCm's packages with `CMAKE_PREFIX_PATH=/opt/rocm` (or `$ENV{ROCM_PATH}`)"
    elif variable:
        rocm = "$(ROCM_PATH)" if ctx.language == "make" else "$ROCM_PATH"
        advice = f"locate ROCm with `ROCM_PATH` (default `/opt/rocm`): `{rocm}/include`, `{rocm}/lib`"
    else:
        advice = "ROCm is under `/opt/rocm` (or `/opt/rocm-X.Y`), located through `ROCM_PATH`"
    what = (
        "names the CUDA toolkit's compiler"
        if variable == "CUDACXX"
        else "locates the CUDA toolkit"
        if variable
        else "is the CUDA toolkit's install location"
    )
    message = f"`{spelled}` {what}, which ROCm machines do not have: {advice}."
    installer = _installs_toolkit(ctx)
    if installer:
        with judged(ctx, Severity.INFO):
            once(
                ctx,
                line,
                col,
                f"`{spelled}` is where this script puts the CUDA toolkit it installs itself (line {installer}): "
                "the location is one it creates, not one it assumes. A ROCm image installs ROCm instead of running "
                "this script.",
                length=len(spelled),
            )
        return
    search = _search_path(ctx, line, col, spelled) if variable != "CUDACXX" else ""
    if not search and _automation(ctx.path):
        with judged(ctx, Severity.LOW):
            once(
                ctx,
                line,
                col,
                f"{message} Here it is in CI or packaging automation, which prepares its own CUDA runner or "
                "builder image: a ROCm port adds a job or image of its own rather than running this one (low).",
                length=len(spelled),
            )
        return
    if not search:
        once(ctx, line, col, message, length=len(spelled))
        return
    if search in _FINDS:
        explained = (
            f"{message} Here it is only a search hint of `{search}` (after `PATHS` or `HINTS`): CMake skips a "
            "directory that does not exist, so this line breaks nothing by itself (low); what the command looks "
            "for is what a ROCm configure lacks."
        )
    else:
        explained = (
            f"{message} Here it is only a search path ({search}): a missing directory there is no error, so "
            "this line breaks nothing by itself (low); the headers and tools the build looked for there do."
        )
    with judged(ctx, Severity.LOW):
        once(ctx, line, col, explained, length=len(spelled))


RULE = text_rule(
    name="build-cuda-toolkit-path",
    summary="CUDA toolkit location assumed (CUDA_HOME, CUDA_PATH, /usr/local/cuda)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.MEDIUM,
    languages=SCRIPT_LANGUAGES | {"cmake", "python"},
    check=cuda_code_only(check),
)
