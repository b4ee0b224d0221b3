"""CUB's own headers (`cub/block/block_load.cuh`) translate to hipCUB's twins, which the scanner ships: the list the
translator maps by (scanner/data/hipcub_headers.txt) names only headers the bundled hipCUB has, and a kernel using
them builds. Skipped without clang-19/lld-19 on a developer's machine; CI installs them."""

from __future__ import annotations

import textwrap
from pathlib import Path

from scanner import ScanOptions, scan
from scanner.compile.headers import bundled
from scanner.translate.names import header_map
from tests.tools import needs

pytestmark = needs("hip-clang")

KERNEL = """
    #include <cub/block/block_load.cuh>
    #include <cub/block/block_store.cuh>
    #include <cub/block/block_reduce.cuh>

    template <int THREADS, int ITEMS>
    __global__ void scale(const float* in, float* out, float* sum) {
        typedef cub::BlockLoad<float, THREADS, ITEMS, cub::BLOCK_LOAD_WARP_TRANSPOSE> Load;
        typedef cub::BlockStore<float, THREADS, ITEMS, cub::BLOCK_STORE_WARP_TRANSPOSE> Store;
        typedef cub::BlockReduce<float, THREADS> Reduce;
        __shared__ union { typename Load::TempStorage load; typename Store::TempStorage store;
                           typename Reduce::TempStorage reduce; } temp;
        float items[ITEMS];
        Load(temp.load).Load(in, items);
        __syncthreads();
        float total = Reduce(temp.reduce).Sum(items);
        __syncthreads();
        Store(temp.store).Store(out, items);
        if (threadIdx.x == 0) *sum = total;
    }

    template __global__ void scale<128, 4>(const float*, float*, float*);
"""


def test_every_mapped_header_is_in_the_bundled_hipcub(tmp_path):
    include = bundled(cache=tmp_path).include
    mapped = [t.replacement.decode() for name, t in header_map(False).items() if name.startswith("cub/")]
    assert len(mapped) > 50
    assert [m for m in mapped if not (include / m).is_file()] == []


def test_a_kernel_on_cubs_block_headers_builds_once_translated(tmp_path: Path):
    (tmp_path / "k.cu").write_text(textwrap.dedent(KERNEL))
    check = next(r.compile for r in scan(tmp_path, ScanOptions(compile_check=True, hip_compiler="clang")))
    assert check["status"] == "compiles", check
    assert check["stubbed"] == [] and check["diagnostics"] == []
