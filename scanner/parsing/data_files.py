"""Generated data files: a C/C++ source that is mostly a byte array (an embedded cubin, fatbin or PTX, a font, a
model's weights), recognized before libclang, which would spend seconds on tens of thousands of literals and find
nothing to analyse in them.

`recognize` decides on the text alone: a file of at least _MIN_BYTES whose characters outside numeric literals,
commas and white space are under _MAX_RESIDUE of it. The array's leading values are then read as bytes (or as
little-endian words when the literals are wider than a byte) to say what the data is: NVIDIA code (a CUDA ELF
cubin, a fatbin, PTX text) or not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_MIN_BYTES = 16_384
_MAX_RESIDUE = 0.06
_SAMPLE = 65_536  # the middle of the file is looked at first: a big source file fails there, quickly
_NUMBER = re.compile(r"0[xX]([0-9a-fA-F]+)[uUlL]*|\b(\d+)[uUlL]*\b")
_NOISE = re.compile(r"0[xX][0-9a-fA-F]+[uUlL]*|\b\d+[uUlL]*\b|[\s,]+")
_HEAD_VALUES = 4096  # values decoded to tell what the data is

_EM_CUDA = 190
_EM_AMDGPU = 224
_FATBIN_MAGICS = (0xBA55ED50, 0x466243B1)


@dataclass(frozen=True)
class DataFile:
    values: int  # numeric literals seen in the file
    nvidia: str  # "" or what NVIDIA-only code the array holds: "a CUDA cubin (ELF for sm_80)", "a fatbin", "PTX ..."

    def reason(self) -> str:
        what = f"; it embeds {self.nvidia}" if self.nvidia else ""
        return f"generated data file ({self.values} numeric literals), read as data, not parsed{what}"


def recognize(text: str) -> DataFile | None:
    """A DataFile when the text is mostly numeric literals, else None (cheap on ordinary source)."""
    if len(text) < _MIN_BYTES:
        return None
    middle = len(text) // 2
    sample = text[max(0, middle - _SAMPLE // 2) : middle + _SAMPLE // 2]
    if not _mostly_numbers(sample):
        return None
    residue = _NOISE.sub("", text)
    if len(residue) > _MAX_RESIDUE * len(text) or _CODE.search(residue):
        return None  # a table beside kernels or calls to the CUDA API is a source file: parsed, not skipped
    values = sum(1 for _ in _NUMBER.finditer(text))
    return DataFile(values, _nvidia_code(text))


# What the text around the literals may not hold: device code or CUDA API calls (white space is gone by then).
_CODE = re.compile(r"__global__|__device__|<<<|\bcuda[A-Z]\w*\(|\bcu[A-Z]\w*\(")


def _mostly_numbers(text: str) -> bool:
    residue = len(_NOISE.sub("", text))
    return residue <= _MAX_RESIDUE * len(text)


def _nvidia_code(text: str) -> str:
    """What NVIDIA-only code the first array holds, from its leading values."""
    start = text.find("{")
    data = _leading_bytes(text[start + 1 :] if start >= 0 else text)
    if data[:4] == b"\x7fELF" and len(data) >= 20:
        machine = int.from_bytes(data[18:20], "little")
        if machine == _EM_CUDA:
            arch = _cubin_arch(data)
            return f"a CUDA cubin (ELF{' for ' + arch if arch else ''})"
        return ""  # an AMDGPU code object (e_machine 224) or a host binary: not NVIDIA-only
    if len(data) >= 4 and int.from_bytes(data[:4], "little") in _FATBIN_MAGICS:
        return "a CUDA fatbin"
    head = data.decode("latin-1")
    target = re.search(r"\.target\s+(sm_\w+|compute_\w+)", head)
    if ".version" in head and target:
        return f"PTX for {target.group(1)}"
    return ""


def _leading_bytes(text: str) -> bytes:
    """The first values of an array as bytes: each literal little-endian over the width its digits give it
    (`0x7f` one byte, `0x464c457f` four, a decimal value one byte when it fits, else eight)."""
    out = bytearray()
    for count, match in enumerate(_NUMBER.finditer(text)):
        if count >= _HEAD_VALUES:
            break
        hex_digits, decimal = match.groups()
        if hex_digits is not None:
            value, width = int(hex_digits, 16), max(1, (len(hex_digits) + 1) // 2)
        else:
            value = int(decimal)
            width = 1 if value < 256 else 8
        width = 1 if width == 1 else 2 if width == 2 else 4 if width <= 4 else 8
        out += (value & ((1 << (8 * width)) - 1)).to_bytes(width, "little")
    return bytes(out)


def _cubin_arch(data: bytes) -> str:
    """The SM of a 64-bit CUDA ELF from e_flags: the low byte (CUDA < 12.8), or the second byte (newer ABI)."""
    if len(data) < 52 or data[4] != 2:
        return ""
    flags = int.from_bytes(data[48:52], "little")
    for sm in (flags & 0xFF, (flags >> 8) & 0xFF):
        if 20 <= sm <= 200:
            return f"sm_{sm}"
    return ""
