"""Derive bench/real_code.py's truth from how real projects were ported to ROCm (manifest.json beside this file).

    python bench/real_code/derive_truth.py --repos DIR --work DIR [-o bench/real_code/truth.json]

`--repos` holds a git clone of each manifest repository, named by its last path part (bitsandbytes, ggml, ...);
each manifest commit is checked out under `--work/<name>` (git archive, no working copy of ours is touched), the
folder bench/real_code.py is then given. Two readings of a port:
- "twins": the project kept its CUDA sources and a hand-written HIP copy side by side. After undoing the
  mechanical renames (HIPIFY's name table, read backwards), a CUDA line the HIP copy changes or drops is a line the
  port had to touch; one that holds a warp, lane, mask or PTX construct is an expected finding of that family.
- "guards": one source for both, with preprocessor guards on the project's HIP macros. A line of a branch that
  HIP-Clang never takes (the CUDA side of `#if defined(HIP)`... `#else`, or `#if !defined(HIP)`) that holds such a
  construct is "guarded": the port is already there, and a high or critical result on it is a false alarm.
The output lists paths, lines and rule codes only: never the projects' code.
"""

from __future__ import annotations

import argparse
import difflib
import io
import json
import re
import subprocess
import sys
import tarfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scanner import nametable  # noqa: E402

HERE = Path(__file__).resolve().parent
WARP = [f"ROC10{n}" for n in range(1, 10)]
PTX = ["ROC120", "ROC123"]
_PTX_LINE = re.compile(r"\basm\b|__asm__|\b__nvvm_")
# A warp construct on its own: an intrinsic of the lane model, a 32-bit full mask, the warp size by name.
_WARP_CONSTRUCT = re.compile(r"0[xX][fF]{8}|\bwarpSize\b|\bWARP_?SIZE\w*|\b[kK]?[Ww]arp_?[Ss]ize\b|\b__shfl\w*|"
                             r"\b__ballot\w*|\b__activemask\b|\b__any_sync\b|\b__all_sync\b|\b__syncwarp\b|"
                             r"\b__match_\w+|\bWarp(?:Reduce|Scan)\b")
# A 32 (31, 16, >> 5) counts only beside a word of the lane model: a thread or lane id, a warp, a launch's block.
_WARP_NUMBER = re.compile(r"(?<![\w.])(?:32|31|16)[uU]?(?![\w.])|>>\s*5\b")
_WARP_CONTEXT = re.compile(r"threadIdx|blockDim|\b\w*[Ll]ane\w*|\b\w*[Ww]arp\w*|\bWARP\w*|\b\w*tid\b|"
                           r"\bTHREADS\w*|\b\w*[Tt]hreads\b|<<<")


def checkout(repos: Path, work: Path, project: dict) -> Path:
    source = repos / project["repository"].split("/")[-1]
    target = work / project["name"]
    if not (target / ".rocport-commit").exists() or (target / ".rocport-commit").read_text() != project["commit"]:
        archive = subprocess.run(["git", "-C", str(source), "archive", project["commit"]], check=True,
                                 capture_output=True).stdout
        target.mkdir(parents=True, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(target, filter="data")
        (target / ".rocport-commit").write_text(project["commit"])
    return target


def families(line: str) -> list[str]:
    if _PTX_LINE.search(line):
        return PTX
    if _WARP_CONSTRUCT.search(line) or (_WARP_NUMBER.search(line) and _WARP_CONTEXT.search(line)):
        return WARP
    return []


def _code(line: str) -> str:
    """A line without its comment and spacing: what the diff compares."""
    return re.sub(r"\s+", "", re.sub(r"//.*", "", line))


def twins(root: Path, pairs: dict[str, str]) -> list[dict]:
    back = {}
    for entry in nametable.load().entries:
        if entry.hip and entry.hip != entry.cuda and nametable.is_identifier(entry.hip):
            back.setdefault(entry.hip, entry.cuda)
    renamed = re.compile(r"\b(" + "|".join(sorted(map(re.escape, back), key=len, reverse=True)) + r")\b")
    expected = []
    for cuda_path, hip_path in sorted(pairs.items()):
        cuda_lines = (root / cuda_path).read_text(errors="replace").splitlines()
        hip_text = (root / hip_path).read_text(errors="replace")
        hip_text = renamed.sub(lambda m: back[m.group(1)], hip_text)
        for cuda_name, hip_name in pairs.items():  # includes of the twin headers
            hip_text = hip_text.replace(Path(hip_name).name, Path(cuda_name).name)
        hip_lines = hip_text.splitlines()
        matcher = difflib.SequenceMatcher(None, [_code(x) for x in cuda_lines], [_code(x) for x in hip_lines],
                                          autojunk=False)
        for tag, i1, i2, _j1, _j2 in matcher.get_opcodes():
            if tag not in ("replace", "delete"):
                continue
            for index in range(i1, i2):
                line = cuda_lines[index]
                rules = families(re.sub(r"//.*", "", line))
                if rules and _code(line):
                    expected.append({"path": cuda_path, "line": index + 1, "rules": rules})
    return expected


_DIRECTIVE = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)$")


def _hip_side(kind: str, condition: str, macros: list[str]) -> bool | None:
    """Whether HIP-Clang takes this branch: True, False, or None when that depends on more than the HIP macros
    (then the branch is left out of the truth). Three-valued: `!(HIP && AMD) && CUDA_ARCH >= 800` is False."""
    cond = re.sub(r"/\*.*?\*/|//.*", "", condition).strip()
    if kind in ("ifdef", "ifndef"):
        name = cond.split()[0] if cond else ""
        known = True if name in macros else None
        return known if kind == "ifdef" or known is None else False
    tokens = re.findall(r"defined|\w+|&&|\|\||[!()]|[<>=!]=?|\S", cond)
    value, rest = _or(tokens, macros)
    return value if not rest else None


def _or(tokens, macros):
    return _chain(tokens, macros, "||", _and, lambda a, b: True if True in (a, b) else (
        False if a is False and b is False else None))


def _and(tokens, macros):
    return _chain(tokens, macros, "&&", _unary, lambda a, b: False if False in (a, b) else (
        True if a is True and b is True else None))


def _chain(tokens, macros, operator, operand, combine):
    """`operand (operator operand)*`, combined three-valued (True, False, or None for unknown)."""
    value, tokens = operand(tokens, macros)
    while tokens[:1] == [operator]:
        other, tokens = operand(tokens[1:], macros)
        value = combine(value, other)
    return value, tokens


def _unary(tokens, macros):
    if not tokens:
        return None, tokens
    if tokens[0] == "!":
        value, rest = _unary(tokens[1:], macros)
        return (None if value is None else not value), rest
    if tokens[0] == "(":
        value, rest = _or(tokens[1:], macros)
        return value, rest[1:] if rest[:1] == [")"] else rest
    if tokens[0] == "defined":
        rest = tokens[1:]
        name = rest[1] if rest[:1] == ["("] else (rest[0] if rest else "")
        rest = rest[3:] if rest[:1] == ["("] else rest[1:]
        return (True if name in macros else None), rest
    # A plain operand, perhaps compared: known only when it is a HIP macro used alone.
    name, rest = tokens[0], tokens[1:]
    if rest[:1] and rest[0] in ("<", ">", "<=", ">=", "==", "!=", "+", "-", "*", "/"):
        while rest and rest[0] not in ("&&", "||", ")"):
            rest = rest[1:]
        return None, rest
    return (True if name in macros else None), rest


def guards(root: Path, macros: list[str]) -> list[dict]:
    guarded = []
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".cu", ".cuh", ".h", ".hpp", ".cpp", ".cc") or not path.is_file():
            continue
        rel = path.relative_to(root).as_posix()
        stack: list[list] = []  # [taken_by_hip or None, any_earlier_branch_known_taken]
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            match = _DIRECTIVE.match(line)
            if match:
                kind, condition = match.groups()
                if kind in ("if", "ifdef", "ifndef"):
                    side = _hip_side(kind, condition, macros)
                    stack.append([side, side is True])
                elif kind == "elif" and stack:
                    stack[-1] = [False if stack[-1][1] else None, stack[-1][1]]
                elif kind == "else" and stack:
                    side = stack[-1][0]
                    stack[-1] = [None if side is None else not side, True]
                elif kind == "endif" and stack:
                    stack.pop()
                continue
            if any(frame[0] is False for frame in stack) and families(re.sub(r"//.*", "", line)):
                guarded.append({"path": rel, "line": number})
    return guarded


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repos", type=Path, required=True)
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("-o", "--output", type=Path, default=HERE / "truth.json")
    args = parser.parse_args()
    manifest = json.loads((HERE / "manifest.json").read_text())
    truth = {}
    for project in manifest["projects"]:
        if project["kind"] == "parse-only":  # nothing to derive: scanned for its parse-mode shares
            continue
        root = checkout(args.repos, args.work, project)
        entry = {"repository": project["repository"], "commit": project["commit"], "kind": project["kind"],
                 "slack": 0, "expected": [], "guarded": []}
        if project["kind"] == "twins":
            entry["expected"] = twins(root, project["twins"])
        elif project["kind"] == "guards":
            entry["guarded"] = guards(root, project["hip_macros"])
        truth[project["name"]] = entry
        print(f"{project['name']}: {len(entry['expected'])} expected, {len(entry['guarded'])} guarded lines -> "
              f"{root}", file=sys.stderr)
    args.output.write_text(json.dumps(truth, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
