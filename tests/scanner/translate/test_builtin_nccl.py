"""NCCL to RCCL, which HIPIFY's table leaves out: RCCL keeps NCCL's API (`nccl*` names, `ncclComm_t`,
`NCCL_VERSION_CODE`) under its own header, so the translator rewrites the include and renames nothing of NCCL's."""

from __future__ import annotations

from pathlib import Path

import pytest

from scanner.rules.codes import CODES
from tests.scanner.helpers import analyze_text
from tests.scanner.translate.helpers import body, hipify

FIXTURES = Path(__file__).parents[1] / "fixtures" / "translate"


def test_an_nccl_program_matches_its_snapshot():
    source = (FIXTURES / "nccl_allreduce.cu").read_text()
    assert hipify(source, name="nccl_allreduce.cu").text == (FIXTURES / "nccl_allreduce.hip").read_text()


@pytest.mark.parametrize(
    ("line", "expected"), [("#include <nccl.h>", "<rccl/rccl.h>"), ('#include "nccl.h"', '"rccl/rccl.h"')]
)
def test_the_nccl_header_becomes_rccls_in_either_spelling(line, expected):
    out = body(f"{line}\nvoid f(ncclComm_t c) {{ ncclCommDestroy(c); }}\n")
    assert out == f"#include {expected}\nvoid f(ncclComm_t c) {{ ncclCommDestroy(c); }}\n"


def test_nccl_names_are_kept_and_counted_neither_way():
    stats = hipify("#include <nccl.h>\nint v = NCCL_VERSION_CODE; ncclUniqueId id; ncclComm_t c;\n").stats
    assert stats.converted_by_api == {"NCCL API": 1} and stats.converted_by_name == {"nccl.h": 1}
    assert stats.unconverted == 0  # RCCL has every nccl* name: nothing is left for a person


def test_roc133_still_names_rccl_as_the_counterpart_the_translation_includes(tmp_path):
    assert CODES["ROC133"] == "libraries.nccl_usage"
    findings = analyze_text(
        tmp_path, "#include <nccl.h>\nvoid f(ncclComm_t c) { ncclCommDestroy(c); }\n", codes=["ROC133"]
    )
    assert findings.findings and all("rccl/rccl.h" in f.message for f in findings.findings)


def test_roc133_is_quiet_on_the_translation_which_is_rccl_code(tmp_path):
    ported = (FIXTURES / "nccl_allreduce.hip").read_text()
    assert analyze_text(tmp_path, ported, name="allreduce.hip", codes=["ROC133"]).findings == []
