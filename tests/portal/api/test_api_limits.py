"""Page sizes: every paged list of the API takes `limit` (1 to the documented maximum, 50 by default), pages of
any size still cover every row once through `next`, and a size out of range is a 400 with a `detail` that names
the bounds; the OpenAPI document gives the bounds."""

from __future__ import annotations

import pytest

from portal.api import pages
from portal.scans.models import Scan
from tests.portal.api_clients import clients
from tests.portal.findings_data import make_findings


@pytest.fixture
def api(people):
    return clients(people)


def walk(client, url: str, cursor_name: str, **query) -> tuple[list[int], list[int]]:
    """Every item's id through `next`, and each page's size."""
    ids, sizes, cursor = [], [], ""
    while True:
        response = client.get(url, **query, **({cursor_name: cursor} if cursor else {}))
        assert response.status_code == 200, response.content
        body = response.json()
        ids += [item["id"] for item in body["items"]]
        sizes.append(len(body["items"]))
        if body["next"] is None:
            return ids, sizes
        cursor = body["next"]


@pytest.mark.django_db
def test_scan_pages_take_a_limit_and_still_cover_every_scan_once(people, api):
    repository, _scan = make_findings(people.team, 0)
    for _ in range(60):
        Scan.objects.create(repository=repository, branch="main")
    ids = sorted(Scan.objects.filter(repository=repository).values_list("pk", flat=True), reverse=True)  # 61
    url = f"/repositories/{repository.pk}/scans/"
    assert walk(api["vera"], url, "before", limit=25) == (ids, [25, 25, 11])
    assert walk(api["vera"], url, "before") == (ids, [50, 11])  # the default is still 50
    assert walk(api["vera"], url, "before", limit=pages.MAX_LIMIT) == (ids, [61])


@pytest.mark.django_db
def test_finding_pages_take_a_limit_within_one_repository_and_across_several(people, api):
    first, _ = make_findings(people.team, 30)
    second, _ = make_findings(people.team, 12, name="solver")
    every = walk(api["vera"], "/findings/", "after", limit=100)[0]
    assert len(every) == 42 and walk(api["vera"], "/findings/", "after")[1] == [42]
    assert walk(api["vera"], "/findings/", "after", limit=10) == (every, [10, 10, 10, 10, 2])  # across both
    mine = walk(api["vera"], "/findings/", "after", repository=first.pk, sort="path")[0]
    assert walk(api["vera"], "/findings/", "after", limit=7, repository=first.pk, sort="path") == (
        mine,
        [7, 7, 7, 7, 2],
    )


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["0", "-1", str(pages.MAX_LIMIT + 1), "99999999999999999999999"])
def test_a_page_size_out_of_range_is_a_400_naming_the_bounds(people, api, value):
    repository, _scan = make_findings(people.team, 3)
    for url in (f"/repositories/{repository.pk}/scans/", "/findings/"):
        response = api["vera"].get(url, limit=value)
        assert response.status_code == 400, (url, response.content)
        assert response.json() == {
            "detail": f"limit: a page holds 1 to {pages.MAX_LIMIT} items; {value} is out of range."
        }


@pytest.mark.django_db
def test_the_statistics_limit_is_bounded_the_same_way(people, api):
    repository, _scan = make_findings(people.team, 3)
    url = f"/repositories/{repository.pk}/statistics/"
    assert api["vera"].get(url, limit=pages.MAX_POINTS).status_code == 200
    response = api["vera"].get(url, limit=pages.MAX_POINTS + 1)
    assert response.status_code == 400
    assert str(pages.MAX_POINTS) in response.json()["detail"]
    assert api["vera"].get(url, limit="many").status_code == 422  # not a number at all: the schema's answer


@pytest.mark.django_db
def test_the_openapi_document_gives_every_list_its_limit_and_bounds(api):
    schema = api["vera"].client.get("/api/v1/openapi.json").json()
    limits = {}
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            for parameter in operation.get("parameters", []):
                if parameter["name"] == "limit":
                    limits[(method, path)] = parameter["schema"]
    assert limits[("get", "/api/v1/repositories/{repository_id}/scans/")] == {
        "default": 50,
        "description": f"Items per page, 1 to {pages.MAX_LIMIT}.",
        "maximum": pages.MAX_LIMIT,
        "minimum": 1,
        "title": "Limit",
        "type": "integer",
    }
    assert limits[("get", "/api/v1/findings/")]["maximum"] == pages.MAX_LIMIT
    assert limits[("get", "/api/v1/repositories/{repository_id}/statistics/")]["maximum"] == pages.MAX_POINTS
    paged = {
        (method, path)
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if "next" in answer_of(schema, operation).get("properties", {})
    }
    assert paged and paged <= set(limits)  # every operation that answers pages takes a limit


def answer_of(schema: dict, operation: dict) -> dict:
    """The schema of an operation's 200 answer, its reference resolved."""
    found = operation["responses"].get("200", {}).get("content", {}).get("application/json", {}).get("schema", {})
    ref = found.get("$ref", "")
    return schema["components"]["schemas"][ref.rsplit("/", 1)[-1]] if ref else found


@pytest.mark.django_db
def test_the_bounds_are_named_in_the_readers_language(people, api):
    repository, _scan = make_findings(people.team, 1)
    response = api["vera"].client.get(
        f"/api/v1/repositories/{repository.pk}/scans/?limit=0", headers={"Accept-Language": "zh-Hans"}
    )
    assert response.status_code == 400
    assert response.json() == {"detail": f"limit：每页可含 1 到 {pages.MAX_LIMIT} 项；0 超出范围。"}
    history = api["vera"].client.get(
        f"/api/v1/repositories/{repository.pk}/progress/history/?weeks=0", headers={"Accept-Language": "zh-Hans"}
    )
    assert history.json() == {"detail": f"weeks：历史可覆盖 1 到 {pages.MAX_WEEKS} 周；0 超出范围。"}


@pytest.mark.django_db
def test_the_whole_lists_take_a_limit_and_an_offset_and_keep_their_array_shape(people, api):
    """`/repositories/` and a finding's comments answer plain arrays (v1's shape, kept): a window of `limit` items
    from `offset`, bounded like every page, the windows covering every item once."""
    from portal.findings.models import Finding, FindingEvent

    for n in range(7):
        make_findings(people.team, 0, name=f"repo{n}")
    names = [item["name"] for item in api["vera"].get("/repositories/").json()]
    assert len(names) == 7 and names == sorted(names)
    answers = [api["vera"].get("/repositories/", limit=3, offset=offset) for offset in (0, 3, 6)]
    assert {answer["X-Total-Count"] for answer in answers} == {"7"}
    windows = [answer.json() for answer in answers]
    assert [item["name"] for window in windows for item in window] == names
    assert [len(window) for window in windows] == [3, 3, 1]
    assert api["vera"].get("/repositories/", limit=pages.MAX_LIMIT + 1).status_code == 400
    assert api["vera"].get("/repositories/", offset=-1).status_code == 422

    repository, _scan = make_findings(people.team, 1, name="commented")
    finding = Finding.objects.filter(repository=repository).first()
    for n in range(5):
        FindingEvent.objects.create(
            finding=finding, kind=FindingEvent.Kind.COMMENTED, actor=people.vera, data={"text": f"comment {n}"}
        )
    url = f"/findings/{finding.pk}/comments/"
    every = api["vera"].get(url).json()
    assert len(every) == 5
    assert api["vera"].get(url, limit=2, offset=2).json() == every[2:4]
    assert api["vera"].get(url, limit=0).status_code == 400
