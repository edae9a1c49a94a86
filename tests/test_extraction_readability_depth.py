"""Readability's text measures cost the page's size, not its size times its depth, and stay exact.

A 1 MB layout of 500 nested tables took the readability method a minute (every candidate's text was read
again from the text itself), long enough for one pasted page to hold a worker of the public extraction demo.
"""
import lxml.html
from hypothesis import given, settings, strategies as st

from extraction import extract
from extraction.methods import readability
from extraction.methods.subtree_text import SubtreeText

COUNTED = frozenset({"p", "li", "img"})
WORDS = st.sampled_from(["", " ", "a", "b,", " c ", "d\n", ",", "\u00a0e", "f g"])


@st.composite
def trees(draw, depth=0):
    tag = draw(st.sampled_from(["div", "p", "a", "li", "img", "span"]))
    children = [] if depth > 3 else draw(st.lists(trees(depth + 1), max_size=3))
    text, tails = draw(WORDS), draw(st.lists(WORDS, min_size=len(children), max_size=len(children)))
    inner = "".join(child + tail for child, tail in zip(children, tails))
    return f"<{tag}>{text}{inner}</{tag}>"


def naive(el) -> tuple:
    text = readability.inner_text(el)
    links = sum(len(readability.inner_text(a)) for a in el.iter("a"))
    counts = tuple(sum(1 for _ in el.iter(tag)) - (el.tag == tag) for tag in sorted(COUNTED))
    return len(text), text.count(","), links / len(text) if text else 0.0, counts


def measured(measures, el) -> tuple:
    counts = tuple(measures.count(el, tag) for tag in sorted(COUNTED))
    return measures.length(el), measures.commas(el), measures.link_density(el), counts


@settings(max_examples=300, deadline=None)
@given(trees(), st.data())
def test_measures_equal_reading_the_text_before_and_after_removals(markup, data):
    root = lxml.html.fragment_fromstring(f"<div>{markup}</div>")
    measures = SubtreeText(root, COUNTED)
    assert all(measured(measures, el) == naive(el) for el in root.iter())
    elements = list(root.iter())[1:]
    for el in data.draw(st.lists(st.sampled_from(elements), max_size=3, unique=True)) if elements else []:
        parent = el.getparent()
        if parent is not None and el in list(root.iter()):
            el.drop_tree()
            measures.removed_from(parent)
    assert all(measured(measures, el) == naive(el) for el in root.iter())


def test_deep_tables_are_read_a_bounded_number_of_times(monkeypatch):
    cell = "".join(f"<p>Paragraph {i}, with words enough to count as a paragraph of a story.</p>" for i in range(4))
    page = ("<html><body>" + f"<table><tr><td>{cell}" * 400 + "</td></tr></table>" * 400 + "</body></html>")
    read = []
    original = readability.inner_text
    monkeypatch.setattr(readability, "inner_text", lambda el: read.append(text := original(el)) or text)
    article = extract(page, method="readability")
    # Before, each of the 400 levels read all the text below it: about 200 times the story.
    assert sum(map(len, read)) < 4 * len(article.text)
    assert article.text.count("Paragraph 3,") == 400
