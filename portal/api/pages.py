"""Page sizes of the API's lists: `limit` on every list that comes in pages, 1 to MAX_LIMIT (50 by default).

The bounds are in the OpenAPI document (minimum, maximum) but checked here rather than by the schema, so that a
size out of range is a 400 whose `detail` names the bounds, not a 422 about a field: a client that asks for 1,000
learns what it may ask for instead.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from pydantic import Field

from portal.reporting.history import WEEKS as WEEKS_DEFAULT

DEFAULT_LIMIT = 50  # what every page held before `limit` existed
MAX_LIMIT = 200  # a page of findings is a few hundred bytes a row: 200 stay well under a second to build
MAX_POINTS = 1000  # the statistics over time: one small point per finished scan
MAX_WEEKS = 104  # the progress history: two years of daily points at most
# The plain-array lists (v1's shape, no `next`) say how many items there are in all, so a window never hides more.
TOTAL_HEADER = "X-Total-Count"


def limit_field(default: int = DEFAULT_LIMIT, maximum: int = MAX_LIMIT, description: str = ""):
    """The `limit` query parameter of a list; check its value with `checked` in the operation."""
    return Field(
        default,
        description=description or f"Items per page, 1 to {maximum}.",
        json_schema_extra={"minimum": 1, "maximum": maximum},
    )


def checked(limit: int, maximum: int = MAX_LIMIT) -> int:
    """`limit` itself when 1 <= limit <= maximum, else a 400 (ValidationError) that names the bounds."""
    if not 1 <= limit <= maximum:
        raise ValidationError(
            _("limit: a page holds 1 to %(maximum)d items; %(limit)s is out of range.")
            % {"maximum": maximum, "limit": limit}
        )
    return limit


def weeks_field():
    """The `weeks` of history a progress history covers; check its value with `checked_weeks`."""
    return Field(
        WEEKS_DEFAULT,
        description=f"Weeks of history up to today, 1 to {MAX_WEEKS} (the burn-down's {WEEKS_DEFAULT} by default).",
        json_schema_extra={"minimum": 1, "maximum": MAX_WEEKS},
    )


def checked_weeks(weeks: int) -> int:
    if not 1 <= weeks <= MAX_WEEKS:
        raise ValidationError(
            _("weeks: a history covers 1 to %(maximum)d weeks; %(weeks)s is out of range.")
            % {"maximum": MAX_WEEKS, "weeks": weeks}
        )
    return weeks
