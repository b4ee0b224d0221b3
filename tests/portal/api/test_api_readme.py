"""The README's API section documents every progress and merge-request operation of the OpenAPI document, with the
page size's bounds the code enforces."""

from __future__ import annotations

import re
from pathlib import Path

from django.test import Client

from portal.api import pages

README = Path(__file__).resolve().parents[3] / "README.md"


def api_section() -> str:
    text = README.read_text(encoding="utf-8")
    return text.split("## The REST API", 1)[1].split("\n## ", 1)[0]


def test_every_progress_and_merge_request_operation_is_in_the_readme(db):
    schema = Client().get("/api/v1/openapi.json").json()
    section = api_section()
    wanted = [
        (method.upper(), re.sub(r"\{\w+_id\}", "{id}", path.removeprefix("/api/v1")))
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if set(operation.get("tags", ())) & {"progress", "merge requests"}
    ]
    assert len(wanted) == 9
    missing = [f"{method} {path}" for method, path in wanted if f"`{method} {path}`" not in section]
    assert missing == []
    assert f"1 to {pages.MAX_LIMIT} items a page ({pages.DEFAULT_LIMIT}" in section
    assert f"1 to {pages.MAX_POINTS} points" in section and f"at most {pages.MAX_WEEKS}" in section
