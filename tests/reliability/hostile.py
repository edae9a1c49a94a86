"""Hostile targets and the instruments the network-namespace probes use.

Imported by probe scripts (as tests.reliability.hostile) that run inside a loopback-only namespace,
so nothing here ever runs where a packet could leave the machine.
"""
from __future__ import annotations

import ipaddress
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import quote, unquote

# The probes' own servers listen here; the fetch policy allows only this one address, so every other
# loopback address (127.0.0.1 included) must still be refused.
SERVER_ADDRESS = "127.77.0.1"

# (label, how the URL spells the host, the address it means)
ADDRESSES = [
    ("loopback", "127.0.0.1", "127.0.0.1"),
    ("loopback_top", "127.255.255.254", "127.255.255.254"),
    ("localhost_name", "localhost", "127.0.0.1"),
    ("unspecified", "0.0.0.0", "0.0.0.0"),
    ("private_10", "10.0.0.1", "10.0.0.1"),
    ("private_172", "172.16.0.1", "172.16.0.1"),
    ("private_192", "192.168.0.1", "192.168.0.1"),
    ("metadata", "169.254.169.254", "169.254.169.254"),
    ("cgnat", "100.64.0.1", "100.64.0.1"),
    ("multicast", "224.0.0.1", "224.0.0.1"),
    ("broadcast", "255.255.255.255", "255.255.255.255"),
    ("ietf_192_0_0", "192.0.0.1", "192.0.0.1"),
    ("benchmarking", "198.18.0.1", "198.18.0.1"),
    ("reserved_240", "240.0.0.1", "240.0.0.1"),
    ("decimal_loopback", "2130706433", "127.0.0.1"),
    ("hex_loopback", "0x7f000001", "127.0.0.1"),
    ("octal_loopback", "0177.0.0.1", "127.0.0.1"),
    ("short_loopback", "127.1", "127.0.0.1"),
    ("decimal_metadata", "2852039166", "169.254.169.254"),
    ("hex_dotted_metadata", "0xA9.0xFE.0xA9.0xFE", "169.254.169.254"),
    ("ipv6_loopback", "[::1]", "::1"),
    ("ipv6_unspecified", "[::]", "::"),
    ("ipv6_ula_fc", "[fc00::1]", "fc00::1"),
    ("ipv6_ula_fd", "[fd12:3456::1]", "fd12:3456::1"),
    ("ipv6_aws_metadata", "[fd00:ec2::254]", "fd00:ec2::254"),
    ("ipv6_link_local", "[fe80::1]", "fe80::1"),
    ("ipv6_multicast", "[ff02::1]", "ff02::1"),
    ("ipv4_mapped_loopback", "[::ffff:127.0.0.1]", "::ffff:127.0.0.1"),
    ("ipv4_mapped_metadata_hex", "[::ffff:a9fe:a9fe]", "::ffff:169.254.169.254"),
    ("ipv4_compatible", "[::127.0.0.1]", "::127.0.0.1"),
    ("nat64_loopback", "[64:ff9b::7f00:1]", "64:ff9b::7f00:1"),
    ("nat64_metadata", "[64:ff9b::a9fe:a9fe]", "64:ff9b::a9fe:a9fe"),
    ("sixtofour_private", "[2002:a00:1::1]", "2002:a00:1::1"),
]
HOPS = (1, 2, 3, 4, 5)
# Not http(s), or with credentials: refused whatever the address.
BAD_URLS = {
    "file_scheme": "file:///etc/passwd",
    "ftp_scheme": "ftp://127.0.0.1/etc/passwd",
    "gopher_scheme": "gopher://127.0.0.1:6379/_FLUSHALL",
    "dict_scheme": "dict://127.0.0.1:11211/stat",
    "data_scheme": "data:text/html,<p>x</p>",
    "userinfo": "http://user:secret@93.184.216.34/",
    "userinfo_confusion": f"http://{SERVER_ADDRESS}@10.0.0.1/",
    "userinfo_only_name": "http://admin@169.254.169.254/latest/",
}


def fake_names() -> str:
    """The fake resolver's table (FETCH_STATIC_HOSTS): one name per address."""
    return ",".join(f"{label.replace('_', '-')}.evil.test={canonical}" for label, _, canonical in ADDRESSES)


def cases(redirector: str) -> list[tuple[str, str]]:
    """(case name, URL): every address as a literal, by name, and behind 1..5 redirects; and the bad URLs."""
    found = []
    for label, spelling, _ in ADDRESSES:
        literal = f"http://{spelling}/latest/meta-data/"
        found.append((f"{label}/literal", literal))
        found.append((f"{label}/dns", f"http://{label.replace('_', '-')}.evil.test/"))
        found += [(f"{label}/redirect{hops}", f"{redirector}/hop/{hops}/{quote(literal, safe='')}") for hops in HOPS]
    for label, url in BAD_URLS.items():
        found.append((f"{label}/literal", url))
        found.append((f"{label}/redirect1", f"{redirector}/hop/1/{quote(url, safe='')}"))
    return found


class ConnectionLog:
    """Wraps socket.connect in this process: every address a connection is attempted to."""

    def __init__(self):
        self.attempts: list[str] = []
        original = socket.socket.connect
        log = self

        def connect(sock, address):
            log.attempts.append(str(address[0]))
            return original(sock, address)

        socket.socket.connect = connect

    @property
    def non_loopback(self) -> list[str]:
        return [a for a in self.attempts if not _is_loopback(a)]


def _is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address.split("%", 1)[0]).is_loopback
    except ValueError:
        return False  # a name or a path reached connect(): count it as escaping


def start_redirector() -> str:
    """/hop/N/<quoted url> answers 302 to /hop/N-1/..., and /hop/1/<url> to the url itself."""

    class Redirect(BaseHTTPRequestHandler):
        def do_GET(self):
            _, _, hops, target = self.path.split("/", 3)
            hops = int(hops)
            location = unquote(target) if hops <= 1 else f"/hop/{hops - 1}/{target}"
            self.send_response(302)
            self.send_header("Location", location)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer((SERVER_ADDRESS, 0), Redirect)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return f"http://{SERVER_ADDRESS}:{httpd.server_address[1]}"
