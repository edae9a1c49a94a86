"""Fetch a story's page and extract its article with the configured method."""
from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.utils import timezone

import extraction
from extraction.document import xml_text
from extraction.fetch import FetchError

from ..models import Feed, Story
from . import fetching

# What an extraction writes, in one UPDATE; the fields a worker loads a story with (see load()).
RESULT_FIELDS = ["extracted_text", "extracted_html", "lead_image", "author", "extraction_status", "extraction_error",
                 "extraction_method", "snippet", "updated_at"]
# The snippet is chosen between the article and the feed's text, so those are read too.
NEEDED_FIELDS = ["id", "feed_id", "url", "title", "author", "summary_html", "summary_length", "extraction_status"]


def _statements() -> tuple[str, str]:
    """The page task's read and write, built once from the models: the ORM compiled them again for every page,
    which cost more CPU (~1 ms) than the rest of the task's database work."""
    quote, story, feed = connection.ops.quote_name, Story._meta, Feed._meta
    columns = ", ".join(f"s.{quote(story.get_field(f.removesuffix('_id') or f).column)}" for f in NEEDED_FIELDS)
    read = (f"SELECT {columns}, f.{quote(feed.get_field('extraction_method').column)} FROM {quote(story.db_table)} s "
            f"JOIN {quote(feed.db_table)} f ON f.{quote(feed.pk.column)} = s.{quote(story.get_field('feed').column)} "
            f"WHERE s.{quote(story.pk.column)} = %s")
    write = (f"UPDATE {quote(story.db_table)} SET "
             + ", ".join(f"{quote(story.get_field(f).column)} = %s" for f in RESULT_FIELDS)
             + f" WHERE {quote(story.pk.column)} = %s")
    return read, write


READ, WRITE = _statements()


def load(story_id: int) -> Story | None:
    """The story with what extraction needs (its feed's method included), or None when it is gone."""
    with connection.cursor() as cursor:
        cursor.execute(READ, [story_id])
        row = cursor.fetchone()
    if row is None:
        return None
    story = Story.from_db(connection.alias, NEEDED_FIELDS, row[:-1])  # the other fields are deferred
    story.feed = Feed.from_db(connection.alias, ["id", "extraction_method"], [story.feed_id, row[-1]])
    return story


def _save_result(story: Story) -> None:
    story.updated_at = timezone.now()
    values = [Story._meta.get_field(f).get_db_prep_save(getattr(story, f), connection) for f in RESULT_FIELDS]
    with connection.cursor() as cursor:
        cursor.execute(WRITE, values + [story.id])


def method_for(story: Story) -> str:
    return story.feed.extraction_method or settings.EXTRACTION_METHOD


def record_failure(story: Story, message: str) -> Story:
    story.extraction_status = Story.Extraction.FAILED
    story.extraction_error = xml_text(message)[:2000]  # a message may quote what a stranger sent (PostgreSQL refuses NUL)
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
    _save_result(story)  # the feed's fields are not written back with it
    return story
