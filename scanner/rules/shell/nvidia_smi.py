"""nvidia-smi in scripts, CI, Dockerfiles and Python (subprocess calls).

What it finds:
    `nvidia-smi` run from shell scripts, Makefiles, Dockerfiles, CI and deployment YAML, and named in Python
    strings (`subprocess.run(["nvidia-smi", ...])`). A run whose output only goes to the terminal or a log
    (`nvidia-smi` alone on a line or a CI step, `nvidia-smi || true`, `| tee log`, `os.system("nvidia-smi")`)
    is a diagnostic: info (low in a shell script under `set -e`, which stops where the command is missing); so is
    one that starts the command string a shell runs (`srun ... bash -c "nvidia-smi; env"`). A run that only sets
    the GPU's state (`sudo nvidia-smi -lgc 1980,1980`, `-pm 1`, `--power-limit`, `-c`, `-r`) before a benchmark is
    low, a tuning matter: on an AMD host the script goes on with the GPU's default settings; under `set -e`,
    unguarded, it stops the script and keeps the rule's severity.
    Printed or logged text that only names the command is not reported.
    A run that fails gracefully is low: probed first (`command -v nvidia-smi && nvidia-smi ...`, the body of
    `if command -v nvidia-smi ...; then` or `if shutil.which("nvidia-smi"):`), captured with a fallback
    (`$(nvidia-smi ... || echo 0)`), captured into a variable read only by the tests of `if`s whose `else` is the
    default and none of whose branches exits (a perf baseline picked by GPU name: empty on an AMD host, the
    `else` runs; not under `set -e` unless the capture ends in a pipe without `pipefail`), or run inside a Python `try:` whose `except` catches the missing command
    (`FileNotFoundError`, `OSError`, `Exception`; `CalledProcessError` with `shell=True`) and goes on, or
    passed to a helper of the module that runs it in such a `try` (`_run(["nvidia-smi", ...])`). A probe
    that gates the script (`if ! command -v nvidia-smi; then exit 1; fi`) keeps the rule's severity.

Why it breaks on ROCm:
    nvidia-smi talks to the NVIDIA driver through NVML; there is neither on an AMD host, so the command is
    missing and scripts that gate on it ("no GPU found"), or parse its output (`--query-gpu=...`), fail.

Example:
    nvidia-smi --query-gpu=name,memory.total --format=csv,noheader

Use instead:
    `amd-smi` (`amd-smi list`, `amd-smi static`, `amd-smi metric`, `amd-smi monitor`, with `--json` or `--csv`
    for parsing; its fields differ, so parsing code changes too). `rocm-smi` still works but is being retired
    in favour of amd-smi (ROC232). In Python, the `amdsmi` package replaces pynvml.

References:
    https://rocm.docs.amd.com/projects/amdsmi/en/latest/
    https://rocm.docs.amd.com/projects/amdsmi/en/latest/how-to/amdsmi-cli-tool.html
"""

import ast
import re

from scanner.analysis.context import Context
from scanner.formats.python_src import dotted, walk_ast
from scanner.model import Risk, Severity
from scanner.rules.libraries._judgement import command_matches, cuda_code_only, judged
from scanner.rules.python._fallbacks import MISSING_COMMAND, graceful_try
from scanner.rules.textual import SCRIPT_LANGUAGES, mentions, once, text_rule

_COMMAND = re.compile(r"(?<![\w.-])nvidia-smi(?![\w.-])")
# A command that starts a statement: at the start of a line or CI step, or after `;`, `&&`, `then`, `do`, `else`.
# Also the start of the command string a shell runs (`srun ... bash -c "nvidia-smi; env"`).
_STATEMENT_START = re.compile(
    r"(?:^|;|&&|\bthen|\bdo|\belse|(?<![\w-])(?:ba|z|da)?sh\s+-c\s+[\"'])\s*(?:-\s+)?(?:run:\s*|RUN\s+|@)?(?:sudo\s+)?$"
)
# Options that change the GPU's state rather than print it: clocks, power, persistence, compute mode, MIG, reset.
_SETTING = re.compile(
    r"^\s+(?:-[a-z]+\s+\S+\s+)*?(?:-i\s+\S+\s+)?"
    r"(?:-(?:lgc|rgc|lmc|rmc|ac|rac|pm|pl|c|mig|r|e|acp)\b|--(?:lock-gpu-clocks|reset-gpu-clocks|lock-memory-clocks|"
    r"reset-memory-clocks|applications-clocks|reset-applications-clocks|persistence-mode|power-limit|compute-mode|"
    r"multi-instance-gpu|gpu-reset|ecc-config|auto-boost-default)\b)"
)
_ERREXIT = re.compile(r"^\s*set\s+-[a-zA-Z]*e|^\s*set\s+-o\s+errexit|^#!.*\s-[a-zA-Z]*e\b", re.M)
_RUNNERS = frozenset({"os.system", "os.popen", "subprocess.run", "subprocess.call", "subprocess.Popen"})
_MESSAGE = (
    "nvidia-smi does not exist on AMD hosts: use `amd-smi` (list / static / metric / monitor, `--json` for "
    "parsing); rocm-smi is being retired."
)


def check(ctx: Context) -> None:
    if not mentions(ctx, "nvidia-smi"):
        return
    logged = _python_logged(ctx) if ctx.language == "python" else set()
    errexit = ctx.language == "shell" and bool(_ERREXIT.search(ctx.text))
    fallbacks = _python_fallbacks(ctx) if ctx.language == "python" else _shell_fallbacks(ctx)
    for line, col, match in command_matches(ctx, _COMMAND):
        if ctx.language == "python":
            diagnostic, guarded = (line, col) in logged, True
            fallback = fallbacks.get((line, col), "")
        else:
            text = ctx.line_text(line)
            diagnostic, guarded = _shell_logged(text, match.start(), match.end())
            fallback = fallbacks.get(line, "")
            setting = _SETTING.match(text[match.end() :])
            if diagnostic and setting:
                _report_setting(ctx, line, col, match, setting, errexit and not guarded)
                continue
        if not diagnostic and fallback:
            with judged(ctx, Severity.LOW):
                once(
                    ctx,
                    line,
                    col,
                    f"{_MESSAGE} It fails gracefully here: {fallback}. On an AMD host the GPU information is lost "
                    "and the code goes on (low).",
                    length=len(match.group(0)),
                )
        elif not diagnostic:
            once(ctx, line, col, _MESSAGE, length=len(match.group(0)))
        elif errexit and not guarded:
            with judged(ctx, Severity.LOW):
                once(
                    ctx,
                    line,
                    col,
                    "nvidia-smi only prints the GPU state here, but this script runs with `set -e`: "
                    "on an AMD host the missing command stops it. Use `amd-smi list` (or guard it: "
                    "`nvidia-smi || true`).",
                    length=len(match.group(0)),
                )
        else:
            with judged(ctx, Severity.INFO):
                once(
                    ctx,
                    line,
                    col,
                    "nvidia-smi only prints the GPU state here (a diagnostic): on an AMD host the "
                    "log just loses it; `amd-smi list` / `amd-smi static` print the same there.",
                    length=len(match.group(0)),
                )


def _report_setting(ctx, line: int, col: int, match: re.Match, setting: re.Match, stops: bool) -> None:
    """nvidia-smi run only to set the GPU's state (`sudo nvidia-smi -lgc 1980,1980` before a benchmark)."""
    option = setting.group(0).split()[-1]
    if stops:
        once(
            ctx,
            line,
            col,
            f"nvidia-smi sets the GPU's state here (`{option}`), and this script runs with `set -e`: on an AMD host "
            "the missing command stops it. Use `amd-smi set` (clocks, power, compute partition) or `amd-smi reset`.",
            length=len(match.group(0)),
        )
        return
    with judged(ctx, Severity.LOW, Risk.PERFORMANCE):
        once(
            ctx,
            line,
            col,
            f"nvidia-smi only sets the GPU's state here (`{option}`), and nothing reads its output: on an AMD host "
            "the command is missing, the script goes on and runs with the GPU's default settings, so numbers may "
            "be noisier (low). Use `amd-smi set` (clocks, power, compute partition) or `amd-smi reset`.",
            length=len(match.group(0)),
        )


def _shell_logged(text: str, start: int, end: int) -> tuple[bool, bool]:
    """(whether the command at text[start:end] only prints to the terminal or a log, whether `||` guards it)."""
    before, after = text[:start], text[end:]
    if "$(" in before or "`" in before or not _STATEMENT_START.search(before):
        return False, False  # captured, tested or an argument of another command
    command = re.split(r";|&&", after, maxsplit=1)[0]
    guarded = False
    for pipe in re.finditer(r"(\|\|?)\s*([^\s|;&]*)", command):
        operator, target = pipe.groups()
        if operator == "||" and target in ("true", ":", "echo"):
            guarded = True
        elif operator != "|" or target != "tee":
            return False, False  # parsed (grep, awk, wc) or a fallback that decides something
    return True, guarded


def _python_logged(ctx) -> set[tuple[int, int]]:
    """Positions of the strings naming nvidia-smi in calls that only print its output: `os.system(...)`,
    `os.popen(...)`, or `subprocess.run/call/Popen(..., shell=True)` (a missing command is exit status 127 there,
    not an exception), as a statement of its own or inside print/list/logging, never in a test."""
    module = ctx.parsed
    out: set[tuple[int, int]] = set()
    if not isinstance(module, ast.Module):
        return out
    tested: set[int] = set()
    for node in walk_ast(module):
        if isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert)):
            tested.update(id(n) for n in ast.walk(node.test))
        elif isinstance(node, (ast.Compare, ast.BoolOp)):
            tested.update(id(n) for n in ast.walk(node))
    for node in walk_ast(module):
        if not isinstance(node, ast.Call) or id(node) in tested or not node.args:
            continue
        name = _dotted(node.func)
        if name not in _RUNNERS:
            continue
        if name.startswith("subprocess.") and not any(
            k.arg == "shell" and isinstance(k.value, ast.Constant) and k.value.value is True for k in node.keywords
        ):
            continue  # the list form raises FileNotFoundError where the command is missing
        for part in ast.walk(node.args[0]):
            if isinstance(part, (ast.Constant, ast.JoinedStr)) and hasattr(part, "lineno"):
                out.add((part.lineno, part.col_offset + 1))
    return out


_dotted = dotted

# A shell probe for the command: `command -v nvidia-smi`, `which nvidia-smi`, `type nvidia-smi`, `hash nvidia-smi`.
_PROBE = re.compile(r"\b(?:command\s+-v|which|type(?:\s+-P)?|hash)\s+nvidia-smi\b")
_NEGATED = re.compile(r"(?:^|[\s;(\[])!(?=\s)|\|\|\s*$")  # `if ! command -v`, `[ ! -x "$(which ...)" ]`, `|| which`
_IF = re.compile(r"^\s*(?:el)?if\s+(.*)$")
_BLOCK_OPEN = re.compile(r"^\s*(?:if|case)\b")
_BLOCK_CLOSE = re.compile(r"^\s*(?:fi|esac)\b")
_BRANCH = re.compile(r"^\s*(?:else|elif)\b")
# What a capture or a run falls back to: `|| true`, `|| :`, `|| echo 0`, `|| printf ...`, `|| X=0`.
_FALLBACK = re.compile(r"\|\|\s*(?:true|:|echo|printf|[A-Za-z_]\w*=)(?![\w-])")


def _shell_fallbacks(ctx) -> dict[int, str]:
    """Lines of a script where nvidia-smi fails gracefully -> why: probed for first (on the same line before
    `&&`, or in the `then` branch of an `if` that probes for it), or captured with a fallback value."""
    out: dict[int, str] = {}
    lines = ctx.lines
    for number, text in enumerate(lines, start=1):
        code = text.split("#", 1)[0] if not text.lstrip().startswith("#!") else ""
        probe = _PROBE.search(code)
        if probe is not None and not _NEGATED.search(code[: probe.start()]):
            head = _IF.match(code)
            if head is not None:
                out[number] = f"`{probe.group(0)}` is tested first"
                for inner in _then_branch(lines, number):
                    out.setdefault(inner, f"`{probe.group(0)}` is tested first, line {number}")
            elif "&&" in code[probe.end() :]:
                out[number] = f"`{probe.group(0)} && ...` runs it only where it exists"
        if number not in out and _COMMAND.search(code) and _FALLBACK.search(code):
            out[number] = f"`{_FALLBACK.search(code).group(0)}` gives a value where it is missing"
        if number not in out and _COMMAND.search(code):
            picked = _only_picks_a_branch(ctx, lines, number, code)
            if picked:
                out[number] = picked
    return out


# `NAME=$(nvidia-smi ... | head -1)`: a capture into a variable.
_CAPTURE = re.compile(r"^\s*(?:local\s+|export\s+)?([A-Za-z_]\w*)=[\"']?\$\(([^#]*)\)")
_PIPEFAIL = re.compile(r"^\s*set\s+(?:-\S+\s+)*-o\s+pipefail|^\s*set\s+-[a-zA-Z]*o\s+pipefail", re.M)
_LEAVES = re.compile(r"(?:^|[;&|]\s*|\bthen\s+)(?:exit|return|false)\b|\babort\b")


def _only_picks_a_branch(ctx, lines: list[str], number: int, code: str) -> str:
    """Why a capture of nvidia-smi's output fails gracefully, or "": the script goes on where the command is
    missing (no `set -e`, or the capture ends in a pipe without `pipefail`), and the variable is read only in the
    tests of `if`s that have an `else` and leave nowhere (no `exit`): on an AMD host the value is empty and the
    script takes the default branch (mscclpp's perf-baseline choice by GPU name)."""
    capture = _CAPTURE.match(code)
    if capture is None or not _COMMAND.search(capture.group(2)):
        return ""
    if _ERREXIT.search(ctx.text) and ("|" not in capture.group(2) or _PIPEFAIL.search(ctx.text)):
        return ""
    name = capture.group(1)
    use = re.compile(r"\$\{?" + name + r"\b")
    tests = []
    for other, text in enumerate(lines, start=1):
        if other == number or not use.search(text.split("#", 1)[0]):
            continue
        if not _IF.match(text):
            return ""
        tests.append(other)
    for test in tests:
        branch = _then_branch(lines, test)
        end = branch.stop
        if end > len(lines) or not re.match(r"^\s*else\b", lines[end - 1]):
            return ""
        rest = _then_branch(lines, end)  # the else branch, up to its fi
        if any(_LEAVES.search(lines[n - 1].split("#", 1)[0]) for n in (*branch, *rest)):
            return ""
    if not tests:
        return ""
    return f"`{name}` only picks a branch (line {tests[0]}), and the `else` is the default where it is empty"


def _then_branch(lines: list[str], start: int) -> range:
    """The lines of the `then` branch of the `if` on line `start` (1-based), up to its `else`, `elif` or `fi`."""
    if re.search(r"\bfi\s*(?:;|$)", lines[start - 1]):
        return range(start, start + 1)  # `if ...; then ...; fi` on one line
    depth = 0
    for number in range(start + 1, len(lines) + 1):
        text = lines[number - 1]
        if _BLOCK_OPEN.match(text):
            depth += 1
        elif _BLOCK_CLOSE.match(text):
            if depth == 0:
                return range(start + 1, number)
            depth -= 1
        elif depth == 0 and _BRANCH.match(text):
            return range(start + 1, number)
    return range(start + 1, start + 1)


_SUBPROCESS_ERRORS = frozenset({"CalledProcessError", "SubprocessError"})


def _python_fallbacks(ctx) -> dict[tuple[int, int], str]:
    """Positions of the strings naming nvidia-smi that fail gracefully -> why: inside a `try` whose `except`
    catches the missing command, or inside `if shutil.which("nvidia-smi"):` (the probe and its body)."""
    module = ctx.parsed
    out: dict[tuple[int, int], str] = {}
    if not isinstance(module, ast.Module):
        return out
    probed: dict[int, str] = {}

    def mark(statements, line: int) -> None:
        for statement in statements:
            for inner in range(statement.lineno, (statement.end_lineno or statement.lineno) + 1):
                probed.setdefault(inner, f"`shutil.which` tests for it first, line {line}")

    for parent in walk_ast(module):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(parent, field, None)
            if not isinstance(block, list):
                continue
            for index, node in enumerate(block):
                sense = _which_probe(node.test) if isinstance(node, ast.If) else ""
                if sense == "positive":
                    mark(node.body, node.lineno)
                    probed.setdefault(node.test.lineno, "`shutil.which` tests for it first")
                elif sense == "negated":
                    mark(node.orelse, node.lineno)
                    if _leaves_quietly(node.body):  # `if not which(...): return None`: the rest runs where it is
                        mark(block[index + 1 :], node.lineno)
                        probed.setdefault(node.test.lineno, "`shutil.which` tests for it first")
    shell_strings = set()
    for node in walk_ast(module):
        if isinstance(node, ast.Call) and any(
            k.arg == "shell" and isinstance(k.value, ast.Constant) and k.value.value is True for k in node.keywords
        ):
            shell_strings.update(
                (n.lineno, n.col_offset + 1) for n in ast.walk(node) if isinstance(n, (ast.Constant, ast.JoinedStr))
            )
    helped = _through_safe_runners(ctx.source, module)
    for node in walk_ast(module):
        if not isinstance(node, (ast.Constant, ast.JoinedStr)) or not hasattr(node, "lineno"):
            continue
        where = (node.lineno, node.col_offset + 1)
        caught = MISSING_COMMAND | _SUBPROCESS_ERRORS if where in shell_strings else MISSING_COMMAND
        fallback = graceful_try(ctx.source, node.lineno, caught)
        if fallback:
            out[where] = f"inside `try` (line {fallback}) whose `except` catches the missing command and goes on"
        elif node.lineno in probed:
            out[where] = probed[node.lineno]
        elif where in helped:
            out[where] = helped[where]
    return out


_RUNS = _RUNNERS | {"subprocess.check_output", "subprocess.check_call"}


def _through_safe_runners(source, module: ast.Module) -> dict[tuple[int, int], str]:
    """Positions of the strings passed to one of the module's own helpers that runs its argument inside a `try`
    whose `except` catches the missing command and goes on (`def _run(cmd): try: return subprocess.run(cmd, ...)
    except Exception: return None`) -> why."""
    safe: dict[str, int] = {}
    for node in walk_ast(module):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for call in ast.walk(node):
                if isinstance(call, ast.Call) and _dotted(call.func) in _RUNS:
                    line = graceful_try(source, call.lineno, MISSING_COMMAND | _SUBPROCESS_ERRORS)
                    if line:
                        safe[node.name] = line
                        break
    out: dict[tuple[int, int], str] = {}
    for call in walk_ast(module) if safe else ():
        if isinstance(call, ast.Call) and _dotted(call.func).rsplit(".", 1)[-1] in safe:
            name = _dotted(call.func).rsplit(".", 1)[-1]
            for arg in call.args:
                for part in ast.walk(arg):
                    if isinstance(part, (ast.Constant, ast.JoinedStr)) and hasattr(part, "lineno"):
                        out[(part.lineno, part.col_offset + 1)] = (
                            f"`{name}()` runs it inside `try` (line {safe[name]}) whose `except` catches the missing "
                            "command and goes on"
                        )
    return out


def _leaves_quietly(body: list[ast.stmt]) -> bool:
    """A branch that returns, breaks or continues without raising or exiting."""
    if not body or not isinstance(body[-1], (ast.Return, ast.Break, ast.Continue)):
        return False
    return not any(
        isinstance(n, ast.Raise) or (isinstance(n, ast.Call) and dotted(n.func) in ("sys.exit", "exit", "os._exit"))
        for statement in body
        for n in ast.walk(statement)
    )


def _which_probe(test: ast.AST) -> str:
    """ "positive" for `shutil.which("nvidia-smi")` (or `which(...)`, `... is not None`), "negated" for
    `not shutil.which(...)` or `... is None`, "" for any other test."""
    sense = "positive"
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test, sense = test.operand, "negated"
    elif isinstance(test, ast.Compare) and len(test.comparators) == 1:
        other = test.comparators[0]
        if not (isinstance(other, ast.Constant) and other.value is None):
            return ""
        sense = "negated" if isinstance(test.ops[0], (ast.Is, ast.Eq)) else "positive"
        test = test.left
    probe = (
        isinstance(test, ast.Call)
        and dotted(test.func) in ("shutil.which", "which")
        and any(isinstance(a, ast.Constant) and a.value == "nvidia-smi" for a in test.args)
    )
    return sense if probe else ""


RULE = text_rule(
    name="shell-nvidia-smi",
    summary="nvidia-smi in scripts, CI or Python (→ amd-smi)",
    risk=Risk.RUNTIME_FAILURE,
    severity=Severity.MEDIUM,
    languages=SCRIPT_LANGUAGES | {"python"},
    check=cuda_code_only(check),
)
