"""Fetch a story's page and extract its article with the configured method."""
from __future__ import annotations

from django.conf import settings

import extraction
from extraction.fetch import FetchError

from . import fetching
from .models import Story


def method_for(story: Story) -> str:
    return story.feed.extraction_method or settings.EXTRACTION_METHOD


def extract_story(story: Story) -> Story:
    """Fill in the story's article; a failure is recorded on the story, never raised."""
    method = method_for(story)
    try:
        if not story.url:
            raise extraction.ExtractionError("the feed gave no link for this story")
        response = fetching.get(story.url)
        article = extraction.extract(response.content, url=response.url, method=method, charset=response.charset)
    except (FetchError, extraction.ExtractionError) as exc:
        story.extraction_status = Story.Extraction.FAILED
        story.extraction_error = str(exc)[:2000]
    else:
        story.extracted_text = article.text
        story.extracted_html = article.html
        story.lead_image = (article.lead_image or "")[:2000]
        story.author = story.author or (article.author or "")[:500]
        story.extraction_status = Story.Extraction.DONE
        story.extraction_error = ""
    story.extraction_method = method
    story.save()
    return story
