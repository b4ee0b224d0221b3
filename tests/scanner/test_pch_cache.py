"""The prelude's precompiled headers are kept across processes (scanner.parsing.clang_unit.pch_cache_dir): a new
parser reads the one an earlier parser wrote, a damaged file is made again, and a change of what goes into the
header gives another file, never a stale one."""

from __future__ import annotations

import os

from scanner.model import ParseMode
from scanner.parsing.clang_unit import Parser

KERNEL = "__global__ void k(float *x) { x[threadIdx.x] = __shfl_xor_sync(0xffffffff, 1.0f, 16); }\n"


def _parse(tmp_path):
    source = tmp_path / "k.cu"
    source.write_text(KERNEL)
    return Parser().parse(str(source), KERNEL, "cuda")


def test_a_second_parser_reads_the_cached_pch_and_a_damaged_one_is_made_again(tmp_path, monkeypatch):
    monkeypatch.setenv("ROCPORT_CACHE_DIR", str(tmp_path / "cache"))
    first = _parse(tmp_path)
    assert first.mode == ParseMode.AST and not first.errors
    [pch] = list((tmp_path / "cache" / "pch").glob("prelude-*.pch"))
    written = pch.stat().st_mtime_ns
    again = _parse(tmp_path)  # a new Parser, as a new worker process makes
    assert again.mode == ParseMode.AST and not again.errors
    assert pch.stat().st_mtime_ns == written  # read, not made again
    assert oct(os.stat(pch.parent).st_mode & 0o777) == "0o700"
    pch.write_bytes(b"not a precompiled header")
    third = _parse(tmp_path)
    assert third.mode == ParseMode.AST and not third.errors
    assert pch.read_bytes()[:4] != b"not "  # replaced by a good one


def test_other_arguments_get_another_pch(tmp_path, monkeypatch):
    monkeypatch.setenv("ROCPORT_CACHE_DIR", str(tmp_path / "cache"))
    _parse(tmp_path)
    source = tmp_path / "k.cu"
    Parser().parse(str(source), KERNEL, "cuda", file_args=())  # same configuration: same file
    from scanner.parsing.clang_unit import ParseSettings

    Parser(ParseSettings(defines=("ROCPORT_TEST=1",))).parse(str(source), KERNEL, "cuda")
    assert len(list((tmp_path / "cache" / "pch").glob("prelude-*.pch"))) == 2
