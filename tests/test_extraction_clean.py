"""Cleaning the chosen subtree: furniture goes, the story's own structure stays."""
import lxml.html

from extraction.clean import clean_article

PARA = "A sentence of the story that is long enough to read as prose in a paragraph of text. "


def cleaned(html, title=""):
    node = lxml.html.fragment_fromstring(html, create_parent="div")
    clean_article(node, title)
    return node


def test_share_bar_related_links_and_forms_go():
    node = cleaned(f"<p>{PARA}</p><div class='share-tools'><a href='#'>Facebook</a> <a href='#'>Twitter</a></div>"
                   f"<p>{PARA}</p><ul><li><a href='/a'>Related story one</a></li><li><a href='/b'>Another</a></li>"
                   f"<li><a href='/c'>A third</a></li></ul>"
                   f"<form><input name='q'><button>Subscribe</button></form><p>{PARA}</p>")
    text = node.text_content()
    assert text.count("A sentence") == 3
    for gone in ("Facebook", "Related story", "Subscribe"):
        assert gone not in text


def test_headings_lists_tables_quotes_and_code_stay():
    node = cleaned(f"<h2>Background</h2><p>{PARA}</p><ul><li>first point</li><li>second point</li></ul>"
                   f"<table><tr><th>Year</th><td>2019</td></tr></table><blockquote>quoted words</blockquote>"
                   f"<pre><code>x = 1</code></pre><p>{PARA}</p>")
    for kept in ("h2", "ul", "table", "blockquote", "pre"):
        assert node.find(f".//{kept}") is not None, kept


def test_embedded_post_is_story_material():
    node = cleaned(f"<p>{PARA}</p><blockquote class='twitter-tweet'><p>A tweet quoted in the story</p></blockquote>")
    assert "A tweet quoted" in node.text_content()


def test_hidden_elements_go():
    node = cleaned(f"<p>{PARA}</p><div style='display: none'>secret</div><p hidden>also secret</p>")
    assert "secret" not in node.text_content()


def test_heading_repeating_the_title_goes():
    node = cleaned(f"<h1>Bridge to be rebuilt</h1><p>{PARA}</p>", title="Bridge to be rebuilt | Town News")
    assert node.find(".//h1") is None


def test_text_after_a_removed_element_is_kept():
    node = cleaned(f"<p>{PARA}<span class='ad'>AD</span> and the tail stays.</p>")
    assert "and the tail stays." in node.text_content()


def test_a_lone_linked_line_with_words_of_its_own_stays_and_a_line_of_links_only_goes():
    # Issue 15: a line that is all link ("<a>Read: another story</a>") among the
    # paragraphs is a teaser; one with words of its own is the story's.
    node = cleaned(f"<p>{PARA}</p><p>Learn more about <a href='/guide'>the budget</a></p>"
                   f"<p><a href='/other'>Read: the harbour gets a new pier</a></p><p>{PARA}</p>")
    assert "Learn more about the budget" in node.text_content()
    assert "new pier" not in node.text_content()


def test_table_cells_that_repeat_stay():
    rows = "".join(f"<tr><td>{i}</td><td>Driver {i}</td><td>0</td><td>1</td></tr>" for i in range(2, 7))
    node = cleaned(f"<p>{PARA}</p><table>{rows}</table>")
    assert [td.text for td in node.iter("td")].count("0") == 5


def test_a_list_of_linked_headlines_goes_and_a_list_of_points_with_links_stays():
    teaser = ("<li><div><div><h3><a href='/t{0}'>Another story headline number {0}</a></h3></div>"
              "<div><div>Agency</div></div></div></li>")
    point = "<li>{1} with <a href='/p{0}'>a source</a>.</li>"
    items = "".join(teaser.format(i) for i in range(4))
    points = "".join(point.format(i, PARA) for i in range(4))
    node = cleaned(f"<p>{PARA}</p><h2>What to read next</h2><ul>{items}</ul><ol>{points}</ol>")
    text = node.text_content()
    assert "story headline" not in text
    assert text.count("a source") == 4


def test_a_page_wrapped_in_a_form_keeps_its_text_and_loses_its_controls():
    # ASP.NET wraps whole pages in one <form>; when the chosen article holds it, the
    # story is inside. A form with only a label and its controls still goes.
    node = cleaned(f"<div><form id='aspnetForm'><p>{PARA}</p><p>{PARA}</p><input name='q'><button>Go</button>"
                   "</form><form><label>Search the site</label><input name='s'></form></div>")
    text = node.text_content()
    assert text.count("A sentence") == 2
    assert "Go" not in text and "Search the site" not in text


def test_furniture_goes_in_page_order_so_the_text_after_it_is_the_same_every_run():
    # A removed element's tail moves onto the element before it. Removed in a set's order
    # (memory addresses), a run of adverts left the blank lines between them in front of
    # the sentence that follows, in some runs and not in others.
    ads = "".join(f"<div class='ad'>Advert {i}</div>\n  " for i in range(30))
    node = cleaned(f"<div><p>{PARA}</p><p>{PARA}</p>{ads}<div class='ad'>Last advert</div> and the story goes on."
                   f"<p>{PARA}</p></div>")
    assert "Advert" not in node.text_content()
    assert node[0][1].tail == " and the story goes on."
