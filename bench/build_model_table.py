"""The build model's answer for each C, C++ and CUDA file of the real projects (issue 30's acceptance table).

    python bench/build_model_table.py ~/real/bitsandbytes ~/real/ggml ... [--out bench/real_code]
        [--scans DIR]

Per checkout (its folder's name is the project's, as bench/real_code/manifest.json names them), every file
discovery reads as CUDA, C++ or C gets one row in `<out>/build_model/<project>.tsv`:

    path, language, verdict (compiled / unknown / none), amd (yes when an AMD compilation builds it),
    targets (`build_file:target compiler language standard`, `[if]` when the target sits under a condition the
    model could not evaluate), via (a header: how many compiled sources include it, and the first),
    why (the first unknown, or the note of a file built only for another platform).

Only paths, target names and the model's own reasons go in the table: never a line of the projects' code.
`<out>/build_model.md` gets the per-project summary between `<!-- summary -->` markers (the rest of the page, the
hand checks, is ours and kept). With `--scans DIR` (holding `<project>.before.json`, `<project>.after.json` and
`<project>.cc.json`: `scan --format json` of the scanner before the build model, after it, and after it with
`--compile-check`) the findings in files no build compiles are counted, by severity, between `<!-- scans -->`
markers. The scans' JSON holds source lines and is never committed.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from scanner import build, config, discovery, port_builds  # noqa: E402

CXX = ("cuda", "c++", "c")
COLUMNS = ("path", "language", "verdict", "amd", "targets", "via", "why")
SEVERITIES = ("critical", "high", "medium", "low", "info")
_MAX_TARGETS = 6


def rows(root: Path) -> tuple[list[dict], build.BuildModel]:
    candidates = discovery.discover(root, config.DEFAULT_EXCLUDE)
    # As scanner.plan reads it: the .hip sources too (not scanned, but a build may compile them).
    model = build.read(str(root), [c.rel for c in candidates] + port_builds.hip_sources(str(root)))
    out = []
    for c in sorted(candidates, key=lambda c: c.rel):
        if c.language not in CXX:
            continue
        fb = model.of(c.rel)
        targets = []
        for comp in sorted(fb.compilations, key=lambda c: bool(c.condition)):  # unconditional ones first
            text = f"{comp.build_file}:{comp.target} {comp.compiler} {comp.language} {comp.standard or '-'}"
            targets.append(text + (" [if]" if comp.condition else ""))
        targets = list(dict.fromkeys(targets))
        if len(targets) > _MAX_TARGETS:
            targets = targets[:_MAX_TARGETS] + [f"+{len(targets) - _MAX_TARGETS} more"]
        why = fb.unknowns[0] if fb.unknowns else fb.note
        out.append(
            {
                "path": c.rel,
                "language": c.language,
                "verdict": fb.verdict(),
                "amd": "yes" if fb.amd else "",
                "targets": "; ".join(targets),
                "via": f"{len(fb.via)}: {fb.via[0]}" if fb.via else "",
                "why": _clean(why)[:200],
                "_header": bool(fb.via),
                "_note": bool(fb.note),
                "_unknowns": fb.unknowns,
                "_conditional": bool(fb.compilations) and all(comp.condition for comp in fb.compilations),
            }
        )
    return out, model


def _clean(text: str) -> str:
    """One line; a note quoting a Makefile's `$(shell ...)` keeps its file only (no text of the project's)."""
    text = re.sub(r"[\t\n]+", " ", text or "")
    shell = re.match(r"(\S+): \$\(shell\b", text)
    return f"{shell.group(1)}: a $(shell ...) the model cannot answer" if shell else text


def write_tsv(path: Path, table: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as handle:
        handle.write("\t".join(COLUMNS) + "\n")
        for row in table:
            handle.write("\t".join(row[c] for c in COLUMNS) + "\n")


def _reason_kind(text: str) -> str:
    """An unknown, reduced to its kind (for the summary's counts)."""
    if text.startswith("named in "):
        return "named in a build file on a path the default configuration does not take"
    if " and the project enables no CUDA language" in text:
        return "a .cu source of a target, the project enables no CUDA language"
    if "$(shell" in text:
        return "a Makefile `$(shell ...)` the model cannot answer (repository-wide note)"
    if text.startswith("a header no compiled source includes"):
        return "a header no compiled source includes"
    if text.startswith("matched by file(GLOB)"):
        return "matched by a file(GLOB) on a path the default configuration does not take"
    if text.startswith("no build file"):
        return "no build file"
    if re.search(r"\$<", text):
        return "a generator expression"
    return "other: " + re.sub(r"\S+:\d+", "FILE:LINE", text)[:80]


def summary(projects: list[tuple[str, list[dict], build.BuildModel]]) -> str:
    lines = [
        "| project | C/C++/CUDA files | compiled | unknown | of which a conditional target | none "
        "| of which another platform | headers via includers | AMD-compiled | build files read | model notes |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    totals = collections.Counter()
    for name, table, model in projects:
        count = collections.Counter(r["verdict"] for r in table)
        figures = {
            "files": len(table),
            "compiled": count["compiled"],
            "unknown": count["unknown"],
            "conditional": sum(r["_conditional"] for r in table),
            "none": count["none"],
            "platform": sum(r["_note"] for r in table),
            "via": sum(r["_header"] for r in table),
            "amd": sum(bool(r["amd"]) for r in table),
            "build_files": len(model.build_files),
            "notes": len(model.notes),
        }
        totals.update(figures)
        lines.append(f"| {name} | " + " | ".join(f"{v:,}" for v in figures.values()) + " |")
    lines.append("| all | " + " | ".join(f"{v:,}" for v in totals.values()) + " |")
    lines.append("")
    lines.append("Why a file is `unknown` (first reason per file, by kind):")
    lines.append("")
    lines.append("| project | reason | files |")
    lines.append("| --- | --- | ---: |")
    for name, table, _model in projects:
        kinds = collections.Counter()
        for row in table:
            if row["verdict"] != "unknown":
                continue
            if row["_conditional"]:
                kinds["a target under a condition the model cannot evaluate"] += 1
            elif row["_unknowns"]:
                kinds[_reason_kind(row["_unknowns"][0])] += 1
        for kind, n in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])):
            lines.append(f"| {name} | {kind} | {n} |")
    lines.append("")
    lines.append("Repository-wide notes the model gave (distinct; a `$(shell ...)` keeps its file only):")
    lines.append("")
    for name, _table, model in projects:
        if model.notes:
            distinct = list(dict.fromkeys(map(_clean, model.notes)))
            lines.append(f"- {name} ({len(model.notes)}):")
            lines += [f"  - `{note[:100]}`" for note in distinct]
        else:
            lines.append(f"- {name}: none")
    return "\n".join(lines)


def _findings(path: Path) -> dict[str, list[dict]] | None:
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except ValueError:  # a scan cut short (its time limit) or still running
        return None
    return {f["path"]: f.get("findings", []) for f in data.get("files", [])}, data


def scans(projects: list[tuple[str, list[dict], build.BuildModel]], folder: Path) -> str:
    """Findings by severity in files the model says no build compiles, before and after; the compile check."""
    head = (
        "| project | none files | side | " + " | ".join(SEVERITIES) + " | all | medium and up | files with a finding |"
    )
    lines = [head, "| --- | ---: | --- | " + " | ".join("---:" for _ in SEVERITIES) + " | ---: | ---: | ---: |"]
    check_lines = [
        "| project | none files | C (not checked) | a fragment no source includes | no CUDA in it | not checked, other "
        "| compiled by the check | compiles | with stubs | fails | ROC9xx findings (high+ / medium / low / info) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    totals = {side: collections.Counter() for side in ("before", "after")}
    for name, table, _model in projects:
        none = {r["path"] for r in table if r["verdict"] == "none"}
        for side in ("before", "after"):
            loaded = _findings(folder / f"{name}.{side}.json")
            if loaded is None:
                lines.append(
                    f"| {name} | {len(none)} | {side} | " + " | ".join("-" for _ in SEVERITIES) + " | - | - | - |"
                )
                continue
            by_path, _ = loaded
            sev = collections.Counter()
            with_finding = 0
            for path in none:
                found = [f for f in by_path.get(path, []) if not f.get("suppressed")]
                sev.update(f["severity"] for f in found)
                with_finding += bool(found)
            total = sum(sev.values())
            up = sum(sev[s] for s in ("critical", "high", "medium"))
            totals[side].update(sev)
            totals[side]["_files"] += with_finding
            totals[side]["_none"] += len(none)
            lines.append(
                f"| {name} | {len(none)} | {side} | "
                + " | ".join(f"{sev[s]:,}" for s in SEVERITIES)
                + f" | {total:,} | {up:,} | {with_finding} |"
            )
        loaded = _findings(folder / f"{name}.cc.json")
        if loaded is None:
            check_lines.append(f"| {name} | {len(none)} | not run | | | | | | | | |")
            continue
        _, data = loaded
        results = {f["path"]: f for f in data.get("files", [])}
        count = collections.Counter()
        rated = collections.Counter()
        for path in none:
            result = results.get(path, {})
            compile = result.get("compile") or {}
            status, reason = compile.get("status", ""), compile.get("reason", "")
            if status in ("compiles", "compiles-with-stubs", "fails"):
                count["checked"] += 1
                count[status] += 1
            elif reason.startswith(("a C file", "not C++")):
                count["language"] += 1
            elif reason.startswith("a fragment"):
                count["fragment"] += 1
            elif reason.startswith("no CUDA"):
                count["nocuda"] += 1
            else:  # a timeout, a failed translation, no toolchain
                count["other"] += 1
            for finding in result.get("findings", []):
                if finding.get("rule", "").startswith("ROC9") and not finding.get("suppressed"):
                    severity = finding["severity"]
                    rated["high+" if severity in ("critical", "high") else severity] += 1
        check_lines.append(
            f"| {name} | {len(none)} | {count['language']} | {count['fragment']} | {count['nocuda']} "
            f"| {count['other']} | {count['checked']} | {count['compiles']} | {count['compiles-with-stubs']} "
            f"| {count['fails']} | {rated['high+']} / {rated['medium']} / {rated['low']} / {rated['info']} |"
        )
    whole = [
        "| project | side | "
        + " | ".join(SEVERITIES)
        + " | C files with a syntax tree | C++/CUDA files with a syntax tree |",
        "| --- | --- | " + " | ".join("---:" for _ in SEVERITIES) + " | ---: | ---: |",
    ]
    for name, table, _model in projects:
        languages = {r["path"]: r["language"] for r in table}
        for side in ("before", "after"):
            loaded = _findings(folder / f"{name}.{side}.json")
            if loaded is None:
                continue
            _, data = loaded
            sev = collections.Counter()
            trees = collections.Counter()
            for result in data.get("files", []):
                sev.update(f["severity"] for f in result.get("findings", []) if not f.get("suppressed"))
                language = languages.get(result["path"])
                if language is None:
                    continue
                kind = "c" if language == "c" else "cxx"
                trees[kind, "all"] += 1
                trees[kind, "tree"] += str((result.get("parse") or {}).get("mode", "")).startswith("ast")
            whole.append(
                f"| {name} | {side} | "
                + " | ".join(f"{sev[s]:,}" for s in SEVERITIES)
                + f" | {trees['c', 'tree']} of {trees['c', 'all']} | {trees['cxx', 'tree']} of {trees['cxx', 'all']} |"
            )
    out = [*lines, ""]
    for side in ("before", "after"):
        t = totals[side]
        out.append(
            f"- all, {side}: " + ", ".join(f"{s} {t[s]:,}" for s in SEVERITIES) + f"; in {t['_files']} of "
            f"{t['_none']} files"
        )
    return "\n".join([*out, "", *check_lines, "", "Whole project (every file, for context):", "", *whole])


def _replace(text: str, marker: str, body: str) -> str:
    begin, end = f"<!-- {marker} -->", f"<!-- /{marker} -->"
    block = f"{begin}\n{body}\n{end}"
    if begin in text and end in text:
        return text[: text.index(begin)] + block + text[text.index(end) + len(end) :]
    return text.rstrip("\n") + "\n\n" + block + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkouts", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "real_code")
    parser.add_argument("--scans", type=Path, help="folder of <project>.before/.after/.cc.json scans")
    args = parser.parse_args(argv)
    projects = []
    for checkout in args.checkouts:
        name = checkout.resolve().name
        table, model = rows(checkout)
        write_tsv(args.out / "build_model" / f"{name}.tsv", table)
        projects.append((name, table, model))
        print(f"{name}: {len(table)} files", file=sys.stderr)
    page = args.out / "build_model.md"
    text = page.read_text(encoding="utf-8") if page.is_file() else "# The build model on the real projects\n"
    text = _replace(text, "summary", summary(projects))
    if args.scans:
        text = _replace(text, "scans", scans(projects, args.scans))
    page.write_text(text, encoding="utf-8")
    print(summary(projects))
    return 0


if __name__ == "__main__":
    sys.exit(main())
