"""The SWF reader's whole-number reads (``swf._loadtxt``) give the float read's array bit for
bit, whatever the text: whole numbers, decimals in any field, negative zeros, signs, leading
zeros, huge integers, exponents, refused text."""

from __future__ import annotations

import warnings

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cloudsim_py.workload import swf


def float_read(rows: list[str]) -> np.ndarray | None:
    """What ``_loadtxt`` gave before it tried whole numbers: numpy's float read."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            data = np.loadtxt(rows, comments=";", dtype=np.float64, ndmin=2)
    except ValueError:
        return None
    return data if data.shape == (len(rows), 18) else None


def same(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return a.shape == b.shape and a.tobytes() == b.tobytes()


WHOLE = st.integers(-5, 10**6).map(str)
TOKENS = st.one_of(
    WHOLE, WHOLE, WHOLE,
    st.sampled_from(["-0", "-00", "+0", "0", "007", "+12", "-1", "142.00", "0.5", "-0.0", "1e3", "2E-2",
                     "9007199254740993", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
                     "99999999999999999999", "nan", "inf", "x", "1,5"]),
    st.floats(allow_nan=False, allow_infinity=False, width=64).map(repr),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(TOKENS, min_size=17, max_size=19), min_size=1, max_size=6))
def test_the_fast_reads_give_the_float_reads_array_bit_for_bit(lines):
    rows = [" ".join(tokens) for tokens in lines]
    assert same(swf._loadtxt(rows), float_read(rows))


def row(values) -> str:
    return "  ".join(str(v) for v in values)


WHOLE_ROW = row([1, 0, 5, 100, 4, -1, -1, 4, 200, -1, 1, 3, 1, -1, 1, -1, -1, -1])
DECIMAL_ROW = row([2, 10, 0, 50, 2, "142.00", "3.5", 2, 60, "0.25", 1, 3, 1, -1, 1, -1, -1, -1])


def test_whole_lines_are_read_as_whole_numbers_and_decimal_fields_in_the_mixed_read():
    whole = swf._whole([WHOLE_ROW])
    assert whole is not None and same(whole, float_read([WHOLE_ROW]))
    mixed = swf._whole([WHOLE_ROW, DECIMAL_ROW])          # decimals only in fields 6, 7, 10
    assert mixed is not None and same(mixed, float_read([WHOLE_ROW, DECIMAL_ROW]))
    elsewhere = DECIMAL_ROW.replace("  50  ", "  50.5  ", 1)   # a decimal run time: floats
    assert swf._whole([elsewhere]) is None
    assert same(swf._loadtxt([elsewhere]), float_read([elsewhere]))


def test_a_negative_zero_or_an_integer_beyond_2_53_is_read_as_a_float():
    zero = WHOLE_ROW.replace("  -1  -1  4", "  -0  -1  4", 1)
    got = swf._loadtxt([zero])
    assert got is not None and np.signbit(got[0, 5]) and same(got, float_read([zero]))
    big = WHOLE_ROW.replace("  3  1  -1", "  9007199254740993  1  -1", 1)
    assert swf._whole([big]) is None
    assert same(swf._loadtxt([big]), float_read([big]))


def test_a_trace_reads_the_same_through_the_fast_and_the_float_reads(tmp_path, monkeypatch):
    path = tmp_path / "t.swf"
    path.write_text("; MaxProcs: 8\n" + "\n".join([WHOLE_ROW, DECIMAL_ROW, WHOLE_ROW.replace("1  0  5", "3  20  5", 1)])
                    + "\n")
    fast = swf.read_array(path)
    monkeypatch.setattr(swf, "_whole", lambda rows: None)
    slow = swf.read_array(path)
    assert same(fast[0], slow[0]) and fast[1].tolist() == slow[1].tolist()
