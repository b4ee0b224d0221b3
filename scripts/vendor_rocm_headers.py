"""Build scanner/compile/data/rocm-headers.tar.xz: AMD's public HIP, hipBLAS, hipCUB, rocPRIM, rocThrust, rocWMMA and RCCL
headers
at pinned commits, with their licences, for the compile check's clang toolchain (scanner.compile.headers unpacks it).

The headers come from snapshots of ROCm's repositories (git directories, e.g. the ones the `fetch` tool brings to
/work/.mirror/ROCm+hipBLAS/repo); only files under the include directories listed below are taken, plus the version
headers CMake would generate, written here from the pinned versions. Run it again to move a pin:

    python scripts/vendor_rocm_headers.py --mirrors /work/.mirror --out scanner/compile/data/rocm-headers.tar.xz \
        --mirror ROCm/rocm-systems=/work/.mirror/NautRobot+Eze-P/repo

HIP comes in two sets, so that the check answers for the profile's ROCm (scanner.compile.headers chooses):
- HIP 7.2 (ROCm 7.2, the production line): ROCm/rocm-systems at the commit that wrote HIP 7.2's changelog on the
  development branch (2025-11-19), when 7.2 was branched. No cooperative_groups::reduce (HIP 7.13 added it).
- HIP 7.14 (ROCm 7.14): the last commit before HIP's headers began calling `__builtin_amdgcn_is_invocable`
  (2026-06-29), which only AMD's own LLVM knows; these headers need clang 22 (clang 19 lacks
  `__builtin_elementwise_exp10`).
A snapshot of ROCm/rocm-systems itself may predate HIP's move into it; any clone that holds the pinned commits will
do (`--mirror` points at it: the commit is checked, not the name). The libraries' standalone repositories end with
ROCm 6.3 (they moved into ROCm/rocm-libraries, too large to fetch here), so hipBLAS, hipCUB and rocPRIM stay at their
ROCm 6.3 commits, shared by both HIP sets. rocWMMA (header-only, nvcuda::wmma's counterpart) is 1.6.0 of ROCm 6.3,
ROCm/rocWMMA at the commit that closed its 6.3 changelog (2024-10-22); rocWMMA for ROCm 7 lives in
ROCm/rocm-libraries, so 1.6 is patched to build with HIP 7 (`_rocwmma_for_hip7`, said in SOURCES.json).
RCCL (NCCL's API for ROCm) is 2.21.5 of ROCm 6.3: only its public header, rccl/rccl.h, which the script writes
from RCCL's template as its CMake does (add_rccl). rocThrust (Thrust's API over rocPRIM, header-only, keeping
Thrust's `thrust/` paths) is 3.3.0 of ROCm 6.3: ROCm/rocThrust's release-staging/rocm-rel-6.3 branch (2024-09-11;
its thrust/ is the same at the develop commit of 2024-10-21 that merged 6.3 back), every header under thrust/ (the
CUDA, TBB and OpenMP back ends too, as its package installs them), with the version header its CMake writes.
hipCUB, rocPRIM and rocThrust of ROCm 6.3 name std::chrono in headers that do not include <chrono>, which ROCm 6.3's
HIP runtime header brought and HIP 7's does not: those headers include it first (`_include_chrono`, in SOURCES.json).

Every source is MIT-licensed except hipCUB (BSD-3-Clause, from CUB), RCCL (BSD-3-Clause, from NCCL) and rocThrust
(Apache-2.0, from Thrust; its NOTICES.txt kept beside the licence); each licence is kept under licenses/.
"""

from __future__ import annotations

import argparse
import io
import json
import lzma
import re
import subprocess
import tarfile
from pathlib import Path

# HIP version, commit of ROCm/rocm-systems, the oldest clang major that builds with them
HIP_SETS = (((7, 2, 0), "78a9d9ff70", 19), ((7, 14, 0), "c63bc1c30e", 22))
HIP_FOLDERS = (("projects/hip/include/hip", "hip"), ("projects/clr/hipamd/include/hip/amd_detail", "hip/amd_detail"))
HIP_LICENCES = ("projects/hip/LICENSE.md", "projects/clr/LICENSE.md")
# repository, commit, (directory in the repository, where it goes under include/), licence file
LIBRARIES = (
    ("ROCm/hipBLAS", "27cf7beb", (("library/include", "hipblas"),), "LICENSE.md"),
    ("ROCm/hipBLAS-common", "9666c57", (("library/include", "hipblas-common"),), "LICENSE.md"),
    ("ROCm/hipCUB", "84d9c1c", (("hipcub/include/hipcub", "hipcub"),), "LICENSE.txt"),
    ("ROCm/rocPRIM", "0ce43c03", (("rocprim/include/rocprim", "rocprim"),), "LICENSE.txt"),
)
# rocWMMA 1.6.0 (ROCm 6.3), added by add_rocwmma: repository, commit, folders, licence
ROCWMMA = ("ROCm/rocWMMA", "fa7e8ee6", (("library/include/rocwmma", "rocwmma"),), "LICENSE.md")
# RCCL 2.21.5 (ROCm 6.3), added by add_rccl: NCCL's API under rccl/rccl.h, which CMake writes from src/nccl.h.in with
# the version of makefiles/version.mk (RCCL's commit that updated its changelog for 6.3's release, 2024-10-24)
RCCL = ("ROCm/rccl", "0cbce2a757", "src/nccl.h.in", "makefiles/version.mk", "LICENSE.txt")
# rocThrust 3.3.0 (ROCm 6.3), added by add_rocthrust: repository, commit, folders, licence files
ROCTHRUST = ("ROCm/rocThrust", "05c6042f", (("thrust", "thrust"),), ("LICENSE", "NOTICES.txt"))
# The libraries' ROCm release is said beside them: it is not HIP's (see above)
VERSIONS = {
    "hipblas": (2, 4, 0),
    "hipcub": (3, 3, 0),
    "rocprim": (3, 3, 0),
    "rocwmma": (1, 6, 0),
    "rocthrust": (3, 3, 0),
    "libraries_rocm": (6, 3, 0),
}

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
    "thrust/rocthrust_version.hpp": """// Written by scripts/vendor_rocm_headers.py (CMake generates it in a ROCm build).
#ifndef ROCTHRUST_VERSION_HPP_
#define ROCTHRUST_VERSION_HPP_
#define ROCTHRUST_VERSION {rocthrust[0]} * 100000 + {rocthrust[1]} * 100 + {rocthrust[2]}
#define ROCTHRUST_VERSION_MAJOR {rocthrust[0]}
#define ROCTHRUST_VERSION_MINOR {rocthrust[1]}
#define ROCTHRUST_VERSION_PATCH {rocthrust[2]}
#endif
""",
    "rocwmma/rocwmma-version.hpp": """// Written by scripts/vendor_rocm_headers.py (CMake generates it in a ROCm build).
#ifndef ROCWMMA_API_VERSION_HPP
#define ROCWMMA_API_VERSION_HPP
#include <string>
#define ROCWMMA_VERSION_MAJOR {rocwmma[0]}
#define ROCWMMA_VERSION_MINOR {rocwmma[1]}
#define ROCWMMA_VERSION_PATCH {rocwmma[2]}
inline std::string rocwmma_get_version()
{{
    return std::to_string(ROCWMMA_VERSION_MAJOR) + "." + std::to_string(ROCWMMA_VERSION_MINOR) + "."
           + std::to_string(ROCWMMA_VERSION_PATCH);
}}
#endif
""",
}
_HEADER_SUFFIXES = (".h", ".hpp", ".cuh", ".inl", ".hh")


def _git(repo: Path, *args: str) -> bytes:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True).stdout


def build(mirrors: Path, out: Path, overrides: dict[str, Path] | None = None) -> dict:
    def mirror(repository: str) -> Path:
        return (overrides or {}).get(repository) or mirrors / repository.replace("/", "+") / "repo"

    manifest = {
        "versions": {k: ".".join(map(str, v)) for k, v in VERSIONS.items()},
        "hip_sets": [],
        "sources": [],
    }
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        added: set[str] = set()

        def add(name: str, data: bytes) -> None:
            if name in added:
                return  # one licence text for both HIP sets
            added.add(name)
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(data), 0o644, 0
            tar.addfile(info, io.BytesIO(data))

        def take(repository: str, commit: str, folders, licences, prefix: str, patch=None) -> str:
            repo = mirror(repository)
            full = _git(repo, "rev-parse", f"{commit}^{{commit}}").decode().strip()
            for folder, target in folders:
                names = _git(repo, "ls-tree", "-r", "--name-only", full, folder).decode().splitlines()
                for name in sorted(names):
                    if name.endswith(_HEADER_SUFFIXES):
                        data = _git(repo, "show", f"{full}:{name}")
                        rel = f"{target}/{name[len(folder) + 1 :]}"
                        add(f"{prefix}/{rel}", patch(rel, data) if patch else data)
            for licence in licences:
                name = f"{repository.split('/')[1]}-{licence.replace('/', '-')}"
                add(f"licenses/{name}", _git(repo, "show", f"{full}:{licence}"))
            manifest["sources"].append({"repository": repository, "commit": full, "folders": [f for f, _ in folders]})
            return full

        for version, commit, min_clang in HIP_SETS:
            short = ".".join(map(str, version[:2]))
            prefix = f"hip-{short}"
            full = take("ROCm/rocm-systems", commit, HIP_FOLDERS, HIP_LICENCES, prefix)
            add(f"{prefix}/hip/hip_version.h", GENERATED["hip/hip_version.h"].format(hip=version).encode())
            manifest["hip_sets"].append(
                {"version": ".".join(map(str, version)), "dir": prefix, "commit": full, "min_clang": min_clang}
            )
        for repository, commit, folders, licence in LIBRARIES:
            take(repository, commit, folders, (licence,), "include", patch=_include_chrono)
        add_rocwmma(take)
        add_rocthrust(take)
        manifest["patched"] = {"ROCm/rocWMMA": ROCWMMA_PATCH_NOTE} | {r: CHRONO_PATCH_NOTE for r in _CHRONO_USERS}
        manifest["versions"]["rccl"] = add_rccl(take, add, mirror)
        for name, template in GENERATED.items():
            if not name.startswith("hip/"):
                add(f"include/{name}", template.format(**VERSIONS).encode())
        add("SOURCES.json", json.dumps(manifest, indent=2).encode())
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(lzma.compress(buffer.getvalue(), preset=9 | lzma.PRESET_EXTREME))
    return manifest


ROCWMMA_PATCH_NOTE = (
    "rocWMMA 1.6 reads HIP_vector_type's `data` member, which HIP 7 removed: every `X.data` reads "
    "ROCWMMA_HIP_DATA(X) instead, HIP 7's get_native_vector(X) for a HIP vector and X.data for rocWMMA's own; "
    "and the 3-wide HIP vectors of rocWMMA's non-native types (xfloat32, bfloat16, fp8) are not registered: HIP 7's "
    "operators assert a size they do not have, and no fragment uses them"
)
_THREE_WIDE = re.compile(rb"^(ROCWMMA_REGISTER_HIP_NON_NATIVE_VECTOR_TYPE\w*\([^,\n]+, 3\);)", re.MULTILINE)
_DATA = re.compile(rb"((?:reinterpret_cast<[^<>;]*>)?\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)|\b[A-Za-z_]\w*)\.data\b")
_DATA_SHIM = b"""
// Written by scripts/vendor_rocm_headers.py: HIP 7 removed HIP_vector_type's `data` member (rocWMMA 1.6 predates it)
namespace rocwmma { namespace hip7_compat {
template <typename T, unsigned int N>
__host__ __device__ inline auto& data(HIP_vector_type<T, N>& v) { return ::get_native_vector(v); }
template <typename T, unsigned int N>
__host__ __device__ inline auto const& data(HIP_vector_type<T, N> const& v) { return ::get_native_vector(v); }
template <typename V>
__host__ __device__ inline auto& data(V& v) { return v.data; }
}}
#define ROCWMMA_HIP_DATA(x) (::rocwmma::hip7_compat::data(x))
"""


def _rocwmma_for_hip7(rel: str, data: bytes) -> bytes:
    """rocWMMA 1.6 against HIP 7's headers (ROCWMMA_PATCH_NOTE); with `_include_chrono`, the only changes to vendored files."""
    data = _DATA.sub(rb"ROCWMMA_HIP_DATA(\1)", data)
    if rel == "rocwmma/internal/vector.hpp":
        data = _THREE_WIDE.sub(rb"// (HIP 7: not registered) \1", data)
    if rel == "rocwmma/internal/types.hpp":
        at = data.index(b"namespace rocwmma")
        data = data[:at] + _DATA_SHIM + data[at:]
    return data


def add_rocwmma(take) -> None:
    """rocWMMA's headers under include/rocwmma/ (its version header is among GENERATED), made to build with HIP 7
    (`_rocwmma_for_hip7`), so that a kernel the translator took from nvcuda::wmma to rocWMMA
    (scanner.translate.wmma) compiles in the check."""
    repository, commit, folders, licence = ROCWMMA
    take(repository, commit, folders, (licence,), "include", patch=_rocwmma_for_hip7)


CHRONO_PATCH_NOTE = (
    "a header that names std::chrono without including <chrono> (ROCm 6.3's HIP runtime header brought it, HIP 7's "
    "does not) includes it first"
)
_CHRONO_USERS = ("ROCm/hipCUB", "ROCm/rocPRIM", "ROCm/rocThrust")
_CHRONO_INCLUDE = re.compile(rb"^[ \t]*#[ \t]*include[ \t]*<chrono>", re.MULTILINE)
_FIRST_INCLUDE = re.compile(rb"^[ \t]*#[ \t]*include\b", re.MULTILINE)


def _include_chrono(rel: str, data: bytes) -> bytes:
    """ROCm 6.3's hipCUB, rocPRIM and rocThrust against HIP 7's headers (CHRONO_PATCH_NOTE): `#include <chrono>`
    before a header's first include when it names std::chrono and does not include it; other files unchanged."""
    if b"std::chrono" not in data or _CHRONO_INCLUDE.search(data):
        return data
    first = _FIRST_INCLUDE.search(data)
    at = first.start() if first else 0
    return (
        data[:at]
        + b"#include <chrono> // scripts/vendor_rocm_headers.py: HIP 7's runtime no longer brings it\n"
        + data[at:]
    )


def add_rocthrust(take) -> None:
    """rocThrust's headers under include/thrust/ (its version header is among GENERATED), so that a program using
    Thrust, whose `thrust/` includes the translation keeps as they are, compiles in the check."""
    repository, commit, folders, licences = ROCTHRUST
    take(repository, commit, folders, licences, "include", patch=_include_chrono)


def add_rccl(take, add, mirror) -> str:
    """RCCL's public header as include/rccl/rccl.h, the way its CMake configures it from src/nccl.h.in (the
    ${NCCL_*} of makefiles/version.mk substituted), so that a translated NCCL program (`#include <rccl/rccl.h>`,
    scanner.translate.names) compiles in the check. Returns RCCL's version ("2.21.5")."""
    repository, commit, template, version_mk, licence = RCCL
    full = take(repository, commit, ((template, "rccl"),), (licence,), "include")  # a template: no header taken
    repo = mirror(repository)
    fields = dict(re.findall(r"^(NCCL_\w+)\s*:=[ \t]*(\S*)", _git(repo, "show", f"{full}:{version_mk}").decode(), re.M))
    major, minor, patch = fields["NCCL_MAJOR"], fields["NCCL_MINOR"], fields["NCCL_PATCH"]
    # CMakeLists.txt: NCCL_VERSION is MAJOR MINOR PATCH run together, PATCH on two digits
    fields["NCCL_VERSION"] = f"{major}{minor}{int(patch):02d}"
    fields.setdefault("NCCL_SUFFIX", "")
    text = _git(repo, "show", f"{full}:{template}").decode()
    header = re.sub(r"\$\{(NCCL_\w+)\}", lambda m: fields[m.group(1)], text)
    if "${" in header:
        raise SystemExit(f"{template} at {full[:10]} has a substitution add_rccl does not know")
    banner = f"// Written by scripts/vendor_rocm_headers.py from {template} (CMake configures it in a ROCm build).\n"
    add("include/rccl/rccl.h", (banner + header).encode())
    return f"{major}.{minor}.{patch}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--out", type=Path, default=Path("scanner/compile/data/rocm-headers.tar.xz"))
    parser.add_argument(
        "--mirror",
        action="append",
        default=[],
        metavar="OWNER/NAME=PATH",
        help="a git directory holding a repository's pinned commit, where it is not under --mirrors",
    )
    args = parser.parse_args()
    overrides = {name: Path(path) for name, _, path in (m.partition("=") for m in args.mirror)}
    manifest = build(args.mirrors, args.out, overrides)
    print(
        f"{args.out}: {args.out.stat().st_size:,} bytes; "
        + ", ".join(f"{s['repository']}@{s['commit'][:10]}" for s in manifest["sources"])
    )


if __name__ == "__main__":
    main()
