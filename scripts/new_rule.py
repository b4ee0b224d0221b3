"""Scaffold a rule: every file the catalogue's tests ask for, with a working example check to replace.

    python scripts/new_rule.py warp shfl_width_32            # scanner/rules/warp/shfl_width_32.py, warp-shfl-width-32
    python scripts/new_rule.py container gpu_quota --code ROC228

It writes the rule module (docstring sections, `RULE`, a check that finds the placeholder `<module>_example`),
its row in scanner/rules/codes.py (the next free code after the family's last one unless --code is given), a
positive fixture and an `_ok` negative fixture in the family's language, the zh-Hans title, summary and message
template (placeholders written in Chinese, marked 待写), then the fixtures' snapshots and docs/rules.md. The
catalogue, fixture, docs and i18n tests pass on the result (tests/scanner/test_new_rule_script.py); then replace
the example with the real check by hand: docs/contributing.md says what to write where.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scanner.rules.base import expected_name  # noqa: E402  (the one naming convention, held by test_catalogue)


@dataclass(frozen=True)
class Kind:
    """The language a scaffold is written in: its fixture's suffix and comment, and how its example is found."""

    suffix: str
    comment: str
    languages: str  # the Rule's `languages`, as source
    positive: str  # a fixture line with the placeholder where the check finds it
    negative: str  # a fixture line naming the placeholder where it must not be found


KINDS = {
    "cuda": Kind(".cu", "//", "", "  {word}(n);", "  int not_{word} = n;"),
    "cmake": Kind(".cmake", "#", '{"cmake"}', "{word}(demo)", "set(NOT_{word} ON)"),
    "make": Kind(".mk", "#", '{"make"}', "run:\n\t{word} --all", "\techo not_{word}"),
    "dockerfile": Kind(".Dockerfile", "#", '{"dockerfile"}', "RUN {word} --all", "RUN echo not_{word}"),
    "shell": Kind(".sh", "#", '{"shell"}', "{word} --all", "echo not_{word}"),
    "yaml": Kind(".yml", "#", '{"yaml"}', "run: {word} --all", "run: echo not_{word}"),
    "python": Kind(".py", "#", '{"python"}', 'subprocess.run(["{word}"])', "not_{word} = None"),
}
# The language of each family's files (scanner.rules.codes says which codes each family holds).
FAMILY_KIND = {
    "warp": "cuda",
    "ptx": "cuda",
    "libraries": "cuda",
    "api": "cuda",
    "kernel": "cuda",
    "cmake": "cmake",
    "build": "make",
    "container": "dockerfile",
    "shell": "shell",
    "python": "python",
    "serving": "shell",
    "host": "shell",
}

DOC = '''"""TODO: what the rule finds, in one sentence.

What it finds:
    TODO. The scaffold finds `{word}`, a placeholder: replace it with the pattern.

Why it breaks on ROCm:
    TODO

Example:
    TODO

Use instead:
    TODO

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/
"""
'''

CUDA_MODULE = """
from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.base import Rule
from scanner.rules.libraries._common import report_once


def check(ctx: Context) -> None:
    report_once(ctx, MESSAGE.format(name=ctx.token.text), at=ctx.token)


MESSAGE = "`{name}` is the scaffold's example: replace it with the real check."

RULE = Rule(
    name="{rule}",
    summary="TODO one line",
    risk=Risk.SILENT_WRONG_RESULT,
    severity=Severity.HIGH,
    on=("identifier",),
    names=frozenset({"{word}"}),
    check=check,
)
"""

TEXT_MODULE = """
import re

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.textual import matches, once, text_rule

_PATTERN = re.compile(r"\\b{word}\\b")
MESSAGE = "`{name}` is the scaffold's example: replace it with the real check."


def check(ctx: Context) -> None:
    for line, col, match in matches(ctx, _PATTERN):
        once(ctx, line, col, MESSAGE.format(name=match.group(0)), length=len(match.group(0)))


RULE = text_rule(
    name="{rule}",
    summary="TODO one line",
    risk=Risk.BUILD_BREAK,
    severity=Severity.HIGH,
    languages={languages},
    check=check,
)
"""

# The zh-Hans texts of the placeholders above (portal/catalogue/i18n): Chinese, so that the i18n tests pass, and
# marked 待写 ("to be written") so that they are replaced with the rule's own.
ZH_TITLE = "待写：本规则查找什么（一句话）。"
ZH_SUMMARY = "待写：一行摘要"
MESSAGE_TEMPLATE = (
    "{code} is the scaffold's example: replace it with the real check.",
    "{code} 是脚手架的示例：请换成真正的检查。",
)

CODE_ROW = re.compile(r'^    "(ROC\d{3})": "(\w+)\.(\w+)",$', re.M)


def next_code(codes_text: str, family: str) -> str:
    """The first free code after the family's highest one."""
    taken = {code for code, _, _ in CODE_ROW.findall(codes_text)}
    own = sorted(code for code, fam, _ in CODE_ROW.findall(codes_text) if fam == family)
    if not own:
        raise SystemExit(f"{family} has no code yet: choose one with --code (scanner/rules/codes.py's docstring)")
    number = int(own[-1][3:]) + 1
    while f"ROC{number}" in taken:
        number += 1
    return f"ROC{number}"


def add_code_row(codes_text: str, code: str, family: str, module: str) -> str:
    """codes.py with the new row after the family's last row (a new family: before the closing brace)."""
    row = f'    "{code}": "{family}.{module}",\n'
    rows = [m for m in CODE_ROW.finditer(codes_text) if m.group(2) == family]
    if rows:
        end = rows[-1].end() + 1
        return codes_text[:end] + row + codes_text[end:]
    closing = codes_text.rindex("}")
    return codes_text[:closing] + f"    # {family}.\n" + row + codes_text[closing:]


def module_text(kind: str, rule: str, word: str) -> str:
    body = CUDA_MODULE if kind == "cuda" else TEXT_MODULE.replace("{languages}", KINDS[kind].languages)
    return DOC.replace("{word}", word) + body.replace("{rule}", rule).replace("{word}", word)


def fixtures(kind: str, code: str, rule: str, word: str) -> tuple[str, str]:
    """(positive, negative) fixture texts: `expect:` on the found lines, `ok` on the lines that must stay quiet."""
    spec = KINDS[kind]
    c = spec.comment
    head = f"{c} Fixture for {code} {rule}: replace the scaffold's example with real cases.\n"
    positive = spec.positive.format(word=word) + f"  {c} expect: {code}"
    negative = spec.negative.format(word=word) + f"  {c} ok"
    if kind == "cuda":
        positive = f"__global__ void found(int n) {{\n{positive}\n}}"
        negative = f"__global__ void quiet(int n) {{\n{negative}\n}}"
    elif kind == "python":
        positive = f"import subprocess\n\n{positive}"
    return head + positive + "\n", head.replace("Fixture", "Negative fixture") + negative + "\n"


def add_translations(code: str) -> None:
    """The zh-Hans title, summary and message template, keyed by code, in the data files' own layout."""
    i18n = ROOT / "portal" / "catalogue" / "i18n"
    catalogue_path = i18n / "zh_hans.json"
    table = json.loads(catalogue_path.read_text(encoding="utf-8"))
    table[code] = {"title": ZH_TITLE, "summary": ZH_SUMMARY}
    entries = [
        f"  {json.dumps(k, ensure_ascii=False)}: {json.dumps(table[k], ensure_ascii=False)}" for k in sorted(table)
    ]
    catalogue_path.write_text("{\n" + ",\n".join(entries) + "\n}\n", encoding="utf-8")
    messages_path = i18n / "zh_hans_messages.json"
    messages = json.loads(messages_path.read_text(encoding="utf-8"))
    messages[code] = dict([MESSAGE_TEMPLATE])
    messages = {
        k: messages[k] for k in sorted(messages, key=lambda k: (k.startswith("ROC"), k))
    }  # "_comment", "*" first
    messages_path.write_text(json.dumps(messages, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def regenerate(code: str) -> None:
    """The new fixtures' snapshots (test_rule_fixtures), then docs/rules.md (`make docs`)."""
    env = {**os.environ, "ROCPORT_UPDATE_SNAPSHOTS": "1"}
    pytest = [sys.executable, "-m", "pytest", "tests/scanner/test_rule_fixtures.py", "-q", "-n", "0", "-k", code]
    subprocess.run([*pytest, "-p", "no:cacheprovider"], cwd=ROOT, env=env, check=True, capture_output=True)
    docs = subprocess.run([sys.executable, "-m", "scanner", "docs"], cwd=ROOT, check=True, capture_output=True)
    (ROOT / "docs" / "rules.md").write_bytes(docs.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("family", help=", ".join(FAMILY_KIND) + " (a package under scanner/rules/)")
    parser.add_argument("module", help="snake_case, named after the pattern flagged: the rule is <family>-<module>")
    parser.add_argument("--code", help="ROCnnn (default: the next free code after the family's last)")
    parser.add_argument("--kind", choices=sorted(KINDS), help="the files' language (default: the family's)")
    args = parser.parse_args(argv)
    if not re.fullmatch(r"[a-z][a-z0-9]*(_[a-z0-9]+)*", args.module) or not re.fullmatch(r"[a-z]+", args.family):
        parser.error("family is a lowercase word and module is snake_case")
    if args.family == "compile":
        parser.error("compile rules read hipcc's diagnostics: start from a module in scanner/rules/compile/")
    kind = args.kind or FAMILY_KIND.get(args.family)
    if kind is None:
        parser.error(f"{args.family} is a new family: say its files' language with --kind")
    package = ROOT / "scanner" / "rules" / args.family
    if (package / f"{args.module}.py").exists():
        parser.error(f"{package / args.module}.py exists")
    codes_path = ROOT / "scanner" / "rules" / "codes.py"
    codes_text = codes_path.read_text()
    code = args.code or next_code(codes_text, args.family)
    if not re.fullmatch(r"ROC\d{3}", code) or f'"{code}"' in codes_text:
        parser.error(f"{code} is not ROCnnn or is already assigned in codes.py")

    rule = expected_name(f"{args.family}.{args.module}")
    word = f"{args.module}_example"
    package.mkdir(exist_ok=True)
    (package / "__init__.py").touch()
    (package / f"{args.module}.py").write_text(module_text(kind, rule, word))
    codes_path.write_text(add_code_row(codes_text, code, args.family, args.module))
    positive, negative = fixtures(kind, code, rule, word)
    fixture_dir = ROOT / "tests" / "scanner" / "fixtures" / "rules"
    written = [fixture_dir / f"{code}_{args.module}{KINDS[kind].suffix}", fixture_dir / f"{code}_{args.module}_ok"]
    written[1] = written[1].with_name(written[1].name + KINDS[kind].suffix)
    written[0].write_text(positive)
    written[1].write_text(negative)
    add_translations(code)
    regenerate(code)
    print(f"{code} {rule}: wrote {package / args.module}.py, its row in codes.py, {written[0].name}, {written[1].name}")
    print("the zh-Hans title, summary and message template (marked 待写), the snapshots and docs/rules.md")
    print("now write the check, the docstring, the fixtures and the translations: docs/contributing.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
