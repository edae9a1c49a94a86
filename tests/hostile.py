"""Hostile responses for the fixture server (``server.add(path, body=<one of these>)``)."""
import time


def _stream(handler, status_headers: dict, chunks) -> None:
    handler.send_response(200)
    for name, value in status_headers.items():
        handler.send_header(name, value)
    handler.end_headers()
    try:
        for chunk in chunks:
            handler.wfile.write(chunk)
    except OSError:  # the client gave up, as it should
        pass
    handler.close_connection = True


def endless(handler):
    """Chunked, never ending."""
    chunk = b"%x\r\n%s\r\n" % (65536, b"<p>" + b"a" * 65533)
    _stream(handler, {"Transfer-Encoding": "chunked", "Content-Type": "text/html"}, iter(lambda: chunk, None))


def huge(megabytes: int, declared: bool):
    """A page of that size, with or without a Content-Length saying so."""
    headers = {"Content-Type": "text/html"}
    if declared:
        headers["Content-Length"] = str(megabytes * 1024 * 1024)
    return lambda handler: _stream(handler, headers, (b"<p>" + b"h" * 65533 for _ in range(megabytes * 16)))


def drip(handler):
    """Ten bytes every tenth of a second."""
    _stream(handler, {"Content-Length": "1000000"}, ((time.sleep(0.1) or b"x" * 10) for _ in range(1000)))


def silent(handler):
    """Accepts the request and answers nothing for five seconds."""
    time.sleep(5)
