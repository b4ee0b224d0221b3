"""A translated NCCL program builds against RCCL's header, which ships with the scanner (rccl/rccl.h, written by
scripts/vendor_rocm_headers.py from RCCL's template): the translator includes it for nccl.h and keeps every nccl* name.
Skipped without clang-19/lld-19 on a developer's machine; CI installs them."""

from __future__ import annotations

import textwrap
from pathlib import Path

from scanner import ScanOptions, scan
from scanner.compile.headers import bundled
from tests.tools import needs

pytestmark = needs("hip-clang")

# NCCL's API as a program uses it: the version macros, a communicator, a collective on the runtime's stream.
PROGRAM = """
    #include "nccl.h"
    #include <cuda_runtime.h>
    #include <stdio.h>
    #define NCCLCHECK(cmd) do { ncclResult_t r = cmd; if (r != ncclSuccess) return (int)r; } while (0)

    __global__ void fill(float* x) { x[threadIdx.x] = 1.0f; }

    int main() {
    #if NCCL_VERSION_CODE >= NCCL_VERSION(2, 10, 0)
        ncclDataType_t type = ncclBfloat16;
    #else
        ncclDataType_t type = ncclFloat;
    #endif
        ncclUniqueId id;
        ncclComm_t comm;
        cudaStream_t stream;
        float* buf;
        NCCLCHECK(ncclGetUniqueId(&id));
        NCCLCHECK(ncclCommInitRank(&comm, 1, id, 0));
        cudaStreamCreate(&stream);
        cudaMalloc(&buf, 32 * sizeof(float));
        fill<<<1, 32, 0, stream>>>(buf);
        NCCLCHECK(ncclAllReduce(buf, buf, 32, ncclFloat, ncclSum, comm, stream));
        printf("NCCL %d.%d, %d\\n", NCCL_MAJOR, NCCL_MINOR, (int)type);
        return (int)ncclCommDestroy(comm);
    }
"""


def _check(root: Path, text: str) -> dict:
    (root / "allreduce.cu").write_text(textwrap.dedent(text))
    results = scan(root, ScanOptions(compile_check=True, hip_compiler="clang", translate=True))
    return next(r.compile for r in results if r.path == "allreduce.cu")


def test_rcclh_is_bundled_with_the_version_of_its_pinned_commit():
    headers = bundled()
    text = (headers.include / "rccl" / "rccl.h").read_text()
    version = headers.versions["rccl"]
    major, minor, patch = (int(p) for p in version.split("."))
    assert f"#define NCCL_MAJOR {major}\n" in text and f"#define NCCL_MINOR {minor}\n" in text
    assert f"#define NCCL_VERSION_CODE {major * 10000 + minor * 100 + patch}\n" in text and "${" not in text
    assert (headers.root / "licenses" / "rccl-LICENSE.txt").is_file()
    assert any(s["repository"] == "ROCm/rccl" for s in headers.sources)


def test_a_translated_nccl_program_builds_against_rccl(tmp_path):
    check = _check(tmp_path, PROGRAM)
    assert check["status"] == "compiles", check
    assert check["stubbed"] == [] and check["diagnostics"] == []
    assert "RCCL 2.21.5" in check["compiler"]


def test_an_nccl_name_rccl_lacks_is_the_codes_error_not_a_missing_header(tmp_path):
    # the header is found: what remains is an ordinary undeclared name, never "an NVIDIA header" stubbed
    check = _check(tmp_path, PROGRAM.replace("ncclCommDestroy(", "ncclCommDestroyEverything("))
    assert check["status"] == "fails", check
    assert check["stubbed"] == []
    assert "missing-header" not in {d["kind"] for d in check["diagnostics"]}
    assert any("ncclCommDestroyEverything" in d["message"] for d in check["diagnostics"])
