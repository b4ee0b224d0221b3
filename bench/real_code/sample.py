"""Draw the findings to judge for precision, and read the judged table back (bench/real_code.py --judged).

    python bench/real_code/sample.py RUN.json [-o bench/real_code/judged.csv] [--per 4] [--seed rocport-1]
                                     [--review FILE] [--half tune|check|fresh] [--by rule] [--min-severity medium]

RUN.json is a `bench/real_code.py --json` output: its runs keep every finding (project, path, line, rule,
severity, message, source line). From each (project, rule) up to `--per` findings are drawn: the ones whose
hash of (seed, project, path, line, rule) is smallest, so the draw is the same for the same input in any order,
and a finding stays drawn when others appear or vanish beside it (only one with a smaller hash displaces it).

`--half` keeps the projects of one half of the manifest's split (`half`), `--by rule` draws up to `--per` per
rule over the whole half instead of per (project, rule), and `--min-severity` leaves out findings below a severity:
the issue-31 tables are drawn with `--by rule --per 3 --min-severity medium`, as the hidden set's judges drew theirs.

The table has the columns project,path,line,rule,severity,verdict,reason,severity_verdict; verdict is one of true,
false, debatable, unjudged; severity_verdict (for true and debatable rows) is right, too-high or too-low against
the written severity policy (docs/rules.md), or empty when not judged. Writing it merges: a row still drawn keeps its verdict and reason, a new row is
`unjudged`, a row no longer drawn is dropped (the count is printed). Only paths, lines, rule codes, verdicts and
our own short reasons go into the table; the message and the source line go to `--review` (a file to read
while judging, never committed).
"""

from __future__ import annotations

import argparse
import collections
import csv
import hashlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
COLUMNS = ["project", "path", "line", "rule", "severity", "verdict", "reason", "severity_verdict"]
VERDICTS = ("true", "false", "debatable", "unjudged")
SEVERITY_VERDICTS = ("", "right", "too-high", "too-low")
SEVERITIES = ("info", "low", "medium", "high", "critical")
# Rule families by code range, as the issue names them; warp takes the whole 10x-11x range of the code table
# (ROC110, warp-sized groups, came after the issue). ROC9xx, the compile check's, is "other".
FAMILIES = [
    ("warp", 101, 119),
    ("ptx", 120, 123),
    ("libraries", 130, 140),
    ("api+kernel", 150, 163),
    ("build/cmake", 201, 215),
    ("container", 221, 227),
    ("shell/CI", 231, 236),
    ("python/serving/host", 241, 262),
]
FAMILY_NAMES = [name for name, _, _ in FAMILIES] + ["other"]


def family(rule: str) -> str:
    number = int(rule[3:]) if rule[:3] == "ROC" and rule[3:].isdigit() else -1
    return next((name for name, low, high in FAMILIES if low <= number <= high), "other")


def _key(row: dict) -> tuple:
    return (row["project"], row["path"], int(row["line"]), row["rule"])


def findings_of(runs: list[dict]) -> list[dict]:
    """Every finding of the runs, one per (project, path, line, rule), sorted."""
    unique = {}
    for run in runs:
        project = run.get("project") or Path(run["root"]).name
        for f in run.get("findings", []):
            row = {
                "project": f.get("project", project),
                "path": f["path"],
                "line": int(f["line"]),
                "rule": f["rule"],
                "severity": f["severity"],
                "message": f.get("message", ""),
                "source": f.get("source", ""),
            }
            unique.setdefault(_key(row), row)
    return [unique[key] for key in sorted(unique)]


def draw(findings: list[dict], per: int = 4, seed: str = "rocport-1", by: str = "project-rule") -> list[dict]:
    """Up to `per` findings of each (project, rule), or of each rule with by="rule": the smallest hashes of (seed,
    project, path, line, rule)."""
    groups = collections.defaultdict(list)
    for f in findings:
        groups[f["rule"] if by == "rule" else (f["project"], f["rule"])].append(f)

    def weight(f: dict) -> str:
        text = "\0".join([seed, f["project"], f["path"], str(f["line"]), f["rule"]])
        return hashlib.sha256(text.encode()).hexdigest()

    drawn = []
    for group in groups.values():
        drawn += sorted(group, key=weight)[:per]
    return sorted(drawn, key=lambda f: (f["project"], f["rule"], f["path"], f["line"]))


# tune: rules may change for its cases; check: round 1's held-out half, judged and open to tuning since round 2;
# fresh: round 2's held-out half, judged, open to tuning since round 3; fresh3: round 3's, judged, open to tuning
# since round 4; fresh4: round 4's, judged, open to tuning since round 5; fresh5: round 5's, judged, open to tuning
# since round 6; fresh6: round 6's, judged, open to tuning since round 7; fresh7: round 7's held-out half, never
# read for a fix.
HALVES = ("tune", "check", "fresh", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7")


def halves() -> dict[str, set[str]]:
    """The manifest's split: project names per half."""
    split = {half: set() for half in HALVES}
    for project in json.loads((HERE / "manifest.json").read_text())["projects"]:
        split[project["half"]].add(project["name"])
    return split


def read_table(path: Path) -> list[dict]:
    if not path.exists():
        return []
    with path.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    for number, row in enumerate(rows, 2):
        if row.get("verdict") not in VERDICTS:
            raise ValueError(f"{path}:{number}: verdict {row.get('verdict')!r} is not one of {', '.join(VERDICTS)}")
        row["severity_verdict"] = row.get("severity_verdict") or ""
        if row["severity_verdict"] not in SEVERITY_VERDICTS:
            raise ValueError(
                f"{path}:{number}: severity_verdict {row['severity_verdict']!r} is not one of right, too-high, too-low"
            )
    return rows


def merge(drawn: list[dict], earlier: list[dict]) -> tuple[list[dict], int]:
    """The table for the drawn findings, earlier verdicts kept (unless the finding's severity changed since: then it
    is judged again); and how many judged rows were dropped."""
    old = {_key(row): row for row in earlier}
    rows = []
    for f in drawn:
        before = old.get(_key(f))
        if before is not None and before["severity"] != f["severity"]:
            before = None  # the finding changed (its severity says so): its earlier verdict may no longer hold
        rows.append(
            {
                "project": f["project"],
                "path": f["path"],
                "line": f["line"],
                "rule": f["rule"],
                "severity": f["severity"],
                "verdict": before["verdict"] if before else "unjudged",
                "reason": before["reason"] if before else "",
                "severity_verdict": before.get("severity_verdict", "") if before else "",
            }
        )
    kept = {_key(row) for row in rows}
    dropped = sum(1 for key, row in old.items() if key not in kept and row["verdict"] != "unjudged")
    return rows, dropped


def write_table(path: Path, rows: list[dict]) -> None:
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows({column: row.get(column, "") for column in COLUMNS} for row in rows)


def precision_by_family(rows: list[dict]) -> dict[str, dict]:
    """Per family: judged (verdict other than unjudged), true, false, debatable, unjudged, and
    precision = true / (true + false), None when neither was given."""
    table = {}
    for row in rows:
        entry = table.setdefault(
            family(row["rule"]), dict.fromkeys(("judged", "true", "false", "debatable", "unjudged"), 0)
        )
        entry[row["verdict"]] += 1
        entry["judged"] += row["verdict"] != "unjudged"
    for entry in table.values():
        decided = entry["true"] + entry["false"]
        entry["precision"] = round(entry["true"] / decided, 3) if decided else None
    return table


def severity_agreement(rows: list[dict]) -> dict:
    """Of the true rows whose severity was judged: how many carry the severity the policy gives."""
    judged = [row for row in rows if row["verdict"] == "true" and row.get("severity_verdict")]
    right = sum(row["severity_verdict"] == "right" for row in judged)
    return {"judged": len(judged), "right": right, "agreement": round(right / len(judged), 3) if judged else None}


def recall_by_family(runs: list[dict], truth: dict, min_severity: str = "info") -> dict[str, dict]:
    """Per family: the truth's expected lines over every run's project, and how many a finding of an accepted
    rule at `min_severity` or above reached (within the project's slack); a case's family is that of its first
    accepted rule."""
    floor = SEVERITIES.index(min_severity)
    table = {}
    for run in runs:
        project = truth.get(run.get("project") or Path(run["root"]).name, {})
        slack = project.get("slack", 0)
        found = collections.defaultdict(list)
        for f in run.get("findings", []):
            found[f["path"]].append(f)
        for case in project.get("expected", []):
            entry = table.setdefault(family(case["rules"][0]), {"expected": 0, "found": 0})
            entry["expected"] += 1
            rules = set(case["rules"])
            entry["found"] += any(
                f["rule"] in rules
                and abs(f["line"] - case["line"]) <= slack
                and SEVERITIES.index(f.get("severity", "info")) >= floor
                for f in found[case["path"]]
            )
    for entry in table.values():
        entry["recall"] = round(entry["found"] / entry["expected"], 3) if entry["expected"] else None
    return table


def family_report(rows: list[dict], runs: list[dict] | None, truth: dict) -> str:
    precision = precision_by_family(rows)
    recall = recall_by_family(runs, truth) if runs is not None and truth else {}
    serious = recall_by_family(runs, truth, "medium") if runs is not None and truth else {}
    empty = {"judged": 0, "true": 0, "false": 0, "debatable": 0, "unjudged": 0, "precision": None}
    header = (
        f"{'family':<20} {'judged':>6} {'true':>5} {'false':>5} {'debat.':>6} {'unjudged':>8} "
        f"{'precision':>9} {'expected':>8} {'found':>6} {'recall':>6} {'medium+':>7}"
    )
    lines = [header]
    for name in FAMILY_NAMES:
        if name not in precision and name not in recall:
            continue
        p, r = precision.get(name, empty), recall.get(name)
        lines.append(
            f"{name:<20} {p['judged']:>6} {p['true']:>5} {p['false']:>5} {p['debatable']:>6} {p['unjudged']:>8} "
            f"{'-' if p['precision'] is None else format(p['precision'], '.2f'):>9} "
            f"{r['expected'] if r else '-':>8} {r['found'] if r else '-':>6} "
            f"{'-' if not r or r['recall'] is None else format(r['recall'], '.2f'):>6} "
            f"{'-' if not r or serious[name]['recall'] is None else format(serious[name]['recall'], '.2f'):>7}"
        )
    decided = [p for p in precision.values() if p["precision"] is not None]
    true, false = sum(p["true"] for p in decided), sum(p["false"] for p in decided)
    if true + false:
        lines.append(f"{'all':<20} {'':>6} {true:>5} {false:>5} {'':>6} {'':>8} {true / (true + false):>9.2f}")
    agreement = severity_agreement(rows)
    if agreement["judged"]:
        lines.append(
            f"severity agreement: {agreement['right']} of {agreement['judged']} true rows judged "
            f"({agreement['agreement']:.2f})"
        )
    return "\n".join(lines).rstrip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", type=Path, help="a bench/real_code.py --json output")
    parser.add_argument("-o", "--output", type=Path, default=HERE / "judged.csv")
    parser.add_argument("--per", type=int, default=4, help="findings drawn per rule per project")
    parser.add_argument("--seed", default="rocport-1")
    parser.add_argument("--by", choices=("project-rule", "rule"), default="project-rule")
    parser.add_argument("--min-severity", choices=SEVERITIES, default="info")
    parser.add_argument("--half", choices=HALVES, help="only the projects of this half of the manifest")
    parser.add_argument(
        "--review",
        type=Path,
        help="also write the drawn rows with message and source line here (to read while judging; never commit it)",
    )
    args = parser.parse_args()
    runs = json.loads(args.run.read_text())["runs"]
    if any("findings" not in run for run in runs):
        print(f"{args.run} holds no findings: write it with this version of bench/real_code.py --json", file=sys.stderr)
        return 2
    if args.half:
        runs = [run for run in runs if (run.get("project") or Path(run["root"]).name) in halves()[args.half]]
    floor = SEVERITIES.index(args.min_severity)
    findings = [f for f in findings_of(runs) if SEVERITIES.index(f["severity"]) >= floor]
    drawn = draw(findings, args.per, args.seed, args.by)
    rows, dropped = merge(drawn, read_table(args.output))
    write_table(args.output, rows)
    judged = sum(row["verdict"] != "unjudged" for row in rows)
    print(
        f"{len(findings)} findings, {len(rows)} drawn ({judged} already judged, {len(rows) - judged} unjudged, "
        f"{dropped} judged rows no longer drawn and dropped) -> {args.output}"
    )
    if args.review:
        by_key = {_key(f): f for f in drawn}
        with args.review.open("w") as handle:
            for row in rows:
                f = by_key[_key(row)]
                handle.write(
                    f"{row['project']} {row['path']}:{row['line']} {row['rule']} {row['severity']} "
                    f"[{row['verdict']}]\n    {f['message']}\n    | {f['source'].strip()}\n"
                )
        print(f"review list -> {args.review}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
