"""The one safe HTTP fetcher: feeds, story pages, the CLI and the demo widget all use it.

Untrusted URLs are fetched with urllib3, but the host is resolved here, every address
is checked against the policy, and the connection goes to the checked address (the Host
header and TLS SNI carry the name), so DNS rebinding cannot swap in a private address.
Redirects are followed by hand so that every hop is checked the same way.
"""
from __future__ import annotations

import ipaddress
import socket
import time
from dataclasses import dataclass, field
from typing import Callable
from urllib.parse import urljoin, urlsplit

import urllib3
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
            name = name.strip().lower()
            if name.startswith("*."):
                self.suffixes.append((name[1:], address.strip()))
            else:
                self.exact[name] = address.strip()
        self.fallback = fallback

    def __call__(self, host: str, port: int) -> list[str]:
        host = host.lower().rstrip(".")
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
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return parts.scheme, parts.hostname, port or (443 if parts.scheme == "https" else 80), path


def _connect_address(host: str, port: int, policy: FetchPolicy) -> str:
    addresses = policy.resolver(host, port)
    if not addresses:
        raise FetchError(FetchError.CONNECTION, f"{host} has no address")
    for address in addresses:  # every answer must pass, or a round-robin could slip one in
        policy.check_address(address)
    return addresses[0]


def _open(url: str, policy: FetchPolicy, headers: dict, deadline: float):
    scheme, host, port, path = _target(url)
    address = _connect_address(host, port, policy)
    remaining = max(0.1, deadline - time.monotonic())
    timeout = urllib3.Timeout(connect=min(policy.connect_timeout, remaining), read=min(policy.read_timeout, remaining))
    default_port = 443 if scheme == "https" else 80
    host_header = host if port == default_port else f"{host}:{port}"
    if ":" in host and port == default_port:
        host_header = f"[{host}]"
    kwargs = dict(host=address, port=port, timeout=timeout, retries=False, maxsize=1)
    if scheme == "https":
        pool = urllib3.HTTPSConnectionPool(server_hostname=host, assert_hostname=host, **kwargs)
    else:
        pool = urllib3.HTTPConnectionPool(**kwargs)
    request_headers = {"User-Agent": policy.user_agent, "Accept-Encoding": "gzip, deflate, br", **headers,
                       "Host": host_header}
    return pool.urlopen("GET", path, headers=request_headers, redirect=False, preload_content=False,
                        decode_content=True, assert_same_host=False)


def _read_body(resp, url: str, policy: FetchPolicy, deadline: float) -> bytes:
    declared = resp.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > policy.max_bytes:
        raise FetchError(FetchError.TOO_LARGE, f"{url} is {int(declared)} bytes, over the {policy.max_bytes} limit")
    body = bytearray()
    while True:
        if time.monotonic() > deadline:
            raise FetchError(FetchError.TIMEOUT, f"{url} took longer than {policy.total_timeout:g} s")
        chunk = resp.read1(_CHUNK)  # returns what has arrived, so a slow drip still meets the deadline
        if not chunk:
            return bytes(body)
        body += chunk
        if len(body) > policy.max_bytes:  # counts decoded bytes, so compression bombs stop here too
            raise FetchError(FetchError.TOO_LARGE, f"{url} is over the {policy.max_bytes} byte limit")


def fetch(url: str, policy: FetchPolicy = FetchPolicy(), headers: dict | None = None) -> Response:
    """GET url under policy. Returns 2xx and 304 responses; raises FetchError for anything else."""
    started = time.monotonic()
    deadline = started + policy.total_timeout
    for _hop in range(policy.max_redirects + 1):
        try:
            resp = _open(url, policy, headers or {}, deadline)
            try:
                if resp.status in _REDIRECTS and resp.headers.get("location"):
                    url = urljoin(url, resp.headers["location"])
                    continue
                response_headers = {k.lower(): v for k, v in resp.headers.items()}
                if resp.status == 304:
                    return Response(url, 304, response_headers, b"", time.monotonic() - started)
                if not 200 <= resp.status < 300:
                    raise FetchError(FetchError.HTTP, f"{url} answered HTTP {resp.status}", status=resp.status,
                                     headers=response_headers)
                content = _read_body(resp, url, policy, deadline)
                return Response(url, resp.status, response_headers, content, time.monotonic() - started)
            finally:
                resp.release_conn()
                resp.close()
        except FetchError:
            raise
        except urllib3.exceptions.SSLError as exc:
            raise FetchError(FetchError.TLS, f"{url}: TLS error: {exc}") from exc
        except urllib3.exceptions.NewConnectionError as exc:  # a subclass of the timeout error
            raise FetchError(FetchError.CONNECTION, f"{url}: cannot connect: {exc}") from exc
        except (urllib3.exceptions.TimeoutError, socket.timeout) as exc:
            raise FetchError(FetchError.TIMEOUT, f"{url} timed out: {exc}") from exc
        except (Urllib3Error, OSError) as exc:
            raise FetchError(FetchError.CONNECTION, f"{url} failed: {exc}") from exc
    raise FetchError(FetchError.REDIRECTS, f"more than {policy.max_redirects} redirects")
