"""The translator writes no include the file already has (issue 36, item 7: `#include <assert.h>` twice in one file):
cuda_runtime.h's C headers (`math.h`, `string.h`, `assert.h`) leave out those the file includes in any spelling,
and a header rewritten to one the file includes is removed; an include that is not always seen where ours would be
(another `#if` branch, after code) does not count, so nothing a file needs is lost."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from tests.scanner.translate.helpers import body, hipify

FIXTURE = Path(__file__).parents[1] / "fixtures" / "translate" / "common_includes_c_headers.cuh"
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"]+)[>"]', re.MULTILINE)
_SPELLING = {"cassert": "assert.h", "cstring": "string.h"}


def unconditional_includes(text: str) -> Counter:
    """Each header's includes outside `#ifdef ENABLE_CHECKS` (the include guard's block counts), by key."""
    outside = re.sub(r"#ifdef ENABLE_CHECKS.*?#endif", "", text, flags=re.DOTALL)
    return Counter(_SPELLING.get(name, name) for name in _INCLUDE.findall(outside))


def test_a_header_that_includes_assert_h_and_string_h_gets_each_once():
    source = FIXTURE.read_text()
    out = hipify(source, name="common.cuh").text
    counts = unconditional_includes(out)
    assert {h: counts[h] for h in ("hip/hip_runtime.h", "math.h", "string.h", "assert.h")} == {
        "hip/hip_runtime.h": 1,
        "math.h": 1,  # the one cuda_runtime.h brought that the file lacked
        "string.h": 1,
        "assert.h": 1,
    }, out
    assert "#include <hip/hip_runtime.h>\n#include <math.h>\n#  include   <assert.h>\n" in out
    assert '#include "string.h"\n\n#ifdef ENABLE_CHECKS\n#include <cassert>\n#endif\n' in out  # the file's own, kept
    assert "hipError_t error" in out and "hipGetErrorString(error)" in out  # the rest is translated as before


@pytest.mark.parametrize(
    "own",
    ["#include <assert.h>", "#include <cassert>", '#include "assert.h"', "#  include <assert.h>", "# include<cassert>"],
)
@pytest.mark.parametrize("before", [True, False], ids=["before", "after"])
def test_assert_h_in_any_spelling_before_or_after_is_not_added_again(own, before):
    runtime = "#include <cuda_runtime.h>"
    lines = [own, runtime] if before else [runtime, own]
    out = body("\n".join(lines) + "\nvoid f(int *p) { assert(p); cudaFree(p); }\n")
    assert out.count("assert") == 2, out  # the file's include and the call: none added
    assert "#include <math.h>\n#include <string.h>" in out


def test_a_header_rewritten_to_one_the_file_includes_is_removed_not_repeated():
    out = body("#include <hip/hip_runtime.h>\n#include <cuda_runtime.h>\nvoid f(void *p) { cudaFree(p); }\n")
    assert out.count("hip/hip_runtime.h") == 1, out
    assert out.count("#include <assert.h>") == 1 and "hipFree(p)" in out


def test_two_runtime_includes_bring_the_c_headers_once():
    out = body("#include <cuda_runtime.h>\n#include <cuda_runtime.h>\nvoid f(void *p) { cudaFree(p); }\n")
    assert Counter(_INCLUDE.findall(out)) == {"hip/hip_runtime.h": 1, "math.h": 1, "string.h": 1, "assert.h": 1}


@pytest.mark.parametrize(
    "source",
    [
        # only in another branch: not seen when DEBUG is off
        "#include <cuda_runtime.h>\n#ifdef DEBUG\n#include <assert.h>\n#endif\nvoid f(int *p) { assert(p); }\n",
        # after code that needs it: too late for that code
        "#include <cuda_runtime.h>\nvoid f(int *p) { assert(p); }\n#include <assert.h>\n",
        # only inside a comment
        "#include <cuda_runtime.h>\n/* #include <assert.h> */\nvoid f(int *p) { assert(p); }\n",
    ],
    ids=["other-branch", "after-code", "comment"],
)
def test_an_include_not_always_seen_there_does_not_count(source):
    out = body(source)
    assert "#include <hip/hip_runtime.h>\n#include <math.h>\n#include <string.h>\n#include <assert.h>\n" in out


def test_cmath_does_not_stand_for_math_h():
    """libstdc++'s <cmath> undefines C's isfinite macro: host code calling isfinite(x) still needs <math.h>."""
    out = body("#include <cmath>\n#include <cuda_runtime.h>\nbool f(float v) { return isfinite(v); }\n")
    assert "#include <hip/hip_runtime.h>\n#include <math.h>\n" in out
