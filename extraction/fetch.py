"""The one safe HTTP fetcher: feeds, story pages, the CLI and the demo widget all use it.

Untrusted URLs are fetched with urllib3, but the host is resolved here, every address
is checked against the policy, and the connection goes to the checked address (the Host
header and TLS SNI carry the name), so DNS rebinding cannot swap in a private address.
Redirects are followed by hand so that every hop is checked the same way.
"""
from __future__ import annotations

import ipaddress
import re
import socket
import ssl
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as LookupTimeout
from dataclasses import dataclass, field
from typing import Callable
from urllib.parse import quote, urljoin, urlsplit

import urllib3
from http.client import HTTPException
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.exceptions import HTTPError as Urllib3Error

DEFAULT_USER_AGENT = "newsreader/0.1 (+self-hosted feed reader)"
_REDIRECTS = {301, 302, 303, 307, 308}
_CHUNK = 64 * 1024

Resolver = Callable[[str, int], list[str]]


class FetchError(Exception):
    """A fetch that failed; ``kind`` is one of the constants below, ``status`` set for HTTP errors."""

    INVALID_URL = "invalid_url"
    REFUSED = "refused_address"
    TOO_LARGE = "too_large"
    TIMEOUT = "timeout"
    CONNECTION = "connection"
    HTTP = "http_status"
    REDIRECTS = "too_many_redirects"
    TLS = "tls"

    def __init__(self, kind: str, message: str, *, status: int | None = None, headers: dict | None = None):
        super().__init__(message)
        self.kind = kind
        self.status = status
        self.headers = headers or {}

    @property
    def transient(self) -> bool:
        """Worth retrying soon: timeouts, connection trouble, 429 and 5xx."""
        if self.kind in (self.TIMEOUT, self.CONNECTION):
            return True
        return self.kind == self.HTTP and (self.status == 429 or (self.status or 0) >= 500)


def system_resolver(host: str, port: int) -> list[str]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise FetchError(FetchError.CONNECTION, f"cannot resolve {host}: {exc}") from exc
    return list(dict.fromkeys(info[4][0] for info in infos))


def ascii_host(host: str) -> str:
    """The host name as it goes on the wire: IDNA (punycode) labels, lower case; ValueError if it has none."""
    host = host.lower()
    if host.isascii():
        return host
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError as exc:
        raise ValueError(f"{host!r} is not a valid international domain name") from exc


class StaticHosts:
    """A resolver that answers fixed addresses for listed names (``*.suffix`` matches subdomains).

    Benchmarks and tests map many host names to 127.0.0.1 with it, so that per-host limits behave as
    with real sites. The answers still go through the address policy like any other.
    """

    def __init__(self, spec: str, fallback: Resolver = system_resolver):
        self.exact: dict[str, str] = {}
        self.suffixes: list[tuple[str, str]] = []
        for item in filter(None, (part.strip() for part in spec.split(","))):
            name, sep, address = item.partition("=")
            if not sep:
                raise ValueError(f"static host {item!r} is not NAME=ADDRESS")
            ipaddress.ip_address(address.strip())  # fail at start-up, not at the first fetch
            name = ascii_host(name.strip())
            if name.startswith("*."):
                self.suffixes.append((name[1:], address.strip()))
            else:
                self.exact[name] = address.strip()
        self.fallback = fallback

    def __call__(self, host: str, port: int) -> list[str]:
        host = ascii_host(host).rstrip(".")
        if host in self.exact:
            return [self.exact[host]]
        for suffix, address in self.suffixes:
            if host.endswith(suffix):
                return [address]
        return self.fallback(host, port)


def parse_networks(spec: str) -> tuple:
    """'127.0.0.1/32, ::1' -> networks; used for the FETCH_ALLOWED_NETWORKS setting."""
    return tuple(ipaddress.ip_network(part.strip(), strict=False) for part in spec.split(",") if part.strip())


@dataclass(frozen=True)
class FetchPolicy:
    allowed_networks: tuple = ()
    connect_timeout: float = 5.0
    read_timeout: float = 10.0
    total_timeout: float = 30.0
    max_bytes: int = 10 * 1024 * 1024
    max_redirects: int = 5
    user_agent: str = DEFAULT_USER_AGENT
    resolver: Resolver = field(default=system_resolver, compare=False)

    def check_address(self, address: str) -> None:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
        if any(ip in net for net in self.allowed_networks if net.version == ip.version):
            return
        # An IPv6 address that carries an IPv4 one (mapped, NAT64, 6to4, Teredo) is judged by both.
        for candidate in (ip, *_embedded_ipv4(ip)):
            if (not candidate.is_global or candidate.is_multicast or candidate.is_reserved
                    or candidate.is_unspecified):
                raise FetchError(FetchError.REFUSED, f"refused to connect to non-public address {address}")


_NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))


def _embedded_ipv4(ip) -> list:
    if ip.version != 6:
        return []
    found = [ip.ipv4_mapped, ip.sixtofour, ip.teredo[1] if ip.teredo else None]
    if any(ip in net for net in _NAT64):
        found.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    return [v4 for v4 in found if v4 is not None]


@dataclass
class Response:
    url: str  # after redirects
    status: int
    headers: dict  # lower-case names
    content: bytes
    elapsed: float

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "").split(";", 1)[0].strip().lower()

    @property
    def charset(self) -> str | None:
        for part in self.headers.get("content-type", "").split(";")[1:]:
            name, _, value = part.partition("=")
            if name.strip().lower() == "charset" and value.strip():
                return value.strip().strip("\"'")
        return None


_C0_AND_SPACE = "".join(map(chr, range(33)))
_URL_CONTROLS = re.compile("[\x00-\x20\x7f]")


def _redirect_target(url: str, location: str) -> str:
    """The next hop as a browser reads a Location: C0 controls and spaces trimmed at the ends and escaped within
    (a NUL would otherwise travel on in the URL, into messages and rows)."""
    location = _URL_CONTROLS.sub(lambda m: f"%{ord(m.group()):02X}", location.strip(_C0_AND_SPACE))
    try:
        return urljoin(url, location)
    except ValueError as exc:  # "http://[x/": the next hop's checks never see it
        raise FetchError(FetchError.INVALID_URL, f"{url} redirects to an invalid URL {location!r}: {exc}") from exc


def _target(url: str) -> tuple[str, str, int, str]:
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise FetchError(FetchError.INVALID_URL, f"invalid URL {url!r}: {exc}") from exc
    if parts.scheme not in ("http", "https"):
        raise FetchError(FetchError.INVALID_URL, f"only http and https URLs can be fetched, not {url!r}")
    if not parts.hostname:
        raise FetchError(FetchError.INVALID_URL, f"URL has no host: {url!r}")
    if parts.username is not None or parts.password is not None:
        raise FetchError(FetchError.INVALID_URL, "URLs with user names or passwords are refused")
    try:  # the Host header, TLS name and DNS query all need the ASCII (punycode) form of an IDN
        host = ascii_host(parts.hostname)
    except ValueError as exc:
        raise FetchError(FetchError.INVALID_URL, f"invalid URL {url!r}: {exc}") from exc
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return parts.scheme, host, port or (443 if parts.scheme == "https" else 80), _ascii_path(path)


_PRINTABLE = "".join(map(chr, range(33, 127)))


def _ascii_path(path: str) -> str:
    """Spaces, controls and non-ASCII characters in the path or query percent-encoded (UTF-8), as browsers do."""
    return quote(path, safe=_PRINTABLE, errors="replace")


# Lookups run here so that a slow DNS server cannot outlast the fetch's deadline: the caller stops waiting at the
# deadline, and the lookup ends in the background at the system resolver's own timeout. The pool is bounded: when
# every thread waits on a hung server, later lookups queue and meet their deadline in the queue.
_LOOKUPS = ThreadPoolExecutor(max_workers=8, thread_name_prefix="dns")


def _resolve(host: str, port: int, policy: FetchPolicy, deadline: float, url: str) -> list[str]:
    lookup = _LOOKUPS.submit(policy.resolver, host, port)
    try:
        return lookup.result(timeout=max(0.0, deadline - time.monotonic()))
    except LookupTimeout:
        lookup.cancel()
        raise _too_slow(url, policy) from None


def _connect_address(host: str, port: int, policy: FetchPolicy, deadline: float, url: str) -> str:
    addresses = _resolve(host, port, policy, deadline, url)
    if not addresses:
        raise FetchError(FetchError.CONNECTION, f"{host} has no address")
    for address in addresses:  # every answer must pass, or a round-robin could slip one in
        policy.check_address(address)
    return addresses[0]


class _Watchdog:
    """Shuts the connection's socket at the deadline, so no phase (connect, headers, body) can outlast it.

    Socket timeouts apply to each read alone: a server sending one header line a second never trips them.
    """

    def __init__(self, conn, deadline: float):
        self.conn, self.expired = conn, False
        self.timer = threading.Timer(max(0.0, deadline - time.monotonic()), self._expire)
        self.timer.daemon = True
        self.timer.start()

    def _expire(self) -> None:
        self.expired = True
        sock = self.conn.sock
        if sock is not None:
            try:  # the plain socket's shutdown, under any TLS layer: a blocked read then returns at once
                socket.socket.shutdown(sock, socket.SHUT_RDWR)
            except OSError:
                pass

    def cancel(self) -> None:
        self.timer.cancel()


def _open(url: str, policy: FetchPolicy, headers: dict, deadline: float):
    """(response with its headers read, watchdog); the caller reads the body, then cancels the watchdog."""
    scheme, host, port, path = _target(url)
    address = _connect_address(host, port, policy, deadline, url)
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise _too_slow(url, policy)
    connect_timeout = min(policy.connect_timeout, remaining)
    default_port = 443 if scheme == "https" else 80
    name = f"[{host}]" if ":" in host else host  # an IPv6 literal
    host_header = name if port == default_port else f"{name}:{port}"
    if scheme == "https":
        conn = HTTPSConnection(address, port, timeout=connect_timeout, server_hostname=host, assert_hostname=host)
    else:
        conn = HTTPConnection(address, port, timeout=connect_timeout)
    request_headers = {"User-Agent": policy.user_agent, "Accept-Encoding": "gzip, deflate, br", **headers,
                       "Host": host_header}
    watchdog = _Watchdog(conn, deadline)
    try:
        conn.connect()
        conn.request("GET", path, headers=request_headers, preload_content=False, decode_content=True)
        conn.timeout = min(policy.read_timeout, max(0.01, deadline - time.monotonic()))  # each read's own limit
        return conn.getresponse(), watchdog
    except BaseException as exc:
        watchdog.cancel()
        conn.close()
        if watchdog.expired and isinstance(exc, (Urllib3Error, OSError, HTTPException)):
            raise _too_slow(url, policy) from exc
        raise


def _too_slow(url: str, policy: FetchPolicy) -> FetchError:
    return FetchError(FetchError.TIMEOUT, f"{url} took longer than {policy.total_timeout:g} s")


def _read_body(resp, url: str, policy: FetchPolicy, deadline: float) -> bytes:
    declared = resp.headers.get("content-length", "")
    # A length is ASCII digits (str.isdigit() takes "²", which int() refuses), and past 18 of them it is over any
    # cap (int() refuses 4,300); anything else is no length, and the size cap below still holds.
    if declared.isascii() and declared.isdigit() and (len(declared) > 18 or int(declared) > policy.max_bytes):
        size = declared if len(declared) <= 18 else f"a {len(declared)}-digit number of"
        raise FetchError(FetchError.TOO_LARGE, f"{url} is {size} bytes, over the {policy.max_bytes} limit")
    body = bytearray()
    while True:
        if time.monotonic() > deadline:
            raise _too_slow(url, policy)
        chunk = resp.read1(_CHUNK)  # returns what has arrived, so a slow drip still meets the deadline
        if not chunk:
            return bytes(body)
        body += chunk
        if len(body) > policy.max_bytes:  # counts decoded bytes, so compression bombs stop here too
            raise FetchError(FetchError.TOO_LARGE, f"{url} is over the {policy.max_bytes} byte limit")


def fetch(url: str, policy: FetchPolicy = FetchPolicy(), headers: dict | None = None) -> Response:
    """GET url under policy. Returns 2xx and 304 responses; raises FetchError for anything else.

    policy.total_timeout bounds the whole call, redirects included.
    """
    started = time.monotonic()
    deadline = started + policy.total_timeout
    for _hop in range(policy.max_redirects + 1):
        watchdog = None
        try:
            resp, watchdog = _open(url, policy, headers or {}, deadline)
            try:
                if resp.status in _REDIRECTS and resp.headers.get("location"):
                    url = _redirect_target(url, resp.headers["location"])
                    continue
                response_headers = {k.lower(): v for k, v in resp.headers.items()}
                if resp.status == 304:
                    return Response(url, 304, response_headers, b"", time.monotonic() - started)
                if not 200 <= resp.status < 300:
                    raise FetchError(FetchError.HTTP, f"{url} answered HTTP {resp.status}", status=resp.status,
                                     headers=response_headers)
                content = _read_body(resp, url, policy, deadline)
                if watchdog.expired:  # a body without a length ends at any close, the watchdog's too
                    raise _too_slow(url, policy)
                return Response(url, resp.status, response_headers, content, time.monotonic() - started)
            finally:
                watchdog.cancel()
                resp.close()
                watchdog.conn.close()
        except (Urllib3Error, OSError, HTTPException) as exc:
            if watchdog is not None and watchdog.expired:
                raise _too_slow(url, policy) from exc
            raise _as_fetch_error(url, exc) from exc
    raise FetchError(FetchError.REDIRECTS, f"more than {policy.max_redirects} redirects")


def _as_fetch_error(url: str, exc: Exception) -> FetchError:
    if isinstance(exc, (urllib3.exceptions.SSLError, ssl.SSLError, ssl.CertificateError)):
        return FetchError(FetchError.TLS, f"{url}: TLS error: {exc}")
    if isinstance(exc, urllib3.exceptions.NewConnectionError):  # a subclass of the timeout error
        return FetchError(FetchError.CONNECTION, f"{url}: cannot connect: {exc}")
    if isinstance(exc, (urllib3.exceptions.TimeoutError, socket.timeout)):
        return FetchError(FetchError.TIMEOUT, f"{url} timed out: {exc}")
    return FetchError(FetchError.CONNECTION, f"{url} failed: {exc}")
