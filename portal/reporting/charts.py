"""Chart geometry for the dashboards' server-rendered SVG: stacked columns (the burndown), a line (unconverted
references, progress), a ring (progress) and a 100% bar (parse health). Python computes coordinates; the
templates under templates/dashboards/charts/ draw them, so every label goes through the translation catalogue
and auto-escaping. Series are told apart by pattern and legend as well as colour (see _patterns.html)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import date, timedelta

from django.utils.formats import date_format, get_format
from django.utils.translation import gettext, ngettext

# The viewBox every wide chart draws in; CSS scales it to the container's width.
WIDTH, HEIGHT = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 12, 28
# A line's newest value is printed above its marker (dy=-8, 11px text): a point at the top of the scale ("100%")
# needs this much more room above the plot, or its label is cut off at the SVG's edge.
LINE_TOP = TOP + 12
# Axis text is 11px (rocport.css): about 6.5 units for a Latin letter or digit, a full 11 for a CJK character.
AXIS_FONT, NARROW = 11, 6.5
# The letters of a locale's MONTH_DAY_FORMAT that spell the month out or pad the day, and their short forms.
_SHORT_DAY = {"F": "M", "m": "n", "d": "j"}


def nice_ticks(maximum: float, count: int = 4) -> list[float]:
    """0 and round steps (1, 2, 5 × 10^k, never below 1: the charts count things) up to at least `maximum`:
    axis labels a person can read."""
    if maximum <= 0:
        return [0, 1]
    raw = maximum / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = max(1, next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw))
    top = math.ceil(maximum / step) * step
    return [round(i * step, 10) for i in range(int(round(top / step)) + 1)]


@dataclass
class Axis:
    ticks: list[tuple[float, str]]  # (y, label)
    x_labels: list[tuple[float, str]]  # (x, label)
    top: float


def _y_axis(maximum: float, fmt) -> tuple[list[tuple[float, str]], float]:
    ticks = nice_ticks(maximum)
    top = ticks[-1] or 1
    plot = HEIGHT - TOP - BOTTOM
    return [(TOP + plot - plot * t / top, fmt(t)) for t in ticks], top


def _x_labels(labels: list[str], xs: list[float]) -> list[tuple[float, str]]:
    """At most ~6 labels, always the first and the last, so they never overlap at 640 units."""
    if not labels:
        return []
    step = max(1, math.ceil(len(labels) / 6))
    picked = list(range(0, len(labels), step))
    if picked[-1] != len(labels) - 1:
        if len(labels) - 1 - picked[-1] < step / 2:
            picked[-1] = len(labels) - 1
        else:
            picked.append(len(labels) - 1)
    return [(xs[i], labels[i]) for i in picked]


def text_width(text: str) -> float:
    """An upper estimate of the width of axis text in viewBox units: wide (CJK) characters count as a full em."""
    return sum(AXIS_FONT if ord(ch) >= 0x2E80 else NARROW for ch in text)


def left_margin(labels) -> float:
    """Room for the y-axis labels (drawn 6 units left of the axis, anchored at their end), at least LEFT: a
    Chinese "60 小时" is wider than the 44 units that fit "60 h"."""
    return max([LEFT] + [math.ceil(text_width(label) + 6 + 4) for label in labels])


def axis_date(day) -> str:
    """A day on a date axis: the locale's month-and-day format with the month abbreviated and the day unpadded
    ("Dec 4" in English, "12月4日" in Chinese, "4. Dez" in German). A fixed "M j" reads "十二月 4" in Chinese."""
    fmt, short, escaped = get_format("MONTH_DAY_FORMAT"), [], False
    for letter in fmt:
        short.append(letter if escaped else _SHORT_DAY.get(letter, letter))
        escaped = not escaped and letter == "\\"
    return date_format(day, "".join(short))


def _count(value: float) -> str:
    return f"{int(value):,}" if value == int(value) else f"{value:,.1f}"


@dataclass
class Segment:
    key: str
    label: str
    value: int
    y: float
    height: float


@dataclass
class Column:
    x: float
    width: float
    label: str
    total: int
    segments: list[Segment] = field(default_factory=list)

    @property
    def title(self) -> str:
        """The column's tooltip: its label, total and every non-zero series."""
        text = ngettext("%(label)s: %(n)s open finding", "%(label)s: %(n)s open findings", self.total) % {
            "label": self.label,
            "n": f"{self.total:,}",
        }
        return "; ".join([text] + [f"{s.label} {s.value:,}" for s in self.segments])


@dataclass
class StackedColumns:
    columns: list[Column]
    axis: Axis
    series: list[tuple[str, str]]
    paths: list[tuple[str, str]] = field(default_factory=list)  # (series key, SVG path of all its segments)
    plot_top: float = TOP
    plot_height: float = HEIGHT - TOP - BOTTOM
    width: int = WIDTH
    height: int = HEIGHT
    baseline: float = HEIGHT - BOTTOM
    left: float = LEFT
    right: float = WIDTH - RIGHT


def stacked_columns(points: list[tuple[str, dict[str, int]]], series: list[tuple[str, str]]) -> StackedColumns:
    """One column per point (oldest first), stacked in `series` order (key, label); heights share one scale."""
    totals = [sum(values.get(key, 0) for key, _label in series) for _x, values in points]
    ticks, top = _y_axis(max(totals, default=0), _count)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    slot = plot_w / max(len(points), 1)
    width = min(slot * 0.7, 48)
    columns, xs = [], []
    for index, ((label, values), total) in enumerate(zip(points, totals)):
        x = LEFT + slot * index + (slot - width) / 2
        xs.append(x + width / 2)
        column = Column(x=round(x, 2), width=round(width, 2), label=label, total=total)
        y = TOP + plot_h
        for key, series_label in series:
            value = values.get(key, 0)
            if not value:
                continue
            height = plot_h * value / top
            y -= height
            column.segments.append(Segment(key, series_label, value, round(y, 2), round(height, 2)))
        columns.append(column)
    axis = Axis(
        ticks=[(round(y, 2), text) for y, text in ticks], x_labels=_x_labels([p[0] for p in points], xs), top=top
    )
    # One path per series instead of one rect per segment: a 50-scan chart is 5 elements, not 250, which keeps
    # the template's rendering time flat; each column's tooltip sits on a transparent rect over it.
    paths = []
    for key, _label in series:
        d = "".join(
            f"M{c.x},{s.y}h{c.width}v{s.height}h{-c.width}z" for c in columns for s in c.segments if s.key == key
        )
        if d:
            paths.append((key, d))
    return StackedColumns(columns=columns, axis=axis, series=series, paths=paths)


@dataclass
class LinePoint:
    x: float
    y: float
    label: str
    value: float
    text: str


@dataclass
class LineChart:
    points: list[LinePoint]
    path: str
    axis: Axis
    width: int = WIDTH
    height: int = HEIGHT
    baseline: float = HEIGHT - BOTTOM
    left: float = LEFT
    right: float = WIDTH - RIGHT


def line_chart(points: list[tuple[str, float]], percent: bool = False) -> LineChart:
    """A polyline with a marker per point; `percent` fixes the scale at 0-100. The plot starts LINE_TOP down, so
    that the value label over a point at the top of the scale stays inside the chart."""
    fmt = (lambda v: f"{v:.0f}%") if percent else _count
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - LINE_TOP - BOTTOM
    if percent:
        ticks, top = [0, 25, 50, 75, 100], 100
    else:
        ticks = nice_ticks(max((v for _l, v in points), default=0))
        top = ticks[-1] or 1
    y_ticks = [(LINE_TOP + plot_h - plot_h * t / top, fmt(t)) for t in ticks]
    slot = plot_w / max(len(points), 1)
    out = []
    for index, (label, value) in enumerate(points):
        x = LEFT + slot * index + slot / 2
        y = LINE_TOP + plot_h - plot_h * value / top
        out.append(LinePoint(round(x, 2), round(y, 2), label, value, fmt(value)))
    path = " ".join(f"{'M' if i == 0 else 'L'}{p.x},{p.y}" for i, p in enumerate(out))
    axis = Axis(
        ticks=[(round(y, 2), text) for y, text in y_ticks],
        x_labels=_x_labels([p.label for p in out], [p.x for p in out]),
        top=top,
    )
    return LineChart(points=out, path=path, axis=axis)


@dataclass
class Ring:
    percent: float | None
    dash: float  # the arc's length on a circle of circumference 100 (pathLength="100")
    text: str

    @property
    def long(self) -> bool:
        """Four characters ("100%") do not fit inside the ring at the font size of two or three: draw smaller."""
        return len(self.text) > 3


def ring(percent: float | None) -> Ring:
    if percent is None:
        return Ring(None, 0, "–")
    shown = max(0.0, min(100.0, percent))
    # floor, so that 99.96% never shows as "100%" while references are still unconverted
    text = f"{math.floor(shown)}%" if shown < 100 else "100%"
    return Ring(shown, round(shown, 2), text)


@dataclass
class BarPart:
    key: str
    label: str
    value: int
    x: float  # percent of the bar's width
    width: float


def stacked_bar(parts: list[tuple[str, str, int]]) -> list[BarPart]:
    """A 100% bar of (key, label, value) parts, zero parts left out; x and width in percent."""
    total = sum(value for _k, _l, value in parts)
    out, x = [], 0.0
    for key, label, value in parts:
        if not value or not total:
            continue
        width = 100 * value / total
        out.append(BarPart(key, label, value, round(x, 3), round(width, 3)))
        x += width
    return out


@dataclass
class Mark:
    """A marker on the burn-down (portal.reporting.history.Marker drawn): a re-rating on the line, or a step up where
    a new repository's scope joined, with the sentence its tooltip and the caption say."""

    x: float
    y: float
    kind: str
    title: str
    shape: str  # an SVG path around (x, y)


def _mark_title(marker, label) -> str:
    when = label(marker.day)
    if marker.kind == "rerated":
        text = ngettext("%(n)s finding re-rated", "%(n)s findings re-rated", marker.count) % {"n": f"{marker.count:,}"}
    else:
        text = ngettext(
            "new repository %(names)s: %(hours)s h of work added to the scope",
            "new repositories %(names)s: %(hours)s h of work added to the scope",
            len(marker.names),
        ) % {"names": ", ".join(marker.names), "hours": _count(round(marker.hours, 1))}
    return f"{when}: {text}"


def _value_label(point: LinePoint) -> tuple[float, float, str, str]:
    """The newest figure 8 units above its point, starting at it; anchored at its end when it would pass the
    viewBox's right edge (the point at today, on a chart that ends today), and below the point when the point is
    at the top of the scale."""
    width = text_width(point.text)
    anchor, x = "start", point.x
    if x + width > WIDTH - 2:
        anchor, x = "end", round(min(x, WIDTH - 2), 2)
    y = point.y - 8 if point.y - 8 - AXIS_FONT >= 0 else point.y + 8 + AXIS_FONT
    return x, round(y, 2), point.text, anchor


def _axis_anchor(x: float, text: str, left: float, right: float) -> str:
    """A date label's anchor that keeps it inside the viewBox: centred under its date unless that would pass an
    edge (or crowd the ends of the axis)."""
    half = text_width(text) / 2
    if x > right - 30 or x + half > WIDTH - 2:
        return "end"
    if x < left + 30 or x - half < 2:
        return "start"
    return "middle"


@dataclass
class Burndown:
    """Work left over time on a date axis, and the forecast: a dashed line from today's figure to zero at the
    likely date, inside a shaded cone from the earliest to the latest date. Every point is drawn at its date; what
    lies beyond the axis's end (a far latest date, an open range) is clipped at the right edge, not moved to it."""

    points: list[LinePoint]
    path: str
    axis: Axis
    forecast_path: str = ""
    cone: str = ""
    today_x: float | None = None
    labels: list[tuple[float, str, str]] = field(default_factory=list)  # (x, text, text-anchor)
    end: date | None = None  # the date at the right edge of the plot
    # the newest figure printed beside its point: (x, y, text, text-anchor), kept inside the viewBox
    value_label: tuple[float, float, str, str] | None = None
    marks: list[Mark] = field(default_factory=list)  # what moved the line without anyone working
    width: int = WIDTH
    height: int = HEIGHT
    baseline: float = HEIGHT - BOTTOM
    left: float = LEFT
    right: float = WIDTH - RIGHT


def _at_right(x0: float, y0: float, x1: float, y1: float, right: float) -> tuple[float, float]:
    """The end of the segment from (x0, y0) to (x1, y1), cut at x = right when it goes past it."""
    if x1 <= right or x1 <= x0:
        return x1, y1
    return right, round(y0 + (y1 - y0) * (right - x0) / (x1 - x0), 2)


def burndown(points, forecast, today, label=axis_date, markers=()) -> Burndown:
    """`points`: portal.reporting.history.Point (day, left) oldest first; `forecast`: its Forecast; `label`: a
    date formatter for the axis (axis_date unless told); `markers`: portal.reporting.history.Marker, what moved the
    line without anyone working. The date axis runs from the first point to the latest forecast date, but the
    future takes at most two thirds of the width (so that a far date does not squash the history): a likely date
    past that end leaves the dashed line at the right edge, at its height there."""
    if not points:
        return Burndown(points=[], path="", axis=Axis([], [], 1))
    start = points[0].day
    history_days = max((today - start).days, 7)
    end = today
    if forecast.has_date:
        # an open range has no latest date: show as far again past the likely date as the earliest is before it
        far = forecast.latest or forecast.likely + (forecast.likely - forecast.earliest) + timedelta(days=7)
        end = max(today, min(far, today + timedelta(days=2 * history_days)))
    span = max((end - start).days, 1)
    hours = gettext("%(hours)s h")
    y_ticks, top = _y_axis(max(p.left for p in points), lambda v: hours % {"hours": _count(v)})
    left = left_margin(text for _y, text in y_ticks)
    right = WIDTH - RIGHT
    plot_w, plot_h = right - left, HEIGHT - TOP - BOTTOM

    def x(day) -> float:
        # not clamped: a date past `end` lies right of the plot, and what is drawn there is cut by _at_right
        return round(left + plot_w * (day - start).days / span, 2)

    def y(value: float) -> float:
        return round(TOP + plot_h - plot_h * max(value, 0) / top, 2)

    out = [
        LinePoint(x(p.day), y(p.left), label(p.day), p.left, hours % {"hours": _count(round(p.left, 1))})
        for p in points
    ]
    # a step line: the figure holds until the next snapshot changes it
    path = ""
    for index, point in enumerate(out):
        path += f"M{point.x},{point.y}" if index == 0 else f"H{point.x}V{point.y}"
    last = out[-1]
    today_x = x(today)
    if today_x > last.x:
        path += f"H{today_x}"
    chart = Burndown(points=out, path=path, axis=Axis([], [], top), today_x=today_x, end=end, left=left, right=right)
    if forecast.has_date:
        zero = y(0)
        apex = (today_x, last.y)
        likely = _at_right(*apex, x(forecast.likely), zero, right)
        chart.forecast_path = f"M{today_x},{last.y}L{likely[0]},{likely[1]}"
        # the cone: from today's figure down to the axis between the earliest and the latest date, cut at the
        # right edge; an open range's pessimistic edge leaves the chart halfway down (or above the optimistic one)
        near = _at_right(*apex, x(forecast.earliest), zero, right)
        if forecast.latest:
            far = _at_right(*apex, x(forecast.latest), zero, right)
        else:
            far = (right, min(y(points[-1].left * 0.5), near[1]) if near[0] >= right else y(points[-1].left * 0.5))
        corners = [apex, near]
        if near[0] < right <= far[0] and far[1] < zero:
            corners.append((right, zero))  # the axis runs under the cone up to the edge
        corners.append(far)
        chart.cone = "M" + "L".join(f"{cx},{cy}" for cx, cy in corners) + "Z"
    labels = [(x(start), label(start))] if today_x - x(start) > 60 else []
    labels.append((today_x, label(today)))
    if forecast.has_date and forecast.likely <= end and x(forecast.likely) - today_x > 60:
        labels.append((x(forecast.likely), label(forecast.likely)))
    chart.axis = Axis(ticks=[(round(t, 2), text) for t, text in y_ticks], x_labels=labels, top=top)
    # labels at the ends of the axis are anchored inside the chart, so that none is cut off
    chart.labels = [(lx, text, _axis_anchor(lx, text, left, right)) for lx, text in labels]
    chart.value_label = _value_label(last)
    chart.marks = _marks(points, out, markers, x, label)
    return chart


def _marks(points, drawn: list[LinePoint], markers, x, label) -> list[Mark]:
    """Each marker on the line as it stood that day: a re-rating as a diamond over the line; a new repository's
    scope as a bracket on the step it makes (from the day before's figure up to that day's). A new repository on
    the first day drawn makes no step and gets no mark."""
    marks = []
    for marker in markers:
        index = max((k for k, p in enumerate(points) if p.day <= marker.day), default=None)
        if index is None:
            continue
        mx, point = x(marker.day), drawn[index]
        if marker.kind == "added":
            if index == 0 or points[index].day != marker.day:
                continue
            top, bottom = min(point.y, drawn[index - 1].y), max(point.y, drawn[index - 1].y)
            shape = f"M{mx - 4},{top}H{mx + 4}M{mx},{top}V{bottom}M{mx - 4},{bottom}H{mx + 4}"
            marks.append(Mark(mx, round((top + bottom) / 2, 2), marker.kind, _mark_title(marker, label), shape))
        else:
            my = round(point.y - 10, 2) if point.y - 15 >= 0 else round(point.y + 10, 2)
            shape = f"M{mx},{round(my - 5, 2)}l5,5l-5,5l-5,-5z"
            marks.append(Mark(mx, my, marker.kind, _mark_title(marker, label), shape))
    return marks
