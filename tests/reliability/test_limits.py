"""Size and time limits against hostile servers: 100 MB pages, compression bombs, a 1 byte/s drip,
a port that never accepts. Each fetch must abort near its limit, having read and kept little."""
import socket
import time
import tracemalloc
import zlib

import brotli
import pytest

from extraction.fetch import FetchError, FetchPolicy, fetch, parse_networks

from .figures import record

pytestmark = pytest.mark.reliability

MB = 1024 * 1024
POLICY = FetchPolicy(allowed_networks=parse_networks("127.0.0.1/32"), connect_timeout=2, read_timeout=2,
                     total_timeout=5, max_bytes=10 * MB)


def compressed(encoding: str, decoded_mb: int) -> bytes:
    """decoded_mb megabytes of zeros, compressed: a few kilobytes to a megabyte on the wire."""
    chunk = b"\0" * MB
    if encoding == "br":
        compressor = brotli.Compressor(quality=5)
        return b"".join(compressor.process(chunk) for _ in range(decoded_mb)) + compressor.finish()
    if encoding == "gzip":
        # Concatenated gzip members are one valid stream: 16 copies of a 64 MB member.
        member = zlib.compressobj(6, zlib.DEFLATED, 31)
        one = b"".join(member.compress(chunk) for _ in range(decoded_mb // 16)) + member.flush()
        return one * 16
    deflate = zlib.compressobj(6, zlib.DEFLATED, 15)
    return b"".join(deflate.compress(chunk) for _ in range(decoded_mb)) + deflate.flush()


class Sent:
    """A response body that counts the bytes the server managed to hand to the socket."""

    def __init__(self, headers: dict, chunks, delay: float = 0.0):
        self.headers, self.chunks, self.delay, self.bytes = headers, chunks, delay, 0

    def __call__(self, handler):
        handler.send_response(200)
        for name, value in self.headers.items():
            handler.send_header(name, value)
        handler.end_headers()
        try:
            for chunk in self.chunks():
                handler.wfile.write(chunk)
                handler.wfile.flush()
                self.bytes += len(chunk)
                if self.delay:
                    time.sleep(self.delay)
        except OSError:
            pass
        handler.close_connection = True


def hundred_mb():
    return (b"<p>" + b"a" * (MB - 3) for _ in range(100))


def pieces(data: bytes, size: int = 64 * 1024):
    return lambda: (data[i:i + size] for i in range(0, len(data), size))


def measure(url: str) -> dict:
    tracemalloc.start()
    started = time.monotonic()
    try:
        fetch(url, POLICY)
        outcome = "fetched"
    except FetchError as exc:
        outcome = exc.kind
    seconds = time.monotonic() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {"outcome": outcome, "seconds": round(seconds, 2), "peak MB": round(peak / MB, 1)}


@pytest.fixture
def never_accepts():
    """A listening port whose accept queue is full: the kernel drops further connection attempts."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(0)
    fillers = []
    for _ in range(4):
        filler = socket.socket()
        filler.setblocking(False)
        filler.connect_ex(listener.getsockname())
        fillers.append(filler)
    time.sleep(0.2)
    yield listener.getsockname()[1]
    for sock in fillers + [listener]:
        sock.close()


def test_limits_abort_early_and_keep_little(server, never_accepts):
    cases = {
        "100 MB with Content-Length": Sent({"Content-Length": str(100 * MB)}, hundred_mb),
        "100 MB without Content-Length": Sent({"Connection": "close"}, hundred_mb),
        "1 byte/s drip": Sent({"Content-Length": "1000"}, lambda: (b"x" for _ in range(1000)), delay=1.0),
    }
    for encoding, decoded in (("gzip", 1024), ("br", 1024), ("deflate", 256)):
        bomb = compressed(encoding, decoded)
        cases[f"{encoding} bomb {len(bomb) // 1024} KB -> {decoded} MB"] = Sent(
            {"Content-Encoding": encoding, "Content-Length": str(len(bomb))}, pieces(bomb))
    rows = {}
    for index, (name, body) in enumerate(cases.items()):
        server.add(f"/case{index}", body)
        rows[name] = measure(server.url(f"/case{index}"))
        rows[name]["bytes sent"] = body.bytes
    rows["port that never accepts"] = measure(f"http://127.0.0.1:{never_accepts}/") | {"bytes sent": 0}
    figures = {f"{name}: {k}": v for name, row in rows.items() for k, v in row.items()}
    record("limits", "Size and time: huge pages, compression bombs, drip, silent port "
                     "(limits 10 MB, connect/read 2 s, total 5 s)", figures,
           "abort within the deadline; peak memory a small multiple of the 10 MB cap")
    expected = {"1 byte/s drip": "timeout", "port that never accepts": "timeout"}
    for name, row in rows.items():
        assert row["outcome"] == expected.get(name, "too_large"), (name, row)
        assert row["seconds"] < POLICY.total_timeout + 1.5, (name, row)
        assert row["peak MB"] < 40, (name, row)
    assert rows["100 MB with Content-Length"]["bytes sent"] < 20 * MB  # refused on the header
