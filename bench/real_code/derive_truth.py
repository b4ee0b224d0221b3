"""Derive bench/real_code.py's truth from how real projects were ported to ROCm (manifest.json beside this file).

    python bench/real_code/derive_truth.py --repos DIR --work DIR [-o bench/real_code/truth.json]

`--repos` holds a git clone of each manifest repository, named by its last path part (bitsandbytes, ggml, ...);
each manifest commit is checked out under `--work/<name>` (git archive, no working copy of ours is touched), the
folder bench/real_code.py is then given. Three readings of a port:
- "twins": the project kept its CUDA sources and a hand-written HIP copy side by side. After undoing the
  mechanical renames (HIPIFY's name table, read backwards), a CUDA line the HIP copy changes or drops is a line the
  port had to touch; one that holds a warp, lane, mask or PTX construct is an expected finding of that family.
- "guards": one source for both, with preprocessor guards on the project's HIP macros. A line of a branch that
  HIP-Clang never takes (the CUDA side of `#if defined(HIP)`... `#else`, or `#if !defined(HIP)`) that holds such a
  construct is "guarded": the port is already there, and a high or critical result on it is a false alarm.
- "fork-twins": the same files at two commits, the CUDA original and its ROCm port (a fork of the project, or
  the project's own commit that added ROCm), perhaps in two repositories. A line of the original that the port
  changes or drops, or keeps only on a branch HIP never takes (the port's `#ifdef USE_ROCM ... #else` around it),
  and that holds a warp, lane, mask or PTX construct, is an expected finding. Lines the manifest's `exclude`
  names (read by us and judged no such assumption: a rename, a reflow, another reason) are left out.
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
WARP = [f"ROC{n}" for n in range(101, 111)]  # ROC110: warp-sized groups (cub::WarpReduce<T, 16>, tiles of 32)
PTX = ["ROC120", "ROC123"]
_PTX_LINE = re.compile(r"\basm\b|__asm__|\b__nvvm_")
# A warp construct on its own: an intrinsic of the lane model, a 32-bit full mask, the warp size by name.
_WARP_CONSTRUCT = re.compile(
    r"0[xX][fF]{8}|\bwarpSize\b|\bWARP_?SIZE\w*|\b[kK]?[Ww]arp_?[Ss]ize\b|\b__shfl\w*|"
    r"\b__ballot\w*|\b__activemask\b|\b__any_sync\b|\b__all_sync\b|\b__syncwarp\b|"
    r"\b__match_\w+|\bWarp(?:Reduce|Scan)\b"
)
# A 32 (31, 16, >> 5) counts only beside a word of the lane model: a thread or lane id, a warp, a launch's block.
_WARP_NUMBER = re.compile(r"(?<![\w.])(?:32|31|16)[uU]?(?![\w.])|>>\s*5\b")
_WARP_CONTEXT = re.compile(
    r"threadIdx|blockDim|\b\w*[Ll]ane\w*|\b\w*[Ww]arp\w*|\bWARP\w*|\b\w*tid\b|"
    r"\bTHREADS\w*|\b\w*[Tt]hreads\b|<<<"
)


C_SUFFIXES = (".cu", ".cuh", ".h", ".hpp", ".cpp", ".cc")


def clone_of(repos: Path, spec: dict) -> Path:
    """The clone of a manifest repository under --repos: named by `clone`, else by the repository's last part."""
    return repos / spec.get("clone", spec["repository"].split("/")[-1])


def _write_blobs(source: Path, commit: str, target: Path) -> None:
    listing = subprocess.run(
        ["git", "-C", str(source), "ls-tree", "-r", "-z", commit], check=True, capture_output=True
    ).stdout.decode(errors="surrogateescape")
    for entry in filter(None, listing.split("\0")):
        meta, path = entry.split("\t", 1)
        mode, kind, sha = meta.split()
        if kind != "blob" or mode == "120000" or ".." in Path(path).parts:
            continue
        blob = subprocess.run(["git", "-C", str(source), "cat-file", "blob", sha], capture_output=True)
        if blob.returncode == 0:
            (target / path).parent.mkdir(parents=True, exist_ok=True)
            (target / path).write_bytes(blob.stdout)


def checkout(repos: Path, work: Path, project: dict) -> Path:
    source = clone_of(repos, project)
    target = work / project["name"]
    if not (target / ".rocport-commit").exists() or (target / ".rocport-commit").read_text() != project["commit"]:
        archive = subprocess.run(["git", "-C", str(source), "archive", project["commit"]], capture_output=True)
        target.mkdir(parents=True, exist_ok=True)
        if archive.returncode == 0:
            with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
                tar.extractall(target, filter="data")
        else:  # a fetched snapshot may lack its largest blobs (images, data): write the files it has
            _write_blobs(source, project["commit"], target)
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


def _renamer():
    """HIP names back to their CUDA names (HIPIFY's table read backwards), applied to both sides of a comparison
    so that a port's mechanical renames vanish (and a HIP name that is also plain C++, such as `int`, the
    table's name for cusolver_int_t, stays equal on both sides)."""
    back = {}
    for entry in nametable.load().entries:
        if entry.hip and entry.hip != entry.cuda and nametable.is_identifier(entry.hip):
            back.setdefault(entry.hip, entry.cuda)
    renamed = re.compile(r"\b(" + "|".join(sorted(map(re.escape, back), key=len, reverse=True)) + r")\b")
    return lambda text: renamed.sub(lambda m: back[m.group(1)], text)


def _touched(cuda_lines: list[str], port_lines: list[str], dead: set[int] = frozenset()) -> list[int]:
    """Indexes of the CUDA lines the port changed or dropped, or kept only on a line HIP never compiles
    (`dead`: the port's indexes on such a branch)."""
    matcher = difflib.SequenceMatcher(
        None, [_code(x) for x in cuda_lines], [_code(x) for x in port_lines], autojunk=False
    )
    touched = []
    for tag, i1, i2, j1, _j2 in matcher.get_opcodes():
        if tag in ("replace", "delete"):
            touched += range(i1, i2)
        elif tag == "equal" and dead:
            touched += [i1 + k for k in range(i2 - i1) if j1 + k in dead]
    return touched


def _expected(path: str, cuda_lines: list[str], touched: list[int], exclude: set = frozenset()) -> list[dict]:
    expected = []
    for index in touched:
        line = cuda_lines[index]
        rules = families(re.sub(r"//.*", "", line))
        if rules and _code(line) and (path, index + 1) not in exclude:
            expected.append({"path": path, "line": index + 1, "rules": rules})
    return expected


def twins(root: Path, pairs: dict[str, str]) -> list[dict]:
    back = _renamer()
    expected = []
    for cuda_path, hip_path in sorted(pairs.items()):
        cuda_lines = (root / cuda_path).read_text(errors="replace").splitlines()
        hip_text = back((root / hip_path).read_text(errors="replace"))
        for cuda_name, hip_name in pairs.items():  # includes of the twin headers
            hip_text = hip_text.replace(Path(hip_name).name, Path(cuda_name).name)
        touched = _touched(back("\n".join(cuda_lines)).splitlines(), hip_text.splitlines())
        expected += _expected(cuda_path, cuda_lines, touched)
    return expected


def _git_show(clone: Path, commit: str, path: str) -> str:
    return subprocess.run(
        ["git", "-C", str(clone), "show", f"{commit}:{path}"], check=True, capture_output=True
    ).stdout.decode("utf-8", errors="replace")


def fork_twins(root: Path, repos: Path, project: dict) -> list[dict]:
    """The original's files under `paths` (C/C++/CUDA, in both trees) against the port's same files."""
    port = project["port"]
    clone = clone_of(repos, port)
    listing = subprocess.run(
        ["git", "-C", str(clone), "ls-tree", "-r", "--name-only", port["commit"]],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.splitlines()
    paths = [
        path
        for path in listing
        if path.endswith(C_SUFFIXES)
        and (root / path).is_file()
        and any(path == d or path.startswith(d.rstrip("/") + "/") for d in project["paths"])
    ]
    exclude = {(e["path"], line) for e in project.get("exclude", []) for line in e["lines"]}
    back = _renamer()
    expected = []
    for path in sorted(paths):
        cuda_lines = (root / path).read_text(errors="replace").splitlines()
        port_lines = back(_git_show(clone, port["commit"], path)).splitlines()
        dead = {number - 1 for number in _hip_dead(port_lines, port["hip_macros"])}
        touched = _touched(back("\n".join(cuda_lines)).splitlines(), port_lines, dead)
        expected += _expected(path, cuda_lines, touched, exclude)
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
    return _chain(
        tokens,
        macros,
        "||",
        _and,
        lambda a, b: True if True in (a, b) else (False if a is False and b is False else None),
    )


def _and(tokens, macros):
    return _chain(
        tokens,
        macros,
        "&&",
        _unary,
        lambda a, b: False if False in (a, b) else (True if a is True and b is True else None),
    )


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


def _hip_dead(lines: list[str], macros: list[str]) -> list[int]:
    """The line numbers (from 1) on a branch HIP-Clang never takes, directives excluded."""
    dead = []
    stack: list[list] = []  # [taken_by_hip or None, any_earlier_branch_known_taken]
    for number, line in enumerate(lines, 1):
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
        if any(frame[0] is False for frame in stack):
            dead.append(number)
    return dead


def guards(root: Path, macros: list[str]) -> list[dict]:
    guarded = []
    for path in sorted(root.rglob("*")):
        if path.suffix not in C_SUFFIXES or not path.is_file():
            continue
        rel = path.relative_to(root).as_posix()
        lines = path.read_text(errors="replace").splitlines()
        guarded += [
            {"path": rel, "line": number}
            for number in _hip_dead(lines, macros)
            if families(re.sub(r"//.*", "", lines[number - 1]))
        ]
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
        root = checkout(args.repos, args.work, project)
        if project["kind"] == "parse-only":  # nothing to derive: checked out for the scan alone
            continue
        entry = {
            "repository": project["repository"],
            "commit": project["commit"],
            "kind": project["kind"],
            "slack": 0,
            "expected": [],
            "guarded": [],
        }
        if project["kind"] == "twins":
            entry["expected"] = twins(root, project["twins"])
        elif project["kind"] == "guards":
            entry["guarded"] = guards(root, project["hip_macros"])
        elif project["kind"] == "fork-twins":
            entry["port"] = {"repository": project["port"]["repository"], "commit": project["port"]["commit"]}
            entry["expected"] = fork_twins(root, args.repos, project)
        truth[project["name"]] = entry
        print(
            f"{project['name']}: {len(entry['expected'])} expected, {len(entry['guarded'])} guarded lines -> {root}",
            file=sys.stderr,
        )
    args.output.write_text(json.dumps(truth, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
