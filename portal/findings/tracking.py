"""Ingesting a scan's results into tracked findings, set-based, inside the caller's transaction.

For one (repository, branch):
- files renamed between the previous scan and this one move their findings to the new path first, and findings
  a merged port carried to a rewritten line take the identity the scan saw there (portal.scans.pipeline.ported);
- a finding identity (path, rule, fingerprint, occurrence) seen again stays open (its location is refreshed);
  one seen for the first time is new; a fixed one seen again is reopened;
- one seen again with another severity or risk is re-rated: the event keeps both values and the reason, the
  sentences of the new message the old one did not have (where the scanner says why it lowered or raised it);
- an open finding not seen again is fixed only when its rule really ran on its file in this scan, or its file is
  gone from the commit; a file that failed to parse, was excluded, or a rule switched off leaves it as it was;
- triage is never touched by a scan; a branch's first scan inherits the default branch's triage;
- every change writes a FindingEvent.

How: the scan's findings are streamed with COPY into a temporary table, and PostgreSQL matches, refreshes,
inserts and writes the events in a handful of joins, so no Finding object is built in Python. The statement count
is constant (about a dozen) whatever the number of findings.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import connection
from django.utils import timezone

from portal.findings.models import RERATED_REASON, SEVERITY_RANK, Finding, FindingEvent
from portal.reporting import rollups

_FINDINGS = Finding._meta.db_table
_EVENTS = FindingEvent._meta.db_table
_SEEN = "rocport_ingest_seen"  # a temporary table: private to the connection, dropped at the end
# What the scanner says about a finding besides its identity; refreshed each time the finding is seen.
_DETAILS = (
    "name",
    "risk",
    "severity",
    "severity_rank",
    "line",
    "column",
    "end_line",
    "end_column",
    "message",
    "snippet",
    "suppressed",
)
_IDENTITY = ("path", "rule", "fingerprint", "occurrence")


def _same_identity(alias: str) -> str:
    return " AND ".join(f"{alias}.{c} = s.{c}" for c in _IDENTITY)


_SAME_IDENTITY = _same_identity("f")
_OF_BRANCH = "f.repository_id = %(repository)s AND f.branch = %(branch)s"
_EVENT_COLUMNS = "(finding_id, kind, scan_id, actor_id, data, created)"
# Where a message's sentences end: ". ", "! " or "? " (a dot inside `a.b` or a file name is not an end).
_SENTENCE_END = r"(?<=[.!?])\s+"


@dataclass
class FileOutcome:
    path: str
    rules_run: frozenset[str]
    findings: list[dict]  # scanner Finding.to_dict() items


@dataclass
class IngestReport:
    new: int = 0
    still_open: int = 0
    fixed: int = 0
    reopened: int = 0
    rerated: int = 0  # seen again (open or reopened) with another severity or risk
    moved: int = 0
    carried: int = 0  # kept through a merged port that rewrote their line
    untouched: int = 0  # open findings whose file or rule did not run this time
    inherited: int = 0
    untouched_paths: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "new": self.new,
            "still_open": self.still_open,
            "fixed": self.fixed,
            "reopened": self.reopened,
            "rerated": self.rerated,
            "moved": self.moved,
            "carried": self.carried,
            "untouched": self.untouched,
            "inherited": self.inherited,
        }


def ingest(
    scan,
    outcomes: list[FileOutcome],
    present_paths: set[str],
    renames: dict[str, str],
    first_scan_of_branch: bool,
    carried=(),
) -> IngestReport:
    """Call inside transaction.atomic(). `present_paths`: every file of the scanned commit; `carried`:
    portal.scans.pipeline.ported.Carry items."""
    report = IngestReport()
    repository = scan.repository
    params = {
        "repository": repository.pk,
        "branch": scan.branch,
        "scan": scan.pk,
        "now": timezone.now(),
        "default_branch": repository.default_branch,
    }
    with connection.cursor() as cursor:
        report.moved = _move_renamed(cursor, params, renames)
        report.carried = _carry_ported(cursor, params, carried)
        seen = _load_seen(cursor, outcomes)
        report.reopened, report.rerated, matched = _refresh_seen(cursor, params)
        report.still_open = matched - report.reopened
        inherit = first_scan_of_branch and scan.branch != repository.default_branch
        report.new = seen - matched
        report.inherited = _insert_new(cursor, params, inherit) - report.new
        _fix_unseen(cursor, params, outcomes, present_paths, report)
        cursor.execute(f"DROP TABLE {_SEEN}")
    rollups.refresh_after_ingest(scan)  # the branch's figures for the pages, in this transaction
    return report


def _move_renamed(cursor, params: dict, renames: dict[str, str]) -> int:
    """Findings of renamed files take the new path (before matching), with a MOVED event each."""
    if not renames:
        return 0
    cursor.execute(
        f"WITH moved AS (UPDATE {_FINDINGS} f SET path = r.new_path"
        f"  FROM unnest(%(old)s::text[], %(new)s::text[]) AS r(old_path, new_path)"
        f"  WHERE {_OF_BRANCH} AND f.path = r.old_path RETURNING f.id, r.old_path, r.new_path)"
        f" INSERT INTO {_EVENTS} {_EVENT_COLUMNS}"
        f" SELECT id, %(kind)s, %(scan)s, NULL, jsonb_build_object('from', old_path, 'to', new_path), %(now)s"
        f" FROM moved ORDER BY id",
        {**params, "old": list(renames), "new": list(renames.values()), "kind": FindingEvent.Kind.MOVED.value},
    )
    return cursor.rowcount


def _carry_ported(cursor, params: dict, carried) -> int:
    """Findings a merged port carried to a rewritten line take the identity seen there (before matching), with a
    PORTED event each; an identity some finding already holds is left alone (unique)."""
    if not carried:
        return 0
    cursor.execute(
        f"WITH carried AS (UPDATE {_FINDINGS} f SET fingerprint = c.fingerprint, occurrence = c.occurrence"
        f"  FROM unnest(%(ids)s::bigint[], %(fingerprints)s::text[], %(occurrences)s::int[], %(old)s::int[],"
        f"   %(new)s::int[]) AS c(id, fingerprint, occurrence, old_line, new_line)"
        f"  WHERE f.id = c.id AND {_OF_BRANCH} AND NOT EXISTS (SELECT 1 FROM {_FINDINGS} o"
        f"   WHERE o.repository_id = f.repository_id AND o.branch = f.branch AND o.path = f.path"
        f"   AND o.rule = f.rule AND o.fingerprint = c.fingerprint AND o.occurrence = c.occurrence)"
        f"  RETURNING f.id, c.old_line, c.new_line)"
        f" INSERT INTO {_EVENTS} {_EVENT_COLUMNS}"
        f" SELECT id, %(kind)s, %(scan)s, NULL, jsonb_build_object('line', jsonb_build_array(old_line, new_line)),"
        f" %(now)s FROM carried ORDER BY id",
        {
            **params,
            "ids": [c.finding_id for c in carried],
            "fingerprints": [c.fingerprint for c in carried],
            "occurrences": [c.occurrence for c in carried],
            "old": [c.old_line for c in carried],
            "new": [c.new_line for c in carried],
            "kind": FindingEvent.Kind.PORTED.value,
        },
    )
    return cursor.rowcount


def _load_seen(cursor, outcomes: list[FileOutcome]) -> int:
    """COPY this scan's findings (one row per identity: the first of duplicates wins) into the temporary table;
    returns the number of rows."""
    cursor.execute(f"DROP TABLE IF EXISTS {_SEEN}")
    columns = ", ".join(f'"{c}"' for c in (*_IDENTITY, *_DETAILS))
    # The real table's column types, without its constraints; `ord` keeps the scanner's order for new ids.
    cursor.execute(f"CREATE TEMPORARY TABLE {_SEEN} AS SELECT {columns}, 0 AS ord FROM {_FINDINGS} WITH NO DATA")
    keys: set[tuple] = set()
    rank = SEVERITY_RANK.get
    with cursor.copy(f"COPY {_SEEN} ({columns}, ord) FROM STDIN") as copy:
        for outcome in outcomes:
            path = outcome.path
            for data in outcome.findings:
                key = (path, data["rule"], data["fingerprint"], data["occurrence"])
                if key in keys:
                    continue
                keys.add(key)
                copy.write_row(
                    (
                        *key,
                        data["name"],
                        data["risk"],
                        data["severity"],
                        rank(data["severity"], 0),
                        data["line"],
                        data["column"],
                        data["end_line"],
                        data["end_column"],
                        data["message"],
                        data["snippet"],
                        data["suppressed"],
                        len(keys),
                    )
                )
    # Statistics, so that the joins below are planned as hash joins on real row counts.
    cursor.execute(f"ANALYZE {_SEEN}")
    return len(keys)


def _refresh_seen(cursor, params: dict) -> tuple[int, int, int]:
    """Findings seen again: REOPENED events for the fixed ones and RERATED events for those whose severity or risk
    changed (one statement), then every one refreshed (open, located and rated where the scan saw it, last seen
    now). Returns (reopened, rerated, matched)."""
    # one join of the branch's findings with the seen ones; the few it keeps (reopened or re-rated) feed both kinds
    seen_again = (
        f"SELECT f.id, f.state, f.severity, f.risk, f.message, s.severity AS new_severity, s.risk AS new_risk,"
        f" s.message AS new_message FROM {_FINDINGS} f JOIN {_SEEN} s ON {_SAME_IDENTITY}"
        f" WHERE {_OF_BRANCH} AND (f.state = %(fixed)s OR f.severity <> s.severity OR f.risk <> s.risk)"
    )
    # the new message's sentences the old message does not have, in their order
    reason = (
        "(SELECT string_agg(part, ' ' ORDER BY n) FROM regexp_split_to_table(m.new_message, %(sentence_end)s)"
        " WITH ORDINALITY AS p(part, n)"
        " WHERE part <> '' AND part <> ALL(regexp_split_to_array(m.message, %(sentence_end)s)))"
    )
    rerating = (
        "jsonb_strip_nulls(jsonb_build_object("
        "'severity', CASE WHEN m.severity <> m.new_severity THEN jsonb_build_array(m.severity, m.new_severity) END,"
        " 'risk', CASE WHEN m.risk <> m.new_risk THEN jsonb_build_array(m.risk, m.new_risk) END,"
        f" 'reason', COALESCE({reason}, %(fallback)s)))"
    )
    cursor.execute(
        f"WITH m AS MATERIALIZED ({seen_again}),"
        f" written AS (INSERT INTO {_EVENTS} {_EVENT_COLUMNS}"
        f"  SELECT id, kind, %(scan)s, NULL, data, %(now)s FROM ("
        f"   SELECT m.id, %(reopened_kind)s AS kind, '{{}}'::jsonb AS data, 0 AS step FROM m"
        f"   WHERE m.state = %(fixed)s"
        f"   UNION ALL SELECT m.id, %(rerated_kind)s, {rerating}, 1 FROM m"
        f"   WHERE m.severity <> m.new_severity OR m.risk <> m.new_risk"
        f"  ) e ORDER BY id, step RETURNING kind)"
        f" SELECT count(*) FILTER (WHERE kind = %(reopened_kind)s), count(*) FILTER (WHERE kind = %(rerated_kind)s)"
        f" FROM written",
        {
            **params,
            "reopened_kind": FindingEvent.Kind.REOPENED.value,
            "rerated_kind": FindingEvent.Kind.RERATED.value,
            "fixed": Finding.State.FIXED.value,
            "sentence_end": _SENTENCE_END,
            "fallback": RERATED_REASON,
        },
    )
    reopened, rerated = cursor.fetchone()
    details = ", ".join(f'"{c}" = s."{c}"' for c in _DETAILS)
    cursor.execute(
        f"UPDATE {_FINDINGS} f SET {details}, last_seen_id = %(scan)s, state = %(open)s,"
        f" fixed_in_id = CASE WHEN f.state = %(fixed)s THEN NULL ELSE f.fixed_in_id END"
        f" FROM {_SEEN} s WHERE {_OF_BRANCH} AND {_SAME_IDENTITY}",
        {**params, "open": Finding.State.OPEN.value, "fixed": Finding.State.FIXED.value},
    )
    return reopened, rerated, cursor.rowcount


def _insert_new(cursor, params: dict, inherit: bool) -> int:
    """Findings seen for the first time, in the scanner's order, with a CREATED event each and, on a branch's
    first scan, the default branch's triage and an INHERITED event. Returns the number of events written."""
    columns = ", ".join(f'"{c}"' for c in (*_IDENTITY, *_DETAILS))
    selected = ", ".join(f's."{c}"' for c in (*_IDENTITY, *_DETAILS))
    if inherit:
        triage_from = (
            f" LEFT JOIN {_FINDINGS} d ON d.repository_id = %(repository)s"
            f" AND d.branch = %(default_branch)s AND d.triage <> %(untriaged)s"
            f" AND {_same_identity('d')}"
        )
        triage = "COALESCE(d.triage, %(untriaged)s), COALESCE(d.triage_reason, '')"
    else:
        triage_from, triage = "", "%(untriaged)s, ''"
    cursor.execute(
        f"WITH created AS (INSERT INTO {_FINDINGS} (repository_id, branch, {columns}, state, first_seen_id,"
        f"   last_seen_id, fixed_in_id, triage, triage_reason, assignee_id)"
        f"  SELECT %(repository)s, %(branch)s, {selected}, %(open)s, %(scan)s, %(scan)s, NULL, {triage}, NULL"
        f"  FROM {_SEEN} s{triage_from}"
        f"  WHERE NOT EXISTS (SELECT 1 FROM {_FINDINGS} f WHERE {_OF_BRANCH} AND {_SAME_IDENTITY})"
        f"  ORDER BY s.ord RETURNING id, triage)"
        f" INSERT INTO {_EVENTS} {_EVENT_COLUMNS} SELECT id, kind, %(scan)s, NULL, data, %(now)s FROM ("
        f"  SELECT id, %(created_kind)s AS kind, '{{}}'::jsonb AS data, 0 AS step FROM created"
        f"  UNION ALL SELECT id, %(inherited_kind)s, jsonb_build_object('triage', triage), 1 FROM created"
        f"  WHERE triage <> %(untriaged)s) e ORDER BY step, id",
        {
            **params,
            "open": Finding.State.OPEN.value,
            "untriaged": Finding.Triage.UNTRIAGED.value,
            "created_kind": FindingEvent.Kind.CREATED.value,
            "inherited_kind": FindingEvent.Kind.INHERITED.value,
        },
    )
    return cursor.rowcount


def _fix_unseen(
    cursor, params: dict, outcomes: list[FileOutcome], present_paths: set[str], report: IngestReport
) -> None:
    """Open findings this scan did not see (every seen or new one now has last_seen = this scan): fixed when their
    rule ran on their file or the file is gone, untouched otherwise."""
    cursor.execute(
        f"SELECT f.id, f.path, f.rule FROM {_FINDINGS} f WHERE {_OF_BRANCH} AND f.state = %(open)s"
        f" AND f.last_seen_id IS DISTINCT FROM %(scan)s ORDER BY f.id",
        {**params, "open": Finding.State.OPEN.value},
    )
    ran = {o.path: o.rules_run for o in outcomes}
    fixed: list[int] = []
    for pk, path, rule in cursor.fetchall():
        if path not in present_paths or rule in ran.get(path, ()):
            fixed.append(pk)
        else:
            report.untouched += 1
            if path not in report.untouched_paths and len(report.untouched_paths) < 50:
                report.untouched_paths.append(path)
    report.fixed = len(fixed)
    if not fixed:
        return
    cursor.execute(
        f"WITH fixed AS (UPDATE {_FINDINGS} SET state = %(state)s, fixed_in_id = %(scan)s"
        f"  WHERE id = ANY(%(ids)s::bigint[]) RETURNING id)"
        f" INSERT INTO {_EVENTS} {_EVENT_COLUMNS} SELECT id, %(kind)s, %(scan)s, NULL, '{{}}'::jsonb, %(now)s"
        f" FROM fixed ORDER BY id",
        {**params, "state": Finding.State.FIXED.value, "ids": fixed, "kind": FindingEvent.Kind.FIXED.value},
    )
