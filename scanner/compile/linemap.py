"""From a line of the HIP translation back to the line of the CUDA file it came from.

The translators record byte-range edits and statistics, not a line map, and most edits keep the line count; the
ones that do not are an inserted `#include <hip/hip_runtime.h>` and a rewritten launch spanning lines. So the map
is built from the two texts, as the file page's side-by-side view pairs them: equal and same-size replaced runs
map line for line; a line the translation inserted maps to the original line at its place (the next one, or the
last line at the end of the file).
"""

from __future__ import annotations

import difflib


class LineMap:
    def __init__(self, original: str, translated: str):
        a, b = original.split("\n"), translated.split("\n")
        self._last = max(len(a) - (1 if original.endswith("\n") else 0), 1)
        self._map: list[int] = [0] * (len(b) + 1)  # index: translated line (1-based)
        if original == translated:
            self._map = list(range(len(b) + 1))
            return
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
            for offset, j in enumerate(range(j1, j2)):
                if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
                    line = i1 + offset + 1
                elif tag == "replace":  # a different number of lines: stay inside the replaced run
                    line = i1 + min(offset, i2 - i1 - 1) + 1
                else:  # inserted by the translation
                    line = i1 + 1
                self._map[j + 1] = min(line, self._last)

    def original(self, translated_line: int) -> int:
        """The original line of a translated one (1-based); lines past the end map to the last line."""
        if 0 < translated_line < len(self._map):
            return self._map[translated_line] or 1
        return self._last
