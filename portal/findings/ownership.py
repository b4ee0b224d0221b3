"""Ownership from the repository's CODEOWNERS file (GitHub/GitLab syntax): the last matching pattern wins."""

from __future__ import annotations

import re
from functools import lru_cache

from django.db.models import Q

from portal.repositories.models import Repository

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


_SPECIAL = set(".^$+(){}|\\")


@lru_cache(maxsize=4096)
def pattern_regex(pattern: str) -> str:
    """A CODEOWNERS pattern as an anchored regular expression over repository-relative paths.

    Written by hand rather than with fnmatch.translate, whose output (atomic groups since Python 3.11) PostgreSQL's
    regex engine rejects: the result must mean the same in Python's `re` and in PostgreSQL's `~` (the owner filter
    of the findings list runs in SQL)."""
    anchored = pattern.startswith("/")
    body = pattern.strip("/")
    directory = pattern.endswith("/")
    out, i = [], 0
    while i < len(body):
        char = body[i]
        if body.startswith("**/", i):
            out.append("(?:.*/)?")  # zero or more directories
            i += 3
        elif body.startswith("**", i):
            out.append(".*")
            i += 2
        elif char == "*":
            out.append("[^/]*")
            i += 1
        elif char == "?":
            out.append("[^/]")
            i += 1
        elif char == "[" and "]" in body[i + 2 :] or char == "[" and body[i + 1 : i + 2] == "]":
            end = body.index("]", i + 2)
            inner = body[i + 1 : end]
            if inner.startswith("!"):
                inner = "^" + inner[1:]
            out.append("[" + inner.replace("\\", "\\\\") + "]")
            i = end + 1
        else:
            out.append("\\" + char if char in _SPECIAL or char in "[]" else char)
            i += 1
    prefix = "^" if anchored or "/" in body else "^(?:.*/)?"
    suffix = "/.*$" if directory else "(?:/.*)?$"
    return prefix + "".join(out) + suffix


def owners_of(path: str, rules: list[tuple[str, tuple[str, ...]]]) -> tuple[str, ...]:
    owners: tuple[str, ...] = ()
    for pattern, who in rules:
        if re.match(pattern_regex(pattern), path):
            owners = who
    return owners


def paths_owned_by(owner: str, team_ids: list[int]) -> Q:
    """A filter for findings whose path the owner owns, across the teams' repositories."""
    condition = Q(pk__in=[])
    for repo_id, text in (
        Repository.objects.filter(team_id__in=team_ids).exclude(codeowners="").values_list("pk", "codeowners")
    ):
        rules = parse(text)
        # The last matching rule wins: a path is the owner's if some rule of theirs matches and no later rule
        # of someone else does. Expressed as regexes: (theirs) and not (later others).
        for index, (pattern, who) in enumerate(rules):
            if owner not in who:
                continue
            later = [p for p, w in rules[index + 1 :] if owner not in w]
            clause = Q(repository_id=repo_id, path__regex=pattern_regex(pattern))
            for other in later:
                clause &= ~Q(path__regex=pattern_regex(other))
            condition |= clause
    return condition
