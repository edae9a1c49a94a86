"""When a feed is fetched next: posting rate, server hints (max-age, ttl, Retry-After), backoff after errors."""
from datetime import datetime, timedelta, timezone

import pytest

from reader.ingestion import feeds, schedule
from reader.models import Feed

NOW = datetime(2024, 6, 1, 12, 0, tzinfo=timezone.utc)
MIN, MAX = 600, 86400


def posts(every: timedelta, count=10, last=timedelta(0)):
    return [NOW - last - every * i for i in range(count)]


def test_busy_feeds_are_fetched_often_but_not_below_the_minimum():
    assert schedule.posting_interval(posts(timedelta(hours=2)), NOW) == 3600
    assert schedule.posting_interval(posts(timedelta(minutes=1)), NOW) == MIN


def test_quiet_feeds_slow_down_to_the_maximum():
    assert schedule.posting_interval(posts(timedelta(days=7)), NOW) == MAX
    # Posted hourly, but nothing for days: the feed has gone quiet.
    assert schedule.posting_interval(posts(timedelta(hours=1), last=timedelta(days=2)), NOW) == 6 * 3600
    assert schedule.posting_interval(posts(timedelta(hours=1), last=timedelta(days=10)), NOW) == MAX


def test_unchanged_feeds_back_off_gently():
    assert schedule.unchanged_interval(1000) == 1250
    assert schedule.unchanged_interval(MAX) == MAX


def test_server_hints_are_lower_bounds():
    assert schedule.server_minimum({"cache-control": "public, max-age=7200"}, None) == 7200
    assert schedule.server_minimum({}, 180) == 10800
    assert schedule.next_success(NOW, 900, {"cache-control": "max-age=3600"}) == NOW + timedelta(hours=1)
    assert schedule.next_success(NOW, 900, {"cache-control": "max-age=999999"}) == NOW + timedelta(seconds=MAX)


def test_retry_after_as_seconds_or_date():
    assert schedule.retry_after({"retry-after": "120"}, NOW) == 120
    assert schedule.retry_after({"retry-after": "Sat, 01 Jun 2024 13:00:00 GMT"}, NOW) == 3600
    assert schedule.retry_after({"retry-after": "soon"}, NOW) is None


def test_error_backoff_is_exponential_jittered_and_capped():
    delays = [[(schedule.next_after_error(NOW, n, NOW, None) - NOW).total_seconds() for _ in range(50)]
              for n in (1, 2, 3, 12)]
    for n, spread in zip((1, 2, 3), delays):
        full = MIN * 2 ** (n - 1)
        assert all(full / 2 <= d <= full for d in spread) and len(set(spread)) > 1
    assert max(delays[3]) <= MAX


def test_feeds_failing_for_days_are_retried_rarely():
    delays = [(schedule.next_after_error(NOW, 40, NOW - timedelta(days=4), None) - NOW) for _ in range(20)]
    assert all(timedelta(days=1.5) <= d <= timedelta(days=3) for d in delays)
    assert max(delays) > timedelta(days=1)


@pytest.mark.django_db
@pytest.mark.parametrize("status", [429, 503])
def test_retry_after_on_429_and_503_is_honoured(server, allow_loopback, status):
    feed = Feed.objects.create(url=server.add("/feed.xml", status=status, headers={"Retry-After": "7200"}))
    feeds.refresh(feed)
    feed.refresh_from_db()
    assert feed.error_count == 1 and f"HTTP {status}" in feed.last_error
    assert feed.next_fetch_at - feed.last_fetched_at >= timedelta(seconds=7200)


@pytest.mark.django_db
def test_ttl_and_max_age_push_the_next_fetch(server, allow_loopback):
    body = '<rss version="2.0"><channel><title>t</title><ttl>300</ttl><item><title>a</title></item></channel></rss>'
    feed = Feed.objects.create(url=server.add("/feed.xml", body, headers={"Cache-Control": "max-age=60"}))
    feeds.refresh(feed)
    feed.refresh_from_db()
    assert feed.next_fetch_at - feed.last_fetched_at == timedelta(minutes=300)


@pytest.mark.django_db
def test_a_success_clears_the_failing_state(server, allow_loopback):
    feed = Feed.objects.create(url=server.add("/feed.xml", status=500))
    feeds.refresh(feed)
    feed.refresh_from_db()
    assert feed.failing_since is not None
    server.add("/feed.xml", '<rss version="2.0"><channel><title>t</title><item><title>a</title></item></channel></rss>')
    feeds.refresh(feed)
    feed.refresh_from_db()
    assert (feed.error_count, feed.last_error, feed.failing_since) == (0, "", None)
