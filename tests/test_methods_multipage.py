"""Multi-page articles: next-page links found like Readability, pages fetched from a loopback server."""
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import lxml.html
import pytest

from extraction.fetch import FetchPolicy, parse_networks
from extraction.multipage import base_url, extract_pages, find_next_page, safe_fetch

# The safe fetcher refuses loopback unless the policy allows it, as the reader's setting does in tests.
LOOPBACK = FetchPolicy(allowed_networks=parse_networks("127.0.0.1/32"))

PARAGRAPHS = {
    1: "The expedition left the base camp before dawn, carrying food for ten days and a radio that "
       "had already failed twice during the approach through the valley.",
    2: "On the third day the weather turned, and the climbers spent two nights in a snow cave, "
       "rationing fuel and listening to the wind tear at the ridge above them.",
    3: "When the sky finally cleared, they reached the summit at noon, took a single photograph, "
       "and started down at once, knowing the next storm was only hours away.",
}
REPEATED = "This story is part of our series on mountaineering, published with the alpine club."


def page(n, last=3, loop=False):
    pager = '<div class="pagination">'
    if n > 1:
        pager += f'<a href="/story/page/{n - 1}">« Previous</a> '
    pager += " ".join(f'<a href="/story/page/{i}">{i}</a>' for i in range(1, last + 1))
    if n < last:
        pager += f' <a class="next" href="/story/page/{n + 1}">Next page »</a>'
    elif loop:
        pager += ' <a class="next" href="/story/page/2">Next page »</a>'
    pager += "</div>"
    return (f"<html><head><title>Expedition</title></head><body><div class='article'><h1>The climb</h1>"
            f"<p>{PARAGRAPHS[n]}</p><p>{REPEATED}</p></div>{pager}"
            f"<a href='/story/page/{n}/comments'>Comments 12</a></body></html>")


@pytest.fixture
def server():
    requests = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            requests.append(self.path)
            number = self.path.rsplit("/", 1)[-1]
            if not number.isdigit() or int(number) not in PARAGRAPHS or int(number) == self.server.missing:
                self.send_error(404)
                return
            body = page(int(number), loop=self.server.loop).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.loop = False
    httpd.missing = None
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    httpd.requests = requests
    httpd.root = f"http://127.0.0.1:{httpd.server_address[1]}"
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def fetch(url):
    assert url.startswith("http://127.0.0.1:")
    return safe_fetch(LOOPBACK)(url).content


def linked(html, url):
    doc = lxml.html.document_fromstring(html)
    doc.make_links_absolute(url)
    return doc


def test_next_link_beats_page_numbers_previous_and_comments():
    url = "https://news.example/story/page/2"
    assert find_next_page(linked(page(2), url), url) == "https://news.example/story/page/3"


def test_no_next_link_on_the_last_page_or_to_another_site():
    url = "https://news.example/story/page/3"
    assert find_next_page(linked(page(3), url), url) is None
    other = '<html><body><a class="next" href="https://elsewhere.example/story/page/2">Next »</a></body></html>'
    assert find_next_page(linked(other, url), url) is None


def test_page_numbers_in_other_digits_are_read_or_passed_over():
    # "²" passes str.isdigit() but not int(); an Arabic-Indic "٣" is a number int() reads.
    url = "https://news.example/story/page/2"
    pager = ('<div class="pagination"><a href="/story/page/9">\u00b2</a>'
             '<a href="/story/page/3">\u0663</a></div>')
    assert find_next_page(linked(f"<html><body>{pager}</body></html>", url), url) == "https://news.example/story/page/3"


def test_base_url_drops_the_page_number():
    assert base_url("https://a.example/story/page/2?x=1#top") == "https://a.example/story"
    assert base_url("https://a.example/news/story-2.html") == "https://a.example/news/story"


def test_follows_pages_and_joins_them_without_duplicates(server):
    start = f"{server.root}/story/page/1"
    article = extract_pages(fetch(start), start, method="readability", policy=LOOPBACK)
    assert [article.text.count(PARAGRAPHS[n]) for n in (1, 2, 3)] == [1, 1, 1]
    assert article.text.count(REPEATED) == 1
    assert article.text.index(PARAGRAPHS[1]) < article.text.index(PARAGRAPHS[2]) < article.text.index(PARAGRAPHS[3])
    assert article.extras["pages"] == [start, f"{server.root}/story/page/2", f"{server.root}/story/page/3"]
    assert article.html.count("snow cave") == 1


def test_a_loop_back_to_a_seen_page_stops(server):
    server.loop = True
    start = f"{server.root}/story/page/1"
    article = extract_pages(fetch(start), start, method="readability", policy=LOOPBACK)
    assert len(article.extras["pages"]) == 3 and server.requests.count("/story/page/2") == 1


def test_max_pages_limits_the_fetches(server):
    start = f"{server.root}/story/page/1"
    article = extract_pages(fetch(start), start, method="readability", policy=LOOPBACK, max_pages=1)
    assert PARAGRAPHS[2] in article.text and PARAGRAPHS[3] not in article.text
    assert server.requests == ["/story/page/1", "/story/page/2"]


def test_a_failing_page_keeps_the_parts_already_read(server):
    start = f"{server.root}/story/page/2"

    def flaky(url):
        raise OSError("connection refused")

    article = extract_pages(fetch(start), start, method="readability", fetch=flaky)
    assert PARAGRAPHS[2] in article.text and "connection refused" in article.extras["pagination_error"]


def test_the_default_fetcher_refuses_loopback_and_keeps_the_first_page(server):
    start = f"{server.root}/story/page/1"
    article = extract_pages(fetch(start), start, method="readability")
    assert PARAGRAPHS[1] in article.text and PARAGRAPHS[2] not in article.text
    assert "refused" in article.extras["pagination_error"] and server.requests == ["/story/page/1"]


def test_a_missing_page_ends_the_series_with_the_fetch_error(server):
    server.missing = 3
    start = f"{server.root}/story/page/1"
    article = extract_pages(fetch(start), start, method="readability", policy=LOOPBACK)
    assert PARAGRAPHS[2] in article.text and PARAGRAPHS[3] not in article.text
    assert "HTTP 404" in article.extras["pagination_error"]
