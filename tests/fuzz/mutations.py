"""Hostile variants of real inputs: the seed corpus (the rule fixtures, the demo project, the webhook fixtures)
and the mutations applied to it. Pure functions of a `random.Random`, so hypothesis (which draws the seeds and
shrinks them) and atheris (which derives them from its input bytes) share them.

The mutations are the ways real files go wrong: flipped and deleted bytes, shuffled tokens, a file cut short,
invalid UTF-8, NUL bytes, a huge line, very deep nesting, preprocessor directives without their partner, and
pieces of other files spliced in.
"""

from __future__ import annotations

import random
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULE_FIXTURES = ROOT / "tests" / "scanner" / "fixtures" / "rules"
DEMO = ROOT / "demo" / "cuda-demo"
WEBHOOK_FIXTURES = ROOT / "tests" / "fixtures" / "webhooks"

CXX_SUFFIXES = (".cu", ".cuh", ".cpp", ".h", ".c")
# The names of the text formats the scanner reads without libclang (scanner.discovery), with a demo file of each.
TEXT_SAMPLES = {
    "CMakeLists.txt": "CMakeLists.txt",
    "Dockerfile": "Dockerfile",
    "Makefile": "Makefile",
    "run.sh": "scripts/run_rocm.sh",
    "compose.yml": "deploy/docker-compose.yml",
    "inference.yaml": "k8s/inference.yaml",
    "check_env.py": "python/check_env.py",
    "requirements.txt": "requirements.txt",
    "setup.py": "python/setup.py",
}


@cache
def cxx_corpus() -> tuple[bytes, ...]:
    """Every C++/CUDA/PTX fixture of the rule tests and every CUDA file of the demo, as bytes."""
    paths = sorted(p for p in RULE_FIXTURES.iterdir() if p.suffix in CXX_SUFFIXES + (".ptx",))
    paths += sorted(p for p in DEMO.rglob("*") if p.suffix in (".cu", ".cuh"))
    return tuple(p.read_bytes() for p in paths)


@cache
def text_corpus() -> tuple[tuple[str, bytes], ...]:
    """(file name the scanner recognises, content) for the demo's build, container, script, YAML and Python
    files, plus the text-format rule fixtures under a name of their language."""
    samples = [(name, (DEMO / rel).read_bytes()) for name, rel in TEXT_SAMPLES.items()]
    for path in sorted(RULE_FIXTURES.iterdir()):
        if path.suffix not in CXX_SUFFIXES + (".ptx",) and path.is_file():
            samples.append((path.name.split("_", 1)[-1], path.read_bytes()))
    return tuple(samples)


@cache
def webhook_corpus() -> tuple[tuple[str, bytes], ...]:
    """(provider, exact bytes) of every published example delivery in tests/fixtures/webhooks/."""
    return tuple((p.parent.name, p.read_bytes()) for p in sorted(WEBHOOK_FIXTURES.glob("*/*.json")))


# Tokens of CUDA sources, for random files and for token-level mutations.
CUDA_VOCABULARY = (
    "__global__",
    "__device__",
    "__host__",
    "__shared__",
    "__constant__",
    "__launch_bounds__(256)",
    "void",
    "int",
    "float",
    "unsigned",
    "auto",
    "template",
    "<typename T>",
    "struct",
    "class",
    "namespace",
    'extern "C"',
    "return",
    "if",
    "else",
    "for",
    "while",
    "switch",
    "case",
    "default:",
    "goto",
    "sizeof",
    "static_assert",
    "threadIdx.x",
    "blockIdx.y",
    "blockDim.x",
    "gridDim.z",
    "warpSize",
    "32",
    "31",
    "0xffffffff",
    "0xFFFFFFFFu",
    "1ULL",
    "16",
    "64",
    "__shfl_sync",
    "__shfl_down_sync",
    "__ballot_sync",
    "__activemask()",
    "__syncthreads()",
    "__syncwarp()",
    "atomicAdd",
    "cudaMalloc",
    "cudaMemcpy",
    "cudaMemcpyHostToDevice",
    "cudaStream_t",
    "cudaFree",
    "cudaDeviceSynchronize()",
    "cublasSgemm",
    "cudaError_t",
    "dim3",
    "<<<",
    ">>>",
    "asm volatile",
    '("mov.u32 %0, %%laneid;" : "=r"(x))',
    "#include <cuda_runtime.h>",
    '#include "missing.h"',
    "#include <cub/cub.cuh>",
    "#define WARP 32",
    "#define F(x) ((x) * 2)",
    "#if",
    "#ifdef __CUDA_ARCH__",
    "#ifndef X",
    "#elif",
    "#else",
    "#endif",
    "#pragma unroll",
    "#undef WARP",
    "#error no",
    "#line 1",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ";",
    ",",
    ".",
    "->",
    "::",
    "=",
    "==",
    "+",
    "-",
    "*",
    "/",
    "%",
    "&",
    "|",
    "^",
    "~",
    "!",
    "<",
    ">",
    "<<",
    ">>",
    "?",
    ":",
    "...",
    '"str"',
    "'c'",
    'u8"\\u00e9"',
    'R"(raw)"',
    "//",
    "/*",
    "*/",
    "\\",
    "\n",
    "\n",
    "\n",
    " ",
    "\t",
    "x",
    "y",
    "lane",
    "mask",
    "T",
    "k",
    "i",
    "1.0f",
    "0x1p-3",
)

_TOKENS = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*|\d+|\s+|.", re.S)
_INVALID_UTF8 = (b"\xff", b"\xfe\xfe", b"\xc3", b"\xc3(", b"\xed\xa0\x80", b"\xe2\x82", b"\xf4\x90\x80\x80", b"\x80")
_DIRECTIVES = (
    b"#if 1\n",
    b"#if\n",
    b"#ifdef\n",
    b"#endif\n",
    b"#else\n",
    b"#elif 0\n",
    b"#define F(\n",
    b"#include <\n",
    b'#include "\n',
    b"#pragma\n",
    b"#if (((\n",
    b"#\n",
    b"#define X X\n",
    b"#include __FILE__\n",
    b"??=if 1\n",
    b"#if 1 /*\n",
    b"#endif */\n",
)
_OPEN_CLOSE = (
    (b"{", b"}"),
    (b"(", b")"),
    (b"[", b"]"),
    (b"<", b">"),
    (b"#if 1\n", b"#endif\n"),
    (b"template <typename T", b">"),
    (b"/*", b"*/"),
    (b'"', b'"'),
)


def _pos(rng: random.Random, data: bytes) -> int:
    return rng.randint(0, len(data))


def flip_bytes(rng, data, corpus):
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if out:
            out[rng.randrange(len(out))] = rng.randrange(256)
    return bytes(out)


def delete_span(rng, data, corpus):
    start = _pos(rng, data)
    return data[:start] + data[start + rng.randint(1, 200) :]


def duplicate_span(rng, data, corpus):
    start = _pos(rng, data)
    return data[:start] + data[start : start + rng.randint(1, 400)] * rng.randint(2, 5) + data[start:]


def shuffle_tokens(rng, data, corpus):
    tokens = _TOKENS.findall(data)
    for _ in range(rng.randint(1, 10)):
        if len(tokens) < 2:
            break
        i, j = rng.randrange(len(tokens)), rng.randrange(len(tokens))
        choice = rng.randrange(3)
        if choice == 0:
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif choice == 1:
            del tokens[i]
        else:
            tokens.insert(i, rng.choice(CUDA_VOCABULARY).encode())
    return b"".join(tokens)


def truncate(rng, data, corpus):
    return data[: _pos(rng, data)]


def invalid_utf8(rng, data, corpus):
    start = _pos(rng, data)
    return data[:start] + rng.choice(_INVALID_UTF8) + data[start:]


def nul_bytes(rng, data, corpus):
    start = _pos(rng, data)
    return data[:start] + b"\0" * rng.randint(1, 3) + data[start:]


def huge_line(rng, data, corpus):
    start = _pos(rng, data)
    unit = rng.choice((b"x", b"a+", b"1,", b"/", b" ", b'"', b"threadIdx.x % 32 + "))
    return data[:start] + unit * (rng.randint(20_000, 300_000) // len(unit)) + data[start:]


def deep_nesting(rng, data, corpus):
    opening, closing = rng.choice(_OPEN_CLOSE)
    depth = rng.choice((50, 300, 1_000, 5_000, 20_000))
    balanced = rng.random() < 0.6
    start = _pos(rng, data)
    nest = opening * depth + (closing * depth if balanced else b"")
    return data[:start] + nest + data[start:]


def unmatched_directive(rng, data, corpus):
    lines = data.split(b"\n")
    for _ in range(rng.randint(1, 4)):
        lines.insert(rng.randint(0, len(lines)), rng.choice(_DIRECTIVES).rstrip(b"\n"))
    return b"\n".join(lines)


def odd_line_ends(rng, data, corpus):
    choice = rng.randrange(4)
    if choice == 0:
        return data.replace(b"\n", b"\r")
    if choice == 1:
        return data.replace(b"\n", b"\r\n")
    if choice == 2:
        return data.replace(b"\n", b"\\\n")  # every line continued
    return b"\xef\xbb\xbf" + data.replace(b"\n", b"\n\xef\xbb\xbf")  # byte order marks everywhere


def splice(rng, data, corpus):
    other = rng.choice(corpus) if corpus else data
    a, b = _pos(rng, data), _pos(rng, other)
    return data[:a] + other[b : b + rng.randint(1, 2_000)] + data[a:]


MUTATIONS = (
    flip_bytes,
    delete_span,
    duplicate_span,
    shuffle_tokens,
    truncate,
    invalid_utf8,
    nul_bytes,
    huge_line,
    deep_nesting,
    unmatched_directive,
    odd_line_ends,
    splice,
)


def mutate(data: bytes, steps: list[tuple[int, int]], corpus: tuple[bytes, ...] = ()) -> bytes:
    """Apply `steps`: (index into MUTATIONS, seed) pairs, in order."""
    for index, seed in steps:
        data = MUTATIONS[index % len(MUTATIONS)](random.Random(seed), data, corpus)
    return data


def random_cuda(rng: random.Random, length: int) -> bytes:
    """A source made of CUDA tokens in random order, separated by random whitespace."""
    return "".join(rng.choice(CUDA_VOCABULARY) + rng.choice(("", " ", " ", "\n")) for _ in range(length)).encode()
