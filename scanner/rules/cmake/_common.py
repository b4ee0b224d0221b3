"""Shared by the CMake rules: the file's command invocations (scanner.formats.cmake) and argument scanning."""

from __future__ import annotations

import re

from scanner.formats import cmake


def commands(ctx) -> list[cmake.Command]:
    return cmake.commands(ctx.source)


def arg_position(arg: cmake.Arg, offset: int = 0) -> tuple[int, int]:
    """Line and column of `offset` characters into an argument (after its opening quote)."""
    before = arg.value[:offset]
    newlines = before.count("\n")
    if newlines:
        return arg.line + newlines, len(before) - before.rfind("\n")
    return arg.line, arg.col + offset + (1 if arg.quoted else 0)


# A test that holds only where the CUDA toolkit (or a CUDA library) was found: false on a ROCm machine.
_CUDA_PRESENCE = re.compile(
    r"^(?:CUDAToolkit_FOUND|CUDA_FOUND|CUDA_\w+_FOUND|CUDA_\w+_LIBRARY|CUDAToolkit_\w+_FOUND|CMAKE_CUDA_COMPILER|"
    r"CUDNN_FOUND|NCCL_FOUND|NVTX_FOUND|CUPTI_FOUND|TensorRT_FOUND|\$\{CUDAToolkit_FOUND\}|\$\{CUDA_FOUND\})$"
)


def cuda_presence_guard(ctx, command: cmake.Command) -> str:
    """The `if()` around `command` that holds only where CUDA is installed (`if(TARGET CUDA::cupti)`,
    `if(UNIX AND CUDAToolkit_FOUND)`, the else() of `if(NOT TARGET CUDA::nvToolsExt)`), as written; or ""."""
    frames: list[list] = []  # per open if(): [the current branch's guard text or ""]
    for c in commands(ctx):
        if c.line >= command.line and (c.line, c.col) >= (command.line, command.col):
            break
        name = c.name
        if name == "if":
            frames.append([_guard_text(c.values(), negated=False), c.values()])
        elif name == "elseif" and frames:
            frames[-1][0] = _guard_text(c.values(), negated=False)
        elif name == "else" and frames:
            frames[-1][0] = _guard_text(frames[-1][1], negated=True)
        elif name == "endif" and frames:
            frames.pop()
    return next((frame[0] for frame in reversed(frames) if frame[0]), "")


def _guard_text(words: list[str], negated: bool) -> str:
    """`if(<words>)` as written when it tests CUDA's presence: positively (an AND of tests, one of them a
    presence test), or, for an else(), a lone `NOT <presence>`."""
    text = " ".join(words)
    if "OR" in words:
        return ""
    if negated:
        if len(words) >= 2 and words[0] == "NOT" and _presence(words[1:]):
            return f"else() of if({text})"
        return ""
    for k, word in enumerate(words):
        if k > 0 and words[k - 1] == "NOT":
            continue
        if word == "TARGET" and k + 1 < len(words) and words[k + 1].startswith("CUDA::"):
            return f"if({text})"
        if _CUDA_PRESENCE.match(word):
            return f"if({text})"
    return ""


def _presence(words: list[str]) -> bool:
    return (len(words) == 2 and words[0] == "TARGET" and words[1].startswith("CUDA::")) or (
        len(words) == 1 and bool(_CUDA_PRESENCE.match(words[0]))
    )
