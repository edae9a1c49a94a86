"""The feed's keyset cursor carries the story's date (equal scores are newest first): hostile cursors are refused."""
from datetime import datetime, timezone

import pytest

from reader.web import stream


@pytest.mark.parametrize("cursor", ["0.5_1", "0.5_x_1", "nan_0_1", "inf_0_1", "0.5_0_0", "0.5_0_99999999999999999999",
                                    "0.5_999999999999999999_1", "0.5_-999999999999999999_1", "0.5_²_1", "0.5__1",
                                    "0.5_" + "9" * 5000 + "_1"])
def test_a_cursor_that_is_not_one_is_refused(cursor):
    with pytest.raises(stream.BadCursor):
        stream.decode_cursor(cursor)


@pytest.mark.parametrize("published", [datetime(1, 1, 1, tzinfo=timezone.utc),
                                       datetime(1969, 7, 20, 20, 17, 40, 5, tzinfo=timezone.utc),
                                       datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=timezone.utc)])
def test_a_cursor_round_trips_any_date(published):
    assert stream.decode_cursor(stream.encode_cursor(0.25, published, 7)) == (0.25, published, 7)
