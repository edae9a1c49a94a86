"""Pages nested deeper than libxml2 builds keep their text, as in a browser."""
import pytest

from extraction import extract
from extraction.document import parse
from extraction.nesting import MAX_DEPTH, flatten

STORY = "<p>" + "Residents packed the hall to hear the plan for the harbour wall. " * 20 + "</p>"


def depth(element) -> int:
    deepest, level = 0, [(element, 0)]
    while level:
        node, d = level.pop()
        deepest = max(deepest, d)
        level.extend((child, d + 1) for child in node)
    return deepest


@pytest.mark.parametrize("as_bytes", [False, True])
def test_a_story_after_thousands_of_unclosed_tags_is_found(as_bytes):
    # Old pages that never close <font> pile up open elements; past libxml2's cap of
    # 2,048 the whole rest of the page used to vanish and extraction found no text.
    page = "<html><body>" + "<font size=2>" * 5_000 + "<h1>Harbour wall</h1>" + STORY * 3 + "</body></html>"
    article = extract(page.encode() if as_bytes else page)
    assert article.text.count("Residents packed the hall") == 60


def test_text_after_a_deep_branch_is_kept():
    page = "<html><body>" + "<div>" * 100_000 + "deep text" + "</div>" * 100_000 + STORY + "</body></html>"
    doc = parse(page)
    assert "deep text" in doc.text_content() and "Residents packed" in doc.text_content()
    assert depth(doc) <= MAX_DEPTH + 2


def test_flatten_caps_depth_and_keeps_all_text():
    markup = "<div>" * 10 + "a" + "<span>b</span>" + "</div>" * 10
    flat = flatten(markup, max_depth=4)
    assert flat == "<div>" * 4 + "a<span>b</span>".replace("<span>", "").replace("</span>", "") + "</div>" * 4


def test_flatten_leaves_a_shallow_page_alone():
    page = ("<html><head><title>a <b> title</title><script>if (a<b) x='<div>'</script></head><body>"
            "<!-- <div><div> --><p>one<p>two<br><img src=x><ul><li>a<li>b</ul></body></html>")
    assert flatten(page, max_depth=6) == page


def test_implied_end_tags_and_void_elements_do_not_count_as_depth():
    markup = "<div>" + "<p>line<br>" * 50 + "<li>item" * 50 + "</div>"
    assert flatten(markup, max_depth=3) == markup


def test_an_end_tag_that_closes_nothing_goes():
    # Kept, it could close an ancestor of the same name early.
    assert flatten("<div><b>x</i></b>y</div>") == "<div><b>x</b>y</div>"
