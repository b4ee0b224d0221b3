"""A shell script's branch for NVIDIA's HPC SDK: the lines an `if` runs only where the HPC SDK's compilers or its
environment are found (`if [ -v HPCSDK_RELEASE ]; then`, `if command -v nvc++ ...; then`, `if [ -d
/opt/nvidia/hpc_sdk ]`). The HPC SDK (nvc, nvc++, nvfortran) is another toolchain, as Windows is another platform:
a ROCm machine never has it, so it never enters the branch, and what the branch sets for CUDA is not what the
script does elsewhere. Only the branch the test takes when the SDK is found: not its `else`, nor a negated test.
Likewise the CUDA branch of a platform switch the script also tests for ROCm (`if [ "${PLATFORM}" == "cuda" ]`
beside `elif [ "${PLATFORM}" == "rocm" ]`): the script handles both, and this branch is its NVIDIA side.
"""

from __future__ import annotations

import re

# The HPC SDK by its environment (`HPCSDK_RELEASE`, `NVHPC_ROOT`, `NVHPC`), its compilers, or its install path.
_HPC_SDK = re.compile(r"\b(?:HPCSDK\w*|NVHPC\w*|NV_HPC\w*)\b|(?<![\w-])(?:nvc\+\+|nvfortran)(?![\w+-])|/hpc_sdk\b")
_IF = re.compile(r"^\s*(if|elif)\b(.*)$")
_OPEN = re.compile(r"^\s*(?:if|case)\b")
_CLOSE = re.compile(r"^\s*(?:fi|esac)\b")
_BRANCH = re.compile(r"^\s*(?:else|elif)\b")
_NEGATED = re.compile(r"(?:^|[\s\[(])!\s|\s-z\s")


# A test of a platform switch for CUDA (`[ "${PLATFORM}" == "cuda" ]`), and the same switch tested for ROCm.
_CUDA_SWITCH = re.compile(r"\$\{?(\w+)\}?\"?\s*==?\s*[\"']?(?:cuda|nvidia)[\"']?(?=[\s\]])", re.I)
_ROCM_SWITCH = r"\$\{{?{name}\}}?\"?\s*==?\s*[\"']?(?:rocm|hip|amd)[\"']?(?=[\s\]])"


def hpc_sdk_lines(lines: list[str]) -> dict[int, tuple[int, str]]:
    """Per line of a shell script inside an HPC SDK branch, or the CUDA branch of a platform switch the script
    also tests for ROCm: (the line of the `if`, the test as written)."""
    out: dict[int, tuple[int, str]] = {}
    text_all = "\n".join(lines)
    for number, text in enumerate(lines, 1):
        code = text.split("#", 1)[0] if not text.lstrip().startswith("#!") else ""
        head = _IF.match(code)
        if head is None:
            continue
        test = re.split(r";\s*then\b|\bthen\b", head.group(2), maxsplit=1)[0].strip()
        if _NEGATED.search(" " + test):
            continue
        switch = _CUDA_SWITCH.search(test)
        if switch and re.search(_ROCM_SWITCH.format(name=re.escape(switch.group(1))), text_all, re.I):
            for inner in _then_branch(lines, number):
                out.setdefault(inner, (number, f"{head.group(1)} {test}", "switch"))
            continue
        if not _HPC_SDK.search(test):
            continue
        for inner in _then_branch(lines, number):
            out.setdefault(inner, (number, f"{head.group(1)} {test}", "hpc"))
    return out


def _then_branch(lines: list[str], start: int) -> range:
    """The lines of the branch the `if` (or `elif`) on line `start` opens, up to its `else`, `elif` or `fi`."""
    if re.search(r"\bfi\s*(?:;|$)", lines[start - 1]):
        return range(start, start + 1)  # `if ...; then ...; fi` on one line
    depth = 0
    for number in range(start + 1, len(lines) + 1):
        text = lines[number - 1].split("#", 1)[0]
        if _OPEN.match(text) and not re.search(r"\bfi\s*(?:;|$)", text):
            depth += 1
        elif _CLOSE.match(text):
            if depth == 0:
                return range(start + 1, number)
            depth -= 1
        elif depth == 0 and _BRANCH.match(text):
            return range(start + 1, number)
    return range(start + 1, len(lines) + 1)


def note(lines: list[str], line: int, cache: dict) -> str:
    """Why `line` of a shell script is the HPC SDK's side (`cache`: a dict kept for the file), or ""."""
    if "lines" not in cache:
        cache["lines"] = hpc_sdk_lines(lines)
    found = cache["lines"].get(line)
    if found is None:
        return ""
    number, test, kind = found
    if kind == "switch":
        return (
            f"This line runs only in the script's CUDA branch (`{test}`, line {number}); the script tests the same "
            "switch for ROCm too, so this is its NVIDIA side."
        )
    return (
        f"This line runs only where NVIDIA's HPC SDK is found (`{test}`, line {number}): another toolchain, which "
        "a ROCm machine never has, so it never takes this branch."
    )
