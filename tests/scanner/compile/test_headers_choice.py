"""Which bundled HIP judges a profile's ROCm (scanner.compile.headers.BundledHeaders.choose): the newest set not
newer than the profile's ROCm that the clang found can build, with a note whenever it is not that ROCm's own HIP."""

from __future__ import annotations

from pathlib import Path

import pytest

from scanner.compile.headers import BundledHeaders, HeadersMissing, HipSet, bundled

HIP_7_2 = HipSet((7, 2, 0), Path("/h/hip-7.2"), 19)
HIP_7_14 = HipSet((7, 14, 0), Path("/h/hip-7.14"), 22)
HEADERS = BundledHeaders(Path("/h"), {"hipblas": "2.4.0", "libraries_rocm": "6.3.0"}, (), (HIP_7_2, HIP_7_14))


@pytest.mark.parametrize(
    ("rocm", "clang", "expected", "note"),
    [
        ((7, 2), 19, HIP_7_2, ""),
        ((7, 2), 22, HIP_7_2, ""),  # a newer clang does not make the check answer for a newer ROCm
        ((7, 14), 22, HIP_7_14, ""),
        ((7, 14), 19, HIP_7_2, "HIP 7.14.0's headers need clang 22 or later (found clang 19); judged with HIP 7.2.0's"),
        ((7, 6), 22, HIP_7_2, "ROCm 7.6 judged with HIP 7.2.0's headers, the newest bundled up to it"),
        ((10, 0), 22, HIP_7_14, "ROCm 10.0 judged with HIP 7.14.0's headers, the newest bundled up to it"),
        ((7, 0), 19, HIP_7_2, "no bundled HIP is as old as ROCm 7.0: judged with HIP 7.2.0's"),
    ],
)
def test_the_hip_of_the_profiles_rocm_or_a_note_saying_which(rocm, clang, expected, note):
    assert HEADERS.choose(rocm, clang) == (expected, note)


def test_the_description_names_hip_and_the_libraries_rocm_apart():
    assert HEADERS.describe(HIP_7_14) == (
        "HIP 7.14.0 (ROCm 7.14) headers; hipBLAS 2.4.0, hipCUB ?, rocPRIM ? of ROCm 6.3"
    )


def test_an_archive_without_hip_is_a_clear_error():
    with pytest.raises(HeadersMissing, match="hold no HIP"):
        BundledHeaders(Path("/h"), {}, (), ()).choose((7, 2), 22)


def test_the_shipped_archive_holds_both_sets_oldest_first(tmp_path):
    headers = bundled(cache=tmp_path)
    assert [(s.label, s.min_clang) for s in headers.hip_sets] == [("7.2.0", 19), ("7.14.0", 22)]
    assert all(s.include.is_relative_to(headers.root) for s in headers.hip_sets)
