"""SSRF: ~33 non-public addresses x {literal, fake DNS name, 1..5 redirects}, bad schemes and credentials,
through the feed fetcher, the page fetcher and the public extraction API, inside a loopback-only namespace."""
import pytest

from netns import run_isolated

from .figures import record
from .hostile import SERVER_ADDRESS
from .probe_env import PRELUDE, reader_env

pytestmark = pytest.mark.reliability

PROBE = PRELUDE + """
from extraction.fetch import FetchError, FetchPolicy, fetch, parse_networks
from tests.reliability.hostile import SERVER_ADDRESS, cases, start_redirector
from django.test import Client
from reader.ingestion import articles, feeds, fetching
from reader.models import Feed, Story

redirector = start_redirector()
raised = []
real_fetch = fetching.fetch

def spy(url, policy, headers=None):
    try:
        return real_fetch(url, policy, headers)
    except FetchError as exc:
        raised.append(exc.kind)
        raise

fetching.fetch = spy
BLOCKED = {"refused_address", "invalid_url"}
home = Feed.objects.create(url=redirector + "/home.xml")
client = Client()

def via_feed(url):
    feed = Feed.objects.create(url=url)
    feeds.refresh(feed)
    feed.refresh_from_db()
    return feed.error_count == 1

def via_page(url):
    story = articles.extract_story(Story.objects.create(feed=home, guid=url, url=url))
    return story.extraction_status == "failed"

def via_api(url):
    return client.post("/api/extract", {"url": url}, content_type="application/json").status_code in (400, 403)

result = {}
for name, check in (("feed", via_feed), ("page", via_page), ("api", via_api)):
    missed = []
    all_cases = cases(redirector)
    for case, url in all_cases:
        raised.clear()
        failed = check(url)
        if not (failed and raised and raised[-1] in BLOCKED):
            missed.append([case, raised[-1] if raised else "no error"])
    result[name] = {"cases": len(all_cases), "missed": missed}
result["non_loopback"] = log.non_loopback
result["other_loopback"] = sorted({a for a in log.attempts if a not in log.non_loopback and a != SERVER_ADDRESS})
# Control: with the guard open, a private address fails to connect, so the namespace really is sealed.
try:
    fetch("http://10.0.0.1/", FetchPolicy(allowed_networks=parse_networks("0.0.0.0/0"), total_timeout=3))
    result["control"] = "fetched"
except FetchError as exc:
    result["control"] = exc.kind
print(json.dumps(result))
"""


def test_every_non_public_target_is_blocked_by_every_fetcher(tmp_path):
    result = run_isolated(PROBE, tmp_path, reader_env(tmp_path), timeout=600)
    assert result.pop("control") == "connection"
    non_loopback = result.pop("non_loopback")
    other_loopback = result.pop("other_loopback")
    total = sum(r["cases"] for r in result.values())
    missed = {name: r["missed"] for name, r in result.items() if r["missed"]}
    blocked = total - sum(len(m) for m in missed.values())
    record("ssrf", "SSRF: non-public targets through feed, page and API fetchers", {
        "cases": total, "per fetcher": result["feed"]["cases"], "blocked %": round(100 * blocked / total, 2),
        "non-loopback connections": len(non_loopback),
        f"loopback connections other than {SERVER_ADDRESS}": len(other_loopback),
    }, "100% blocked, 0 non-loopback connections")
    assert missed == {}
    assert non_loopback == []
    assert other_loopback == []
    assert total >= 3 * 30 * 7
