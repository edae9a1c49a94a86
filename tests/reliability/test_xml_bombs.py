"""Feed and OPML XML attacks: entity expansion, external entities and DTDs, hidden past the first 64 KB
or in other encodings. Each is refused or read without expansion, fast, in little memory, and no local
file's content ever reaches a stored row."""
import time
import tracemalloc

import pytest
from django.contrib.auth.models import User

from reader.ingestion import feeds, opml
from reader.models import Feed, Story, Subscription

from .figures import record

pytestmark = [pytest.mark.reliability, pytest.mark.django_db]

TOKEN = "LEAKED-SECRET-7f3a"
LAUGHS = "".join(f'<!ENTITY lol{i} "{("&lol%d;" % (i - 1)) * 10}">' for i in range(1, 10))


def doctype(root: str, dtd: str) -> str:
    return f'<?xml version="1.0"?>\n<!DOCTYPE {root} [<!ENTITY lol0 "lol">{dtd}]>\n'


def rss(prolog: str, text: str) -> str:
    return (f'{prolog}<rss version="2.0"><channel><title>T {text}</title><link>http://example.com/</link>'
            f'<item><title>{text}</title><guid>g1</guid><description>{text}</description></item></channel></rss>')


def opml_doc(prolog: str, text: str) -> str:
    return (f'{prolog}<opml version="2.0"><head><title>{text}</title></head><body>'
            f'<outline text="{text}" type="rss" xmlUrl="http://example.com/{text}.xml"/></body></opml>')


def payloads(secret_path, dtd_url) -> dict:
    """name -> (prolog, text that uses it); applied to both feeds and OPML."""
    padding = f"<!--{'x' * 70_000}-->\n"
    return {
        "billion laughs": (doctype("rss", LAUGHS), "&lol9;"),
        "quadratic blowup": (doctype("rss", f'<!ENTITY big "{"A" * 100_000}">'), "&big;" * 2_000),
        "external entity (file)": (doctype("rss", f'<!ENTITY xxe SYSTEM "file://{secret_path}">'), "&xxe;"),
        "external entity (http)": (doctype("rss", f'<!ENTITY xxe SYSTEM "{dtd_url}">'), "&xxe;"),
        "parameter entity": (doctype("rss", f'<!ENTITY % p SYSTEM "file://{secret_path}">%p;'), "x"),
        "external DTD": (f'<?xml version="1.0"?>\n<!DOCTYPE rss SYSTEM "{dtd_url}">\n', "&xxe;"),
        "bomb after 70 KB of comment": ('<?xml version="1.0"?>\n' + padding
                                        + doctype("rss", LAUGHS).split("\n", 1)[1], "&lol9;"),
    }


def encodings(document: str) -> dict:
    return {"utf-8": document.encode(),
            "utf-16": document.replace('<?xml version="1.0"?>', '<?xml version="1.0" encoding="utf-16"?>')
            .encode("utf-16")}


def measured(action):
    tracemalloc.start()
    started = time.monotonic()
    outcome = action()
    seconds = time.monotonic() - started
    peak = tracemalloc.get_traced_memory()[1] / 2 ** 20
    tracemalloc.stop()
    return outcome, seconds, peak


def stored_text() -> str:
    rows = list(Story.objects.values_list("title", "summary_html")) + list(Feed.objects.values_list("title", "notice"))
    rows += list(Subscription.objects.values_list("folder", flat=True))
    return repr(rows)


def test_xml_attacks_are_refused_or_inert(server, allow_loopback, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text(TOKEN)
    dtd_url = server.add("/evil.dtd", f'<!ENTITY xxe "{TOKEN}">', headers={"Content-Type": "application/xml-dtd"})
    user = User.objects.create_user("bomb-reader")
    results, worst_seconds, worst_mb = {}, 0.0, 0.0
    for name, (prolog, text) in payloads(secret, dtd_url).items():
        for encoding, data in encodings(rss(prolog.replace("rss", "rss", 1), text)).items():
            path = f"/feed-{len(results)}.xml"
            server.add(path, data, headers={"Content-Type": "application/rss+xml"})
            feed = Feed.objects.create(url=server.url(path))
            _, seconds, peak = measured(lambda: feeds.refresh(feed))
            feed.refresh_from_db()
            results[f"feed {name} {encoding}"] = "refused" if feed.error_count else "read"
            worst_seconds, worst_mb = max(worst_seconds, seconds), max(worst_mb, peak)
        for encoding, data in encodings(opml_doc(prolog.replace("rss", "opml", 1), text)).items():
            def attempt():
                try:
                    return opml.import_opml(user, data)
                except opml.OpmlError:
                    return None
            report, seconds, peak = measured(attempt)
            results[f"opml {name} {encoding}"] = "refused" if report is None else "read"
            worst_seconds, worst_mb = max(worst_seconds, seconds), max(worst_mb, peak)
    leaked = TOKEN in stored_text() or "lollollol" in stored_text()
    dtd_fetches = sum(1 for path, _ in server.requests if path == "/evil.dtd")
    refused = sum(1 for outcome in results.values() if outcome == "refused")
    record("xml_bombs", "Feed and OPML XML attacks (7 payloads x UTF-8/UTF-16 x feed/OPML)", {
        "documents": len(results), "refused": refused, "read without expansion": len(results) - refused,
        "slowest s": round(worst_seconds, 2), "peak MB": round(worst_mb, 1),
        "secret file leaked": leaked, "external DTD/entity fetches": dtd_fetches,
    }, "no leak, no fetch, < 2 s and < 50 MB each")
    assert not leaked
    assert dtd_fetches == 0
    assert worst_seconds < 2 and worst_mb < 50
    # Every entity-declaring document is refused outright; only the external-DTD one may be read (inertly).
    assert {k for k, v in results.items() if v == "read"} <= {f"{kind} external DTD {enc}" for kind in ("feed", "opml")
                                                             for enc in ("utf-8", "utf-16")}, results


def test_feed_with_a_broken_encoding_parses_in_linear_time():
    """Found by the fuzzer: feedparser's encoding guess (chardet) was quadratic in runs of letters."""
    from reader.ingestion.parsing import parse

    timings = {}
    for size in (10_000, 1_000_000):
        feed = (b'<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>\xed\xa0\x80</title>'
                b'<item><title>t</title><link>http://example.com/' + b"a" * size + b'</link></item></channel></rss>')
        started = time.monotonic()
        parsed = parse(feed, "http://example.com/feed.xml")
        timings[size] = time.monotonic() - started
        assert len(parsed.entries) == 1
    record("broken_encoding", "Feed with invalid UTF-8 and a long run of letters", {
        "10 KB s": round(timings[10_000], 3), "1 MB s": round(timings[1_000_000], 2)}, "< 2 s for 1 MB")
    assert timings[1_000_000] < 2
