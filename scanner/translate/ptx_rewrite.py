"""One inline PTX statement's C++: a lambda over its operands (scanner.translate.ptx, scanner.translate.ptx_warp)."""

from __future__ import annotations

from dataclasses import dataclass

# an input's parameter type by its constraint letter: `h` 16-bit, `r` 32-bit, `f` float, `l` pointer, `n` immediate
PARAMETER = {"h": "unsigned short", "r": "unsigned int", "f": "float", "l": "const void*", "n": "unsigned long long"}


@dataclass(frozen=True)
class Rewrite:
    """One instruction: the constraint letters each output may take, each input's letter, and the lambda's body
    over d0.. (outputs) and s0.. (inputs). `inout`: the outputs are read-write (`+f`), the body reads them first;
    `warp`: an emulation of a warp-wide instruction by the helpers of scanner.translate.ptx_warp_helpers."""

    outs: tuple[str, ...]
    ins: str
    body: str
    warp: bool = False
    inout: bool = False

    def pieces(self) -> tuple[str, ...]:
        """The text before the first operand, between operands, after the last (the whole statement's text when
        there is no operand)."""
        if not self.outs and not self.ins:
            return (self.body,)
        params = [f"auto& d{n}" for n in range(len(self.outs))]
        params += [f"{PARAMETER[letter]} s{n}" for n, letter in enumerate(self.ins)]
        count = len(self.outs) + len(self.ins)
        return ("[](" + ", ".join(params) + ") { " + self.body + " }((",) + ("), (",) * (count - 1) + ("))",)
