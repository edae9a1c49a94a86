"""The clump method finds the story among page furniture."""
import pytest

from extraction import ExtractionError, extract
from extraction.document import parse
from extraction.methods.clump import find_article

PARA = ("The council voted on Tuesday to rebuild the old bridge, a project that residents "
        "have requested for more than a decade, and work is expected to start in spring. ")


def paragraphs(n, tag="p"):
    return "".join(f"<{tag}>{PARA}Paragraph {i}.</{tag}>" for i in range(n))


def page(body):
    return f"<html><head><title>Bridge</title></head><body>{body}</body></html>"


def nav_links(n=30):
    return "<ul>" + "".join(f"<li><a href='/s{i}'>Section number {i}</a></li>" for i in range(n)) + "</ul>"


def test_story_wins_over_navigation_and_footer():
    html = page(f"<div id='menu'>{nav_links()}</div><div class='story'>{paragraphs(6)}</div>"
                f"<footer><p>{PARA}</p></footer>")
    text = extract(html).text
    assert text.count("Paragraph") == 6
    assert "Section number" not in text


def test_teaser_list_loses_to_one_story():
    teasers = "".join(f"<li><h3><a href='/t{i}'>Other story {i}</a></h3><div>{PARA}</div></li>" for i in range(12))
    html = page(f"<main><article><div class='body'>{paragraphs(8)}</div></article></main>"
                f"<section><ul>{teasers}</ul></section>")
    text = extract(html).text
    assert text.count("Paragraph") == 8
    assert "Other story" not in text


def test_story_split_over_sibling_containers_is_merged():
    html = page(f"<div class='wrap'><div class='part'>{paragraphs(6)}</div>"
                f"<div class='ad-slot'><a href='/ad'>Buy now</a></div>"
                f"<div class='part'>{paragraphs(3)}</div></div>{nav_links()}")
    text = extract(html).text
    assert text.count("Paragraph") == 9
    assert "Buy now" not in text



@pytest.mark.parametrize(("second", "merged"), [("story-body story-body-2", True), ("more-text", False)])
def test_a_smaller_part_of_the_same_kind_is_merged(second, merged):
    # Three paragraphs beside twelve are too few for any sibling, but enough for one
    # that carries the story container's own class.
    html = page(f"<div class='wrap'><div class='story-body story-body-1'>{paragraphs(12)}</div>"
                f"<div class='ad-slot'><a href='/ad'>Buy now</a></div>"
                f"<div class='{second}'>{paragraphs(3, 'div')}</div></div>{nav_links()}")
    assert extract(html).text.count("Paragraph") == (15 if merged else 12)


def test_a_lead_paragraph_beside_the_body_is_part_of_the_story():
    lead = "Officials said the vote ends ten years of debate about the crossing, and work starts soon."
    html = page(f"<div class='article'><div class='article__perex'>{lead}</div>"
                f"<div class='author'>By Sam Reporter</div><div class='article__content'>{paragraphs(10)}</div></div>"
                f"<div class='teaser-summary'><a href='/other'>{lead}</a></div>{nav_links()}")
    text = extract(html).text
    assert text.startswith("Officials said") and text.count("Paragraph") == 10

def test_misleading_wrapper_name_does_not_hide_the_story():
    # A furniture word on a wrapper holding most of the page's prose is not furniture.
    html = page(f"<div class='layout has-sidebar page-ad-margins'><div>{paragraphs(6)}</div>"
                f"<aside>{nav_links(5)}</aside></div>")
    assert extract(html).text.count("Paragraph") == 6


def test_comments_are_not_the_story():
    comments = "".join(f"<div class='comment'><p>{PARA} I disagree {i}.</p></div>" for i in range(4))
    html = page(f"<div class='post'>{paragraphs(5)}</div><div id='comments'>{comments}</div>")
    text = extract(html).text
    assert text.count("Paragraph") == 5
    assert "disagree" not in text


def test_page_of_links_falls_back_to_the_body():
    assert find_article(parse(page(nav_links()))).tag == "body"


def test_short_page_is_its_own_article():
    assert extract(page("<p>Short note.</p>")).text == "Short note."


def test_page_without_text_is_an_error():
    with pytest.raises(ExtractionError):
        extract(page("<div><img src='a.png'></div>"))


def test_lead_paragraphs_beside_the_main_container_stay():
    html = page(f"<div class='article'><p>The lead paragraph sets out what happened. {PARA}</p>"
                f"<p>The second paragraph adds context. {PARA}</p><div class='rest'>{paragraphs(12)}</div></div>"
                f"{nav_links()}")
    text = extract(html).text
    assert text.startswith("The lead paragraph") and text.count("Paragraph") == 12
