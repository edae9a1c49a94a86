"""DNS rebinding: a name answers an allowed address when checked and a private one a moment later.

The fetcher must resolve once and connect to the address it checked, whatever the name answers next.
Here an allowed loopback address stands in for "public", and a second server on 127.0.0.1 is the secret
one; the classic public-then-loopback variant runs too. All inside a loopback-only namespace.
"""
import pytest

from netns import run_isolated

from .figures import record

pytestmark = pytest.mark.reliability

PROBE = """
import json, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from tests.reliability.hostile import SERVER_ADDRESS, ConnectionLog
from extraction.fetch import FetchError, FetchPolicy, fetch, parse_networks

log = ConnectionLog()
hits = {"checked": [], "secret": []}

def serve(address, name, port=0):
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            hits[name].append(self.headers.get("Host"))
            body = name.encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        def log_message(self, *args):
            pass
    httpd = ThreadingHTTPServer((address, port), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd.server_address[1]

checked_port = serve(SERVER_ADDRESS, "checked")
serve("127.0.0.1", "secret", checked_port)  # the same port on the secret address

class Rebinding:
    # First answer passes the policy; every later answer is the secret address.
    def __init__(self, first, then):
        self.first, self.then, self.calls = first, then, 0
    def __call__(self, host, port):
        self.calls += 1
        return [self.first] if self.calls == 1 else [self.then]

result = {"fetches": 0, "served_by_checked": 0, "reached_secret": 0, "refused_mixed": 0}
for round in range(20):
    resolver = Rebinding(SERVER_ADDRESS, "127.0.0.1")
    policy = FetchPolicy(allowed_networks=parse_networks(SERVER_ADDRESS + "/32"), resolver=resolver, total_timeout=5)
    response = fetch(f"http://rebind-{round}.evil.test:{checked_port}/", policy)
    result["fetches"] += 1
    result["served_by_checked"] += response.content == b"checked"
result["reached_secret"] = len(hits["secret"])
result["host_headers_ok"] = all(h.startswith("rebind-") for h in hits["checked"])
# Both answers at once (round robin): refused outright.
for round in range(5):
    policy = FetchPolicy(allowed_networks=parse_networks(SERVER_ADDRESS + "/32"), total_timeout=5,
                         resolver=lambda host, port: [SERVER_ADDRESS, "127.0.0.1"])
    try:
        fetch(f"http://mixed.evil.test:{checked_port}/", policy)
    except FetchError as exc:
        result["refused_mixed"] += exc.kind == "refused_address"
# The classic form: a public address first (unreachable in this namespace), then loopback.
classic = Rebinding("93.184.216.34", "127.0.0.1")
try:
    fetch(f"http://classic.evil.test:{checked_port}/", FetchPolicy(resolver=classic, total_timeout=3, connect_timeout=1))
    result["classic"] = "fetched"
except FetchError as exc:
    result["classic"] = exc.kind
result["classic_reached_secret"] = len(hits["secret"])
result["attempts"] = log.attempts
print(json.dumps(result))
"""


def test_connection_goes_to_the_checked_address(tmp_path):
    result = run_isolated(PROBE, tmp_path)
    attempts = result.pop("attempts")
    record("rebinding", "DNS rebinding: the name flips to 127.0.0.1 after the check", {
        "fetches": result["fetches"], "served by the checked address": result["served_by_checked"],
        "requests reaching the rebound address": result["classic_reached_secret"],
        "mixed answers refused": f"{result['refused_mixed']}/5",
    }, "every connection to the checked address; 0 to the rebound one")
    assert result["served_by_checked"] == result["fetches"] == 20
    assert result["reached_secret"] == 0 and result["classic_reached_secret"] == 0
    assert result["host_headers_ok"]
    assert result["refused_mixed"] == 5
    assert result["classic"] == "connection"  # it went for the public address, which is unreachable here
    assert "93.184.216.34" in attempts and attempts.count("127.0.0.1") == 0
