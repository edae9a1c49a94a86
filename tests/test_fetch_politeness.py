"""Per-host politeness: at most 2 connections at once and a minimum delay between starts, across workers."""
import os
import threading
import time
import uuid

import pytest

from reader.ingestion import politeness
from reader.ingestion.politeness import FileGate, HostBusy, RedisGate

DELAY, HOLD = 0.3, 1.0


def redis_gate(tmp_path, **kw):
    return RedisGate(os.environ["REDIS_URL"], 2, DELAY, **kw)


def file_gate(tmp_path, **kw):
    return FileGate(tmp_path / "polite", 2, DELAY, **kw)


# The Redis gate is tested where there is a Redis (the PostgreSQL + Redis suite); the file gate everywhere.
GATES = [pytest.param(file_gate, id="file")] + (
    [pytest.param(redis_gate, id="redis")] if os.environ.get("REDIS_URL") else [])


def run_clients(make_gate, tmp_path, hosts, hold=HOLD):
    """One gate per client, as separate workers would have; returns (host, start, end) per request."""
    log, lock = [], threading.Lock()

    def client(host):
        with make_gate(tmp_path).slot(host, max_wait=30):
            start = time.monotonic()
            time.sleep(hold)
            end = time.monotonic()  # inside the slot: the next holder may start the moment it is released
        with lock:
            log.append((host, start, end))

    threads = [threading.Thread(target=client, args=(h,)) for h in hosts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return log


def max_overlap(spans):
    events = sorted([(s, 1) for s, _ in spans] + [(e, -1) for _, e in spans])
    level = peak = 0
    for _, step in events:
        level += step
        peak = max(peak, level)
    return peak


@pytest.mark.parametrize("make_gate", GATES)
def test_two_connections_at_most_and_a_delay_between_starts(make_gate, tmp_path):
    host = f"{uuid.uuid4().hex}.example"
    log = run_clients(make_gate, tmp_path, [host] * 5)
    starts = sorted(start for _, start, _ in log)
    assert all(b - a >= DELAY - 0.02 for a, b in zip(starts, starts[1:])), starts
    assert max_overlap([(s, e) for _, s, e in log]) == 2


@pytest.mark.parametrize("make_gate", GATES)
def test_different_hosts_do_not_wait_for_each_other(make_gate, tmp_path):
    log = run_clients(make_gate, tmp_path, [f"{uuid.uuid4().hex}.example" for _ in range(4)], hold=0.2)
    starts = [start for _, start, _ in log]
    assert max(starts) - min(starts) < DELAY


@pytest.mark.parametrize("make_gate", GATES)
def test_a_request_whose_turn_is_too_far_gets_its_booking_back(make_gate, tmp_path):
    gate, host = make_gate(tmp_path), f"{uuid.uuid4().hex}.example"
    with gate.slot(host, max_wait=0):
        with pytest.raises(HostBusy) as info:
            with gate.slot(host, max_wait=0.05):
                pass
    busy = info.value
    assert 0 < busy.retry_in <= DELAY and busy.booking is not None
    time.sleep(busy.retry_in)
    with gate.slot(host, max_wait=0.05, booking=busy.booking):  # the booked turn is kept: no new wait
        pass


@pytest.mark.parametrize("make_gate", GATES)
def test_a_crashed_holder_frees_its_connection_when_the_lease_ends(make_gate, tmp_path):
    gate, host = make_gate(tmp_path, lease=1.0), f"{uuid.uuid4().hex}.example"
    bookings = [gate.book(host)[0] for _ in range(3)]
    time.sleep(2 * DELAY + 0.05)
    assert gate.try_acquire(host, bookings[0])[0]  # never released
    time.sleep(DELAY)
    assert gate.try_acquire(host, bookings[1])[0]  # never released
    time.sleep(DELAY)
    assert gate.try_acquire(host, bookings[2])[0] is None  # both connections are held
    time.sleep(1.0)
    assert gate.try_acquire(host, bookings[2])[0] is not None


@pytest.mark.parametrize("make_gate", GATES)
def test_requests_that_waited_for_their_turn_still_start_the_delay_apart(make_gate, tmp_path):
    # both turns are past (their requests waited, e.g. for a connection): they may not start together
    gate, host = make_gate(tmp_path), f"{uuid.uuid4().hex}.example"
    first, second = [booking for booking, _ in gate.bookings(host, 2)]
    time.sleep(2 * DELAY)
    assert gate.try_acquire(host, first)[0]
    token, wait = gate.try_acquire(host, second)
    assert token is None and DELAY - 0.05 < wait <= DELAY
    time.sleep(wait)
    assert gate.try_acquire(host, second)[0]


@pytest.mark.parametrize("make_gate", GATES)
def test_loopback_names_are_exempt(make_gate, tmp_path):
    gate = make_gate(tmp_path, exempt=frozenset({"127.0.0.1"}))
    started = time.monotonic()
    for _ in range(5):
        with gate.slot("127.0.0.1", max_wait=0):
            pass
    assert time.monotonic() - started < DELAY


@pytest.mark.parametrize("make_gate", GATES)
def test_booking_spreads_a_hosts_requests_by_the_delay(make_gate, tmp_path):
    gate, host = make_gate(tmp_path), f"{uuid.uuid4().hex}.example"
    # the booked starts themselves, not the waits: a busy machine's pause between two calls shortens a wait
    booked = [gate.book(host) for _ in range(5)]
    assert booked[0][1] < 0.05
    assert [b - a for (a, _), (b, _) in zip(booked, booked[1:])] == [int(DELAY * 1000)] * 4, booked
    assert gate.book(f"{uuid.uuid4().hex}.example")[1] < 0.05  # another host is free now


@pytest.mark.parametrize("make_gate", GATES)
def test_booking_several_turns_at_once_keeps_the_calendar(make_gate, tmp_path):
    gate, host = make_gate(tmp_path), f"{uuid.uuid4().hex}.example"
    turns = gate.bookings(host, 4)
    assert [b - turns[0][0] for b, _ in turns] == [0, 300, 600, 900]
    assert abs(gate.book(host)[1] - 4 * DELAY) < 0.05  # the next single booking comes after all four


def test_a_lease_outlives_the_fetch_deadline_by_the_margin_and_no_more(settings):
    """A fixed 120 s lease kept a host blocked for two minutes after a worker died mid-fetch."""
    settings.FETCH_TIMEOUT = 5.0
    politeness.gate.cache_clear()
    try:
        assert politeness.gate().lease == 5.0 + politeness.LEASE_MARGIN
    finally:
        politeness.gate.cache_clear()


@pytest.mark.parametrize("make_gate", GATES)
@pytest.mark.parametrize("timeout", [float("inf"), 1e300])
def test_a_fetch_deadline_of_inf_or_1e300_still_gives_a_lease_that_can_be_taken(make_gate, tmp_path, settings,
                                                                                timeout):
    settings.FETCH_TIMEOUT = timeout
    gate, host = make_gate(tmp_path), f"{uuid.uuid4().hex}.example"
    assert gate.lease == politeness.LEASE_MAX
    with gate.slot(host, max_wait=1.0):
        pass
