"""Refused addresses, probed inside a loopback-only network namespace (see tests/netns.py)."""
import textwrap

from netns import run_isolated

SERVER = """
import json, threading
from urllib.parse import unquote
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

class Redirect(BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(302)
        self.send_header("Location", unquote(self.path[1:]) if self.path.startswith("/http") else "http://169.254.169.254/")
        self.send_header("Content-Length", "0")
        self.end_headers()
    def log_message(self, *args):
        pass

httpd = ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
threading.Thread(target=httpd.serve_forever, daemon=True).start()
LOCAL = f"http://127.0.0.1:{httpd.server_address[1]}"
"""

FETCH_PROBE = SERVER + """
from extraction.fetch import FetchError, FetchPolicy, StaticHosts, fetch, parse_networks

guarded = FetchPolicy(allowed_networks=parse_networks("127.0.0.1/32"), total_timeout=5,
                      resolver=StaticHosts("metadata.test=169.254.169.254,intranet.test=10.1.2.3,*.mapped.test=::ffff:10.0.0.1"))
targets = {
    "link_local": "http://169.254.169.254/latest/meta-data/",
    "private_10": "http://10.0.0.1/", "private_172": "http://172.16.5.4/", "private_192": "http://192.168.1.1/",
    "cgnat": "http://100.64.0.1/", "multicast": "http://224.0.0.1/", "unspecified": "http://0.0.0.0/",
    "loopback_other": "http://127.0.0.2/", "broadcast": "http://255.255.255.255/",
    "ipv6_loopback": "http://[::1]/", "ipv6_link_local": "http://[fe80::1]/", "ipv6_unique_local": "http://[fd00::1]/",
    "ipv6_mapped": "http://[::ffff:10.0.0.1]/", "ipv6_mapped_metadata": "http://[::ffff:169.254.169.254]/",
    "nat64": "http://[64:ff9b::a00:1]/", "sixtofour": "http://[2002:a00:1::1]/",
    "ipv6_multicast": "http://[ff02::1]/",
    "name_to_metadata": "http://metadata.test/", "name_to_private": "http://intranet.test/",
    "name_to_mapped": "http://a.mapped.test/",
    "redirect_to_metadata": LOCAL + "/go", "redirect_to_private": LOCAL + "/http://10.0.0.1/x",
    "redirect_to_ipv6_mapped": LOCAL + "/http://[::ffff:127.0.0.1]/x",
}
result = {}
for name, url in targets.items():
    try:
        fetch(url, guarded)
        result[name] = "FETCHED"
    except FetchError as exc:
        result[name] = exc.kind
# Control: with the guard opened, the same address fails to connect, proving this namespace is sealed.
opened = FetchPolicy(allowed_networks=parse_networks("0.0.0.0/0"), total_timeout=3)
try:
    fetch("http://10.0.0.1/", opened)
    result["control"] = "FETCHED"
except FetchError as exc:
    result["control"] = exc.kind
print(json.dumps(result))
"""


def test_every_non_public_address_is_refused_before_connecting(tmp_path):
    result = run_isolated(FETCH_PROBE, tmp_path)
    control = result.pop("control")
    assert control == "connection"  # no route: the probe could not have leaked anything
    assert result == {name: "refused_address" for name in result}, result
    assert len(result) == 23


FEED_PROBE = SERVER + """
import os, django
os.environ["DJANGO_SETTINGS_MODULE"] = "reader.settings"
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from reader.ingestion import articles, feeds
from reader.models import Feed, Story

feed = Feed.objects.create(url=LOCAL + "/feed.xml")
feeds.refresh(feed)
feed.refresh_from_db()
story = Story.objects.create(feed=feed, guid="s", url=LOCAL + "/http://10.0.0.1/story")
articles.extract_story(story)
story.refresh_from_db()
print(json.dumps({"feed_errors": feed.error_count, "feed_error": feed.last_error,
                  "story_status": story.extraction_status, "story_error": story.extraction_error}))
"""


def test_feed_and_page_redirected_to_metadata_or_private_addresses_record_errors(tmp_path):
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'probe.sqlite3'}", "VAR_DIR": str(tmp_path),
           "FETCH_ALLOWED_NETWORKS": "127.0.0.1/32", "SECRET_KEY": "probe", "REDIS_URL": "",
           "CELERY_BROKER_URL": "memory://", "LOG_LEVEL": "WARNING"}
    result = run_isolated(textwrap.dedent(FEED_PROBE), tmp_path, env)
    assert result["feed_errors"] == 1
    assert "refused to connect to non-public address 169.254.169.254" in result["feed_error"]
    assert result["story_status"] == "failed"
    assert "refused to connect to non-public address 10.0.0.1" in result["story_error"]
