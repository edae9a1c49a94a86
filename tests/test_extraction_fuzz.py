"""Hypothesis-fuzzed input for every registered method: an Article or an ExtractionError."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from extraction import METHODS, Article, ExtractionError, extract

TAGS = ["div", "p", "span", "a", "ul", "li", "table", "td", "tr", "h1", "h2", "script", "style", "nav",
        "article", "br", "img", "pre", "blockquote", "form", "figure", "figcaption", "aside", "footer"]
ATTRS = ["", " class='content'", " class='share ad'", " id='comments'", " href='/x'", " style='display:none'",
         " hidden", " class='story-body'", " aria-hidden='true'", " src='a.png'"]

words = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)
open_tag = st.builds(lambda t, a: f"<{t}{a}>", st.sampled_from(TAGS), st.sampled_from(ATTRS))
close_tag = st.builds(lambda t: f"</{t}>", st.sampled_from(TAGS))
html_soup = st.lists(st.one_of(open_tag, close_tag, words, st.just("&amp;"), st.just("<!--"), st.just("-->")),
                     max_size=120).map("".join)


def check(data, method, charset=None):
    try:
        result = extract(data, method=method, charset=charset)
    except ExtractionError as exc:
        assert str(exc)
        return
    assert isinstance(result, Article)
    assert isinstance(result.text, str) and isinstance(result.html, str)
    assert "<script" not in result.html.lower()


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("method", sorted(METHODS))
@FUZZ
@given(data=st.binary(max_size=3000))
def test_any_bytes(method, data):
    check(data, method)


@pytest.mark.parametrize("method", sorted(METHODS))
@FUZZ
@given(soup=html_soup, charset=st.sampled_from([None, "utf-8", "latin-1", "shift_jis", "bogus"]))
def test_tag_soup(method, soup, charset):
    check(soup.encode("utf-8", errors="replace"), method, charset)


@pytest.mark.parametrize("method", sorted(METHODS))
@FUZZ
@given(soup=html_soup)
def test_str_input(method, soup):
    check(soup, method)
