"""Plain-text rendering of an article subtree and the sanitized HTML."""
import lxml.html
from lxml import etree

from extraction.render import element_text, html_to_text, sanitized_html
from extraction.sanitize import clean_feed_html


def test_blocks_split_paragraphs_and_inline_tags_join():
    html = "<div><p>W<b>hale</b> song.</p><p>Second <a href='#'>one</a></p><ul><li>x</li><li>y</li></ul></div>"
    assert html_to_text(html) == "Whale song.\n\nSecond one\n\nx\n\ny"


def test_invisible_elements_are_skipped_but_their_tail_kept():
    assert html_to_text("<p>before<script>var x</script> after</p>") == "before after"


def test_preformatted_text_keeps_its_lines():
    text = html_to_text("<div><p>Code:</p><pre>if x:\n    y()\n\nz()</pre></div>")
    assert text == "Code:\n\nif x:\n    y()\n\nz()"


def test_table_cells_are_separated():
    assert html_to_text("<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>") == "a b\n\nc"


def test_a_fragment_lxml_refuses_comes_back_as_it_stands():
    # Feed titles and content reach html_to_text too: a declaration or a control character must not raise.
    assert html_to_text('<?xml version="1.0" encoding="utf-8"?><b>x</b>') == "x"
    assert html_to_text("a\x01 <b>b</b>") == "a\x01 <b>b</b>"
    assert html_to_text("Tom &amp;  Jerry") == "Tom & Jerry" and html_to_text("no  markup") == "no markup"


def test_deep_nesting_does_not_exhaust_the_stack():
    # Built by hand: the HTML parser itself stops nesting at a few thousand levels.
    root = node = lxml.html.Element("div")
    for _ in range(5_000):  # well past the interpreter's recursion limit
        node = etree.SubElement(node, "span")
    node.text = "deep"
    assert element_text(root) == "deep"


def test_sanitized_html_drops_scripts_and_handlers_keeps_structure():
    root = lxml.html.fromstring(
        '<div><h2 onclick="x()">Head</h2><figure><img src="https://e.org/a.png" onerror="x()">'
        '<figcaption>Cap</figcaption></figure><a href="javascript:alert(1)">bad</a><script>x()</script>'
        '<table><tr><td>1</td></tr></table></div>')
    out = sanitized_html(root)
    assert "<h2>Head</h2>" in out and "<figcaption>Cap</figcaption>" in out and "<td>1</td>" in out
    assert 'src="https://e.org/a.png"' in out
    for bad in ("onclick", "onerror", "javascript:", "<script"):
        assert bad not in out


def test_ruby_readings_stay_out_of_the_text_and_in_the_html():
    """Furigana (<rt>) gloss the words under them: the sentence reads without them, the page still shows them."""
    root = lxml.html.fromstring("<div><p>今日は<ruby>漢<rp>(</rp><rt>かん</rt><rp>)</rp>字<rt>じ</rt></ruby>を書く。</p></div>")
    assert element_text(root) == "今日は漢字を書く。"
    assert "<rt>かん</rt>" in sanitized_html(root)


def test_a_fragment_nested_past_the_parser_cap_keeps_its_text():
    # A feed's content of 100,000 nested <div>s: libxml2 stops at 2,048 and dropped the rest.
    assert html_to_text("<div>" * 100_000 + "deep" + "</div>" * 100_000 + "<p>after</p>") == "deep\n\nafter"


def test_feed_html_keeps_no_address_whose_scheme_goes_unchecked():
    html = clean_feed_html('<blockquote cite="javascript:alert(1)">Quoted</blockquote><q cite="https://x.example/">q</q>'
                           '<ins cite="javascript:x" datetime="2024-01-05">new</ins>')
    assert "javascript" not in html and "cite=" not in html
    assert "Quoted" in html and 'datetime="2024-01-05"' in html
