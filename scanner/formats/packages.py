"""Python package requirements wherever a project declares them: requirements*.txt, pyproject.toml (`tomllib`),
setup.py (`install_requires` read with `ast`), conda environment files (PyYAML). Each requirement keeps the line
it was written on, so a rule about a CUDA-only wheel reports there.
"""

from __future__ import annotations

import ast
import dataclasses
import re
import tomllib
from dataclasses import dataclass

from scanner.formats import Parsed, yaml_doc
from scanner.formats.lines import code_lines
from scanner.formats.python_src import walk_ast


@dataclass(frozen=True)
class Requirement:
    name: str  # normalised (PEP 503): lower case, runs of -_. as one "-"
    raw: str  # as written: `torch==2.3.0+cu121`
    line: int
    col: int
    source: str  # "pip" or "conda"
    # The opt-in group it is in, if any: a pyproject optional-dependencies extra (`cu13`), a PEP 735 dependency
    # group, or a setup.py `extras_require` key. The base install never pulls it.
    extra: str = ""


_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def parse_toml(text: str) -> Parsed:
    try:
        return Parsed(tomllib.loads(text))
    except tomllib.TOMLDecodeError as exc:
        return Parsed(None, f"not valid TOML ({exc})")
    except ValueError:  # int() refusing a number of more than 4,300 digits, which tomllib lets through
        return Parsed(None, "not valid TOML (a number of more than 4,300 digits)")
    except RecursionError:  # arrays or inline tables nested thousands deep
        return Parsed(None, "not valid TOML (nested too deeply)")


def requirements(facts) -> list[Requirement]:
    cached = facts.cache.get("requirements")
    if cached is None:
        reader = {
            "requirements": _from_requirements_txt,
            "pyproject": _from_pyproject,
            "conda": _from_conda,
            "python": _from_setup_py,
        }.get(facts.language)
        cached = reader(facts) if reader is not None else []
        facts.cache["requirements"] = cached
    return cached


def _requirement(raw: str, line: int, col: int, source: str = "pip") -> Requirement | None:
    match = _NAME.match(raw)
    if match is None or raw.lstrip().startswith(("-", "http:", "https:", "git+", "file:", ".", "/")):
        return None
    return Requirement(normalise(match.group(1)), raw.strip(), line, col, source)


def _from_requirements_txt(facts) -> list[Requirement]:
    out = []
    for number, text in code_lines(facts):
        stripped = text.strip()
        egg = re.search(r"#egg=([\w.-]+)", text)
        if egg:  # `git+https://...#egg=flash-attn`
            out.append(Requirement(normalise(egg.group(1)), stripped, number, text.find(stripped) + 1, "pip"))
            continue
        req = _requirement(stripped, number, text.find(stripped) + 1)
        if req is not None:
            out.append(req)
    return out


def _locate(facts, raw: str, start: int) -> tuple[int, int]:
    """The first line at or after `start` (1-based) that spells `raw` inside quotes, else its name."""
    for number in range(max(start, 1), len(facts.lines) + 1):
        col = facts.lines[number - 1].find(raw)
        if col >= 0:
            return number, col + 1
    return 0, 0


def _from_pyproject(facts) -> list[Requirement]:
    data = facts.parsed.value if facts.parsed is not None else None
    if not isinstance(data, dict):
        return _from_requirements_lines(facts)
    specs: list[str] = []
    project = data.get("project", {})
    specs += list(project.get("dependencies", []) or [])
    extras: dict[str, str] = {}
    for extra, group in (project.get("optional-dependencies", {}) or {}).items():
        specs += list(group or [])
        extras.update((spec, extra) for spec in group or [] if isinstance(spec, str))
    specs += list(data.get("build-system", {}).get("requires", []) or [])
    for name, group in (data.get("dependency-groups", {}) or {}).items():
        specs += [s for s in group or [] if isinstance(s, str)]
        extras.update((spec, name) for spec in group or [] if isinstance(spec, str) and spec not in extras)
    poetry = data.get("tool", {}).get("poetry", {})
    specs += [name for name in (poetry.get("dependencies", {}) or {}) if name != "python"]
    out = []
    for spec in specs:
        if not isinstance(spec, str):
            continue
        line, col = _locate(facts, spec, 1)
        req = _requirement(spec, line, col) if line else None
        if req is not None:
            out.append(dataclasses.replace(req, extra=extras.get(spec, "")))
    return sorted(set(out), key=lambda r: (r.line, r.col))


def _from_requirements_lines(facts) -> list[Requirement]:
    """A pyproject.toml tomllib rejects: quoted requirement-like strings on their lines."""
    out = []
    for number, text in code_lines(facts):
        for match in re.finditer(r"""["']([A-Za-z0-9][A-Za-z0-9._-]*[^"']*)["']""", text):
            req = _requirement(match.group(1), number, match.start(1) + 1)
            if req is not None:
                out.append(req)
    return out


def _from_conda(facts) -> list[Requirement]:
    out = []
    for doc in yaml_doc.documents(facts):
        for item in yaml_doc.elements(yaml_doc.get(doc, "dependencies")):
            if isinstance(item, yaml_doc.ScalarNode):
                spec = item.value.split("::")[-1]  # `nvidia::cuda-toolkit`
                req = _requirement(
                    spec.replace("=", "==", 1) if "==" not in spec else spec,
                    yaml_doc.line_of(item),
                    yaml_doc.col_of(item),
                    "conda",
                )
                if req is not None:
                    out.append(Requirement(req.name, item.value, req.line, req.col, "conda"))
            for pip in yaml_doc.elements(yaml_doc.get(item, "pip")):
                req = _requirement(yaml_doc.text(pip), yaml_doc.line_of(pip), yaml_doc.col_of(pip))
                if req is not None:
                    out.append(req)
    return out


def _from_setup_py(facts) -> list[Requirement]:
    """`install_requires=[...]`, `extras_require={...: [...]}` and `setup_requires` of a setup() call."""
    if not facts.path.endswith("setup.py"):
        return []
    module = facts.parsed.value if facts.parsed is not None else None
    out = []
    if module is None:
        return out
    for node in walk_ast(module):
        if isinstance(node, ast.keyword) and node.arg in ("install_requires", "extras_require", "setup_requires"):
            extras = _extra_keys(node.value) if node.arg == "extras_require" else {}
            for const in ast.walk(node.value):
                if (
                    isinstance(const, ast.Constant)
                    and isinstance(const.value, str)
                    and not (isinstance(node.value, ast.Dict) and const in node.value.keys)
                ):
                    req = _requirement(const.value, const.lineno, const.col_offset + 1)
                    if req is not None:
                        out.append(dataclasses.replace(req, extra=extras.get(id(const), "")))
    return out


def _extra_keys(value: ast.expr) -> dict[int, str]:
    """The `extras_require` key each string of a literal dict's values sits under (id of the constant -> key)."""
    if not isinstance(value, ast.Dict):
        return {}
    out = {}
    for key, group in zip(value.keys, value.values):
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            out.update((id(const), key.value) for const in ast.walk(group) if isinstance(const, ast.Constant))
    return out
