"""Test helpers: analyse a file or a snippet in-process, with a chosen rule set and target."""

from __future__ import annotations

import functools
import re
import textwrap
from pathlib import Path

from scanner.engine import Analyzer, FileJob
from scanner.parsing.clang_unit import Parser, ParseSettings
from scanner.rules import catalogue, select
from scanner.target import TargetProfile

FIXTURES = Path(__file__).parent / "fixtures"
RULE_FIXTURES = FIXTURES / "rules"
EXPECT = re.compile(r"expect:\s*((?:ROC\d+\s*,?\s*)+)")
# A negative case: the line ends with the comment `// ok` (C, C++, CUDA, PTX) or `# ok` (the text languages).
OK_MARK = re.compile(r"(?:^|\s)(?://|#)\s*ok\s*$")


@functools.cache
def parser() -> Parser:
    return Parser(ParseSettings())


def analyzer(codes: tuple[str, ...] | None = None, target: TargetProfile = TargetProfile()) -> Analyzer:
    rules = select(list(codes)) if codes else list(catalogue().values())
    return Analyzer(parser(), rules, target, max_file_bytes=2_000_000)


def analyze_path(path: Path, root: Path | None = None, codes=None, target=TargetProfile(), language=None):
    from scanner.discovery import language_of

    rel = path.relative_to(root).as_posix() if root else path.name
    job = FileJob(str(path), rel, language or language_of(path.name) or "cuda")
    return analyzer(tuple(codes) if codes else None, target).analyze(job)


def analyze_repository(paths: list[Path], root: Path, codes=None, target=TargetProfile()):
    """The repository-level result (scanner.repository) of a checkout holding only `paths`, or None."""
    from scanner import repository
    from scanner.discovery import language_of

    rules = [r for r in (select(list(codes)) if codes else list(catalogue().values())) if "repository" in r.on]
    files = []
    for path in paths:
        rel = path.relative_to(root).as_posix()
        language = language_of(path.name, path.parent.relative_to(root).as_posix())
        if language is not None:
            files.append(repository.RepoFile(rel, language, path.read_text().split("\n")))
    return repository.analyze(files, rules, target)


def compile_path(
    path: Path,
    root: Path | None = None,
    codes=None,
    hipcc: str = "",
    arch: str = "gfx90a",
    target=TargetProfile(),
    timeout: float = 60.0,
):
    """Analyse `path` with the compile check on (scanner.compile: translated with the built-in translator, compiled
    by the real hipcc for `arch`), as a checkout `root` (default: its directory) would be."""
    from scanner.compile import CompileChecker, CompileSettings
    from scanner.compile.graph import attach
    from scanner.discovery import discover, language_of
    from scanner.translate import TranslateOptions, Translator

    root = root or path.parent
    translator = Translator(TranslateOptions(backend="builtin"))
    checker = CompileChecker(
        CompileSettings(hipcc=hipcc, arch=arch, timeout_seconds=timeout),
        lambda rel, text, source: translator.translate(rel, text, source).text,
    )
    rel = path.relative_to(root).as_posix()
    jobs = [FileJob(str(c.path), c.rel, c.language, c.problem) for c in discover(root)]
    job = next((j for j in attach(root, jobs, ()) if j.rel == rel), None) or FileJob(
        str(path), rel, language_of(path.name) or "cuda"
    )
    rules = select(list(codes)) if codes else list(catalogue().values())
    try:
        return Analyzer(parser(), rules, target, 2_000_000, translator, checker).analyze(job)
    finally:
        checker.close()


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """Write `files` (relative path -> text, dedented) under `root`, as a checkout to scan; returns `root`."""
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


def analyze_text(tmp_path: Path, text: str, name: str = "snippet.cu", codes=None, target=TargetProfile()):
    path = tmp_path / name
    path.write_text(text)
    return analyze_path(path, tmp_path, codes, target)


def expectations(path: Path) -> set[tuple[int, str]]:
    out = set()
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        match = EXPECT.search(line)
        if match:
            for code in re.findall(r"ROC\d+", match.group(1)):
                out.add((number, code))
    return out


def ok_lines(path: Path) -> set[int]:
    """The lines of a fixture marked as negative cases (`OK_MARK`): no finding of the fixture's rule may land there."""
    return {number for number, line in enumerate(path.read_text().splitlines(), start=1) if OK_MARK.search(line)}


def fixture_for(code: str) -> list[Path]:
    return sorted(RULE_FIXTURES.glob(f"{code}_*"))
