"""parse() drops every character an lxml element refuses, so methods can copy text freely."""
import pytest
from lxml import etree

from extraction import extract
from extraction.document import parse

REFUSED = ["\x00", "\x08", "\x0b", "\x0c", "\x1f", "\ufffe", "\uffff"]
STORY = "The river rose two metres overnight and the old bridge was closed to traffic by the police. " * 3


@pytest.mark.parametrize("char", REFUSED)
@pytest.mark.parametrize("as_bytes", [False, True])
@pytest.mark.parametrize("lead", ["", "café "])  # ASCII pages and UTF-8 ones take different routes
def test_parsed_text_can_be_set_on_a_new_element(char, as_bytes, lead):
    html = f"<html><body><p>{lead}before{char}after</p></body></html>"
    text = parse(html.encode() if as_bytes else html).find(".//p").text
    assert text == f"{lead}beforeafter"
    etree.Element("p").text = text  # raises ValueError if lxml refuses a character


@pytest.mark.parametrize("ref", ["&#12;", "&#x0C;", "&#1;", "&#xfffe;", "&#65535;"])
def test_character_references_to_refused_characters_are_dropped(ref):
    assert parse(f"<html><body><p>a{ref}b</p></body></html>".encode()).find(".//p").text == "ab"


@pytest.mark.parametrize("markup", ["&#1;<p>ab</p>", "<p>a&&#1;b</p>", "<p>a#&#x1;b</p>", "<p>a&amp;#1; &#65;&#1;b</p>"])
@pytest.mark.parametrize("as_bytes", [False, True])
def test_references_are_found_at_the_start_and_after_other_ampersands_and_hash_signs(markup, as_bytes):
    # The scan finds each "#" and looks for the "&" before it: the first character of
    # the page and runs of "&" and "#" are its edges.
    doc = parse(markup.encode() if as_bytes else markup)
    assert "\x01" not in "".join(doc.itertext())


def test_a_lone_surrogate_in_text_input_is_dropped():
    assert parse("<html><body><p>a\ud800b</p></body></html>").find(".//p").text == "ab"


@pytest.mark.parametrize("method", ["readability", "boilerpipe", "whitespace", "ttr", "best"])
def test_methods_that_build_new_paragraphs_accept_a_page_with_form_feeds(method):
    html = f"<html><body><div>{STORY}\x0c<br>{STORY}\ufffe &#12;</div></body></html>"
    assert "old bridge was closed" in extract(html.encode(), method=method).text
