"""Target profiles: which AMD GPUs and which ROCm release a finding is judged for.

CDNA/Instinct GPUs (gfx9xx: MI100 gfx908, MI200 gfx90a, MI300 gfx942, MI350 gfx950) run 64-lane wavefronts;
RDNA (gfx10xx, gfx11xx, gfx12xx) runs 32. ROCm 7.0 made `warpSize` a runtime value instead of a constant.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

DEFAULT_TARGETS = ("gfx942",)  # MI300X / MI300A: the Instinct class most migrations aim at
DEFAULT_ROCM = (7, 2)  # the production ROCm release line as of 2026

# LDS (shared memory) available to one workgroup, bytes.
_LDS_BYTES = {"gfx950": 160 * 1024}
_DEFAULT_LDS = 64 * 1024
_GFX = re.compile(r"^gfx[0-9a-f]{3,4}[a-z0-9:+-]*$")
_NAMES = {
    "gfx908": "MI100",
    "gfx90a": "MI200",
    "gfx940": "MI300",
    "gfx941": "MI300",
    "gfx942": "MI300X",
    "gfx950": "MI350",
    "gfx1030": "RDNA2",
    "gfx1100": "RDNA3",
    "gfx1101": "RDNA3",
    "gfx1200": "RDNA4",
    "gfx1201": "RDNA4",
}


class TargetError(ValueError):
    pass


def wave_size(target: str) -> int:
    """gfx9xx runs wave64; gfx10+ (RDNA) defaults to wave32."""
    digits = target[3:].split(":")[0]
    return 64 if len(digits) == 3 else 32


@dataclass(frozen=True)
class TargetProfile:
    targets: tuple[str, ...] = DEFAULT_TARGETS
    rocm: tuple[int, int] = DEFAULT_ROCM

    @classmethod
    def parse(cls, targets: list[str] | tuple[str, ...] | None, rocm: str | None) -> TargetProfile:
        chosen = tuple(targets) if targets else DEFAULT_TARGETS
        for target in chosen:
            if not isinstance(target, str) or not _GFX.fullmatch(target):
                raise TargetError(f"unknown GPU target {target!r:.80}: expected an LLVM AMDGPU name such as 'gfx942'")
        version = DEFAULT_ROCM
        if rocm is not None:
            # ASCII digits, a few of them: int() refuses more than 4,300 and `\d` also matches other scripts'.
            match = re.fullmatch(r"([0-9]{1,4})\.([0-9]{1,4})(?:\.[0-9]{1,6})?", str(rocm))
            if not match:
                raise TargetError(f"bad ROCm version {str(rocm)[:80]!r}: expected 'MAJOR.MINOR' such as '7.0'")
            version = (int(match.group(1)), int(match.group(2)))
        return cls(chosen, version)

    @property
    def wave64_targets(self) -> tuple[str, ...]:
        return tuple(t for t in self.targets if wave_size(t) == 64)

    @property
    def has_wave64(self) -> bool:
        return bool(self.wave64_targets)

    @property
    def lds_bytes(self) -> int:
        """The smallest LDS size among the targets: code must fit all of them."""
        return min(_LDS_BYTES.get(t, _DEFAULT_LDS) for t in self.targets)

    def rocm_at_least(self, major: int, minor: int = 0) -> bool:
        return self.rocm >= (major, minor)

    def describe(self, target: str) -> str:
        name = _NAMES.get(target)
        return f"{target} ({name}, wave{wave_size(target)})" if name else f"{target} (wave{wave_size(target)})"

    @property
    def rocm_text(self) -> str:
        return f"{self.rocm[0]}.{self.rocm[1]}"

    def to_dict(self) -> dict:
        return {"targets": list(self.targets), "rocm": self.rocm_text}
