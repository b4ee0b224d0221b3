"""The findings list's filters, sort orders and keyset pagination, from the query string.

Every filter lives in the query string, so a view can be shared by URL. Pages are keyset-paginated on
(sort key, id) — the cursor is the last row's key — so a deep page costs what the first one does, also at a
million findings (served by the `finding_list_order` index for the default order).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import BooleanField, Q, QuerySet
from django.db.models.expressions import RawSQL

from portal.findings.models import SEVERITY_RANK, Finding
from portal.findings.ownership import paths_owned_by
from portal.repositories.models import Repository
from scanner.rules import resolve

PAGE_SIZE = 50
SORTS = ("severity", "path", "newest")
FILTER_KEYS = (
    "repository",
    "risk",
    "severity",
    "rule",
    "state",
    "triage",
    "path",
    "assignee",
    "new_since",
    "branch",
    "owner",
)


@dataclass
class Filters:
    repository: int | None = None
    risk: str = ""
    severity: str = ""
    rule: str = ""
    state: str = "open"
    triage: str = ""
    path: str = ""
    assignee: str = ""  # a user id, "me" or "none"
    new_since: int | None = None  # a scan id: findings first seen in it or later
    branch: str = ""  # empty: each repository's default branch
    owner: str = ""  # a CODEOWNERS owner (resolved by the dashboards' ownership module when present)
    sort: str = "severity"

    @classmethod
    def from_query(cls, query) -> Filters:
        def integer(name):
            try:
                return int(query.get(name, ""))
            except ValueError:
                return None

        sort = query.get("sort", "severity")
        return cls(
            repository=integer("repository"),
            risk=query.get("risk", ""),
            severity=query.get("severity", ""),
            rule=query.get("rule", ""),
            state=query.get("state", "open"),
            triage=query.get("triage", ""),
            path=query.get("path", ""),
            assignee=query.get("assignee", ""),
            new_since=integer("new_since"),
            branch=query.get("branch", ""),
            owner=query.get("owner", ""),
            sort=sort if sort in SORTS else "severity",
        )

    def as_query(self) -> dict:
        values = {k: getattr(self, k) for k in FILTER_KEYS}
        values["sort"] = self.sort
        return {k: v for k, v in values.items() if v not in (None, "") and not (k == "sort" and v == "severity")}


def scopes(team_ids: list[int], filters: Filters) -> list[tuple[int, str]]:
    """The (repository, branch) pairs the list covers: the team's repositories (or the one chosen), each on its
    default branch unless a branch is chosen. Resolved up front so that every pair is an index prefix."""
    repositories = Repository.objects.filter(team_id__in=team_ids)
    if filters.repository:
        repositories = repositories.filter(pk=filters.repository)
    return [
        (pk, filters.branch or default)
        for pk, default in repositories.order_by("pk").values_list("pk", "default_branch")
    ]


def filtered(team_ids: list[int], filters: Filters, user, scoped: list[tuple[int, str]] | None = None) -> QuerySet:
    if scoped is None:
        scoped = scopes(team_ids, filters)
    within = Q(pk__in=[])
    for repository_id, branch in scoped:
        within |= Q(repository_id=repository_id, branch=branch)
    return _narrowed(Finding.objects.filter(within), filters, user, team_ids)


def per_scope(team_ids: list[int], filters: Filters, user, scoped: list[tuple[int, str]]) -> list[QuerySet]:
    """The same filters, one query per (repository, branch): each is an index range on its own, and none carries
    the others' conditions (a hundred-way OR in each arm of a UNION costs more to plan than to run)."""
    return [_narrowed(Finding.objects.filter(repository_id=r, branch=b), filters, user, team_ids) for r, b in scoped]


def _narrowed(query: QuerySet, filters: Filters, user, team_ids: list[int]) -> QuerySet:
    if filters.state in (Finding.State.OPEN, Finding.State.FIXED):
        query = query.filter(state=filters.state)
    if filters.risk:
        query = query.filter(risk=filters.risk)
    if filters.severity in SEVERITY_RANK:
        query = query.filter(severity=filters.severity)
    if filters.rule:
        query = query.filter(rule=_rule_code(filters.rule))
    if filters.triage:
        query = query.filter(triage=filters.triage)
    if filters.path:
        query = query.filter(path__startswith=filters.path)
    if filters.assignee == "none":
        query = query.filter(assignee__isnull=True)
    elif filters.assignee == "me":
        query = query.filter(assignee=user)
    elif filters.assignee.isdigit():
        query = query.filter(assignee_id=int(filters.assignee))
    if filters.new_since:
        query = query.filter(first_seen_id__gte=filters.new_since)
    if filters.owner:
        query = query.filter(paths_owned_by(filters.owner, team_ids))
    return query


def _rule_code(rule: str) -> str:
    """A rule's code from its code, its name or a name it had before, so the filter is one indexed equality
    (`finding_rule_count`)."""
    wanted = rule.strip()
    found = resolve(wanted.upper()) or resolve(wanted)
    return found.code if found is not None else wanted


def ordered(query: QuerySet, sort: str) -> QuerySet:
    if sort == "path":
        return query.order_by("path", "line", "id")
    if sort == "newest":
        return query.order_by("-id")
    return query.order_by("-severity_rank", "-id")


def cursor_of(finding: Finding, sort: str) -> str:
    if sort == "path":
        return f"{finding.path}\x1f{finding.line}\x1f{finding.id}"
    if sort == "newest":
        return str(finding.id)
    return f"{finding.severity_rank}\x1f{finding.id}"


def after(query: QuerySet, sort: str, cursor: str) -> QuerySet:
    """Rows strictly after the cursor in the sort order (keyset pagination)."""
    parts = cursor.split("\x1f")
    try:
        if sort == "path":
            path, line, pk = parts[0], int(parts[1]), int(parts[2])
            return query.filter(_row_compare(("path", "line", "id"), ">", (path, line, pk)))
        if sort == "newest":
            return query.filter(id__lt=int(parts[0]))
        rank, pk = int(parts[0]), int(parts[1])
        return query.filter(_row_compare(("severity_rank", "id"), "<", (rank, pk)))
    except (IndexError, ValueError):
        return query


def _row_compare(columns: tuple[str, ...], operator: str, values: tuple) -> RawSQL:
    """`(a, b) < (x, y)`: a row comparison the database turns into one index range. The equivalent chain of ORs
    (a < x OR a = x AND b < y) makes PostgreSQL filter its way through every row before the cursor, so a deep page
    cost what the whole list did. Columns are ours (never user input); the values are parameters."""
    table = Finding._meta.db_table
    left = ", ".join(f'"{table}"."{column}"' for column in columns)
    right = ", ".join(["%s"] * len(values))
    return RawSQL(f"({left}) {operator} ({right})", values, output_field=BooleanField())


# The sort key of each order, id last (the union's columns), and its direction.
_SORT_FIELDS = {"severity": ("severity_rank", "id"), "path": ("path", "line", "id"), "newest": ("id",)}
_SORT_ORDER = {"severity": ("-severity_rank", "-id"), "path": ("path", "line", "id"), "newest": ("-id",)}


# Counting every match of a filter over a million findings costs a scan of them all; the list says "more than
# 1,000" instead, and counts at most COUNT_CAP + 1 rows (a few ms where a full count takes 100 ms and more).
COUNT_CAP = 1_000


def capped_count(base) -> int:
    """How many findings match, counted up to COUNT_CAP + 1 (a bounded query whatever the filter)."""
    return base.order_by()[: COUNT_CAP + 1].count()


def page(
    query: QuerySet, filters: Filters, cursor: str, arms: list[QuerySet] | None = None, *, size: int = PAGE_SIZE
) -> tuple[list[Finding], str]:
    """One page of `size` rows (the API's `limit`) and the cursor of the next one ("" at the end).

    Across several repositories (`arms`, from `per_scope`), the page is the merge of each repository's own first
    size + 1 rows, each read along its index, instead of one sort over the whole team's findings."""
    if arms and len(arms) > 1:
        fields = _SORT_FIELDS[filters.sort]
        parts = [
            ordered(after(arm, filters.sort, cursor) if cursor else arm, filters.sort).values_list(*fields)[: size + 1]
            for arm in arms
        ]
        # Merge the arms' rows by their sort key in SQL (the database's collation orders paths, as in `after`),
        # then read only the page's rows.
        merged = parts[0].union(*parts[1:], all=True).order_by(*_SORT_ORDER[filters.sort])[: size + 1]
        ids = [key[-1] for key in merged]
        rows = list(ordered(Finding.objects.filter(pk__in=ids), filters.sort).select_related("repository", "assignee"))
    else:
        rows = ordered(after(query, filters.sort, cursor) if cursor else query, filters.sort)
        rows = list(rows.select_related("repository", "assignee")[: size + 1])
    next_cursor = cursor_of(rows[size - 1], filters.sort) if len(rows) > size else ""
    return rows[:size], next_cursor
