"""Template filters of the finding pages: triage values as their (translated) labels, and rule documentation's
inline Markdown code (`name`) as <code>, everything else escaped."""

from __future__ import annotations

import re

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from portal.findings.models import Finding

register = template.Library()

_INLINE_CODE = re.compile(r"`([^`\n]+)`")


@register.filter
def triage_label(value) -> str:
    """ "false_positive" -> "False positive" (translated); a value that is no longer a choice stays as it was."""
    try:
        return Finding.Triage(value).label
    except ValueError:
        return "" if value is None else str(value)


@register.filter(needs_autoescape=False)
def inline_code(text) -> SafeString:
    """The text escaped, with each `span` in backticks as <code>span</code> (rule documentation is Markdown); line
    breaks as <br>, as linebreaksbr did."""
    escaped = escape(text or "")
    with_code = _INLINE_CODE.sub(lambda m: f"<code>{m.group(1)}</code>", escaped)
    return mark_safe(with_code.replace("\n", "<br>"))
