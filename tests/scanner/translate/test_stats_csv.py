"""Statistics in hipify-clang's CSV layout (../shared/hipify/STATS.md), written and read back."""

from __future__ import annotations

from scanner.translate import stats_csv
from tests.scanner.translate.helpers import hipify

# A block in the documented layout: converted refs only, so the unconverted group is omitted.
HIPIFY_SAMPLE = """
file 'intro.cu' statistics:
CONVERTED refs count;40
UNCONVERTED refs count;0
CONVERSION %;100.0
REPLACED bytes;604
TOTAL bytes;5794
CHANGED lines of code;34
TOTAL lines of code;174
CODE CHANGED (in bytes) %;10.4
CODE CHANGED (in lines) %;19.5
TIME ELAPSED s;0.41

CUDA ref type;Count
error;2
device;2
memory;16
event;9
thread;1
include_cuda_main_header;1
type;2
numeric_literal;7

CUDA API;Count
CUDA Driver API;1
CUDA RT API;39

CUDA ref name;Count
cuda.h;1
cudaMalloc;16
cudaEventCreate;9
"""


def test_a_hipify_clang_block_is_parsed():
    [(name, stats, failed)] = stats_csv.parse(HIPIFY_SAMPLE)
    assert name == "intro.cu" and not failed
    assert stats.converted == 40 and stats.unconverted == 0
    assert stats.converted_by_api == {"CUDA Driver API": 1, "CUDA RT API": 39}
    assert stats.replaced_bytes == 604 and stats.changed_lines == 34 and stats.total_lines == 174


def test_an_unconverted_only_block_goes_to_the_unconverted_counters():
    text = HIPIFY_SAMPLE.replace("CONVERTED refs count;40", "CONVERTED refs count;0").replace(
        "UNCONVERTED refs count;0", "UNCONVERTED refs count;40"
    )
    [(_, stats, _)] = stats_csv.parse(text)
    assert stats.converted == 0 and stats.unconverted == 40


def test_a_failed_hipification_is_flagged():
    text = HIPIFY_SAMPLE.replace("statistics:\n", "statistics:\n\n" + stats_csv.ERROR_LINE + "\n\n", 1)
    [(_, _, failed)] = stats_csv.parse(text)
    assert failed


def test_our_statistics_are_written_in_hipify_layout_and_read_back():
    a = hipify("#include <cuda_runtime.h>\nvoid f(float **p) { cudaMalloc(p, 4); }\n", name="a.cu")
    b = hipify("void g() { auto x = cudaErrorNvlinkUncorrectable; cudaFree(0); }\n", name="b.cu")
    text = stats_csv.write([("a.cu", a.stats, False), ("b.cu", b.stats, False)])
    lines = text.splitlines()
    assert lines[1] == "file 'a.cu' statistics:"
    assert lines[2:4] == ["CONVERTED refs count;2", "UNCONVERTED refs count;0"]
    assert "file 'GLOBAL' statistics:" in lines
    assert lines[-3:] == ["TOTAL statistics:", "CONVERTED files;2", "PROCESSED files;2"]
    assert lines.count("CUDA ref type;Count") == 1 + 2 + 2  # a: converted; b: both groups; GLOBAL: both
    parsed = {name: stats for name, stats, _ in stats_csv.parse(text)}
    assert parsed["b.cu"].unconverted_by_name == b.stats.unconverted_by_name
    assert parsed["a.cu"].converted_by_type == a.stats.converted_by_type
