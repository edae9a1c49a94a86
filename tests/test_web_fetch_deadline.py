"""Finding 2: FETCH_TIMEOUT is one deadline over connect, headers and body, not a limit on each read.

The servers here stay inside every per-read timeout (a line a second), so only a total deadline stops them.
"""
import json
import socket
import threading
import time

import pytest
from django.test import Client

from extraction.fetch import FetchError, FetchPolicy, fetch, parse_networks

ALLOW = parse_networks("127.0.0.1/32")


class SlowHeaders:
    """Answers every request with one header line a second, for up to `lines` seconds, then a small page."""

    def __init__(self, lines: int = 20):
        self.lines, self.sent = lines, []
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(8)
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn):
        count = 0
        try:
            conn.recv(65536)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n")
            for count in range(1, self.lines + 1):
                time.sleep(1)
                conn.sendall(b"X-Slow-%d: still here\r\n" % count)
            conn.sendall(b"Content-Length: 13\r\nConnection: close\r\n\r\n<p>a page</p>")
        except OSError:
            pass
        finally:
            self.sent.append(count)
            conn.close()

    def lines_sent(self) -> int:
        """Header lines sent before the client hung up (waits for the answer to end)."""
        deadline = time.monotonic() + 5
        while not self.sent and time.monotonic() < deadline:
            time.sleep(0.1)
        return self.sent[0] if self.sent else self.lines

    def close(self):
        self.listener.close()


@pytest.fixture
def slow_headers():
    server = SlowHeaders()
    yield server
    server.close()


def test_header_lines_dripping_in_are_cut_at_the_total_deadline(slow_headers):
    policy = FetchPolicy(allowed_networks=ALLOW, read_timeout=5, total_timeout=3)
    with pytest.raises(FetchError) as info:
        fetch(f"http://127.0.0.1:{slow_headers.port}/", policy)
    assert info.value.kind == FetchError.TIMEOUT and "longer than 3 s" in str(info.value)
    assert slow_headers.lines_sent() < 6  # shut at the deadline, not after the server's 20 lines


@pytest.mark.django_db
def test_widget_answers_504_when_headers_drip(slow_headers, allow_loopback, settings):
    settings.FETCH_TIMEOUT = 2
    response = Client().post("/api/extract", json.dumps({"url": f"http://127.0.0.1:{slow_headers.port}/"}),
                             content_type="application/json")
    assert response.status_code == 504
    assert response.json()["error"]["code"] == "timeout"
    assert slow_headers.lines_sent() < 5


def test_a_body_without_a_length_cut_at_the_deadline_is_a_timeout_not_a_short_page(server):
    def drip_until_closed(handler):  # no Content-Length: the body ends when the connection closes
        handler.send_response(200)
        handler.send_header("Connection", "close")
        handler.end_headers()
        try:
            for _ in range(20):
                handler.wfile.write(b"<p>more</p>")
                handler.wfile.flush()
                time.sleep(0.25)
        except OSError:
            pass
        handler.close_connection = True

    server.add("/drip", drip_until_closed)
    with pytest.raises(FetchError) as info:
        fetch(server.url("/drip"), FetchPolicy(allowed_networks=ALLOW, read_timeout=5, total_timeout=1))
    assert info.value.kind == FetchError.TIMEOUT


def test_a_hung_name_lookup_ends_at_the_deadline_too():
    """The lookup is inside the deadline: a DNS server that never answers cannot hold a fetch (or a web worker)."""
    released = threading.Event()

    def hung_resolver(host, port):
        released.wait(30)
        return ["127.0.0.1"]

    policy = FetchPolicy(allowed_networks=ALLOW, total_timeout=1, resolver=hung_resolver)
    started = time.monotonic()
    try:
        with pytest.raises(FetchError) as info:
            fetch("http://slow-dns.example/", policy)
        assert info.value.kind == FetchError.TIMEOUT and "longer than 1 s" in str(info.value)
        assert time.monotonic() - started < 10  # the resolver alone would hold it for 30 s
    finally:
        released.set()


def test_a_lookup_that_fails_is_still_a_connection_error():
    def no_such_name(host, port):
        raise FetchError(FetchError.CONNECTION, f"cannot resolve {host}")

    with pytest.raises(FetchError) as info:
        fetch("http://nowhere.example/", FetchPolicy(allowed_networks=ALLOW, resolver=no_such_name))
    assert info.value.kind == FetchError.CONNECTION and "cannot resolve nowhere.example" in str(info.value)
