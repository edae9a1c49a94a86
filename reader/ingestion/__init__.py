"""Ingestion: from a feed's URL to stored stories and their extracted pages.

Owns the fetch gate (politeness, fetching), feed parsing (parsing, feed_fields, jsonfeed, charsets, digits),
the fetch schedule, storing stories (feeds), page extraction (articles, batches), the healing sweep, OPML and
subscribing (discovery).

May import: reader.models, reader.queue, reader.ranking, extraction. Never reader.web or reader.tasks.
"""
