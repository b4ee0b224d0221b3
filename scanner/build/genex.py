"""CMake generator expressions, evaluated for one compile: `$<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>`,
`$<$<CUDA_COMPILER_ID:NVIDIA>:--expt-relaxed-constexpr>`, `$<BUILD_INTERFACE:...>`.

https://cmake.org/cmake/help/latest/manual/cmake-generator-expressions.7.html. What depends on the build's
configuration or another target's properties cannot be known here: it evaluates to nothing and is reported.
"""

from __future__ import annotations

import re

_INNERMOST = re.compile(r"\$<([^$<>]*)>")
# Compiler ids CMake reports per language, for each compiler of scanner.build.model.
_IDS = {"nvcc": {"CUDA": "NVIDIA", "CXX": "GNU", "C": "GNU"}, "hipcc": {"HIP": "Clang", "CXX": "Clang", "C": "Clang"}}
_LANG = {"cuda": "CUDA", "hip": "HIP", "c++": "CXX", "c": "C"}


def evaluate(text: str, language: str, compiler: str, unknown: list[str]) -> str:
    """`text` with every generator expression replaced by its value for a `language` source built by
    `compiler`; what cannot be evaluated is appended to `unknown`."""
    lang = _LANG.get(language, "CXX")
    ids = _IDS.get(compiler, {"CXX": "GNU", "C": "GNU", "CUDA": "NVIDIA" if compiler == "nvcc" else "Clang"})
    for _ in range(64):  # nested at most this deep
        match = _INNERMOST.search(text)
        if match is None:
            return text
        text = text[: match.start()] + _one(match.group(1), lang, ids, unknown) + text[match.end() :]
    return text


def _one(body: str, lang: str, ids: dict, unknown: list[str]) -> str:
    name, colon, arg = body.partition(":")
    if colon and name == "":  # its condition was unknown (reported there): the value is left out
        return ""
    if not colon:
        if name in ("0", "1"):
            return ""
        unknown.append(f"$<{body}>")
        return ""
    if name == "1":
        return arg
    if name == "0":
        return ""
    if name == "BOOL":
        return "0" if arg.upper() in ("", "0", "OFF", "NO", "FALSE", "N", "IGNORE", "NOTFOUND") else "1"
    if name == "NOT":
        return "1" if arg == "0" else "0"
    if name in ("AND", "OR"):
        values = arg.split(",")
        return "1" if (all if name == "AND" else any)(v == "1" for v in values) else "0"
    if name == "COMPILE_LANGUAGE":
        return "1" if lang in arg.split(",") else "0"
    if name == "COMPILE_LANG_AND_ID":
        wanted_lang, _, wanted_ids = arg.partition(",")
        return "1" if lang == wanted_lang and ids.get(lang, "") in wanted_ids.split(",") else "0"
    if name.endswith("_COMPILER_ID"):
        language = name[: -len("_COMPILER_ID")]
        return "1" if ids.get(language, "") in arg.split(",") else "0"
    if name == "BUILD_INTERFACE":
        return arg
    if name in ("INSTALL_INTERFACE", "INSTALL_PREFIX"):
        return ""
    if name == "PLATFORM_ID":
        return "1" if "Linux" in arg.split(",") else "0"
    if name in ("STREQUAL", "EQUAL"):
        left, _, right = arg.partition(",")
        return "1" if left == right else "0"
    unknown.append(f"$<{body}>")
    return ""
