"""Chart geometry for the dashboards' server-rendered SVG: stacked columns (the burndown), a line (unconverted
references, progress), a ring (progress) and a 100% bar (parse health). Python computes coordinates; the
templates under templates/dashboards/charts/ draw them, so every label goes through the translation catalogue
and auto-escaping. Series are told apart by pattern and legend as well as colour (see _patterns.html)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from django.utils.translation import gettext, ngettext

# The viewBox every wide chart draws in; CSS scales it to the container's width.
WIDTH, HEIGHT = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 12, 28


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
    """A polyline with a marker per point; `percent` fixes the scale at 0-100."""
    fmt = (lambda v: f"{v:.0f}%") if percent else _count
    if percent:
        ticks = [0, 25, 50, 75, 100]
        plot = HEIGHT - TOP - BOTTOM
        y_ticks, top = [(TOP + plot - plot * t / 100, fmt(t)) for t in ticks], 100
    else:
        y_ticks, top = _y_axis(max((v for _l, v in points), default=0), fmt)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    slot = plot_w / max(len(points), 1)
    out = []
    for index, (label, value) in enumerate(points):
        x = LEFT + slot * index + slot / 2
        y = TOP + plot_h - plot_h * value / top
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
class Burndown:
    """Work left over time on a date axis, and the forecast: a dashed line from today's figure to zero at the
    likely date, inside a shaded cone from the earliest to the latest date (the cone's far edge runs off the chart
    when the range is open)."""

    points: list[LinePoint]
    path: str
    axis: Axis
    forecast_path: str = ""
    cone: str = ""
    today_x: float | None = None
    labels: list[tuple[float, str, str]] = field(default_factory=list)  # (x, text, text-anchor)
    width: int = WIDTH
    height: int = HEIGHT
    baseline: float = HEIGHT - BOTTOM
    left: float = LEFT
    right: float = WIDTH - RIGHT


def burndown(points, forecast, today, label) -> Burndown:
    """`points`: portal.progress.history.Point (day, left) oldest first; `forecast`: its Forecast; `label`: a
    date formatter for the axis. The date axis runs from the first point to the latest forecast date shown (at
    most as far ahead again as the history reaches back, so that a far date does not squash the history)."""
    from datetime import timedelta

    if not points:
        return Burndown(points=[], path="", axis=Axis([], [], 1))
    start = points[0].day
    history_days = max((today - start).days, 7)
    end = today
    if forecast.has_date:
        far = forecast.latest or forecast.likely + (forecast.likely - forecast.earliest) + timedelta(days=7)
        end = min(max(far, forecast.likely), today + timedelta(days=history_days))
    span = max((end - start).days, 1)
    hours = gettext("%(hours)s h")
    y_ticks, top = _y_axis(max(p.left for p in points), lambda v: hours % {"hours": _count(v)})
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(day) -> float:
        return round(LEFT + plot_w * min(max((day - start).days, 0), span) / span, 2)

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
    chart = Burndown(points=out, path=path, axis=Axis([], [], top), today_x=today_x)
    if forecast.has_date:
        zero = y(0)
        chart.forecast_path = f"M{today_x},{last.y}L{x(forecast.likely)},{zero}"
        far_x = x(forecast.latest) if forecast.latest else chart.right
        chart.cone = f"M{today_x},{last.y}L{x(forecast.earliest)},{zero}L{far_x},{zero}"
        if not forecast.latest:
            # an open range: the pessimistic edge leaves the chart above the axis
            chart.cone += f"L{chart.right},{y(points[-1].left * 0.5)}"
        chart.cone += "Z"
    labels = [(x(start), label(start))] if today_x - x(start) > 60 else []
    labels.append((today_x, label(today)))
    if forecast.has_date and x(forecast.likely) - today_x > 60:
        labels.append((x(forecast.likely), label(forecast.likely)))
    chart.axis = Axis(ticks=[(round(t, 2), text) for t, text in y_ticks], x_labels=labels, top=top)
    # labels at the ends of the axis are anchored inside the chart, so that none is cut off
    chart.labels = [
        (lx, text, "end" if lx > chart.right - 30 else "start" if lx < LEFT + 30 else "middle") for lx, text in labels
    ]
    return chart
