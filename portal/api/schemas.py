"""The API's request and response shapes (pydantic models through Django Ninja); they are the OpenAPI schema.

Input types refuse what PostgreSQL would refuse later (NUL characters, lone surrogates, ids beyond bigint), so
bad input is a 422 naming the field instead of a database error.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Literal

from ninja import Path, Schema
from pydantic import AfterValidator, Field

from portal.api.pages import MAX_LIMIT, MAX_POINTS, limit_field, weeks_field
from portal.findings.models import Finding
from portal.ports.models import MergeRequest

MAX_ID = 2**63 - 1  # PostgreSQL's bigint: no row has a larger id, and PostgreSQL refuses to compare one


def _text(value: str) -> str:
    if "\x00" in value:
        raise ValueError("NUL characters are not allowed")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("not valid Unicode text (a lone surrogate)") from None
    return value


Text = Annotated[str, AfterValidator(_text)]
Id = Annotated[int, Field(ge=1, le=MAX_ID)]
Decision = Literal[tuple(Finding.Triage.values)]  # type: ignore[valid-type]
RiskName = Literal["silent-wrong-result", "build-break", "runtime-failure", "performance", "deprecation"]
SeverityName = Literal["info", "low", "medium", "high", "critical"]


def path_id():
    """An id in the URL: its bounds in the schema, so a path like /scans/99999999999999999999/ is a 422."""
    return Path(..., ge=1, le=MAX_ID)


# --- errors ----------------------------------------------------------------------------------------------------


class Error(Schema):
    detail: str


class FieldError(Schema):
    loc: list[str | int]
    msg: str


class InvalidInput(Schema):
    detail: str
    errors: list[FieldError]


# What any operation may answer besides its success: documented so that clients (and the fuzz test) know.
ERRORS = {400: Error, 401: Error, 403: Error, 404: Error, 422: InvalidInput}


# --- repositories ----------------------------------------------------------------------------------------------


class TeamOut(Schema):
    id: int
    name: str


class RepositoryOut(Schema):
    id: int
    team: TeamOut
    role: str = Field(description="The caller's role in the repository's team.")
    name: str
    clone_url: str
    default_branch: str
    tracked_branches: list[str]
    credentials_username: str
    has_credentials: bool = Field(description="Credentials are write-only: whether some are stored, never them.")
    created: datetime


class BranchOut(Schema):
    name: str
    is_default: bool
    newest_scan: ScanOut | None


class RepositoryDetail(RepositoryOut):
    branches: list[BranchOut]


class RepositoryIn(Schema):
    team: Id
    name: Text = Field(min_length=1, max_length=200)
    clone_url: Text = Field(max_length=1000)
    default_branch: Text = Field("main", min_length=1, max_length=255)
    credentials_username: Text = Field("", max_length=200)
    credentials_secret: Text = Field("", max_length=20000, description="Write-only; stored encrypted.")


class RepositoryPatch(Schema):
    clone_url: Text | None = Field(None, max_length=1000)
    default_branch: Text | None = Field(None, min_length=1, max_length=255)
    tracked_branches: list[Annotated[Text, Field(min_length=1, max_length=255, pattern=r"^[^,]*$")]] | None = Field(
        None, max_length=100, description="Besides the default branch; replaces the list."
    )
    credentials_username: Text | None = Field(None, max_length=200)
    credentials_secret: Text | None = Field(None, max_length=20000, description="Write-only; stored encrypted.")
    clear_credentials: bool = False


# --- scans -----------------------------------------------------------------------------------------------------


class ProgressOut(Schema):
    files_done: int
    files_total: int
    files_reused: int
    percent: int


class ScanOut(Schema):
    id: int
    repository_id: int
    branch: str
    ref: str
    commit_sha: str
    trigger: str
    status: str
    is_final: bool
    error_code: str
    error_message: str
    created: datetime
    started: datetime | None
    finished: datetime | None
    progress: ProgressOut


class TranslationOut(Schema):
    converted: int
    unconverted: int


class ScanStatistics(Schema):
    tracking: dict[str, int] = Field(
        description="new, still_open, fixed, reopened, rerated, moved, carried, untouched, inherited"
    )
    open_by_risk: dict[str, int]
    open_total: int
    translation: TranslationOut
    parse_modes: dict[str, int]
    files: int
    lines: int


class ScanDetail(ScanOut):
    advice: str = Field(description="For a failed scan: what to do about it.")
    statistics: ScanStatistics | None = Field(description="Set once the scan has finished.")


class ScanPage(Schema):
    items: list[ScanOut]
    next: str | None = Field(description="Pass as `before` for the next page; null on the last one.")


class WholeListQuery(Schema):
    """A list answered as a plain array (kept so for clients of v1): a window of it, `offset` items in."""

    limit: int = limit_field(
        default=MAX_LIMIT, description=f"Items in the answer, 1 to {MAX_LIMIT}; a full answer may have more after it."
    )
    offset: int = Field(0, ge=0, le=1_000_000, description="Items to skip: the previous answers' lengths added up.")


class ScanListQuery(Schema):
    branch: Text = Field("", max_length=255, description="Only this branch; empty for every branch.")
    before: str = Field("", pattern=r"^[0-9]{0,19}$", description="The `next` of the previous page.")
    limit: int = limit_field()


class ScanIn(Schema):
    branch: Text = Field("", max_length=255, description="A tracked branch; empty for the default branch.")


class StatisticsPoint(Schema):
    scan_id: int
    date: datetime
    commit_sha: str
    open_by_risk: dict[str, int]
    open_total: int
    converted: int
    unconverted: int
    new: int
    fixed: int
    reopened: int


class StatisticsQuery(Schema):
    limit: int = limit_field(100, MAX_POINTS, f"How many of the newest finished scans, 1 to {MAX_POINTS}.")


class StatisticsOut(Schema):
    branch: str
    points: list[StatisticsPoint] = Field(description="Finished scans of the default branch, oldest first.")


# --- findings --------------------------------------------------------------------------------------------------


class FindingFilters(Schema):
    """The findings list's filters, as in the UI's query string."""

    repository: Id | None = None
    risk: RiskName | None = None
    severity: SeverityName | None = None
    rule: Text = Field("", max_length=100, description="A rule code (ROC101) or name.")
    state: Literal["open", "fixed", "all"] = "open"
    triage: Decision | None = None
    path: Text = Field("", max_length=1000, description="Paths starting with this.")
    assignee: str = Field("", pattern=r"^(|me|none|[0-9]{1,18})$", description="A user id, `me` or `none`.")
    new_since: Id | None = Field(None, description="A scan id: findings first seen in it or later.")
    branch: Text = Field("", max_length=255, description="Empty: each repository's default branch.")
    owner: Text = Field("", max_length=200, description="A CODEOWNERS owner, e.g. @org/team.")
    sort: Literal["severity", "path", "newest"] = "severity"
    after: Text = Field("", max_length=3000, description="The `next` cursor of the previous page.")
    limit: int = limit_field()


class FindingOut(Schema):
    id: int
    repository_id: int
    branch: str
    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    rule: str
    name: str
    risk: str
    severity: str
    message: str
    snippet: str
    suppressed: bool
    state: str
    triage: str
    triage_reason: str
    assignee: str | None
    first_seen_scan_id: int | None
    last_seen_scan_id: int | None
    fixed_in_scan_id: int | None


class FindingPage(Schema):
    items: list[FindingOut]
    next: str | None = Field(description="Pass as `after` (with the same filters) for the next page.")


class TriageIn(Schema):
    decision: Decision
    reason: Text = Field("", max_length=2000, description="Required for false_positive, accepted_risk, wont_fix.")


class BulkTriageIn(TriageIn):
    ids: list[Id] = Field(min_length=1, max_length=1000)


class BulkTriageOut(Schema):
    triaged: int = Field(description="Findings whose triage changed.")
    not_found: list[int] = Field(description="Ids that do not exist or are not yours: left untouched.")


class CommentOut(Schema):
    id: int
    author: str | None
    text: str
    created: datetime


class CommentIn(Schema):
    text: Text = Field(max_length=5000)


# --- migration progress ----------------------------------------------------------------------------------------

FileState = Literal["not_started", "in_progress", "done"]


class FileStatesOut(Schema):
    not_started: int
    in_progress: int
    done: int


class MigrationOut(Schema):
    """portal.reporting.figures.MigrationProgress: hours of the work-left estimate."""

    known: bool = Field(description="False before the first finished scan of the default branch.")
    percent: float | None = Field(description="done / (done + left) × 100, unrounded; null without figures.")
    shown: str | None = Field(description='The percentage as the pages print it ("0.4", "37", "100").')
    done: float
    left: float
    descoped: float = Field(description="Out of scope: triaged false positive or won't fix.")
    baseline: float = Field(description="The work known at the default branch's first finished scan.")
    discovered: float = Field(
        description="Found since the baseline, net of re-ratings: done + left = baseline + discovered − descoped."
    )
    files: FileStatesOut


class ForecastOut(Schema):
    """portal.reporting.history.Forecast: a line through the work left at the end of each of the last 8 weeks."""

    status: Literal["done", "ok", "not_enough_history", "not_going_down", "not_in_sight"]
    rate: float = Field(description="Hours of work left removed per week, on the fitted line.")
    likely: date | None = Field(description="When the work left reaches zero; set when status is ok.")
    earliest: date | None = Field(description="The optimistic end of the 80% range.")
    latest: date | None = Field(description="The pessimistic end; null with status ok when the range is open.")
    points: int = Field(description="Weekly points the fit used.")


class FileProgressOut(Schema):
    path: str
    state: FileState
    done: float
    left: float
    descoped: float
    baseline: float
    touched: bool = Field(description="Someone fixed, triaged or reviewed something in it.")
    review: str = Field(description="The file's translation review state; empty when nobody reviewed it.")


class RepositoryProgressOut(Schema):
    repository_id: int
    branch: str = Field(description="The default branch: the figures are its own.")
    scan_id: int | None = Field(description="The newest finished scan of the default branch.")
    migration: MigrationOut
    forecast: ForecastOut
    most_left: list[FileProgressOut] = Field(description="The files with the most work left, most first (10).")


class FileProgressQuery(Schema):
    state: FileState | None = Field(None, description="Only files in this state.")
    after: Text = Field("", max_length=4096, description="The `next` of the previous page.")
    limit: int = limit_field()


class FileProgressPage(Schema):
    items: list[FileProgressOut] = Field(description="Files with migration work, known or done, by path.")
    next: str | None = Field(description="Pass as `after` (with the same state) for the next page.")


class HistoryQuery(Schema):
    weeks: int = weeks_field()


class HistoryPoint(Schema):
    day: date
    done: float
    left: float
    percent: float | None


class HistoryMarker(Schema):
    day: date
    kind: Literal["rerated", "added"] = Field(
        description="rerated: scans re-rated `count` findings; added: repositories `names` joined with `hours` left."
    )
    count: int
    hours: float
    names: list[str]


class HistoryOut(Schema):
    since: date
    until: date
    points: list[HistoryPoint] = Field(
        description="Each day a snapshot moved, oldest first; a quiet repository carried forward."
    )
    markers: list[HistoryMarker] = Field(description="What moved the work left without anyone working.")


class TeamRepositoryProgress(Schema):
    id: int
    name: str
    scanned: bool = Field(description="Whether its default branch has a finished scan.")
    migration: MigrationOut
    forecast: ForecastOut | None = Field(description="Null before a finished scan.")


class TeamProgressOut(Schema):
    team: TeamOut
    migration: MigrationOut = Field(description="The sum of the repositories' default branches.")
    forecast: ForecastOut
    repositories: list[TeamRepositoryProgress] = Field(description="Every repository of the team, by name.")


# --- merge requests --------------------------------------------------------------------------------------------

MergeRequestState = Literal[tuple(MergeRequest.State.values)]  # type: ignore[valid-type]


class MergeRequestOut(Schema):
    id: int
    repository_id: int
    state: MergeRequestState  # type: ignore[valid-type]
    in_flight: bool = Field(description="A worker is still pushing or opening it (queued, pushing, pushed).")
    mode: str = Field(description="in_place (files become their translation) or side_by_side (.hip copies).")
    base_commit: str = Field(description="The scanned commit the translations were made on.")
    target_branch: str
    files: list[str] = Field(description="The files whose reviewed translation it commits.")
    branch: str = Field(description="rocport/port-<id> on the host; empty until named.")
    head_commit: str
    number: int | None = Field(description="The host's number (GitLab's iid), once opened.")
    label: str = Field(description="How the host writes it: !12 on GitLab, #12 elsewhere; empty before.")
    url: str = Field(description="The pull / merge request on the host, once opened.")
    error_code: str = Field(description="Why it failed (state failed): a stable code.")
    error_message: str
    created_by: str | None
    attempts: int
    created: datetime
    updated: datetime


class LeftForPeople(Schema):
    path: str
    why: str


class ReviewOut(Schema):
    reviewer: str
    state: Literal["approved", "changes_requested", "commented"]
    at: datetime | None = Field(description="When the host says the review was made; null if it did not say.")


class CheckOut(Schema):
    name: str
    state: Literal["passing", "failing", "pending"]
    url: str
    at: datetime | None


class HostStateOut(Schema):
    review: Literal["approved", "changes_requested", "commented", ""] = Field(
        description="Changes requested by anyone, else approved, else commented; empty before any review."
    )
    reviews: list[ReviewOut] = Field(description="Each reviewer's latest review, as the host's webhooks said.")
    checks_state: Literal["passing", "failing", "pending", ""] = Field(
        description="Any check failing, else any pending, else passing; empty before any check."
    )
    checks: list[CheckOut] = Field(description="Each CI check of `checks_commit`, the newest commit heard of.")
    checks_commit: str
    heard: datetime | None = Field(description="When the host last reported a review or a check.")


class MergeRequestDetail(MergeRequestOut):
    left_for_people: list[LeftForPeople] = Field(description="Reviewed files it does not commit, and why.")
    advice: str = Field(description="For a failed request: what to do about it, as its page says.")
    host: HostStateOut = Field(description="Reviews and CI checks the host's webhooks reported, as its page shows.")


class MergeRequestQuery(Schema):
    state: MergeRequestState | None = Field(None, description="Only requests in this state.")  # type: ignore[valid-type]
    before: str = Field("", pattern=r"^[0-9]{0,19}$", description="The `next` of the previous page.")
    limit: int = limit_field()


class MergeRequestIn(Schema):
    files: list[Text] | None = Field(
        None,
        max_length=10_000,
        description="The paths whose reviewed translation goes in, as the page's checkboxes; omit (or null) for "
        "every reviewed translation that applies to the newest scan.",
    )
    mode: Literal["in_place", "side_by_side"] | None = Field(
        None,
        description="in_place (files become their translation) or side_by_side (.hip copies); omit for the "
        "repository's setting.",
    )


class MergeRequestPage(Schema):
    items: list[MergeRequestOut]
    next: str | None = Field(description="Pass as `before` for the next page; null on the last one.")


BranchOut.model_rebuild()
RepositoryDetail.model_rebuild()
