"""AMD's HIP, hipBLAS, hipCUB, rocPRIM, rocThrust, rocWMMA and RCCL headers that ship with the scanner, for the clang toolchain
of the compile check (scanner.compile.clang_hip): no ROCm installation needed on the scanner's machine.

HIP comes in more than one release (HIP 7.2 and 7.14 today), so that a file is judged against the HIP of the
profile's ROCm: `choose()` takes the newest set not newer than the profile's ROCm that the clang found can build
(HIP 7.14's headers need clang 22), and says so when it has to take another.

`data/rocm-headers.tar.xz` holds them at pinned commits of ROCm's repositories, with their licences and a
SOURCES.json naming the commits and versions (scripts/vendor_rocm_headers.py builds it). On first use it is
unpacked once into a cache directory named after the archive's digest, so a new archive never meets an old tree;
the unpacking goes to a temporary directory first and is renamed into place, so two workers starting together do
not see half a tree.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

ARCHIVE = Path(__file__).parent / "data" / "rocm-headers.tar.xz"
CACHE_ENV = "ROCPORT_CACHE_DIR"


@dataclass(frozen=True)
class HipSet:
    version: tuple[int, ...]  # (7, 2, 0)
    include: Path  # holds hip/
    min_clang: int  # the oldest clang major that builds with these headers

    @property
    def label(self) -> str:
        return ".".join(map(str, self.version))


@dataclass(frozen=True)
class BundledHeaders:
    root: Path  # holds include/ (the libraries), hip-<version>/ (each HIP set), licenses/, SOURCES.json
    versions: dict  # {"hipblas": "2.4.0", "hipcub": ..., "rocprim": ..., "libraries_rocm": "6.3.0"}
    sources: tuple  # ({"repository", "commit", "folders"}, ...)
    hip_sets: tuple[HipSet, ...] = ()  # oldest first

    @property
    def include(self) -> Path:
        return self.root / "include"

    def choose(self, rocm: tuple[int, int], clang_major: int) -> tuple[HipSet, str]:
        """The HIP set to judge a profile's ROCm with, and a note when it is not that ROCm's HIP."""
        if not self.hip_sets:
            raise HeadersMissing(f"the bundled ROCm headers hold no HIP ({self.root})")
        buildable = [s for s in self.hip_sets if s.min_clang <= clang_major] or [self.hip_sets[0]]
        fitting = [s for s in self.hip_sets if s.version[:2] <= tuple(rocm)]
        wanted = fitting[-1] if fitting else self.hip_sets[0]
        chosen = max((s for s in buildable if s.version <= wanted.version), default=buildable[0], key=_by_version)
        notes = []
        if chosen is not wanted:
            notes.append(
                f"HIP {wanted.label}'s headers need clang {wanted.min_clang} or later (found clang {clang_major}); "
                f"judged with HIP {chosen.label}'s"
            )
        profile = ".".join(map(str, rocm))
        if not fitting:
            notes.append(f"no bundled HIP is as old as ROCm {profile}: judged with HIP {chosen.label}'s")
        elif fitting[-1].version[:2] != tuple(rocm) and chosen is wanted:
            notes.append(f"ROCm {profile} judged with HIP {chosen.label}'s headers, the newest bundled up to it")
        return chosen, "; ".join(notes)

    def describe(self, hip: HipSet) -> str:
        """ "HIP 7.2.0 (ROCm 7.2) headers; hipBLAS 2.4.0, hipCUB 3.3.0, rocPRIM 3.3.0 of ROCm 6.3"."""
        v = self.versions
        libraries = v.get("libraries_rocm") or hip.label
        rocwmma = f", rocWMMA {v['rocwmma']}" if "rocwmma" in v else ""  # archives before it lack it
        rccl = f", RCCL {v['rccl']}" if "rccl" in v else ""
        rocthrust = f", rocThrust {v['rocthrust']}" if "rocthrust" in v else ""
        return (
            f"HIP {hip.label} (ROCm {_minor(hip.label)}) headers; hipBLAS {v.get('hipblas', '?')}, "
            f"hipCUB {v.get('hipcub', '?')}, rocPRIM {v.get('rocprim', '?')}{rocthrust}{rocwmma}{rccl} "
            f"of ROCm {_minor(libraries)}"
        )


def _by_version(hip: HipSet) -> tuple[int, ...]:
    return hip.version


def _minor(version: str) -> str:
    return ".".join(version.split(".")[:2])


class HeadersMissing(RuntimeError):
    """The archive is not there or cannot be unpacked (the message says why)."""


def cache_root() -> Path:
    configured = os.environ.get(CACHE_ENV)
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rocport"


@functools.lru_cache(maxsize=4)
def bundled(archive: Path = ARCHIVE, cache: Path | None = None) -> BundledHeaders:
    """The unpacked headers (unpacking them on first use). Raises HeadersMissing."""
    try:
        digest = hashlib.sha256(archive.read_bytes()).hexdigest()[:16]
    except OSError as exc:
        raise HeadersMissing(f"the bundled ROCm headers are missing ({archive}: {exc.strerror})") from exc
    root = (cache or cache_root()) / f"rocm-headers-{digest}"
    if not (root / "SOURCES.json").is_file():
        _unpack(archive, root)
    manifest = json.loads((root / "SOURCES.json").read_text(encoding="utf-8"))
    hip_sets = tuple(
        sorted(
            (
                HipSet(tuple(int(p) for p in s["version"].split(".")), root / s["dir"], int(s["min_clang"]))
                for s in manifest.get("hip_sets", ())
            ),
            key=_by_version,
        )
    )
    return BundledHeaders(root, manifest.get("versions", {}), tuple(manifest.get("sources", ())), hip_sets)


def _unpack(archive: Path, root: Path) -> None:
    root.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=root.name + ".", dir=root.parent))
    try:
        with tarfile.open(archive, "r:xz") as tar:
            tar.extractall(staging, filter="data")  # no absolute paths, links out or devices, whatever it holds
        try:
            staging.rename(root)
        except OSError:
            if not (root / "SOURCES.json").is_file():  # not another worker's finished tree: a real failure
                raise
    except (OSError, tarfile.TarError) as exc:
        raise HeadersMissing(f"cannot unpack the bundled ROCm headers into {root.parent}: {exc}") from exc
    finally:
        shutil.rmtree(staging, ignore_errors=True)
