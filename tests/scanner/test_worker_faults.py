"""libclang is native code: a crash or a hang in one file costs that file, never the scan.

The fault is injected in the real worker process at the named point "pool.file" (scanner/faultpoints.py, a hook
installed by tests/faults/points.py through the worker's PYTHONPATH): the worker really dies by SIGSEGV or really
hangs, and the real pool must kill, replace and carry on.
"""

from __future__ import annotations

from scanner import ScanOptions, scan
from scanner.model import ParseMode
from tests.faults.points import FaultPlan


def make_tree(tmp_path):
    tmp_path.mkdir()
    for name in ("a.cu", "b.cu", "c.cu", "d.cu"):
        (tmp_path / name).write_text("__global__ void k(int *o) { o[threadIdx.x % 32] = warpSize; }\n")
    return tmp_path


def in_workers(tmp_path, monkeypatch, action: str, path: str) -> None:
    """The scanner's worker processes started by this test `action` (crash, hang) at `path`, every time."""
    faults = FaultPlan(tmp_path / "faults")
    faults.add("pool.file", action, once=False, path=path)
    for key, value in faults.env().items():
        monkeypatch.setenv(key, value)


def test_a_crashing_file_gets_an_error_result_and_the_scan_goes_on(tmp_path, monkeypatch):
    in_workers(tmp_path, monkeypatch, "crash", "b.cu")
    results = {r.path: r for r in scan(make_tree(tmp_path / "tree"), ScanOptions(jobs=2))}
    assert sorted(results) == ["a.cu", "b.cu", "c.cu", "d.cu"]
    assert results["b.cu"].health.mode == ParseMode.ERROR
    assert "died" in results["b.cu"].error
    for name in ("a.cu", "c.cu", "d.cu"):
        assert [f.rule for f in results[name].findings] == ["ROC101"]


def test_a_hanging_file_times_out_and_the_scan_goes_on(tmp_path, monkeypatch):
    in_workers(tmp_path, monkeypatch, "hang", "c.cu")
    results = {r.path: r for r in scan(make_tree(tmp_path / "tree"), ScanOptions(jobs=1, timeout_seconds=3))}
    assert results["c.cu"].health.mode == ParseMode.ERROR
    assert "timed out after 3s" in results["c.cu"].error
    assert [f.rule for f in results["d.cu"].findings] == ["ROC101"]
