"""Another platform outside build files, by what the file itself says (scanner.analysis.port_notes reads it for the
ROC2xx rules; build files' branches come from the build model):
- an environment, requirements or CI file named for another architecture (`all_cuda-129_arch-aarch64.yaml`,
  `requirements-jetson.txt`): the environment of a host that cannot carry the profile's AMD GPU;
- the body of a Python `if` that holds only on another platform (`if arch == "aarch64":`,
  `if platform.machine() in ("aarch64", "arm64"):`, `if sys.platform == "win32":`,
  `if sys.platform.startswith("darwin"):`), and of the `elif`s that do too; never the `else`;
- a CI job for another architecture: a GitLab CI job whose name, image or tags name one (`linux-aarch64 test`,
  `$BUILD_ARM_IMAGE`, `arch/arm`) or whose name or tags name Windows or macOS (`win-x86_64-gpu-1x`), a GitHub
  Actions job whose every runner names another architecture (`ubuntu-24.04-arm`).
"""

from __future__ import annotations

import ast
import re

from scanner.formats import python_src, yaml_doc
from scanner.formats.python_src import walk_ast

# Another architecture, as a word of a name: `aarch64`, `arm64`, `arm`, Jetson's `l4t`/`tegra`.
_ARCH_WORD = re.compile(r"(?:^|[^a-z0-9])(aarch64|arm64(?:v8)?|arm|armv\d\w*|jetson|l4t|tegra)(?:[^a-z0-9]|$)", re.I)
# Another system, as a word of a CI job's name, image or tag (`win-x86_64-gpu-1x`, `macos-build`).
_OS_WORD = re.compile(r"(?:^|[^a-z0-9])(win|win32|win64|windows|macos|osx|darwin)(?:[^a-z0-9]|$)", re.I)
# A file name: the same words, but not a bare `arm` (`farm.yaml`, `arm_template.json` may be anything).
_FILE_WORD = re.compile(r"(?:^|[/_.-])(aarch64|arm64(?:v8)?|armv\d\w*|jetson|l4t|tegra)(?=[/_.-]|$)", re.I)
# What a Python platform test compares with: another architecture, or Windows and macOS.
_OTHER = frozenset(
    {"aarch64", "arm64", "armv7l", "armv8l", "arm", "win32", "cygwin", "windows", "nt", "darwin", "macos"}
)
_PREFIXES = ("win", "darwin", "aarch64", "arm", "cygwin")


# The files a name decides: environments, requirements and CI definitions. Not scripts or build files, which
# often handle several architectures whatever their name says (a `docker_arm64.sh` that also runs x86-64 images).
NAMED_LANGUAGES = frozenset({"conda", "requirements", "yaml", "pyproject"})


def named_file(path: str) -> str:
    """`a file named for aarch64` when a word of the file's path names another architecture, else ""."""
    found = _FILE_WORD.search(path)
    return f"a file named for {found.group(1)}" if found else ""


def python_lines(facts) -> dict[int, str]:
    """Per line of a Python file inside a branch for another platform: the test as written."""
    module = python_src.tree(facts)
    out: dict[int, str] = {}
    for node in walk_ast(module) if module is not None else ():
        if isinstance(node, ast.If) and _other_platform(node.test):
            test = ast.unparse(node.test)
            for statement in node.body:
                for line in range(statement.lineno, (statement.end_lineno or statement.lineno) + 1):
                    out.setdefault(line, f"if {test}")
    return out


def _other_platform(test: ast.expr) -> bool:
    """A test that holds only on another platform: a comparison with such a name (`==`, `in` a tuple of them),
    `.startswith` one, or an `and` with one such part."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return any(_other_platform(part) for part in test.values)
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        return all(_other_platform(part) for part in test.values)
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        op, right = test.ops[0], test.comparators[0]
        if isinstance(op, ast.Eq):
            return _names_other(right) or _names_other(test.left)
        if isinstance(op, ast.In) and isinstance(right, (ast.Tuple, ast.List, ast.Set)) and right.elts:
            return all(_names_other(e) for e in right.elts)
        return False
    if isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute) and test.func.attr == "startswith":
        return bool(test.args) and all(
            isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.lower().startswith(_PREFIXES)
            for a in test.args
        )
    return False


def _names_other(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.lower() in _OTHER


def ci_jobs(facts) -> list[tuple[int, int, str]]:
    """(first line, last line, what names the architecture) of each CI job for another architecture."""
    kinds = yaml_doc.kinds(facts)
    out = []
    for doc in yaml_doc.documents(facts):
        if "gitlab-ci" in kinds:
            for name, key, job in yaml_doc.items(doc):
                if isinstance(name, str) and not name.startswith(".") and yaml_doc.get(job, "script") is not None:
                    found = _gitlab_arch(name, job)
                    if found:
                        out.append((yaml_doc.line_of(key), job.end_mark.line + 1, found))
        if "github-actions" in kinds:
            for _, key, job in yaml_doc.items(yaml_doc.get(doc, "jobs")):
                labels = [yaml_doc.text(n) for n in _runs_on(job)]
                if labels and all(_ARCH_WORD.search(label) for label in labels):
                    out.append((yaml_doc.line_of(key), job.end_mark.line + 1, f"runs-on: {labels[0]}"))
    return out


def _gitlab_arch(name: str, job) -> str:
    """What says a GitLab CI job runs on another architecture (its name, image or a tag), or ""."""
    if _ARCH_WORD.search(name) or _OS_WORD.search(name):
        return f"job {name}"
    image = yaml_doc.get(job, "image")
    image = yaml_doc.get(image, "name") if image is not None and yaml_doc.get(image, "name") is not None else image
    if image is not None and _ARCH_WORD.search(yaml_doc.text(image)):
        return f"image: {yaml_doc.text(image)}"
    for tag in yaml_doc.elements(yaml_doc.get(job, "tags")):
        if _ARCH_WORD.search(yaml_doc.text(tag)) or _OS_WORD.search(yaml_doc.text(tag)):
            return f"tags: {yaml_doc.text(tag)}"
    return ""


def _runs_on(job) -> list:
    runs_on = yaml_doc.get(job, "runs-on")
    if runs_on is None:
        return []
    if isinstance(runs_on, yaml_doc.ScalarNode):
        return [] if "${{" in yaml_doc.text(runs_on) else [runs_on]
    return [n for n in yaml_doc.elements(runs_on) if isinstance(n, yaml_doc.ScalarNode)]
