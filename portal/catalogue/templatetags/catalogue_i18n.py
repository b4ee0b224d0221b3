"""Rule texts in the reader's language (portal.catalogue.translations): `{{ code|rule_summary:english }}`."""

from __future__ import annotations

from django import template

from portal.catalogue import messages, translations
from portal.catalogue.labels import RISKS

register = template.Library()


@register.filter
def rule_summary(code: str, english: str) -> str:
    return translations.text(str(code), "summary", english)


@register.filter
def rule_title(code: str, english: str) -> str:
    return translations.text(str(code), "title", english)


@register.filter
def severity_label(value) -> str:
    """ "high" -> "high" / "高": a severity value as the reader's word; an unknown value stays as it was."""
    return str(translations.SEVERITIES.get(str(value), value))


@register.filter
def risk_label(value) -> str:
    """ "build-break" -> "build break" / "构建失败"; an unknown value stays as it was."""
    return str(RISKS.get(str(value), value))


@register.filter
def finding_message(code: str, english: str) -> str:
    """`{{ f.rule|finding_message:f.message }}`: the scanner's English message in the reader's language
    (portal.catalogue.messages), or whole in English when a part of it has no template; before any truncation."""
    return messages.display(str(code), english)


@register.filter
def hip_reason(reason) -> str:
    """Why the translator left a CUDA name as it was (scanner.translate.names.decide), in the reader's language."""
    return str(translations.HIP_REASONS.get(str(reason), reason))


@register.filter
def rule_why(code: str, english: str) -> str:
    """The rule's "Why it breaks on ROCm" section in the reader's language, else `english`."""
    return translations.text(str(code), "why", english)


@register.filter
def rule_instead(code: str, english: str) -> str:
    """The rule's "Use instead" section in the reader's language, else `english`."""
    return translations.text(str(code), "instead", english)


@register.filter
def rule_translated(code: str, key: str) -> bool:
    return translations.translated(str(code), key)


@register.filter
def rule_what(code: str, english: str) -> str:
    """The rule's "What it finds" section in the reader's language, else `english`."""
    return translations.text(str(code), "what", english)
