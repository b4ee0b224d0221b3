"""Build scanner/compile/data/rocm-headers.tar.xz: AMD's public HIP, hipBLAS, hipCUB and rocPRIM headers at pinned
commits, with their licences, for the compile check's clang toolchain (scanner.compile.headers unpacks it).

The headers come from snapshots of ROCm's repositories (git directories, e.g. the ones the `fetch` tool brings to
/work/.mirror/ROCm+HIP/repo); only files under the include directories listed below are taken, plus the version
headers CMake would generate, written here from the pinned versions. Run it again to move the pin:

    python scripts/vendor_rocm_headers.py --mirrors /work/.mirror --out scanner/compile/data/rocm-headers.tar.xz

Every source is MIT-licensed except hipCUB (BSD-3-Clause, from CUB); each licence is kept under licenses/.
"""

from __future__ import annotations

import argparse
import io
import json
import lzma
import subprocess
import tarfile
from pathlib import Path

# repository, commit, (directory in the repository, where it goes under include/), licence file
SOURCES = (
    ("ROCm/HIP", "c5e11fcac", (("include/hip", "hip"),), "LICENSE.txt"),
    ("ROCm/clr", "f9f995c6d", (("hipamd/include/hip/amd_detail", "hip/amd_detail"),), "LICENCE"),
    ("ROCm/hipBLAS", "27cf7beb", (("library/include", "hipblas"),), "LICENSE.md"),
    ("ROCm/hipBLAS-common", "9666c57", (("library/include", "hipblas-common"),), "LICENSE.md"),
    ("ROCm/hipCUB", "84d9c1c", (("hipcub/include/hipcub", "hipcub"),), "LICENSE.txt"),
    ("ROCm/rocPRIM", "0ce43c03", (("rocprim/include/rocprim", "rocprim"),), "LICENSE.txt"),
)
VERSIONS = {"hip": (6, 3, 0), "hipblas": (2, 4, 0), "hipcub": (3, 3, 0), "rocprim": (3, 3, 0)}

GENERATED = {
    "hip/hip_version.h": """// Written by scripts/vendor_rocm_headers.py (CMake generates it in a ROCm build).
#pragma once
#define HIP_VERSION_MAJOR {hip[0]}
#define HIP_VERSION_MINOR {hip[1]}
#define HIP_VERSION_PATCH {hip[2]}
#define HIP_VERSION_GITHASH ""
#define HIP_VERSION_BUILD_ID 0
#define HIP_VERSION_BUILD_NAME ""
#define HIP_VERSION (HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 + HIP_VERSION_PATCH)
""",
    "hipblas/hipblas-version.h": """// Written by scripts/vendor_rocm_headers.py (CMake generates it in a ROCm build).
#ifndef HIPBLAS_VERSION_H
#define HIPBLAS_VERSION_H
#define hipblasVersionMajor {hipblas[0]}
#define hipblaseVersionMinor {hipblas[1]}
#define hipblasVersionMinor {hipblas[1]}
#define hipblasVersionPatch {hipblas[2]}
#define hipblasVersionTweak 0
#endif
""",
    "hipblas/hipblas-export.h": """// Written by scripts/vendor_rocm_headers.py (CMake's generate_export_header in a ROCm build).
#ifndef HIPBLAS_EXPORT_H
#define HIPBLAS_EXPORT_H
#define HIPBLAS_EXPORT
#define HIPBLAS_NO_EXPORT
#define HIPBLAS_DEPRECATED __attribute__((__deprecated__))
#define HIPBLAS_DEPRECATED_EXPORT HIPBLAS_EXPORT HIPBLAS_DEPRECATED
#endif
""",
    "hipcub/hipcub_version.hpp": """// Written by scripts/vendor_rocm_headers.py (CMake generates it in a ROCm build).
#ifndef HIPCUB_VERSION_HPP_
#define HIPCUB_VERSION_HPP_
#define HIPCUB_VERSION {hipcub[0]} * 100000 + {hipcub[1]} * 100 + {hipcub[2]}
#define HIPCUB_VERSION_MAJOR {hipcub[0]}
#define HIPCUB_VERSION_MINOR {hipcub[1]}
#define HIPCUB_VERSION_PATCH {hipcub[2]}
#endif
""",
    "rocprim/rocprim_version.hpp": """// Written by scripts/vendor_rocm_headers.py (CMake generates it in a ROCm build).
#ifndef ROCPRIM_VERSION_HPP_
#define ROCPRIM_VERSION_HPP_
#define ROCPRIM_VERSION {rocprim[0]} * 100000 + {rocprim[1]} * 100 + {rocprim[2]}
#define ROCPRIM_VERSION_MAJOR {rocprim[0]}
#define ROCPRIM_VERSION_MINOR {rocprim[1]}
#define ROCPRIM_VERSION_PATCH {rocprim[2]}
#endif
""",
}
_HEADER_SUFFIXES = (".h", ".hpp", ".cuh", ".inl", ".hh")


def _git(repo: Path, *args: str) -> bytes:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True).stdout


def build(mirrors: Path, out: Path) -> dict:
    manifest = {"versions": {k: ".".join(map(str, v)) for k, v in VERSIONS.items()}, "sources": []}
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:

        def add(name: str, data: bytes) -> None:
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(data), 0o644, 0
            tar.addfile(info, io.BytesIO(data))

        for repository, commit, folders, licence in SOURCES:
            repo = mirrors / repository.replace("/", "+") / "repo"
            full = _git(repo, "rev-parse", f"{commit}^{{commit}}").decode().strip()
            for folder, target in folders:
                names = _git(repo, "ls-tree", "-r", "--name-only", full, folder).decode().splitlines()
                for name in sorted(names):
                    if name.endswith(_HEADER_SUFFIXES):
                        add(f"include/{target}/{name[len(folder) + 1 :]}", _git(repo, "show", f"{full}:{name}"))
            add(f"licenses/{repository.split('/')[1]}-{licence}", _git(repo, "show", f"{full}:{licence}"))
            manifest["sources"].append({"repository": repository, "commit": full, "folders": [f for f, _ in folders]})
        for name, template in GENERATED.items():
            add(f"include/{name}", template.format(**VERSIONS).encode())
        add("SOURCES.json", json.dumps(manifest, indent=2).encode())
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(lzma.compress(buffer.getvalue(), preset=9 | lzma.PRESET_EXTREME))
    return manifest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--out", type=Path, default=Path("scanner/compile/data/rocm-headers.tar.xz"))
    args = parser.parse_args()
    manifest = build(args.mirrors, args.out)
    print(
        f"{args.out}: {args.out.stat().st_size:,} bytes; "
        + ", ".join(f"{s['repository']}@{s['commit'][:10]}" for s in manifest["sources"])
    )


if __name__ == "__main__":
    main()
