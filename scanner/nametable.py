"""HIPIFY's CUDA -> HIP name table (scanner/data/cuda2hip.tsv, MIT, see HIPIFY-LICENSE.txt)."""

from __future__ import annotations

import csv
import functools
import re
from dataclasses import dataclass
from importlib import resources

INCLUDE_KINDS = frozenset({"include", "include_cuda_main_header", "include_cuda_main_header_v2"})

# Which API a name belongs to, by prefix: the "CUDA API" column of hipify-clang's statistics.
_API_PREFIXES: tuple[tuple[str, str], ...] = (
    ("cublas", "cuBLAS API"),
    ("CUBLAS", "cuBLAS API"),
    ("curand", "cuRAND API"),
    ("CURAND", "cuRAND API"),
    ("cudnn", "cuDNN API"),
    ("CUDNN", "cuDNN API"),
    ("cufft", "cuFFT API"),
    ("CUFFT", "cuFFT API"),
    ("cusparse", "cuSPARSE API"),
    ("CUSPARSE", "cuSPARSE API"),
    ("cusolver", "cuSOLVER API"),
    ("CUSOLVER", "cuSOLVER API"),
    ("cub::", "CUB API"),
    ("CUB_", "CUB API"),
    ("nvrtc", "RTC API"),
    ("NVRTC", "RTC API"),
    ("cuComplex", "cuComplex API"),
    ("cuCadd", "cuComplex API"),
    ("make_cu", "cuComplex API"),
    ("cuda", "CUDA RT API"),
    ("CUDA", "CUDA Driver API"),
    ("cu", "CUDA Driver API"),
    ("CU", "CUDA Driver API"),
)


@dataclass(frozen=True, slots=True)
class NameEntry:
    cuda: str
    hip: str
    roc: str
    kind: str
    status: str  # supported | experimental | roc_only | unsupported | hip_unsupported | roc_unsupported
    cuda_deprecated: str
    cuda_removed: str
    hip_experimental: str

    @property
    def has_hip_equivalent(self) -> bool:
        return self.status in {"supported", "experimental"} and bool(self.hip)

    @property
    def unsupported(self) -> bool:
        """No HIP equivalent at all (hipify-clang counts it as unconverted)."""
        return self.status in {"unsupported", "hip_unsupported"} and not self.roc

    @property
    def is_header(self) -> bool:
        return self.kind in INCLUDE_KINDS

    @property
    def api(self) -> str:
        for prefix, api in _API_PREFIXES:
            if self.cuda.startswith(prefix):
                return api
        return "CUDA RT API"


class NameTable:
    def __init__(self, entries: list[NameEntry]):
        self.entries = entries
        self.by_name: dict[str, NameEntry] = {}
        self.headers: dict[str, NameEntry] = {}
        for entry in entries:
            target = self.headers if entry.is_header else self.by_name
            target.setdefault(entry.cuda, entry)

    def get(self, name: str) -> NameEntry | None:
        return self.by_name.get(name)

    def __len__(self) -> int:
        return len(self.entries)


@functools.cache
def load() -> NameTable:
    text = resources.files("scanner.data").joinpath("cuda2hip.tsv").read_text(encoding="utf-8")
    rows = csv.DictReader(text.splitlines(), delimiter="\t", quoting=csv.QUOTE_NONE)
    return NameTable([NameEntry(**{k: (v or "") for k, v in row.items()}) for row in rows])


_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def is_identifier(name: str) -> bool:
    return bool(_IDENT.match(name))
