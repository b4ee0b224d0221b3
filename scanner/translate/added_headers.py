"""What a translated file gains at the end of its walk (scanner.translate.builtin's `_FileWork` mixes this in):
rocWMMA's header for `<mma.h>`, the C headers cuda_runtime.h brought, HIP's runtime header with the fp16/bf16
headers the file's names need, and the PTX warp emulation's helpers. Kept apart from the token walk because it only
edits around the includes, once every include of the file is known."""

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
