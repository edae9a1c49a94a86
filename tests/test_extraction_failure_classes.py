"""Failure classes seen on pages nobody tuned the extractor on (issue 15), each on a
made-up page that shows the class in its plainest form."""
import pytest

from extraction import ExtractionError, extract

WORDS = ("the harbour board met on tuesday to vote on the ferry timetable and heard from residents "
         "who want a later crossing in winter when the roads close").split()


def sentence(seed: int, length: int = 24) -> str:
    words = [WORDS[(seed * 7 + i * 5) % len(WORDS)] for i in range(length)]
    return " ".join(words).capitalize() + "."


def paragraph(seed: int, sentences: int = 3) -> str:
    return " ".join(sentence(seed * 10 + i) for i in range(sentences))


def story(count: int = 6, tag: str = "p") -> str:
    return "".join(f"<{tag}>{paragraph(i)}</{tag}>" for i in range(count))


MENU = "".join(f"<li><a href='/s{i}'>Section {i}</a></li>" for i in range(8))


def test_a_story_nested_in_a_menu_left_open_is_still_found():
    # The last menu item is never closed, so the parser puts the rest of the page,
    # story included, inside the <nav>. A browser shows the story all the same.
    # Prose outside the menu: a notice and a few teasers, less than the story.
    notice = "<div class='notice'>" + "".join(f"<p>{paragraph(20 + i, 2)}</p>" for i in range(2)) + "</div>"
    notice += "".join(f"<div class='teaser'><p>{sentence(30 + i)}</p></div>" for i in range(4))
    page = (f"<html><body>{notice}<header><nav class='main-navigation'><ul>{MENU}<li class='menu-item'>"
            f"<div class='sub-menu'><main><article><h1>Ferry timetable</h1>{story()}</article></main>"
            "</body></html>")
    text = extract(page).text
    assert paragraph(0) in text and paragraph(5) in text


def bare_text_story(count: int = 6) -> str:
    """Paragraphs as bare text between <br> tags, the way old CMSs and wire copy publish."""
    return "<br><br>".join(paragraph(i) for i in range(count))


@pytest.mark.parametrize("layout", [
    # A cell holding the story as bare text, with a captioned photo in a box before it.
    "<table><tr><td><ul>{menu}</ul></td><td><div><img src='a.jpg'><p>Crews at the pier (Wire)</p></div>{story}"
    "</td></tr></table>",
    # The same with the photo in a nested table, as table layouts do.
    "<table><tr><td><ul>{menu}</ul></td><td><table align='right'><tr><td><img src='a.jpg'></td></tr>"
    "<tr><td>(Wire)</td></tr></table>{story}</td></tr></table>",
    # A div holding the story, a photo box and a dateline box.
    "<div id='wrap'><div><ul>{menu}</ul></div><div id='c'><div class='photo'><img src='a.jpg'>"
    "<div>Crews at the pier (Wire)</div></div><div class='date'>Dec 3, 2008</div>{story}</div></div>",
])
def test_bare_text_between_br_tags_beats_its_caption(layout):
    page = "<html><body>" + layout.format(menu=MENU, story=bare_text_story()) + "</body></html>"
    text = extract(page).text
    assert paragraph(0) in text and paragraph(5) in text


def wrapped(seed: int) -> str:
    return f"<div class='para'><p>{paragraph(seed, 2)}</p></div>"


FACTS = "".join(f"<li>{sentence(50 + i, 30)}</li>" for i in range(8))


@pytest.mark.parametrize("body", [
    # Paragraphs each in a box of their own, a list of long facts between them.
    f"{wrapped(0)}{wrapped(1)}<ul>{FACTS}</ul>{wrapped(2)}{wrapped(3)}",
    # The same with every part in a section, the list too.
    f"<section><p>{paragraph(0, 2)}</p></section><section><p>{paragraph(1, 2)}</p></section>"
    f"<section><ul>{FACTS}</ul></section><section><p>{paragraph(2, 2)}</p></section>"
    f"<section><p>{paragraph(3, 2)}</p></section>",
])
def test_a_list_inside_a_story_does_not_become_the_story(body):
    page = f"<html><body><div><ul>{MENU}</ul></div><article>{body}</article></body></html>"
    text = extract(page).text
    assert sentence(50, 30) in text
    assert all(paragraph(i, 2) in text for i in range(4))


def test_links_listed_inside_a_story_do_not_sink_it():
    notes = "".join(f"<li><a href='/n{i}'>Source number {i} for this story</a></li>" for i in range(30))
    page = (f"<html><body><div><ul>{MENU}</ul></div><article><div class='entry'>{paragraph(0, 2)}"
            f"<p>{paragraph(1, 1)}</p><ul>{notes}</ul></div></article>"
            f"<div class='aside'><p>{sentence(40, 30)}</p></div></body></html>")
    text = extract(page).text
    assert paragraph(0, 2) in text and paragraph(1, 1) in text


def post(number: int) -> str:
    body = "".join(f"<p>{paragraph(10 * number + j, 2)}</p>" for j in range(4))
    return (f"<div class='entry'><h2 class='entry-title'><a href='/2009/03/post-{number}'>Post number {number}</a>"
            f"</h2><div class='entry-body'>{body}</div></div>")


def test_a_page_of_several_posts_gives_the_first_post():
    page = f"<html><body><div><ul>{MENU}</ul></div><div id='content'>{''.join(post(n) for n in range(1, 7))}</div></body></html>"
    text = extract(page).text
    first = "\n\n".join(paragraph(10 + j, 2) for j in range(4))
    assert first in text
    assert len(text) < 1.2 * len(first)


def test_sections_of_one_story_under_their_own_headings_stay_together():
    sections = "".join(f"<section class='part'><h2><a href='#part-{n}'>Part {n}</a></h2><p>{paragraph(n, 2)}</p>"
                       f"<p>{paragraph(n + 10, 2)}</p></section>" for n in range(5))
    page = f"<html><body><div><ul>{MENU}</ul></div><article>{sections}</article></body></html>"
    text = extract(page).text
    assert all(paragraph(n, 2) in text and paragraph(n + 10, 2) in text for n in range(5))


def test_a_story_whose_every_box_is_named_like_furniture_still_comes_out():
    # Every paragraph is a "gallery caption": the names are wrong, the story is the page.
    captions = "".join(f"<div class='gallery-caption'>{paragraph(i)}</div>" for i in range(6))
    page = f"<html><body><div><ul>{MENU}</ul></div><div class='gallery-page'>{captions}</div></body></html>"
    text = extract(page).text
    assert paragraph(0) in text and paragraph(5) in text


def test_first_paragraphs_in_a_box_above_the_body_join_the_story():
    intro = f"<div class='top'><p>{paragraph(0)}</p></div>"
    body = "<div class='rest'>" + "".join(f"<p>{paragraph(i)}</p>" for i in range(1, 6)) + "</div>"
    page = f"<html><body><div><ul>{MENU}</ul></div><div class='page'>{intro}{body}</div></body></html>"
    text = extract(page).text
    assert text.startswith(paragraph(0)) and paragraph(5) in text


@pytest.mark.parametrize("wrap", [
    "<div id='page' style='display: none'>{}</div><script>reveal()</script>",
    "<div hidden>{}</div>",
    "<noscript>{}</noscript>",
])
def test_a_table_laid_out_page_whose_text_waits_for_a_script_still_gives_its_text(wrap):
    layout = f"<table width='760'><tr><td width='160'>&nbsp;</td><td>{story(4)}</td></tr></table>"
    page = ('<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"><html><body>'
            + wrap.format(layout) + "</body></html>")
    text = extract(page.encode()).text
    assert paragraph(0) in text and paragraph(3) in text


def test_a_page_without_any_text_is_still_refused():
    with pytest.raises(ExtractionError):
        extract("<html><body><div hidden><img src='a.jpg'></div><noscript></noscript></body></html>")
