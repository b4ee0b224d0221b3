"""ROC106's documentation of CUDA's warp reductions (`__reduce_*_sync`) read back from the HIP headers the scanner
ships (scanner/compile/data/rocm-headers.tar.xz, unpacked by scanner.compile.headers): the overloads the doc names,
the release it names and the mask it describes are what every bundled HIP declares, so the doc cannot drift from
the headers (it once said HIP had no `__reduce_*_sync` at all, while HIP 7.2 and 7.14 declare all six). Then the
rule does what the doc says, for a target before and after that release."""

from __future__ import annotations

import re

import pytest

from scanner.compile.headers import bundled
from scanner.rules import catalogue
from scanner.rules.docs import parse_sections
from scanner.rules.warp.lane_mask_32bit import REDUCE_SYNC_SINCE
from scanner.target import TargetProfile
from tests.scanner.helpers import analyze_text

HEADER = "hip/amd_detail/amd_warp_sync_functions.h"
EXTRA = "HIP_ENABLE_EXTRA_WARP_SYNC_TYPES"  # the header's switch for the types CUDA does not have
_DECLARATION = re.compile(
    r"__device__ inline [\w ]+?\b(?P<name>__reduce_\w+_sync)\(MaskT mask, (?P<type>[\w ]+?) val\)"
)
_CONDITION = re.compile(r"^\s*#\s*(?P<directive>if|ifdef|ifndef|elif|else|endif)\b(?P<rest>.*)$")


@pytest.fixture(scope="module")
def hip_sets(tmp_path_factory):
    """(label, text of amd_warp_sync_functions.h) for every HIP set the archive holds."""
    headers = bundled(cache=tmp_path_factory.mktemp("rocm-headers"))
    assert headers.hip_sets, "the bundled archive holds no HIP"
    return [(hip, (hip.include / HEADER).read_text(encoding="utf-8")) for hip in headers.hip_sets]


def reductions(text: str) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """The `__reduce_*_sync` overloads a header declares, as {name: value types}: those it always declares, and
    those only under HIP_ENABLE_EXTRA_WARP_SYNC_TYPES (from the `#if` lines around each declaration)."""
    always: dict[str, set[str]] = {}
    extra: dict[str, set[str]] = {}
    stack: list[str] = []
    for line in text.splitlines():
        directive = _CONDITION.match(line)
        if directive:
            kind, rest = directive.group("directive"), directive.group("rest").strip()
            if kind in ("if", "ifdef", "ifndef"):
                stack.append(f"{kind} {rest}")
            elif kind == "endif":
                stack.pop()
            else:  # #else / #elif: the other branch of the same condition
                stack[-1] = f"not ({stack[-1]})"
            continue
        declared = _DECLARATION.search(line)
        if declared:
            only_extra = any(EXTRA in condition and not condition.startswith("not") for condition in stack)
            (extra if only_extra else always).setdefault(declared["name"], set()).add(declared["type"])
    return always, extra


def documented() -> tuple[str, dict[str, set[str]]]:
    """ROC106's "What it finds" and the overloads it says HIP has: "(`__reduce_add_sync`, ... on `int` and
    `unsigned int`; `__reduce_and_sync`, ... on `unsigned int`)"."""
    finds = " ".join(parse_sections(catalogue()["ROC106"].doc)["What it finds"].split())
    listed = re.search(r"with CUDA's overloads \((?P<list>[^()]*)\)", finds)
    assert listed, f"ROC106 no longer lists the overloads HIP has: {finds}"
    claimed: dict[str, set[str]] = {}
    for group in listed["list"].split(";"):
        names, _, types = group.partition(" on ")
        for name in re.findall(r"`(__reduce_\w+_sync)`", names):
            claimed[name] = set(re.findall(r"`([\w ]+)`", types))
    return finds, claimed


def test_every_bundled_hip_declares_the_overloads_roc106_names_and_no_others_by_default(hip_sets):
    _finds, claimed = documented()
    assert set(claimed) == {f"__reduce_{op}_sync" for op in ("add", "min", "max", "and", "or", "xor")}
    for hip, text in hip_sets:
        always, extra = reductions(text)
        assert always == claimed, f"HIP {hip.label}'s {HEADER}: {always}"
        assert extra, f"HIP {hip.label}: no overload behind {EXTRA} any more"  # the header's switch still exists


def test_the_release_roc106_names_is_no_later_than_every_bundled_hip(hip_sets):
    finds, _claimed = documented()
    since = ".".join(map(str, REDUCE_SYNC_SINCE))
    assert f"since ROCm {since}" in finds and f"before ROCm {since}" in finds
    for hip, text in hip_sets:
        assert hip.version[:2] >= REDUCE_SYNC_SINCE and "__reduce_add_sync" in text, hip.label
    assert "does not have" not in finds and "HIP has no" not in finds


def test_the_reductions_take_the_64_bit_mask_roc106_describes(hip_sets):
    why = " ".join(parse_sections(catalogue()["ROC106"].doc)["Why it breaks on ROCm"].split())
    quoted = re.search(r'a `static_assert` \("(?P<text>[^"]+)"\)', why)
    assert quoted, why
    for hip, text in hip_sets:
        body = text[text.index("__reduce_op_sync(MaskT mask") :]
        body = body[: body.index("__reduce_add_sync")]  # the shared implementation, before the first overload
        assert "sizeof(MaskT) == 8" in body and quoted["text"] in body, hip.label
        overloads = len(_DECLARATION.findall(text))
        assert text.count("return __reduce_op_sync(mask, val, op, wfReduce);") == overloads, hip.label


REDUCTIONS = """
__device__ int total(int v) {
  int a = __reduce_add_sync(__activemask(), v);
  int b = __reduce_max_sync(0xffffffffffffffffull, v);
  return a + b + __reduce_min_sync(0xffffffff, v);
}
"""


def _found(tmp_path, target):
    result = analyze_text(tmp_path, REDUCTIONS, codes=["ROC106"], target=target)
    return [(f.line, f.message.split(";")[0]) for f in result.findings]


def test_from_rocm_7_only_a_32_bit_mask_is_reported(tmp_path):
    assert _found(tmp_path, TargetProfile()) == [(5, "`__reduce_min_sync` gets the 32-bit full mask `0xffffffff`")]


def test_before_rocm_7_every_reduction_is_reported_whatever_its_mask(tmp_path):
    found = _found(tmp_path, TargetProfile(rocm=(6, 4)))
    assert [line for line, _ in found] == [3, 4, 5]
    assert all(message.startswith("HIP before ROCm 7.0 has no `__reduce_") for _, message in found), found
