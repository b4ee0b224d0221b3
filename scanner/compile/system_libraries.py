"""Headers of host libraries a user's ROCm machine has and the bundled headers leave out: a system MPI.

An MPI program's `mpi.h` is not NVIDIA's, and whoever builds it for ROCm builds it with an MPI. When this machine has
one (Open MPI's or MPICH's `mpicc` says where its headers are, else pkg-config), the check compiles against it, after
every other directory; when it has none, `mpi.h` is stubbed like any header the machine lacks (environment, said so,
never the translation's failure). Nothing here runs a shell; each probe has a short timeout.
"""

from __future__ import annotations

import functools
import os
import shlex
import shutil
import subprocess

_PROBES = (
    ("mpicc", "--showme:incdirs"),  # Open MPI: the directories, blank-separated
    ("mpicc", "-show"),  # MPICH: the compiler command it would run, with its -I flags
    ("pkg-config", "--cflags-only-I", "ompi-c"),
    ("pkg-config", "--cflags-only-I", "mpich"),
)
_TIMEOUT = 10


@functools.cache
def mpi_include_dirs() -> tuple[str, ...]:
    """The directories holding this machine's `mpi.h`, or () when it has no MPI."""
    for probe in _PROBES:
        if shutil.which(probe[0]) is None:
            continue
        try:
            proc = subprocess.run(probe, capture_output=True, text=True, timeout=_TIMEOUT, errors="replace")
        except (OSError, subprocess.SubprocessError):
            continue
        if proc.returncode != 0:
            continue
        dirs = _directories(proc.stdout, plain=probe[1] == "--showme:incdirs")
        found = tuple(d for d in dirs if os.path.isfile(os.path.join(d, "mpi.h")))
        if found:
            return found
    return ()


def _directories(output: str, plain: bool) -> list[str]:
    try:
        words = shlex.split(output)
    except ValueError:
        return []
    if plain:
        return [w for w in words if os.path.isabs(w)]
    return [w[2:] for w in words if w.startswith("-I") and os.path.isabs(w[2:])]
