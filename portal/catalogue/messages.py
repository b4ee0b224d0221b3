"""A finding's message in the reader's language, at display time: the scanner stores English (the API, SARIF and CSV
exports keep it), and the pages translate it here through templates kept as data.

`portal/catalogue/i18n/<language>_messages.json` maps a rule code, or "*" for the sentences every rule may append
(the target's, the "consistent here, so only a note" of the warp rules), to {English template: translation}. A
template is one or more whole sentences with {placeholders} for the variable parts; the kind of a placeholder is
its name without trailing digits (PLACEHOLDERS below) and its text is carried into the translation unchanged. A
message is read as a sequence of templates, each ending at a space or at the end; if any part of it has no template
the message is shown in English whole, never half translated. `tests/portal/catalogue/test_message_i18n.py` holds that every
message of the rule fixtures and of the demo project translates."""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass

from django.utils.translation import get_language

from portal.catalogue.translations import DATA, LANGUAGES

# Placeholder kind -> what it matches. Code spans keep their backticks; the translation may wrap a bare name or a
# compiler's diagnostic in backticks so that it shows as code.
PLACEHOLDERS = {
    "code": r"`[^`\n]+`",
    "codes": r"`[^`\n]+`(?:, `[^`\n]+`)*",  # a comma-separated list of code spans
    "n": r"\d+(?:\.\d+)*(?:-\d+(?:\.\d+)*)?",  # 32, 7.2, 6.2-6.4
    "word": r"[^\s`]+",  # a bare name: an identifier, a header, a path, a flag
    "lines": r"\d[\d, .]*\d|\d",  # 2, 3, 6, ... 20
    "targets": r"\w+ \([^()]*\)(?:, \w+ \([^()]*\))*",  # gfx942 (MI300X, wave64), gfx90a (MI200, wave64)
    "quoted": r'"[^"\n]*"',
    "diag": r"[^`\n]+?",  # the compiler's own text, quoted as it is
}
_PLACEHOLDER = re.compile(r"\{([a-z]+)(\d*)\}")
_END = r"(?=\s|$)"


@dataclass(frozen=True)
class Template:
    english: str
    translation: str
    pattern: re.Pattern

    def render(self, match: re.Match) -> str:
        return _PLACEHOLDER.sub(lambda m: match.group(m.group(1) + m.group(2)), self.translation)


def compile_template(english: str, translation: str) -> Template:
    """A template's regex; a placeholder of an unknown kind, or one the translation drops or invents, is an error."""
    parts, last = [], 0
    for m in _PLACEHOLDER.finditer(english):
        kind = m.group(1)
        if kind not in PLACEHOLDERS:
            raise ValueError(f"unknown placeholder {m.group(0)} in {english!r}")
        parts += [re.escape(english[last : m.start()]), f"(?P<{kind}{m.group(2)}>{PLACEHOLDERS[kind]})"]
        last = m.end()
    parts.append(re.escape(english[last:]))
    if sorted(_PLACEHOLDER.findall(english)) != sorted(_PLACEHOLDER.findall(translation)):
        raise ValueError(f"the translation of {english!r} does not carry the same placeholders")
    return Template(english, translation, re.compile("".join(parts) + _END))


def _literal_length(template: Template) -> int:
    return len(_PLACEHOLDER.sub("", template.english))


@functools.cache
def templates(language: str) -> dict[str, tuple[Template, ...]]:
    """Rule code (and "*") -> its compiled templates, the most literal text first ("Size it from" before "Size
    {word} from")."""
    name = LANGUAGES.get(language)
    path = DATA / f"{name}_messages.json"
    if name is None or not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {
        code: tuple(sorted((compile_template(en, zh) for en, zh in pairs.items()), key=_literal_length, reverse=True))
        for code, pairs in data.items()
        if not code.startswith("_")  # "_comment"
    }


@functools.lru_cache(maxsize=4096)
def translate(code: str, message: str, language: str) -> str | None:
    """`message` of rule `code` in `language`, or None when some part of it has no template."""
    table = templates(language)
    candidates = table.get(code, ()) + table.get("*", ())
    if not candidates:
        return None
    text = " ".join(message.split())

    @functools.cache
    def rest(pos: int) -> tuple[str, ...] | None:
        # every way to read text[pos:] as templates is tried (a shorter sentence may be the one that lets the rest
        # match), the first complete reading wins
        if pos == len(text):
            return ()
        for template in candidates:
            match = template.pattern.match(text, pos)
            if match is None:
                continue
            after = rest(len(text) if match.end() == len(text) else match.end() + 1)
            if after is not None:
                return (template.render(match), *after)
        return None

    pieces = rest(0)
    return None if pieces is None else "".join(pieces)


def display(code: str, message: str) -> str:
    """The message in the active language, else the English message whole."""
    language = (get_language() or "en").lower()
    if language not in LANGUAGES or not message:
        return message
    return translate(str(code), str(message), language) or message
