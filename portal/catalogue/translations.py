"""The rule catalogue in the reader's language: each rule's title, summary and documentation sections translated
as data keyed by the rule's code (codes are stable; names and modules may change), English as the fallback.

`portal/catalogue/i18n/<language>.json` maps a code to {"title", "summary", "what", "why", "instead", "known"}
(the last four are the documentation's sections, SECTIONS below, in the docstring's own layout: blank lines between
paragraphs, `- ` bullets, `backticks` for code; `tests/portal/catalogue/test_catalogue_i18n.py` checks that a translated
section keeps every code span of the English). A key that is absent falls back to the rule's English text. `tests/portal/catalogue/test_catalogue_i18n.py` holds that every rule of the catalogue has a summary and a title in
every language listed here.

The scanner never imports Django, so the translations live in the portal and are chosen by the active language."""

from __future__ import annotations

import functools
import json
from pathlib import Path

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

DATA = Path(__file__).resolve().parent / "i18n"
# Django language code -> data file name
LANGUAGES = {"zh-hans": "zh_hans"}
# The documentation sections that can be translated, by their key in the data
SECTIONS = {
    "what": "What it finds",
    "why": "Why it breaks on ROCm",
    "instead": "Use instead",
    "known": "Known problems",
}
# A finding's or a rule's severity value as a word of the page
SEVERITIES = {"critical": _("critical"), "high": _("high"), "medium": _("medium"), "low": _("low"), "info": _("info")}
# Why the built-in translator left a CUDA name untouched: the reasons scanner.translate.names.decide() gives (the
# scanner never imports Django, so they are translated here, when the page shows them)
HIP_REASONS = {
    "HIP has no equivalent": _("HIP has no equivalent"),
    "only a roc* equivalent exists (translate with --roc)": _("only a roc* equivalent exists (translate with --roc)"),
    "hip* libraries lack it": _("hip* libraries lack it"),
    "hip* libraries lack it (a roc* equivalent exists: --roc)": _(
        "hip* libraries lack it (a roc* equivalent exists: --roc)"
    ),
    "roc* libraries lack it": _("roc* libraries lack it"),
}


@functools.cache
def table(language: str) -> dict[str, dict[str, str]]:
    name = LANGUAGES.get(language)
    if name is None:
        return {}
    return json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))


def _current() -> dict[str, dict[str, str]]:
    return table((get_language() or "en").lower())


def text(code: str, key: str, english: str) -> str:
    """The rule's `key` ("title", "summary", "why", "instead") in the active language, else `english`."""
    return _current().get(code, {}).get(key) or english


def translated(code: str, key: str) -> bool:
    return bool(_current().get(code, {}).get(key))
