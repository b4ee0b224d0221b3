"""`#include` lines, the way hipify-clang treats them.

- a header in the table becomes its HIP (or, with --roc, roc*) header, quote style kept; `cuda_runtime.h` also
  brings `<math.h>`, `<string.h>` and `<assert.h>`, as it does under nvcc;
- main headers (`cuda.h`, `cuda_runtime.h`, one per library) are kept once: a later include that maps to the
  same header is removed (its directive text emptied, the line stays), as are headers HIP has no counterpart
  for (`device_launch_parameters.h`);
- a file that uses CUDA and did not get `hip/hip_runtime.h` from a rewritten `cuda.h`/`cuda_runtime.h` gets it
  inserted: right after `#pragma once`, else before the first `#include`, else at the top.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from scanner.translate.hipaware import is_hip_header
from scanner.translate.names import Target

RUNTIME_HEADER = b"hip/hip_runtime.h"
RUNTIME_SOURCES = frozenset({"cuda.h", "cuda_runtime.h"})
_MAIN_KINDS = frozenset({"include_cuda_main_header", "include_cuda_main_header_v2"})
# Plain-kind headers that hipify-clang also keeps once (all the curand_*.h map to one hiprand header).
_DEDUPLICATED_TARGETS = frozenset({b"hiprand/hiprand_kernel.h", b"rocrand/rocrand_kernel.h"})
_HEADER = re.compile(rb'\s*([<"])([^>"\n]+)([>"])')
INSERTED = b"\n#include <hip/hip_runtime.h>\n"
# cuda_runtime.h declares C's math, string and assert functions for host code too (nvcc's crt/math_functions.h
# includes math.h, crt/common_functions.h string.h and assert.h). Host code that calls `isfinite(x)`, `memset` or
# `assert` relying on it fails with hip_runtime.h alone: clang's HIP wrapper brings <cmath> and device overloads
# only, and HIP 7's hip_runtime_api.h no longer includes string.h as HIP 6's did (llm.c's common.h: every one of
# its 22 kernels failed on `memset` with HIP 7.2's headers).
HOST_C_HEADERS = b"\n#include <math.h>\n#include <string.h>\n#include <assert.h>"


@dataclass
class IncludeLine:
    hash_offset: int  # the `#`
    name_start: int  # first byte of the header name
    name: bytes
    end: int  # just past the closing delimiter


def parse(data: bytes, hash_offset: int, after_keyword: int) -> IncludeLine | None:
    match = _HEADER.match(data, after_keyword)
    if not match:
        return None
    return IncludeLine(hash_offset, match.start(2), match.group(2), match.end(3))


class IncludeRewriter:
    def __init__(self, headers: dict[str, Target]):
        self.headers = headers
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
        edits = [(line.name_start, line.name_start + len(line.name), replacement)]
        if name == "cuda_runtime.h":
            edits.append((line.end, line.end, HOST_C_HEADERS))
        return edits, target, counted

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
