"""A system MPI's headers are used when the machine has one (scanner.compile.system_libraries), found through its
`mpicc` wrapper (Open MPI's `--showme:incdirs`, MPICH's `-show`); without one, `mpi.h` is stubbed as environment."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from scanner import ScanOptions, scan
from scanner.compile import system_libraries
from scanner.target import TargetProfile
from tests.tools import needs

MPI_H = "#pragma once\ntypedef int MPI_Comm;\n#define MPI_COMM_WORLD 0\nint MPI_Comm_rank(MPI_Comm, int*);\n"
PROGRAM = (
    "#include <mpi.h>\n#include <cuda_runtime.h>\n"
    "__global__ void mark(int* p, int rank) { p[threadIdx.x] = rank; }\n"
    "void run(int* p) { int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank); mark<<<1, 32>>>(p, rank); }\n"
)


def _fake_mpicc(bin_dir: Path, output: str) -> None:
    bin_dir.mkdir()
    (bin_dir / "shown.txt").write_text(output + "\n")
    script = bin_dir / "mpicc"
    script.write_text(f"#!/bin/sh\ncat '{bin_dir / 'shown.txt'}'\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)


@pytest.fixture
def fresh_probe():
    system_libraries.mpi_include_dirs.cache_clear()
    yield
    system_libraries.mpi_include_dirs.cache_clear()


@pytest.mark.parametrize("style", ["openmpi", "mpich"])
def test_the_wrappers_directories_holding_mpi_h_are_found(tmp_path, monkeypatch, fresh_probe, style):
    include = tmp_path / "mpi include"
    include.mkdir()
    (include / "mpi.h").write_text(MPI_H)
    output = f"'{include}' /nonexistent" if style == "openmpi" else f"gcc -I'{include}' -I/nonexistent -lmpi"
    _fake_mpicc(tmp_path / "bin", output)
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    assert system_libraries.mpi_include_dirs() == (str(include),)


def test_without_an_mpi_there_is_nothing_to_add(tmp_path, monkeypatch, fresh_probe):
    monkeypatch.setenv("PATH", str(tmp_path))
    assert system_libraries.mpi_include_dirs() == ()


@needs("hip-clang")
def test_an_mpi_program_compiles_against_the_machines_mpi(tmp_path, monkeypatch, fresh_probe):
    include = tmp_path / "mpi"
    include.mkdir()
    (include / "mpi.h").write_text(MPI_H)
    _fake_mpicc(tmp_path / "bin", str(include))
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "ranks.cu").write_text(PROGRAM)
    options = ScanOptions(compile_check=True, hip_compiler="clang", translate=True, target=TargetProfile(("gfx942",)))
    [check] = [r.compile for r in scan(repo, options) if r.path == "ranks.cu"]
    assert check["status"] == "compiles" and check["stubbed"] == [], check
