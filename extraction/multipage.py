"""Articles split over several pages: find the "next page" link, follow it, join the parts.

The link is chosen the way Readability does it: every link of the same site whose URL
differs from the article's base URL by digits is scored from its text ("next", "»", a
small page number), its and its ancestors' class/id (pagination patterns) and its URL
(page=2, /2/); words like "previous", "first" or "comments" count against it. Up to five
more pages are fetched through the caller's ``fetch`` (the safe fetcher under a
``FetchPolicy`` by default) and their paragraphs appended, leaving out paragraphs already
seen.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from urllib.parse import urldefrag, urlsplit

import lxml.html

from .article import Article
from .document import parse
from .fetch import FetchPolicy, fetch as fetch_url
from .pipeline import extract
from .sanitize import clean_article_html

MAX_PAGES = 5
MIN_SCORE = 50
NEXT = re.compile(r"next|weiter|continue|suivant|siguiente|>([^|]|$)|»([^|]|$)", re.I)
FIRST_LAST = re.compile(r"first|last", re.I)
BACK = re.compile(r"prev|earl|old|new|<|«", re.I)
PAGINATION = re.compile(r"pag(e|ing|inat)", re.I)
EXTRANEOUS = re.compile(r"print|archive|comment|discuss|e-?mail|share|reply|all|login|sign|single", re.I)
NEGATIVE = re.compile(r"combx|comment|contact|foot|footer|footnote|masthead|media|meta|outbrain|promo|related|"
                      r"scroll|shoutbox|sidebar|sponsor|shopping|tags|tool|widget", re.I)
PAGE_IN_URL = re.compile(r"p(a|g|ag)?(e|ing|ination)?(=|/)[0-9]{1,2}|(page|paging)", re.I)
_PAGE_SUFFIX = re.compile(r"(/|[-_.,]|\b(page|p|seite)[-_=/]?)(\d{1,2})(\.\w{2,5})?/?$", re.I)


def base_url(url: str) -> str:
    """The article's URL without fragment, query and trailing page number."""
    parts = urlsplit(urldefrag(url)[0])
    path = _PAGE_SUFFIX.sub("", parts.path).rstrip("/")
    return f"{parts.scheme}://{parts.netloc}{path}"


def page_number(url: str) -> int:
    """The page number at the end of the URL's path, 1 when there is none."""
    found = _PAGE_SUFFIX.search(urlsplit(urldefrag(url)[0]).path)
    return int(found.group(3)) if found else 1


def _signature(el) -> str:
    return f"{el.get('class', '')} {el.get('id', '')}"


def score_link(link, url: str, base: str) -> float | None:
    """How much ``link`` looks like the next page of ``url``; None when it cannot be."""
    href = urldefrag(link.get("href") or "")[0].rstrip("/")
    text = " ".join(link.text_content().split())
    if not href or href == url.rstrip("/") or urlsplit(href).netloc != urlsplit(url).netloc:
        return None
    if len(text) > 25 or not re.search(r"\d", href.replace(base, "", 1)):
        return None
    own = f"{text} {_signature(link)}"
    score = 0.0 if href.startswith(base) else -25.0
    score += -25 if EXTRANEOUS.search(text) else 0
    score += 50 if NEXT.search(own) else 0
    score += 25 if PAGINATION.search(own) else 0
    score += -65 if FIRST_LAST.search(text) and not NEXT.search(text) else 0
    score += -50 if NEGATIVE.search(_signature(link)) or EXTRANEOUS.search(_signature(link)) else 0
    score += -200 if BACK.search(own) else 0
    score += _ancestor_score(link)
    score += 25 if PAGE_IN_URL.search(href) else 0
    score += -15 if EXTRANEOUS.search(href) else 0
    if text.isdecimal():  # int() takes these; str.isdigit() also takes "²", which int() refuses
        # Page numbers up to the current one lead back; the closest one ahead is favoured.
        if int(text) <= page_number(url):
            return None
        score += max(0, 10 - (int(text) - page_number(url)))
    return score


def _ancestor_score(link) -> float:
    """+25 once for a pagination-looking ancestor, -25 once for a boilerplate-looking one."""
    score, positive, negative = 0.0, False, False
    for el in link.iterancestors():
        signature = _signature(el)
        if not positive and PAGINATION.search(signature):
            score, positive = score + 25, True
        if not negative and NEGATIVE.search(signature) and not PAGINATION.search(signature):
            score, negative = score - 25, True
    return score


def find_next_page(doc, url: str, seen: Collection[str] = ()) -> str | None:
    """The URL of the page that continues the article in ``doc``, if one scores high enough.

    Links must be absolute (``make_links_absolute``); pages in ``seen`` are never chosen.
    """
    base = base_url(url)
    best, best_score = None, MIN_SCORE - 1e-9
    for link in doc.iter("a"):
        if urldefrag(link.get("href") or "")[0] in seen:
            continue
        score = score_link(link, url, base)
        if score is not None and score > best_score:
            best, best_score = urldefrag(link.get("href"))[0], score
    return best


@dataclass(frozen=True)
class Fetched:
    content: str | bytes
    url: str  # after redirects
    charset: str | None = None


def safe_fetch(policy: FetchPolicy = FetchPolicy()) -> Callable[[str], Fetched]:
    """A ``fetch`` for ``extract_pages`` over the safe fetcher (raises ``FetchError``)."""
    def fetch(url: str) -> Fetched:
        response = fetch_url(url, policy)
        return Fetched(response.content, response.url, response.charset)

    return fetch


def _fetched(result, url: str) -> Fetched:
    """A fetch may answer with a page's bytes or text, or with a ``Fetched``."""
    return result if isinstance(result, Fetched) else Fetched(result, url)


def extract_pages(html: str | bytes, url: str, method: str = "clump", fetch: Callable | None = None,
                  max_pages: int = MAX_PAGES, policy: FetchPolicy | None = None,
                  charset: str | None = None) -> Article:
    """Extract ``url`` and up to ``max_pages`` further pages of the same article, joined.

    ``fetch(url)`` returns the page as bytes, str or ``Fetched``; it defaults to the safe
    fetcher under ``policy`` (``safe_fetch``). ``charset`` is the first page's HTTP
    charset. A page that fails to fetch or extract ends the series: the parts so far are
    kept, and the reason is recorded in ``article.extras["pagination_error"]``.
    """
    if fetch is None:
        fetch = safe_fetch(policy or FetchPolicy())
    article = extract(html, url=url, method=method, charset=charset)
    seen_paragraphs = set(_paragraph_keys(article.text))
    pages, texts, bodies = [url], [article.text], [article.html]
    current = Fetched(html, url, charset)
    for _ in range(max_pages):
        next_url = find_next_page(_linked(current), current.url, seen=pages)
        if not next_url:
            break
        try:
            current = _fetched(fetch(next_url), next_url)
            part = extract(current.content, url=current.url, method=method, charset=current.charset)
        except Exception as exc:  # noqa: BLE001 - whatever a later page does, the pages so far are kept
            article.extras["pagination_error"] = f"{next_url}: {exc}"
            break
        text, body = _new_paragraphs(part, seen_paragraphs)
        if not text:
            break
        pages.append(next_url)
        texts.append(text)
        bodies.append(body)
    article.text = "\n\n".join(texts)
    article.html = clean_article_html("".join(bodies))
    article.extras["pages"] = pages
    return article


def _linked(page: Fetched):
    doc = parse(page.content, page.charset)
    doc.make_links_absolute(page.url, resolve_base_href=True, handle_failures="discard")
    return doc


def _key(paragraph: str) -> str:
    return " ".join(paragraph.lower().split())


def _paragraph_keys(text: str) -> list[str]:
    return [_key(p) for p in text.split("\n\n") if p.strip()]


def _new_paragraphs(part: Article, seen: set[str]) -> tuple[str, str]:
    """The part's paragraphs (text and HTML) that earlier pages did not already hold."""
    fresh = [p for p in part.text.split("\n\n") if p.strip() and _key(p) not in seen]
    keys = {_key(p) for p in fresh}
    seen.update(keys)
    if not fresh:
        return "", ""
    fragment = lxml.html.fragment_fromstring(part.html or "<div></div>", create_parent="div")
    for el in list(fragment.iter("p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre")):
        if el.getparent() is not None and _key(el.text_content()) not in keys:
            el.drop_tree()
    return "\n\n".join(fresh), lxml.html.tostring(fragment, encoding="unicode")
