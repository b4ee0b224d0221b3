"""`#include` lines, the way hipify-clang treats them.

- a header in the table becomes its HIP (or, with --roc, roc*) header, quote style kept; `cuda_runtime.h` also
  brings `<math.h>`, `<string.h>` and `<assert.h>`, as it does under nvcc;
- cuBLAS's headers, rewritten to hipBLAS's, come after `#define HIPBLAS_USE_HIP_HALF` (`hipblasHalf` is then
  `__half`, the type cuBLAS's half API takes);
- main headers (`cuda.h`, `cuda_runtime.h`, one per library) are kept once: a later include that maps to the
  same header is removed (its directive text emptied, the line stays), as are headers HIP has no counterpart
  for (`device_launch_parameters.h`);
- a file that uses CUDA and did not get `hip/hip_runtime.h` from a rewritten `cuda.h`/`cuda_runtime.h` gets it
  inserted: right after `#pragma once`, else before the first `#include`, else at the top;
- no include the file already has is written again (scanner.translate.included: any spelling, `<cassert>` for
  `<assert.h>`, where it is always seen): a header rewritten to one the file includes is removed like a duplicate
  main header, and `cuda_runtime.h`'s C headers leave out those the file includes.
"""

from __future__ import annotations

import re

from scanner.translate.hipaware import is_hip_header
from scanner.translate.included import FileIncludes, IncludeLine, parse
from scanner.translate.names import Target

__all__ = ["IncludeLine", "IncludeRewriter", "parse"]

RUNTIME_HEADER = b"hip/hip_runtime.h"
RUNTIME_SOURCES = frozenset({"cuda.h", "cuda_runtime.h"})
_MAIN_KINDS = frozenset({"include_cuda_main_header", "include_cuda_main_header_v2"})
# Plain-kind headers that hipify-clang also keeps once (all the curand_*.h map to one hiprand header).
_DEDUPLICATED_TARGETS = frozenset({b"hiprand/hiprand_kernel.h", b"rocrand/rocrand_kernel.h"})
INSERTED = b"\n#include <hip/hip_runtime.h>\n"
# cuda_runtime.h declares C's math, string and assert functions for host code too (nvcc's crt/math_functions.h
# includes math.h, crt/common_functions.h string.h and assert.h). Host code that calls `isfinite(x)`, `memset` or
# `assert` relying on it fails with hip_runtime.h alone: clang's HIP wrapper brings <cmath> and device overloads
# only, and HIP 7's hip_runtime_api.h no longer includes string.h as HIP 6's did (llm.c's common.h: every one of
# its 22 kernels failed on `memset` with HIP 7.2's headers).
HOST_C_HEADERS = (b"math.h", b"string.h", b"assert.h")
# cuBLAS's half-precision API takes `__half` (cublasHgemm(..., const __half* A, ...)); hipBLAS's takes `hipblasHalf`,
# an `uint16_t` unless HIPBLAS_USE_HIP_HALF is defined before its header, then HIP's `__half`. Code written for
# cuBLAS passes `half*`: the include of hipBLAS that replaces cuBLAS's defines it first, as HIP ports of cuBLAS code
# do (the definition changes only hipBLAS's typedef).
HIPBLAS_HEADERS = frozenset({b"hipblas.h", b"hipblas/hipblas.h"})
HIP_HALF_API = b"#ifndef HIPBLAS_USE_HIP_HALF\n#define HIPBLAS_USE_HIP_HALF\n#endif\n"


class IncludeRewriter:
    def __init__(self, headers: dict[str, Target], data: bytes, spans: list[tuple[int, int, int]]):
        self.headers = headers
        self.data, self.spans = data, spans
        self._file_includes: FileIncludes | None = None  # walked once, when a rewrite could repeat an include
        self.host_headers_after: IncludeLine | None = None  # the rewritten cuda_runtime.h line
        self.seen_targets: set[bytes] = set()
        self.runtime_rewritten = False
        self.first_include: int | None = None
        self.has_runtime_header = False
        self.has_hip_header = False  # already HIP: a compatibility header if it also maps CUDA names

    def handle(self, line: IncludeLine) -> tuple[list[tuple[int, int, bytes]], Target | None, int]:
        """(edits, table entry or None, bytes counted as replaced)."""
        if self.first_include is None:
            self.first_include = line.hash_offset
        name = line.name.decode("utf-8", "replace")
        if line.name == RUNTIME_HEADER:
            self.has_runtime_header = True
        self.has_hip_header = self.has_hip_header or is_hip_header(line.name)
        target = self.headers.get(name)
        if target is None:
            return [], None, 0
        if target.replacement is None:
            return [], target, 0
        if target.replacement == b"":  # supported, but HIP needs no such header: the directive goes
            return [self._remove(line)], target, line.end - line.hash_offset
        replacement = target.replacement
        dedupe = target.kind in _MAIN_KINDS or replacement in _DEDUPLICATED_TARGETS
        if name in RUNTIME_SOURCES:
            self.runtime_rewritten = True
        if dedupe and replacement in self.seen_targets:
            return [self._remove(line)], target, line.end - line.hash_offset
        self.seen_targets.add(replacement)
        counted = line.end - line.name_start + 1  # the name with its delimiters, as hipify counts it
        if replacement == line.name:
            return [], target, counted
        if name == "cuda_runtime.h":
            self.host_headers_after = line  # written at the end, once every include of the file is known
        if self.included.covers(replacement, line.hash_offset, line.hash_offset, exclude=line.hash_offset):
            return [self._remove(line)], target, line.end - line.hash_offset  # the file has it already
        edits = [(line.name_start, line.name_start + len(line.name), replacement)]
        if replacement in HIPBLAS_HEADERS:
            edits.insert(0, (line.hash_offset, line.hash_offset, HIP_HALF_API))
        return edits, target, counted

    @property
    def included(self) -> FileIncludes:
        if self._file_includes is None:
            self._file_includes = FileIncludes(self.data, self.spans)
        return self._file_includes

    def host_headers(self) -> tuple[int, bytes] | None:
        """Where and what to insert after a rewritten cuda_runtime.h: the C headers it brings under nvcc that the
        file does not include already, each once; None when there are none."""
        line = self.host_headers_after
        if line is None:
            return None
        wanted = [h for h in HOST_C_HEADERS if not self.included.covers(h, line.hash_offset, line.end)]
        if not wanted:
            return None
        return line.end, b"".join(b"\n#include <" + h + b">" for h in wanted)

    @staticmethod
    def _remove(line: IncludeLine) -> tuple[int, int, bytes]:
        return line.hash_offset, line.end, b""

    def runtime_insertion(self, data: bytes) -> tuple[int, bytes] | None:
        """Where and what to insert so that the file includes hip/hip_runtime.h, or None."""
        if self.runtime_rewritten or self.has_runtime_header:
            return None
        pragma = re.search(rb"^[ \t]*#[ \t]*pragma[ \t]+once\b", data, re.MULTILINE)
        if pragma:
            return pragma.end(), INSERTED
        if self.first_include is not None:
            return self.first_include, INSERTED
        return 0, INSERTED
