"""Template filters of the finding pages: triage values as their (translated) labels, a re-rating's reason in the
reader's language, and rule documentation's inline Markdown code (`name`) as <code>, everything else escaped."""

from __future__ import annotations

import re

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from portal.catalogue import messages
from portal.findings.models import RERATED_REASON, Finding

register = template.Library()

_INLINE_CODE = re.compile(r"`([^`\n]+)`")


@register.filter
def triage_label(value) -> str:
    """ "false_positive" -> "False positive" (translated); a value that is no longer a choice stays as it was."""
    try:
        return Finding.Triage(value).label
    except ValueError:
        return "" if value is None else str(value)


@register.filter
def rerating_reason(reason, rule) -> str:
    """`{{ event.data.reason|rerating_reason:finding.rule }}`: why a scan re-rated a finding, in the reader's
    language: the sentences of the rule's message that said why (translated as the message is), or our own words
    when the message said nothing new."""
    reason = "" if reason is None else str(reason)
    if reason == RERATED_REASON:
        return gettext("the rule's judgement changed with the code")
    return messages.display(str(rule or ""), reason)


@register.filter
def truncate_code(text, length) -> str:
    """As truncatechars (at most `length` characters, "…" included), but never through a `code span`: a span the
    cut would split is left out whole (or, when it opens the text, shown without its backticks), so no unmatched
    backtick is left for inline_code to show."""
    text, length = "" if text is None else str(text), int(length)
    if len(text) <= length:
        return text
    cut = max(0, length - 1)
    kept = text[:cut]
    for span in _INLINE_CODE.finditer(text):
        if span.start() < cut < span.end():  # the cut falls inside this span
            before = text[: span.start()].rstrip()
            kept = before if before else text[span.start() + 1 : cut]
            break
    return f"{kept}…"


@register.filter(needs_autoescape=False)
def inline_code(text) -> SafeString:
    """The text escaped, with each `span` in backticks as <code>span</code> (rule documentation is Markdown); line
    breaks as <br>, as linebreaksbr did."""
    escaped = escape(text or "")
    with_code = _INLINE_CODE.sub(lambda m: f"<code>{m.group(1)}</code>", escaped)
    return mark_safe(with_code.replace("\n", "<br>"))
