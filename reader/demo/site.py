"""The demo news site over HTTP (stdlib only): home page, desk feeds, story pages, OPML.

    python -m reader.demo.site --port 8001

Every URL in a response is absolute and built from the request's Host header, so the
site works under whatever loopback address and port it is reached on. Responses carry
an ETag and Last-Modified and conditional requests are answered with 304, as a
well-behaved news site would, so a polling reader can be tested against it.
"""
import argparse
import hashlib
import re
import socket
from email.utils import format_datetime, parsedate_to_datetime
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from .catalog import DESKS, load_stories
from .routes import route

__all__ = ["DESKS", "load_stories", "make_server", "DemoSite"]

_HOST = re.compile(r"[A-Za-z0-9.-]+(:\d{1,5})?|\[[0-9A-Fa-f:.]+\](:\d{1,5})?")


def make_server(host="127.0.0.1", port=0, now=None, log_requests=False):
    """Bind the site to host:port (0 picks a free port) and return it, not yet serving.

    Call `serve_forever()` (in a thread if needed), then `shutdown()` and `server_close()`.
    `now` fixes the moment the story dates are shifted to (default: the current time).
    """
    return DemoSite((host, port), load_stories(now), log_requests)


class DemoSite(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address, stories, log_requests=False):
        self.address_family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        super().__init__(address, _Handler)
        self.stories = stories
        self.log_requests = log_requests

    @property
    def base_url(self):
        host, port = self.server_address[:2]
        return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


class _Handler(BaseHTTPRequestHandler):
    server_version = "MarrowgateCourier/1.0"

    def do_GET(self):
        self._respond(send_body=True)

    def do_HEAD(self):
        self._respond(send_body=False)

    def _respond(self, send_body):
        response = route(self.server.stories, self._base_url(), urlsplit(self.path).path)
        etag = f'"{hashlib.sha256(response.body).hexdigest()[:20]}"'
        status = response.status
        if status == HTTPStatus.OK and _not_modified(self.headers, etag, response.last_modified):
            status = HTTPStatus.NOT_MODIFIED
        self.send_response(status)
        if response.status == HTTPStatus.OK:
            self.send_header("ETag", etag)
            self.send_header("Last-Modified", format_datetime(response.last_modified, usegmt=True))
        if status != HTTPStatus.NOT_MODIFIED:
            self.send_header("Content-Type", response.content_type)
            self.send_header("Content-Length", str(len(response.body)))
        self.end_headers()
        if send_body and status != HTTPStatus.NOT_MODIFIED:
            self.wfile.write(response.body)

    def _base_url(self):
        host = self.headers.get("Host", "")
        # A malformed Host must not end up inside the links the site emits.
        return f"http://{host}" if _HOST.fullmatch(host) else self.server.base_url

    def log_message(self, format, *args):
        if self.server.log_requests:
            super().log_message(format, *args)


def _not_modified(headers, etag, last_modified):
    """Apply If-None-Match, or failing that If-Modified-Since (RFC 9110, 13.2.2)."""
    if_none_match = headers.get("If-None-Match")
    if if_none_match is not None:
        tags = {t.strip().removeprefix("W/") for t in if_none_match.split(",")}
        return "*" in tags or etag in tags
    since = _http_date(headers.get("If-Modified-Since"))
    return since is not None and last_modified.replace(microsecond=0) <= since


def _http_date(value):
    try:
        return parsedate_to_datetime(value) if value else None
    except (TypeError, ValueError):
        return None


def main(argv=None):
    parser = argparse.ArgumentParser(description="Serve the offline demo news site.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    args = parser.parse_args(argv)
    server = make_server(args.host, args.port, log_requests=True)
    print(f"Demo news site on {server.base_url}/ (feeds list: {server.base_url}/opml)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
