"""Fetch a story's page and extract its article with the configured method."""
from __future__ import annotations

from django.conf import settings

import extraction
from extraction.fetch import FetchError

from . import fetching
from .models import Story

# What an extraction writes, in one UPDATE; the fields a worker loads a story with (see tasks.fetch_story_page).
RESULT_FIELDS = ["extracted_text", "extracted_html", "lead_image", "author", "extraction_status", "extraction_error",
                 "extraction_method", "snippet", "updated_at"]
# The snippet is chosen between the article and the feed's text, so those are read too.
NEEDED_FIELDS = ["id", "url", "title", "author", "summary_html", "summary_length", "extraction_status",
                 "feed__extraction_method"]


def method_for(story: Story) -> str:
    return story.feed.extraction_method or settings.EXTRACTION_METHOD


def record_failure(story: Story, message: str) -> Story:
    story.extraction_status = Story.Extraction.FAILED
    story.extraction_error = message[:2000]
    story.extraction_method = method_for(story)
    story.save(update_fields=["extraction_status", "extraction_error", "extraction_method", "updated_at"])
    return story


def extract_story(story: Story, max_wait: float = 30.0, raise_transient: bool = False,
                  booking: int | None = None) -> Story:
    """Fill in the story's article; a failure is recorded on the story, never raised.

    With raise_transient, a failure worth retrying (timeout, 5xx, 429) is raised instead, for the caller to
    retry later; politeness.HostBusy is always raised, as nothing was tried.
    """
    method = method_for(story)
    try:
        if not story.url:
            raise extraction.ExtractionError("the feed gave no link for this story")
        response = fetching.get(story.url, max_wait=max_wait, booking=booking)
        article = extraction.extract(response.content, url=response.url, method=method, charset=response.charset)
    except FetchError as exc:
        if raise_transient and exc.transient:
            raise
        return record_failure(story, str(exc))
    except extraction.ExtractionError as exc:
        return record_failure(story, str(exc))
    story.extracted_text = article.text
    story.extracted_html = article.html
    story.lead_image = (article.lead_image or "")[:2000]
    story.author = story.author or (article.author or "")[:500]
    story.extraction_status = Story.Extraction.DONE
    story.extraction_error = ""
    story.extraction_method = method
    story.refresh_snippet()
    story.save(update_fields=RESULT_FIELDS)  # the feed's fields are not written back with it
    return story
