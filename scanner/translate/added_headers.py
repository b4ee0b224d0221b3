"""What a translated file gains at the end of its walk (scanner.translate.builtin's `_FileWork` mixes this in):
rocWMMA's header for `<mma.h>`, the C headers cuda_runtime.h brought, HIP's runtime header with the fp16/bf16
headers the file's names need, and the PTX warp emulation's helpers; and the passes over the whole file that run once
the walk is done, WMMA to rocWMMA and inline PTX. Kept apart from the token walk because they edit around the
includes or whole statements, once every include and name of the file is known."""

from __future__ import annotations

import re

from scanner.translate import includes, ptx_warp, wmma
from scanner.translate.model import Unconverted

_FLOAT_INCLUDE = re.compile(rb"^[ \t]*#[ \t]*include[ \t]*[<\"](?:hip/)?(?:cuda|hip)_(fp16|bf16)\.h[>\"]", re.MULTILINE)


class AddedHeaders:
    """Methods of `_FileWork` (its state: data, edits, touched, includes, options, stats, unconverted...)."""

    def _wmma_include(self, line: includes.IncludeLine, off: int) -> None:
        """`#include <mma.h>`: rocWMMA's header when the file's WMMA code is translated, else left and reported."""
        self.uses_cuda = True
        name = line.name.decode()
        if not self.wmma.translates:
            self.stats.count(False, "include", "WMMA API", name)
            why = self.wmma.reason() or "rocWMMA lacks a fragment of this file"
            self.unconverted.append(Unconverted(name, self.line_of(off), 1, why))
            return
        self.stats.count(True, "include", "WMMA API", name)
        self.edits.append((line.name_start, line.name_start + len(line.name), wmma.HEADER))
        self.touched.add(line.hash_offset)
        self.replaced_bytes += len(line.name) + 2

    def _host_headers(self) -> None:
        """cuda_runtime.h's C headers, known once every include of the file is (scanner.translate.includes)."""
        insertion = self.includes.host_headers()
        if insertion is not None:
            where, what = insertion
            self.edits.append((where, where, what))

    def _runtime_header(self) -> None:
        if not self.options.insert_runtime_header or not self.uses_cuda:
            return  # a file with no CUDA in it comes out byte for byte
        included = {b"hip/hip_" + kind + b".h" for kind in _FLOAT_INCLUDE.findall(self.data)}
        floats = b"".join(b"#include <" + h + b">\n" for h in self.float_headers if h not in included)
        insertion = self.includes.runtime_insertion(self.data)
        if insertion is not None:
            where, what = insertion
            self.edits.append((where, where, what + floats))
            self.touched.add(where)
            self.runtime_inserted = True
        elif floats:
            line = self.includes.host_headers_after  # after the rewritten cuda_runtime.h and what it brings
            where = line.end if line is not None else self.includes.first_include or 0
            self.edits.append((where, where, (b"\n" + floats.rstrip(b"\n")) if line is not None else floats))
            self.touched.add(where)

    def _warp_helpers(self) -> None:
        """The device functions emulating ldmatrix/mma.sync, once (scanner.translate.ptx_warp)."""
        if not self.warp_helpers:
            return
        wanted = self.options.insert_runtime_header and not self.runtime_inserted
        where, text = ptx_warp.helpers_insertion(self.data, self.includes.first_include, wanted, self.runtime_inserted)
        self.edits.append((where, where, text))
        self.touched.add(where)

    def _wmma(self) -> None:
        """nvcuda::wmma to rocWMMA, or the fragments rocWMMA lacks reported (scanner.translate.wmma)."""
        plan = self.wmma
        if not plan.uses:
            return
        if plan.translates:
            self.edits.extend(plan.edits)
            for start, end, _ in plan.edits:
                self.touched.add(start)
                self.replaced_bytes += end - start
            for _ in range(plan.renamed):
                self.stats.count(True, "library", "WMMA API", "nvcuda::wmma")
            return
        for gap, off in zip(plan.gaps, plan.gap_offsets):
            line = self.line_of(off)
            self.stats.count(False, "library", "WMMA API", gap.what)
            self.unconverted.append(Unconverted(gap.what, line, off - self.line_starts[line - 1] + 1, gap.why))

    def _ptx(self) -> None:
        """Inline PTX with a sure meaning as C++, the rest left and reported (scanner.translate.ptx)."""
        plan = self.ptx_plan
        self.edits.extend(plan.edits)
        for off, instruction in plan.converted:
            self.touched.add(off)
            self.stats.count(True, "inline_asm", "PTX", instruction)
        if plan.uses_half and b"hip/hip_fp16.h" not in self.float_headers:
            self.float_headers.append(b"hip/hip_fp16.h")
        for off, instruction in plan.emulated:
            self.warnings.append(f"line {self.line_of(off)}: {ptx_warp.family(instruction)} {ptx_warp.NOTE}")
        self.warp_helpers = bool(plan.emulated)
        for off, instruction in plan.left:
            line = self.line_of(off)
            self.stats.count(False, "inline_asm", "PTX", instruction)
            why = "inline PTX without a sure HIP counterpart: the AMDGPU backend cannot assemble it"
            self.unconverted.append(Unconverted(f"asm {instruction}", line, off - self.line_starts[line - 1] + 1, why))
