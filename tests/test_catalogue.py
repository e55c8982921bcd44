"""The metric catalogue: labels with units, waits shown in minutes, bounds; the shared table
printer."""

import math

from cloudsim_py.catalogue import metric
from cloudsim_py.tables import format_table


def test_a_wait_is_labelled_and_shown_in_minutes():
    wait = metric("avg_wait")
    assert wait.axis_label == "average wait (min)"
    assert wait.shown(90.0) == 1.5                 # 90 s


def test_the_bounded_slowdown_has_no_unit_and_is_at_least_one():
    bsld = metric("avg_bsld")
    assert bsld.axis_label == "average bounded slowdown"
    assert (bsld.lower, bsld.upper) == (1.0, math.inf)
    assert bsld.clamp(0.4) == 1.0 and bsld.clamp(7.0) == 7.0


def test_utilization_is_between_zero_and_one():
    u = metric("utilization")
    assert (u.clamp(-0.2), u.clamp(1.3)) == (0.0, 1.0)


def test_a_class_metric_keeps_the_unit_and_names_the_class():
    m = metric("avg_response_L")
    assert m.axis_label == "average response time, class L (min)" and m.lower == 0.0


def test_an_unknown_column_is_shown_as_it_is_without_bounds():
    m = metric("tag.trace")
    assert m.axis_label == "tag.trace" and m.clamp(-5.0) == -5.0


def test_the_table_printer_aligns_text_left_and_numbers_right():
    text = format_table(["policy", "wait"], [["fcfs", "1.5"], ["easy", "12.0"]], title="t")
    assert text.splitlines() == ["t", "policy  wait", "fcfs     1.5", "easy    12.0"]


def test_the_table_printer_writes_markdown_with_numbers_right_aligned():
    text = format_table(["policy", "wait"], [["fcfs", "1.5"]], markdown=True)
    assert text.splitlines() == ["| policy | wait |", "|---|---:|", "| fcfs | 1.5 |"]
