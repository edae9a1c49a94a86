"""Arc90 Readability, as the original bookmarklet describes it.

Strip unlikely candidates by class/id, turn text-only divs into paragraphs, score every
paragraph (a base point, one per comma, up to three for length) into its parent and half
into its grandparent, scale by link density, then gather the top candidate with its good
siblings and clean the result conditionally. When that yields too little text, the page
is read again without stripping unlikely candidates.
"""
from __future__ import annotations

import copy
import re

import lxml.html
from lxml import etree

from ..article import ExtractionError
from ..tags import CODE_TAGS
from .subtree_text import SubtreeText

UNLIKELY = re.compile(
    r"combx|comment|community|disqus|extra|foot|header|menu|remark|rss|shoutbox|sidebar|sponsor|"
    r"ad-break|agegate|pagination|pager|popup|tweet|twitter",
    re.I,
)
MAYBE = re.compile(r"and|article|body|column|main|shadow", re.I)
POSITIVE = re.compile(r"article|body|content|entry|hentry|main|page|pagination|post|text|blog|story", re.I)
NEGATIVE = re.compile(
    r"combx|comment|com-|contact|foot|footer|footnote|masthead|media|meta|outbrain|promo|related|"
    r"scroll|shoutbox|sidebar|sponsor|shopping|tags|tool|widget",
    re.I,
)
_BLOCK_CHILDREN = {"a", "blockquote", "dl", "div", "img", "ol", "p", "pre", "table", "ul"}
_TAG_SCORE = {"div": 5, "pre": 3, "td": 3, "blockquote": 3, "address": -3, "ol": -3, "ul": -3, "dl": -3,
              "dd": -3, "dt": -3, "li": -3, "form": -3, "h1": -5, "h2": -5, "h3": -5, "h4": -5,
              "h5": -5, "h6": -5, "th": -5}
_JUNK = (*CODE_TAGS, "link", "iframe", "object", "embed")
_MIN_ARTICLE = 250
_EMBEDS = ("embed", "object", "iframe", "video")
# What the conditional cleaning counts under each container.
_COUNTED = frozenset({"p", "img", "li", "input", *_EMBEDS})


def inner_text(el) -> str:
    """The element's text with whitespace runs collapsed."""
    return " ".join("".join(el.itertext()).split())


def class_weight(el) -> int:
    """±25 for the class and again for the id, by the positive/negative patterns."""
    weight = 0
    for value in (el.get("class"), el.get("id")):
        if value:
            weight += -25 if NEGATIVE.search(value) else 0
            weight += 25 if POSITIVE.search(value) else 0
    return weight


def paragraph_score(length: int, commas: int) -> float:
    """A base point, one per comma, one per hundred characters up to three."""
    return 1 + commas + min(length // 100, 3)


def find_article(doc):
    pristine = copy.deepcopy(doc)
    article = _grab(doc, strip_unlikely=True)
    if len(inner_text(article)) < _MIN_ARTICLE:
        article = _grab(pristine, strip_unlikely=False)
    if not inner_text(article):
        raise ExtractionError("readability found no article")
    return article


def _grab(doc, strip_unlikely: bool):
    body = doc.find("body") if doc.find("body") is not None else doc
    etree.strip_elements(body, *_JUNK, with_tail=False)
    paragraphs = _prepare(body, strip_unlikely)
    measures = SubtreeText(body, _COUNTED)
    scores: dict = {}
    for p in paragraphs:
        length = measures.length(p)
        parent = p.getparent()
        if parent is None or length < 25:
            continue
        grand = parent.getparent()
        points = paragraph_score(length, measures.commas(p))
        for node, share in ((parent, 1.0), (grand, 0.5)):
            if node is not None and isinstance(node.tag, str):
                if node not in scores:
                    scores[node] = _TAG_SCORE.get(node.tag, 0) + class_weight(node)
                scores[node] += points * share
    if not scores:
        return body
    scaled = {node: score * (1 - measures.link_density(node)) for node, score in scores.items()}
    top = max(scaled, key=scaled.get)
    article = _gather(top, scaled, measures)
    _clean(article, measures)
    return article


def _prepare(body, strip_unlikely: bool) -> list:
    """Drop unlikely candidates, turn text-only divs into paragraphs; return the paragraphs."""
    paragraphs = []
    stack = [body]
    while stack:
        el = stack.pop()
        if strip_unlikely and el is not body and _unlikely(el):
            _drop(el)
            continue
        stack.extend(reversed([c for c in el if isinstance(c.tag, str)]))
        if el.tag in ("p", "td", "pre"):
            paragraphs.append(el)
        elif el.tag == "div":
            if not any(isinstance(c.tag, str) and c.tag in _BLOCK_CHILDREN for c in el.iterdescendants()):
                el.tag = "p"
                paragraphs.append(el)
            else:
                paragraphs.extend(_wrap_loose_text(el))
    return paragraphs


def _unlikely(el) -> bool:
    if el.tag in ("body", "html", "article", "a"):
        return False
    signature = f"{el.get('class', '')} {el.get('id', '')}"
    return bool(UNLIKELY.search(signature)) and not MAYBE.search(signature)


def _wrap_loose_text(div) -> list:
    """Text sitting directly in a div becomes a paragraph of its own."""
    made = []
    if div.text and div.text.strip():
        p = lxml.html.Element("p")
        p.text, div.text = div.text, None
        div.insert(0, p)
        made.append(p)
    for child in list(div):
        if child.tail and child.tail.strip() and child.tag != "p":
            p = lxml.html.Element("p")
            p.text, child.tail = child.tail, None
            child.addnext(p)
            made.append(p)
    return made


def _drop(el, measures: SubtreeText | None = None) -> None:
    parent = el.getparent()
    if parent is not None:
        el.drop_tree()
        if measures is not None:
            measures.removed_from(parent)


def _gather(top, scores: dict, measures: SubtreeText):
    """The top candidate plus siblings scoring above max(10, 20% of the top)."""
    parent = top.getparent()
    if parent is None:
        return top
    threshold = max(10.0, scores[top] * 0.2)
    wrapper = lxml.html.Element("div")
    for sibling in list(parent):
        if not isinstance(sibling.tag, str):
            continue
        if sibling is top or _good_sibling(sibling, top, scores, threshold, measures):
            sibling.tail = None
            wrapper.append(sibling)
    measures.removed_from(parent)
    return wrapper


def _good_sibling(sibling, top, scores: dict, threshold: float, measures: SubtreeText) -> bool:
    bonus = scores[top] * 0.2 if sibling.get("class") and sibling.get("class") == top.get("class") else 0
    if sibling in scores and scores[sibling] + bonus >= threshold:
        return True
    if sibling.tag != "p":
        return False
    text, density = inner_text(sibling), measures.link_density(sibling)
    if len(text) > 80:
        return density < 0.25
    return density == 0 and re.search(r"\.( |$)", text) is not None


def _clean(article, measures: SubtreeText) -> None:
    """Remove forms, headers that look like boilerplate and containers that fail the conditional test.

    Forms go only now, not before scoring: some sites wrap the whole page in one.
    """
    for el in list(article.iter("form")):
        if el is not article:
            _drop(el, measures)
    for el in list(article.iter("h1", "h2", "h3")):
        if class_weight(el) < 0 or measures.link_density(el) > 0.33:
            _drop(el, measures)
    for el in reversed(list(article.iter("table", "ul", "ol", "div"))):
        if el is not article and _fishy(el, measures):
            _drop(el, measures)


def _fishy(el, measures: SubtreeText) -> bool:
    """Readability's conditional cleaning: few commas plus a suspicious mix of content."""
    weight = class_weight(el)
    if weight < 0:
        return True
    if measures.commas(el) >= 10:
        return False
    count = lambda *tags: measures.count(el, *tags)  # noqa: E731
    paragraphs, images, items, inputs, embeds = count("p"), count("img"), count("li"), count("input"), count(*_EMBEDS)
    length, density = measures.length(el), measures.link_density(el)
    return (
        images > paragraphs
        or (items > paragraphs and el.tag not in ("ul", "ol"))
        or inputs > paragraphs / 3
        or (length < 25 and (images == 0 or images > 2))
        or (weight < 25 and density > 0.2)
        or (weight >= 25 and density > 0.5)
        or (embeds == 1 and length < 75)
        or embeds > 1
    )
