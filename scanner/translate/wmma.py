"""`nvcuda::wmma` to rocWMMA, which HIPIFY does not translate: rocWMMA keeps WMMA's API (`fragment`, `fill_fragment`,
`load_matrix_sync`, `store_matrix_sync`, `mma_sync`, `matrix_a`/`matrix_b`/`accumulator`, `row_major`/`col_major`,
`mem_row_major`/`mem_col_major`, `.x[]`, `num_elements`) under `rocwmma::` in `<rocwmma/rocwmma.hpp>`, and takes
`__half` as its f16 type, so CUDA's `half` stays as written.

- `#include <mma.h>` -> `#include <rocwmma/rocwmma.hpp>`;
- `nvcuda::wmma` -> `rocwmma` (also in `using namespace nvcuda::wmma;` and `namespace wmma = nvcuda::wmma;`);
- `wmma::` after `using namespace nvcuda;` -> `rocwmma::`, and that using-directive goes (rocWMMA has no `nvcuda`);
- `reinterpret_cast<__half2 *>(f.x)`: the address of rocWMMA's element vector (`&f.x`), where CUDA's array decays;
- `fill_fragment(f, 0.0f)`: rocWMMA deduces the fill value's type from the fragment and the value together, where
  CUDA converts the value to the fragment's element type; a literal value is converted explicitly.
Only when every fragment of the file has a rocWMMA counterpart on gfx942 (scanner.rocwmma): otherwise the file's WMMA
code stays as written, and the fragments that have none are reported (here as unconverted, in ROC139's finding).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scanner import rocwmma
from scanner.translate.tokenwalk import COMMENT, LITERAL, Span, byte_range, call_at, matching_close, text

Edit = tuple[int, int, bytes]

HEADERS = frozenset({b"mma.h", b"crt/mma.h"})
HEADER = b"rocwmma/rocwmma.hpp"
NAMESPACE = b"rocwmma"


@dataclass
class WmmaPlan:
    uses: bool = False  # the file names nvcuda or includes mma.h
    gaps: list[rocwmma.Gap] = field(default_factory=list)
    gap_offsets: list[int] = field(default_factory=list)  # byte offset of each gap's token
    edits: list[Edit] = field(default_factory=list)
    renamed: int = 0  # references converted (statistics)

    @property
    def translates(self) -> bool:
        return self.uses and not self.gaps

    def reason(self) -> str:
        return "; ".join(g.sentence() for g in self.gaps)


def plan(data: bytes, spans: list[Span], includes_mma: bool) -> WmmaPlan:
    """What translating this file's WMMA code takes, decided before the pass (the include comes first)."""
    if b"wmma" not in data and not includes_mma:
        return WmmaPlan()
    code = [i for i, s in enumerate(spans) if s[0] != COMMENT]
    words = [text(data, spans[i]).decode("utf-8", "replace") for i in code]
    uses = includes_mma or "nvcuda" in words
    out = WmmaPlan(uses=uses)
    if not uses:
        return out
    out.gaps = rocwmma.gaps(words)
    out.gap_offsets = [spans[code[g.index]][1] for g in out.gaps]
    if out.gaps:
        return out
    aliased = any(
        words[j : j + 3] == ["namespace", "wmma", "="] for j in range(len(words) - 2) if words[j] == "namespace"
    )
    fragments = _fragment_names(words)
    for j, word in enumerate(words):
        if word == "nvcuda" and words[j + 1 : j + 3] == ["::", "wmma"]:
            start, end = byte_range(spans, code[j], code[j + 2])
            out.edits.append((start, end, NAMESPACE))
            out.renamed += 1
        elif (
            word == "nvcuda" and j >= 2 and words[j - 2 : j] == ["using", "namespace"] and words[j + 1 : j + 2] == [";"]
        ):
            start, end = byte_range(spans, code[j - 2], code[j + 1])
            out.edits.append((start, end, b""))  # rocWMMA has no nvcuda: `wmma::` becomes `rocwmma::` below
            out.renamed += 1
        elif (
            word == "wmma"
            and not aliased
            and words[j + 1 : j + 2] == ["::"]
            and (j == 0 or words[j - 1] != "::")
            and words[j - 1 : j] != ["namespace"]
        ):
            _, off, length = spans[code[j]]
            out.edits.append((off, off + length, NAMESPACE))
            out.renamed += 1
        elif word == "fill_fragment" and (j >= 1 and words[j - 1] == "::" or words[j + 1 : j + 2] == ["("]):
            out.edits.extend(_fill_value(data, spans, code[j]))
        elif word == "reinterpret_cast" and words[j + 1 : j + 2] == ["<"]:
            out.edits.extend(_element_storage(data, spans, code, words, j, fragments))
    return out


def _after_template(words: list[str], j: int) -> int:
    """Index of the `>` closing the template argument list that opens at j + 1 (or len(words))."""
    depth, k = 0, j + 1
    while k < len(words):
        depth += {"<": 1, ">": -1, ">>": -2}.get(words[k], 0)
        if depth <= 0:
            break
        k += 1
    return k


def _fragment_names(words: list[str]) -> frozenset[str]:
    """The variables declared as fragments (`fragment<...> a, b[4];`)."""
    names = set()
    for j, word in enumerate(words):
        if word != "fragment" or words[j + 1 : j + 2] != ["<"]:
            continue
        k = _after_template(words, j) + 1
        while k < len(words) and words[k].isidentifier():
            names.add(words[k])
            while k + 1 < len(words) and words[k + 1] not in (",", ";", ")", "="):
                k += 1  # an array's bounds
            if words[k + 1 : k + 2] != [","]:
                break
            k += 2
    return frozenset(names)


def _element_storage(
    data: bytes, spans: list[Span], code: list[int], words: list[str], j: int, fragments: frozenset[str]
) -> list[Edit]:
    """`reinterpret_cast<__half2 *>(frag.x)` -> `reinterpret_cast<__half2 *>(&frag.x)`: CUDA's `x` is an array that
    decays to a pointer to its elements, rocWMMA's a vector object whose storage is those elements in the same
    order; the elementwise access this serves reads and writes the same elements (which element sits where in the
    matrix is unspecified on both)."""
    k = _after_template(words, j)
    if k + 2 >= len(words) or words[k + 1] != "(" or words[k + 2] not in fragments:
        return []
    close = matching_close(data, spans, code[k + 1])
    if close is None:
        return []
    last = code.index(close) if close in code else -1
    if last < k + 4 or words[last - 2 : last] != [".", "x"]:
        return []
    start = spans[code[k + 2]][1]
    return [(start, start, b"&")]


def _fill_value(data: bytes, spans: list[Span], i: int) -> list[Edit]:
    """`fill_fragment(f, 0.0f)` -> `fill_fragment(f, static_cast<...element_type>(0.0f))` when the value is a literal
    (`0`, `-1.0f`): rocWMMA's fill value must be the fragment's element type exactly."""
    call = call_at(data, spans, i)
    if call is None or len(call[2]) != 2:
        return []
    (f_first, f_last), (v_first, v_last) = call[2]
    value = [s for s in spans[v_first : v_last + 1] if s[0] != COMMENT]
    if not value or value[-1][0] != LITERAL or len(value) > 2:
        return []
    if len(value) == 2 and text(data, value[0]) not in (b"-", b"+"):
        return []
    f_start, f_end = byte_range(spans, f_first, f_last)
    v_start, v_end = byte_range(spans, v_first, v_last)
    frag = data[f_start:f_end]
    cast = b"static_cast<typename std::remove_reference_t<decltype(" + frag + b")>::element_type>("
    return [(v_start, v_start, cast), (v_end, v_end, b")")]
