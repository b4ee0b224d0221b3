"""AMD's HIP, hipBLAS, hipCUB and rocPRIM headers that ship with the scanner, for the clang toolchain of the compile
check (scanner.compile.clang_hip): no ROCm installation needed on the scanner's machine.

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
class BundledHeaders:
    root: Path  # holds include/, licenses/, SOURCES.json
    versions: dict  # {"hip": "6.3.0", "hipblas": ..., "hipcub": ..., "rocprim": ...}
    sources: tuple  # ({"repository", "commit", "folders"}, ...)

    @property
    def include(self) -> Path:
        return self.root / "include"

    def describe(self) -> str:
        """ "ROCm 6.3 headers (HIP 6.3.0, hipBLAS 2.4.0, hipCUB 3.3.0, rocPRIM 3.3.0)"."""
        v = self.versions
        hip = v.get("hip", "?")
        return (
            f"ROCm {'.'.join(hip.split('.')[:2])} headers (HIP {hip}, hipBLAS {v.get('hipblas', '?')}, "
            f"hipCUB {v.get('hipcub', '?')}, rocPRIM {v.get('rocprim', '?')})"
        )


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
    return BundledHeaders(root, manifest.get("versions", {}), tuple(manifest.get("sources", ())))


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
