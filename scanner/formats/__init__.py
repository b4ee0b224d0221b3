"""Non-C++ files (build files, containers, scripts, CI YAML, Python, packaging, host setup): how each format is
read for the file-level rules, without libclang.

Every format is first a list of lines (the rules report at a line); a format with a maintained parser also has a
parsed form (`yaml_doc` with PyYAML, `python_src` with `ast`, `packages` with `tomllib`), built once per file by
`parse(language, text)`. A file its parser rejects keeps its line view: the rules that need structure fall back
to lines and the file's parse health says why (mode "tokens"), so a malformed file costs its structure, never
the scan.

`lines.py` owns the line view shared by every format: `#` comments, continuation lines, shell words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Languages analysed as text (scanner.discovery assigns them); C, C++, CUDA and PTX are not among them.
TEXT_LANGUAGES = frozenset(
    {"cmake", "make", "dockerfile", "shell", "yaml", "python", "requirements", "pyproject", "conda", "sysctl"}
)
# Languages whose comments start with `#` (suppression comments are read from them).
HASH_COMMENT_LANGUAGES = TEXT_LANGUAGES


@dataclass
class Parsed:
    """A file's parsed form: `value` (None when the format has no parser or the parser rejected the file)."""

    value: Any = None
    error: str = ""  # the parser's complaint, with its line when it gave one


def parse(language: str, text: str) -> Parsed:
    """The parsed form of a text file, or the parser's error; never raises."""
    if language in ("yaml", "conda"):
        # inside: yaml_doc imports Parsed from this module (cycle); PyYAML loads only for YAML files
        from scanner.formats import yaml_doc

        return yaml_doc.parse(text)
    if language == "python":
        # inside: python_src imports Parsed from this module (cycle)
        from scanner.formats import python_src

        return python_src.parse(text)
    if language == "pyproject":
        # inside: packages imports Parsed from this module (cycle)
        from scanner.formats import packages

        return packages.parse_toml(text)
    return Parsed()
