"""Scaffold a rule: the module with its doc skeleton, a fixture with a positive and a negative case, the code row.

    python scripts/new_rule.py --code ROC164 --family warp --name shfl-width-32 --event call

Then fill in the check, the docstring and the fixture, and run `make docs` and the tests.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

MODULE = '''"""TITLE.

What it finds:
    TODO

Why it breaks on ROCm:
    TODO

Example:
    TODO

Use instead:
    TODO

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/
"""

from scanner.model import Risk, Severity
from scanner.rules.base import Rule


def check(ctx) -> None:
    raise NotImplementedError("write the check")


RULE = Rule(
    name="{name}",
    summary="TODO one line",
    risk=Risk.SILENT_WRONG_RESULT,
    severity=Severity.MEDIUM,
    on=("{event}",),
    check=check,
)
'''

FIXTURE = """// Fixture for {code} {name}.
// Put `// expect: {code}` at the end of each offending line.

// OK: clean cases that must stay quiet follow.
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", required=True)
    parser.add_argument("--family", required=True, help="warp, ptx, libraries, api, kernel, ...")
    parser.add_argument("--name", required=True, help="kebab-case, named after the pattern flagged")
    parser.add_argument("--event", default="call")
    args = parser.parse_args()
    if not re.fullmatch(r"ROC\d{3}", args.code) or not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", args.name):
        parser.error("--code is ROCnnn and --name is kebab-case")
    codes = ROOT / "scanner" / "rules" / "codes.py"
    text = codes.read_text()
    if f'"{args.code}"' in text:
        parser.error(f"{args.code} is already assigned in codes.py")
    module = args.name.replace("-", "_")
    package = ROOT / "scanner" / "rules" / args.family
    package.mkdir(exist_ok=True)
    (package / "__init__.py").touch()
    (package / f"{module}.py").write_text(MODULE.replace("{name}", args.name).replace("{event}", args.event))
    fixture = ROOT / "tests" / "scanner" / "fixtures" / "rules" / f"{args.code}_{module}.cu"
    fixture.write_text(FIXTURE.format(code=args.code, name=args.name))
    codes.write_text(text.rstrip().rstrip("}").rstrip() + f'\n    "{args.code}": "{args.family}.{module}",\n}}\n')
    print(f"wrote {package / (module + '.py')}, {fixture}, and the {args.code} row of codes.py")
    return 0


if __name__ == "__main__":
    sys.exit(main())
