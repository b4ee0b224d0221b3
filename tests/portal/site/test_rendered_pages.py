"""Every page of the URL configuration, rendered for a member in English and in Simplified Chinese: no template
syntax reaches the HTML (a multi-line `{# #}` is not a Django comment and shows as text), and every state and
choice label a page can show comes through the translation catalogue."""

from __future__ import annotations

import re

import pytest
from django.apps import apps
from django.db import models
from django.utils import translation

from portal.findings.actions import do_triage_findings
from tests.portal.people import client_for
from tests.portal.routes import PUBLIC, concrete, routes, team_objects

# Source shown on a page is the repository's text, escaped: `{{` inside <pre>/<code>/<td class="code"> is data.
_CODE = re.compile(r"<(pre|code|textarea)\b.*?</\1>|<td class=\"(?:src|code)[^\"]*\".*?</td>", re.S)
_TEMPLATE_SYNTAX = re.compile(r"\{#|#\}|\{%|%\}|\{\{|\}\}")


def leaked_syntax(html: str) -> list[str]:
    body = _CODE.sub("", html.split("<body", 1)[-1])
    body = re.sub(r"<script\b.*?</script>", "", body, flags=re.S)
    return [body[max(0, m.start() - 60) : m.end() + 60] for m in _TEMPLATE_SYNTAX.finditer(body)]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_no_page_shows_template_syntax(people, language):
    repository, scan, finding, objects = team_objects(people)
    do_triage_findings(repository.findings.filter(pk=finding.pk), "wont_fix", "checked", acting_user=people.alice)
    client = client_for(people.alice, headers={"accept-language": language})
    pages = 0
    for route in routes():
        if route.startswith(("api/", "hooks/")) or route in ("accounts/logout/", "i18n/setlang/", "healthz"):
            continue
        url = concrete(route, objects) if route not in PUBLIC else "/" + route
        response = client.get(url)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        leaks = leaked_syntax(response.content.decode())
        assert not leaks, f"{url} ({language}) shows template syntax: {leaks[:3]}"
        pages += 1
    assert pages >= 15


def test_the_leak_check_sees_a_multiline_comment():
    rendered = "<body><p>{# a comment that spans\n two lines #}</p><pre>int a[2][2] = {{1, 2}, {3, 4}};</pre></body>"
    assert leaked_syntax(rendered) and not leaked_syntax(
        rendered.replace("<p>{# a comment that spans\n two lines #}</p>", "")
    )


def choice_labels():
    for model in apps.get_app_configs():
        if not model.name.startswith("portal."):
            continue
        for cls in model.get_models():
            for field in cls._meta.get_fields():
                if isinstance(field, models.Field) and field.choices and field.model is cls:
                    for value, label in field.flatchoices:
                        yield f"{cls.__name__}.{field.name}={value}", label


def test_every_state_and_choice_label_is_translated():
    """A label that stays English under zh-Hans is a label the catalogue never saw (a TextChoices member without
    an explicit gettext_lazy label gets an English one made from its name)."""
    untranslated = []
    labels = list(choice_labels())
    assert len(labels) >= 30
    for where, label in labels:
        with translation.override("en"):
            english = str(label)
        with translation.override("zh-hans"):
            chinese = str(label)
        if english == chinese and english not in ("GitHub", "GitLab", "Gitea", "Forgejo", "API"):
            untranslated.append(f"{where}: {english!r}")
    assert not untranslated, untranslated
