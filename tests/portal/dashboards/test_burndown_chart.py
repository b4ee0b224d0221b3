"""The burn-down's geometry (portal.reporting.charts.burndown) and the other chart fixes the progress pages need:
every point drawn at its date, the forecast cut at the chart's edge instead of moved onto it, y labels that fit
in Chinese, locale-aware axis dates, room for the value label at 100% and a ring text that fits at 100%."""

from __future__ import annotations

import re
from datetime import date, timedelta

from django.utils import translation

from portal.reporting import charts, history

TODAY = date(2026, 12, 4)


def weekly(*lefts: float) -> list[history.Point]:
    """One point a week, the last one today."""
    return [history.Point(TODAY - timedelta(weeks=len(lefts) - 1 - k), 0, left) for k, left in enumerate(lefts)]


def burndown(points):
    found = history.forecast(points, TODAY)
    return found, charts.burndown(points, found, TODAY, charts.axis_date)


def x_of(chart, start: date, day: date) -> float:
    """Where `day` lies on the chart's date axis from `start` (the first point's day) to chart.end; right of the
    plot when past that end."""
    return chart.left + (chart.right - chart.left) * (day - start).days / (chart.end - start).days


def coordinates(path: str) -> list[tuple[float, float]]:
    return [(float(a), float(b)) for a, b in re.findall(r"(-?[\d.]+),(-?[\d.]+)", path)]


def test_the_forecast_line_ends_at_the_likely_date_right_of_today_and_inside_the_plot():
    # 10 h a week off 100 h over four weeks: 60 h left today, zero in six weeks
    points = weekly(100, 90, 80, 70, 60)
    found, chart = burndown(points)
    assert found.status == "ok" and found.likely == TODAY + timedelta(weeks=6)
    last = chart.points[-1]
    (x0, y0), (x1, y1) = coordinates(chart.forecast_path)
    assert (x0, y0) == (chart.today_x, last.y)
    # the old axis ended four weeks after today and drew the six-weeks-away date at that end
    assert last.x < x1 <= chart.right
    assert x1 == round(x_of(chart, points[0].day, found.likely), 2) and y1 == chart.baseline
    # the label of the likely date stands where the line meets the axis
    assert (x1, charts.axis_date(found.likely)) in chart.axis.x_labels
    assert chart.end >= found.likely


def test_each_point_and_label_is_at_its_date():
    points = weekly(100, 90, 80, 70, 60)
    _found, chart = burndown(points)
    for point, drawn in zip(points, chart.points):
        assert drawn.x == round(x_of(chart, points[0].day, point.day), 2)
    assert chart.today_x == round(x_of(chart, points[0].day, TODAY), 2)
    for x, text in chart.axis.x_labels:
        assert chart.left <= x <= chart.right and text


def test_a_likely_date_past_the_axis_is_cut_at_the_edge_on_its_own_line():
    # three weeks of history, seven weeks to go: the future may take two thirds of the width (six weeks)
    points = weekly(100, 90, 80, 70)
    found, chart = burndown(points)
    assert found.likely == TODAY + timedelta(weeks=7) and chart.end == TODAY + timedelta(weeks=6)
    (x0, y0), (x1, y1) = coordinates(chart.forecast_path)
    assert x1 == chart.right and chart.points[-1].y < y1 < chart.baseline
    # the line's slope still reaches the axis at the likely date, past the right edge
    reaches = x0 + (x1 - x0) * (chart.baseline - y0) / (y1 - y0)
    assert abs(reaches - x_of(chart, points[0].day, found.likely)) < 0.5
    assert charts.axis_date(found.likely) not in [text for _x, text in chart.axis.x_labels]
    assert all(x <= chart.right for x, _y in coordinates(chart.cone))


def test_the_cone_spans_earliest_to_latest_and_stays_inside():
    points = weekly(100, 85, 84, 70, 60)
    found, chart = burndown(points)
    assert found.earliest < found.likely < found.latest
    corners = coordinates(chart.cone)
    assert corners[0] == (chart.today_x, chart.points[-1].y)
    assert corners[1] == (round(x_of(chart, points[0].day, found.earliest), 2), chart.baseline)
    assert all(chart.left <= x <= chart.right and y <= chart.baseline for x, y in corners)


def test_the_y_labels_fit_left_of_the_axis_in_chinese():
    points = weekly(100, 90, 80, 70, 60)
    with translation.override("en"):
        _found, english = burndown(points)
    assert english.left == charts.LEFT
    with translation.override("zh-hans"):
        _found, chinese = burndown(points)
    labels = [text for _y, text in chinese.axis.ticks]
    assert "100 小时" in labels
    # the label is anchored at its end 6 units left of the axis: it must start inside the SVG
    assert all(chinese.left - 6 - charts.text_width(text) >= 0 for text in labels)
    assert chinese.left > charts.LEFT


def test_axis_dates_are_short_in_each_language():
    with translation.override("en"):
        assert charts.axis_date(TODAY) == "Dec 4"
    with translation.override("zh-hans"):
        assert charts.axis_date(TODAY) == "12月4日"
    with translation.override("es"):
        # "j \d\e F": the escaped letters stay letters
        assert charts.axis_date(TODAY).startswith("4 de ")


def test_a_value_label_at_100_percent_stays_inside_the_line_chart():
    line = charts.line_chart([("a", 50), ("b", 100)], percent=True)
    top = line.points[-1]
    assert top.text == "100%" and top.y - 8 - charts.AXIS_FONT >= 0
    assert line.axis.ticks[-1] == (top.y, "100%")


def test_the_ring_draws_100_percent_smaller():
    assert charts.ring(100).long and not charts.ring(99.5).long and not charts.ring(None).long


def extent(x: float, text: str, anchor: str) -> tuple[float, float]:
    """Where a text anchored at x starts and ends on the chart's x axis (text_width's upper estimate)."""
    width = charts.text_width(text)
    start = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
    return start, start + width


def test_the_newest_figure_at_todays_edge_is_anchored_at_its_end_inside_the_svg():
    # two weeks of history: no forecast, so the axis ends today and today's point sits on the right edge
    points = weekly(23456.7, 12345.6)
    found, chart = burndown(points)
    assert found.status == "not_enough_history" and chart.points[-1].x == chart.right
    x, _y, text, anchor = chart.value_label
    assert text == "12,345.6 h"
    # started at the point, as it was drawn before, it ran past the viewBox's right edge
    assert chart.points[-1].x + charts.text_width(text) > charts.WIDTH
    assert anchor == "end" and 0 <= extent(x, text, anchor)[0] and extent(x, text, anchor)[1] <= charts.WIDTH


def test_the_newest_figure_left_of_the_forecast_starts_at_its_point():
    points = weekly(100, 90, 80, 70, 60)
    _found, chart = burndown(points)
    x, y, text, anchor = chart.value_label
    assert (x, anchor) == (chart.points[-1].x, "start") and extent(x, text, anchor)[1] <= charts.WIDTH
    assert y == chart.points[-1].y - 8


def test_the_newest_figure_at_the_top_of_the_scale_is_drawn_below_its_point():
    points = weekly(50, 100)  # 100 h is the top tick: the point is on the plot's top edge
    _found, chart = burndown(points)
    _x, y, _text, _anchor = chart.value_label
    assert chart.points[-1].y == charts.TOP and y - charts.AXIS_FONT >= 0 and y > chart.points[-1].y


def test_every_date_label_stays_inside_the_svg_however_long():
    # the likely date at the right edge, and 58 units left of it: a long label centred there ran past the edge
    for lefts in ((100, 90, 80, 70, 60), (100, 85, 84, 70, 60), (100, 80, 84, 70, 50)):
        points = weekly(*lefts)
        found = history.forecast(points, TODAY)
        for language in ("en", "zh-hans", "de"):
            with translation.override(language):
                for label in (charts.axis_date, lambda day: f"Mittwoch, {day:%d}. Dezember {day:%Y}"):
                    chart = charts.burndown(points, found, TODAY, label)
                    assert len(chart.labels) == 3
                    for x, text, anchor in chart.labels:
                        start, end = extent(x, text, anchor)
                        assert 0 <= start and end <= charts.WIDTH, (lefts, language, text, anchor)


def test_marks_sit_on_the_line_at_their_day_and_a_step_is_bracketed_from_the_figure_before():
    start = TODAY - timedelta(weeks=4)
    points = [
        history.Point(start, 0, 100),
        history.Point(start + timedelta(days=7), 0, 90),
        history.Point(start + timedelta(days=14), 0, 150),  # a repository joined: +70 h
        history.Point(TODAY, 0, 120),
    ]
    markers = [
        history.Marker(start - timedelta(days=3), history.RERATED, count=4),  # before the chart: not drawn
        history.Marker(start, history.ADDED, hours=100, names=("first",)),  # the first point: no step, no mark
        history.Marker(start + timedelta(days=10), history.RERATED, count=12),  # a day without a point of its own
        history.Marker(start + timedelta(days=14), history.ADDED, hours=70, names=("beta", "gamma")),
    ]
    found = history.forecast(points, TODAY)
    with translation.override("en"):
        chart = charts.burndown(points, found, TODAY, charts.axis_date, markers)
    rerating, step = chart.marks
    day_x = {p.day: drawn.x for p, drawn in zip(points, chart.points)}
    # the re-rating over the figure that held that day (the week-1 point, carried), at that day's x
    assert (
        rerating.kind == "rerated"
        and rerating.title == f"{charts.axis_date(start + timedelta(days=10))}: 12 findings re-rated"
    )
    assert day_x[start + timedelta(days=7)] < rerating.x < day_x[start + timedelta(days=14)]
    assert rerating.y < chart.points[1].y
    assert step.kind == "added" and step.x == day_x[start + timedelta(days=14)]
    assert step.title.endswith("new repositories beta, gamma: 70 h of work added to the scope")
    ys = sorted(float(v) for v in re.findall(r"M[\d.]+,([\d.]+)H", step.shape))
    assert ys == [chart.points[2].y, chart.points[1].y]  # from 90 h up to 150 h
    with translation.override("zh-hans"):
        chinese = charts.burndown(points, found, TODAY, charts.axis_date, markers)
    assert chinese.marks[0].title.endswith("12 个问题重新评级")
    assert "新代码仓库 beta, gamma：范围增加 70 小时的工作" in chinese.marks[1].title
