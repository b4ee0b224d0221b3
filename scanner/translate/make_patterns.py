"""The Makefile pattern rules of a side-by-side port's build switch (scanner.translate.build_switch), guided and
checked by the build model (scanner.build.make). Pure: no I/O.

A pattern rule that compiles `.cu` sources (`%.o: %.cu`, `$(OBJ)/%.o: src/%.cu`, then `$(NVCC) ... -c $< -o $@`)
takes their `.hip` copies (`%.hip`), and an object list made from a source list (`$(SRCS:.cu=.o)`,
`$(patsubst %.cu,%.o,$(SRCS))`) follows the sources when their list now names the copies. Which of these edits a
Makefile gets is the build model's answer, as for CMake's spellings: every combination of them is read (up to
MAX_EDITS edits per port), and the one kept leaves the fewest ported `.cu` sources compiled and no make target
compiling, losing or renaming anything else (each target compiles what it compiled before, a ported source's
`.hip` copy in place of the `.cu`). A pattern that also builds a `.cu` this port does not translate never passes
(no `.hip` copy for it: its target would lose its source), nor does a shape the model does not read (a static
pattern rule, a pattern spelled across lines, a `vpath`): they stay listed for a person. The compiler the recipe
runs is switched afterwards, where a Linux build sets it (scanner.translate.make_switch).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from scanner.translate.build_edits import WHY, Change, Rewrite

# `%.cu` as a rule's prerequisite pattern (not `%.cuh`, not the `%.cu.o` of a target).
_PREREQ = re.compile(r"%\.cu(?![\w.])")
# The `.cu` of a substitution reference or a patsubst over sources: `$(SRCS:.cu=.o)`, `${SRCS:%.cu=%.o}`,
# `$(SRCS:src/%.cu=obj/%.o)`, `$(patsubst %.cu,%.o,...)`.
_SUBST = re.compile(r"(\$[({](?:[A-Za-z_][\w.-]*:[^=()${}\s]*?|patsubst\s+[^,()${}\s]*?%))\.cu(?=\s*[=,])")
MAX_EDITS = 6  # 2**6 combinations read at most, per port
RULE_WHY = "the pattern builds each ported source's HIP copy (`%.hip`, side by side): every `.cu` it built is ported"
LIST_WHY = "the object list follows the sources, which now name the HIP copies"


@dataclass(frozen=True)
class _Edit:
    path: str
    line: int
    start: int  # the offset of the `.cu` in the line, which becomes `.hip`
    why: str


def switch(
    done: dict[str, Rewrite],
    makefiles: list[str],
    before,
    read_makefiles,
    renames: dict[str, str],
    skip: dict[str, frozenset[int]],
) -> dict[str, Rewrite]:
    """`done`: the build files' rewrites so far; `makefiles`: the Makefiles among them (`.mk` included); `before`:
    their model before the port (scanner.build.make.Makefile); `read_makefiles(texts)`: their model with these
    texts on the port's branch; `renames`: each ported `.cu` and its `.hip` copy; `skip`: per file, the lines a
    Linux build never takes."""
    was = _pairs(before)
    if not any(source in renames for _, _, source in was):
        return done
    rules = _rule_edits(before, done, renames, skip)
    if not rules:
        return done
    edits = (rules + _list_edits(done, makefiles, skip))[:MAX_EDITS]
    texts = {path: rewrite.text for path, rewrite in done.items()}
    base_broken, base_unswitched = _verdict(was, _pairs(read_makefiles(texts)), renames)
    best, best_score = (), len(base_broken) + len(base_unswitched)
    for size in range(1, len(edits) + 1):
        for chosen in itertools.combinations(edits, size):
            broken, unswitched = _verdict(was, _pairs(read_makefiles(_apply(texts, chosen))), renames)
            if broken <= base_broken and len(broken) + len(unswitched) < best_score:
                best, best_score = chosen, len(broken) + len(unswitched)
    out, new_texts = dict(done), _apply(texts, best)
    if best_score == 0:
        # The model of the result says every ported source builds from its copy and nothing else changed: the
        # text's guesses about its `.cu` patterns go (a wildcard left to name the `.cu`, an object list of them).
        for path in makefiles:
            rewrite = out[path]
            left = [item for item in rewrite.left if item.why != WHY["pattern"]]
            out[path] = Rewrite(rewrite.text, rewrite.changes, left, rewrite.candidates)
    for path in sorted({edit.path for edit in best}):
        rewrite, old, new = done[path], texts[path].split("\n"), new_texts[path].split("\n")
        mine = [edit for edit in best if edit.path == path]
        changes = {edit.line: Change(edit.line, old[edit.line - 1], new[edit.line - 1], edit.why) for edit in mine}
        out[path] = Rewrite(
            new_texts[path],
            sorted(rewrite.changes + list(changes.values()), key=lambda c: c.line),
            [item for item in out[path].left if not (item.line in changes and item.why == WHY["pattern"])],
            rewrite.candidates,
        )
    return out


def _pairs(makefiles) -> set[tuple[str, str, str]]:
    """(Makefile, target, source) of every compilation the model reads in `makefiles`."""
    return {(m.rel, c.target, source) for m in makefiles for source, c, _ in m.compilations()}


def _verdict(was: set, now: set, renames: dict[str, str]) -> tuple[set, set]:
    """(broken, unswitched): compilations gained, lost or renamed beyond the HIP copies, and ported `.cu` sources
    still compiled."""
    expected = {(rel, target, renames.get(source, source)) for rel, target, source in was}
    unswitched = {(rel, target, source) for rel, target, source in now if source in renames}
    excused = unswitched | {(rel, target, renames[source]) for rel, target, source in unswitched}
    return (expected ^ now) - excused, unswitched


def _rule_edits(before, done, renames, skip) -> list[_Edit]:
    """The `%.cu` of each pattern rule the model says compiles a ported source, on the rule's own line."""
    built = {(c.build_file, c.line) for m in before for source, c, _ in m.compilations() if source in renames}
    out = set()
    for makefile in before:
        for targets, prereqs, recipe, line, path in makefile.rules:
            if not any("%" in t for t in targets) or not any("%" in p and p.endswith(".cu") for p in prereqs):
                continue
            if path not in done or line in skip.get(path, ()) or not any((path, n) in built for n, _ in recipe):
                continue
            text = done[path].text.split("\n")[line - 1]
            out |= {_Edit(path, line, m.start() + 1, RULE_WHY) for m in _PREREQ.finditer(text, text.find(":") + 1)}
    return sorted(out, key=lambda e: (e.path, e.line, e.start))


def _list_edits(done, makefiles: list[str], skip) -> list[_Edit]:
    """Every `.cu` substitution over a list outside recipes: the model decides which follow the sources."""
    out = []
    for path in sorted(makefiles):
        for number, line in enumerate(done[path].text.split("\n"), 1):
            if line.startswith("\t") or line.lstrip().startswith("#") or number in skip.get(path, ()):
                continue
            out += [_Edit(path, number, m.end(1), LIST_WHY) for m in _SUBST.finditer(line)]
    return out


def _apply(texts: dict[str, str], edits) -> dict[str, str]:
    out = dict(texts)
    for path in {edit.path for edit in edits}:
        lines = out[path].split("\n")
        for edit in sorted((e for e in edits if e.path == path), key=lambda e: -e.start):
            line = lines[edit.line - 1]
            lines[edit.line - 1] = line[: edit.start] + ".hip" + line[edit.start + 3 :]
        out[path] = "\n".join(lines)
    return out
