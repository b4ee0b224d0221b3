# The example's recipe line starts with a Makefile tab, written \t so that the formatter keeps it.
"""nvcc as the compiler in a Makefile, build script or Dockerfile.

What it finds:
    A command that runs `nvcc` (`nvcc -c k.cu`, `/usr/local/cuda/bin/nvcc ...`) and a Makefile variable that
    makes nvcc the compiler (`NVCC = nvcc`, `CXX := $(CUDA_HOME)/bin/nvcc`). Version checks (`nvcc --version`)
    are ROC234's, and so is a variable that a Makefile with recipes of its own reads only to probe the version
    (`$(NVCC) --version`) while it compiles with `$(CXX)`, or that a shell script reads only so (a packaging
    script naming its RPM after `$NVCC --version`). What `echo` or `printf` prints to the terminal (a
    usage line, `echo "  --cuda: defaults to nvcc"`) runs nothing and is not reported; printed into a pipe or a
    file, or inside `$(...)`, it is.

Why it breaks on ROCm:
    nvcc is part of the CUDA toolkit; a ROCm machine does not have it, and its options are not clang's. HIP
    sources are compiled with hipcc (a thin driver over ROCm's clang) or amdclang++ directly.

Example:
    NVCC = nvcc
    %.o: %.cu
    \t$(NVCC) -O3 -arch=sm_80 -c $< -o $@

Use instead:
    `HIPCC ?= $(ROCM_PATH)/bin/hipcc` (or `amdclang++ -x hip`), `--offload-arch=gfx942` instead of `-arch`,
    and the hipified `.hip`/`.cpp` sources. A build that must support both keeps the compiler a variable chosen
    by platform.

References:
    https://rocm.docs.amd.com/projects/HIPCC/en/latest/
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_porting_guide.html
"""

import ast
import re

from scanner.analysis.context import Context
from scanner.formats import python_src
from scanner.formats.lines import echoed
from scanner.formats.python_src import walk_ast
from scanner.model import Risk, Severity
from scanner.rules.build._common import build_matches
from scanner.rules.libraries._judgement import cuda_code_only
from scanner.rules.textual import SCRIPT_LANGUAGES, logical, mentions, offload_arch, once, text_rule

# `nvcc`, bare or as a path (`/usr/local/cuda/bin/nvcc`, `$(CUDA_HOME)/bin/nvcc`), never part of a longer word
# (`libnvcc_stub.a`, `cuda-nvcc-12-4`, `NVCC_FLAGS`).
_NVCC = re.compile(r"(?<![\w.$-])((?:[\w${}()./~-]*/)?nvcc)(?![\w.-])")
# What precedes a value that makes nvcc the compiler: `NVCC = `, `CXX := `, `export CUDACXX=`, `ENV CUDACXX=`,
# `-DCMAKE_CUDA_COMPILER=`, optionally opening a quote; in YAML `CUDACXX: ` when nvcc is the whole value and the
# key is not a command (`run: nvcc -c k.cu` is a command).
_ASSIGN = re.compile(r"(?:^|(?<=[\s;(]))(?:-D)?([A-Za-z_][\w.]*)\s*(?:::=|:=|\?=|\+=|=)\s*[\"']?$")
_YAML_ASSIGN = re.compile(r"(?:^|(?<=[\s{,-]))([A-Za-z_][\w.]*)\s*:\s+[\"']?$")
_YAML_COMMAND_KEYS = frozenset(
    {"run", "script", "command", "cmd", "entrypoint", "args", "before_script", "after_script"}
)
_ALONE = re.compile(r"[\"']?\s*$")
# Probes are ROC234's: nvcc as the argument of `which` / `command -v`, and `nvcc --version`.
_PROBE = re.compile(r"\b(?:which|command\s+-v|type|hash|whereis)\s+$")
_VERSION = re.compile(r"\s+(?:--version|-V)(?![\w-])")
# What follows nvcc when it compiles: an option (not `--help`), a make/shell variable, or a source or object file.
_COMPILES = re.compile(
    r"\s+(?!(?:--help|-h)(?![\w-]))"
    r"(?:-|\$|[\"']?[\w./${}()*%-]+\.(?:cu|cuh|cpp|cc|cxx|c|o|obj|ptx|cubin|fatbin|a|so)(?![\w.]))"
)
# Python: an argument list run as a command (`subprocess.run(["nvcc", "-c", "k.cu"])`).
_PROGRAM = re.compile(r"(?:[\w${}()./~-]*/)?nvcc")
_PROBE_ARGS = frozenset({"--version", "-V", "--help", "-h"})
# A Makefile variable read: `$(NVCC)`, `${NVCC}`.
_REFERENCE = re.compile(r"\$[({]([A-Za-z_][\w.]*)[)}]")
# A shell variable read: `$NVCC`, `${NVCC}`.
_SHELL_REFERENCE = re.compile(r"\$\{?([A-Za-z_]\w*)\}?")


def check(ctx: Context) -> None:
    if not mentions(ctx, "nvcc"):
        return
    if ctx.language == "python":
        _python(ctx)
        return
    for item in logical(ctx):
        for match in _NVCC.finditer(item.text):
            if echoed(item.text, match.start()):
                continue  # a usage line or a hint the script prints
            message = _judge(ctx, item.text, match)
            if message:
                line, col = item.where(match.start())
                once(ctx, line, col, message, length=len(match.group(1)))


def _judge(ctx, text: str, match: re.Match) -> str:
    """The message for `nvcc` at `match` in a command line, or "" when it neither compiles nor is assigned as the
    compiler (prose, probes, `nvcc --version`)."""
    before = text[: match.start()]
    if _VERSION.match(text, match.end()):
        return ""  # ROC234's
    compiles = _COMPILES.match(text, match.end()) is not None
    assign = _ASSIGN.search(before)
    if assign is None and ctx.language == "yaml" and _ALONE.match(text, match.end()):
        assign = _YAML_ASSIGN.search(before)  # `CUDACXX: /usr/local/cuda/bin/nvcc`, not `run: nvcc -c k.cu`
        if assign is not None and assign.group(1).lower() in _YAML_COMMAND_KEYS:
            assign = None
    hipcc = "$(ROCM_PATH)/bin/hipcc" if ctx.language == "make" else "$ROCM_PATH/bin/hipcc"
    if assign is not None and assign.group(1) in _only_probed(ctx):
        return ""
    if assign is not None:
        spelled = text[assign.start() : match.end()].removeprefix("-D")
        return (
            f"`{spelled}` makes nvcc the compiler, and ROCm machines have no nvcc: use `hipcc` (`{hipcc}`, or "
            f"`amdclang++ -x hip`) with `{offload_arch(ctx)}`."
        )
    if _PROBE.search(before) or not compiles:
        return ""
    return _command_message(ctx, match.group(1))


def _only_probed(ctx) -> frozenset[str]:
    """The variables a Makefile with recipes of its own, or a shell script, reads only to probe nvcc (`which
    $(NVCC)`, `$NVCC --version` to name a package after the CUDA version): that file compiles with another
    compiler or not at all, and the probe is ROC234's. A Makefile without
    recipes (an include such as `common.mk`) sets its variables for the files that include it, so none counts."""
    key = "rocport:nvcc-only-probed"
    if key not in ctx.memo:
        names: set[str] = set()
        recipes = ctx.language == "make" and any(text.startswith("\t") for text in ctx.lines)
        if recipes or ctx.language == "shell":
            reference = _REFERENCE if recipes else _SHELL_REFERENCE
            uses: dict[str, list[bool]] = {}
            for text in ctx.lines:
                for ref in reference.finditer(text):
                    probe = _PROBE.search(text[: ref.start()]) or _VERSION.match(text, ref.end())
                    uses.setdefault(ref.group(1), []).append(bool(probe))
            names = {name for name, probes in uses.items() if all(probes)}
        ctx.memo[key] = frozenset(names)
    return ctx.memo[key]


def _command_message(ctx, spelled: str) -> str:
    return (
        f"Compiling with `{spelled}`: nvcc is CUDA's compiler, which ROCm machines do not have; compile the "
        f"hipified sources with `hipcc` (or `amdclang++ -x hip`) and `{offload_arch(ctx)}`."
    )


def _python(ctx) -> None:
    # Command strings (`os.system("nvcc -c k.cu")`, `"-DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc"`).
    for line, col, match in build_matches(ctx, _NVCC):
        message = _judge(ctx, match.string, match)
        if message:
            once(ctx, line, col, message, length=len(match.group(1)))
    # Argument lists whose program is nvcc (a dict key such as `extra_compile_args={"nvcc": [...]}` is not one).
    module = python_src.tree(ctx.source)
    if module is None:
        return
    for node in walk_ast(module):
        if isinstance(node, (ast.List, ast.Tuple)) and len(node.elts) > 1:
            first, second = node.elts[0], node.elts[1]
            if (
                isinstance(first, ast.Constant)
                and isinstance(first.value, str)
                and _PROGRAM.fullmatch(first.value)
                and not (isinstance(second, ast.Constant) and second.value in _PROBE_ARGS)
            ):
                once(
                    ctx,
                    first.lineno,
                    first.col_offset + 1,
                    _command_message(ctx, first.value),
                    length=len(first.value) + 2,
                )


RULE = text_rule(
    name="build-nvcc-compiler",
    summary="nvcc used as the compiler in a Makefile, build script or Dockerfile",
    risk=Risk.BUILD_BREAK,
    severity=Severity.HIGH,
    languages=SCRIPT_LANGUAGES | {"python"},
    check=cuda_code_only(check),
)
