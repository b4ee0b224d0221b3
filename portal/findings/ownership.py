"""Ownership from the repository's CODEOWNERS file (GitHub/GitLab syntax): the last matching pattern wins."""

from __future__ import annotations

import fnmatch
import re
from functools import lru_cache

from django.db.models import Q

LOCATIONS = (".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS", ".gitlab/CODEOWNERS")


def parse(text: str) -> list[tuple[str, tuple[str, ...]]]:
    rules = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line or line.startswith("["):  # comments and GitLab sections
            continue
        pattern, *owners = line.split()
        if owners:
            rules.append((pattern, tuple(owners)))
    return rules


@lru_cache(maxsize=4096)
def pattern_regex(pattern: str) -> str:
    """A CODEOWNERS pattern as an anchored regular expression over repository-relative paths."""
    anchored = pattern.startswith("/")
    body = pattern.strip("/")
    directory = pattern.endswith("/")
    translated = fnmatch.translate(body).replace(r"\Z", "")
    translated = translated.removeprefix("(?s:").removesuffix(")")
    translated = translated.replace(".*", "[^/]*").replace("[^/]*[^/]*", ".*")  # ** crosses directories
    prefix = "^" if anchored or "/" in body else "^(?:.*/)?"
    suffix = "/.*$" if directory else "(?:/.*)?$"
    return prefix + translated + suffix


def owners_of(path: str, rules: list[tuple[str, tuple[str, ...]]]) -> tuple[str, ...]:
    owners: tuple[str, ...] = ()
    for pattern, who in rules:
        if re.match(pattern_regex(pattern), path):
            owners = who
    return owners


def paths_owned_by(owner: str, team_ids: list[int]) -> Q:
    """A filter for findings whose path the owner owns, across the teams' repositories."""
    from portal.repositories.models import Repository

    condition = Q(pk__in=[])
    for repo_id, text in Repository.objects.filter(team_id__in=team_ids).exclude(codeowners="") \
            .values_list("pk", "codeowners"):
        rules = parse(text)
        # The last matching rule wins: a path is the owner's if some rule of theirs matches and no later rule
        # of someone else does. Expressed as regexes: (theirs) and not (later others).
        for index, (pattern, who) in enumerate(rules):
            if owner not in who:
                continue
            later = [p for p, w in rules[index + 1:] if owner not in w]
            clause = Q(repository_id=repo_id, path__regex=pattern_regex(pattern))
            for other in later:
                clause &= ~Q(path__regex=pattern_regex(other))
            condition |= clause
    return condition
