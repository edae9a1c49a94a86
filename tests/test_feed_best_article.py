"""The reader shows the better article: the page's extracted text when the feed carries a teaser."""
from reader.models import Story

LONG = "A full paragraph of the article. " * 30


def story(summary_length, extracted, status=Story.Extraction.DONE):
    return Story(summary_html="<p>feed</p>", summary_length=summary_length, extracted_text=extracted,
                 extracted_html="<p>page</p>", extraction_status=status)


def test_teaser_feed_shows_the_extracted_page():
    s = story(40, LONG)
    assert s.best_is_extracted and s.best_html == "<p>page</p>" and s.best_text == LONG


def test_full_content_feed_shows_its_own_content():
    s = story(len(LONG), LONG[:-20])
    assert not s.best_is_extracted and s.best_html == "<p>feed</p>" and s.best_text == "feed"


def test_failed_or_pending_extraction_shows_the_feed():
    assert story(10, LONG, Story.Extraction.FAILED).best_html == "<p>feed</p>"
    assert story(10, "", Story.Extraction.PENDING).best_html == "<p>feed</p>"
