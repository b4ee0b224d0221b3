"""Reading an uploaded scan (the scanner's JSON report, schema rocport-scan/1) into values the ingestion can
store, refusing anything else with a message that names the offending key (`files[3].findings[0].line: ...`).

Only what the portal keeps is taken from the body, each value checked against its column (type, range, length,
no NUL, valid UTF-8): a report is the uploader's word, so nothing of it reaches the database unchecked. Paths
must be relative to the repository root, "/"-separated, without "." or ".." parts.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from django.utils.translation import gettext as _

SCHEMA = "rocport-scan/1"
_MAX_INT = 2**31 - 1  # PostgreSQL's integer, behind PositiveIntegerField
_MODES = ("ast", "ast-stubbed", "tokens", "text", "error")
_RISKS = ("silent-wrong-result", "build-break", "runtime-failure", "performance", "deprecation")
_SEVERITIES = ("info", "low", "medium", "high", "critical")
_RULE = re.compile(r"^[A-Z]{2,6}[0-9]{1,4}$")
_FINGERPRINT = re.compile(r"^[0-9a-f]{1,64}$")
_STAT_KEYS = ("lines", "bytes", "cuda_refs_total", "kernels", "kernel_launches")
_TRANSLATION_KEYS = ("converted", "unconverted", "changed_lines")


class UploadRejected(Exception):
    """The body is not a scan the portal can ingest; the message says which key and why."""


@dataclass
class Upload:
    files: list[dict]  # {"path", "language", "parse": {"mode"}, "stats", "error", "findings"}, checked
    translations: dict[str, dict]  # path -> {"stats": {converted, unconverted, changed_lines}}
    tree: set[str] | None  # every regular file of the commit, when the uploader sent it
    rules: list[str] | None  # the codes of the rules that were enabled, when the uploader sent them
    tool_version: str


def parse(body: bytes) -> Upload:
    try:
        data = json.loads(body, parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise UploadRejected(_("The body is not UTF-8 text.")) from None
    except json.JSONDecodeError as exc:
        raise UploadRejected(_("The body is not JSON: %(error)s.") % {"error": exc}) from None
    except (RecursionError, ValueError) as exc:
        raise UploadRejected(_("The body is not JSON: %(error)s.") % {"error": exc}) from None
    if not isinstance(data, dict):
        raise UploadRejected(_("The body must be a JSON object (the scanner's --format json report)."))
    if data.get("schema") != SCHEMA:
        raise UploadRejected(
            _(
                "schema: expected %(expected)r, got %(got)r; upload the output of `python -m "
                "scanner scan --format json`."
            )
            % {"expected": SCHEMA, "got": data.get("schema")}
        )
    files = _list(data, "files", "files")
    seen: set[str] = set()
    checked, translations = [], {}
    for i, item in enumerate(files):
        where = f"files[{i}]"
        if not isinstance(item, dict):
            raise UploadRejected(_("%(where)s: expected an object.") % {"where": where})
        entry = _file(item, where)
        if entry["path"] in seen:
            raise UploadRejected(_("%(where)s.path: %(path)r appears twice.") % {"where": where, "path": entry["path"]})
        seen.add(entry["path"])
        checked.append(entry)
        translation = item.get("translation")
        if translation is not None:
            translations[entry["path"]] = {"stats": _translation_stats(translation, f"{where}.translation")}
    tree = None
    if data.get("tree") is not None:
        tree = {check_path(p, f"tree[{i}]") for i, p in enumerate(_list(data, "tree", "tree"))}
    rules = None
    if data.get("rules") is not None:
        rules = [_text(code, f"rules[{i}]", 10, pattern=_RULE) for i, code in enumerate(_list(data, "rules", "rules"))]
    tool = data.get("tool") if isinstance(data.get("tool"), dict) else {}
    version = tool.get("version") if isinstance(tool.get("version"), str) else ""
    return Upload(files=checked, translations=translations, tree=tree, rules=rules, tool_version=version[:40])


def check_path(value, where: str) -> str:
    """A repository-relative path ("src/k.cu"; "." is the repository itself), or UploadRejected."""
    path = _text(value, where, 1000)
    if path == ".":
        return path
    if not path or path.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", path):
        raise UploadRejected(
            _("%(where)s: %(path)r is not a path relative to the repository root.") % {"where": where, "path": path}
        )
    if "\\" in path or any(part in ("", ".", "..") for part in path.split("/")):
        raise UploadRejected(
            _('%(where)s: %(path)r must be "/"-separated, without empty, "." or ".." parts.')
            % {"where": where, "path": path}
        )
    return path


def _file(item: dict, where: str) -> dict:
    path = check_path(item.get("path"), f"{where}.path")
    parse_ = item.get("parse")
    if not isinstance(parse_, dict):
        raise UploadRejected(_("%(where)s: expected an object.") % {"where": f"{where}.parse"})
    mode = _choice(parse_.get("mode"), f"{where}.parse.mode", _MODES)
    stats = item.get("stats")
    if not isinstance(stats, dict):
        raise UploadRejected(_("%(where)s: expected an object.") % {"where": f"{where}.stats"})
    clean_stats = {key: _integer(stats.get(key, 0), f"{where}.stats.{key}") for key in _STAT_KEYS}
    refs = stats.get("cuda_refs", {})
    if not isinstance(refs, dict):
        raise UploadRejected(_("%(where)s: expected an object.") % {"where": f"{where}.stats.cuda_refs"})
    clean_stats["cuda_refs"] = {
        _text(k, f"{where}.stats.cuda_refs", 40): _integer(v, f"{where}.stats.cuda_refs.{k}") for k, v in refs.items()
    }
    findings = _list(item, "findings", f"{where}.findings")
    return {
        "path": path,
        "language": _text(item.get("language"), f"{where}.language", 20),
        "parse": {"mode": mode},
        "stats": clean_stats,
        "error": _text(item.get("error", ""), f"{where}.error", 100_000),
        "findings": [_finding(f, f"{where}.findings[{j}]") for j, f in enumerate(findings)],
    }


def _finding(item, where: str) -> dict:
    if not isinstance(item, dict):
        raise UploadRejected(_("%(where)s: expected an object.") % {"where": where})
    out = {
        "rule": _text(item.get("rule"), f"{where}.rule", 10, pattern=_RULE),
        "name": _text(item.get("name"), f"{where}.name", 100),
        "risk": _choice(item.get("risk"), f"{where}.risk", _RISKS),
        "severity": _choice(item.get("severity"), f"{where}.severity", _SEVERITIES),
        "path": check_path(item.get("path"), f"{where}.path"),
        "fingerprint": _text(item.get("fingerprint"), f"{where}.fingerprint", 64, pattern=_FINGERPRINT),
        "message": _text(item.get("message"), f"{where}.message", 100_000),
        "snippet": _text(item.get("snippet", ""), f"{where}.snippet", 100_000),
    }
    for key in ("line", "column", "end_line", "end_column", "occurrence"):
        out[key] = _integer(item.get(key), f"{where}.{key}")
    suppressed = item.get("suppressed", False)
    if not isinstance(suppressed, bool):
        raise UploadRejected(_("%(where)s: expected true or false.") % {"where": f"{where}.suppressed"})
    out["suppressed"] = suppressed
    return out


def _translation_stats(value, where: str) -> dict:
    stats = value.get("stats") if isinstance(value, dict) else None
    if not isinstance(stats, dict):
        raise UploadRejected(_("%(where)s: expected an object.") % {"where": f"{where}.stats"})
    return {key: _integer(stats.get(key, 0), f"{where}.stats.{key}") for key in _TRANSLATION_KEYS}


def _list(data: dict, key: str, where: str) -> list:
    value = data.get(key)
    if not isinstance(value, list):
        raise UploadRejected(_("%(where)s: expected a list.") % {"where": where})
    return value


def _integer(value, where: str) -> int:
    # bool is an int in Python; JSON's true is not a line number.
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= _MAX_INT:
        raise UploadRejected(
            _("%(where)s: expected an integer from 0 to %(max)d, got %(value)s.")
            % {"where": where, "max": _MAX_INT, "value": _show(value)}
        )
    return value


def _text(value, where: str, max_length: int, pattern: re.Pattern | None = None) -> str:
    if not isinstance(value, str):
        raise UploadRejected(
            _("%(where)s: expected a string, got %(value)s.") % {"where": where, "value": _show(value)}
        )
    if len(value) > max_length:
        raise UploadRejected(_("%(where)s: longer than %(max)d characters.") % {"where": where, "max": max_length})
    if "\x00" in value or not _encodable(value):
        raise UploadRejected(_("%(where)s: contains a NUL character or an unpaired surrogate.") % {"where": where})
    if pattern is not None and not pattern.match(value):
        raise UploadRejected(
            _("%(where)s: %(value)r is not in the expected form.") % {"where": where, "value": value[:40]}
        )
    return value


def _choice(value, where: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise UploadRejected(
            _("%(where)s: expected one of %(allowed)s, got %(value)s.")
            % {"where": where, "allowed": ", ".join(allowed), "value": _show(value)}
        )
    return value


def _encodable(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # "\udcxx" from a non-UTF-8 file name: PostgreSQL would refuse it mid-ingestion
        return False
    return True


def _show(value) -> str:
    if value is None or isinstance(value, (str, int, float, bool)):
        return json.dumps(value)[:40]
    return _("a list") if isinstance(value, list) else _("an object")


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")
