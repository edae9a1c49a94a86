"""The fetcher's limits against hostile servers: silent, slow, endless, huge, not TLS; and the host map."""
import socket
import time

import pytest

import hostile
from extraction.fetch import FetchError, FetchPolicy, StaticHosts, fetch, parse_networks

ALLOW = parse_networks("127.0.0.1/32")


def policy(**limits):
    return FetchPolicy(allowed_networks=ALLOW, **limits)


@pytest.fixture
def silent_port():
    """A host that accepts connections and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    yield listener.getsockname()[1]
    listener.close()


def test_host_that_never_answers_times_out(silent_port):
    started = time.monotonic()
    with pytest.raises(FetchError) as info:
        fetch(f"http://127.0.0.1:{silent_port}/", policy(read_timeout=0.5, total_timeout=5))
    assert info.value.kind == FetchError.TIMEOUT and info.value.transient
    assert time.monotonic() - started < 3


def test_slow_drip_stops_at_the_total_deadline(server):
    server.add("/drip", hostile.drip)
    started = time.monotonic()
    with pytest.raises(FetchError) as info:
        fetch(server.url("/drip"), policy(read_timeout=1, total_timeout=1.5))
    assert info.value.kind == FetchError.TIMEOUT and "longer than 1.5 s" in str(info.value)
    assert time.monotonic() - started < 4


def test_endless_response_stops_at_the_size_cap(server):
    server.add("/endless", hostile.endless)
    with pytest.raises(FetchError) as info:
        fetch(server.url("/endless"), policy(max_bytes=2_000_000))
    assert info.value.kind == FetchError.TOO_LARGE


def test_hundred_megabyte_page_is_refused_without_reading_it(server):
    server.add("/huge", hostile.huge(100, declared=True))
    with pytest.raises(FetchError) as info:
        fetch(server.url("/huge"), policy())
    assert info.value.kind == FetchError.TOO_LARGE and "104857600 bytes" in str(info.value)


def test_tls_errors_are_reported_as_such(server):
    server.add("/page", "<p>plain http</p>")
    with pytest.raises(FetchError) as info:
        fetch(server.url("/page").replace("http://", "https://"), policy())
    assert info.value.kind == FetchError.TLS and "TLS error" in str(info.value)
    assert not info.value.transient


def test_redirect_chain_longer_than_the_limit_stops(server):
    for hop in range(4):
        server.add(f"/r{hop}", status=302, headers={"Location": f"/r{hop + 1}"})
    server.add("/r4", "<p>end</p>")
    assert fetch(server.url("/r0"), policy(max_redirects=4)).content == b"<p>end</p>"
    with pytest.raises(FetchError) as info:
        fetch(server.url("/r0"), policy(max_redirects=3))
    assert info.value.kind == FetchError.REDIRECTS


def test_static_hosts_map_names_and_keep_the_host_header(server):
    server.add("/named", "<p>hello</p>")
    hosts = StaticHosts("exact.test=127.0.0.1,*.bench.test=127.0.0.1")
    response = fetch(f"http://site-7.bench.test:{server.port}/named", policy(resolver=hosts))
    assert response.content == b"<p>hello</p>"
    assert server.requests[-1][1]["Host"] == f"site-7.bench.test:{server.port}"
    assert hosts("EXACT.test.", 80) == ["127.0.0.1"]


def test_static_hosts_answers_still_pass_the_address_policy(server):
    server.add("/named", "<p>hello</p>")
    with pytest.raises(FetchError) as info:
        fetch(f"http://a.bench.test:{server.port}/named", FetchPolicy(resolver=StaticHosts("*.bench.test=127.0.0.1")))
    assert info.value.kind == FetchError.REFUSED and server.requests == []


def test_static_hosts_spec_errors_are_caught_at_start():
    with pytest.raises(ValueError):
        StaticHosts("no-address.test")
    with pytest.raises(ValueError):
        StaticHosts("a.test=not-an-ip")


def declaring(length: str, body: bytes = b"<p>a page</p>"):
    """A page whose Content-Length header says ``length``, whatever the body is."""
    return lambda handler: hostile._stream(handler, {"Content-Type": "text/html", "Content-Length": length}, [body])


def test_a_content_length_in_superscript_digits_is_no_length(server):
    # str.isdigit() takes "²" (Latin-1 0xB2, as HTTP headers are read), which int() refuses.
    server.add("/sup", declaring("\u00b2\u00b3"))
    assert fetch(server.url("/sup"), policy()).content == b"<p>a page</p>"


def test_a_five_thousand_digit_content_length_is_too_large(server):
    # int() refuses more than 4,300 digits; such a length is over any cap.
    server.add("/long", declaring("9" * 5000))
    with pytest.raises(FetchError) as info:
        fetch(server.url("/long"), policy())
    assert info.value.kind == FetchError.TOO_LARGE and "a 5000-digit number of bytes" in str(info.value)


@pytest.mark.parametrize("location", ["http://[x/", "//[::1", "http://a.example:99999/"])
def test_a_redirect_to_no_address_is_an_invalid_url(server, location):
    # urljoin raises ValueError on "http://[x/"; the fetch says what was wrong instead.
    server.add("/moved", status=302, headers={"Location": location})
    with pytest.raises(FetchError) as info:
        fetch(server.url("/moved"), policy())
    assert info.value.kind == FetchError.INVALID_URL
