"""The built-in CUDA -> HIP translator: libclang tokens plus HIPIFY's name table, never a regex over code.

Steps for a file:
- lex it with libclang (every #if branch, macro bodies, templates: tokens do not care what the preprocessor takes);
- rename identifiers found in the table, unless they are members (`x.cudaMalloc`) or qualified by a namespace of
  the user's (`mylib::cudaMalloc`); identifiers that merely start with `cuda` are not in the table, so they stay;
- map `#include` headers and add `hip/hip_runtime.h` where hipify-clang would (scanner.translate.includes);
- add `hip/hip_fp16.h`/`hip/hip_bf16.h` to a file that uses their types without including a header of them (under
  nvcc another NVIDIA header brought it);
- argument-dependent renames (scanner.translate.calls), optional `hipLaunchKernelGGL` (scanner.translate.launch);
- the 64-bit full mask of warp-sync calls and plain loads/stores for `__ldcs`/`__stcs` (and `__ldg` in a file of
  bf16 types), which HIP needs to build and hipify leaves (scanner.translate.wave64);
- the half and bf16 conversions HIP lacks (`__double2half`, `make_bfloat162`), spelled with what it has
  (scanner.translate.halfcalls);
- `nvcuda::wmma` to rocWMMA where every fragment has a counterpart, else left and reported (scanner.translate.wmma);
- inline PTX with a sure meaning (`cvt` conversions) as the C++ it computes, else left and reported
  (scanner.translate.ptx);
- comments and string literals stay untouched unless asked;
- only CUDA is translated: a file that is not .cu/.cuh and has no CUDA construct (keyword, launch, CUDA header,
  a table name other than the math C shares with CUDA) comes out identical, with nothing counted; `max`, `exp`,
  `fabsf`... count as converted only in CUDA files (scanner.translate.names.shared_with_c);
- code already written for HIP is left as it was (scanner.translate.hipaware): mapping lines (`#define cudaX
  hipX`), definitions that translation would make `X X`, and whole compatibility headers;
- every byte not covered by an edit is copied as it was.
"""

from __future__ import annotations

import os
import re
import time
from bisect import bisect_right

from scanner.translate import (
    calls,
    devicecalls,
    halfcalls,
    hipaware,
    includes,
    launch,
    ptx,
    thrust,
    wave64,
    wmma,
)
from scanner.translate.added_headers import AddedHeaders
from scanner.translate.lexer import Lexer
from scanner.translate.model import LAUNCH_GGL, TranslateOptions, TranslationResult, TranslationStats, Unconverted
from scanner.translate.names import (
    STRUCT_TAGS,
    Target,
    bf16_name_map,
    header_map,
    hip_names,
    name_map,
    shared_with_c,
    uses_bf16_api,
)
from scanner.translate.tokenwalk import COMMENT, IDENT, LITERAL, member_declarations, next_code, prev_code, text
from scanner.version import TOOL_VERSION

_MEMBER_ACCESS = (b".", b"->")
# `ns::name` keeps hipify's renaming only under these namespaces; under a user's own namespace it is theirs.
_CUDA_NAMESPACES = frozenset({b"cub", b"thrust", b"nvcuda", b"wmma", b"cooperative_groups", b"cg", b"std"})
# CUDA language words that are not in the table: a file using them needs hip/hip_runtime.h under HIP.
_CUDA_WORDS = frozenset(
    {
        b"__global__",
        b"__device__",
        b"__shared__",
        b"__constant__",
        b"__managed__",
        b"threadIdx",
        b"blockIdx",
        b"blockDim",
        b"gridDim",
        b"warpSize",
        b"__launch_bounds__",
    }
)
# Built-in variables that SYCL ports keep as names of their own (`sycl::range<3> gridDim(...)`): CUDA's are
# read member by member.
_CUDA_DIM_WORDS = frozenset({b"threadIdx", b"blockIdx", b"blockDim", b"gridDim"})
_CUDA_DIM_MEMBERS = frozenset({b"x", b"y", b"z"})
# Huawei's Ascend C also spells its kernels `__global__` (`__global__ __aicore__ void k(...)`).
_OTHER_DIALECTS = frozenset({b"__aicore__"})
_CONDITIONS = frozenset({b"if", b"ifdef", b"ifndef", b"elif", b"elifdef", b"elifndef"})
_CUDA_EXTENSIONS = frozenset({".cu", ".cuh"})
_ALIAS_KEYWORDS = frozenset({b"typedef", b"using"})
_CONSTANT_KEYWORDS = frozenset({b"constexpr", b"const"})  # `constexpr auto cudaSuccess = hipSuccess;`
_WORD = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_STRING_CANDIDATE = re.compile(rb"cu[^\s\"]*")
# cuda_fp16.h's and cuda_bf16.h's API (types and conversions) and the HIP header that declares it. A file using
# it without including either header got it under nvcc through another NVIDIA header (cuBLASLt's cuda_fp8.h brings
# both); HIP's library headers do not bring hip_bf16.h, so the file includes it itself (`_runtime_header`).
_FLOAT_HEADERS = (
    (b"hip/hip_fp16.h", re.compile(rb"__half|__float2half|__floats2half|__int2half|__double2half")),
    (b"hip/hip_bf16.h", re.compile(rb"_?_?nv_bfloat16|__\w*bfloat16")),
)
_MMA_INCLUDE = re.compile(rb"^[ \t]*#[ \t]*include[ \t]*[<\"](?:crt/)?mma\.h[>\"]", re.MULTILINE)


class BuiltinTranslator:
    name = "builtin"
    version = TOOL_VERSION

    def __init__(self, options: TranslateOptions = TranslateOptions()):
        self.options = options
        self.names = name_map(options.roc)
        self.bf16_names = bf16_name_map(options.roc)
        self.headers = header_map(options.roc)
        self.shared = shared_with_c()
        self.hip_names = hip_names()
        self.lexer = Lexer()

    def translate(self, path: str, text_: str) -> TranslationResult:
        started = time.perf_counter()
        data = text_.encode("utf-8")
        work = _FileWork(path, data, self.lexer.spans(path, text_, data), self)
        work.run()
        output = work.apply()
        work.stats.elapsed_seconds = time.perf_counter() - started
        return TranslationResult(
            path,
            output.decode("utf-8"),
            work.stats,
            self.name,
            self.version,
            warnings=work.warnings,
            unconverted=work.unconverted,
        )


class _FileWork(AddedHeaders):
    """Translating one file: edits are (start, end, replacement) byte ranges over the original."""

    def __init__(self, path: str, data: bytes, spans: list[tuple[int, int, int]], translator: BuiltinTranslator):
        self.data = data
        self.spans = spans
        self.t = translator
        self.options = translator.options
        self.edits: list[tuple[int, int, bytes]] = []
        self.touched: set[int] = set()  # offsets where a reference was converted (for CHANGED lines)
        self.replaced_bytes = 0
        self.stats = TranslationStats(files=1, total_bytes=len(data), total_lines=data.count(b"\n"))
        self.unconverted: list[Unconverted] = []
        self.warnings: list[str] = []
        self.includes = includes.IncludeRewriter(translator.headers, data, spans)
        self._line_starts: list[int] | None = None
        self.cuda_source = os.path.splitext(path)[1].lower() in _CUDA_EXTENSIONS
        self.uses_cuda = False  # a CUDA construct was seen: the file is CUDA whatever its extension
        self.cuda_words = False  # __global__, threadIdx.x...: CUDA unless the file is in another dialect
        self.other_dialect = False
        self.condition_until = -1  # last token of the `#if` line being walked: its names only test for CUDA
        self.deferred: list[tuple[int, bytes, Target, int, int]] = []  # names shared with C, outside .cu files
        # cuda_bf16.h's kernels use its own bf16 API: hip_bf16.h's types (scanner.translate.names.uses_bf16_api)
        self.names = translator.bf16_names if uses_bf16_api(data) else translator.names
        # __ldg of hip_bf16.h's types, which HIP does not overload: plain loads (scanner.translate.wave64)
        self.bf16_loads = self.names is translator.bf16_names and bool(_FLOAT_HEADERS[1][1].search(data))
        self.mappings = hipaware.MappingFinder(data, spans, self.names, translator.hip_names)
        self.own_members = member_declarations(data, spans)  # a class's methods named after CUDA's
        self.mapping_lines = 0
        self.float_headers: list[bytes] = []  # hip_fp16.h/hip_bf16.h, when the file uses their types (_FLOAT_HEADERS)
        self.wmma = wmma.plan(data, spans, bool(_MMA_INCLUDE.search(data)))
        self.mask_macros: frozenset[bytes] | None = None  # `#define FULL 0xffffffff`s (wave64), read when needed
        self.warp_helpers = False  # ldmatrix/mma.sync emulated: the helpers go into the file
        self.runtime_inserted = False  # hip_runtime.h inserted where the helpers go
        self.ptx_plan = ptx.Plan()  # the file's inline PTX (scanner.translate.ptx), read once the pass is done

    # -- the pass -------------------------------------------------------------------------------------
    def run(self) -> None:
        data, spans, names = self.data, self.spans, self.names
        options = self.options
        ggl = options.launch_syntax == LAUNCH_GGL
        template_kernels = launch.template_kernels(data, spans) if ggl else frozenset()
        skip_until = -1
        prev = prev2 = b""
        for i, (kind, off, length) in enumerate(spans):
            if i <= skip_until:
                continue
            if kind == IDENT:
                word = data[off : off + length]
                if (
                    (word in wave64.CALLS or (word == wave64.READ_ONLY_LOAD and self.bf16_loads))
                    and prev not in _MEMBER_ACCESS
                    and self._wave64(i, word, off)
                ):
                    prev2, prev = prev, word
                    continue
                if word in devicecalls.CALLS and prev not in _MEMBER_ACCESS and self._devicecall(i, word, off):
                    prev2, prev = prev, word
                    continue
                if word in halfcalls.CALLS and prev not in _MEMBER_ACCESS and self._halfcall(i, word, off):
                    prev2, prev = prev, word
                    continue
                target = names.get(word)
                if (
                    target is not None
                    and prev not in _MEMBER_ACCESS
                    and not (prev == b"::" and prev2 not in _CUDA_NAMESPACES and prev2[:1].isalpha())
                    and i not in self.own_members
                ):
                    if self._says_nothing_yet(i, word):
                        self.deferred.append((i, word, target, off, length))  # counted once the file is CUDA
                    else:
                        self._reference(i, word, target, off, length)
                elif word in _CUDA_WORDS:
                    self.cuda_words = self.cuda_words or self._cuda_word(i, word)
                elif word in _OTHER_DIALECTS:
                    self.other_dialect = True
                elif word == b"cub" and self._followed_by_scope(i):
                    self.edits.append((off, off + length, b"hipcub"))  # CUB's namespace is hipCUB's
                    self.touched.add(off)
                    self.replaced_bytes += length
                    self.stats.count(True, "library", "CUB API", "cub")
                elif word in thrust.NAMESPACES and (hip := thrust.namespace_at(data, spans, i)):
                    self.edits.append((off, off + length, hip))  # thrust::cuda:: is rocThrust's thrust::hip::
                    self.touched.add(off)
                    self.replaced_bytes += length
                    self.stats.count(True, "library", thrust.API, word.decode())
                prev2, prev = prev, word
            elif kind == COMMENT:
                if options.translate_comments:
                    self._comment(off, data[off : off + length])
            elif kind == LITERAL:
                if options.translate_strings and data[off + length - 1 : off + length] == b'"':
                    self._string(off, data[off : off + length])
                prev2, prev = prev, data[off : off + length]
            else:
                tok = data[off : off + length]
                if tok == b"#" and not data[data.rfind(b"\n", 0, off) + 1 : off].strip():
                    skip_until = self._directive(i)
                elif tok == b"<<" and (spaced := launch.spaced(data, spans, i)):
                    self.edits.extend(spaced)  # `<< <`...`>> >` written together, as clang reads a launch
                    self.uses_cuda = True
                elif tok == b"<<" and launch.is_launch(data, spans, i):
                    self.uses_cuda = True
                    if ggl:
                        self._launch(i, off, template_kernels)
                    else:
                        self.edits.extend(launch.braced_dims(data, spans, i))
                elif tok in _ALIAS_KEYWORDS:
                    skip_until = self._mapping(self.mappings.alias(i), i)
                elif tok in _CONSTANT_KEYWORDS:
                    skip_until = self._mapping(self.mappings.constant(i), i)
                prev2, prev = prev, tok
        self._finish()

    def _says_nothing_yet(self, i: int, word: bytes) -> bool:
        """A name that makes no file CUDA by itself: C's math (`max`, `fabsf`) and what `#if` lines test
        (`defined(__CUDACC__)` in a CPU header); in .cu files every name counts at once."""
        return not self.cuda_source and (word in self.t.shared or i <= self.condition_until)

    def _cuda_word(self, i: int, word: bytes) -> bool:
        """Whether a CUDA keyword or built-in is used as CUDA's: `threadIdx` only as `threadIdx.x/y/z`."""
        if word not in _CUDA_DIM_WORDS:
            return True
        dot = next_code(self.spans, i)
        member = next_code(self.spans, dot)
        return (
            member < len(self.spans)
            and text(self.data, self.spans[dot]) == b"."
            and text(self.data, self.spans[member]) in _CUDA_DIM_MEMBERS
        )

    def _finish(self) -> None:
        """Keep the edits only for CUDA that is not already HIP; count names shared with C in CUDA files."""
        if self.includes.has_hip_header and self.mapping_lines:
            self._discard()  # a compatibility header: it already says what every CUDA name is under HIP
            return
        self.uses_cuda = self.uses_cuda or (self.cuda_words and not self.other_dialect)
        self.ptx_plan = ptx.plan(self.data, self.spans)
        self.uses_cuda = self.uses_cuda or ptx.uses_ptx(self.ptx_plan)  # a header of PTX macros is CUDA
        if not (self.cuda_source or self.uses_cuda):
            self._discard()  # plain C/C++: comments and strings stay too
            return
        for reference in self.deferred:
            self._reference(*reference)
        self._wmma()
        self._ptx()
        self._host_headers()
        self._runtime_header()
        self._warp_helpers()

    def _discard(self) -> None:
        """Forget every edit and count: the file comes out as it went in."""
        self.edits.clear()
        self.touched.clear()
        self.unconverted.clear()
        self.warnings.clear()
        self.replaced_bytes = 0
        self.stats = TranslationStats(files=1, total_bytes=self.stats.total_bytes, total_lines=self.stats.total_lines)

    def _mapping(self, last: int | None, i: int) -> int:
        """The index to skip to past a mapping line (`last`), or i when it is none."""
        if last is None:
            return i
        self.mapping_lines += 1
        return last

    def _reference(self, i: int, word: bytes, target: Target, off: int, length: int) -> None:
        self.uses_cuda = True
        for header, names in _FLOAT_HEADERS:
            if header not in self.float_headers and names.match(word):
                self.float_headers.append(header)
        name = word.decode()
        if target.replacement is None:
            self.stats.count(False, target.kind, target.api, name)
            line = self.line_of(off)
            self.unconverted.append(Unconverted(name, line, off - self.line_starts[line - 1] + 1, target.reason))
            return
        self.stats.count(True, target.kind, target.api, name)
        replacement = target.replacement
        if word in STRUCT_TAGS and i > 0 and text(self.data, self.spans[prev_code(self.spans, i)]) == b"struct":
            replacement = STRUCT_TAGS[word]  # `struct cudaGraphicsResource*`: HIP's name is a typedef, not a tag
        if target.experimental and not self.options.experimental:
            self.warnings.append(
                f"line {self.line_of(off)}: `{name}` is experimental in HIP; translate with --experimental to rename it"
            )
            return
        if word in calls.special():
            extra, rename = calls.call_edits(self.data, self.spans, i, word, self.options.roc)
            self.edits.extend(extra)
            replacement = rename or replacement
        self.touched.add(off)
        self.replaced_bytes += length
        if replacement != word:
            self.edits.append((off, off + length, replacement))

    def _wave64(self, i: int, word: bytes, off: int) -> bool:
        """The 64-bit full mask and the streaming loads and stores (scanner.translate.wave64); True when the call
        itself was rewritten (counted as converted, not looked up in the table)."""
        if self.mask_macros is None:
            self.mask_macros = wave64.full_mask_macros(self.data)
        extra, rewritten = wave64.call_edits(self.data, self.spans, i, word, self.mask_macros)
        if extra:
            self.uses_cuda = True
            self.edits.extend(extra)
            self.touched.add(off)
        if rewritten:
            self.stats.count(True, "device_function", "CUDA RT API", word.decode())
        return rewritten

    def _halfcall(self, i: int, word: bytes, off: int) -> bool:
        """A half or bf16 conversion HIP lacks, spelled with what it has (scanner.translate.halfcalls); True when
        rewritten (counted as converted, not looked up in the table, where HIP has no such name)."""
        edits = halfcalls.call_edits(self.data, self.spans, i, word)
        if not edits:
            return False
        self.uses_cuda = True
        self.edits.extend(edits)
        self.touched.add(off)
        self.replaced_bytes += len(word)
        self.stats.count(True, "device_function", "CUDA RT API", word.decode())
        header = halfcalls.header(word)
        if header is not None and header not in self.float_headers:
            self.float_headers.append(header)
        return True

    def _devicecall(self, i: int, word: bytes, off: int) -> bool:
        """An integer min/max or system-scope atomic HIP spells otherwise (scanner.translate.devicecalls)."""
        if word in devicecalls.MIN_MAX and not self.cuda_source:
            return False  # plain C defines umin too: only a CUDA source's calls are CUDA's
        edits = devicecalls.call_edits(self.data, self.spans, i, word)
        if edits:
            self.uses_cuda = True
            self.edits.extend(edits)
            self.touched.add(off)
            self.replaced_bytes += len(word)
            self.stats.count(True, "device_function", "CUDA RT API", word.decode())
        return bool(edits)

    def _followed_by_scope(self, i: int) -> bool:
        j = next_code(self.spans, i)
        return j < len(self.spans) and text(self.data, self.spans[j]) == b"::"

    def _launch(self, i: int, off: int, template_kernels: frozenset[bytes]) -> None:
        rewrite = launch.rewrite(self.data, self.spans, i, template_kernels)
        if rewrite is None:
            self.warnings.append(
                f"line {self.line_of(off)}: kernel launch left as <<<...>>> "
                "(its kernel name or arguments could not be delimited)"
            )
            return
        self.edits.extend(rewrite)
        self.uses_cuda = True
        self.touched.add(rewrite[0][0])
        self.replaced_bytes += rewrite[-1][1] + 1 - rewrite[0][0]
        self.stats.count(True, "kernel_launch", "CUDA RT API", "cudaLaunchKernel")

    def _comment(self, base: int, chunk: bytes) -> None:
        """Comments, when asked: rename whole words found in the table (there is no context to check)."""
        for match in _WORD.finditer(chunk):
            target = self.names.get(match.group())
            if target is not None and target.replacement and target.replacement != match.group():
                self.edits.append((base + match.start(), base + match.end(), target.replacement))

    def _string(self, base: int, chunk: bytes) -> None:
        """String literals, when asked, as hipify-clang does: from each `cu` to the next space, renamed only
        when that whole piece is a name of the table."""
        for match in _STRING_CANDIDATE.finditer(chunk, 1):
            target = self.names.get(match.group())
            if target is not None and target.replacement and target.replacement != match.group():
                self.edits.append((base + match.start(), base + match.end(), target.replacement))
                self.stats.count(True, "literal", target.api, match.group().decode())

    # -- preprocessor -----------------------------------------------------------------------------------
    def _directive(self, i: int) -> int:
        """Handle `#include`; returns the index of the last token not to rename (the header name's tokens)."""
        spans, data = self.spans, self.data
        keyword = next_code(spans, i)
        if keyword < len(spans) and text(data, spans[keyword]) == b"define":
            return self._mapping(self.mappings.define(keyword), i)
        if keyword < len(spans) and text(data, spans[keyword]) in _CONDITIONS:
            self.condition_until = self.mappings.directive_end(keyword)
            return i
        if keyword >= len(spans) or text(data, spans[keyword]) not in (b"include", b"include_next", b"import"):
            return i
        _, off, length = spans[keyword]
        line = includes.parse(data, spans[i][1], off + length)
        if line is None:
            return keyword
        last = keyword
        while last + 1 < len(spans) and spans[last + 1][1] < line.end:
            last += 1
        if line.name in wmma.HEADERS:
            self._wmma_include(line, off)
            return last
        edits, target, counted = self.includes.handle(line)
        if target is None:
            return last
        self.uses_cuda = True
        name = line.name.decode()
        if target.replacement is None:
            self.stats.count(False, target.kind, target.api, name)
            self.unconverted.append(Unconverted(name, self.line_of(off), 1, target.reason))
            return last
        self.stats.count(True, target.kind, target.api, name)
        self.edits.extend(edits)
        self.touched.add(line.hash_offset)
        self.replaced_bytes += counted
        return last

    # -- output -----------------------------------------------------------------------------------------
    @property
    def line_starts(self) -> list[int]:
        if self._line_starts is None:
            starts = [0]
            pos = self.data.find(b"\n")
            while pos >= 0:
                starts.append(pos + 1)
                pos = self.data.find(b"\n", pos + 1)
            self._line_starts = starts
        return self._line_starts

    def line_of(self, off: int) -> int:
        return bisect_right(self.line_starts, off)

    def apply(self) -> bytes:
        stats = self.stats
        stats.changed_lines = len(
            {self.line_of(off) for off in self.touched} | {self.line_of(start) for start, _, _ in self.edits}
        )
        stats.replaced_bytes = self.replaced_bytes
        stats.converted_files = 1 if stats.changed_lines else 0
        if not self.edits:
            return self.data
        # Stable sort: insertions at one offset keep the order they were made in (HIP_KERNEL_NAME( before name).
        self.edits.sort(key=lambda e: (e[0], e[1] != e[0]))
        out, pos = [], 0
        for start, end, new in self.edits:
            if start < pos:
                self.warnings.append(f"line {self.line_of(start)}: overlapping rewrite skipped")
                continue
            out.append(self.data[pos:start])
            out.append(new)
            pos = end
        out.append(self.data[pos:])
        return b"".join(out)
