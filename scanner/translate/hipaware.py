"""Code already written for HIP: what the translator must recognise and leave as it was.

- a mapping line aliases a CUDA name to a HIP one (`#define cudaMalloc hipMalloc`, `using cudaStream_t =
  hipStream_t;`, `typedef hip_bfloat16 nv_bfloat16;`, `constexpr auto cudaSuccess = hipSuccess;`): translating it
  would define the HIP name as itself;
- more generally, a definition whose two sides translate to the same name (`#define hipStream_t cudaStream_t`
  -> `#define hipStream_t hipStream_t`) is never rewritten;
- a file that includes a HIP header and has mapping lines is a compatibility header (ggml's `vendors/hip.h`):
  every line of it, `#ifdef` branches included, is already what the project wants under HIP.
"""

from __future__ import annotations

import re

from scanner.translate.names import Target
from scanner.translate.tokenwalk import COMMENT, IDENT, LITERAL, Span, next_code, text

# hip/hip_runtime.h, hipblas/hipblas.h, hipblas.h, rocblas/rocblas.h, miopen/miopen.h ...
_HIP_HEADER = re.compile(rb"^(hip|roc|miopen)[A-Za-z0-9_]*[/.]")
_HIP_PREFIX = re.compile(rb"^_*(hip|HIP)")
_BRACES = {b"{": 1, b"}": -1}
_ALIAS_SCAN_LIMIT = 256  # tokens: a typedef longer than this is a struct body, not a mapping


def is_hip_header(name: bytes) -> bool:
    return bool(_HIP_HEADER.match(name))


class MappingFinder:
    """Finds mapping lines and identity definitions among a file's tokens."""

    def __init__(self, data: bytes, spans: list[Span], names: dict[bytes, Target], hip_names: frozenset[bytes]):
        self.data, self.spans, self.names, self.hip_names = data, spans, names, hip_names

    def define(self, keyword: int) -> int | None:
        """For `#define NAME body` (keyword: the `define` token): the last token of the directive when it is a
        mapping line or an identity definition once translated, else None."""
        spans = self.spans
        name = next_code(spans, keyword)
        if name >= len(spans) or spans[name][0] != IDENT:
            return None
        last = self.directive_end(name)
        body = [j for j in range(name + 1, last + 1) if spans[j][0] == IDENT]
        return last if self._aliases(name, body) else None

    def alias(self, i: int) -> int | None:
        """For `using A = B;` or `typedef B A;` (i: the keyword): the index of its `;` when it is a mapping or an
        identity definition once translated, else None."""
        spans, data = self.spans, self.data
        end = self._statement_end(i)
        if end is None:
            return None
        idents = [j for j in range(i + 1, end) if spans[j][0] == IDENT]
        if not idents:
            return None
        if text(data, spans[i]) == b"using":
            first = next_code(spans, i)
            if first not in idents or text(data, spans[next_code(spans, first)]) != b"=":
                return None  # `using namespace x;`, `using ns::name;`
            alias, aliased = first, [j for j in idents if j != first]
        else:
            alias, aliased = idents[-1], idents[:-1]
        return end if self._aliases(alias, aliased) else None

    def constant(self, i: int) -> int | None:
        """For `constexpr auto cudaSuccess = hipSuccess;` (i: `constexpr` or `const`, the type `auto`): the index of
        its `;` when it is a mapping or an identity definition once translated, else None."""
        spans, data = self.spans, self.data
        seq, j = [], i
        for _ in range(5):
            j = next_code(spans, j)
            if j >= len(spans):
                return None
            seq.append(j)
        words = [text(data, spans[j]) for j in seq]
        if words[0] != b"auto" or words[2] != b"=" or words[4] != b";":
            return None
        if spans[seq[1]][0] != IDENT or spans[seq[3]][0] != IDENT:
            return None
        return seq[4] if self._aliases(seq[1], [seq[3]]) else None

    # -- deciding ---------------------------------------------------------------------------------------
    def _aliases(self, alias: int, aliased: list[int]) -> bool:
        """A CUDA name defined in terms of HIP, or two sides that translation would make the same name."""
        word = text(self.data, self.spans[alias])
        others = [text(self.data, self.spans[j]) for j in aliased]
        if word in self.names and any(self._is_hip(other) for other in others):
            return True
        return len(others) == 1 and others[0] != word and self._translated(others[0]) == self._translated(word)

    def _is_hip(self, word: bytes) -> bool:
        return word in self.hip_names or bool(_HIP_PREFIX.match(word))

    def _translated(self, word: bytes) -> bytes:
        target = self.names.get(word)
        return target.replacement if target is not None and target.replacement else word

    # -- delimiting -------------------------------------------------------------------------------------
    def directive_end(self, i: int) -> int:
        """Index of the last token of the preprocessor line holding token i (backslash continuations joined)."""
        data, spans = self.data, self.spans
        end = data.find(b"\n", spans[i][1])
        while end > 0 and _continued(data, end):
            end = data.find(b"\n", end + 1)
        end = len(data) if end < 0 else end
        last = i
        while last + 1 < len(spans) and spans[last + 1][1] < end:
            last += 1
        return last

    def _statement_end(self, i: int) -> int | None:
        """Index of the `;` ending the declaration at i, outside braces; None when it is too far to be an alias."""
        depth = 0
        for j in range(i + 1, min(len(self.spans), i + _ALIAS_SCAN_LIMIT)):
            if self.spans[j][0] in (COMMENT, LITERAL):
                continue
            tok = text(self.data, self.spans[j])
            depth += _BRACES.get(tok, 0)
            if tok == b";" and depth == 0:
                return j
        return None


def _continued(data: bytes, newline: int) -> bool:
    """Whether the line ending at this newline ends with a backslash (CRLF files too)."""
    j = newline - 1
    if j >= 0 and data[j] == 0x0D:
        j -= 1
    return j >= 0 and data[j] == 0x5C
