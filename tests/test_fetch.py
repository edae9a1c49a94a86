"""The safe fetcher: limits, redirects re-checked, private addresses refused by default."""
import gzip

import pytest

from extraction.fetch import FetchError, FetchPolicy, fetch, parse_networks

LOOPBACK = FetchPolicy(allowed_networks=parse_networks("127.0.0.1/32"), total_timeout=5, read_timeout=2)


def test_fetches_a_page_with_its_charset(server):
    url = server.add("/page", "<p>héllo</p>".encode("latin-1"), headers={"Content-Type": "text/html; charset=ISO-8859-1"})
    response = fetch(url, LOOPBACK)
    assert response.status == 200
    assert response.charset == "ISO-8859-1"
    assert response.content.decode(response.charset) == "<p>héllo</p>"


def test_loopback_refused_by_default(server):
    url = server.add("/page", "secret")
    with pytest.raises(FetchError) as info:
        fetch(url)
    assert info.value.kind == FetchError.REFUSED
    assert server.requests == []


def test_redirect_to_a_refused_address_is_checked_at_every_hop(server):
    target = server.add("/target", "private")
    first = server.add("/start", status=302, headers={"Location": target.replace("127.0.0.1", "127.0.0.2")})
    with pytest.raises(FetchError) as info:
        fetch(first, LOOPBACK)
    assert info.value.kind == FetchError.REFUSED


def test_redirect_loop_stops(server):
    url = server.add("/loop", status=301, headers={"Location": "/loop"})
    with pytest.raises(FetchError) as info:
        fetch(url, LOOPBACK)
    assert info.value.kind == FetchError.REDIRECTS


def test_declared_size_over_limit_is_refused(server):
    url = server.add("/big", b"x" * 2000)
    with pytest.raises(FetchError) as info:
        fetch(url, FetchPolicy(allowed_networks=LOOPBACK.allowed_networks, max_bytes=1000))
    assert info.value.kind == FetchError.TOO_LARGE


def test_gzip_bomb_is_cut_at_the_decoded_size(server):
    bomb = gzip.compress(b"\0" * 50_000_000)
    url = server.add("/bomb", bomb, headers={"Content-Encoding": "gzip"})
    with pytest.raises(FetchError) as info:
        fetch(url, FetchPolicy(allowed_networks=LOOPBACK.allowed_networks, max_bytes=1_000_000))
    assert info.value.kind == FetchError.TOO_LARGE


def test_http_errors_say_whether_to_retry(server):
    url = server.add("/busy", status=503, headers={"Retry-After": "120"})
    with pytest.raises(FetchError) as info:
        fetch(url, LOOPBACK)
    assert info.value.status == 503 and info.value.transient
    assert info.value.headers["retry-after"] == "120"


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://127.0.0.1/", "gopher://127.0.0.1/",
                                 "http://user:pw@127.0.0.1/", "http:///nohost", "not a url"])
def test_bad_urls_are_refused_before_any_connection(url):
    with pytest.raises(FetchError) as info:
        fetch(url, LOOPBACK)
    assert info.value.kind == FetchError.INVALID_URL


def test_dead_port_is_a_connection_error():
    with pytest.raises(FetchError) as info:
        fetch("http://127.0.0.1:9/", LOOPBACK)
    assert info.value.kind == FetchError.CONNECTION and info.value.transient
