"""Rewrites that depend on a call's arguments, from HIPIFY's own table (scanner/data/hipify_arg_casts.tsv): casts,
arguments added, removed, replaced or copied where HIP's (or rocSPARSE's) signature differs, each only for the
names it was written for (hip* or roc*)."""

from __future__ import annotations

import pytest

from scanner.translate import calls
from tests.scanner.translate.helpers import body


@pytest.mark.parametrize(
    ("cuda", "hip", "options"),
    [
        # an argument HIP wants spelled out
        ("cudaMallocHost(&p, n);", "hipHostMalloc(&p, n, hipHostMallocDefault);", {}),
        # a kernel passed as a function pointer
        (
            "cudaLaunchKernel(func, grid, block, args, 0, s);",
            "hipLaunchKernel(reinterpret_cast<const void*>(func), grid, block, args, 0, s);",
            {},
        ),
        # a callback argument the HIP call does not take
        (
            "cuOccupancyMaxPotentialBlockSize(&g, &b, f, toSmem, 0, 256);",
            "hipModuleOccupancyMaxPotentialBlockSize(&g, &b, f, 0, 256);",
            {},
        ),
        # rocSPARSE's ilu0 decides the solve policy itself; its analysis takes one more policy
        (
            "cusparseDcsrilu02(h, m, nnz, d, v, r, c, info, policy, buf);",
            "rocsparse_dcsrilu0(h, m, nnz, d, v, r, c, info, rocsparse_solve_policy_auto, buf);",
            {"roc": True},
        ),
        (
            "cusparseDcsrilu02_analysis(h, m, nnz, d, v, r, c, info, policy, buf);",
            "rocsparse_dcsrilu0_analysis(h, m, nnz, d, v, r, c, info, rocsparse_analysis_policy_force, "
            "rocsparse_solve_policy_auto, buf);",
            {"roc": True},
        ),
        (
            "cusparseDcsrilu02_bufferSize(h, m, nnz, d, v, r, c, info, &bytes);",
            "rocsparse_dcsrilu0_buffer_size(h, m, nnz, d, v, r, c, info, reinterpret_cast<size_t*>(&bytes));",
            {"roc": True},
        ),
        # the hipSPARSE translation keeps cuSPARSE's argument list
        (
            "cusparseDcsrilu02(h, m, nnz, d, v, r, c, info, policy, buf);",
            "hipsparseDcsrilu02(h, m, nnz, d, v, r, c, info, policy, buf);",
            {},
        ),
        # the symbol wrap and the overload by argument count, as before
        ("cudaMemcpyToSymbol(coef, h, 16);", "hipMemcpyToSymbol(HIP_SYMBOL(coef), h, 16);", {}),
        ("cudaEventCreate(&e, flags);", "hipEventCreateWithFlags(&e, flags);", {}),
    ],
)
def test_a_call_gets_the_argument_rewrite_of_its_target(cuda, hip, options):
    assert body(cuda + "\n", **options).strip() == hip


def test_a_rewrite_already_done_is_not_done_twice():
    once = "hipLaunchKernel(reinterpret_cast<const void*>(func), grid, block, args, 0, s);"
    assert body("cudaLaunchKernel(reinterpret_cast<const void*>(func), grid, block, args, 0, s);\n").strip() == once


def test_the_table_is_hipifys_with_its_commit_and_its_miopen_rows_for_roc_names():
    table = calls.rewrites()
    assert (b"cudaMallocHost", False) in table and (b"cusparseScsrilu02", True) in table
    assert all(r.kind for rows in table.values() for r in rows)
    header = (calls.resources.files("scanner.data") / "hipify_arg_casts.tsv").read_text().splitlines()[0]
    assert "ROCm/HIPIFY" in header and "MIT" in header
    # cuDNN to hipDNN keeps its argument order; to MIOpen (roc names) the arguments move as MIOpen orders them
    assert (b"cudnnGetConvolutionForwardWorkspaceSize", False) not in table
    moved = body("cudnnGetConvolutionForwardWorkspaceSize(h, xD, wD, convD, yD, algo, &bytes);\n", roc=True)
    assert moved.strip() == "miopenConvolutionForwardGetWorkSpaceSize(h, wD, xD, convD, yD, &bytes);"


def test_a_template_kernel_with_several_arguments_is_cast_whole():
    """flash-fft-conv: `cudaFuncSetAttribute(&kernel<TILE_H, 1>, ...)`; the comma of the template-id is not an
    argument's, and a comparison (`a < b`) still is an argument of its own."""
    out = body("cudaFuncSetAttribute(&k<TILE_H, 1>, cudaFuncAttributeMaxDynamicSharedMemorySize, a < b);\n")
    assert out.strip() == (
        "hipFuncSetAttribute(reinterpret_cast<const void*>(&k<TILE_H, 1>), hipFuncAttributeMaxDynamicSharedMemorySize, "
        "a < b);"
    )
