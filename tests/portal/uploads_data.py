"""Scanner reports (schema rocport-scan/1) built in code, and a bearer client, for the upload and export tests."""

from __future__ import annotations

import hashlib
import json
from urllib.parse import urlencode

from django.test import Client

from portal.accounts import tokens

COMMIT = "c" * 40


def finding(rule: str = "ROC101", line: int = 3, path: str = "src/k.cu", text: str = "", **extra) -> dict:
    snippet = text or f"x[threadIdx.x % 32] = {line};"
    return {
        "rule": rule,
        "name": "warp-size-lane-arithmetic",
        "risk": "silent-wrong-result",
        "severity": "high",
        "path": path,
        "line": line,
        "column": 5,
        "end_line": line,
        "end_column": 20,
        "message": f"{rule} at {path}:{line}",
        "snippet": snippet,
        "fingerprint": hashlib.sha256(f"{rule}{snippet}".encode()).hexdigest()[:32],
        "occurrence": 0,
        "suppressed": False,
        "suppression_reason": "",
        **extra,
    }


def file(path: str, *findings: dict, language: str = "cuda", mode: str = "ast-stubbed", converted: int = 2) -> dict:
    return {
        "path": path,
        "language": language,
        "parse": {
            "mode": mode,
            "stubbed_headers": [],
            "error_count": 0,
            "first_errors": [],
            "reparse_rounds": 0,
            "skipped_ranges": [],
            "defines": [],
            "fallback_reason": "",
        },
        "stats": {
            "lines": 40,
            "bytes": 900,
            "cuda_refs": {"memory": 2},
            "cuda_refs_total": 2,
            "kernels": 1,
            "kernel_launches": 1,
        },
        "findings": [dict(f, path=path) if f.get("path") != "." else f for f in findings],
        "error": "",
        "elapsed_ms": 3.2,
        "translation": {
            "backend": "builtin",
            "backend_version": "0.1.0",
            "fallback_reason": "",
            "error": "",
            "stats": {"converted": converted, "unconverted": 1, "changed_lines": 2},
        },
    }


def report(*files: dict, tree: list[str] | None = None, rules: list[str] | None = None) -> dict:
    data = {
        "schema": "rocport-scan/1",
        "tool": {"name": "rocport", "version": "0.1.0"},
        "root": "/ci/checkout",
        "target": {"targets": ["gfx942"], "rocm": "7.2"},
        "files": list(files),
        "summary": {},
    }
    if tree is not None:
        data["tree"] = tree
    if rules is not None:
        data["rules"] = rules
    return data


def bearer(plain: str) -> Client:
    return Client(headers={"Authorization": f"Bearer {plain}"})


def token(user, read_only: bool = False) -> str:
    return tokens.issue(user, "ci", read_only=read_only)[1]


def post(client: Client, repository, body, commit: str = COMMIT, branch: str = "main", **params):
    query = {"repository": repository.pk, "commit": commit, "branch": branch, **params}
    data = body if isinstance(body, (bytes, str)) else json.dumps(body)
    return client.post(f"/api/v1/uploads/?{urlencode(query)}", data=data, content_type="application/json")
