"""nvidia-smi in scripts, CI, Dockerfiles and Python (subprocess calls).

What it finds:
    `nvidia-smi` run from shell scripts, Makefiles, Dockerfiles, CI and deployment YAML, and named in Python
    strings (`subprocess.run(["nvidia-smi", ...])`). A run whose output only goes to the terminal or a log
    (`nvidia-smi` alone on a line or a CI step, `nvidia-smi || true`, `| tee log`, `os.system("nvidia-smi")`)
    is a diagnostic: info (low in a shell script under `set -e`, which stops where the command is missing).
    Printed or logged text that only names the command is not reported.

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
from scanner.formats.python_src import dotted
from scanner.model import Risk, Severity
from scanner.rules.libraries._judgement import command_matches, cuda_code_only, judged
from scanner.rules.textual import SCRIPT_LANGUAGES, mentions, once, text_rule

_COMMAND = re.compile(r"(?<![\w.-])nvidia-smi(?![\w.-])")
# A command that starts a statement: at the start of a line or CI step, or after `;`, `&&`, `then`, `do`, `else`.
_STATEMENT_START = re.compile(r"(?:^|;|&&|\bthen|\bdo|\belse)\s*(?:-\s+)?(?:run:\s*|RUN\s+|@)?(?:sudo\s+)?$")
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
    for line, col, match in command_matches(ctx, _COMMAND):
        if ctx.language == "python":
            diagnostic, guarded = (line, col) in logged, True
        else:
            diagnostic, guarded = _shell_logged(ctx.line_text(line), match.start(), match.end())
        if not diagnostic:
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
    for node in ast.walk(module):
        if isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert)):
            tested.update(id(n) for n in ast.walk(node.test))
        elif isinstance(node, (ast.Compare, ast.BoolOp)):
            tested.update(id(n) for n in ast.walk(node))
    for node in ast.walk(module):
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


RULE = text_rule(
    name="shell-nvidia-smi",
    summary="nvidia-smi in scripts, CI or Python (→ amd-smi)",
    risk=Risk.RUNTIME_FAILURE,
    severity=Severity.MEDIUM,
    languages=SCRIPT_LANGUAGES | {"python"},
    check=cuda_code_only(check),
)
