"""The edges of a story, on made-up pages: a lead printed above the body in a box of its
own further up the page, and what follows the body. Issue 15: classes seen on the
tuning halves of the development sets across many sites."""
import pytest

from extraction import extract

WORDS = ("the harbour board met on tuesday to vote on the ferry timetable and heard from residents "
         "who want a later crossing in winter when the roads close").split()


def sentence(seed: int, length: int = 24) -> str:
    words = [WORDS[(seed * 7 + i * 5) % len(WORDS)] for i in range(length)]
    return " ".join(words).capitalize() + "."


def paragraph(seed: int, sentences: int = 3) -> str:
    return " ".join(sentence(seed * 10 + i) for i in range(sentences))


def story(count: int = 6) -> str:
    return "".join(f"<p>{paragraph(i)}</p>" for i in range(count))


LEAD = "Residents asked for a later winter crossing, and the board agreed to look at the timetable again in spring."
MENU = "".join(f"<li><a href='/s{i}'>Section {i}</a></li>" for i in range(8))


def page_with_header(header_box: str) -> str:
    """An article whose header (title, byline, one box) sits apart from the body's
    columns, three levels above the body's paragraphs."""
    return (f"<html><body><nav><ul>{MENU}</ul></nav><article><header><h1>Ferry timetable</h1>"
            f"<div class='byline'>By A. Writer, 3 May</div>{header_box}</header>"
            f"<div class='columns'><div class='main-column'><div class='body-text'>{story()}</div></div>"
            "<div class='side-column'><p>Sign up</p></div></div></article></body></html>")


@pytest.mark.parametrize("name", ["article-intro", "story-teaser", "af-chapo"])
def test_a_lead_named_as_such_in_the_article_header_joins_the_story(name):
    text = extract(page_with_header(f"<div class='{name}'><p>{LEAD}</p></div>")).text
    assert text.index(LEAD) < text.index(paragraph(0))
    assert paragraph(5) in text and "By A. Writer" not in text


def test_a_box_that_describes_the_author_or_an_image_is_no_lead():
    bio = "Ann Writer covers the harbour, the ferries and the town council for this paper since the year 2009."
    for name in ("author-description", "img_description"):
        text = extract(page_with_header(f"<div class='{name}'><p>{bio}</p></div>")).text
        assert bio not in text and paragraph(0) in text


def test_a_paragraph_between_the_lead_box_and_the_body_stops_the_search():
    # The nearest paragraph above the body is an unnamed one: a lead further up is
    # another part of the page (a teaser of another story), not this story's lead.
    teaser = "Another story entirely: the new bridge over the river opens next week after years of work on it."
    header = f"<p class='summary'>{teaser}</p><div class='note'><p>{paragraph(40)}</p></div>"
    text = extract(page_with_header(header)).text
    assert teaser not in text and paragraph(0) in text


def story_page(after: str, between: str = "") -> str:
    return (f"<html><body><nav><ul>{MENU}</ul></nav><div class='body-text'>{story(3)}{between}{story(6)[len(story(3)):]}"
            f"{after}</div></body></html>")


def test_linked_lines_after_the_last_paragraph_go():
    after = ("<p><strong>Read also:</strong> <a href='/other'>The bridge opens next week after years of work</a></p>"
             "<p><a href='/x'>Council votes on the new parking rules for the old town</a></p>"
             "<div class='tools'><a href='/print'>Print</a></div>")
    text = extract(story_page(after)).text
    assert paragraph(5) in text
    assert "The bridge opens" not in text and "parking rules" not in text and "Print" not in text


def test_a_linked_line_among_the_paragraphs_stays():
    between = "<p>Learn more about <a href='/ferries'>the ferries and their timetables this winter</a></p>"
    text = extract(story_page("", between)).text
    assert "Learn more about the ferries" in text and paragraph(5) in text


def test_a_linked_reference_inside_the_last_sentence_stays():
    # An element the extractor does not know (a custom tag) holding a linked footnote
    # number inside the last paragraph is part of that sentence, not a line of its own.
    last = f"<p>{paragraph(9)} (<hl-source><a href='/ref/3'>3</a></hl-source>).</p>"
    text = extract(story_page(last)).text
    assert "(3)." in text


def test_a_line_that_is_all_link_among_the_paragraphs_goes():
    between = "<p><a href='/other'>Read: the new bridge opens next week after years of work on it</a></p>"
    text = extract(story_page("", between)).text
    assert "new bridge" not in text and paragraph(0) in text and paragraph(5) in text


def test_a_labelled_link_to_another_story_among_the_paragraphs_goes():
    between = ("<p><strong>See also:</strong> <a href='/other'>The new bridge opens next week after years of work</a></p>"
               "<p>Learn more about <a href='/ferries'>the ferries and their timetables this winter</a></p>")
    text = extract(story_page("", between)).text
    assert "new bridge" not in text and "Learn more about the ferries" in text and paragraph(5) in text


def test_a_list_that_outweighs_the_prose_around_it_brings_that_prose_along():
    # A recipe: its steps (long list items) outweigh the introduction beside them, but
    # the introduction is the same story.
    intro = "A cake for the winter evenings when the ferry does not run and the harbour is quiet and cold."
    steps = "".join(f"<li>{paragraph(i, 2)}</li>" for i in range(6))
    page = (f"<html><body><nav><ul>{MENU}</ul></nav><div class='recipe'><h1>Harbour cake</h1><p>{intro}</p>"
            f"<div class='steps'><ol class='preparation'>{steps}</ol></div></div></body></html>")
    text = extract(page).text
    assert intro in text and paragraph(0, 2) in text and paragraph(5, 2) in text


def test_a_list_alone_on_its_page_stays_alone():
    items = "".join(f"<li>{paragraph(i, 2)}</li>" for i in range(6))
    page = (f"<html><body><div class='wrap'><nav><ul>{MENU}</ul></nav><div class='main'><ul>{items}</ul>"
            "<p class='small'>Page 1</p></div></div></body></html>")
    text = extract(page).text
    assert paragraph(0, 2) in text and "Section 3" not in text


def test_a_long_quote_brings_the_post_around_it_along():
    comment = "This is what the harbour board wrote to us last week, and we do not agree with a word of it."
    quote = "".join(f"<p>{paragraph(i)}</p>" for i in range(5))
    page = (f"<html><body><nav><ul>{MENU}</ul></nav><div class='entry'><h1>Their letter</h1><p>{comment}</p>"
            f"<blockquote>{quote}</blockquote><p>Short reply.</p></div></body></html>")
    text = extract(page).text
    assert comment in text and paragraph(0) in text and paragraph(4) in text
