"""Scripts that probe for nvcc (`nvcc --version`, `which nvcc`, `command -v nvcc`).

What it finds:
    `nvcc --version`, `nvcc -V`, `which nvcc`, `command -v nvcc`, `type nvcc`, `hash nvcc`, in shell scripts,
    Makefiles, Dockerfiles, CI YAML and Python strings: environment checks and CUDA-version detection. In Python,
    also the argument list of a run (`subprocess.run([nvcc, "--version"])`, the program a string or a name holding
    `nvcc`); a message that only names the command (the text of an error helper that raises) is not a probe. A
    probe in a shell script that first imports an NVIDIA-only Python package (`python -c "import nvidia.nccl"`,
    `nccl.ep`, TensorRT) is low: the script is an NVIDIA-only wrapper and stops at that import on an AMD host. A
    Python probe inside `try:` whose `except` catches the missing command and goes on (not re-raising or exiting)
    is low too: a run-time failure with a graceful fallback, as the severity policy rates it. A Python probe in the
    branch of an `if` taken only when nvcc was found (`if os.system("nvcc --version") == 0:`, `if
    shutil.which("nvcc"):`) is a note: a ROCm machine skips it; the test's own probe only picks the branch (low).
    A probe in a Makefile or script that only takes the toolkit's directory from where nvcc is
    (`CUDA_TOOLKIT := $(shell dirname $$(command -v nvcc))/..`), a variable the file uses only after `-I` or `-L`,
    is low: on a ROCm machine the search path points nowhere, which is no error by itself, and nvcc and the CUDA
    libraries the build names are reported where they are named (ROC211, ROC213).
    A probe inside `$(...)` that is an argument of `echo` or `printf` (a summary line, not redirected to a file) only
    fills printed text: a note (info).

Why it breaks on ROCm:
    There is no nvcc on a ROCm machine: the check fails, and the script exits ("CUDA not found") or takes its
    CPU-only path, or parses an empty version string, although the GPU stack is there.

Example:
    if ! command -v nvcc >/dev/null; then echo "CUDA toolkit missing"; exit 1; fi
    CUDA_VERSION=$(nvcc --version | awk '/release/ {print $6}')

Use instead:
    `hipcc --version` / `hipconfig --version` (HIP), `amd-smi version` (driver and ROCm), or the ROCm version file
    `$ROCM_PATH/.info/version`; in Python, `torch.version.hip`.

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/reference/env_variables.html
    https://rocm.docs.amd.com/projects/HIPCC/en/latest/
"""

import ast
import re

from scanner.analysis.context import Context
from scanner.formats import python_src
from scanner.formats.python_src import walk_ast
from scanner.model import Risk, Severity
from scanner.rules.build._common import command_word
from scanner.rules.libraries._judgement import command_matches, cuda_code_only, judged
from scanner.rules.python._fallbacks import MISSING_COMMAND, graceful_try
from scanner.rules.textual import SCRIPT_LANGUAGES, mentions, once, text_rule

_CHECK = re.compile(
    r"(?<![\w.-])(?:[\w${}()./-]*/)?nvcc\s+(?:--version|-V)\b"
    r"|\b(?:which|command\s+-v|type|hash)\s+(?:[\w${}()./-]*/)?nvcc\b"
)


# A script that imports NVIDIA-only Python packages (`python -c "import nvidia.nccl"`, NCCL's `nccl.ep`, TensorRT):
# on an AMD host it fails there first; a later nvcc probe is one step of an NVIDIA-only wrapper.
_NVIDIA_IMPORT = re.compile(
    r"\bpython[\d.]*\s+-c\s+[\"'][^\"']*?\bimport\s+"
    r"((?:nvidia|nccl|tensorrt|tensorrt_llm|pycuda|pynvml)(?:\.\w+)*|cuda\.bindings(?:\.\w+)*)\b"
)


def check(ctx: Context) -> None:
    if not mentions(ctx, "nvcc"):
        return
    needs = _nvidia_import(ctx) if ctx.language == "shell" else None
    tests = {test for _, _, test in _nvcc_found_tests(ctx.source)} if ctx.language == "python" else set()
    for line, col, match in command_matches(ctx, _CHECK):
        if line in tests:
            with judged(ctx, Severity.LOW, Risk.RUNTIME_FAILURE):
                once(
                    ctx,
                    line,
                    col,
                    f"`{match.group(0)}` probes for the CUDA toolkit, and its exit status only picks the branch on "
                    "this line: on a ROCm machine the probe fails and the code skips the CUDA-only step (low); a "
                    "ROCm build needs its own step there (`hipcc --version`, `torch.version.hip`).",
                    length=len(match.group(0)),
                )
            continue
        if needs and needs[0] < line:
            with judged(ctx, Severity.LOW):
                once(
                    ctx,
                    line,
                    col,
                    f"`{match.group(0)}` probes for the CUDA toolkit, but this script first needs NVIDIA's "
                    f"`{needs[1]}` (line {needs[0]}), which has no ROCm build: on an AMD host it stops there, and "
                    "the probe is one step of an NVIDIA-only wrapper: low.",
                    length=len(match.group(0)),
                )
            continue
        if ctx.language in ("shell", "yaml", "make") and _printed(ctx.line_text(line), match.start()):
            with judged(ctx, Severity.INFO):
                once(
                    ctx,
                    line,
                    col,
                    f"`{match.group(0)}` only fills a line the script prints (`$(...)` inside `echo` or `printf`): on a ROCm "
                    "machine the line shows an empty version and nothing depends on it. A note only; print "
                    "`hipcc --version` there.",
                    length=len(match.group(0)),
                )
            continue
        derived = _search_path_only(ctx, line, match.start()) if ctx.language in ("make", "shell") else None
        if derived:
            with judged(ctx, Severity.LOW):
                once(
                    ctx,
                    line,
                    col,
                    f"`{match.group(0)}` only derives the toolkit's directory here (`{derived[0]}`), which the file "
                    f"uses only as a search path ({derived[1]}): on a ROCm machine the path points nowhere, which is "
                    "no error by itself (low); the compiler and libraries the build names there break, and are "
                    "reported where they are named. Derive it from `hipconfig --rocmpath` (or `$ROCM_PATH`).",
                    length=len(match.group(0)),
                )
            continue
        if ctx.port.ported:  # the repository builds for ROCm: this probe is on (or next to) its NVIDIA path
            message = (
                f"`{match.group(0)}` probes for the CUDA toolkit: right for the NVIDIA build, but where this "
                "also runs on the ROCm path, probe `hipcc --version` / `hipconfig --version` there."
            )
        else:
            message = (
                f"`{match.group(0)}` probes for the CUDA toolkit, which ROCm machines do not have: check "
                "`hipcc --version` / `hipconfig --version` or `$ROCM_PATH/.info/version` instead."
            )
        once(ctx, line, col, message, length=len(match.group(0)))
    if ctx.language == "python":
        found_tests = _nvcc_found_tests(ctx.source)
        for node, text in _argument_lists(ctx.source):
            test = next((t for start, end, t in found_tests if start <= node.lineno <= end), 0)
            if test:
                with judged(ctx, Severity.INFO):
                    once(
                        ctx,
                        node.lineno,
                        node.col_offset + 1,
                        f"`{text}` probes for the CUDA toolkit, but only in the branch the test on line {test} takes "
                        "when nvcc was found: on a ROCm machine the test fails and the branch is skipped. A note "
                        "only.",
                        length=len(text),
                    )
                continue
            fallback = graceful_try(ctx.source, node.lineno, MISSING_COMMAND)
            if fallback:
                with judged(ctx, Severity.LOW, Risk.RUNTIME_FAILURE):
                    once(
                        ctx,
                        node.lineno,
                        node.col_offset + 1,
                        f"`{text}` probes for the CUDA toolkit, inside `try` (line {fallback}) whose `except` "
                        "catches the missing command and goes on: on a ROCm machine the probe finds no nvcc and the "
                        "code takes its fallback (low); what it then does without a CUDA version is the port's to "
                        "check (`torch.version.hip`, `hipcc --version`).",
                        length=len(text),
                    )
                continue
            if ctx.port.ported:  # as above: the NVIDIA path of a repository that builds for ROCm too
                message = (
                    f"`{text}` probes for the CUDA toolkit: right for the NVIDIA build, but where this also runs on "
                    "the ROCm path, run `hipcc --version` / `hipconfig --version` or read `torch.version.hip` there."
                )
            else:
                message = (
                    f"`{text}` probes for the CUDA toolkit, which ROCm machines do not have: run `hipcc --version` / "
                    "`hipconfig --version` or read `torch.version.hip` instead."
                )
            once(ctx, node.lineno, node.col_offset + 1, message, length=len(text))


# An assignment whose value takes a directory from the probe's output: `CUDA_TOOLKIT := $(shell dirname $$(command
# -v nvcc))/..`, `CUDA_HOME=$(dirname $(dirname $(which nvcc)))`.
_ASSIGNMENT = re.compile(r"^\s*(?:export\s+)?([A-Za-z_]\w*)\s*(?:::=|:=|\?=|\+=|=)\s*")
_DIRECTORY_OF = re.compile(r"\b(?:dirname|realpath|readlink\s+-f)\b|\$\((?:dir|abspath|realpath)\s")
# A use of a variable as a search path: `-I$(CUDA_TOOLKIT)/include`, `-L${CUDA_HOME}/lib64`, `-Wl,-rpath,$X/lib`.
_SEARCH_FLAG = re.compile(r"(?:-I|-L|-isystem\s*|-Wl,-rpath,|-rpath\s*)[\"']?$")


def _printed(text: str, start: int) -> bool:
    """The probe at `start` runs inside a `$(...)` that is an argument of `echo` or `printf`, not redirected
    into a file: the exit status that counts is the printer's, and the output only goes to the terminal."""
    opened = text.rfind("$(", 0, start)
    if opened < 0 or ")" in text[opened:start]:
        return False
    if re.search(r">>?\s*[^&\s]", text[start:]) or "GITHUB_" in text:
        return False
    return command_word(text[:opened]) in ("echo", "printf")


def _search_path_only(ctx, line: int, start: int) -> tuple[str, str] | None:
    """(variable, flags) when the probe at `start` of `line` sits in an assignment that takes a directory from its
    output and the file uses that variable only after search-path flags (`-I`, `-L`); else None."""
    text = ctx.line_text(line)
    assigned = _ASSIGNMENT.match(text)
    if assigned is None or assigned.end() > start or not _DIRECTORY_OF.search(text[assigned.end() : start]):
        return None
    name = assigned.group(1)
    use = re.compile(r"\$(?:\(" + name + r"\)|\{" + name + r"\}|" + name + r"(?!\w))")
    flags: list[str] = []
    for number, other in enumerate(ctx.lines, 1):
        code = other.split("#", 1)[0]
        for found in use.finditer(code):
            if number == line and found.start() < start:
                continue
            flag = _SEARCH_FLAG.search(code[: found.start()])
            if flag is None:
                return None
            spelled = flag.group(0).strip("\"' ")
            if spelled not in flags:
                flags.append(spelled)
    return (name, ", ".join(f"`{f}`" for f in flags)) if flags else None


def _nvcc_found_tests(source) -> list[tuple[int, int, int]]:
    """(first, last, test line) of the bodies of Python `if`s taken only when nvcc was found:
    `if os.system("nvcc --version") == 0:` (tiny-cuda-nn's setup.py), `if shutil.which("nvcc"):`,
    `if shutil.which("nvcc") is not None:`. Their `else` runs on a ROCm machine."""
    parsed = source.parsed
    module = parsed.value if parsed is not None else None
    if not isinstance(module, ast.Module):
        return []
    out = []
    for node in walk_ast(module):
        if isinstance(node, ast.If) and node.body and any(_finds_nvcc(part) for part in _conjuncts(node.test)):
            end = max(getattr(n, "end_lineno", None) or n.lineno for n in node.body)
            out.append((node.body[0].lineno, end, node.test.lineno))
    return out


def _conjuncts(test: ast.expr) -> list[ast.expr]:
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return [part for value in test.values for part in _conjuncts(value)]
    return [test]


def _finds_nvcc(test: ast.expr) -> bool:
    """`os.system("nvcc --version") == 0`, `shutil.which("nvcc")`, `shutil.which("nvcc") is not None`."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and len(test.comparators) == 1:
        left, op, right = test.left, test.ops[0], test.comparators[0]
        if isinstance(op, ast.Eq) and isinstance(right, ast.Constant) and right.value == 0:
            return _runs_nvcc(left, ("os.system", "subprocess.call"))
        if isinstance(op, ast.IsNot) and isinstance(right, ast.Constant) and right.value is None:
            return _runs_nvcc(left, ("shutil.which",))
        return False
    return _runs_nvcc(test, ("shutil.which",))


def _runs_nvcc(node: ast.expr, callees: tuple[str, ...]) -> bool:
    if not isinstance(node, ast.Call) or python_src.dotted(node.func) not in callees or not node.args:
        return False
    first = node.args[0]
    if isinstance(first, (ast.List, ast.Tuple)) and first.elts:
        first = first.elts[0]
    if not isinstance(first, ast.Constant) or not isinstance(first.value, str):
        return False
    words = first.value.split()
    return bool(words) and words[0].rsplit("/", 1)[-1] == "nvcc"


def _nvidia_import(ctx) -> tuple[int, str] | None:
    """(line, module) of the first NVIDIA-only Python import the script runs, or None."""
    for line, _col, match in command_matches(ctx, _NVIDIA_IMPORT, 1):
        return line, match.group(1)
    return None


def _argument_lists(source):
    """`[nvcc, "--version"]` lists and tuples of a Python file: the program a string naming nvcc, a name holding
    `nvcc` or one assigned from an expression naming it, then `--version` or `-V`."""
    parsed = source.parsed
    module = parsed.value if parsed is not None else None
    if not isinstance(module, ast.Module):
        return
    # Names given the compiler's path: `compiler = shutil.which("nvcc")`.
    holders = {
        target.id
        for node in walk_ast(module)
        if isinstance(node, ast.Assign) and "nvcc" in ast.unparse(node.value)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    for node in walk_ast(module):
        if isinstance(node, (ast.List, ast.Tuple)) and len(node.elts) >= 2:
            program, flag = node.elts[0], node.elts[1]
            if not (isinstance(flag, ast.Constant) and flag.value in ("--version", "-V")):
                continue
            if isinstance(program, ast.Constant) and isinstance(program.value, str):
                name = program.value.rsplit("/", 1)[-1]
            else:
                name = python_src.dotted(program).rsplit(".", 1)[-1]
            held = isinstance(program, ast.Name) and program.id in holders
            if name == "nvcc" or held or (not isinstance(program, ast.Constant) and "nvcc" in name.lower()):
                yield node, f"{ast.unparse(program)}, {ast.unparse(flag)}"


RULE = text_rule(
    name="shell-nvcc-version-check",
    summary="scripts probing for nvcc (nvcc --version, which nvcc)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.MEDIUM,
    languages=SCRIPT_LANGUAGES | {"python"},
    check=cuda_code_only(check),
)
