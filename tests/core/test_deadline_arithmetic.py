"""The core's own date arithmetic (deadlines.py imports no date module) agrees with Python's."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbiter.core import deadlines
from arbiter.core.errors import UsageError


def _text(moment: datetime.datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


@given(
    st.datetimes(min_value=datetime.datetime(1970, 1, 1), max_value=datetime.datetime(9000, 1, 1)),
    st.integers(min_value=0, max_value=400 * 86400),
)
def test_add_matches_datetime(moment, seconds):
    moment = moment.replace(microsecond=0)
    expected = _text(moment + datetime.timedelta(seconds=seconds))
    assert deadlines.add(_text(moment), seconds) == expected


@pytest.mark.parametrize("text", ["2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-01T24:00:00Z"])
def test_impossible_times_are_refused(text):
    with pytest.raises(UsageError, match="not a valid date"):
        deadlines.check_time(text)


def test_durations_read_as_people_write_them():
    assert deadlines.parse_duration("72h") == 3 * 86400
    assert deadlines.parse_duration("1d12h") == 36 * 3600
    assert deadlines.parse_duration("0s", "--grace", minimum=0) == 0
    assert deadlines.describe_duration(36 * 3600) == "1d12h"
    with pytest.raises(UsageError):
        deadlines.parse_duration("12")
